"""Exact shanten kernel.

A hand's shanten is ``r - 1`` where ``r``, the replacement number, is the least number of
tiles that must be drawn (and discarded) to reach a complete target ``T``:
``r = min_T sum_i max(0, T[i] - h[i])``.  Targets respect the physical limits: at most
``cap[i]`` natural tiles of kind ``i`` (copies in the tile set minus tiles in the player's
melds), nothing of a kind the rule does not play, and a wildcard may stand for any playable
kind — including a copy beyond the natural ones ("overflow", e.g. the fifth 1m).  With ``w``
wildcards held, the replacement number is ``min_T deficit(T) - w`` over targets whose overflow
is at most ``w``; this equals the brute-force minimum over every assignment of the wildcards.

Standard form: the deficit is additive over the three suits and the honours, so each group is
looked up in a precomputed table (``_tables``) and the groups are combined by min-plus over
(sets, pair, overflow).  A group whose kinds are capped (melds, absent kinds, a wildcard's own
face) or where overflow could help is solved exactly by a small dynamic programme over its
kinds instead.  Special forms are small choice problems solved directly.

Honour chows (option ``O_HONOUR_CHOWS``, a rule's ``Calls.chow_honours``: any three different
winds, any three different dragons): the honours are then a wind group and a dragon group, each
with its own small table (``_tables.honour_chow_tables``) or exact programme (``hc_exact``), and
their min-plus combination over the seven honours serves the table path in place of the plain
honour table.
"""
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int16_t, uint64_t
from libc.string cimport memcpy

from mjfast._kernels._common cimport ORPHANS, KNIT

cimport numpy as cnp
cnp.import_array()

# ---------------------------------------------------------------------------------------
# tables (loaded once at import by _install_tables; the arrays are kept alive here)
cdef const uint8_t* SUIT_N = NULL
cdef const uint8_t* SUIT_U = NULL
cdef const uint8_t* HON_N = NULL
cdef const uint8_t* HON_U = NULL
# honour-chow groups (winds 5**4 rows, dragons 5**3 rows; natural / unlimited)
cdef const uint8_t* HC_TAB[2][2]
cdef const uint8_t* HC_HON_N = NULL   # the seven honours under honour chows, as HON_N / HON_U
cdef const uint8_t* HC_HON_U = NULL
_hc_refs = None
_table_refs = None


def _set_tables(const uint8_t[:, ::1] suit_natural, const uint8_t[:, ::1] suit_unlimited,
                const uint8_t[:, ::1] honor_natural, const uint8_t[:, ::1] honor_unlimited):
    """Install the replacement-number tables (shapes (5**9, 10) and (5**7, 10))."""
    global SUIT_N, SUIT_U, HON_N, HON_U, _table_refs
    if suit_natural.shape[0] != 5**9 or suit_unlimited.shape[0] != 5**9 or suit_natural.shape[1] != 10 \
            or honor_natural.shape[0] != 5**7 or honor_unlimited.shape[0] != 5**7 or honor_natural.shape[1] != 10 \
            or suit_unlimited.shape[1] != 10 or honor_unlimited.shape[1] != 10:
        raise ValueError("shanten tables have the wrong shape; delete the mjfast cache directory")
    _table_refs = (suit_natural, suit_unlimited, honor_natural, honor_unlimited)
    SUIT_N = &suit_natural[0, 0]
    SUIT_U = &suit_unlimited[0, 0]
    HON_N = &honor_natural[0, 0]
    HON_U = &honor_unlimited[0, 0]


def _install_tables():
    """Load the cached tables (built on first use) into this kernel, once they are checked to
    be safe to index (whatever their origin)."""
    from mjfast._kernels import _tables
    tables = _tables.load_tables()
    _tables.check_tables(tables)
    _set_tables(tables["suit_natural"], tables["suit_unlimited"],
                tables["honor_natural"], tables["honor_unlimited"])
    _set_honour_chow_tables(**_tables.honour_chow_tables())


def _set_honour_chow_tables(const uint8_t[:, ::1] wind_natural, const uint8_t[:, ::1] wind_unlimited,
                            const uint8_t[:, ::1] dragon_natural, const uint8_t[:, ::1] dragon_unlimited,
                            const uint8_t[:, ::1] honor_natural, const uint8_t[:, ::1] honor_unlimited):
    """Install the honour-chow tables (shapes (5**4, 10), (5**3, 10) and (5**7, 10))."""
    global _hc_refs, HC_HON_N, HC_HON_U
    if honor_natural.shape[0] != 5**7 or honor_unlimited.shape[0] != 5**7 or honor_natural.shape[1] != 10 \
            or honor_unlimited.shape[1] != 10:
        raise ValueError("honour-chow tables have the wrong shape")
    if wind_natural.shape[0] != 625 or wind_unlimited.shape[0] != 625 or dragon_natural.shape[0] != 125 \
            or dragon_unlimited.shape[0] != 125 or wind_natural.shape[1] != 10 or wind_unlimited.shape[1] != 10 \
            or dragon_natural.shape[1] != 10 or dragon_unlimited.shape[1] != 10:
        raise ValueError("honour-chow tables have the wrong shape")
    _hc_refs = (wind_natural, wind_unlimited, dragon_natural, dragon_unlimited, honor_natural, honor_unlimited)
    HC_HON_N = &honor_natural[0, 0]
    HC_HON_U = &honor_unlimited[0, 0]
    HC_TAB[0][0] = &wind_natural[0, 0]
    HC_TAB[0][1] = &wind_unlimited[0, 0]
    HC_TAB[1][0] = &dragon_natural[0, 0]
    HC_TAB[1][1] = &dragon_unlimited[0, 0]


_install_tables()

cdef extern from *:
    """
    #ifdef _OPENMP
    #define MJFAST_OPENMP 1
    #else
    #define MJFAST_OPENMP 0
    #endif
    """
    int MJFAST_OPENMP
#: Whether the kernels were compiled with OpenMP (without it ``n_threads > 1`` runs serially).
OPENMP = bool(MJFAST_OPENMP)
#: The form and option bits of ``_common.pxd`` for the Python side (``mjfast._bridge``).
FORM_BITS = {"standard": F_STANDARD, "seven_pairs": F_SEVEN_PAIRS, "thirteen_orphans": F_THIRTEEN_ORPHANS,
             "thirteen_lan": F_THIRTEEN_LAN, "honors_and_knitted": F_HONORS_KNITTED,
             "knitted_straight": F_KNITTED_STRAIGHT, "nine_terminals": F_NINE_TERMINALS, "seven_stars": F_SEVEN_STARS}
OPTION_BITS = {"pairs_distinct": O_PAIRS_DISTINCT, "lan_strict": O_LAN_STRICT, "void_m": O_VOID_M,
               "need_void": O_NEED_VOID, "honour_chows": O_HONOUR_CHOWS}
#: The shanten the kernels return when no allowed form applies.
NO_FORM = INF


# ---------------------------------------------------------------------------------------
# group results: g[m][p][o] = least deficit for m sets, p pairs using o overflow wildcards
ctypedef int16_t Group[5][2][MAX_WILDS + 1]

cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b

cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int group_index(const uint8_t* c, int n) noexcept nogil:
    cdef int idx = 0, i
    for i in range(n - 1, -1, -1):
        idx = idx * 5 + c[i]
    return idx


