"""Reference decomposition of complete hands, and wait types.

A decomposition is a flat tuple ``(*blocks, wild_tiles)``:

* standard form: the concealed sets ``("chow", first)`` / ``("pung", tile)`` (and, with the
  option ``honour_chows``, ``("honour_chow", (t1, t2, t3))`` for three different winds or
  dragons) in Python's tuple order, then ``("pair", tile)``;
* 组合龙: ``("knitted", *9 tiles)``, then the sets and the pair as above;
* seven pairs: one block ``("seven_pairs", *7 pair kinds)`` (a four-of-a-kind appears twice);
* other special forms: one block ``(form_name, *14 tile kinds)``, sorted;
* ``wild_tiles``: the sorted tuple of the kinds the wildcards stand for (``()`` without
  wildcards). It is ``target - counts``, so the wildcards never replace a natural tile that
  is present.

Two decompositions are distinct when their blocks or their wildcard kinds differ as multisets.
Everything is found by exhaustive enumeration of targets ``T >= counts`` of the form with
``sum(T - counts) == wilds`` and ``T - counts`` on ``wild_mask`` kinds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np

from .shanten import DEFAULT_FORMS, HONOURS, KNITTED_PATTERNS, N_KINDS, SUITS, TERMINALS_HONOURS

__all__ = ["SET_TYPES", "HONOUR_CHOW_TYPES", "decompose", "wait_types", "WAIT_TYPES"]

#: Every concealed set: ("pung", t) for the 34 kinds and ("chow", t) for the 21 run starts.
SET_TYPES: tuple[tuple[str, int], ...] = tuple(("pung", t) for t in range(N_KINDS)) + tuple(
    ("chow", t) for suit in SUITS for t in suit[:7]
)
#: The honour chows of a rule that has them (瑞金): any three different winds, the three dragons.
HONOUR_CHOW_TYPES: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
    ("honour_chow", trio) for group in ((27, 28, 29, 30), (31, 32, 33)) for trio in itertools.combinations(group, 3)
)
#: Wait-type vocabulary of :func:`wait_types`.
WAIT_TYPES: tuple[str, ...] = ("ryanmen", "penchan", "kanchan", "tanki", "shanpon")

_DECOMPOSE_FORMS = (
    "standard",
    "seven_pairs",
    "thirteen_orphans",
    "thirteen_lan",
    "honors_and_knitted",
    "knitted_straight",
    "nine_terminals",
)


def _set_tiles(block: tuple) -> tuple[int, ...]:
    kind, t = block
    if kind == "honour_chow":
        return t
    return (t, t, t) if kind == "pung" else (t, t + 1, t + 2)


def _vector(tiles: Iterable[int]) -> np.ndarray:
    return np.bincount(np.fromiter(tiles, dtype=np.int64), minlength=N_KINDS)


def _wild_tiles(target: np.ndarray, counts: np.ndarray, wilds: int, mask: np.ndarray):
    """Sorted kinds of ``target - counts`` if it is a valid wildcard assignment, else None."""
    extra = target - counts
    if (extra < 0).any() or int(extra.sum()) != wilds or (extra[~mask] > 0).any():
        return None
    return tuple(int(k) for k in np.repeat(np.arange(N_KINDS), extra))


def _standard_parts(need: np.ndarray, budget: int, n_sets: int, set_types=SET_TYPES) -> Iterator[tuple]:
    """Every multiset of ``n_sets`` sets + 1 pair whose tiles ``S`` cover ``need`` with
    ``sum(S - need) == budget`` (each extra tile is a wildcard). Yields ``(sets, pair)``.

    Depth-first over the sets in :data:`SET_TYPES` order (non-decreasing index, so each
    multiset once); ``excess = sum(max(0, S - need))`` never decreases, so a branch stops as
    soon as it exceeds ``budget``.
    """
    want = [int(x) for x in need]  # plain ints: the search indexes it per tile
    set_tiles = [_set_tiles(st) for st in set_types]

    def dfs(start, left, vec, excess, chosen):
        if left == 0:
            if excess == budget:
                yield tuple(chosen)
            return
        for idx in range(start, len(set_types)):
            added = 0
            for t in set_tiles[idx]:
                added += vec[t] >= want[t]
                vec[t] += 1
            if excess + added <= budget:
                chosen.append(set_types[idx])
                yield from dfs(idx, left - 1, vec, excess + added, chosen)
                chosen.pop()
            for t in set_tiles[idx]:
                vec[t] -= 1

    for pair in range(N_KINDS):
        vec = [0] * N_KINDS
        vec[pair] = 2
        excess = max(0, 2 - want[pair])
        if excess <= budget:
            yield from ((sets, pair) for sets in dfs(0, n_sets, vec, excess, []))


def _standard(counts, wilds, mask, n_sets, honour_chows=False) -> set:
    out = set()
    types = SET_TYPES + HONOUR_CHOW_TYPES if honour_chows else SET_TYPES
    for sets, pair in _standard_parts(counts, wilds, n_sets, types):
        target = _vector(itertools.chain([pair, pair], *(_set_tiles(s) for s in sets)))
        wild = _wild_tiles(target, counts, wilds, mask)
        if wild is not None:
            out.add((*sorted(sets), ("pair", pair), wild))
    return out


def _knitted_straight(counts, wilds, mask, n_sets) -> set:
    out = set()
    for pattern in KNITTED_PATTERNS:
        knit = _vector(pattern)
        budget = wilds - int(np.maximum(knit - counts, 0).sum())
        if budget < 0:
            continue
        for sets, pair in _standard_parts(np.maximum(counts - knit, 0), budget, n_sets):
            target = knit + _vector(itertools.chain([pair, pair], *(_set_tiles(s) for s in sets)))
            wild = _wild_tiles(target, counts, wilds, mask)
            if wild is not None:
                out.add((("knitted", *pattern), *sorted(sets), ("pair", pair), wild))
    return out


def _per_kind_targets(counts, wilds, options: Sequence[Sequence[int]], size: int) -> Iterator[np.ndarray]:
    """Every ``T`` with ``T[i]`` in ``options[i]``, ``T >= counts``, ``sum(T) == size`` and
    ``sum(T - counts) == wilds``."""
    suffix_max = [0] * (N_KINDS + 1)
    for i in range(N_KINDS - 1, -1, -1):
        suffix_max[i] = suffix_max[i + 1] + max(options[i], default=0)
    vec = np.zeros(N_KINDS, dtype=np.int64)

    def dfs(i, total, extra):
        if i == N_KINDS:
            if total == size and extra == wilds:
                yield vec.copy()
            return
        if total + suffix_max[i] < size:
            return
        for value in options[i]:
            add = value - int(counts[i])
            if add < 0 or extra + add > wilds or total + value > size:
                continue
            vec[i] = value
            yield from dfs(i + 1, total + value, extra + add)
        vec[i] = 0

    if sum(int(c) for c in counts) + wilds == size:
        yield from dfs(0, 0, 0)


def _lan_ok(target, strict) -> bool:
    for suit in SUITS:
        ranks = [r for r in range(9) if target[suit[r]]]
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:])) or (strict and len(ranks) != 3):
            return False
    return True


def _special(name, counts, wilds, mask, opts) -> set:
    out = set()
    th, honours = set(TERMINALS_HONOURS), set(HONOURS)
    if name == "seven_pairs":
        values = [0, 2] if opts.get("distinct") else [0, 2, 4]
        option_sets = [[values] * N_KINDS]
    elif name == "thirteen_orphans":
        option_sets = [[[1, 2] if i in th else [0] for i in range(N_KINDS)]]
    elif name == "thirteen_lan":
        option_sets = [[[0, 1]] * N_KINDS]
    elif name == "honors_and_knitted":
        option_sets = [
            [
                ([1] if opts.get("seven_stars") else [0, 1]) if i in honours else ([0, 1] if i in p else [0])
                for i in range(N_KINDS)
            ]
            for p in map(set, KNITTED_PATTERNS)
        ]
    elif name == "nine_terminals":
        option_sets = [[list(range(15)) if i in th else [0] for i in range(N_KINDS)]]
    else:
        raise ValueError(f"unknown form {name!r}")
    for options in option_sets:
        for target in _per_kind_targets(counts, wilds, options, 14):
            if name == "thirteen_lan" and not _lan_ok(target, opts.get("strict")):
                continue
            wild = _wild_tiles(target, counts, wilds, mask)
            if wild is None:
                continue
            if name == "seven_pairs":
                block = ("seven_pairs", *np.repeat(np.arange(N_KINDS), target // 2).tolist())
            else:
                block = (name, *np.repeat(np.arange(N_KINDS), target).tolist())
            out.add((block, wild))
    return out


def _resolve(forms):
    if forms is None:
        forms = DEFAULT_FORMS
    if isinstance(forms, str) or (isinstance(forms, tuple) and len(forms) == 2 and isinstance(forms[1], Mapping)):
        forms = (forms,)
    out = []
    for item in forms:
        name, opts = (item, {}) if isinstance(item, str) else (item[0], dict(item[1]))
        if name not in _DECOMPOSE_FORMS:
            raise ValueError(f"unknown form {name!r}; known: {_DECOMPOSE_FORMS}")
        out.append((name, opts))
    return out


def decompose(counts, melds=(), wilds=0, wild_mask=None, forms=None) -> list:
    """Every distinct decomposition of a complete hand.

    Parameters
    ----------
    counts : sequence of int
        34 concealed natural counts, winning tile included.
    melds : iterable of (str, int), default ()
        Called melds ``("chow", first)``, ``("pung", t)``, ``("kong", t)``, ``("honour_chow", trio)``; they are not part
        of the output and only set which forms apply (special forms need no melds, 组合龙 at
        most one).
    wilds : int, default 0
        Wildcards held concealed.
    wild_mask : sequence of bool, optional
        Kinds a wildcard may stand for; default all.
    forms : str, (str, dict) or iterable of those, optional
        As in :func:`mjfast._reference.shanten.shanten`; default ``DEFAULT_FORMS``
        (standard, seven pairs with four-of-a-kind = two pairs, thirteen orphans).
        ``("standard", {"honour_chows": True})`` adds the honour chows (瑞金).

    Returns
    -------
    list of tuple
        Sorted list of decompositions (see the module docstring); empty if not complete.
    """
    c = np.asarray(counts, dtype=np.int64).reshape(-1)
    if c.shape != (N_KINDS,) or (c < 0).any() or wilds < 0:
        raise ValueError("counts must be 34 non-negative ints and wilds >= 0")
    mask = np.ones(N_KINDS, dtype=bool) if wild_mask is None else np.asarray(wild_mask, dtype=bool)
    melds = list(melds)
    for kind, tile in melds:
        if kind == "honour_chow" and (kind, tuple(tile)) in HONOUR_CHOW_TYPES:
            continue  # a called honour chow (瑞金)
        if kind not in ("chow", "pung", "kong") or not 0 <= tile < N_KINDS:
            raise ValueError(f"invalid meld {(kind, tile)!r}")
    n = int(c.sum()) + int(wilds)
    if n % 3 != 2:
        return []
    n_sets = (n - 2) // 3
    out: set = set()
    for name, opts in _resolve(forms):
        if name == "standard":
            out |= _standard(c, int(wilds), mask, n_sets, bool(opts.get("honour_chows")))
        elif name == "knitted_straight":
            if len(melds) <= 1 and n + 3 * len(melds) == 14:
                out |= _knitted_straight(c, int(wilds), mask, n_sets - 3)
        elif not melds and n == 14:
            out |= _special(name, c, int(wilds), mask, opts)
    return sorted(out)


def wait_types(decomposition, win_tile: int) -> set:
    """Wait types implied by the blocks of a decomposition that contain the winning tile.

    Parameters
    ----------
    decomposition : tuple
        One item of :func:`decompose`.
    win_tile : int
        Kind of the winning tile.

    Returns
    -------
    set of str
        Subset of :data:`WAIT_TYPES`: a chow won on its middle tile is ``"kanchan"``; on
        the 3 of 123 or the 7 of 789 ``"penchan"``; on another end ``"ryanmen"``; a pung
        ``"shanpon"``; the pair ``"tanki"``. A seven-pairs block containing the tile gives
        ``"tanki"``. Other special-form blocks (and the knitted part of 组合龙) give
        nothing.
    """
    out = set()
    for block in decomposition:
        if not block or not isinstance(block[0], str):
            continue  # the wildcard tuple
        kind = block[0]
        if kind == "chow":
            first = block[1]
            rank = first % 9  # 0-based rank of the lowest tile
            if win_tile == first + 1:
                out.add("kanchan")
            elif win_tile == first:
                out.add("penchan" if rank == 6 else "ryanmen")
            elif win_tile == first + 2:
                out.add("penchan" if rank == 0 else "ryanmen")
        elif kind == "pung" and block[1] == win_tile:
            out.add("shanpon")
        elif kind == "pair" and block[1] == win_tile:
            out.add("tanki")
        elif kind == "seven_pairs" and win_tile in block[1:]:
            out.add("tanki")
    return out
