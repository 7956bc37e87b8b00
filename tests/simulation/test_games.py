"""mjfast.simulation.games.simulate_games: invariants of simulated four-player games (payments, legal and
complete winning hands, hand sizes, calls, tiles conserved), reproducibility across threads and
executors, plausible frequencies, streaming and input validation.

``MJFAST_ORACLE_SCALE=full`` checks the invariants on 100,000 games per rule (about an hour
on two cores) instead of the CI sizes."""

import importlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest
from _sim_helpers import check_tiles_conserved

import mjfast as mj
from mjfast.scoring import WinContext
from mjfast.simulation import _chunks
from mjfast.simulation import games as G

PAY = ["pay_0", "pay_1", "pay_2", "pay_3"]
N_GAMES = {
    "sichuan": 2500,
    "guobiao": 800,
    "guangdong": 1500,
    "xuezhan": 1200,
    "suzhou": 1200,
    "taicang": 1200,
    "guiyang": 1200,
    "ruijin": 600,
    "shangrao": 600,
    "jinhua": 1000,
    "jj": 600,
}
if os.environ.get("MJFAST_ORACLE_SCALE", "") == "full":
    N_GAMES = dict.fromkeys(N_GAMES, 100_000)
CASES = {name: (name, {}) for name in mj.rules.names()}
CASES["xuezhan"] = ("sichuan", {"xuezhan": True})
#: Largest plausible share of 流局 per rule (the built-in players, no dead wall): rules with a minimum
#: to win (国标 8 番, JJ's MCR fans, 苏州/太仓 花) see more draws.
MAX_DRAW = {"guobiao": 0.3, "jj": 0.3, "suzhou": 0.15, "taicang": 0.15, "guiyang": 0.15}


def _raw(name, n, seed, options=None, policy=None):
    """The kernel's records for the games ``simulate_games(name, n, rng=seed, policy=policy)`` plays."""
    game = G._Game(mj.rules.get(name, **(options or {})), seats=mj.policies.resolve(policy))
    sizes = _chunks.chunk_sizes(n)
    children = _chunks.seed_sequence(seed).spawn(len(sizes))
    return game, G._raw(game, _chunks.bit_generators(children), sizes, 1)


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
    extra = (["flipped"] if game.tables.flip else []) + (["voids"] if name == "sichuan" else [])
    assert list(df.columns) == list(G.COLUMNS) + extra
    if game.tables.flip:
        flippable = set(game.rule.wildcard.flippable)
        assert set(df["flipped"]) <= flippable and df["flipped"].nunique() > len(flippable) // 2
    if name == "sichuan":
        assert df["voids"].str.fullmatch("[mps]{4}").all()
    assert len(df) == N_GAMES["xuezhan" if game.options.get("xuezhan") else name]
    assert df["game"].tolist() == list(range(len(df)))
    assert set(df["how"]) <= set(G.HOW)
    assert df["dealer"].between(0, 3).all()
    draw = df["how"] == "draw_game"
    assert (df.loc[draw, "winners"] == "").all() and (df.loc[~draw, "winners"] != "").all()
    assert (df.loc[draw, "winning_hand"] == "").all() and (df.loc[~draw, "winning_hand"] != "").all()
    assert (df.loc[~draw, "total"] >= (0 if name == "guangdong" else 1)).all()  # 鸡胡 is 0 番
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
    # a lone winner gains (kong / 鸡 payments may outweigh a win; on 一炮多响 a winner may owe
    # another winner, e.g. JJ's 20 % share for a meld he fed)
    for w, row in zip(df.loc[won, "winners"], df.loc[won, PAY].to_numpy()):
        if name not in ("sichuan", "guiyang", "ruijin", "shangrao") and "," not in w:
            assert row[int(w)] > 0
    if name not in ("sichuan", "guiyang", "ruijin", "shangrao"):
        assert (df.loc[~won, PAY] == 0).all().all()


