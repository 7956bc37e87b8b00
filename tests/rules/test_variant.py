"""Rule variants users declare (``mjfast.rules.variant``): the 20-花 清一色 苏州, thresholds that
reach the game kernel, elements switched off and added, validation, and the Rule travelling to
process pools and Dask workers as its recipe."""

import multiprocessing
import pickle
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd
import pytest
from _hands import check_invariants, random_contexts, rule_kinds

import mjfast as mj
from mjfast import Hand, rules
from mjfast import policies as _policies
from mjfast.policies import Efficiency
from mjfast.rules import _variants
from mjfast.scoring import WinContext, _core, _outcome
from mjfast.simulation import _chunks
from mjfast.simulation import games as G

FRAMEWORK = ("suzhou", "taicang", "guangdong", "sichuan", "guiyang", "ruijin", "shangrao", "jinhua")
PAY = ["pay_0", "pay_1", "pay_2", "pay_3"]
PLAY = ["game", "dealer", "winners", "how", "discarder", "turn", "winning_hand"]


#: The variants this module registers are taken out of the registries afterwards.
pytestmark = pytest.mark.usefixtures("forget_variants")


@pytest.fixture(scope="module")
def ff20():
    return rules.variant("suzhou", "suzhou_ff20", values={"full_flush": 20})


def _multiplier(s):
    return int(np.prod([row[3] for row in s.rows if row[6] == "multiply"]))


def _ctx(hand, win, **kw):
    return WinContext(hand, win_tile=win, **kw)


#: 苏州 hands in the style of the rules file's worked examples: (hand, winning tile, how won).
ARTICLE = [
    (Hand("11223355667788m", bonus="F1F2 5z 6z 7z"), "8m", dict(self_draw=True)),  # §11: 清一色 七对
    (Hand("11223355667788m", bonus="F1F2 5z 6z 7z"), "8m", dict(discarder=2)),
    (Hand("11112233445566m"), "6m", dict(self_draw=True)),  # 七对, F = 0
    (Hand("123m567m789m11m", melds=["4444m@left"]), "1m", dict(discarder=3)),  # 清一色 exempt
    (Hand("123m567m789m11m", melds=["4444m@left"], bonus="F1F2F3"), "1m", dict(self_draw=True)),
    (Hand("123m456m789p11s", melds=["222s@left"], bonus="F1F2F3"), "1s", dict(self_draw=True)),
    (Hand("123m456m789p11s", melds=["222s@left"], bonus="F1F2"), "1s", dict(discarder=3)),  # below 4 花
    (Hand("111m456m789m11z", melds=["222m@left"], bonus="F1"), "1z", dict(discarder=1)),  # 混一色
    (Hand("123m567m789m11m", melds=["4444m@left"]), "1m", dict(self_draw=True, baozi=True, diling=True)),
    (Hand("11m", melds=["222m@left", "333m@left", "444m@left", "555m@left"]), "1m", dict(discarder=2)),  # 大吊车
    (Hand("123m456p789s11s", melds=["111z@right"], bonus="F1F2F3F4"), "1s", dict(discarder=2)),
]


def _contexts(seed):
    """The article-style hands and random ones (one suit, one suit and winds, any suits)."""
    rng = np.random.default_rng(seed)
    out = [_ctx(h, w, **kw) for h, w, kw in ARTICLE]
    for kinds in (list(range(9)), list(range(9, 18)) + [27, 28], rule_kinds("suzhou")):
        out += random_contexts(rng, kinds, 60)
    return out


