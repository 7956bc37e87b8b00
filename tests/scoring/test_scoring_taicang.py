"""太仓麻将 scorer (rules/taicang.md): the worked example, hand-worked cases, options, payments."""

import numpy as np
import pytest
from _hands import check_invariants

from mjfast import Hand
from mjfast.scoring import WinContext, can_win, score

_OPTION_KEYS = {
    "qidui",
    "threshold_counts",
    "threshold_exempt",
    "fan2x",
    "base",
    "max_payment",
    "discard_wind_triplet",
    "foo",
}


def tc(hand, win, **kw):
    """Score under taicang; rule options, base and max_payment go to score(), the rest to ctx."""
    opts = {k: kw.pop(k) for k in list(kw) if k in _OPTION_KEYS}
    s = score(WinContext(hand, win_tile=win, **kw), "taicang", **opts)
    check_invariants(s)
    return s


def codes(s):
    return {r[0]: r[3] for r in s.rows}


# ---------------------------------------------------------------------------------------------
# §10 worked example: 门清 清一色, 5 flowers
QING = Hand("123m456m789m234m55m", bonus="F1F2 5z 6z 7z")


def test_worked_example_self_draw():
    # (5 花 + 1 底花) × 4 (清一色) × 2 (门清) = 48 花; 48 × 5 = 240 each, 720 in all
    s = tc(QING, "5m", self_draw=True)
    assert (s.total, s.points) == (48, 240)
    assert s.payments.tolist() == [720, -240, -240, -240]
    assert codes(s) == {"base": 1, "flower": 5, "concealed_hand": 2, "full_flush": 4}


def test_worked_example_discard():
    # 出冲: the discarder alone pays 240
    s = tc(QING, "5m", discarder=3)
    assert (s.total, s.points) == (48, 240)
    assert s.payments.tolist() == [240, 0, 0, -240]


# ---------------------------------------------------------------------------------------------
# minimum to win: 二花自摸三花冲, 门清 exempt
CHOW = Hand("456p789s123s11z", melds=["234m@left"], bonus="F1F2")


def test_minimum_two_self_draw_three_discard():
    # F = 2 flowers, chowed (not 门清), three suits: self-draw 2 ≥ 2: (1 + 2) = 3 花 → 15 each
    s = tc(CHOW, "1z", self_draw=True, winner=1)
    assert s.legal and (s.total, s.points) == (3, 15)
    assert s.payments.tolist() == [-15, 45, -15, -15]
    # on a discard 2 < 3: not legal, nothing paid
    s = tc(CHOW, "1z", discarder=2)
    assert not s.legal and s.reason.startswith("2 花, below the 3-花 minimum")
    assert not can_win(WinContext(CHOW, win_tile="1z", discarder=2), "taicang")
    # a third flower: (1 + 3) = 4 花 → 20 from the discarder
    s = tc(Hand(CHOW, bonus="F1F2F3"), "1z", discarder=2)
    assert s.legal and s.payments.tolist() == [20, 0, -20, 0]


def test_threshold_counts_hard_only():
    # F = 暗杠 2 with no flower tile, chowed: threshold_counts=all → legal, (1 + 2) = 3 → 15
    h = Hand("456p789s11z", melds=["234m@left", "[1111s]"])
    s = tc(h, "1z", self_draw=True)
    assert s.legal and s.total == 3 and codes(s)["suit_concealed_kong"] == 2
    # hard_only (TC-A14): 0 flower tiles < 2
    s = tc(h, "1z", self_draw=True, threshold_counts="hard_only")
    assert not s.legal and s.reason.startswith("0 hard 花")


def test_robbing_kong_counts_as_self_draw():
    # 抢杠: F = 2 meets the self-draw minimum; 3 花 → 15; the robbed konger (seat 1) pays 3 × 15
    s = tc(CHOW, "1z", discarder=1, robbing_kong=True)
    assert s.legal and s.payments.tolist() == [45, -45, 0, 0]


