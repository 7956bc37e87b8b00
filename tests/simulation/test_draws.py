"""mjfast.simulate_draws: exact hypergeometric checks, a pure-Python twin of the kernel,
reproducibility across threads and executors, and input validation."""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from math import comb

import numpy as np
import pandas as pd
import pytest

import mjfast as mj
from mjfast._kernels import _wall
from mjfast._reference.wall import replay_draws
from mjfast.simulation import _chunks
from mjfast.simulation import draws as sim
from mjfast.simulation.draws import simulate_draws
from mjfast.tiles import counts as tile_counts

N_EXACT = 20_000


def p_win_exact(n_unseen: int, n_winning: int, k: int) -> float:
    """P(at least one of W winning tiles among the first k of N shuffled tiles)."""
    return 1 - comb(n_unseen - n_winning, k) / comb(n_unseen, k)


# ---------------------------------------------------------------------------------------------
# Exactness.  Each hand's only sensible play keeps its wait: after a non-winning draw every
# other discard raises the shanten or leaves a wait with fewer copies, so the policy throws the
# drawn tile back and P(win within k) is hypergeometric.
#   13 orphans: any other discard breaks the 13 distinct orphans (shanten 1).
#   九莲宝灯 1112345678999m: the only other ready discards (2m/5m/8m) leave a 单钓 on the drawn
#   tile (<= 3 copies) against 23 copies of the nine-sided wait.
#   111z222z333z444z5z: discarding a wind leaves a 1-shanten hand.
EXACT_CASES = [
    # hand, rule, visible, N unseen playable, W winning copies
    ("19m19p19s1234567z", None, None, 123, 39),
    ("19m19p19s1234567z", None, "19m1p5z22m", 117, 35),
    ("1112345678999m", None, None, 123, 23),
    ("1112345678999m", None, "258m", 120, 20),
    ("111z222z333z444z5z", None, None, 123, 3),
    ("1112345678999m5p", None, None, 122, 23),  # 14 tiles: discards 5p first
    ("1112345678999m", "suzhou", None, 111, 23),  # 28 flowers replaced from the back
    ("1112345678999m", "suzhou", "5z6z", 111, 23),  # visible dragons are seen flowers here
    # 12 orphans + a wildcard (face 7z): 36 natural orphans and the 3 other wildcards win
    (mj.Hand("19m19p19s123456z", wilds=1), None, None, 123, 39, dict(wild_kind="7z")),
    (mj.Hand("19m19p19s123456z", wilds=1), None, None, 121, 37, dict(wild_kind="7z", wild_copies=2)),
]
EXACT_CASES = [case if len(case) == 6 else case + ({},) for case in EXACT_CASES]


@pytest.mark.parametrize("hand, rule, visible, n_unseen, n_winning, extra", EXACT_CASES)
def test_ready_hand_matches_hypergeometric(hand, rule, visible, n_unseen, n_winning, extra):
    # (九莲宝灯 under 苏州 is 门清, exempt from the flower minimum: every complete hand is legal)
    df = simulate_draws(hand, rule=rule, visible=visible, draws_left=18, n=N_EXACT, rng=12345, **extra)
    score_cols = ["mean_score", "score_q50", "score_q90"] if rule else []
    assert list(df.columns) == ["turn", "p_ready", "se_ready", "p_win", "se_win"] + score_cols
    assert df["turn"].tolist() == list(range(1, 19))
    assert (df["p_ready"] == 1.0).all() and (df["se_ready"] == 0.0).all()
    assert df.attrs["start_shanten"] == 0
    for k in (1, 2, 5, 10, 18):
        row = df.iloc[k - 1]
        exact = p_win_exact(n_unseen, n_winning, k)
        se = np.sqrt(exact * (1 - exact) / N_EXACT)
        assert abs(row["p_win"] - exact) <= 4 * se, (k, row["p_win"], exact)
        assert row["se_win"] == pytest.approx(np.sqrt(row["p_win"] * (1 - row["p_win"]) / N_EXACT))
    assert df["p_win"].is_monotonic_increasing


