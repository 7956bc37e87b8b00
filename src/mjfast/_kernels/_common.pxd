# Shared C-level facts of the kernels: sizes, the form and option bits, the small constant tables
# several kernels index and two compiler hints (lowest set bit, prefetch).  This is their one
# home: every kernel cimports them from here (``_shanten`` exports the bits to Python as
# ``FORM_BITS`` / ``OPTION_BITS``, which ``mjfast._bridge`` reads).
#
# The tables are ``static const`` C arrays, so each kernel compiles its own read-only copy in
# (no import-time fill, nothing shared to race on under free threading).
from libc.stdint cimport uint8_t

cdef enum:
    N_KINDS = 34
    MAX_WILDS = 8            # most wildcards one hand may hold
    INF = 100                # "no allowed form applies"

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

cdef extern from *:
    """
    /* a group's table index is the sum of count x 5 ** position (the shanten tables) */
    static const int mjfast_pow5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
    /* the thirteen terminals and honours (十三幺) */
    static const int mjfast_orphans[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
    static const unsigned char mjfast_is_orphan[34] = {
        1, 0, 0, 0, 0, 0, 0, 0, 1,  1, 0, 0, 0, 0, 0, 0, 0, 1,  1, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 1, 1, 1, 1, 1, 1};
    /* the six ways to lay 147 / 258 / 369 over the three suits (组合龙, 全不靠): layout j holds
       9 * s + p_j[s] + 3 * x for suit s and x = 0, 1, 2, with p_j the j-th permutation of
       (0, 1, 2) in lexicographic order */
    static const int mjfast_knit[6][9] = {
        {0, 3, 6, 10, 13, 16, 20, 23, 26},
        {0, 3, 6, 11, 14, 17, 19, 22, 25},
        {1, 4, 7, 9, 12, 15, 20, 23, 26},
        {1, 4, 7, 11, 14, 17, 18, 21, 24},
        {2, 5, 8, 9, 12, 15, 19, 22, 25},
        {2, 5, 8, 10, 13, 16, 18, 21, 24}};
    """
    const int POW5 "mjfast_pow5"[9]
    const int ORPHANS "mjfast_orphans"[13]
    const uint8_t IS_ORPHAN "mjfast_is_orphan"[34]
    const int KNIT "mjfast_knit"[6][9]


cdef extern from *:
    """
    /* index of the lowest set bit of a non-zero word */
    #if defined(__GNUC__) || defined(__clang__)
    #define mjfast_ctz64(x) __builtin_ctzll(x)
    #else
    static int mjfast_ctz64(unsigned long long x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
    #endif
    /* start loading the cache line of an address (a hint; nothing where the compiler lacks it) */
    #if defined(__GNUC__) || defined(__clang__)
    #define mjfast_prefetch(p) __builtin_prefetch(p)
    #else
    #define mjfast_prefetch(p) ((void)(p))
    #endif
    """
    int ctz64 "mjfast_ctz64"(unsigned long long x) noexcept nogil
    void prefetch "mjfast_prefetch"(const void* p) noexcept nogil
