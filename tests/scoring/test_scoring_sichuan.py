"""四川麻将 scorer and its non-win settlements (rules/sichuan.md)."""

import numpy as np
import pytest
from _hands import check_invariants, random_contexts, ron, rule_kinds, tsumo

import mjfast.scoring.sichuan as SC
from mjfast import Hand, rules, shanten
from mjfast.scoring import can_win, score

check = check_invariants


# ---------------------------------------------------------------------------------------------
# RULES.md §4 worked example: 番 -> points = 6 · 2^(n-1) (1..6 番: 6 12 24 48 96 192)
@pytest.mark.parametrize(
    "hand, win, fan, code",
    [
        ("123m456m789m11p234p", "4p", 1, "pinghu"),  # 平胡 1
        ("111m222m333p444p55p", "5p", 2, "duiduihu"),  # 对对胡 2
        ("123m123m456m789m55m", "5m", 3, "qingyise"),  # 清一色 3 (pair 5m: not 带幺九)
        ("111m333m555m777m99m", "9m", 4, "qingdui"),  # 清对 4
        ("11335577m99m2244m", "2m", 5, "qingqidui"),  # 清七对 5
        ("11113355779922m", "2m", 6, "qinglongqidui"),  # 清龙七对 6, 根 1 − 1 = 0
    ],
)
def test_fan_to_points_table(hand, win, fan, code):
    s = check(score(ron(hand, win), "sichuan"))
    assert s.total == fan and s.points == 6 * 2 ** (fan - 1)
    assert s.payments.tolist() == [s.points, 0, -s.points, 0]  # the discarder alone pays
    assert s.rows[0][0] == code and s.unit == "番" and s.legal


def test_huazhu_is_a_five_fan_hand():
    # 花猪 16 × base = 96 = the points of a 5-番 hand (清七对)
    assert SC.HUAZHU_TIMES * SC.BASE == 96 == score(ron("11335577m99m2244m", "2m"), "sichuan").points


# ---------------------------------------------------------------------------------------------
# patterns: max, not sum
def test_daiyaojiu_and_qingyaojiu():
    # 123m 789m 123p 789p 11p: every set and the pair hold a terminal -> 带幺九 3 -> 6·4 = 24
    s = check(score(ron("123m789m11p123p789p", "1p"), "sichuan"))
    assert (s.total, s.points, s.rows[0][0]) == (3, 24, "daiyaojiu")
    # 123m×3 789m 99m: read as chows it is 清幺九 5 (the 111 222 333 reading is only 清一色 3)
    # -> the higher reading: 5 番, 6·16 = 96
    s = check(score(ron("123m123m123m789m99m", "9m"), "sichuan"))
    assert (s.total, s.points, s.rows[0][0]) == (5, 96, "qingyaojiu")
    assert [k for k, _f, _c in s.decomposition.sets] == ["chow"] * 4


def test_jiangdui():
    # 222m 555m 555p 888p 22p: 对对胡 with only 2/5/8 -> 将对 4 (max over 对对胡 2) -> 48
    s = check(score(ron("222m555m555p888p22p", "2p"), "sichuan"))
    assert (s.total, s.points, s.rows[0][0]) == (4, 48, "jiangdui")


def test_seven_pairs_and_dragon():
    # 七对 3 -> 24
    s = check(score(ron("1133m5577p99p22p44p", "4p"), "sichuan"))
    assert (s.total, s.points, s.rows[0][0]) == (3, 24, "qidui")
    assert s.decomposition.form == "seven_pairs"
    # 龙七对 5, its 根 (1111m) taken off -> 5 -> 96
    s = check(score(ron("1111m3355m77p99p22p", "2p"), "sichuan"))
    assert (s.total, s.points) == (5, 96) and [r[0] for r in s.rows] == ["longqidui"]
    # two quads: 龙七对 5 + (2 − 1) 根 = 6 -> 192
    s = check(score(ron("1111m3333m77p99p22p", "2p"), "sichuan"))
    assert (s.total, s.points) == (6, 192)
    assert [(r[0], r[3], r[4]) for r in s.rows] == [("longqidui", 5, 1), ("gen", 1, 1)]


