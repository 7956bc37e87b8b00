"""The game policy's shanten under 国标 (its 组合龙 / 全不靠 bounds included) equals
:func:`mjfast.shanten` of the rule, so the engine plays knitted hands as far as they really are.

The policy skips the knitted forms when a cheap lower bound (the most tiles a 147/258/369
layout keeps) says they cannot do better; a wrong layout in that bound would make it skip them
on hands where they are the nearest form.  ``MJFAST_ORACLE_SCALE=full`` runs a larger sample."""

import os

import numpy as np
import pytest

import mjfast as mj
from mjfast import _bridge
from mjfast._kernels import _game as G
from mjfast._kernels._decompose import KNITTED_LAYOUTS

FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"
N = 20_000 if FULL else 1_500


def _kernel_rule(name):
    return _bridge.kernel_rule(mj.rules.get(name))


def _knitted_heavy(rng, size):
    """``size`` tiles: most of a random knitted layout, the rest from the 136-tile wall."""
    c = np.zeros(34, np.uint8)
    layout = KNITTED_LAYOUTS[int(rng.integers(6))]
    keep = int(rng.integers(4, min(size, 9) + 1))
    for k in rng.choice(layout, keep, replace=False):
        c[k] += 1
    wall = np.repeat(np.arange(34), 4 - c.astype(np.int64))
    for k in rng.choice(wall, size - keep, replace=False):
        c[k] += 1
    return c


@pytest.mark.parametrize("size", [13, 14])
def test_policy_shanten_equals_the_rule_shanten_on_knitted_hands(size):
    kr = _kernel_rule("guobiao")
    rng = np.random.default_rng(20261201 + size)
    knitted_nearest = 0
    for _ in range(N):
        c = _knitted_heavy(rng, size)
        want = mj.shanten(mj.Hand(c, partial=True), rule="guobiao")
        got = G.policy_shanten(c, 0, kr.forms, kr.options)
        assert got == want, mj.tiles.to_mpsz(mj.tiles.tiles_from_counts(c))
        std = mj.shanten(mj.Hand(c, partial=True))  # standard, seven pairs, thirteen orphans
        knitted_nearest += want < std
    assert knitted_nearest > N // 10  # the sample exercises the knitted forms


def test_policy_shanten_with_a_meld_and_on_random_hands():
    kr = _kernel_rule("guobiao")
    rng = np.random.default_rng(7)
    wall = np.repeat(np.arange(34), 4)
    for i in range(N):
        n_melds = i % 2
        size = 14 - 3 * n_melds - (i // 2) % 2
        c = _knitted_heavy(rng, size) if i % 3 else np.bincount(rng.choice(wall, size, replace=False), minlength=34)
        c = c.astype(np.uint8)
        want = mj.shanten(c, rule="guobiao", melds=["555z"] if n_melds else ()) if c[31] == 0 else None
        if want is None:
            continue
        assert G.policy_shanten(c, n_melds, kr.forms, kr.options) == want


def test_policy_shanten_refuses_bad_hands():
    kr = _kernel_rule("guobiao")
    with pytest.raises(ValueError, match="34 entries"):
        G.policy_shanten(np.zeros(33, np.uint8), 0, kr.forms, kr.options)
    with pytest.raises(ValueError, match="3k\\+1 or 3k\\+2"):
        G.policy_shanten(np.zeros(34, np.uint8), 0, kr.forms, kr.options)