def test_complete_start_and_flower_only_wall_edge():
    # a complete 14-tile hand has won before the first draw
    df = simulate_draws("11123455678999m", draws_left=3, n=50, rng=0)
    assert (df["p_win"] == 1.0).all() and (df["p_ready"] == 1.0).all()
    assert df.attrs["start_shanten"] == -1
    # no draws: an empty frame with the columns
    df = simulate_draws("1112345678999m", draws_left=0, n=10, rng=0)
    assert df.empty and list(df.columns) == ["turn", "p_ready", "se_ready", "p_win", "se_win"]


def test_wall_runs_out():
    # 7 unseen tiles (no man tiles, so the nine-sided wait is dead): at most 7 draws happen.
    # The policy moves to a 单钓 on a drawn sou tile, since the dead wait has 进张 0.
    seen = np.full(34, 4, np.int16) - tile_counts("1112345678999m")
    rest = tile_counts("5s5s6s7s7s8s8s").astype(np.int16)
    seen -= rest
    df = simulate_draws("1112345678999m", visible=seen, draws_left=18, n=200, rng=1)
    assert (df["p_ready"] == 1).all()
    assert df["p_win"].iloc[0] == 0  # turn 1 can only switch the wait
    assert 0 < df["p_win"].iloc[6] < 1
    assert (df["p_win"].iloc[6:] == df["p_win"].iloc[6]).all()


@pytest.mark.parametrize(
    "hand, rule",
    [
        ("11p34567m45s9p149s", None),  # 2-shanten, 13 tiles
        ("123m456p78s1z2z3z4z5z6z", None),  # 14 tiles: discard first
        ("2345m34p678s2299s7p", "suzhou"),  # flowers in the wall
    ],
)
def test_kernel_matches_python_twin(hand, rule):
    draws_left = 8
    children = np.random.SeedSequence(2024).spawn(3)
    sizes = np.array([6, 5, 4], np.int32)
    spec = sim._setup(hand, rule, None, (), None, None, None)
    _, ready, win, *_ = sim._run(spec, draws_left, _chunks.bit_generators(children), sizes, 2, _wall.PolicyCache(2))
    ready_ref, win_ref, _ = replay_draws(hand, rule, None, draws_left, children, sizes)
    np.testing.assert_array_equal(ready, ready_ref)
    np.testing.assert_array_equal(win, win_ref)


def _flower_faces(rule, own=()):
    """The flower faces not in ``own``, in tile-set order (simulate_draws' documented order)."""
    faces = [mj.tiles.parse_tile(code) for code, k in rule.tileset.bonus.items() for _ in range(k)]
    for t in own:
        faces.remove(t)
    return faces


def test_kernel_with_rule_matches_python_twin():
    # 苏州, a pung called and one flower: 3 花 are needed for a self-draw, unless the win is a
    # 花开 (after a flower) or 大门清 (no flower at all: impossible here).  The twin judges
    # every complete hand with mj.can_win / mj.score on a context built here.
    rule = mj.rules.get("suzhou")
    melds = (mj.Meld.parse("222s@left"),)
    own = (mj.tiles.parse_tile("F1"),)
    hand = mj.Hand("123m456m78p11s", melds=melds, bonus="F1")
    faces = _flower_faces(rule, own)
    refused = []

    def legal(c, tile, n_flowers, after):
        ctx = mj.WinContext(
            mj.Hand(c.copy(), melds=melds, bonus=own + tuple(faces[:n_flowers])),
            win_tile=int(tile),
            self_draw=True,
            after_kong=bool(after),
        )
        if not mj.can_win(ctx, rule):
            refused.append(ctx)
            return None
        return mj.score(ctx, rule).points

    draws_left = 8
    children = np.random.SeedSequence(77).spawn(2)
    sizes = np.array([60, 40], np.int32)
    spec = sim._setup(hand, rule, None, (), None, None, None)
    judge = spec["judge"]
    _, ready, win, turns, states, keys = sim._run(
        spec, draws_left, _chunks.bit_generators(children), sizes, 2, _wall.PolicyCache(2), judge
    )
    ready_ref, win_ref, games = replay_draws(hand, rule, None, draws_left, children, sizes, legal=legal)
    np.testing.assert_array_equal(ready, ready_ref)
    np.testing.assert_array_equal(win, win_ref)
    np.testing.assert_array_equal(turns, [g[0] for g in games])
    points = [judge.points(keys[i]) if i >= 0 else None for i in states]
    assert points == [g[1] for g in games]
    assert refused and any(p is not None for p in points)  # both branches were exercised
    # without the rule's say every complete hand wins: more wins
    _, _, win_shape, *_ = sim._run(spec, draws_left, _chunks.bit_generators(children), sizes, 1, _wall.PolicyCache(1))
    assert win_shape[:, :-1].sum() > win[:, :-1].sum()


