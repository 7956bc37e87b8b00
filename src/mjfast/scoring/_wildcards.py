"""The checks every wildcard rule's scorer makes of a hand (太仓 百搭, 金华 财神, JJ 混): 吃 only
from 上家, no more wildcards than the rule has, and no natural tile of a wildcard kind.

A wildcard rule's tiles of the wild kind are all wildcards (or the flipped indicator, out of
play): a hand gives the ones it holds as ``Hand(..., wilds=n)``, so a natural tile of that kind in
the concealed part or in a meld is a hand no table can deal — it is a ``ValueError`` naming the
tile, never scored as if it were an ordinary tile.
"""
from __future__ import annotations

from .. import tiles as _t

__all__ = ["check_chows_from_left", "check_wild_tiles"]


def check_chows_from_left(melds, label: str) -> None:
    """A chow may be called from 上家 only (``source`` ``"left"``, or None when not given).

    Examples
    --------
    >>> from mjfast import Meld
    >>> check_chows_from_left([Meld("chow", (0, 1, 2), source="left", claimed=0)], "太仓")
    >>> check_chows_from_left([Meld("chow", (0, 1, 2), source="right", claimed=0)], "太仓")
    Traceback (most recent call last):
    ...
    ValueError: 太仓 allows 吃 only from 上家 (left); meld 123m@right is not allowed
    """
    for m in melds:
        if m.kind == "chow" and m.source not in (None, "left"):
            raise ValueError(f"{label} allows 吃 only from 上家 (left); meld {m} is not allowed")


def check_wild_tiles(hand, *, label: str, name: str, copies: int, wild=(), why: str = "",
                     substitutes: int = 0, kong_ok: bool = False, note: str = "",
                     indicator: int | None = None) -> None:
    """The wildcards of ``hand`` are ones the rule has.

    Parameters
    ----------
    hand : Hand
    label : str
        The rule's name in the messages (``"太仓"``).
    name : str
        The wildcard's local name (百搭, 财神, 混).
    copies : int
        Wildcard tiles in play: ``hand.wilds`` (plus a 混杠's tiles, ``kong_ok``) may not exceed it.
    wild : iterable of int
        The tile ids of this hand's wild kinds, when known (bonus faces are ignored here).
    why : str
        How the wild kinds were chosen, for the messages (``" (flipped 9m)"``).
    substitutes : int
        Natural tiles of the wild kind that stand for another face and are no wildcards (金华's
        白板 playing as the 财神's face): that many are allowed.
    kong_ok : bool
        A kong meld of the wild kind is the wildcards themselves (JJ 混杠): its tiles count
        towards ``copies``, not as natural tiles.
    note : str
        Appended to the natural-tile message (a spec id).
    indicator : int, optional
        The flipped indicator's tile id: it is out of play, so at most three tiles of its kind
        (when that kind is not wild) are in the hand and its melds.

    Raises
    ------
    ValueError
        More wildcards than ``copies``, a natural tile of a wild kind, or four tiles of the
        flipped indicator's kind.

    Examples
    --------
    >>> from mjfast import Hand
    >>> check_wild_tiles(Hand("123m456p789s23s5p", wilds=1), label="JJ", name="混", copies=4,
    ...                  wild=(27,))
    >>> check_wild_tiles(Hand("123m456p789s5p", wilds=1, melds=["111z@left"]), label="JJ",
    ...                  name="混", copies=4, wild=(27,), why=" (hun_kind 1z)")
    Traceback (most recent call last):
    ...
    ValueError: 1z is this hand's 混 (hun_kind 1z): its tiles are wildcards (count them in wilds=), not natural tiles in the hand or in melds; the hand holds 3
    """
    in_kong = 0
    seen = None
    for t in wild:
        if t >= _t.N_KINDS:
            continue
        if seen is None:
            seen = hand.counts + hand.meld_counts
        n = int(seen[t])
        if kong_ok:
            k = sum(len(m.tiles) for m in hand.melds if m.is_kong and m.tiles[0] == t)
            in_kong += k
            n -= k
        if n > substitutes:
            raise ValueError(f"{_t.CODES[t]} is this hand's {name}{why}: its tiles are wildcards "
                             "(count them in wilds=), not natural tiles in the hand or in melds; "
                             f"the hand holds {n}{note}")
    if indicator is not None and indicator < _t.N_KINDS and indicator not in wild \
            and hand.counts[indicator] + hand.meld_counts[indicator] > 3:
        code = _t.CODES[indicator]
        raise ValueError(f"4 copies of {code} in the hand, but one is the flipped indicator")
    w = hand.wilds
    if w + in_kong > copies:
        held = f"{w} wildcards (wilds={w})" + (f" and a 混杠 of {in_kong}" if in_kong else "")
        raise ValueError(f"{held}; {label} has {copies} {name} tiles{why}")
