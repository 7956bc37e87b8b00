"""瑞金 honour chows in every layer (rules/ruijin_shangrao.md RS-A3; seed [003] "中发白任何三个可以
互吃，东南西北风任何三个也可以互吃"): any three different winds and any three different dragons are
sets.  The rule declares them (``Calls.chow_honours``), the bridge turns that into a kernel option
bit, and shanten, 进张, 一进听, discard tables, decompositions, draw simulations and the game engine
all read it; every layer agrees with ``can_win`` and with the pure-Python twins.

``MJFAST_ORACLE_SCALE=full`` runs larger samples."""

import importlib
import os

import numpy as np
import pytest

import mjfast as mj
from mjfast import Hand, _bridge
from mjfast._kernels import _shanten as K
from mjfast.scoring import WinContext, can_win

R = importlib.import_module("mjfast._reference.shanten")
RE = importlib.import_module("mjfast._reference.efficiency")
FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"
CODES = mj.tiles.CODES
WIND_CHOWS = ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30))
DRAGON_CHOW = (31, 32, 33)


def _ruijin_kernel_rule():
    return _bridge.kernel_rule(mj.rules.get("ruijin"))


def _ref_forms(kr):
    """The twin's forms for a kernel rule's form and option bits."""
    forms = []
    if kr.forms & _bridge.FORM_BITS["standard"]:
        forms.append(("standard", {"honour_chows": bool(kr.options & _bridge.OPT_HONOUR_CHOWS)}))
    if kr.forms & _bridge.FORM_BITS["seven_pairs"]:
        forms.append(("seven_pairs", {"distinct": bool(kr.options & _bridge.OPT_PAIRS_DISTINCT)}))
    if kr.forms & _bridge.FORM_BITS["thirteen_lan"]:
        forms.append(("thirteen_lan", {"strict": bool(kr.options & _bridge.OPT_LAN_STRICT)}))
    assert not kr.forms & ~(
        _bridge.FORM_BITS["standard"] | _bridge.FORM_BITS["seven_pairs"] | _bridge.FORM_BITS["thirteen_lan"]
    )
    return tuple(forms)


def _honour_heavy(rng, size, caps):
    """``size`` tiles drawn within ``caps``, honours four times as likely as suit tiles (so that
    honour chows matter in most hands)."""
    wall = np.repeat(np.arange(34), caps)
    p = np.where(wall >= 27, 4.0, 1.0)
    h = np.zeros(34, np.uint8)
    np.add.at(h, rng.choice(wall, size, replace=False, p=p / p.sum()), 1)
    return h


def test_the_rule_declares_honour_chows_and_only_ruijin_has_them():
    for name in mj.rules.names():
        rule = mj.rules.get(name)
        bit = _bridge.kernel_rule(rule).options & _bridge.OPT_HONOUR_CHOWS
        assert bool(bit) == bool(rule.calls.chow_honours), name
        assert bool(bit) == (name == "ruijin"), name


def test_a_grouping_the_kernels_do_not_know_is_refused():
    import dataclasses

    rule = mj.rules.get("ruijin")
    odd = dataclasses.replace(rule, calls=dataclasses.replace(rule.calls, chow_honours=(("1z", "2z", "3z"),)))
    with pytest.raises(ValueError, match="honour chows"):
        _bridge.kernel_rule(odd)


def test_complete_hands_with_honour_chows_read_complete():
    # 东南北 + 白发中 (the scorer's own example) and 东南西 + 南西北 + 中发白 with a 宝
    assert mj.shanten("123m456p124z567z55p", rule="ruijin") == -1
    # without honour chows the same tiles are three tiles away (the "shanten 3")
    assert mj.shanten("123m456p124z567z55p", rule="shangrao") == 3
    assert mj.shanten("123m456p124z567z55p") == 3
    assert mj.shanten("123z234z567z123m55p", rule="ruijin") == -1
    assert mj.shanten("123z234z56z123m55p", rule="ruijin", wilds=1) == -1
    # a ready hand waiting on either missing wind (东南 + 西 or 北)
    assert mj.shanten("123m456p789s12z55p", rule="ruijin") == 0


