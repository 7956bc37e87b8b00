"""金华 Jinhua scorer (rules/jinhua.md §4): 平胡 payments, 碰碰胡 / 全求人 / 七对子 multipliers,
承包, 财神 and the 白板 substitute, option qifeng."""

import pytest
from _hands import check_invariants

from mjfast import Hand, rules
from mjfast.scoring import (
    WinContext,
    can_win,
    jinhua,  # noqa: F401  (registers "jinhua")
    score,
)

PLAIN = "123m456p789s234s55p"
PUNGS3 = ["111m@left", "222p@right", "333s@opposite"]


def ctx(tiles=PLAIN, wilds=0, win="5p", melds=(), **kw):
    return WinContext(Hand(tiles, wilds=wilds, melds=list(melds)), win_tile=win, **kw)


def check(s, total, points, payments, multipliers=()):
    check_invariants(s)
    assert s.legal and s.unit == "X"
    assert (s.total, s.points, s.payments.tolist()) == (total, points, payments)
    assert s.rows[0][:4] == ("pinghu", "平胡", "basic win (principal share)", 2)
    assert [r[0] for r in s.rows[1:]] == list(multipliers)


# ---------------------------------------------------------------------------------------------
# 平胡: discard 2X + X + X = 4X, self-draw 3 x 2X = 6X (RULES.md §4)
def test_pinghu_discard():
    # X = 5: discarder seat 2 pays 10, seats 0 and 3 pay 5 -> 20
    check(score(ctx(winner=1, discarder=2), "jinhua", base=5), 2, 10, [-5, 20, -10, -5])


def test_pinghu_self_draw():
    # each pays 2X = 2 -> 6X
    check(score(ctx(winner=3, self_draw=True), "jinhua"), 2, 2, [-2, -2, -2, 6])


def test_robbing_kong_pays_as_discard():
    # 抢杠 (⚑): robbed seat 0 pays 2X, seats 1, 3 pay X -> 4X
    check(score(ctx(winner=2, discarder=0, robbing_kong=True), "jinhua"), 2, 2, [-2, -1, 4, -1])


# ---------------------------------------------------------------------------------------------
# 碰碰胡 x2: three claimed pungs, pair in hand, the 4th pung completes
def test_pengpenghu_discard():
    # discarder 2 x 2 = 4, others 1 x 2 = 2 -> 8; X = 5 -> 40
    c = ctx("55p777s", win="7s", melds=PUNGS3, winner=1, discarder=2)
    check(score(c, "jinhua", base=5), 4, 20, [-10, 40, -20, -10], ["pengpenghu"])


def test_pengpenghu_self_draw_added_kong_counts():
    # a 补杠 started as a 碰: still 3 claims. each 2 x 2 = 4 -> 12
    c = ctx("55p777s", win="7s", melds=["111m@left", "+2222p@right", "333s@opposite"], winner=1, self_draw=True)
    check(score(c, "jinhua"), 4, 4, [-4, 12, -4, -4], ["pengpenghu"])


def test_pengpenghu_needs_the_fourth_pung_to_win():
    # 777s concealed and a lone 5p completed by the discard (单钓): no 将 held before -> 平胡 4X
    c = ctx("55p777s", win="5p", melds=PUNGS3, winner=1, discarder=2)
    check(score(c, "jinhua"), 2, 2, [-1, 4, -2, -1])
    # a 财神 completing the 777s pung (55p held) is 碰碰胡: (2+1+1) x 2 = 8
    c = ctx("55p77s", win="7s", wilds=1, melds=PUNGS3, winner=1, discarder=2)
    check(score(c, "jinhua"), 4, 4, [-2, 8, -4, -2], ["pengpenghu"])


def test_pengpenghu_needs_three_claims():
    # all pungs but only two claimed (one concealed kong): plain 平胡 4X
    c = ctx("55p777s", win="7s", melds=["111m@left", "[2222p]", "333s@opposite"], winner=1, discarder=2)
    check(score(c, "jinhua"), 2, 2, [-1, 4, -2, -1])


# ---------------------------------------------------------------------------------------------
# 全求人 x2 on a discard, 平胡 on a self-draw, not with a 财神 as the last tile
def test_quanqiuren_discard_and_self_draw():
    melds = PUNGS3[:2] + ["789m@left", "456s@left"]
    # discard: (2 + 1 + 1) x 2 = 8
    check(score(ctx("55p", melds=melds, winner=1, discarder=2), "jinhua"), 4, 4, [-2, 8, -4, -2], ["quanqiuren"])
    # self-draw: only 平胡, 6X
    check(score(ctx("55p", melds=melds, winner=1, self_draw=True), "jinhua"), 2, 2, [-2, 6, -2, -2])
    # the single tile was a 财神 (pairs with the discarded 5p): not 全求人
    check(score(ctx("5p", wilds=1, melds=melds, winner=1, discarder=2), "jinhua"), 2, 2, [-1, 4, -2, -1])


def test_quanqiuren_with_four_claimed_pungs_is_not_pengpenghu():
    # four claimed pungs + 单钓 on the pair: 全求人 x2 only (碰碰胡 needs the win to complete
    # the 4th pung), so the two never stack: discarder 2 x 2 = 4, others 2 -> 8
    melds = PUNGS3 + ["777s@left"]
    check(score(ctx("55p", melds=melds, winner=1, discarder=2), "jinhua"), 4, 4, [-2, 8, -4, -2], ["quanqiuren"])


