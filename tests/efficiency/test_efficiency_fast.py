"""The table-driven 进张 path against a brute force built from the shanten kernel alone.

The efficiency kernel finds accepting kinds from per-group accept tables and the splits that
attain the minimum deficit (never by re-evaluating the hand after each draw).  Here every figure
is recomputed the slow way — 34 draws, each followed by ``mj.shanten_batch`` — on hands chosen
to exercise every branch: random hands, pair-heavy hands (seven pairs at the minimum), orphan-
heavy hands (thirteen orphans at the minimum), near-ready hands, called melds, both seven-pairs
readings.
"""

import numpy as np
import pytest
from _hands import random_hands

import mjfast as mj

ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def _biased_hands(rng, n, size, kinds, repeat):
    """Hands of ``size`` tiles drawn from ``kinds``, each kind drawn ``repeat`` times at most."""
    out = np.zeros((n, 34), np.uint8)
    wall = np.repeat(np.asarray(kinds), repeat)
    for i in range(n):
        np.add.at(out[i], rng.choice(wall, size, replace=False), 1)
    return out


def _near_ready(rng, n, size, target):
    """Random hands of ``size`` tiles whose shanten is at most ``target``."""
    found = []
    while len(found) < n:
        hands, _ = random_hands(rng, 4000, [size])
        found.extend(hands[mj.shanten_batch(hands) <= target])
    return np.asarray(found[:n], np.uint8)


def _brute_accepting(hands, melds=0, seven_pairs=None):
    """(n, 34) bool: draws that lower the shanten, by 34 shanten_batch calls."""
    s0 = mj.shanten_batch(hands, melds=melds, seven_pairs=seven_pairs).astype(int)
    out = np.zeros(hands.shape, bool)
    for k in range(34):
        room = hands[:, k] < 4
        drawn = hands.copy()
        drawn[room, k] += 1
        s1 = mj.shanten_batch(drawn[room], melds=melds, seven_pairs=seven_pairs).astype(int)
        out[room, k] = s1 < s0[room]
    return s0, out


def _hand_sets(rng):
    n = 1500
    return {
        "random": random_hands(rng, n, [13])[0],
        "pairs": _biased_hands(rng, n, 13, rng.choice(34, 9, replace=False), 4),
        "orphans": _biased_hands(rng, n, 13, ORPHANS + [4, 13], 2),
        "near_ready": _near_ready(rng, 600, 13, 1),
    }


@pytest.mark.parametrize("seven_pairs", ["chinese", "riichi"])
def test_ukeire_matches_brute_force(seed, seven_pairs):
    rng = np.random.default_rng(seed)
    for name, hands in _hand_sets(rng).items():
        s0, acc = _brute_accepting(hands, seven_pairs=seven_pairs)
        left = 4 - hands.astype(int)
        for i, h in enumerate(hands):
            u = mj.ukeire(h, seven_pairs=seven_pairs)
            want = {mj.tiles.CODES[k]: int(left[i, k]) for k in np.flatnonzero(acc[i]) if left[i, k] > 0}
            assert (u.shanten, u.tiles, u.count) == (s0[i], want, sum(want.values())), (name, mj.to_mpsz(h))
        batch = mj.ukeire_batch(hands, seven_pairs=seven_pairs)
        assert batch["ukeire"].tolist() == [int((left[i] * acc[i]).sum()) for i in range(len(hands))], name


@pytest.mark.parametrize("n_melds", [1, 2, 3, 4])
def test_ukeire_batch_with_melds_matches_brute_force(seed, n_melds):
    rng = np.random.default_rng(seed + 10 * n_melds)
    size = 13 - 3 * n_melds
    hands = np.concatenate([random_hands(rng, 1500, [size])[0], _near_ready(rng, 300, size, 1)])
    s0, acc = _brute_accepting(hands, melds=n_melds)
    out = mj.ukeire_batch(hands, melds=n_melds)
    left = 4 - hands.astype(int)
    assert out["shanten"].tolist() == s0.tolist()
    assert out["ukeire"].tolist() == [int((left[i] * acc[i]).sum()) for i in range(len(hands))]
    assert out["ukeire_kinds"].tolist() == [int((acc[i] & (left[i] > 0)).sum()) for i in range(len(hands))]


