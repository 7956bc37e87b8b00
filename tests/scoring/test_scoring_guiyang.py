"""贵阳麻将 scorer and its 豆 / 鸡 settlements (rules/guiyang.md)."""

import numpy as np
import pytest
from _hands import check_invariants, random_contexts, ron, rule_kinds, tsumo

import mjfast.scoring.guiyang as GY
from mjfast import Hand
from mjfast.scoring import can_win, score

check = check_invariants


# ---------------------------------------------------------------------------------------------
# RULES.md §4 worked example: a lookup table, not a sum (清大对 15, 青龙背 30, 清一色 10 not
# 平胡 1 + 10; 清七对 unlisted, ⚑ 20).  Self-draws: each of three pays the value.
@pytest.mark.parametrize(
    "hand, win, value, code",
    [
        ("123m456m789p11p234p", "4p", 1, "pinghu"),
        ("111m222p333p444m55m", "5m", 5, "daduizi"),
        ("1133m5577p99p22p44p", "4p", 10, "qidui"),
        ("123m456m789m11m234m", "4m", 10, "qingyise"),
        ("111m333m555m777m99m", "9m", 15, "qingdadui"),
        ("1111m3355m77p99p22p", "2p", 20, "longqidui"),
        ("11335577m99m2244m", "2m", 20, "qingqidui"),
        ("11113355779922m", "2m", 30, "qinglongbei"),
    ],
)
def test_hand_value_table(hand, win, value, code):
    s = check(score(tsumo(hand, win, winner=1), "guiyang"))
    assert (s.total, s.points, s.unit) == (value, value, "个")
    assert s.payments.tolist() == [-value, 3 * value, -value, -value]
    assert s.rows == [(code, *GY.HANDS[code][:2], value, 1, "个", "add")]


def test_highest_reading():
    # 111m 222m 333m 444m 55m: 清大对 15 beats the chow reading (清一色 10)
    s = score(tsumo("111m222m333m444m55m", "5m"), "guiyang")
    assert (s.total, s.rows[0][0]) == (15, "qingdadui")
    # 112233m 445566m 77m: 七对 reading 清七对 20 beats 清一色 10
    s = score(tsumo("112233m445566m77m", "7m"), "guiyang")
    assert (s.total, s.decomposition.form) == (20, "seven_pairs")


# ---------------------------------------------------------------------------------------------
# adders, 抢杠, 烧豆
def test_gangshanghua():
    # 平胡 1 + 杠上花 1 = 2 from each: +6
    h = Hand("123m456m11p234p", melds=["[7777p]"])
    s = check(score(tsumo(h, "4p", after_kong=True), "guiyang"))
    assert (s.total, s.payments.tolist()) == (2, [6, -2, -2, -2])


def test_lianzhuang():
    # the dealer's 3rd consecutive deal (n = 2): 清一色 10 + 2 = 12 from each: +36
    s = check(score(tsumo("123m456m789m11m234m", "4m"), "guiyang", lianzhuang=2))
    assert (s.total, s.payments.tolist()) == (12, [36, -12, -12, -12])
    assert s.rows[-1][:2] == ("lianzhuang", "连庄") and s.rows[-1][3:5] == (2, 2)
    with pytest.raises(ValueError, match="dealer"):
        score(tsumo("123m456m789m11m234m", "4m", winner=1), "guiyang", lianzhuang=2)


def test_robbing_kong():
    # 抢杠 on a 大对子: 9 + 5 = 14 from the robbed player (seat 3)
    s = check(score(ron("111m222p333p444m55m", "5m", discarder=3, robbing_kong=True), "guiyang"))
    assert (s.total, s.payments.tolist()) == (14, [14, 0, 0, -14])
    # a 平胡 with a 豆: 9 + 1 = 10
    h = Hand("123m456m11p234p", melds=["7777p@left"])
    s = check(score(ron(h, "4p", discarder=3, robbing_kong=True), "guiyang"))
    assert s.payments.tolist() == [10, 0, 0, -10]
    # a 平胡 without a 豆 cannot rob (it is settled as a discard win, GY-A5)
    assert not score(ron("123m456m789p11p234p", "4p", discarder=3, robbing_kong=True), "guiyang").legal


def test_shaodou():
    # 烧豆/热炮: 3 + 清一色 10 = 13 from the discarder
    s = check(score(ron("123m456m789m11m234m", "4m", discarder=1, kong_discard=True), "guiyang"))
    assert (s.total, s.payments.tolist()) == (13, [13, -13, 0, 0])


def test_base_keyword():
    # stake 5 per 个: 大对子 5 on a discard -> 25
    s = check(score(ron("111m222p333p444m55m", "5m"), "guiyang", base=5))
    assert (s.total, s.points, s.payments.tolist()) == (5, 25, [25, 0, -25, 0])