def test_single_wait_scores_equal_the_scorer():
    # one draw on a single wait: every win is the same hand, so every score is its score
    won = mj.WinContext(mj.Hand("123m456p789s234s55p"), win_tile="5p", self_draw=True)
    expected = mj.score(won, "guobiao").points
    df = simulate_draws("123m456p789s234s5p", rule="guobiao", draws_left=1, n=5000, rng=3)
    row = df.iloc[0]
    assert row.p_win > 0
    assert row.mean_score == row.score_q50 == row.score_q90 == expected
    # 苏州: 九莲宝灯 without flowers is 门清 + 清一色 (底 5 + 清一色 10 + 大小门清 15); wins
    # after flowers score differently, so only a run whose wall has no flowers is exact
    seen = "5z5z5z5z6z6z6z6z7z7z7z7z"
    df = simulate_draws(
        "1112345678999m", rule=mj.rules.get("suzhou", tileset=144), visible=seen, draws_left=1, n=3000, rng=4
    )
    ctx = mj.WinContext(mj.Hand("11123455678999m"), win_tile="5m", self_draw=True)
    pts = {
        mj.score(mj.WinContext(mj.Hand("1112345678999m" + t + "m"), win_tile=t + "m", self_draw=True), "suzhou").points
        for t in "123456789"
    }
    assert mj.score(ctx, "suzhou").points in pts
    assert set(df[["score_q50", "score_q90"]].iloc[0]) <= pts


def test_score_columns_nan_before_any_win_and_ordered():
    df = simulate_draws("11p34567m45s9p149s", rule="guobiao", draws_left=10, n=1500, rng=5)
    assert list(df.columns[-3:]) == ["mean_score", "score_q50", "score_q90"]
    none = df.p_win == 0
    assert none.any() and df.loc[none, ["mean_score", "score_q50", "score_q90"]].isna().all().all()
    some = df[~none]
    assert len(some) and np.isfinite(some[["mean_score", "score_q50", "score_q90"]].to_numpy()).all()
    assert (some.score_q50 <= some.score_q90).all()
    assert (some.mean_score >= 8 + 8).all()  # 国标: a legal win has >= 8 番, paid 8 + 番


def test_legality_sichuan_needs_a_void_suit():
    # the same 双碰 shape (1s/2s): holding three suits it can never win under 四川 within
    # two draws (a suit takes three discards to clear); with two suits it can
    three = simulate_draws("123m456p789s11s22s", rule="sichuan", draws_left=2, n=4000, rng=6)
    two = simulate_draws("123m456m789s11s22s", rule="sichuan", draws_left=2, n=4000, rng=6)
    assert (three.p_win == 0).all()
    assert two.p_win.iloc[-1] > 0
    assert np.isfinite(two.mean_score.iloc[-1])
    # without a rule the three-suit shape wins
    assert simulate_draws("123m456p789s11s22s", draws_left=2, n=4000, rng=6).p_win.iloc[-1] > 0


def test_legality_minimum_refuses_a_complete_shape():
    # 234m567m345p678s + 1z: a self-drawn 1z is 6 番 (不求人 4, 连六 1, 单钓 1) < 国标's 8
    hand = "234m567m345p678s1z"
    ctx = mj.WinContext(mj.Hand(hand + "1z"), win_tile="1z", self_draw=True)
    assert not mj.can_win(ctx, "guobiao")
    shape = simulate_draws(hand, draws_left=1, n=6000, rng=8)
    legal = simulate_draws(hand, rule="guobiao", draws_left=1, n=6000, rng=8)
    assert shape.p_win.iloc[0] > 0
    assert legal.p_win.iloc[0] == 0 and np.isnan(legal.mean_score.iloc[0])
    # 苏州: a pung called, no flower in hand; with the flowers all seen or out of the wall
    # the 3-花 minimum can only be met by 大门清 (F = 0): compare with the scorer directly
    meld = ["222s@left"]
    win = mj.WinContext(mj.Hand("123m456m789p11s", melds=meld, bonus="F1"), win_tile="1s", self_draw=True)
    assert not mj.can_win(win, "suzhou")  # 1 花 < 3
    with_flower = simulate_draws(
        mj.Hand("123m456m789p1s", melds=meld, bonus="F1"), rule="suzhou", draws_left=1, n=6000, rng=9
    )
    shape = simulate_draws(mj.Hand("123m456m789p1s", melds=meld, bonus="F1"), draws_left=1, n=6000, rng=9)
    assert with_flower.p_win.iloc[0] < shape.p_win.iloc[0]


