"""payout_summary / element_frequencies on synthetic games tables with known answers."""

import numpy as np
import pandas as pd
import pytest

import mjfast as mj


def _games():
    # rule A: 4 games, dealer 0.  g0 dealer self-draws 2 each (+6); g1 seat 2 wins 5 on seat 1's
    # discard; g2 draw game; g3 seat 3 self-draws 1 each.  rule B: 2 games, base 2.
    return pd.DataFrame(
        {
            "rule": ["A", "A", "A", "A", "B", "B"],
            "base": [1, 1, 1, 1, 2, 2],
            "dealer": [0, 0, 0, 0, 1, 1],
            "winners": [[0], [2], [], [3], "1", "0,2"],
            "how": ["self_draw", "discard", "draw_game", "self_draw", "self_draw", "discard"],
            "discarder": [None, 1, None, None, None, 3],
            "pay_0": [6, 0, 0, -1, -4, 4],
            "pay_1": [-2, -5, 0, -1, 12, 0],
            "pay_2": [-2, 5, 0, -1, -4, 4],
            "pay_3": [-2, 0, 0, 3, -4, -8],
            "elements": ["menqing,zimo", "pinghu", "", "zimo", "qingyise,zimo", "pinghu,menqing"],
        }
    )


def _stat(s, rule, role, stat):
    row = s[(s.rule == rule) & (s.role == role) & (s.statistic == stat)]
    assert len(row) == 1
    return row.iloc[0]


def test_known_answers():
    s = mj.payout_summary(_games())
    # rule A, all 16 seat-games: results 6,-2,-2,-2, 0,-5,5,0, 0,0,0,0, -1,-1,-1,3
    a = np.array([6, -2, -2, -2, 0, -5, 5, 0, 0, 0, 0, 0, -1, -1, -1, 3], float)
    assert _stat(s, "A", "all", "mean").value == 0.0
    assert _stat(s, "A", "all", "std").value == pytest.approx(a.std(ddof=1))
    assert _stat(s, "A", "all", "mean").se == pytest.approx(a.std(ddof=1) / 4)
    assert _stat(s, "A", "all", "q50").value == np.quantile(a, 0.5)
    # dealer (seat 0): 6, 0, 0, -1 → mean 1.25; win rate 1/4
    assert _stat(s, "A", "dealer", "mean").value == 1.25
    assert _stat(s, "A", "dealer", "win_rate").value == 0.25
    assert _stat(s, "A", "winner", "mean").value == pytest.approx((6 + 5 + 3) / 3)
    assert _stat(s, "A", "discarder", "mean").value == -5
    # 3 won games, 2 self-draws; 1 draw game of 4
    assert _stat(s, "A", "all", "self_draw_share").value == pytest.approx(2 / 3)
    assert _stat(s, "A", "all", "draw_game_rate").value == 0.25
    assert _stat(s, "A", "all", "draw_game_rate").se == pytest.approx(np.sqrt(0.25 * 0.75 / 4))
    # dealer edge per game: 6-(-2)=8, 0-0=0, 0, -1-(1/3)=-4/3 → mean 6.6667/4
    assert _stat(s, "A", "all", "dealer_edge").value == pytest.approx((8 + 0 + 0 - 4 / 3) / 4)
    # rule B in base units (base 2): the dealer (seat 1) won 12 → +6, then 0
    assert _stat(s, "B", "dealer", "mean").value == 3.0
    assert _stat(s, "B", "winner", "win_rate").value == 1.0
    assert _stat(s, "B", "all", "p_lose_gt_10x").value == 0.0
    # zero-sum: the mean over all seats is 0 for every rule
    assert (s[(s.role == "all") & (s.statistic == "mean")].value.abs() < 1e-12).all()
    # every row states its unit: payments in stakes (the base column), the rest proportions
    assert s.attrs["unit"] == "stakes"
    payment = s.statistic.isin(["mean", "std", "q05", "q25", "q50", "q75", "q95", "q99", "dealer_edge"])
    assert (s.unit[payment] == "stakes").all() and (s.unit[~payment] == "proportion").all()
    # unit="points" ignores the base: rule B's dealer won 12 points
    pts = mj.payout_summary(_games(), unit="points")
    assert _stat(pts, "B", "dealer", "mean").value == 6.0 and _stat(pts, "B", "dealer", "mean").unit == "points"


