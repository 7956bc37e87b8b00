"""国标 MCR fan search (compiled twin of :mod:`mjfast._reference.mcr`).

The same counting as the pure-Python engine (which is checked fan for fan against the
reference calculator PyMahjongGB, ``rules/guobiao_fans.md``), written over C arrays for speed.
Tiles are the reference calculator's values ``suit << 4 | rank`` (万 1, 条 2, 饼 3, 字 4; honours
E S W N 中 发 白 = 0x41..0x47); counts come in mjfast order and are translated on entry.  The
set + pair splits are enumerated here, depth first in reference tile order with sets
non-decreasing (pung before chow on the same tile), which is the order the reference visits
them in and so decides ties the same way.

Entry point: :func:`mcr_calculate`, which returns a :class:`Found`.  The fan values are read
from the one fan table, :mod:`mjfast.scoring._fans`, when this module is imported.

Speed: the split search abandons a level as soon as a tile it passed over could only
be the pair and is not (this prunes dead branches only, so the splits and their order are the
reference's), and the unique-wait test of the standard form asks, for each other candidate
tile, whether it completes its own suit or the honours (the other groups' splits are computed
once) instead of listing every wait of the hand.
"""
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint16_t
from libc.string cimport memset, memcpy
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.object cimport PyObject, PyTypeObject
from cpython.type cimport PyType_IsSubtype

cnp.import_array()

cdef enum:
    NF = 83
    READING_W = 17
    TT = 72
    MAXDIV = 24
    CHOW = MCR_CHOW
    PUNG = MCR_PUNG
    KONG = MCR_KONG
    PAIR = 4
    F_SELF_DRAWN = 1
    F_LAST_TILE = 2
    F_KONG = 4
    F_WALL_LAST = 8
    OPT_V2 = 1
    OPT_TONGKE = 2
    OPT_BUQIUREN = 4
    T_E = 0x41
    T_S = 0x42
    T_W = 0x43
    T_N = 0x44
    T_C = 0x45
    T_F = 0x46
    T_P = 0x47
    FLOWER_TILES_ = 81
    # reading forms
    R_NONE = 0
    R_STANDARD = 1
    R_SEVEN_PAIRS = 2
    R_SEVEN_SHIFTED = 3
    R_HONORS_KNITTED = 4
    R_THIRTEEN_ORPHANS = 5
    R_KNITTED_STRAIGHT = 6
    R_NINE_GATES = 7

cdef enum:
    BIG_FOUR_WINDS = 1
    BIG_THREE_DRAGONS = 2
    ALL_GREEN = 3
    NINE_GATES = 4
    FOUR_KONGS = 5
    SEVEN_SHIFTED_PAIRS = 6
    THIRTEEN_ORPHANS = 7
    ALL_TERMINALS = 8
    LITTLE_FOUR_WINDS = 9
    LITTLE_THREE_DRAGONS = 10
    ALL_HONORS = 11
    FOUR_CONCEALED_PUNGS = 12
    PURE_TERMINAL_CHOWS = 13
    QUADRUPLE_CHOW = 14
    FOUR_PURE_SHIFTED_PUNGS = 15
    FOUR_PURE_SHIFTED_CHOWS = 16
    THREE_KONGS = 17
    ALL_TERMINALS_AND_HONORS = 18
    SEVEN_PAIRS = 19
    GREATER_HONORS_AND_KNITTED_TILES = 20
    ALL_EVEN_PUNGS = 21
    FULL_FLUSH = 22
    PURE_TRIPLE_CHOW = 23
    PURE_SHIFTED_PUNGS = 24
    UPPER_TILES = 25
    MIDDLE_TILES = 26
    LOWER_TILES = 27
    PURE_STRAIGHT = 28
    THREE_SUITED_TERMINAL_CHOWS = 29
    PURE_SHIFTED_CHOWS = 30
    ALL_FIVE = 31
    TRIPLE_PUNG = 32
    THREE_CONCEALED_PUNGS = 33
    LESSER_HONORS_AND_KNITTED_TILES = 34
    KNITTED_STRAIGHT = 35
    UPPER_FOUR = 36
    LOWER_FOUR = 37
    BIG_THREE_WINDS = 38
    MIXED_STRAIGHT = 39
    REVERSIBLE_TILES = 40
    MIXED_TRIPLE_CHOW = 41
    MIXED_SHIFTED_PUNGS = 42
    CHICKEN_HAND = 43
    LAST_TILE_DRAW = 44
    LAST_TILE_CLAIM = 45
    OUT_WITH_REPLACEMENT_TILE = 46
    ROBBING_THE_KONG = 47
    ALL_PUNGS = 48
    HALF_FLUSH = 49
    MIXED_SHIFTED_CHOWS = 50
    ALL_TYPES = 51
    MELDED_HAND = 52
    TWO_CONCEALED_KONGS = 53
    TWO_DRAGONS_PUNGS = 54
    OUTSIDE_HAND = 55
    FULLY_CONCEALED_HAND = 56
    TWO_MELDED_KONGS = 57
    LAST_TILE = 58
    DRAGON_PUNG = 59
    PREVALENT_WIND = 60
    SEAT_WIND = 61
    CONCEALED_HAND = 62
    ALL_CHOWS = 63
    TILE_HOG = 64
    DOUBLE_PUNG = 65
    TWO_CONCEALED_PUNGS = 66
    CONCEALED_KONG = 67
    ALL_SIMPLES = 68
    PURE_DOUBLE_CHOW = 69
    MIXED_DOUBLE_CHOW = 70
    SHORT_STRAIGHT = 71
    TWO_TERMINAL_CHOWS = 72
    PUNG_OF_TERMINALS_OR_HONORS = 73
    MELDED_KONG = 74
    ONE_VOIDED_SUIT = 75
    NO_HONORS = 76
    EDGE_WAIT = 77
    CLOSED_WAIT = 78
    SINGLE_WAIT = 79
    SELF_DRAWN = 80
    FLOWER_TILES = 81
    CONCEALED_KONG_AND_MELDED_KONG = 82

READING_WIDTH = READING_W
READING_FORMS = ("", "standard", "seven_pairs", "seven_shifted_pairs", "honors_and_knitted",
                 "thirteen_orphans", "knitted_straight", "nine_gates")

cdef int FAN_VALUE[NF]   # filled from the fan table on first use (mcr_ready, at the end of this module)

# mjfast id -> reference value, and back
cdef int TO_REF[34]
cdef int FROM_REF[TT]
cdef int ALL_REF[34]
_to_ref = ([0x11 + i for i in range(9)] + [0x31 + i for i in range(9)] + [0x21 + i for i in range(9)]
           + [0x41, 0x42, 0x43, 0x44, 0x47, 0x46, 0x45])
for _i in range(TT):
    FROM_REF[_i] = -1
for _i in range(34):
    TO_REF[_i] = _to_ref[_i]
    FROM_REF[_to_ref[_i]] = _i
for _i, _v in enumerate(sorted(_to_ref)):
    ALL_REF[_i] = _v

cdef int KNIT[6][9]
_knit = (
    (0x11, 0x14, 0x17, 0x22, 0x25, 0x28, 0x33, 0x36, 0x39),
    (0x11, 0x14, 0x17, 0x23, 0x26, 0x29, 0x32, 0x35, 0x38),
    (0x12, 0x15, 0x18, 0x21, 0x24, 0x27, 0x33, 0x36, 0x39),
    (0x12, 0x15, 0x18, 0x23, 0x26, 0x29, 0x31, 0x34, 0x37),
    (0x13, 0x16, 0x19, 0x21, 0x24, 0x27, 0x32, 0x35, 0x38),
    (0x13, 0x16, 0x19, 0x22, 0x25, 0x28, 0x31, 0x34, 0x37),
)
for _i in range(6):
    for _j in range(9):
        KNIT[_i][_j] = _knit[_i][_j]
cdef int ORPHANS[13]
for _i, _v in enumerate((0x11, 0x19, 0x21, 0x29, 0x31, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47)):
    ORPHANS[_i] = _v


# --------------------------------------------------------------------------------------------
# tiles
cdef inline bint is_num(int t) noexcept nogil:
    return t < 0x40

cdef inline bint is_terminal(int t) noexcept nogil:
    return t < 0x40 and ((t & 15) == 1 or (t & 15) == 9)

cdef inline bint is_wind(int t) noexcept nogil:
    return 0x41 <= t <= 0x44

cdef inline bint is_dragon(int t) noexcept nogil:
    return 0x45 <= t <= 0x47

cdef inline bint is_honor(int t) noexcept nogil:
    return t > 0x40

