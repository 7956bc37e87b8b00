"""Input coercion and validation shared by the public functions.

Hands given as :class:`~mjfast.Hand`, tile strings or count vectors become what the kernels
take (:func:`as_hand`, :func:`as_light_hand`); :func:`prepare` checks a hand against a rule
through the Rule → kernel bridge (:mod:`mjfast._bridge`); batches, thread counts, ``visible``
counts and fixed sets are validated here once for every module.
"""
from __future__ import annotations

import numbers
import os

import numpy as np

from . import _bridge
from ._kernels import _shanten as _k
from .hand import Hand, Meld
from .tiles import CODES, N_KINDS

MAX_WILDS = 8
_DEFAULT = _bridge.kernel_rule(None)
DEFAULT_PARAMS = {
    reading: _k.RuleParams(_DEFAULT.copies, _DEFAULT.playable, _DEFAULT.forms,
                           _bridge.OPT_PAIRS_DISTINCT if reading == "riichi" else 0)
    for reading in (None, "chinese", "riichi")
}


class CountsHand:
    """A concealed hand given as a ``uint8[34]`` count vector, without building a :class:`Hand`.

    Loops over thousands of count vectors (the raw-array API) should not pay for parsing and
    meld validation; the kernels check every count against its cap.
    """

    __slots__ = ("counts", "wilds", "n_tiles")
    n_melds = 0
    melds = ()
    meld_counts = np.zeros(N_KINDS, np.uint8)
    meld_counts.setflags(write=False)

    def __init__(self, counts: np.ndarray, wilds: int) -> None:
        if wilds < 0:
            raise ValueError(f"wilds must be a non-negative integer, got {wilds!r}")
        self.counts = counts
        self.wilds = wilds
        self.n_tiles = sum(counts.tobytes()) + wilds  # bytes sum: cheaper than a numpy reduce here

    def __str__(self) -> str:
        from .tiles import to_mpsz

        return to_mpsz(self.counts)


def as_light_hand(hand, *, melds=(), wilds=None):
    """Like :func:`as_hand`, but a plain C-contiguous ``uint8[34]`` vector without melds stays
    a :class:`CountsHand` (counts above 4 are rejected by the kernels)."""
    if (not melds and type(hand) is np.ndarray and hand.dtype == np.uint8 and hand.shape == (N_KINDS,)
            and hand.flags.c_contiguous):
        return CountsHand(hand, wilds or 0)
    return as_hand(hand, melds=melds, wilds=wilds)


def as_hand(hand, *, melds=(), wilds=None) -> Hand:
    """Coerce a Hand, a tile string/list or a ``(34,)`` count vector into a :class:`Hand`."""
    if isinstance(hand, Hand):
        if melds or wilds:
            return Hand(hand, melds=melds, wilds=wilds or 0)
        return hand
    return Hand(hand, melds=melds, wilds=wilds or 0, partial=True)


def wild_kind_index(wild_kind) -> int | None:
    """Kind index of a wildcard face given as a code (``'5m'``), an index, or None."""
    if wild_kind is None:
        return None
    if isinstance(wild_kind, (int, np.integer)) and 0 <= int(wild_kind) < N_KINDS:
        return int(wild_kind)
    if isinstance(wild_kind, str) and wild_kind in CODES[:N_KINDS]:
        return CODES.index(wild_kind)
    raise ValueError(f"wild_kind must be a playable tile code such as '5m' (or its index 0-33); got {wild_kind!r}")


