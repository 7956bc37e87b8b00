"""mjfast.games.simulate_games: invariants of simulated four-player games (payments, legal and
complete winning hands, hand sizes, calls), reproducibility across threads and executors,
plausible frequencies and input validation."""
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
import multiprocessing

import numpy as np
import pandas as pd
import pytest

import mjfast as mj
from mjfast import _parallel
from mjfast import games as G
from mjfast.scoring import WinContext

PAY = ["pay_0", "pay_1", "pay_2", "pay_3"]
N_GAMES = {"sichuan": 2500, "guobiao": 800, "guangdong": 1500, "xuezhan": 1200}
CASES = {"sichuan": ("sichuan", {}), "guobiao": ("guobiao", {}), "guangdong": ("guangdong", {}),
         "xuezhan": ("sichuan", {"xuezhan": True})}


def _raw(name, n, seed, options=None):
    """The kernel's records for the games ``simulate_games(name, n, rng=seed)`` plays."""
    game = G._Game(name, options or {})
    sizes = _parallel.chunk_sizes(n)
    children = _parallel.seed_sequence(seed).spawn(len(sizes))
    return game, G._raw(game, _parallel.bit_generators(children), sizes, 1)


_PLAYED = {}


def _play(case):
    if case not in _PLAYED:
        name, options = CASES[case]
        n = N_GAMES[case]
        df = G.simulate_games(name, n, rng=7, n_threads=2, **options)
        game, raw = _raw(name, n, 7, options)
        _PLAYED[case] = (name, df, game, raw)
    return _PLAYED[case]


@pytest.fixture(scope="module", params=list(CASES))
def played(request):
    return _play(request.param)


def test_columns_and_types(played):
    name, df, game, _r = played
    assert list(df.columns) == list(G.COLUMNS)
    assert len(df) == N_GAMES["xuezhan" if game.options.get("xuezhan") else name]
    assert df["game"].tolist() == list(range(len(df)))
    assert set(df["how"]) <= set(G.HOW)
    assert df["dealer"].between(0, 3).all()
    draw = df["how"] == "draw_game"
    assert (df.loc[draw, "winners"] == "").all() and (df.loc[~draw, "winners"] != "").all()
    assert (df.loc[draw, "winning_hand"] == "").all() and (df.loc[~draw, "winning_hand"] != "").all()
    assert (df.loc[~draw, "total"] >= (0 if name == "guangdong" else 1)).all()   # 鸡胡 is 0 番
    assert (df.loc[df["how"] == "self_draw", "discarder"] == -1).all()
    assert df.loc[df["how"].isin(["discard", "robbing_kong"]), "discarder"].between(0, 3).all()
    assert (df["turn"] >= 1).all()
    for w, d in zip(df["winners"], df["discarder"]):
        assert str(d) not in w.split(",")[:1]
        assert len(set(w.split(","))) == len(w.split(","))


def test_payments_sum_to_zero(played):
    name, df, _g, _r = played
    assert (df[PAY].sum(axis=1) == 0).all()
    won = df["how"] != "draw_game"
    # every winner gains
    for w, row in zip(df.loc[won, "winners"], df.loc[won, PAY].to_numpy()):
        if name != "sichuan":            # 四川 kong payments may outweigh a small win
            assert all(row[int(s)] > 0 for s in w.split(","))
    if name != "sichuan":
        assert (df.loc[~won, PAY] == 0).all().all()


def test_kernel_matches_frame(played):
    """The frame is the kernel's record, scored: same outcome, winners and first winner's hand."""
    name, df, game, (rec, hands, melds, kongs, events) = played
    assert df["dealer"].tolist() == rec[:, 0].tolist()
    assert df["how"].tolist() == [G.HOW[h] for h in rec[:, 1]]
    assert df["turn"].tolist() == rec[:, 3].tolist()
    winners = [{s for s in range(4) if m >> s & 1} for m in rec[:, 4]]
    assert [set(map(int, w.split(","))) if w else set() for w in df["winners"]] == winners
    xuezhan = bool(game.options.get("xuezhan"))
    assert (rec[:, 11] <= (3 if xuezhan else 1)).all()
    if not xuezhan:
        assert ((rec[:, 1] == 3) == (rec[:, 10] == 1)).all()      # a single-win hand: exhausted = draw
    else:
        assert (rec[:, 11] >= 2).mean() > 0.5                     # 血战: play goes on after a win


def test_winning_hands_complete_and_legal(played):
    name, df, game, (rec, hands, melds, kongs, events) = played
    checked = 0
    for i in range(len(rec)):
        dealer, wmask = int(rec[i, 0]), int(rec[i, 4])
        for s in range(4):
            nm = int((melds[i, s, :, 0] >= 0).sum())
            size = int(hands[i, s].sum()) + 3 * nm
            assert size == (14 if wmask >> s & 1 else 13), (name, i, s)
            for k in range(nm):
                kind, t, src = (int(x) for x in melds[i, s, k])
                if kind == 0:
                    assert name != "sichuan", "no chows in 四川"
                    assert src == (s - 1) % 4, "chows only from the left"
                    assert t < 27 and t % 9 <= 6
                if name == "sichuan":
                    assert t // 9 != (rec[i, 9] >> 2 * s) & 3, "no calls in the void suit"
        for e in range(int(rec[i, 11])):
            how, discarder, tile, flags, emask, _lk, before = (int(x) for x in events[i, e])
            assert emask and not emask & before
            for s in range(4):
                if not emask >> s & 1:
                    continue
                ctx = game.context(s, hands[i, s].tobytes(), tuple(map(tuple, melds[i, s].tolist())), tile,
                                   how == 0, discarder, dealer, flags)
                if how == 2:
                    ctx = WinContext(ctx.hand, win_tile=tile, winner=s, discarder=discarder, dealer=dealer,
                                     robbing_kong=True)
                assert mj.shanten(ctx.hand, rule=name) == -1, str(ctx.hand)
                assert mj.can_win(ctx, name), str(ctx.hand)
                if name == "sichuan":
                    void = (rec[i, 9] >> 2 * s) & 3
                    assert hands[i, s, 9 * void:9 * void + 9].sum() == 0
                if s == int(df["winners"].iloc[i].split(",")[0]):
                    assert df["winning_hand"].iloc[i] == str(ctx.hand)
                    sc = mj.score(ctx, name) if name != "sichuan" or not ctx.kong_discard else None
                    if sc is not None and not (name == "guangdong" and bin(wmask).count("1") > 1):
                        assert df["total"].iloc[i] == sc.total
                        assert df["elements"].iloc[i] == ",".join(r[0] for r in sc.rows)
                checked += 1
    assert checked >= len(rec) // 2


