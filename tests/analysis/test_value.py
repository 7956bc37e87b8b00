"""mjfast.expected_value: closed forms, legality per rule, properties, errors, integrations.

The brute-force twin comparisons are in test_value_reference.py, agreement with play (the
recursion's own choices on real walls) in test_value_play.py.
"""

from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjfast as mj
from mjfast import rules
from mjfast.analysis import value as V
from mjfast.scoring import WinContext, can_win, score

THIRTEEN = "19m19p19s1234567z"  # the 13-sided 十三幺 wait: 39 copies unseen among 123


def hyper(copies, unseen, draws):
    return 1 - comb(unseen - copies, draws) / comb(unseen, draws)


def geom(copies, unseen, draws):
    return 1 - (1 - copies / unseen) ** draws


# --------------------------------------------------------------------------------- closed forms
@pytest.mark.parametrize("draws", [1, 2, 3, 6, 20])
@pytest.mark.parametrize("wall", ["depleting", "returned"])
def test_thirteen_sided_wait_closed_form(draws, wall):
    df = mj.expected_value(THIRTEEN, draws_left=draws, wall=wall, depth=0, discard_wins=False)
    closed = hyper(39, 123, draws) if wall == "depleting" else geom(39, 123, draws)
    assert abs(float(df["p_win"].iloc[0]) - closed) < 1e-12
    assert float(df["p_ready"].iloc[0]) == 1.0
    bt = mj.expected_value(THIRTEEN, draws_left=draws, wall=wall, depth=0, discard_wins=False, by_turn=True)
    for t, p in zip(bt["turn"], bt["p_win"]):
        c = (hyper(39, 123, t) if wall == "depleting" else geom(39, 123, t)) if t else 0.0
        assert abs(p - c) < 1e-12


@pytest.mark.parametrize("seen, copies", [("", 3), ("2z", 2), ("2z2z", 1)])
@pytest.mark.parametrize("wall", ["depleting", "returned"])
def test_single_wait_closed_form(seen, copies, wall):
    """单钓 on 2z with k copies left (the seen ones in visible), over 20 draws."""
    unseen = 123 - len(seen) // 2
    df = mj.expected_value(
        "123m456p789s111z2z", draws_left=20, wall=wall, depth=0, discard_wins=False, visible=seen or None
    )
    closed = hyper(copies, unseen, 20) if wall == "depleting" else geom(copies, unseen, 20)
    assert abs(float(df["p_win"].iloc[0]) - closed) < 1e-12


def test_closed_form_from_the_14_tile_form():
    """Throwing 5z from the 十三幺 shape + 5z leaves the 13-sided wait (38 copies: one 5z seen)."""
    df = mj.expected_value(THIRTEEN + "5z", draws_left=10, depth=0, discard_wins=False)
    row = df[df["discard"].astype(str) == "5z"].iloc[0]
    assert abs(row["p_win"] - hyper(38, 122, 10)) < 1e-12


def test_closed_form_with_discard_wins():
    """A wait that cannot change, with the opponents' discards: each round of three opponent
    turns offers a copy with probability 1 - (1 - q)^(3 c), each own draw wins with c / S_t."""
    q, c, S, T = 0.01, 39, 123, 12
    alive, p_self, p_disc = 1.0, 0.0, 0.0
    for t in range(T + 1):
        off = 1 - (1 - q) ** (3 * c)
        p_disc += alive * off
        alive *= 1 - off
        if t < T:
            p_self += alive * c / (S - t)
            alive *= 1 - c / (S - t)
    df = mj.expected_value(THIRTEEN, draws_left=T, depth=0, hazard=q)
    assert abs(df["p_win_self_draw"].iloc[0] - p_self) < 1e-12
    assert abs(df["p_win_discard"].iloc[0] - p_disc) < 1e-12
    assert abs(df["p_win"].iloc[0] - (p_self + p_disc)) < 1e-12


