"""国标 MCR fan search in pure Python: the exact behaviour of the reference calculator.

This module reproduces, fan for fan, what PyMahjongGB 1.4.0 (the reference MCR calculator,
summerinsects' *mahjong-algorithm*, MIT) returns; the behaviour is specified in
``rules/guobiao_fans.md`` and is re-implemented here from that specification.  It works on the
reference calculator's tile values, ``suit << 4 | rank`` with suits 万 1, 条 2, 饼 3, 字 4 and the
honours E S W N 中 发 白 = 0x41..0x47, because several of its tests are arithmetic on those values
(``t0 + 3 == t1`` for 清龙, sorted order for 大三元 …).  The set + pair splits come from
:func:`mjfast.decomposition.decompose_counts`; they are visited in the calculator's depth-first
order so that ties between splits resolve the same way.

The fan table and the tile encoding live in :mod:`mjfast.scoring._fans` (shared with the
scorer and the compiled search, :mod:`mjfast._kernels._mcr`, which this module is the twin of).
:mod:`mjfast.scoring.guobiao` is the public face; it runs this engine instead of the kernel when
``MJFAST_PUREPYTHON=1``.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..decomposition import decompose_counts
from ..scoring._fans import (
    ALL_CHOWS, ALL_EVEN_PUNGS, ALL_FIVE, ALL_GREEN, ALL_HONORS, ALL_PUNGS, ALL_REF, ALL_SIMPLES,
    ALL_TERMINALS, ALL_TERMINALS_AND_HONORS, ALL_TYPES, BIG_FOUR_WINDS, BIG_THREE_DRAGONS,
    BIG_THREE_WINDS, CHICKEN_HAND, CHOW, CLOSED_WAIT, CONCEALED_HAND, CONCEALED_KONG,
    CONCEALED_KONG_AND_MELDED_KONG, DOUBLE_PUNG, DRAGON_PUNG, EDGE_WAIT, FAN_VALUE,
    FLOWER_TILES, FOUR_CONCEALED_PUNGS, FOUR_KONGS, FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS, FROM_REF, FULLY_CONCEALED_HAND, FULL_FLUSH, F_KONG, F_LAST_TILE,
    F_SELF_DRAWN, F_WALL_LAST, GREATER_HONORS_AND_KNITTED_TILES, HALF_FLUSH, KNITTED,
    KNITTED_STRAIGHT, KONG, LAST_TILE, LAST_TILE_CLAIM, LAST_TILE_DRAW,
    LESSER_HONORS_AND_KNITTED_TILES, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, LOWER_FOUR,
    LOWER_TILES, MELDED_HAND, MELDED_KONG, MIDDLE_TILES, MIXED_DOUBLE_CHOW, MIXED_SHIFTED_CHOWS,
    MIXED_SHIFTED_PUNGS, MIXED_STRAIGHT, MIXED_TRIPLE_CHOW, NINE_GATES, NO_HONORS, N_FANS,
    ONE_VOIDED_SUIT, OPT_BUQIUREN, OPT_TONGKE, OPT_V2, OUTSIDE_HAND, OUT_WITH_REPLACEMENT_TILE,
    PAIR, PREVALENT_WIND, PUNG, PUNG_OF_TERMINALS_OR_HONORS, PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS, PURE_SHIFTED_PUNGS, PURE_STRAIGHT, PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW, QUADRUPLE_CHOW, REVERSIBLE_TILES, ROBBING_THE_KONG, SEAT_WIND, SELF_DRAWN,
    SEVEN_PAIRS, SEVEN_SHIFTED_PAIRS, SHORT_STRAIGHT, SINGLE_WAIT, THIRTEEN_ORPHANS,
    THREE_CONCEALED_PUNGS, THREE_KONGS, THREE_SUITED_TERMINAL_CHOWS, TILE_C, TILE_E, TILE_F,
    TILE_HOG, TILE_N, TILE_P, TILE_S, TILE_W, TO_REF, TRIPLE_PUNG, TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS, TWO_DRAGONS_PUNGS, TWO_MELDED_KONGS, TWO_TERMINAL_CHOWS, UPPER_FOUR,
    UPPER_TILES, is_wind as _is_wind,
)

_GREEN = frozenset({0x22, 0x23, 0x24, 0x26, 0x28, TILE_F})
_REVERSIBLE = frozenset({0x22, 0x24, 0x25, 0x26, 0x28, 0x29,
                         0x31, 0x32, 0x33, 0x34, 0x35, 0x38, 0x39, TILE_P})
_ORPHANS = (0x11, 0x19, 0x21, 0x29, 0x31, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47)
_HONORS = (0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47)


def _is_terminal(t):
    return t < 0x40 and (t & 15) in (1, 9)


def _is_dragon(t):
    return 0x45 <= t <= 0x47


def _is_term_or_honor(t):
    return t > 0x40 or (t & 15) in (1, 9)


# ---------------------------------------------------------------------------------------------
# set-combination fans
def _four_chows_fan(t0, t1, t2, t3):
    if t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3:
        return FOUR_PURE_SHIFTED_CHOWS
    if t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return FOUR_PURE_SHIFTED_CHOWS
    if t0 == t1 == t2 == t3:
        return QUADRUPLE_CHOW
    return 0


def _shifted_1_unordered(r0, r1, r2):
    lo = min(r0, r1, r2)
    return sorted((r0, r1, r2)) == [lo, lo + 1, lo + 2]


def _three_chows_fan(t0, t1, t2):
    s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
    if s0 != s1 and s0 != s2 and s1 != s2:
        r0, r1, r2 = t0 & 15, t1 & 15, t2 & 15
        if _shifted_1_unordered(r0, r1, r2):
            return MIXED_SHIFTED_CHOWS
        if r0 == r1 == r2:
            return MIXED_TRIPLE_CHOW
        if sorted((r0, r1, r2)) == [2, 5, 8]:
            return MIXED_STRAIGHT
    else:
        if t0 + 3 == t1 and t1 + 3 == t2:
            return PURE_STRAIGHT
        if t0 + 2 == t1 and t1 + 2 == t2:
            return PURE_SHIFTED_CHOWS
        if t0 + 1 == t1 and t1 + 1 == t2:
            return PURE_SHIFTED_CHOWS
        if t0 == t1 == t2:
            return PURE_TRIPLE_CHOW
    return 0


def _two_chows_fan(t0, t1):
    if (t0 >> 4) != (t1 >> 4):
        if (t0 & 15) == (t1 & 15):
            return MIXED_DOUBLE_CHOW
    else:
        if t0 + 3 == t1 or t1 + 3 == t0:
            return SHORT_STRAIGHT
        r0, r1 = t0 & 15, t1 & 15
        if (r0 == 2 and r1 == 8) or (r0 == 8 and r1 == 2):
            return TWO_TERMINAL_CHOWS
        if t0 == t1:
            return PURE_DOUBLE_CHOW
    return 0


def _four_pungs_fan(t0, t1, t2, t3):
    if t0 < 0x40 and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return FOUR_PURE_SHIFTED_PUNGS
    if t0 == TILE_E and t1 == TILE_S and t2 == TILE_W and t3 == TILE_N:
        return BIG_FOUR_WINDS
    return 0


_THREE_WINDS = frozenset({(TILE_E, TILE_S, TILE_W), (TILE_E, TILE_S, TILE_N),
                          (TILE_E, TILE_W, TILE_N), (TILE_S, TILE_W, TILE_N)})


def _three_pungs_fan(t0, t1, t2):
    if t0 < 0x40 and t1 < 0x40 and t2 < 0x40:
        s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
        if s0 != s1 and s0 != s2 and s1 != s2:
            r0, r1, r2 = t0 & 15, t1 & 15, t2 & 15
            if _shifted_1_unordered(r0, r1, r2):
                return MIXED_SHIFTED_PUNGS
            if r0 == r1 == r2:
                return TRIPLE_PUNG
        elif t0 + 1 == t1 and t1 + 1 == t2:
            return PURE_SHIFTED_PUNGS
    else:
        if (t0, t1, t2) in _THREE_WINDS:
            return BIG_THREE_WINDS
        if t0 == TILE_C and t1 == TILE_F and t2 == TILE_P:
            return BIG_THREE_DRAGONS
    return 0


def _two_pungs_fan(t0, t1):
    if t0 < 0x40 and t1 < 0x40:
        if (t0 & 15) == (t1 & 15):
            return DOUBLE_PUNG
    elif _is_dragon(t0) and _is_dragon(t1):
        return TWO_DRAGONS_PUNGS
    return 0


def _one_chow_extra(t0, t1, t2, te):
    fans = (_two_chows_fan(t0, te), _two_chows_fan(t1, te), _two_chows_fan(t2, te))
    for f in (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS):
        if f in fans:
            return f
    return 0


def _exclusionary(all_fans, max_cnt, ft):
    """The pair-fan cap (套算一次 / 不得相同) for chows without a 3-chow fan."""
    table = [0, 0, 0, 0]
    cnt = 0
    for f in all_fans:
        if f:
            cnt += 1
            table[f - PURE_DOUBLE_CHOW] += 1
    limit = 1
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


def _three_of_four_chows(t0, t1, t2, te, ft):
    f = _three_chows_fan(t0, t1, t2)
    if f:
        ft[f] = 1
        f = _one_chow_extra(t0, t1, t2, te)
        if f:
            ft[f] = 1
        return True
    return False


def _four_chows(m, ft):
    f = _four_chows_fan(m[0], m[1], m[2], m[3])
    if f:
        ft[f] = 1
        return
    if (_three_of_four_chows(m[0], m[1], m[2], m[3], ft) or _three_of_four_chows(m[0], m[1], m[3], m[2], ft)
            or _three_of_four_chows(m[0], m[2], m[3], m[1], ft)
            or _three_of_four_chows(m[1], m[2], m[3], m[0], ft)):
        return
    a = (_two_chows_fan(m[0], m[1]), _two_chows_fan(m[0], m[2]), _two_chows_fan(m[0], m[3]),
         _two_chows_fan(m[1], m[2]), _two_chows_fan(m[1], m[3]), _two_chows_fan(m[2], m[3]))
    max_cnt = 3
    if not (a[0] or a[1] or a[2]):
        max_cnt -= 1
    if not (a[0] or a[3] or a[4]):
        max_cnt -= 1
    if not (a[1] or a[3] or a[5]):
        max_cnt -= 1
    if not (a[2] or a[4] or a[5]):
        max_cnt -= 1
    if max_cnt > 0:
        _exclusionary(a, max_cnt, ft)


def _three_chows(m, ft):
    f = _three_chows_fan(m[0], m[1], m[2])
    if f:
        ft[f] = 1
        return
    _exclusionary((_two_chows_fan(m[0], m[1]), _two_chows_fan(m[0], m[2]), _two_chows_fan(m[1], m[2])), 2, ft)


def _kongs(cp, mk, ck, ft):
    """Kong and concealed-pung fans (guobiao_fans.md §4.6)."""
    k = mk + ck
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
            ft[TWO_CONCEALED_PUNGS if cp == 0 else THREE_CONCEALED_PUNGS] = 1
        elif ck == 3:
            ft[THREE_CONCEALED_PUNGS if cp == 0 else FOUR_CONCEALED_PUNGS] = 1
    else:
        ft[FOUR_KONGS] = 1
        if ck == 2:
            ft[TWO_CONCEALED_PUNGS] = 1
        elif ck == 3:
            ft[THREE_CONCEALED_PUNGS] = 1
        elif ck == 4:
            ft[FOUR_CONCEALED_PUNGS] = 1


def _four_pungs(m, ft):
    f = _four_pungs_fan(m[0], m[1], m[2], m[3])
    if f:
        ft[f] = 1
        return
    free = -1
    for a, b, c, d in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
        f = _three_pungs_fan(m[a], m[b], m[c])
        if f:
            ft[f] = 1
            free = d
            break
    if free >= 0:
        for i in range(4):
            if i == free:
                continue
            f = _two_pungs_fan(m[i], m[free])
            if f:
                ft[f] += 1
                break
        return
    for i, j in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)):
        f = _two_pungs_fan(m[i], m[j])
        if f:
            ft[f] += 1


def _three_pungs(m, ft):
    f = _three_pungs_fan(m[0], m[1], m[2])
    if f:
        ft[f] = 1
        return
    for i, j in ((0, 1), (0, 2), (1, 2)):
        f = _two_pungs_fan(m[i], m[j])
        if f:
            ft[f] += 1


def _pure_terminal_chows(chows, pair):
    if (pair & 15) != 5:
        return False
    n123 = n789 = 0
    for t in chows:
        if (t >> 4) != (pair >> 4):
            return False
        r = t & 15
        if r == 2:
            n123 += 1
        elif r == 8:
            n789 += 1
        else:
            return False
    return n123 == 2 and n789 == 2


def _three_suited_terminal_chows(chows, pair):
    if (pair & 15) != 5:
        return False
    ps = pair >> 4
    s123 = set()
    s789 = set()
    for t in chows:
        s = t >> 4
        if s == ps:
            return False
        r = t & 15
        if r == 2:
            s123.add(s)
        elif r == 8:
            s789.add(s)
        else:
            return False
    others = {1, 2, 3} - {ps}
    return ps <= 3 and s123 >= others and s789 >= others


# ---------------------------------------------------------------------------------------------
# hand-wide adjustments
def _adjust_by_win_flag(flag, ft):
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


def _adjust_by_suits(unique, ft):
    flag = 0
    for t in unique:
        flag |= 1 << (t >> 4)
    if not flag & 0x10:
        ft[NO_HONORS] = 1
    for s in (1, 2, 3):
        if not flag & (1 << s):
            ft[ONE_VOIDED_SUIT] += 1
    if ft[ONE_VOIDED_SUIT] == 2:
        ft[ONE_VOIDED_SUIT] = 0
        if ft[NO_HONORS] == 0:
            ft[HALF_FLUSH] = 1
        else:
            ft[FULL_FLUSH] = 1
            ft[NO_HONORS] = 0
    if flag == 0x1E:
        if any(_is_wind(t) for t in unique) and any(_is_dragon(t) for t in unique):
            ft[ALL_TYPES] = 1


def _adjust_by_rank_range(unique, ft):
    flag = 0
    for t in unique:
        if t > 0x40:
            return
        flag |= 1 << (t & 15)
    if not flag & 0xFFE1:
        ft[LOWER_FOUR if flag & 0x10 else LOWER_TILES] = 1
        return
    if not flag & 0xFC3F:
        ft[UPPER_FOUR if flag & 0x40 else UPPER_TILES] = 1
        return
    if not flag & 0xFF8F:
        ft[MIDDLE_TILES] = 1


def _adjust_by_packs_traits(packs, ft):
    terminal = honor = five = even = 0
    for typ, t, _m in packs:
        if t < 0x40:
            r = t & 15
            if typ == CHOW:
                if r == 2 or r == 8:
                    terminal += 1
                elif 4 <= r <= 6:
                    five += 1
            else:
                if r == 1 or r == 9:
                    terminal += 1
                elif r == 5:
                    five += 1
                elif r in (2, 4, 6, 8):
                    even += 1
        else:
            honor += 1
    if terminal + honor == 5:
        ft[OUTSIDE_HAND] = 1
    elif five == 5:
        ft[ALL_FIVE] = 1
    elif even == 5:
        ft[ALL_EVEN_PUNGS] = 1


def _adjust_by_tiles_traits(unique, ft):
    if not any(_is_term_or_honor(t) for t in unique):
        ft[ALL_SIMPLES] = 1
    if all(t in _REVERSIBLE for t in unique):
        ft[REVERSIBLE_TILES] = 1
    if all(t in _GREEN for t in unique):
        ft[ALL_GREEN] = 1
    if ft[ALL_SIMPLES]:
        return
    if all(t > 0x40 for t in unique):
        ft[ALL_HONORS] = 1
        return
    if all(_is_terminal(t) for t in unique):
        ft[ALL_TERMINALS] = 1
        return
    if all(_is_term_or_honor(t) for t in unique):
        ft[ALL_TERMINALS_AND_HONORS] = 1


def _adjust_by_waiting_form(concealed_packs, win, ft):
    if ft[MELDED_HAND] or ft[FOUR_KONGS]:
        return
    pos = 0
    for typ, t, _m in concealed_packs:
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


def _final_adjust(ft, opts):
    """The "not counted" (不计) pass."""
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


def _adjust_by_winds(t, prevalent, seat, ft, opts):
    deducted = bool(ft[BIG_THREE_WINDS] or ft[ALL_TERMINALS_AND_HONORS] or ft[ALL_HONORS]
                    or (ft[LITTLE_FOUR_WINDS] and not opts & OPT_V2))
    delta = t - TILE_E
    if delta == prevalent:
        ft[PREVALENT_WIND] = 1
        if not deducted:
            ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if delta == seat:
        ft[SEAT_WIND] = 1
        if seat != prevalent and not deducted:
            ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1


# ---------------------------------------------------------------------------------------------
# waits
@lru_cache(maxsize=None)
def _suit_sets(cs: tuple, honor: bool) -> int:
    """Bit 1: the suit splits into sets only; bit 2: into sets plus one pair."""
    res = 0
    if not any(cs):
        return 1
    i = next(k for k, x in enumerate(cs) if x)
    lst = list(cs)
    if lst[i] >= 3:
        lst[i] -= 3
        res |= _suit_sets(tuple(lst), honor)
        lst[i] += 3
    if not honor and i + 2 < len(cs) and lst[i + 1] and lst[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        res |= _suit_sets(tuple(lst), honor)
        lst[i] += 1
        lst[i + 1] += 1
        lst[i + 2] += 1
    if lst[i] >= 2:
        lst[i] -= 2
        sub = _suit_sets(tuple(lst), honor)
        if sub & 1:
            res |= 2
    return res


def _regular_complete(c: list) -> bool:
    """Sets + one pair over a 34-count list (fifth copies allowed, as the reference does)."""
    pairs = 0
    for lo, hi, honor in ((0, 9, False), (9, 18, False), (18, 27, False)):
        r = _suit_sets(tuple(c[lo:hi]), honor)
        if r & 1:
            continue
        if r & 2:
            pairs += 1
            continue
        return False
    for i in range(27, 34):
        x = c[i] % 3
        if x == 1:
            return False
        if x == 2:
            pairs += 1
    return pairs == 1


def _is_unique_waiting(c14: list, win: int, seven: bool) -> bool:
    """Exactly one kind completes the 13 tiles before the win (regular form, plus 七对 when
    ``seven``): the reference calculator's 独听 test."""
    c = list(c14)
    c[win] -= 1
    n = 0
    for t in range(34):
        if c[t] == 0:
            # a tile not held helps only next to a held numbered tile (or as nothing at all)
            if t >= 27:
                continue
            s = t - t % 9
            if not any(c[k] for k in range(max(s, t - 2), min(s + 9, t + 3))):
                continue
        c[t] += 1
        ok = _regular_complete(c) or (seven and all(x % 2 == 0 for x in c))
        c[t] -= 1
        if ok:
            n += 1
            if n > 1:
                return False
    return n == 1