def test_frequencies_plausible(played):
    name, df, _g, _r = played
    share = df["how"].value_counts(normalize=True)
    draw, tsumo = share.get("draw_game", 0.0), share.get("self_draw", 0.0)
    assert 0.1 < tsumo < 0.5
    assert share.get("discard", 0.0) > 0.4
    assert draw < {"sichuan": 0.05, "guobiao": 0.3, "guangdong": 0.05}[name]
    if name == "guobiao":
        assert draw > 0.03                      # the 8-番 minimum makes draws common
        assert (df.loc[df["how"] != "draw_game", "total"] >= 8).all()
    assert 10 < df["turn"].mean() < 80
    assert df["dealer"].value_counts().min() > len(df) / 8


@pytest.mark.parametrize("case", [c for c in CASES if CASES[c][0] == "sichuan"])
def test_sichuan_draw_settlement(case):
    """Exhaustive draws are settled with 查花猪/查大叫 (rows still sum to zero)."""
    _name, df, _g, _r = _play(case)
    draws = df[df["how"] == "draw_game"]
    assert len(draws) > 0
    assert (draws[PAY].sum(axis=1) == 0).all()
    assert (draws[PAY] != 0).any(axis=None)


@pytest.mark.parametrize("name", G.SUPPORTED)
def test_reproducible_threads(name):
    a = G.simulate_games(name, 1030, rng=3, n_threads=1)     # two chunks
    b = G.simulate_games(name, 1030, rng=3, n_threads=2)
    pd.testing.assert_frame_equal(a, b)
    c = G.simulate_games(name, 1030 if name != "guobiao" else 100, rng=4, n_threads=2)
    assert not a.head(len(c)).equals(c)


def test_reproducible_thread_executor():
    """Through a thread pool, with the Python legality check in the loop (广东 min_fan=1)."""
    a = G.simulate_games("guangdong", 1030, rng=5, n_threads=2, min_fan=1)
    with ThreadPoolExecutor(2) as ex:
        b = G.simulate_games("guangdong", 1030, rng=5, executor=ex, min_fan=1)
    pd.testing.assert_frame_equal(a, b)
    won = a[a["how"] != "draw_game"]
    assert (won["total"] >= 1).all() and len(won) > 900


def test_reproducible_process_executor():
    a = G.simulate_games("sichuan", 2100, rng=6, n_threads=2)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        b = G.simulate_games("sichuan", 2100, rng=6, executor=ex)
    pd.testing.assert_frame_equal(a, b)


def test_generator_advances():
    g = np.random.default_rng(0)
    a = G.simulate_games("sichuan", 200, rng=g, n_threads=1)
    b = G.simulate_games("sichuan", 200, rng=g, n_threads=1)
    assert not a.equals(b)


def test_rule_object_and_options():
    a = G.simulate_games(mj.rules.get("sichuan", max_fan=6), 300, rng=1, n_threads=1)
    b = G.simulate_games("sichuan", 300, rng=1, n_threads=1, max_fan=6)
    pd.testing.assert_frame_equal(a, b)
    assert (a["total"] <= 6).all()


@pytest.mark.parametrize("kwargs, match", [
    ({"rule": "suzhou"}, "supported rules: sichuan, guobiao, guangdong"),
    ({"rule": "no_such_rule"}, "supported rules"),
    ({"rule": 3}, "rule must be"),
    ({"n_games": 0}, "n_games"),
    ({"n_games": -5}, "n_games"),
    ({"n_games": 2.5}, "n_games"),
    ({"n_games": True}, "n_games"),
    ({"policy": "random"}, "unknown policy"),
    ({"rng": "seed"}, "rng must be"),
    ({"rng": -1}, "non-negative"),
    ({"n_threads": 0}, "n_threads"),
    ({"executor": object()}, "executor"),
    ({"xuezhan": "maybe"}, "xuezhan"),
    ({"no_such_option": 1}, "no_such_option"),
])
def test_bad_input(kwargs, match):
    args = {"rule": "sichuan", "n_games": 10, "rng": 0, "n_threads": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        G.simulate_games(args.pop("rule"), args.pop("n_games"), **args)


def test_rule_object_with_options_rejected():
    with pytest.raises(ValueError, match="existing Rule"):
        G.simulate_games(mj.rules.get("sichuan"), 10, max_fan=3)


def test_docstring_examples():
    import doctest
    result = doctest.testmod(G, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
