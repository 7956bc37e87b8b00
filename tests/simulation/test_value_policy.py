"""The value players (mjfast.policies.Value): the kernel's rating against its pure-Python twin,
the pattern values, and games played by Value() seats keeping every invariant of the engine."""

import pickle

import numpy as np
import pytest

import mjfast as mj
from mjfast import policies as P
from mjfast._kernels import _game as kg
from mjfast._reference import policy as ref
from mjfast.policies import Efficiency, Value

STANDARD_AND_PAIRS = 3  # form bits: standard | seven pairs


def _values(rng):
    v = rng.uniform(0.5, 20.0, size=(len(P.PATTERNS), 4))
    v[5:7] = 0.0  # the knitted forms are not forms of this test rule
    return v


def _random_hand(rng, n=14):
    wall = np.repeat(np.arange(34), 4)
    c = np.zeros(34, np.uint8)
    for k in rng.choice(wall, n, replace=False):
        c[k] += 1
    return c


def test_the_rating_equals_its_python_twin_on_random_hands():
    rng = np.random.default_rng(20261202)
    checked = 0
    for _ in range(25):
        c = _random_hand(rng)
        values = _values(rng)
        draws = float(rng.integers(2, 20))
        got = kg.value_ratings(c, 0, STANDARD_AND_PAIRS, 0, values, draws)
        want = ref.ratings(c, values, draws)
        assert [g if g is None else g[0] for g in got] == [w if w is None else w[0] for w in want]
        for g, w in zip(got, want):
            if g is not None and g[1] is not None:
                assert g[1] == pytest.approx(w[1], rel=1e-9, abs=1e-12)
                checked += 1
    assert checked > 120


def test_the_rating_of_nearly_complete_flushes_favours_the_flush():
    # 1112345678m 9m 1p 5s: the 清一色 wait is two discards away; the value player gives up the
    # off-suit tiles first when a 清一色 is worth far more than a plain win
    c = np.zeros(34, np.uint8)
    for k in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 22, 31):
        c[k] += 1
    flat = np.zeros((len(P.PATTERNS), 4))
    flat[0] = 1.0
    rich = flat.copy()
    rich[1] = 30.0
    for values in (flat, rich):
        got = kg.value_ratings(c, 0, STANDARD_AND_PAIRS, 0, values, 12.0)
        want = ref.ratings(c, values, 12.0)
        assert [g[1] if g and g[1] is not None else None for g in got] == pytest.approx(
            [w[1] if w and w[1] is not None else None for w in want]
        )
    rated = kg.value_ratings(c, 0, STANDARD_AND_PAIRS, 0, rich, 12.0)
    best = max((r[1], -k) for k, r in enumerate(rated) if r and r[1] is not None)
    assert -best[1] in (9, 22, 31)  # an off-suit tile (1p, 5s or 发)


def test_reach_is_a_probability_and_grows_with_the_draws():
    for need in range(1, 8):
        last = 0.0
        for draws in range(0, 30, 3):
            p = ref.reach(need, 20, 100, 0.6, 3.0, draws)
            assert 0.0 <= p <= 1.0 and p >= last
            last = p


def test_pattern_values_come_from_the_scorer():
    t = P.pattern_values("guiyang")
    assert list(t.columns) == ["concealed_self_draw", "concealed_discard", "open_self_draw", "open_discard"]
    assert t.attrs["unit"] == "stakes"
    # 贵阳: a 平胡 is never won on a discard (GY: 平胡 只能自摸), a 清一色 is
    assert t.loc["plain", "concealed_discard"] == 0.0 < t.loc["flush", "concealed_discard"]
    g = P.pattern_values("guobiao")
    # 国标's 8-番 minimum: most plain hands are not legal, every 清一色 is
    assert g.loc["flush", "concealed_discard"] > 3 * g.loc["plain", "concealed_discard"] > 0
    assert (g.loc[["seven_pairs", "honours_knitted"], ["open_self_draw", "open_discard"]] == 0).all().all()
    assert P.pattern_values("guobiao").equals(g)  # fixed seeds: the same table every time
    # 国标's chow patterns (花龙 and 三色三同顺 alone are 8 番): every hand legal, worth more than a
    # plain one; no other rule scores them, where they are no target (value 0)
    for pattern in P.CHOW_PATTERNS:
        assert (g.loc[pattern] > g.loc["plain"]).all()
        assert (P.pattern_values("sichuan").loc[pattern] == 0).all()


