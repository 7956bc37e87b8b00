"""mjfast.simulate_matches: hands in a row with each rule's dealer rotation (checked here from the
rules' own sentences, written out independently of the engine's hooks), the prevalent wind,
seating and round state; running totals; reproducibility; streaming; bad input.

``MJFAST_ORACLE_SCALE=full`` plays 10,000 matches per rule in ``test_match_sweep.py``."""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest
from _sim_helpers import check_rotation, check_running_totals, check_winds_and_seating
from _sim_helpers import winners as _winners

import mjfast as mj
from mjfast.simulation import matches as M

PAY = ["pay_0", "pay_1", "pay_2", "pay_3"]
CUM = ["cum_0", "cum_1", "cum_2", "cum_3"]
N_MATCHES = {"guobiao": 12, "jj": 12, "ruijin": 16, "shangrao": 16}
CASES = {name: (name, {}) for name in mj.rules.names()}
CASES["xuezhan"] = ("sichuan", {"xuezhan": True})
CASES["dahu_keeps"] = ("suzhou", {"dealer": "dahu_keeps"})
CASES["gd_pass"] = ("guangdong", {"draw": "pass"})
CASES["gy_a"] = ("guiyang", {"dealer": "A"})
CASES["jj_winner"] = ("jj", {"dealer": "winner"})
_PLAYED = {}


def _play(case):
    if case not in _PLAYED:
        name, options = CASES[case]
        _PLAYED[case] = M.simulate_matches(name, N_MATCHES.get(name, 24), rng=20261202, n_threads=2, **options)
    return _PLAYED[case]


@pytest.fixture(scope="module", params=list(CASES))
def played(request):
    return request.param, _play(request.param)


def test_columns_and_running_totals(played):
    case, df = played
    name, options = CASES[case]
    n = N_MATCHES.get(name, 24)
    assert list(df.columns[:4]) == list(M.KEYS)
    assert df["match"].tolist() == [m for m in range(n) for _ in range(16)]
    assert df["hand"].tolist() == list(range(16)) * n
    check_running_totals(df)


def test_dealer_rotation_follows_the_rule(played):
    """Every hand's next dealer is the one the rule's source names (hand 0: seat 0 deals)."""
    case, df = played
    name, options = CASES[case]
    assert check_rotation(name, options, df) > 0 or name == "guobiao"


def test_prevalent_wind_and_seating(played):
    case, df = played
    check_winds_and_seating(CASES[case][0], df)


def test_suzhou_round_state():
    """豹子 (the two dice show the same face) doubles the hand; 滴零 doubles the hand after a 豹子
    hand or a 一炮多响 (suzhou.md §6 multipliers)."""
    df = M.simulate_matches("suzhou", 48, rng=7, n_threads=2)
    assert "dice" in df.columns
    seen = {"leopard": 0, "dripping": 0}
    for _m, part in df.groupby("match"):
        prev = None
        for row in part.itertuples():
            d = str(row.dice)
            leopard = d[0] == d[1]
            dripping = prev is not None and (prev[0] or prev[1])
            codes = set(str(row.elements).split(",")) if row.how != "draw_game" else set()
            if row.how != "draw_game":
                assert ("leopard" in codes) == leopard, row
                assert ("dripping" in codes) == dripping, row
                seen["leopard"] += leopard
                seen["dripping"] += dripping
            multi = row.how in ("discard", "robbing_kong") and len(_winners(row.winners)) > 1
            prev = (leopard, multi)
    assert seen["leopard"] > 5 and seen["dripping"] > 5, seen


def test_guiyang_consecutive_dealer_payments():
    """连庄: "n连庄湖牌时就付n个" — a dealer winning his n-th consecutive deal collects n more from
    each payer (GY-A4: n = 0 on his first deal)."""
    df = M.simulate_matches("guiyang", 48, rng=8, n_threads=2)
    counted = 0
    for _m, part in df.groupby("match"):
        streak = 0
        prev = None
        for row in part.itertuples():
            if prev is not None:
                streak = streak + 1 if row.dealer == prev else 0
            prev = row.dealer
            ws = _winners(row.winners)
            codes = str(row.elements).split(",") if ws else []
            if ws and ws[0] == row.dealer and streak:
                assert "lianzhuang" in codes, row
                counted += 1
            else:
                assert "lianzhuang" not in codes, row
    assert counted > 3