cdef void group_dp(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, int n, bint runs,
                   int kmax, int W, Group out) noexcept nogil:
    """Exact least deficit for a group of kinds (a suit when ``runs``, else honours).

    Dynamic programme over the kinds in order; the state is (runs started one kind back,
    runs started two kinds back, sets so far, pair so far, overflow so far).
    """
    cdef int16_t cur[5][5][5][2][MAX_WILDS + 1]
    cdef int16_t nxt[5][5][5][2][MAX_WILDS + 1]
    cdef int i, a1, a2, m, p, o, b, q, r, bmax, t, ov, d, v, nv, ci, capi, m2
    cdef bint pl
    for a1 in range(5):
        for a2 in range(5):
            for m in range(5):
                for p in range(2):
                    for o in range(W + 1):
                        cur[a1][a2][m][p][o] = INF
    cur[0][0][0][0][0] = 0
    for i in range(n):
        ci = c[i]
        capi = cap[i]
        pl = playable[i] != 0
        for a1 in range(5):
            for a2 in range(5):
                for m in range(5):
                    for p in range(2):
                        for o in range(W + 1):
                            nxt[a1][a2][m][p][o] = INF
        for m in range(kmax + 1):
            for a1 in range(m + 1):
                for a2 in range(m - a1 + 1):
                    for p in range(2):
                        for o in range(W + 1):
                            v = cur[a1][a2][m][p][o]
                            if v >= INF:
                                continue
                            bmax = kmax - m if (runs and i <= n - 3) else 0
                            for b in range(bmax + 1):
                                for q in range(kmax - m - b + 1):
                                    for r in range(2 - p):
                                        t = a1 + a2 + b + 3 * q + 2 * r
                                        ov = 0
                                        d = 0
                                        if t > 0:
                                            if not pl:
                                                continue
                                            if t > capi:
                                                ov = t - capi
                                            if o + ov > W:
                                                continue
                                            if t > ci:
                                                d = t - ci
                                        nv = v + d
                                        m2 = m + b + q
                                        if nv < nxt[b][a1][m2][p + r][o + ov]:
                                            nxt[b][a1][m2][p + r][o + ov] = <int16_t>nv
        memcpy(cur, nxt, sizeof(cur))
    for m in range(5):
        for p in range(2):
            v = INF
            for o in range(W + 1):
                v = imin(v, cur[0][0][m][p][o])   # monotone: a budget of o allows less
                out[m][p][o] = <int16_t>v


cdef inline void group_from_row(const uint8_t* row, int W, Group out) noexcept nogil:
    cdef int m, p, o
    for m in range(5):
        for p in range(2):
            for o in range(W + 1):
                out[m][p][o] = row[2 * m + p]


cdef bint group_fast(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, int n,
                     const uint8_t* nat, const uint8_t* unl, int kmax, int W, Group out) noexcept nogil:
    """Table lookup; False when the group needs the exact programme instead."""
    cdef int i, idx, j
    for i in range(n):
        if cap[i] != 4 or not playable[i]:
            return False
    idx = group_index(c, n)
    if W > 0:
        # overflow can only matter where a target with a fifth copy does better
        for j in range(2 * kmax + 2):
            if unl[10 * idx + j] != nat[10 * idx + j]:
                return False
    group_from_row(&nat[10 * idx], W, out)
    return True


cdef void group_eval(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, bint honors,
                     int kmax, int W, Group out) noexcept nogil:
    cdef int i, m, p, o
    cdef int n = 7 if honors else 9
    for i in range(n):
        if playable[i]:
            break
    else:
        # no kind of this group is in play (四川's honours, a voided suit): only T = 0
        for m in range(5):
            for p in range(2):
                for o in range(W + 1):
                    out[m][p][o] = INF
        for o in range(W + 1):
            out[0][0][o] = 0
        return
    if honors:
        if group_fast(c, cap, playable, 7, HON_N, HON_U, kmax, W, out):
            return
        group_dp(c, cap, playable, 7, False, kmax, W, out)
    else:
        if group_fast(c, cap, playable, 9, SUIT_N, SUIT_U, kmax, W, out):
            return
        group_dp(c, cap, playable, 9, True, kmax, W, out)


cdef void combine(Group acc, Group g, int kmax, int W) noexcept nogil:
    """acc <- min-plus(acc, g) over sets (<= kmax), pair (<= 1) and overflow (<= W)."""
    cdef Group res
    cdef int m1, m2, p1, p2, o1, o2, v
    for m1 in range(5):
        for p1 in range(2):
            for o1 in range(W + 1):
                res[m1][p1][o1] = INF
    for m1 in range(kmax + 1):
        for p1 in range(2):
            for o1 in range(W + 1):
                if acc[m1][p1][o1] >= INF:
                    continue
                for m2 in range(kmax - m1 + 1):
                    for p2 in range(2 - p1):
                        for o2 in range(W - o1 + 1):
                            v = acc[m1][p1][o1] + g[m2][p2][o2]
                            if v < res[m1 + m2][p1 + p2][o1 + o2]:
                                res[m1 + m2][p1 + p2][o1 + o2] = <int16_t>v
    memcpy(acc, res, sizeof(Group))


# ---------------------------------------------------------------------------------------
# honour chows (O_HONOUR_CHOWS: any three different winds, or the three dragons, form a set).
# The honours then split into a wind group and a dragon group; each is a table row (every kind
# natural, and no gain from a wildcard's fifth copy) or the exact programme below.
cdef void hc_exact(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, int n, int kmax, int W,
                   Group out) noexcept nogil:
    """Exact least deficit of the winds (``n = 4``) or the dragons (``n = 3``) with their chows.

    Every multiset of chows is enumerated (``x[j]`` wind chows leave out wind ``j``; the dragons
    have a single chow), then a programme over the kinds puts pungs and the pair on top of the
    chows' tiles; the state is (sets, pair, overflow)."""
    cdef int16_t cur[5][2][MAX_WILDS + 1]
    cdef int16_t nxt[5][2][MAX_WILDS + 1]
    cdef int x[4]
    cdef int u[4]
    cdef int n_types = 4 if n == 4 else 1
    cdef int code, tmp, X, i, j, _r, m, p, o, q, r, t, ov, d, v, nv, n_codes = 1
    for _r in range(n_types):
        n_codes *= 5
    for m in range(5):
        for p in range(2):
            for o in range(W + 1):
                out[m][p][o] = INF
    for code in range(n_codes):
        X = 0
        tmp = code
        for j in range(n_types):
            x[j] = tmp % 5
            tmp = tmp // 5
            X += x[j]
        if X > kmax:
            continue
        for i in range(n):
            u[i] = X - x[i] if n == 4 else X
        for m in range(5):
            for p in range(2):
                for o in range(W + 1):
                    cur[m][p][o] = INF
        cur[X][0][0] = 0
        for i in range(n):
            for m in range(5):
                for p in range(2):
                    for o in range(W + 1):
                        nxt[m][p][o] = INF
            for m in range(X, kmax + 1):
                for p in range(2):
                    for o in range(W + 1):
                        v = cur[m][p][o]
                        if v >= INF:
                            continue
                        for q in range(kmax - m + 1):
                            for r in range(2 - p):
                                t = u[i] + 3 * q + 2 * r
                                ov = 0
                                d = 0
                                if t > 0:
                                    if not playable[i]:
                                        continue
                                    if t > cap[i]:
                                        ov = t - cap[i]
                                    if o + ov > W:
                                        continue
                                    if t > c[i]:
                                        d = t - c[i]
                                nv = v + d
                                if nv < nxt[m + q][p + r][o + ov]:
                                    nxt[m + q][p + r][o + ov] = <int16_t>nv
            memcpy(cur, nxt, sizeof(cur))
        for m in range(5):
            for p in range(2):
                for o in range(W + 1):
                    if cur[m][p][o] < out[m][p][o]:
                        out[m][p][o] = cur[m][p][o]
    for m in range(5):
        for p in range(2):
            v = INF
            for o in range(W + 1):
                v = imin(v, out[m][p][o])   # monotone: a budget of o allows less
                out[m][p][o] = <int16_t>v


