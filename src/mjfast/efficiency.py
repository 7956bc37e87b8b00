"""Tile efficiency: waits, 进张 (ukeire), 改良 and the 一进听 combination count.

Definitions follow ``rules/yijinting.md`` exactly:

* remaining(t) = copies of t in play − own concealed − own melds − ``visible`` (never below 0,
  never a kind the rule lacks);
* an accepting tile lowers the shanten; 进张数 = Σ remaining over the accepting kinds;
* for a 1-shanten hand, W(t) = Σ remaining-after-drawing-t over the **union** of the winning
  kinds of every discard that keeps the hand ready; 组合数 = Σ remaining(t) · W(t).

Shape-level rule facts apply throughout: the rule's tile set, its accepted win forms and
四川's 缺一门.  Under a rule, a wait (and an accepting tile of a ready or 1-shanten hand, and
W(t)) also counts only if the win it makes is legal: :func:`mjfast.can_win` decides — the
minimum-value rules (苏州/太仓 花, 国标 8 番, 贵阳's 通行证 …) — for a self-draw by default
(``legal="discard"`` for a win on the opposite player's discard, ``legal="shape"`` to skip the
check, or any callable ``(hand14, tile) -> bool`` as the hook).  Wildcards held count as in
:func:`mjfast.shanten`; a drawn wildcard always accepts and is reported apart
(``wild_accept``) so natural-tile figures stay comparable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from . import _bridge
from ._display import tile_frame
from ._inputs import (
    as_hand,
    as_light_hand,
    default_threads,
    fix_sets,
    prepare,
    seven_pairs_option,
    validate_batch,
    visible_counts,
)
from ._kernels import _efficiency as _ke
from .hand import Hand
from .tiles import CODES, N_KINDS, format_counts, parse_tiles

if TYPE_CHECKING:
    import pandas as pd

_TILE_ORDER = list(CODES[:N_KINDS])
_KIND_CODES = tuple(_TILE_ORDER)


def _setup(hand, rule, visible, melds, wilds, fixed_sets, wild_kind, need: tuple[int, ...], seven_pairs=None):
    h = as_hand(hand, melds=melds, wilds=wilds) if fixed_sets else as_light_hand(hand, melds=melds, wilds=wilds)
    if fixed_sets:
        h = fix_sets(h, fixed_sets)
    if h.n_tiles % 3 not in need or h.n_tiles + 3 * h.n_melds > 14:
        want = "3k+1 (e.g. 13)" if need == (1,) else "3k+2 (e.g. 14)"
        raise ValueError(f"this function needs a {want}-tile hand; got {h.n_tiles} tiles in hand (+{h.n_melds} melds)")
    kr, caps, options = prepare(h, rule, wild_kind=wild_kind, pairs_distinct=seven_pairs_option(seven_pairs))
    vis = visible_counts(visible)
    # prepare() already checked the hand against the caps; only visible tiles can overflow now
    if visible is not None:
        over = np.flatnonzero(h.counts.astype(np.int16) + vis > caps.astype(np.int16))
        if len(over):
            k = int(over[0])
            raise ValueError(
                f"visible makes {CODES[k]} exceed its copies: {int(h.counts[k])} in hand, "
                f"{int(h.meld_counts[k])} in melds, {int(vis[k])} visible"
            )
    return h, kr, np.ascontiguousarray(caps, np.uint8), options, vis


#: Values of ``legal`` besides a callable.
LEGAL = ("self_draw", "discard", "shape")


def _win_check(rule, legal):
    """The legality test ``(hand14, tile) -> bool`` of a win, or None when the shape decides
    (no rule, or ``legal="shape"``).  Answers are memoised for the call."""
    if callable(legal):
        return legal
    if legal not in LEGAL:
        raise ValueError(f"legal must be one of {', '.join(LEGAL)} or a callable (hand14, tile) -> bool; got {legal!r}")
    rule_obj = _bridge.resolve_rule(rule)
    if rule_obj is None or legal == "shape":
        return None
    from .scoring import WinContext, can_win

    self_draw = legal == "self_draw"
    memo: dict = {}

    def check(hand14: Hand, tile: int) -> bool:
        key = (hand14.counts.tobytes(), hand14.melds, hand14.bonus, hand14.wilds, tile)
        hit = memo.get(key)
        if hit is None:
            ctx = WinContext(
                hand14, win_tile=tile, self_draw=self_draw, winner=0, dealer=0, discarder=None if self_draw else 2
            )
            hit = memo[key] = bool(can_win(ctx, rule_obj))
        return hit

    return check


class _Legal:
    """Legal waits of the hands one call looks at (same melds, bonus tiles and wildcards)."""

    def __init__(self, h, kr, caps, options, check):
        self.melds = tuple(getattr(h, "melds", ()))
        self.bonus = tuple(getattr(h, "bonus", ()))
        self.wilds = h.wilds
        self.n_melds = len(self.melds)
        self.kr, self.caps, self.options, self.check = kr, caps, options, check
        self._wins: dict = {}  # (final counts, tile) -> legal; the same win is reached many ways

    def waits(self, c13: np.ndarray, vis: np.ndarray) -> tuple[int, list]:
        """(shanten, legal winning kinds) of the 3k+1 counts ``c13``."""
        accept = np.zeros(N_KINDS, np.uint8)
        rem = np.zeros(N_KINDS, np.int16)
        s = _ke.ukeire_kernel(
            c13, self.n_melds, self.wilds, self.caps, self.kr.playable, self.kr.forms, self.options, vis, accept, rem
        )
        if s != 0:
            return s, []
        out = []
        for k in np.flatnonzero(accept):
            c = c13.copy()
            c[k] += 1
            key = (c.tobytes(), int(k))
            ok = self._wins.get(key)
            if ok is None:
                ok = self._wins[key] = self.check(Hand(c, melds=self.melds, bonus=self.bonus, wilds=self.wilds), int(k))
            if ok:
                out.append(int(k))
        return s, out

    def after_draw(self, c14: np.ndarray, vis: np.ndarray) -> tuple[np.ndarray, int]:
        """Over the discards of ``c14`` that leave it ready: the union of the legal winning kinds
        (a mask) and the largest copies-left total of one discard's legal waits."""
        union = np.zeros(N_KINDS, bool)
        rem = np.maximum(self.caps.astype(np.int16) - c14 - vis, 0)
        best = 0
        for d in np.flatnonzero(c14):
            c13 = c14.copy()
            c13[d] -= 1
            s, ws = self.waits(c13, vis)
            if s == 0 and ws:
                union[ws] = True
                best = max(best, int(rem[ws].sum()))
        return union, best

    def yijinting(self, c13: np.ndarray, vis: np.ndarray, accepting, aggregate: str = "union"):
        """Per accepting kind t of the 1-shanten ``c13`` with a legal ready hand after it:
        ``(t, copies, W(t))``; and the mask of every legal winning kind."""
        base = np.maximum(self.caps.astype(np.int16) - c13 - vis, 0)
        rows, ting = [], np.zeros(N_KINDS, bool)
        for t in accepting:
            c14 = c13.copy()
            c14[t] += 1
            union, best = self.after_draw(c14, vis)
            if not union.any():
                continue
            after = np.maximum(self.caps.astype(np.int16) - c14 - vis, 0)
            rows.append((int(t), int(base[t]), int(after[union].sum()) if aggregate == "union" else best))
            ting |= union
        return rows, ting


