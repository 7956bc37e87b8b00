"""苏州麻将 (Suzhou) scorer: additive 花 counting, the 三花自摸四花冲 minimum, 包 payments.

Everything follows ``rules/suzhou.md`` (§5 minimum, §6 elements, §7 payment).  The dragons
中发白 are flowers: they are bonus tiles (``ctx.hand.bonus``), never in the count vector or in
melds.  There is no 吃 and no wildcard.

Elements (unit 花, all added; the table :data:`ELEMENTS`): 底 5; 硬花 1 per flower tile (twice under 七对); suit 明杠 1,
suit 暗杠 2; 风碰 1; 风暗刻 2; 风明杠 3; 风暗杠 4; 小门清 5 / 大门清 10 / 大小门清 15
(exclusive); 混一色 5 / 清一色 10 (exclusive); 对对胡 5; 七对 15 (default); 杠开/花开 5;
大吊车 5 (default); 天胡 50; 地胡 50; 海底捞月 5 (self-draw only); 自摸 0.  Settlement
multipliers 豹子 ×2, 滴零 ×2 and (option) 大吊车 ×2 multiply the share.

``Score.total`` is the 花 one payer owes: ``Σ 花 × Π multipliers`` (the multiplier rows are the
``multiply`` rows of :attr:`Score.elements`, so the rows replay to the total); ``points`` =
``total × base`` (silver per 花, default 5, the file's example); ``payments`` per §7.

Rule options (``mjfast.rules.get("suzhou", ...)``; defaults first):

``threshold`` : ``"3_4"`` | ``"2_3"``
    SZ-C6.  F needed to win by self-draw / on a discard.
``threshold_counts`` : ``"all"`` | ``"hard_only"``
    SZ-C7.  What counts towards the minimum: F (hard flowers + meld flowers) or hard flowers.
``qidui`` : ``"double_plus15"`` | ``"flat10"`` | ``"flat5"``
    SZ-C4.  七对 = 15 with the hard flowers counted twice, or a flat 10 / 5.
``dadiaoche`` : ``"plus5"`` | ``"double"`` | ``"both"``
    SZ-C5.  大吊车 = +5 花, ×2 on the settlement, or both.
``songgang_scope`` : ``"gangkai"`` | ``"any_later_selfdraw"``
    Scope of 包饺子/送杠 liability (``ctx.liable``): only a 杠开/花开 self-draw (default), or any
    self-draw.  Outside the scope the liable seat is ignored and the three opponents pay.
``qianggang_exempt`` : False | True
    SZ-C8.  True: 抢杠 is exempt from the minimum (default: it needs the self-draw minimum).
``daxiao_menqing`` : True | False
    SZ-C10.  False: every F = 0 hand scores 大门清 10, and 七对 with F = 0 adds 10 (not 15).
``discard_wind_triplet`` : ``"concealed"`` | ``"pung"``
    A wind triplet completed by the winning discard (or the robbed tile): 风暗刻 2 as the
    source writes it ("风杠：胡牌后手上有3张相同的风算2个花": three identical winds in the hand
    after the win), or 风碰 1 (SZ-A4: the discard makes it a claimed pung).
``tileset`` / ``flower_faces``
    Which bonus faces exist (152 or 144 tiles; SZ-C1..C3): a bonus tile the tile set lacks is
    rejected.  Every flower is 1 花 whatever its face.
``dealer`` / ``dadiao_lock``
    Dealer rotation and the 漏胡 lock: game-engine options with no effect on a hand's score.

⚑ defaults used here (the rules file marks them so):

* SZ-A3: four identical tiles count as two pairs in 七对.
* 风暗刻 ("胡牌后手上有3张相同的风"): three identical winds in the hand after the win, the
  winning discard included, are a 风暗刻 (2); SZ-A4's 风碰 (1) is ``discard_wind_triplet="pung"``.
* SZ-A5: 豹子 and 滴零 stack (×4).
* SZ-A8: 大吊车 = all four sets called (碰/杠, 暗杠 included), winning on the pair.
* SZ-A10: 天胡/地胡 add to the other rows.  SZ-A11: a discard win does not break 门清.
* §5: 混一色 is exempt from the minimum (the blank in [000]'s list).
* §6 row 9: 小门清 needs F ≥ 1 (a concealed hand whose only 花 is a 暗杠 counts).
* §6 row 10: 大门清 is F = 0 on a hand that is not concealed (F = 0 + concealed is 大小门清).
* §7: only a 续杠 can be robbed; the robbed konger is ``ctx.discarder`` and pays 3 shares.

Choices made here where the file is silent (each pinned by a test):

* 七对 never takes 小门清/大门清; with F = 0 it adds 大小门清 15 (大门清 10 under
  ``daxiao_menqing=False``) under every ``qidui`` value, as "七对成牌后不计门清，无花加一个大小门清"
  is stated independently of the 七对 value.
* 混一色/清一色 need exactly one suit (an all-winds 七对 is neither).
* 地胡 is a self-draw by a non-dealer (§6 row 19); ``earthly`` on a discard or for the dealer is
  a ValueError.
* 包 (``ctx.liable``): the liable seat pays 3 shares, the others nothing (包饺子, 送杠).  On a
  discard win the discarder pays alone anyway, so ``liable`` must then be the discarder.
* ``points`` is one share; under 包/抢杠 the liable seat or konger pays three of them.

No non-win settlements: the file has no kong payments, and 荒庄 pays nothing (SZ-A7).  诈胡 is
not modelled (SZ-A6): a hand that does not form a winning hand raises ValueError.
"""