# ---------------------------------------------------------------------------------------------
# 清一色 at 20 花: only the 清一色 row and the total change, by the computed difference
def test_full_flush_at_20_changes_only_its_row_and_the_total(ff20, seed):
    flushes = 0
    for ctx in _contexts(seed):
        base, var = mj.score(ctx, "suzhou"), mj.score(ctx, ff20)
        check_invariants(var)
        assert var.rule == "suzhou_ff20" and base.rule == "suzhou"
        b_rows = {r[0]: r for r in base.rows}
        v_rows = {r[0]: r for r in var.rows}
        assert list(b_rows) == list(v_rows)
        assert var.legal == base.legal and mj.can_win(ctx, ff20) == mj.can_win(ctx, "suzhou")
        if "full_flush" in b_rows:
            flushes += 1
            b, v = b_rows.pop("full_flush"), v_rows.pop("full_flush")
            assert (b[3], v[3], v[4]) == (10, 20, 1)
            assert var.total - base.total == 10 * _multiplier(base)
        else:
            assert var.total == base.total
        assert b_rows == v_rows
        if base.legal:
            assert var.points == 5 * var.total
            assert (var.payments * base.points == base.payments * var.points).all()
        else:
            assert not var.payments.any()
    assert flushes >= 10


def test_the_example_in_three_lines():
    v = rules.variant("suzhou", "suzhou_ff20", values={"full_flush": 20})
    ctx = _ctx(*ARTICLE[0][:2], **ARTICLE[0][2])
    assert (mj.score(ctx, "suzhou").total, mj.score(ctx, v).total) == (40, 50)
    assert rules.get("suzhou_ff20") is v and mj.score(ctx, "suzhou_ff20").total == 50
    assert "suzhou_ff20" in rules.variants() and "suzhou_ff20" not in rules.names()


# ---------------------------------------------------------------------------------------------
# games and compare_rules on the same seeds
#: Players that do not read the scores (Value() plays for the rule's scores, so a variant that
#: changes them changes its play too): a variant then changes the payments and nothing else.
SPEED = Efficiency()


def _outcomes(rule, n, seed):
    """Each game's Outcome (its scores per win) of ``simulate_games(rule, n, rng=seed, policy=SPEED)``."""
    game = G._Game(rule, seats=_policies.resolve(SPEED))
    sizes = _chunks.chunk_sizes(n)
    children = _chunks.seed_sequence(seed).spawn(len(sizes))
    outcomes = []
    G._rows(game, *G._raw(game, _chunks.bit_generators(children), sizes, 1), outcomes=outcomes)
    return outcomes


def test_games_differ_only_in_hands_with_full_flush(ff20):
    n, seed = 4000, 0
    base = mj.simulate_games("suzhou", n, rng=seed, n_threads=1, policy=SPEED)
    var = mj.simulate_games(ff20, n, rng=seed, n_threads=1, policy=SPEED)
    pd.testing.assert_frame_equal(base[PLAY + ["elements"]], var[PLAY + ["elements"]])
    assert var.attrs["rule"] == "suzhou_ff20" and var.attrs["rule_object"] is ff20
    # hand by hand: each win's payments change exactly when it holds 清一色, by 10 花 × multipliers
    ob, ov = _outcomes(rules.get("suzhou"), n, seed), _outcomes(ff20, n, seed)
    expected = np.zeros((n, 4), np.int64)
    flush_games = set()
    for g, (b, v) in enumerate(zip(ob, ov)):
        assert [w for w, _s in b.scores] == [w for w, _s in v.scores]
        for (_w, sb), (_w2, sv) in zip(b.scores, v.scores):
            flush = "full_flush" in {r[0] for r in sb.rows}
            assert sv.total - sb.total == (10 * _multiplier(sb) if flush else 0)
            assert (sv.payments != sb.payments).any() == flush
            expected[g] += sv.payments - sb.payments
            flush_games |= {g} if flush else set()
    assert len(flush_games) >= 2
    diff = var[PAY].to_numpy() - base[PAY].to_numpy()
    assert (diff == expected).all()
    assert set(np.flatnonzero(diff.any(axis=1))) == flush_games
    # compare_rules plays the same games: its statistics are those of these two tables
    compared = mj.compare_rules(["suzhou", ff20], n, rng=seed, n_threads=1, policy=SPEED)
    assert compared.label.unique().tolist() == ["suzhou", "suzhou_ff20"]
    pd.testing.assert_frame_equal(compared, mj.compare_rules({"suzhou": base, "suzhou_ff20": var}))
    pivot = compared.pivot_table(index=["role", "statistic"], columns="label", values="value")
    assert (pivot["suzhou_ff20"] != pivot["suzhou"]).any()
    assert pivot.loc[("all", "mean")].abs().max() < 1e-12  # still zero-sum


