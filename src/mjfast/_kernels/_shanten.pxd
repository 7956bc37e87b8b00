# Internal C-API of the shanten kernel, shared with the efficiency kernel.
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t

cdef enum:
    N_KINDS = 34
    MAX_WILDS = 8
    INF = 100

# form bits
cdef enum:
    F_STANDARD = 1
    F_SEVEN_PAIRS = 2
    F_THIRTEEN_ORPHANS = 4
    F_THIRTEEN_LAN = 8
    F_HONORS_KNITTED = 16
    F_KNITTED_STRAIGHT = 32
    F_NINE_TERMINALS = 64
    F_SEVEN_STARS = 128

# option bits
cdef enum:
    O_PAIRS_DISTINCT = 1     # riichi seven pairs: seven different kinds
    O_LAN_STRICT = 2         # 烂胡 strict: exactly three tiles per suit + five honours
    O_VOID_M = 4             # with O_NEED_VOID: the suits that may be left empty (m << 0, p << 1, s << 2)
    O_NEED_VOID = 32         # 缺一门: a winning hand leaves one suit empty
    O_HONOUR_CHOWS = 64      # any three different winds, any three different dragons form a set

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
cdef int shanten_form(const uint8_t* c, int n_melds, int wilds, const Params* prm, int form) noexcept nogil
cdef void params_init(Params* prm, const uint8_t* cap, const uint8_t* playable, int forms, int options) noexcept nogil
cdef int standard_from_indices(int i0, int i1, int i2, int i3, int kmax) noexcept nogil
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
