"""Every plot draws on the Axes it is given and returns it (Agg backend)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from test_payout import _games  # noqa: E402

import mjfast as mj  # noqa: E402


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def test_plot_payouts(ax):
    assert mj.plot_payouts(_games(), ax=ax) is ax
    assert len(ax.lines) == 2 and ax.get_xscale() == "symlog"  # one ECDF per rule
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == ["A", "B"]
    fig, ax2 = plt.subplots()
    assert mj.plot_payouts(_games(), seat_role="dealer", kind="hist", ax=ax2) is ax2
    assert len(ax2.patches) == 2
    plt.close(fig)
    with pytest.raises(ValueError, match="seat_role"):
        mj.plot_payouts(_games(), seat_role="banker", ax=ax)


@pytest.mark.parametrize("role", ["winner", "discarder"])
def test_a_role_nobody_has_is_refused_not_drawn_empty(role):
    draws = _games().iloc[[2]]  # the one draw game: nobody won or dealt in
    before = plt.get_fignums()
    with pytest.raises(ValueError, match=rf"seat_role='{role}': no seat of the games table has that role"):
        mj.plot_payouts(draws, seat_role=role)
    assert plt.get_fignums() == before  # no figure left behind
    assert len(mj.plot_payouts(draws, seat_role="dealer", ax=plt.figure().gca()).lines) == 1
    plt.close("all")


def test_plot_elements(ax):
    freq = mj.element_frequencies(_games())
    assert mj.plot_elements(freq, ax=ax) is ax
    assert len(ax.patches) == 2 * freq.element.nunique()  # a bar per element per rule
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "zimo"


def test_plot_win_curve(ax):
    t = pd.DataFrame(
        {
            "turn": [1, 2, 3],
            "p_ready": [0.1, 0.3, 0.5],
            "se_ready": [0.01] * 3,
            "p_win": [0, 0.05, 0.2],
            "se_win": [0.01] * 3,
        }
    )
    assert mj.plot_win_curve({"pung": t, "pass": t.assign(p_win=t.p_win / 2)}, ax=ax) is ax
    assert len(ax.lines) == 4 and len(ax.collections) == 4
    with pytest.raises(ValueError, match="lacks column"):
        mj.plot_win_curve(t.drop(columns=["se_win"]), ax=ax)


def test_plot_discards(ax):
    df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    assert mj.plot_discards(df, ax=ax) is ax
    assert len(ax.patches) == 2 * len(df)
    assert ax.get_yticklabels()[0].get_text().startswith(mj.plotting.tile_label("9p"))


def test_default_axes_is_current():
    fig = plt.figure()
    ax = mj.plot_discards(mj.analyze_discards("11p34567m45s9p1p", melds=["555z"]))
    assert ax is fig.gca()
    plt.close(fig)


def test_plot_payouts_several_rules_in_stakes(ax):
    # a dict of tables is stacked in one-unit stakes: sichuan 6, guobiao 16; one line per label in
    # the order given
    sc = pd.DataFrame(
        {
            "dealer": [0],
            "winners": ["1"],
            "how": ["discard"],
            "discarder": [2],
            "pay_0": [0],
            "pay_1": [12],
            "pay_2": [-12],
            "pay_3": [0],
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
    assert mj.plot_payouts({"sichuan": sc, "guobiao": gb}, ax=ax, labels="en") is ax
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["sichuan", "guobiao"]
    assert ax.lines[0].get_xdata().tolist() == [-2, 0, 0, 2]
    assert ax.lines[1].get_xdata().tolist() == [-1, -0.5, -0.5, 2]
    fig, ax2 = plt.subplots()
    mj.plot_payouts({"sichuan": sc, "guobiao": gb}, kind="tail", ax=ax2)
    assert ax2.get_xscale() == "log" and ax2.get_yscale() == "log"
    # losses in stakes: sichuan one of 2 among 4 seats; guobiao 0.5, 1, 0.5 among 4
    assert ax2.lines[0].get_xdata().tolist() == [2] and ax2.lines[0].get_ydata().tolist() == [0.25]
    assert ax2.lines[1].get_xdata().tolist() == [0.5, 1] and ax2.lines[1].get_ydata().tolist() == [0.75, 0.25]
    plt.close(fig)
    with pytest.raises(ValueError, match="kind must be"):
        mj.plot_payouts(sc, kind="box", ax=ax)


def test_plot_elements_labels_in_chinese(ax):
    g = mj.simulate_games("sichuan", 200, rng=1, n_threads=1)
    freq = mj.element_frequencies(g)
    mj.plot_elements(freq, ax=ax, labels="en")
    assert [t.get_text() for t in ax.get_yticklabels()] == freq.element.head(15).tolist()
    if not mj.plotting.installed_cjk_fonts():
        pytest.skip("no CJK font installed: Chinese labels fall back to the codes")
    fig, ax2 = plt.subplots()
    mj.plot_elements(freq, ax=ax2, labels="zh")
    assert [t.get_text() for t in ax2.get_yticklabels()] == freq.name_zh.head(15).tolist()
    plt.close(fig)


def test_win_curve_refuses_what_it_cannot_draw():
    """Not a table (found by the full-scale fuzz: ``None`` was an AttributeError), a dict entry
    that is not one, or a ``top`` that is not a positive integer: a clear error, and no figure."""
    bt = mj.expected_value("11p34567m45s9p1p", melds=["555z"], draws_left=4, by_turn=True)
    before = plt.get_fignums()
    for bad in (None, 5, "curve", {"a": None}):
        with pytest.raises(TypeError, match="DataFrame"):
            mj.plot_win_curve(bad)
    for top in (1.5, 0, True):
        with pytest.raises(ValueError, match="top"):
            mj.plot_win_curve(bt, top=top)
    assert plt.get_fignums() == before
    assert len(mj.plot_win_curve(bt, top=2, ax=plt.figure().gca()).lines) == 4
    plt.close("all")


def test_tables_that_are_not_tables_are_refused():
    """plot_elements and plot_discards given something other than a DataFrame (found by the
    unscaled fuzz: AttributeError), or plot_elements a ``top`` that is not a positive integer."""
    before = plt.get_fignums()
    for fn in (mj.plot_elements, mj.plot_discards):
        for bad in (None, "games", np.zeros(34)):
            with pytest.raises(TypeError, match="DataFrame"):
                fn(bad)
    freq = mj.element_frequencies(pd.DataFrame({"how": ["discard"], "elements": ["menqing"]}))
    for top in (0, 2.5, "3"):
        with pytest.raises(ValueError, match="top"):
            mj.plot_elements(freq, top=top)
    assert plt.get_fignums() == before