cdef inline bint is_term_or_honor(int t) noexcept nogil:
    return t > 0x40 or (t & 15) == 1 or (t & 15) == 9

cdef inline bint is_green(int t) noexcept nogil:
    return t == 0x22 or t == 0x23 or t == 0x24 or t == 0x26 or t == 0x28 or t == T_F

cdef inline bint is_reversible(int t) noexcept nogil:
    if 0x21 <= t <= 0x29:
        return t == 0x22 or t == 0x24 or t == 0x25 or t == 0x26 or t == 0x28 or t == 0x29
    if 0x31 <= t <= 0x39:
        return t <= 0x35 or t == 0x38 or t == 0x39
    return t == T_P

cdef inline void sort_ints(int* a, int n) noexcept nogil:
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x

cdef inline int ptype(int p) noexcept nogil:
    return (p >> 8) & 15

cdef inline int ptile(int p) noexcept nogil:
    return p & 255

cdef inline bint pmelded(int p) noexcept nogil:
    return (p & 0x3000) != 0

cdef inline int make_pack(int melded, int typ, int tile) noexcept nogil:
    return (0x1000 if melded else 0) | (typ << 8) | tile


# --------------------------------------------------------------------------------------------
# set combinations
cdef inline bint shifted_1_unordered(int r0, int r1, int r2) noexcept nogil:
    cdef int a[3]
    a[0] = r0
    a[1] = r1
    a[2] = r2
    sort_ints(a, 3)
    return a[0] + 1 == a[1] and a[1] + 1 == a[2]

cdef int four_chows_fan(int t0, int t1, int t2, int t3) noexcept nogil:
    if t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3:
        return FOUR_PURE_SHIFTED_CHOWS
    if t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return FOUR_PURE_SHIFTED_CHOWS
    if t0 == t1 and t0 == t2 and t0 == t3:
        return QUADRUPLE_CHOW
    return 0

cdef int three_chows_fan(int t0, int t1, int t2) noexcept nogil:
    cdef int s0 = t0 >> 4, s1 = t1 >> 4, s2 = t2 >> 4
    cdef int r0 = t0 & 15, r1 = t1 & 15, r2 = t2 & 15
    cdef int a[3]
    if s0 != s1 and s0 != s2 and s1 != s2:
        if shifted_1_unordered(r0, r1, r2):
            return MIXED_SHIFTED_CHOWS
        if r0 == r1 and r1 == r2:
            return MIXED_TRIPLE_CHOW
        a[0] = r0
        a[1] = r1
        a[2] = r2
        sort_ints(a, 3)
        if a[0] == 2 and a[1] == 5 and a[2] == 8:
            return MIXED_STRAIGHT
    else:
        if t0 + 3 == t1 and t1 + 3 == t2:
            return PURE_STRAIGHT
        if t0 + 2 == t1 and t1 + 2 == t2:
            return PURE_SHIFTED_CHOWS
        if t0 + 1 == t1 and t1 + 1 == t2:
            return PURE_SHIFTED_CHOWS
        if t0 == t1 and t0 == t2:
            return PURE_TRIPLE_CHOW
    return 0

cdef int two_chows_fan(int t0, int t1) noexcept nogil:
    cdef int r0, r1
    if (t0 >> 4) != (t1 >> 4):
        if (t0 & 15) == (t1 & 15):
            return MIXED_DOUBLE_CHOW
    else:
        if t0 + 3 == t1 or t1 + 3 == t0:
            return SHORT_STRAIGHT
        r0 = t0 & 15
        r1 = t1 & 15
        if (r0 == 2 and r1 == 8) or (r0 == 8 and r1 == 2):
            return TWO_TERMINAL_CHOWS
        if t0 == t1:
            return PURE_DOUBLE_CHOW
    return 0

cdef int four_pungs_fan(int t0, int t1, int t2, int t3) noexcept nogil:
    if t0 < 0x40 and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return FOUR_PURE_SHIFTED_PUNGS
    if t0 == T_E and t1 == T_S and t2 == T_W and t3 == T_N:
        return BIG_FOUR_WINDS
    return 0

cdef int three_pungs_fan(int t0, int t1, int t2) noexcept nogil:
    cdef int s0, s1, s2
    if t0 < 0x40 and t1 < 0x40 and t2 < 0x40:
        s0 = t0 >> 4
        s1 = t1 >> 4
        s2 = t2 >> 4
        if s0 != s1 and s0 != s2 and s1 != s2:
            if shifted_1_unordered(t0 & 15, t1 & 15, t2 & 15):
                return MIXED_SHIFTED_PUNGS
            if (t0 & 15) == (t1 & 15) and (t1 & 15) == (t2 & 15):
                return TRIPLE_PUNG
        elif t0 + 1 == t1 and t1 + 1 == t2:
            return PURE_SHIFTED_PUNGS
    else:
        if ((t0 == T_E and t1 == T_S and t2 == T_W) or (t0 == T_E and t1 == T_S and t2 == T_N)
                or (t0 == T_E and t1 == T_W and t2 == T_N) or (t0 == T_S and t1 == T_W and t2 == T_N)):
            return BIG_THREE_WINDS
        if t0 == T_C and t1 == T_F and t2 == T_P:
            return BIG_THREE_DRAGONS
    return 0

cdef int two_pungs_fan(int t0, int t1) noexcept nogil:
    if t0 < 0x40 and t1 < 0x40:
        if (t0 & 15) == (t1 & 15):
            return DOUBLE_PUNG
    elif is_dragon(t0) and is_dragon(t1):
        return TWO_DRAGONS_PUNGS
    return 0

cdef int one_chow_extra(int t0, int t1, int t2, int te) noexcept nogil:
    cdef int f0 = two_chows_fan(t0, te), f1 = two_chows_fan(t1, te), f2 = two_chows_fan(t2, te)
    if f0 == PURE_DOUBLE_CHOW or f1 == PURE_DOUBLE_CHOW or f2 == PURE_DOUBLE_CHOW:
        return PURE_DOUBLE_CHOW
    if f0 == MIXED_DOUBLE_CHOW or f1 == MIXED_DOUBLE_CHOW or f2 == MIXED_DOUBLE_CHOW:
        return MIXED_DOUBLE_CHOW
    if f0 == SHORT_STRAIGHT or f1 == SHORT_STRAIGHT or f2 == SHORT_STRAIGHT:
        return SHORT_STRAIGHT
    if f0 == TWO_TERMINAL_CHOWS or f1 == TWO_TERMINAL_CHOWS or f2 == TWO_TERMINAL_CHOWS:
        return TWO_TERMINAL_CHOWS
    return 0

cdef void exclusionary(int* fans, int n, int max_cnt, int* ft) noexcept nogil:
    cdef int table[4]
    cdef int cnt = 0, i, idx, limit = 1
    table[0] = table[1] = table[2] = table[3] = 0
    for i in range(n):
        if fans[i]:
            cnt += 1
            table[fans[i] - PURE_DOUBLE_CHOW] += 1
    while cnt > max_cnt and limit >= 0:
        idx = 4
        while cnt > max_cnt and idx > 0:
            idx -= 1
            while table[idx] > limit and cnt > max_cnt:
                table[idx] -= 1
                cnt -= 1
        limit -= 1
    ft[PURE_DOUBLE_CHOW] = table[0]
    ft[MIXED_DOUBLE_CHOW] = table[1]
    ft[SHORT_STRAIGHT] = table[2]
    ft[TWO_TERMINAL_CHOWS] = table[3]

cdef bint three_of_four(int t0, int t1, int t2, int te, int* ft) noexcept nogil:
    cdef int f = three_chows_fan(t0, t1, t2)
    if f:
        ft[f] = 1
        f = one_chow_extra(t0, t1, t2, te)
        if f:
            ft[f] = 1
        return True
    return False

cdef void four_chows(int* m, int* ft) noexcept nogil:
    cdef int f = four_chows_fan(m[0], m[1], m[2], m[3])
    cdef int a[6]
    cdef int max_cnt = 3
    if f:
        ft[f] = 1
        return
    if (three_of_four(m[0], m[1], m[2], m[3], ft) or three_of_four(m[0], m[1], m[3], m[2], ft)
            or three_of_four(m[0], m[2], m[3], m[1], ft) or three_of_four(m[1], m[2], m[3], m[0], ft)):
        return
    a[0] = two_chows_fan(m[0], m[1])
    a[1] = two_chows_fan(m[0], m[2])
    a[2] = two_chows_fan(m[0], m[3])
    a[3] = two_chows_fan(m[1], m[2])
    a[4] = two_chows_fan(m[1], m[3])
    a[5] = two_chows_fan(m[2], m[3])
    if not (a[0] or a[1] or a[2]):
        max_cnt -= 1
    if not (a[0] or a[3] or a[4]):
        max_cnt -= 1
    if not (a[1] or a[3] or a[5]):
        max_cnt -= 1
    if not (a[2] or a[4] or a[5]):
        max_cnt -= 1
    if max_cnt > 0:
        exclusionary(a, 6, max_cnt, ft)

