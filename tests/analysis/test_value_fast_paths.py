"""expected_value's fast paths against the general ones they stand in for: the value kernel's
memoised accept masks, the two-figure recursion of unit wins, and the table built from arrays."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mjfast as mj
from mjfast._kernels import _value as kv
from mjfast.analysis import value as V


def _random_hand(rng, n: int) -> np.ndarray:
    return np.bincount(rng.choice(np.repeat(np.arange(34), 4), n, replace=False), minlength=34).astype(np.uint8)


def test_memoised_accept_masks_match_the_efficiency_kernel():
    rng = np.random.default_rng(12)
    for forms, options in ((1, 0), (3, 0), (7, 0), (7, 1), (5, 0)):
        for melds in (0, 1, 2, 4):
            for _ in range(300):
                c = _random_hand(rng, 13 - 3 * melds)
                fused, kernel = kv._fused_accepts(c, melds, forms, options)
                assert np.array_equal(fused, kernel), (c.tolist(), melds, forms, options)


def _setup(hand, rule=None, draws_left=None):
    """expected_value's set-up of ``hand`` without discard wins, visible tiles or wildcards."""
    return V._setup(
        hand,
        rule=rule,
        draws_left=draws_left,
        visible=None,
        melds=(),
        wilds=None,
        wild_kind=None,
        wild_copies=None,
        discard_wins=False,
        hazard=None,
        first_turns=3,
        rule_options={},
    )


def _problem(hand, **kw):
    s = _setup(hand, kw.get("rule"), kw.get("draws_left"))
    sh = V._row_shanten(s)
    mode = V._pick_mode(kw.get("wall", "depleting"), s)
    p = V._new_problem(s, mode, kw.get("depth", 1), 2_000_000, list(sh) if s.start14 else None)
    assert p.build() == 0
    V._judge(p, s)
    return s, p


@pytest.mark.parametrize(
    "kw",
    [{}, {"wall": "returned"}, {"depth": 0, "draws_left": 12}, {"depth": 2, "draws_left": 6}],
)
def test_unit_win_recursion_matches_the_general_one(kw):
    """Without a rule every win is worth 1: the two-figure recursion (``keep=False``) gives the
    same six figures, bit for bit, as the general one (which ``keep=True`` runs)."""
    rng = np.random.default_rng(3)
    for target in (1, 2):
        hands = []
        while len(hands) < 4:
            c = _random_hand(rng, 14)
            if mj.shanten(c) == target:
                hands.append(c)
        for c in hands:
            s, p1 = _problem(c, **kw)
            _s, p2 = _problem(c, **kw)
            fast = p1.solve(s.hazard, s.turns, keep=False)
            slow = p2.solve(s.hazard, s.turns, keep=True)
            assert fast.tobytes() == slow.tobytes(), (c.tolist(), kw)


def test_table_from_arrays_equals_the_constructed_frame():
    df = mj.expected_value("178999m2389p345s2z", discard_wins=False)
    plain = pd.DataFrame({k: df[k].to_numpy() for k in df.columns})
    plain["discard"] = df["discard"].astype(object).astype(pd.CategoricalDtype(list(mj.tiles.CODES[:34]), ordered=True))
    plain["method"] = pd.Categorical(df["method"].astype(str), categories=["recursion", "chain"])
    pd.testing.assert_frame_equal(pd.DataFrame(df), plain)
    assert list(df.columns) == list(V.COLUMNS) and isinstance(df.index, pd.RangeIndex)
    batch = mj.expected_value(["178999m2389p345s2z", "12455m34567p6777s"], discard_wins=False, n_threads=1)
    assert list(batch.columns) == ["hand", *V.COLUMNS]
    one = mj.expected_value("12455m34567p6777s", discard_wins=False)
    assert batch["hand"].dtype == np.int64 and len(batch) == len(df) + len(one)
    pd.testing.assert_frame_equal(
        pd.DataFrame(batch[batch["hand"] == 1].drop(columns="hand").reset_index(drop=True)), pd.DataFrame(one)
    )
    # the column index is the table's own: renaming it leaves the next table alone
    df.columns.name = "x"
    assert mj.expected_value("178999m2389p345s2z", discard_wins=False).columns.name is None


@pytest.mark.parametrize("text", ["678m8p57s22333677z", "19m19p19s1234567z", "1111m2222p3333s4z", "1234m"])
def test_plain_set_up_matches_the_simulation_set_up(text):
    """The rule-free set-up of a hand of natural tiles is simulate_draws' set-up, array for array."""
    from mjfast.simulation import draws as D

    h = mj.Hand(text, partial=True)
    fast, general = V._plain_spec(h), D._setup(h, None, None, (), None, None, None)
    assert fast is not None and fast.keys() == general.keys()
    for k, a in fast.items():
        b = general[k]
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape and a.flags.c_contiguous and np.array_equal(a, b), k
        else:
            assert a == b and type(a) is type(b), k
    assert V._plain_spec(mj.Hand("123m456p789s11z", melds=["555z"])) is None


def test_row_shanten_matches_the_shanten_kernel():
    from mjfast._kernels import _shanten as ks

    rng = np.random.default_rng(8)
    for rule in (None, "sichuan", "guobiao"):
        for n in (13, 14):
            for _ in range(20):
                c = _random_hand(rng, n)
                try:
                    s = _setup(c, rule, 4)
                except ValueError:
                    continue
                spec = s.spec
                args = (spec["n_melds"], spec["wilds"], spec["cap"], spec["playable"], spec["forms"], spec["options"])
                want = {}
                for k in np.flatnonzero(c) if n == 14 else [-1]:
                    c2 = c.copy()
                    if k >= 0:
                        c2[k] -= 1
                    want[int(k)] = int(ks.shanten_fast(c2, *args))
                assert V._row_shanten(s) == want