def test_highest_reading_is_scored():
    # 112233m 445566m 77m: standard 123 123 456 456 77 = 清一色 3; 七对 = 清七对 5 -> 5, 96
    s = check(score(ron("112233m445566m77m", "7m"), "sichuan"))
    assert (s.total, s.points, s.decomposition.form) == (5, 96, "seven_pairs")


def test_gen():
    # 111m 123m 567p 789p 55p: four 1m in hand, not a kong -> 平胡 1 + 根 1 = 2 -> 12
    s = check(score(ron("111123m567p789p55p", "5p"), "sichuan"))
    assert (s.total, s.points) == (2, 12)
    assert [(r[0], r[3]) for r in s.rows] == [("pinghu", 1), ("gen", 1)]
    # a pung meld of 1m with the 4th 1m in hand: four identical, no kong -> a 根 too (⚑) -> 12
    h = Hand("123m567p789p55p", melds=["111m@left"])
    assert check(score(ron(h, "5p"), "sichuan")).total == 2
    # a declared kong is no 根 by default (SC-C3): 平胡 1 -> 6; gen_counts_kongs: 2 -> 12
    h = Hand("234m567p789p55p", melds=["[1111m]"])
    assert check(score(ron(h, "5p"), "sichuan")).points == 6
    s = check(score(ron(h, "5p"), "sichuan", gen_counts_kongs=True))
    assert (s.total, s.points) == (2, 12)


def test_heavenly_and_earthly():
    # dealer's 天胡 on a 平胡 hand: 6 (max) -> 192 from each of three: +576
    s = check(score(tsumo("123m456m789m11p234p", "4p", heavenly=True), "sichuan"))
    assert (s.total, s.points) == (6, 192) and s.payments.tolist() == [576, -192, -192, -192]
    # 地胡, seat 1 (not the dealer) self-draws: 6 -> 192 each
    s = check(score(tsumo("123m456m789m11p234p", "4p", winner=1, earthly=True), "sichuan"))
    assert s.payments.tolist() == [-192, 576, -192, -192] and s.rows[0][0] == "dihu"
    with pytest.raises(ValueError, match="地胡"):
        score(ron("123m456m789m11p234p", "4p", winner=1, earthly=True), "sichuan")


# ---------------------------------------------------------------------------------------------
# adders and payment paths
def test_self_draw_and_zimo_bonus():
    # 平胡 self-draw: 1 番 = 6 from each of three: +18; 自摸 adds nothing by default
    s = check(score(tsumo("123m456m789m11p234p", "4p", winner=3), "sichuan"))
    assert s.payments.tolist() == [-6, -6, -6, 18]
    # zimo_bonus=1: 2 番 -> 12 each
    s = check(score(tsumo("123m456m789m11p234p", "4p", winner=3), "sichuan", zimo_bonus=1))
    assert (s.total, s.payments.tolist()) == (2, [-12, -12, -12, 36])
    assert s.rows[-1][:2] == ("zimo", "自摸")
    # a discard win takes no 自摸 bonus
    assert score(ron("123m456m789m11p234p", "4p"), "sichuan", zimo_bonus=1).total == 1


def test_gangshanghua():
    # 暗杠 2222p, win on the replacement: 平胡 1 + 杠上花 1 = 2 -> 12 each, +36
    h = Hand("123m456m789m55p", melds=["[2222p]"])
    s = check(score(tsumo(h, "5p", after_kong=True), "sichuan"))
    assert (s.total, s.payments.tolist()) == (2, [36, -12, -12, -12])
    assert [r[0] for r in s.rows] == ["pinghu", "gangshanghua"]