def test_kernel_matches_frame(played):
    """The frame is the kernel's record, scored: same outcome, winners and first winner's hand."""
    name, df, game, (rec, hands, melds, kongs, events, seats) = played
    assert df["dealer"].tolist() == rec[:, 0].tolist()
    assert df["how"].tolist() == [G.HOW[h] for h in rec[:, 1]]
    assert df["turn"].tolist() == rec[:, 3].tolist()
    winners = [{s for s in range(4) if m >> s & 1} for m in rec[:, 4]]
    assert [set(map(int, w.split(","))) if w else set() for w in df["winners"]] == winners
    xuezhan = bool(game.options.get("xuezhan"))
    assert (rec[:, 11] <= (3 if xuezhan else 1)).all()
    if not xuezhan:
        assert ((rec[:, 1] == 3) == (rec[:, 10] == 1)).all()  # a single-win hand: exhausted = draw
    else:
        assert (rec[:, 11] >= 2).mean() > 0.5  # 血战: play goes on after a win


def test_tiles_conserved(played):
    """No kind appears more often than its copies in play; flowers and wildcards likewise."""
    name, df, game, raw = played
    check_tiles_conserved(game, raw)


def test_winning_hands_complete_and_legal(played):
    name, df, game, (rec, hands, melds, kongs, events, seats) = played
    no_chow = game.rule.calls.chow == "none"
    checked = 0
    for i in range(len(rec)):
        dealer, wmask, flipped = int(rec[i, 0]), int(rec[i, 4]), int(rec[i, 12])
        for s in range(4):
            nm = int((melds[i, s, :, 0] >= 0).sum())
            size = int(hands[i, s].sum()) + int(seats[i, s, 82]) + 3 * nm
            assert size == (14 if wmask >> s & 1 else 13), (name, i, s)
            for k in range(nm):
                kind, t, src, _order, _wilds = (int(x) for x in melds[i, s, k])
                if kind == 0:
                    assert not no_chow, f"no chows in {name}"
                    assert src == (s - 1) % 4, "chows only from the left"
                    # a suit chow by its lowest tile; under honour chows (瑞金 "中发白任何三个可以互吃，
                    # 东南西北风任何三个也可以互吃") 27-30 the winds but that one, 31 中发白
                    assert (t < 27 and t % 9 <= 6) or (bool(game.rule.calls.chow_honours) and 27 <= t <= 31)
                if name == "sichuan":
                    assert t // 9 != (rec[i, 9] >> 2 * s) & 3, "no calls in the void suit"
        for e in range(int(rec[i, 11])):
            how, discarder, tile, flags, emask, _lk, before = (int(x) for x in events[i, e])
            assert emask and not emask & before
            for s in range(4):
                if not emask >> s & 1:
                    continue
                ctx = game.context(
                    s,
                    hands[i, s].tobytes(),
                    tuple((m[0], m[1], m[2], m[4]) for m in melds[i, s].tolist()),
                    tile,
                    how == 0,
                    discarder,
                    dealer,
                    flags,
                    int(seats[i, s, 82]),
                    seats[i, s, :48].tobytes(),
                    flipped,
                )
                if how == 2:
                    ctx = WinContext(
                        ctx.hand,
                        win_tile=tile,
                        winner=s,
                        discarder=discarder,
                        dealer=dealer,
                        robbing_kong=True,
                        flipped=ctx.flipped,
                    )
                assert mj.shanten(ctx.hand, rule=name, wild_kind=game.wild_kind(flipped)) == -1, str(ctx.hand)
                assert mj.can_win(ctx, name), str(ctx.hand)
                if name == "sichuan":
                    void = (rec[i, 9] >> 2 * s) & 3
                    assert hands[i, s, 9 * void : 9 * void + 9].sum() == 0
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
    assert 0.1 < tsumo < (0.85 if name == "guiyang" else 0.5)  # 贵阳: 平胡 needs a 豆 to win on a discard
    assert share.get("discard", 0.0) > (0.1 if name == "guiyang" else 0.4)
    assert draw < MAX_DRAW.get(name, 0.05)
    if name == "guobiao":
        assert draw > 0.03  # the 8-番 minimum makes draws common
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
    a = G.simulate_games(name, 1030, rng=3, n_threads=1)  # two chunks
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


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"rule": "no_such_rule"}, "unknown rule .no_such_rule.; valid rules"),
        ({"rule": 3}, "rule must be"),
        ({"n_games": 0}, r"\bn must be"),
        ({"n_games": -5}, r"\bn must be"),
        ({"n_games": 2.5}, r"\bn must be"),
        ({"n_games": True}, r"\bn must be"),
        ({"policy": "random"}, "unknown policy"),
        ({"rng": "seed"}, "rng must be"),
        ({"rng": -1}, "non-negative"),
        ({"n_threads": 0}, "n_threads"),
        ({"executor": object()}, "executor"),
        ({"xuezhan": "maybe"}, "xuezhan"),
        ({"no_such_option": 1}, "no_such_option"),
    ],
)
def test_bad_input(kwargs, match):
    args = {"rule": "sichuan", "n_games": 10, "rng": 0, "n_threads": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        G.simulate_games(args.pop("rule"), args.pop("n_games"), **args)


def test_rule_object_with_options_rejected():
    with pytest.raises(ValueError, match="existing Rule"):
        G.simulate_games(mj.rules.get("sichuan"), 10, max_fan=3)


def test_iter_games_batches_match_simulate_games():
    """Streaming hands back the same games, numbered on, in batches of whole chunks."""
    batches = list(G.iter_games("taicang", 2100, rng=9, n_threads=1, batch_games=1000))
    assert [len(b) for b in batches] == [1024, 1024, 52]
    whole = G.simulate_games("taicang", 2100, rng=9, n_threads=1)
    joined = pd.concat(batches, ignore_index=True)
    assert joined["game"].tolist() == list(range(2100))
    for c in whole.columns:
        assert joined[c].astype(str).tolist() == whole[c].astype(str).tolist(), c


def test_compact_records():
    """The columnar records stay within 200 bytes a game (strings included)."""
    for name in ("sichuan", "suzhou", "taicang"):
        df = G.simulate_games(name, 1024, rng=2, n_threads=2)
        assert df.memory_usage(deep=True, index=False).sum() / len(df) <= 200, name


def test_streaming_memory_bounded(monkeypatch):
    """Memory held while streaming does not grow with the batches already handed back (after a
    warm-up that loads the tables and fills the bounded caches, shrunk here so that it is quick)."""
    import functools
    import gc
    import tracemalloc

    from mjfast.scoring import _outcome

    small = functools.lru_cache(maxsize=64)(_outcome.meld_objects.__wrapped__)
    monkeypatch.setattr(G, "_melds", small)
    monkeypatch.setattr(_outcome, "meld_objects", small)

    def peak(n_batches):
        gc.collect()
        tracemalloc.start()
        for batch in G.iter_games("sichuan", 1024 * n_batches, rng=1, n_threads=1, batch_games=1024):
            del batch
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    for _ in G.iter_games("sichuan", 4096, rng=0, n_threads=1, batch_games=1024):
        pass
    short, long = peak(2), peak(8)
    assert long < 1.25 * short, (short, long)


def test_first_discard_wins_follow_the_rule():
    """A win on the dealer's first discard is 瑞金's 地胡 (paid as 飞); a first-draw self-draw is not."""
    df = G.simulate_games("ruijin", 6000, rng=20261129, n_threads=2)
    first = (df["how"] == "discard") & (df["turn"] == 2) & (df["discarder"] == df["dealer"])
    earthly = df["elements"].astype(str).str.split(",").apply(lambda e: "earthly" in e)
    assert first.sum() > 0
    assert (earthly == first).all()


def _compare_with_checker(monkeypatch, name, switch_off, n, seed, options, policy):
    """Assert that the kernel's records of ``n`` games equal those played when the rule's kernel
    minimum is switched off (``switch_off(monkeypatch)``), so that every complete hand is put to
    ``can_win`` through the Python checker; return the checker's answers."""
    _g, in_kernel = _raw(name, n, seed, options, policy=policy)
    game = G._Game(mj.rules.get(name, **options), seats=mj.policies.resolve(policy))
    answers = []

    def asked(*args):
        answers.append(checker(*args))
        return answers[-1]

    checker, game.checker = game.checker, asked
    switch_off(monkeypatch)
    sizes = _chunks.chunk_sizes(n)
    children = _chunks.seed_sequence(seed).spawn(len(sizes))
    by_checker = G._raw(game, _chunks.bit_generators(children), sizes, 1)
    for a, b in zip(in_kernel, by_checker):
        np.testing.assert_array_equal(a, b)
    return answers


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"threshold": "2_3"},
        {"threshold_counts": "hard_only"},
        {"tileset": 144, "qianggang_exempt": True},
        {"discard_wind_triplet": "pung"},
    ],
)
def test_suzhou_minimum_in_kernel_matches_can_win(monkeypatch, options):
    """The kernel's 苏州 minimum accepts exactly the wins ``mj.can_win`` accepts: the same games
    come out as when every complete hand is put to ``can_win`` through the Python checker (one
    differing answer ends a game early or lets it run on), and that checker turns down some
    complete hands and accepts others, so both answers are compared.  The speed players play:
    they sit on the complete hands the minimum turns down, so the checker is asked often."""
    n = 1500
    answers = _compare_with_checker(
        monkeypatch,
        "suzhou",
        lambda mp: mp.setattr(importlib.import_module("mjfast.scoring.suzhou"), "kernel_minimum", lambda rule: None),
        n,
        5,
        options,
        "efficiency",
    )
    assert answers.count(False) >= 50 and answers.count(True) >= n // 2, (answers.count(False), len(answers))


