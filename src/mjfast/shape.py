"""Hand shape: exact shanten (one hand or a batch).

The kernels live in :mod:`mjfast._kernels._shanten`; this module parses and validates input,
applies the rule (tile set, forms, wildcard face) and calls them.
"""
from __future__ import annotations

import os

import numpy as np

from . import _params
from ._kernels import _shanten as _k
from ._kernels import _tables
from .hand import Hand
from .tiles import CODES, N_KINDS

_TABLES = _tables.load_tables()
_k._set_tables(_TABLES["suit_natural"], _TABLES["suit_unlimited"],
               _TABLES["honor_natural"], _TABLES["honor_unlimited"])

MAX_WILDS = 8
_DEFAULT = _params.kernel_rule(None)
_DEFAULT_PARAMS = {
    reading: _k.RuleParams(_DEFAULT.copies, _DEFAULT.playable, _DEFAULT.forms,
                           _params.OPT_PAIRS_DISTINCT if reading == "riichi" else 0)
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
    rule_obj = _params.resolve_rule(rule)
    wk = wild_kind_index(wild_kind)
    kr = _params.kernel_rule(rule_obj, wk, pairs_distinct)
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
        options = _params.void_options(options, {m.tiles[0] // 9 for m in hand.melds})
    return kr, caps, options


def shanten(hand, *, rule=None, form=None, melds=(), wilds=None, wild_kind=None,
            seven_pairs: str | None = None) -> int:
    """Exact shanten of a 3k+1 or 3k+2 tile hand.

    Parameters
    ----------
    hand : Hand, str, sequence or array
        The hand. A string or tile list is parsed; a ``(34,)`` count vector is taken as the
        concealed tiles. ``melds`` and ``wilds`` add called melds and wildcards when the hand is
        not already a :class:`~mjfast.Hand`.
    rule : str or Rule, optional
        Restricts the tile set (kinds a rule does not play are never drawn), picks the forms
        (``form=None``) and the seven-pairs reading.  Without a rule: standard, seven pairs and
        thirteen orphans over the 136-tile set.
    form : str or sequence of str, optional
        ``"standard"``, ``"seven_pairs"``, ``"thirteen_orphans"``, ``"thirteen_lan"`` (十三浪 /
        烂胡), ``"honors_and_knitted"`` (全不靠, which includes 七星不靠), ``"seven_stars"``
        (七星不靠 alone), ``"knitted_straight"`` (组合龙), ``"nine_terminals"`` (九幺).
        None: the minimum over the rule's forms.
    wild_kind : str, optional
        The face whose tiles are this hand's wildcards (e.g. the 百搭 kind after the flip).
        Natural copies of that face are then wild, not drawable as naturals (substitutes such
        as 金华's 白板 take their place).
    seven_pairs : {"chinese", "riichi"}, optional
        ``"chinese"``: four of a kind counts as two pairs (the rules' default, G-A3);
        ``"riichi"``: seven distinct pairs, for comparison with riichi libraries.

    Returns
    -------
    int
        ``-1`` complete, ``0`` ready (听牌), ``1`` one away (一向听), …

    Raises
    ------
    ValueError
        Unparseable tiles, wrong tile counts, a kind the rule does not play, wildcards under a
        rule without them, or an explicitly requested form that cannot apply to the hand (for
        example seven pairs with called melds).

    Notes
    -----
    Exact means: the least number of draws needed, minus one, where draws are natural tiles
    still available (at most the rule's copies of a kind, counting the hand and its melds),
    and wildcards may stand for any playable kind.  ``1111m234p567789s`` is 1-shanten, because
    its only "wait" would be a fifth 1m.

    Examples
    --------
    >>> import mjfast as mj
    >>> mj.shanten("11p34567m45s9p", melds=["555z"])
    1
    >>> mj.shanten("1111m234p567789s")
    1
    >>> mj.shanten("19m19p19s1234567z")
    0
    >>> mj.shanten("123m456p789s11z5s", wilds=2)  # the two wildcards complete 5s into a set
    -1
    """
    if rule is None and form is None and wild_kind is None and not melds:
        # hot path for loops over plain hands: no rule, no melds to subtract
        params = _DEFAULT_PARAMS.get(seven_pairs)
        if params is not None:
            if type(hand) is np.ndarray:
                return params.shanten(hand, wilds or 0)
            if type(hand) is Hand and not hand.n_melds and wilds is None:
                return params.shanten(hand.counts, hand.wilds)
    h = as_hand(hand, melds=melds, wilds=wilds)
    pairs_distinct = _seven_pairs_option(seven_pairs)
    kr, caps, options = prepare(h, rule, wild_kind=wild_kind, pairs_distinct=pairs_distinct)
    if form is None:
        r = _k.shanten_fast(h.counts, h.n_melds, h.wilds, caps, kr.playable, kr.forms, options)
    else:
        r = _params.INF
        for name in ([form] if isinstance(form, str) else list(form)):
            bit = _params.form_bits(name, None)
            r = min(r, _k.shanten_counts_form(h.counts, h.n_melds, h.wilds, caps, kr.playable, bit, options))
    if r >= _params.INF:
        raise ValueError(f"form {form!r} cannot apply to this hand ({h.n_tiles} tiles in hand, {h.n_melds} melds)")
    return int(r)


def _seven_pairs_option(seven_pairs):
    if seven_pairs is None:
        return None
    if seven_pairs not in ("chinese", "riichi"):
        raise ValueError(f"seven_pairs must be 'chinese' or 'riichi', got {seven_pairs!r}")
    return seven_pairs == "riichi"


def _per_row(value, n: int, name: str, lo: int, hi: int) -> np.ndarray:
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
    m = _per_row(melds, n, "melds", 0, 4)
    w = _per_row(wilds, n, "wilds", 0, MAX_WILDS)
    if w.any() and not kr.has_wildcards:
        raise ValueError(f"rule {kr.name!r} has no wildcards, but wilds were given")
    return np.ascontiguousarray(arr), m, w


def shanten_batch(counts, *, melds=0, wilds=0, rule=None, form=None, seven_pairs=None,
                  n_threads=None) -> np.ndarray:
    """Shanten of many hands at once, without the GIL.

    Parameters
    ----------
    counts : array_like, shape (n, 34)
        Concealed tile counts, one hand per row (C-contiguous ``uint8`` avoids a copy).
    melds, wilds : int or array_like of shape (n,)
        Called melds and wildcards per row.  Meld tiles are not known here, so only the hand
        itself limits the copies of a kind.
    rule, form, seven_pairs
        As in :func:`shanten`.
    n_threads : int, optional
        OpenMP threads (None: all cores). Results do not depend on it.

    Returns
    -------
    numpy.ndarray of int8, shape (n,)
        Shanten per row; ``100`` where no selected form applies to that row.

    Examples
    --------
    >>> import numpy as np, mjfast as mj
    >>> hands = np.stack([mj.Hand("19m19p19s1234567z").counts, mj.Hand("1111m234p567789s").counts])
    >>> mj.shanten_batch(hands).tolist()
    [0, 1]
    """
    rule_obj = _params.resolve_rule(rule)
    kr = _params.kernel_rule(rule_obj, None, _seven_pairs_option(seven_pairs))
    arr, m, w = validate_batch(counts, melds, wilds, kr)
    forms = kr.forms if form is None else _params.form_bits(form, None)
    out = np.empty(arr.shape[0], np.int8)
    _k.shanten_batch_kernel(arr, m, w, kr.copies, kr.playable, forms, kr.options, out, default_threads(n_threads),
                            CODES[:N_KINDS])
    return out


_k.install_entry(shanten, _DEFAULT_PARAMS)
#: The public ``mjfast.shanten``: :func:`shanten` behind a compiled front door for plain count
#: vectors (the Python call overhead is most of the cost of one hand).
fast_shanten = _k.shanten_entry
fast_shanten.__doc__ = shanten.__doc__
