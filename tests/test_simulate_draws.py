"""mjfast.simulate_draws: exact hypergeometric checks, a pure-Python twin of the kernel,
reproducibility across threads and executors, and input validation."""
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from math import comb

import numpy as np
import pandas as pd
import pytest

import mjfast as mj
from mjfast import _parallel
from mjfast import simulate as sim
from mjfast.simulate import simulate_draws
from mjfast._kernels import _wall
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
    ("1112345678999m5p", None, None, 122, 23),          # 14 tiles: discards 5p first
    ("1112345678999m", "suzhou", None, 111, 23),        # 28 flowers replaced from the back
    ("1112345678999m", "suzhou", "5z6z", 111, 23),      # visible dragons are seen flowers here
    # 12 orphans + a wildcard (face 7z): 36 natural orphans and the 3 other wildcards win
    (mj.Hand("19m19p19s123456z", wilds=1), None, None, 123, 39, dict(wild_kind="7z")),
    (mj.Hand("19m19p19s123456z", wilds=1), None, None, 121, 37, dict(wild_kind="7z", wild_copies=2)),
]
EXACT_CASES = [case if len(case) == 6 else case + ({},) for case in EXACT_CASES]


@pytest.mark.parametrize("hand, rule, visible, n_unseen, n_winning, extra", EXACT_CASES)
def test_ready_hand_matches_hypergeometric(hand, rule, visible, n_unseen, n_winning, extra):
    df = simulate_draws(hand, rule=rule, visible=visible, draws_left=18, n=N_EXACT, rng=12345, **extra)
    assert list(df.columns) == ["turn", "p_ready", "se_ready", "p_win", "se_win"]
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
    assert df["p_win"].iloc[0] == 0          # turn 1 can only switch the wait
    assert 0 < df["p_win"].iloc[6] < 1
    assert (df["p_win"].iloc[6:] == df["p_win"].iloc[6]).all()


# ---------------------------------------------------------------------------------------------
# A pure-Python twin of the kernel (same streams, same wall, same policy through the public
# shanten/ukeire functions) must give identical histograms.
class _Stream:
    """numpy's PCG64DXSM ``next_uint32``: low half of a 64-bit output, then its high half."""

    def __init__(self, seed_seq):
        self.bg = np.random.PCG64DXSM(seed_seq)
        self.buf = []

    def u32(self):
        if not self.buf:
            x = int(self.bg.random_raw())
            self.buf = [x >> 32]
            return x & 0xFFFFFFFF
        return self.buf.pop()

    def bounded(self, n):
        while True:
            m = self.u32() * n
            if (m & 0xFFFFFFFF) >= (2**32 - n) % n:
                return m >> 32


def _policy(c, n_melds, rule, visible):
    """(complete, discard, shanten after) by the documented efficiency policy."""
    s = mj.shanten(c, rule=rule)
    if s < 0:
        return True, -1, -1
    options = []
    for d in np.flatnonzero(c):
        c2 = c.copy()
        c2[d] -= 1
        options.append((mj.shanten(c2, rule=rule), int(d), c2))
    best = min(o[0] for o in options)
    tied = [o for o in options if o[0] == best]
    if len(tied) > 1:
        # most 进张, then the lowest kind index
        tied.sort(key=lambda o: (-mj.ukeire(o[2], rule=rule, visible=visible).count, o[1]))
    return False, tied[0][1], best


def _twin(hand, rule, visible, draws_left, children, sizes):
    spec = sim._setup(hand, rule, visible, (), None, None, None)
    c0 = spec["counts"]
    vis = spec["visible"]
    ready_hist = np.zeros((len(sizes), draws_left + 2), np.int32)
    win_hist = np.zeros_like(ready_hist)
    memo = {}

    def policy(c):
        key = c.tobytes()
        if key not in memo:
            memo[key] = _policy(c, 0, rule, vis)
        return memo[key]

    start_discard = int(c0.sum()) % 3 == 2
    for ci, (child, size) in enumerate(zip(children, sizes)):
        st = _Stream(child)
        wall = spec["wall"].tolist()
        for _ in range(size):
            c = c0.copy()
            f, b = 0, len(wall) - 1
            ready = won = -1
            if start_discard:
                complete, d, s_after = policy(c)
                c[d] -= 1
                ready = 0 if s_after == 0 else -1
            elif mj.shanten(c, rule=rule) == 0:
                ready = 0
            for t in range(1, draws_left + 1):
                tile, front = None, True
                while tile is None or tile == _wall.FLOWER_TOKEN:
                    if f > b:
                        tile = -1
                        break
                    j = f + st.bounded(b - f + 1)
                    if front:
                        wall[j], wall[f] = wall[f], wall[j]
                        tile = wall[f]
                        f += 1
                    else:
                        wall[j], wall[b] = wall[b], wall[j]
                        tile = wall[b]
                        b -= 1
                    front = False
                if tile < 0:
                    break
                c[tile] += 1
                complete, d, s_after = policy(c)
                if complete:
                    won = t
                    break
                c[d] -= 1
                if ready < 0 and s_after == 0:
                    ready = t
            ready_hist[ci, ready if ready >= 0 else draws_left + 1] += 1
            win_hist[ci, won if won >= 0 else draws_left + 1] += 1
    return ready_hist, win_hist


