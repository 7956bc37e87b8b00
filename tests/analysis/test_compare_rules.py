"""compare_rules / stack_games / base_stake: seeds, one-unit stakes, zero-sum, errors."""

import numpy as np
import pandas as pd
import pytest

import mjfast as mj
from mjfast.analysis.payout import PAY_COLUMNS, base_stake, stack_games
from mjfast.simulation.games import simulate_games

N = 48  # games per rule: enough for distinct statistics, small enough to stay fast
COLUMNS = [
    "label",
    "rule",
    "options",
    "base_stake",
    "role",
    "statistic",
    "value",
    "se",
    "ci_low",
    "ci_high",
    "n",
    "unit",
]
#: the same for simulated tables, which say which players produced them
SIMULATED = COLUMNS[:4] + ["policy"] + COLUMNS[4:]
TWO = ["sichuan", "guobiao"]  # sichuan has kong payments and draw settlements; guobiao 8 + 番


@pytest.fixture(scope="module")
def compared():
    return mj.compare_rules(TWO, n=N, rng=11, n_threads=1)


def _stat(s, label, role, statistic):
    row = s[(s.label == label) & (s.role == role) & (s.statistic == statistic)]
    assert len(row) == 1
    return row.iloc[0]


# ---------------------------------------------------------------------------------- stakes
def test_base_stakes_from_the_rules_texts():
    # hand computations from the rules files, not from the code under test:
    # 四川 平胡 1 番 = base 6 (sichuan.md §5); 国标 无番和 8 番, the discarder pays 8 + 8 (guobiao.md §2);
    # 广东 鸡胡 0 番 = 2^0, 平胡 1 番 = 2^1 when 鸡胡 is barred; 苏州 底 5 + 3 花 self-draw minimum
    # (2 花 under threshold 2_3) at 5 silver per 花; 太仓 (1 + 2 花) × 5 silver; 贵阳 平胡 1 个;
    # 瑞金/上饶 底 1 + 放炮 1 for the discarder; 金华 平胡 2X; JJ 1 番 × base 10 × 1.0 on a discard.
    expected = {
        "sichuan": 6,
        "guobiao": 16,
        "guangdong": 1,
        "suzhou": 40,
        "taicang": 15,
        "guiyang": 1,
        "ruijin": 2,
        "shangrao": 2,
        "jinhua": 2,
        "jj": 10,
    }
    assert {r: base_stake(r) for r in mj.rules.names()} == expected
    assert base_stake("guangdong", min_fan=1) == 2
    assert base_stake("suzhou", threshold="2_3") == 35
    # the modules that hold the numbers agree
    assert base_stake("sichuan") == mj.scoring.sichuan.BASE
    assert base_stake("guobiao") == 2 * mj.scoring.guobiao.MIN_FAN


def test_base_stake_defined_under_every_option():
    for name in mj.rules.names():
        for key, values in mj.rules.get(name).option_choices.items():
            for value in values:
                if name == "suzhou" and key == "flower_faces" and value == "dabaiban":
                    continue  # valid only with the 152-tile set, which is the default: checked below
                stake = base_stake(name, **{key: value})
                assert isinstance(stake, int) and stake > 0, (name, key, value)
    assert base_stake("suzhou", flower_faces="dabaiban") == base_stake("suzhou")
    with pytest.raises(ValueError, match="unknown rule"):
        base_stake("tokyo")