@pytest.mark.parametrize("wilds", [0, 1, 2, 3])
def test_standard_kernel_matches_twin(seed, wilds):
    # honour-heavy hands with pung melds, capped and absent honours, 0-3 wildcards
    rng = np.random.default_rng(seed * 13 + wilds)
    bad = []
    n = 3000 if FULL else (300 if wilds < 2 else 120)
    for i in range(n):
        n_melds = int(rng.integers(0, 3))
        caps = np.full(34, 4)
        caps[rng.choice(34, n_melds, replace=False)] -= 3
        if i % 4 == 0:
            caps[27 + rng.integers(0, 7)] = int(rng.integers(0, 4))
        playable = np.ones(34, np.uint8)
        if i % 7 == 0:
            playable[27 + rng.integers(0, 7)] = 0
        caps = np.where(playable == 1, caps, 0).astype(np.uint8)
        h = _honour_heavy(rng, 14 - 3 * n_melds - wilds - int(rng.integers(0, 2)), caps)
        ours = K.shanten_counts_form(
            h, n_melds, wilds, caps, playable, _bridge.FORM_BITS["standard"], _bridge.OPT_HONOUR_CHOWS
        )
        ours = None if ours >= _bridge.INF else ours
        ref = R.shanten_standard(h, n_melds, wilds, caps=caps, wild_mask=playable.astype(bool), honour_chows=True)
        if ours != ref:
            bad.append((mj.to_mpsz(h), n_melds, wilds, caps[27:].tolist(), playable[27:].tolist(), ours, ref))
    assert not bad, bad[:3]


@pytest.mark.parametrize("wilds", [0, 1, 2])
def test_table_path_matches_twin(seed, wilds):
    # every kind natural with 4 copies: the honour-chow tables (the fused path of standard +
    # seven pairs, as the game engine's policy calls it, and the standard form alone)
    rng = np.random.default_rng(seed * 19 + wilds)
    caps = np.full(34, 4, np.uint8)
    playable = np.ones(34, np.uint8)
    bits = _bridge.FORM_BITS["standard"] | _bridge.FORM_BITS["seven_pairs"]
    forms = (("standard", {"honour_chows": True}), "seven_pairs")
    bad = []
    for i in range(1000 if FULL else 150):
        h = _honour_heavy(rng, 14 - wilds - i % 2, caps)
        ours = K.shanten_fast(h, 0, wilds, caps, playable, bits, _bridge.OPT_HONOUR_CHOWS)
        alone = K.shanten_counts_form(
            h, 0, wilds, caps, playable, _bridge.FORM_BITS["standard"], _bridge.OPT_HONOUR_CHOWS
        )
        ref = R.shanten(h, 0, wilds, form=forms)
        ref_std = R.shanten_standard(h, 0, wilds, honour_chows=True)
        if (ours, alone) != (ref, ref_std):
            bad.append((mj.to_mpsz(h), wilds, ours, ref, alone, ref_std))
    assert not bad, bad[:3]
    hands = np.stack([_honour_heavy(rng, 13 + i % 2, caps) for i in range(200)])
    out = np.zeros(len(hands), np.int8)
    K.shanten_batch_kernel(
        hands,
        np.zeros(len(hands), np.int8),
        np.zeros(len(hands), np.int8),
        caps,
        playable,
        bits,
        _bridge.OPT_HONOUR_CHOWS,
        out,
    )
    assert out.tolist() == [R.shanten(h, form=forms) for h in hands]


def test_rule_shanten_matches_twin_on_ruijin_deals(seed):
    # mj.shanten(rule="ruijin") = the twin over the rule's forms (honour chows, 对对胡 = 七对, 烂胡)
    kr = _ruijin_kernel_rule()
    forms = _ref_forms(kr)
    rng = np.random.default_rng(seed + 5)
    n = 2000 if FULL else 150
    for i in range(n):
        wilds = i % 3
        h = _honour_heavy(rng, 14 - wilds - i % 2, kr.copies)
        ref = R.shanten(h, 0, wilds, caps=kr.copies, wild_mask=kr.playable.astype(bool), form=forms)
        assert mj.shanten(h, rule="ruijin", wilds=wilds) == ref, (mj.to_mpsz(h), wilds)


