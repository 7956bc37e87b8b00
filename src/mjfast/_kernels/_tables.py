"""Per-suit replacement-number tables for the shanten and efficiency kernels.

For a suit configuration ``c`` (nine counts 0..4, index ``sum(c[i] * 5**i)``) and a goal of
``m`` sets plus ``p`` pairs, the table holds the *replacement number*

    D[c, 2*m + p] = min over complete targets T of  sum_i max(0, T[i] - c[i])

i.e. how many tiles must be drawn (and as many discarded) to turn ``c`` into ``m`` sets and
``p`` pairs.  Because sets never cross suits, a hand's replacement number is the min-plus
combination of its three suits and its honours, which is how the kernel uses these tables
(the approach tomohxx and nyanten describe; this is an independent implementation).

Two tables are built:

* ``natural``: targets hold at most 4 copies of a kind (the physical limit);
* ``unlimited``: targets may hold up to 8 copies of a kind (wildcards standing for a fifth or
  later copy).  The kernel only needs the exact overflow-aware search for a suit where the two
  differ.

For the efficiency kernel, two *accept* tables hold per configuration (at most 14 tiles: a
group of a hand) and per ``(m, p)`` the nine-bit set of kinds whose draw lowers ``D``; with the
splits that attain a hand's minimum they give its 进张 in one lookup per group.

Construction is by a closure trick instead of a search: ``|T ∧ c|`` is maximised over the
downward closure U of the targets, and both "downward closure" and "max over the box
[0, c]" are one accumulate pass per axis.  The result is cached on disk (``MJFAST_CACHE_DIR``
or ``~/.cache/mjfast``) and memory-mapped, so importing mjfast costs milliseconds after the
first time.
"""
from __future__ import annotations

import functools
import itertools
import os
import tempfile
from pathlib import Path

import numpy as np

TABLE_VERSION = 1
N_SUIT_CONFIGS = 5**9
N_HONOR_CONFIGS = 5**7
MAX_SETS = 4
MAX_GROUP_TILES = 14          # accept tables cover groups of a hand of at most 14 tiles
RANK_CHUNK = 3                # kinds of a group whose rank contribution is looked up together
N_SUIT_ACCEPT = 405_350       # suit configurations with at most MAX_GROUP_TILES tiles
N_HONOR_ACCEPT = 43_130       # the same for the seven honours
TABLE_SHAPES = {
    "suit_natural": (N_SUIT_CONFIGS, 10),
    "suit_unlimited": (N_SUIT_CONFIGS, 10),
    "honor_natural": (N_HONOR_CONFIGS, 10),
    "honor_unlimited": (N_HONOR_CONFIGS, 10),
    "suit_accept": (N_SUIT_ACCEPT, 10),
    "honor_accept": (N_HONOR_ACCEPT, 10),
}


def _suit_set_shapes(n_kinds: int, runs: bool) -> list[np.ndarray]:
    shapes = []
    for i in range(n_kinds):
        v = np.zeros(n_kinds, np.int64)
        v[i] = 3
        shapes.append(v)
    if runs:
        for i in range(n_kinds - 2):
            v = np.zeros(n_kinds, np.int64)
            v[i : i + 3] = 1
            shapes.append(v)
    return shapes


def _targets(n_kinds: int, runs: bool, m: int, p: int, max_copies: int) -> np.ndarray:
    """All count vectors made of ``m`` sets and ``p`` pairs with at most ``max_copies`` a kind."""
    sets = _suit_set_shapes(n_kinds, runs)
    pairs = [np.zeros(n_kinds, np.int64)] if p == 0 else [2 * np.eye(n_kinds, dtype=np.int64)[i] for i in range(n_kinds)]
    out = set()
    for combo in itertools.combinations_with_replacement(range(len(sets)), m):
        base = sum((sets[j] for j in combo), np.zeros(n_kinds, np.int64))
        for pr in pairs:
            t = base + pr
            if t.max() <= max_copies:
                out.add(tuple(t))
    return np.array(sorted(out), dtype=np.int64).reshape(-1, n_kinds)


def _replacement_table(n_kinds: int, runs: bool, max_copies: int) -> np.ndarray:
    """Table of shape (5**n_kinds, 10): replacement number for every config and (m, p)."""
    shape = (5,) * n_kinds
    # axis j of the n-d array is kind (n_kinds - 1 - j), so the flat C index is sum c[i] * 5**i
    weights = 5 ** np.arange(n_kinds, dtype=np.int64)
    sizes = np.zeros(shape, np.int8)
    for axis in range(n_kinds):
        idx = [None] * n_kinds
        idx[axis] = slice(None)
        sizes = sizes + np.arange(5, dtype=np.int8)[tuple(idx)]
    table = np.empty((5**n_kinds, 2 * (MAX_SETS + 1)), np.uint8)
    for m in range(MAX_SETS + 1):
        for p in (0, 1):
            t = _targets(n_kinds, runs, m, p, max_copies)
            flat = np.minimum(t, 4) @ weights  # a target clipped to 4 meets c <= 4 the same way
            closure = np.zeros(5**n_kinds, bool)
            closure[flat] = True
            closure = closure.reshape(shape)
            for axis in range(n_kinds):  # downward closure: suffix-OR along each axis
                closure = np.flip(np.logical_or.accumulate(np.flip(closure, axis), axis=axis), axis)
            best = np.where(closure, sizes, np.int8(-1))
            for axis in range(n_kinds):  # max |s| over s <= c: prefix-max along each axis
                best = np.maximum.accumulate(best, axis=axis)
            table[:, 2 * m + p] = (3 * m + 2 * p - best.reshape(-1)).astype(np.uint8)
    return table


