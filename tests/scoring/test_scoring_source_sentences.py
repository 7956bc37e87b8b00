"""Scorer cases taken sentence by sentence from the Chinese source pages (``shared/seeds``): each
test quotes the sentence it checks, builds the hand the sentence describes and checks the
scorer reads it as written (the defaults), with the other reading behind its named option."""

import numpy as np
import pytest
from _hands import check_invariants

from mjfast import Hand
from mjfast.scoring import WinContext, can_win, score


def rows(s):
    check_invariants(s)
    return {r[0]: r[3] for r in s.rows}


# ---------------------------------------------------------------------------------------------
# 太仓 对对胡
def test_taicang_all_pungs_needs_every_set_a_pung():
    """太仓 对对胡: "除了头子是一对以外另外的四铺都是三个头" — all four sets, the called ones
    included, are triplets; a hand with a chowed meld is not 对对胡."""
    conc = "111p999s222z55s"
    chowed = Hand(conc, melds=["234m@left"], bonus="F1F2")
    s = score(WinContext(chowed, win_tile="5s", self_draw=True), "taicang")
    assert "all_pungs" not in rows(s)
    # (1 底花 + 2 flowers + 风暗刻 1) = 4 花, no factor
    assert s.total == 4 and s.legal
    # the same concealed tiles with a called pung instead: 对对胡 ×2 → (1 + 2 + 1) × 2 = 8 花
    punged = Hand(conc, melds=["444m@left"], bonus="F1F2")
    s = score(WinContext(punged, win_tile="5s", self_draw=True), "taicang")
    assert rows(s)["all_pungs"] == 2 and s.total == 8
    # a called kong is a set of three heads too
    konged = Hand(conc, melds=["4444m@right"], bonus="F1F2")
    s = score(WinContext(konged, win_tile="5s", self_draw=True), "taicang")
    assert rows(s)["all_pungs"] == 2


def test_taicang_all_pungs_with_chows_in_random_hands(seed):
    """No scored 太仓 hand that holds a chow, concealed or called, has 对对胡; every hand whose
    sets are all pungs or kongs has it (4 sets + pair readings, wildcards aside)."""
    from mjfast import Meld

    rng = np.random.default_rng(seed + 7)
    kinds = list(range(27)) + [27, 28, 29, 30]
    seen = {True: 0, False: 0}
    for _ in range(300):
        counts = np.zeros(34, int)
        melds, chow = [], False
        for _k in range(4):
            t = int(rng.choice(kinds))
            if t < 27 and t % 9 <= 6 and rng.random() < 0.4:
                chow = True
                if rng.random() < 0.5:
                    counts[t : t + 3] += 1
                else:
                    melds.append(Meld("chow", (t, t + 1, t + 2), source="left", claimed=t))
            elif rng.random() < 0.5:
                melds.append(Meld("pung", (t,) * 3, source="right", claimed=t))
            else:
                counts[t] += 3
        pair = int(rng.choice(kinds))
        counts[pair] += 2
        total = counts.copy()
        for m in melds:
            for x in m.tiles:
                total[x] += 1
        if total.max() > 4:
            continue
        h = Hand(counts.astype(np.uint8), melds=melds, bonus="F1F2F3")
        win = int(rng.choice(np.flatnonzero(counts)))
        s = score(WinContext(h, win_tile=win, self_draw=True), "taicang")
        got = "all_pungs" in rows(s)
        if chow:
            # a hand with a chow may still read as all pungs (111222333m): only called chows
            # rule it out for sure
            if any(m.kind == "chow" for m in melds):
                assert not got, h
        else:
            assert got, h
        seen[got] += 1
    assert seen[True] > 20 and seen[False] > 20, seen


# ---------------------------------------------------------------------------------------------
# 苏州 / 太仓 风杠: three identical winds in the hand after the win
SZ_WINDS = Hand("444z55m", melds=["111z@right", "+2222z@left", "[3333z]"])
TC_WINDS = Hand("222z567s99s", melds=["111z@left", "234s@left"], bonus="F1")


def test_suzhou_wind_triplet_completed_by_the_discard():
    """苏州 风杠: "风杠：胡牌后手上有3张相同的风算2个花" — the winds counted are those in the hand
    after the win, so a triplet the winning discard completed is a 风暗刻 (2), not a 风碰."""
    ctx = WinContext(SZ_WINDS, win_tile="4z", discarder=3)
    s = score(ctx, "suzhou")
    got = rows(s)
    # 底 5 + 风碰 1 (111z) + 风暗刻 2 (444z) + 风明杠 3 + 风暗杠 4 + 混一色 5 + 对对胡 5 = 25
    assert got["wind_concealed_pung"] == 2 and got["wind_pung"] == 1
    assert (s.total, s.points, s.payments.tolist()) == (25, 125, [125, 0, 0, -125])
    # the same as a self-draw of the 4z
    assert score(WinContext(SZ_WINDS, win_tile="4z", self_draw=True), "suzhou").total == 25
    # the former reading stays an option: 风碰 (1) → 24
    s = score(ctx, "suzhou", discard_wind_triplet="pung")
    assert rows(s)["wind_pung"] == 2 and "wind_concealed_pung" not in rows(s) and s.total == 24


