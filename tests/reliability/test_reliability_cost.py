"""The knitted forms' cost cliff: with wildcards, 全不靠 / 七星不靠 / 组合龙 are exact choice
programmes, and discard tables of rules that play them (JJ) took seconds.  The kernel now
skips a knitted layout whose lower bound (the kinds it lacks; for 组合龙 also the rest's
deficit with unlimited copies) cannot beat the forms already evaluated.  That pruning must
change no answer: the pruned minimum equals the minimum of the forms evaluated one by one
(unpruned), and the pure-Python twin agrees on a sample.  (Timings are in
``bench/discard_cliff.py``; timing never gates a test.)"""

import importlib

import numpy as np
import pytest
from _util import FULL

import mjfast as mj

R = importlib.import_module("mjfast._reference.shanten")
JJ_FORMS = ["standard", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "seven_stars", "knitted_straight"]


def knitted_hands(rng, n, sizes=(13, 14)):
    """Hands drawn mostly from knitted layouts and honours (so the knitted forms compete)."""
    out = []
    for _ in range(n):
        size = int(rng.choice(sizes))
        wilds = int(rng.integers(0, 5))
        perm = rng.permutation(3)
        layout = [9 * int(perm[s]) + s + 3 * x for s in range(3) for x in range(3)] + list(range(27, 34))
        pool = layout * 2 + list(rng.integers(0, 34, 8))
        c = np.zeros(34, np.uint8)
        for k in rng.choice(pool, size - wilds, replace=False):
            if c[k] < 4:
                c[k] += 1
        while int(c.sum()) + wilds < size:
            k = int(rng.integers(0, 34))
            if c[k] < 4:
                c[k] += 1
        out.append((c, wilds))
    return out


def test_pruned_shanten_equals_the_forms_one_by_one():
    rng = np.random.default_rng(8)
    n = 20_000 if FULL else 600
    for c, w in knitted_hands(rng, n):
        h = mj.Hand(c, wilds=w, partial=True)
        best = min(mj.shanten(h, rule="jj", form=f) if _applies(h, f) else 100 for f in JJ_FORMS)
        assert mj.shanten(h, rule="jj") == best, (mj.to_mpsz(c), w)


def _applies(h, form):
    try:
        mj.shanten(h, rule="jj", form=form)
        return True
    except ValueError:
        return False


def test_pruned_shanten_agrees_with_the_twin():
    rng = np.random.default_rng(9)
    forms = ("standard", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight")
    for c, w in knitted_hands(rng, 300 if FULL else 25):
        ours = mj.shanten(mj.Hand(c, wilds=w, partial=True), rule="jj")
        twin = R.shanten(c, wilds=w, form=forms)  # 全不靠 includes 七星不靠
        assert ours == twin, (mj.to_mpsz(c), w, ours, twin)


@pytest.mark.parametrize("wilds", [3, 4])
def test_jj_discard_tables_with_wildcards_match_per_discard_calls(wilds):
    """Each row of the (now fast) discard table is the shanten and 进张 of the hand after
    that discard (the discarded tile then seen), as the one-hand functions compute them."""
    rng = np.random.default_rng(wilds)
    wall = np.repeat(np.arange(34), 4)
    for _ in range(6 if not FULL else 60):
        c = np.zeros(34, np.uint8)
        np.add.at(c, rng.choice(wall, 14 - wilds, replace=False), 1)
        h = mj.Hand(c, wilds=wilds, partial=True)
        table = mj.analyze_discards(h, rule="jj", legal="shape")
        for row in table.itertuples():
            k = mj.tiles.CODES.index(str(row.discard))
            c13 = c.copy()
            c13[k] -= 1
            h13 = mj.Hand(c13, wilds=wilds, partial=True)
            u = mj.ukeire(h13, rule="jj", legal="shape", visible=str(row.discard))  # the discard is seen
            assert (row.shanten, row.ukeire) == (u.shanten, u.count), (mj.to_mpsz(c), wilds, row.discard)