def _pack_waiting(table, waiting):
    for t in ALL_REF:
        if table[t] < 1:
            continue
        if table[t] > 1:
            waiting.add(t)
            return
        if t < 0x40:
            r = t & 15
            if r > 1 and table[t - 1]:
                if r < 9:
                    waiting.add(t + 1)
                if r > 2:
                    waiting.add(t - 2)
                return
            if r > 2 and table[t - 2]:
                waiting.add(t - 1)
                return


def _regular_waiting(table, cnt, prev, waiting):
    if cnt == 1:
        for t in ALL_REF:
            if table[t] == 1:
                waiting.add(t)
                break
        return
    if cnt == 4:
        for t in ALL_REF:
            if table[t] < 2:
                continue
            table[t] -= 2
            _pack_waiting(table, waiting)
            table[t] += 2
    for t in ALL_REF:
        if table[t] < 1:
            continue
        if table[t] > 2:
            e = (t << 16) | (t << 8) | t
            if e > prev:
                table[t] -= 3
                _regular_waiting(table, cnt - 3, e, waiting)
                table[t] += 3
        if t < 0x40 and (t & 15) < 8 and table[t + 1] and table[t + 2]:
            e = (t << 16) | ((t + 1) << 8) | (t + 2)
            if e >= prev:
                table[t] -= 1
                table[t + 1] -= 1
                table[t + 2] -= 1
                _regular_waiting(table, cnt - 3, e, waiting)
                table[t] += 1
                table[t + 1] += 1
                table[t + 2] += 1


