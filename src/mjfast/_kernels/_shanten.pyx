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
"""
cimport cython
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t
from libc.string cimport memcpy

import numpy as np
cimport numpy as cnp
cnp.import_array()

# ---------------------------------------------------------------------------------------
# tables (set once at import from mjfast._kernels._tables; the arrays are kept alive here)
cdef const uint8_t* SUIT_N = NULL
cdef const uint8_t* SUIT_U = NULL
cdef const uint8_t* HON_N = NULL
cdef const uint8_t* HON_U = NULL
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


cdef inline void combine_rows(int* acc, const uint8_t* row, int kmax) noexcept nogil:
    """acc[2m+p] <- min-plus(acc, row) for the overflow-free fast path."""
    cdef int res[10]
    cdef int m1, m2, p1, p2, v, i
    for i in range(10):
        res[i] = INF
    for m1 in range(kmax + 1):
        for p1 in range(2):
            if acc[2 * m1 + p1] >= INF:
                continue
            for m2 in range(kmax - m1 + 1):
                for p2 in range(2 - p1):
                    v = acc[2 * m1 + p1] + row[2 * m2 + p2]
                    if v < res[2 * (m1 + m2) + p1 + p2]:
                        res[2 * (m1 + m2) + p1 + p2] = v
    for i in range(10):
        acc[i] = res[i]


cdef int standard_deficit_natural(const uint8_t* c, int kmax) noexcept nogil:
    """Fast path: every kind playable with 4 natural copies and no wildcards."""
    cdef int acc[10]
    cdef const uint8_t* row = SUIT_N + 10 * group_index(c, 9)
    cdef int i
    for i in range(10):
        acc[i] = row[i]
    combine_rows(acc, SUIT_N + 10 * group_index(c + 9, 9), kmax)
    combine_rows(acc, SUIT_N + 10 * group_index(c + 18, 9), kmax)
    combine_rows(acc, HON_N + 10 * group_index(c + 27, 7), kmax)
    return acc[2 * kmax + 1]


cdef int standard_deficit(const uint8_t* c, const uint8_t* cap, const uint8_t* playable,
                          int kmax, int W) noexcept nogil:
    """Least deficit of kmax sets + 1 pair (overflow <= W); INF when impossible."""
    cdef Group acc, g
    cdef int s, o, best = INF
    group_eval(c, cap, playable, False, kmax, W, acc)
    for s in range(1, 3):
        group_eval(c + 9 * s, cap + 9 * s, playable + 9 * s, False, kmax, W, g)
        combine(acc, g, kmax, W)
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
cdef int ORPHANS[13]
ORPHANS[:] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
cdef int8_t NO_FORCE[34]
NO_FORCE[:] = [0] * 34
# the six ways to lay 147 / 258 / 369 over the three suits
cdef int KNIT[6][9]
_perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
for _j, _pm in enumerate(_perms):
    for _s in range(3):
        for _x in range(3):
            KNIT[_j][3 * _s + _x] = 9 * _s + _pm[_s] + 3 * _x
# suit subsets whose tiles differ pairwise by >= 3 (十三浪), as bitmasks over the nine numbers
cdef int LAN_SUBSETS[64]
cdef int N_LAN_SUBSETS = 0
_lan = [mask for mask in range(512)
        if all(b - a >= 3 for a in range(9) for b in range(a + 1, 9) if mask >> a & 1 and mask >> b & 1)]
for _j, _mask in enumerate(_lan):
    LAN_SUBSETS[_j] = _mask
N_LAN_SUBSETS = len(_lan)


cdef int seven_pairs_deficit(const uint8_t* c, const Params* prm, int W) noexcept nogil:
    cdef int i, pairs = 0, odd = 0, need, use1
    cdef bint distinct = (prm.options & O_PAIRS_DISTINCT) != 0
    if prm.all_natural and W == 0:
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
    if distinct:
        return choose_kinds(c, prm, ALL_KINDS, 34, MENU_PAIRS_DISTINCT, 2, NO_FORCE, 14, W)
    return choose_kinds(c, prm, ALL_KINDS, 34, MENU_PAIRS, 3, NO_FORCE, 14, W)


cdef int thirteen_orphans_deficit(const uint8_t* c, const Params* prm, int W) noexcept nogil:
    cdef int i, kinds = 0
    cdef bint pair = False
    if prm.all_natural and W == 0:
        for i in range(13):
            if c[ORPHANS[i]]:
                kinds += 1
                if c[ORPHANS[i]] >= 2:
                    pair = True
        return 14 - kinds - pair
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


cdef int honors_knitted_deficit(const uint8_t* c, const Params* prm, int W, bint seven_stars) noexcept nogil:
    cdef int kinds[16]
    cdef int8_t forced[16]
    cdef int j, x, best = INF
    for x in range(7):
        kinds[9 + x] = 27 + x
        forced[9 + x] = 1 if seven_stars else 0
    for x in range(9):
        forced[x] = 0
    for j in range(6):
        for x in range(9):
            kinds[x] = KNIT[j][x]
        best = imin(best, choose_kinds(c, prm, kinds, 16, MENU_ONE, 2, forced, 14, W))
    return best


cdef int knitted_straight_deficit(const uint8_t* c, int kmax, const Params* prm, int W) noexcept nogil:
    """组合龙: the nine knitted tiles of one layout plus kmax sets and a pair."""
    cdef uint8_t rest[34]
    cdef uint8_t cap2[34]
    cdef int j, x, k, base, ov, d, best = INF
    cdef Params p2
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
        if base >= INF or ov > W:
            continue
        # a set and a pair never need a fourth copy of a knitted kind, so the natural table
        # still applies where every original cap was 4 (all_natural, no wildcards)
        if prm.all_natural and W == 0:
            d = standard_deficit(rest, prm.cap, prm.playable, kmax, 0)
        else:
            d = standard_deficit(rest, cap2, prm.playable, kmax, W - ov)
        if d < INF:
            best = imin(best, base + d)
    return best


cdef int nine_terminals_deficit(const uint8_t* c, const Params* prm, int W) noexcept nogil:
    cdef int i, held = 0
    if prm.all_natural and W == 0:
        for i in range(13):
            held += c[ORPHANS[i]]
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
    prm.forms = forms
    prm.options = options


cdef int shanten_form(const uint8_t* c, int n_melds, int wilds, const Params* prm, int form) noexcept nogil:
    """Shanten of one form; INF when the form cannot apply to this hand."""
    cdef int i, n = wilds, kmax, d = INF
    cdef int W = wilds if wilds < MAX_WILDS else MAX_WILDS
    for i in range(34):
        n += c[i]
    if n % 3 == 0:
        return INF
    kmax = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    if kmax > 4:
        return INF
    if form == F_STANDARD:
        if prm.all_natural and W == 0:
            d = standard_deficit_natural(c, kmax)
        else:
            d = standard_deficit(c, prm.cap, prm.playable, kmax, W)
    elif n_melds == 0 and kmax == 4:
        if form == F_SEVEN_PAIRS:
            d = seven_pairs_deficit(c, prm, W)
        elif form == F_THIRTEEN_ORPHANS:
            d = thirteen_orphans_deficit(c, prm, W)
        elif form == F_THIRTEEN_LAN:
            d = thirteen_lan_deficit(c, prm, W)
        elif form == F_HONORS_KNITTED:
            d = honors_knitted_deficit(c, prm, W, False)
        elif form == F_SEVEN_STARS:
            d = honors_knitted_deficit(c, prm, W, True)
        elif form == F_NINE_TERMINALS:
            d = nine_terminals_deficit(c, prm, W)
    if form == F_KNITTED_STRAIGHT and n_melds <= 1 and kmax + n_melds == 4 and kmax >= 3:
        d = knitted_straight_deficit(c, kmax - 3, prm, W)
    if d >= INF:
        return INF
    return d - wilds - 1


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
                for i in range(9):
                    p2.playable[9 * s + i] = 0
                best = imin(best, shanten_one(c, n_melds, wilds, &p2))
        return best
    while bit <= F_SEVEN_STARS:
        if prm.forms & bit:
            best = imin(best, shanten_form(c, n_melds, wilds, prm, bit))
        bit <<= 1
    return best


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


def shanten_fast(object counts, int n_melds, int wilds, object cap, object playable, int forms, int options):
    """As :func:`shanten_counts`, for the per-hand hot path (no buffer acquisition)."""
    cdef const uint8_t* c = u8_34(counts, "counts")
    cdef const uint8_t* cp = u8_34(cap, "cap")
    cdef const uint8_t* pl = u8_34(playable, "playable")
    cdef Params prm
    cdef int i
    if wilds < 0 or wilds > MAX_WILDS:
        raise ValueError(f"wilds must be between 0 and {MAX_WILDS}")
    for i in range(34):
        if c[i] > cp[i] or cp[i] > 4:
            raise ValueError("each count must be at most its cap, and caps at most 4")
    params_init(&prm, cp, pl, forms, options)
    return shanten_one(c, n_melds, wilds, &prm)

def shanten_counts(const uint8_t[::1] counts, int n_melds, int wilds, const uint8_t[::1] cap,
                   const uint8_t[::1] playable, int forms, int options):
    """Shanten of one hand (``INF`` = 100 when no allowed form applies).

    Parameters
    ----------
    counts : uint8[34]       # IN concealed natural tiles
    n_melds : int            # IN called melds
    wilds : int              # IN wildcards held (0..8)
    cap, playable : uint8[34]  # IN natural-copy limits and the playable mask
    forms, options : int     # IN form and option bit sets
    """
    cdef Params prm
    if counts.shape[0] != 34 or cap.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("counts, cap and playable must each have 34 entries")
    if wilds < 0 or wilds > MAX_WILDS:
        raise ValueError(f"wilds must be between 0 and {MAX_WILDS}")
    cdef int r, i
    for i in range(34):
        if counts[i] > cap[i] or cap[i] > 4:
            raise ValueError("each count must be at most its cap, and caps at most 4")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    with nogil:
        r = shanten_one(&counts[0], n_melds, wilds, &prm)
    return r


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


@cython.boundscheck(False)
def shanten_batch_kernel(const uint8_t[:, ::1] counts,   # IN (n, 34)
                         const int8_t[::1] n_melds,      # IN (n,)
                         const int8_t[::1] wilds,        # IN (n,)
                         const uint8_t[::1] cap, const uint8_t[::1] playable,
                         int forms, int options,
                         int8_t[::1] out,                # OUT (n,)
                         int n_threads=1):
    """Shanten of every row; releases the GIL and splits rows over ``n_threads``."""
    cdef Params prm
    cdef Py_ssize_t i, n = counts.shape[0]
    cdef int r
    if counts.shape[1] != 34 or cap.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("counts must have 34 columns; cap and playable 34 entries")
    if n_melds.shape[0] != n or wilds.shape[0] != n or out.shape[0] != n:
        raise ValueError("n_melds, wilds and out must have one entry per row")
    cdef Py_ssize_t j
    for j in range(34):
        if cap[j] > 4:
            raise ValueError("caps must be at most 4")
    for i in range(n):
        for j in range(34):
            if counts[i, j] > cap[j]:
                raise ValueError(f"row {i}: count of kind {j} exceeds its cap")
        if wilds[i] < 0 or wilds[i] > MAX_WILDS:
            raise ValueError(f"row {i}: wilds must be between 0 and {MAX_WILDS}")
    params_init(&prm, &cap[0], &playable[0], forms, options)
    if n == 0:
        return
    for i in prange(n, nogil=True, schedule="static", num_threads=max(1, n_threads)):
        r = shanten_one(&counts[i, 0], n_melds[i], wilds[i], &prm)
        out[i] = <int8_t>r