cdef void hc_sub(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, int n, int kmax, int W,
                 Group out) noexcept nogil:
    """One honour-chow group (winds ``n = 4``, dragons ``n = 3``): its table row when it applies."""
    cdef int i, j, idx
    cdef int g = 0 if n == 4 else 1
    cdef const uint8_t* nat
    cdef const uint8_t* unl
    for i in range(n):
        if cap[i] != 4 or not playable[i]:
            hc_exact(c, cap, playable, n, kmax, W, out)
            return
    idx = group_index(c, n)
    nat = HC_TAB[g][0] + 10 * idx
    if W > 0:
        unl = HC_TAB[g][1] + 10 * idx
        for j in range(2 * kmax + 2):
            if nat[j] != unl[j]:
                hc_exact(c, cap, playable, n, kmax, W, out)
                return
    group_from_row(nat, W, out)


cdef void hc_group(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, int kmax, int W,
                   Group out) noexcept nogil:
    """The seven honours (``c`` points at the first wind) under honour chows."""
    cdef Group g
    hc_sub(c, cap, playable, 4, kmax, W, out)
    hc_sub(c + 4, cap + 4, playable + 4, 3, kmax, W, g)
    combine(out, g, kmax, W)


cdef inline int merge_four(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                           const uint8_t* r3, int kmax) noexcept nogil:
    cdef int a[10]
    cdef int b[10]
    merge_rows(a, r0, r1, kmax)
    merge_rows(b, r2, r3, kmax)
    return finish(a, b, kmax)


cdef inline int natural_from_rows(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                                  const uint8_t* r3, int kmax) noexcept nogil:
    if kmax == 4:
        # 13 and 14 concealed tiles, the usual case: with a constant bound the compiler unrolls
        # the merges completely
        return merge_four(r0, r1, r2, r3, 4)
    return merge_four(r0, r1, r2, r3, kmax)


cdef const uint8_t* table_row(int group, int idx) noexcept nogil:
    """Natural-table row of group 0-2 (suits) or 3 (honours) at configuration index ``idx``."""
    return (HON_N if group == 3 else SUIT_N) + 10 * idx


cdef inline bint rows_agree(const uint8_t* nat, const uint8_t* unl, int kmax) noexcept nogil:
    cdef int j
    for j in range(2 * kmax + 2):
        if nat[j] != unl[j]:
            return False
    return True


cdef int standard_deficit_natural(const uint8_t* c, int kmax, int W, const uint8_t* hon_n,
                                  const uint8_t* hon_u) noexcept nogil:
    """Fast path (every kind playable with 4 natural copies): four table rows, min-plus; the
    honours from ``hon_n`` / ``hon_u`` (the plain or the honour-chow tables).

    With wildcards it applies only when no group can gain from a wildcard standing for a
    fifth copy (its natural and unlimited rows agree); otherwise returns -1.
    """
    cdef int i0 = group_index(c, 9), i1 = group_index(c + 9, 9), i2 = group_index(c + 18, 9)
    cdef int i3 = group_index(c + 27, 7)
    if W > 0:
        if not (rows_agree(SUIT_N + 10 * i0, SUIT_U + 10 * i0, kmax)
                and rows_agree(SUIT_N + 10 * i1, SUIT_U + 10 * i1, kmax)
                and rows_agree(SUIT_N + 10 * i2, SUIT_U + 10 * i2, kmax)
                and rows_agree(hon_n + 10 * i3, hon_u + 10 * i3, kmax)):
            return -1
    return natural_from_rows(SUIT_N + 10 * i0, SUIT_N + 10 * i1, SUIT_N + 10 * i2, hon_n + 10 * i3, kmax)


cdef void honor_row0(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, int* row) noexcept nogil:
    """Honours without wildcards under any caps: each kind holds nothing, a pair or a pung."""
    cdef int cur[10]
    cdef int nxt[10]
    cdef int i, j, m, p, v, cost
    for j in range(10):
        cur[j] = INF
    cur[0] = 0
    for i in range(7):
        for j in range(10):
            nxt[j] = cur[j]                       # nothing of this kind
        if playable[i]:
            for m in range(5):
                for p in range(2):
                    v = cur[2 * m + p]
                    if v >= INF:
                        continue
                    if m < 4 and cap[i] >= 3:     # a pung
                        cost = v + (3 - c[i] if c[i] < 3 else 0)
                        if cost < nxt[2 * (m + 1) + p]:
                            nxt[2 * (m + 1) + p] = cost
                    if p == 0 and cap[i] >= 2:    # the pair
                        cost = v + (2 - c[i] if c[i] < 2 else 0)
                        if cost < nxt[2 * m + 1]:
                            nxt[2 * m + 1] = cost
        for j in range(10):
            cur[j] = nxt[j]
    for j in range(10):
        row[j] = cur[j]


cdef void group_row0(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, bint honors,
                     int kmax, int* row) noexcept nogil:
    """(sets, pair) row of one group without wildcards: a table row when every kind is natural,
    the empty row when none is playable, else the exact programme."""
    cdef int n = 7 if honors else 9
    cdef int i, m, p, n_nat = 0, n_off = 0
    cdef const uint8_t* t
    cdef Group g
    for i in range(n):
        if not playable[i]:
            n_off += 1
        elif cap[i] == 4:
            n_nat += 1
    if n_nat == n:
        t = (HON_N if honors else SUIT_N) + 10 * group_index(c, n)
        for i in range(10):
            row[i] = t[i]
        return
    if n_off == n:
        for i in range(10):
            row[i] = INF
        row[0] = 0
        return
    if honors:
        honor_row0(c, cap, playable, row)
        return
    group_dp(c, cap, playable, n, True, kmax, 0, g)
    for m in range(5):
        for p in range(2):
            row[2 * m + p] = g[m][p][0]


cdef void merge_int_rows(int* out, const int* a, const int* b, int kmax) noexcept nogil:
    """out = min-plus of two (sets, pair) rows, for sets <= kmax."""
    cdef int m, m1, v, b0, b1
    for m in range(kmax + 1):
        b0 = INF
        b1 = INF
        for m1 in range(m + 1):
            v = a[2 * m1] + b[2 * (m - m1)]
            if v < b0:
                b0 = v
            v = a[2 * m1 + 1] + b[2 * (m - m1)]
            if v < b1:
                b1 = v
            v = a[2 * m1] + b[2 * (m - m1) + 1]
            if v < b1:
                b1 = v
        out[2 * m] = b0
        out[2 * m + 1] = b1