# ---------------------------------------------------------------------------------------------
# minimum to win: the 通行证
def test_pass_for_pinghu():
    ctx = ron("123m456m789p11p234p", "4p")
    s = check(score(ctx, "guiyang"))
    assert not s.legal and "通行证" in s.reason and s.payments.tolist() == [0, 0, 0, 0]
    assert can_win(ctx, "guiyang") is False
    # with a kong (any: here an exposed one) the 平胡 may win on a discard: 1 from the discarder
    h = Hand("123m456m11p234p", melds=["7777p@left"])
    s = check(score(ron(h, "4p"), "guiyang"))
    assert s.legal and s.payments.tolist() == [1, 0, -1, 0]
    # self-draw needs no pass
    assert score(tsumo("123m456m789p11p234p", "4p"), "guiyang").legal


def test_pass_scope_option():
    # 大对子 on a discard without a kong: legal by default (5 from the discarder)…
    ctx = ron("111m222p333p444m55m", "5m")
    assert check(score(ctx, "guiyang")).payments.tolist() == [5, 0, -5, 0]
    # …but every discard win needs a pass with pass_scope=all_discard_wins
    s = score(ctx, "guiyang", pass_scope="all_discard_wins")
    assert not s.legal and s.points == 0
    assert can_win(ctx, "guiyang", pass_scope="all_discard_wins") is False
    h = Hand("111m333p444m55m", melds=["[2222p]"])
    assert score(ron(h, "5m"), "guiyang", pass_scope="all_discard_wins").legal


def test_rejected_inputs():
    with pytest.raises(ValueError, match="not complete"):
        score(tsumo("123m456m789p11p235p", "5p"), "guiyang")
    assert can_win(tsumo("123m456m789p11p235p", "5p"), "guiyang") is False
    with pytest.raises(ValueError, match="honours"):
        score(tsumo("123m456m789p11z234p", "4p"), "guiyang")
    with pytest.raises(ValueError, match="吃"):
        score(tsumo(Hand("456m789m11p234p", melds=["123m@left"]), "4p"), "guiyang")
    with pytest.raises(ValueError, match="包"):
        score(tsumo("123m456m789p11p234p", "4p", liable=2), "guiyang")
    with pytest.raises(ValueError, match="unknown option"):
        score(tsumo("123m456m789p11p234p", "4p"), "guiyang", chickens=True)
    with pytest.raises(ValueError):
        score(tsumo("123m456m789p11p234p", "4p"), "guiyang", dou="C")


# ---------------------------------------------------------------------------------------------
# 豆
def test_dou_values_b_and_a():
    # 闷豆 by seat 0: B 3 from each (+9), A 2 from each (+6)
    assert GY.settle_dou([(0, "concealed", None)], ready={0}).tolist() == [9, -3, -3, -3]
    assert GY.settle_dou([(0, "闷豆", None)], ready={0}, dou="A").tolist() == [6, -2, -2, -2]
    # 转弯豆 by seat 2: 3 from each under both
    for dou in ("A", "B"):
        assert GY.settle_dou([(2, "added", None)], ready={2}, dou=dou).tolist() == [-3, -3, 9, -3]
    # 点豆 by seat 1 on seat 3's discard: B 3, A 1 from the feeder
    assert GY.settle_dou([(1, "direct", 3)], ready={1}).tolist() == [0, 3, 0, -3]
    assert GY.settle_dou([(1, "direct", 3)], ready={1}, dou="A").tolist() == [0, 1, 0, -1]


def test_dou_ready_and_void():
    kongs = [(0, "concealed", None), (1, "added", None), (2, "direct", 0)]
    # everyone ready, B values:
    # 闷豆 0: [+9, −3, −3, −3]; 转弯豆 1: [−3, +9, −3, −3]; 点豆 2 from 0: [−3, 0, +3, 0]
    # sum: [+3, +6, −3, −6]
    out = GY.settle_dou(kongs, ready={0, 1, 2, 3})
    assert out.tolist() == [3, 6, -3, -6] and out.sum() == 0
    # seat 1 not ready: his 转弯豆 earns nothing; seat 2's 豆 void (烧豆): only 闷豆 0 remains
    assert GY.settle_dou(kongs, ready={0, 2}, void={2}).tolist() == [9, -3, -3, -3]
    # base 2
    assert GY.settle_dou([(0, "concealed", None)], ready={0}, base=2).tolist() == [18, -6, -6, -6]
    with pytest.raises(ValueError, match="feeder"):
        GY.settle_dou([(0, "direct", None)], ready={0})
    with pytest.raises(ValueError, match="kind"):
        GY.settle_dou([(0, "late", None)], ready={0})