Ukeire = _ke.Ukeire


def _wild_remaining(h, rule, wild_copies) -> int:
    """Wildcards still to come: ``wild_copies`` (default: the rule's usual number of wildcard
    tiles in play, 0 without wildcards) minus the wildcards held."""
    if wild_copies is None:
        rule_obj = _bridge.resolve_rule(rule)
        if rule_obj is None or rule_obj.wildcard is None:
            return 0
        wild_copies = rule_obj.wildcard.copies
    return max(0, int(wild_copies) - h.wilds)


def ukeire(
    hand13,
    *,
    rule=None,
    visible=None,
    melds=(),
    wilds=None,
    fixed_sets=(),
    wild_kind=None,
    wild_copies=None,
    seven_pairs=None,
    legal="self_draw",
) -> Ukeire:
    """进张: every kind whose draw lowers the shanten of a 3k+1 hand, with copies left.

    Parameters
    ----------
    hand13 : Hand, str or array
        A 13-tile (3k+1) hand; ``melds``/``wilds`` as in :func:`mjfast.shanten`.
    rule : str or Rule, optional
    visible : tiles or uint8[34], optional
        Tiles seen elsewhere (discards, others' melds): ``visible=table`` in yijinting.md terms.
        Default: only the player's own tiles are subtracted.
    fixed_sets : sequence of str
        Concealed sets to treat as fixed (as if exposed), e.g. to reproduce an article.
    wild_kind, wild_copies : optional
        The wildcard face of this hand and the wildcard copies in play (default: the rule's
        usual number, e.g. 4 百搭 in 太仓, 3 财神 in 金华); ``wild_accept`` is ``wild_copies``
        minus the wildcards held — every drawn wildcard accepts.
    seven_pairs : {"chinese", "riichi"}, optional
        As in :func:`mjfast.shanten`.
    legal : {"self_draw", "discard", "shape"} or callable, default "self_draw"
        Under a rule, which wins count (see the module docstring): legal by
        :func:`mjfast.can_win` for a self-draw, or for a win on the opposite player's discard;
        ``"shape"`` counts every complete hand; a callable ``(hand14, tile) -> bool`` decides
        itself.  Without a rule the shape decides.
        For a ready hand the accepting kinds are the legal waits; for a 1-shanten hand a kind
        accepts if some discard after it leaves a legal wait; beyond that the shape decides.

    Examples
    --------
    >>> import mjfast as mj
    >>> u = mj.ukeire("11p34567m45s9p", melds=["555z"])
    >>> u.shanten, u.count, u.tiles
    (1, 19, {'2m': 4, '5m': 3, '8m': 4, '3s': 4, '6s': 4})
    >>> mj.ukeire("234m567p345s11z23s").count, mj.ukeire("234m567p345s11z23s", rule="guobiao").count
    (7, 0)
    """
    h, kr, caps, options, vis = _setup(hand13, rule, visible, melds, wilds, fixed_sets, wild_kind, (1,), seven_pairs)
    s, tiles, count = _ke.ukeire_dict(
        h.counts,
        h.n_melds,
        h.wilds,
        caps,
        kr.playable,
        kr.forms,
        options,
        None if visible is None else vis,
        _KIND_CODES,
    )
    if s >= _bridge.INF:
        raise ValueError("no winning form of this rule applies to the hand")
    check = _win_check(rule, legal) if s <= 1 else None
    if check is not None:
        lg = _Legal(h, kr, caps, options, check)
        c = np.ascontiguousarray(h.counts, np.uint8)
        if s == 0:
            keep = {CODES[k] for k in lg.waits(c, vis)[1]}
        else:
            keep = {CODES[t] for t, _n, _w in lg.yijinting(c, vis, [CODES.index(x) for x in tiles])[0]}
        tiles = {k: v for k, v in tiles.items() if k in keep}
        count = sum(tiles.values())
    return Ukeire(s, tiles, count, _wild_remaining(h, rule, wild_copies))


