"""Tile-efficiency kernels: 进张 (ukeire), waits, 改良 and the 一进听 combination count.

All of them are loops of single-tile changes around the exact shanten kernel
(:mod:`mjfast._kernels._shanten`), run without the GIL.  Definitions follow
``rules/yijinting.md``: remaining copies are ``cap - own concealed - visible`` (never below
0), and W(t) is the *union* of waits over every discard that keeps the hand ready.

In the common case (every kind natural, no wildcards, forms among standard / seven pairs /
thirteen orphans) the accepting kinds of a hand come from the accept tables of
:mod:`mjfast._kernels._tables` in one pass: a draw lowers a form's deficit by one at most, so a
kind accepts exactly when it lowers the deficit of its group within a split that attains the
hand's minimum.  Elsewhere each of the 34 draws is evaluated by the shanten kernel.
"""
cimport cython
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, uint16_t, uint64_t, int8_t, int16_t, int32_t
from libc.string cimport memcpy

from mjfast._kernels._shanten cimport (
    Params, params_init, shanten_one, table_row, N_KINDS, INF,
    F_STANDARD, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS, O_PAIRS_DISTINCT, O_NEED_VOID)
from mjfast._kernels._common cimport POW5, ORPHANS, IS_ORPHAN, ctz64, prefetch

import numpy as np
cimport numpy as cnp
cnp.import_array()


# ---------------------------------------------------------------------------------------
# An evaluator: a hand under single-tile changes.  In the common case (every kind playable
# with 4 natural copies, no wildcards, no 缺一门, forms among standard / seven pairs / thirteen
# orphans) it keeps the four table indices and the seven-pairs / orphan statistics up to date,
# so a shanten after a change costs a few dozen operations; otherwise it calls shanten_one.


# 进张 tables (mjfast._kernels._tables: accept masks per group configuration and split, rows
# in rank order of the configurations with at most MAX_GROUP_TILES tiles), installed at import
cdef enum:
    MAX_GROUP_TILES = 14
    RANK_CHUNK = 3
    CHUNK = 125                # 5 ** RANK_CHUNK configurations of a chunk of kinds
    BUDGETS = MAX_GROUP_TILES + 1
cdef const uint16_t* ACC_SUIT = NULL
cdef const uint16_t* ACC_HONOR = NULL
# rank tables (_tables.rank_split): a few kB, so they stay in cache
cdef int32_t RANK_MID[BUDGETS * CHUNK]
cdef int32_t RANK_MID_BUDGET[BUDGETS * CHUNK]
cdef int32_t RANK_LOW[BUDGETS * CHUNK]
cdef int32_t RANK_HIGH_SUIT[CHUNK]          # kinds 7-9 of a suit
cdef int32_t RANK_HIGH_BUDGET_SUIT[CHUNK]
cdef int32_t RANK_HIGH_HONOR[5]             # the seventh honour
cdef int32_t RANK_HIGH_BUDGET_HONOR[5]
_accept_refs = None


cdef void copy_int32(int32_t* dst, object src, Py_ssize_t n) except *:
    cdef const int32_t[::1] view = np.ascontiguousarray(src, np.int32)
    if view.shape[0] != n:
        raise ValueError("rank tables have the wrong size; rebuild mjfast")
    memcpy(dst, &view[0], n * sizeof(int32_t))


def _install_tables():
    """Point the kernel at the accept tables and copy their rank tables (shapes checked)."""
    global ACC_SUIT, ACC_HONOR, _accept_refs
    from mjfast._kernels import _tables
    if _tables.MAX_GROUP_TILES != MAX_GROUP_TILES or _tables.RANK_CHUNK != RANK_CHUNK:
        raise ValueError("accept tables built for another group layout; rebuild mjfast")
    tables = _tables.load_tables()
    _tables.check_tables(tables)         # accept bits are used as kind indices
    cdef const uint16_t[:, ::1] suit = tables["suit_accept"]
    cdef const uint16_t[:, ::1] honor = tables["honor_accept"]
    if suit.shape[0] != _tables.N_SUIT_ACCEPT or honor.shape[0] != _tables.N_HONOR_ACCEPT \
            or suit.shape[1] != 10 or honor.shape[1] != 10:
        raise ValueError("accept tables have the wrong shape; delete the mjfast cache directory")
    r_suit = _tables.rank_split(9)
    r_honor = _tables.rank_split(7)          # the same mid and low tables
    copy_int32(RANK_MID, r_suit["mid"], BUDGETS * CHUNK)
    copy_int32(RANK_MID_BUDGET, r_suit["mid_budget"], BUDGETS * CHUNK)
    copy_int32(RANK_LOW, r_suit["low"], BUDGETS * CHUNK)
    copy_int32(RANK_HIGH_SUIT, r_suit["high"], CHUNK)
    copy_int32(RANK_HIGH_BUDGET_SUIT, r_suit["high_budget"], CHUNK)
    copy_int32(RANK_HIGH_HONOR, r_honor["high"], 5)
    copy_int32(RANK_HIGH_BUDGET_HONOR, r_honor["high_budget"], 5)
    _accept_refs = (suit, honor)
    ACC_SUIT = &suit[0, 0]
    ACC_HONOR = &honor[0, 0]


_install_tables()


