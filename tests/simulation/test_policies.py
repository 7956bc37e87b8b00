"""Configurable and user-written players (mjfast.policies): Efficiency() plays exactly the games the
engine played before the players were configurable, each call mode does what its docstring says
(checked against a replay of the action log), user policies see only their seat's view, their
illegal answers raise, and duplicate matches replay each wall four times."""

import contextlib
import importlib.util
import pathlib
import pickle
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd
import pytest
import toy_policies as tp
from _hands import random_contexts, rule_kinds
from _sim_helpers import actions, check_tiles_conserved

import mjfast as mj
from mjfast import policies
from mjfast._kernels import _game as _kg
from mjfast.policies import Efficiency, Value
from mjfast.simulation import _chunks
from mjfast.simulation import games as G
from mjfast.simulation import matches as M

_DATA = pathlib.Path(__file__).with_name("data")


def _golden_module():
    spec = importlib.util.spec_from_file_location("make_efficiency_golden", _DATA / "make_efficiency_golden.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _raw(rule, n, seed, seats, log=0, **options):
    """``(game, records)`` of ``simulate_games(rule, n, rng=seed, policy=seats)`` with the action log."""
    rule = rule if isinstance(rule, mj.rules.Rule) else mj.rules.get(rule, **options)
    game = G._Game(rule, seats=policies.resolve(seats))
    sizes = _chunks.chunk_sizes(n)
    children = _chunks.seed_sequence(seed).spawn(len(sizes))
    return game, G._raw(game, _chunks.bit_generators(children), sizes, 1, log=log)


# ---------------------------------------------------------------------------------------------
# Efficiency() is today's bot


@pytest.mark.parametrize("policy", ["efficiency", Efficiency(), (Efficiency(call="faster", keep_concealed=False),) * 4])
def test_efficiency_plays_the_recorded_games(policy):
    """Games and matches of all ten rules (and 血战) on fixed seeds, recorded before the players were
    configurable: ``Efficiency()``, the player of those days, reproduces every column."""
    mod = _golden_module()
    golden = pd.read_csv(mod.PATH, dtype=str, keep_default_na=False)
    now = mod.frames(policy=policy).astype(str)
    assert list(now.columns) == list(golden.columns)
    pd.testing.assert_frame_equal(now.reset_index(drop=True), golden)


def test_the_policy_name_and_a_list_of_efficiency_players_are_one_player():
    base = mj.simulate_games("taicang", 300, rng=2, n_threads=1, policy=Efficiency())
    for policy in ("efficiency", [Efficiency()] * 4, ["efficiency", "efficiency", Efficiency(), Efficiency()]):
        pd.testing.assert_frame_equal(base, mj.simulate_games("taicang", 300, rng=2, n_threads=1, policy=policy))


def test_the_value_player_is_the_default():
    base = mj.simulate_games("taicang", 300, rng=2, n_threads=1)
    assert base.attrs["policy"] == "Value()" and policies.DEFAULT == Value()
    for policy in ("value", Value(), [None, "value", Value(), None]):
        pd.testing.assert_frame_equal(base, mj.simulate_games("taicang", 300, rng=2, n_threads=1, policy=policy))
    speed = mj.simulate_games("taicang", 300, rng=2, n_threads=1, policy="efficiency")
    assert not base[["winners", "winning_hand"]].equals(speed[["winners", "winning_hand"]])


def test_policy_attrs_and_repr():
    df = mj.simulate_games("guangdong", 20, rng=0, n_threads=1)
    assert df.attrs["policy"] == "Value()"
    df = mj.simulate_games(
        "guangdong", 20, rng=0, n_threads=1, policy=[Efficiency(), Efficiency(call="never"), tp.Loner(), None]
    )
    assert df.attrs["policy"] == "[Efficiency(), Efficiency(call='never'), Loner(), Value()]"
    m = mj.simulate_matches("guangdong", 2, hands=2, rng=0, n_threads=1, policy=Efficiency(keep_concealed=True))
    assert m.attrs["policy"] == "Efficiency(keep_concealed=True)"
    assert pickle.loads(pickle.dumps(Efficiency(call="always"))) == Efficiency(call="always")


@pytest.mark.parametrize(
    "bad, words",
    [
        ("greedy", ["policy", "unknown policy", "'efficiency'", "'value'", "Efficiency or Value"]),
        (3, ["policy", "unknown policy"]),
        ([Efficiency()] * 3, ["policy", "one per seat (4)"]),
        ([Efficiency(), "fast", None, None], ["policy[1]", "unknown policy"]),
        (object(), ["policy", "discard, claim or declare_win"]),
    ],
)
def test_bad_policies_name_the_argument_and_the_choices(bad, words):
    for call in (
        lambda: mj.simulate_games("sichuan", 5, rng=0, policy=bad),
        lambda: mj.iter_games("sichuan", 5, rng=0, policy=bad),
        lambda: mj.simulate_matches("sichuan", 1, hands=1, rng=0, policy=bad),
        lambda: mj.compare_rules(["sichuan"], n=5, rng=0, policy=bad),
    ):
        with pytest.raises(ValueError) as err:
            call()
        for w in words:
            assert w in str(err.value)


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"call": "sometimes"}, ["call", "'faster', 'always', 'never'"]),
        ({"keep_concealed": 1}, ["keep_concealed", "True or False"]),
    ],
)
def test_bad_efficiency_parameters(kw, words):
    with pytest.raises(ValueError) as err:
        Efficiency(**kw)
    for w in words:
        assert w in str(err.value)