def waits(
    hand13, *, rule=None, visible=None, melds=(), wilds=None, wild_kind=None, seven_pairs=None, legal="self_draw"
) -> dict:
    """Winning kinds of a ready (听牌) 3k+1 hand → copies left (a wait with none left shows 0).

    Parameters
    ----------
    legal : {"self_draw", "discard", "shape"} or callable, default "self_draw"
        Under a rule, which wins count (see the module docstring): legal by
        :func:`mjfast.can_win` for a self-draw, or for a win on the opposite player's discard;
        ``"shape"`` counts every complete hand; a callable ``(hand14, tile) -> bool`` decides
        itself.  Without a rule the shape decides.

    Raises ``ValueError`` if the hand is not ready (in shape).

    Examples
    --------
    >>> import mjfast as mj
    >>> mj.waits("1112345678999m")
    {'1m': 1, '2m': 3, '3m': 3, '4m': 3, '5m': 3, '6m': 3, '7m': 3, '8m': 3, '9m': 1}
    >>> mj.waits("234m567p34588s67s", rule="guobiao")                    # 国标: 8 番 to win
    {'2s': 4, '5s': 3, '8s': 2}
    >>> mj.waits("234m567p34588s67s", rule="guobiao", legal="discard")   # 自摸/不求人 lost
    {'2s': 4}
    """
    h, kr, caps, options, vis = _setup(hand13, rule, visible, melds, wilds, (), wild_kind, (1,), seven_pairs)
    accept = np.zeros(N_KINDS, np.uint8)
    rem = np.zeros(N_KINDS, np.int16)
    s = _ke.ukeire_kernel(h.counts, h.n_melds, h.wilds, caps, kr.playable, kr.forms, options, vis, accept, rem)
    if s != 0:
        raise ValueError(f"the hand is not ready (shanten {s})")
    kinds: Iterable[int] = np.flatnonzero(accept)
    check = _win_check(rule, legal)
    if check is not None:
        kinds = _Legal(h, kr, caps, options, check).waits(np.ascontiguousarray(h.counts, np.uint8), vis)[1]
    return {CODES[k]: int(rem[k]) for k in kinds}


