"""瑞金 Ruijin scorer (rules/ruijin_shangrao.md §4–§6): payments by way of winning, 飞, 天胡/地胡,
the shapes (honour chows, 对对胡 = 七对, 烂胡), kong payments, options."""

import pytest
from _hands import check_invariants

from mjfast import Hand, rules
from mjfast.scoring import (
    WinContext,
    can_win,
    score,
    shangrao,  # noqa: F401  (registers "shangrao")
)
from mjfast.scoring import ruijin as RJ

PLAIN = "123m456p789s234s55p"  # an ordinary complete hand, no 宝
FEI = ("123m456p789s234s5p", 1)  # 12 tiles in 4 sets + lone 宝 + drawn 5p


def ctx(tiles=PLAIN, wilds=0, win="5p", **kw):
    return WinContext(Hand(tiles, wilds=wilds), win_tile=win, **kw)


def check(s, total, points, payments):
    check_invariants(s)
    assert s.legal and all(r[5] == "基数" and r[6] in ("add", "multiply") for r in s.rows)
    assert (s.total, s.points, s.payments.tolist()) == (total, points, payments)


# ---------------------------------------------------------------------------------------------
# discard wins (平胡): each pays b, discarder +b, dealer +b (RS-A11 symmetric)
def test_discard_nondealer_winner_nondealer_discarder():
    # winner 1, discarder 2, dealer 0, b = 10:
    # seat 0 (dealer) 1+1 = 2, seat 2 (discarder) 1+1 = 2, seat 3: 1 -> winner 5 b = 50
    s = score(ctx(winner=1, discarder=2), "ruijin", base=10)
    check(s, 2, 20, [-20, 50, -20, -10])
    assert [r[0] for r in s.rows] == ["base", "discarder"]


def test_discard_dealer_deals_in():
    # winner 1, discarder = dealer 0: 1 + 1 (放炮) + 1 (庄家) = 3; seats 2, 3 pay 1 -> winner 5
    s = score(ctx(winner=1, discarder=0), "ruijin")
    check(s, 3, 3, [-3, 5, -1, -1])
    assert [r[0] for r in s.rows] == ["base", "discarder", "dealer"]


def test_discard_dealer_wins():
    # dealer 0 wins on seat 2's discard: every payer +1 for the dealer;
    # seat 1: 1+1 = 2, seat 2: 1+1+1 = 3, seat 3: 2 -> 7
    s = score(ctx(winner=0, discarder=2), "ruijin", base=2)
    check(s, 3, 6, [14, -4, -6, -4])


def test_robbing_kong_is_a_discard_win_by_the_robbed():
    # 抢杠 from seat 3 (⚑): as a discard by seat 3; winner 2, dealer 0:
    # seat 0: 1+1 = 2, seat 1: 1, seat 3: 1+1 = 2 -> 5
    s = score(ctx(winner=2, discarder=3, robbing_kong=True), "ruijin")
    check(s, 2, 2, [-2, -1, 5, -2])


# ---------------------------------------------------------------------------------------------
# self-draw: each pays 2b + dealer extra; 杠上开花 = self-draw
def test_self_draw_nondealer():
    # winner 1: dealer 0 pays 2+1 = 3, seats 2, 3 pay 2 -> 7; principal = dealer -> total 3
    s = score(ctx(winner=1, self_draw=True), "ruijin", base=5)
    check(s, 3, 15, [-15, 35, -10, -10])
    assert [r[0] for r in s.rows] == ["base", "self_draw", "dealer"]


def test_self_draw_dealer_and_after_kong():
    # dealer wins: each pays 2+1 = 3 -> 9; 杠上开花 pays the same
    h = Hand("123m456p789s55p", melds=["[2222s]"])
    s = score(WinContext(h, win_tile="5p", self_draw=True, after_kong=True), "ruijin")
    check(s, 3, 3, [9, -3, -3, -3])


# ---------------------------------------------------------------------------------------------
# 飞: self-draw payment x fei_mult (2)
def test_fei_nondealer():
    # 12 complete + lone 宝, draws 5p: (3, 2, 2) x 2 = (6, 4, 4) -> 14
    s = score(ctx(*FEI, winner=1, self_draw=True), "ruijin")
    check(s, 6, 6, [-6, 14, -4, -4])
    assert s.rows[-1][:2] == ("fei", "飞") and s.rows[-1][3] == 2


def test_fei_dealer_base_10():
    # dealer: each (2+1) x 2 = 6 -> 18; b = 10
    s = score(ctx(*FEI, self_draw=True), "ruijin", base=10)
    check(s, 6, 60, [180, -60, -60, -60])