# --------------------------------------------------------------------------------- legality
def test_guobiao_wait_under_eight_fan_never_wins_at_depth_0():
    hand = "23489m123456p55z"  # 7m completes it, for less than 8 番
    assert mj.waits(hand, rule="guobiao", legal="shape") and not mj.waits(hand, rule="guobiao")
    df = mj.expected_value(hand, rule="guobiao", depth=0)
    assert float(df["p_win"].iloc[0]) == 0.0 and float(df["ev"].iloc[0]) == 0.0
    assert float(df["p_ready"].iloc[0]) == 1.0
    assert float(mj.expected_value(hand, rule="guobiao", depth=1, draws_left=8)["p_win"].iloc[0]) > 0


def test_suzhou_below_the_discard_minimum():
    """3 花 with a called set: enough for a self-draw (3), not for a discard win (4); every
    other flower seen, so none can lift it."""
    h = mj.Hand("123m456m789p1s", melds=["222s@left"], bonus=["F1", "F2", "F3"])
    seen = "5z5z5z5z6z6z6z6z7z7z7z7z F4 F5 F6 F7 F8 RAT GOD CAT BOWL BD BD BD BD"
    df = mj.expected_value(h, rule="suzhou", visible=seen, draws_left=8)
    assert df.attrs["flowers_unseen"] == 0
    assert float(df["p_win_discard"].iloc[0]) == 0.0
    assert float(df["p_win_self_draw"].iloc[0]) > 0
    # one flower left unseen: drawing it makes 4 花, so discard wins become possible
    df = mj.expected_value(h, rule="suzhou", visible=seen[:-3], draws_left=8)
    assert float(df["p_win_discard"].iloc[0]) > 0
    # 2 花: below both minimums
    h2 = mj.Hand("123m456m789p1s", melds=["222s@left"], bonus=["F1", "F2"])
    df = mj.expected_value(h2, rule="suzhou", visible=seen + " F3", draws_left=8, depth=0)
    assert float(df["p_win"].iloc[0]) == 0.0