def test_normalisation_on_a_synthetic_table():
    # sichuan (stake 6): g0 seat 1 wins 平胡 on seat 2's discard (6); g1 the dealer self-draws 2 番
    # (12 from each); g2 seat 3 self-draws 6 番 (6 × 2^5 = 192 from each).  guobiao (stake 16):
    # seat 3 wins 无番和 on seat 1's discard: seat 1 pays 8 + 8, the others 8 each.
    sc = pd.DataFrame(
        {
            "dealer": [0, 0, 0],
            "winners": ["1", "0", "3"],
            "how": ["discard", "self_draw", "self_draw"],
            "discarder": [2, -1, -1],
            "pay_0": [0, 36, -192],
            "pay_1": [6, -12, -192],
            "pay_2": [-6, -12, -192],
            "pay_3": [0, -12, 576],
        }
    )
    gb = pd.DataFrame(
        {
            "dealer": [0],
            "winners": ["3"],
            "how": ["discard"],
            "discarder": [1],
            "pay_0": [-8],
            "pay_1": [-16],
            "pay_2": [-8],
            "pay_3": [32],
        }
    )
    s = mj.compare_rules({"sichuan": sc, "guobiao": gb})
    assert list(s.columns) == COLUMNS
    assert s.label.unique().tolist() == ["sichuan", "guobiao"]  # the order given
    assert set(zip(s.label, s.base_stake)) == {("sichuan", 6), ("guobiao", 16)}
    sc_all = np.array([0, 1, -1, 0, 6, -2, -2, -2, -32, -32, -32, 96], float)
    assert _stat(s, "sichuan", "all", "std").value == pytest.approx(sc_all.std(ddof=1))
    assert _stat(s, "sichuan", "all", "q05").value == pytest.approx(np.quantile(sc_all, 0.05))
    assert _stat(s, "sichuan", "dealer", "mean").value == pytest.approx((0 + 6 - 32) / 3)
    assert _stat(s, "sichuan", "winner", "mean").value == pytest.approx((1 + 6 + 96) / 3)
    assert _stat(s, "sichuan", "discarder", "mean").value == -1
    assert _stat(s, "sichuan", "all", "p_lose_gt_10x").value == pytest.approx(3 / 12)
    # dealer edge per game: 0 - 0, 6 - (-2), -32 - (-32 - 32 + 96) / 3
    assert _stat(s, "sichuan", "all", "dealer_edge").value == pytest.approx((0 + 8 + (-32 - 32 / 3)) / 3)
    assert _stat(s, "guobiao", "dealer", "mean").value == -0.5
    assert _stat(s, "guobiao", "discarder", "mean").value == -1
    assert _stat(s, "guobiao", "winner", "mean").value == 2
    # the input tables are not modified
    assert "base" not in sc.columns and sc.pay_3.tolist() == [0, -12, 576]


def test_dict_labels_take_attrs_and_options():
    t = simulate_games("sichuan", 8, rng=1, n_threads=1, max_fan=6)
    st = stack_games({"capped": t})
    assert st.label.unique().tolist() == ["capped"] and st.rule.unique().tolist() == ["sichuan"]
    assert st.options.unique().tolist() == ["max_fan=6"]
    assert st["base"].unique().tolist() == [6]
    assert st[PAY_COLUMNS].equals(t[PAY_COLUMNS])


# ----------------------------------------------------------------------------------- seeds
def test_same_seed_same_output(compared):
    again = mj.compare_rules(TWO, n=N, rng=11, n_threads=1)
    pd.testing.assert_frame_equal(compared, again)
    other = mj.compare_rules(TWO, n=N, rng=12, n_threads=1)
    assert not compared["value"].equals(other["value"])


def test_executor_gives_the_same_output(compared):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as ex:
        pd.testing.assert_frame_equal(compared, mj.compare_rules(TWO, n=N, rng=11, executor=ex))


def test_each_rule_plays_the_seed_it_would_alone(compared):
    for rule in TWO:
        alone = mj.payout_summary(stack_games({rule: simulate_games(rule, N, rng=11, n_threads=1)}), by="label")
        mine = compared[compared.label == rule].reset_index(drop=True)
        np.testing.assert_array_equal(mine["value"].to_numpy(), alone["value"].to_numpy())


def test_options_of_one_rule_share_the_deals():
    # a Generator is advanced once: both option sets must see the same deals, so every statistic
    # that does not depend on the fan cap (who wins, draw games) is equal
    ss = np.random.SeedSequence(5)
    s = mj.compare_rules([("sichuan", {}), ("sichuan", {"max_fan": 6})], n=N, rng=np.random.default_rng(5), n_threads=1)
    assert s.label.unique().tolist() == ["sichuan", "sichuan(max_fan=6)"]
    for role, stat in [
        ("all", "win_rate"),
        ("dealer", "win_rate"),
        ("all", "draw_game_rate"),
        ("all", "self_draw_share"),
    ]:
        assert _stat(s, "sichuan", role, stat).value == _stat(s, "sichuan(max_fan=6)", role, stat).value
    # a SeedSequence is a seed: not consumed, and equal to its integer
    a = mj.compare_rules(["sichuan"], n=N, rng=ss, n_threads=1)
    assert ss.n_children_spawned == 0
    pd.testing.assert_frame_equal(a, mj.compare_rules("sichuan", n=N, rng=5, n_threads=1))


def test_zero_sum_per_game():
    tables = {r: simulate_games(r, N, rng=3, n_threads=1) for r in TWO}
    st = stack_games(tables)
    stakes = st[PAY_COLUMNS].to_numpy(float) / st["base"].to_numpy(float)[:, None]
    assert np.abs(stakes.sum(axis=1)).max() < 1e-12
    assert np.abs(stakes).max() > 0  # something was paid
    s = mj.compare_rules(tables)
    assert (s[(s.role == "all") & (s.statistic == "mean")].value.abs() < 1e-12).all()