def test_batch_matches_single():
    rng = np.random.default_rng(3)
    kr = _ruijin_kernel_rule()
    hands = np.stack([_honour_heavy(rng, 13 + i % 2, kr.copies) for i in range(300)])
    batch = mj.shanten_batch(hands, rule="ruijin")
    assert batch.tolist() == [mj.shanten(h, rule="ruijin") for h in hands]
    assert (batch < mj.shanten_batch(hands, rule="shangrao")).any()


def _random_complete(rng, wilds):
    """A random complete 瑞金 standard hand (4 sets + pair) with honour chows likely; ``wilds``
    of its tiles replaced by wildcards.  Returns (counts, wilds)."""
    while True:
        c = np.zeros(34, int)
        for _ in range(4):
            u = rng.random()
            if u < 0.3:
                c[list(WIND_CHOWS[rng.integers(4)])] += 1
            elif u < 0.45:
                c[list(DRAGON_CHOW)] += 1
            elif u < 0.75:
                t = int(rng.integers(27))
                t -= t % 9 // 7 * (t % 9 - 6)
                c[[t, t + 1, t + 2]] += 1
            else:
                c[rng.integers(34)] += 3
        c[rng.integers(34)] += 2
        if c.max() <= 4:
            break
    tiles = np.repeat(np.arange(34), c)
    for t in rng.choice(tiles, wilds, replace=False):
        c[t] -= 1
    return c.astype(np.uint8), wilds


def _can_win(c, wilds):
    tiles = "".join(f"{CODES[k][0]}{CODES[k][1]}" for k in range(34) for _ in range(int(c[k])))
    win = CODES[int(np.flatnonzero(c)[0])]
    return can_win(WinContext(Hand(tiles, wilds=wilds), win_tile=win, self_draw=True), "ruijin")


def test_shanten_complete_iff_can_win(seed):
    # random complete hands (honour chows likely, 0-2 wildcards) and their one-tile changes:
    # shanten == -1 exactly when the scorer accepts the win
    rng = np.random.default_rng(seed + 17)
    n = 1500 if FULL else 120
    seen_hc = 0
    for i in range(n):
        c, w = _random_complete(rng, i % 3)
        if rng.random() < 0.5:  # swap one natural tile for another kind
            out = rng.choice(np.flatnonzero(c))
            into = int(rng.integers(34))
            if c[into] < 4 and into != out:
                c[out] -= 1
                c[into] += 1
        complete = mj.shanten(c, rule="ruijin", wilds=w) == -1
        assert complete == _can_win(c, w), (mj.to_mpsz(c), w)
        seen_hc += complete and mj.shanten(c, rule="shangrao", wilds=w) > -1
    assert seen_hc > n // 10  # many of them are complete only through honour chows


def test_ukeire_and_yijinting_match_twin(seed):
    kr = _ruijin_kernel_rule()
    forms = _ref_forms(kr)
    rng = np.random.default_rng(seed + 23)
    for i in range(12 if not FULL else 200):
        h = _honour_heavy(rng, 13, kr.copies)
        kw = dict(n_melds=0, wilds=0, caps=kr.copies, wild_mask=kr.playable.astype(bool), forms=forms)
        ref = RE.ukeire(h, **kw)
        u = mj.ukeire(h, rule="ruijin", legal="shape")
        assert u.shanten == R.shanten(h, 0, 0, caps=kr.copies, form=forms)
        assert dict(u.tiles) == {CODES[k]: v for k, v in ref.items()}, mj.to_mpsz(h)
    # 一进听 of 1-shanten hands, several of them 1-shanten only through honour chows
    done = through_chows = 0
    while done < (3 if not FULL else 100):
        h = _honour_heavy(rng, 13, kr.copies)
        if mj.shanten(h, rule="ruijin") != 1:
            continue
        done += 1
        through_chows += mj.shanten(h, rule="shangrao") > 1
        kw = dict(n_melds=0, wilds=0, caps=kr.copies, wild_mask=kr.playable.astype(bool), forms=forms)
        ref = RE.yijinting(h, **kw)
        y = mj.yijinting(h, rule="ruijin", legal="shape")
        assert (y.ukeire, y.ting, y.combos) == (ref["ukeire"], ref["ting"], ref["combos"]), mj.to_mpsz(h)
    assert through_chows > 0