cdef int standard_deficit0(const uint8_t* c, const uint8_t* cap, const uint8_t* playable, int kmax,
                           bint hc) noexcept nogil:
    """standard_deficit without wildcards: four group rows and two merges (``hc``: honour chows)."""
    cdef int r0[10]
    cdef int r1[10]
    cdef int r2[10]
    cdef int r3[10]
    cdef int a[10]
    cdef int b[10]
    cdef int m1, v, m, p, best = INF
    cdef Group g
    group_row0(c, cap, playable, False, kmax, r0)
    group_row0(c + 9, cap + 9, playable + 9, False, kmax, r1)
    group_row0(c + 18, cap + 18, playable + 18, False, kmax, r2)
    if hc:
        hc_group(c + 27, cap + 27, playable + 27, kmax, 0, g)
        for m in range(5):
            for p in range(2):
                r3[2 * m + p] = g[m][p][0]
    else:
        group_row0(c + 27, cap + 27, playable + 27, True, kmax, r3)
    merge_int_rows(a, r0, r1, kmax)
    merge_int_rows(b, r2, r3, kmax)
    for m1 in range(kmax + 1):
        v = a[2 * m1] + b[2 * (kmax - m1) + 1]
        if v < best:
            best = v
        v = a[2 * m1 + 1] + b[2 * (kmax - m1)]
        if v < best:
            best = v
    return best if best < INF else INF


cdef int standard_deficit(const uint8_t* c, const uint8_t* cap, const uint8_t* playable,
                          int kmax, int W, bint hc) noexcept nogil:
    """Least deficit of kmax sets + 1 pair (overflow <= W); INF when impossible (``hc``:
    honour chows)."""
    cdef Group acc, g
    cdef int s, o, best = INF
    if W == 0:
        return standard_deficit0(c, cap, playable, kmax, hc)
    group_eval(c, cap, playable, False, kmax, W, acc)
    for s in range(1, 3):
        group_eval(c + 9 * s, cap + 9 * s, playable + 9 * s, False, kmax, W, g)
        combine(acc, g, kmax, W)
    if hc:
        hc_group(c + 27, cap + 27, playable + 27, kmax, W, g)
    else:
        group_eval(c + 27, cap + 27, playable + 27, True, kmax, W, g)
    combine(acc, g, kmax, W)
    for o in range(W + 1):
        best = imin(best, acc[kmax][1][o])
    return best


# ---------------------------------------------------------------------------------------
# special forms: choose a count per kind from a small menu, total size fixed
cdef inline int kind_cost(int t, int ci, int capi, bint pl, int* ov) noexcept nogil:
    """Deficit of holding ``t`` of a kind; sets ``ov`` (overflow); -1 if not allowed."""
    ov[0] = 0
    if t == 0:
        return 0
    if not pl:
        return -1
    if t > capi:
        ov[0] = t - capi
    return t - ci if t > ci else 0


cdef int choose_kinds(const uint8_t* c, const Params* prm, const int* kinds, int nk,
                      const int8_t* menu, int nmenu, const int8_t* forced_min, int size, int W) noexcept nogil:
    """Least deficit choosing T[k] from ``menu`` for each listed kind with sum(T) == size.

    ``forced_min[j]`` > 0 forces kind j to hold at least that many (e.g. 七星不靠's honours).
    """
    cdef int16_t cur[15][MAX_WILDS + 1]
    cdef int16_t nxt[15][MAX_WILDS + 1]
    cdef int j, s, o, x, t, d, ov, k, v, best = INF
    for s in range(15):
        for o in range(W + 1):
            cur[s][o] = INF
    cur[0][0] = 0
    for j in range(nk):
        k = kinds[j]
        for s in range(15):
            for o in range(W + 1):
                nxt[s][o] = INF
        for s in range(size + 1):
            for o in range(W + 1):
                v = cur[s][o]
                if v >= INF:
                    continue
                for x in range(nmenu):
                    t = menu[x]
                    if t < forced_min[j] or s + t > size:
                        continue
                    d = kind_cost(t, c[k], prm.cap[k], prm.playable[k] != 0, &ov)
                    if d < 0 or o + ov > W:
                        continue
                    if v + d < nxt[s + t][o + ov]:
                        nxt[s + t][o + ov] = <int16_t>(v + d)
        memcpy(cur, nxt, sizeof(cur))
    for o in range(W + 1):
        best = imin(best, cur[size][o])
    return best


cdef int8_t MENU_PAIRS[3]
MENU_PAIRS[:] = [0, 2, 4]
cdef int8_t MENU_PAIRS_DISTINCT[2]
MENU_PAIRS_DISTINCT[:] = [0, 2]
cdef int8_t MENU_ONE[2]
MENU_ONE[:] = [0, 1]
cdef int8_t MENU_ORPHAN[2]
MENU_ORPHAN[:] = [1, 2]
cdef int8_t MENU_ANY[9]
MENU_ANY[:] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
cdef int ALL_KINDS[34]
ALL_KINDS[:] = list(range(34))
cdef int8_t NO_FORCE[34]
NO_FORCE[:] = [0] * 34
# suit subsets whose tiles differ pairwise by >= 3 (十三浪), as bitmasks over the nine numbers
cdef int LAN_SUBSETS[64]
cdef int N_LAN_SUBSETS = 0
_lan = [mask for mask in range(512)
        if all(b - a >= 3 for a in range(9) for b in range(a + 1, 9) if mask >> a & 1 and mask >> b & 1)]
for _j, _mask in enumerate(_lan):
    LAN_SUBSETS[_j] = _mask
N_LAN_SUBSETS = len(_lan)


cdef int seven_pairs_capped(const uint8_t* c, const Params* prm, bint distinct) noexcept nogil:
    """Seven pairs without wildcards under any caps: existing pairs cost 0, completing a
    single costs 1, a new pair costs 2, each as far as the kind's copies allow."""
    cdef int k, x, cp, pairs = 0, ones = 0, twos = 0, need, use1
    for k in range(34):
        if not prm.playable[k]:
            continue
        x = c[k]
        cp = prm.cap[k]
        if distinct:
            if x >= 2:
                pairs += 1
            elif cp >= 2:
                if x == 1:
                    ones += 1
                else:
                    twos += 1
        else:
            pairs += x >> 1
            if x & 1:
                if x + 1 <= cp:
                    ones += 1
                    twos += (cp - x - 1) >> 1
            else:
                twos += (cp - x) >> 1
    if pairs >= 7:
        return 0
    need = 7 - pairs
    use1 = imin(need, ones)
    if need - use1 > twos:
        return INF
    return use1 + 2 * (need - use1)


cdef int seven_pairs_deficit(const uint8_t* c, const Params* prm, int W) noexcept nogil:
    cdef int i, pairs = 0, odd = 0, need, use1
    cdef bint distinct = (prm.options & O_PAIRS_DISTINCT) != 0
    if prm.all_natural or prm.hc_natural:  # pairs never need a fifth copy, so wildcards only subtract
        for i in range(34):
            if distinct:
                pairs += c[i] >= 2
                odd += c[i] == 1
            else:
                pairs += c[i] >> 1
                odd += c[i] & 1
        if pairs >= 7:
            return 0
        need = 7 - pairs
        use1 = imin(need, odd)
        return use1 + 2 * (need - use1)
    if W == 0:
        return seven_pairs_capped(c, prm, distinct)
    if distinct:
        return choose_kinds(c, prm, ALL_KINDS, 34, MENU_PAIRS_DISTINCT, 2, NO_FORCE, 14, W)
    return choose_kinds(c, prm, ALL_KINDS, 34, MENU_PAIRS, 3, NO_FORCE, 14, W)