@pytest.mark.parametrize(
    "options, policy",
    [
        ({}, "efficiency"),
        ({}, None),
        ({"tileset": 144}, "efficiency"),
        ({"exclusions": "v2", "selfdraw_buqiuren": True, "qingyaojiu_tongke": True}, "efficiency"),
        ({"yipao_duoxiang": True, "sigang_angang": True}, None),
    ],
)
def test_guobiao_minimum_in_kernel_matches_can_win(monkeypatch, options, policy):
    """The kernel's 8-番 minimum (the compiled fan search) accepts exactly the wins ``mj.can_win``
    accepts: the same games come out as when every complete hand is put to ``can_win`` through
    the Python checker, which turns down some complete hands and accepts others (the value
    players' wait for more 番 still scored by the compiled search)."""
    n = 1200
    answers = _compare_with_checker(
        monkeypatch, "guobiao", lambda mp: mp.setattr(G, "FAN_MINIMUM_IN_KERNEL", False), n, 9, options, policy
    )
    assert answers.count(False) >= 100 and answers.count(True) >= n // 2, (answers.count(False), len(answers))


def test_guobiao_minimum_stays_with_the_checker_when_the_fans_change():
    """联众 hands and changed fan values are not the compiled search's: the kernel asks ``can_win``."""
    from mjfast.scoring import _outcome

    assert _outcome.hook(mj.rules.get("guobiao"), "kernel_fan_minimum")(mj.rules.get("guobiao")) == 0
    lz = mj.rules.get("guobiao", lianzhong_extras=True)
    assert _outcome.hook(lz, "kernel_fan_minimum")(lz) is None
    v = mj.rules.variant("guobiao", "guobiao_all_chows_10", values={"all_chows": 10})
    assert _outcome.hook(v, "kernel_fan_minimum") is None
    ref = mj.simulate_games("guobiao", 1000, rng=3, n_threads=1, policy="efficiency")
    var = mj.simulate_games(v, 1000, rng=3, n_threads=1, policy="efficiency")
    assert not ref["winning_hand"].equals(var["winning_hand"])  # 平和 at 10 番 wins more hands


