"""广东鸡平胡 scorer (rules/guangdong.md)."""

import numpy as np
import pytest
from _hands import check_invariants, random_contexts, ron, rule_kinds, tsumo

import mjfast.scoring.guangdong as GD
from mjfast import Hand
from mjfast.scoring import can_win, score

check = check_invariants


# ---------------------------------------------------------------------------------------------
# RULES.md §4 worked example: the [002] fan table, 分值 = 2^番, special hands fixed (混碰 4 =
# 2 + 2, 清碰 5 ≠ 4 + 2), the within-cap hands capped at 3, special hands up to 6.
# Discard wins by seat 0 (East, round East) from seat 2: no adders, the discarder pays 2^番.
@pytest.mark.parametrize(
    "hand, win, fan, code",
    [
        ("123m456m789p222s55s", "5s", 0, "jihu"),  # 鸡胡 0 -> 1
        ("123m456m789p234s55s", "5s", 1, "pinghu"),  # 平胡 1 -> 2
        ("111m222p333s444s55m", "5m", 2, "pengpenghu"),  # 碰碰胡 2 -> 4
        ("123m456m789m222z11z", "1z", 2, "hunyise"),  # 混一色 2 -> 4 (南 pung: no adder)
        ("123m456m789m234m55m", "5m", 4, "qingyise"),  # 清一色 4 -> 16
        ("111m555m999m222z33z", "3z", 4, "hunpeng"),  # 混碰 4 -> 16 (not 2+2 capped at 3)
        ("111m333m555m777m99m", "9m", 5, "qingpeng"),  # 清碰 5 -> 32 (not 4+2)
        ("111m999p111s222z33z", "3z", 5, "hunyaojiu"),  # 混幺九 5 -> 32
        ("555z666z77z123m456m", "7z", 5, "xiaosanyuan"),  # 小三元 5 -> 32
        ("111z222z333z44z123m", "4z", 5, "xiaosixi"),  # 小四喜 5 -> 32
        ("111z222z333z555z66z", "6z", 6, "ziyise"),  # 字一色 6 -> 64
        ("111m999m111p999p11s", "1s", 6, "qingyaojiu"),  # 清幺九 6 -> 64
        ("555z666z777z123m11m", "1m", 6, "dasanyuan"),  # 大三元 6 -> 64
        ("111z222z333z444z11m", "1m", 6, "dasixi"),  # 大四喜 6 -> 64
        ("11123456789999m", "9m", 6, "jiulian"),  # 九莲宝灯 6 -> 64
        ("19m19p19s12345677z", "7z", 6, "shisanyao"),  # 十三幺 6 -> 64
    ],
)
def test_fan_table(hand, win, fan, code):
    s = check(score(ron(hand, win), "guangdong"))
    assert (s.total, s.points) == (fan, 2**fan) and s.legal
    assert s.rows[0][0] == code
    assert s.payments.tolist() == [2**fan, 0, -(2**fan), 0]
    if fan >= 4:  # a special hand is one row: nothing else is added
        assert len(s.rows) == 1


def test_heavenly_human_earthly():
    # 天和 on a 鸡胡 hand: 6 -> 64 from each: +192
    s = check(score(tsumo("123m456m789p222s55s", "5s", heavenly=True), "guangdong"))
    assert s.payments.tolist() == [192, -64, -64, -64] and s.rows[0][0] == "tianhu"
    # 人和: seat 1 wins on the dealer's (seat 0) first discard: 64 from seat 0
    s = check(score(ron("123m456m789p222s55s", "5s", discarder=0, winner=1, human=True), "guangdong"))
    assert s.payments.tolist() == [-64, 64, 0, 0]
    # 地和: seat 2 self-draws his first draw: 64 each
    s = check(score(tsumo("123m456m789p222s55s", "5s", winner=2, earthly=True), "guangdong"))
    assert s.payments.tolist() == [-64, -64, 192, -64]
    with pytest.raises(ValueError, match="人和"):
        score(ron("123m456m789p222s55s", "5s", discarder=2, winner=1, human=True), "guangdong")


# ---------------------------------------------------------------------------------------------
# adders and the 爆胡 cap
def test_adders_and_cap():
    # 混一色 2 + 自摸 1 + 门风 东 1 + 圈风 东 1 = 5 -> capped at 3 -> 8 from each, +24
    ctx = tsumo("123m456m789m111z55m", "5m")
    s = check(score(ctx, "guangdong"))
    assert (s.total, s.points) == (3, 8) and s.payments.tolist() == [24, -8, -8, -8]
    assert [r[0] for r in s.rows] == ["hunyise", "zimo", "menfeng", "quanfeng", "baohu"]
    # cap_scheme="3-6" (三番满六番爆): the cap is 6 -> 5 番 -> 32 each
    s = check(score(ctx, "guangdong", cap_scheme="3-6"))
    assert (s.total, s.points) == (5, 32)
    # cap_scheme="2-5": cap 5 -> 5 番 as well
    assert score(ctx, "guangdong", cap_scheme="2-5").total == 5