cdef int thirteen_orphans_deficit(const uint8_t* c, const Params* prm, int W) noexcept nogil:
    cdef int i, kinds = 0
    cdef bint pair = False
    if prm.all_natural or prm.hc_natural:  # at most two of a kind: no fifth copy either
        for i in range(13):
            if c[ORPHANS[i]]:
                kinds += 1
                if c[ORPHANS[i]] >= 2:
                    pair = True
        return 14 - kinds - pair
    cdef int k, missing = 0
    cdef bint pairable = False
    if W == 0:
        # every orphan kind at least once, one of them twice, within the copies left
        for i in range(13):
            k = ORPHANS[i]
            if not prm.playable[k] or prm.cap[k] == 0:
                return INF
            if c[k] == 0:
                missing += 1
            if c[k] >= 2:
                pair = True
            if prm.cap[k] >= 2:
                pairable = True
        if pair:
            return missing
        return missing + 1 if pairable else INF
    return choose_kinds(c, prm, ORPHANS, 13, MENU_ORPHAN, 2, NO_FORCE, 14, W)


cdef int thirteen_lan_deficit(const uint8_t* c, const Params* prm, int W) noexcept nogil:
    """十三浪: per suit a gap->=3 subset (strict: exactly three tiles), honours distinct."""
    cdef int16_t acc[17][MAX_WILDS + 1]
    cdef int16_t res[17][MAX_WILDS + 1]
    cdef int16_t suit_best[4][MAX_WILDS + 1]
    cdef int s, j, x, mask, size, d, ov, o, o2, sz, sz2, k, dd, best = INF
    cdef bint strict = (prm.options & O_LAN_STRICT) != 0
    cdef bint ok
    cdef int o_kind
    for sz in range(17):
        for o in range(W + 1):
            acc[sz][o] = INF
    acc[0][0] = 0
    for s in range(3):
        for sz in range(4):
            for o in range(W + 1):
                suit_best[sz][o] = INF
        for j in range(N_LAN_SUBSETS):
            mask = LAN_SUBSETS[j]
            size = 0
            d = 0
            ov = 0
            ok = True
            for x in range(9):
                if mask >> x & 1:
                    k = 9 * s + x
                    dd = kind_cost(1, c[k], prm.cap[k], prm.playable[k] != 0, &o_kind)
                    if dd < 0:
                        ok = False
                        break
                    d += dd
                    ov += o_kind
                    size += 1
            if not ok or ov > W or (strict and size != 3):
                continue
            if d < suit_best[size][ov]:
                suit_best[size][ov] = <int16_t>d
        for sz in range(17):
            for o in range(W + 1):
                res[sz][o] = INF
        for sz in range(17):
            for o in range(W + 1):
                if acc[sz][o] >= INF:
                    continue
                for sz2 in range(4):
                    if sz + sz2 > 16:
                        continue
                    for o2 in range(W - o + 1):
                        if suit_best[sz2][o2] >= INF:
                            continue
                        if acc[sz][o] + suit_best[sz2][o2] < res[sz + sz2][o + o2]:
                            res[sz + sz2][o + o2] = acc[sz][o] + suit_best[sz2][o2]
        memcpy(acc, res, sizeof(acc))
    # honours: each at most once; strict reading takes exactly five
    for sz in range(17):
        for o in range(W + 1):
            if acc[sz][o] >= INF:
                continue
            if strict and sz != 9:
                continue
            dd = choose_kinds(c, prm, ALL_KINDS + 27, 7, MENU_ONE, 2, NO_FORCE, 14 - sz, W - o) \
                if 14 - sz <= 7 else INF
            if dd < INF:
                best = imin(best, acc[sz][o] + dd)
    return best


cdef int honors_knitted_deficit(const uint8_t* c, const Params* prm, int W, bint seven_stars,
                                int bound=INF) noexcept nogil:
    cdef int kinds[16]
    cdef int8_t forced[16]
    cdef int j, x, best = INF
    for x in range(7):
        kinds[9 + x] = 27 + x
        forced[9 + x] = 1 if seven_stars else 0
    for x in range(9):
        forced[x] = 0
    cdef int held, room, held_h, room_h, k
    if W == 0:
        # fourteen different kinds among the sixteen allowed (七星: all seven honours)
        held_h = 0
        room_h = 0
        for x in range(7):
            k = 27 + x
            if prm.playable[k] and prm.cap[k] > 0:
                room_h += 1
                held_h += c[k] > 0
        for j in range(6):
            held = 0
            room = 0
            for x in range(9):
                k = KNIT[j][x]
                if prm.playable[k] and prm.cap[k] > 0:
                    room += 1
                    held += c[k] > 0
            if seven_stars:
                if room_h == 7 and room >= 7:
                    best = imin(best, 7 - held_h + 7 - imin(held, 7))
            elif room + room_h >= 14:
                best = imin(best, 14 - imin(held + held_h, 14))
        return best
    # with wildcards a layout is an exact choice programme; it costs at least the kinds of the
    # layout it lacks, so one that cannot come below ``bound`` (the forms already evaluated)
    # is skipped -- rules with 全不靠 otherwise paid it on every hand of a discard table
    held_h = 0
    for x in range(7):
        held_h += c[27 + x] > 0
    for j in range(6):
        held = 0
        for x in range(9):
            kinds[x] = KNIT[j][x]
            held += c[KNIT[j][x]] > 0
        if (7 - held_h + 7 - imin(held, 7) if seven_stars else 14 - imin(held + held_h, 14)) >= bound:
            continue
        best = imin(best, choose_kinds(c, prm, kinds, 16, MENU_ONE, 2, forced, 14, W))
        bound = imin(bound, best)
    return best


cdef int knitted_straight_deficit(const uint8_t* c, int kmax, const Params* prm, int W, int bound) noexcept nogil:
    """组合龙: the nine knitted tiles of one layout plus kmax sets and a pair; INF when no
    layout can come below ``bound`` (the least deficit of the forms already evaluated).

    A layout costs at least its missing knitted tiles (``base``) plus the rest's deficit with
    unlimited copies (a table lookup), so one where that reaches ``bound`` is skipped: with
    wildcards the rest is an exact dynamic programme per suit (the knitted kinds have a cap of
    3 left, off the table path), about a millisecond for six layouts, which made discard
    tables of rules with 组合龙 take seconds."""
    cdef uint8_t rest[34]
    cdef uint8_t cap2[34]
    cdef int j, x, k, base, ov, d, best = INF
    cdef bint hc = (prm.options & O_HONOUR_CHOWS) != 0
    for j in range(6):
        memcpy(rest, c, 34)
        memcpy(cap2, prm.cap, 34)
        base = 0
        ov = 0
        for x in range(9):
            k = KNIT[j][x]
            if not prm.playable[k]:
                base = INF
                break
            if rest[k] > 0:
                rest[k] -= 1
            else:
                base += 1
            if cap2[k] > 0:
                cap2[k] -= 1
            else:
                ov += 1
        if base >= bound or ov > W:
            continue
        # nor one whose rest cannot do better with unlimited copies (the table relaxation,
        # which knows no honour chows)
        if not hc and base + natural_from_rows(
                SUIT_U + 10 * group_index(rest, 9), SUIT_U + 10 * group_index(rest + 9, 9),
                SUIT_U + 10 * group_index(rest + 18, 9), HON_U + 10 * group_index(rest + 27, 7), kmax) >= bound:
            continue
        # a set and a pair never need a fourth copy of a knitted kind, so the natural table
        # still applies where every original cap was 4 (all_natural, no wildcards)
        if prm.all_natural and W == 0:
            d = standard_deficit0(rest, prm.cap, prm.playable, kmax, False)
        else:
            d = standard_deficit(rest, cap2, prm.playable, kmax, W - ov, hc)
        if d < INF:
            best = imin(best, base + d)
            bound = imin(bound, best)
    return best