def test_gangshangpao_hands_over_kong_income():
    # 平胡 1 + 杠上炮 1 = 2 -> 12; the discarder also hands over the 18 his 面下杠 collected
    s = check(score(ron("123m456m789m11p234p", "4p", discarder=1, kong_discard=True), "sichuan", kong_income=18))
    assert (s.total, s.points) == (2, 12) and s.payments.tolist() == [30, -30, 0, 0]
    with pytest.raises(ValueError, match="杠上炮"):
        score(ron("123m456m789m11p234p", "4p"), "sichuan", kong_income=18)


def test_robbing_kong():
    # 抢杠: the robbed konger (seat 3) pays as the discarder; 0 番 for 抢杠 by default -> 6
    ctx = ron("123m456m789m11p234p", "4p", discarder=3, robbing_kong=True)
    assert check(score(ctx, "sichuan")).payments.tolist() == [6, 0, 0, -6]
    # qianggang_fan=1: 2 番 -> 12
    s = check(score(ctx, "sichuan", qianggang_fan=1))
    assert (s.total, s.payments.tolist()) == (2, [12, 0, 0, -12])


def test_max_fan_option():
    # 清龙七对 6 + 根 (2 − 1) = 7 -> 6·64 = 384 uncapped; max_fan=6 -> 192 with a cap row
    ctx = ron("11113333779922m", "2m")
    s = check(score(ctx, "sichuan"))
    assert (s.total, s.points) == (7, 384)
    s = check(score(ctx, "sichuan", max_fan=6))
    assert (s.total, s.points) == (6, 192) and s.rows[-1][-1] == "cap"


def test_xuezhan_won_players_do_not_pay():
    # 血战: seat 1 has won already; seat 0's 清一色 self-draw (24) is paid by seats 2 and 3 only
    ctx = tsumo("123m123m456m789m55m", "5m")
    s = check(score(ctx, "sichuan", xuezhan=True, won={1}))
    assert s.payments.tolist() == [48, 0, -24, -24]
    with pytest.raises(ValueError, match="血战"):
        score(ctx, "sichuan", won={1})
    with pytest.raises(ValueError, match="already won"):
        score(ron("123m123m456m789m55m", "5m", discarder=1), "sichuan", xuezhan=True, won={1})


def test_base_keyword():
    # base 10: a 3-番 hand = 10·4 = 40
    assert score(ron("123m123m456m789m55m", "5m"), "sichuan", base=10).points == 40
    with pytest.raises(ValueError, match="base"):
        score(ron("123m123m456m789m55m", "5m"), "sichuan", base=0)


# ---------------------------------------------------------------------------------------------
# minimum to win: 缺一门
def test_que_yi_men():
    ctx = ron("123m456p789s11m234m", "4m")
    s = check(score(ctx, "sichuan"))
    assert not s.legal and "缺一门" in s.reason
    assert s.points == 0 and s.payments.tolist() == [0, 0, 0, 0]
    assert can_win(ctx, "sichuan") is False
    # the third suit in a meld counts as well
    h = Hand("123m456p789m11m", melds=["222s@left"])
    assert not score(ron(h, "1m"), "sichuan").legal
    assert can_win(ron("123m456m789m11p234p", "4p"), "sichuan") is True


def test_rejected_inputs():
    with pytest.raises(ValueError, match="not complete"):
        score(ron("123m456m789m11p235p", "5p"), "sichuan")
    assert can_win(ron("123m456m789m11p235p", "5p"), "sichuan") is False
    with pytest.raises(ValueError, match="honours"):
        score(ron("123m456m789m11z234p", "4p"), "sichuan")
    with pytest.raises(ValueError, match="吃"):
        score(ron(Hand("456m789m11p234p", melds=["123m@left"]), "4p"), "sichuan")
    with pytest.raises(ValueError, match="包"):
        score(tsumo("123m456m789m11p234p", "4p", liable=2), "sichuan")
    with pytest.raises(ValueError, match="unknown option"):
        score(ron("123m456m789m11p234p", "4p"), "sichuan", fan_cap=3)
    with pytest.raises(ValueError):
        score(ron("123m456m789m11p234p", "4p"), "sichuan", max_fan=7)