@dataclass(frozen=True)
class Yijinting:
    """一进听 figures of a 1-shanten hand (yijinting.md).

    Attributes
    ----------
    ukeire : int     进张数
    ting : int       听张数: remaining copies over the union of all winning kinds
    combos : int     组合数 = Σ remaining(t) · W(t) under the chosen aggregation
    breakdown : pandas.DataFrame
        One row per accepting tile: ``tile``, ``copies``, ``ting_after`` (W(t)), ``product``
        (shown in Jupyter with the tiles drawn).
    aggregate : str  "union" (the article's definition) or "max"
    """

    ukeire: int
    ting: int
    combos: int
    breakdown: pd.DataFrame = field(repr=False)
    aggregate: str = "union"


def yijinting(
    hand13,
    *,
    rule=None,
    visible=None,
    melds=(),
    wilds=None,
    fixed_sets=(),
    aggregate="union",
    wild_kind=None,
    seven_pairs=None,
    legal="self_draw",
) -> Yijinting:
    """进张数, 听张数 and 组合数 of a 1-shanten (一进听) 3k+1 hand, exactly as yijinting.md.

    Parameters
    ----------
    aggregate : {"union", "max"}
        How W(t) combines the waits of the ready discards after drawing t: the union (the
        article's definition, default) or the best single discard, for comparison.
    legal : {"self_draw", "discard", "shape"} or callable, default "self_draw"
        Under a rule, which wins count (see the module docstring): legal by
        :func:`mjfast.can_win` for a self-draw, or for a win on the opposite player's discard;
        ``"shape"`` counts every complete hand; a callable ``(hand14, tile) -> bool`` decides
        itself.  Without a rule the shape decides.
        Only legal waits enter W(t) and 听张; an accepting tile after which no discard leaves
        a legal wait is dropped.

    Examples
    --------
    >>> import mjfast as mj
    >>> r = mj.yijinting("34567m45s", melds=["111p", "555z"])   # the article's 碰 line
    >>> r.ukeire, r.ting, r.combos
    (37, 37, 324)
    >>> mj.yijinting("34567m45s", melds=["111p", "555z"], aggregate="max").combos
    243
    """
    import pandas as pd

    if aggregate not in ("union", "max"):
        raise ValueError(f"aggregate must be 'union' or 'max', got {aggregate!r}")
    h, kr, caps, options, vis = _setup(hand13, rule, visible, melds, wilds, fixed_sets, wild_kind, (1,), seven_pairs)
    rem = np.zeros(N_KINDS, np.int16)
    wu = np.zeros(N_KINDS, np.int32)
    wm = np.zeros(N_KINDS, np.int32)
    ting = np.zeros(N_KINDS, np.uint8)
    s = _ke.yijinting_kernel(h.counts, h.n_melds, h.wilds, caps, kr.playable, kr.forms, options, vis, rem, wu, wm, ting)
    if s != 1:
        raise ValueError(f"一进听 needs a 1-shanten hand; this one has shanten {s}")
    w = wu if aggregate == "union" else wm
    acc = np.flatnonzero(rem)
    base_rem = np.maximum(caps.astype(np.int16) - h.counts - vis, 0)
    check = _win_check(rule, legal)
    if check is not None:
        rows, ting = _Legal(h, kr, caps, options, check).yijinting(
            np.ascontiguousarray(h.counts, np.uint8), vis, acc, aggregate
        )
        acc = np.array([t for t, _n, _w in rows], np.int64)
        rem = np.zeros(N_KINDS, np.int16)
        w = np.zeros(N_KINDS, np.int32)
        for t, n, wt in rows:
            rem[t], w[t] = n, wt
    frame = tile_frame(
        {
            "tile": pd.Categorical([CODES[k] for k in acc], categories=_TILE_ORDER, ordered=True),
            "copies": rem[acc].astype(np.int64),
            "ting_after": w[acc].astype(np.int64),
        }
    )
    frame["product"] = frame["copies"] * frame["ting_after"]
    return Yijinting(
        int(rem.sum()), int(base_rem[ting.astype(bool)].sum()), int(frame["product"].sum()), frame, aggregate
    )


