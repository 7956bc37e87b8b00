"""Hand shape: exact shanten (one hand or a batch).

The kernels live in :mod:`mjfast._kernels._shanten`; this module parses and validates input
(:mod:`mjfast._inputs`), applies the rule (tile set, forms, wildcard face) and calls them.
"""
from __future__ import annotations

import numpy as np

from . import _bridge
from ._inputs import (DEFAULT_PARAMS, as_hand, check_wilds, default_threads, prepare, seven_pairs_option,
                      validate_batch)
from ._kernels import _shanten as _k
from .hand import Hand
from .tiles import CODES, N_KINDS


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
        params = DEFAULT_PARAMS.get(seven_pairs)
        if params is not None:
            if type(hand) is np.ndarray:
                return params.shanten(hand, check_wilds(wilds))
            if type(hand) is Hand and not hand.n_melds and wilds is None:
                return params.shanten(hand.counts, hand.wilds)
    h = as_hand(hand, melds=melds, wilds=wilds)
    pairs_distinct = seven_pairs_option(seven_pairs)
    kr, caps, options = prepare(h, rule, wild_kind=wild_kind, pairs_distinct=pairs_distinct)
    if form is None:
        r = _k.shanten_fast(h.counts, h.n_melds, h.wilds, caps, kr.playable, kr.forms, options)
    else:
        r = _bridge.INF
        for name in ([form] if isinstance(form, str) else list(form)):
            bit = _bridge.form_bits(name, None)
            r = min(r, _k.shanten_counts_form(h.counts, h.n_melds, h.wilds, caps, kr.playable, bit, options))
    if r >= _bridge.INF:
        raise ValueError(f"form {form!r} cannot apply to this hand ({h.n_tiles} tiles in hand, {h.n_melds} melds)")
    return int(r)


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
        OpenMP threads (None: ``OMP_NUM_THREADS``, else the usable CPUs; negative: CPUs + 1 +
        n_threads; at most 256, or the usable CPUs if more). Results do not depend on it.

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
    rule_obj = _bridge.resolve_rule(rule)
    kr = _bridge.kernel_rule(rule_obj, None, seven_pairs_option(seven_pairs))
    arr, m, w = validate_batch(counts, melds, wilds, kr)
    forms = kr.forms if form is None else _bridge.form_bits(form, None)
    out = np.empty(arr.shape[0], np.int8)
    _k.shanten_batch_kernel(arr, m, w, kr.copies, kr.playable, forms, kr.options, out, default_threads(n_threads),
                            CODES[:N_KINDS])
    return out

