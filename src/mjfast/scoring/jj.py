"""JJ麻将 (JJ platform-generic) scorer: MCR fans with 混 wildcards, 番 × 基数 × coefficient,
the 20 % meld-source split and payment minimisation.

Rules: ``rules/jj.md``.

Fans.  "MCR-style": the fans are those of the 国标 fan search (:mod:`mjfast.scoring.guobiao`,
called, not copied; its default options), declared with the scorer framework as this rule's
element table (:data:`ELEMENTS`: the MCR fans, then 混杠) and its ``search`` hook; the
settlement below is the rule's ``settle`` hook, so a :func:`mjfast.rules.variant` of JJ
reprices or switches off fans as one of 国标 does (the minimum on the variant's total).  A
hand with 混 wildcards (``hand.wilds``) is scored under every assignment of faces that
:func:`mjfast.decompose` finds for it and the highest fan total (by the MCR table's values) is
kept (an assignment that would need a fifth copy of a kind is skipped: the 国标 fan search
rejects it).  The non-MCR 混杠 (88 番, a kong of the four 混, [003] 联众 list) is added when the
scorer keyword ``hun_kind`` names the 混 kind and the hand holds a kong meld of it.
Minimum: 1 番 (JJ-A6 ⚑; the 国标 8-番 minimum does not apply).  Flowers: none by default
(``flowers=True`` counts bonus tiles as 1 番 each, as 国标 does).

Points (§3).  ``P = 番 × base × coefficient``: mode ``"classic"`` (经典) 1.5 on a self-draw,
1.0 on a discard; mode ``"bloody"`` (血战) 3 and 1.

Who pays (§4, classic).  Each set the winner obtained by 吃, 碰 or 明杠 (an exposed kong; a 补杠
counts for the seat whose discard made the pung) from player Q makes Q pay 20 % of P, per set;
the melds' ``source`` (上家 = ``left`` = seat ``winner − 1``, 对家 ``opposite``, 下家 ``right`` =
``winner + 1``) names Q.  The remainder ``P × (1 − 0.2 k)`` is paid by the discarder on a discard
win and split equally among the three opponents on a self-draw.  The winning discard itself
creates no 20 % charge (JJ-A3 ⚑).  抢杠: a discard win, the robbed player paying as the
discarder (⚑).  Bloody mode: the discarder pays P, or each opponent pays P on a self-draw
(JJ-A4 ⚑); scorer keyword ``out`` lists seats that already won and pay nothing (RULES.md §1.6 ⚑).

Rounding (JJ-A5): amounts are exact rationals (:func:`shares`); the int ``payments`` round
each payer's amount half up and the winner receives their sum, so they always sum to zero.
With the default ``base=10`` (⚑, the file's §6 worked example) every classic amount is already
an integer.

Payment minimisation (§5): with ``table_scores`` (the four seats' current table scores) every
transfer is ``min(winner's score, payer's score, amount owed)`` (never negative); the winner's
score is taken before the win (⚑: the file does not say whether it grows between transfers).

:attr:`Score.total` = 番 (flowers included), ``points`` = ``P`` rounded (what a sole payer owes
when no meld was claimed).  JJ has no 包 (the 20 % split plays that role): ``ctx.liable`` is
rejected.  The 混 kind is not a rule option (JJ-A1): a hand gives its 混 tiles as wilds;
``ctx.wild_faces`` (faces fixed at the win) restricts the assignments tried.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from .. import rules as _rules
from .. import tiles as _t
from ..decomposition import decompose
from ..hand import Hand, Meld
from . import _fans as _FANS
from . import guobiao as _gb
from ._core import Score, WinContext
from ._framework import Element, Scheme
from ._wildcards import check_chows_from_left, check_wild_tiles
from .ruijin import _faces_ok

__all__ = ["score_jj", "can_win_jj", "shares", "MODES", "COEFFICIENTS", "MIN_FAN", "ELEMENTS", "SCHEME"]

#: Minimum fan total (flowers excluded), JJ-A6 ⚑.
MIN_FAN = 1
MODES = ("classic", "bloody")
#: (self-draw, discard) coefficients per mode.
COEFFICIENTS = {"classic": (Fraction(3, 2), Fraction(1)), "bloody": (Fraction(3), Fraction(1))}
_SOURCE_OFFSET = {"left": -1, "opposite": 2, "right": 1}
_CLAIMED = frozenset({"chow", "pung", "kong", "added_kong"})
_HUN_GANG = ("hun_gang", "混杠", "Kong of the four 混", 88)

_GB_RULE = None


def _gb_rule():
    global _GB_RULE
    if _GB_RULE is None:
        _GB_RULE = _rules.get("guobiao")
    return _GB_RULE


def _fans(ctx: WinContext, first: bool = False):
    """``(fan total without flowers, fan counts, reading ctx, reading)`` of the best face
    assignment (of the first one that forms an MCR hand when ``first``), or None."""
    opts = _gb._options(_gb_rule())
    h = ctx.hand
    if h.wilds == 0:
        res = _gb._compute(ctx, opts)
        return None if res is None else (res[0], res[1], ctx, res[2])
    best = None
    seen = set()
    for d in decompose(h, rule="jj"):
        wt = d.wild_tiles
        if not _faces_ok(d, ctx.wild_faces):
            continue
        if wt in seen:
            continue
        seen.add(wt)
        c = h.counts.astype(np.int64)
        for t in wt:
            c[t] += 1
        if c.max() > 4 or c[ctx.win_tile] == 0:
            continue
        try:
            nh = Hand(_t.tiles_from_counts(c), melds=h.melds, bonus=h.bonus)
            nctx = replace(ctx, hand=nh, wild_faces=())
        except ValueError:
            continue
        res = _gb._compute(nctx, opts)
        if res is not None and (best is None or res[0] > best[0]):
            best = (res[0], res[1], nctx, res[2])
            if first and best[0] >= MIN_FAN:
                break
    return best


def _hun_gang(ctx: WinContext, hun_kind) -> bool:
    if hun_kind is None:
        return False
    k = _t.parse_tile(hun_kind)
    if k >= _t.N_KINDS:
        raise ValueError("hun_kind must be a playable kind")
    return any(m.is_kong and m.tiles[0] == k for m in ctx.hand.melds)


def _check(ctx: WinContext, rule, hun_kind) -> None:
    """吃 only from 上家; no more 混 than the rule has (4, or 3 when the flipped tile is the 混
    kind); no natural tile of the 混 kind when it is known (``hun_kind``, or ``ctx.flipped``
    under a flipping ``hun`` option), a 混杠 (a kong of the four 混) aside."""
    check_chows_from_left(ctx.hand.melds, "JJ")
    scheme = rule.wildcard
    flipped = ctx.flipped if scheme.selection != "per_game" else None
    wild: tuple[int, ...]
    wild, why, copies = (), "", scheme.copies
    if flipped is not None:
        code = _t.CODES[flipped]
        wild = tuple(_t.parse_tile(c) for c in scheme.successor(code))
        copies = scheme.wild_copies(code)
        why = f" (flipped {code}, hun={rule.options['hun']})"
    if hun_kind is not None:
        k = _t.parse_tile(hun_kind)
        if k >= _t.N_KINDS:
            raise ValueError("hun_kind must be a playable kind")
        if wild and wild != (k,):
            assert flipped is not None  # wild is set only from a flipped indicator
            raise ValueError(
                f"hun_kind {_t.CODES[k]} is not the 混 the flipped {_t.CODES[flipped]} "
                f"chooses ({', '.join(_t.CODES[t] for t in wild)})"
            )
        wild = (k,)
        why = why or f" (hun_kind {_t.CODES[k]})"
    check_wild_tiles(
        ctx.hand,
        label="JJ",
        name="混",
        copies=copies,
        wild=wild,
        why=why,
        kong_ok=True,
        note=' ("不可吃碰": a 混 is in no call but the 混杠)',
        indicator=flipped,
    )


def _source_seat(ctx: WinContext, m: Meld) -> int:
    if m.source is None:
        raise ValueError(
            f"meld {m} has no source seat; the JJ 20 % split needs it (left = 上家, opposite = 对家, right = 下家)"
        )
    return (ctx.winner + _SOURCE_OFFSET[m.source]) % 4


def shares(ctx: WinContext, fan: int, *, mode: str = "classic", base=10, out=()) -> list:
    """Exact amounts (:class:`~fractions.Fraction`) each seat owes the winner; winner = 0.

    Parameters
    ----------
    ctx : WinContext
        Used: ``winner``, ``self_draw``, ``discarder``, the melds' sources.
    fan : int
        The hand's 番.
    mode : {"classic", "bloody"}
    base : int or Fraction, default 10
    out : iterable of int
        Bloody mode: seats that already won and pay nothing.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext
    >>> h = Hand("123m456p789s55p", melds=["777z@left"])
    >>> ctx = WinContext(h, win_tile="5p", self_draw=True, winner=0)
    >>> [str(x) for x in shares(ctx, 8)]   # P = 120; 上家 = seat 3 pays 24 + 32
    ['0', '32', '32', '56']
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; valid modes: {', '.join(MODES)}")
    base = Fraction(base)
    if base <= 0:
        raise ValueError(f"base must be positive, got {base}")
    zimo, dian = COEFFICIENTS[mode]
    P = fan * base * (zimo if ctx.self_draw else dian)
    owed = [Fraction(0)] * 4
    out = set(out)
    if ctx.winner in out:
        raise ValueError("the winner cannot be among the seats already out")
    if mode == "bloody":
        if ctx.self_draw:
            for p in ctx.payers:
                if p not in out:
                    owed[p] = P
        else:
            assert ctx.discarder is not None  # a discard win names its discarder
            if ctx.discarder in out:
                raise ValueError("a seat that already won cannot deal in")
            owed[ctx.discarder] = P
        return owed
    if out:
        raise ValueError("out (seats already won) is a bloody-mode keyword")
    claimed = [m for m in ctx.hand.melds if m.kind in _CLAIMED]
    for m in claimed:
        owed[_source_seat(ctx, m)] += P / 5
    rest = P - P * len(claimed) / 5
    if ctx.self_draw:
        for p in ctx.payers:
            owed[p] += rest / 3
    else:
        assert ctx.discarder is not None  # a discard win names its discarder
        owed[ctx.discarder] += rest
    return owed