# ---------------------------------------------------------------------------------------------
# decompositions
RD = importlib.import_module("mjfast._reference.decompose")


def _to_ref(t):
    """A standard :func:`decompose_counts` reading in the twin's flat format."""
    form, sets, pair, tiles, wild = t
    assert form == "standard"
    chows = [("honour_chow", c) for c in mj.decomposition.honour_chows(tiles)]
    return (*sorted(list(sets) + chows), ("pair", pair), wild)


def test_decompose_counts_matches_twin(seed):
    rng = np.random.default_rng(seed + 31)
    n = 3000 if FULL else 300
    readings = with_chows = 0
    for i in range(n):
        c, w = _random_complete(rng, i % 3)
        n_melds = 0
        if i % 5 == 0:  # drop one set: a 3k+2 fragment with a called meld elsewhere
            for trio in WIND_CHOWS + (DRAGON_CHOW,):
                if all(c[k] for k in trio):
                    c[list(trio)] -= 1
                    n_melds = 1
                    break
        got = mj.decomposition.decompose_counts(c, n_melds, w, forms="standard", honour_chows=True)
        want = RD.decompose(c, [("pung", 0)] * n_melds, w, forms=(("standard", {"honour_chows": True}),))
        assert len(got) == len(set(got))
        assert sorted(_to_ref(t) for t in got) == want, (mj.to_mpsz(c), w)
        readings += len(got)
        with_chows += sum(bool(t[3]) for t in got)
        # without the option: the plain readings only
        plain = mj.decomposition.decompose_counts(c, n_melds, w, forms="standard")
        assert set(plain) == {t for t in got if not t[3]}
    assert with_chows > n // 3 and readings > with_chows


def test_decompose_reports_honour_chows_under_ruijin_only():
    (d,) = mj.decompose("123m456p124z567z55p", rule="ruijin", win_tile="4z")
    assert d.form == "standard" and d.tiles == (27, 28, 30, 31, 32, 33) and d.pair == 13
    assert d.groups() == ["123m", "456p", "124z", "567z", "55p"]
    assert d.waits == frozenset()  # a tile in an honour chow has no wait name
    assert mj.decompose("123m456p124z567z55p", rule="shangrao") == []
    assert mj.decompose("123m456p124z567z55p") == []
    # a 宝 standing in an honour chow
    ds = mj.decompose("123m456p12z567z55p", rule="ruijin", wilds=1)
    assert {(29,), (30,)} <= {d.wild_tiles for d in ds}
    with pytest.raises(ValueError, match="honour chows"):
        mj.decomposition.honour_chows((27, 28))


def test_every_complete_ruijin_hand_decomposes(seed):
    # shanten -1 under the rule <=> at least one reading (all forms of the rule)
    rng = np.random.default_rng(seed + 37)
    for i in range(100 if not FULL else 1000):
        c, w = _random_complete(rng, i % 3)
        if i % 2:
            out = rng.choice(np.flatnonzero(c))
            into = int(rng.integers(34))
            if c[into] < 4 and into != out:
                c[out] -= 1
                c[into] += 1
        complete = mj.shanten(c, rule="ruijin", wilds=w) == -1
        assert complete == bool(mj.decompose(Hand(c, wilds=w), rule="ruijin")), (mj.to_mpsz(c), w)


# ---------------------------------------------------------------------------------------------
# draw simulations
def test_simulate_draws_counts_honour_chows():
    # 东南 waits on 西 or 北 under 瑞金 only: ready from the start, and it wins
    hand = "123m456p789s12z55p"
    rj = mj.simulate_draws(hand, rule="ruijin", n=400, rng=1, draws_left=6)
    sr = mj.simulate_draws(hand, rule="shangrao", n=400, rng=1, draws_left=6)
    assert (rj["p_ready"] == 1).all() and rj["p_win"].iloc[-1] > 0
    assert sr["p_ready"].iloc[0] < 1