def test_dragon_and_wind_pungs():
    # 鸡胡 0 + 三元 (中) 1 = 1 -> 2
    s = check(score(ron("777z123m456m789p11s", "1s"), "guangdong"))
    assert (s.total, [r[0] for r in s.rows]) == (1, ["jihu", "sanyuan"])
    # seat 1 is South: a 南 pung is his 门风 (1 番 -> 2); in the South round also 圈风 (2 -> 4)
    ctx = ron("222z123m456m789p11s", "1s", winner=1, discarder=3)
    assert check(score(ctx, "guangdong")).points == 2
    ctx = ron("222z123m456m789p11s", "1s", winner=1, discarder=3, prevalent_wind="S")
    assert check(score(ctx, "guangdong")).points == 4
    # a 西 pung for East in the East round is worth nothing: 鸡胡 -> 1
    assert score(ron("333z123m456m789p11s", "1s"), "guangdong").points == 1


def test_adder_exposed_only():
    # concealed 中 pung: +1 by default (GD-C4 "刻子"), nothing with adder_exposed_only
    ctx = ron("777z123m456m789p11s", "1s")
    assert score(ctx, "guangdong").total == 1
    assert score(ctx, "guangdong", adder_exposed_only=True).total == 0
    # a claimed (碰出) 中 pung counts either way
    ctx = ron(Hand("123m456m789p11s", melds=["777z@left"]), "1s")
    assert score(ctx, "guangdong", adder_exposed_only=True).total == 1


# ---------------------------------------------------------------------------------------------
# minimum-3 events and payment paths
KONG_HAND = Hand("123m456m789p55s", melds=["[2222s]"])


def test_gangkai_floor():
    # 杠上开花 on 鸡胡 + 自摸 = 1 -> scored 3 -> 8 each, +24
    s = check(score(tsumo(KONG_HAND, "5s", after_kong=True), "guangdong"))
    assert (s.total, s.payments.tolist()) == (3, [24, -8, -8, -8])
    assert s.rows[-1][:2] == ("min_three", "保底") and s.rows[-1][-1] == "replace"
    # cap_scheme 2-5: the floor is 2 -> 4 each
    assert score(tsumo(KONG_HAND, "5s", after_kong=True), "guangdong", cap_scheme="2-5").points == 4


def test_haidi_floor():
    # 海底捞针: last-tile self-draw of 鸡胡 (+自摸 = 1) -> 3 -> 8 each
    s = check(score(tsumo("123m456m789p222s55s", "5s", last_tile=True), "guangdong"))
    assert s.payments.tolist() == [24, -8, -8, -8]
    # the last tile won on a discard is no minimum event: 鸡胡 0 -> 1
    assert score(ron("123m456m789p222s55s", "5s", last_tile=True), "guangdong").points == 1


def test_yipao_sanxiang():
    # 一炮三响: each of three winners scores at least 3 and the discarder pays each 8
    outs = [
        check(score(ron("123m456m789p222s55s", "5s", discarder=3, winner=w), "guangdong", winners=3)) for w in (0, 1, 2)
    ]
    assert [o.points for o in outs] == [8, 8, 8]
    assert sum(o.payments for o in outs).tolist() == [8, 8, 8, -24]
    # a higher hand keeps its value: 清一色 4 -> 16
    assert score(ron("123m456m789m234m55m", "5m", discarder=3), "guangdong", winners=3).points == 16
    with pytest.raises(ValueError, match="winners"):
        score(ron("123m456m789p222s55s", "5s"), "guangdong", winners=4)


def test_robbing_kong_robbed_pays_three_shares():
    # 抢杠 of 鸡胡: 3 番 -> share 8; the robbed konger (seat 1) pays 3 shares = 24
    s = check(score(ron("123m456m789p222s55s", "5s", discarder=1, robbing_kong=True), "guangdong"))
    assert (s.total, s.payments.tolist()) == (3, [24, -24, 0, 0])


def test_gangkai_baogang():
    # 杠上开花包杠: the exposed kong 2222s came from 上家 (seat 3); win on the replacement:
    # 3 番 (floor) -> share 8, seat 3 pays all three = 24
    h = Hand("123m456m789p55s", melds=["2222s@left"])
    s = check(score(tsumo(h, "5s", after_kong=True, liable=3), "guangdong"))
    assert s.payments.tolist() == [24, 0, 0, -24]


def test_bao_zimo_twelve_tiles():
    # 12 tiles exposed, the 4th set (222s) claimed from 对家 (seat 2); self-draw: 鸡胡 + 自摸
    # = 1 番 -> share 2, seat 2 pays 3 × 2 = 6
    h = Hand("55s", melds=["123m@left", "456m@left", "789p@left", "222s@opposite"])
    s = check(score(tsumo(h, "5s", liable=2), "guangdong"))
    assert (s.total, s.payments.tolist()) == (1, [6, 0, -6, 0])
    # the same hand won on a discard: no liability (GD-A6), the discarder pays 1 share (2^0)
    s = check(score(ron(h, "5s", discarder=1, liable=2), "guangdong"))
    assert s.payments.tolist() == [1, -1, 0, 0]
    # the liable seat must be the one that fed the 4th set
    with pytest.raises(ValueError, match="包"):
        score(tsumo(h, "5s", liable=1), "guangdong")