def test_suzhou_wind_triplet_decides_the_minimum():
    """The 风暗刻 of the winning discard counts towards "三花自摸四花冲": 2 + 2 hard flowers make
    the 4 花 of a discard win; read as a 风碰 (1) they make 3 and the hand cannot win."""
    h = Hand("123m456p222z55s", melds=["999s@left"], bonus="F1F2")
    ctx = WinContext(h, win_tile="2z", discarder=1)
    assert score(ctx, "suzhou").legal and can_win(ctx, "suzhou")
    assert not score(ctx, "suzhou", discard_wind_triplet="pung").legal
    assert not can_win(ctx, "suzhou", discard_wind_triplet="pung")


def test_taicang_wind_triplet_completed_by_the_discard():
    """太仓 风杠: "风杠：胡牌后手上有3张相同的风算1个花" — three identical winds in the hand after the
    win are a 风杠 (+1), the triplet the winning discard completed included."""
    ctx = WinContext(TC_WINDS, win_tile="2z", discarder=1)
    s = score(ctx, "taicang")
    # F = flower 1 + 风杠 1 = 2 < 3: still below the discard minimum (not 门清)
    assert rows(s)["wind_concealed_pung"] == 1 and not s.legal
    assert s.reason.startswith("2 花")
    s = score(ctx, "taicang", threshold_exempt="suzhou_list")  # 混一色 exempt: (1 + 2) × 2 = 6
    assert s.legal and s.total == 6 and s.payments.tolist() == [30, -30, 0, 0]
    # with two flowers the 风杠 makes F = 3, the discard minimum: (1 + 3) × 2 (混一色) = 8 花
    h = Hand("222z567s99s", melds=["111z@left", "234s@left"], bonus="F1F2")
    ctx = WinContext(h, win_tile="2z", discarder=1)
    s = score(ctx, "taicang")
    assert s.legal and s.total == 8 and can_win(ctx, "taicang")
    # read as a 风碰 (0) the hand has F = 2 and cannot win on the discard
    assert not can_win(ctx, "taicang", discard_wind_triplet="pung")
    s = score(ctx, "taicang", discard_wind_triplet="pung", threshold_exempt="suzhou_list")
    assert rows(s)["wind_pung"] == 0 and "wind_concealed_pung" not in rows(s) and s.total == 6


# ---------------------------------------------------------------------------------------------
# 金华 and JJ: the hands their tables can deal (as 太仓 checks them)
def _raises(ctx, rule, match, **kw):
    """Both score and can_win reject ``ctx`` with a ValueError matching ``match``."""
    with pytest.raises(ValueError, match=match):
        score(ctx, rule, **kw)
    with pytest.raises(ValueError, match=match):
        can_win(ctx, rule, **kw)


@pytest.mark.parametrize("rule", ["jinhua", "jj"])
@pytest.mark.parametrize("source", ["opposite", "right"])
def test_chow_only_from_the_left(rule, source):
    """金华 / JJ: "吃 | only from 上家" (jinhua.md §3, jj.md "吃: only from 上家"): a chow called
    from 对家 or 下家 is no hand of the game."""
    h = Hand("456p789s123s55z", melds=[f"234m@{source}"])
    ctx = WinContext(h, win_tile="5z", self_draw=True, winner=0)
    _raises(ctx, rule, "上家")
    ok = WinContext(Hand("456p789s123s55z", melds=["234m@left"]), win_tile="5z", self_draw=True)
    assert score(ok, rule).total > 0


def test_jinhua_three_caishen():
    """金华: "财神有三个" — a hand holds at most three 财神."""
    ctx = WinContext(Hand("123m456p789s5p", wilds=4), win_tile="5p", self_draw=True)
    _raises(ctx, "jinhua", "财神有三个")
    ctx = WinContext(Hand("123m456p789s5p", wilds=4), win_tile="5p", self_draw=True, flipped="9s")
    _raises(ctx, "jinhua", "3 财神")
    three = WinContext(Hand("123m456p789s55p", wilds=3), win_tile="5p", self_draw=True)
    assert score(three, "jinhua").legal


def test_jinhua_caishen_tiles_are_not_natural_tiles():
    """金华: the flipped kind is the 财神 ("财神有三个": its other three tiles, JH-A1); only the 白板
    plays as its face ("白板可以代替财神"), and when the 财神 is 白板 itself nothing does (JH-A4):
    a natural 白板 in hand or in a meld is then a wildcard entered as an ordinary tile."""
    h = Hand("123m456p789s234s5z", wilds=1)
    _raises(WinContext(h, win_tile="5z", self_draw=True, flipped="5z"), "jinhua", "5z is this hand's 财神")
    h = Hand("123m456p789s5p", wilds=1, melds=["555z@left"])
    _raises(WinContext(h, win_tile="5p", self_draw=True, flipped="5z"), "jinhua", "财神")
    # another 财神 kind: the 白板 play as it (and count as its face), no error
    h = Hand("13m456p789s234s55p5z", wilds=0)
    assert score(WinContext(h, win_tile="5p", self_draw=True, flipped="2m"), "jinhua").legal


