"""上饶 Shangrao scorer (rules/ruijin_shangrao.md): Ruijin payment table (RS-A9), 宝吊头,
十三浪, 九幺, 七对, kong payments, options."""

import pytest
from _hands import check_invariants

from mjfast import Hand, rules
from mjfast.scoring import WinContext, can_win, score
from mjfast.scoring import shangrao as SR

PLAIN = "123m456p789s234s55p"
DIAO = ("123m456p789s234s5p", 1)  # 宝吊头: 4 sets + lone 宝, draws 5p
NINE = "19m19p19s1234567z1z"  # 九幺: terminals/honours in no set shape


def ctx(tiles=PLAIN, wilds=0, win="5p", **kw):
    return WinContext(Hand(tiles, wilds=wilds), win_tile=win, **kw)


def check(s, total, points, payments):
    check_invariants(s)
    assert s.legal and s.unit == "基数"
    assert (s.total, s.points, s.payments.tolist()) == (total, points, payments)


def test_discard_win():
    # winner 2 on seat 3's discard, dealer 0: seat 0: 1+1 (dealer) = 2, seat 1: 1,
    # seat 3: 1+1 (discarder) = 2 -> 5 b; b = 10
    check(score(ctx(winner=2, discarder=3), "shangrao", base=10), 2, 20, [-20, -10, 50, -20])


def test_discard_dealer_wins_and_robbing_kong():
    # dealer 0 wins robbing seat 1's kong (as a discard by seat 1):
    # seat 1: 1+1+1 = 3, seats 2, 3: 1+1 = 2 -> 7
    check(score(ctx(winner=0, discarder=1, robbing_kong=True), "shangrao"), 3, 3, [7, -3, -2, -2])


def test_self_draw():
    # dealer self-draws: each 2+1 = 3 -> 9
    check(score(ctx(self_draw=True), "shangrao"), 3, 3, [9, -3, -3, -3])
    # non-dealer seat 3: dealer 3, others 2 -> 7
    check(score(ctx(winner=3, self_draw=True), "shangrao", base=2), 3, 6, [-6, -4, -4, 14])


def test_baodiaotou_self_draw():
    # 宝吊头 won on the next own draw: self-draw x 2; winner 1: (3, 2, 2) x 2 -> 14
    s = score(ctx(*DIAO, winner=1, self_draw=True), "shangrao")
    check(s, 6, 6, [-6, 14, -4, -4])
    assert s.rows[-1][:2] == ("baodiaotou", "宝吊头")


def test_baodiaotou_fei_mult_keyword():
    # fei_mult=3 (scorer keyword): (3, 2, 2) x 3 = (9, 6, 6) -> 21
    check(score(ctx(*DIAO, winner=1, self_draw=True), "shangrao", fei_mult=3), 9, 9, [-9, 21, -6, -6])
    with pytest.raises(ValueError, match="fei_mult"):
        score(ctx(*DIAO, winner=1, self_draw=True), "shangrao", fei_mult=0)


def test_baodiaotou_discard_is_legal_plain_win():
    # no "制飞后不能平胡" in Shangrao: a declared 宝吊头 may still win a discard, as a plain win
    c = ctx(*DIAO, winner=1, discarder=2, rule_state={"fei": True})
    check(score(c, "shangrao"), 2, 2, [-2, 5, -2, -1])
    # (Ruijin refuses it)
    assert not can_win(c, "ruijin")
    # declared but not ready on a self-draw: illegal
    s = score(ctx(winner=1, self_draw=True, rule_state={"fei": True}), "shangrao")
    assert not s.legal and s.payments.tolist() == [0, 0, 0, 0]


def test_nine_terminals():
    # 九幺: 14 terminals/honours, any arrangement; dealer self-draw 3 each
    s = score(ctx(NINE, win="1z", self_draw=True), "shangrao")
    check(s, 3, 3, [9, -3, -3, -3])
    assert s.decomposition.form == "nine_terminals"
    # with a 宝 filling (RS-A8): 1m19p19s1234567z1z + 宝
    assert can_win(ctx("1m19p19s1234567z1z", wilds=1, win="1z", winner=1, discarder=0), "shangrao")
    # Ruijin has no 九幺
    assert not can_win(ctx(NINE, win="1z", self_draw=True), "ruijin")