def test_wall_policy_matches_python_twin_under_ruijin(seed):
    # the wall kernel's efficiency policy against its twin replayed through mj.shanten / mj.ukeire
    from mjfast._kernels import _wall
    from mjfast._reference.wall import replay_draws
    from mjfast.simulation import _chunks
    from mjfast.simulation import draws as sim

    rng = np.random.default_rng(seed + 41)
    kr = _ruijin_kernel_rule()
    children = np.random.SeedSequence(seed).spawn(2)
    sizes = np.array([4, 3], np.int32)
    for i in range(3):
        hand = mj.Hand(_honour_heavy(rng, 13 + i % 2, kr.copies))
        spec = sim._setup(hand, "ruijin", None, (), None, None, None)
        _, ready, win, *_ = sim._run(spec, 6, _chunks.bit_generators(children), sizes, 2, _wall.PolicyCache(2))
        ready_ref, win_ref, _ = replay_draws(hand, "ruijin", None, 6, children, sizes)
        np.testing.assert_array_equal(ready, ready_ref, err_msg=str(hand))
        np.testing.assert_array_equal(win, win_ref, err_msg=str(hand))


# ---------------------------------------------------------------------------------------------
# the game engine
def _without_honour_chows(hand):
    """Shanten of ``hand`` under 瑞金's forms but without honour chows."""
    kr = _ruijin_kernel_rule()
    caps = np.array(kr.copies, np.int16)
    for m in hand.melds:
        np.subtract.at(caps, list(m.tiles), 1)
    caps = np.clip(caps, 0, 4).astype(np.uint8)
    c = np.minimum(hand.counts, caps).astype(np.uint8)
    return K.shanten_fast(
        c, hand.n_melds, hand.wilds, caps, kr.playable, kr.forms, kr.options & ~_bridge.OPT_HONOUR_CHOWS
    )


def test_games_win_with_honour_chows(monkeypatch):
    # the engine's policy counts honour chows and asks the scorer about every hand they
    # complete; can_win accepts each, and a good share of the wins need them
    from mjfast.simulation import games as G

    asked = []
    real = G.can_win

    def recording(ctx, rule, **kw):
        ok = real(ctx, rule, **kw)
        asked.append((ctx, ok))
        return ok

    monkeypatch.setattr(G, "can_win", recording)
    n = 2000 if FULL else 150
    mj.simulate_games("ruijin", n, rng=20261201, n_threads=1)
    assert asked and all(ok for _, ok in asked)
    assert all(mj.shanten(ctx.hand, rule="ruijin") == -1 for ctx, _ in asked)
    through_chows = sum(_without_honour_chows(ctx.hand) > -1 for ctx, _ in asked)
    assert through_chows > len(asked) // 10


# ---------------------------------------------------------------------------------------------
# called honour chows: "只能吃上家的牌 … 中发白任何三个可以互吃，东南西北风任何三个也可以互吃"
def test_an_honour_chow_meld_is_written_and_read_back():
    from mjfast import Meld

    for tiles in WIND_CHOWS + (DRAGON_CHOW,):
        text = mj.to_mpsz(tiles)
        m = Meld.parse(f"{text}@left")
        assert m.kind == "chow" and m.is_honour_chow and m.tiles == tiles and m.source == "left"
        assert Meld.parse(str(m)) == m and eval(repr(m), {"Meld": Meld}) == m
        assert Meld.parse(m.to_chinese() + "@上家") == m
    assert str(Meld.parse("北东南@上家", claimed="东")) == "124z@left"
    assert str(Hand("123m456p567z55p", melds=["412z@left"])) == "123m45556p567z 124z"
    for bad in ("125z", "114z", "567z5z", "1234z", "345z"):
        with pytest.raises(ValueError, match="not a legal"):
            Meld.parse(bad)