cdef int nine_terminals_deficit(const uint8_t* c, const Params* prm, int W) noexcept nogil:
    cdef int i, held = 0
    if prm.all_natural:  # 14 - held is reachable with natural copies alone
        for i in range(13):
            held += c[ORPHANS[i]]
        return 14 - held if held < 14 else 0
    cdef int room = 0, k
    if W == 0:
        for i in range(13):
            k = ORPHANS[i]
            if prm.playable[k]:
                held += c[k]
                room += prm.cap[k]
        if room < 14:
            return INF
        return 14 - held if held < 14 else 0
    return choose_kinds(c, prm, ORPHANS, 13, MENU_ANY, 9, NO_FORCE, 14, W)


# ---------------------------------------------------------------------------------------
cdef void params_init(Params* prm, const uint8_t* cap, const uint8_t* playable, int forms, int options) noexcept nogil:
    cdef int i
    prm.all_natural = 1
    for i in range(34):
        prm.cap[i] = cap[i]
        prm.playable[i] = playable[i]
        if cap[i] != 4 or not playable[i]:
            prm.all_natural = 0
    prm.hc_natural = 0
    prm.hon_n = HON_N
    prm.hon_u = HON_U
    if options & O_HONOUR_CHOWS:
        # the other kernels' table paths know no honour chows (all_natural off); this kernel's
        # uses the honour-chow tables of the honours
        prm.hc_natural = prm.all_natural
        prm.all_natural = 0
        prm.hon_n = HC_HON_N
        prm.hon_u = HC_HON_U
    prm.forms = forms
    prm.options = options


cdef int form_deficit(const uint8_t* c, int n, int n_melds, int W, const Params* prm, int form,
                      int bound=INF) noexcept nogil:
    """Least deficit of one form for a hand of n tiles (wildcards included); INF if it cannot
    apply.  ``bound``: a form may answer INF instead of a deficit >= bound (the minimum over
    forms is unchanged)."""
    cdef int kmax, d = INF
    if n % 3 == 0:
        return INF
    kmax = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    if kmax > 4:
        return INF
    if form == F_STANDARD:
        if prm.all_natural or prm.hc_natural:
            d = standard_deficit_natural(c, kmax, W, prm.hon_n, prm.hon_u)
            if d < 0:
                d = standard_deficit(c, prm.cap, prm.playable, kmax, W, prm.hc_natural)
        else:
            d = standard_deficit(c, prm.cap, prm.playable, kmax, W, (prm.options & O_HONOUR_CHOWS) != 0)
    elif n_melds == 0 and kmax == 4:
        if form == F_SEVEN_PAIRS:
            d = seven_pairs_deficit(c, prm, W)
        elif form == F_THIRTEEN_ORPHANS:
            d = thirteen_orphans_deficit(c, prm, W)
        elif form == F_THIRTEEN_LAN:
            d = thirteen_lan_deficit(c, prm, W)
        elif form == F_HONORS_KNITTED:
            d = honors_knitted_deficit(c, prm, W, False, bound)
        elif form == F_SEVEN_STARS:
            d = honors_knitted_deficit(c, prm, W, True, bound)
        elif form == F_NINE_TERMINALS:
            d = nine_terminals_deficit(c, prm, W)
    if form == F_KNITTED_STRAIGHT and n_melds <= 1 and kmax + n_melds == 4 and kmax >= 3:
        d = knitted_straight_deficit(c, kmax - 3, prm, W, bound)
    return d


cdef int hand_size(const uint8_t* c, int wilds) noexcept nogil:
    cdef int i, n = wilds
    for i in range(34):
        n += c[i]
    return n


cdef int shanten_form(const uint8_t* c, int n_melds, int wilds, const Params* prm, int form) noexcept nogil:
    """Shanten of one form; INF when the form cannot apply to this hand."""
    cdef int W = wilds if wilds < MAX_WILDS else MAX_WILDS
    cdef int d = form_deficit(c, hand_size(c, wilds), n_melds, W, prm, form)
    if d >= INF:
        return INF
    return d - wilds - 1


ctypedef struct Tally:
    int idx[4]           # base-5 configuration index of each suit and of the honours
    int n                # tiles held, wildcards included
    int pairs, odd       # seven-pairs material (pairs held, kinds with a spare single)
    int orph, orph_pair  # thirteen-orphans material (orphan kinds held, those with a pair)


# What one count adds to a tally, packed in one word so that a kind costs one table load and one
# add: bits 0-15 tiles, 16-31 pairs, 32-39 singles, 40-47 counts above 4, 48-55 orphan kinds
# held, 56-63 orphan pairs.  Indexed [riichi seven pairs][orphan kind][count]; every count
# 0-255 has an entry, and 34 kinds of 255 still fit each field, so a bad count cannot spill
# into its neighbour before the check sees it.
cdef uint64_t TALLY[2][2][256]


cdef void _init_tally() noexcept:
    cdef int distinct, orphan, x
    cdef uint64_t pairs, odd
    for distinct in range(2):
        for orphan in range(2):
            for x in range(256):
                pairs = (x >= 2) if distinct else (x >> 1)
                odd = (x == 1) if distinct else (x & 1)
                TALLY[distinct][orphan][x] = (<uint64_t>x | pairs << 16 | odd << 32 | (<uint64_t>(x > 4)) << 40
                                              | (<uint64_t>(orphan and x != 0)) << 48
                                              | (<uint64_t>(orphan and x >= 2)) << 56)


_init_tally()


cdef inline int group_tally(const uint8_t* c, int n, const uint64_t* plain, const uint64_t* orphan,
                            bint honors, uint64_t* acc) noexcept nogil:
    """Base-5 index of one group, its counts added to ``acc``.  Straight-line (no per-kind
    branch: on random hands one on ``c[i] == 0`` mispredicts about every other kind)."""
    cdef int i, x, idx = 0
    for i in range(n - 1, -1, -1):
        x = c[i]
        idx = idx * 5 + x
        acc[0] += (orphan if honors or i == 0 or i == n - 1 else plain)[x]
    return idx