def _ref_unique_waiting(table, cnt, win):
    """Literal form of the reference's 独听 test on a reference-valued table (used beside a
    组合龙, where the winning tile may be missing from the table and its count wraps around
    as an unsigned 16-bit number, as in the reference)."""
    table = list(table)
    table[win] = (table[win] - 1) & 0xFFFF
    waiting = set()
    _regular_waiting(table, cnt, 0, waiting)
    return len(waiting) == 1


# ---------------------------------------------------------------------------------------------
def _regular(packs, fixed_cnt, unique, hog_cnt, win, flag, unique_waiting, seat, prevalent, opts):
    """Score one split (5 packs: fixed first, then concealed sets, pair last)."""
    ft = [0] * N_FANS
    chows = []
    pungs = []
    pair = 0
    cp = mk = ck = 0
    for typ, t, melded in packs:
        if typ == CHOW:
            chows.append((t, melded))
        elif typ == PUNG:
            pungs.append((t, melded))
            if not melded:
                cp += 1
        elif typ == KONG:
            pungs.append((t, melded))
            if melded:
                mk += 1
            else:
                ck += 1
        else:
            pair = t
    _adjust_by_win_flag(flag, ft)
    if not flag & F_SELF_DRAWN:
        if not any(not m and t - 1 <= win <= t + 1 for t, m in chows):
            for t, m in pungs:
                if t == win and not m:
                    cp -= 1
    n_p = len(pungs)
    n_c = len(chows)
    if n_p:
        _kongs(cp, mk, ck, ft)
        if n_p == 4 and not ft[FOUR_KONGS] and not ft[FOUR_CONCEALED_PUNGS]:
            ft[ALL_PUNGS] = 1
        for t, _m in pungs:
            if _is_dragon(t):
                ft[DRAGON_PUNG] += 1
            elif _is_terminal(t) or _is_wind(t):
                ft[PUNG_OF_TERMINALS_OR_HONORS] += 1
    if n_c == 4:
        ct = [t for t, _m in chows]
        if _three_suited_terminal_chows(ct, pair):
            ft[THREE_SUITED_TERMINAL_CHOWS] = 1
        elif _pure_terminal_chows(ct, pair):
            ft[PURE_TERMINAL_CHOWS] = 1
        else:
            ct.sort()
            _four_chows(ct, ft)
    elif n_c == 3:
        _three_chows(sorted(t for t, _m in chows), ft)
    elif n_c == 2:
        f = _two_chows_fan(chows[0][0], chows[1][0])
        if f:
            ft[f] += 1
        f = _two_pungs_fan(pungs[0][0], pungs[1][0])
        if f:
            ft[f] += 1
    elif n_c == 1:
        _three_pungs(sorted(t for t, _m in pungs), ft)
    else:
        _four_pungs(sorted(t for t, _m in pungs), ft)
    # concealment
    melded_cnt = sum(1 for p in packs[:fixed_cnt] if p[2])
    self_drawn = flag & F_SELF_DRAWN
    if melded_cnt == 0:
        ft[FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND] = 1
    elif melded_cnt == 4:
        ft[SELF_DRAWN if self_drawn else MELDED_HAND] = 1
    elif self_drawn:
        ft[SELF_DRAWN] = 1
    # pair
    if n_c == 4:
        if pair < 0x40:
            ft[ALL_CHOWS] = 1
    elif ft[TWO_DRAGONS_PUNGS]:
        if _is_dragon(pair):
            ft[LITTLE_THREE_DRAGONS] = 1
            ft[TWO_DRAGONS_PUNGS] = 0
    elif ft[BIG_THREE_WINDS]:
        if _is_wind(pair):
            ft[LITTLE_FOUR_WINDS] = 1
            ft[BIG_THREE_WINDS] = 0
    _adjust_by_packs_traits(packs, ft)
    _adjust_by_suits(unique, ft)
    _adjust_by_tiles_traits(unique, ft)
    _adjust_by_rank_range(unique, ft)
    if not ft[QUADRUPLE_CHOW]:
        ft[TILE_HOG] = hog_cnt - mk - ck
    if unique_waiting:
        _adjust_by_waiting_form(packs[fixed_cnt:], win, ft)
    _final_adjust(ft, opts)
    if not ft[BIG_FOUR_WINDS]:
        for t, _m in pungs:
            if _is_wind(t):
                _adjust_by_winds(t, prevalent, seat, ft, opts)
    if not any(ft):
        ft[CHICKEN_HAND] = 1
    return ft


