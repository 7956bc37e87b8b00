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
#: Most OpenMP threads a call may ask for (beyond the machine's usable CPUs, up to this, is
#: allowed: results do not depend on it): tens of thousands make the OpenMP runtime fail.
MAX_THREADS = 256
#: Most samples (games, draws) one Monte-Carlo call plays: ``2**40``, about 10**12.
MAX_SAMPLES = 2**40
_DEFAULT = _bridge.kernel_rule(None)
DEFAULT_PARAMS = {
    reading: _k.RuleParams(
        _DEFAULT.copies, _DEFAULT.playable, _DEFAULT.forms, _bridge.OPT_PAIRS_DISTINCT if reading == "riichi" else 0
    )
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
        wilds = check_wilds(wilds)
        self.counts = counts
        self.wilds = wilds
        self.n_tiles = sum(counts.tobytes()) + wilds  # bytes sum: cheaper than a numpy reduce here

    def __str__(self) -> str:
        from .tiles import to_mpsz

        return to_mpsz(self.counts)


def as_light_hand(hand, *, melds=(), wilds=None):
    """Like :func:`as_hand`, but a plain C-contiguous ``uint8[34]`` vector without melds stays
    a :class:`CountsHand` (counts above 4 are rejected by the kernels)."""
    if (
        not melds
        and type(hand) is np.ndarray
        and hand.dtype == np.uint8
        and hand.shape == (N_KINDS,)
        and hand.flags.c_contiguous
    ):
        return CountsHand(hand, wilds)
    return as_hand(hand, melds=melds, wilds=wilds)


def as_hand(hand, *, melds=(), wilds=None) -> Hand:
    """Coerce a Hand, a tile string/list or a ``(34,)`` count vector into a :class:`Hand`."""
    wilds = check_wilds(wilds)
    if isinstance(hand, Hand):
        if melds or wilds:
            return Hand(hand, melds=melds, wilds=wilds)
        return hand
    return Hand(hand, melds=melds, wilds=wilds, partial=True)


def check_wilds(wilds) -> int:
    """``wilds`` (None: 0) as an int in ``0..MAX_WILDS``: a bool, a float or a string is an
    error, never rounded or read as a number."""
    if wilds is None:
        return 0
    if isinstance(wilds, (bool, np.bool_)) or not isinstance(wilds, numbers.Integral):
        raise ValueError(f"wilds must be an integer number of wildcards, got {type(wilds).__name__} {wilds!r}")
    n = int(wilds)  # exact for an Integral
    if not 0 <= n <= MAX_WILDS:
        raise ValueError(f"wilds must be between 0 and {MAX_WILDS}, got {wilds}")
    return n


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
        if rule_obj is not None:  # rule-free analysis takes any meld as a meld (as it takes wildcards)
            rule_obj.check_melds(hand.melds)
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
            raise ValueError(
                f"the hand holds {have} of {CODES[i]} but only {int(kr.copies[i])} natural copies are in play"
            )
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


def usable_cpus() -> int:
    """CPUs this process may run on: its affinity mask (``taskset``, container CPU sets), else
    ``os.cpu_count()``."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def thread_limit() -> int:
    """The most ``n_threads`` a call accepts: :data:`MAX_THREADS`, or the usable CPUs if more."""
    return max(MAX_THREADS, usable_cpus())


def _omp_num_threads() -> int | None:
    """The first entry of ``OMP_NUM_THREADS`` when it is a positive integer (else None)."""
    text = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def default_threads(n_threads) -> int:
    """Resolve ``n_threads`` like scikit-learn: None → ``OMP_NUM_THREADS`` if set, else the
    usable CPUs (the affinity mask); ``-1`` → the usable CPUs, ``-k`` → usable + 1 - k.

    At most :func:`thread_limit` (256, or the usable CPUs if more): the OpenMP runtime makes
    the interpreter exit, or crashes, when asked for tens of thousands.  ``ValueError`` for
    0, anything above the limit, a negative count beyond the CPUs, and non-integers.
    """
    cores = usable_cpus()
    limit = thread_limit()
    if n_threads is None:
        return min(_omp_num_threads() or cores, limit)
    if isinstance(n_threads, (bool, np.bool_)) or not isinstance(n_threads, numbers.Integral):
        raise ValueError(f"n_threads must be an integer (or None), got {type(n_threads).__name__} {n_threads!r}")
    n_threads = int(n_threads)
    if n_threads == 0:
        raise ValueError("n_threads must not be 0")
    if n_threads > limit:
        raise ValueError(
            f"n_threads={n_threads} is above the limit of {limit} threads (this machine has {cores} usable CPUs)"
        )
    if n_threads < 0:
        resolved = cores + 1 + n_threads
        if resolved < 1:
            raise ValueError(
                f"n_threads={n_threads} leaves no thread: this machine has {cores} usable CPUs (-1 means all of them)"
            )
        return resolved
    return n_threads


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

    warnings.warn(
        f"{func}({old_name}=...) is deprecated: every mjfast function takes its sample size as n=",
        DeprecationWarning,
        stacklevel=3,
    )
    return old_value


def check_int(value, name: str, lo: int, hi: int | None = None) -> int:
    """``value`` as an int in ``lo..hi``; bools and non-integers are rejected."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    n = int(value)  # exact for an Integral
    if n < lo:
        raise ValueError(f"{name} must be at least {lo}, got {value}")
    if hi is not None and n > hi:
        raise ValueError(f"{name} must be at most {hi}, got {value}")
    return n


def physical_memory() -> int | None:
    """Bytes of RAM of this machine (None where unknown)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def check_samples(value, name: str, bytes_each: int = 0, stream: str = "") -> int:
    """A sample count (games, draws) in ``1..MAX_SAMPLES``; with ``bytes_each`` (the memory a
    sample's result takes) also one whose result fits this machine's RAM, so that a call that
    cannot succeed fails at once rather than after hours (``stream`` names the streaming
    alternative for the error message)."""
    n = check_int(value, name, 1, MAX_SAMPLES)
    ram = physical_memory()
    if bytes_each and ram and n * bytes_each > ram:
        raise ValueError(
            f"{name}={n} would need about {n * bytes_each / 2**30:,.0f} GiB for its result "
            f"(about {bytes_each} bytes each) but this machine has {ram / 2**30:,.0f} GiB"
            + (f"; {stream}" if stream else "")
        )
    return n


def visible_counts(visible) -> np.ndarray:
    """``visible`` (tiles seen: a tile string/list or a ``(34,)`` count vector) as ``int16[34]``."""
    vis = np.zeros(N_KINDS, np.int16)
    if visible is None:
        return vis
    if isinstance(visible, np.ndarray) and visible.shape == (N_KINDS,):
        if not np.issubdtype(visible.dtype, np.integer):
            raise ValueError(f"visible counts must be integers, got dtype {visible.dtype}")
        bad = np.flatnonzero((visible < 0) | (visible > 4))
        if bad.size:
            k = int(bad[0])
            raise ValueError(f"visible counts must be between 0 and 4, got {int(visible[k])} for {CODES[k]}")
        return visible.astype(np.int16)
    from .tiles import counts as _counts

    return _counts(visible).astype(np.int16)


def fix_sets(h: Hand, fixed_sets) -> Hand:
    """Move concealed sets declared fixed into the melds (yijinting.md §4 caveat 1)."""
    counts = h.counts.astype(np.int16)
    fixed = []
    for text in [fixed_sets] if isinstance(fixed_sets, str) else fixed_sets:
        meld = text if isinstance(text, Meld) else Meld.parse(str(text))
        for t in meld.tiles:
            counts[t] -= 1
        if counts.min() < 0:
            raise ValueError(f"fixed set {meld.mpsz} is not among the concealed tiles of {h}")
        fixed.append(meld)
    return Hand(counts.astype(np.uint8), melds=tuple(h.melds) + tuple(fixed), wilds=h.wilds, partial=True)
