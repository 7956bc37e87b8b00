"""太仓麻将 (Taicang) scorer: ``(1 + 花) × multipliers``, the 二花自摸三花冲 minimum, 无花果.

Everything follows ``rules/taicang.md`` (§5 minimum, §6 elements, §7 payment).  The dragons
中发白, the frameless 白板 and the printed 百搭 are flowers: bonus tiles in ``ctx.hand.bonus``.
The flipped indicator (``ctx.flipped``) picks the 百搭 wildcard (§2 successor table); the
wildcards held are ``ctx.hand.wilds`` and what they stood for may be fixed with
``ctx.wild_faces``.  吃 is allowed from 上家 only.

Elements (the table :data:`ELEMENTS`): 底花 +1; 花 +1 per flower tile; suit 明杠 +1, suit 暗杠 +2; 风暗刻 ("风杠") +1;
风明杠 +2, 风暗杠 +3; 风碰 0 (TC-A7, shown as a 0 row); then multipliers 门清 ×2,
混一色 ×2, 清一色 ×4, 对对胡 ×2 ("另外的四铺都是三个头": every set, the called ones included, a
pung or kong), 杠开 ×2, 大吊车 ×2.  ``hua = (1 + F) × Π multipliers``
(TC-C2: the factors multiply); self-draw adds no factor.  无花果 (门清 with F = 0) is paid a fixed
``max_payment`` per payer on a self-draw and half of it on a discard.

``Score.total`` = ``hua`` in 花 (the ``add`` rows then the ``multiply`` rows replay to it);
``points`` = one share = ``hua × base`` (silver per 花, default 5, the file's example) or the
无花果 amount; ``payments`` per §7.  For 无花果 the last row (code ``no_flower_concealed``,
unit ``stake``, how ``replace``) replaces the *settlement* by the fixed amount, in stake units;
the 花 total keeps the formula value.

Rule options (``mjfast.rules.get("taicang", ...)``; defaults first):

``qidui`` : False | True
    TC-A4.  True makes 七对 a legal shape.  The file gives it no value of its own, so it scores
    as any other concealed hand (门清 ×2, flushes, flowers).
``threshold_counts`` : ``"all"`` | ``"hard_only"``
    TC-A14.  What counts towards the minimum and towards F = 0 for 无花果: F (flowers + the
    花 of rows 3–6) or the flower tiles alone.
``threshold_exempt`` : ``"menqing"`` | ``"suzhou_list"``
    TC-A6.  Only 门清 hands are exempt from the minimum, or also the patterns of Suzhou's
    list that Taicang has: 混一色, 清一色, 对对胡, 七对, 杠开, 大吊车, 天胡, 地胡 (``heavenly``,
    ``earthly``; they score nothing in Taicang).
``fan2x`` : 2 | 4
    TC-C1.  The factor of 混一色 and 对对胡 ("花翻2倍").
``discard_wind_triplet`` : ``"concealed"`` | ``"pung"``
    A wind triplet completed by the winning discard (or the robbed tile): a 风杠 (+1) as the
    source writes it ("风杠：胡牌后手上有3张相同的风算1个花"), or a 风碰 (0, as Suzhou's SZ-A4).

Scorer keywords: ``base`` (silver per 花, default 5) and ``max_payment`` (无花果 per payer on
a self-draw, default 100 as in "比如付100两银子"; it must be even, as a discard pays half).

⚑ defaults used here (the rules file marks them so):

* TC-A2: a flower face chosen as 百搭 is a wildcard, not a flower: such a bonus tile is an error.
* TC-A3: no call uses a 百搭, so melds never hold the wild kind.
* TC-A5: the 底花 does not count towards the minimum.  TC-A7: 风碰 = 0.
* TC-A8: a claimed kong (一次杠, 续杠) breaks 门清; 暗杠 does not.
* TC-A11: 无花果 is not a cap on other hands.  TC-A13: any four called sets make 大吊车.
* §7: 抢杠 counts as a self-draw for the minimum (and for 无花果); the konger pays 3 shares.

Choices made here where the file is silent (each pinned by a test):

* 风暗刻 ("胡牌后手上有3张相同的风"): three identical winds in the hand after the win, the winning
  discard (or robbed tile) included, are a 风杠 (+1); ``discard_wind_triplet="pung"`` reads the
  triplet the discard completed as a claimed pung (0), as Suzhou's SZ-A4.  A wildcard may be one
  of the three.
* 大吊车 counts 暗杠 among the four sets, as Suzhou SZ-A8 does.
* Of all the readings (wildcard faces included) the one with the highest settlement is scored,
  a legal one first.  A wildcard stands for any suit tile or wind (TC-A3), its own face included.
* 包: the file names only 抢杠 (the robbed konger, ``ctx.discarder``, pays).  ``ctx.liable``
  other than the discarder is a ValueError.

No non-win settlements: the file has no kong payments and 荒庄 pays nothing (TC-A9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .. import tiles as _t
from ..decomposition import Decomposition, from_reading
from ._core import WinContext
from ._framework import Element, Facts, Scheme, pay_all, pay_discarder
from ._wildcards import check_chows_from_left, check_wild_tiles
from .suzhou import CONCEALED_WIND_PUNGS, DISCARD_WIND_PUNG, HuaFacts, _meld_counts, check_no_dragons, hua_facts

__all__ = ["score_taicang", "can_win_taicang", "DEFAULT_BASE", "DEFAULT_MAX_PAYMENT", "wild_kinds", "SCHEME"]

#: Default silver per 花 (the file's worked example).
DEFAULT_BASE = 5
#: Default 无花果 payment per payer on a self-draw ("比如付100两银子").
DEFAULT_MAX_PAYMENT = 100

_ = _meld_counts  # (re-exported for callers of the former module layout)


def wild_kinds(rule, flipped) -> tuple:
    """Tile ids of the 百搭 faces chosen by the flipped indicator (taicang.md §2).

    Examples
    --------
    >>> from mjfast import rules
    >>> r = rules.get("taicang")
    >>> [_t.CODES[t] for t in wild_kinds(r, "9m")], [_t.CODES[t] for t in wild_kinds(r, "F2")]
    (['1m'], ['F5', 'F6', 'F7', 'F8'])
    """
    code = _t.CODES[_t.parse_tile(flipped)]
    return tuple(_t.parse_tile(c) for c in rule.wildcard.successor(code))


def _check(f: Facts) -> None:
    """The hand, flowers, 百搭 and flags 太仓 allows (score and can_win)."""
    ctx = f.ctx
    rule = f.rule
    h = f.hand
    check_chows_from_left(f.melds, "太仓")
    for m in f.melds:
        if m.tiles[0] >= 31:
            raise ValueError(f"the dragons are flowers in 太仓; meld {m} is not allowed")
    wild = ()
    if ctx.flipped is not None or f.flowers:
        wild = wild_kinds(rule, ctx.flipped) if ctx.flipped is not None else ()
        flowers = rule.tileset.bonus
        fl = _t.CODES[ctx.flipped] if ctx.flipped is not None else None
        for t, n in Counter(h.bonus).items():
            code = _t.CODES[t]
            if code not in flowers:
                raise ValueError(f"{code} ({_t.NAMES_ZH[t]}) is not a 太仓 flower; flowers: {', '.join(flowers)}")
            if t in wild:
                raise ValueError(
                    f"{code} is this hand's 百搭 (flipped {fl}), a wildcard and not "
                    "a flower (TC-A2): count it in wilds="
                )
            if n + (code == fl) > flowers[code]:
                raise ValueError(
                    f"{n} copies of flower {code} (and the flipped indicator {fl}); "
                    f"the 太仓 tile set has {flowers[code]}"
                )
    check_wild_tiles(
        h,
        label="太仓",
        name="百搭",
        copies=rule.wildcard.copies,
        wild=wild,
        why=f" (flipped {_t.CODES[ctx.flipped]})" if ctx.flipped is not None else "",
        note=" (TC-A3: no call uses a 百搭)",
        indicator=ctx.flipped,
    )
    if ctx.liable is not None and ctx.liable != ctx.discarder:
        raise ValueError(
            "太仓 has no 包 except 抢杠, where the robbed konger (the discarder) "
            f"pays; liable={ctx.liable} is not allowed"
        )
    check_no_dragons(f.c, rule)


def _check_keywords(kw: dict, rule) -> dict:
    base, max_payment = kw["base"], kw["max_payment"]
    if isinstance(base, bool) or not isinstance(base, int) or base <= 0:
        raise ValueError(f"base (silver per 花) must be a positive integer, got {base!r}")
    if isinstance(max_payment, bool) or not isinstance(max_payment, int) or max_payment <= 0 or max_payment % 2:
        raise ValueError(
            f"max_payment (无花果 per payer) must be a positive even integer (a discard pays half), got {max_payment!r}"
        )
    return kw


def _counted(f: Facts) -> int:
    """The 花 that count towards the minimum and towards F = 0 for 无花果 (TC-A14)."""
    return f.sums["hua"] if f.opts["threshold_counts"] == "all" else f.flowers


E = Element
#: The 太仓 element table (taicang.md §6), in row order: the 花, then the factors.
ELEMENTS = (
    E("base", "底花", "Base", 1, "1", scope="hand"),
    E("flower", "花", "Flower", 1, "f.flowers", scope="hand", tag="hua"),
    E("suit_exposed_kong", "明杠", "Suit exposed kong", 1, "f.smk", scope="hand", tag="hua"),
    E("suit_concealed_kong", "暗杠", "Suit concealed kong", 2, "f.sak", scope="hand", tag="hua"),
    E(
        "wind_concealed_pung",
        "风杠（风暗刻）",
        "Wind concealed pung",
        1,
        f"{CONCEALED_WIND_PUNGS} - {DISCARD_WIND_PUNG}",
        tag="hua",
    ),
    E("wind_exposed_kong", "风明杠", "Wind exposed kong", 2, "f.wmk", scope="hand", tag="hua"),
    E("wind_concealed_kong", "风暗杠", "Wind concealed kong", 3, "f.wak", scope="hand", tag="hua"),
    E("wind_pung", "风碰", "Wind pung", 0, f"f.wpm + {DISCARD_WIND_PUNG}"),
    E("concealed_hand", "门清", "Concealed hand", 2, "f.concealed", scope="hand", how="multiply"),
    E("half_flush", "混一色", "Half flush", lambda o, kw: o["fan2x"], "f.one_suit and f.winds", how="multiply"),
    E("full_flush", "清一色", "Full flush", 4, "f.one_suit and not f.winds", how="multiply"),
    E("all_pungs", "对对胡", "All pungs", lambda o, kw: o["fan2x"], "f.pungs", how="multiply"),
    E("kong_bloom", "杠开", "Win on a replacement tile", 2, "f.ctx.after_kong", scope="context", how="multiply"),
    E("big_hanging", "大吊车", "Big hanging", 2, "f.n_melds == 4", scope="hand", how="multiply"),
)


def _wuhuaguo(f: Facts) -> bool:
    return f.concealed and _counted(f) == 0


def _share(b, ctx, r) -> int:
    if r.extra:  # 无花果: a fixed amount
        return r.extra[0][3]
    return r.total * b.kw["base"]


def _finish(f: Facts, r) -> Sequence[tuple]:
    """无花果 (门清 with F = 0): the settlement is a fixed amount per payer (half on a discard)."""
    if not _wuhuaguo(f):
        return ()
    ctx = f.ctx
    mp = f.kw["max_payment"]
    share = mp if ctx.self_draw or ctx.robbing_kong else mp // 2
    return [("no_flower_concealed", "无花果", "Concealed hand without flowers (fixed)", share, 1, "stake", "replace")]


def _exempt(o) -> tuple:
    """The exempt patterns that are elements (TC-A6)."""
    return EXEMPT_PATTERNS if o["threshold_exempt"] == "suzhou_list" else ()


#: Under ``threshold_exempt="suzhou_list"``: the patterns of Suzhou's list Taicang scores.
EXEMPT_PATTERNS = ("half_flush", "full_flush", "all_pungs", "kong_bloom", "big_hanging")


def _exempt_if(f: Facts) -> bool:
    """门清; under ``suzhou_list`` also 天胡 and 地胡 (no elements here)."""
    if f.concealed:
        return True
    ctx = f.ctx
    return f.opts["threshold_exempt"] == "suzhou_list" and (ctx.heavenly or ctx.earthly)


def _legality(f: Facts, r) -> str:
    """§5: 二花自摸三花冲 unless exempt (:func:`_exempt`, :func:`_exempt_if`; 七对 under
    ``suzhou_list``)."""
    o = f.opts
    ctx = f.ctx
    suzhou_list = o["threshold_exempt"] == "suzhou_list"
    if suzhou_list and f.form == "seven_pairs":
        return ""
    counted = _counted(f)
    selfdraw_like = ctx.self_draw or ctx.robbing_kong
    need = 2 if selfdraw_like else 3
    if counted >= need:
        return ""
    what = "花" if o["threshold_counts"] == "all" else "hard 花"
    how = "抢杠 (as a self-draw)" if ctx.robbing_kong else ("self-draw" if ctx.self_draw else "discard win")
    exempt_what = "门清" if not suzhou_list else "门清 or an exempt pattern"
    return f"{counted} {what}, below the {need}-花 minimum for a {how}, and not {exempt_what}"


def _surely_legal(f: Facts, sums) -> bool:
    """The 花 of the flowers and the called melds (a lower bound) meet the minimum."""
    counted = sums["hua"] if f.opts["threshold_counts"] == "all" else f.flowers
    ctx = f.ctx
    return counted >= (2 if ctx.self_draw or ctx.robbing_kong else 3)


def _key(f: Facts, r) -> tuple:
    """Legal first, then the settlement (无花果's fixed amount or 花 × base)."""
    return (r.legal, r.extra[0][3] if r.extra else r.total * f.kw["base"])


def _settle(b, ctx: WinContext, r) -> tuple:
    share = _share(b, ctx, r)
    if ctx.robbing_kong:  # "由杠的人一人付三份"
        return share, pay_discarder(ctx, share, 3)
    if ctx.self_draw:
        return share, pay_all(ctx, share)
    return share, pay_discarder(ctx, share)


def _not_complete(ctx: WinContext, rule) -> str:
    extra = f" with wildcards as {', '.join(_t.CODES[t] for t in ctx.wild_faces)}" if ctx.wild_faces else ""
    shapes = "4 sets + a pair" + (", or 七对" if rule.options["qidui"] else "")
    return f"hand not complete: {ctx.hand} does not form a winning hand under {rule.name}{extra} ({shapes})"


def _decomposition(b, o) -> Decomposition:
    """A winning wildcard has no natural tile in hand: its wait type is not given."""
    d = b.best_reading(o)
    ctx = o.ctx
    return from_reading(d, ctx.hand.melds, ctx.win_tile if ctx.hand.counts[ctx.win_tile] else None)


#: The 太仓 scorer, declared.
SCHEME = Scheme(
    "taicang",
    ELEMENTS,
    keywords={"base": DEFAULT_BASE, "max_payment": DEFAULT_MAX_PAYMENT},
    check_keywords=_check_keywords,
    check=_check,
    facts=HuaFacts,
    hand_facts=hua_facts,
    legality=_legality,
    exempt=_exempt,
    exempt_if=_exempt_if,
    surely_legal=_surely_legal,
    key=_key,
    finish=_finish,
    settle=_settle,
    not_complete=_not_complete,
    decomposition=_decomposition,
    minimum_elements=("hua",),
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_taicang(ctx: WinContext, rule, *, base: int = DEFAULT_BASE, max_payment: int = DEFAULT_MAX_PAYMENT):
    """Score a won hand under 太仓麻将 (the registered scorer of ``"taicang"``).

    Call it through :func:`mjfast.score` (``score(ctx, "taicang", **options)``).

    Parameters
    ----------
    ctx : WinContext
        The hand; flowers in ``ctx.hand.bonus``, 百搭 in ``ctx.hand.wilds``.  Flags used:
        ``self_draw``, ``discarder``, ``robbing_kong`` (``discarder`` = the robbed konger),
        ``after_kong`` (杠开), ``flipped`` (checks the flowers and naturals against the 百搭
        kind), ``wild_faces``; ``heavenly``/``earthly`` only with
        ``threshold_exempt="suzhou_list"``.
    rule : Rule
        The resolved ``taicang`` rule (options in the module docstring).
    base : int, default 5
        Silver per 花.
    max_payment : int, default 100
        无花果: what each payer pays on a self-draw; the discarder pays half.

    Returns
    -------
    Score
        ``total`` = 花; ``points`` = one share; ``legal`` False below the minimum (§5).

    Raises
    ------
    ValueError
        A hand that is not a winning hand (:class:`~mjfast.scoring.NotComplete`; with
        ``wild_faces``, none with those faces), a chow not from 上家, a dragon meld, a flower the
        tile set lacks or that is this hand's 百搭, natural tiles of a playable 百搭 kind, a
        ``liable`` seat other than the discarder, or a bad ``base``/``max_payment``.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> h = Hand("123m456m789m234m55m", bonus="F1F2 5z 6z 7z")
    >>> s = score(WinContext(h, win_tile="5m", self_draw=True), "taicang")
    >>> s.total, s.points, s.payments.tolist()
    (48, 240, [720, -240, -240, -240])
    >>> s.elements[["name_zh", "total", "how"]].values.tolist()
    [['底花', 1, 'add'], ['花', 5, 'add'], ['门清', 2, 'multiply'], ['清一色', 4, 'multiply']]
    >>> h = Hand("123m99m1z456p", melds=["789s@left"], bonus="F3", wilds=2)
    >>> s = score(WinContext(h, win_tile="1z", discarder=3, flipped="1p"), "taicang")
    >>> s.legal, s.reason
    (False, '2 花, below the 3-花 minimum for a discard win, and not 门清')
    """
    return _score(ctx, rule, base=base, max_payment=max_payment)


def can_win_taicang(ctx: WinContext, rule, *, base: int = DEFAULT_BASE, max_payment: int = DEFAULT_MAX_PAYMENT) -> bool:
    """Whether ``ctx`` is a legal 太仓 win: a winning hand meeting the §5 minimum.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, can_win
    >>> h = Hand("456p789s123s11z", melds=["234m@left"], bonus="F1F2")
    >>> can_win(WinContext(h, win_tile="1z", self_draw=True), "taicang")
    True
    >>> can_win(WinContext(h, win_tile="1z", discarder=2), "taicang")
    False
    """
    return _can_win(ctx, rule, base=base, max_payment=max_payment)


SCHEME.register()


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins: (1 + F) 花 on a hand with a chow called (not 门清, so not exempt):
#: minimum 2 / 3 花.
MINIMAL_WINS = tuple(
    ("123m456m789s55s", ("123p@left",), ("F1", "F2", "F3", "F4")[:f], "1m", sd)
    for f in (1, 2, 3, 4)
    for sd in (True, False)
)


def next_deal(outcome) -> int:
    """§8: the winner deals (the dealer keeps the deal when he wins); after a robbed kong the robbed
    konger deals ("由杠的人一人付三份", and he "becomes the next dealer"); a draw keeps the dealer
    (TC-A9)."""
    if not outcome.events:
        return outcome.dealer
    first = outcome.events[0]
    return first.discarder if first.how == "robbing_kong" else first.winners[0]