# ---------------------------------------------------------------------------------------------
# 刮风下雨
def test_kong_payments():
    # 直杠: the feeder pays 1 × 6
    assert SC.kong_payment("direct", 1, feeder=2).tolist() == [0, 6, -6, 0]
    # 面下杠 (刮风): each other player 1 × 6
    assert SC.kong_payment("added", 1).tolist() == [-6, 18, -6, -6]
    # 下雨 (暗杠): each other player 2 × 6
    assert SC.kong_payment("下雨", 0).tolist() == [36, -12, -12, -12]
    # a robbed 面下杠 earns nothing
    assert SC.kong_payment("added", 1, robbed=True).tolist() == [0, 0, 0, 0]
    # 血战: seat 2 has won, so a 暗杠 collects 2 × 6 from seats 1 and 3 only
    assert SC.kong_payment("concealed", 0, won=[2], xuezhan=True).tolist() == [24, -12, 0, -12]
    with pytest.raises(ValueError, match="feeder"):
        SC.kong_payment("direct", 1)
    with pytest.raises(ValueError, match="only an added kong"):
        SC.kong_payment("concealed", 1, robbed=True)
    with pytest.raises(ValueError):
        SC.kong_payment("added", 1, bogus=True)


# ---------------------------------------------------------------------------------------------
# 查花猪 / 查大叫
HANDS = [
    "123m456m789m11p22p",  # ready on 1p/2p: 平胡 1 -> 6
    "1112223335577m",  # ready on 5m/7m: 清对 4 -> 48
    "13579m2468p99p11m",  # not ready
    "123m456p789s1112m",
]  # 花猪 (three suits)


def test_settle_draw_pig_and_dajiao():
    # 花猪 pays 96 to each of the three others: −288
    # seat 2 pays 大叫: 6 to seat 0 and 48 to seat 1 -> seat 2: 96 − 54 = 42
    out = SC.settle_draw(HANDS)
    assert out.tolist() == [96 + 6, 96 + 48, 96 - 54, -288] and out.sum() == 0