cdef void three_chows(int* m, int* ft) noexcept nogil:
    cdef int f = three_chows_fan(m[0], m[1], m[2])
    cdef int a[3]
    if f:
        ft[f] = 1
        return
    a[0] = two_chows_fan(m[0], m[1])
    a[1] = two_chows_fan(m[0], m[2])
    a[2] = two_chows_fan(m[1], m[2])
    exclusionary(a, 3, 2, ft)

cdef void kongs(int cp, int mk, int ck, int* ft) noexcept nogil:
    cdef int k = mk + ck
    if k == 0:
        if cp == 2:
            ft[TWO_CONCEALED_PUNGS] = 1
        elif cp == 3:
            ft[THREE_CONCEALED_PUNGS] = 1
        elif cp == 4:
            ft[FOUR_CONCEALED_PUNGS] = 1
    elif k == 1:
        if mk == 1:
            ft[MELDED_KONG] = 1
            if cp == 2:
                ft[TWO_CONCEALED_PUNGS] = 1
            elif cp == 3:
                ft[THREE_CONCEALED_PUNGS] = 1
        else:
            ft[CONCEALED_KONG] = 1
            if cp == 1:
                ft[TWO_CONCEALED_PUNGS] = 1
            elif cp == 2:
                ft[THREE_CONCEALED_PUNGS] = 1
            elif cp == 3:
                ft[FOUR_CONCEALED_PUNGS] = 1
    elif k == 2:
        if ck == 0:
            ft[TWO_MELDED_KONGS] = 1
            if cp == 2:
                ft[TWO_CONCEALED_PUNGS] = 1
        elif ck == 1:
            ft[CONCEALED_KONG_AND_MELDED_KONG] = 1
            if cp == 1:
                ft[TWO_CONCEALED_PUNGS] = 1
            elif cp == 2:
                ft[THREE_CONCEALED_PUNGS] = 1
        else:
            ft[TWO_CONCEALED_KONGS] = 1
            if cp == 1:
                ft[THREE_CONCEALED_PUNGS] = 1
            elif cp == 2:
                ft[FOUR_CONCEALED_PUNGS] = 1
    elif k == 3:
        ft[THREE_KONGS] = 1
        if ck == 1:
            if cp > 0:
                ft[TWO_CONCEALED_PUNGS] = 1
        elif ck == 2:
            if cp == 0:
                ft[TWO_CONCEALED_PUNGS] = 1
            else:
                ft[THREE_CONCEALED_PUNGS] = 1
        elif ck == 3:
            if cp == 0:
                ft[THREE_CONCEALED_PUNGS] = 1
            else:
                ft[FOUR_CONCEALED_PUNGS] = 1
    else:
        ft[FOUR_KONGS] = 1
        if ck == 2:
            ft[TWO_CONCEALED_PUNGS] = 1
        elif ck == 3:
            ft[THREE_CONCEALED_PUNGS] = 1
        elif ck == 4:
            ft[FOUR_CONCEALED_PUNGS] = 1

cdef void four_pungs(int* m, int* ft) noexcept nogil:
    cdef int f = four_pungs_fan(m[0], m[1], m[2], m[3])
    cdef int free = -1, i, j
    if f:
        ft[f] = 1
        return
    f = three_pungs_fan(m[0], m[1], m[2])
    if f:
        free = 3
    else:
        f = three_pungs_fan(m[0], m[1], m[3])
        if f:
            free = 2
        else:
            f = three_pungs_fan(m[0], m[2], m[3])
            if f:
                free = 1
            else:
                f = three_pungs_fan(m[1], m[2], m[3])
                if f:
                    free = 0
    if free >= 0:
        ft[f] = 1
        for i in range(4):
            if i == free:
                continue
            f = two_pungs_fan(m[i], m[free])
            if f:
                ft[f] += 1
                break
        return
    for i in range(4):
        for j in range(i + 1, 4):
            f = two_pungs_fan(m[i], m[j])
            if f:
                ft[f] += 1

cdef void three_pungs(int* m, int* ft) noexcept nogil:
    cdef int f = three_pungs_fan(m[0], m[1], m[2])
    cdef int i, j
    if f:
        ft[f] = 1
        return
    for i in range(3):
        for j in range(i + 1, 3):
            f = two_pungs_fan(m[i], m[j])
            if f:
                ft[f] += 1

cdef bint pure_terminal_chows(int* chows, int pair) noexcept nogil:
    cdef int n123 = 0, n789 = 0, i, r
    if (pair & 15) != 5:
        return False
    for i in range(4):
        if (chows[i] >> 4) != (pair >> 4):
            return False
        r = chows[i] & 15
        if r == 2:
            n123 += 1
        elif r == 8:
            n789 += 1
        else:
            return False
    return n123 == 2 and n789 == 2

cdef bint three_suited_terminal_chows(int* chows, int pair) noexcept nogil:
    cdef int s123[5]
    cdef int s789[5]
    cdef int i, s, r, ps = pair >> 4
    if (pair & 15) != 5:
        return False
    memset(s123, 0, sizeof(s123))
    memset(s789, 0, sizeof(s789))
    for i in range(4):
        s = chows[i] >> 4
        if s == ps:
            return False
        r = chows[i] & 15
        if r == 2:
            s123[s] += 1
        elif r == 8:
            s789[s] += 1
        else:
            return False
    if ps == 1:
        return s123[2] and s123[3] and s789[2] and s789[3]
    if ps == 2:
        return s123[1] and s123[3] and s789[1] and s789[3]
    if ps == 3:
        return s123[1] and s123[2] and s789[1] and s789[2]
    return False


# --------------------------------------------------------------------------------------------
# hand-wide adjustments
cdef void adjust_by_win_flag(int flag, int* ft) noexcept nogil:
    if flag & F_LAST_TILE:
        ft[LAST_TILE] = 1
    if flag & F_SELF_DRAWN:
        ft[SELF_DRAWN] = 1
        if flag & F_WALL_LAST:
            ft[LAST_TILE_DRAW] = 1
            ft[SELF_DRAWN] = 0
        if flag & F_KONG:
            ft[OUT_WITH_REPLACEMENT_TILE] = 1
            ft[SELF_DRAWN] = 0
    else:
        if flag & F_WALL_LAST:
            ft[LAST_TILE_CLAIM] = 1
        if flag & F_KONG:
            ft[ROBBING_THE_KONG] = 1
            ft[LAST_TILE] = 0

cdef void adjust_by_suits(int* unique, int n, int* ft) noexcept nogil:
    cdef int flag = 0, i, s
    cdef bint wind = False, dragon = False
    for i in range(n):
        flag |= 1 << (unique[i] >> 4)
        if is_wind(unique[i]):
            wind = True
        elif is_dragon(unique[i]):
            dragon = True
    if not flag & 0x10:
        ft[NO_HONORS] = 1
    for s in range(1, 4):
        if not flag & (1 << s):
            ft[ONE_VOIDED_SUIT] += 1
    if ft[ONE_VOIDED_SUIT] == 2:
        ft[ONE_VOIDED_SUIT] = 0
        if ft[NO_HONORS] == 0:
            ft[HALF_FLUSH] = 1
        else:
            ft[FULL_FLUSH] = 1
            ft[NO_HONORS] = 0
    if flag == 0x1E and wind and dragon:
        ft[ALL_TYPES] = 1

cdef void adjust_by_rank_range(int* unique, int n, int* ft) noexcept nogil:
    cdef int flag = 0, i
    for i in range(n):
        if unique[i] > 0x40:
            return
        flag |= 1 << (unique[i] & 15)
    if not flag & 0xFFE1:
        ft[LOWER_FOUR if flag & 0x10 else LOWER_TILES] = 1
        return
    if not flag & 0xFC3F:
        ft[UPPER_FOUR if flag & 0x40 else UPPER_TILES] = 1
        return
    if not flag & 0xFF8F:
        ft[MIDDLE_TILES] = 1