def test_fei_six_pairs_and_example_b112233445566():
    # the file's example "B112233445566": 112233m445566p + 宝 draws 9s -> 飞 either reading
    s = score(ctx("112233m445566p9s", wilds=1, win="9s", winner=3, self_draw=True), "ruijin")
    check(s, 6, 6, [-6, -4, -4, 14])
    # six pairs that are not four sets: 1155m2288p4466s + 宝 draws 7z
    s = score(ctx("1155m2288p4466s7z", wilds=1, win="7z", winner=3, self_draw=True), "ruijin")
    assert s.rows[-1][0] == "fei" and s.total == 6


def test_fei_drawn_bao():
    # the drawn tile is itself a 宝 (no natural 5p left): 12 complete + lone 宝 + 宝
    s = score(ctx("123m456p789s234s", wilds=2, win="5p", winner=1, self_draw=True), "ruijin")
    check(s, 6, 6, [-6, 14, -4, -4])


def test_fei_declared_cannot_win_on_discard():
    # 制飞后不能平胡: declared 飞, discard win -> not legal, nothing paid
    c = ctx(*FEI, winner=1, discarder=2, rule_state={"fei": True})
    s = score(c, "ruijin")
    assert not s.legal and "制飞" in s.reason and s.payments.tolist() == [0, 0, 0, 0]
    assert s.points == 0
    assert not can_win(c, "ruijin")
    # undeclared, the same discard win is an ordinary 平胡 (宝 pairs the 5p)
    check(score(ctx(*FEI, winner=1, discarder=2), "ruijin"), 2, 2, [-2, 5, -2, -1])


def test_fei_broken_goaround_is_plain_self_draw():
    # rule_state fei=False (a 碰 broke the go-around): plain self-draw 3/2/2
    s = score(ctx(*FEI, winner=1, self_draw=True, rule_state={"fei": False}), "ruijin")
    check(s, 3, 3, [-3, 7, -2, -2])
    # declared 飞 but the hand was not 飞-ready: illegal
    s = score(ctx(winner=1, self_draw=True, rule_state={"fei": True}), "ruijin")
    assert not s.legal and s.payments.tolist() == [0, 0, 0, 0]


def test_four_bao_is_fei():
    # 4 宝 + 10 unrelated tiles, self-drawn on own turn (RS-A4): winner 2: (3,2,2) x 2
    c = ctx("13m46p79s1357z", wilds=4, win="7z", winner=2, self_draw=True)
    s = score(c, "ruijin")
    check(s, 6, 6, [-6, -4, 14, -4])
    assert s.rows[-1][0] == "fei_all_bao"
    # on a discard the same tiles are no winning hand
    with pytest.raises(ValueError, match="not complete"):
        score(ctx("13m46p79s1357z", wilds=4, win="7z", winner=2, discarder=1), "ruijin")


def test_three_flower_bao_is_fei():
    # 花宝 (flipped a flower): only 3 宝 in play, all 3 held = 飞
    c = ctx("13m46p79s12347z", wilds=3, win="7z", winner=2, self_draw=True, flipped="F2")
    check(score(c, "ruijin"), 6, 6, [-6, -4, 14, -4])
    # with an ordinary 宝 (4 in play), 3 宝 are not enough
    assert not can_win(ctx("13m46p79s12347z", wilds=3, win="7z", winner=2, self_draw=True), "ruijin")


def test_fei_mult_option():
    # fei_mult is a rule option with the single value 2
    assert rules.get("ruijin").options["fei_mult"] == 2
    with pytest.raises(ValueError):
        score(ctx(*FEI, self_draw=True), "ruijin", fei_mult=3)


# ---------------------------------------------------------------------------------------------
# 天胡 / 地胡 paid as 飞
def test_heavenly_paid_as_fei():
    # dealer's self-draw on the deal: each (2+1) x 2 = 6
    s = score(ctx(self_draw=True, heavenly=True), "ruijin")
    check(s, 6, 6, [18, -6, -6, -6])
    assert s.rows[-1][0] == "heavenly"


def test_earthly_paid_as_fei():
    # 地胡: seat 2 wins on dealer 0's first discard: dealer (2+1) x 2 = 6, others 2 x 2 = 4
    s = score(ctx(winner=2, discarder=0, earthly=True), "ruijin")
    check(s, 6, 6, [-6, -4, 14, -4])
    assert s.rows[-1][0] == "earthly"
    # the GD name 人和 is accepted for the same event (RS-C2)
    assert score(ctx(winner=2, discarder=0, human=True), "ruijin").payments.tolist() == [-6, -4, 14, -4]
    with pytest.raises(ValueError, match="地胡"):
        score(ctx(winner=2, discarder=1, earthly=True), "ruijin")