# ---------------------------------------------------------------------------------------------
# 七对子 x2 (JH-A6 ⚑), 清七对 x2
def test_seven_pairs():
    # 清七对 (no 财神) on seat 2's discard: (2, 1, 1) x 2 -> 8
    check(
        score(ctx("1133m5577p99s1122z", win="2z", winner=1, discarder=2), "jinhua"),
        4,
        4,
        [-2, 8, -4, -2],
        ["qingqidui"],
    )
    # 七对子 with a 财神, self-draw: 2 x 2 = 4 each -> 12
    check(
        score(ctx("1133m5577p99s112z", wilds=1, win="2z", winner=1, self_draw=True), "jinhua"),
        4,
        4,
        [-4, 12, -4, -4],
        ["qiduizi"],
    )


# ---------------------------------------------------------------------------------------------
# 承包 (JH-A5 ⚑): the liable seat pays every share
def test_chengbao():
    # 碰碰胡 self-draw (12X) fed by seat 3: seat 3 pays all 12
    c = ctx("55p777s", win="7s", melds=PUNGS3, winner=1, self_draw=True, liable=3)
    check(score(c, "jinhua"), 4, 4, [0, 12, 0, -12], ["pengpenghu"])
    # plain discard by seat 0, liable seat 2: 2 + 1 + 1 = 4 all from seat 2
    check(score(ctx(winner=1, discarder=0, liable=2), "jinhua"), 2, 2, [0, 4, -4, 0])


# ---------------------------------------------------------------------------------------------
# 财神 / 白板
def test_baiban_plays_as_caishen_face():
    # 财神 = 2m (flipped): the 白板 plays as 2m, so 1m-白板-3m is a chow ("<二万-白板-四万>")
    c = ctx("13m456p789s234s55p5z", win="5z", winner=1, self_draw=True, flipped="2m")
    s = score(c, "jinhua")
    check(s, 2, 2, [-2, 6, -2, -2])
    assert can_win(c, "jinhua")
    # without knowing the 财神 the 白板 is a lone dragon: no win
    c0 = ctx("13m456p789s234s55p5z", win="5z", winner=1, self_draw=True)
    assert not can_win(c0, "jinhua")
    # the 财神 is 白板 itself: no substitute (JH-A4), and a natural 白板 cannot be held (its
    # three other tiles are the 财神, the fourth is the indicator)
    with pytest.raises(ValueError, match="财神"):
        can_win(ctx("13m456p789s234s55p5z", win="5z", winner=1, self_draw=True, flipped="5z"), "jinhua")


def test_qifeng_option():
    # the 财神 must stand for 7z (pair): allowed by default, not under qifeng="honours"
    c = ctx("123m456p789s234s7z", wilds=1, win="7z", winner=1, discarder=2)
    check(score(c, "jinhua"), 2, 2, [-1, 4, -2, -1])
    assert not can_win(c, "jinhua", qifeng="honours")
    with pytest.raises(ValueError, match="not complete"):
        score(c, "jinhua", qifeng="honours")
    # a 财神 standing for a suit tile is fine under both readings
    c = ctx("123m456p789s23s55p", wilds=1, win="5p", winner=1, discarder=2)
    assert can_win(c, "jinhua", qifeng="honours")


def test_wild_faces_fix_the_reading():
    # 1133m5577p99s11z + 2z + 财神: as 2z it is 七对子 (x2, 12 on a self-draw); fixed as 1z the
    # 财神 makes 111z + a lone 2z: neither seven pairs nor 4 sets + pair -> no win
    c = ctx("1133m5577p99s112z", wilds=1, win="2z", winner=1, self_draw=True)
    check(score(c, "jinhua"), 4, 4, [-4, 12, -4, -4], ["qiduizi"])
    c = ctx("1133m5577p99s112z", wilds=1, win="2z", winner=1, self_draw=True, wild_faces=("1z",))
    assert not can_win(c, "jinhua")


def test_options_and_errors():
    assert rules.get("jinhua").options["qifeng"] == "none"
    with pytest.raises(ValueError):
        score(ctx(self_draw=True), "jinhua", qifeng="winds")
    with pytest.raises(ValueError, match="unknown option"):
        score(ctx(self_draw=True), "jinhua", chengbao=True)
    with pytest.raises(ValueError, match="base"):
        score(ctx(self_draw=True), "jinhua", base=-1)
    with pytest.raises(ValueError, match="bonus"):
        score(WinContext(Hand(PLAIN, bonus="F1"), win_tile="5p", self_draw=True), "jinhua")
    c = ctx("123m456p789s234s56p", winner=1, discarder=2)
    assert not can_win(c, "jinhua")
    with pytest.raises(ValueError, match="not complete"):
        score(c, "jinhua")


def test_zero_sum_sweep():
    for winner in range(4):
        for liable in [None] + [p for p in range(4) if p != winner]:
            s = score(ctx(winner=winner, self_draw=True, liable=liable), "jinhua", base=3)
            assert s.payments.sum() == 0 and s.payments[winner] == 18
            for d in range(4):
                if d != winner:
                    s = score(ctx(winner=winner, discarder=d, liable=liable), "jinhua")
                    assert s.payments.sum() == 0 and s.payments[winner] == 4