def improvements(hand13, *, rule=None, visible=None, melds=(), wilds=None, wild_kind=None) -> dict:
    """改良 of a ready or 1-shanten 3k+1 hand: draws that keep the shanten but, after the best
    discard, leave more 进张.  Returns kind → ``(copies, new_ukeire, discard)``.

    Examples
    --------
    >>> import mjfast as mj
    >>> mj.improvements("11p34567m45s9p", melds=["555z"])["1p"]   # draw 1p, throw 9p: 19 → 37
    (2, 37, '9p')
    """
    h, kr, caps, options, vis = _setup(hand13, rule, visible, melds, wilds, (), wild_kind, (1,))
    h = as_hand(h.counts, wilds=h.wilds) if not isinstance(h, Hand) else h
    base = ukeire(h, rule=rule, visible=visible, wild_kind=wild_kind)
    if base.shanten > 1:
        raise ValueError(f"改良 is defined for ready and 1-shanten hands; this one has shanten {base.shanten}")
    out: dict[str, tuple[int, int, str]] = {}
    rem = np.maximum(caps.astype(np.int16) - h.counts - vis, 0)
    for t in range(N_KINDS):
        if CODES[t] in base.tiles or rem[t] == 0 or not kr.playable[t]:
            continue
        drawn = h.with_tile(t)
        best: tuple[int, str | None] = (base.count, None)
        for d in np.flatnonzero(drawn.counts):
            if d == t:
                continue
            after = drawn.without_tile(int(d))
            u = ukeire(after, rule=rule, visible=visible, wild_kind=wild_kind)
            if u.shanten == base.shanten and u.count > best[0]:
                best = (u.count, CODES[d])
        if best[1] is not None:
            out[CODES[t]] = (int(rem[t]), best[0], best[1])
    return out