cdef void adjust_by_packs_traits(int* packs, int* ft) noexcept nogil:
    cdef int terminal = 0, honor = 0, five = 0, even = 0, i, t, r
    for i in range(5):
        t = ptile(packs[i])
        if t < 0x40:
            r = t & 15
            if ptype(packs[i]) == CHOW:
                if r == 2 or r == 8:
                    terminal += 1
                elif 4 <= r <= 6:
                    five += 1
            else:
                if r == 1 or r == 9:
                    terminal += 1
                elif r == 5:
                    five += 1
                elif r == 2 or r == 4 or r == 6 or r == 8:
                    even += 1
        else:
            honor += 1
    if terminal + honor == 5:
        ft[OUTSIDE_HAND] = 1
    elif five == 5:
        ft[ALL_FIVE] = 1
    elif even == 5:
        ft[ALL_EVEN_PUNGS] = 1

cdef void adjust_by_tiles_traits(int* unique, int n, int* ft) noexcept nogil:
    cdef int i
    cdef bint any_th = False, all_rev = True, all_green = True, all_honor = True
    cdef bint all_term = True, all_th = True
    for i in range(n):
        if is_term_or_honor(unique[i]):
            any_th = True
        else:
            all_th = False
        if not is_reversible(unique[i]):
            all_rev = False
        if not is_green(unique[i]):
            all_green = False
        if not is_honor(unique[i]):
            all_honor = False
        if not is_terminal(unique[i]):
            all_term = False
    if not any_th:
        ft[ALL_SIMPLES] = 1
    if all_rev:
        ft[REVERSIBLE_TILES] = 1
    if all_green:
        ft[ALL_GREEN] = 1
    if ft[ALL_SIMPLES]:
        return
    if all_honor:
        ft[ALL_HONORS] = 1
        return
    if all_term:
        ft[ALL_TERMINALS] = 1
        return
    if all_th:
        ft[ALL_TERMINALS_AND_HONORS] = 1

cdef void adjust_by_waiting_form(int* packs, int n, int win, int* ft) noexcept nogil:
    cdef int pos = 0, i, t, typ
    if ft[MELDED_HAND] or ft[FOUR_KONGS]:
        return
    for i in range(n):
        typ = ptype(packs[i])
        t = ptile(packs[i])
        if typ == CHOW:
            if t == win:
                pos |= 2
            elif t + 1 == win or t - 1 == win:
                pos |= 1
        elif typ == PAIR and t == win:
            pos |= 4
    if pos & 1:
        ft[EDGE_WAIT] = 1
    elif pos & 2:
        ft[CLOSED_WAIT] = 1
    elif pos & 4:
        ft[SINGLE_WAIT] = 1

cdef void final_adjust(int* ft, int opts) noexcept nogil:
    if ft[BIG_FOUR_WINDS]:
        ft[ALL_PUNGS] = 0
        if not opts & OPT_V2:
            ft[PUNG_OF_TERMINALS_OR_HONORS] = 0
    if ft[BIG_THREE_DRAGONS]:
        ft[DRAGON_PUNG] = 0
    if ft[ALL_GREEN]:
        ft[HALF_FLUSH] = 0
        ft[ONE_VOIDED_SUIT] = 0
    if ft[FOUR_KONGS]:
        ft[SINGLE_WAIT] = 0
    if ft[ALL_TERMINALS]:
        ft[ALL_PUNGS] = 0
        if not opts & OPT_V2:
            ft[OUTSIDE_HAND] = 0
            ft[PUNG_OF_TERMINALS_OR_HONORS] = 0
        ft[NO_HONORS] = 0
        if not opts & OPT_TONGKE:
            ft[DOUBLE_PUNG] = 0
    if ft[LITTLE_FOUR_WINDS] and not opts & OPT_V2:
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 0
    if ft[LITTLE_THREE_DRAGONS]:
        ft[DRAGON_PUNG] = 0
    if ft[ALL_HONORS]:
        ft[ALL_PUNGS] = 0
        ft[OUTSIDE_HAND] = 0
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 0
        ft[ONE_VOIDED_SUIT] = 0
    if ft[FOUR_CONCEALED_PUNGS]:
        ft[ALL_PUNGS] = 0
        ft[CONCEALED_HAND] = 0
        if ft[FULLY_CONCEALED_HAND]:
            ft[FULLY_CONCEALED_HAND] = 0
            ft[SELF_DRAWN] = 1
    if ft[PURE_TERMINAL_CHOWS]:
        ft[FULL_FLUSH] = 0
        ft[ALL_CHOWS] = 0
        ft[NO_HONORS] = 0
    if ft[FOUR_PURE_SHIFTED_PUNGS]:
        ft[ALL_PUNGS] = 0
    if ft[ALL_TERMINALS_AND_HONORS]:
        ft[ALL_PUNGS] = 0
        ft[OUTSIDE_HAND] = 0
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 0
    if ft[ALL_EVEN_PUNGS]:
        ft[ALL_PUNGS] = 0
        ft[ALL_SIMPLES] = 0
        ft[NO_HONORS] = 0
    if ft[UPPER_TILES]:
        ft[NO_HONORS] = 0
    if ft[MIDDLE_TILES]:
        ft[ALL_SIMPLES] = 0
        ft[NO_HONORS] = 0
    if ft[LOWER_TILES]:
        ft[NO_HONORS] = 0
    if ft[THREE_SUITED_TERMINAL_CHOWS]:
        ft[ALL_CHOWS] = 0
        ft[NO_HONORS] = 0
    if ft[ALL_FIVE]:
        ft[ALL_SIMPLES] = 0
        ft[NO_HONORS] = 0
    if ft[UPPER_FOUR]:
        ft[NO_HONORS] = 0
    if ft[LOWER_FOUR]:
        ft[NO_HONORS] = 0
    if ft[BIG_THREE_WINDS]:
        if not ft[ALL_HONORS] and not ft[ALL_TERMINALS_AND_HONORS]:
            ft[PUNG_OF_TERMINALS_OR_HONORS] -= 3
    if ft[REVERSIBLE_TILES]:
        ft[ONE_VOIDED_SUIT] = 0
    if ft[LAST_TILE_DRAW]:
        ft[SELF_DRAWN] = 0
    if ft[OUT_WITH_REPLACEMENT_TILE]:
        ft[SELF_DRAWN] = 0
    if ft[MELDED_HAND]:
        ft[SINGLE_WAIT] = 0
    if ft[TWO_DRAGONS_PUNGS]:
        ft[DRAGON_PUNG] = 0
    if ft[FULLY_CONCEALED_HAND]:
        ft[SELF_DRAWN] = 0
    if ft[ALL_CHOWS]:
        ft[NO_HONORS] = 0
    if ft[ALL_SIMPLES]:
        ft[NO_HONORS] = 0

cdef void adjust_by_winds(int t, int prevalent, int seat, int* ft, int opts) noexcept nogil:
    cdef bint deducted = (ft[BIG_THREE_WINDS] or ft[ALL_TERMINALS_AND_HONORS] or ft[ALL_HONORS]
                          or (ft[LITTLE_FOUR_WINDS] and not opts & OPT_V2))
    cdef int delta = t - T_E
    if delta == prevalent:
        ft[PREVALENT_WIND] = 1
        if not deducted:
            ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if delta == seat:
        ft[SEAT_WIND] = 1
        if seat != prevalent and not deducted:
            ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1

cdef int fan_total(int* ft) noexcept nogil:
    # branch-free, so that the compiler vectorises it (it runs once per split); the flowers
    # (which the search never sets) are taken out after
    cdef int i, s = 0
    for i in range(NF):
        s += FAN_VALUE[i] * ft[i]
    return s - FAN_VALUE[FLOWER_TILES_] * ft[FLOWER_TILES_]


# --------------------------------------------------------------------------------------------
# waits (the reference's test, over uint16 tables as it does)
cdef bint pack_waiting(uint16_t* table, uint8_t* waiting) noexcept nogil:
    cdef int i, t, r
    for i in range(34):
        t = ALL_REF[i]
        if table[t] < 1:
            continue
        if table[t] > 1:
            waiting[t] = 1
            return True
        if t < 0x40:
            r = t & 15
            if r > 1 and table[t - 1]:
                if r < 9:
                    waiting[t + 1] = 1
                if r > 2:
                    waiting[t - 2] = 1
                return True
            if r > 2 and table[t - 2]:
                waiting[t - 1] = 1
                return True
    return False

