# Internal C-API of the efficiency kernel, shared with the game kernel and the front doors.
from libc.stdint cimport uint8_t, uint64_t

from mjfast._kernels._common cimport IS_ORPHAN
from mjfast._kernels._shanten cimport Params, merge_rows, finish, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS

ctypedef struct Eval:
    uint8_t c[34]
    const Params* prm
    int n_melds
    int wilds
    bint fast
    bint distinct
    int forms
    int n                  # tiles in hand, wildcards included
    int idx[4]             # table index of each group (fast mode)
    int pairs, odd         # seven-pairs statistics
    int orph, orph_pair    # thirteen-orphans statistics

cdef void ev_init(Eval* ev, const uint8_t* c, int n_melds, int wilds, const Params* prm) noexcept nogil
cdef int accept_mask(Eval* ev, int s0, uint8_t* mask) noexcept nogil
cdef object ukeire_record(const Params* prm, const uint8_t* c, int n_melds, int wilds)
cdef dict discard_columns(const Params* prm, const uint8_t* c, int n_melds, int wilds, bint with_combos)


cdef inline int seven_pairs_need(int pairs, int odd) noexcept nogil:
    """Seven-pairs deficit from the pair and single counts (as in the shanten kernel); inline
    here for the game kernel too."""
    cdef int need, use1
    if pairs >= 7:
        return 0
    need = 7 - pairs
    use1 = need if need < odd else odd
    return use1 + 2 * (need - use1)


# the standard form's two-by-two merge of the group rows, shared with the value kernel
cdef inline void merge_pair(int* out, const uint8_t* a, const uint8_t* b, int kmax) noexcept nogil:
    """merge_rows, with a constant bound for a target of four sets (no melds: then unrolled)."""
    if kmax == 4:
        merge_rows(out, a, b, 4)
    else:
        merge_rows(out, a, b, kmax)


cdef inline int finish_pair(const int* a, const int* b, int kmax) noexcept nogil:
    """finish, with a constant bound for a target of four sets."""
    return finish(a, b, 4) if kmax == 4 else finish(a, b, kmax)


cdef inline void mark_splits(const uint8_t* a, const uint8_t* b, const int* ab, const int* other, int kmax,
                             int best, unsigned int* opt_a, unsigned int* opt_b) noexcept nogil:
    """Set bit ``2m+p`` of ``opt_a`` / ``opt_b`` for each cell of ``a`` / ``b`` (= merged ``ab``) on a
    split of deficit ``best`` with the other half ``other``: a cell of ``ab`` on such a split,
    reached by ``a`` and ``b`` exactly."""
    cdef int m, p, m1, p1, v
    for m in range(kmax + 1):
        for p in range(2):
            v = ab[2 * m + p]
            if v + other[2 * (kmax - m) + 1 - p] != best:
                continue
            for m1 in range(m + 1):
                for p1 in range(p + 1):
                    if a[2 * m1 + p1] + b[2 * (m - m1) + p - p1] == v:
                        opt_a[0] |= 1u << (2 * m1 + p1)
                        opt_b[0] |= 1u << (2 * (m - m1) + p - p1)


cdef inline uint64_t special_accept_bits(const uint8_t* c, int pairs, int odd, int orph, int orph_pair,
                                         bint distinct, int forms, int best) noexcept nogil:
    """The kinds (bit k) whose draw lowers the seven-pairs or thirteen-orphans deficit of a
    concealed hand aiming at four sets where that deficit is the hand's least, ``best``
    (``pairs``, ``odd``, ``orph``, ``orph_pair``: its seven-pairs and orphan statistics); the
    accept bits of the forms besides the standard one, for the efficiency and value kernels."""
    cdef uint64_t bits = 0
    cdef bint lower7[4]
    cdef int k, x, dp, dodd, d7
    if forms & F_SEVEN_PAIRS:
        d7 = seven_pairs_need(pairs, odd)
        if d7 == best:
            # whether a draw lowers the seven-pairs deficit depends only on the count held
            for x in range(4):
                if distinct:
                    dp = x == 1
                    dodd = (x == 0) - (x == 1)
                else:
                    dp = x & 1
                    dodd = 1 - 2 * (x & 1)
                lower7[x] = seven_pairs_need(pairs + dp, odd + dodd) < d7
            for k in range(34):
                x = c[k]
                if x < 4 and lower7[x]:
                    bits |= (<uint64_t>1) << k
    if forms & F_THIRTEEN_ORPHANS and 14 - orph - (1 if orph_pair > 0 else 0) == best:
        for k in range(34):
            if IS_ORPHAN[k] and (c[k] == 0 or (c[k] == 1 and orph_pair == 0)):
                bits |= (<uint64_t>1) << k
    return bits