def test_reproducible_threads_and_process_pool():
    a = M.simulate_matches("sichuan", 70, hands=4, rng=3, n_threads=1)  # two chunks
    b = M.simulate_matches("sichuan", 70, hands=4, rng=3, n_threads=2)
    pd.testing.assert_frame_equal(a, b)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        c = M.simulate_matches("sichuan", 70, hands=4, rng=3, executor=ex)
    pd.testing.assert_frame_equal(a, c)
    d = M.simulate_matches("sichuan", 70, hands=4, rng=4, n_threads=2)
    assert not a.equals(d)


def test_rule_object_pickled_to_a_process_pool():
    """A Rule travels to the workers as itself (not as a name and options)."""
    rule = mj.rules.get("guangdong", draw="pass", min_fan=1)
    a = M.simulate_matches(rule, 70, hands=3, rng=5, n_threads=2)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        b = M.simulate_matches(rule, 70, hands=3, rng=5, executor=ex)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs["rule_object"] is rule


def test_iter_matches_batches_match_simulate_matches():
    batches = list(M.iter_matches("taicang", 150, hands=3, rng=9, n_threads=1, batch_matches=64))
    assert [b["match"].nunique() for b in batches] == [64, 64, 22]
    whole = M.simulate_matches("taicang", 150, hands=3, rng=9, n_threads=1)
    joined = pd.concat(batches, ignore_index=True)
    for c in whole.columns:
        assert joined[c].astype(str).tolist() == whole[c].astype(str).tolist(), c


def test_a_match_hand_is_a_simulate_games_hand_in_every_column():
    """The hands of a match carry the per-hand columns of simulate_games, in its dtypes."""
    df = M.simulate_matches("ruijin", 5, hands=2, rng=1, n_threads=1)
    g = mj.simulate_games("ruijin", 5, rng=1, n_threads=1)
    for c in g.columns.drop("game"):
        assert c in df.columns and str(df[c].dtype) == str(g[c].dtype), c


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"rule": "no_such_rule"}, "unknown rule .no_such_rule.; valid rules"),
        ({"n_matches": 0}, r"\bn must be"),
        ({"n_matches": -1}, r"\bn must be"),
        ({"hands": 0}, "hands"),
        ({"hands": -3}, "hands"),
        ({"hands": 2.5}, "hands"),
        ({"no_such_option": 1}, "no_such_option"),
        ({"rule": "guangdong", "draw": "sometimes"}, "guangdong.draw"),
        ({"rule": "suzhou", "dealer": "loser"}, "suzhou.dealer"),
        ({"rule": "guiyang", "dealer": "C"}, "guiyang.dealer"),
        ({"rule": "jj", "dealer": "random"}, "jj.dealer"),
        ({"policy": "random"}, "unknown policy"),
        ({"rng": "seed"}, "rng must be"),
        ({"executor": object()}, "executor"),
        ({"wind": "daily"}, "wind"),
    ],
)
def test_bad_input(kwargs, match):
    args = {"rule": "sichuan", "n_matches": 2, "hands": 2, "rng": 0, "n_threads": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        M.simulate_matches(args.pop("rule"), args.pop("n_matches"), **args)


def test_match_summary_rejects_other_tables():
    with pytest.raises(ValueError, match="simulate_matches"):
        M.match_summary(mj.simulate_games("sichuan", 5, rng=0, n_threads=1))


def test_wind_option():
    """Where a source is silent the prevalent wind advances after every four changes of dealer;
    ``wind="hands"`` advances it every four hands instead."""
    df = M.simulate_matches("suzhou", 4, hands=12, wind="hands", rng=2, n_threads=1)
    assert (df["prevalent_wind"] == df["hand"] // 4).all()
    assert (
        df.attrs["wind"] == "hands"
        and M.simulate_matches("suzhou", 1, hands=1, rng=2, n_threads=1).attrs["wind"] == "passes"
    )


@pytest.mark.parametrize(
    "fields", [{"baozi": True}, {"diling": True}, {"baozi": True, "diling": True}, {"liable": 2}, {"dealer": 3}]
)
def test_a_context_with_round_fields_equals_one_built_with_them(fields):
    # the engine adds 豹子 / 滴零 to a context without checking it again: it must be the same
    from mjfast.scoring import WinContext
    from mjfast.simulation.games import _CTX_FIELDS, _with

    ctx = WinContext(mj.Hand("123m456m789s55s", melds=["111p@left"]), win_tile="1m", winner=1, discarder=0)
    built = {f: getattr(ctx, f) for f in _CTX_FIELDS if f != "seat_wind"}
    assert _with(ctx, **fields) == WinContext(**{**built, **fields})
