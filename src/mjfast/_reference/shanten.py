"""Reference shanten: the brute-force definition, evaluated group by group.

This module is the slow, obviously-correct twin of the Cython shanten kernel. It implements
the *definition* below directly and is only used to check the fast code.

Definition
----------
A hand is ``counts`` (34 concealed natural counts), ``n_melds`` called melds, ``w`` wildcards,
``caps`` (the most natural tiles of each kind the player can ever hold concealed) and
``wild_mask`` (the kinds a wildcard may stand for). Let ``n = sum(counts) + w``; the hand needs
``k = (n - 1) // 3`` sets and one pair, a target of ``3k + 2`` tiles.

For an assignment ``a`` of the ``w`` wildcards to kinds (a multiset over ``wild_mask``), the
hand is ``h = counts + a`` and a *target* ``T`` (a complete form) is allowed when
``T[i] <= caps[i] + a[i]`` for every kind. The replacement number is

    r(a) = min over allowed T of sum_i max(0, T[i] - h[i])

and ``shanten = min over a of r(a) - 1`` (complete hand -1, ready hand 0).

How it is evaluated (exactly, without shortcuts)
-----------------------------------------------
The kinds are split into *groups* (a suit, the honours, or a single kind) such that every target
of the form is a concatenation of one *group target* per group, each labelled with a resource
vector (for example ``(sets, pairs)``), and the form fixes the resource totals. The deficit
``sum_i max(0, T[i] - h[i])`` and the cap condition are both kind-wise, so for a fixed split of
the wildcards between groups the minimum is the sum of per-group minima. Therefore:

1. for every group, every number ``j`` of wildcards landing in it and every multiset of ``j``
   kinds of the group (enumerated one by one), the minimum deficit over the group targets of each
   resource vector is computed by brute force over *all* group targets;
2. the groups are combined by trying every split of the wildcards and of the resources
   (a min-plus convolution over the small table of ``(wildcards, resources)``).

Step 2 is the same as enumerating every global assignment and every global target, because the
objective is a sum over groups and the constraints are per group plus the totals.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import cast

import numpy as np

__all__ = [
    "N_KINDS",
    "SUITS",
    "HONOURS",
    "HONOUR_CHOW_GROUPS",
    "TERMINALS_HONOURS",
    "KNITTED_PATTERNS",
    "DEFAULT_FORMS",
    "FORM_FUNCTIONS",
    "default_caps",
    "replacement_number",
    "shanten",
    "shanten_standard",
    "shanten_seven_pairs",
    "shanten_thirteen_orphans",
    "shanten_thirteen_lan",
    "shanten_honors_and_knitted",
    "shanten_knitted_straight",
    "shanten_nine_terminals",
]

N_KINDS = 34
#: The three number suits as tuples of kind indices (m, p, s).
SUITS: tuple[tuple[int, ...], ...] = tuple(tuple(range(9 * s, 9 * s + 9)) for s in range(3))
#: The seven honour kinds E S W N 白 发 中.
HONOURS: tuple[int, ...] = tuple(range(27, 34))
#: The 13 terminal and honour kinds.
TERMINALS_HONOURS: tuple[int, ...] = (0, 8, 9, 17, 18, 26) + HONOURS
#: The six knitted patterns: for each bijection of the digit groups {1,4,7}, {2,5,8}, {3,6,9}
#: to the suits m, p, s, the 9 kind indices it allows (sorted).
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(9 * suit + digit0 + 3 * step for suit, digit0 in enumerate(perm) for step in range(3)))
    for perm in itertools.permutations(range(3))
)
#: Forms used by :func:`shanten` when ``form`` is None.
DEFAULT_FORMS: tuple[str, ...] = ("standard", "seven_pairs", "thirteen_orphans")

_INF = float("inf")
_BIG = 1000  # cost of a target entry above the cap; any total >= _BIG means "not allowed"
_ASSIGN_BATCH = 128  # wildcard assignments evaluated per matrix product (memory bound only)


# ---------------------------------------------------------------------------------------------
# Input handling
# ---------------------------------------------------------------------------------------------
#: The honour chows (瑞金): any three of the four winds, the three dragons.
_HONOUR_TRIOS = frozenset(
    [tuple(w for w in range(27, 31) if w != missing) for missing in range(27, 31)] + [(31, 32, 33)]
)


def default_caps(melds: Iterable[tuple[str, int]] = (), copies: int = 4) -> np.ndarray:
    """Caps for a 136-tile set: ``copies`` minus the tiles of each kind in the called melds.

    Parameters
    ----------
    melds : iterable of (str, int)
        Called melds as ``("chow", first)``, ``("pung", t)`` or ``("kong", t)``, and (瑞金)
        ``("honour_chow", (t1, t2, t3))`` for three different winds or the three dragons.
    copies : int, default 4
        Copies of every kind in the tile set.

    Returns
    -------
    numpy.ndarray
        Length-34 int64 array.
    """
    caps = np.full(N_KINDS, copies, dtype=np.int64)
    for kind, tile in melds:
        if kind == "chow":
            if tile >= 27 or tile % 9 > 6:
                raise ValueError(f"invalid chow start {tile}")
            caps[tile : tile + 3] -= 1
        elif kind == "pung":
            caps[tile] -= 3
        elif kind == "kong":
            caps[tile] -= 4
        elif kind == "honour_chow":
            trio = tuple(sorted(np.atleast_1d(tile).tolist()))
            if trio not in _HONOUR_TRIOS:
                raise ValueError(f"invalid honour chow {tile!r}: three different winds or the three dragons")
            for t in trio:
                caps[t] -= 1
        else:
            raise ValueError(f"unknown meld kind {kind!r}")
    if (caps < 0).any():
        raise ValueError("melds use more copies than the tile set has")
    return caps


def _prepare(counts, n_melds, wilds, caps, wild_mask):
    c = np.asarray(counts, dtype=np.int64).reshape(-1)
    if c.shape != (N_KINDS,):
        raise ValueError("counts must have length 34")
    cap = np.full(N_KINDS, 4, dtype=np.int64) if caps is None else np.asarray(caps, dtype=np.int64)
    if cap.shape != (N_KINDS,):
        raise ValueError("caps must have length 34")
    mask = np.ones(N_KINDS, dtype=bool) if wild_mask is None else np.asarray(wild_mask, dtype=bool)
    if mask.shape != (N_KINDS,):
        raise ValueError("wild_mask must have length 34")
    w = int(wilds)
    if w < 0 or (c < 0).any() or int(n_melds) < 0:
        raise ValueError("counts, wilds and n_melds must be non-negative")
    if (c > cap).any():
        raise ValueError("counts exceed caps")
    n = int(c.sum()) + w
    if n % 3 == 0:
        raise ValueError(f"hand of {n} tiles: need 3k+1 or 3k+2 tiles")
    return c, cap, mask, w, n


# ---------------------------------------------------------------------------------------------
# Group targets
# ---------------------------------------------------------------------------------------------
class _Targets:
    """All targets of one group (rows of ``vec``) with their resource vectors (rows of ``res``)."""

    def __init__(self, vecs: Sequence[Sequence[int]], res: Sequence[Sequence[int]]):
        self.vec = np.asarray(vecs, dtype=np.int64).reshape(len(vecs), -1)
        self.res = np.asarray(res, dtype=np.int64).reshape(len(res), -1)
        self.width = int(self.vec.max()) + 1 if len(self.vec) else 1
        self._prepared: dict = {}

    def prepared(self, total: tuple[int, ...]):
        """Targets whose resources fit ``total``, sorted by resource key, in block codes.

        The kinds are cut into blocks of up to 3 consecutive kinds; ``codes[b][n]`` is target
        ``n``'s block ``b`` read as a base-``width`` number, so that
        ``sum_b block_cost_b[codes[b][n]] == sum_i cost[i, T[n, i]]`` (see :func:`_deficits`).
        """
        if total not in self._prepared:
            dims = tuple(t + 1 for t in total)
            ok = np.flatnonzero(np.all(self.res <= np.asarray(total), axis=1))
            keys = np.ravel_multi_index(self.res[ok].T, dims) if ok.size else np.zeros(0, np.int64)
            order = np.argsort(keys, kind="stable")
            ok, keys = ok[order], keys[order]
            length = self.vec.shape[1]
            blocks = [tuple(range(b, min(b + 3, length))) for b in range(0, length, 3)]
            codes = []
            for block in blocks:
                code = np.zeros(ok.size, dtype=np.intp)
                for i in block:
                    code = code * self.width + self.vec[ok, i]
                codes.append(code)
            self._prepared[total] = (blocks, codes, keys)
        return self._prepared[total]


@functools.cache
def _set_targets(length: int, runs: bool, max_sets: int, bound: int, any_three: bool = False) -> _Targets:
    """Every vector made of ``m <= max_sets`` sets and ``p <= 1`` pairs, entries ``<= bound``.

    Sets are triplets and, if ``runs``, three consecutive kinds; if ``any_three``, any three
    different kinds of the group (瑞金's honour chows). Resource = ``(m, p)``; a vector has one
    size ``3m + 2p`` so ``(m, p)`` is well defined.
    """
    sets = [tuple(3 if i == t else 0 for i in range(length)) for t in range(length)]
    if runs:
        sets += [tuple(1 if t <= i <= t + 2 else 0 for i in range(length)) for t in range(length - 2)]
    if any_three:
        sets += [
            tuple(1 if i in trio else 0 for i in range(length)) for trio in itertools.combinations(range(length), 3)
        ]
    found: dict[tuple[int, ...], tuple[int, int]] = {}
    for m in range(max_sets + 1):
        for combo in itertools.combinations_with_replacement(sets, m):
            base = [sum(col) for col in zip(*combo)] if combo else [0] * length
            for pair in [None, *range(length)]:
                vec = list(base)
                if pair is not None:
                    vec[pair] += 2
                if max(vec) <= bound:
                    found[tuple(vec)] = (m, 0 if pair is None else 1)
    return _Targets(list(found), list(found.values()))


@functools.cache
def _knitted_suit_targets(knit: tuple[int, ...], max_sets: int, bound: int) -> _Targets:
    """Knitted tiles of one suit (a 0/1 9-vector) plus any standard suit target."""
    base = _set_targets(9, True, max_sets, bound)
    vec = base.vec + np.asarray(knit, dtype=np.int64)
    keep = vec.max(axis=1) <= bound
    return _Targets(vec[keep].tolist(), base.res[keep].tolist())


@functools.cache
def _lan_suit_targets(strict: bool) -> _Targets:
    """0/1 suit vectors whose tiles pairwise differ by >= 3 (十三浪); strict: exactly 3 tiles."""
    vecs, res = [], []
    for size in range(0, 4):
        for ranks in itertools.combinations(range(9), size):
            if all(b - a >= 3 for a, b in zip(ranks, ranks[1:])) and (not strict or size == 3):
                vecs.append([1 if i in ranks else 0 for i in range(9)])
                res.append([size])
    return _Targets(vecs, res)


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------
def _min_by_key(values: np.ndarray, keys: np.ndarray, size: int) -> np.ndarray:
    """``out[k] = min(values[keys == k])`` (``inf`` if none); ``keys`` sorted ascending."""
    out = np.full(size, _INF)
    if keys.size:
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        out[keys[starts]] = np.minimum.reduceat(values, starts)
    out[out >= _BIG] = _INF
    return out


def _cost_tables(c, cap, a, width):
    """``cost[n, i, v] = max(0, v - c[i] - a[n, i])``, or ``_BIG`` if ``v > cap[i] + a[n, i]``."""
    values = np.arange(width)
    cost = np.maximum(values - (c + a)[:, :, None], 0)
    return np.where(values > (cap + a)[:, :, None], _BIG, cost)


def _deficits(prepared, cost):
    """``out[n, t] = sum_i cost[n, i, T[t, i]]`` for every assignment ``n`` and target ``t``.

    Summed block by block: a block's cost table is the outer sum of its kinds' costs,
    looked up at the block code of each target.
    """
    blocks, codes, _ = prepared
    n_assign = cost.shape[0]
    out = 0
    for block, code in zip(blocks, codes):
        table = np.zeros((n_assign, 1), dtype=np.int64)
        for i in block:
            table = (table[:, :, None] + cost[:, i, None, :]).reshape(n_assign, -1)
        out = out + (table[0][code][None, :] if n_assign == 1 else table[:, code])
    return out


class _GroupState:
    """Per-call data of one multi-kind group: hand slice, targets, and the ``j = 0`` layer."""

    def __init__(self, c, cap, mask, targets: _Targets, total: tuple[int, ...]):
        self.c, self.cap, self.total = c, cap, tuple(total)
        self.masked = np.flatnonzero(mask).tolist()
        self.width = targets.width
        self.prep = targets.prepared(self.total)
        self.dims = tuple(t + 1 for t in total)
        self.size = int(np.prod(self.dims))
        zero = np.zeros((1, len(c)), dtype=np.int64)
        keys = self.prep[2]
        # E[0, r]: the only assignment of 0 wildcards is a = 0.
        d_cap = _deficits(self.prep, _cost_tables(c, cap, zero, self.width))[0]
        self.e0 = _min_by_key(d_cap, keys, self.size)

    @functools.cached_property
    def d0(self) -> np.ndarray:
        """``D0(T) = sum max(0, T - c)`` per target: no wildcards, no caps (only to skip work)."""
        zero = np.zeros((1, len(self.c)), dtype=np.int64)
        return _deficits(self.prep, _cost_tables(self.c, np.full(len(self.c), self.width), zero, self.width))[0]

    @functools.cached_property
    def d0_min(self) -> np.ndarray:
        """Min of :attr:`d0` per resource."""
        return _min_by_key(self.d0, self.prep[2], self.size)

    def layer(self, j: int, limit=None) -> np.ndarray:
        """Brute-force ``E[j, r]`` (flattened over ``r``).

        ``E[j, r]`` = min over every multiset ``a`` of ``j`` wildcards on the group's masked
        kinds, and over every group target ``T`` with resource ``r`` and ``T <= cap + a``, of
        ``sum max(0, T - c - a)``; ``inf`` when there is none.

        Targets are skipped (a time saver that cannot change the form's optimum) when
        ``D0(T) > limit[r(T)]`` (see :func:`_min_replacement`) or ``D0(T) - j > E[0, r(T)]``:
        such a target is no minimiser because (i) ``j`` wildcards lower a deficit by at most
        ``j`` and (ii) ``E[j, r] <= E[0, r]`` (put the ``j`` wildcards on any masked kind of the
        group: the deficit of the ``E[0, r]`` target does not grow and its caps only loosen).
        """
        if j == 0:
            return self.e0
        if not self.masked:
            return np.full(self.size, _INF)
        blocks, codes, keys = self.prep
        bound = np.full(keys.size, _INF) if limit is None else limit[keys]
        keep = np.flatnonzero((self.d0 - j <= self.e0[keys]) & (self.d0 <= bound))
        sub = (blocks, [code[keep] for code in codes], keys[keep])
        best = np.full(keep.size, _INF)
        assignments = itertools.combinations_with_replacement(self.masked, j)
        length = len(self.c)
        while True:
            batch = list(itertools.islice(assignments, _ASSIGN_BATCH))
            if not batch:
                break
            a = np.zeros((len(batch), length), dtype=np.int64)
            for row, kinds in enumerate(batch):
                for kind in kinds:
                    a[row, kind] += 1
            deficits = _deficits(sub, _cost_tables(self.c, self.cap, a, self.width))  # (assign, targets)
            np.minimum(best, deficits.min(axis=0), out=best)
        return _min_by_key(best, sub[2], self.size)


def _kind_table(c: int, cap: int, masked: bool, options, w: int, total: tuple[int, ...], caps=True):
    """Table ``E[j, r]`` for a one-kind group whose targets are ``options = [(value, res), ...]``.

    With ``j`` wildcards on this kind, target ``value`` is allowed iff ``value <= cap + j`` and
    costs ``max(0, value - c - j)``. ``caps=False`` drops the cap condition.
    """
    dims = tuple(t + 1 for t in total)
    table = np.full((w + 1,) + dims, _INF)
    for j in range(w + 1):
        if j and not masked:
            break
        for value, res in options:
            if (not caps or value <= cap + j) and all(r <= t for r, t in zip(res, total)):
                idx = (j,) + tuple(res)
                table[idx] = min(table[idx], max(0, value - c - j))
    return table


def _combine_tables(tables: list[np.ndarray]) -> np.ndarray:
    """Min-plus convolution: ``out[j, r] = min over splits of sum of table_g[j_g, r_g]``."""
    acc = tables[0]
    shape = acc.shape
    for table in tables[1:]:
        out = np.full(shape, _INF)
        for pos in np.argwhere(np.isfinite(table)):
            idx = tuple(int(i) for i in pos)
            src = tuple(slice(0, s - i) for s, i in zip(shape, idx))
            dst = tuple(slice(i, s) for s, i in zip(shape, idx))
            np.minimum(out[dst], acc[src] + table[idx], out=out[dst])
        acc = out
    return acc


def _min_replacement(groups: list, w: int, total: tuple[int, ...]) -> float:
    """Minimum replacement number of a form given as groups (see the module docstring).

    ``groups`` items are ``("set", c, cap, mask, targets)`` (a multi-kind group with a
    :class:`_Targets`) or ``("kind", c, cap, masked, options)`` (one kind, see
    :func:`_kind_table`). The answer is ``_combine_tables(tables)[w, total]`` where
    ``tables[g][j, r]`` is group ``g``'s brute-force minimum with ``j`` wildcards and
    resources ``r``.

    Notes
    -----
    Wildcard layers are computed for ``j = 1, 2, ..., w`` in turn; two bounds only skip work
    (the result is exact):

    * ``U_j`` = the best combination using at most ``j`` wildcards in the layers computed so
      far, the remaining wildcards dumped on a masked kind of a group. Dumping never raises a
      deficit and only loosens caps, so ``opt <= U_j``.
    * If target ``T`` (resource ``r``, ``j`` wildcards) of group ``g`` is in an optimal
      solution then ``opt >= D0(T) - j + R_g[total - r] - (w - j)``, where ``R_g`` combines the
      other groups' no-wildcard, no-cap minima of ``D0`` (each wildcard lowers a deficit by at
      most 1 and caps only remove targets). Hence ``D0(T) <= U + w - R_g[total - r]``; targets
      beyond that are skipped. Skipping only removes candidates, so every computed entry is
      still achievable and the optimal one is still found.
    """
    dims = tuple(t + 1 for t in total)
    target_idx = tuple(total)
    states: list[_GroupState | None] = []
    tables: list[np.ndarray] = []
    d0: list[_GroupState | np.ndarray | None] = []
    state: _GroupState | None
    for kind, c, cap, mask, spec in groups:
        if kind == "set":
            state = _GroupState(c, cap, mask, spec, total)
            states.append(state)
            table = np.full((w + 1,) + dims, _INF)
            table[0] = state.e0.reshape(dims)
            tables.append(table)
            d0.append(state if w else None)
        else:
            states.append(None)
            tables.append(_kind_table(c, cap, mask, spec, w, total))
            d0.append(_kind_table(c, cap, mask, spec, 0, total, caps=False) if w else None)
    upper = float(_combine_tables([t[:1] for t in tables])[(0,) + target_idx])
    if w == 0:
        return upper
    if not any(np.any(g[3]) for g in groups):
        return _INF
    if all(state is None for state in states):
        return float(_combine_tables(tables)[(w,) + target_idx])
    # w > 0 here, so every entry of d0 is set (None only stands in when w == 0)
    d0_tables = [x.d0_min.reshape((1,) + dims) if isinstance(x, _GroupState) else cast(np.ndarray, x) for x in d0]
    flip = tuple(slice(None, None, -1) for _ in total)  # x[flip][r] == x[total - r]
    rests: dict[int, np.ndarray] = {}  # by group, for the set groups
    for g, state in enumerate(states):
        if state is None:
            continue
        others = d0_tables[:g] + d0_tables[g + 1 :]
        rest = _combine_tables(others)[0][flip].ravel() if others else np.zeros(state.size)
        rests[g] = rest
    for j in range(1, w + 1):
        for g, state in enumerate(states):
            if state is not None:
                # rest = inf: no completion by the other groups, so resource r is useless.
                limit = np.where(np.isinf(rests[g]), -_INF, upper + w - np.where(np.isinf(rests[g]), 0, rests[g]))
                tables[g][j] = state.layer(j, limit).reshape(dims)
        combined = _combine_tables([t[: j + 1] for t in tables])
        upper = min(upper, float(np.min(combined[(slice(None),) + target_idx])))
    return float(_combine_tables(tables)[(w,) + target_idx])


def _to_shanten(r: float):
    return None if r == _INF else int(r) - 1


def _kind_groups(c, cap, mask, options_of: Callable[[int], list], kinds: Iterable[int] = range(N_KINDS)):
    return [("kind", int(c[i]), int(cap[i]), bool(mask[i]), options_of(i)) for i in kinds]


# ---------------------------------------------------------------------------------------------
# Forms
# ---------------------------------------------------------------------------------------------
#: The honour groups of honour chows: any three different winds, any three different dragons.
HONOUR_CHOW_GROUPS: tuple[tuple[int, ...], ...] = (tuple(range(27, 31)), tuple(range(31, 34)))


def _standard_groups(c, cap, mask, w, sets_needed, knit=None, honour_chows=False):
    """Three suit groups (runs allowed) + one honour group; resources ``(sets, pairs)``.

    With ``honour_chows`` the honours are two groups (:data:`HONOUR_CHOW_GROUPS`) in which any
    three different kinds are a set."""
    groups = []
    for kinds in SUITS:
        idx = list(kinds)
        bound = int(cap[idx].max()) + w
        if knit is None:
            targets = _set_targets(9, True, sets_needed, bound)
        else:
            targets = _knitted_suit_targets(tuple(1 if k in knit else 0 for k in kinds), sets_needed, bound)
        groups.append(("set", c[idx], cap[idx], mask[idx], targets))
    if honour_chows:
        for kinds in HONOUR_CHOW_GROUPS:
            idx = list(kinds)
            targets = _set_targets(len(idx), False, sets_needed, int(cap[idx].max()) + w, True)
            groups.append(("set", c[idx], cap[idx], mask[idx], targets))
        return groups, (sets_needed, 1)
    idx = list(HONOURS)
    groups.append(("set", c[idx], cap[idx], mask[idx], _set_targets(7, False, sets_needed, int(cap[idx].max()) + w)))
    return groups, (sets_needed, 1)


def shanten_standard(counts, n_melds=0, wilds=0, caps=None, wild_mask=None, *, honour_chows=False):
    """Shanten of the standard form: ``k`` sets (triplets or runs) + 1 pair.

    Parameters
    ----------
    counts : sequence of int
        34 concealed natural counts.
    n_melds : int, default 0
        Called melds (each fills 3 slots).
    wilds : int, default 0
        Wildcards held.
    caps : sequence of int, optional
        Most natural tiles of each kind holdable concealed; default 4 each.
    wild_mask : sequence of bool, optional
        Kinds a wildcard may stand for; default all.
    honour_chows : bool, default False
        瑞金: any three different winds and any three different dragons are sets too
        (ruijin_shangrao.md RS-A3, "中发白任何三个可以互吃，东南西北风任何三个也可以互吃").

    Returns
    -------
    int or None
        -1 complete, 0 ready, ...; None when no allowed target exists.

    Examples
    --------
    >>> east_south_west = [0] * 34
    >>> for k in (0, 1, 2, 27, 28, 29, 31, 31):
    ...     east_south_west[k] += 1
    >>> shanten_standard(east_south_west), shanten_standard(east_south_west, honour_chows=True)
    (1, -1)
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    groups, total = _standard_groups(c, cap, mask, w, (n - 1) // 3, honour_chows=bool(honour_chows))
    return _to_shanten(_min_replacement(groups, w, total))


def _special_size_ok(n, n_melds):
    return n_melds == 0 and n in (13, 14)


def shanten_seven_pairs(counts, n_melds=0, wilds=0, caps=None, wild_mask=None, *, distinct=False):
    """Shanten of seven pairs (七对): ``T[i]`` in {0, 2, 4} summing to 14.

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask
        As in :func:`shanten_standard`.
    distinct : bool, default False
        Riichi reading: ``T[i]`` in {0, 2}, seven different kinds. By default a
        four-of-a-kind counts as two pairs (RULES.md 7P, Guobiao).

    Returns
    -------
    int or None
        None unless ``n_melds == 0`` and the hand has 13 or 14 tiles.
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    if not _special_size_ok(n, n_melds):
        return None
    opts = [(0, (0,)), (2, (1,))] + ([] if distinct else [(4, (2,))])
    return _to_shanten(_min_replacement(_kind_groups(c, cap, mask, lambda i: opts), w, (7,)))


def shanten_thirteen_orphans(counts, n_melds=0, wilds=0, caps=None, wild_mask=None):
    """Shanten of thirteen orphans (十三幺): every terminal/honour kind once, one of them twice.

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask
        As in :func:`shanten_standard`.

    Returns
    -------
    int or None
        None unless ``n_melds == 0`` and the hand has 13 or 14 tiles.
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    if not _special_size_ok(n, n_melds):
        return None
    th = set(TERMINALS_HONOURS)
    groups = _kind_groups(c, cap, mask, lambda i: [(1, (0,)), (2, (1,))] if i in th else [(0, (0,))])
    return _to_shanten(_min_replacement(groups, w, (1,)))


def shanten_thirteen_lan(counts, n_melds=0, wilds=0, caps=None, wild_mask=None, *, strict=False):
    """Shanten of 十三浪 / 烂胡: 14 different kinds, same-suit tiles pairwise >= 3 apart.

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask
        As in :func:`shanten_standard`.
    strict : bool, default False
        ``ruijin.lanhu=strict`` (ruijin_shangrao.md RS-C3, the literal "ADG*3+5"): exactly 3
        tiles in each suit (pairwise >= 3 apart) plus 5 different honours. The general
        reading allows 0-3 tiles per suit (so 7-9 suited tiles and 5-7 honours).

    Returns
    -------
    int or None
        None unless ``n_melds == 0`` and the hand has 13 or 14 tiles.
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    if not _special_size_ok(n, n_melds):
        return None
    targets = _lan_suit_targets(bool(strict))
    groups = [("set", c[list(k)], cap[list(k)], mask[list(k)], targets) for k in SUITS]
    groups += _kind_groups(c, cap, mask, lambda i: [(0, (0,)), (1, (1,))], HONOURS)
    return _to_shanten(_min_replacement(groups, w, (14,)))


def shanten_honors_and_knitted(counts, n_melds=0, wilds=0, caps=None, wild_mask=None, *, seven_stars=False):
    """Shanten of 全不靠 (and 七星不靠): 14 different kinds from the honours + one knitted pattern.

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask
        As in :func:`shanten_standard`.
    seven_stars : bool, default False
        七星不靠: all 7 honours must be present (plus 7 knitted tiles).

    Returns
    -------
    int or None
        Minimum over the 6 knitted patterns; None unless ``n_melds == 0`` and 13/14 tiles.
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    if not _special_size_ok(n, n_melds):
        return None
    honours = set(HONOURS)
    best = _INF
    for pattern in KNITTED_PATTERNS:
        allowed = set(pattern)

        def options(i):
            if i in honours:
                return [(1, (1,))] if seven_stars else [(0, (0,)), (1, (1,))]
            return [(0, (0,)), (1, (1,))] if i in allowed else [(0, (0,))]

        best = min(best, _min_replacement(_kind_groups(c, cap, mask, options), w, (14,)))
    return _to_shanten(best)


def shanten_knitted_straight(counts, n_melds=0, wilds=0, caps=None, wild_mask=None):
    """Shanten of 组合龙: one knitted pattern's 9 tiles + ``1 - n_melds`` sets + 1 pair.

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask
        As in :func:`shanten_standard`; ``n_melds`` must be 0 or 1.

    Returns
    -------
    int or None
        Minimum over the 6 knitted patterns; None unless ``n_melds <= 1`` and
        ``n + 3 * n_melds`` is 13 or 14.
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    if n_melds > 1 or n + 3 * n_melds not in (13, 14):
        return None
    best = _INF
    for pattern in KNITTED_PATTERNS:
        groups, total = _standard_groups(c, cap, mask, w, 1 - n_melds, knit=set(pattern))
        best = min(best, _min_replacement(groups, w, total))
    return _to_shanten(best)


def shanten_nine_terminals(counts, n_melds=0, wilds=0, caps=None, wild_mask=None):
    """Shanten of 九幺 (Shangrao): 14 tiles, each a terminal or an honour, any arrangement.

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask
        As in :func:`shanten_standard`.

    Returns
    -------
    int or None
        None unless ``n_melds == 0`` (ruijin_shangrao.md states no calls for it) and the hand
        has 13 or 14 tiles.
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    if not _special_size_ok(n, n_melds):
        return None
    th = set(TERMINALS_HONOURS)
    groups = _kind_groups(
        c, cap, mask, lambda i: [(v, (v,)) for v in range(int(cap[i]) + w + 1)] if i in th else [(0, (0,))]
    )
    return _to_shanten(_min_replacement(groups, w, (14,)))


#: Form name -> shanten function.
FORM_FUNCTIONS: Mapping[str, Callable] = {
    "standard": shanten_standard,
    "seven_pairs": shanten_seven_pairs,
    "thirteen_orphans": shanten_thirteen_orphans,
    "thirteen_lan": shanten_thirteen_lan,
    "honors_and_knitted": shanten_honors_and_knitted,
    "knitted_straight": shanten_knitted_straight,
    "nine_terminals": shanten_nine_terminals,
}


def _resolve_forms(form):
    if form is None:
        form = DEFAULT_FORMS
    if isinstance(form, str) or (isinstance(form, tuple) and len(form) == 2 and isinstance(form[1], Mapping)):
        form = (form,)
    out = []
    for item in form:
        name, opts = (item, {}) if isinstance(item, str) else (item[0], dict(item[1]))
        if name not in FORM_FUNCTIONS:
            raise ValueError(f"unknown form {name!r}; known: {sorted(FORM_FUNCTIONS)}")
        out.append((FORM_FUNCTIONS[name], opts))
    return out


def shanten(counts, n_melds=0, wilds=0, caps=None, wild_mask=None, form=None):
    """Shanten: the minimum over a collection of forms.

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask
        As in :func:`shanten_standard`.
    form : str, (str, dict) or iterable of those, optional
        Form names from :data:`FORM_FUNCTIONS`, optionally with keyword options, e.g.
        ``("standard", ("seven_pairs", {"distinct": True}))``. Default
        :data:`DEFAULT_FORMS`. Forms that do not apply (None) are skipped.

    Returns
    -------
    int or None
        None when no form applies.
    """
    results = [fn(counts, n_melds, wilds, caps, wild_mask, **opts) for fn, opts in _resolve_forms(form)]
    results = [r for r in results if r is not None]
    return min(results) if results else None


def replacement_number(counts, n_melds=0, wilds=0, caps=None, wild_mask=None, form=None):
    """Replacement number ``r = shanten + 1`` (tiles to exchange to complete the hand).

    Parameters
    ----------
    counts, n_melds, wilds, caps, wild_mask, form
        As in :func:`shanten`.

    Returns
    -------
    int or None
    """
    s = shanten(counts, n_melds, wilds, caps, wild_mask, form)
    return None if s is None else s + 1