# ---------------------------------------------------------------------------------------------
# hand-worked cases
KONGS = Hand("55s", melds=["1111m@opposite", "[2222p]", "+3333z@right", "[4444z]"])


def test_kongs_all_pungs_big_hanging():
    # F = suit 明杠 1 + suit 暗杠 2 + 风明杠 2 + 风暗杠 3 = 8; not 门清; three suits;
    # 对对胡 ×2, 大吊车 ×2: (1 + 8) × 2 × 2 = 36 花 → 180 from the discarder
    s = tc(KONGS, "5s", discarder=3)
    assert (s.total, s.points) == (36, 180)
    assert s.payments.tolist() == [180, 0, 0, -180]
    assert codes(s) == {
        "base": 1,
        "suit_exposed_kong": 1,
        "suit_concealed_kong": 2,
        "wind_exposed_kong": 2,
        "wind_concealed_kong": 3,
        "all_pungs": 2,
        "big_hanging": 2,
    }
    # fan2x=4 (TC-C1): 对对胡 ×4: 9 × 4 × 2 = 72 → 360
    s = tc(KONGS, "5s", discarder=3, fan2x=4)
    assert (s.total, s.points) == (72, 360)


WINDS = Hand("222z567s99s", melds=["111z@left", "234s@left"], bonus="F1")


def test_wind_pungs_and_half_flush():
    # self-draw: F = flower 1 + 风暗刻 (222z) 1 = 2; 风碰 (111z) = 0 (TC-A7);
    # 条 + winds: 混一色 ×2 → (1 + 2) × 2 = 6 花 → 30 each
    s = tc(WINDS, "9s", self_draw=True)
    assert s.legal and (s.total, s.points) == (6, 30)
    assert codes(s) == {"base": 1, "flower": 1, "wind_concealed_pung": 1, "wind_pung": 0, "half_flush": 2}
    assert s.payments.tolist() == [90, -30, -30, -30]
    # fan2x=4: 混一色 ×4 → 12 → 60
    assert tc(WINDS, "9s", self_draw=True, fan2x=4).total == 12


def test_wind_triplet_completed_by_discard_and_exempt_list():
    # discard_wind_triplet="pung": winning on the discarded 2z, 222z is a claimed pung (0),
    # F = 1 < 3 → not legal
    s = tc(WINDS, "2z", discarder=1, discard_wind_triplet="pung")
    assert not s.legal and s.reason.startswith("1 花")
    # threshold_exempt=suzhou_list: 混一色 is exempt → (1 + 1) × 2 = 4 花 → 20 from seat 1
    s = tc(WINDS, "2z", discarder=1, threshold_exempt="suzhou_list", discard_wind_triplet="pung")
    assert s.legal and s.total == 4 and s.payments.tolist() == [20, -20, 0, 0]


def test_concealed_kong_keeps_menqing_and_kong_bloom():
    # 暗杠 keeps 门清 (TC-A8): F = 2; 门清 ×2, 杠开 ×2: (1 + 2) × 2 × 2 = 12 花 → 60 each
    h = Hand("123p456p789p11z", melds=["[5555s]"])
    s = tc(h, "1z", self_draw=True, after_kong=True)
    assert (s.total, s.points) == (12, 60)
    assert s.payments.tolist() == [180, -60, -60, -60]
    assert codes(s)["concealed_hand"] == 2 and codes(s)["kong_bloom"] == 2


def test_claimed_kong_breaks_menqing():
    # 一次杠 breaks 门清 (TC-A8): F = 明杠 1 < 2 on a self-draw → not legal, 杠开 or not
    h = Hand("123p456p789p11z", melds=["5555s@left"])
    s = tc(h, "1z", self_draw=True, after_kong=True)
    assert not s.legal and "concealed_hand" not in codes(s)
    # suzhou_list exempts 杠开: (1 + 1) × 2 = 4 花 → 20 each
    s = tc(h, "1z", self_draw=True, after_kong=True, threshold_exempt="suzhou_list")
    assert s.legal and s.total == 4 and s.payments.tolist() == [60, -20, -20, -20]