cdef void regular_waiting(uint16_t* table, int cnt, int prev, uint8_t* waiting) noexcept nogil:
    cdef int i, t, e
    if cnt == 1:
        for i in range(34):
            t = ALL_REF[i]
            if table[t] == 1:
                waiting[t] = 1
                break
        return
    if cnt == 4:
        for i in range(34):
            t = ALL_REF[i]
            if table[t] < 2:
                continue
            table[t] -= 2
            pack_waiting(table, waiting)
            table[t] += 2
    for i in range(34):
        t = ALL_REF[i]
        if table[t] < 1:
            continue
        if table[t] > 2:
            e = (t << 16) | (t << 8) | t
            if e > prev:
                table[t] -= 3
                regular_waiting(table, cnt - 3, e, waiting)
                table[t] += 3
        if t < 0x40 and (t & 15) < 8 and table[t + 1] and table[t + 2]:
            e = (t << 16) | ((t + 1) << 8) | (t + 2)
            if e >= prev:
                table[t] -= 1
                table[t + 1] -= 1
                table[t + 2] -= 1
                regular_waiting(table, cnt - 3, e, waiting)
                table[t] += 1
                table[t + 1] += 1
                table[t + 2] += 1

cdef bint unique_waiting(uint16_t* table_in, int cnt, int win) noexcept nogil:
    cdef uint16_t table[TT]
    cdef uint8_t waiting[TT]
    cdef int i, t, pairs = 0, n = 0
    memcpy(table, table_in, sizeof(table))
    memset(waiting, 0, sizeof(waiting))
    table[win] -= 1
    if cnt == 13:
        for i in range(34):
            t = table[ALL_REF[i]]
            if t == 2 or t == 3:
                pairs += 1
            elif t == 4:
                pairs += 2
        if pairs == 6:
            for i in range(34):
                t = table[ALL_REF[i]]
                if t == 1 or t == 3:
                    waiting[ALL_REF[i]] = 1
                    break
    regular_waiting(table, cnt, 0, waiting)
    for i in range(TT):
        if waiting[i]:
            n += 1
    return n == 1


cdef bint suit_sets(int* a) noexcept nogil:
    """``a[0..8]`` (one suit, ``a[9] = a[10] = 0``; modified) splits into pungs and chows.

    At the lowest tile, three chows equal three pungs, so ``count % 3`` chows start there and
    the rest are pungs: one pass decides.
    """
    cdef int r, x
    for r in range(9):
        x = a[r] % 3
        if x:
            if r > 6 or a[r + 1] < x or a[r + 2] < x:
                return False
            a[r + 1] -= x
            a[r + 2] -= x
    return True

cdef int group_state(const int* table, int g) noexcept nogil:
    """How the tiles of group ``g`` (suits 1-3, honours 4) of ``table`` split: 1 into sets
    only, 2 into sets and one pair, 0 neither (counts may exceed 4).

    A group's tile count fixes which can hold (0 or 2 mod 3); within a suit the pair is tried
    on each kind held twice, the sets by :func:`suit_sets`.
    """
    cdef int a[11]
    cdef int r, x, t, sm = 0, pairs = 0
    if g == 4:
        for t in range(T_E, T_P + 1):
            x = table[t] % 3
            if x == 1:
                return 0
            if x == 2:
                pairs += 1
        return 1 if pairs == 0 else (2 if pairs == 1 else 0)
    for r in range(1, 10):
        sm += table[(g << 4) | r]
    sm %= 3
    if sm == 1:
        return 0
    a[9] = 0
    a[10] = 0
    if sm == 0:
        for r in range(9):
            a[r] = table[(g << 4) | (r + 1)]
        return 1 if suit_sets(a) else 0
    for r in range(9):
        if table[(g << 4) | (r + 1)] >= 2:
            for x in range(9):
                a[x] = table[(g << 4) | (x + 1)]
            a[9] = 0
            a[10] = 0
            a[r] -= 2
            if suit_sets(a):
                return 2
    return 0

cdef bint unique_wait_std(uint16_t* table_in, int cnt, int win) noexcept nogil:
    """:func:`unique_waiting` for a hand known to be complete in the standard form.

    The reference collects every tile that completes the 13 standing tiles (standard form,
    plus the 七对 wait of a six-pair hand) and asks that there be exactly one; ``win`` is one of
    them here, so the wait is unique when no other tile completes the hand.  Only tiles within
    two of a held tile of the same suit (or a held honour) can, and adding a tile changes only
    its own group: the other groups must already split into sets, one of them perhaps with
    the pair.
    """
    cdef int table[TT]
    cdef int state[5]
    cdef int i, t, g, h, pairs = 0, x, other_pairs, need
    cdef bint others_ok
    for i in range(TT):
        table[i] = table_in[i]
    table[win] -= 1
    if cnt == 13:
        for i in range(34):
            x = table[ALL_REF[i]]
            if x == 2 or x == 3:
                pairs += 1
            elif x == 4:
                pairs += 2
        if pairs == 6:
            for i in range(34):
                t = ALL_REF[i]
                x = table[t]
                if x == 1 or x == 3:
                    if t != win:
                        return False
                    break
    for g in range(1, 5):
        state[g] = group_state(table, g)
    for g in range(1, 5):
        others_ok = True
        other_pairs = 0
        for h in range(1, 5):
            if h != g:
                if state[h] == 0:
                    others_ok = False
                elif state[h] == 2:
                    other_pairs += 1
        if not others_ok or other_pairs > 1:
            continue
        need = 1 if other_pairs else 2
        for i in range(34):
            t = ALL_REF[i]
            if t >> 4 != g or t == win:
                continue
            if g == 4:
                if not table[t]:
                    continue
            elif not (table[t] or table[t - 1] or table[t + 1] or table[t - 2] or table[t + 2]):
                continue
            table[t] += 1
            x = group_state(table, g)
            table[t] -= 1
            if x == need:
                return False
    return True


# --------------------------------------------------------------------------------------------
# splits
ctypedef struct Divisions:
    int packs[MAXDIV][5]
    int count

cdef void add_division(int fixed_cnt, int* work, Divisions* res) noexcept nogil:
    cdef int tmp[5]
    cdef int i, j
    cdef bint same
    memcpy(tmp, work, sizeof(tmp))
    if fixed_cnt < 4:
        sort_ints(tmp + fixed_cnt, 4 - fixed_cnt)
    for i in range(res.count):
        same = True
        for j in range(fixed_cnt, 4):
            if res.packs[i][j] != tmp[j]:
                same = False
                break
        if same:
            return
    if res.count < MAXDIV:
        memcpy(res.packs[res.count], tmp, sizeof(tmp))
        res.count += 1

cdef bint divide_tail(uint16_t* table, int fixed_cnt, int* work, Divisions* res) noexcept nogil:
    # what is left must be exactly two of one kind (the first kind left, then nothing else)
    cdef int i, t, p = -1
    for i in range(34):
        t = ALL_REF[i]
        if table[t]:
            if p >= 0 or table[t] != 2:
                return False
            p = t
    if p < 0:
        return False
    work[4] = make_pack(0, PAIR, p)
    add_division(fixed_cnt, work, res)
    return True

cdef bint divide(uint16_t* table, int fixed_cnt, int step, int prev, int* work, Divisions* res) noexcept nogil:
    # Sets come in non-decreasing order, so a tile passed over at this level (no set of this
    # level or a later one starts at it or below it) can only be the pair: passing a second
    # kind, or a kind not held exactly twice, ends the level.  This prunes only branches that
    # find nothing, so the splits and their order are the reference's.
    cdef int idx = step + fixed_cnt, i, t, e
    cdef bint ret = False, passed = False, stuck = False
    if idx == 4:
        return divide_tail(table, fixed_cnt, work, res)
    for i in range(34):
        t = ALL_REF[i]
        if table[t] < 1:
            continue
        if stuck:
            break
        # t is passed over after this iteration: only the pair can hold it
        stuck = passed or table[t] != 2
        passed = True
        if table[t] > 2:
            e = (t << 16) | (t << 8) | t
            if e > prev:
                work[idx] = make_pack(0, PUNG, t)
                table[t] -= 3
                if divide(table, fixed_cnt, step + 1, e, work, res):
                    ret = True
                table[t] += 3
        if t < 0x40 and (t & 15) < 8 and table[t + 1] and table[t + 2]:
            e = (t << 16) | ((t + 1) << 8) | (t + 2)
            if e >= prev:
                work[idx] = make_pack(0, CHOW, t + 1)
                table[t] -= 1
                table[t + 1] -= 1
                table[t + 2] -= 1
                if divide(table, fixed_cnt, step + 1, e, work, res):
                    ret = True
                table[t] += 1
                table[t + 1] += 1
                table[t + 2] += 1
    return ret