@pytest.mark.parametrize(
    "forms",
    [
        "standard",
        "standard seven_pairs",
        "standard thirteen_orphans",
        "standard seven_pairs thirteen_orphans",
        "seven_pairs thirteen_orphans",
    ],
)
def test_policy_table_matches_the_shanten_kernel(forms):
    """The policy's shanten after each discard and the kinds each discard's hand accepts (one
    merge of the other groups per group, running pair / orphan counts) are the shanten
    kernel's, on random hands built to be near every form."""
    from mjfast import _bridge
    from mjfast._kernels import _game as kg
    from mjfast._kernels import _shanten as ks

    bits = sum(_bridge.FORM_BITS[f] for f in forms.split())
    cap, play = np.full(34, 4, np.uint8), np.ones(34, np.uint8)
    orphans = [k for k in range(34) if k >= 27 or k % 9 in (0, 8)]
    rng = np.random.default_rng(20261201)
    near = 0
    for options in (0, _bridge.OPT_PAIRS_DISTINCT):
        for _ in range(1500):
            n_melds = int(rng.choice([0, 0, 0, 1, 2, 3, 4]))
            x = rng.random()
            kinds = (
                orphans
                if x < 0.25
                else list(range(9 * int(rng.integers(3)), 9 * int(rng.integers(3)) + 9)) + list(range(27, 34))
                if x < 0.6
                else list(range(34))
            )
            wall = np.repeat(np.asarray(sorted(set(kinds))), 4)
            c = np.bincount(rng.choice(wall, 14 - 3 * n_melds, replace=False), minlength=34).astype(np.uint8)
            if rng.random() < 0.3 and n_melds == 0:  # pairs: near seven pairs
                c = np.minimum(np.bincount(rng.choice(kinds, 7), minlength=34) * 2, 4).astype(np.uint8)
                while c.sum() < 14:
                    k = int(rng.integers(34))
                    c[k] += c[k] < 4
            want = []
            for d in range(34):
                if not c[d]:
                    want.append(None)
                    continue
                c[d] -= 1
                s = ks.shanten_fast(c, n_melds, 0, cap, play, bits, options)
                accepts = []
                for k in range(34):
                    if c[k] < 4:
                        c[k] += 1
                        if ks.shanten_fast(c, n_melds, 0, cap, play, bits, options) < s:
                            accepts.append(k)
                        c[k] -= 1
                c[d] += 1
                want.append((s, accepts))
            assert kg.discard_table(c, n_melds, bits, options) == want, (c.tolist(), n_melds, options)
            near += min(w[0] for w in want if w is not None) <= 0
    assert near >= 100


