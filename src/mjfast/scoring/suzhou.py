"""苏州麻将 (Suzhou) scorer: additive 花 counting, the 三花自摸四花冲 minimum, 包 payments.

Everything follows ``rules/suzhou.md`` (§5 minimum, §6 elements, §7 payment).  The dragons
中发白 are flowers: they are bonus tiles (``ctx.hand.bonus``), never in the count vector or in
melds.  There is no 吃 and no wildcard.

Elements (unit 花, all added): 底 5; 硬花 1 per flower tile (twice under 七对); suit 明杠 1,
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
``tileset`` / ``flower_faces``
    Which bonus faces exist (152 or 144 tiles; SZ-C1..C3): a bonus tile the tile set lacks is
    rejected.  Every flower is 1 花 whatever its face.
``dealer`` / ``dadiao_lock``
    Dealer rotation and the 漏胡 lock: game-engine options with no effect on a hand's score.

⚑ defaults used here (the rules file marks them so):

* SZ-A3: four identical tiles count as two pairs in 七对.
* SZ-A4: a wind triplet completed by the winning discard is a 风碰 (1), not a 风暗刻 (2).
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
from ..decomposition import Decomposition, decompose_counts, from_reading
from . import _shortcuts
from ._core import NotComplete, Score, WinContext, register

__all__ = ["score_suzhou", "can_win_suzhou", "BASE", "DEFAULT_BASE"]

#: 底 / 成牌: the 花 every win starts with.
BASE = 5
#: Default silver per 花 (the file's worked example; "具体一个花算多少银子可以随意定").
DEFAULT_BASE = 5

_WINDS = range(27, 31)
_QIDUI_VALUE = {"double_plus15": 15, "flat10": 10, "flat5": 5}
_THRESHOLD = {"3_4": (3, 4), "2_3": (2, 3)}
_NO_PAYMENT = (0, 0, 0, 0)
_SOURCE_OFFSET = {"left": -1, "opposite": 2, "right": 1}


def _check_hand(ctx: WinContext, rule) -> None:
    h = ctx.hand
    for m in h.melds:
        if m.kind == "chow":
            raise ValueError(f"苏州 has no 吃 (chow): meld {m} is not allowed")
        if m.tiles[0] >= 31:
            raise ValueError(f"the dragons are flowers in 苏州; meld {m} is not allowed")
    flowers = rule.tileset.bonus
    seen: dict[str, int] = {}
    for t in h.bonus:
        code = _t.CODES[t]
        if code not in flowers:
            raise ValueError(f"{code} ({_t.NAMES_ZH[t]}) is not a flower of the 苏州 "
                             f"{rule.options['tileset']}-tile set; flowers: {', '.join(flowers)}")
        seen[code] = seen.get(code, 0) + 1
        if seen[code] > flowers[code]:
            raise ValueError(f"{seen[code]} copies of flower {code}; the 苏州 tile set has "
                             f"{flowers[code]}")
    if ctx.earthly and not (ctx.self_draw and ctx.winner != ctx.dealer):
        raise ValueError("earthly (地胡) in 苏州 is a non-dealer's self-draw on his first draw")
    if ctx.liable is not None and not ctx.self_draw and ctx.liable != ctx.discarder:
        raise ValueError("on a discard win or 抢杠 the discarder (or robbed konger) pays alone; "
                         f"liable={ctx.liable} is not the discarder {ctx.discarder}")


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


def _evaluate(ctx: WinContext, rule, d, melds_c, hard: int, suits: int, winds: bool) -> dict:
    """Element counts, 花, multiplier and legality of one reading.

    ``d`` is a raw reading ``(form, concealed sets, pair, tiles, wild_tiles)`` of
    :func:`~mjfast.decomposition.decompose_counts`; the called melds are in ``melds_c``.
    """
    o = rule.options
    smk, sak, wp, wmk, wak = melds_c
    qidui = d[0] == "seven_pairs"
    wcp = 0
    if not qidui:
        for kind, first in d[1]:
            if kind == "pung" and first >= 27:
                if not ctx.self_draw and first == ctx.win_tile:
                    wp += 1  # SZ-A4: completed by the winning discard = 风碰
                else:
                    wcp += 1
    F = hard + smk + 2 * sak + wp + 2 * wcp + 3 * wmk + 4 * wak
    e = {"hard": hard, "smk": smk, "sak": sak, "wp": wp, "wcp": wcp, "wmk": wmk, "wak": wak}
    concealed = ctx.hand.is_concealed
    if qidui:
        e["qidui"] = 1
        if F == 0:
            e["daxiao" if o["daxiao_menqing"] else "damen"] = 1
    elif F == 0:
        e["daxiao" if concealed and o["daxiao_menqing"] else "damen"] = 1
    elif concealed:
        e["xiaomen"] = 1
    if suits == 1:
        e["hunyise" if winds else "qingyise"] = 1
    if not qidui and all(k != "chow" for k, _f in d[1]):
        e["duidui"] = 1
    if ctx.after_kong:
        e["gangkai"] = 1
    dadiao = not qidui and ctx.hand.n_melds == 4
    if dadiao and o["dadiaoche"] != "double":
        e["dadiao"] = 1
    if ctx.heavenly:
        e["tianhu"] = 1
    if ctx.earthly:
        e["dihu"] = 1
    if ctx.last_tile and ctx.self_draw:
        e["haidi"] = 1
    hua = BASE + F + (hard if qidui and o["qidui"] == "double_plus15" else 0)
    hua += sum(_VALUES[k](o) for k in e if k in _VALUES)
    mult = (2 if ctx.baozi else 1) * (2 if ctx.diling else 1)
    if dadiao and o["dadiaoche"] != "plus5":
        e["dadiao_x2"] = 1
        mult *= 2
    # minimum to win (§5)
    exempt = concealed or F == 0 or qidui or dadiao or ctx.after_kong or ctx.heavenly \
        or ctx.earthly or "duidui" in e or suits == 1 \
        or (ctx.robbing_kong and o["qianggang_exempt"])
    selfdraw_like = ctx.self_draw or ctx.robbing_kong
    need = _THRESHOLD[o["threshold"]][0 if selfdraw_like else 1]
    counted = F if o["threshold_counts"] == "all" else hard
    legal = exempt or counted >= need
    reason = ""
    if not legal:
        what = "花" if o["threshold_counts"] == "all" else "hard 花"
        how = "抢杠 (as a self-draw)" if ctx.robbing_kong else (
            "self-draw" if ctx.self_draw else "discard win")
        reason = (f"{counted} {what}, below the {need}-花 minimum for a {how} "
                  f"(threshold {o['threshold']}), and no exempt pattern")
    return dict(e=e, F=F, hua=hua, mult=mult, legal=legal, reason=reason, d=d)


_VALUES = {
    "xiaomen": lambda o: 5,
    "damen": lambda o: 10,
    "daxiao": lambda o: 15,
    "qidui": lambda o: _QIDUI_VALUE[o["qidui"]],
    "hunyise": lambda o: 5,
    "qingyise": lambda o: 10,
    "duidui": lambda o: 5,
    "gangkai": lambda o: 5,
    "dadiao": lambda o: 5,
    "tianhu": lambda o: 50,
    "dihu": lambda o: 50,
    "haidi": lambda o: 5,
}

# (key, code, name_zh, name_en, 花 per unit) in table order
_ROW_DEFS = (
    ("hard", "hard_flower", "硬花", "Hard flower", 1),
    ("hard2", "qidui_flower_double", "七对硬花翻倍", "Seven pairs: flowers doubled", 1),
    ("smk", "suit_exposed_kong", "明杠", "Suit exposed kong", 1),
    ("sak", "suit_concealed_kong", "暗杠", "Suit concealed kong", 2),
    ("wp", "wind_pung", "风碰", "Wind pung", 1),
    ("wcp", "wind_concealed_pung", "风暗刻", "Wind concealed pung", 2),
    ("wmk", "wind_exposed_kong", "风明杠", "Wind exposed kong", 3),
    ("wak", "wind_concealed_kong", "风暗杠", "Wind concealed kong", 4),
    ("xiaomen", "small_concealed", "小门清", "Small concealed", None),
    ("damen", "big_concealed", "大门清", "Big concealed", None),
    ("daxiao", "big_small_concealed", "大小门清", "Big and small concealed", None),
    ("hunyise", "half_flush", "混一色", "Half flush", None),
    ("qingyise", "full_flush", "清一色", "Full flush", None),
    ("duidui", "all_pungs", "对对胡", "All pungs", None),
    ("qidui", "seven_pairs", "七对", "Seven pairs", None),
    ("gangkai", "kong_bloom", "杠开", "Win on a replacement tile", None),
    ("dadiao", "big_hanging", "大吊车", "Big hanging", None),
    ("tianhu", "heavenly_hand", "天胡", "Heavenly hand", None),
    ("dihu", "earthly_hand", "地胡", "Earthly hand", None),
    ("haidi", "last_tile", "海底捞月", "Last tile self-draw", None),
)


def _rows(ctx: WinContext, rule, elements: dict) -> list:
    """The element rows of a reading's element counts (``e`` of :func:`_evaluate`)."""
    o = rule.options
    e = dict(elements)
    if "qidui" in e and o["qidui"] == "double_plus15" and e["hard"]:
        e["hard2"] = e["hard"]
    rows = [("base", "底", "Base", BASE, 1, "花", "add")]
    for key, code, zh, en, unit in _ROW_DEFS:
        n = e.get(key, 0)
        if not n:
            continue
        v = unit * n if unit is not None else _VALUES[key](o)
        rows.append((code, zh, en, v, n, "花", "add"))
    if ctx.self_draw:
        rows.append(("self_draw", "自摸", "Self-draw", 0, 1, "花", "add"))
    if ctx.baozi:
        rows.append(("leopard", "豹子", "Leopard (doubles on the dice)", 2, 1, "倍", "multiply"))
    if ctx.diling:
        rows.append(("dripping", "滴零", "Dripping (after a 豹子 or 一炮多响 hand)", 2, 1, "倍",
                     "multiply"))
    if "dadiao_x2" in e:
        rows.append(("big_hanging_double", "大吊车翻倍", "Big hanging (settlement doubled)", 2, 1,
                     "倍", "multiply"))
    return rows


