"""The shanten kernel against its pure-Python twin (``mjfast._reference.shanten``), which
implements the brute-force definition: wildcards by assignment, targets by enumeration.

The twin is slow (10–150 ms a hand), so the default sample sizes are modest; every form, 0–3
wildcards, called melds (caps) and absent kinds are covered.  ``MJFAST_ORACLE_SCALE=full``
runs the full sizes (5,000 hands per wildcard count, 20,000 per special form;
about half an hour on two cores)."""
import importlib
import os

import numpy as np
import pytest

from mjfast._kernels import _shanten as K
from mjfast import _bridge

# by module path: the package may re-export a function of the same name
R = importlib.import_module("mjfast._reference.shanten")
FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"

FORMS = {
    "standard": R.shanten_standard,
    "seven_pairs": R.shanten_seven_pairs,
    "thirteen_orphans": R.shanten_thirteen_orphans,
    "thirteen_lan": R.shanten_thirteen_lan,
    "honors_and_knitted": R.shanten_honors_and_knitted,
    "knitted_straight": R.shanten_knitted_straight,
    "nine_terminals": R.shanten_nine_terminals,
}


def _random_case(rng, wilds, melds_max, absent_honours=False):
    """Concealed counts, number of pung melds, caps (4 minus meld tiles) and playable mask."""
    n_melds = int(rng.integers(0, melds_max + 1))
    copies = np.full(34, 4)
    if absent_honours:
        copies[27:] = 0
    wall = np.repeat(np.arange(34), copies)
    meld_kinds = rng.choice(np.flatnonzero(copies), n_melds, replace=False)
    caps = copies.copy()
    caps[meld_kinds] -= 3
    wall = np.repeat(np.arange(34), caps)
    size = 14 - 3 * n_melds - wilds - int(rng.integers(0, 2))
    h = np.zeros(34, np.uint8)
    np.add.at(h, rng.choice(wall, size, replace=False), 1)
    return h, n_melds, caps.astype(np.uint8), (copies > 0).astype(np.uint8)


def _kernel(h, n_melds, wilds, caps, playable, form, options=0):
    r = K.shanten_counts_form(h, n_melds, wilds, caps, playable, _bridge.FORM_BITS[form], options)
    return None if r >= _bridge.INF else r


@pytest.mark.parametrize("wilds, n", [(0, 600), (1, 5000), (2, 5000), (3, 5000)] if FULL else
                         [(0, 600), (1, 400), (2, 250), (3, 120)])
def test_standard_with_wildcards_and_melds(seed, wilds, n):
    rng = np.random.default_rng(seed * 7 + wilds)
    bad = []
    for i in range(n):
        h, m, caps, pl = _random_case(rng, wilds, 2, absent_honours=i % 5 == 0)
        ours = _kernel(h, m, wilds, caps, pl, "standard")
        ref = R.shanten_standard(h, m, wilds, caps=caps, wild_mask=pl.astype(bool))
        if ours != ref:
            bad.append((h.tolist(), m, caps.tolist(), ours, ref))
    assert not bad, bad[:3]


@pytest.mark.parametrize("form", [f for f in FORMS if f != "standard"])
@pytest.mark.parametrize("wilds", [0, 1])
def test_special_forms(seed, form, wilds):
    rng = np.random.default_rng(seed * 11 + wilds)
    fn = FORMS[form]
    bad = []
    n = 20_000 if FULL and form in ("thirteen_lan", "nine_terminals") else 150
    for i in range(n):
        h, m, caps, pl = _random_case(rng, wilds, 1 if form == "knitted_straight" else 0)
        ours = _kernel(h, m, wilds, caps, pl, form)
        ref = fn(h, m, wilds, caps=caps, wild_mask=pl.astype(bool))
        if ours != ref:
            bad.append((h.tolist(), m, ours, ref))
    assert not bad, bad[:3]


def test_option_readings(seed):
    # riichi seven pairs and strict 烂胡 / 七星不靠 against the twin's options
    rng = np.random.default_rng(seed + 99)
    for _ in range(20_000 if FULL else 150):
        h, m, caps, pl = _random_case(rng, 0, 0)
        assert _kernel(h, m, 0, caps, pl, "seven_pairs", _bridge.OPT_PAIRS_DISTINCT) == \
            R.shanten_seven_pairs(h, m, 0, caps=caps, distinct=True)
        assert _kernel(h, m, 0, caps, pl, "thirteen_lan", _bridge.OPT_LAN_STRICT) == \
            R.shanten_thirteen_lan(h, m, 0, caps=caps, strict=True)
        assert _kernel(h, m, 0, caps, pl, "seven_stars") == \
            R.shanten_honors_and_knitted(h, m, 0, caps=caps, seven_stars=True)
