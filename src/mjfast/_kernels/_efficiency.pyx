"""Tile-efficiency kernels: 进张 (ukeire), waits, 改良 and the 一进听 combination count.

All of them are loops of single-tile changes around the exact shanten kernel
(:mod:`mjfast._kernels._shanten`), run without the GIL.  Definitions follow
``rules/yijinting.md``: remaining copies are ``cap - own concealed - visible`` (never below
0), and W(t) is the *union* of waits over every discard that keeps the hand ready.
"""
cimport cython
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t
from libc.string cimport memcpy

from mjfast._kernels._shanten cimport Params, params_init, shanten_one, N_KINDS, INF

import numpy as np


cdef inline int remaining(const uint8_t* c, const uint8_t* cap, const int16_t* vis, int k) noexcept nogil:
    cdef int r = <int>cap[k] - <int>c[k] - <int>vis[k]
    return r if r > 0 else 0


cdef int accept_mask(uint8_t* c, int n_melds, int wilds, const Params* prm, int s0, uint8_t* mask) noexcept nogil:
    """mask[k] = 1 for every kind whose draw lowers shanten below ``s0``; returns how many."""
    cdef int k, n = 0
    for k in range(N_KINDS):
        mask[k] = 0
        if not prm.playable[k] or c[k] >= prm.cap[k]:
            continue
        c[k] += 1
        if shanten_one(c, n_melds, wilds, prm) < s0:
            mask[k] = 1
            n += 1
        c[k] -= 1
    return n


cdef int ukeire_count(uint8_t* c, int n_melds, int wilds, const Params* prm, int s0, const int16_t* vis) noexcept nogil:
    cdef uint8_t mask[34]
    cdef int k, total = 0
    accept_mask(c, n_melds, wilds, prm, s0, mask)
    for k in range(N_KINDS):
        if mask[k]:
            total += remaining(c, prm.cap, vis, k)
    return total


cdef void yijinting_core(uint8_t* c, int n_melds, int wilds, const Params* prm, const int16_t* vis,
                         int16_t* rem, int32_t* w_union, int32_t* w_max, uint8_t* ting) noexcept nogil:
    """Per accepting tile t of a 1-shanten 3k+1 hand: rem[t], W(t) (union) and max-W(t).

    ``ting`` collects the union of winning kinds over every t.
    """
    cdef uint8_t wait_d[34]
    cdef uint8_t union_t[34]
    cdef int t, d, w, wd, wu
    for t in range(N_KINDS):
        rem[t] = 0
        w_union[t] = 0
        w_max[t] = 0
        ting[t] = 0
    for t in range(N_KINDS):
        if not prm.playable[t] or c[t] >= prm.cap[t] or remaining(c, prm.cap, vis, t) == 0:
            continue
        c[t] += 1
        if shanten_one(c, n_melds, wilds, prm) == 0:
            rem[t] = remaining(c, prm.cap, vis, t) + 1   # copies before this draw
            for w in range(N_KINDS):
                union_t[w] = 0
            for d in range(N_KINDS):
                if c[d] == 0:
                    continue
                c[d] -= 1
                if shanten_one(c, n_melds, wilds, prm) == 0:
                    accept_mask(c, n_melds, wilds, prm, 0, wait_d)
                    wd = 0
                    for w in range(N_KINDS):
                        if wait_d[w]:
                            union_t[w] = 1
                            wd += remaining(c, prm.cap, vis, w) - (1 if w == d else 0)
                    if wd > w_max[t]:
                        w_max[t] = wd
                c[d] += 1
            wu = 0
            for w in range(N_KINDS):
                if union_t[w]:
                    ting[w] = 1
                    wu += remaining(c, prm.cap, vis, w)   # copies after the draw of t
            w_union[t] = wu
        c[t] -= 1


cdef inline void check_hand(const uint8_t[::1] counts, const uint8_t[::1] cap, const int16_t[::1] visible) except *:
    cdef int k
    if counts.shape[0] != 34 or cap.shape[0] != 34 or visible.shape[0] != 34:
        raise ValueError("counts, cap and visible must have 34 entries")
    for k in range(34):
        if counts[k] > cap[k] or cap[k] > 4 or visible[k] < 0:
            raise ValueError("each count must be at most its cap (<= 4) and visible counts >= 0")


def ukeire_kernel(const uint8_t[::1] counts, int n_melds, int wilds, const uint8_t[::1] cap,
                  const uint8_t[::1] playable, int forms, int options, const int16_t[::1] visible,
                  uint8_t[::1] accept,   # OUT uint8[34]
                  int16_t[::1] rem):     # OUT int16[34]: remaining copies of every kind
    """Shanten of a 3k+1 hand and the kinds whose draw lowers it."""
    cdef Params prm
    cdef uint8_t c[34]
    cdef int s0, k
    check_hand(counts, cap, visible)
    if accept.shape[0] != 34 or rem.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("accept, rem and playable must have 34 entries")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    memcpy(c, &counts[0], 34)
    with nogil:
        s0 = shanten_one(c, n_melds, wilds, &prm)
        if s0 < INF:
            accept_mask(c, n_melds, wilds, &prm, s0, &accept[0])
        for k in range(34):
            rem[k] = remaining(c, prm.cap, &visible[0], k)
    return s0