def analyze_discards(
    hand14,
    *,
    rule=None,
    visible=None,
    melds=(),
    wilds=None,
    fixed_sets=(),
    combos=True,
    wild_kind=None,
    seven_pairs=None,
    as_frame=True,
    legal="self_draw",
    value=False,
    **value_options,
):
    """One row per distinct discard of a 3k+2 hand: shanten, 进张, 一进听 组合数, waits, 改良.

    Columns: ``discard`` (ordered Categorical of mpsz codes), ``shanten``, ``ukeire_kinds``,
    ``ukeire`` (copies), ``ukeire_tiles`` (mpsz; kinds with copies left, as in :func:`ukeire`),
    ``combos`` (组合数 where the hand left is 1-shanten, else 0), ``waits`` / ``wait_count``
    (where it is ready), ``improvement_count`` (kinds that keep the shanten but widen 进张).
    Sorted best first: shanten, then ukeire, then combos.  The discarded tile counts as seen.
    The table is a ``pandas.DataFrame`` that Jupyter shows with its tiles drawn (as
    :func:`mjfast.style` does).

    Parameters
    ----------
    as_frame : bool, default True
        False returns the same columns as a dict of NumPy arrays straight from the kernel
        (tile columns as fixed-width ASCII bytes, ``dtype('S…')``; counts as small ints).
    legal : {"self_draw", "discard", "shape"} or callable, default "self_draw"
        Under a rule, the ready rows' waits and 进张 and the 1-shanten rows' 进张 and 组合数
        count legal wins only (as :func:`ukeire` / :func:`yijinting`); ``shanten`` and
        ``improvement_count`` stay shape-level.
    value : bool, default False
        Add the value columns of :func:`mjfast.expected_value` for each discard:
        ``p_ready``, ``p_win``, ``p_win_self_draw``, ``p_win_discard``, ``ev``, ``ev_stakes``,
        ``mean_win``, ``n_states``, ``exact`` (rows keep the shape order; ``attrs`` holds the
        value model).  Its keywords — ``draws_left``, ``wall``, ``depth``, ``discard_wins``,
        ``hazard``, ``wild_copies``, ``max_states``, ``fallback_shanten`` and rule or scorer
        options — are accepted then (``seven_pairs`` is not).

    Notes
    -----
    Cost: the table itself takes milliseconds (tens with several wildcards under a rule with the
    knitted forms, such as JJ).  Under a rule, ``legal`` other than ``"shape"`` asks the rule's
    scorer about each distinct winning hand the rows reach; with 3-4 wildcards those are many
    and a scorer that reads every wildcard assignment (JJ) makes that the cost, up to about a
    second a call (``bench/discard_cliff.py``); ``legal="shape"`` skips it.

    Examples
    --------
    >>> import mjfast as mj
    >>> df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    >>> top = df.iloc[0]
    >>> str(top["discard"]), int(top["shanten"]), int(top["ukeire"]), int(top["combos"])
    ('9p', 1, 37, 500)
    >>> df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"], value=True, draws_left=6, discard_wins=False)
    >>> str(df.loc[df["ev"].idxmax(), "discard"]), bool(0 < df["p_win"].max() < 1)
    ('9p', True)
    """
    if not value:
        if value_options:
            import inspect

            from .analysis.value import expected_value

            extra = sorted(value_options)
            known = set(inspect.signature(expected_value).parameters) - {"hand", "rule_options"}
            if set(extra) <= known | {"draws_left"}:
                raise ValueError(f"{', '.join(extra)} apply to the value columns: pass value=True")
            raise ValueError(f"unknown option(s) {', '.join(extra)} for analyze_discards")
        return _discard_table(
            hand14,
            rule=rule,
            visible=visible,
            melds=melds,
            wilds=wilds,
            fixed_sets=fixed_sets,
            combos=combos,
            wild_kind=wild_kind,
            seven_pairs=seven_pairs,
            as_frame=as_frame,
            legal=legal,
        )
    if value is not True:
        raise ValueError(f"value must be True or False, got {value!r}")
    return _with_value(
        hand14,
        dict(
            rule=rule,
            visible=visible,
            melds=melds,
            wilds=wilds,
            fixed_sets=fixed_sets,
            combos=combos,
            wild_kind=wild_kind,
            seven_pairs=seven_pairs,
            as_frame=as_frame,
            legal=legal,
            **value_options,
        ),
    )