def test_jj_four_hun():
    """JJ: four 混 (the 联众 混杠 is "a kong of the four 混"); under ``hun="flip_self"`` the flipped
    tile is one of them, so three are left."""
    ctx = WinContext(Hand("123m456p789s", wilds=5), win_tile="5p", self_draw=True)
    _raises(ctx, "jj", "JJ has 4 混")
    h = Hand("123m456p789s5p", wilds=4)
    assert can_win(WinContext(h, win_tile="5p", self_draw=True), "jj")
    ctx = WinContext(h, win_tile="5p", self_draw=True, flipped="9m")
    _raises(ctx, "jj", "JJ has 3 混", hun="flip_self")
    # a 混杠 holds four 混: no wildcard is left beside it
    h = Hand("123m456p789s5p", wilds=1, melds=["[1111z]"])
    _raises(WinContext(h, win_tile="5p", self_draw=True), "jj", "混杠", hun_kind="1z")


def test_jj_hun_tiles_are_not_natural_tiles():
    """JJ: "混可以代替任意牌…不可吃碰" — the 混 kind's tiles are wildcards, never in a 碰 or 吃 and
    never natural tiles of the concealed hand; only the 混杠 holds them as a meld."""
    h = Hand("123m456p789s23s1z5p", wilds=1)
    _raises(WinContext(h, win_tile="5p", self_draw=True), "jj", "1z is this hand's 混", hun_kind="1z")
    h = Hand("123m456p789s5p", wilds=1, melds=["111z@right"])
    _raises(WinContext(h, win_tile="5p", self_draw=True), "jj", "不可吃碰", hun_kind="1z")
    # chosen by a flipped tile: 9m flipped → 1m is the 混 (flip_successor)
    h = Hand("123m456p789s23s55p", wilds=1)
    _raises(
        WinContext(h, win_tile="5p", self_draw=True, flipped="9m"), "jj", "1m is this hand's 混", hun="flip_successor"
    )
    assert can_win(WinContext(h, win_tile="5p", self_draw=True, flipped="8m"), "jj", hun="flip_successor")
    # a 混杠 is the four 混 themselves: scored, 88 番 added
    h = Hand("123m456p789s55p", melds=["[1111z]"])
    assert score(WinContext(h, win_tile="5p", self_draw=True), "jj", hun_kind="1z").total >= 88


# ---------------------------------------------------------------------------------------------
# 国标 四杠 with concealed kongs
def test_guobiao_four_kongs_with_concealed_kongs():
    """国标 四杠: "4个杠，暗杠加计" (one version of the fan list) — with ``sigang_angang=True`` each
    concealed kong also scores 暗杠 (2 番); by default 四杠 excludes every kong fan, as the
    reference calculator does (the concealed kongs count towards 双/三/四暗刻 only)."""
    h = Hand("55p", melds=["[1111m]", "[2222s]", "3333p@left", "[4444z]"])
    ctx = WinContext(h, win_tile="5p", self_draw=True)
    base = score(ctx, "guobiao")
    assert "concealed_kong" not in rows(base) and rows(base)["four_kongs"] == 88
    s = score(ctx, "guobiao", sigang_angang=True)
    got = rows(s)
    assert got["concealed_kong"] == 2 * 3 and s.total == base.total + 6
    assert {k: v for k, v in got.items() if k != "concealed_kong"} == rows(base)
    assert s.payments.tolist() == [3 * (8 + s.total)] + [-(8 + s.total)] * 3
    # no concealed kong: nothing changes
    h = Hand("55p", melds=["1111m@left", "2222s@right", "3333p@left", "4444z@opposite"])
    ctx = WinContext(h, win_tile="5p", discarder=1)
    assert score(ctx, "guobiao", sigang_angang=True).rows == score(ctx, "guobiao").rows
    # three kongs (三杠) are not 四杠: the option does not apply
    h = Hand("55p666s", melds=["[1111m]", "[2222s]", "3333p@left"])
    ctx = WinContext(h, win_tile="5p", self_draw=True)
    assert score(ctx, "guobiao", sigang_angang=True).rows == score(ctx, "guobiao").rows


def test_jj_flipped_indicator_is_out_of_play():
    """JJ ``hun="flip_successor"``: the flipped tile is turned up, out of play, so no hand holds
    all four of its kind (as 太仓 checks its indicator)."""
    h = Hand("111m1m456p789s23s5p", wilds=1)
    ctx = WinContext(h, win_tile="5p", self_draw=True, flipped="1m")
    _raises(ctx, "jj", "indicator", hun="flip_successor")
    _raises(ctx, "taicang", "indicator")
