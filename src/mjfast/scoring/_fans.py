"""The 国标 MCR fan table and the encoding the fan search works in: one home, read by the scorer
(:mod:`mjfast.scoring.guobiao`), its pure-Python twin (:mod:`mjfast._reference.mcr`) and the
compiled search (:mod:`mjfast._kernels._mcr`, at import).

Fans are numbered as the reference calculator (PyMahjongGB 1.4.0) numbers them: No. 1-81 of the
1998 table, then 明暗杠 = 82; index 0 is unused.  Tiles are the reference's values ``suit << 4 |
rank`` (万 1, 条 2, 饼 3, 字 4; honours E S W N 中 发 白 = 0x41..0x47), on which several fans are
arithmetic (``t0 + 3 == t1`` for 清龙); :data:`TO_REF` / :data:`FROM_REF` map mjfast tile ids.
"""
from __future__ import annotations

# ---------------------------------------------------------------------------------------------
# fan ids: the reference table order (No. 1-81 of the 1998 table, then 明暗杠 = 82)
(BIG_FOUR_WINDS, BIG_THREE_DRAGONS, ALL_GREEN, NINE_GATES, FOUR_KONGS, SEVEN_SHIFTED_PAIRS,
 THIRTEEN_ORPHANS, ALL_TERMINALS, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, ALL_HONORS,
 FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS, QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS,
 FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS, ALL_TERMINALS_AND_HONORS, SEVEN_PAIRS,
 GREATER_HONORS_AND_KNITTED_TILES, ALL_EVEN_PUNGS, FULL_FLUSH, PURE_TRIPLE_CHOW,
 PURE_SHIFTED_PUNGS, UPPER_TILES, MIDDLE_TILES, LOWER_TILES, PURE_STRAIGHT,
 THREE_SUITED_TERMINAL_CHOWS, PURE_SHIFTED_CHOWS, ALL_FIVE, TRIPLE_PUNG, THREE_CONCEALED_PUNGS,
 LESSER_HONORS_AND_KNITTED_TILES, KNITTED_STRAIGHT, UPPER_FOUR, LOWER_FOUR, BIG_THREE_WINDS,
 MIXED_STRAIGHT, REVERSIBLE_TILES, MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS, CHICKEN_HAND,
 LAST_TILE_DRAW, LAST_TILE_CLAIM, OUT_WITH_REPLACEMENT_TILE, ROBBING_THE_KONG, ALL_PUNGS,
 HALF_FLUSH, MIXED_SHIFTED_CHOWS, ALL_TYPES, MELDED_HAND, TWO_CONCEALED_KONGS, TWO_DRAGONS_PUNGS,
 OUTSIDE_HAND, FULLY_CONCEALED_HAND, TWO_MELDED_KONGS, LAST_TILE, DRAGON_PUNG, PREVALENT_WIND,
 SEAT_WIND, CONCEALED_HAND, ALL_CHOWS, TILE_HOG, DOUBLE_PUNG, TWO_CONCEALED_PUNGS, CONCEALED_KONG,
 ALL_SIMPLES, PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS,
 PUNG_OF_TERMINALS_OR_HONORS, MELDED_KONG, ONE_VOIDED_SUIT, NO_HONORS, EDGE_WAIT, CLOSED_WAIT,
 SINGLE_WAIT, SELF_DRAWN, FLOWER_TILES, CONCEALED_KONG_AND_MELDED_KONG) = range(1, 83)
N_FANS = 83  # index 0 unused

#: Fan values by id.
FAN_VALUE = (0,
             88, 88, 88, 88, 88, 88, 88,
             64, 64, 64, 64, 64, 64,
             48, 48,
             32, 32, 32,
             24, 24, 24, 24, 24, 24, 24, 24, 24,
             16, 16, 16, 16, 16, 16,
             12, 12, 12, 12, 12,
             8, 8, 8, 8, 8, 8, 8, 8, 8,
             6, 6, 6, 6, 6, 6, 6,
             4, 4, 4, 4,
             2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
             1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
             1, 5)

#: Chinese names, exactly as the reference calculator returns them.
FAN_NAME_ZH = ("",
               "大四喜", "大三元", "绿一色", "九莲宝灯", "四杠", "连七对", "十三幺",
               "清幺九", "小四喜", "小三元", "字一色", "四暗刻", "一色双龙会",
               "一色四同顺", "一色四节高",
               "一色四步高", "三杠", "混幺九",
               "七对", "七星不靠", "全双刻", "清一色", "一色三同顺", "一色三节高", "全大", "全中", "全小",
               "清龙", "三色双龙会", "一色三步高", "全带五", "三同刻", "三暗刻",
               "全不靠", "组合龙", "大于五", "小于五", "三风刻",
               "花龙", "推不倒", "三色三同顺", "三色三节高", "无番和", "妙手回春", "海底捞月", "杠上开花",
               "抢杠和",
               "碰碰和", "混一色", "三色三步高", "五门齐", "全求人", "双暗杠", "双箭刻",
               "全带幺", "不求人", "双明杠", "和绝张",
               "箭刻", "圈风刻", "门风刻", "门前清", "平和", "四归一", "双同刻", "双暗刻", "暗杠", "断幺",
               "一般高", "喜相逢", "连六", "老少副", "幺九刻", "明杠", "缺一门", "无字",
               "独听・边张", "独听・嵌张", "独听・单钓", "自摸",
               "花牌", "明暗杠")