from __future__ import annotations

from .. import tiles as _t
from ._core import WinContext
from ._framework import Element, Facts, Scheme, pay_all, pay_discarder, pay_one

__all__ = ["score_suzhou", "can_win_suzhou", "BASE", "DEFAULT_BASE", "SCHEME", "kernel_minimum"]

#: 底 / 成牌: the 花 every win starts with.
BASE = 5
#: Default silver per 花 (the file's worked example; "具体一个花算多少银子可以随意定").
DEFAULT_BASE = 5

_QIDUI_VALUE = {"double_plus15": 15, "flat10": 10, "flat5": 5}
_THRESHOLD = {"3_4": (3, 4), "2_3": (2, 3)}
_NO_DRAGONS = bytes(3)


def check_no_dragons(c: bytes, rule) -> None:
    """Refuse a hand holding a dragon: under this tile set (and 太仓's) they are flowers."""
    if c[31:34] != _NO_DRAGONS:
        bad = next(t for t in (31, 32, 33) if c[t])
        raise ValueError(
            f"tile {_t.CODES[bad]} is not played under rule {rule.name!r} "
            "(the dragons are flowers: pass them with bonus=)"
        )


def _check(f: Facts) -> None:
    """The hand and flags 苏州 allows (score and can_win)."""
    ctx = f.ctx
    rule = f.rule
    h = f.hand
    for m in f.melds:
        if m.kind == "chow":
            raise ValueError(f"苏州 has no 吃 (chow): meld {m} is not allowed")
        if m.tiles[0] >= 31:
            raise ValueError(f"the dragons are flowers in 苏州; meld {m} is not allowed")
    flowers = rule.tileset.bonus
    seen: dict[str, int] = {}
    for t in h._bonus:
        code = _t.CODES[t]
        if code not in flowers:
            raise ValueError(
                f"{code} ({_t.NAMES_ZH[t]}) is not a flower of the 苏州 "
                f"{rule.options['tileset']}-tile set; flowers: {', '.join(flowers)}"
            )
        seen[code] = seen.get(code, 0) + 1
        if seen[code] > flowers[code]:
            raise ValueError(f"{seen[code]} copies of flower {code}; the 苏州 tile set has {flowers[code]}")
    if ctx.earthly and not (ctx.self_draw and ctx.winner != ctx.dealer):
        raise ValueError("earthly (地胡) in 苏州 is a non-dealer's self-draw on his first draw")
    if ctx.liable is not None and not ctx.self_draw and ctx.liable != ctx.discarder:
        raise ValueError(
            "on a discard win or 抢杠 the discarder (or robbed konger) pays alone; "
            f"liable={ctx.liable} is not the discarder {ctx.discarder}"
        )
    check_no_dragons(f.c, rule)