# ---------------------------------------------------------------------------------------------
# shapes: any complete hand wins
def test_honour_chows():
    # 124z (东南北) and 567z (白发中) as chows (RS-A3); winner 1 on seat 3's discard:
    # seat 0 dealer 2, seat 2: 1, seat 3: 2 -> 5
    c = ctx("123m456p124z567z55p", winner=1, discarder=3)
    s = score(c, "ruijin")
    check(s, 2, 2, [-2, 5, -1, -2])
    assert s.decomposition.tiles == (27, 28, 30, 31, 32, 33)
    assert can_win(c, "ruijin")
    # Shangrao has no honour chows
    assert not can_win(c, "shangrao")
    # with a 宝 filling an honour chow: 12z + 宝 (as 3z/4z)
    assert can_win(ctx("123m456p12z567z55p", wilds=1, winner=1, discarder=3), "ruijin")


def test_duiduihu_is_seven_pairs():
    # RS-C1: 对对胡 = 七对 (a legal shape, paid as any win)
    c = ctx("1133m5577p99s1122z", win="2z", winner=1, discarder=2)
    check(score(c, "ruijin"), 2, 2, [-2, 5, -2, -1])
    assert score(c, "ruijin").decomposition.form == "seven_pairs"


def test_lanhu_general_and_strict():
    # 147m 258p 369s + 5 honours: both readings
    c = ctx("147m258p369s12345z", win="5z", winner=2, discarder=1)
    check(score(c, "ruijin"), 2, 2, [-2, -2, 5, -1])
    check(score(c, "ruijin", lanhu="strict"), 2, 2, [-2, -2, 5, -1])
    assert score(c, "ruijin").decomposition.form == "thirteen_lan"
    # 2 tiles in 筒, 6 honours: only the general reading
    c = ctx("147m25p369s123456z", win="5z", winner=2, discarder=1)
    assert can_win(c, "ruijin") and not can_win(c, "ruijin", lanhu="strict")
    # 烂胡 has no 飞: 13 lan tiles + 宝 self-drawn is a plain self-draw
    c = ctx("147m258p369s1234z", wilds=1, win="4z", winner=1, self_draw=True)
    check(score(c, "ruijin"), 3, 3, [-3, 7, -2, -2])


def test_not_complete_and_bad_input():
    c = ctx("123m456p789s234s56p", win="5p", winner=1, discarder=2)
    assert not can_win(c, "ruijin")
    with pytest.raises(ValueError, match="not complete"):
        score(c, "ruijin")
    with pytest.raises(ValueError, match="unknown option"):
        score(ctx(self_draw=True), "ruijin", bao=1)
    with pytest.raises(ValueError):
        score(ctx(self_draw=True), "ruijin", lanhu="loose")
    with pytest.raises(ValueError, match="base"):
        score(ctx(self_draw=True), "ruijin", base=0)
    with pytest.raises(ValueError, match="包"):
        score(ctx(winner=1, discarder=2, liable=3), "ruijin")
    # 花 are 假宝 (given as their face) or 宝 (given as wilds), never bonus tiles
    with pytest.raises(ValueError, match="bonus"):
        score(WinContext(Hand(PLAIN, bonus="F1"), win_tile="5p", self_draw=True), "ruijin")


# ---------------------------------------------------------------------------------------------
# kong payments
@pytest.mark.parametrize(
    "kind, konger, feeder, base, expect",
    [
        ("added", 1, None, 1, [-1, 3, -1, -1]),  # 回头杠: each other pays b
        ("回头杠", 0, None, 10, [30, -10, -10, -10]),
        ("exposed", 0, 2, 5, [15, 0, -15, 0]),  # 别人放杠: the feeder alone pays 3b
        ("kong", 3, 1, 1, [0, -3, 0, 3]),
        ("concealed", 1, None, 1, [-2, 6, -2, -2]),  # 暗杠 2b each (RS-A6 ⚑)
        ("暗杠", 2, None, 3, [-6, -6, 18, -6]),
    ],
)
def test_kong_payments(kind, konger, feeder, base, expect):
    p = RJ.kong_payments(kind, konger, feeder, base=base)
    assert p.tolist() == expect and p.sum() == 0


def test_kong_payments_errors():
    with pytest.raises(ValueError):
        RJ.kong_payments("exposed", 0)
    with pytest.raises(ValueError):
        RJ.kong_payments("added", 0, feeder=1)
    with pytest.raises(ValueError):
        RJ.kong_payments("flower", 0)


def test_zero_sum_sweep():
    for winner in range(4):
        for dealer in range(4):
            s = score(ctx(*FEI, winner=winner, dealer=dealer, self_draw=True), "ruijin", base=3)
            assert s.payments.sum() == 0 and s.payments[winner] > 0
            for d in range(4):
                if d != winner:
                    s = score(ctx(winner=winner, dealer=dealer, discarder=d), "ruijin")
                    assert s.payments.sum() == 0
                    # discard total: 3 + 1 (discarder) + (1 or 3 dealer extras) b
                    assert s.payments[winner] == (7 if winner == dealer else 5)