def _ready_case(rng, name, n_melds):
    """A random ready 13-tile hand under rule ``name`` (a complete hand minus one tile)."""
    r = rules.get(name)
    kinds = [k for k in range(34) if r.tileset.copies[k]]
    if name == "sichuan":
        kinds = [k for k in kinds if k // 9 in (0, 1)]
    while True:
        counts = np.zeros(34, int)
        sets = []
        for _ in range(4):
            k = int(rng.choice(kinds))
            if r.calls.chow != "none" and k < 27 and k % 9 <= 6 and rng.random() < 0.5 and k + 2 in kinds:
                sets.append((k, k + 1, k + 2))
            else:
                sets.append((k, k, k))
        pair = int(rng.choice(kinds))
        for s in sets:
            for t in s:
                counts[t] += 1
        counts[pair] += 2
        if counts.max() > 4:
            continue
        melds = []
        conc = counts.copy()
        for s in sets[:n_melds]:
            kind = "chow" if s[0] != s[1] else "pung"
            melds.append(mj.Meld(kind, s, source="left", claimed=s[0]))
            for t in s:
                conc[t] -= 1
        held = [k for k in range(34) for _ in range(conc[k])]
        conc[int(rng.choice(held))] -= 1
        bonus = []
        visible = ""
        if r.flowers:
            faces = [c for c, n in r.tileset.bonus.items() if c not in ("5z", "6z", "7z") for _ in range(n)]
            rng.shuffle(faces)
            k = int(rng.integers(0, 6))
            bonus, rest = faces[:k], faces[k:]
            visible = "5z5z5z5z6z6z6z6z7z7z7z7z " + " ".join(rest)
        h = mj.Hand(conc.astype(np.uint8), melds=melds, bonus=bonus)
        if mj.shanten(h, rule=r) == 0:
            return h, visible or None


def _verdict(h, k, rule, self_draw):
    hand = h.with_tile(k)
    if self_draw:
        ctx = WinContext(hand, win_tile=k, self_draw=True, winner=0, dealer=0)
    else:
        ctx = WinContext(hand, win_tile=k, winner=0, dealer=0, discarder=2)
    if not can_win(ctx, rule):
        return None
    return float(score(ctx, rule).payments[0])


@pytest.mark.parametrize("name", rules.names())
def test_each_rules_minimum_decides_the_wins(name):
    """One draw (self-draws only) and no draw (one opponents' round only), against closed forms
    built from the rule's own verdicts on each wait: its minimum, its discard restrictions and
    its payments decide exactly which wins count and what they pay."""
    rng = np.random.default_rng(rules.names().index(name))
    for _ in range(4):
        h, visible = _ready_case(rng, name, int(rng.integers(0, 3)))
        waits = mj.waits(h, rule=name, legal="shape")
        base = V._setup(
            h,
            rule=name,
            draws_left=0,
            visible=visible,
            melds=(),
            wilds=None,
            wild_kind=None,
            wild_copies=None,
            discard_wins=False,
            hazard=None,
            first_turns=3,
            rule_options={},
        )
        S = int(base.unseen.sum())
        copies = {mj.tiles.parse_tile(k): int(base.unseen[mj.tiles.parse_tile(k)]) for k in waits}
        self_pay = {k: _verdict(h, k, name, True) for k in copies}
        disc_pay = {k: _verdict(h, k, name, False) for k in copies}
        df = mj.expected_value(h, rule=name, visible=visible, draws_left=1, depth=0, discard_wins=False)
        p_self = sum(copies[k] for k, v in self_pay.items() if v is not None) / S
        ev_self = sum(copies[k] * v for k, v in self_pay.items() if v is not None) / S
        assert abs(df["p_win_self_draw"].iloc[0] - p_self) < 1e-12
        assert abs(df["ev"].iloc[0] - ev_self) < 1e-9 * max(1, ev_self)
        q = 0.02
        df = mj.expected_value(h, rule=name, visible=visible, draws_left=0, depth=0, hazard=q)
        C = sum(copies[k] for k, v in disc_pay.items() if v is not None)
        p_disc = 1 - (1 - q) ** (3 * C)
        ev_disc = p_disc * sum(copies[k] * v for k, v in disc_pay.items() if v is not None) / C if C else 0.0
        assert abs(df["p_win_discard"].iloc[0] - p_disc) < 1e-12
        assert abs(df["ev"].iloc[0] - ev_disc) < 1e-9 * max(1, ev_disc)


def test_sichuan_needs_a_void_suit():
    """Ready in plain shape but holding three suits: no win in one draw under 缺一门."""
    hand = "123m456p789s1123p"  # 1p / 4p in plain shape, but three suits
    assert mj.waits(hand, legal="shape")
    df = mj.expected_value(hand, rule="sichuan", draws_left=1, discard_wins=False)
    assert float(df["p_win"].iloc[0]) == 0.0


# --------------------------------------------------------------------------------- properties
HANDS14 = ["12455m34567p6777s", "11p34567m45s9p1p555z", "123m456p789s234s5p6m", "1199m2288p3377s4z5z"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=st.sampled_from(HANDS14),
    draws=st.integers(0, 12),
    wall=st.sampled_from(["depleting", "returned"]),
    hazard=st.floats(0, 0.05),
    rule=st.sampled_from([None, "guobiao", "guangdong", "jj"]),
    depth=st.sampled_from([0, 1]),
)
def test_probabilities_in_range_and_monotone_by_turn(hand, draws, wall, hazard, rule, depth):
    bt = mj.expected_value(hand, rule=rule, draws_left=draws, wall=wall, hazard=hazard, depth=depth, by_turn=True)
    summary = bt.attrs["summary"]
    for col in ("p_ready", "p_win", "p_win_self_draw", "p_win_discard"):
        assert ((bt[col] >= -1e-15) & (bt[col] <= 1 + 1e-12)).all()
        assert ((summary[col] >= -1e-15) & (summary[col] <= 1 + 1e-12)).all()
    for _d, part in bt.groupby("discard", observed=True, sort=False):
        for col in ("p_ready", "p_win", "p_win_self_draw", "p_win_discard", "ev"):
            assert (np.diff(part[col].to_numpy()) >= -1e-12).all(), col
    # the last turn of the curve is the summary row
    last = bt.groupby("discard", observed=True).tail(1).set_index("discard")
    row = summary.set_index("discard")
    for col in ("p_ready", "p_win", "ev"):
        assert np.allclose(last[col].sort_index(), row[col].reindex(last.index).sort_index(), rtol=1e-12, atol=1e-14)
    assert np.allclose(summary["p_win"], summary["p_win_self_draw"] + summary["p_win_discard"], atol=1e-15)
    assert (summary["ev"].diff().dropna() <= 1e-12).all()  # best first


def test_probabilities_stay_probabilities_on_long_horizons():
    """The approximate depleting wall never leaves [0, 1], even over every tile left."""
    df = mj.expected_value("12455m34567p6777s", draws_left=100, discard_wins=False)
    assert ((df["p_win"] >= 0) & (df["p_win"] <= 1)).all()
    df = mj.expected_value("12577m222468p445s", draws_left=60, depth=0, hazard=0.05)
    assert (df[["p_ready", "p_win"]] >= 0).all().all() and (df[["p_ready", "p_win"]] <= 1).all().all()


def test_by_turn_turn_zero_is_the_first_round():
    bt = mj.expected_value(THIRTEEN, draws_left=3, depth=0, hazard=0.01, by_turn=True)
    first = bt.iloc[0]
    assert first["turn"] == 0 and first["p_win_self_draw"] == 0.0
    assert abs(first["p_win_discard"] - (1 - 0.99 ** (3 * 39))) < 1e-12


# --------------------------------------------------------------------------------- models and options
def test_depleting_exact_for_short_horizons_and_small_walls():
    assert mj.expected_value("12455m34567p6777s", draws_left=3, discard_wins=False)["exact"].all()
    df = mj.expected_value("12455m34567p6777s", draws_left=4, discard_wins=False)
    assert not df["exact"].any() and df.attrs["model"] == "depleting (approximate)"
    assert mj.expected_value("12455m34567p6777s", draws_left=8, wall="returned")["exact"].all()


def test_exact_budget_falls_back_to_the_approximation():
    df = mj.expected_value("12455m34567p6777s", draws_left=3, max_states=10_000, discard_wins=False)
    assert df.attrs["model"] == "depleting (approximate)" and not df["exact"].any()
    with pytest.raises(ValueError, match="max_states"):
        mj.expected_value("12577m222468p445s", draws_left=10, max_states=100)


def test_depth_grows_the_search_and_converge_reports_it():
    df = mj.expected_value("12577m222468p445s", draws_left=12, converge=True, discard_wins=False)
    c = df.attrs["converge"]
    assert c["depth"] == 1 and c["next_depth"] == 2 and c["discard"] == str(df["discard"].iloc[0])
    assert c["p_win"] == df["p_win"].iloc[0]
    assert c["p_win_next"] >= c["p_win"] - 1e-12  # a larger search never does worse
    assert abs(c["delta_ev"] - (c["ev_next"] - c["ev"])) < 1e-15
    d0 = mj.expected_value("12577m222468p445s", draws_left=12, depth=0, discard_wins=False)
    assert df["n_states"].max() > d0["n_states"].max()
    assert df["ev"].iloc[0] >= d0["ev"].iloc[0] - 1e-12


def test_fallback_rows_from_four_shanten():
    hand = "1358m1358p1358s12z"
    df = mj.expected_value(hand, draws_left=18, discard_wins=False)
    assert ((df["shanten"] >= 4) == (df["method"] == "chain")).all() and (df["method"] == "chain").any()
    assert not df.loc[df["method"] == "chain", "exact"].any()
    assert ((df["p_win"] >= 0) & (df["p_win"] <= 1)).all()
    assert (df["ev"] == df["p_win"]).all()  # no rule: a win is worth 1
    ruled = mj.expected_value(hand, rule="sichuan" if False else "guangdong", draws_left=18)
    chain = ruled[ruled["method"] == "chain"]
    assert len(chain) and chain["ev"].isna().all() and (chain["p_win"] > 0).any()


def test_discards_restricts_the_rows():
    df = mj.expected_value("12455m34567p6777s", discards="1m 6s", draws_left=6, discard_wins=False)
    assert sorted(df["discard"].astype(str)) == ["1m", "6s"]
    full = mj.expected_value("12455m34567p6777s", draws_left=6, discard_wins=False).set_index("discard")
    for _, r in df.iterrows():
        assert abs(full.loc[r["discard"], "p_win"] - r["p_win"]) < 1e-12


def test_rule_and_scorer_options():
    a = mj.expected_value("12455m34567p6777s", rule="guangdong", draws_left=6, discard_wins=False)
    b = mj.expected_value("12455m34567p6777s", rule="guangdong", min_fan=1, draws_left=6, discard_wins=False)
    assert (b["p_win"].to_numpy() <= a.set_index("discard").loc[b["discard"], "p_win"].to_numpy() + 1e-12).all()
    h = mj.Hand("123m456m789p1s", melds=["234s@left"], bonus=["F1", "F2"])  # 2 花: a legal self-draw
    t = mj.expected_value(h, rule="taicang", draws_left=4, base=10, discard_wins=False)
    t5 = mj.expected_value(h, rule="taicang", draws_left=4, discard_wins=False)
    assert t5["ev"].iloc[0] > 0
    assert abs(t["ev"].iloc[0] - 2 * t5["ev"].iloc[0]) < 1e-9
    assert abs(t["ev_stakes"].iloc[0] - t5["ev_stakes"].iloc[0]) < 1e-12


def test_wildcards_flowers_and_units():
    df = mj.expected_value("12455m34567p677s", rule="jinhua", wilds=1, wild_kind="5z", draws_left=4, hazard=0.01)
    assert df.attrs["unit"] == "X" and (df["p_win"] > 0).all()
    df = mj.expected_value("12455m34567p6777s", rule="suzhou", draws_left=6, hazard=0.01)
    assert df.attrs["flowers_unseen"] == 28 and df.attrs["base_stake"] > 0
    assert np.allclose(df["ev_stakes"] * df.attrs["base_stake"], df["ev"])


def test_batch_equals_single_hands_on_any_thread_count():
    hands = ["12455m34567p6777s", "11p34567m45s9p1p555z", "123m456p789s234s5p6m"]
    single = [mj.expected_value(h, draws_left=8, hazard=0.01) for h in hands]
    for threads in (1, 2):
        batch = mj.expected_value(hands, draws_left=8, hazard=0.01, n_threads=threads)
        assert list(batch.columns[:2]) == ["hand", "discard"]
        for i, df in enumerate(single):
            part = batch[batch["hand"] == i].drop(columns="hand").reset_index(drop=True)
            assert np.array_equal(part["p_win"].to_numpy(), df["p_win"].to_numpy())
            assert np.array_equal(part["ev"].to_numpy(), df["ev"].to_numpy())
    arr = np.stack([mj.Hand(h).counts for h in hands])
    assert np.array_equal(mj.expected_value(arr, draws_left=8, hazard=0.01)["ev"].to_numpy(), batch["ev"].to_numpy())


# --------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hand="12455m34567p67s"), r"3k\+1 or 3k\+2"),
        (dict(hand="12455m34567p6777s", draws_left=200), "beyond the wall"),
        (dict(hand="12455m34567p6777s", draws_left=-1), "draws_left must be at least 0"),
        (dict(hand="12455m34567p6777s", hazard=1.5), "hazard must be between 0 and 1"),
        (dict(hand="12455m34567p6777s", hazard=-0.1), "hazard must be between 0 and 1"),
        (dict(hand="12455m34567p6777s", draws_left=4, hazard=[0.1, 0.2]), "one value per opponent round"),
        (dict(hand="12455m34567p6777s", depth=-1), "depth must be at least 0"),
        (dict(hand="12455m34567p6777s", discards="9m"), "not in the hand"),
        (dict(hand="12455m34567p6777s", rule="guobiao", nonsense=1), "unknown option"),
        (dict(hand="12455m34567p6777s", rule="suzhou", threshold="9_9"), "invalid value"),
        (dict(hand="12455m34567p6777s", bogus=1), "options need a rule"),
        (dict(hand="12455m34567p6777s", wall="flat"), "wall must be one of"),
        (dict(hand="12455m34567p6777s", rule="tokyo"), "unknown rule"),
        (dict(hand="12455m34567p6777s", by_turn="yes"), "by_turn must be True or False"),
        (dict(hand="12455m34567p6777s", discard_wins=1), "discard_wins must be True or False"),
        (dict(hand="12455m34567p677s1z", rule="sichuan"), "not played under rule"),
        (dict(hand="12455m34567p6777s", visible="F1"), "plays no flowers"),
        (dict(hand=["12455m34567p6777s"], by_turn=True), "one hand, not a batch"),
    ],
)
def test_bad_input_is_a_value_error(kwargs, message):
    hand = kwargs.pop("hand")
    with pytest.raises(ValueError, match=message):
        mj.expected_value(hand, **kwargs)