def _meld_counts(melds) -> tuple:
    """(suit 明杠, suit 暗杠, 风碰, 风明杠, 风暗杠) among the called melds."""
    smk = sak = wp = wmk = wak = 0
    for m in melds:
        wind = m.tiles[0] >= 27
        if m.kind == "pung":
            wp += wind
        elif m.kind == "concealed_kong":
            if wind:
                wak += 1
            else:
                sak += 1
        elif m.is_kong:
            if wind:
                wmk += 1
            else:
                smk += 1
    return smk, sak, wp, wmk, wak


class HuaFacts(Facts):
    """:class:`~mjfast.scoring._framework.Facts` plus the called melds' 花 classes (苏州 and
    太仓 count the same melds): ``smk`` suit 明杠, ``sak`` suit 暗杠, ``wpm`` 风碰 melds, ``wmk``
    风明杠, ``wak`` 风暗杠."""

    __slots__ = ("smk", "sak", "wpm", "wmk", "wak")


def hua_facts(f: HuaFacts) -> None:
    f.smk, f.sak, f.wpm, f.wmk, f.wak = _meld_counts(f.melds) if f.melds else (0, 0, 0, 0, 0)


#: A concealed wind triplet completed by the winning discard (or robbed tile), which the option
#: ``discard_wind_triplet="pung"`` (SZ-A4) reads as a 风碰 (an expression over the facts ``f``);
#: by default it is the 风杠 of "胡牌后手上有3张相同的风": three winds in the hand after the win.
DISCARD_WIND_PUNG = (
    "(not f.self_draw and 27 <= f.win < 31 and f.opts['discard_wind_triplet'] == 'pung' and f.win in f.honour_pungs)"
)
#: The concealed wind triplets (风杠, "胡牌后手上有3张相同的风").
CONCEALED_WIND_PUNGS = "sum(1 for t in f.honour_pungs if t < 31)"


def _when(test, value):
    """A value that exists only under the options ``test(options)`` accepts."""
    return lambda o, kw: value(o) if test(o) else None


