"""payout_summary / element_frequencies on synthetic games tables with known answers."""
import numpy as np
import pandas as pd
import pytest

import mjfast as mj


def _games():
    # rule A: 4 games, dealer 0.  g0 dealer self-draws 2 each (+6); g1 seat 2 wins 5 on seat 1's
    # discard; g2 draw game; g3 seat 3 self-draws 1 each.  rule B: 2 games, base 2.
    return pd.DataFrame({
        "rule":      ["A", "A", "A", "A", "B", "B"],
        "base":      [1, 1, 1, 1, 2, 2],
        "dealer":    [0, 0, 0, 0, 1, 1],
        "winners":   [[0], [2], [], [3], "1", "0,2"],
        "how":       ["self_draw", "discard", "draw_game", "self_draw", "self_draw", "discard"],
        "discarder": [None, 1, None, None, None, 3],
        "pay_0":     [6, 0, 0, -1, -4, 4],
        "pay_1":     [-2, -5, 0, -1, 12, 0],
        "pay_2":     [-2, 5, 0, -1, -4, 4],
        "pay_3":     [-2, 0, 0, 3, -4, -8],
        "elements":  ["menqing,zimo", "pinghu", "", "zimo", "qingyise,zimo", "pinghu,menqing"],
    })


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


def test_quantiles_ordered_and_tails():
    rng = np.random.default_rng(0)
    n = 500
    pay = rng.integers(-30, 30, size=(n, 3))
    games = pd.DataFrame({"dealer": rng.integers(0, 4, n), "winners": [[0]] * n, "how": ["discard"] * n,
                          "discarder": [1] * n, "pay_0": -pay.sum(1), "pay_1": pay[:, 0],
                          "pay_2": pay[:, 1], "pay_3": pay[:, 2]})
    s = mj.payout_summary(games)
    for role in ("all", "dealer", "non_dealer"):
        q = [_stat(s, "all", role, f"q{p:02d}").value for p in (5, 25, 50, 75, 95, 99)]
        assert q == sorted(q)
    x = games[["pay_1", "pay_2", "pay_3"]].to_numpy().ravel()
    x = np.concatenate([games["pay_0"].to_numpy(), x])
    assert _stat(s, "all", "all", "p_lose_gt_10x").value == pytest.approx((x < -10).mean())


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


def test_element_frequencies():
    f = mj.element_frequencies(_games())
    a = f[f.rule == "A"].set_index("element")
    # rule A: 3 won games; zimo in 2, menqing 1, pinghu 1
    assert a.loc["zimo", "count"] == 2 and a.loc["zimo", "frequency"] == pytest.approx(2 / 3)
    assert a.loc["menqing", "games_won"] == 3
    assert list(f[f.rule == "A"].element)[0] == "zimo"  # sorted by frequency
    b = f[f.rule == "B"].set_index("element")
    assert b.loc["menqing", "frequency"] == 0.5 and b.loc["zimo", "se"] == pytest.approx(0.5 / np.sqrt(2))