cdef inline bint tally_counts(const uint8_t* c, int wilds, bint distinct, Tally* t) noexcept nogil:
    """Everything the common forms need from one pass over the counts; False when a count
    exceeds 4 (the indices are then no table rows, and nothing may be looked up)."""
    cdef const uint64_t* plain = TALLY[distinct][0]
    cdef const uint64_t* orphan = TALLY[distinct][1]
    cdef uint64_t acc = 0
    t.idx[0] = group_tally(c, 9, plain, orphan, False, &acc)
    t.idx[1] = group_tally(c + 9, 9, plain, orphan, False, &acc)
    t.idx[2] = group_tally(c + 18, 9, plain, orphan, False, &acc)
    t.idx[3] = group_tally(c + 27, 7, plain, orphan, True, &acc)
    t.n = <int>(acc & 0xFFFF) + wilds
    t.pairs = <int>((acc >> 16) & 0xFFFF)
    t.odd = <int>((acc >> 32) & 0xFF)
    t.orph = <int>((acc >> 48) & 0xFF)
    t.orph_pair = <int>(acc >> 56)
    return ((acc >> 40) & 0xFF) == 0


cdef inline bint fused_applies(const Params* prm) noexcept nogil:
    """Every kind natural and the forms among standard / seven pairs / thirteen orphans."""
    return ((prm.all_natural or prm.hc_natural) and not (prm.options & O_NEED_VOID)
            and (prm.forms & ~(F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS)) == 0)


cdef int fused_finish(const Tally* t, int n_melds, int wilds, const Params* prm) noexcept nogil:
    """Shanten from a tally (counts within 4, ``fused_applies``).  Returns -INF when a wildcard
    could stand for a fifth copy (the caller then takes the general route)."""
    cdef int n = t.n, kmax, best = INF, d, need, use1
    if n % 3 == 0:
        return INF
    kmax = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    if kmax > 4:
        return INF
    if prm.forms & F_STANDARD:
        if wilds > 0 and not (rows_agree(SUIT_N + 10 * t.idx[0], SUIT_U + 10 * t.idx[0], kmax)
                              and rows_agree(SUIT_N + 10 * t.idx[1], SUIT_U + 10 * t.idx[1], kmax)
                              and rows_agree(SUIT_N + 10 * t.idx[2], SUIT_U + 10 * t.idx[2], kmax)
                              and rows_agree(prm.hon_n + 10 * t.idx[3], prm.hon_u + 10 * t.idx[3], kmax)):
            return -INF
        best = natural_from_rows(SUIT_N + 10 * t.idx[0], SUIT_N + 10 * t.idx[1], SUIT_N + 10 * t.idx[2],
                                 prm.hon_n + 10 * t.idx[3], kmax)
    if n_melds == 0 and kmax == 4:
        if prm.forms & F_SEVEN_PAIRS:
            if t.pairs >= 7:
                d = 0
            else:
                need = 7 - t.pairs
                use1 = need if need < t.odd else t.odd
                d = use1 + 2 * (need - use1)
            best = imin(best, d)
        if prm.forms & F_THIRTEEN_ORPHANS:
            best = imin(best, 14 - t.orph - (1 if t.orph_pair > 0 else 0))
    if best >= INF:
        return INF
    return best - wilds - 1


cdef inline int shanten_tallied(const uint8_t* c, const Tally* t, int n_melds, int wilds,
                                const Params* prm) noexcept nogil:
    """``fused_finish``, or the general route when a wildcard could stand for a fifth copy."""
    cdef int r = fused_finish(t, n_melds, wilds, prm)
    return shanten_one(c, n_melds, wilds, prm) if r == -INF else r


cdef int shanten_fused(const uint8_t* c, int n_melds, int wilds, const Params* prm) noexcept nogil:
    """The common case (``fused_applies``) in one pass over counts already checked against the
    caps; -INF as :func:`fused_finish`."""
    cdef Tally t
    tally_counts(c, wilds, (prm.options & O_PAIRS_DISTINCT) != 0, &t)
    return fused_finish(&t, n_melds, wilds, prm)


cdef int shanten_one(const uint8_t* c, int n_melds, int wilds, const Params* prm) noexcept nogil:
    cdef int best = INF, bit = 1, s, i
    cdef Params p2
    if prm.options & O_NEED_VOID:
        # 缺一门: the best over the suits that may be left empty
        for s in range(3):
            if prm.options & (O_VOID_M << s):
                p2 = prm[0]
                p2.options = prm.options & ~O_NEED_VOID
                p2.all_natural = 0
                p2.hc_natural = 0
                for i in range(9):
                    p2.playable[9 * s + i] = 0
                best = imin(best, shanten_one(c, n_melds, wilds, &p2))
        return best
    if fused_applies(prm):
        best = shanten_fused(c, n_melds, wilds, prm)
        if best != -INF:
            return best
        best = INF
    cdef int n = hand_size(c, wilds)
    cdef int W = wilds if wilds < MAX_WILDS else MAX_WILDS
    while bit <= F_SEVEN_STARS:
        if prm.forms & bit:
            best = imin(best, form_deficit(c, n, n_melds, W, prm, bit, best))
        bit <<= 1
    if best >= INF:
        return INF
    return best - wilds - 1


cdef int shanten_below(const uint8_t* c, int n_melds, int wilds, const Params* prm, int bound) noexcept nogil:
    """``min(shanten_one(...), bound)`` (so a lower bound on the shanten, exact below ``bound``),
    each form searched only for a deficit under the best so far."""
    cdef int bit = 1, n, W, d
    if prm.options & O_NEED_VOID or fused_applies(prm):
        return imin(shanten_one(c, n_melds, wilds, prm), bound)
    n = hand_size(c, wilds)
    W = wilds if wilds < MAX_WILDS else MAX_WILDS
    d = bound + wilds + 1      # the deficit of shanten ``bound``
    while bit <= F_SEVEN_STARS:
        if prm.forms & bit:
            d = imin(d, form_deficit(c, n, n_melds, W, prm, bit, d))
        bit <<= 1
    return d - wilds - 1


# ---------------------------------------------------------------------------------------
# Python-facing kernels (arguments validated by mjfast.shanten)
cdef inline const uint8_t* u8_34(object a, str name) except NULL:
    """Pointer to a C-contiguous uint8[34] array, checked without acquiring a buffer."""
    if not cnp.PyArray_Check(a):
        raise ValueError(f"{name} must be a numpy uint8 array of 34 entries")
    cdef cnp.ndarray arr = <cnp.ndarray>a
    if cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_SIZE(arr) != 34 \
            or cnp.PyArray_NDIM(arr) != 1 or not cnp.PyArray_IS_C_CONTIGUOUS(arr):
        raise ValueError(f"{name} must be a C-contiguous numpy uint8 array of 34 entries")
    return <const uint8_t*>cnp.PyArray_DATA(arr)


cdef const uint8_t* checked_params(Params* prm, object counts, int wilds, object cap, object playable, int forms,
                                   int options) except NULL:
    """The hand's counts of :func:`shanten_fast` and :func:`shanten_after_discards`, checked
    (C-contiguous ``uint8[34]`` arrays, read without acquiring a buffer; each count at most its
    cap, caps at most 4), and ``prm`` filled for them."""
    cdef const uint8_t* c = u8_34(counts, "counts")
    cdef const uint8_t* cp = u8_34(cap, "cap")
    cdef const uint8_t* pl = u8_34(playable, "playable")
    cdef int i
    if wilds < 0 or wilds > MAX_WILDS:
        raise ValueError(f"wilds must be between 0 and {MAX_WILDS}")
    for i in range(34):
        if c[i] > cp[i] or cp[i] > 4:
            raise ValueError("each count must be at most its cap, and caps at most 4")
    params_init(prm, cp, pl, forms, options)
    return c


