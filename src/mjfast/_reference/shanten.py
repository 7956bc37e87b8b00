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

import itertools
from functools import lru_cache
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

__all__ = [
    "N_KINDS",
    "SUITS",
    "HONOURS",
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
_BIG = 1000.0  # cost of a target entry above the cap; any total >= _BIG means "not allowed"
_ASSIGN_BATCH = 128  # wildcard assignments evaluated per matrix product (memory bound only)


# ---------------------------------------------------------------------------------------------
# Input handling
# ---------------------------------------------------------------------------------------------
def default_caps(melds: Iterable[tuple[str, int]] = (), copies: int = 4) -> np.ndarray:
    """Caps for a 136-tile set: ``copies`` minus the tiles of each kind in the called melds.

    Parameters
    ----------
    melds : iterable of (str, int)
        Called melds as ``("chow", first)``, ``("pung", t)`` or ``("kong", t)``.
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
        """Targets whose resources fit ``total``, sorted by resource key, with a one-hot matrix.

        ``onehot[n, i * width + v] = 1`` iff target ``n`` has ``v`` tiles of local kind ``i``, so
        ``onehot @ cost.ravel()`` is ``sum_i cost[i, T[n, i]]`` for a per-(kind, value) cost
        table. float32 is exact here: every entry of a sum is an integer below 2**13.
        """
        if total not in self._prepared:
            dims = tuple(t + 1 for t in total)
            ok = np.flatnonzero(np.all(self.res <= np.asarray(total), axis=1))
            keys = np.ravel_multi_index(self.res[ok].T, dims) if ok.size else np.zeros(0, np.int64)
            order = np.argsort(keys, kind="stable")
            ok, keys = ok[order], keys[order]
            length = self.vec.shape[1]
            onehot = np.zeros((ok.size, length * self.width), dtype=np.float32)
            rows = np.repeat(np.arange(ok.size), length)
            onehot[rows, (np.arange(length) * self.width + self.vec[ok]).ravel()] = 1.0
            self._prepared[total] = (onehot, keys)
        return self._prepared[total]


@lru_cache(maxsize=None)
def _set_targets(length: int, runs: bool, max_sets: int, bound: int) -> _Targets:
    """Every vector made of ``m <= max_sets`` sets and ``p <= 1`` pairs, entries ``<= bound``.

    Sets are triplets and, if ``runs``, three consecutive kinds. Resource = ``(m, p)``; a vector
    has one size ``3m + 2p`` so ``(m, p)`` is well defined.
    """
    sets = [tuple(3 if i == t else 0 for i in range(length)) for t in range(length)]
    if runs:
        sets += [tuple(1 if t <= i <= t + 2 else 0 for i in range(length)) for t in range(length - 2)]
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


@lru_cache(maxsize=None)
def _knitted_suit_targets(knit: tuple[int, ...], max_sets: int, bound: int) -> _Targets:
    """Knitted tiles of one suit (a 0/1 9-vector) plus any standard suit target."""
    base = _set_targets(9, True, max_sets, bound)
    vec = base.vec + np.asarray(knit, dtype=np.int64)
    keep = vec.max(axis=1) <= bound
    return _Targets(vec[keep].tolist(), base.res[keep].tolist())


@lru_cache(maxsize=None)
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
    """Per-(assignment, kind, value) cost: ``max(0, v - c - a)``, or ``_BIG`` if ``v > cap + a``."""
    values = np.arange(width)
    h = (c + a)[:, :, None]
    cost = np.maximum(values - h, 0).astype(np.float32)
    cost[np.broadcast_to(values > (cap + a)[:, :, None], cost.shape)] = _BIG
    return cost.reshape(len(a), -1)


def _group_table(c, cap, mask, targets: _Targets, w: int, total: tuple[int, ...], upper=_INF) -> np.ndarray:
    """Brute-force table ``E[j, r]`` for one multi-kind group.

    ``E[j, r]`` = min over every multiset ``a`` of ``j`` wildcards on the group's masked kinds,
    and over every group target ``T`` with resource ``r`` and ``T <= cap + a``, of
    ``sum max(0, T - c - a)``; ``inf`` when there is none. Entries above ``upper`` may be
    reported as ``inf`` (``upper`` is an upper bound of the whole form's optimum, so such
    entries can never be part of an optimal combination).

    Notes
    -----
    Only a time saver, exact: for ``j > 0`` a target is skipped when
    ``D0(T) - j > min(E[0, r(T)], upper)`` where ``D0(T) = sum max(0, T - c)`` ignores caps.
    Such a target cannot matter because (i) ``j`` wildcards lower a deficit by at most ``j``,
    and (ii) ``E[j, r] <= E[0, r]`` (put the ``j`` wildcards on any masked kind of the group:
    the deficit of the ``E[0, r]`` target does not grow and its caps only loosen).
    """
    dims = tuple(t + 1 for t in total)
    size = int(np.prod(dims))
    table = np.full((w + 1,) + dims, _INF)
    onehot, keys = targets.prepared(tuple(total))
    length, width = len(c), targets.width
    zero = np.zeros((1, length), dtype=np.int64)
    # j = 0: the only assignment is a = 0. Also D0 (same cost without the cap condition).
    d_cap = onehot @ _cost_tables(c, cap, zero, width)[0]
    d_nocap = onehot @ _cost_tables(c, cap + 99, zero, width)[0]
    table[0] = _min_by_key(d_cap, keys, size).reshape(dims)
    masked = np.flatnonzero(mask).tolist()
    if w == 0 or not masked:
        return table
    e0 = table[0].ravel()
    for j in range(1, w + 1):
        keep = np.flatnonzero(~(d_nocap - j > np.minimum(e0[keys], upper)))
        sub_onehot, sub_keys = onehot[keep], keys[keep]
        best = np.full(keep.size, _INF)
        assignments = itertools.combinations_with_replacement(masked, j)
        while True:
            batch = list(itertools.islice(assignments, _ASSIGN_BATCH))
            if not batch:
                break
            a = np.zeros((len(batch), length), dtype=np.int64)
            for row, kinds in enumerate(batch):
                for kind in kinds:
                    a[row, kind] += 1
            deficits = sub_onehot @ _cost_tables(c, cap, a, width).T  # (targets, assignments)
            np.minimum(best, deficits.min(axis=1), out=best)
        table[j] = _min_by_key(best, sub_keys, size).reshape(dims)
    return table


def _kind_table(c: int, cap: int, masked: bool, options, w: int, total: tuple[int, ...]):
    """Table ``E[j, r]`` for a one-kind group whose targets are ``options = [(value, res), ...]``.

    With ``j`` wildcards on this kind, target ``value`` is allowed iff ``value <= cap + j`` and
    costs ``max(0, value - c - j)``.
    """
    dims = tuple(t + 1 for t in total)
    table = np.full((w + 1,) + dims, _INF)
    for j in range(w + 1):
        if j and not masked:
            break
        for value, res in options:
            if value <= cap + j and all(r <= t for r, t in zip(res, total)):
                idx = (j,) + tuple(res)
                table[idx] = min(table[idx], max(0, value - c - j))
    return table


def _combine(tables: list[np.ndarray], w: int, total: tuple[int, ...]) -> float:
    """Min over every split of ``w`` wildcards and of the resource totals of the summed tables."""
    acc = tables[0]
    shape = acc.shape
    for table in tables[1:]:
        out = np.full(shape, _INF)
        for idx in np.argwhere(np.isfinite(table)):
            idx = tuple(int(i) for i in idx)
            src = tuple(slice(0, s - i) for s, i in zip(shape, idx))
            dst = tuple(slice(i, s) for s, i in zip(shape, idx))
            np.minimum(out[dst], acc[src] + table[idx], out=out[dst])
        acc = out
    return float(acc[(w,) + tuple(total)])


def _min_replacement(groups: list, w: int, total: tuple[int, ...]) -> float:
    """Minimum replacement number of a form given as groups (see the module docstring).

    ``groups`` items are ``("set", c, cap, mask, targets)`` (a multi-kind group with a
    :class:`_Targets`) or ``("kind", c, cap, masked, options)`` (one kind, see
    :func:`_kind_table`).

    Phase 1 computes the optimum ``U`` with every wildcard layer ignored (``j = 0`` everywhere).
    ``U`` bounds the true optimum from above whenever some kind is masked: put all ``w``
    wildcards on a masked kind; deficits do not grow and caps only loosen. Phase 2 computes the
    full tables, using ``U`` only to skip targets that cannot matter.
    """
    def tables_for(wmax, upper):
        out = []
        for kind, c, cap, mask, spec in groups:
            if kind == "set":
                out.append(_group_table(c, cap, mask, spec, wmax, total, upper))
            else:
                out.append(_kind_table(c, cap, mask, spec, wmax, total))
        return out

    upper = _combine(tables_for(0, _INF), 0, total)
    if w == 0:
        return upper
    if not any(np.any(g[3]) for g in groups):
        return _INF
    return _combine(tables_for(w, upper), w, total)


def _to_shanten(r: float):
    return None if r == _INF else int(r) - 1


def _per_kind_tables(c, cap, mask, options_of: Callable[[int], list], w, total):
    return [_kind_table(int(c[i]), int(cap[i]), bool(mask[i]), options_of(i), w, total) for i in range(N_KINDS)]


# ---------------------------------------------------------------------------------------------
# Forms
# ---------------------------------------------------------------------------------------------
def _standard_tables(c, cap, mask, w, sets_needed, knit=None):
    total = (sets_needed, 1)
    tables = []
    for s, kinds in enumerate(SUITS):
        idx = list(kinds)
        bound = int(cap[idx].max()) + w
        if knit is None:
            targets = _set_targets(9, True, sets_needed, bound)
        else:
            targets = _knitted_suit_targets(tuple(1 if k in knit else 0 for k in kinds), sets_needed, bound)
        tables.append(_group_table(c[idx], cap[idx], mask[idx], targets, w, total))
    idx = list(HONOURS)
    targets = _set_targets(7, False, sets_needed, int(cap[idx].max()) + w)
    tables.append(_group_table(c[idx], cap[idx], mask[idx], targets, w, total))
    return tables, total


def shanten_standard(counts, n_melds=0, wilds=0, caps=None, wild_mask=None):
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

    Returns
    -------
    int or None
        -1 complete, 0 ready, ...; None when no allowed target exists.
    """
    c, cap, mask, w, n = _prepare(counts, n_melds, wilds, caps, wild_mask)
    tables, total = _standard_tables(c, cap, mask, w, (n - 1) // 3)
    return _to_shanten(_combine(tables, w, total))


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
    tables = _per_kind_tables(c, cap, mask, lambda i: opts, w, (7,))
    return _to_shanten(_combine(tables, w, (7,)))


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
    tables = _per_kind_tables(
        c, cap, mask, lambda i: [(1, (0,)), (2, (1,))] if i in th else [(0, (0,))], w, (1,)
    )
    return _to_shanten(_combine(tables, w, (1,)))


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
    total = (14,)
    targets = _lan_suit_targets(bool(strict))
    tables = [_group_table(c[list(k)], cap[list(k)], mask[list(k)], targets, w, total) for k in SUITS]
    tables += [_kind_table(int(c[i]), int(cap[i]), bool(mask[i]), [(0, (0,)), (1, (1,))], w, total) for i in HONOURS]
    return _to_shanten(_combine(tables, w, total))


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

        best = min(best, _combine(_per_kind_tables(c, cap, mask, options, w, (14,)), w, (14,)))
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
        tables, total = _standard_tables(c, cap, mask, w, 1 - n_melds, knit=set(pattern))
        best = min(best, _combine(tables, w, total))
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
    tables = _per_kind_tables(
        c, cap, mask,
        lambda i: [(v, (v,)) for v in range(int(cap[i]) + w + 1)] if i in th else [(0, (0,))],
        w, (14,),
    )
    return _to_shanten(_combine(tables, w, (14,)))


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
    results = [
        fn(counts, n_melds, wilds, caps, wild_mask, **opts) for fn, opts in _resolve_forms(form)
    ]
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