# ---------------------------------------------------------------------------------------------
# 鸡
NOBODY = "123456789m1234p"  # 13 tiles, no 1条, one 5m, one 1m
HANDS = ["1s23s456m789m11p22p", NOBODY, NOBODY, NOBODY]
RIVERS = ["1s", "", "", "1s9p"]


def test_chickens_basic():
    # seat 0 (ready): 1条 held 1 + 冲锋鸡 2 = 3 from each: +9.  Seat 3's later 1条 is 1 unit,
    # but seat 3 is not ready: he collects nothing.
    out = GY.settle_chickens(HANDS, RIVERS, ready={0}, first_chicken=0)
    assert out.tolist() == [9, -3, -3, -3]
    # seat 3 ready as well: he collects 1 from each
    out = GY.settle_chickens(HANDS, RIVERS, ready={0, 3}, first_chicken=0)
    assert out.tolist() == [9 - 1, -3 - 1, -3 - 1, -3 + 3]


def test_golden_chicken():
    # flipped 9条 -> 1条 is 金鸡: seat 0 has 冲锋鸡 4 + held 1条 2 = 6 from each: +18
    out = GY.settle_chickens(HANDS, RIVERS, ready={0}, first_chicken=0, flipped="9s")
    assert out.tolist() == [18, -6, -6, -6]


def test_flipped_chicken():
    # flipped 4m -> 5m: seat 0: 3 + one 5m = 4; seat 1: one 5m = 1.
    # seat 0 +12, the others −4; seat 1 +3, the others −1 -> [11, −1, −5, −5]
    out = GY.settle_chickens(HANDS, RIVERS, ready={0, 1}, first_chicken=0, flipped="4m")
    assert out.tolist() == [11, -1, -5, -5]
    # flipped 9m -> 1m (9 wraps to 1, ⚑): seat 1 holds one 1m -> 1 from each
    out = GY.settle_chickens(HANDS, ["", "", "", ""], ready={1}, flipped="9m")
    assert out.tolist() == [-1, 3, -1, -1]
    # the successor in the discards counts too: seat 3's river holds 9p, flipped 8p -> 9p
    out = GY.settle_chickens(HANDS, RIVERS, ready={3}, flipped="8p")
    assert out.tolist() == [-2, -2, -2, 6]  # 1条 1 + 9p 1 = 2 units


def test_ponged_chicken():
    # seat 2's discarded 1条 ponged by seat 1: seat 2 gives seat 1 one chicken directly;
    # seat 1 (ready) also holds the three 1条 of the pung: 3 from each
    hands = ["123456789m1234p", "123456789m1p", "123456789m1234p", "123456789m1234p"]
    hands[1] = Hand("123456789m1p", melds=["111s@opposite"])
    out = GY.settle_chickens(hands, ["", "", "", ""], ready={1}, ponged=[(2, 1)])
    assert out.tolist() == [-3, 9 + 1, -3 - 1, -3]


def test_chickens_errors():
    with pytest.raises(ValueError, match="冲锋鸡"):
        GY.settle_chickens(HANDS, RIVERS, ready={0}, first_chicken=1)
    with pytest.raises(ValueError, match="suit"):
        GY.settle_chickens(HANDS, RIVERS, ready={0}, flipped="1z")
    assert GY.settle_chickens(HANDS, RIVERS, ready=()).tolist() == [0, 0, 0, 0]


def test_next_dealer():
    # B: one winner deals; 一炮两响 the first winner; 一炮三响 the discarder
    assert GY.next_dealer(0, [3]) == 3
    assert GY.next_dealer(0, [2, 1], discarder=3) == 2
    assert GY.next_dealer(0, [1, 2, 3], discarder=0) == 0
    # A: a winner deals
    assert GY.next_dealer(0, [1, 2, 3], discarder=0, dealer="A") == 1
    # 黄庄: all / none ready -> the dealer stays; one not ready -> he deals; several not ready
    # and the dealer not ready -> the ready player nearest the dealer
    assert GY.next_dealer(1, [], ready={0, 1, 2, 3}) == 1
    assert GY.next_dealer(1, [], ready=()) == 1
    assert GY.next_dealer(1, [], ready={0, 1, 3}) == 2
    assert GY.next_dealer(1, [], ready={0, 3}) == 3


# ---------------------------------------------------------------------------------------------
# random complete hands: payments always sum to zero, can_win agrees with Score.legal
def test_random_hands_zero_sum():
    rng = np.random.default_rng(11)
    n_legal = 0
    for ctx in random_contexts(rng, rule_kinds("guiyang"), 300, chow_melds=False):
        s = score(ctx, "guiyang")
        assert int(s.payments.sum()) == 0 and can_win(ctx, "guiyang") == s.legal
        if s.legal:
            n_legal += 1
            assert s.points == s.total and s.payments[ctx.winner] > 0
        else:
            assert s.points == 0 and not s.payments.any()
    assert 30 < n_legal < 300
