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

ctypedef struct Params:
    uint8_t cap[34]          # most NATURAL copies of each kind the concealed part can hold
    uint8_t playable[34]     # 1 if a target may contain the kind (naturally or via a wildcard)
    uint8_t all_natural      # every kind playable with cap 4 (the table fast path applies)
    int32_t forms
    int32_t options

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