def _settle(ctx: WinContext, rule, share: int) -> list:
    """Seat deltas per suzhou.md §7."""
    pay = [0, 0, 0, 0]
    w = ctx.winner
    if ctx.robbing_kong:  # the robbed konger pays 3 shares
        pay[ctx.discarder] = -3 * share
    elif not ctx.self_draw:  # the discarder alone
        pay[ctx.discarder] = -share
    elif ctx.liable is not None and (ctx.after_kong
                                     or rule.options["songgang_scope"] == "any_later_selfdraw"):
        pay[ctx.liable] = -3 * share  # 包饺子 / 送杠
    else:
        for p in range(4):
            if p != w:
                pay[p] = -share
    pay[w] = -sum(pay)
    return pay


def _decomposition(ctx: WinContext, reading) -> Decomposition:
    """The :class:`~mjfast.Decomposition` of a raw reading (built when first asked for)."""
    return from_reading(reading, ctx.hand.melds, ctx.win_tile)


_FORMS = ("standard", "seven_pairs")


def _best(ctx: WinContext, rule):
    _check_hand(ctx, rule)
    h = ctx.hand
    c = h.counts
    if c[31] or c[32] or c[33]:
        bad = next(t for t in (31, 32, 33) if c[t])
        raise ValueError(f"tile {_t.CODES[bad]} is not played under rule 'suzhou' "
                         "(the dragons are flowers: pass them with bonus=)")
    reads = decompose_counts(c, h.n_melds, 0, forms=_FORMS)
    if not reads:
        raise NotComplete(f"hand not complete: {h} does not form a winning hand under suzhou "
                         "(4 sets + a pair, or 七对)")
    faces = (c + h.meld_counts).tolist() if h.n_melds else c.tolist()
    suits = sum(any(faces[9 * s: 9 * s + 9]) for s in range(3))
    winds = any(faces[27:31])
    melds_c = _meld_counts(h.melds)
    hard = len(h.bonus)
    best = None
    for d in reads:
        r = _evaluate(ctx, rule, d, melds_c, hard, suits, winds)
        key = (r["legal"], r["hua"] * r["mult"])
        if best is None or key > best[0]:
            best = (key, r)
    return best[1]