def fan_total(ft) -> int:
    """Sum of value × count over a fan table, flowers excluded."""
    return sum(FAN_VALUE[i] * n for i, n in enumerate(ft) if n and i != FLOWER_TILES)


def _seven_shifted(st, suit):
    if suit == 4:
        return False
    t3 = (suit << 4) | 3
    if all(st[t3 + k] == 2 for k in range(5)):
        if st[t3 - 1] == 2:
            return st[t3 - 2] == 2 or st[t3 + 5] == 2
        return st[t3 + 5] == 2 and st[t3 + 6] == 2
    return False


def _special(st, win, unique, flag, opts):
    """七对 / 连七对, 全不靠 / 七星不靠, 十三幺 (no melds): (form, fan table) or None."""
    ft = [0] * N_FANS
    if all(st[t] % 2 == 0 for t in ALL_REF):
        s = win >> 4
        if _seven_shifted(st, s):
            ft[SEVEN_SHIFTED_PAIRS] = 1
            if st[(s << 4) | 1] == 0 and st[(s << 4) | 9] == 0:
                ft[ALL_SIMPLES] = 1
            _special_flags(flag, ft, opts)
            return "seven_shifted_pairs", ft
        ft[SEVEN_PAIRS] = 1
        _adjust_by_suits(unique, ft)
        _adjust_by_tiles_traits(unique, ft)
        _adjust_by_rank_range(unique, ft)
        ft[TILE_HOG] = sum(1 for t in ALL_REF if st[t] == 4)
        _adjust_by_win_flag(flag, ft)
        _final_adjust(ft, opts)
        return "seven_pairs", ft
    if len(unique) == 14:
        nums = [t for t in unique if t < 0x40]
        if 7 <= len(nums) <= 9 and any(set(nums) <= set(k) for k in KNITTED):
            if len(nums) == 7:
                ft[GREATER_HONORS_AND_KNITTED_TILES] = 1
            else:
                ft[LESSER_HONORS_AND_KNITTED_TILES] = 1
                if len(nums) == 9:
                    ft[KNITTED_STRAIGHT] = 1
            _adjust_by_win_flag(flag, ft)
            return "honors_and_knitted", ft
    if len(unique) == 13 and tuple(unique) == _ORPHANS:
        ft[THIRTEEN_ORPHANS] = 1
        _special_flags(flag, ft, opts)
        return "thirteen_orphans", ft
    return None