E = Element
#: The 苏州 element table (suzhou.md §6), in row order.
ELEMENTS = (
    E("base", "底", "Base", BASE, "1", scope="hand"),
    E("hard_flower", "硬花", "Hard flower", 1, "f.flowers", scope="hand", tag="hua"),
    E(
        "qidui_flower_double",
        "七对硬花翻倍",
        "Seven pairs: flowers doubled",
        _when(lambda o: o["qidui"] == "double_plus15", lambda o: 1),
        "f.form == 'seven_pairs' and f.flowers",
    ),
    E("suit_exposed_kong", "明杠", "Suit exposed kong", 1, "f.smk", scope="hand", tag="hua"),
    E("suit_concealed_kong", "暗杠", "Suit concealed kong", 2, "f.sak", scope="hand", tag="hua"),
    E("wind_pung", "风碰", "Wind pung", 1, f"f.wpm + {DISCARD_WIND_PUNG}", tag="hua"),
    E(
        "wind_concealed_pung",
        "风暗刻",
        "Wind concealed pung",
        2,
        f"{CONCEALED_WIND_PUNGS} - {DISCARD_WIND_PUNG}",
        tag="hua",
    ),
    E("wind_exposed_kong", "风明杠", "Wind exposed kong", 3, "f.wmk", scope="hand", tag="hua"),
    E("wind_concealed_kong", "风暗杠", "Wind concealed kong", 4, "f.wak", scope="hand", tag="hua"),
    E("small_concealed", "小门清", "Small concealed", 5, "sums['hua'] and f.concealed and f.form != 'seven_pairs'"),
    E(
        "big_concealed",
        "大门清",
        "Big concealed",
        10,
        "not sums['hua'] and not (f.opts['daxiao_menqing'] and (f.concealed or f.form == 'seven_pairs'))",
    ),
    E(
        "big_small_concealed",
        "大小门清",
        "Big and small concealed",
        _when(lambda o: o["daxiao_menqing"], lambda o: 15),
        "not sums['hua'] and (f.concealed or f.form == 'seven_pairs')",
    ),
    E("half_flush", "混一色", "Half flush", 5, "f.one_suit and f.winds", scope="hand"),
    E("full_flush", "清一色", "Full flush", 10, "f.one_suit and not f.winds", scope="hand"),
    E("all_pungs", "对对胡", "All pungs", 5, "f.pungs"),
    E("seven_pairs", "七对", "Seven pairs", lambda o, kw: _QIDUI_VALUE[o["qidui"]], "f.form == 'seven_pairs'"),
    E("kong_bloom", "杠开", "Win on a replacement tile", 5, "f.ctx.after_kong", scope="context"),
    E(
        "big_hanging",
        "大吊车",
        "Big hanging",
        _when(lambda o: o["dadiaoche"] != "double", lambda o: 5),
        "f.n_melds == 4",
        scope="hand",
    ),
    E("heavenly_hand", "天胡", "Heavenly hand", 50, "f.ctx.heavenly", scope="context"),
    E("earthly_hand", "地胡", "Earthly hand", 50, "f.ctx.earthly", scope="context"),
    E("last_tile", "海底捞月", "Last tile self-draw", 5, "f.ctx.last_tile and f.self_draw", scope="context"),
    E("self_draw", "自摸", "Self-draw", 0, "f.self_draw", scope="context"),
    E("leopard", "豹子", "Leopard (doubles on the dice)", 2, "f.ctx.baozi", scope="context", how="multiply"),
    E(
        "dripping",
        "滴零",
        "Dripping (after a 豹子 or 一炮多响 hand)",
        2,
        "f.ctx.diling",
        scope="context",
        how="multiply",
    ),
    E(
        "big_hanging_double",
        "大吊车翻倍",
        "Big hanging (settlement doubled)",
        _when(lambda o: o["dadiaoche"] != "plus5", lambda o: 2),
        "f.n_melds == 4",
        scope="hand",
        how="multiply",
    ),
)
#: Patterns exempt from the §5 minimum (besides 门清 and F = 0; 混一色 by [000]'s blank).
EXEMPT = (
    "seven_pairs",
    "big_hanging",
    "big_hanging_double",
    "kong_bloom",
    "heavenly_hand",
    "earthly_hand",
    "all_pungs",
    "half_flush",
    "full_flush",
)


def _exempt_if(f: Facts) -> bool:
    """门清, and 抢杠 under ``qianggang_exempt``, are exempt from the §5 minimum."""
    return f.concealed or (f.ctx.robbing_kong and f.opts["qianggang_exempt"])


def _legality(f: Facts, r) -> str:
    """§5: 三花自摸四花冲 unless F = 0 (or exempt: :data:`EXEMPT`, :func:`_exempt_if`)."""
    o = f.opts
    ctx = f.ctx
    F = f.sums["hua"]
    if F == 0:
        return ""
    counts_all = o["threshold_counts"] == "all"
    counted = F if counts_all else f.flowers
    need = _THRESHOLD[o["threshold"]][0 if ctx.self_draw or ctx.robbing_kong else 1]
    if counted >= need:
        return ""
    what = "花" if counts_all else "hard 花"
    how = "抢杠 (as a self-draw)" if ctx.robbing_kong else ("self-draw" if ctx.self_draw else "discard win")
    return (
        f"{counted} {what}, below the {need}-花 minimum for a {how} (threshold {o['threshold']}), and no exempt pattern"
    )


def _surely_legal(f: Facts, sums) -> bool:
    """The 花 of the flowers and the called melds (a lower bound of F) meet the minimum."""
    o = f.opts
    counted = sums["hua"] if o["threshold_counts"] == "all" else f.flowers
    ctx = f.ctx
    return counted >= _THRESHOLD[o["threshold"]][0 if ctx.self_draw or ctx.robbing_kong else 1]


def _settle(b, ctx: WinContext, r) -> tuple:
    """suzhou.md §7: the discarder alone; 抢杠 and 包 (包饺子/送杠) 3 shares from one seat."""
    share = r.total * b.kw["base"]
    if ctx.robbing_kong:  # the robbed konger pays 3 shares
        return share, pay_discarder(ctx, share, 3)
    if not ctx.self_draw:
        return share, pay_discarder(ctx, share)
    if ctx.liable is not None and (ctx.after_kong or b.rule.options["songgang_scope"] == "any_later_selfdraw"):
        return share, pay_one(ctx, ctx.liable, 3 * share)  # 包饺子 / 送杠
    return share, pay_all(ctx, share)