def test_default_is_every_supported_rule(monkeypatch):
    # read at call time, so the default grows with the engine; in SUPPORTED's order
    monkeypatch.setattr(mj.simulation.games, "SUPPORTED", ("guobiao", "sichuan"))
    s = mj.compare_rules(n=8, rng=0, n_threads=1)
    assert s.label.unique().tolist() == ["guobiao", "sichuan"]


def test_columns_and_by(compared):
    assert list(compared.columns) == SIMULATED
    assert set(compared.policy) == {"Value()"} and compared.attrs["policy"] == "Value()"
    assert compared.label.unique().tolist() == TWO
    assert compared.options.unique().tolist() == [""]
    assert set(compared.role) == {"all", "dealer", "non_dealer", "winner", "discarder"}
    assert set(compared.statistic) == {
        "mean",
        "std",
        "q05",
        "q25",
        "q50",
        "q75",
        "q95",
        "q99",
        "p_lose_gt_10x",
        "win_rate",
        "self_draw_share",
        "draw_game_rate",
        "dealer_edge",
    }
    t = simulate_games("sichuan", N, rng=2, n_threads=1)
    t["policy"] = np.where(t.game % 2 == 0, "even", "odd")
    s = mj.compare_rules({"sichuan": t}, by="policy")
    assert list(s.columns) == SIMULATED  # a table's own policy column replaces its attrs'
    assert set(s.policy) == {"even", "odd"} and "policy" not in s.attrs


# ------------------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize(
    "rules, match",
    [
        ("tokyo", "does not support rule 'tokyo'"),
        ([], "empty"),
        (["sichuan", "sichuan"], "given twice"),
        ([("sichuan",)], "cannot read rule spec"),
        ([("sichuan", {"bogus": 1})], "bogus"),
        ([("sichuan", {"xuezhan": "maybe"})], "xuezhan"),
        (42, "rules must be"),
    ],
)
def test_bad_rule_specs(rules, match):
    with pytest.raises(ValueError, match=match):
        mj.compare_rules(rules, n=4, rng=0)


def test_unsupported_rule_named(monkeypatch):
    monkeypatch.setattr(mj.simulation.games, "SUPPORTED", ("sichuan",))
    with pytest.raises(ValueError, match="does not support rule 'guobiao' yet; supported rules: sichuan"):
        mj.compare_rules(["sichuan", "guobiao"], n=4)


@pytest.mark.parametrize("n", [0, -3, 2.5, True, "10"])
def test_bad_n(n):
    with pytest.raises(ValueError, match="n must be a positive integer"):
        mj.compare_rules("sichuan", n=n)


def test_old_sample_size_names_are_deprecated():
    new = mj.compare_rules("sichuan", n=8, rng=0, n_threads=1)
    with pytest.warns(DeprecationWarning, match=r"compare_rules\(n_games=...\) is deprecated"):
        old = mj.compare_rules("sichuan", n_games=8, rng=0, n_threads=1)
    pd.testing.assert_frame_equal(old, new)
    with pytest.raises(ValueError, match="give the sample size once"):
        mj.compare_rules("sichuan", 8, n_games=8)
    games = simulate_games("sichuan", 8, rng=0, n_threads=1)
    for fn in (simulate_games, lambda *a, **k: next(mj.iter_games(*a, **k))):
        with pytest.warns(DeprecationWarning, match=r"(simulate|iter)_games\(n_games=...\) is deprecated"):
            pd.testing.assert_frame_equal(fn("sichuan", n_games=8, rng=0, n_threads=1), games)
        with pytest.raises(ValueError, match="give the sample size once"):
            fn("sichuan", 8, n_games=8)
    assert simulate_games("sichuan", n=8, rng=0, n_threads=1).equals(games)


