# Internal C-API of the efficiency kernel, shared with the game kernel.
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