def test_pattern_values_follow_the_flowers_held():
    def plain(rule, flowers, column):
        return P.pattern_values(rule, flowers=flowers).loc["plain", column]

    # 苏州 SZ-C6: 4 花 beyond the base to win on a discard ("硬花4花冲"; a concealed hand is exempt):
    # an open hand holding 2 needs two more from its wind sets; with no 花 at all it is 大门清
    assert plain("suzhou", 4, "open_discard") > 2 * plain("suzhou", 2, "open_discard")
    assert plain("suzhou", 0, "open_discard") > plain("suzhou", 2, "open_discard")
    # 太仓: from one flower on, every flower adds to the 花 the winner is paid; an open hand
    # holding none never wins on a discard
    rising = [plain("taicang", f, "concealed_self_draw") for f in range(1, 8)]
    assert all(b > a for a, b in zip(rising, rising[1:]))
    assert plain("taicang", 0, "open_discard") == 0.0 < plain("taicang", 3, "open_discard")
    rows = P._flower_values(mj.rules.get("suzhou"))
    assert rows.shape == (kg.FLOWER_ROWS, len(P.PATTERNS), 4)
    for f in (0, 3, kg.FLOWER_ROWS - 1):
        np.testing.assert_array_equal(rows[f], P.pattern_values("suzhou", flowers=f).to_numpy())
    assert P._flower_values(mj.rules.get("sichuan")) is None  # no flowers: one table
    assert P._flower_values(mj.rules.get("taicang")) is None  # the average played stronger there
    for bad in (-1, 29, 1.5, True, "2"):
        with pytest.raises(ValueError, match="flowers must be a whole number of flowers from 0 to 28"):
            P.pattern_values("suzhou", flowers=bad)


def test_a_value_seat_rates_by_the_flowers_it_holds(monkeypatch):
    from mjfast.simulation import games as G

    rule = mj.rules.get("suzhou")
    shipped = mj.simulate_games(rule, 300, rng=8, n_threads=1, policy=Value())
    # every row the average table: the games of a player that ignores its flowers
    flat = np.stack([P._pattern_values(rule)] * kg.FLOWER_ROWS)
    monkeypatch.setitem(P._FLOWER_VALUES, rule, flat)
    as_flat = mj.simulate_games(rule, 300, rng=8, n_threads=1, policy=Value())
    monkeypatch.setattr(P, "_flower_values", lambda rule_obj: None)
    average = mj.simulate_games(rule, 300, rng=8, n_threads=1, policy=Value())
    pd_testing = pytest.importorskip("pandas").testing
    pd_testing.assert_frame_equal(as_flat, average)
    assert not shipped["winning_hand"].equals(average["winning_hand"])
    # the kernel checks the rows it is given
    game = G._Game(rule, seats=(Value(),) * 4)
    monkeypatch.setattr(P, "_flower_values", lambda rule_obj: np.zeros((kg.FLOWER_ROWS + 1, len(P.PATTERNS), 4)))
    with pytest.raises(ValueError, match="flower_values needs finite floats"):
        G._raw(game, [np.random.PCG64(1)], np.array([1]), 1)


def _tiles(text):
    return np.bincount(mj.tiles.parse_tiles(text), minlength=34).astype(np.uint8)


def test_the_five_gates_rating_equals_its_python_twin():
    # 五门齐 alone worth anything but a plain win: where it is the best target the kernel's need
    # (per group, the pair's group the least) and 进张 must be the twin's (over every complete hand)
    rng = np.random.default_rng(20261207)
    values = np.zeros((len(P.PATTERNS), 4))
    values[0] = 1.0
    values[P.PATTERNS.index("five_gates")] = 12.0
    plain_only = values.copy()
    plain_only[P.PATTERNS.index("five_gates")] = 0.0
    aimed = 0
    for _ in range(30):
        # hands rich in honours, so that the five groups are within reach
        kinds = np.concatenate([rng.choice(27, 9, replace=False), rng.choice(np.arange(27, 34), 5)])
        c = np.bincount(kinds, minlength=34).astype(np.uint8)
        got = kg.value_ratings(c, 0, STANDARD_AND_PAIRS, 0, values, 14.0)
        want = ref.ratings(c, values, 14.0)
        plain = kg.value_ratings(c, 0, STANDARD_AND_PAIRS, 0, plain_only, 14.0)
        for g, w, p in zip(got, want, plain):
            assert (g is None) == (w is None)
            if g is not None and g[1] is not None:
                assert g[1] == pytest.approx(w[1], rel=1e-9, abs=1e-12)
                aimed += g[1] > p[1] + 1e-12
    assert aimed > 50  # discards where 五门齐 was the best target


def test_a_melded_set_fills_its_five_gates_group():
    # 111z melded (a wind): after 9m, 123m 456p 789s 5z wait on 5z for the dragons' pair
    values = np.zeros((len(P.PATTERNS), 4))
    values[P.PATTERNS.index("five_gates")] = 12.0
    hand = _tiles("123m456p789s5z9m")

    def rating(gates):
        got = kg.value_ratings(
            hand,
            1,
            STANDARD_AND_PAIRS,
            0,
            values,
            12.0,
            melded=8,
            open_=True,
            meld_gates=gates,
            visible=_tiles("111z"),
        )
        return got[8][1]  # 9m

    filled = rating(1 << 3)
    assert filled > rating(0) > 0  # without the meld the winds still need a set
    assert rating(1 << 3 | 32) < 1e-6  # two melds in one group: no 五门齐 (the tie term alone)