def _special_flags(flag, ft, opts):
    _adjust_by_win_flag(flag, ft)
    if opts & OPT_BUQIUREN and ft[SELF_DRAWN]:
        ft[SELF_DRAWN] = 0
        ft[FULLY_CONCEALED_HAND] = 1


def _nine_gates(st, win, flag, opts):
    s, r = win >> 4, win & 15
    if s > 3:
        return None
    base = s << 4
    mid = [st[base + k] for k in range(2, 9)]
    if r in (1, 9):
        other = base + (9 if r == 1 else 1)
        if st[win] != 4 or st[other] != 3 or any(x != 1 for x in mid):
            return None
    else:
        if st[win] != 2 or st[base + 1] != 3 or st[base + 9] != 3:
            return None
        if any(st[base + k] != 1 for k in range(2, 9) if k != r):
            return None
    ft = [0] * N_FANS
    ft[NINE_GATES] = 1
    if r in (1, 9):
        ft[PURE_STRAIGHT] = 1
        ft[TILE_HOG] = 1
    elif r in (2, 8):
        ft[TWO_CONCEALED_PUNGS] = 1
        ft[SHORT_STRAIGHT] = 1
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif r == 5:
        ft[TWO_CONCEALED_PUNGS] = 1
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        ft[SHORT_STRAIGHT] = 1
    _special_flags(flag, ft, opts)
    return ft