PLAIN = Hand("123m456p789s234s55p")


def test_wuhuaguo_fixed_payment():
    # 门清 with F = 0: 无花果, self-draw → max_payment 100 from each payer; total 1 × 2 = 2 花
    s = tc(PLAIN, "5p", self_draw=True)
    assert (s.total, s.points) == (2, 100) and s.payments.tolist() == [300, -100, -100, -100]
    assert s.rows[-1] == (
        "no_flower_concealed",
        "无花果",
        "Concealed hand without flowers (fixed)",
        100,
        1,
        "stake",
        "replace",
    )
    # discard: the discarder pays half, 50
    s = tc(PLAIN, "5p", discarder=2)
    assert s.points == 50 and s.payments.tolist() == [50, 0, -50, 0]
    # max_payment=60 → 60 each / 30 on a discard
    assert tc(PLAIN, "5p", self_draw=True, max_payment=60).payments.tolist() == [180, -60, -60, -60]
    assert tc(PLAIN, "5p", discarder=1, max_payment=60).payments.tolist() == [30, -30, 0, 0]
    # 抢杠 counts as a self-draw: the konger pays 3 × 100
    s = tc(PLAIN, "5p", discarder=1, robbing_kong=True)
    assert s.payments.tolist() == [300, -300, 0, 0]
    with pytest.raises(ValueError, match="max_payment"):
        tc(PLAIN, "5p", self_draw=True, max_payment=75)
    with pytest.raises(ValueError, match="base"):
        tc(PLAIN, "5p", self_draw=True, base=-5)


def test_wuhuaguo_and_threshold_counts():
    # 门清 with only a 暗杠 (F = 2, no flower tile): not 无花果 by default: (1 + 2) × 2 = 6 → 30
    h = Hand("123p456p789p11z", melds=["[5555s]"])
    s = tc(h, "1z", self_draw=True)
    assert (s.total, s.points) == (6, 30) and "no_flower_concealed" not in codes(s)
    # hard_only counts flower tiles only (TC-A14): F = 0 → 无花果, 100 each
    s = tc(h, "1z", self_draw=True, threshold_counts="hard_only")
    assert s.points == 100 and s.payments.tolist() == [300, -100, -100, -100]


def test_base_option():
    # 48 花 × 10 = 480 each
    assert tc(QING, "5m", self_draw=True, base=10).payments.tolist() == [1440, -480, -480, -480]


# ---------------------------------------------------------------------------------------------
# 百搭 wildcards
WILD = Hand("123m456m789m99m1z", bonus="F3", wilds=2)


def test_wildcards_best_reading():
    # flipped 1p → 2p is 百搭.  Reading 1z+2 百搭 = 111z concealed: F = 1 + 1 = 2, 万 + winds:
    # (1 + 2) × 2 (混一色) × 2 (门清) = 12 花 → 60 each.  The other reading 11z + 999m gives
    # F = 1: 2 × 2 × 2 = 8; the higher one is scored.
    s = tc(WILD, "1z", self_draw=True, flipped="1p")
    assert (s.total, s.points) == (12, 60)
    assert s.decomposition.wild_tiles == (27, 27)
    # wild_faces fixes the faces: 9m and 1z → 11z + 999m → 8 花 → 40
    s = tc(WILD, "1z", self_draw=True, flipped="1p", wild_faces=("9m", "1z"))
    assert (s.total, s.points) == (8, 40)
    with pytest.raises(ValueError, match="not complete"):
        tc(WILD, "1z", self_draw=True, flipped="1p", wild_faces=("2s",))
    # a flipped season makes 梅兰竹菊 百搭; a season bonus stays a flower: same 60
    s = tc(Hand(WILD, bonus="F2"), "1z", self_draw=True, flipped="F1")
    assert s.points == 60