def shanten_fast(object counts, int n_melds, int wilds, object cap, object playable, int forms, int options):
    """Shanten of one hand (``INF`` = 100 when no allowed form applies), for the per-hand hot
    path: the arrays are C-contiguous ``uint8[34]`` numpy arrays, read without acquiring a buffer."""
    cdef Params prm
    cdef const uint8_t* c = checked_params(&prm, counts, wilds, cap, playable, forms, options)
    return shanten_one(c, n_melds, wilds, &prm)


def shanten_after_discards(object counts, int n_melds, int wilds, object cap, object playable, int forms,
                           int options):
    """:func:`shanten_fast` of the hand after each distinct discard: ``[(kind, shanten)]`` in
    kind order."""
    cdef Params prm
    cdef const uint8_t* c = checked_params(&prm, counts, wilds, cap, playable, forms, options)
    cdef uint8_t c2[34]
    cdef int k
    memcpy(c2, c, 34)
    out = []
    for k in range(34):
        if c2[k] == 0:
            continue
        c2[k] -= 1
        out.append((k, shanten_one(c2, n_melds, wilds, &prm)))
        c2[k] += 1
    return out


def shanten_counts_form(const uint8_t[::1] counts, int n_melds, int wilds, const uint8_t[::1] cap,
                        const uint8_t[::1] playable, int form, int options):
    """Shanten of a single form bit (``INF`` = 100 when the form cannot apply)."""
    cdef Params prm
    if counts.shape[0] != 34 or cap.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("counts, cap and playable must each have 34 entries")
    if wilds < 0 or wilds > MAX_WILDS:
        raise ValueError(f"wilds must be between 0 and {MAX_WILDS}")
    cdef int r, i
    for i in range(34):
        if counts[i] > cap[i] or cap[i] > 4:
            raise ValueError("each count must be at most its cap, and caps at most 4")
    params_init(&prm, &cap[0], &playable[0], form, options)
    with nogil:
        r = shanten_form(&counts[0], n_melds, wilds, &prm, form)
    return r


cdef class RuleParams:
    """A rule's kernel parameters, prepared once, for the per-hand hot path."""

    def __init__(self, cap, playable, int forms, int options):
        cdef const uint8_t* cp = u8_34(cap, "cap")
        cdef const uint8_t* pl = u8_34(playable, "playable")
        cdef int i
        for i in range(34):
            if cp[i] > 4:
                raise ValueError("caps must be at most 4")
        params_init(&self.prm, cp, pl, forms, options)

    def shanten(self, object counts, int wilds=0):
        """Shanten of a concealed hand without melds (ValueError when no form applies)."""
        return self.one(counts, wilds)

    cdef int one(self, object counts, int wilds) except? -99:
        cdef const uint8_t* c = u8_34(counts, "counts")
        cdef int i, r
        cdef Tally t
        if wilds < 0 or wilds > MAX_WILDS:
            raise ValueError(f"wilds must be between 0 and {MAX_WILDS}")
        if fused_applies(&self.prm) and tally_counts(c, wilds, (self.prm.options & O_PAIRS_DISTINCT) != 0, &t):
            # every cap is 4 here, so the tally's own check is the cap check
            r = shanten_tallied(c, &t, 0, wilds, &self.prm)
        else:
            for i in range(34):
                if c[i] > self.prm.cap[i]:
                    raise ValueError(f"{c[i]} copies of kind {i}, but at most {self.prm.cap[i]} are in play")
            r = shanten_one(c, 0, wilds, &self.prm)
        if r >= INF:
            raise ValueError(f"a hand of {hand_size(c, wilds)} tiles is not a 3k+1 or 3k+2 hand of at most "
                             f"14 tiles")
        return r


cdef enum:
    BAD_ROW = -100


cdef inline bint size_ok(int size, int n_melds) noexcept nogil:
    return size != 0 and size % 3 != 0 and size + 3 * n_melds <= 14


cdef inline bint row_ok(const uint8_t* c, int n_melds, int wilds, const Params* prm) noexcept nogil:
    """Counts within caps, wildcards in range, and a 3k+1 / 3k+2 size of at most 14 with melds."""
    cdef int k, size = wilds
    cdef bint ok = wilds >= 0 and wilds <= MAX_WILDS and n_melds >= 0 and n_melds <= 4
    for k in range(34):
        size += c[k]
        ok = ok & (c[k] <= prm.cap[k])
    return ok and size_ok(size, n_melds)


cdef inline int batch_row(const uint8_t* c, int n_melds, int wilds, const Params* prm, bint fused,
                          bint distinct) noexcept nogil:
    """Shanten of one batch row, or BAD_ROW."""
    cdef Tally t
    if not fused:
        return shanten_one(c, n_melds, wilds, prm) if row_ok(c, n_melds, wilds, prm) else BAD_ROW
    # every cap is 4 here, so the tally's own check is the cap check: one pass over the row
    if (wilds < 0 or wilds > MAX_WILDS or n_melds < 0 or n_melds > 4
            or not tally_counts(c, wilds, distinct, &t) or not size_ok(t.n, n_melds)):
        return BAD_ROW
    return shanten_tallied(c, &t, n_melds, wilds, prm)


def shanten_batch_kernel(const uint8_t[:, ::1] counts,   # IN (n, 34)
                         const int8_t[::1] n_melds,      # IN (n,)
                         const int8_t[::1] wilds,        # IN (n,)
                         const uint8_t[::1] cap, const uint8_t[::1] playable,
                         int forms, int options,
                         int8_t[::1] out,                # OUT (n,)
                         int n_threads=1, names=None):
    """Shanten of every row; releases the GIL and splits rows over ``n_threads``."""
    cdef Params prm
    cdef Py_ssize_t i, n = counts.shape[0]
    if counts.shape[1] != 34 or cap.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("counts must have 34 columns; cap and playable 34 entries")
    if n_melds.shape[0] != n or wilds.shape[0] != n or out.shape[0] != n:
        raise ValueError("n_melds, wilds and out must have one entry per row")
    cdef Py_ssize_t j, bad = -1
    cdef int size
    for j in range(34):
        if cap[j] > 4:
            raise ValueError("caps must be at most 4")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    cdef bint fused = fused_applies(&prm), distinct = (options & O_PAIRS_DISTINCT) != 0
    if n == 0:
        return
    # each row is checked where it is computed (the row is in cache then); a bad row is marked
    # BAD_ROW and explained below, so nothing is read out of bounds and no result is returned
    for i in prange(n, nogil=True, schedule="static", num_threads=max(1, n_threads)):
        out[i] = <int8_t>batch_row(&counts[i, 0], n_melds[i], wilds[i], &prm, fused, distinct)
    for i in range(n):
        if out[i] == BAD_ROW:
            bad = i
            break
    if bad < 0:
        return
    i = bad
    size = wilds[i]
    for j in range(34):
        size += counts[i, j]
        if counts[i, j] > cap[j]:
            name = names[j] if names is not None else f"kind {j}"
            raise ValueError(f"row {i}: {counts[i, j]} copies of {name}, but at most {cap[j]} are in play")
    if wilds[i] < 0 or wilds[i] > MAX_WILDS:
        raise ValueError(f"row {i}: wilds must be between 0 and {MAX_WILDS}")
    raise ValueError(f"row {i}: {size} tiles in hand with {n_melds[i]} melds is not a 3k+1 or 3k+2 "
                     f"hand of at most 14 tiles counting each meld as 3")
