"""JJ scorer (rules/jj.md): MCR fans with 混 wildcards, 番 x 基数 x coefficient, the 20 %
meld-source split, 血战 mode, payment minimisation, rounding."""

from fractions import Fraction

import pytest
from _hands import check_invariants

from mjfast import Hand, rules
from mjfast.scoring import WinContext, can_win, score
from mjfast.scoring import jj as JJ

# 8 番 (三色三步高 6 + 箭刻 2) with one 碰 of 中 from 上家 (seat 3 for winner 0)
EIGHT = ("123m234p345s99p", ["777z@left"])


def ctx(tiles, win, melds=(), wilds=0, **kw):
    return WinContext(Hand(tiles, melds=list(melds), wilds=wilds), win_tile=win, **kw)


def check(s, total, points, payments, fans=None):
    check_invariants(s)
    assert s.legal and s.unit == "番"
    assert (s.total, s.points, s.payments.tolist()) == (total, points, payments)
    if fans is not None:
        assert [(r[1], r[3]) for r in s.rows] == fans


# ---------------------------------------------------------------------------------------------
# jj.md §6 derived check: classic, 8 番, base 10, one 碰 from P
def test_worked_example_shares():
    c = ctx(*EIGHT[:1], "5s", melds=EIGHT[1], discarder=2)
    # discard: points 8 x 10 x 1.0 = 80; P (seat 3) 20 % = 16; Q (seat 2) 64
    assert JJ.shares(c, 8) == [0, 0, 64, 16]
    c = ctx(EIGHT[0], "5s", melds=EIGHT[1], self_draw=True)
    # self-draw: 120; P pays 24 + 96 / 3 = 56; the others 32
    assert JJ.shares(c, 8) == [0, 32, 32, 56]


def test_worked_example_real_hand_discard():
    # the hand really has 8 番: 三色三步高 6 + 箭刻 2; 80 -> seat 3 (碰 source) 16, seat 2 64
    s = score(ctx(EIGHT[0], "5s", melds=EIGHT[1], discarder=2), "jj")
    check(s, 8, 80, [80, 0, -64, -16], [("三色三步高", 6), ("箭刻", 2)])


def test_real_hand_self_draw():
    # + 自摸 1 = 9 番: P = 9 x 10 x 1.5 = 135; 20 % = 27 to seat 3; rest 108 / 3 = 36 each
    # -> seat 3 pays 27 + 36 = 63
    s = score(ctx(EIGHT[0], "5s", melds=EIGHT[1], self_draw=True), "jj")
    check(s, 9, 135, [135, -36, -36, -63])


def test_plain_discard_and_no_8_fan_minimum():
    # 5 番 (门前清 2, 平和 2, 嵌张 1): below the 国标 minimum but legal in JJ (JJ-A6 ⚑ 1 番)
    c = ctx("123m456p678s234s55p", "5p", discarder=3)
    check(score(c, "jj"), 5, 50, [50, 0, 0, -50])
    assert can_win(c, "jj") and not can_win(c, "guobiao")


def test_self_draw_no_melds():
    # 15 番 (花龙 8 不求人 4 平和 2 嵌张 1): 15 x 10 x 1.5 = 225, 75 each
    check(score(ctx("123m456p789s234s55p", "5p", self_draw=True), "jj"), 15, 225, [225, -75, -75, -75])


def test_two_sources_and_discarder():
    # 2 番 (幺九刻 1, 无字 1), winner 0: 999s from 下家 (seat 1), 678s from 上家 (seat 3),
    # discarder seat 2: P = 20; seats 1 and 3 pay 4 each, seat 2 pays 20 - 8 = 12
    s = score(ctx("123m345p55p", "3p", melds=["999s@right", "678s@left"], discarder=2), "jj")
    check(s, 2, 20, [20, -4, -12, -4])


def test_same_seat_feeds_and_deals_in():
    # 999s from 对家 (seat 2) and seat 2 discards: 20 % + 80 % = all of P
    # 5 番: 箭刻 2 暗杠 2 幺九刻 1 -> P = 50; 678s from 上家 (seat 3) pays 10; seat 2 pays 40
    s = score(ctx("234m55p", "4m", melds=["999s@opposite", "678s@left", "[7777z]"], discarder=2), "jj")
    check(s, 5, 50, [50, 0, -40, -10])


def test_robbing_kong_remainder_on_robbed():
    # 抢杠 (⚑): the robbed seat 1 pays the remainder; 抢杠和 8 番 joins the fans
    s = score(ctx("123m345p55p", "3p", melds=["999s@right", "678s@left"], discarder=1, robbing_kong=True), "jj")
    fan = s.total
    assert ("抢杠和", 8) in [(r[1], r[3]) for r in s.rows]
    # seat 1: 20 % (999s) + remainder 60 %, seat 3 20 %
    assert s.payments.tolist() == [10 * fan, -8 * fan, 0, -2 * fan]


# ---------------------------------------------------------------------------------------------
# 混 wildcards: best assignment of faces
def test_wildcard_best_reading():
    # 大四喜 with a 混: 111 222 333z 44z 55z + 混 on 5z: the 混 as 4z gives 大四喜 ... but the
    # 混 as 5z (555z pung, 44z pair, 四暗刻 单钓) scores more: 小四喜 64 + 字一色 64 + 四暗刻 64
    # + 箭刻 2 + 圈风刻 2 + 门风刻 2 + 单钓 1 = 199
    s = score(ctx("11122233344z55z", "4z", wilds=1, discarder=2), "jj")
    assert s.total == 199 and s.points == 1990
    # and on 5z the 混 completes 444z: 大四喜 88 + 字一色 64 + 四暗刻 64 + 单钓 1 = 217
    s = score(ctx("11122233344z55z", "5z", wilds=1, discarder=2), "jj")
    check(s, 217, 2170, [2170, 0, -2170, 0])
    assert ("大四喜", 88) in [(r[1], r[3]) for r in s.rows]