def _discard_table(
    hand14,
    *,
    rule=None,
    visible=None,
    melds=(),
    wilds=None,
    fixed_sets=(),
    combos=True,
    wild_kind=None,
    seven_pairs=None,
    as_frame=True,
    legal="self_draw",
):
    """The shape table of :func:`analyze_discards` (no value columns)."""
    h, kr, caps, options, vis = _setup(hand14, rule, visible, melds, wilds, fixed_sets, wild_kind, (2,), seven_pairs)
    cols = _ke.discard_table(
        np.ascontiguousarray(h.counts, np.uint8),
        h.n_melds,
        h.wilds,
        caps,
        kr.playable,
        kr.forms,
        options,
        vis,
        bool(combos),
    )
    check = _win_check(rule, legal)
    if check is not None:
        _legal_rows(
            cols, _Legal(h, kr, caps, options, check), np.ascontiguousarray(h.counts, np.uint8), vis, bool(combos)
        )
    if not as_frame:
        return cols
    import pandas as pd

    df = tile_frame(
        {k: (np.char.decode(v, "ascii") if v.dtype.kind == "S" else v.astype(np.int64)) for k, v in cols.items()}
    )
    df["discard"] = pd.Categorical(df["discard"], categories=_TILE_ORDER, ordered=True)
    return df


def _legal_rows(cols: dict, lg: _Legal, c14: np.ndarray, vis: np.ndarray, combos: bool) -> None:
    """Recount the ready and 1-shanten rows of a discard table with legal wins only, in place,
    and sort the rows again (shanten, then 进张, then 组合数)."""
    width = cols["ukeire_tiles"].dtype.itemsize
    for i, code in enumerate(cols["discard"]):
        d = CODES.index(code.decode())
        if cols["shanten"][i] > 1:
            continue
        c13 = c14.copy()
        c13[d] -= 1
        seen = vis.copy()
        seen[d] += 1  # the discarded tile counts as seen
        base = np.maximum(lg.caps.astype(np.int16) - c13 - seen, 0)
        if cols["shanten"][i] == 0:
            kinds = [k for k in lg.waits(c13, seen)[1] if base[k] > 0]
            cols["combos"][i] = 0
        else:
            accepting = parse_tiles(cols["ukeire_tiles"][i].decode())
            rows, _ting = lg.yijinting(c13, seen, accepting)
            kinds = [t for t, _n, _w in rows]
            cols["combos"][i] = sum(n * w for _t, n, w in rows) if combos else 0
        text = format_counts(np.bincount(np.asarray(kinds, np.int64), minlength=N_KINDS).tolist()).encode()
        if len(text) > width:
            raise AssertionError("tile list wider than the kernel's column")  # cannot happen: a subset
        cols["ukeire_tiles"][i] = text
        cols["ukeire_kinds"][i] = len(kinds)
        cols["ukeire"][i] = int(base[kinds].sum())
        if cols["shanten"][i] == 0:
            cols["waits"][i] = text
            cols["wait_count"][i] = cols["ukeire"][i]
    order = np.lexsort(
        (-cols["combos"].astype(np.int64), -cols["ukeire"].astype(np.int64), cols["shanten"].astype(np.int64))
    )
    for k in cols:
        cols[k] = cols[k][order]