def _knitted(c34, st, fixed_table, fixed, win, flag, seat, prevalent, opts):
    """组合龙 + set + pair (at most one meld): (packs, fan table) or None."""
    if not any(st[t] >= 2 for t in ALL_REF):
        return None
    seq = next((k for k in KNITTED if all(st[t] for t in k)), None)
    if seq is None:
        return None
    rest = list(c34)
    for t in seq:
        rest[FROM_REF[t]] -= 1
    rows = decompose_counts(np.array(rest, np.uint8), 3 + len(fixed), forms=("standard",))
    if len(rows) != 1:
        return None
    _form, sets, pair_id, _tiles, _wild = rows[0]
    if fixed:
        involved = fixed[0]
    else:
        kind, first = sets[0]
        involved = (CHOW, TO_REF[first + 1], False) if kind == "chow" else (PUNG, TO_REF[first], False)
    pair = TO_REF[pair_id]
    ft = [0] * N_FANS
    ft[KNITTED_STRAIGHT] = 1
    typ, it, melded = involved
    if typ == CHOW:
        if pair < 0x40:
            ft[ALL_CHOWS] = 1
        if fixed_table[pair] + st[pair] == 4:
            ft[TILE_HOG] = 1
    else:
        if it > 0x40:
            if _is_wind(it):
                ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
                _adjust_by_winds(it, prevalent, seat, ft, opts)
                if _is_dragon(pair):
                    ft[ALL_TYPES] = 1
            else:
                ft[DRAGON_PUNG] = 1
                if _is_wind(pair):
                    ft[ALL_TYPES] = 1
        else:
            if _is_terminal(it):
                ft[PUNG_OF_TERMINALS_OR_HONORS] = 1
            if pair < 0x40:
                ft[NO_HONORS] = 1
            if typ != KONG and fixed_table[it] + st[it] == 4:
                ft[TILE_HOG] = 1
    _adjust_by_win_flag(flag, ft)
    if melded:
        if typ == KONG:
            ft[MELDED_KONG] = 1
    else:
        if typ == KONG:
            ft[CONCEALED_KONG] = 1
        if flag & F_SELF_DRAWN:
            ft[FULLY_CONCEALED_HAND] = 1
            ft[SELF_DRAWN] = 0
        else:
            ft[CONCEALED_HAND] = 1
    if not fixed:
        table = [0] * 0x48
        for i, n in enumerate(rest):
            if n:
                table[TO_REF[i]] = n
        if _ref_unique_waiting(table, 4, win):
            _adjust_by_waiting_form((involved, (PAIR, pair, False)), win, ft)
    else:
        if win not in seq or st[win] == 3:
            ft[SINGLE_WAIT] = 1
    _final_adjust(ft, opts)
    return (involved, (PAIR, pair, False)), seq, ft