def test_a_called_honour_chow_completes_a_hand_under_ruijin_only():
    h = Hand("123m456p567z55p", melds=["124z@left"])
    ctx = WinContext(h, win_tile="5p", discarder=3)
    assert mj.shanten(h, rule="ruijin") == -1
    assert can_win(ctx, "ruijin")
    s = mj.score(ctx, rule="ruijin")
    assert s.legal and s.total == 3  # 底 1 + 放炮 1 + 庄家 1 (the discarder, seat 3, is no dealer: seat 0 deals)
    assert s.decomposition.groups() == ["123m", "456p", "124z", "567z", "55p"]
    assert mj.decompose(h, rule="ruijin")[0].tiles == (27, 28, 30, 31, 32, 33)
    # the hand waits on 5p and 7z with the honour chow called
    wait = Hand("123m456p56z55p", melds=["124z@left"])
    assert mj.shanten(wait, rule="ruijin") == 0
    assert set(mj.ukeire(wait, rule="ruijin").tiles) == {"7z"}
    table = mj.analyze_discards(Hand("123m456p567z58p", melds=["124z@left"]), rule="ruijin")
    assert table["shanten"].min() == 0


@pytest.mark.parametrize("rule", ["shangrao", "guobiao", "suzhou", "jj", "sichuan"])
def test_other_rules_refuse_a_called_honour_chow(rule):
    h = Hand("123m456p789s33z", melds=["124z@left"])
    ctx = WinContext(h, win_tile="3z", discarder=3)
    for call in (
        lambda: can_win(ctx, rule),
        lambda: mj.score(ctx, rule=rule),
        lambda: mj.shanten(h, rule=rule),
        lambda: mj.decompose(h, rule=rule),
    ):
        with pytest.raises(ValueError, match="honour chow"):
            call()
    wait = Hand("123m456p789s3z", melds=["124z@left"])
    for call in (lambda: mj.ukeire(wait, rule=rule), lambda: mj.analyze_discards(h, rule=rule)):
        with pytest.raises(ValueError, match="honour chow"):
            call()


def test_call_vs_pass_offers_an_honour_chow_from_the_left_under_ruijin():
    hand = "123m456p789s123z5p"  # 东南西 + 北 from 上家: 东南北, 东西北 or 南西北
    df = mj.call_vs_pass(hand, "4z", from_seat="left", rule="ruijin")
    chows = set(df.loc[df["option"] == "chow", "meld"])
    assert chows == {"124z", "134z", "234z"}
    assert not (df["option"] == "chow").any() or df.loc[df["option"] == "chow", "shanten"].min() == 0
    assert "chow" not in set(mj.call_vs_pass(hand, "4z", from_seat="opposite", rule="ruijin")["option"])
    assert "chow" not in set(mj.call_vs_pass(hand, "4z", from_seat="left", rule="shangrao")["option"])
    dragons = mj.call_vs_pass("123m456p789s56z55p", "7z", from_seat="left", rule="ruijin")
    assert set(dragons.loc[dragons["option"] == "chow", "meld"]) == {"567z"}


def test_rule_shanten_with_called_honour_chows_matches_twin(seed):
    # hands holding one or two called honour chows: mj.shanten / mj.decompose against the twins,
    # the twin's caps lowered by the melds' tiles (RD.decompose takes the melds as they are)
    from mjfast import Meld

    RD = importlib.import_module("mjfast._reference.decompose")
    kr = _ruijin_kernel_rule()
    forms = _ref_forms(kr)
    rng = np.random.default_rng(seed + 53)
    trios = WIND_CHOWS + (DRAGON_CHOW,)
    n = 1000 if FULL else 120
    for i in range(n):
        picked = [trios[int(k)] for k in rng.choice(len(trios), 1 + i % 2, replace=False)]
        melds = [Meld("chow", t, source="left") for t in picked]
        caps = R.default_caps([("honour_chow", t) for t in picked], copies=4)
        caps = np.minimum(caps, kr.copies).astype(np.uint8)
        wilds = i % 3 if i % 4 else 0
        size = 14 - 3 * len(melds) - wilds - (i // 2) % 2
        c = _honour_heavy(rng, size, caps)
        h = Hand(c, melds=melds, wilds=wilds, partial=True)
        ref = R.shanten(c, len(melds), wilds, caps=caps, wild_mask=kr.playable.astype(bool), form=forms)
        assert mj.shanten(h, rule="ruijin") == ref, (str(h), wilds)
        if (c.sum() + wilds) % 3 == 2 and wilds == 0:
            got = bool(mj.decompose(h, rule="ruijin"))
            want = bool(RD.decompose(c, [("honour_chow", t) for t in picked], 0, forms=forms))
            assert got == want == (ref == -1), str(h)