def test_quantiles_ordered_and_tails():
    rng = np.random.default_rng(0)
    n = 500
    pay = rng.integers(-30, 30, size=(n, 3))
    games = pd.DataFrame(
        {
            "dealer": rng.integers(0, 4, n),
            "winners": [[0]] * n,
            "how": ["discard"] * n,
            "discarder": [1] * n,
            "pay_0": -pay.sum(1),
            "pay_1": pay[:, 0],
            "pay_2": pay[:, 1],
            "pay_3": pay[:, 2],
        }
    )
    s = mj.payout_summary(games, unit="points")
    for role in ("all", "dealer", "non_dealer"):
        q = [_stat(s, "all", role, f"q{p:02d}").value for p in (5, 25, 50, 75, 95, 99)]
        assert q == sorted(q)
    # without a stake the threshold (in stakes) cannot be drawn: no p_lose_gt_10x in points
    assert "p_lose_gt_10x" not in set(s.statistic)
    x = games[["pay_0", "pay_1", "pay_2", "pay_3"]].to_numpy().ravel()
    # 四川's stake is 6 points: losing more than ten stakes is losing more than 60 points, in either unit
    for unit in ("points", "stakes"):
        s = mj.payout_summary(games.assign(rule="sichuan"), unit=unit)
        assert _stat(s, "sichuan", "all", "p_lose_gt_10x").value == pytest.approx((x < -60).mean())
        assert _stat(s, "sichuan", "all", "p_lose_gt_10x").unit == "proportion"
    stakes = mj.payout_summary(games.assign(rule="sichuan"))
    assert _stat(stakes, "sichuan", "all", "q05").value == pytest.approx(np.quantile(x / 6, 0.05))


def test_by_groups_and_errors():
    g = _games()
    g["policy"] = ["x", "y", "x", "y", "x", "y"]
    s = mj.payout_summary(g, by="policy")
    assert set(zip(s.rule, s.policy)) == {("A", "x"), ("A", "y"), ("B", "x"), ("B", "y")}
    bad = g.copy()
    bad.loc[0, "pay_0"] = 7
    with pytest.raises(ValueError, match="do not sum to zero"):
        mj.payout_summary(bad)
    with pytest.raises(ValueError, match="lacks column"):
        mj.payout_summary(g.drop(columns=["how"]))
    with pytest.raises(ValueError, match="no column 'nope'"):
        mj.payout_summary(g, by="nope")


@pytest.mark.parametrize(
    "column, value",
    [
        ("dealer", np.nan),
        ("dealer", 4),
        ("dealer", 1.5),
        ("dealer", "x"),
        ("winners", "5"),
        ("winners", -1),
        ("winners", "x"),
        ("discarder", 10**18),
        ("discarder", "x"),
        ("pay_0", np.nan),
        ("pay_1", None),
    ],
)
def test_a_column_holding_what_it_cannot_is_refused_by_name(column, value):
    # a NaN dealer used to be cast to an integer without a word and the table summarised
    import matplotlib

    matplotlib.use("Agg")
    bad = _games()
    bad[column] = bad[column].astype(object)
    bad.loc[2, column] = value
    for call in (mj.payout_summary, mj.plot_payouts):
        with pytest.raises(ValueError, match=rf"games column '{column}' must hold .*; row 2 holds"):
            call(bad)
    import matplotlib.pyplot as plt

    plt.close("all")


def test_each_spelling_of_nobody_and_of_the_winners_is_accepted():
    # _games() has None for no discarder and winners as lists and as strings
    g = _games()
    g["discarder"] = [-1 if d is None else d for d in g["discarder"]]
    g["winners"] = [",".join(map(str, w)) if isinstance(w, list) else w for w in g["winners"]]
    pd.testing.assert_frame_equal(mj.payout_summary(g), mj.payout_summary(_games()))


def test_element_frequencies():
    f = mj.element_frequencies(_games())
    a = f[f.rule == "A"].set_index("element")
    # rule A: 3 won games; zimo in 2, menqing 1, pinghu 1
    assert a.loc["zimo", "count"] == 2 and a.loc["zimo", "frequency"] == pytest.approx(2 / 3)
    assert a.loc["menqing", "games_won"] == 3
    assert list(f[f.rule == "A"].element)[0] == "zimo"  # sorted by frequency
    b = f[f.rule == "B"].set_index("element")
    assert b.loc["menqing", "frequency"] == 0.5 and b.loc["zimo", "se"] == pytest.approx(0.5 / np.sqrt(2))


def test_units_are_explicit():
    g = _games().drop(columns=["base", "rule"])
    with pytest.raises(ValueError, match="unit='stakes' needs each game's one-unit stake.*unit='points'"):
        mj.payout_summary(g)
    with pytest.raises(ValueError, match="unit must be 'stakes'.*or 'points'"):
        mj.payout_summary(g, unit="fan")
    # a rule column names the stake: 苏州 40 points (底 5 + 3 花 at 5 per 花), by its Chinese name too
    a = mj.payout_summary(g.assign(rule="suzhou"))
    b = mj.payout_summary(g.assign(rule="苏州"))
    pts = mj.payout_summary(g.assign(rule="suzhou"), unit="points")
    mean = lambda s, role: s[(s.role == role) & (s.statistic == "mean")].value.item()  # noqa: E731
    assert mean(a, "dealer") == mean(b, "dealer") == pytest.approx(mean(pts, "dealer") / 40)
    # attrs, as simulate_games sets them, with the options that move the stake
    g.attrs = {"rule": "suzhou", "options": {"threshold": "2_3"}}
    assert mean(mj.payout_summary(g), "dealer") == pytest.approx(mean(pts, "dealer") / 35)


