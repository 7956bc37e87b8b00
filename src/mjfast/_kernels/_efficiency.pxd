# Internal C-API of the efficiency kernel, shared with the game kernel and the front doors.
from libc.stdint cimport uint8_t

from mjfast._kernels._shanten cimport Params, merge_rows, finish

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
