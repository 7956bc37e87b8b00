"""Units never change silently: payout_summary, compare_rules, plot_payouts and the CLI summary give the
same numbers in the same unit on the same games, and say which unit it is."""

import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import mjfast as mj  # noqa: E402
from mjfast.__main__ import main  # noqa: E402
from mjfast.analysis.payout import PAY_COLUMNS, base_stake  # noqa: E402

N, SEED = 300, 5
PAYMENT = ["mean", "std", "q05", "q25", "q50", "q75", "q95", "q99", "dealer_edge"]


@pytest.fixture(scope="module")
def games():
    return mj.simulate_games("sichuan", N, rng=SEED, n_threads=1)


def _values(summary):
    """(role, statistic) -> (value, unit), the statistics every route reports."""
    return {(r.role, r.statistic): (r.value, r.unit) for r in summary.itertuples()}


def _cli(capsys, *extra):
    code = main(
        [
            "simulate",
            "--rule",
            "sichuan",
            "--games",
            str(N),
            "--seed",
            str(SEED),
            "--threads",
            "1",
            "--no-progress",
            "--json",
            *extra,
        ]
    )
    assert code == 0
    return pd.DataFrame(json.loads(capsys.readouterr().out))


@pytest.mark.parametrize("unit", ["stakes", "points"])
def test_one_unit_everywhere(games, capsys, unit):
    routes = {
        "payout_summary(attrs)": mj.payout_summary(games, unit=unit),
        "payout_summary(rule column)": mj.payout_summary(games.assign(rule="sichuan"), unit=unit),
        "compare_rules(simulated)": mj.compare_rules(["sichuan"], N, rng=SEED, n_threads=1, unit=unit),
        "compare_rules(tables)": mj.compare_rules({"sichuan": games}, unit=unit),
        "cli": _cli(capsys, "--unit", unit),
    }
    reference = _values(routes["payout_summary(attrs)"])
    assert {u for (_role, stat), (_v, u) in reference.items() if stat in PAYMENT} == {unit}
    assert {u for (_role, stat), (_v, u) in reference.items() if stat not in PAYMENT} == {"proportion"}
    for name, summary in routes.items():
        got = _values(summary)
        assert set(got) == set(reference), name
        for key, (value, u) in reference.items():
            assert got[key][1] == u, (name, key)
            # (the CLI's JSON keeps 10 decimal places)
            assert got[key][0] == pytest.approx(value, rel=1e-9, abs=5e-11), (name, key)
    for name in ("payout_summary(attrs)", "compare_rules(tables)"):
        assert routes[name].attrs["unit"] == unit
    # the plot draws the same results, and its axis names the unit
    fig, ax = plt.subplots()
    mj.plot_payouts(games, ax=ax, labels="en", unit=unit)
    assert ax.get_xlabel() == f"result per game ({unit})"
    x = ax.lines[0].get_xdata()
    stake = base_stake("sichuan") if unit == "stakes" else 1
    expected = np.sort(games[PAY_COLUMNS].to_numpy(float).ravel() / stake)
    np.testing.assert_allclose(x, expected)
    assert np.quantile(x, 0.5) == pytest.approx(reference[("all", "q50")][0])
    fig2, ax2 = plt.subplots()
    mj.plot_payouts({"sichuan": games}, ax=ax2, labels="en", unit=unit, kind="tail")
    assert ax2.get_xlabel() == f"loss per game x ({unit})"
    plt.close(fig)
    plt.close(fig2)


def test_points_are_stakes_times_the_stake(games):
    stakes = _values(mj.payout_summary(games))
    points = _values(mj.payout_summary(games, unit="points"))
    stake = base_stake("sichuan")
    for key, (value, unit) in stakes.items():
        if key[1] in PAYMENT:
            assert points[key][0] == pytest.approx(value * stake)
        else:  # proportions, p_lose_gt_10x included: the threshold is in stakes
            assert points[key] == (value, unit)
    loss = games[PAY_COLUMNS].to_numpy(float).ravel()
    assert stakes[("all", "p_lose_gt_10x")][0] == pytest.approx((loss < -10 * stake).mean())


def test_cli_summary_says_its_unit(capsys):
    assert main(["simulate", "--rule", "四川", "--games", "200", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "200 games of sichuan" in out
    assert "payments in stakes: one stake = 6 points" in out and "10 stakes" in out
    header = next(line for line in out.splitlines() if line.startswith("rule")).split()
    assert header[-2:] == ["n", "unit"] and "ci_high" in header
    assert (
        main(
            [
                "simulate",
                "--rule",
                "sichuan",
                "--games",
                "200",
                "--seed",
                "1",
                "--no-progress",
                "--unit",
                "points",
                "-o",
                "max_fan=6",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "200 games of sichuan(max_fan=6)" in out and "payments in points (one stake = 6 points)" in out