def score_suzhou(ctx: WinContext, rule, *, base: int = DEFAULT_BASE) -> Score:
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
        A hand that is not a winning hand, a chow or a dragon meld, a flower the tile set lacks,
        ``earthly`` that is not a non-dealer's self-draw, a bad ``base``, or a ``liable`` seat
        on a discard win that is not the discarder.

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
    _check_base(base)
    fast = _fast_reading(ctx, rule)
    if fast is not None:
        total, legal, elements = fast
        if legal:
            points = total * base
            pay = _settle(ctx, rule, points)
        else:
            points, pay = 0, _NO_PAYMENT
        lazy = []  # the full evaluation, for the reason and the decomposition

        def full():
            if not lazy:
                lazy.append(_best(ctx, rule))
            return lazy[0]
        return Score("suzhou", total, points, pay, legal, "" if legal else lambda: full()["reason"],
                     "花", lambda: _rows(ctx, rule, elements),
                     decomposition_fn=lambda: _decomposition(ctx, full()["d"]))
    r = _best(ctx, rule)
    total = r["hua"] * r["mult"]
    if r["legal"]:
        points = total * base
        pay = _settle(ctx, rule, points)
    else:
        points, pay = 0, _NO_PAYMENT
    return Score("suzhou", total, points, pay, r["legal"], r["reason"], "花",
                 lambda: _rows(ctx, rule, r["e"]), decomposition_fn=lambda: _decomposition(ctx, r["d"]))