def _accept_table(natural: np.ndarray, n_kinds: int) -> np.ndarray:
    """进张 masks of every group configuration holding at most ``MAX_GROUP_TILES`` tiles.

    ``A[rank(c), 2*m + p]`` has bit ``i`` set when kind ``i`` can be drawn (``c[i] < 4``) and the
    draw lowers ``D[c, 2*m + p]``.  Rows are the configurations with at most
    ``MAX_GROUP_TILES`` tiles in increasing index order (``rank`` = position in that order, see
    :func:`rank_split`); a group of a hand before a draw never holds more.
    """
    idx = np.arange(5**n_kinds, dtype=np.int64)
    digits = [(idx // 5**i) % 5 for i in range(n_kinds)]
    keep = sum(digits) <= MAX_GROUP_TILES
    idx = idx[keep]
    here = natural[idx]
    masks = np.zeros((len(idx), 2 * (MAX_SETS + 1)), np.uint16)
    for i, d in enumerate(digits):
        can = d[keep] < 4
        lowered = natural[np.where(can, idx + 5**i, idx)] < here
        masks |= (lowered & can[:, None]).astype(np.uint16) << np.uint16(i)
    return masks


def rank_offsets(n_kinds: int) -> np.ndarray:
    """``OFF[i, b, v]``: configurations of kinds ``0..i-1`` with at most ``b`` tiles, summed over
    the digits below ``v`` at kind ``i`` — the rank of ``c`` is ``sum_i OFF[i, b_i, c[i]]`` with
    ``b_i`` the tiles left to ``MAX_GROUP_TILES`` after the kinds above ``i``."""
    cnt = np.zeros((n_kinds + 1, MAX_GROUP_TILES + 1), np.int64)   # cnt[i, b]: i kinds, <= b tiles
    cnt[0, :] = 1
    for i in range(1, n_kinds + 1):
        for b in range(MAX_GROUP_TILES + 1):
            cnt[i, b] = sum(cnt[i - 1, b - v] for v in range(min(4, b) + 1))
    off = np.zeros((n_kinds, MAX_GROUP_TILES + 1, 5), np.int64)
    for i in range(n_kinds):
        for b in range(MAX_GROUP_TILES + 1):
            for v in range(1, 5):
                off[i, b, v] = off[i, b, v - 1] + (cnt[i, b - v + 1] if b - v + 1 >= 0 else 0)
    return off


def rank_split(n_kinds: int) -> dict[str, np.ndarray]:
    """The rank of a configuration (its row in an accept table) from its index ``x`` by three
    small lookups, one per chunk of ``RANK_CHUNK`` kinds (low, middle, high)::

        h, m, l = x // 5**6, x // 5**3 % 5**3, x % 5**3
        b = high_budget[h];  rank = high[h] + mid[b, m] + low[mid_budget[b, m], l]

    ``mid``/``low`` (per tile budget left by the kinds above) are the same for suits and
    honours; ``high`` and ``high_budget`` depend on the group's number of kinds.  Entries of
    configurations over ``MAX_GROUP_TILES`` tiles are meaningless (never looked up).
    """
    off = rank_offsets(n_kinds)
    top = MAX_GROUP_TILES

    def chunk(first: int, n: int, budget: int):
        x = np.arange(5**n)
        b = np.full(len(x), budget)
        r = np.zeros(len(x), np.int64)
        for i in range(first + n - 1, first - 1, -1):
            d = (x // 5 ** (i - first)) % 5
            r += off[i, np.clip(b, 0, top), d]
            b = b - d
        return r, np.clip(b, 0, top)

    high, high_budget = chunk(2 * RANK_CHUNK, n_kinds - 2 * RANK_CHUNK, top)
    mid = np.zeros((top + 1, 5**RANK_CHUNK), np.int64)
    mid_budget = np.zeros((top + 1, 5**RANK_CHUNK), np.int64)
    low = np.zeros((top + 1, 5**RANK_CHUNK), np.int64)
    for b in range(top + 1):
        mid[b], mid_budget[b] = chunk(RANK_CHUNK, RANK_CHUNK, b)
        low[b] = chunk(0, RANK_CHUNK, b)[0]
    return {k: v.astype(np.int32).ravel() for k, v in
            dict(high=high, high_budget=high_budget, mid=mid, mid_budget=mid_budget, low=low).items()}


def build_tables() -> dict[str, np.ndarray]:
    """Compute every table from scratch (a few seconds)."""
    suit = _replacement_table(9, True, 4)
    honor = _replacement_table(7, False, 4)
    return {
        "suit_natural": suit,
        "suit_unlimited": _replacement_table(9, True, 8),
        "honor_natural": honor,
        "honor_unlimited": _replacement_table(7, False, 8),
        "suit_accept": _accept_table(suit, 9),
        "honor_accept": _accept_table(honor, 7),
    }


def _cache_dir() -> Path:
    env = os.environ.get("MJFAST_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mjfast"


@functools.cache
def load_tables() -> dict[str, np.ndarray]:
    """Load the tables from the cache (memory-mapped), building and caching them if needed.

    Cached per process: the shanten and efficiency kernels install the same arrays."""
    folder = _cache_dir() / f"shanten_tables_v{TABLE_VERSION}"
    try:
        arrays = {n: np.load(folder / f"{n}.npy", mmap_mode="r") for n in TABLE_SHAPES}
        if all(arrays[n].shape == shape for n, shape in TABLE_SHAPES.items()):
            return arrays
    except (OSError, ValueError):
        pass
    arrays = build_tables()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for n in TABLE_SHAPES:
            # write then rename, so concurrent importers never see a half-written file
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".npy.tmp")
            with os.fdopen(fd, "wb") as fh:
                np.save(fh, arrays[n])
            os.replace(tmp, folder / f"{n}.npy")
    except OSError:
        pass  # read-only home: keep the in-memory tables
    return arrays