def test_wildcard_best_face():
    # 123m456p789s 23s 55p + 混: as 4s (234s) it is the 15-番 hand above, but as 1s (123s) it
    # adds 喜相逢 (123m 123s): 花龙 8 不求人 4 平和 2 喜相逢 1 嵌张 1 = 16 -> 240, 80 each
    s = score(ctx("123m456p789s23s55p", "5p", wilds=1, self_draw=True), "jj")
    check(s, 16, 240, [240, -80, -80, -80], [("花龙", 8), ("不求人", 4), ("平和", 2), ("喜相逢", 1), ("独听・嵌张", 1)])

    # the 混's face fixed at the win (ctx.wild_faces = 4s): the 15-番 reading
    s = score(ctx("123m456p789s23s55p", "5p", wilds=1, self_draw=True, wild_faces=("4s",)), "jj")
    check(s, 15, 225, [225, -75, -75, -75])


def test_hun_gang():
    # 混杠: kong of the four 混 (1z), 88 番 added to 17 (花龙 8 不求人 4 圈风刻 2 暗杠 2 嵌张 1)
    c = ctx("123m456p789s55p", "5p", melds=["[1111z]"], self_draw=True, winner=1)
    assert score(c, "jj").total == 17
    s = score(c, "jj", hun_kind="1z")
    # 105 x 10 x 1.5 = 1575, 525 each
    check(s, 105, 1575, [-525, 1575, -525, -525])
    assert s.rows[-1][:4] == ("hun_gang", "混杠", "Kong of the four 混", 88)


# ---------------------------------------------------------------------------------------------
# modes, minimisation, rounding
def test_bloody_mode():
    # 血战: self-draw each remaining opponent pays 15 x 10 x 3 = 450; meld sources ignored
    c = ctx("123m456p789s234s55p", "5p", self_draw=True)
    check(score(c, "jj", mode="bloody"), 15, 450, [1350, -450, -450, -450])
    # seat 3 already won: it pays nothing
    check(score(c, "jj", mode="bloody", out=[3]), 15, 450, [900, -450, -450, 0])
    # discard: the discarder pays all, 8 x 10 x 1 = 80 even with a 碰 from seat 3
    check(score(ctx(EIGHT[0], "5s", melds=EIGHT[1], discarder=2), "jj", mode="bloody"), 8, 80, [80, 0, -80, 0])
    with pytest.raises(ValueError, match="bloody"):
        score(c, "jj", out=[3])
    with pytest.raises(ValueError, match="mode"):
        score(c, "jj", mode="fast")


def test_payment_minimisation():
    # 13 番 discard = 130 owed by seat 3; winner has 50, seat 3 has 20 -> transfer 20
    c = ctx("123m456p789s234s55p", "5p", discarder=3)
    check(score(c, "jj", table_scores=[50, 100, 100, 20]), 13, 130, [20, 0, 0, -20])
    # self-draw 225 (75 each): winner has 60 -> 60 each; a broke seat pays 0
    c = ctx("123m456p789s234s55p", "5p", self_draw=True)
    check(score(c, "jj", table_scores=[60, 100, -5, 70]), 15, 225, [120, -60, 0, -60])


def test_rounding_base_1():
    # base 1: 17 x 1.5 = 25.5 -> 8.5 each exactly, each rounded half up to 9; zero-sum kept
    c = ctx("123m456p789s55p", "5p", melds=["[1111z]"], self_draw=True, winner=1)
    assert JJ.shares(c, 17, base=1) == [Fraction(17, 2), 0, Fraction(17, 2), Fraction(17, 2)]
    check(score(c, "jj", base=1), 17, 26, [-9, 27, -9, -9])


def test_errors():
    c = ctx("123m456p789s234s55p", "5p", discarder=3)
    with pytest.raises(ValueError, match="unknown option"):
        score(c, "jj", coefficient=2)
    assert rules.get("jj").non_default_options == {}  # the engine options (hun, dealer) at their defaults
    with pytest.raises(ValueError, match="包"):
        score(ctx("123m456p789s234s55p", "5p", discarder=3, liable=2), "jj")
    with pytest.raises(ValueError, match="source"):
        score(ctx(EIGHT[0], "5s", melds=["777z"], discarder=2), "jj")
    bad = ctx("123m456p789s234s56p", "5p", discarder=3)
    assert not can_win(bad, "jj")
    with pytest.raises(ValueError, match="not complete"):
        score(bad, "jj")


def test_zero_sum_sweep():
    for winner in range(4):
        for d in [None] + [p for p in range(4) if p != winner]:
            kw = {"self_draw": True} if d is None else {"discarder": d}
            for base in (1, 3, 10):
                for mode in JJ.MODES:
                    s = score(ctx(EIGHT[0], "5s", melds=EIGHT[1], winner=winner, **kw), "jj", base=base, mode=mode)
                    assert s.payments.sum() == 0 and s.payments[winner] > 0