# --------------------------------------------------------------------------------- integrations
def test_analyze_discards_value_columns():
    shape = mj.analyze_discards("12455m34567p6777s", rule="guobiao")
    df = mj.analyze_discards("12455m34567p6777s", rule="guobiao", value=True, draws_left=6, hazard=0.02)
    assert df["discard"].tolist() == shape["discard"].tolist()  # the shape order is kept
    ev = mj.expected_value("12455m34567p6777s", rule="guobiao", draws_left=6, hazard=0.02).set_index("discard")
    assert np.allclose(df.set_index("discard")["ev"], ev.loc[df["discard"], "ev"])
    raw = mj.analyze_discards("12455m34567p6777s", value=True, draws_left=4, as_frame=False)
    assert isinstance(raw, dict) and "p_win" in raw and raw["discard"].dtype.kind == "S"
    with pytest.raises(ValueError, match="value=True"):
        mj.analyze_discards("12455m34567p6777s", depth=2)


def test_call_vs_pass_value():
    df = mj.call_vs_pass("11p34567m45s9p456s", "1p", from_seat="left", rule="suzhou", value=True, draws_left=10)
    assert df["ev"].is_monotonic_decreasing
    assert set(df["option"]) == {"pass", "pung"}
    # 苏州: the concealed hand (门清) is worth more than the efficient 碰
    assert df["option"].iloc[0] == "pass"
    win = mj.call_vs_pass("123m456p789s234s5p", "5p", from_seat="left", rule="guobiao", value=True, draws_left=4)
    row = win[win["option"] == "win"].iloc[0]
    ctx = WinContext(mj.Hand("123m456p789s234s55p"), win_tile="5p", winner=0, dealer=0, discarder=3)
    assert row["p_win"] == 1.0 and row["ev"] == score(ctx, "guobiao").payments[0]
    with pytest.raises(ValueError, match="value_options"):
        mj.call_vs_pass("11p34567m45s9p456s", "1p", from_seat="left", value_options={})