def _round(x: Fraction | int) -> int:
    return int((x * 2 + 1) // 2)


# The search's source: the best face assignment of a JJ hand, as a tuple ``(fan counts (国标
# ids), fan total without flowers, the context it was read in, the reading, flowers, 混杠)``.
_FANS_AT, _FAN_AT, _RCTX_AT, _READING_AT, _N_FL_AT, _HUN_AT = range(6)


#: JJ's element table, in row order: the 国标 fans as the 国标 scorer counts them (its default
#: options), the 花牌 and 明暗杠 in the fan table's order, then 混杠.
ELEMENTS = _gb.fan_elements(range(1, _FANS.N_FANS)) + (
    Element(_HUN_GANG[0], _HUN_GANG[1], _HUN_GANG[2], _HUN_GANG[3], "f.hun_gang", scope="hand"),
)
_CODE = _FANS.FAN_CODE
_FAN_IDS = tuple(i for i in range(1, _FANS.N_FANS) if i != _FANS.FLOWER_TILES)
_FLOWER_CODE = _CODE[_FANS.FLOWER_TILES]


def _plain_settlement(kw: dict) -> bool:
    """The keywords of the common case (classic, base 10, no table scores, no seats out)."""
    return (
        kw["mode"] == "classic"
        and type(kw["base"]) is int
        and kw["base"] == 10
        and kw["table_scores"] is None
        and not kw["out"]
        and kw["flowers"] is False
    )


def _search_hook(bound):
    """The scheme's search for one binding: the checks, the flowers, the best face assignment
    (by the 国标 fan search, which ranks by the fan table's values), 混杠."""
    rule, kw = bound.rule, bound.kw
    hun_kind, flowers = kw["hun_kind"], kw["flowers"]
    plain_kw = _plain_settlement(kw)
    declared = bound.as_declared

    def search(ctx: WinContext, first: bool):
        if first:  # (can_win checks the hand before the liability, score the other way round)
            _check(ctx, rule, hun_kind)
        if ctx.liable is not None:
            raise ValueError("jj has no 包 liability (the 20 % meld-source split replaces it)")
        if not first:
            _check(ctx, rule, hun_kind)
        h = ctx.hand
        n_fl = 0 if (flowers is False and not h._bonus) else _gb._flowers(ctx, flowers, "jj")
        plain = plain_kw and not h._bonus and (not h._melds or all(m.source is not None for m in h._melds))
        res = _fans(ctx, first=first and declared and plain)
        if res is None:
            return None
        fan, ft, rctx, rd = res
        hun = _hun_gang(ctx, hun_kind)
        if hun:
            fan += _HUN_GANG[3]
        total = fan + n_fl
        if not plain:  # the settlement's checks (of the keywords, the melds' sources), in score's order
            _settlement(ctx, total, kw["mode"], kw["base"], kw["table_scores"], kw["out"])
        return (ft, fan, rctx, rd, n_fl, hun), total, "" if fan >= MIN_FAN else _below_minimum

    return search


def _found_hook(bound, found: tuple) -> dict:
    fans = found[_FANS_AT]
    got = {_CODE[i]: fans[i] for i in _FAN_IDS if fans[i]}
    if found[_N_FL_AT]:
        got[_FLOWER_CODE] = found[_N_FL_AT]
    if found[_HUN_AT]:
        got[_HUN_GANG[0]] = 1
    return got


def _below_minimum(r) -> str:
    return _legality(r.bound, r.reading, r.total)


def _legality(bound, found: tuple, total: int) -> str:
    """The 1-番 minimum (JJ-A6 ⚑) on the total without the flowers."""
    n_fl = found[_N_FL_AT]
    if n_fl:
        total -= n_fl * (bound.value(_FLOWER_CODE) or 0)
    return "" if total >= MIN_FAN else f"{total} 番, below the {MIN_FAN}-番 minimum"


def _settle(bound, ctx: WinContext, r) -> tuple:
    """§3-§5: ``P = 番 × base × coefficient``, the 20 % meld-source split, payment
    minimisation; the exact shares (:func:`shares`) rounded half up."""
    kw = bound.kw
    return _settlement(ctx, r.total, kw["mode"], kw["base"], kw["table_scores"], kw["out"])


def _settlement(ctx: WinContext, total: int, mode, base, table_scores, out) -> tuple:
    """``(points, payments)`` of a legal win of ``total`` 番."""
    if type(base) is int and base > 0 and not out and table_scores is None and (mode == "classic" or mode == "bloody"):
        # the common case in integers: every amount of :func:`shares` is a multiple of 1/30
        # (coefficient 3/2, the 20 % split, the self-draw remainder over 3), so it is held as
        # 30 × amount and rounded half up exactly as :func:`_round` does
        P30 = total * base * (30 if not ctx.self_draw else 45 if mode == "classic" else 90)
        owed30 = [0, 0, 0, 0]
        if mode == "bloody":
            if ctx.self_draw:
                for p in range(4):
                    if p != ctx.winner:
                        owed30[p] = P30
            else:
                assert ctx.discarder is not None  # a discard win names its discarder
                owed30[ctx.discarder] = P30
        else:
            k = 0
            for m in ctx.hand.melds:
                if m.kind in _CLAIMED:
                    owed30[_source_seat(ctx, m)] += P30 // 5  # P30 is a multiple of 30
                    k += 1
            rest = P30 - P30 * k // 5
            if ctx.self_draw:
                for p in range(4):
                    if p != ctx.winner:
                        owed30[p] += rest // 3  # a multiple of 3: P30 // 5 is a multiple of 6
            else:
                assert ctx.discarder is not None  # a discard win names its discarder
                owed30[ctx.discarder] += rest
        pts = [(2 * x + 30) // 60 for x in owed30]
        pay = [-x for x in pts]
        pay[ctx.winner] = sum(pts)
        return (2 * P30 + 30) // 60, pay
    owed = shares(ctx, total, mode=mode, base=base, out=out)
    pts = [_round(x) for x in owed]
    if table_scores is not None:
        ts = list(table_scores)
        if len(ts) != 4:
            raise ValueError("table_scores must give 4 seats' scores")
        pts = [max(0, min(ts[ctx.winner], ts[p], pts[p])) if pts[p] else 0 for p in range(4)]
        pts = [int(_round(Fraction(x))) for x in pts]
    pay = [-x for x in pts]
    pay[ctx.winner] = sum(pts)
    zimo, dian = COEFFICIENTS[mode]
    return _round(total * Fraction(base) * (zimo if ctx.self_draw else dian)), pay


def _decomposition_hook(bound, r):
    found = r.reading
    return _gb._decomposition(found[_RCTX_AT], found[_READING_AT])


def _not_complete(ctx: WinContext, rule) -> str:
    return f"hand not complete: {ctx.hand} does not form a winning hand under jj (the MCR forms, with 混 as any tile)"


#: The JJ scorer, declared: the 国标 fans (found by the 国标 fan search over the 混's faces) and
#: 混杠; the fractional shares are its settlement.
SCHEME = Scheme(
    "jj",
    ELEMENTS,
    keywords={"mode": "classic", "base": 10, "table_scores": None, "hun_kind": None, "flowers": False, "out": ()},
    search=_search_hook,
    found=_found_hook,
    legality=_legality,
    settle=_settle,
    decomposition=_decomposition_hook,
    not_complete=_not_complete,
    unit="番",
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_jj(
    ctx: WinContext,
    rule,
    *,
    mode: str = "classic",
    base=10,
    table_scores=None,
    hun_kind=None,
    flowers: bool = False,
    out=(),
) -> Score:
    """Score a won hand under JJ麻将 (registered as ``"jj"``).

    Parameters
    ----------
    ctx : WinContext
        As for 国标 (``self_draw``, ``last_copy``, ``after_kong``, ``robbing_kong``,
        ``last_tile``, winds); ``hand.wilds`` are the 混 held.
    rule : Rule
        The resolved ``jj`` rule (no options).
    mode : {"classic", "bloody"}, default "classic"
    base : int, default 10
        基数 (⚑: the file's worked example).
    table_scores : sequence of 4 numbers, optional
        Current table scores for payment minimisation (§5).
    hun_kind : str or int, optional
        The 混 kind, only needed to score 混杠 (a kong meld of it).
    flowers : bool, default False
        Count bonus tiles as 1 番 each.
    out : iterable of int
        Bloody mode: seats that already won.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext(Hand("123m456p789s234s55p"), win_tile="5p", discarder=3), "jj")
    >>> s.total, s.points, s.payments.tolist()
    (13, 130, [130, 0, 0, -130])
    """
    return _score(
        ctx, rule, mode=mode, base=base, table_scores=table_scores, hun_kind=hun_kind, flowers=flowers, out=out
    )


def can_win_jj(
    ctx: WinContext,
    rule,
    *,
    mode: str = "classic",
    base=10,
    table_scores=None,
    hun_kind=None,
    flowers: bool = False,
    out=(),
) -> bool:
    """Whether ``ctx`` is a legal JJ win: an MCR winning hand (混 as any tile) of at least 1 番."""
    return _can_win(
        ctx, rule, mode=mode, base=base, table_scores=table_scores, hun_kind=hun_kind, flowers=flowers, out=out
    )


SCHEME.register()


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal win: one 幺九刻 (1 番, the JJ minimum), one chow called so no 门前清; a
#: discard pays 1.0 × 番 × base.
MINIMAL_WINS = (("234m678s444z55p", ("345p@left",), (), "2m", False),)


def next_deal(outcome) -> int:
    """The next dealer (the rule's ``dealer`` option): 荒庄 keeps the dealer ("the dealer of that hand
    deals again"); after a win the deal passes to the dealer's 下家 (``"next"``) or the winner deals
    (``"winner"``)."""
    if not outcome.winners:
        return outcome.dealer
    if outcome.rule.options["dealer"] == "winner":
        return outcome.winners[0]
    return (outcome.dealer + 1) % 4