def _check_base(base) -> None:
    if type(base) is not int and (isinstance(base, bool) or not isinstance(base, int)) \
            or base <= 0:
        raise ValueError(f"base (silver per 花) must be a positive integer, got {base!r}")


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
    _check_base(base)
    h = ctx.hand
    if not h.wilds:
        _check_hand(ctx, rule)
        if h.counts.tobytes()[31:] == _NO_DRAGONS:
            # no wildcards in 苏州 (score() rejects them): the kernel's complete test is exact
            if not _shortcuts.complete(h, _shortcuts.STANDARD_PAIRS):
                return False
            return _legal_complete(ctx, rule)
    try:
        return bool(_best(ctx, rule)["legal"])
    except NotComplete:
        return False


_NO_DRAGONS = bytes(3)


def _legal_complete(ctx: WinContext, rule) -> bool:
    """Whether some reading of a complete hand (no dragons, no wildcards) is legal (§5), as
    :func:`_best` decides it, without listing the readings.

    A concealed hand is exempt (七对 readings too).  Otherwise every reading is 4 sets + a pair
    with the same concealed wind pungs (a wind held three times is a pung in every reading, a
    wind held twice the pair), so F is the same for all readings; of the exemptions only 对对胡
    depends on the reading, and some reading is all pungs exactly when the concealed tiles are
    pungs and a pair.
    """
    h = ctx.hand
    if h.is_concealed or ctx.after_kong or ctx.heavenly or ctx.earthly or h.n_melds == 4:
        return True
    o = rule.options
    if ctx.robbing_kong and o["qianggang_exempt"]:
        return True
    if _shortcuts.all_pungs(h.counts):  # with melds that are never chows: 对对胡
        return True
    c = h.counts.tobytes()
    suits = {s for s in range(3) if c[9 * s: 9 * s + 9] != _EMPTY_SUIT}
    suits |= {m.tiles[0] // 9 for m in h.melds if m.tiles[0] < 27}
    if len(suits) == 1:  # 混一色 / 清一色
        return True
    hard = len(h.bonus)
    smk, sak, wp, wmk, wak = _meld_counts(h.melds)
    F = hard + smk + 2 * sak + wp + 3 * wmk + 4 * wak
    for t in range(27, 31):
        if c[t] == 3:  # a concealed wind pung: 风碰 when the winning discard completed it (SZ-A4)
            F += 1 if (not ctx.self_draw and t == ctx.win_tile) else 2
    if F == 0:
        return True
    counted = F if o["threshold_counts"] == "all" else hard
    return counted >= _THRESHOLD[o["threshold"]][0 if ctx.self_draw or ctx.robbing_kong else 1]


_EMPTY_SUIT = bytes(9)


def kernel_minimum(rule) -> tuple:
    """``(花 for a self-draw, 花 for a discard win, hard flowers only, 抢杠 exempt)``: the §5
    minimum of the rule's options, for the game kernel, which decides :func:`_legal_complete`
    itself."""
    o = rule.options
    return (*_THRESHOLD[o["threshold"]], o["threshold_counts"] == "hard_only", bool(o["qianggang_exempt"]))

_OPTS: dict = {}


def _options(rule) -> tuple:
    """The options :func:`_fast_best` reads, cached by the rule's identity (the entry holds the
    rule, so its id cannot be reused while it is cached)."""
    hit = _OPTS.get(id(rule))
    if hit is not None and hit[0] is rule:
        return hit[1]
    o = rule.options
    opts = (_QIDUI_VALUE[o["qidui"]], o["qidui"] == "double_plus15", o["daxiao_menqing"],
            o["dadiaoche"] != "double", o["dadiaoche"] != "plus5", o["qianggang_exempt"],
            _THRESHOLD[o["threshold"]], o["threshold_counts"] == "all")
    if len(_OPTS) > 64:
        _OPTS.clear()
    _OPTS[id(rule)] = (rule, opts)
    return opts


def _fast_best(ctx: WinContext, rule):
    """``(total, legal)`` of the reading :func:`_best` picks, or None (see :func:`_fast_reading`)."""
    r = _fast_reading(ctx, rule)
    return None if r is None else r[:2]


def _fast_reading(ctx: WinContext, rule):
    """``(total, legal, elements)`` of the reading :func:`_best` picks (``elements``: its element
    counts, as :func:`_evaluate`'s ``e``, for the rows), without listing the readings, or None
    when the hand is not a plain complete hand (wildcards, dragons in hand, incomplete:
    :func:`_best` decides and raises then).

    Every standard reading has the same called melds and concealed wind pungs (a wind held three
    times is a pung, twice the pair), hence the same F; they differ only in 对对胡, which some
    reading has exactly when the concealed tiles are pungs and a pair, and which then scores
    more than the others.  A 七对 reading exists when there are no melds and every count is even
    (four of a kind = two pairs, SZ-A3).  Of equal keys :func:`_best` keeps the standard one.
    """
    _check_hand(ctx, rule)
    h = ctx.hand
    if h.wilds:
        return None
    c = h.counts.tobytes()
    if c[31:] != _NO_DRAGONS:
        return None
    melds = h.melds
    qd = not melds and c.count(1) == 0 and c.count(3) == 0
    std = _shortcuts.complete(h, _shortcuts.STANDARD)
    if not (std or qd):
        return None
    (qv, q_double, daxiao_ok, dadiao_plus, dadiao_x2, qg_exempt, threshold,
     counts_all) = _options(rule)
    hard = len(h.bonus)
    smk, sak, wp, wmk, wak = _meld_counts(melds) if melds else (0, 0, 0, 0, 0)
    suits = {s for s in range(3) if c[9 * s: 9 * s + 9] != _EMPTY_SUIT}
    winds = c[27:31] != _NO_WINDS
    for m in melds:
        t = m.tiles[0]
        if t < 27:
            suits.add(t // 9)
        else:
            winds = True
    one_suit = len(suits) == 1
    concealed = h.is_concealed
    self_draw = ctx.self_draw
    extra = 0  # reading-independent 花 and elements
    common = {}
    if ctx.after_kong:
        extra += 5
        common["gangkai"] = 1
    if ctx.heavenly:
        extra += 50
        common["tianhu"] = 1
    if ctx.earthly:
        extra += 50
        common["dihu"] = 1
    if ctx.last_tile and self_draw:
        extra += 5
        common["haidi"] = 1
    if one_suit:
        extra += 5 if winds else 10
        common["hunyise" if winds else "qingyise"] = 1
    mult = (2 if ctx.baozi else 1) * (2 if ctx.diling else 1)
    exempt0 = (ctx.after_kong or ctx.heavenly or ctx.earthly or one_suit
               or (ctx.robbing_kong and qg_exempt))
    need = threshold[0 if self_draw or ctx.robbing_kong else 1]
    best = None
    if std:
        wcp = 0
        win = ctx.win_tile
        for t in range(27, 31):
            if c[t] == 3:  # SZ-A4: completed by the winning discard = 风碰
                if not self_draw and t == win:
                    wp += 1
                else:
                    wcp += 1
        F = hard + smk + 2 * sak + wp + 2 * wcp + 3 * wmk + 4 * wak
        e = {"hard": hard, "smk": smk, "sak": sak, "wp": wp, "wcp": wcp, "wmk": wmk, "wak": wak,
             **common}
        hua = BASE + F + extra
        if F == 0:
            hua += 15 if concealed and daxiao_ok else 10
            e["daxiao" if concealed and daxiao_ok else "damen"] = 1
        elif concealed:
            hua += 5
            e["xiaomen"] = 1
        duidui = _shortcuts.all_pungs(h.counts)
        if duidui:
            hua += 5
            e["duidui"] = 1
        dadiao = len(melds) == 4
        m = mult
        if dadiao:
            if dadiao_plus:
                hua += 5
                e["dadiao"] = 1
            if dadiao_x2:
                m *= 2
                e["dadiao_x2"] = 1
        legal = (concealed or F == 0 or dadiao or duidui or exempt0
                 or (F if counts_all else hard) >= need)
        best = (legal, hua * m, e)
    if qd:  # no melds: F = hard, concealed
        hua = BASE + hard + (hard if q_double else 0) + qv + extra
        e = {"hard": hard, "smk": 0, "sak": 0, "wp": 0, "wcp": 0, "wmk": 0, "wak": 0, "qidui": 1,
             **common}
        if hard == 0:
            hua += 15 if daxiao_ok else 10
            e["daxiao" if daxiao_ok else "damen"] = 1
        if best is None or (True, hua * mult) > best[:2]:
            best = (True, hua * mult, e)
    return best[1], best[0], best[2]


_NO_WINDS = bytes(4)


register("suzhou", score_suzhou, can_win_suzhou)


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins, ``(concealed, melds, bonus, win_tile, self_draw)``: 底 5 + F 花 on a
#: hand that is not concealed, no flush; the 花 minimum decides (3/4 or 2/3).
MINIMAL_WINS = tuple(("123m456m789s55s", ("111p@left",), ("F1", "F2", "F3", "F4", "F5")[:f], "1m", sd)
                     for f in (2, 3, 4, 5) for sd in (True, False))


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
    rnd = outcome.round                   # in a match: the round multipliers of §6
    if rnd is not None:
        if rnd.dice is not None and rnd.dice[0] == rnd.dice[1]:
            fields["baozi"] = True        # 豹子: this hand's two dice show the same face
        prev = rnd.previous
        if prev is not None and ((prev.dice is not None and prev.dice[0] == prev.dice[1])
                                 or any(e.how != "self_draw" and len(e.winners) > 1 for e in prev.events)):
            fields["diling"] = True       # 滴零: the previous hand was a 豹子 hand or had a 一炮多响
    return fields or None, None


#: 大胡 ([001] "大胡" 1-7: 门清 (大/小/大小), 混一色, 清一色, 对对胡, 七小对, 杠开, 大吊车), by element code.
DAHU = frozenset({"small_concealed", "big_concealed", "big_small_concealed", "half_flush", "full_flush",
                  "all_pungs", "seven_pairs", "kong_bloom", "big_hanging"})


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
