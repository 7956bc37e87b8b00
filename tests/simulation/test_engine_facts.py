"""One home per rule: the engine reads a rule's facts (``Rule.engine``) and its scorer's hooks, never
its name.  A toy eleventh rule, declared in its own two modules (``toy_rule``, ``toy_scoring``),
is registered here and played, settled and rotated without touching anything else."""

import ast
import pathlib
import re

import numpy as np
import pandas as pd
import pytest
import toy_rule
import toy_scoring

import mjfast as mj
from mjfast import rules
from mjfast.rules import _base
from mjfast.scoring import _core
from mjfast.simulation import games as G
from mjfast.simulation import matches as M

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _docstrings(tree) -> set:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def test_no_rule_name_literal_outside_rules_and_scoring():
    """No rule name appears as a string in code outside rules/ and scoring/ (docstrings, and the
    doctest examples in them, are docs): the engine and the analysis read rule facts and hooks
    (what ``git grep`` shows; the compiled kernels name no rule either)."""
    names = set(rules.names())
    src = ROOT / "src" / "mjfast"
    hits = []
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        if rel.startswith(("rules/", "scoring/")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if node.value in names or any(re.search(rf"\b{n}\b", node.value) for n in names):
                    hits.append(f"{rel}:{node.lineno}: {node.value!r}")
    for path in sorted(src.rglob("*.pyx")):
        text = path.read_text(encoding="utf-8")
        hits += [f"{path.name}: {n}" for n in names if re.search(rf"\b{n}\b", text)]
    assert hits == []


def test_engine_facts_are_validated():
    with pytest.raises(ValueError, match="first_turn event"):
        _base.EngineFacts(first_turn=(("sunrise", "heavenly"),))
    with pytest.raises(ValueError, match="first_turn flag"):
        _base.EngineFacts(first_turn=(("deal", "lucky"),))
    with pytest.raises(ValueError, match="wild_head"):
        _base.EngineFacts(wild_head="always")
    with pytest.raises(ValueError, match="match_hands"):
        _base.EngineFacts(match_hands=0)
    with pytest.raises(ValueError, match="seat_swaps"):
        _base.EngineFacts(seat_swaps=((2, (0, 0, 1, 2)),))
    with pytest.raises(ValueError, match="first_discard_kind"):
        _base.EngineFacts(first_discard_kind="9z")


def test_a_rule_naming_a_missing_hook_module_is_a_clear_error():
    import dataclasses

    r = mj.rules.get("sichuan")
    bad = dataclasses.replace(r, engine=dataclasses.replace(r.engine, hooks="mjfast.no_such_module"))
    with pytest.raises(ValueError, match="no_such_module"):
        G.simulate_games(bad, 5, rng=0, n_threads=1)


@pytest.fixture
def toy(monkeypatch):
    """Register the toy rule and its scorer (and take them away again)."""
    monkeypatch.setitem(rules._REGISTRY, toy_rule.NAME, toy_rule)
    _core.register(toy_rule.NAME, toy_scoring.score_toy, toy_scoring.can_win_toy)
    yield rules.get(toy_rule.NAME)
    _core._SCORERS.pop(toy_rule.NAME, None)
    _core._RESOLVED.clear()
    _core._RESOLVED_ID.clear()


def test_a_toy_eleventh_rule_plays_settles_and_rotates(toy):
    df = G.simulate_games("toy", 3000, rng=1, n_threads=2)
    assert (df[["pay_0", "pay_1", "pay_2", "pay_3"]].sum(axis=1) == 0).all()
    assert set(df["elements"].astype(str)) <= {"", "win"}
    # one winner per discard, kongs paid by the toy's own hook: a hand's payments are its win and kongs
    game, rec = _raw_toy()
    outcomes = []
    rows = G._rows(game, *rec, outcomes=outcomes)
    kongs = 0
    for g, o in enumerate(outcomes):
        want = np.zeros(4, np.int64)
        for k in o.kongs:
            want += np.where(np.arange(4) == k.konger, 3, -1)
            kongs += 1
        for _w, s in o.scores:
            want += s.payments
        assert [rows[f"pay_{p}"][g] for p in range(4)] == want.tolist()
        assert all(len(e.winners) == 1 for e in o.events)
    assert kongs > 50
    assert mj.analysis.payout.base_stake("toy") == 1
    m = M.simulate_matches("toy", 10, rng=2, n_threads=1)
    assert len(m) == 80  # the toy's match length
    for _i, part in m.groupby("match"):
        assert part["dealer"].tolist() == [h % 4 for h in range(8)]  # its own rotation hook


def _raw_toy():
    from _sim_helpers import raw

    return raw("toy", 1500, 3)


def test_a_rule_object_travels_to_a_process_pool_as_itself():
    """A Rule whose facts differ from the registered rule of its name is simulated as it is in a
    worker process (pickled whole, not rebuilt from its name and options)."""
    import dataclasses
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    base = mj.rules.get("sichuan")
    changed = dataclasses.replace(base, engine=dataclasses.replace(base.engine, kong_discard=False))
    local = G.simulate_games(changed, 1100, rng=4, n_threads=2)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        remote = G.simulate_games(changed, 1100, rng=4, executor=ex)
    pd.testing.assert_frame_equal(local, remote)
    assert not local.equals(G.simulate_games(base, 1100, rng=4, n_threads=2))


def test_per_hand_state_travels_in_rule_state():
    """血战 ``won`` and 一炮多响 ``winners`` reach the scorers through ``WinContext.rule_state`` (hashable,
    so the scorers' caches serve them), not as keyword options."""
    seen = []
    real = mj.scoring.score

    def spy(ctx, rule, **options):
        seen.append((dict(ctx.rule_state), options))
        return real(ctx, rule, **options)

    G.score, old = spy, G.score
    try:
        G.simulate_games("sichuan", 300, rng=5, n_threads=1, xuezhan=True)
    finally:
        G.score = old
    assert seen and all(not opts for _st, opts in seen)
    assert any("won" in st and st["won"] for st, _o in seen)