# ---------------------------------------------------------------------------------------------
# The call modes, checked against a replay of the action log


class _Replay:
    """Every seat's concealed counts, melds and call locks, action by action."""

    def __init__(self, rule):
        self.c = np.zeros((4, 34), int)
        self.w = [0] * 4  # wildcards held
        self.melds = [[] for _ in range(4)]  # (kind code of the kernel, tile, source, wildcard bits)
        self.lock = [set() for _ in range(4)]
        self.n_kongs = 0
        self.locks = rule.engine.call_locks

    def open(self, s):
        return any(m[0] != 4 for m in self.melds[s])

    def apply(self, act, s, t, last_discard):
        c = self.c[s]
        if act == "draw":
            if t < 34:
                c[t] += 1
            self.w[s] += t == _kg.WILD
            self.lock[s].clear()
        elif act == "discard":
            self.w[s] -= t == _kg.WILD
            if t < 34:
                if self.locks and c[t] == 3:
                    self.lock[s].add(t)
                c[t] -= 1
        elif act == "pass_pung" and self.locks:
            self.lock[s].add(t)
        elif act == "pung":
            c[t] -= 2
            self.melds[s].append((1, t, last_discard[0], 0))
            self.lock[s].clear()
        elif act == "kong":
            c[t] -= 3
            self.melds[s].append((2, t, last_discard[0], 0))
            self.n_kongs += 1
            self.lock[s].clear()
        elif act == "chow":  # the log's tile: the chow's code | its wildcard bits << CHOW_WILD_SHIFT
            k, wm = t & 63, t >> _kg.CHOW_WILD_SHIFT
            for i, j in enumerate(_chow_run(k)):
                if wm >> i & 1:
                    self.w[s] -= 1
                elif j != last_discard[1]:
                    c[j] -= 1
            self.melds[s].append((0, k, last_discard[0], wm))
            self.lock[s].clear()
        elif act == "concealed_kong":
            c[t] -= 4
            self.melds[s].append((4, t, -1, 0))
            self.n_kongs += 1
        elif act == "added_kong":
            c[t] -= 1
            self.n_kongs += 1
            self.melds[s] = [(3 if (k == 1 and x == t) else k, x, src, wm) for k, x, src, wm in self.melds[s]]


def _chow_run(k):
    """The tiles of a logged chow: a suit chow by its lowest tile; an honour chow (瑞金 "中发白任何
    三个可以互吃，东南西北风任何三个也可以互吃") 27-30 for the three winds but that one, 31 for 中发白."""
    if k < 27:
        return (k, k + 1, k + 2)
    return (31, 32, 33) if k == 31 else tuple(w for w in range(27, 31) if w != k)