def test_wildcard_validation():
    # natural 2p while 2p is 百搭
    with pytest.raises(ValueError, match="百搭"):
        tc(Hand("123m456m789m22p1z", wilds=2), "1z", self_draw=True, flipped="1p")
    # TC-A2: flipped 百搭 → frameless 白板 are wild, so a WB0 flower is an error
    with pytest.raises(ValueError, match="TC-A2"):
        tc(Hand(WILD, bonus="WB0"), "1z", self_draw=True, flipped="BD")
    with pytest.raises(ValueError, match="TC-A2"):
        tc(Hand(WILD, bonus="F5"), "1z", self_draw=True, flipped="F1")
    # the flipped F1 is out of play: an F1 flower cannot be held too
    with pytest.raises(ValueError, match="indicator"):
        tc(Hand(WILD, bonus="F1"), "1z", self_draw=True, flipped="F1")
    assert tc(Hand(WILD, bonus="WB0"), "1z", self_draw=True, flipped="1p").points == 60


# ---------------------------------------------------------------------------------------------
# options and errors
SEVEN = Hand("11224455778899m", bonus="F1")


def test_qidui_option():
    # default: 七对 is not a shape (TC-A4)
    with pytest.raises(ValueError, match="not complete"):
        tc(SEVEN, "9m", self_draw=True)
    assert not can_win(WinContext(SEVEN, win_tile="9m", self_draw=True), "taicang")
    # qidui=True: (1 + 1) × 2 (门清) × 4 (清一色) = 16 花 → 80 each
    s = tc(SEVEN, "9m", self_draw=True, qidui=True)
    assert (s.total, s.points) == (16, 80) and s.decomposition.form == "seven_pairs"
    assert "all_pungs" not in codes(s)


def test_unknown_and_invalid_options():
    with pytest.raises(ValueError, match="unknown option"):
        tc(QING, "5m", self_draw=True, foo=1)
    with pytest.raises(ValueError, match="invalid value"):
        tc(QING, "5m", self_draw=True, fan2x=3)


def test_bad_hands():
    with pytest.raises(ValueError, match="上家"):
        tc(Hand("456p789s123s11z", melds=["234m@right"]), "1z", self_draw=True)
    with pytest.raises(ValueError, match="dragons are flowers"):
        tc(Hand("456p789s123s11z", melds=["555z@left"]), "1z", self_draw=True)
    with pytest.raises(ValueError, match="not a 太仓 flower"):
        tc(Hand(CHOW, bonus="RAT"), "1z", self_draw=True)
    with pytest.raises(ValueError, match="包"):
        tc(CHOW, "1z", self_draw=True, liable=2)


def test_can_win_agrees_with_score(seed):
    rng = np.random.default_rng(seed)
    hands = [
        QING,
        CHOW,
        KONGS,
        WINDS,
        PLAIN,
        WILD,
        Hand("123p456p789p11z", melds=["5555s@left"]),
        Hand("456p789s11z", melds=["234m@left", "[1111s]"]),
    ]
    for _ in range(60):
        h = hands[rng.integers(len(hands))]
        win = int(rng.choice(np.flatnonzero(h.counts)))
        kw = dict(
            threshold_counts=str(rng.choice(["all", "hard_only"])),
            threshold_exempt=str(rng.choice(["menqing", "suzhou_list"])),
            fan2x=int(rng.choice([2, 4])),
        )
        if rng.random() < 0.5:
            ctx = WinContext(h, win_tile=win, self_draw=True, winner=int(rng.integers(4)), flipped="F4")
        else:
            ctx = WinContext(
                h,
                win_tile=win,
                discarder=1,
                winner=int(rng.choice([0, 2, 3])),
                robbing_kong=bool(rng.random() < 0.2),
                flipped="F4",
            )
        s = score(ctx, "taicang", **kw)
        check_invariants(s)
        assert can_win(ctx, "taicang", **kw) == s.legal