def _check_keywords(kw: dict, rule) -> dict:
    base = kw["base"]
    if type(base) is not int and (isinstance(base, bool) or not isinstance(base, int)) or base <= 0:
        raise ValueError(f"base (silver per 花) must be a positive integer, got {base!r}")
    return kw


def _not_complete(ctx: WinContext, rule) -> str:
    return f"hand not complete: {ctx.hand} does not form a winning hand under {rule.name} (4 sets + a pair, or 七对)"


#: The 苏州 scorer, declared.
SCHEME = Scheme(
    "suzhou",
    ELEMENTS,
    keywords={"base": DEFAULT_BASE},
    check_keywords=_check_keywords,
    check=_check,
    facts=HuaFacts,
    hand_facts=hua_facts,
    legality=_legality,
    exempt=EXEMPT,
    exempt_if=_exempt_if,
    surely_legal=_surely_legal,
    settle=_settle,
    not_complete=_not_complete,
    minimum_elements=("hua",),
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_suzhou(ctx: WinContext, rule, *, base: int = DEFAULT_BASE):
    """Score a won hand under 苏州麻将 (the registered scorer of ``"suzhou"``).

    Call it through :func:`mjfast.score` (``score(ctx, "suzhou", **options)``).  Of all the
    readings of the hand the one with the highest settlement is scored (a legal one first).

    Parameters
    ----------
    ctx : WinContext
        The hand; flowers (中发白 included) in ``ctx.hand.bonus``.  Flags used: ``self_draw``,
        ``discarder``, ``robbing_kong`` (抢杠: ``discarder`` is the robbed konger),
        ``after_kong`` (杠开/花开), ``last_tile`` (海底捞月 when self-drawn), ``heavenly``,
        ``earthly``, ``baozi`` (豹子), ``diling`` (滴零), ``liable`` (包饺子/送杠: the seat
        whose discard was konged).
    rule : Rule
        The resolved ``suzhou`` rule (options in the module docstring).
    base : int, default 5
        Silver per 花.

    Returns
    -------
    Score
        ``total`` = 花 one payer owes (multipliers included); ``points`` = ``total × base``;
        ``legal`` False below the minimum (§5) with zero payments.

    Raises
    ------
    ValueError
        A hand that is not a winning hand (:class:`~mjfast.scoring.NotComplete`), a chow or a
        dragon meld, a flower the tile set lacks, ``earthly`` that is not a non-dealer's
        self-draw, a bad ``base``, or a ``liable`` seat on a discard win that is not the
        discarder.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> h = Hand("11223355667788m", bonus="F1F2 5z 6z 7z")
    >>> s = score(WinContext(h, win_tile="8m", self_draw=True), "suzhou")
    >>> s.total, s.points, s.payments.tolist()
    (40, 200, [600, -200, -200, -200])
    >>> s.elements[["name_zh", "total"]].values.tolist()
    [['底', 5], ['硬花', 5], ['七对硬花翻倍', 5], ['清一色', 10], ['七对', 15], ['自摸', 0]]
    >>> h = Hand("123m456m789p11s", melds=["222s@left"], bonus="F1F2")
    >>> s = score(WinContext(h, win_tile="1s", discarder=3), "suzhou")
    >>> s.legal, s.reason
    (False, '2 花, below the 4-花 minimum for a discard win (threshold 3_4), and no exempt pattern')
    """
    return _score(ctx, rule, base=base)


def can_win_suzhou(ctx: WinContext, rule, *, base: int = DEFAULT_BASE) -> bool:
    """Whether ``ctx`` is a legal 苏州 win: a winning hand meeting the §5 minimum.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, can_win
    >>> h = Hand("123m456m789p11s", melds=["222s@left"], bonus="F1F2F3")
    >>> can_win(WinContext(h, win_tile="1s", self_draw=True), "suzhou")
    True
    >>> can_win(WinContext(h, win_tile="1s", discarder=2), "suzhou")
    False
    """
    return _can_win(ctx, rule, base=base)


def kernel_minimum(rule) -> tuple:
    """``(花 for a self-draw, 花 for a discard win, hard flowers only, 抢杠 exempt, a wind
    triplet completed by the winning discard is a 风碰)``: the §5 minimum of the rule's options,
    for the game kernel, which decides it itself on complete hands (``flower_minimum`` in
    :mod:`mjfast._kernels._game`, the same test as :func:`_legality` with the built-in element
    values)."""
    o = rule.options
    return (
        *_THRESHOLD[o["threshold"]],
        o["threshold_counts"] == "hard_only",
        bool(o["qianggang_exempt"]),
        o["discard_wind_triplet"] == "pung",
    )


SCHEME.register()


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins, ``(concealed, melds, bonus, win_tile, self_draw)``: 底 5 + F 花 on a
#: hand that is not concealed, no flush; the 花 minimum decides (3/4 or 2/3).
MINIMAL_WINS = tuple(
    ("123m456m789s55s", ("111p@left",), ("F1", "F2", "F3", "F4", "F5")[:f], "1m", sd)
    for f in (2, 3, 4, 5)
    for sd in (True, False)
)


def win_state(outcome, event, index, ctx, kong_log):
    """包饺子 and 送杠 (§7): the liable seat of a self-draw; in a match, 豹子 and 滴零.

    * 包饺子 ("一人支付3倍费用（放给玩家杠，此杠牌玩家杠开）"): the winner made a 一次杠 on P's discard and
      won on its replacement — P is ``liable`` (he pays three shares).
    * 送杠 ("被對方杠牌后自摸，被杠牌方幫其他兩家付牌") with ``songgang_scope="any_later_selfdraw"``: any
      later self-draw of a player who konged P's discard (the latest such kong) — P is liable.
      Under the default ``"gangkai"`` the scope is that of 包饺子.
    """
    fields = {}
    if event.how == "self_draw":
        w = event.winners[0]
        kong = outcome.kongs[event.kong] if event.kong >= 0 else None
        if kong is not None and kong.konger == w and kong.kind == "direct":
            fields["liable"] = kong.feeder
        elif outcome.rule.options["songgang_scope"] == "any_later_selfdraw":
            fed = [k.feeder for k in outcome.kongs if k.konger == w and k.kind == "direct"]
            if fed:
                fields["liable"] = fed[-1]
    rnd = outcome.round  # in a match: the round multipliers of §6
    if rnd is not None:
        if rnd.dice is not None and rnd.dice[0] == rnd.dice[1]:
            fields["baozi"] = True  # 豹子: this hand's two dice show the same face
        prev = rnd.previous
        if prev is not None and (
            (prev.dice is not None and prev.dice[0] == prev.dice[1])
            or any(e.how != "self_draw" and len(e.winners) > 1 for e in prev.events)
        ):
            fields["diling"] = True  # 滴零: the previous hand was a 豹子 hand or had a 一炮多响
    return fields or None, None


#: 大胡 ([001] "大胡" 1-7: 门清 (大/小/大小), 混一色, 清一色, 对对胡, 七小对, 杠开, 大吊车), by element code.
DAHU = frozenset(
    {
        "small_concealed",
        "big_concealed",
        "big_small_concealed",
        "half_flush",
        "full_flush",
        "all_pungs",
        "seven_pairs",
        "kong_bloom",
        "big_hanging",
    }
)


def next_deal(outcome) -> int:
    """§8: the winner deals ("谁胡牌谁下一把坐庄"; a dealer's win keeps the deal; 一炮多响: the first
    winner from the discarder's 下家, ⚑); a draw keeps the dealer (SZ-A7).  ``dealer="dahu_keeps"``
    ([001] "大胡不改變莊家"): a win holding a 大胡 element keeps the dealer, whoever won (⚑ reading)."""
    winners = outcome.winners
    if not winners:
        return outcome.dealer
    if outcome.rule.options["dealer"] == "dahu_keeps":
        _seat, first = outcome.scores[0]
        if any(row[0] in DAHU for row in first.rows):
            return outcome.dealer
    return winners[0]