def _brute_table(h14):
    """Per discard: (shanten, 进张 copies, 改良 count) from shanten_batch only.

    改良 follows the kernel's definition: a draw t that does not accept counts when some discard
    d2 != t keeps the shanten and leaves more 进张 (copies counted with the first discard seen).
    """
    rows = {}
    for d in np.flatnonzero(h14):
        h = h14.copy()
        h[d] -= 1
        seen = np.zeros(34, int)
        seen[d] = 1
        s, acc = _brute_accepting(h[None])
        s, acc = int(s[0]), acc[0]
        left = np.maximum(4 - h.astype(int) - seen, 0)
        base = int((left * acc).sum())
        impr = 0
        if s <= 1:
            cands, owners = [], []
            for t in range(34):
                if acc[t] or h[t] >= 4 or left[t] == 0:
                    continue
                for d2 in np.flatnonzero(h + np.eye(34, dtype=np.uint8)[t]):
                    if d2 == t:
                        continue
                    h2 = h.copy()
                    h2[t] += 1
                    h2[d2] -= 1
                    cands.append(h2)
                    owners.append(t)
            if cands:
                cands = np.asarray(cands, np.uint8)
                s2, acc2 = _brute_accepting(cands)
                left2 = np.maximum(4 - cands.astype(int) - seen, 0)
                wide = (s2 == s) & ((left2 * acc2).sum(axis=1) > base)
                impr = len({owners[i] for i in np.flatnonzero(wide)})
        rows[mj.tiles.CODES[d]] = (s, base, impr)
    return rows


def test_discard_table_matches_brute_force(seed):
    rng = np.random.default_rng(seed + 1)
    hands = np.concatenate(
        [
            random_hands(rng, 15, [14])[0],
            _near_ready(rng, 10, 14, 1),
            _near_ready(rng, 6, 14, 0),
            _biased_hands(rng, 5, 14, rng.choice(34, 9, replace=False), 4),
        ]
    )
    for h in hands:
        t = mj.analyze_discards(h, as_frame=False, combos=False)
        got = {
            code.decode(): (int(s), int(u), int(i))
            for code, s, u, i in zip(t["discard"], t["shanten"], t["ukeire"], t["improvement_count"])
        }
        assert got == _brute_table(h), mj.to_mpsz(h)


def test_compiled_entries_match_the_general_functions(seed):
    # mj.ukeire / mj.analyze_discards answer plain count vectors in compiled code; a visible
    # array of zeros takes the general route, which must give the same figures
    rng = np.random.default_rng(seed + 2)
    nothing = np.zeros(34, np.int16)
    for h in np.concatenate([random_hands(rng, 150, [14])[0], _near_ready(rng, 50, 14, 1)]):
        for combos in (False, True):
            fast = mj.analyze_discards(h, as_frame=False, combos=combos)
            slow = mj.analyze_discards(h, as_frame=False, combos=combos, visible=nothing)
            assert fast.keys() == slow.keys()
            for col in fast:
                assert fast[col].dtype == slow[col].dtype and fast[col].tolist() == slow[col].tolist(), col
        h13 = h.copy()
        h13[np.flatnonzero(h13)[0]] -= 1
        assert mj.ukeire(h13) == mj.ukeire(h13, visible=nothing)
    with pytest.raises(ValueError, match="3k\\+2"):
        mj.analyze_discards(h13, as_frame=False)
    with pytest.raises(ValueError, match="copies of 1m"):
        mj.analyze_discards(np.array([5] + [1] * 9 + [0] * 24, np.uint8), as_frame=False)