def test_a_robbed_kong_is_judged_as_a_robbing_win():
    """The kernel asks about a win on an added kong's tile with its own flag, and the engine's
    context says 抢杠: 苏州 then applies the self-draw minimum (SZ-C8) — 3 花 suffice where a
    discard win needs 4 — and ``qianggang_exempt`` waives it; other rules' checkers see the
    robbing (e.g. 国标's 抢杠和)."""
    counts = mj.tiles.counts("123m456m789p22p").astype(np.uint8).tobytes()
    pung = (G._MELD_KINDS.index("pung"), mj.tiles.CODES.index("9s"), 2, 0)
    flowers = np.zeros(mj.tiles.N_TILES_ALL, np.uint8)
    flowers[[mj.tiles.CODES.index(f) for f in ("F1", "F2", "F3")]] = 1
    for options, legal in (({}, True), ({"qianggang_exempt": True}, True)):
        game = G._Game(mj.rules.get("suzhou", **options))
        ask = dict(
            seat=0,
            counts=counts,
            melds=(pung,),
            tile=mj.tiles.CODES.index("2p"),
            self_draw=0,
            discarder=1,
            dealer=0,
            flowers=flowers.tobytes(),
        )
        robbed = game.context(flags=G._FL_ROBBING_KONG, **ask)
        plain = game.context(flags=0, **ask)
        assert robbed.robbing_kong and not plain.robbing_kong
        assert mj.can_win(robbed, game.rule) is legal
        assert mj.can_win(plain, game.rule) is False  # 3 花 < 4 for a discard win
    assert mj.can_win(
        G._Game(mj.rules.get("suzhou", threshold="2_3")).context(flags=0, **ask), "suzhou", threshold="2_3"
    )
