# Internal C-API of the 国标 MCR fan search, shared with the game kernel (its 8-番 minimum).
from libc.stdint cimport uint8_t

cdef enum:
    MCR_CHOW = 1         # meld types of the fan search
    MCR_PUNG = 2
    MCR_KONG = 3

cdef int mcr_fan_total(const uint8_t* counts, int n_melds, const int* meld_type, const int* meld_first,
                       const int* meld_melded, int win, int self_drawn, int last_copy, int kong, int wall_last,
                       int seat, int prevalent, int opts) noexcept nogil  # after mcr_ready
cdef int mcr_ready() except -1