def _chows(c, d, honours=False, wilds=0):
    """The chows the seat holding ``c`` may make on the discard ``d`` (honour chows with
    ``honours``); with ``wilds`` held, also those in which wildcards stand for one or two of the
    other tiles, as the log gives them (code | wildcard bits << CHOW_WILD_SHIFT)."""
    out = []
    if d >= 27:
        cands = ([31] if d >= 31 else [k for k in range(27, 31) if k != d]) if honours else []
    else:
        cands = [k for k in (d - 2, d - 1, d) if k >= 0 and k // 9 == d // 9 == (k + 2) // 9]
    for k in cands:
        run = _chow_run(k)
        if d not in run:
            continue
        for wm in range(7 if wilds else 1):
            need = [j for i, j in enumerate(run) if j != d and not wm >> i & 1]
            if not wm >> run.index(d) & 1 and bin(wm).count("1") <= wilds and all(c[j] > 0 for j in need):
                out.append(k | wm << _kg.CHOW_WILD_SHIFT)
    return out


def _voids(rec, i):
    v = int(rec[i, 9])
    return [None if v == 0xFF else v >> (2 * s) & 3 for s in range(4)]


def _play_through(rule, game, records, check):
    """Replay every logged game, calling ``check(replay, i, actions, j, voids)`` before action ``j``."""
    rec, lg = records[0], records[-1]
    for i in range(len(rec)):
        acts = actions(lg[i])
        assert len(acts) < lg.shape[1], "log too short for the test"
        rp = _Replay(rule)
        voids = _voids(rec, i) if rule.engine.void_suit else [None] * 4
        last = (-1, -1)
        for j, (a, s, t) in enumerate(acts):
            check(rp, i, acts, j, voids)
            rp.apply(a, s, t, last)
            if a == "discard":
                last = (s, t)


@pytest.mark.parametrize("rule", ["guangdong", "suzhou", "sichuan", "jj", "guobiao", "ruijin"])
def test_always_makes_every_legal_call(rule):
    """``call="always"``: after every discard nobody won on and that was not the last, the seat
    holding two (three) of it 碰s (杠s) it, else the next seat 吃s where the rule allows a chow;
    after its own draw it makes every concealed / added kong it holds."""
    rule = mj.rules.get(rule)
    game, records = _raw(rule, 150, 5, Efficiency(call="always"), log=900)
    chow = rule.calls.chow == "left"
    honours = bool(rule.calls.chow_honours)
    wild_chow = rule.wildcard is not None and "chow" in rule.wildcard.usable_in_calls
    checked = {"pung": 0, "chow": 0, "kong": 0, "honour_chow": 0, "wild_chow": 0}

    def check(rp, i, acts, j, voids):
        a, cur, d = acts[j]
        if j + 1 >= len(acts):
            return  # the discard after the last wall tile: nobody claims it
        nxt = acts[j + 1]
        if a == "discard" and d < 34 and nxt[0] != "win":
            for k in range(1, 4):
                q = (cur + k) % 4
                if (
                    rp.c[q][d] >= 2
                    and len(rp.melds[q]) < 4
                    and d not in rp.lock[q]
                    and not (voids[q] is not None and d // 9 == voids[q])
                ):
                    want = "kong" if rp.c[q][d] == 3 and rp.n_kongs < 16 else "pung"
                    assert nxt[:3] == (want, q, d), (i, j, acts[j : j + 3])
                    checked[want] += 1
                    return
            q = (cur + 1) % 4
            legal = _chows(rp.c[q], d, honours, rp.w[q] if wild_chow else 0)
            if chow and len(rp.melds[q]) < 4 and legal:
                assert nxt[0] == "chow" and nxt[1] == q and nxt[2] in legal, (i, j, acts[j : j + 3])
                checked["chow"] += 1
                checked["honour_chow"] += d >= 27
                checked["wild_chow"] += nxt[2] >> _kg.CHOW_WILD_SHIFT != 0
            elif nxt[0] == "chow":
                assert False, ("a chow the replay finds illegal", i, j, acts[j : j + 3])
        if (
            a == "draw"
            and nxt[0] not in ("win", "draw", "pass_win")
            and nxt[1] == cur
            and sum(rp.c[cur]) % 3 == 1
            and len(rp.melds[cur]) < 4
        ):
            # the seat's turn after a draw (the deal's draws are followed by other draws)
            c = rp.c[cur].copy()
            if d < 34:
                c[d] += 1
            v = voids[cur]
            kongs = [
                k
                for k in range(34)
                if not (v is not None and k // 9 == v)
                and (c[k] == 4 or (c[k] >= 1 and any(m == (1, k) for m in ((x[0], x[1]) for x in rp.melds[cur]))))
            ]
            if kongs and rp.n_kongs < 16:
                assert nxt[0] in ("concealed_kong", "added_kong") and nxt[2] == kongs[0], (i, j, acts[j : j + 3])
                checked["kong"] += 1

    _play_through(rule, game, records, check)
    assert checked["pung"] > 50
    assert checked["chow"] > (50 if chow else -1)
    assert checked["honour_chow"] > (20 if honours else -1)
    assert honours or checked["honour_chow"] == 0
    # 瑞金 "如果含有宝，算吃成功，但宝不能拿起来了": a 宝 may stand in a called chow (and stays there)
    assert checked["wild_chow"] > (20 if wild_chow else -1)
    assert wild_chow or checked["wild_chow"] == 0
    check_tiles_conserved(game, records)


@pytest.mark.parametrize("rule", mj.rules.names())
def test_never_makes_no_melded_sets(rule):
    """``call="never"``: no chow, pung or exposed / added kong in any game (concealed kongs only),
    while ``Efficiency()`` on the same seeds makes many."""
    _game, rec = _raw(rule, 300, 6, Efficiency(call="never"))
    kinds = rec[2][..., 0]
    assert not np.isin(kinds, [0, 1, 2, 3]).any()
    _game, base = _raw(rule, 300, 6, Efficiency())
    assert np.isin(base[2][..., 0], [0, 1, 2, 3]).sum() > 100


def _ready_after(rule, c, melds, seat):
    from mjfast.hand import Hand
    from mjfast.scoring._outcome import meld_objects

    h = Hand(np.array(c, np.uint8), melds=meld_objects(seat, tuple(melds)))
    return mj.shanten(h, rule=rule) == 0


@pytest.mark.parametrize("rule, call", [("guangdong", "faster"), ("jj", "always"), ("guobiao", "faster")])
def test_keep_concealed_calls_only_into_a_ready_hand(rule, call):
    """``keep_concealed=True``: every call made while the hand was concealed leaves it ready (after
    the discard that follows a 碰 / 吃, or at once after a 杠), and the players stay concealed
    more often than without it."""
    rule_obj = mj.rules.get(rule)
    game, records = _raw(rule_obj, 200, 7, Efficiency(call=call, keep_concealed=True), log=900)
    n = [0]

    def check(rp, i, acts, j, voids):
        a, s, t = acts[j]
        if a in ("pung", "chow", "kong") and not rp.open(s):
            after = _Replay(rule_obj)
            after.c, after.melds = rp.c.copy(), [list(m) for m in rp.melds]
            last = next((x[1], x[2]) for x in reversed(acts[:j]) if x[0] == "discard")
            after.apply(a, s, t, last)
            c = after.c[s].copy()
            if a != "kong":
                nxt = acts[j + 1]
                assert nxt[0] == "discard" and nxt[1] == s
                c[nxt[2]] -= 1
            assert _ready_after(rule_obj, c, after.melds[s], s), (i, j, acts[j - 2 : j + 2])
            n[0] += 1

    _play_through(rule_obj, game, records, check)
    assert n[0] > 5
    _g, base = _raw(rule_obj, 200, 7, Efficiency(call=call))

    def opened(r):  # seat-hands with a call
        return np.isin(r[2][..., 0], [0, 1, 2, 3]).any(axis=2).sum()

    assert opened(records) < 0.8 * opened(base)


# ---------------------------------------------------------------------------------------------
# User policies


def test_missing_methods_fall_back_to_value():
    """A user policy with only ``declare_win`` (always True) plays exactly Value()'s games (under
    rules where Value() takes every win: not 国标, where it may wait for more 番), not
    Efficiency()'s."""
    for rule in ("sichuan", "jinhua", "guangdong"):
        a = mj.simulate_games(rule, 300, rng=3, n_threads=1, policy=Value())
        b = mj.simulate_games(rule, 300, rng=3, n_threads=1, policy=tp.OnlyWins())
        pd.testing.assert_frame_equal(a, b)
        speed = mj.simulate_games(rule, 300, rng=3, n_threads=1, policy=Efficiency())
        assert not speed["winning_hand"].equals(b["winning_hand"])


def test_value_players_pung_before_their_void_suit_is_gone():
    """Under 定缺 a hand that still holds its void suit is rated by the hand left after the
    void tile it must discard next, so a value player's pung need not wait until the void suit
    is gone (rated as nothing, such a pung never raised the rating)."""
    rule = mj.rules.get("sichuan")
    game, records = _raw(rule, 300, 11, Value(), log=900)
    pungs = {"void held": 0, "void gone": 0}

    def check(rp, i, acts, j, voids):
        a, seat, _ = acts[j]
        if a == "pung":
            v = voids[seat]
            pungs["void held" if sum(rp.c[seat][9 * v : 9 * v + 9]) else "void gone"] += 1

    _play_through(rule, game, records, check)
    assert pungs["void held"] > 20 and pungs["void gone"] > 20, pungs


def test_rule_modules_set_known_value_weights():
    """A rule module's ``VALUE_KNOBS`` names only the kernel's weights, and they change the play
    as documented: under 贵阳 (no defence) ``Value()`` plays ``Value(defend=False)``'s games,
    which it does not under 苏州."""
    for name in mj.rules.names():
        knobs = getattr(mj.rules._REGISTRY[name], "VALUE_KNOBS", {})
        assert set(knobs) <= set(_kg.VALUE_KNOBS), (name, knobs)
    for rule, same in (("guiyang", True), ("suzhou", False)):
        a = mj.simulate_games(rule, 300, rng=5, n_threads=1, policy=Value())
        b = mj.simulate_games(rule, 300, rng=5, n_threads=1, policy=Value(defend=False))
        assert a.equals(b) is same, rule  # the frames' data (their attrs name the policies)


def _meld_text(kind, tile):
    """A replayed meld as text (a chow by its lowest tile, a pung, a kong of any kind)."""
    c = np.zeros(34, np.uint8)
    if kind == 0:
        c[list(_chow_run(tile))] = 1
    else:
        c[tile] = 3 if kind == 1 else 4
    return mj.tiles.to_mpsz(c)


@contextlib.contextmanager
def _value_knobs(**knobs):
    """The value players' weights overridden for the block (``mjfast.policies._KNOBS``)."""
    saved = dict(policies._KNOBS)
    policies._KNOBS.update(knobs)
    try:
        yield
    finally:
        policies._KNOBS.clear()
        policies._KNOBS.update(saved)


def _passes(rule, n, seed):
    """``(game, records, passes)`` of ``n`` games of value players, the action log checked at every
    ``pass_win``: the hand is complete; a passed self-draw is discarded again at once."""
    game, records = _raw(rule, n, seed, Value(), log=900)
    passes = {"self_draw": 0, "discard": 0}

    def check(rp, i, acts, j, voids):
        a, s, t = acts[j]
        if a != "pass_win":
            return
        c = rp.c[s].astype(np.uint8)
        before = next(b for b in reversed(acts[:j]) if b[0] != "pass_win")  # another seat may pass it too
        if before[:2] == ("draw", s):
            passes["self_draw"] += 1
            assert acts[j + 1] == ("discard", s, t), (i, acts[j - 1 : j + 2])
        else:
            assert before[0] == "discard" and before[2] == t, (i, acts[j - 3 : j + 1])
            passes["discard"] += 1
            c[t] += 1
        melds = tuple(_meld_text(k, x) for k, x, _src, _wm in rp.melds[s])
        assert mj.shanten(c, rule=rule, melds=melds) == -1, (i, j)

    _play_through(rule, game, records, check)
    return game, records, passes


def test_guobiao_value_players_pass_a_win_to_wait_for_more_fan():
    """Under 国标 a value player passes a legal win when waiting for more 番 with the same 13 tiles
    is worth more (``_game.waits_for_more``, weighed by the rule's ``fan_wait``): each pass is on
    a complete hand; a passed self-draw (frequent only with a lower ``fan_wait``, a self-draw
    paying three seats) is discarded again at once, so that the same tiles wait on; the tiles
    stay conserved.  With ``fan_wait`` inf it takes every win."""
    rule = mj.rules.get("guobiao")
    game, records, passes = _passes(rule, 1500, 31)
    check_tiles_conserved(game, records)
    assert passes["discard"] >= 20, passes
    with _value_knobs(fan_wait=0.3):
        game, records, passes = _passes(rule, 300, 31)
    check_tiles_conserved(game, records)
    assert passes["self_draw"] >= 20 and passes["discard"] >= 100, passes
    with _value_knobs(fan_wait=float("inf")):
        game, records = _raw(rule, 300, 31, Value(), log=900)
    assert not any(a[0] == "pass_win" for i in range(300) for a in actions(records[-1][i]))


def test_guobiao_receipts_are_the_scorers():
    """The receipts the kernel weighs a wait for more 番 with (``kernel_fan_receipts``: base and
    per 番, self-drawn then on a discard) give the winner's payment of :func:`mjfast.score` on
    random complete 国标 hands."""
    from mjfast.scoring import guobiao as gb

    rule = mj.rules.get("guobiao")
    base_s, per_s, base_d, per_d = gb.kernel_fan_receipts(rule)
    checked = 0
    for ctx in random_contexts(np.random.default_rng(7), rule_kinds("guobiao"), 400):
        if ctx.robbing_kong or not mj.can_win(ctx, rule):
            continue
        r = mj.score(ctx, rule)
        want = base_s + per_s * r.total if ctx.self_draw else base_d + per_d * r.total
        assert r.payments[ctx.winner] == want, (ctx, r.total, r.payments)
        checked += 1
    assert checked >= 50


@pytest.mark.parametrize("rule", mj.rules.names())
def test_a_policy_that_never_wins_draws_every_hand_the_rule_does_not_force(rule):
    """The engine asks before every win: declining them all leaves every hand drawn, the tiles
    conserved and every row zero-sum — except where the rule takes the choice away: 四川
    "最后四张自动胡 … 叫的玩家只能胡牌，而不能跳过胡牌 … 玩家没有选择的权利" (once the wall holds its last
    4 tiles, a win on one of them drawn, or on a discard, cannot be passed)."""
    forced = mj.rules.get(rule).engine.forced_win_left
    n = 400 if forced else 60
    game, records = _raw(rule, n, 8, tp.NeverWins(), log=1200)
    assert len(game.tables.wall) == 108 or not forced  # the replay below counts a wall without flowers
    won = 0
    for i in range(n):
        acts = actions(records[-1][i])
        if records[0][i, 1] == 3:
            continue
        assert forced, (rule, i)
        won += 1
        at = next(j for j, a in enumerate(acts) if a[0] == "win")
        left = len(game.tables.wall) - sum(a[0] == "draw" for a in acts[:at])  # the deal's draws included
        self_draw = records[0][i, 1] == 0
        assert left < forced if self_draw else left <= forced, (i, left, self_draw)
    acts = [a for i in range(n) for a in actions(records[-1][i])]
    assert any(a[0] == "pass_win" for a in acts)
    assert won >= 10 if forced else won == 0
    check_tiles_conserved(game, records)
    df = mj.simulate_games(rule, n, rng=8, n_threads=1, policy=tp.NeverWins())
    assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()


@pytest.mark.parametrize("rule", ["guangdong", "sichuan", "jinhua"])
def test_the_view_is_exactly_the_seats_information(rule):
    """A recording user policy at seat 2: each view it got equals the replayed state — its own
    concealed tiles, everyone's melds, every discard in order, the tiles left — and nothing of
    the other seats' concealed tiles; its answer is the discard the log shows."""
    rule_obj = mj.rules.get(rule)
    rec_pol = tp.Recorder()
    game, records = _raw(rule_obj, 40, 9, [None, None, rec_pol, None], log=900)
    views = iter(rec_pol.views)
    n = [0]
    state = {"discards": [], "i": -1}

    def check(rp, i, acts, j, voids):
        if state["i"] != i:
            state.update(i=i, discards=[])
        a, s, t = acts[j]
        if a == "discard":
            if s == 2 and any(rp.c[2]):
                v = next(views)
                assert v.decision == "discard" and v.seat == 2
                assert v.counts == tuple(int(x) for x in rp.c[2])
                assert [(m.tile, m.source) for m in v.melds[0]] == [(x[1], x[2]) for x in rp.melds[0]]
                assert [[(m.tile, m.source) for m in row] for row in v.melds] == [
                    [(x[1], x[2]) for x in rp.melds[q]] for q in range(4)
                ]
                assert list(v.discards) == state["discards"]
                assert v.turn == len(state["discards"])
                assert t == max(v.tiles())
                assert v.rule is rule_obj and v.scores == (0, 0, 0, 0)
                assert not hasattr(v, "hands")
                with pytest.raises(AttributeError):
                    v.counts = ()
                n[0] += 1
            state["discards"].append((s, t))

    _play_through(rule_obj, game, records, check)
    assert n[0] > 100
    assert next(views, None) is None


def test_views_show_wildcards_flowers_voids_and_match_scores():
    rec_pol = tp.Recorder()
    mj.simulate_games("jinhua", 30, rng=1, n_threads=1, policy=[rec_pol, None, None, None])
    v = rec_pol.views[0]
    assert len(v.wild_tiles) >= 1 and v.flipped is not None
    rec_pol = tp.Recorder()
    mj.simulate_games("suzhou", 30, rng=1, n_threads=1, policy=[rec_pol, None, None, None])
    assert any(any(f) for v in rec_pol.views for f in v.flowers)
    assert all(v.wild_tiles == () for v in rec_pol.views)
    rec_pol = tp.Recorder()
    mj.simulate_games("sichuan", 5, rng=1, n_threads=1, policy=[rec_pol, None, None, None])
    assert all(x in ("m", "p", "s") for x in rec_pol.views[0].voids)
    rec_pol = tp.Recorder()
    m = mj.simulate_matches("guangdong", 1, hands=3, rng=1, n_threads=1, policy=[rec_pol, None, None, None])
    seen = {v.scores for v in rec_pol.views}
    expected = {(0, 0, 0, 0)} | {tuple(int(x) for x in m.loc[h, [f"cum_{p}" for p in range(4)]]) for h in range(2)}
    assert seen <= expected and len(seen) > 1


@pytest.mark.parametrize(
    "bad, action", [(tp.BadDiscard(), "discard"), (tp.BadClaim(), "claim"), (tp.BadWin(), "declare_win")]
)
def test_illegal_answers_raise_naming_seat_turn_and_action(bad, action):
    with pytest.raises(ValueError, match=rf"seat 1, turn \d+ \(Bad\w+\(\)\.{action}\)"):
        mj.simulate_games("guangdong", 300, rng=1, n_threads=2, policy=[None, bad, None, None])
    # the engine is unharmed: the next call plays normally
    assert len(mj.simulate_games("guangdong", 20, rng=1, n_threads=2)) == 20


def test_user_policies_reproduce_for_any_threads_and_executor():
    lineup = [tp.Loner(), None, Efficiency(call="always"), tp.Loner()]
    one = mj.simulate_games("sichuan", 2100, rng=4, n_threads=1, policy=lineup)
    two = mj.simulate_games("sichuan", 2100, rng=4, n_threads=2, policy=lineup)
    pd.testing.assert_frame_equal(one, two)
    with ProcessPoolExecutor(2) as ex:
        pool = mj.simulate_games("sichuan", 2100, rng=4, executor=ex, policy=lineup)
    pd.testing.assert_frame_equal(one, pool)


def test_user_policies_through_dask():
    pytest.importorskip("distributed", reason="dask[distributed] is not installed")
    from _dask import local_client

    lineup = [tp.Loner(), None, None, tp.Loner()]
    local = mj.simulate_games("guangdong", 1100, rng=5, n_threads=2, policy=lineup)
    with local_client() as client:
        remote = mj.simulate_games("guangdong", 1100, rng=5, executor=client.get_executor(), policy=lineup)
    pd.testing.assert_frame_equal(local, remote)


# ---------------------------------------------------------------------------------------------
# Duplicate matches


def test_identical_policies_differ_by_nothing_but_noise():
    """Two equal policies: their results are equal and opposite (zero-sum), and the difference is
    within noise; two copies of the same player on all four seats play one game per wall, so each
    rotation leaves every slot's wall result at exactly zero."""
    r = mj.duplicate_match("guangdong", [Efficiency(), Efficiency()], 400, rng=2, n_threads=1)
    assert r["policy"].tolist() == ["Efficiency()", "Efficiency()"]
    assert (r["n_walls"] == 400).all()
    assert abs(r["mean_stakes"][0] - r["mean_stakes"][1]) <= 3 * np.hypot(*r["se_stakes"]) + 1e-12
    # different but equally strong: one seat's policy swapped for a copy with a different call
    # mode shows a real difference only if the players differ
    r = mj.duplicate_match("guangdong", [Efficiency(call="never"), Efficiency(call="never")], 300, rng=2, n_threads=1)
    assert np.allclose(r["mean_stakes"], 0)


def test_duplicate_results_add_up_and_separate_policies():
    r = mj.duplicate_match("sichuan", [Efficiency(), tp.Loner()], 300, rng=3, n_threads=1)
    assert r["policy"].tolist() == ["Efficiency()", "Loner()"]
    assert abs(r["mean_stakes"].sum()) < 1e-9  # two slots each, zero-sum hands
    assert r["mean_stakes"][0] > 3 * r["se_stakes"][0]  # the efficiency player is stronger
    r4 = mj.duplicate_match(
        "sichuan",
        [tp.Loner(), Efficiency(), Efficiency(call="never"), Efficiency(call="always")],
        200,
        rng=3,
        n_threads=2,
    )
    assert abs(r4["mean_stakes"].sum()) < 1e-9
    assert r4["policy"].tolist() == ["Loner()", "Efficiency()", "Efficiency(call='never')", "Efficiency(call='always')"]


def test_rotations_replay_the_same_walls():
    """The four rotations of a duplicate match deal every wall alike: the same dealer, indicator,
    dice and dealt tiles per seat, whatever plays them."""
    policies_ = (Efficiency(), tp.Loner())
    root = _chunks.seed_sequence(11)
    deals = []
    for lineup in M._lineups(policies_):
        game = G._Game(mj.rules.get("jinhua"), seats=lineup)
        sizes = _chunks.chunk_sizes(50)
        children = _chunks.seed_sequence(root).spawn(len(sizes))
        rec, *_rest, lg = G._raw(game, _chunks.bit_generators(children), sizes, 1, log=400)
        first = []
        for i in range(50):
            acts = actions(lg[i])
            k = next(j for j, a in enumerate(acts) if a[0] != "draw")
            first.append((int(rec[i, 0]), int(rec[i, 12]), sorted(acts[:k])))
        deals.append(first)
    assert deals[0] == deals[1] == deals[2] == deals[3]
    assert M._lineups(policies_)[1] == (policies_[1], policies_[0], policies_[1], policies_[0])


def test_duplicate_match_reproduces_and_checks_its_arguments():
    a = mj.duplicate_match("jj", [Efficiency(), Efficiency(call="always")], 80, rng=4, n_threads=1)
    b = mj.duplicate_match("jj", [Efficiency(), Efficiency(call="always")], 80, rng=4, n_threads=2)
    pd.testing.assert_frame_equal(a, b)
    with pytest.raises(ValueError, match="1 to 4 policies"):
        mj.duplicate_match("jj", [], 10)
    with pytest.raises(ValueError, match="1 to 4 policies"):
        mj.duplicate_match("jj", "efficiency", 10)
    with pytest.raises(ValueError, match=r"policies\[1\]"):
        mj.duplicate_match("jj", [Efficiency(), "clever"], 10)
    with pytest.raises(ValueError, match="n_walls"):
        mj.duplicate_match("jj", [Efficiency()], 0)


@pytest.mark.parametrize("name, element", [("ruijin", "fei"), ("shangrao", "baodiaotou")])
def test_a_user_policy_declares_the_lone_wildcard_wait(name, element):
    """瑞金 飞 / 上饶 宝吊头 for a user policy: it declines a complete self-drawn hand and discards
    down to complete sets plus the lone 宝 (RJ "制飞"; SR "等下轮摸牌时任一张牌都可糊牌"); the engine
    then holds the seat in that wait — no call, no discard win (RJ "制飞后不能平胡了"), the view says
    ``waiting`` — and settles its next self-draw as 飞 / 宝吊头 (RJ: while the go-around holds)."""
    game, records = _raw(name, 5000, 20, [tp.LoneWildWaiter()] + [Efficiency()] * 3, log=800)
    check_tiles_conserved(game, records)
    outcomes = []
    G._rows(game, *records[:6], outcomes=outcomes)
    declared = settled = 0
    for g, o in enumerate(outcomes):
        assert not any(o.declared_wait(s) for s in (1, 2, 3))  # Efficiency() never declines a win
        if not o.declared_wait(0):
            continue
        declared += 1
        acts = actions(records[6][g])
        i = next(j for j, a in enumerate(acts) if a[0] == "fei")
        assert acts[i - 1][:2] != ("win", 0) and acts[i + 1][:2] == ("discard", 0) and acts[i + 1][2] == acts[i][2]
        assert any(a[:2] == ("pass_win", 0) for a in acts[:i])
        assert not any(a[1] == 0 and a[0] in ("pung", "kong", "chow") for a in acts[i + 1 :])
        calls = any(a[0] in ("pung", "kong", "chow", "added_kong", "concealed_kong") for a in acts[i + 1 :])
        for (w, sc), ctx in zip(o.scores, o.contexts):
            if w != 0:
                continue
            assert ctx.self_draw, g  # no discard win while waiting
            assert mj.can_win(ctx, game.rule)
            codes = [r[0] for r in sc.rows]
            if name == "shangrao" or not calls:
                assert element in codes, (g, codes)
                settled += 1
    assert declared >= 15 and settled >= 8, (declared, settled)


@pytest.mark.parametrize("rule", ["jinhua", "ruijin", "shangrao", "taicang"])
def test_a_user_policy_may_discard_a_wildcard_which_is_dead(rule):
    """Where the rule lets a wildcard be discarded (G-A5 "a discarded wildcard is dead"; 金华 JH-A8),
    a user policy may choose to: it answers ``WILD``, the wildcard leaves its hand, and nobody
    claims or wins on it (the next seat draws)."""
    n = 200
    game, records = _raw(rule, n, 12, [tp.WildThrower(), None, None, None], log=900)
    check_tiles_conserved(game, records)
    thrown = 0
    for i in range(n):
        acts = actions(records[-1][i])
        for j, a in enumerate(acts):
            if a[:3] == ("discard", 0, policies.WILD) and j + 1 < len(acts):
                thrown += 1
                assert acts[j + 1][:2] == ("draw", 1), (i, acts[j : j + 2])
    assert thrown >= 50, thrown
    df = mj.simulate_games(rule, n, rng=12, n_threads=1, policy=[tp.WildThrower(), None, None, None])
    assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()


@pytest.mark.parametrize(
    "rule, options, policy, why",
    [
        ("jj", {"hun": "flip_successor"}, tp.WildThrower(), "rule 'jj' never discards its 混"),
        ("sichuan", {}, tp.AlwaysWild(), "it holds no wildcard"),
    ],
)
def test_a_wildcard_discard_the_rule_forbids_is_refused(rule, options, policy, why):
    """JJ-A2 "Discarding 混: never", and a hand without wildcards: a ``ValueError`` naming the seat,
    the turn and the action, and why."""
    with pytest.raises(ValueError, match=rf"seat 0, turn \d+ \(\w+\(\)\.discard\): discard WILD \(34\): {why}"):
        mj.simulate_games(rule, 200, rng=3, n_threads=1, policy=[policy, None, None, None], **options)


@pytest.mark.parametrize("exc", [RuntimeError("policy failed"), KeyboardInterrupt()])
@pytest.mark.parametrize("n_threads", [1, 2])
def test_an_exception_in_a_user_policy_stops_the_run(exc, n_threads):
    """An exception a user policy raises — Ctrl-C included — stops the simulation and propagates
    as it was raised; no table is returned, and the engine plays normally afterwards."""
    with pytest.raises(type(exc)) as got:
        mj.simulate_games("guobiao", 200, rng=1, n_threads=n_threads, policy=[tp.RaisesAtTurn(exc), None, None, None])
    assert got.value is exc
    with pytest.raises(type(exc)):
        mj.simulate_matches("sichuan", 20, hands=2, rng=1, n_threads=n_threads, policy=[None, tp.RaisesAtTurn(exc)] * 2)
    assert len(mj.simulate_games("guobiao", 20, rng=1, n_threads=n_threads)) == 20