cdef inline bint has_pair(uint16_t* table) noexcept nogil:
    cdef int i
    for i in range(34):
        if table[ALL_REF[i]] > 1:
            return True
    return False


# --------------------------------------------------------------------------------------------
ctypedef struct Hand_:
    uint16_t st[TT]
    uint16_t fixed_table[TT]
    int fixed[4]
    int fixed_cnt
    int unique[34]
    int n_unique
    int win
    int flag
    int seat
    int prevalent
    int opts

cdef void regular(Hand_* h, int* packs, int hog, bint uw, int* ft) noexcept nogil:
    cdef int chows[4]
    cdef int pungs[4]
    cdef int pung_melded[4]
    cdef int chow_melded[4]
    cdef int n_c = 0, n_p = 0, pair = 0, cp = 0, mk = 0, ck = 0, i, t, typ, f, melded_cnt
    cdef int win = h.win
    cdef bint in_chow
    memset(ft, 0, NF * sizeof(int))
    for i in range(5):
        typ = ptype(packs[i])
        t = ptile(packs[i])
        if typ == CHOW:
            chows[n_c] = t
            chow_melded[n_c] = pmelded(packs[i])
            n_c += 1
        elif typ == PUNG:
            pungs[n_p] = t
            pung_melded[n_p] = pmelded(packs[i])
            if not pmelded(packs[i]):
                cp += 1
            n_p += 1
        elif typ == KONG:
            pungs[n_p] = t
            pung_melded[n_p] = pmelded(packs[i])
            if pmelded(packs[i]):
                mk += 1
            else:
                ck += 1
            n_p += 1
        else:
            pair = t
    adjust_by_win_flag(h.flag, ft)
    if not h.flag & F_SELF_DRAWN:
        in_chow = False
        for i in range(n_c):
            if not chow_melded[i] and chows[i] - 1 <= win <= chows[i] + 1:
                in_chow = True
                break
        if not in_chow:
            for i in range(n_p):
                if pungs[i] == win and not pung_melded[i]:
                    cp -= 1
    if n_p:
        kongs(cp, mk, ck, ft)
        if n_p == 4 and not ft[FOUR_KONGS] and not ft[FOUR_CONCEALED_PUNGS]:
            ft[ALL_PUNGS] = 1
        for i in range(n_p):
            if is_dragon(pungs[i]):
                ft[DRAGON_PUNG] += 1
            elif is_terminal(pungs[i]) or is_wind(pungs[i]):
                ft[PUNG_OF_TERMINALS_OR_HONORS] += 1
    if n_c == 4:
        if three_suited_terminal_chows(chows, pair):
            ft[THREE_SUITED_TERMINAL_CHOWS] = 1
        elif pure_terminal_chows(chows, pair):
            ft[PURE_TERMINAL_CHOWS] = 1
        else:
            sort_ints(chows, 4)
            four_chows(chows, ft)
    elif n_c == 3:
        sort_ints(chows, 3)
        three_chows(chows, ft)
    elif n_c == 2:
        f = two_chows_fan(chows[0], chows[1])
        if f:
            ft[f] += 1
        f = two_pungs_fan(pungs[0], pungs[1])
        if f:
            ft[f] += 1
    elif n_c == 1:
        sort_ints(pungs, 3)
        three_pungs(pungs, ft)
    else:
        sort_ints(pungs, 4)
        four_pungs(pungs, ft)
    melded_cnt = 0
    for i in range(h.fixed_cnt):
        if pmelded(packs[i]):
            melded_cnt += 1
    if melded_cnt == 0:
        ft[FULLY_CONCEALED_HAND if h.flag & F_SELF_DRAWN else CONCEALED_HAND] = 1
    elif melded_cnt == 4:
        ft[SELF_DRAWN if h.flag & F_SELF_DRAWN else MELDED_HAND] = 1
    elif h.flag & F_SELF_DRAWN:
        ft[SELF_DRAWN] = 1
    if n_c == 4:
        if pair < 0x40:
            ft[ALL_CHOWS] = 1
    elif ft[TWO_DRAGONS_PUNGS]:
        if is_dragon(pair):
            ft[LITTLE_THREE_DRAGONS] = 1
            ft[TWO_DRAGONS_PUNGS] = 0
    elif ft[BIG_THREE_WINDS]:
        if is_wind(pair):
            ft[LITTLE_FOUR_WINDS] = 1
            ft[BIG_THREE_WINDS] = 0
    adjust_by_packs_traits(packs, ft)
    adjust_by_suits(h.unique, h.n_unique, ft)
    adjust_by_tiles_traits(h.unique, h.n_unique, ft)
    adjust_by_rank_range(h.unique, h.n_unique, ft)
    if not ft[QUADRUPLE_CHOW]:
        ft[TILE_HOG] = hog - mk - ck
    if uw:
        adjust_by_waiting_form(packs + h.fixed_cnt, 5 - h.fixed_cnt, win, ft)
    final_adjust(ft, h.opts)
    if not ft[BIG_FOUR_WINDS]:
        for i in range(n_p):
            if is_wind(pungs[i]):
                adjust_by_winds(pungs[i], h.prevalent, h.seat, ft, h.opts)
    for i in range(1, NF):
        if ft[i]:
            return
    ft[CHICKEN_HAND] = 1

cdef void special_flags(int flag, int* ft, int opts) noexcept nogil:
    adjust_by_win_flag(flag, ft)
    if opts & OPT_BUQIUREN and ft[SELF_DRAWN]:
        ft[SELF_DRAWN] = 0
        ft[FULLY_CONCEALED_HAND] = 1

cdef bint seven_shifted(uint16_t* st, int suit) noexcept nogil:
    cdef int t3, k
    if suit == 4:
        return False
    t3 = (suit << 4) | 3
    for k in range(5):
        if st[t3 + k] != 2:
            return False
    if st[t3 - 1] == 2:
        return st[t3 - 2] == 2 or st[t3 + 5] == 2
    return st[t3 + 5] == 2 and st[t3 + 6] == 2

cdef int special(Hand_* h, int* ft) noexcept nogil:
    """七对 / 连七对, 全不靠 / 七星不靠, 十三幺: the reading form, or R_NONE."""
    cdef int i, t, s, nums = 0, k
    cdef bint odd = False, ok
    memset(ft, 0, NF * sizeof(int))
    for i in range(34):
        if h.st[ALL_REF[i]] & 1:
            odd = True
            break
    if not odd:
        s = h.win >> 4
        if seven_shifted(h.st, s):
            ft[SEVEN_SHIFTED_PAIRS] = 1
            if h.st[(s << 4) | 1] == 0 and h.st[(s << 4) | 9] == 0:
                ft[ALL_SIMPLES] = 1
            special_flags(h.flag, ft, h.opts)
            return R_SEVEN_SHIFTED
        ft[SEVEN_PAIRS] = 1
        adjust_by_suits(h.unique, h.n_unique, ft)
        adjust_by_tiles_traits(h.unique, h.n_unique, ft)
        adjust_by_rank_range(h.unique, h.n_unique, ft)
        for i in range(34):
            if h.st[ALL_REF[i]] == 4:
                ft[TILE_HOG] += 1
        adjust_by_win_flag(h.flag, ft)
        final_adjust(ft, h.opts)
        return R_SEVEN_PAIRS
    if h.n_unique == 14:
        for i in range(14):
            if h.unique[i] < 0x40:
                nums += 1
        if 7 <= nums <= 9:
            for k in range(6):
                ok = True
                for i in range(nums):
                    t = h.unique[i]
                    if t != KNIT[k][0] and t != KNIT[k][1] and t != KNIT[k][2] and t != KNIT[k][3] \
                            and t != KNIT[k][4] and t != KNIT[k][5] and t != KNIT[k][6] \
                            and t != KNIT[k][7] and t != KNIT[k][8]:
                        ok = False
                        break
                if ok:
                    if nums == 7:
                        ft[GREATER_HONORS_AND_KNITTED_TILES] = 1
                    else:
                        ft[LESSER_HONORS_AND_KNITTED_TILES] = 1
                        if nums == 9:
                            ft[KNITTED_STRAIGHT] = 1
                    adjust_by_win_flag(h.flag, ft)
                    return R_HONORS_KNITTED
    if h.n_unique == 13:
        ok = True
        for i in range(13):
            if h.unique[i] != ORPHANS[i]:
                ok = False
                break
        if ok:
            ft[THIRTEEN_ORPHANS] = 1
            special_flags(h.flag, ft, h.opts)
            return R_THIRTEEN_ORPHANS
    return R_NONE