def test_plot_win_curve_draws_the_by_turn_table():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bt = mj.expected_value("12455m34567p6777s", draws_left=6, by_turn=True)
    ax = mj.plot_win_curve(bt, ax=plt.figure().gca())
    assert len(ax.lines) == 2 * bt["discard"].nunique()
    assert len(mj.plot_win_curve(bt, top=3, ax=plt.figure().gca()).lines) == 6
    plt.close("all")


def test_hazards_are_stored_with_the_rules():
    for name in rules.names():
        q = rules._REGISTRY[name].DISCARD_HAZARD
        assert 0.001 < q < 0.1, name
    assert V.default_hazard() == float(np.median([rules._REGISTRY[n].DISCARD_HAZARD for n in rules.names()]))
    assert (
        mj.expected_value("12455m34567p6777s", rule="guobiao", draws_left=2).attrs["hazard"]
        == rules._REGISTRY["guobiao"].DISCARD_HAZARD
    )


def test_calibration_reproduces_the_method():
    out = V.calibrate_hazard("sichuan", 400, rng=3, n_threads=1)
    assert out["n_games"] == 400 and out["discard_wins"] + out["self_draw_wins"] <= 400
    assert abs(out["hazard"] - out["rho"] / (3 * out["unseen"])) < 1e-15


def test_fused_discard_shanten_matches_the_shanten_kernel():
    """The value kernel's split-cell discard test (no wildcards, every kind natural) against the
    shanten kernel, on random 14-tile hands with and without melds and every form set it takes."""
    from mjfast._kernels import _value as kv

    rng = np.random.default_rng(11)
    for forms, options in ((1, 0), (3, 0), (7, 0), (7, 1), (5, 0)):
        for melds in (0, 1, 2):
            for _ in range(600):
                c = np.bincount(
                    rng.choice(np.repeat(np.arange(34), 4), 14 - 3 * melds, replace=False), minlength=34
                ).astype(np.uint8)
                fused, exact = kv._fused_discards(c, melds, forms, options)
                assert np.array_equal(fused, exact), (c.tolist(), melds, forms, options)