def test_thirteen_lan():
    # 十三浪 (general reading only): 147m 25p 369s + 6 honours, winner 1 on seat 0 (dealer):
    # seat 0: 1+1+1 = 3, seats 2, 3: 1 -> 5
    c = ctx("147m25p369s123456z", win="5z", winner=1, discarder=0)
    s = score(c, "shangrao")
    check(s, 3, 3, [-3, 5, -1, -1])
    assert s.decomposition.form == "thirteen_lan"
    # a 宝 fills a gap
    assert can_win(ctx("147m25p369s12345z", wilds=1, win="5z", winner=1, discarder=0), "shangrao")
    # gaps of 2 are not 十三浪
    assert not can_win(ctx("135m25p369s123456z", win="5z", winner=1, discarder=0), "shangrao")


def test_seven_pairs_with_bao():
    # 七对 with a 宝 pairing the 2z, won on seat 2's discard: 2 (dealer), 2 (discarder), 1
    s = score(ctx("1133m5577p99s112z", wilds=1, win="2z", winner=1, discarder=2), "shangrao")
    check(s, 2, 2, [-2, 5, -2, -1])
    assert s.decomposition.form == "seven_pairs"
    # self-drawn, six pairs + lone 宝 is 宝吊头 too (the table's "or six pairs + a lone 宝"):
    # (3, 2, 2) x 2
    check(
        score(ctx("1133m5577p99s112z", wilds=1, win="2z", winner=1, self_draw=True), "shangrao"), 6, 6, [-6, 14, -4, -4]
    )


def test_no_four_bao_no_heavenly():
    # no 四宝 飞 in Shangrao: 4 宝 + scattered tiles is not a win
    c = ctx("13m46p79s1357z", wilds=4, win="7z", winner=2, self_draw=True)
    assert not can_win(c, "shangrao")
    assert can_win(c, "ruijin")
    # 天胡 is not a Shangrao element: the dealer's self-draw stays 3 each
    check(score(ctx(self_draw=True, heavenly=True), "shangrao"), 3, 3, [9, -3, -3, -3])


def test_options_and_errors():
    assert rules.get("shangrao").options["scoring"] == "rj"
    with pytest.raises(ValueError):
        score(ctx(self_draw=True), "shangrao", scoring="own")
    with pytest.raises(ValueError, match="unknown option"):
        score(ctx(self_draw=True), "shangrao", lanhu="strict")
    with pytest.raises(ValueError, match="包"):
        score(ctx(winner=1, discarder=2, liable=3), "shangrao")
    with pytest.raises(ValueError, match="not complete"):
        score(ctx("123m456p789s234s56p", winner=1, discarder=2), "shangrao")


@pytest.mark.parametrize(
    "kind, konger, feeder, expect",
    [
        ("exposed", 1, 3, [0, 3, 0, -3]),  # 碰杠 on a discard: the feeder pays 3b
        ("added", 1, None, [-1, 3, -1, -1]),  # 碰杠 drawing the 4th: each pays b
        ("concealed", 0, None, [6, -2, -2, -2]),  # 自摸杠: each pays 2b
    ],
)
def test_kong_payments(kind, konger, feeder, expect):
    p = SR.kong_payments(kind, konger, feeder)
    assert p.tolist() == expect and p.sum() == 0


def test_zero_sum_sweep():
    for winner in range(4):
        for dealer in range(4):
            s = score(ctx(*DIAO, winner=winner, dealer=dealer, self_draw=True), "shangrao")
            assert s.payments.sum() == 0
            # (2+1) + 2 + 2 = 7 b, x2 for 宝吊头; a dealer winner gets 3 x 3 x 2 = 18
            assert s.payments[winner] == (18 if winner == dealer else 14)