#: English names, as the reference binding returns them in verbose mode.
FAN_NAME_EN = ("",
               "Big Four Winds", "Big Three Dragons", "All Green", "Nine Gates", "Four Kongs",
               "Seven Shifted Pairs", "Thirteen Orphans",
               "All Terminals", "Little Four Winds", "Little Three Dragons", "All Honors",
               "Four Concealed Pungs", "Pure Terminal Chows",
               "Quadruple Chow", "Four Pure Shifted Pungs",
               "Four Pure Shifted Chows", "Three Kongs", "All Terminals and Honors",
               "Seven Pairs", "Greater Honors and Knitted Tiles", "All Even Pungs", "Full Flush",
               "Pure Triple Chow", "Pure Shifted Pungs", "Upper Tiles", "Middle Tiles", "Lower Tiles",
               "Pure Straight", "Three-Suited Terminal Chows", "Pure Shifted Chows", "All Five",
               "Triple Pung", "Three Concealed Pungs",
               "Lesser Honors and Knitted Tiles", "Knitted Straight", "Upper Four", "Lower Four",
               "Big Three Winds",
               "Mixed Straight", "Reversible Tiles", "Mixed Triple Chow", "Mixed Shifted Pungs",
               "Chicken Hand", "Last Tile Draw", "Last Tile Claim", "Out with Replacement Tile",
               "Robbing The Kong",
               "All Pungs", "Half Flush", "Mixed Shifted Chows", "All Types", "Melded Hand",
               "Two Concealed Kongs", "Two Dragons Pungs",
               "Outside Hand", "Fully Concealed Hand", "Two Melded Kongs", "Last Tile",
               "Dragon Pung", "Prevalent Wind", "Seat Wind", "Concealed Hand", "All Chows", "Tile Hog",
               "Double Pung", "Two Concealed Pungs", "Concealed Kong", "All Simples",
               "Pure Double Chow", "Mixed Double Chow", "Short Straight", "Two Terminal Chows",
               "Pung of Terminals or Honors", "Melded Kong", "One Voided Suit", "No Honors",
               "Edge Wait", "Closed Wait", "Single Wait", "Self-Drawn",
               "Flower Tiles", "Concealed Kong and Melded Kong")

# win flags (the reference calculator's bits)
F_SELF_DRAWN = 1
F_LAST_TILE = 2
F_KONG = 4
F_WALL_LAST = 8

# pack types
CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4

# ---------------------------------------------------------------------------------------------
# tiles: mjfast id (0..33, m p s z; 5z 白 6z 发 7z 中) <-> reference value
_TO_REF = ([0x11 + i for i in range(9)] + [0x31 + i for i in range(9)] + [0x21 + i for i in range(9)]
           + [0x41, 0x42, 0x43, 0x44, 0x47, 0x46, 0x45])
TO_REF = tuple(_TO_REF)
_FROM_REF = [-1] * 0x48
for _i, _v in enumerate(_TO_REF):
    _FROM_REF[_v] = _i
FROM_REF = tuple(_FROM_REF)
#: Reference values in the reference order (万 条 饼 E S W N 中 发 白).
ALL_REF = tuple(sorted(_TO_REF))

TILE_E, TILE_S, TILE_W, TILE_N, TILE_C, TILE_F, TILE_P = range(0x41, 0x48)
KNITTED = (
    (0x11, 0x14, 0x17, 0x22, 0x25, 0x28, 0x33, 0x36, 0x39),
    (0x11, 0x14, 0x17, 0x23, 0x26, 0x29, 0x32, 0x35, 0x38),
    (0x12, 0x15, 0x18, 0x21, 0x24, 0x27, 0x33, 0x36, 0x39),
    (0x12, 0x15, 0x18, 0x23, 0x26, 0x29, 0x31, 0x34, 0x37),
    (0x13, 0x16, 0x19, 0x21, 0x24, 0x27, 0x32, 0x35, 0x38),
    (0x13, 0x16, 0x19, 0x22, 0x25, 0x28, 0x31, 0x34, 0x37),
)



# option bits (rule options of guobiao.md that change the counting)
OPT_V2 = 1        # exclusions="v2" (GB-C1): the v3-only 幺九刻 / 全带幺 exclusions are not applied
OPT_TONGKE = 2    # qingyaojiu_tongke (GB-C7): 清幺九 keeps 双同刻
OPT_BUQIUREN = 4  # selfdraw_buqiuren (GB-C2): self-drawn 十三幺 / 连七对 / 九莲宝灯 score 不求人


def is_wind(t: int) -> bool:
    """A reference tile value is a wind."""
    return 0x41 <= t <= 0x44


def _code(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.lower()).replace("__", "_")


#: Snake-case codes by fan id (the ``code`` column of :attr:`~mjfast.Score.rows`).
FAN_CODE = ("",) + tuple(_code(FAN_NAME_EN[i]) for i in range(1, N_FANS))
#: ``(id, code, name_zh, name_en, value)`` for the 81 fans plus 明暗杠 (No. 82), in table order.
FANS = tuple((i, FAN_CODE[i], FAN_NAME_ZH[i], FAN_NAME_EN[i], FAN_VALUE[i])
             for i in range(1, N_FANS))