def test_value_players_read_the_variant(ff20):
    # the default players rate 清一色 by the variant's scores: higher; 混一色 (never 清一色) as
    # before; the patterns a sampled 清一色 may fall under (plain, 对对胡, 七对) no lower
    base, var = _policies.pattern_values("suzhou"), _policies.pattern_values(ff20)
    assert (var.loc["flush"] > base.loc["flush"]).all()
    pd.testing.assert_series_equal(var.loc["half_flush"], base.loc["half_flush"])
    assert (var.to_numpy() >= base.to_numpy()).all()


def test_a_threshold_option_reaches_the_kernel():
    v = rules.variant("suzhou", "suzhou_23", options={"threshold": "2_3"})
    assert v.options["threshold"] == "2_3" and rules.get("suzhou_23", threshold="3_4").options["threshold"] == "3_4"
    assert _outcome.hook(v, "kernel_minimum")(v)[:2] == (2, 3)
    ref = mj.simulate_games(rules.get("suzhou", threshold="2_3"), 1500, rng=4, n_threads=1)
    var = mj.simulate_games(v, 1500, rng=4, n_threads=1)
    pd.testing.assert_frame_equal(ref, var)  # the same games, the same payments
    default = mj.simulate_games("suzhou", 1500, rng=4, n_threads=1)
    assert not default[PLAY].equals(var[PLAY])  # the threshold changes the games


def test_the_checker_decides_when_the_minimum_may_change():
    """A new element (or a changed 花 value) may change legality, so the kernel's built-in 花 test
    is not used: every candidate win asks the variant's can_win.  With a neutral new element the
    games are those of the kernel's test; with 风碰 at 2 花 more hands reach the minimum."""
    kong = {"zh": "杠奖", "en": "Kong bonus", "value": 1, "predicate": "f.n_kongs", "scope": "hand"}
    v = rules.variant("suzhou", "suzhou_kongs", options={"threshold": "2_3"}, elements={"kong_bonus": kong})
    assert _outcome.hook(v, "kernel_minimum") is None
    assert _outcome.hook(v, "win_state") is _outcome.hook(rules.get("suzhou"), "win_state")
    ref = mj.simulate_games(rules.get("suzhou", threshold="2_3"), 1200, rng=6, n_threads=1)
    var = mj.simulate_games(v, 1200, rng=6, n_threads=1)
    pd.testing.assert_frame_equal(ref[PLAY], var[PLAY])
    single = ~var.winners.str.contains(",")
    has = var.elements.astype(str).str.contains("kong_bonus")
    changed = (ref[PAY].to_numpy() != var[PAY].to_numpy()).any(axis=1)
    assert has[single].any() and (changed[single] == has[single]).all()

    wp = rules.variant("suzhou", "suzhou_wp2", values={"wind_pung": 2})
    assert _outcome.hook(wp, "kernel_minimum") is None
    wins = [(s, o.contexts[i]) for o in _outcomes(wp, 1500, 8) for i, (_w, s) in enumerate(o.scores)]
    assert wins and all(s.legal for s, _ctx in wins)
    assert any(not mj.can_win(ctx, "suzhou") for _s, ctx in wins)  # legal only with 风碰 = 2


