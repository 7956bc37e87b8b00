# Internal C-API of the efficiency kernel, shared with the game kernel and the front doors.
from libc.stdint cimport uint8_t

from mjfast._kernels._shanten cimport Params

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