cdef bint nine_gates(Hand_* h, int* ft) noexcept nogil:
    cdef int win = h.win, s = h.win >> 4, r = h.win & 15, base, k
    if s > 3:
        return False
    base = s << 4
    if r == 1 or r == 9:
        if h.st[win] != 4 or h.st[base + (9 if r == 1 else 1)] != 3:
            return False
        for k in range(2, 9):
            if h.st[base + k] != 1:
                return False
    else:
        if h.st[win] != 2 or h.st[base + 1] != 3 or h.st[base + 9] != 3:
            return False
        for k in range(2, 9):
            if k != r and h.st[base + k] != 1:
                return False
    memset(ft, 0, NF * sizeof(int))
    ft[NINE_GATES] = 1
    if r == 1 or r == 9:
        ft[PURE_STRAIGHT] = 1
        ft[TILE_HOG] = 1
    elif r == 2 or r == 8:
        ft[TWO_CONCEALED_PUNGS] = 1
        ft[SHORT_STRAIGHT] = 1
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif r == 5:
        ft[TWO_CONCEALED_PUNGS] = 1
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        ft[SHORT_STRAIGHT] = 1
    special_flags(h.flag, ft, h.opts)
    return True

cdef int knitted(Hand_* h, int* ft, int* packs_out) noexcept nogil:
    """组合龙 + set + pair: the knitted layout index (packs_out[3], [4] set), or -1."""
    cdef uint16_t table[TT]
    cdef int work[5]
    cdef Divisions res
    cdef int k, i, seq = -1, involved, typ, it, pair, win = h.win
    cdef bint in_seq
    if not has_pair(h.st):
        return -1
    for k in range(6):
        seq = k
        for i in range(9):
            if h.st[KNIT[k][i]] == 0:
                seq = -1
                break
        if seq >= 0:
            break
    if seq < 0:
        return -1
    memcpy(table, h.st, sizeof(table))
    for i in range(9):
        table[KNIT[seq][i]] -= 1
    memset(work, 0, sizeof(work))
    res.count = 0
    if h.fixed_cnt == 1:
        work[3] = h.fixed[0]
    divide(table, h.fixed_cnt + 3, 0, 0, work, &res)
    if res.count != 1:
        return -1
    involved = res.packs[0][3]
    pair = ptile(res.packs[0][4])
    packs_out[3] = involved
    packs_out[4] = res.packs[0][4]
    memset(ft, 0, NF * sizeof(int))
    ft[KNITTED_STRAIGHT] = 1
    typ = ptype(involved)
    it = ptile(involved)
    if typ == CHOW:
        if pair < 0x40:
            ft[ALL_CHOWS] = 1
        if h.fixed_table[pair] + h.st[pair] == 4:
            ft[TILE_HOG] = 1
    else:
        if is_honor(it):
            if is_wind(it):
                ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
                adjust_by_winds(it, h.prevalent, h.seat, ft, h.opts)
                if is_dragon(pair):
                    ft[ALL_TYPES] = 1
            else:
                ft[DRAGON_PUNG] = 1
                if is_wind(pair):
                    ft[ALL_TYPES] = 1
        else:
            if is_terminal(it):
                ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
            if not is_honor(pair):
                ft[NO_HONORS] = 1
            if typ != KONG and h.fixed_table[it] + h.st[it] == 4:
                ft[TILE_HOG] = 1
    adjust_by_win_flag(h.flag, ft)
    if pmelded(involved):
        if typ == KONG:
            ft[MELDED_KONG] = 1
    else:
        if typ == KONG:
            ft[CONCEALED_KONG] = 1
        if h.flag & F_SELF_DRAWN:
            ft[FULLY_CONCEALED_HAND] = 1
            ft[SELF_DRAWN] = 0
        else:
            ft[CONCEALED_HAND] = 1
    if h.fixed_cnt == 0:
        if unique_waiting(table, 4, win):
            adjust_by_waiting_form(res.packs[0] + 3, 2, win, ft)
    else:
        in_seq = False
        for i in range(9):
            if KNIT[seq][i] == win:
                in_seq = True
        if not in_seq or h.st[win] == 3:
            ft[SINGLE_WAIT] = 1
    final_adjust(ft, h.opts)
    return seq


cdef inline const uint8_t* u8_34(object a) except NULL:
    """Pointer to a C-contiguous uint8[34] numpy array, checked without acquiring a buffer."""
    if not cnp.PyArray_Check(a):
        raise ValueError("counts must be a numpy uint8 array of 34 entries")
    cdef cnp.ndarray arr = <cnp.ndarray>a
    if cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_SIZE(arr) != 34 \
            or cnp.PyArray_NDIM(arr) != 1 or not cnp.PyArray_IS_C_CONTIGUOUS(arr):
        raise ValueError("counts must be a C-contiguous numpy uint8 array of 34 entries")
    return <const uint8_t*>cnp.PyArray_DATA(arr)


cdef class Found:
    """The best reading of a complete hand: ``total`` (fans without flowers), ``fans`` (the
    count of each fan id) and ``reading``, as :func:`mcr_calculate` returns them.

    ``Found(total, fans, reading)`` builds one from other values (the pure-Python engine's);
    a Python subclass may add what its scorer needs, and :func:`mcr_calculate` returns an
    instance of the subclass it is given, so a scorer can hang its lazy parts on the kernel's
    result without another object per call.
    """
    cdef readonly int total
    # the kernel's fans and reading stay C arrays until read (most scores never read them);
    # _fans / _reading hold them as objects once read, or the values Found() was given
    cdef char c_fans[NF]
    cdef char c_reading[READING_W]
    cdef object _fans
    cdef object _reading

    def __init__(self, int total, fans, reading):
        self.total = total
        self._fans = fans
        self._reading = reading

    def __reduce__(self):
        # rebuilt from the values (Cython cannot pickle the C arrays), with the slots a
        # subclass added as the state
        return type(self), (self.total, self.fans, self.reading), self.__getstate__()

    @property
    def fans(self):
        if self._fans is None:
            self._fans = PyBytes_FromStringAndSize(self.c_fans, NF)
        return self._fans

    @property
    def reading(self):
        if self._reading is None:
            self._reading = PyBytes_FromStringAndSize(self.c_reading, READING_W)
        return self._reading


cdef int hand_init(Hand_* h, const uint8_t* cnt, int n_melds, const int* meld_type, const int* meld_first,
                   const int* meld_melded, int win, int seat, int prevalent, int opts) noexcept nogil:
    """Fill ``h`` from mjfast-order counts (the winning tile included) and the melds (types
    CHOW / PUNG / KONG, first tile ids, melded flags), which the caller has checked; return the
    standing tiles less the winning one."""
    cdef int i, t, n, standing_cnt = 0
    memset(h, 0, sizeof(Hand_))
    h.fixed_cnt = n_melds
    for i in range(n_melds):
        if meld_type[i] == CHOW:
            t = TO_REF[meld_first[i] + 1]
            h.fixed_table[t - 1] += 1
            h.fixed_table[t] += 1
            h.fixed_table[t + 1] += 1
        else:
            t = TO_REF[meld_first[i]]
            h.fixed_table[t] += 3 if meld_type[i] == PUNG else 4
        h.fixed[i] = make_pack(1 if meld_melded[i] else 0, meld_type[i], t)
    for i in range(34):
        n = cnt[i]
        if n:
            h.st[TO_REF[i]] = n
            standing_cnt += n
    h.win = TO_REF[win]
    h.seat = seat
    h.prevalent = prevalent
    h.opts = opts
    for i in range(34):
        t = ALL_REF[i]
        if h.st[t] or h.fixed_table[t]:
            h.unique[h.n_unique] = t
            h.n_unique += 1
    return standing_cnt - 1


