"""Efficiency kernels against definitions.

* against the pure-Python twin (``mjfast._reference.efficiency``, brute force, ~0.3 s a hand),
  on a small sample including wildcards, called melds and 四川's 108-tile set;
* against the definition "a draw that lowers the shanten" evaluated with the (separately
  verified) shanten kernel, on 20,000 hands including wildcards and 四川."""

import importlib

import numpy as np
import pytest

import mjfast as mj
from mjfast import _bridge
from mjfast._kernels import _efficiency as _ke

RE = importlib.import_module("mjfast._reference.efficiency")
CODES = mj.tiles.CODES
KINDS = tuple(CODES[:34])


def _case(rng, copies, wilds_max):
    """A random 3k+1 hand with 0-2 pung melds and wildcards; returns counts, melds, wilds, caps."""
    kinds = np.flatnonzero(copies)
    n_melds = int(rng.integers(0, 3))
    wilds = int(rng.integers(0, wilds_max + 1))
    meld_kinds = rng.choice(kinds, n_melds, replace=False)
    caps = copies.copy()
    caps[meld_kinds] -= 3
    h = np.zeros(34, np.uint8)
    np.add.at(h, rng.choice(np.repeat(np.arange(34), caps), 13 - 3 * n_melds - wilds, replace=False), 1)
    return h, n_melds, wilds, caps.astype(np.uint8)


@pytest.mark.parametrize("tile_set", ["136", "sichuan_108"])
def test_ukeire_and_yijinting_match_twin(seed, tile_set):
    # the kernels called with the caps the twin takes: 136 tiles with wildcards, or 四川's 108
    rng = np.random.default_rng(seed + len(tile_set))
    copies = np.full(34, 4)
    forms = _bridge.FORM_BITS["standard"] | _bridge.FORM_BITS["seven_pairs"] | _bridge.FORM_BITS["thirteen_orphans"]
    ref_forms = None
    if tile_set == "sichuan_108":
        copies[27:] = 0
        forms = _bridge.FORM_BITS["standard"] | _bridge.FORM_BITS["seven_pairs"]
        ref_forms = ("standard", "seven_pairs")
    playable = (copies > 0).astype(np.uint8)
    for _ in range(25):
        h, m, w, caps = _case(rng, copies, 2 if tile_set == "136" else 0)
        s, tiles, count = _ke.ukeire_dict(h, m, w, caps, playable, forms, 0, None, KINDS)
        kwargs = dict(n_melds=m, wilds=w, caps=caps, wild_mask=playable.astype(bool), forms=ref_forms)
        ref = RE.ukeire(h, **kwargs)
        assert tiles == {CODES[k]: v for k, v in ref.items()}, (mj.to_mpsz(h), m, w)
        if s == 1 and w == 0:
            rem = np.zeros(34, np.int16)
            wu = np.zeros(34, np.int32)
            wm = np.zeros(34, np.int32)
            ting = np.zeros(34, np.uint8)
            _ke.yijinting_kernel(h, m, w, caps, playable, forms, 0, np.zeros(34, np.int16), rem, wu, wm, ting)
            r = RE.yijinting(h, **kwargs)
            combos = int((rem.astype(int) * wu).sum())
            assert (int(rem.sum()), combos) == (r["ukeire"], r["combos"]), mj.to_mpsz(h)


@pytest.mark.parametrize("rule", [None, "sichuan", "guobiao"])
def test_ukeire_matches_definition_20k(seed, rule):
    """Accepting kinds = kinds whose draw lowers the exact shanten; copies = cap − held."""
    rng = np.random.default_rng(seed + 7)
    rule_obj = mj.rules.get(rule) if rule else None
    copies = _bridge.kernel_rule(rule_obj).copies.astype(int)
    wall = np.repeat(np.arange(34), copies)
    n = 20_000 if rule is None else 4_000
    bad = []
    for _ in range(n):
        wilds = int(rng.integers(0, 3)) if rule is None else 0
        h = np.zeros(34, np.uint8)
        np.add.at(h, rng.choice(wall, 13 - wilds, replace=False), 1)
        # the shape-level definition (the legality of wins is tested in test_efficiency_legal.py)
        u = mj.ukeire(h, rule=rule, wilds=wilds, legal="shape") if wilds else mj.ukeire(h, rule=rule, legal="shape")
        s0 = mj.shanten(h, rule=rule, wilds=wilds) if wilds else mj.shanten(h, rule=rule)
        want = {}
        for k in range(34):
            if h[k] < copies[k]:
                g = h.copy()
                g[k] += 1
                s1 = mj.shanten(g, rule=rule, wilds=wilds) if wilds else mj.shanten(g, rule=rule)
                if s1 < s0:
                    want[CODES[k]] = int(copies[k] - h[k])
        if u.shanten != s0 or u.tiles != want:
            bad.append((mj.to_mpsz(h), wilds, u.tiles, want))
    assert not bad, bad[:3]