def prepare(hand: Hand, rule, *, wild_kind=None, pairs_distinct=None):
    """Validate a hand against a rule; return ``(kernel_rule, caps, options)``.

    ``caps[i]`` is the most natural tiles of kind ``i`` the concealed part can ever hold: the
    rule's copies minus the player's own meld tiles.
    """
    rule_obj = _bridge.resolve_rule(rule)
    wk = wild_kind_index(wild_kind)
    kr = _bridge.kernel_rule(rule_obj, wk, pairs_distinct)
    if hand.wilds and not kr.has_wildcards:
        raise ValueError(f"rule {kr.name!r} has no wildcards, but the hand holds wilds={hand.wilds}")
    if hand.wilds > MAX_WILDS:
        raise ValueError(f"at most {MAX_WILDS} wildcards are supported, got wilds={hand.wilds}")
    counts = hand.counts
    if hand.n_melds:
        caps = kr.copies.astype(np.int16) - hand.meld_counts
    else:
        caps = kr.copies
    if rule_obj is not None or wk is not None or hand.n_melds:
        over = np.flatnonzero(counts > caps)
        if over.size:
            i = int(over[0])
            have = int(counts[i]) + int(hand.meld_counts[i])
            if kr.copies[i] == 0 and wk != i:
                raise ValueError(f"tile {CODES[i]} is not played under rule {kr.name!r}")
            raise ValueError(f"the hand holds {have} of {CODES[i]} but only {int(kr.copies[i])} "
                             f"natural copies are in play")
        if hand.n_melds:
            caps = np.ascontiguousarray(np.maximum(caps, 0), dtype=np.uint8)
    options = kr.options
    if hand.n_melds:
        options = _bridge.void_options(options, {m.tiles[0] // 9 for m in hand.melds})
    return kr, caps, options


def seven_pairs_option(seven_pairs):
    if seven_pairs is None:
        return None
    if seven_pairs not in ("chinese", "riichi"):
        raise ValueError(f"seven_pairs must be 'chinese' or 'riichi', got {seven_pairs!r}")
    return seven_pairs == "riichi"


def per_row(value, n: int, name: str, lo: int, hi: int) -> np.ndarray:
    arr = np.asarray(value)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape != (n,):
        raise ValueError(f"{name} must be a scalar or have one entry per row ({n}), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} must be integers, got dtype {arr.dtype}")
    if arr.size and (arr.min() < lo or arr.max() > hi):
        raise ValueError(f"{name} must be between {lo} and {hi}; got values from {arr.min()} to {arr.max()}")
    return np.ascontiguousarray(arr, dtype=np.int8)


def default_threads(n_threads) -> int:
    """Resolve ``n_threads`` like scikit-learn: None → all cores, negative → cores + 1 + n."""
    cores = os.cpu_count() or 1
    if n_threads is None:
        return cores
    n_threads = int(n_threads)
    if n_threads == 0:
        raise ValueError("n_threads must not be 0")
    return max(1, cores + 1 + n_threads) if n_threads < 0 else n_threads


def validate_batch(counts, melds, wilds, kr):
    """Shape/dtype checks for a ``(n, 34)`` batch; the kernel checks counts and sizes per row."""
    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] != N_KINDS:
        raise ValueError(f"counts must have shape (n, 34), got {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"counts must be an integer array, got dtype {arr.dtype}")
    n = arr.shape[0]
    if arr.dtype != np.uint8:
        if n and (arr.min() < 0 or arr.max() > 4):
            bad = np.argwhere((arr < 0) | (arr > 4))[0]
            raise ValueError(f"row {bad[0]}: {int(arr[tuple(bad)])} copies of {CODES[bad[1]]} (must be 0..4)")
        arr = arr.astype(np.uint8)
    m = per_row(melds, n, "melds", 0, 4)
    w = per_row(wilds, n, "wilds", 0, MAX_WILDS)
    if w.any() and not kr.has_wildcards:
        raise ValueError(f"rule {kr.name!r} has no wildcards, but wilds were given")
    return np.ascontiguousarray(arr), m, w


def sample_size(func: str, n, old_name: str, old_value, default=None):
    """The sample size of a Monte-Carlo function: ``n``, or the value of its old keyword
    (``n_games``, ``mc_games``), accepted with a :class:`DeprecationWarning`; ``default`` when
    neither is given (``old_value`` None)."""
    if old_value is None:
        return default if n is None else n
    if n is not None:
        raise ValueError(f"{func}: give the sample size once, as n= ({old_name}= is its deprecated old name)")
    import warnings

    warnings.warn(f"{func}({old_name}=...) is deprecated: every mjfast function takes its sample size as n=",
                  DeprecationWarning, stacklevel=3)
    return old_value


def check_int(value, name: str, lo: int) -> int:
    """``value`` as an int of at least ``lo``; bools and non-integers are rejected."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < lo:
        raise ValueError(f"{name} must be at least {lo}, got {value}")
    return int(value)


def visible_counts(visible) -> np.ndarray:
    """``visible`` (tiles seen: a tile string/list or a ``(34,)`` count vector) as ``int16[34]``."""
    vis = np.zeros(N_KINDS, np.int16)
    if visible is None:
        return vis
    if isinstance(visible, np.ndarray) and visible.shape == (N_KINDS,):
        if not np.issubdtype(visible.dtype, np.integer) or visible.min() < 0:
            raise ValueError("visible counts must be non-negative integers")
        return visible.astype(np.int16)
    from .tiles import counts as _counts
    return _counts(visible).astype(np.int16)


def fix_sets(h: Hand, fixed_sets) -> Hand:
    """Move concealed sets declared fixed into the melds (yijinting.md §4 caveat 1)."""
    counts = h.counts.astype(np.int16)
    fixed = []
    for text in ([fixed_sets] if isinstance(fixed_sets, str) else fixed_sets):
        meld = text if isinstance(text, Meld) else Meld.parse(str(text))
        for t in meld.tiles:
            counts[t] -= 1
        if counts.min() < 0:
            raise ValueError(f"fixed set {meld.mpsz} is not among the concealed tiles of {h}")
        fixed.append(meld)
    return Hand(counts.astype(np.uint8), melds=tuple(h.melds) + tuple(fixed), wilds=h.wilds, partial=True)