def test_quantile_errors_never_zero_on_discrete_results():
    from mjfast.analysis.payout import _quantile_se

    rng = np.random.default_rng(3)
    # a discrete payout: mostly 0, some -1/-2, rare wins; every quantile sits on a repeated value
    x = rng.choice([-2, -1, 0, 0, 0, 0, 3, 6], size=20_000).astype(float)
    for q in (0.05, 0.25, 0.5, 0.75, 0.95, 0.99):
        se = _quantile_se(x, q)
        assert 0 < se < 3, (q, se)
    # distinct values: the usual order-statistic interval (ranks n(q ± z s) + 1/2)
    y = rng.normal(size=4001)
    z = 1.959963984540054
    s = np.sqrt(0.5 * 0.5 / len(y))
    lo, hi = np.sort(y)[[round(len(y) * (0.5 - z * s) - 0.5), round(len(y) * (0.5 + z * s) - 0.5)]]
    assert _quantile_se(y, 0.5) == pytest.approx((hi - lo) / (2 * z), rel=0.02)
    # and close to the normal theory 1.2533 / sqrt(n) for the median
    assert _quantile_se(y, 0.5) == pytest.approx(1.2533 / np.sqrt(len(y)), rel=0.1)
    # one value only: no spread to read, so no standard error (not 0)
    assert np.isnan(_quantile_se(np.zeros(50), 0.5))


def test_proportion_of_zero_gets_an_upper_bound():
    s = mj.payout_summary(_games())
    row = _stat(s, "B", "all", "p_lose_gt_10x")  # never seen in 8 seat-games
    z2 = 1.959963984540054**2
    assert row.value == 0 and np.isnan(row.se)
    assert row.ci_low == 0 and row.ci_high == pytest.approx(z2 / (8 + z2))
    # a proportion inside (0, 1): binomial se, Wilson interval around it
    row = _stat(s, "A", "all", "draw_game_rate")  # 1 of 4
    assert row.se == pytest.approx(np.sqrt(0.25 * 0.75 / 4))
    assert row.ci_low < 0.25 < row.ci_high and 0 < row.ci_low
    # payment statistics: value ± 1.96 s.e.
    row = _stat(s, "A", "all", "mean")
    assert (row.ci_low, row.ci_high) == pytest.approx((row.value - 1.96 * row.se, row.value + 1.96 * row.se), rel=1e-3)
    # the quantiles of these small discrete samples still get a positive error
    q = s[s.statistic.str.match(r"q\d\d") & (s.role == "all")]
    assert (q.se > 0).all()


def test_element_frequencies_name_the_elements_in_chinese():
    from mjfast.analysis.payout import stack_games

    sz = mj.simulate_games("suzhou", 150, rng=2, n_threads=1)
    tc = mj.simulate_games("taicang", 150, rng=2, n_threads=1)
    f = mj.element_frequencies(sz)
    assert f.rule.unique().tolist() == ["suzhou"] and f.name_zh.notna().all()
    # the names the 苏州 scorer gives its elements (底 base, 硬花 flowers)
    names = dict(zip(f.element, f.name_zh))
    assert names["base"] == "底" and names["hard_flower"] == "硬花"
    both = mj.element_frequencies(stack_games({"suzhou": sz, "taicang": tc}))
    by_rule = {(r.rule, r.element): r.name_zh for r in both.itertuples()}
    assert by_rule[("suzhou", "base")] == "底" and by_rule[("taicang", "base")] == "底花"  # one code, two names
    assert both.name_zh.notna().all()
    # a table without the attrs (read back from a file, built by hand) has no names to give
    assert mj.element_frequencies(sz.assign(rule="苏州")).name_zh.notna().all()  # the rule by any name
    bare = sz.copy()
    bare.attrs = {}
    assert mj.element_frequencies(bare).name_zh.isna().all()


def test_summary_by_a_column_named_like_a_role():
    """``by="dealer"`` groups by the dealer's seat (found by the full-scale fuzz: the key
    replaced the table's own dealer-role flags and raised KeyError); the roles stay right."""
    g = _games()
    s = mj.payout_summary(g, by="dealer")
    assert list(s.columns[:3]) == ["rule", "dealer", "role"]
    assert sorted(s["dealer"].unique()) == sorted(g["dealer"].unique())
    for d, part in g.groupby("dealer"):
        mean = s[(s.dealer == d) & (s.role == "dealer") & (s.statistic == "mean")]["value"].iloc[0]
        whole = mj.payout_summary(part)
        assert mean == whole[(whole.role == "dealer") & (whole.statistic == "mean")]["value"].iloc[0]
