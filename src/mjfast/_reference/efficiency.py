"""Reference tile efficiency: 进张 (ukeire), waits and the 一进听 count (rules/yijinting.md).

Everything is defined through :func:`mjfast._reference.shanten.shanten` by trying every
draw and every discard. Only natural tiles are drawn; a drawn wildcard is not reported.

``remaining(t) = max(0, caps[t] - counts[t] - visible[t])``: copies of ``t`` the player has
not seen (own concealed tiles, own melds through ``caps``, and ``visible`` = discards and
other players' melds). A natural ``t`` can be drawn only if ``counts[t] < caps[t]``.
"""

from __future__ import annotations

import numpy as np

from .shanten import N_KINDS, shanten

__all__ = ["ukeire", "waits", "yijinting"]


def _arrays(counts, caps, visible):
    c = np.asarray(counts, dtype=np.int64).reshape(-1)
    cap = np.full(N_KINDS, 4, dtype=np.int64) if caps is None else np.asarray(caps, dtype=np.int64)
    vis = np.zeros(N_KINDS, dtype=np.int64) if visible is None else np.asarray(visible, dtype=np.int64)
    return c, cap, vis


def _remaining(c, cap, vis, t) -> int:
    return max(0, int(cap[t] - c[t] - vis[t]))


def _plus(c, t, delta=1):
    out = c.copy()
    out[t] += delta
    return out


def ukeire(counts, n_melds=0, wilds=0, caps=None, visible=None, wild_mask=None, forms=None) -> dict:
    """进张 of a 3k+1 hand: kinds whose draw lowers the shanten, with remaining copies.

    Parameters
    ----------
    counts : sequence of int
        34 concealed natural counts (3k+1 tiles with the wildcards).
    n_melds, wilds, caps, wild_mask
        As in :func:`mjfast._reference.shanten.shanten`.
    visible : sequence of int, optional
        Copies seen elsewhere (discards, other players' melds); default none.
    forms : optional
        Forms as in :func:`~mjfast._reference.shanten.shanten`; default its default.

    Returns
    -------
    dict of int to int
        Kind -> remaining copies; kinds with 0 remaining are not listed.
    """
    c, cap, vis = _arrays(counts, caps, visible)
    if (int(c.sum()) + wilds) % 3 != 1:
        raise ValueError("ukeire needs a 3k+1 hand")
    base = shanten(c, n_melds, wilds, cap, wild_mask, forms)
    out = {}
    for t in range(N_KINDS):
        if c[t] < cap[t] and _remaining(c, cap, vis, t) > 0:
            after = shanten(_plus(c, t), n_melds, wilds, cap, wild_mask, forms)
            if after is not None and (base is None or after < base):
                out[t] = _remaining(c, cap, vis, t)
    return out


def waits(counts, n_melds=0, wilds=0, caps=None, visible=None, wild_mask=None, forms=None) -> dict:
    """Waits of a ready (shanten 0) 3k+1 hand: kinds that complete it, with remaining copies.

    Parameters
    ----------
    counts, n_melds, wilds, caps, visible, wild_mask, forms
        As in :func:`ukeire`.

    Returns
    -------
    dict of int to int
        Kind -> remaining copies. A kind that completes the hand but whose copies are all
        seen elsewhere (``visible``) is still listed, with 0. A kind the player already holds
        ``caps[t]`` of cannot be drawn and is never a wait. Empty if the hand is not ready.
    """
    c, cap, vis = _arrays(counts, caps, visible)
    if (int(c.sum()) + wilds) % 3 != 1:
        raise ValueError("waits needs a 3k+1 hand")
    out = {}
    for t in range(N_KINDS):
        if c[t] < cap[t] and shanten(_plus(c, t), n_melds, wilds, cap, wild_mask, forms) == -1:
            out[t] = _remaining(c, cap, vis, t)
    return out


def yijinting(
    counts, n_melds=0, wilds=0, caps=None, visible=None, wild_mask=None, forms=None, aggregate="union"
) -> dict:
    """一进听 analysis of a 1-shanten 3k+1 hand (rules/yijinting.md §1).

    Parameters
    ----------
    counts, n_melds, wilds, caps, visible, wild_mask, forms
        As in :func:`ukeire`. Fixed sets are passed as melds: ``n_melds`` and ``caps``
        reduced by their tiles.
    aggregate : {"union", "max", "sum"}, default "union"
        How W(t) combines the waits of the ready-keeping discards: the union of the waiting
        kinds (the article's definition), the best single discard, or the sum over discards.

    Returns
    -------
    dict
        ``"tiles"``: kind t -> ``{"remaining": int, "W": int, "discards": {d: tuple of waits}}``
        for every accepting t (drawable, and some discard leaves a ready hand), where
        remaining-after-draw counts the drawn copy as seen;
        ``"ukeire"`` = sum of remaining(t); ``"ting"`` = sum of remaining (before any draw)
        over the union of all winning kinds; ``"combos"`` = sum of remaining(t) * W(t).

    Raises
    ------
    ValueError
        If the hand is not 3k+1 tiles or not 1-shanten.
    """
    if aggregate not in ("union", "max", "sum"):
        raise ValueError("aggregate must be 'union', 'max' or 'sum'")
    c, cap, vis = _arrays(counts, caps, visible)
    if (int(c.sum()) + wilds) % 3 != 1:
        raise ValueError("yijinting needs a 3k+1 hand")
    memo: dict = {}

    def sh(vec):  # shanten of a concealed vector, memoised within this call
        key = tuple(int(x) for x in vec)
        if key not in memo:
            memo[key] = shanten(vec, n_melds, wilds, cap, wild_mask, forms)
        return memo[key]

    if sh(c) != 1:
        raise ValueError("yijinting needs a 1-shanten hand")
    tiles, all_waits = {}, set()
    for t in range(N_KINDS):
        if c[t] >= cap[t]:
            continue
        drawn = _plus(c, t)
        discards = {}
        for d in range(N_KINDS):
            if drawn[d] == 0:
                continue
            kept = _plus(drawn, d, -1)
            if sh(kept) == 0:  # ready: its waits are the kinds whose draw completes it
                discards[d] = tuple(k for k in range(N_KINDS) if kept[k] < cap[k] and sh(_plus(kept, k)) == -1)
        if not discards:
            continue

        def copies(kinds):
            return sum(_remaining(drawn, cap, vis, k) for k in kinds)

        if aggregate == "union":
            w_t = copies(set().union(*discards.values()))
        elif aggregate == "max":
            w_t = max(copies(ws) for ws in discards.values())
        else:
            w_t = sum(copies(ws) for ws in discards.values())
        tiles[t] = {"remaining": _remaining(c, cap, vis, t), "W": w_t, "discards": discards}
        all_waits |= set().union(*discards.values())
    return {
        "tiles": tiles,
        "ukeire": sum(v["remaining"] for v in tiles.values()),
        "ting": sum(_remaining(c, cap, vis, k) for k in all_waits),
        "combos": sum(v["remaining"] * v["W"] for v in tiles.values()),
    }