def test_complete_start_under_a_rule():
    # legal: won from turn 1, scored with the last tile that scores best (any tile may have
    # been the last one drawn)
    hand = "11123455678999m"
    df = simulate_draws(hand, rule="guobiao", draws_left=2, n=40, rng=0)
    best = max(
        mj.score(mj.WinContext(mj.Hand(hand), win_tile=t, self_draw=True), "guobiao").points
        for t in set(mj.Hand(hand).tiles)
    )
    assert (df.p_win == 1).all() and (df.mean_score == best).all() and (df.score_q90 == best).all()
    # not legal (6 番): the hand is not won; the policy discards and plays on
    hand = "234m567m345p678s11z"
    assert simulate_draws(hand, draws_left=2, n=500, rng=0).p_win.iloc[0] == 1
    df = simulate_draws(hand, rule="guobiao", draws_left=2, n=500, rng=0)
    assert df.p_win.iloc[0] < 1 and df.p_ready.iloc[0] == 1


def test_drawn_wildcard_stands_for_the_best_face():
    # JJ 混: 123m456m789m 23s 5p + 1 混; drawing a second 混 completes the hand as 1s, 4s or 5p
    hand = mj.Hand("123m456m789m23s5p", wilds=1)
    spec = sim._setup(hand, "jj", None, (), None, None, None)
    judge = spec["judge"]
    counts = mj.tiles.counts("123m456m789m23s5p").astype(np.uint8).tobytes()
    sid = judge(counts, 2, _wall.WILD_TOKEN, 0, 0)
    assert sid >= 0
    h14 = mj.Hand("123m456m789m23s5p", wilds=2)
    best = max(
        s.points
        for s in (
            mj.score(mj.WinContext(h14, win_tile=t, self_draw=True), "jj") for t in ("1s", "4s", "5p", "2s", "3s")
        )
        if s.legal
    )
    assert judge.points(judge.keys[sid]) == best
    # end to end, the 混 in the wall are drawn and scored
    df = simulate_draws(hand, rule="jj", wild_kind="7z", draws_left=2, n=800, rng=2)
    assert df.p_win.iloc[-1] > 0 and np.isfinite(df.mean_score.iloc[-1])


def test_checker_errors_are_raised_not_swallowed(monkeypatch):
    def boom(self, key):
        raise RuntimeError("scorer exploded")

    monkeypatch.setattr(sim._Judge, "_decide", boom)
    for threads in (1, 2):
        with pytest.raises(RuntimeError, match="scorer exploded"):
            simulate_draws("1112345678999m", rule="guobiao", draws_left=6, n=3000, rng=0, n_threads=threads)


def test_rule_conventions_that_cannot_be_honoured():
    with pytest.raises(ValueError, match="wild_kind"):
        simulate_draws(mj.Hand("1112345678999m", wilds=1).without_tile("9m"), rule="taicang", n=10)
    with pytest.raises(ValueError, match="plays no flowers"):
        simulate_draws(mj.Hand("1112345678999m", bonus="F1"), rule="guobiao", n=10)


# ---------------------------------------------------------------------------------------------
# Reproducibility
HAND_3SHANTEN = "11p34567m45s9p149s"


def test_same_seed_same_frame_any_threads_and_executors(monkeypatch):
    kw = dict(draws_left=10, n=3000, rng=7)
    base = simulate_draws(HAND_3SHANTEN, n_threads=1, **kw)
    pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, n_threads=2, **kw))
    pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, n_threads=1, progress=True, **kw))
    monkeypatch.setattr(_chunks, "TASK_CHUNKS", 1)  # three tasks for three chunks
    with ThreadPoolExecutor(2) as ex:
        pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, executor=ex, **kw))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, executor=ex, **kw))