# ---------------------------------------------------------------------------------------------
# elements switched off and added
def test_an_element_switched_off():
    v = rules.variant("suzhou", "suzhou_no_flush", elements={"full_flush": None})
    ctx = _ctx(Hand("123m567m789m11m", melds=["4444m@left"]), "1m", discarder=3)
    base, var = mj.score(ctx, "suzhou"), mj.score(ctx, v)
    assert base.legal and "full_flush" in {r[0] for r in base.rows}
    assert not var.legal and "full_flush" not in {r[0] for r in var.rows}  # no longer exempt: 1 花 < 4
    assert not mj.can_win(ctx, v)
    with pytest.raises(ValueError, match="valid elements: base, hard_flower"):
        rules.variant("suzhou", "suzhou_bad", elements={"flush": None})


def test_a_new_element_as_a_predicate(seed):
    four = {
        "zh": "四花",
        "en": "Four flowers",
        "value": 10,
        "predicate": "f.flowers >= 4",
        "scope": "hand",
        "tag": "hua",
    }
    pungs = {"zh": "清碰", "en": "Pure pungs", "value": 7, "predicate": "f.pungs and f.one_suit"}
    v = rules.variant("suzhou", "suzhou_new", elements={"four_flowers": four, "pure_pungs": pungs})
    codes = [r[0] for r in mj.score(_ctx(*ARTICLE[0][:2], **ARTICLE[0][2]), v).rows]
    assert codes == [
        "base",
        "hard_flower",
        "qidui_flower_double",
        "full_flush",
        "seven_pairs",
        "self_draw",
        "four_flowers",
    ]  # after the adds, before the multipliers
    for ctx in _contexts(seed):
        base, var = mj.score(ctx, "suzhou"), mj.score(ctx, v)
        check_invariants(var)
        got = {r[0]: r for r in var.rows}
        assert ("four_flowers" in got) == (ctx.n_flowers >= 4)
        extra = sum(got[c][3] for c in ("four_flowers", "pure_pungs") if c in got)
        if base.legal and var.legal and "pure_pungs" not in got:
            assert var.total == (base.total // _multiplier(base) + extra) * _multiplier(base)
        assert var.legal or not base.legal  # 10 more 花 towards the minimum never take a win away
    ctx = _ctx(Hand("111m555m777m99m", melds=["333m@left"]), "9m", discarder=1)
    assert "pure_pungs" in {r[0] for r in mj.score(ctx, v).rows}


def test_new_elements_are_validated():
    ok = {"zh": "新", "en": "New", "value": 1, "predicate": "f.self_draw"}
    cases = [
        ({"zh": "新", "en": "New", "value": 1}, "needs predicate"),
        ({**ok, "predicate": "f.self_draw and"}, "not a Python expression"),
        ({**ok, "scope": "game"}, "scope must be one of"),
        ({**ok, "how": "divide"}, "how must be one of"),
        ({**ok, "colour": "red"}, "unknown field"),
        ({**ok, "value": 1.5}, "value must be an integer"),
        (7, "must be None"),
    ]
    for element, message in cases:
        with pytest.raises(ValueError, match=message):
            rules.variant("suzhou", "suzhou_bad", elements={"new": element})
    assert "suzhou_bad" not in rules.variants()


# ---------------------------------------------------------------------------------------------
# every rule
@pytest.mark.parametrize("name", rules.names())
def test_an_unchanged_variant_scores_and_plays_as_its_base(name):
    v = rules.variant(name, f"{name}_same")
    base = rules.get(name)
    assert dict(v.options) == dict(base.options) and v.tileset == base.tileset and v.calls == base.calls
    rng = np.random.default_rng(3)
    for ctx in random_contexts(rng, rule_kinds(name), 40):
        try:
            b = mj.score(ctx, name)
        except ValueError as e:
            with pytest.raises(type(e)):
                mj.score(ctx, v)
            continue
        s = mj.score(ctx, v)
        assert s.rule == f"{name}_same"
        assert (s.total, s.points, s.legal, s.rows) == (b.total, b.points, b.legal, b.rows)
        assert (s.payments == b.payments).all()
    ref = mj.simulate_games(name, 300, rng=2, n_threads=1)
    var = mj.simulate_games(f"{name}_same", 300, rng=2, n_threads=1)
    assert var.attrs["rule"] == f"{name}_same"
    pd.testing.assert_frame_equal(ref, var)


@pytest.mark.parametrize("name", FRAMEWORK)
def test_every_framework_rule_takes_values(name):
    scheme = _variants._scheme_of(rules._REGISTRY[name], rules.get(name))
    code = next(e.code for e in scheme.elements if e.how == "add" and not callable(e.value) and e.value > 0)
    v = rules.variant(name, f"{name}_plus", values={code: scheme.elements[scheme.codes().index(code)].value + 3})
    rng = np.random.default_rng(5)
    seen = 0
    for ctx in random_contexts(rng, rule_kinds(name), 60):
        try:
            b = mj.score(ctx, name)
        except ValueError:
            continue
        s = mj.score(ctx, v)
        check_invariants(s)
        rows = {r[0]: r for r in s.rows}
        if code in rows and code in {r[0] for r in b.rows}:
            seen += 1
            assert rows[code][3] == {r[0]: r for r in b.rows}[code][3] + 3 * rows[code][4]
    assert seen


# ---------------------------------------------------------------------------------------------
# 国标 and JJ: the fan search finds the fans, the variant's table prices them
#: Hand-built 国标/JJ wins: (hand, winning tile, how won).
MCR_HANDS = [
    (Hand("123m456p789s234s55p"), "5p", dict(discarder=3)),  # 花龙 门前清 平和 嵌张: 13
    (Hand("234m456p789s55p", melds=["345s@left"]), "5p", dict(discarder=1)),  # 三色三步高 平和 嵌张: 9
    (Hand("234m456p789s55p", melds=["678s@left"]), "5p", dict(self_draw=True)),  # 平和 嵌张 自摸: 4
    (Hand("11223355667788m"), "8m", dict(self_draw=True)),  # 七对 清一色 …: no 平和
    (Hand("123m567m789m11m", melds=["4444m@left"], bonus="F1F2"), "1m", dict(self_draw=True)),
]


def _mcr_ctx(i, **kw):
    h, w, how = MCR_HANDS[i]
    return _ctx(h, w, **how, **kw)


def _options(name, ctx):
    return {"flowers": True} if ctx.hand.bonus else {}


@pytest.mark.parametrize("name", ["guobiao", "jj"])
def test_an_mcr_variant_changes_exactly_the_changed_fan(name):
    v = rules.variant(name, f"{name}_ac10", values={"all_chows": 10})
    seen = 0
    for i in range(len(MCR_HANDS)):
        ctx = _mcr_ctx(i)
        base, var = mj.score(ctx, name, **_options(name, ctx)), mj.score(ctx, v, **_options(name, ctx))
        check_invariants(var)
        b_rows, v_rows = {r[0]: r for r in base.rows}, {r[0]: r for r in var.rows}
        assert list(b_rows) == list(v_rows)
        delta = 0
        if "all_chows" in b_rows:
            seen += 1
            b, r = b_rows.pop("all_chows"), v_rows.pop("all_chows")
            assert (b[3], r[3], r[4]) == (2, 10, 1)
            delta = 8
        assert b_rows == v_rows  # every other row as it was
        assert var.total == base.total + delta and var.rule == f"{name}_ac10"
        plain = var.total - sum(r[3] for r in var.rows if r[0] == "flower_tiles")
        assert var.legal == (plain >= (8 if name == "guobiao" else 1)) == mj.can_win(ctx, v, **_options(name, ctx))
    assert seen == 3
    # the 4-番 self-draw is below the 国标 minimum, at 12 番 above it
    low = _mcr_ctx(2)
    assert mj.score(low, v).total == 12 and mj.score(low, v).legal
    if name == "guobiao":
        assert not mj.can_win(low, "guobiao") and mj.can_win(low, v)
        s = mj.score(low, v)
        assert s.points == 8 + 12 and s.payments.tolist() == [60, -20, -20, -20]


def test_a_guobiao_fan_switched_off_counts_nothing_towards_the_minimum():
    v = rules.variant("guobiao", "guobiao_no_pinghu", elements={"all_chows": None})
    ctx = _mcr_ctx(1)  # 9 番 with 平和 (2)
    base, var = mj.score(ctx, "guobiao"), mj.score(ctx, v)
    assert base.legal and base.total == 9 and "all_chows" in {r[0] for r in base.rows}
    assert var.total == 7 and "all_chows" not in {r[0] for r in var.rows}
    assert not var.legal and var.reason == "7 番 without flowers, below the 8-番 minimum"
    assert not mj.can_win(ctx, v) and not var.payments.any()
    # the flowers still do not count towards it, at the variant's flower value
    fl = rules.variant("guobiao", "guobiao_fl4", values={"flower_tiles": 4})
    ctx = _ctx(Hand("234m456p789s55p", melds=["678s@left"], bonus="F1F2F3"), "5p", self_draw=True)
    s = mj.score(ctx, fl, flowers=True)
    assert s.total == 4 + 12 and not s.legal and s.reason.startswith("4 番 without flowers")
    assert mj.score(ctx, "guobiao", flowers=True).total == 4 + 3


def test_guobiao_lianzhong_hands_take_their_variant_values():
    v = rules.variant("guobiao", "guobiao_tianhu", options={"lianzhong_extras": True}, values={"heavenly_hand": 300})
    ctx = _ctx(Hand("123m456p789s234s55p"), "5p", self_draw=True, dealer=0, winner=0, heavenly=True)
    base = mj.score(ctx, "guobiao", lianzhong_extras=True)
    var = mj.score(ctx, v)
    assert base.total == 168 and var.total == 300
    assert [r[0] for r in var.rows] == [r[0] for r in base.rows] and var.rows[-1][:4] == (
        "heavenly_hand",
        "天和",
        "Heavenly Hand",
        300,
    )
    check_invariants(var)
    off = rules.variant(
        "guobiao", "guobiao_no_tianhu", options={"lianzhong_extras": True}, elements={"heavenly_hand": None}
    )
    assert mj.score(ctx, off).total == mj.score(ctx, "guobiao").total  # the fans again
    with pytest.raises(ValueError, match="do not exist under the options"):
        rules.variant("guobiao", "guobiao_tianhu_off", values={"heavenly_hand": 300})


@pytest.mark.parametrize("name", ["guobiao", "jj"])
def test_an_mcr_variant_is_validated(name):
    with pytest.raises(
        ValueError, match=rf"unknown element 'pinghu' of rule '{name}'; valid elements: big_four_winds, "
    ):
        rules.variant(name, f"{name}_bad", values={"pinghu": 10})
    with pytest.raises(ValueError, match="cannot switch off unknown element 'pinghu'; valid elements: big_four_winds"):
        rules.variant(name, f"{name}_bad", elements={"pinghu": None})
    new = {"zh": "新", "en": "New", "value": 1, "predicate": "f.flowers"}
    with pytest.raises(ValueError, match="found by its own search.*not add or replace one"):
        rules.variant(name, f"{name}_bad", elements={"new_fan": new})
    with pytest.raises(ValueError, match="must be an integer, got 2.5"):
        rules.variant(name, f"{name}_bad", values={"all_chows": 2.5})
    assert f"{name}_bad" not in rules.variants()


@pytest.mark.parametrize(
    "name, code, value",
    # fans that cannot move a hand across the minimum: 清一色 holds only far above 8 番, and
    # every JJ win has at least 1 番 anyway
    [("guobiao", "full_flush", 30), ("jj", "pung_of_terminals_or_honors", 3)],
)
def test_an_mcr_variant_pickles_and_simulates(name, code, value):
    v = rules.variant(name, f"{name}_{code}", values={code: value})
    old = _variants._scheme_of(rules._REGISTRY[name], rules.get(name))
    old_value = old.elements[old.codes().index(code)].value
    assert pickle.loads(pickle.dumps(v)) is v
    ctx = _mcr_ctx(3)
    s = mj.score(ctx, v)
    t = pickle.loads(pickle.dumps(s))
    assert (t.rule, t.total, t.rows, t.decomposition) == (s.rule, s.total, s.rows, s.decomposition)
    # the same games, other payments exactly where the fan holds
    n, seed = 1500, 3
    base = mj.simulate_games(name, n, rng=seed, n_threads=1, policy=SPEED)
    var = mj.simulate_games(v, n, rng=seed, n_threads=1, policy=SPEED)
    assert var.attrs["rule"] == f"{name}_{code}"
    pd.testing.assert_frame_equal(base[PLAY + ["elements"]], var[PLAY + ["elements"]])
    ob, ov = _outcomes(rules.get(name), n, seed), _outcomes(v, n, seed)
    games = set()
    for g, (b, o) in enumerate(zip(ob, ov)):
        for (_w, sb), (_w2, sv) in zip(b.scores, o.scores):
            count = {r[0]: r[4] for r in sb.rows}.get(code, 0)
            assert sv.total - sb.total == (value - old_value) * count
            assert (sv.payments != sb.payments).any() == bool(count)
            games |= {g} if count else set()
    assert games
    changed = (base[PAY].to_numpy() != var[PAY].to_numpy()).any(axis=1)
    assert set(np.flatnonzero(changed)) == games


def test_a_rule_off_the_framework_takes_options_only(monkeypatch):
    """A rule whose scorer is a plain registered function (the toy rule of the engine tests) has
    no element table: its variants change options only."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "simulation"))
    import toy_rule
    import toy_scoring

    monkeypatch.setitem(rules._REGISTRY, toy_rule.NAME, toy_rule)
    monkeypatch.setitem(_core._SCORERS, toy_rule.NAME, (toy_scoring.score_toy, toy_scoring.can_win_toy, None))
    with pytest.raises(ValueError, match="not declared with the scorer framework.*options only"):
        rules.variant("toy", "toy_values", values={"win": 2})
    with pytest.raises(ValueError, match="not declared with the scorer framework"):
        rules.variant("toy", "toy_elements", elements={"win": None})
    v = rules.variant("toy", "toy_kong2", options={"kong_pays": 2})
    assert v.options["kong_pays"] == 2
    ctx = _ctx(Hand("123m456m789m234p55p"), "2p", self_draw=True)
    s, b = mj.score(ctx, v), mj.score(ctx, "toy", kong_pays=2)
    assert (s.rule, s.total, s.points, s.rows) == ("toy_kong2", b.total, b.points, b.rows)


# ---------------------------------------------------------------------------------------------
# validation
def test_validation_names_what_is_wrong():
    with pytest.raises(ValueError, match=r"unknown element 'flush' of rule 'suzhou'; valid elements: base, "):
        rules.variant("suzhou", "v1", values={"flush": 20})
    with pytest.raises(ValueError, match="must be an integer, got 2.5"):
        rules.variant("suzhou", "v1", values={"full_flush": 2.5})
    with pytest.raises(ValueError, match="must be an integer, got True"):
        rules.variant("suzhou", "v1", values={"full_flush": True})
    with pytest.raises(ValueError, match=r"unknown option\(s\) 'minimum' for rule 'v1'; valid options: tileset, thr"):
        rules.variant("suzhou", "v1", options={"minimum": 3})
    with pytest.raises(ValueError, match="invalid value '4_5' for option v1.threshold; allowed values: 3_4, 2_3"):
        rules.variant("suzhou", "v1", options={"threshold": "4_5"})
    with pytest.raises(ValueError, match="do not exist under the options"):
        rules.variant("suzhou", "v1", values={"big_small_concealed": 20}, options={"daxiao_menqing": False})
    with pytest.raises(ValueError, match="unknown base rule 'tokyo'; valid rules: suzhou"):
        rules.variant("tokyo", "v1")
    with pytest.raises(ValueError, match="is a built-in rule"):
        rules.variant("suzhou", "taicang")
    for bad in ("Suzhou20", "suzhou-20", "", 5):
        with pytest.raises(ValueError, match="lower-case identifier"):
            rules.variant("suzhou", bad)
    assert "v1" not in rules.variants()
    with pytest.raises(ValueError, match="unknown rule 'v1'"):
        rules.get("v1")
    a = rules.variant("suzhou", "v2", values={"full_flush": 12})
    assert rules.variant("suzhou", "v2", values={"full_flush": 12}) is a
    with pytest.raises(ValueError, match="already declared with another recipe"):
        rules.variant("suzhou", "v2", values={"full_flush": 13})
    with pytest.raises(ValueError, match="unknown option"):
        rules.get("v2", minimum=3)


def test_a_variant_of_a_variant_and_of_a_rule_with_options(ff20):
    vv = rules.variant(ff20, "suzhou_ff20_hf8", values={"half_flush": 8})
    r = rules.variant(rules.get("suzhou", qidui="flat10"), "suzhou_flat10")
    assert r.options["qidui"] == "flat10" and repr(r) == "Rule('suzhou_flat10', qidui='flat10')"
    ctx = _ctx(*ARTICLE[0][:2], **ARTICLE[0][2])
    assert mj.score(ctx, r).total == mj.score(ctx, "suzhou", qidui="flat10").total
    assert mj.score(ctx, vv).total == mj.score(ctx, ff20).total
    hf = _ctx(*ARTICLE[7][:2], **ARTICLE[7][2])
    assert mj.score(hf, vv).total - mj.score(hf, "suzhou").total == 3 * _multiplier(mj.score(hf, "suzhou"))
    table = rules.describe(vv)
    rows = dict(zip(table[table.section == "variant"].item, table[table.section == "variant"].value))
    assert rows["base"] == "suzhou_ff20" and rows["values"] == "half_flush=8"


# ---------------------------------------------------------------------------------------------
# pickling: process pools and Dask workers receive the Rule as its recipe
def test_a_variant_pickles_as_its_recipe(ff20):
    vv = rules.variant(ff20, "suzhou_ff20_hf8", values={"half_flush": 8})
    assert pickle.loads(pickle.dumps(vv)) is vv
    assert pickle.loads(pickle.dumps(rules.get("suzhou"))) == rules.get("suzhou")  # built-ins as before
    spec = rules._base._VARIANT_SPECS["suzhou_ff20_hf8"]
    assert spec.base == rules._base._VARIANT_SPECS["suzhou_ff20"]


def test_games_in_a_fresh_process_pool_equal_serial(ff20):
    vv = rules.variant(ff20, "suzhou_ff20_hf8", values={"half_flush": 8})
    wp = rules.variant("suzhou", "suzhou_wp2", values={"wind_pung": 2})
    spawn = multiprocessing.get_context("spawn")  # workers that never saw the variants
    with ProcessPoolExecutor(2, mp_context=spawn) as ex:
        for v in (vv, wp):
            serial = mj.simulate_games(v, 2100, rng=9, n_threads=1)
            pooled = mj.simulate_games(v, 2100, rng=9, executor=ex)
            pd.testing.assert_frame_equal(serial, pooled)
            assert pooled.attrs["rule_object"] == v


def test_games_through_dask_equal_serial(ff20):
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed")
    vv = rules.variant(ff20, "suzhou_ff20_hf8", values={"half_flush": 8})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the cluster's start-up chatter is not what this checks
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        )
        client = distributed.Client(cluster)
    try:
        serial = mj.simulate_games(vv, 2100, rng=10, n_threads=1)
        remote = mj.simulate_games(vv, 2100, rng=10, executor=client.get_executor())
        pd.testing.assert_frame_equal(serial, remote)
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()