cdef int best_reading(Hand_* h, int flag, int standing_cnt, int* best, int* best_packs, int* form_out,
                      int* seq_out) noexcept nogil:
    """The fan total of the best reading of the hand ``h`` (0: no winning hand), its fans in
    ``best`` (NF), its packs in ``best_packs`` (5), its form and knitted layout (-1: none)."""
    cdef int ft[NF]
    cdef Divisions res
    cdef int work[5]
    cdef int i, t, n, form = R_NONE, best_fan = 0, total, hog, seq = -1
    cdef bint seven = False, uw
    memset(best, 0, NF * sizeof(int))
    memset(best_packs, 0, 5 * sizeof(int))
    if h.st[h.win] != 1:
        flag &= ~F_LAST_TILE
    if h.fixed_table[h.win] == 3:
        flag |= F_LAST_TILE
    if flag & F_KONG:
        if flag & F_SELF_DRAWN:
            n = 0
            for i in range(h.fixed_cnt):
                if ptype(h.fixed[i]) == KONG:
                    n = 1
            if not n:
                flag &= ~F_KONG
        elif h.fixed_table[h.win] != 0 or h.st[h.win] != 1:
            flag &= ~F_KONG
    h.flag = flag
    if h.fixed_cnt == 0:
        form = special(h, best)
        if form == R_NONE:
            seq = knitted(h, best, best_packs)
            if seq >= 0:
                form = R_KNITTED_STRAIGHT
            elif nine_gates(h, best):
                form = R_NINE_GATES
        if form != R_NONE:
            best_fan = fan_total(best)
            seven = best[SEVEN_PAIRS] == 1
    elif h.fixed_cnt == 1:
        seq = knitted(h, best, best_packs)
        if seq >= 0:
            form = R_KNITTED_STRAIGHT
            best_fan = fan_total(best)
    if best_fan == 0 or seven:
        res.count = 0
        if has_pair(h.st):
            memcpy(work, h.fixed, sizeof(h.fixed))
            divide(h.st, h.fixed_cnt, 0, 0, work, &res)
        if res.count:
            uw = unique_wait_std(h.st, standing_cnt, h.win)
            hog = 0
            for i in range(34):
                t = ALL_REF[i]
                if h.st[t] + h.fixed_table[t] == 4:
                    hog += 1
            for n in range(res.count):
                regular(h, res.packs[n], hog, uw, ft)
                total = fan_total(ft)
                if total > best_fan or (total == best_fan and (
                        ft[PURE_TRIPLE_CHOW] == 1 or seven or ft[TRIPLE_PUNG])):
                    best_fan = total
                    memcpy(best, ft, sizeof(ft))
                    memcpy(best_packs, res.packs[n], 5 * sizeof(int))
                    form = R_STANDARD
    form_out[0] = form
    seq_out[0] = seq
    return best_fan


cdef int mcr_fan_total(const uint8_t* counts, int n_melds, const int* meld_type, const int* meld_first,
                       const int* meld_melded, int win, int self_drawn, int last_copy, int kong, int wall_last,
                       int seat, int prevalent, int opts) noexcept nogil:
    """The fan total without flowers of the best reading of a complete hand (0: none), as
    :func:`mcr_calculate` finds it, for a kernel that checks its own arguments: counts in
    mjfast order (the winning tile included, at most 14 tiles), at most 4 melds of types
    MCR_CHOW / MCR_PUNG / MCR_KONG with a chow's first tile a suit rank 1-7, ids 0-33, winds 0-3."""
    cdef Hand_ h
    cdef int best[NF]
    cdef int best_packs[5]
    cdef int form, seq
    cdef int flag = (F_SELF_DRAWN if self_drawn else 0) | (F_LAST_TILE if last_copy else 0) \
        | (F_KONG if kong else 0) | (F_WALL_LAST if wall_last else 0)
    cdef int standing_cnt = hand_init(&h, counts, n_melds, meld_type, meld_first, meld_melded, win, seat,
                                      prevalent, opts)
    return best_reading(&h, flag, standing_cnt, best, best_packs, &form, &seq)


def mcr_calculate(object counts, tuple melds, int win, bint self_drawn, bint last_copy,
                  bint kong, bint wall_last, int seat, int prevalent, int opts,
                  type found not None=Found):
    """Fan table of the best reading of a complete hand, as the reference calculator picks it.

    Parameters
    ----------
    counts : ndarray of uint8, shape (34,), C-contiguous
        IN: concealed counts in mjfast order, the winning tile included.
    melds : tuple of (int, int, bool)
        IN: ``(type, first tile id, melded)`` per meld, type 1 chow / 2 pung / 3 kong;
        ``melded`` is False only for a concealed kong.
    win : int
        IN: winning tile id.
    self_drawn, last_copy, kong, wall_last : bool
        IN: the win flags (自摸, 和绝张, 杠上开花 or 抢杠和, the wall's last tile), taken
        separately so that a caller passes a WinContext's booleans as they are (composing the
        bits in Python costs more than the fan search's own setup).
    seat, prevalent : int
        IN: winds 0-3.
    opts : int
        IN: option bits (1 exclusions v2, 2 清幺九 keeps 双同刻, 4 self-drawn specials 不求人).
    found : type, default Found
        IN: :class:`Found` or a subclass, the type of the result.

    Returns
    -------
    Found or None
        None when the tiles form no winning hand, else a ``found`` instance: ``total``, the
        fan total without flowers; ``fans``, 83 bytes, the count of each fan id (index 81,
        flowers, is 0); ``reading``, :data:`READING_WIDTH` bytes ``[form, pack0 .. pack4 as
        (type, reference tile, melded), knitted layout + 1]`` with ``form`` indexing
        :data:`READING_FORMS`.
    """
    cdef Hand_ h
    cdef int best[NF]
    cdef int best_packs[5]
    cdef int meld_type[4]
    cdef int meld_first[4]
    cdef int meld_melded[4]
    cdef int i, typ, first, n_melds, form, seq, best_fan, standing_cnt
    cdef int flag = (F_SELF_DRAWN if self_drawn else 0) | (F_LAST_TILE if last_copy else 0) \
        | (F_KONG if kong else 0) | (F_WALL_LAST if wall_last else 0)
    cdef const uint8_t* cnt = u8_34(counts)
    if not _fans_loaded:
        _load_fan_values()
    if not PyType_IsSubtype(found, Found):
        raise TypeError(f"found must be Found or a subclass, got {found.__name__}")
    if not 0 <= win < 34 or not 0 <= seat < 4 or not 0 <= prevalent < 4:
        raise ValueError("win must be a tile id 0-33 and the winds 0-3")
    n_melds = len(melds)
    if n_melds > 4:
        raise ValueError("at most 4 melds")
    for i in range(n_melds):
        typ, first, melded = melds[i]
        if typ == CHOW:
            if not (0 <= first < 27 and first % 9 <= 6):
                raise ValueError(f"a chow starts on a suit tile of rank 1-7 (id 0-26), got id {first}")
        elif typ == PUNG or typ == KONG:
            if not 0 <= first < 34:
                raise ValueError(f"a meld's tile id is 0-33, got {first}")
        else:
            raise ValueError(f"a meld's type is 1 (chow), 2 (pung) or 3 (kong), got {typ}")
        meld_type[i] = typ
        meld_first[i] = first
        meld_melded[i] = 1 if melded else 0
    with nogil:
        standing_cnt = hand_init(&h, cnt, n_melds, meld_type, meld_first, meld_melded, win, seat, prevalent, opts)
        best_fan = best_reading(&h, flag, standing_cnt, best, best_packs, &form, &seq)
    if best_fan == 0:
        return None
    # the type's own allocator: Found.__new__(found) would look __new__ up and call it (its
    # arguments a tuple, as the C API requires: Cython's generated tp_new may read its size)
    cdef Found out = (<PyTypeObject*>found).tp_new(found, <PyObject*>_NO_ARGS, NULL)
    out.total = best_fan
    cdef char* fans = out.c_fans
    cdef char* reading = out.c_reading
    for i in range(NF):
        fans[i] = <char>best[i]
    reading[0] = <char>form
    for i in range(5):
        reading[1 + 3 * i] = <char>ptype(best_packs[i])
        reading[2 + 3 * i] = <char>ptile(best_packs[i])
        reading[3 + 3 * i] = <char>pmelded(best_packs[i])
    reading[16] = <char>(seq + 1)
    return out


# ---------------------------------------------------------------------------------------------
# the fan values, from the one fan table, read on first use: importing the table imports the
# scoring package, whose 国标 scorer subclasses Found (defined above), and the game kernel, which
# imports this module when it is imported itself.
cdef bint _fans_loaded = False

#: the (empty) argument tuple :func:`mcr_calculate` gives the result type's allocator
cdef tuple _NO_ARGS = ()


def _load_fan_values():
    global _fans_loaded
    from mjfast.scoring import _fans
    if len(_fans.FAN_VALUE) != NF or _fans.FAN_NAME_EN[FLOWER_TILES] != "Flower Tiles":
        raise ImportError("mjfast.scoring._fans does not match the MCR kernel's fan ids")
    for i in range(NF):
        FAN_VALUE[i] = _fans.FAN_VALUE[i]
    _fans_loaded = True


cdef int mcr_ready() except -1:
    """Read the fan values if they are not yet read (:func:`mcr_fan_total` needs them; a kernel
    calls this with the GIL before it searches)."""
    if not _fans_loaded:
        _load_fan_values()
    return 0