cdef inline int group_rank(int idx, const int32_t* high, const int32_t* high_budget) noexcept nogil:
    """Row of the group configuration of table index ``idx`` (at most MAX_GROUP_TILES tiles)
    in its accept table (see ``_tables.rank_split``)."""
    cdef int h = idx // (CHUNK * CHUNK)
    cdef int m = (idx // CHUNK) % CHUNK
    cdef int b = high_budget[h] * CHUNK + m
    return high[h] + RANK_MID[b] + RANK_LOW[RANK_MID_BUDGET[b] * CHUNK + idx % CHUNK]


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline void ev_stats(Eval* ev, int k, int sign) noexcept nogil:
    cdef int x = ev.c[k]
    if ev.distinct:
        ev.pairs += sign * (x >= 2)
        ev.odd += sign * (x == 1)
    else:
        ev.pairs += sign * (x >> 1)
        ev.odd += sign * (x & 1)
    if IS_ORPHAN[k]:
        ev.orph += sign * (x >= 1)
        ev.orph_pair += sign * (x >= 2)


cdef void ev_init(Eval* ev, const uint8_t* c, int n_melds, int wilds, const Params* prm) noexcept nogil:
    cdef int k, g, i, x, n = wilds, idx
    memcpy(ev.c, c, 34)
    ev.prm = prm
    ev.n_melds = n_melds
    ev.wilds = wilds
    ev.forms = prm.forms
    ev.distinct = (prm.options & O_PAIRS_DISTINCT) != 0
    ev.fast = prm.all_natural and wilds == 0 and not (prm.options & O_NEED_VOID) \
        and (prm.forms & ~(F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS)) == 0
    ev.pairs = 0
    ev.odd = 0
    ev.orph = 0
    ev.orph_pair = 0
    # the statistics ev_stats keeps, in straight passes (no branch per kind)
    if ev.distinct:
        for k in range(34):
            x = c[k]
            n += x
            ev.pairs += x >= 2
            ev.odd += x == 1
    else:
        for k in range(34):
            x = c[k]
            n += x
            ev.pairs += x >> 1
            ev.odd += x & 1
    for k in range(13):
        x = c[ORPHANS[k]]
        ev.orph += x >= 1
        ev.orph_pair += x >= 2
    ev.n = n
    for g in range(4):
        idx = 0
        for i in range(8 if g < 3 else 6, -1, -1):
            idx = idx * 5 + c[9 * g + i]
        ev.idx[g] = idx


cdef inline void ev_add(Eval* ev, int k, int delta) noexcept nogil:
    """Change the count of kind k by delta (+1 / -1); the caller keeps it within 0..cap."""
    ev_stats(ev, k, -1)
    ev.c[k] = <uint8_t>(ev.c[k] + delta)
    ev_stats(ev, k, 1)
    ev.n += delta
    if k < 27:
        ev.idx[k // 9] += delta * POW5[k % 9]
    else:
        ev.idx[3] += delta * POW5[k - 27]


cdef inline int ev_special(const Eval* ev, int kmax, int best) noexcept nogil:
    """``best`` lowered by seven pairs / thirteen orphans, from the running statistics."""
    cdef int d
    if ev.n_melds == 0 and kmax == 4:
        if ev.forms & F_SEVEN_PAIRS:
            d = seven_pairs_need(ev.pairs, ev.odd)
            if d < best:
                best = d
        if ev.forms & F_THIRTEEN_ORPHANS:
            d = 14 - ev.orph - (1 if ev.orph_pair > 0 else 0)
            if d < best:
                best = d
    return best


cdef int ev_shanten(const Eval* ev) noexcept nogil:
    cdef Halves hv
    hv.kmax = -1
    return ev_shanten_h(ev, &hv)


cdef int ev_shanten_h(const Eval* ev, Halves* hv) noexcept nogil:
    """Shanten of the current hand; in fast mode the merged halves kept in ``hv`` are reused."""
    cdef int kmax, best
    if not ev.fast:
        return shanten_one(ev.c, ev.n_melds, ev.wilds, ev.prm)
    if ev.n % 3 == 0:
        return INF
    kmax = (ev.n - 1) // 3 if ev.n % 3 == 1 else (ev.n - 2) // 3
    if kmax > 4:
        return INF
    best = fast_deficit(ev, kmax, hv)
    if best >= INF:
        return INF
    return best - 1


cdef inline int remaining_ev(const Eval* ev, const int16_t* vis, int k) noexcept nogil:
    cdef int r = <int>ev.prm.cap[k] - <int>ev.c[k] - <int>vis[k]
    return r if r > 0 else 0


cdef inline bint drawable(const Eval* ev, int k) noexcept nogil:
    return ev.prm.playable[k] != 0 and ev.c[k] < ev.prm.cap[k]


ctypedef struct Halves:
    int kmax               # the target the halves were merged for (-1: none yet)
    int key[4]             # group table indices they were merged from
    int ab[10]             # merged suits m and p
    int cd[10]             # merged suit s and the honours


cdef inline int fast_deficit(const Eval* ev, int kmax, Halves* h) noexcept nogil:
    """Least deficit over the fast evaluator's forms.  The merged halves are kept in ``h`` and a
    half is merged again only when one of its groups changed (a 改良 loop changes one group at a
    time)."""
    cdef int best = INF
    if ev.forms & F_STANDARD:
        if h.kmax != kmax or h.key[0] != ev.idx[0] or h.key[1] != ev.idx[1]:
            merge_pair(h.ab, table_row(0, ev.idx[0]), table_row(1, ev.idx[1]), kmax)
            h.key[0] = ev.idx[0]
            h.key[1] = ev.idx[1]
        if h.kmax != kmax or h.key[2] != ev.idx[2] or h.key[3] != ev.idx[3]:
            merge_pair(h.cd, table_row(2, ev.idx[2]), table_row(3, ev.idx[3]), kmax)
            h.key[2] = ev.idx[2]
            h.key[3] = ev.idx[3]
        h.kmax = kmax
        best = finish_pair(h.ab, h.cd, kmax)
    return ev_special(ev, kmax, best)


cdef uint64_t fast_bits(const Eval* ev, int kmax, const Halves* h, int best) noexcept nogil:
    """The kinds (bit k) whose draw lowers the deficit ``best`` of the current hand (fast mode).

    A draw lowers the deficit of any form by at most one, so a kind accepts exactly when it
    lowers a form that attains the minimum: for the standard form, the deficit of its own group
    within a (sets, pair) split that attains it.  The accept tables hold, per group
    configuration and split, the kinds whose draw lowers the group's deficit: one lookup per
    group, OR-ed over the splits that attain the minimum.
    """
    cdef unsigned int opt[4]
    cdef const uint8_t* rows[4]
    cdef const uint16_t* acc
    cdef unsigned int acc_bits
    cdef uint64_t bits = 0
    cdef int g, j
    if ev.forms & F_STANDARD and finish_pair(h.ab, h.cd, kmax) == best:
        for g in range(4):
            rows[g] = table_row(g, ev.idx[g])
            opt[g] = 0
        mark_splits(rows[0], rows[1], h.ab, h.cd, kmax, best, &opt[0], &opt[1])
        mark_splits(rows[2], rows[3], h.cd, h.ab, kmax, best, &opt[2], &opt[3])
        for g in range(4):
            if opt[g] == 0:
                continue
            # n <= 13 here (the hand after the draw has at most 14 tiles), so the group is
            # within the accept table's MAX_GROUP_TILES
            if g < 3:
                acc = ACC_SUIT + 10 * group_rank(ev.idx[g], RANK_HIGH_SUIT, RANK_HIGH_BUDGET_SUIT)
            else:
                acc = ACC_HONOR + 10 * group_rank(ev.idx[3], RANK_HIGH_HONOR, RANK_HIGH_BUDGET_HONOR)
            acc_bits = 0
            for j in range(2 * kmax + 2):
                if (opt[g] >> j) & 1:
                    acc_bits |= acc[j]
            bits |= (<uint64_t>acc_bits) << (9 * g)
    if ev.n_melds == 0 and kmax == 4:
        bits |= special_accept_bits(ev.c, ev.pairs, ev.odd, ev.orph, ev.orph_pair, ev.distinct, ev.forms, best)
    return bits


cdef inline int expand_bits(uint64_t bits, uint8_t* mask) noexcept nogil:
    """mask[k] = bit k of ``bits``; returns how many are set."""
    cdef int k, n = 0
    for k in range(N_KINDS):
        mask[k] = (bits >> k) & 1
        n += mask[k]
    return n


cdef int fast_accept(const Eval* ev, int kmax, int target, uint8_t* mask, Halves* hv) noexcept nogil:
    """accept_mask in fast mode: mask[k] = 1 where the deficit after drawing k is below ``target``."""
    cdef int k, n = 0
    cdef int best = fast_deficit(ev, kmax, hv)
    if best >= INF or best > target:
        return expand_bits(0, mask)    # a draw lowers the deficit by one at most
    if best < target:                  # already below the target: every drawable kind "accepts"
        for k in range(N_KINDS):
            mask[k] = ev.c[k] < 4
            n += mask[k]
        return n
    return expand_bits(fast_bits(ev, kmax, hv, best), mask)


cdef inline int incremental_kmax(const Eval* ev) noexcept nogil:
    """Sets in the target after one draw when the fast evaluator applies to it, else -1."""
    cdef int n1 = ev.n + 1, kmax
    if not ev.fast or n1 % 3 == 0:
        return -1
    kmax = (n1 - 1) // 3 if n1 % 3 == 1 else (n1 - 2) // 3
    return kmax if kmax <= 4 else -1


cdef int accept_mask(Eval* ev, int s0, uint8_t* mask) noexcept nogil:
    """mask[k] = 1 for every kind whose draw lowers shanten below ``s0``; returns how many."""
    cdef Halves hv
    hv.kmax = -1
    return accept_mask_h(ev, s0, mask, &hv)


cdef int accept_mask_h(Eval* ev, int s0, uint8_t* mask, Halves* hv) noexcept nogil:
    """accept_mask reusing the merged halves kept in ``hv`` (fast mode)."""
    cdef int k, n = 0
    cdef int kmax = incremental_kmax(ev)
    if kmax >= 0:
        return fast_accept(ev, kmax, s0 + 1, mask, hv)
    for k in range(N_KINDS):
        mask[k] = 0
        if not drawable(ev, k):
            continue
        ev_add(ev, k, 1)
        if ev_shanten(ev) < s0:
            mask[k] = 1
            n += 1
        ev_add(ev, k, -1)
    return n


cdef inline void prefetch_rows(const Eval* ev) noexcept nogil:
    """Start the loads of the hand's table rows, natural and accept, before they are read: on a
    cold cache (a loop over many hands) the misses then overlap instead of queueing.  A row may
    straddle two cache lines, so both of its ends are named."""
    cdef int g
    cdef const uint8_t* row
    cdef const uint16_t* acc
    for g in range(4):
        row = table_row(g, ev.idx[g])
        prefetch(row)
        prefetch(row + 9)
        if g < 3:
            acc = ACC_SUIT + 10 * group_rank(ev.idx[g], RANK_HIGH_SUIT, RANK_HIGH_BUDGET_SUIT)
        else:
            acc = ACC_HONOR + 10 * group_rank(ev.idx[3], RANK_HIGH_HONOR, RANK_HIGH_BUDGET_HONOR)
        prefetch(acc)
        prefetch(acc + 9)


cdef int shanten_bits(Eval* ev, uint64_t* bits) noexcept nogil:
    """Shanten of a 3k+1 hand (INF when no form applies), and its accepting kinds (bit k)."""
    cdef uint8_t mask[34]
    cdef Halves hv
    cdef int k, d, s0
    cdef int kmax = incremental_kmax(ev)
    bits[0] = 0
    if kmax >= 0 and ev.n % 3 == 1:
        prefetch_rows(ev)
        hv.kmax = -1
        d = fast_deficit(ev, kmax, &hv)
        if d >= INF:
            return INF
        bits[0] = fast_bits(ev, kmax, &hv, d)
        return d - 1
    s0 = ev_shanten(ev)
    if s0 < INF:
        accept_mask(ev, s0, mask)
        for k in range(N_KINDS):
            bits[0] |= (<uint64_t>mask[k]) << k
    return s0


cdef bint widens(Eval* ev, int s0, const int16_t* vis, int bound, Halves* hv) noexcept nogil:
    """Whether the current 3k+1 hand keeps shanten ``s0`` with a 进张 (copies left of its
    accepting kinds) above ``bound``: the test of a 改良 draw-and-discard.  ``hv`` carries the
    merged halves from one call to the next."""
    cdef int k, d, total = 0
    cdef uint64_t bits
    cdef int kmax = incremental_kmax(ev)
    if kmax >= 0 and ev.n % 3 == 1:
        d = fast_deficit(ev, kmax, hv)
        if d >= INF or d - 1 != s0:
            return False
        bits = fast_bits(ev, kmax, hv, d)
    elif shanten_bits(ev, &bits) != s0:
        return False
    while bits:
        k = ctz64(bits)
        bits &= bits - 1
        total += remaining_ev(ev, vis, k)
        if total > bound:
            return True
    return False


cdef void yijinting_core(Eval* ev, const int16_t* vis, int16_t* rem, int32_t* w_union, int32_t* w_max,
                         uint8_t* ting) noexcept nogil:
    """Per accepting tile t of a 1-shanten 3k+1 hand: rem[t], W(t) (union) and max-W(t).

    ``ting`` collects the union of winning kinds over every t.
    """
    cdef uint8_t wait_d[34]
    cdef uint8_t union_t[34]
    cdef int t, d, w, wd, wu
    cdef Halves hv
    hv.kmax = -1
    for t in range(N_KINDS):
        rem[t] = 0
        w_union[t] = 0
        w_max[t] = 0
        ting[t] = 0
    for t in range(N_KINDS):
        if not drawable(ev, t) or remaining_ev(ev, vis, t) == 0:
            continue
        ev_add(ev, t, 1)
        if ev_shanten_h(ev, &hv) == 0:
            rem[t] = remaining_ev(ev, vis, t) + 1   # copies before this draw
            for w in range(N_KINDS):
                union_t[w] = 0
            for d in range(N_KINDS):
                if ev.c[d] == 0:
                    continue
                ev_add(ev, d, -1)
                if ev_shanten_h(ev, &hv) == 0:
                    accept_mask_h(ev, 0, wait_d, &hv)
                    wd = 0
                    for w in range(N_KINDS):
                        if wait_d[w]:
                            union_t[w] = 1
                            wd += remaining_ev(ev, vis, w) - (1 if w == d else 0)
                    if wd > w_max[t]:
                        w_max[t] = wd
                ev_add(ev, d, 1)
            wu = 0
            for w in range(N_KINDS):
                if union_t[w]:
                    ting[w] = 1
                    wu += remaining_ev(ev, vis, w)   # copies after the draw of t
            w_union[t] = wu
        ev_add(ev, t, -1)


cdef inline void check_hand(const uint8_t[::1] counts, const uint8_t[::1] cap, const int16_t[::1] visible) except *:
    cdef int k
    if counts.shape[0] != 34 or cap.shape[0] != 34 or visible.shape[0] != 34:
        raise ValueError("counts, cap and visible must have 34 entries")
    for k in range(34):
        if counts[k] > cap[k] or cap[k] > 4 or visible[k] < 0:
            raise ValueError("each count must be at most its cap (<= 4) and visible counts >= 0")


cdef int16_t NO_VISIBLE[34]
NO_VISIBLE[:] = [0] * 34


cdef inline const void* array_34(object a, int typenum, str name) except NULL:
    """Data pointer of a C-contiguous 34-entry array of the given type (no buffer acquisition)."""
    if not cnp.PyArray_Check(a):
        raise ValueError(f"{name} must be a numpy array of 34 entries")
    cdef cnp.ndarray arr = <cnp.ndarray>a
    if cnp.PyArray_TYPE(arr) != typenum or cnp.PyArray_SIZE(arr) != 34 or cnp.PyArray_NDIM(arr) != 1 \
            or not cnp.PyArray_IS_C_CONTIGUOUS(arr):
        raise ValueError(f"{name} must be a C-contiguous numpy array of 34 entries of the right type")
    return cnp.PyArray_DATA(arr)


def ukeire_dict(object counts, int n_melds, int wilds, object cap, object playable, int forms, int options,
                object visible, tuple names):
    """进张 of a 3k+1 hand for the per-hand API: ``(shanten, {name: copies left}, total)``.

    Kinds with no copies left are omitted.  ``visible`` may be None (nothing seen elsewhere).
    """
    cdef const uint8_t* c = <const uint8_t*>array_34(counts, cnp.NPY_UINT8, "counts")
    cdef const uint8_t* cp = <const uint8_t*>array_34(cap, cnp.NPY_UINT8, "cap")
    cdef const uint8_t* pl = <const uint8_t*>array_34(playable, cnp.NPY_UINT8, "playable")
    cdef const int16_t* vis = &NO_VISIBLE[0] if visible is None else \
        <const int16_t*>array_34(visible, cnp.NPY_INT16, "visible")
    cdef Params prm
    cdef Eval ev
    cdef uint8_t mask[34]
    cdef int s0, k, r, total = 0
    if len(names) != 34:
        raise ValueError("names must have 34 entries")
    for k in range(34):
        if c[k] > cp[k] or cp[k] > 4 or vis[k] < 0:
            raise ValueError("each count must be at most its cap (<= 4) and visible counts >= 0")
    params_init(&prm, cp, pl, forms, options)
    with nogil:
        ev_init(&ev, c, n_melds, wilds, &prm)
    if ev.n % 3 != 1 or ev.n + 3 * n_melds > 13:
        raise ValueError(f"this function needs a 3k+1 (e.g. 13)-tile hand; got {ev.n} tiles in hand "
                         f"(+{n_melds} melds)")
    with nogil:
        s0 = ev_shanten(&ev)
        if s0 < INF:
            accept_mask(&ev, s0, mask)
    tiles = {}
    if s0 < INF:
        for k in range(34):
            if mask[k]:
                r = remaining_ev(&ev, vis, k)
                if r > 0:
                    tiles[names[k]] = r
                    total += r
    return s0, tiles, total


#: The 34 kind names (mpsz) the records and tables use.
cdef tuple _kind_names = tuple([f"{k % 9 + 1}{'mpsz'[k // 9]}" for k in range(34)])


cdef object ukeire_record(const Params* prm, const uint8_t* c, int n_melds, int wilds):
    """进张 of a 3k+1 hand under ``prm`` (own tiles and melds subtracted only) as an
    :class:`Ukeire`, or None when the hand is not 3k+1 with at most 13 tiles counting each meld
    as 3, or no form applies (the caller's general path explains those).  The caller checks the
    counts against the caps."""
    cdef Eval ev
    cdef uint64_t bits
    cdef int s0, k, r
    cdef Ukeire u
    ev_init(&ev, c, n_melds, wilds, prm)
    if ev.n % 3 != 1 or ev.n + 3 * n_melds > 13:
        return None
    s0 = shanten_bits(&ev, &bits)
    if s0 >= INF:
        return None
    u = Ukeire.__new__(Ukeire)
    u.shanten = s0
    u.count = 0
    u.wild_accept = 0
    u._bits = 0
    while bits:
        k = ctz64(bits)
        bits &= bits - 1
        r = remaining_ev(&ev, NO_VISIBLE, k)
        if r > 0:                      # a kind with no copies left is not 进张
            u._bits |= (<uint64_t>1) << k
            u._left[k] = <uint8_t>r
            u.count += r
    return u


@cython.freelist(16)
cdef class Ukeire:
    """进张 of a 3k+1 hand: an immutable record that unpacks and compares like the named tuple
    ``(shanten, tiles, count, wild_accept)``.

    The hot path stores the kernel's result and builds the ``tiles`` dict on first access, so
    loops that read ``count`` or ``shanten`` only never pay for it.

    Attributes
    ----------
    shanten : int
    tiles : dict[str, int]
        Accepting kind (mpsz) → remaining copies (kinds with none left are omitted).
    count : int
        进张数: total remaining copies of the accepting kinds.
    wild_accept : int
        Wildcard copies still to come (each accepts); not included in ``count``.
    """

    cdef readonly int shanten
    cdef readonly int count
    cdef readonly int wild_accept
    cdef object _tiles               # the dict, once built (or as given)
    cdef uint64_t _bits              # accepting kinds with copies left, until then
    cdef uint8_t _left[34]

    _fields = ("shanten", "tiles", "count", "wild_accept")

    def __init__(self, int shanten, dict tiles, int count, int wild_accept=0):
        self.shanten = shanten
        self._tiles = tiles
        self.count = count
        self.wild_accept = wild_accept

    @property
    def tiles(self):
        cdef int k
        cdef uint64_t bits = self._bits
        if self._tiles is None:
            self._tiles = {}
            while bits:
                k = ctz64(bits)
                bits &= bits - 1
                self._tiles[_kind_names[k]] = self._left[k]
        return self._tiles

    def _astuple(self):
        return (self.shanten, self.tiles, self.count, self.wild_accept)

    def _asdict(self):
        return dict(zip(self._fields, self._astuple()))

    def _replace(self, **changes):
        return Ukeire(**{**self._asdict(), **changes})

    def __iter__(self):
        return iter(self._astuple())

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self._astuple()[i]

    def __eq__(self, other):
        if isinstance(other, (Ukeire, tuple)):
            return self._astuple() == tuple(other)
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, (Ukeire, tuple)):
            return self._astuple() != tuple(other)
        return NotImplemented

    def __hash__(self):
        return hash(self._astuple())   # a TypeError, as for the tuple: ``tiles`` is a dict

    def __reduce__(self):
        return (Ukeire, self._astuple())

    def __repr__(self):
        return f"Ukeire(shanten={self.shanten}, count={self.count}, tiles={' '.join(self.tiles)})"


def ukeire_kernel(const uint8_t[::1] counts, int n_melds, int wilds, const uint8_t[::1] cap,
                  const uint8_t[::1] playable, int forms, int options, const int16_t[::1] visible,
                  uint8_t[::1] accept,   # OUT uint8[34]
                  int16_t[::1] rem):     # OUT int16[34]: remaining copies of every kind
    """Shanten of a 3k+1 hand and the kinds whose draw lowers it."""
    cdef Params prm
    cdef Eval ev
    cdef int s0, k
    check_hand(counts, cap, visible)
    if accept.shape[0] != 34 or rem.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("accept, rem and playable must have 34 entries")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    with nogil:
        ev_init(&ev, &counts[0], n_melds, wilds, &prm)
        s0 = ev_shanten(&ev)
        if s0 < INF:
            accept_mask(&ev, s0, &accept[0])
        for k in range(34):
            rem[k] = remaining_ev(&ev, &visible[0], k)
    return s0


def yijinting_kernel(const uint8_t[::1] counts, int n_melds, int wilds, const uint8_t[::1] cap,
                     const uint8_t[::1] playable, int forms, int options, const int16_t[::1] visible,
                     int16_t[::1] rem, int32_t[::1] w_union, int32_t[::1] w_max, uint8_t[::1] ting):
    """一进听 breakdown of a 3k+1 hand (meaningful when its shanten is 1); returns the shanten."""
    cdef Params prm
    cdef Eval ev
    cdef int s0
    check_hand(counts, cap, visible)
    if rem.shape[0] != 34 or w_union.shape[0] != 34 or w_max.shape[0] != 34 or ting.shape[0] != 34:
        raise ValueError("output arrays must have 34 entries")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    with nogil:
        ev_init(&ev, &counts[0], n_melds, wilds, &prm)
        s0 = ev_shanten(&ev)
        if s0 == 1:
            yijinting_core(&ev, &visible[0], &rem[0], &w_union[0], &w_max[0], &ting[0])
    return s0


cdef enum:
    MPSZ_WIDTH = 40
cdef char* SUIT_LETTERS = b"mpsz"


cdef void write_mpsz(uint64_t kinds, char* out) noexcept nogil:
    """Write the kinds set in ``kinds`` (bit k) as canonical mpsz text (e.g. ``2345678m3456s``),
    zero-padded to MPSZ_WIDTH bytes (34 kinds take at most 38)."""
    cdef int g, k, j = 0, lo, hi
    cdef bint any_in_group
    for g in range(4):
        lo = 9 * g
        hi = lo + (9 if g < 3 else 7)
        any_in_group = False
        for k in range(lo, hi):
            if (kinds >> k) & 1:
                out[j] = <char>(49 + k - lo)   # '1' + number - 1
                j += 1
                any_in_group = True
        if any_in_group:
            out[j] = SUIT_LETTERS[g]
            j += 1
    while j < MPSZ_WIDTH:
        out[j] = 0
        j += 1


ctypedef struct DiscardTable:
    int n                  # rows: one per distinct discard
    int order[34]          # row indices, best first
    int8_t disc[34]        # discarded kind
    int8_t sh[34]          # shanten after the discard (INF: no form applies)
    int16_t kinds[34]      # accepting kinds with copies left (= waits when ready)
    int16_t uk[34]         # their copies left
    int32_t cb[34]         # 一进听 组合数 (1-shanten rows, else 0)
    int16_t imp[34]        # 改良: kinds that keep the shanten but widen 进张
    uint64_t acc[34]       # accepting kinds with copies left (bit k)


cdef inline bint row_before(const DiscardTable* t, int a, int b) noexcept nogil:
    """Best-first order: shanten up, then 进张 down, then 组合 down, then the tile."""
    if t.sh[a] != t.sh[b]:
        return t.sh[a] < t.sh[b]
    if t.uk[a] != t.uk[b]:
        return t.uk[a] > t.uk[b]
    if t.cb[a] != t.cb[b]:
        return t.cb[a] > t.cb[b]
    return t.disc[a] < t.disc[b]


cdef void discard_rows(const uint8_t* counts, int n_melds, int wilds, const Params* prm,
                       const int16_t* visible, bint with_combos, DiscardTable* out) noexcept nogil:
    """For every distinct discard of a 3k+2 hand: the resulting 3k+1 hand's figures, sorted.

    Remaining copies count the discarded tile as seen (it lies in the player's discards).
    """
    cdef Eval ev
    cdef int16_t vis[34]
    cdef int16_t rem[34]
    cdef int32_t wu[34]
    cdef int32_t wm[34]
    cdef uint8_t ting[34]
    cdef uint64_t bits
    cdef Halves halves
    cdef int d, k, t, d2, row = 0, s, base, n_impr, total, i, j, tmp
    cdef bint u
    halves.kmax = -1
    ev_init(&ev, counts, n_melds, wilds, prm)
    for k in range(34):
        vis[k] = visible[k]
    for d in range(34):
        if ev.c[d] == 0:
            continue
        vis[d] += 1                       # the discarded copy is seen
        ev_add(&ev, d, -1)
        s = shanten_bits(&ev, &bits)
        out.disc[row] = <int8_t>d
        out.sh[row] = <int8_t>(s if s < INF else 127)
        out.cb[row] = 0
        out.imp[row] = 0
        out.uk[row] = 0
        out.kinds[row] = 0
        out.acc[row] = 0
        if s < INF:
            base = 0
            while bits:
                k = ctz64(bits)
                bits &= bits - 1
                if remaining_ev(&ev, vis, k) > 0:   # a kind with no copies left is not 进张
                    out.acc[row] |= (<uint64_t>1) << k
                    base += remaining_ev(&ev, vis, k)
                    out.kinds[row] += 1
            out.uk[row] = <int16_t>base
            if with_combos and s == 1:
                yijinting_core(&ev, vis, rem, wu, wm, ting)
                total = 0
                for t in range(34):
                    total += rem[t] * wu[t]
                out.cb[row] = total
            if s <= 1:
                # 改良: draws that keep the shanten but allow a discard with more 进张
                n_impr = 0
                for t in range(34):
                    if (out.acc[row] >> t) & 1 or not drawable(&ev, t) or remaining_ev(&ev, vis, t) == 0:
                        continue
                    ev_add(&ev, t, 1)
                    for d2 in range(34):
                        if ev.c[d2] == 0 or d2 == t:
                            continue
                        ev_add(&ev, d2, -1)
                        u = widens(&ev, s, vis, base, &halves)
                        ev_add(&ev, d2, 1)
                        if u:
                            n_impr += 1     # one widening discard is enough to count t
                            break
                    ev_add(&ev, t, -1)
                out.imp[row] = <int16_t>n_impr
        ev_add(&ev, d, 1)
        vis[d] -= 1
        row += 1
    out.n = row
    # insertion sort of at most 34 rows, best first
    for i in range(row):
        out.order[i] = i
    for i in range(1, row):
        tmp = out.order[i]
        j = i - 1
        while j >= 0 and row_before(out, tmp, out.order[j]):
            out.order[j + 1] = out.order[j]
            j -= 1
        out.order[j + 1] = tmp


cdef object _S2 = np.dtype("S2")
cdef object _S_TEXT = np.dtype(f"S{MPSZ_WIDTH}")


cdef dict table_columns(const DiscardTable* t):
    """The discard table as the columns of :func:`mjfast.analyze_discards` (``as_frame=False``)."""
    cdef cnp.npy_intp n = t.n
    cdef int i, j, d
    disc = np.empty(n, _S2)
    text = np.empty(n, _S_TEXT)
    waits = np.zeros(n, _S_TEXT)
    sh = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT8, 0)
    kinds = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT16, 0)
    uk = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT16, 0)
    cb = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT32, 0)
    wc = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT16, 0)
    imp = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT16, 0)
    cdef char* p_disc = <char*>cnp.PyArray_DATA(disc)
    cdef char* p_text = <char*>cnp.PyArray_DATA(text)
    cdef char* p_waits = <char*>cnp.PyArray_DATA(waits)
    cdef int8_t* p_sh = <int8_t*>cnp.PyArray_DATA(sh)
    cdef int16_t* p_kinds = <int16_t*>cnp.PyArray_DATA(kinds)
    cdef int16_t* p_uk = <int16_t*>cnp.PyArray_DATA(uk)
    cdef int32_t* p_cb = <int32_t*>cnp.PyArray_DATA(cb)
    cdef int16_t* p_wc = <int16_t*>cnp.PyArray_DATA(wc)
    cdef int16_t* p_imp = <int16_t*>cnp.PyArray_DATA(imp)
    for i in range(t.n):
        j = t.order[i]
        d = t.disc[j]
        p_disc[2 * i] = <char>(49 + (d % 9 if d < 27 else d - 27))
        p_disc[2 * i + 1] = SUIT_LETTERS[d // 9 if d < 27 else 3]
        p_sh[i] = t.sh[j]
        p_kinds[i] = t.kinds[j]
        p_uk[i] = t.uk[j]
        p_cb[i] = t.cb[j]
        p_imp[i] = t.imp[j]
        write_mpsz(t.acc[j], p_text + MPSZ_WIDTH * i)
        p_wc[i] = t.uk[j] if t.sh[j] == 0 else 0
        if t.sh[j] == 0:
            memcpy(p_waits + MPSZ_WIDTH * i, p_text + MPSZ_WIDTH * i, MPSZ_WIDTH)
    return {"discard": disc, "shanten": sh, "ukeire_kinds": kinds, "ukeire": uk, "ukeire_tiles": text,
            "combos": cb, "waits": waits, "wait_count": wc, "improvement_count": imp}


def discard_table(object counts, int n_melds, int wilds, object cap, object playable, int forms, int options,
                  object visible, bint with_combos):
    """Discard table of a 3k+2 hand as a dict of column arrays, rows best first.

    Parameters
    ----------
    counts, cap, playable : uint8[34]   # IN hand, natural-copy limits, playable mask
    visible : int16[34]                 # IN tiles seen elsewhere
    with_combos : bool                  # IN compute the 一进听 组合数 of 1-shanten rows
    """
    cdef const uint8_t* c = <const uint8_t*>array_34(counts, cnp.NPY_UINT8, "counts")
    cdef const uint8_t* cp = <const uint8_t*>array_34(cap, cnp.NPY_UINT8, "cap")
    cdef const uint8_t* pl = <const uint8_t*>array_34(playable, cnp.NPY_UINT8, "playable")
    cdef const int16_t* vis = <const int16_t*>array_34(visible, cnp.NPY_INT16, "visible")
    cdef Params prm
    cdef DiscardTable table
    cdef int k
    for k in range(34):
        if c[k] > cp[k] or cp[k] > 4 or vis[k] < 0:
            raise ValueError("each count must be at most its cap (<= 4) and visible counts >= 0")
    params_init(&prm, cp, pl, forms, options)
    with nogil:
        discard_rows(c, n_melds, wilds, &prm, vis, with_combos, &table)
    return table_columns(&table)


cdef dict discard_columns(const Params* prm, const uint8_t* c, int n_melds, int wilds, bint with_combos):
    """The discard table of a 3k+2 hand under ``prm`` with nothing seen elsewhere, as the columns
    of :func:`discard_table`.  The caller checks the counts against the caps and the size."""
    cdef DiscardTable table
    with nogil:
        discard_rows(c, n_melds, wilds, prm, NO_VISIBLE, with_combos, &table)
    return table_columns(&table)


def ukeire_batch_kernel(const uint8_t[:, ::1] counts,   # IN (n, 34)
                        const int8_t[::1] n_melds,      # IN (n,)
                        const int8_t[::1] wilds,        # IN (n,)
                        const uint8_t[::1] cap, const uint8_t[::1] playable,
                        int forms, int options,
                        int8_t[::1] shanten,            # OUT (n,)
                        int16_t[::1] ukeire,            # OUT (n,) copies of the accepting kinds
                        int8_t[::1] kinds,              # OUT (n,) accepting kinds with copies left
                        int n_threads=1, names=None):
    """进张 of every 3k+1 row (own tiles subtracted only); releases the GIL over rows."""
    cdef Params prm
    cdef Py_ssize_t i, j, n = counts.shape[0]
    cdef int size
    if counts.shape[1] != 34 or cap.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("counts must have 34 columns; cap and playable 34 entries")
    if n_melds.shape[0] != n or wilds.shape[0] != n or shanten.shape[0] != n or ukeire.shape[0] != n \
            or kinds.shape[0] != n:
        raise ValueError("n_melds, wilds and the outputs must have one entry per row")
    for j in range(34):
        if cap[j] > 4:
            raise ValueError("caps must be at most 4")
    for i in range(n):
        size = wilds[i]
        for j in range(34):
            size += counts[i, j]
            if counts[i, j] > cap[j]:
                name = names[j] if names is not None else f"kind {j}"
                raise ValueError(f"row {i}: {counts[i, j]} copies of {name}, but at most {cap[j]} are in play")
        if wilds[i] < 0 or wilds[i] > 8:
            raise ValueError(f"row {i}: wilds must be between 0 and 8")
        if n_melds[i] < 0 or n_melds[i] > 4 or size % 3 != 1 or size + 3 * n_melds[i] > 13:
            raise ValueError(f"row {i}: {size} tiles in hand with {n_melds[i]} melds is not a 3k+1 hand "
                             f"of at most 13 tiles counting each meld as 3")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    for i in prange(n, nogil=True, schedule="static", num_threads=max(1, n_threads)):
        ukeire_row(&counts[i, 0], n_melds[i], wilds[i], &prm, &shanten[i], &ukeire[i], &kinds[i])


cdef void ukeire_row(const uint8_t* c, int n_melds, int wilds, const Params* prm,
                     int8_t* shanten, int16_t* ukeire, int8_t* kinds) noexcept nogil:
    """One row of ukeire_batch_kernel; its scratch lives on this thread's stack."""
    cdef Eval ev
    cdef uint64_t bits
    cdef int s0, k, r, total = 0, nk = 0
    ev_init(&ev, c, n_melds, wilds, prm)
    s0 = shanten_bits(&ev, &bits)
    while bits:
        k = ctz64(bits)
        bits &= bits - 1
        r = remaining_ev(&ev, NO_VISIBLE, k)
        if r > 0:
            total += r
            nk += 1
    shanten[0] = <int8_t>(s0 if s0 < INF else 127)
    ukeire[0] = <int16_t>total
    kinds[0] = <int8_t>nk