def ukeire_batch(counts, *, melds=0, wilds=0, rule=None, seven_pairs=None, n_threads=None):
    """进张 of many 3k+1 hands at once, without the GIL.

    Parameters
    ----------
    counts : array_like, shape (n, 34)
        Concealed counts, one 3k+1 hand per row.
    melds, wilds : int or array_like of shape (n,)
        Called melds and wildcards per row (meld tiles are not known here, so only the hand
        itself is subtracted from the copies).
    rule, seven_pairs, n_threads
        As in :func:`mjfast.shanten_batch`.

    Returns
    -------
    dict of numpy arrays
        ``shanten`` (int8), ``ukeire`` (int16: copies of the accepting kinds), ``ukeire_kinds``
        (int8: accepting kinds with copies left).

    Examples
    --------
    >>> import numpy as np, mjfast as mj
    >>> out = mj.ukeire_batch(np.stack([mj.Hand("1112345678999m").counts, mj.Hand("11p34567m45s9p123z").counts]))
    >>> out["ukeire"].tolist(), out["shanten"].tolist()
    ([23, 41], [0, 3])
    """
    rule_obj = _bridge.resolve_rule(rule)
    kr = _bridge.kernel_rule(rule_obj, None, seven_pairs_option(seven_pairs))
    arr, m, w = validate_batch(counts, melds, wilds, kr)
    n = arr.shape[0]
    out = {"shanten": np.empty(n, np.int8), "ukeire": np.empty(n, np.int16), "ukeire_kinds": np.empty(n, np.int8)}
    _ke.ukeire_batch_kernel(
        arr,
        m,
        w,
        kr.copies,
        kr.playable,
        kr.forms,
        kr.options,
        out["shanten"],
        out["ukeire"],
        out["ukeire_kinds"],
        default_threads(n_threads),
        _KIND_CODES,
    )
    return out


_SHAPE_KEYS = frozenset(
    ("rule", "visible", "melds", "wilds", "fixed_sets", "combos", "wild_kind", "seven_pairs", "as_frame", "legal")
)
#: Columns ``value=True`` adds (from :func:`mjfast.expected_value`).
VALUE_COLUMNS = (
    "p_ready",
    "p_win",
    "p_win_self_draw",
    "p_win_discard",
    "ev",
    "ev_stakes",
    "mean_win",
    "n_states",
    "exact",
)


def _with_value(hand14, options: dict):
    """The shape table with the value columns joined on the discard (rows keep their order)."""
    from .analysis.value import expected_value

    shape = {k: options.pop(k) for k in list(options) if k in _SHAPE_KEYS}
    if shape.get("seven_pairs") is not None:
        raise ValueError("seven_pairs= (a shape reading) cannot be combined with value=True")
    as_frame = shape.pop("as_frame", True)
    h, kr, caps, opts, vis = _setup(
        hand14,
        shape.get("rule"),
        shape.get("visible"),
        shape.get("melds", ()),
        shape.get("wilds"),
        shape.get("fixed_sets", ()),
        shape.get("wild_kind"),
        (2,),
    )
    rule = shape.get("rule")
    if options and rule is not None:
        # rule options apply to both tables; the scorer's own options go to the value columns
        from . import rules as _rules

        rule_obj = _bridge.resolve_rule(rule)
        assert rule_obj is not None  # rule is not None, so it names a Rule
        rule_keys = {k: options.pop(k) for k in list(options) if k in rule_obj.option_choices}
        if rule_keys:
            rule = _rules.get(rule_obj.name, **{**dict(rule_obj.options), **rule_keys})
    shape["rule"] = rule
    table = _discard_table(hand14, **{**shape, "as_frame": True})
    hand = Hand(np.array(h.counts, np.uint8), melds=h.melds, bonus=getattr(h, "bonus", ()), wilds=h.wilds, partial=True)
    val = expected_value(hand, rule=rule, visible=shape.get("visible"), wild_kind=shape.get("wild_kind"), **options)
    val = val.set_index(val["discard"].astype(str))
    keys = table["discard"].astype(str)
    for col in VALUE_COLUMNS:
        table[col] = val[col].reindex(keys).to_numpy()
    table.attrs.update(val.attrs)
    if as_frame:
        return table
    out = {}
    for k in table.columns:
        v = table[k]
        out[k] = np.asarray(v.astype(str), dtype="S") if k in ("discard", "ukeire_tiles", "waits") else v.to_numpy()
    return out