def test_same_seed_same_scores_any_threads_and_executors(monkeypatch):
    kw = dict(rule="suzhou", draws_left=8, n=2500, rng=11)
    hand = mj.Hand("123m456m78p11s", melds=["222s@left"], bonus="F1").with_tile("5p")  # 14 tiles
    base = simulate_draws(hand, n_threads=1, **kw)
    assert base.mean_score.notna().any()
    pd.testing.assert_frame_equal(base, simulate_draws(hand, n_threads=2, **kw))
    monkeypatch.setattr(_chunks, "TASK_CHUNKS", 1)
    with ThreadPoolExecutor(2) as ex:
        pd.testing.assert_frame_equal(base, simulate_draws(hand, executor=ex, **kw))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        pd.testing.assert_frame_equal(base, simulate_draws(hand, executor=ex, **kw))


def test_seed_forms():
    kw = dict(draws_left=10, n=2000)
    a = simulate_draws(HAND_3SHANTEN, rng=1, **kw)
    b = simulate_draws(HAND_3SHANTEN, rng=2, **kw)
    assert not a.equals(b)
    ss = np.random.SeedSequence(1)
    pd.testing.assert_frame_equal(a, simulate_draws(HAND_3SHANTEN, rng=ss, **kw))
    pd.testing.assert_frame_equal(a, simulate_draws(HAND_3SHANTEN, rng=ss, **kw))  # not consumed
    gen = np.random.default_rng(5)
    g1 = simulate_draws(HAND_3SHANTEN, rng=gen, **kw)
    g2 = simulate_draws(HAND_3SHANTEN, rng=gen, **kw)
    assert not g1.equals(g2)  # a Generator advances
    pd.testing.assert_frame_equal(g1, simulate_draws(HAND_3SHANTEN, rng=np.random.default_rng(5), **kw))


def test_chunks_do_not_depend_on_n():
    # chunk c always uses stream c: the first 1024 games are the same games for any n
    children = np.random.SeedSequence(9).spawn(2)
    spec = sim._setup(HAND_3SHANTEN, None, None, (), None, None, None)
    one = sim._run(spec, 6, _chunks.bit_generators(children[:1]), np.array([1024], np.int32), 1, _wall.PolicyCache(1))
    two = sim._run(spec, 6, _chunks.bit_generators(children), np.array([1024, 1024], np.int32), 1, _wall.PolicyCache(1))
    np.testing.assert_array_equal(one[1][0], two[1][0])


def test_bounded_helpers_uniform():
    for n, wide in ((7, False), (100, False), (2**33 + 5, True), (3, True)):
        out = np.empty(70_000, np.uint64)
        _wall.bounded_sample(np.random.PCG64DXSM(3), n, out, wide)
        assert out.max() < n
        if n < 1000:
            freq = np.bincount(out.astype(np.int64), minlength=n) / out.size
            assert np.abs(freq - 1 / n).max() < 5 * np.sqrt((1 / n) / out.size)
    a = np.empty(10, np.uint64)
    b = np.empty(10, np.uint64)
    _wall.bounded_sample(np.random.PCG64DXSM(4), 152, a)
    _wall.bounded_sample(np.random.PCG64DXSM(4), 152, b)
    np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------------------
# Bad input
@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(policy="first_ready"), "valid policies: efficiency"),
        (dict(draws_left=-1), "draws_left"),
        (dict(draws_left=2.5), "draws_left"),
        (dict(n=0), "n must be"),
        (dict(n=-3), "n must be"),
        (dict(n=True), "n must be"),
        (dict(visible="11m"), "exceed its copies"),
        (dict(rng=-1), "non-negative"),
        (dict(rng="seed"), "rng must be"),
        (dict(executor=object()), "executor"),
        (dict(wilds=1, wild_kind="5z", wild_copies=0), "wild_copies"),
        (dict(rule="nosuchrule"), "nosuchrule"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate_draws("1112345678999m", **{"n": 10, **kwargs})


def test_bad_hands():
    with pytest.raises(ValueError, match="3k\\+1"):
        simulate_draws("111234567899m", n=10)  # 12 tiles
    with pytest.raises(ValueError, match="not played"):
        simulate_draws("123m456p789s1122z", rule="sichuan", n=10)