def test_lipai_bao():
    # 大三元 with 白 发 (from seat 1) and 中 (from seat 2, the last dragon) exposed: 6 番 -> 64,
    # seat 2 pays 3 × 64 = 192
    h = Hand("123m55m", melds=["555z@right", "666z@right", "777z@opposite"])
    s = check(score(tsumo(h, "5m", liable=2), "guangdong"))
    assert s.payments.tolist() == [192, 0, -192, 0]
    # 小三元 (two dragon pungs exposed): liability only with baozimo_small
    h = Hand("123m456m77z", melds=["555z@right", "666z@opposite"])
    ctx = tsumo(h, "7z", liable=2)
    assert check(score(ctx, "guangdong")).payments.tolist() == [96, -32, -32, -32]
    assert check(score(ctx, "guangdong", baozimo_small=True)).payments.tolist() == [96, 0, -96, 0]
    # a concealed hand cannot have a liable seat
    with pytest.raises(ValueError, match="包"):
        score(tsumo("123m456m789p222s55s", "5s", liable=1), "guangdong")


# ---------------------------------------------------------------------------------------------
# minimum to win, shapes, errors
def test_min_fan_option():
    ctx = ron("123m456m789p222s55s", "5s")  # 鸡胡, 0 番
    assert check(score(ctx, "guangdong")).legal
    s = check(score(ctx, "guangdong", min_fan=1))
    assert not s.legal and "鸡胡" in s.reason and s.payments.tolist() == [0, 0, 0, 0]
    assert can_win(ctx, "guangdong", min_fan=1) is False
    # 鸡胡 + 自摸 = 1 番 is enough: 2 each
    s = check(score(tsumo("123m456m789p222s55s", "5s"), "guangdong", min_fan=1))
    assert s.legal and s.payments.tolist() == [6, -2, -2, -2]
    assert can_win(ron("123m456m789p234s55s", "5s"), "guangdong", min_fan=1) is True


def test_shapes_and_errors():
    # 七对 is not a winning shape (GD-A2)
    with pytest.raises(ValueError, match="not complete"):
        score(ron("1133m5577p99p22s44s", "4s"), "guangdong")
    assert can_win(ron("1133m5577p99p22s44s", "4s"), "guangdong") is False
    # 九莲宝灯 needs a concealed hand (GD-A1): with a melded 111m it is 清一色 4
    h = Hand("23455678999m", melds=["111m@left"])
    assert score(ron(h, "5m"), "guangdong").rows[0][0] == "qingyise"
    assert score(ron("11123455678999m", "5m"), "guangdong").rows[0][0] == "jiulian"
    with pytest.raises(ValueError, match="unknown option"):
        score(ron("123m456m789p234s55s", "5s"), "guangdong", stake=2)
    with pytest.raises(ValueError, match="flowers"):
        score(ron(Hand("123m456m789p234s55s", bonus="F1"), "5s"), "guangdong")


def test_highest_reading():
    # 111222333m 789p 55p: 碰碰胡? no (789p is a chow).  Readings 111 222 333 (鸡胡 0) and
    # 123 ×3 (平胡 1): the higher, 平胡 -> 2
    s = score(ron("111222333m789p55p", "5p"), "guangdong")
    assert (s.total, s.rows[0][0]) == (1, "pinghu")
    assert [k for k, _f, _c in s.decomposition.sets] == ["chow"] * 4


def test_base_keyword():
    # base 5: 清一色 4 番 -> 5 × 16 = 80
    assert score(ron("123m456m789m234m55m", "5m"), "guangdong", base=5).points == 80


def test_helpers():
    # 包先不包后: A(0)→B(1) first, later C(2)→D(3): only A is bound (GD-C3)
    assert GD.liable_seat([(0, 1), (2, 3)], 1) == 0
    assert GD.liable_seat([(0, 1), (2, 3)], 3) is None
    assert GD.liable_seat([(0, 1), (2, 3)], 3, bao_scope="per_discarder") == 2
    # the same discarder twice: only his first binds, under either scope
    assert GD.liable_seat([(0, 1), (0, 2)], 2, bao_scope="per_discarder") is None
    assert GD.next_dealer(1, [1, 2]) == 1 and GD.next_dealer(1, [3]) == 2
    assert GD.next_dealer(3, []) == 3 and GD.next_dealer(3, [], draw="pass") == 0
    with pytest.raises(ValueError):
        GD.next_dealer(0, [], draw="never")


# ---------------------------------------------------------------------------------------------
# random complete hands: payments always sum to zero, can_win agrees with Score.legal
def test_random_hands_zero_sum():
    rng = np.random.default_rng(11)
    n_legal = 0
    for ctx in random_contexts(rng, rule_kinds("guangdong"), 300, chow_melds=True):
        s = score(ctx, "guangdong")
        assert int(s.payments.sum()) == 0 and can_win(ctx, "guangdong") == s.legal
        if s.legal:
            n_legal += 1
            assert s.points == 2**s.total and s.payments[ctx.winner] > 0
        else:
            assert s.points == 0 and not s.payments.any()
    assert n_legal == 300