@pytest.mark.parametrize("options", [{}, {"max_fan": 6}, {"gen_counts_kongs": True}])
def test_dajiao_is_the_best_discard_win_over_every_tile(options):
    """查大叫 scores a ready hand's best discard win (SC-A7) over its shape waits only: the same
    fan as trying every one of the 27 suit tiles not all held, on random two-suit hands (with
    exposed pungs), most of them ready."""
    rule = rules.get("sichuan", **options)
    bound = SC.SCHEME.bound(rule, {})

    def every_tile(hand):
        if SC._suits(hand) > 2:
            return 0
        held = hand.counts.astype(int)
        for m in hand.melds:
            held[m.tiles[0]] += len(m.tiles)
        fans = [SC._wait_fan(hand.with_tile(t), t, bound) for t in range(27) if held[t] < 4]
        return max(fans, default=0)

    rng = np.random.default_rng(20261201)
    checked = ready = 0
    while checked < 300:
        suits = rng.choice(3, 2, replace=False)
        pool = [t for s in suits for t in range(9 * s, 9 * s + 9) for _ in range(4)]
        c = np.bincount(rng.choice(pool, 13, replace=False), minlength=34)
        melds = []
        for k in np.flatnonzero(c >= 3)[: rng.integers(0, 3)]:
            c[k] -= 3
            melds.append(3 * str(k % 9 + 1) + "mps"[k // 9])
        hand = Hand(c.astype(np.uint8), melds=melds)
        if shanten(hand, rule=rule) != 0 and rng.random() > 0.01:
            continue  # mostly ready hands, some not
        fan = SC._wait_fans(hand, options)
        assert fan == every_tile(hand), hand
        ready += fan > 0
        checked += 1
    assert ready > 100


def test_settle_draw_refunds():
    # seat 2 (not ready) made a 下雨: +36, −12 each; he refunds it.  Seat 3 (花猪) made a
    # direct kong fed by seat 0 (+6/−6); he refunds it (⚑).  Seat 1 (ready) keeps his 刮风.
    log = [
        (2, SC.kong_payment("concealed", 2)),
        (3, SC.kong_payment("direct", 3, feeder=0)),
        (1, SC.kong_payment("added", 1)),
    ]
    out = SC.settle_draw(HANDS, kong_log=log)
    base = np.array([102, 144, 42, -288])
    refund = -(np.array([-12, -12, 36, -12]) + np.array([-6, 0, 0, 6]))
    assert out.tolist() == (base + refund).tolist() == [120, 156, 6, -282]
    assert out.sum() == 0


def test_settle_draw_xuezhan_winner_gets_refund():
    # 血战: seat 1 has won.  Seat 2 (not ready) pays 大叫 only to seat 0 (6) and refunds his
    # 下雨 to everybody who paid it, the winner included (SC-A10); the 花猪 pays 96 to seats 0, 2
    log = [(2, SC.kong_payment("concealed", 2))]
    hands = [HANDS[0], None, HANDS[2], HANDS[3]]
    out = SC.settle_draw(hands, kong_log=log, won={1}, xuezhan=True)
    # seat 0: +96 +6 +12; seat 1: +12; seat 2: +96 −6 −36; seat 3: −192 +12
    assert out.tolist() == [114, 12, 54, -180] and out.sum() == 0


def test_settle_draw_nobody_ready():
    hands = ["13579m2468p99p11m", "13579m2468p99p22m", "13579m2468p99p33m", "13579m2468p99p44m"]
    assert SC.settle_draw(hands).tolist() == [0, 0, 0, 0]


def test_settle_draw_options_and_errors():
    # a ready hand whose best wait is 清龙七对 + 根: 1111m 3333m 7799m 2m waits on 2m -> 7 番
    # (384); with max_fan=6 -> 192.  Seat 1..3 not ready pay it.
    hands = ["11113333m7799m2m", "13579m2468p99p11m", "13579m2468p99p22m", "13579m2468p99p33m"]
    assert SC.settle_draw(hands).tolist() == [3 * 384, -384, -384, -384]
    assert SC.settle_draw(hands, max_fan=6).tolist() == [3 * 192, -192, -192, -192]
    with pytest.raises(ValueError, match="13 tiles"):
        SC.settle_draw(["123m456m789m11p22p1p"] + HANDS[1:])
    with pytest.raises(ValueError, match="won"):
        SC.settle_draw([None] + HANDS[1:])
    with pytest.raises(ValueError, match="kong_log"):
        SC.settle_draw(HANDS, kong_log=[(0, [1, 2, 3, 4])])
    with pytest.raises(ValueError):
        SC.settle_draw(HANDS, xuezhan="yes")


def test_rule_object_and_option_passthrough():
    r = rules.get("sichuan", max_fan=6)
    assert score(ron("11113333779922m", "2m"), r).total == 6


def test_next_dealer():
    # 流局: the dealer stays; the player who dealt in deals; after a self-draw the winner (SC-A8)
    assert SC.next_dealer(1) == 1
    assert SC.next_dealer(1, 2, discarder=0) == 0
    assert SC.next_dealer(1, 3) == 3
    with pytest.raises(ValueError):
        SC.next_dealer(1, 2, discarder=2)


# ---------------------------------------------------------------------------------------------
# random complete hands: payments always sum to zero, can_win agrees with Score.legal
def test_random_hands_zero_sum():
    rng = np.random.default_rng(7)
    n_legal = 0
    for ctx in random_contexts(rng, rule_kinds("sichuan"), 300):
        s = score(ctx, "sichuan")
        assert int(s.payments.sum()) == 0 and can_win(ctx, "sichuan") == s.legal
        if s.legal:
            n_legal += 1
            assert s.points == 6 * 2 ** (s.total - 1) and s.payments[ctx.winner] > 0
        else:
            assert s.points == 0 and not s.payments.any()
    assert 30 < n_legal < 300