def test_a_melded_chow_counts_as_the_chow_of_a_chow_pattern():
    # 456p 789s 11z 5m 9m 2z with 123m melded, or the same hand with 123m concealed: the 花龙 needs
    # the same tiles, so with only 花龙 worth anything (open / concealed) the ratings agree (the
    # melded tiles seen, as the concealed ones are not unseen)
    values = np.zeros((len(P.PATTERNS), 4))
    i = P.PATTERNS.index("mixed_straight")
    values[i] = 5.0
    melded = kg.value_ratings(
        _tiles("456p789s11z59m2z"),
        1,
        STANDARD_AND_PAIRS,
        0,
        values,
        12.0,
        melded=1,
        chowed=True,
        open_=True,
        meld_chows=1 << 0,
        visible=_tiles("123m"),
    )
    concealed = kg.value_ratings(_tiles("123m456p789s11z59m2z"), 0, STANDARD_AND_PAIRS, 0, values, 12.0)
    two_z = 28
    assert melded[two_z][1] == pytest.approx(concealed[two_z][1], rel=1e-12) and melded[two_z][1] > 0
    # a melded chow that is no chow of the pattern is the hand's other set: here 234m, with two
    # chows still to make out of 456p 789s 11z 59m, needs more and rates lower
    other = kg.value_ratings(
        _tiles("456p789s11z59m2z"),
        1,
        STANDARD_AND_PAIRS,
        0,
        values,
        12.0,
        melded=1,
        chowed=True,
        open_=True,
        meld_chows=1 << 1,
        visible=_tiles("234m"),
    )
    assert 0 <= other[two_z][1] < melded[two_z][1]


def test_value_is_a_plain_picklable_policy():
    v = Value()
    assert pickle.loads(pickle.dumps(v)) == v
    assert repr(v) == "Value()" and repr(Value(defend=False)) == "Value(defend=False)"
    assert P.resolve("value") == (v,) * 4
    with pytest.raises(ValueError, match="defend must be True or False"):
        Value(defend=1)


def test_the_kernel_refuses_value_seats_without_pattern_values():
    from mjfast.simulation import games as G

    game = G._Game(mj.rules.get("sichuan"), seats=(Value(),) * 4)
    P._VALUES[game.rule] = np.zeros((len(P.PATTERNS), 3))
    try:
        with pytest.raises(ValueError, match="pattern_values"):
            G._raw(game, [np.random.PCG64(1)], np.array([1]), 1)
    finally:
        del P._VALUES[game.rule]


@pytest.mark.parametrize("rule", ["sichuan", "guobiao", "ruijin", "suzhou"])
def test_value_games_keep_the_invariants(rule):
    n = 40 if rule == "guobiao" else 150
    df = mj.simulate_games(rule, n, rng=11, n_threads=2, policy=Value())
    pay = df[["pay_0", "pay_1", "pay_2", "pay_3"]].to_numpy()
    assert (pay.sum(axis=1) == 0).all()
    assert df.attrs["policy"] == "Value()"
    won = df[df["how"] != "draw_game"]
    assert len(won) > n // 2
    # the same games for any thread count
    again = mj.simulate_games(rule, n, rng=11, n_threads=1, policy=Value())
    assert df.equals(again)


def test_value_and_efficiency_seats_play_the_same_walls_differently():
    mixed = mj.simulate_games("guangdong", 200, rng=5, n_threads=1, policy=[Value(), Efficiency()] * 2)
    plain = mj.simulate_games("guangdong", 200, rng=5, n_threads=1, policy=Efficiency())
    assert mixed.attrs["policy"] == "[Value(), Efficiency(), Value(), Efficiency()]"
    assert not mixed["winning_hand"].equals(plain["winning_hand"])


@pytest.mark.parametrize("rule, element", [("shangrao", "baodiaotou"), ("ruijin", "fei")])
def test_value_players_wait_on_the_lone_wildcard(rule, element):
    # 上饶 宝吊头 / 瑞金 飞 need a declined complete hand, which Efficiency() never declines
    pattern = rf"(?:^|,){element}(?:,|$)"
    df = mj.simulate_games(rule, 600, rng=2, n_threads=2, policy=Value())
    eff = mj.simulate_games(rule, 600, rng=2, n_threads=2, policy=Efficiency())
    assert (
        df["elements"].astype(str).str.contains(pattern).sum() > eff["elements"].astype(str).str.contains(pattern).sum()
    )
