"""The shanten kernel as a completeness test, for :func:`~mjfast.can_win` and the scorer
framework's reading classes (:mod:`mjfast.scoring._framework`).

``complete(hand, forms, playable)`` runs the shanten kernel once (``-1`` = complete) instead of
listing every reading in Python.  A caller only trusts the answer where it is exact: the kernel
returns ``-1`` exactly when the tiles (the wildcards standing for ``playable`` kinds) form one of
the ``forms``, and the decomposition the scorers use accepts every such assignment (a wildcard
may even be a fifth copy), so "complete" implies the scorer finds a reading; ``playable``
restricts the natural tiles too, so with a narrower set than the rule's only True is exact.
``tests/scoring/test_scoring_shortcut_helpers.py`` checks :func:`~mjfast.can_win` against
``score().legal`` on random hands of every rule.
"""

from __future__ import annotations

import numpy as np

from .. import _bridge
from .._kernels import _shanten as _ks

_FB = _bridge.FORM_BITS
#: Standard form only; standard form or seven pairs (four of a kind = two pairs).
STANDARD = _FB["standard"]
STANDARD_PAIRS = _FB["standard"] | _FB["seven_pairs"]
STANDARD_ORPHANS = _FB["standard"] | _FB["thirteen_orphans"]

_CAP4 = np.full(34, 4, np.uint8)
_CAP4.setflags(write=False)
ALL_KINDS = np.ones(34, np.uint8)
ALL_KINDS.setflags(write=False)
_MAX_WILDS = 8


def playable(kinds) -> np.ndarray:
    """A read-only 0/1 mask of the kinds a wildcard may stand for."""
    p = np.zeros(34, np.uint8)
    p[list(kinds)] = 1
    p.setflags(write=False)
    return p


def complete(hand, forms: int, play: np.ndarray = ALL_KINDS) -> bool:
    """The concealed tiles (with their wildcards) of a 14-tile hand form one of ``forms``.

    ``hand`` must hold at most 4 of a kind counting its melds (every :class:`~mjfast.Hand`
    does); kinds a rule does not play must have been ruled out by the caller.  False (not an
    error) for more wildcards than the kernel supports: the caller's slow path decides then.
    """
    w = hand.wilds
    if w > _MAX_WILDS:
        return False
    return _ks.shanten_fast(hand.counts, len(hand.melds), w, _CAP4, play, forms, 0) == -1


def all_pungs(counts) -> bool:
    """The concealed natural tiles (no wildcards) split into pungs and one pair only."""
    c = counts.tobytes()
    return c.count(2) == 1 and c.count(1) == 0 and c.count(4) == 0  # (counts are 0..4)