def yijinting_kernel(const uint8_t[::1] counts, int n_melds, int wilds, const uint8_t[::1] cap,
                     const uint8_t[::1] playable, int forms, int options, const int16_t[::1] visible,
                     int16_t[::1] rem, int32_t[::1] w_union, int32_t[::1] w_max, uint8_t[::1] ting):
    """一进听 breakdown of a 3k+1 hand (meaningful when its shanten is 1); returns the shanten."""
    cdef Params prm
    cdef uint8_t c[34]
    cdef int s0
    check_hand(counts, cap, visible)
    if rem.shape[0] != 34 or w_union.shape[0] != 34 or w_max.shape[0] != 34 or ting.shape[0] != 34:
        raise ValueError("output arrays must have 34 entries")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    memcpy(c, &counts[0], 34)
    with nogil:
        s0 = shanten_one(c, n_melds, wilds, &prm)
        if s0 == 1:
            yijinting_core(c, n_melds, wilds, &prm, &visible[0], &rem[0], &w_union[0], &w_max[0], &ting[0])
    return s0


def discard_table_kernel(const uint8_t[::1] counts, int n_melds, int wilds, const uint8_t[::1] cap,
                         const uint8_t[::1] playable, int forms, int options, const int16_t[::1] visible,
                         bint with_combos,
                         int8_t[::1] discard,        # OUT (34,) kinds discarded, in kind order
                         int8_t[::1] shanten,        # OUT shanten after the discard
                         uint8_t[:, ::1] accept,     # OUT (34, 34) accepting kinds (= waits when ready)
                         int16_t[::1] ukeire,        # OUT copies of the accepting kinds
                         int32_t[::1] combos,        # OUT 一进听 组合数 (1-shanten rows, else 0)
                         int16_t[::1] improvements): # OUT kinds that keep shanten but widen 进张
    """For every distinct discard of a 3k+2 hand: the resulting 3k+1 hand's figures.

    Remaining copies count the discarded tile as seen (it lies in the player's discards).
    Returns the number of rows written.
    """
    cdef Params prm
    cdef uint8_t c[34]
    cdef int16_t vis[34]
    cdef int16_t rem[34]
    cdef int32_t wu[34]
    cdef int32_t wm[34]
    cdef uint8_t ting[34]
    cdef int d, k, t, d2, row = 0, s, base, best, u, n_impr, total
    check_hand(counts, cap, visible)
    if discard.shape[0] < 34 or shanten.shape[0] < 34 or accept.shape[0] < 34 or accept.shape[1] != 34 \
            or ukeire.shape[0] < 34 or combos.shape[0] < 34 or improvements.shape[0] < 34:
        raise ValueError("output arrays must have room for 34 rows")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    memcpy(c, &counts[0], 34)
    with nogil:
        for d in range(34):
            if c[d] == 0:
                continue
            for k in range(34):
                vis[k] = visible[k]
            vis[d] += 1                       # the discarded copy is seen
            c[d] -= 1
            s = shanten_one(c, 0 + n_melds, wilds, &prm)
            discard[row] = <int8_t>d
            shanten[row] = <int8_t>(s if s < INF else 127)
            combos[row] = 0
            improvements[row] = 0
            ukeire[row] = 0
            for k in range(34):
                accept[row, k] = 0
            if s < INF:
                accept_mask(c, n_melds, wilds, &prm, s, &accept[row, 0])
                base = 0
                for k in range(34):
                    if accept[row, k]:
                        base += remaining(c, prm.cap, vis, k)
                ukeire[row] = <int16_t>base
                if with_combos and s == 1:
                    yijinting_core(c, n_melds, wilds, &prm, vis, rem, wu, wm, ting)
                    total = 0
                    for t in range(34):
                        total += rem[t] * wu[t]
                    combos[row] = total
                if s <= 1:
                    # 改良: draws that keep the shanten but allow a discard with more 进张
                    n_impr = 0
                    for t in range(34):
                        if accept[row, t] or not prm.playable[t] or c[t] >= prm.cap[t] \
                                or remaining(c, prm.cap, vis, t) == 0:
                            continue
                        c[t] += 1
                        best = 0
                        for d2 in range(34):
                            if c[d2] == 0 or d2 == t:
                                continue
                            c[d2] -= 1
                            if shanten_one(c, n_melds, wilds, &prm) == s:
                                u = ukeire_count(c, n_melds, wilds, &prm, s, vis)
                                if u > best:
                                    best = u
                            c[d2] += 1
                        c[t] -= 1
                        if best > base:
                            n_impr += 1
                    improvements[row] = <int16_t>n_impr
            c[d] += 1
            row += 1
    return row