def _dfs_key(sets):
    """Order of a split in the reference's depth-first search: its sets sorted by
    (first tile in reference order, pung before chow), compared lexicographically."""
    return sorted((TO_REF[first], 1 if kind == "chow" else 0) for kind, first in sets)


def calculate(c34, melds, win, flag, seat, prevalent, opts=0):
    """Fan table of the best reading, as the reference calculator picks it.

    Parameters
    ----------
    c34 : sequence of int
        Concealed counts in mjfast order (winning tile included).
    melds : sequence of (type, mjfast first tile, melded)
        ``type`` is CHOW/PUNG/KONG; ``melded`` False only for a concealed kong.
    win : int
        Winning tile, mjfast id.
    flag : int
        Win flags (F_*), uncorrected.
    seat, prevalent : int
        Winds 0..3.
    opts : int
        OPT_* bits.

    Returns
    -------
    (fan table, reading) or None
        ``reading`` is ``(form, packs, extra)``: form name, the 5 packs
        ``(type, reference tile, melded)`` of a set + pair reading (fixed first), and for
        组合龙 the knitted tiles.  None when the tiles form no winning hand.
    """
    fixed = []
    fixed_table = [0] * 0x48
    for typ, first, melded in melds:
        if typ == CHOW:
            mid = TO_REF[first + 1]
            fixed.append((CHOW, mid, melded))
            fixed_table[mid - 1] += 1
            fixed_table[mid] += 1
            fixed_table[mid + 1] += 1
        else:
            t = TO_REF[first]
            fixed.append((typ, t, melded))
            fixed_table[t] += 3 if typ == PUNG else 4
    st = [0] * 0x48
    for i, n in enumerate(c34):
        if n:
            st[TO_REF[i]] = n
    wr = TO_REF[win]
    unique = [t for t in ALL_REF if st[t] or fixed_table[t]]
    if st[wr] != 1:
        flag &= ~F_LAST_TILE
    if fixed_table[wr] == 3:
        flag |= F_LAST_TILE
    if flag & F_KONG:
        if flag & F_SELF_DRAWN:
            if not any(p[0] == KONG for p in fixed):
                flag &= ~F_KONG
        elif fixed_table[wr] != 0 or st[wr] != 1:
            flag &= ~F_KONG
    fixed_cnt = len(fixed)
    best = None
    best_fan = 0
    seven = False
    if fixed_cnt == 0:
        sp = _special(st, wr, unique, flag, opts)
        if sp is not None:
            best = (sp[1], (sp[0], (), ()))
        else:
            kn = _knitted(c34, st, fixed_table, fixed, wr, flag, seat, prevalent, opts)
            if kn is not None:
                best = (kn[2], ("knitted_straight", kn[0], kn[1]))
            else:
                ng = _nine_gates(st, wr, flag, opts)
                if ng is not None:
                    best = (ng, ("nine_gates", (), ()))
        if best is not None:
            best_fan = fan_total(best[0])
            seven = best[0][SEVEN_PAIRS] == 1
    elif fixed_cnt == 1:
        kn = _knitted(c34, st, fixed_table, fixed, wr, flag, seat, prevalent, opts)
        if kn is not None:
            best = (kn[2], ("knitted_straight", kn[0], kn[1]))
            best_fan = fan_total(best[0])
    if best_fan == 0 or seven:
        rows = decompose_counts(np.asarray(c34, np.uint8), fixed_cnt, forms=("standard",))
        if rows:
            if len(rows) > 1:
                rows = sorted(rows, key=lambda r: _dfs_key(r[1]))
            uw = _is_unique_waiting(c34, win, fixed_cnt == 0)
            hog = sum(1 for t in ALL_REF if st[t] + fixed_table[t] == 4)
            for _form, sets, pair_id, _tiles, _wild in rows:
                conc = sorted(((CHOW, TO_REF[f + 1], False) if k == "chow" else (PUNG, TO_REF[f], False))
                              for k, f in sets)
                packs = fixed + conc + [(PAIR, TO_REF[pair_id], False)]
                ft = _regular(packs, fixed_cnt, unique, hog, wr, flag, uw, seat, prevalent, opts)
                total = fan_total(ft)
                if total > best_fan:
                    best_fan = total
                    best = (ft, ("standard", tuple(packs), ()))
                elif total == best_fan and (ft[PURE_TRIPLE_CHOW] == 1 or seven or ft[TRIPLE_PUNG]):
                    best = (ft, ("standard", tuple(packs), ()))
    if best_fan == 0:
        return None
    return best
