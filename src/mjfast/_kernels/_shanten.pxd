# Internal C-API of the shanten kernel, shared with the efficiency kernel.
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t

# the shared constants, cimported here so that the kernels built on this one see them too
from mjfast._kernels._common cimport (
    N_KINDS, MAX_WILDS, INF, F_STANDARD, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS, F_THIRTEEN_LAN, F_HONORS_KNITTED,
    F_KNITTED_STRAIGHT, F_NINE_TERMINALS, F_SEVEN_STARS, O_PAIRS_DISTINCT, O_LAN_STRICT, O_VOID_M, O_NEED_VOID,
    O_HONOUR_CHOWS)

ctypedef struct Params:
    uint8_t cap[34]          # most NATURAL copies of each kind the concealed part can hold
    uint8_t playable[34]     # 1 if a target may contain the kind (naturally or via a wildcard)
    uint8_t all_natural      # every kind playable with cap 4 and no honour chows (the table fast path applies)
    uint8_t hc_natural       # every kind playable with cap 4 and honour chows (this kernel's table path applies)
    int32_t forms
    int32_t options
    const uint8_t* hon_n     # the honour tables of this kernel's table path (honour-chow ones under O_HONOUR_CHOWS)
    const uint8_t* hon_u

cdef int shanten_one(const uint8_t* c, int n_melds, int wilds, const Params* prm) noexcept nogil
cdef int shanten_below(const uint8_t* c, int n_melds, int wilds, const Params* prm, int bound) noexcept nogil
cdef int shanten_form(const uint8_t* c, int n_melds, int wilds, const Params* prm, int form) noexcept nogil
cdef void params_init(Params* prm, const uint8_t* cap, const uint8_t* playable, int forms, int options) noexcept nogil
cdef int hand_size(const uint8_t* c, int wilds) noexcept nogil
cdef const uint8_t* table_row(int group, int idx) noexcept nogil
cdef void merge_int_rows(int* out, const int* a, const int* b, int kmax) noexcept nogil

cdef class RuleParams:
    cdef Params prm
    cdef int one(self, object counts, int wilds) except? -99


cdef inline void merge_rows(int* out, const uint8_t* a, const uint8_t* b, int kmax) noexcept nogil:
    """out[2m+p] = min-plus of two overflow-free table rows, for m <= kmax.

    The uint8 twin of merge_int_rows: it reads the table rows in place on the hottest path
    (no copy into ints first).  Inline here so the efficiency kernel inlines it too."""
    cdef int m, m1, v, best0, best1
    for m in range(kmax + 1):
        best0 = INF
        best1 = INF
        for m1 in range(m + 1):
            v = a[2 * m1] + b[2 * (m - m1)]
            if v < best0:
                best0 = v
            v = a[2 * m1 + 1] + b[2 * (m - m1)]
            if v < best1:
                best1 = v
            v = a[2 * m1] + b[2 * (m - m1) + 1]
            if v < best1:
                best1 = v
        out[2 * m] = best0
        out[2 * m + 1] = best1


cdef inline int finish(const int* a, const int* b, int kmax) noexcept nogil:
    """Least a[m1][p1] + b[kmax-m1][1-p1]: the final merge needs only one entry."""
    cdef int m1, v, best = INF
    for m1 in range(kmax + 1):
        v = a[2 * m1] + b[2 * (kmax - m1) + 1]
        if v < best:
            best = v
        v = a[2 * m1 + 1] + b[2 * (kmax - m1)]
        if v < best:
            best = v
    return best
