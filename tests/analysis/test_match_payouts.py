"""Payout analysis of whole matches: match tables are summarised per match and player."""

import dataclasses

import numpy as np
import pytest

import mjfast as mj
from mjfast.analysis.payout import is_match_table, match_results, payout_summary, stack_games


@pytest.fixture(scope="module")
def matches():
    return mj.simulate_matches("sichuan", 40, hands=6, rng=1, n_threads=2)


def test_match_results_are_the_players_totals(matches):
    assert is_match_table(matches) and not is_match_table(mj.simulate_games("sichuan", 5, rng=0, n_threads=1))
    per = match_results(matches)
    assert len(per) == 40 and (per["hands"] == 6).all()
    pays = per[["pay_0", "pay_1", "pay_2", "pay_3"]].to_numpy()
    assert (pays.sum(axis=1) == 0).all()
    summary = mj.match_summary(matches)
    assert pays.reshape(-1).tolist() == summary["total"].tolist()
    tops = summary[summary["rank"] == 1].groupby("match")["player"].apply(lambda p: ",".join(map(str, p)))
    assert per["winners"].tolist() == tops.tolist()


def test_payout_summary_of_a_match_table(matches):
    s = payout_summary(matches, unit="points").set_index(["role", "statistic"])
    assert s.loc[("all", "mean"), "n"] == 160  # 40 matches x 4 players
    assert abs(s.loc[("all", "mean"), "value"]) < 1e-12  # zero-sum
    assert s.loc[("dealer", "mean"), "n"] == 40  # the player who dealt first
    assert s.loc[("all", "hands_per_match"), "value"] == 6
    assert ("all", "draw_game_rate") not in s.index
    per = match_results(matches)
    totals = per[["pay_0", "pay_1", "pay_2", "pay_3"]].to_numpy(float).reshape(-1)
    assert np.isclose(s.loc[("all", "std"), "value"], totals.std(ddof=1))
    assert 0.25 <= s.loc[("all", "win_rate"), "value"] <= 0.5  # finishing on top (ties share it)


def test_compare_rules_on_matches_and_a_rule_object():
    """compare_rules simulates matches (statistics per match, in one-unit stakes) and takes a Rule as
    it is, e.g. one whose engine facts differ from the registered rule of its name."""
    base = mj.rules.get("sichuan")
    other = dataclasses.replace(base, engine=dataclasses.replace(base.engine, kong_discard=False))
    s = mj.compare_rules(
        ["guangdong", ("guangdong", {"draw": "pass"})], n=12, matches=True, hands=4, rng=3, n_threads=1
    )
    assert s["label"].unique().tolist() == ["guangdong", "guangdong(draw='pass')"]
    assert (s.query("statistic == 'hands_per_match'")["value"] == 4).all()
    assert (s.query("role == 'all' and statistic == 'mean'")["n"] == 48).all()
    t = mj.compare_rules([base], n=1100, rng=4, n_threads=2)
    u = mj.compare_rules([other], n=1100, rng=4, n_threads=2)
    assert not np.allclose(t["value"].to_numpy(), u["value"].to_numpy())
    stacked = stack_games({"m": mj.simulate_matches("guangdong", 3, hands=2, rng=0, n_threads=1)})
    assert is_match_table(stacked) and (stacked["base"] == 1).all()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_games": 10, "n_matches": 2}, "not both"),
        ({"hands": 4}, "pass matches=True too"),
        ({"n": 0, "matches": True}, r"\bn must be a positive integer \(matches per rule\)"),
        ({"matches": True}, "how many matches"),
    ],
)
def test_compare_rules_bad_match_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        mj.compare_rules(["sichuan"], rng=0, n_threads=1, **kwargs)


def test_plot_payouts_of_matches(matches):
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    fig = plt.figure()
    ax = mj.plot_payouts(matches, ax=fig.gca(), labels="en")
    assert "per match" in ax.get_xlabel()
    assert len(ax.lines[0].get_xdata()) == 160
    plt.close(fig)