@pytest.mark.parametrize("hand, rule", [
    ("11p34567m45s9p149s", None),          # 2-shanten, 13 tiles
    ("123m456p78s1z2z3z4z5z6z", None),     # 14 tiles: discard first
    ("2345m34p678s2299s7p", "suzhou"),     # flowers in the wall
])
def test_kernel_matches_python_twin(hand, rule):
    draws_left = 8
    children = np.random.SeedSequence(2024).spawn(3)
    sizes = np.array([6, 5, 4], np.int32)
    spec = sim._setup(hand, rule, None, (), None, None, None)
    _, ready, win = sim._run(spec, draws_left, _parallel.bit_generators(children), sizes, 2, _wall.PolicyCache(2))
    ready_ref, win_ref = _twin(hand, rule, None, draws_left, children, sizes)
    np.testing.assert_array_equal(ready, ready_ref)
    np.testing.assert_array_equal(win, win_ref)


# ---------------------------------------------------------------------------------------------
# Reproducibility
HAND_3SHANTEN = "11p34567m45s9p149s"


def test_same_seed_same_frame_any_threads_and_executors(monkeypatch):
    kw = dict(draws_left=10, n=3000, rng=7)
    base = simulate_draws(HAND_3SHANTEN, n_threads=1, **kw)
    pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, n_threads=2, **kw))
    pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, n_threads=1, progress=True, **kw))
    monkeypatch.setattr(_parallel, "TASK_CHUNKS", 1)           # three tasks for three chunks
    with ThreadPoolExecutor(2) as ex:
        pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, executor=ex, **kw))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        pd.testing.assert_frame_equal(base, simulate_draws(HAND_3SHANTEN, executor=ex, **kw))


def test_seed_forms():
    kw = dict(draws_left=10, n=2000)
    a = simulate_draws(HAND_3SHANTEN, rng=1, **kw)
    b = simulate_draws(HAND_3SHANTEN, rng=2, **kw)
    assert not a.equals(b)
    ss = np.random.SeedSequence(1)
    pd.testing.assert_frame_equal(a, simulate_draws(HAND_3SHANTEN, rng=ss, **kw))
    pd.testing.assert_frame_equal(a, simulate_draws(HAND_3SHANTEN, rng=ss, **kw))   # not consumed
    gen = np.random.default_rng(5)
    g1 = simulate_draws(HAND_3SHANTEN, rng=gen, **kw)
    g2 = simulate_draws(HAND_3SHANTEN, rng=gen, **kw)
    assert not g1.equals(g2)                                                          # a Generator advances
    pd.testing.assert_frame_equal(g1, simulate_draws(HAND_3SHANTEN, rng=np.random.default_rng(5), **kw))


def test_chunks_do_not_depend_on_n():
    # chunk c always uses stream c: the first 1024 games are the same games for any n
    children = np.random.SeedSequence(9).spawn(2)
    spec = sim._setup(HAND_3SHANTEN, None, None, (), None, None, None)
    one = sim._run(spec, 6, _parallel.bit_generators(children[:1]), np.array([1024], np.int32), 1,
                   _wall.PolicyCache(1))
    two = sim._run(spec, 6, _parallel.bit_generators(children), np.array([1024, 1024], np.int32), 1,
                   _wall.PolicyCache(1))
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
@pytest.mark.parametrize("kwargs, match", [
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
])
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate_draws("1112345678999m", **{"n": 10, **kwargs})


def test_bad_hands():
    with pytest.raises(ValueError, match="3k\\+1"):
        simulate_draws("111234567899m", n=10)        # 12 tiles
    with pytest.raises(ValueError, match="not played"):
        simulate_draws("123m456p789s1122z", rule="sichuan", n=10)