def test_bad_tables_and_by():
    t = pd.DataFrame(
        {
            "dealer": [0],
            "winners": ["1"],
            "how": ["discard"],
            "discarder": [2],
            "pay_0": [0],
            "pay_1": [6],
            "pay_2": [-6],
            "pay_3": [0],
        }
    )
    with pytest.raises(ValueError, match="only apply when compare_rules simulates"):
        mj.compare_rules({"sichuan": t}, rng=0)
    with pytest.raises(ValueError, match="only apply when compare_rules simulates"):
        mj.compare_rules({"sichuan": t}, n=10)
    with pytest.raises(ValueError, match="cannot tell which rule"):
        mj.compare_rules({"mystery": t})
    with pytest.raises(ValueError, match="must be a games DataFrame"):
        mj.compare_rules({"sichuan": t.to_dict()})
    with pytest.raises(ValueError, match="already has a 'base' column"):
        mj.compare_rules({"sichuan": t.assign(base=1)})
    with pytest.raises(ValueError, match="mixes rules"):
        mj.compare_rules({"x": pd.concat([t.assign(rule="sichuan"), t.assign(rule="guobiao")])})
    with pytest.raises(ValueError, match="do not sum to zero"):
        mj.compare_rules({"sichuan": t.assign(pay_0=1)})
    with pytest.raises(ValueError, match="reserved"):
        mj.compare_rules({"sichuan": t}, by="role")
    with pytest.raises(ValueError, match="no column 'strategy'"):
        mj.compare_rules({"sichuan": t}, by="strategy")
    with pytest.raises(ValueError, match="labels must be non-empty strings"):
        stack_games({0: t})
    with pytest.raises(ValueError, match="dict"):
        stack_games([t])


# ------------------------------------------------------------------------ which players
def test_the_policy_that_played_is_named_in_every_summary():
    never = mj.policies.Efficiency(call="never")
    s = mj.compare_rules(["sichuan", "guangdong"], n=N, rng=3, n_threads=1, policy=never)
    assert set(s.policy) == {"Efficiency(call='never')"} and s.attrs["policy"] == "Efficiency(call='never')"
    # tables of different players: one policy per label, none for the whole summary
    a = simulate_games("sichuan", N, rng=4, n_threads=1)
    b = simulate_games("sichuan", N, rng=4, n_threads=1, policy=never)
    s = mj.compare_rules({"default": a, "closed": b})
    assert dict(zip(s.label, s.policy)) == {"default": "Value()", "closed": "Efficiency(call='never')"}
    assert "policy" not in s.attrs
    # a table that does not say keeps its rows, under policy ""
    quiet = b.copy()
    quiet.attrs = {"rule": "sichuan"}
    st = stack_games({"default": a, "quiet": quiet})
    assert st.groupby("label", sort=False)["policy"].unique().map(list).to_dict() == {
        "default": ["Value()"],
        "quiet": [""],
    }
    s = mj.compare_rules({"default": a, "quiet": quiet})
    assert _stat(s, "quiet", "all", "mean").n == 4 * N


def test_payout_summary_names_the_rule_and_the_players_of_a_simulated_table():
    never = mj.policies.Efficiency(call="never")
    t = simulate_games("guangdong", N, rng=5, n_threads=1, policy=never)
    s = mj.payout_summary(t)
    assert list(s.columns[:2]) == ["rule", "policy"]
    assert set(s.rule) == {"guangdong"} and set(s.policy) == {"Efficiency(call='never')"}
    assert s.attrs["policy"] == "Efficiency(call='never')"
    m = mj.simulate_matches("guangdong", 6, hands=2, rng=5, n_threads=1, policy=never)
    s = mj.payout_summary(m)
    assert set(s.policy) == {"Efficiency(call='never')"} and set(s.rule) == {"guangdong"}
    # a hand-made table says neither: no policy column, rule "all"
    bare = pd.DataFrame(t[["dealer", "winners", "how", "discarder", *PAY_COLUMNS]])
    bare.attrs = {}
    s = mj.payout_summary(bare, unit="points")
    assert "policy" not in s.columns and set(s.rule) == {"all"} and "policy" not in s.attrs


def test_a_missing_group_key_is_a_group_not_dropped_rows():
    t = simulate_games("sichuan", N, rng=6, n_threads=1)
    t["seat_style"] = np.where(t.game < N // 2, "calm", None)
    s = mj.payout_summary(t, by="seat_style")
    means = s[(s.role == "all") & (s.statistic == "mean")]
    assert means["n"].sum() == 4 * N and len(means) == 2


def test_streamed_batches_name_their_players():
    from mjfast.simulation.games import iter_games

    never = mj.policies.Efficiency(call="never")
    for batch in iter_games("sichuan", 1500, rng=7, n_threads=1, batch_games=1024, policy=never):
        assert batch.attrs["policy"] == "Efficiency(call='never')"
    for batch in mj.iter_matches("sichuan", 10, hands=2, rng=7, n_threads=1, policy=never):
        assert batch.attrs["policy"] == "Efficiency(call='never')"
