"""The fused fast path of the shanten kernel (one pass over the counts, used by ``mj.shanten``'s
compiled front door and by the blocked ``shanten_batch``) against the general route: each form
on its own through ``shanten_counts_form``, which never takes the fused pass."""

import numpy as np
import pytest

import mjfast as mj
from mjfast import _bridge
from mjfast._kernels import _shanten as K

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
FORMS = ("standard", "seven_pairs", "thirteen_orphans")


ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])


def _hands(rng, n):
    """Rows of every size with 0-3 wildcards and 0-2 melds.  A quarter are clumped (few kinds,
    many copies: quads, seven-pairs quads, wildcard fifth copies) and a quarter are drawn mostly
    from the orphan kinds (where thirteen orphans is the best form)."""
    counts = np.zeros((n, 34), np.uint8)
    wilds = np.zeros(n, np.int8)
    melds = np.zeros(n, np.int8)
    for i in range(n):
        melds[i] = rng.integers(0, 3) if i % 4 == 0 else 0
        total = int(rng.choice([s for s in SIZES if s + 3 * melds[i] <= 14]))
        wilds[i] = rng.integers(0, min(3, total) + 1)
        if i % 4 == 0:
            # enough clumped kinds that at most 3 tiles are left for wildcards
            kinds = rng.choice(34, int(rng.integers(max(1, -(-(total - 3) // 4)), 6)), replace=False)
        elif i % 4 == 1:
            kinds = np.union1d(ORPHANS, rng.choice(34, 2))
        else:
            kinds = np.arange(34)
        wall = np.repeat(kinds, 4)
        np.add.at(counts[i], rng.choice(wall, min(total - wilds[i], len(wall)), replace=False), 1)
        wilds[i] = total - counts[i].sum()
    return counts, melds, wilds


def _general(c, m, w, distinct):
    kr = _bridge.kernel_rule(None, None, distinct)
    options = kr.options
    best = min(
        K.shanten_counts_form(c, int(m), int(w), kr.copies, kr.playable, _bridge.FORM_BITS[f], options) for f in FORMS
    )
    return best


@pytest.mark.parametrize("seven_pairs", [None, "riichi"])
def test_fast_paths_match_general_route(seed, seven_pairs):
    rng = np.random.default_rng(seed * 13 + (seven_pairs is None))
    counts, melds, wilds = _hands(rng, 3000)
    distinct = seven_pairs == "riichi"
    general = np.array([_general(counts[i], melds[i], wilds[i], distinct) for i in range(len(counts))])
    assert (general < _bridge.INF).all()
    for th in (1, 2, 3):
        batch = mj.shanten_batch(counts, melds=melds, wilds=wilds, seven_pairs=seven_pairs, n_threads=th)
        bad = np.flatnonzero(batch != general)
        assert not bad.size, [
            (mj.to_mpsz(counts[i]), int(melds[i]), int(wilds[i]), int(batch[i]), int(general[i])) for i in bad[:3]
        ]
    plain = np.flatnonzero(melds == 0)
    front = np.array(
        [mj.shanten(np.ascontiguousarray(counts[i]), wilds=int(wilds[i]), seven_pairs=seven_pairs) for i in plain]
    )
    bad = np.flatnonzero(front != general[plain])
    assert not bad.size, [
        (mj.to_mpsz(counts[plain[i]]), int(wilds[plain[i]]), int(front[i]), int(general[plain[i]])) for i in bad[:3]
    ]


@pytest.mark.parametrize("where", [0, 15, 16, 17, 999])
@pytest.mark.parametrize("value, match", [(5, "row {}: 5 copies of 2p"), (255, "row {}: 255 copies of 2p")])
def test_batch_bad_count_anywhere_in_a_block(where, value, match):
    counts, _ = _plain_batch(1000)
    counts[where, 10] = value
    for th in (1, 2):
        with pytest.raises(ValueError, match=match.format(where)):
            mj.shanten_batch(counts, n_threads=th)


@pytest.mark.parametrize("where", [0, 16, 999])
def test_batch_bad_size_anywhere_in_a_block(where):
    counts, _ = _plain_batch(1000)
    counts[where] = 0
    counts[where, :12] = 1  # 12 tiles: 3k
    with pytest.raises(ValueError, match=f"row {where}: 12 tiles"):
        mj.shanten_batch(counts, n_threads=2)


def test_batch_of_every_length():
    # the last block is partial for every length that is not a multiple of the block
    counts, expected = _plain_batch(70)
    for n in range(0, 71):
        np.testing.assert_array_equal(mj.shanten_batch(counts[:n], n_threads=2), expected[:n])


@pytest.mark.parametrize("value", [5, 8, 255])
def test_front_door_bad_count(value):
    c = mj.tiles.counts("123m456p789s1122z")
    c[30] = value
    with pytest.raises(ValueError, match=f"{value} copies of kind 30, but at most 4"):
        mj.shanten(c)
    with pytest.raises(ValueError, match=f"{value} copies of kind 30, but at most 4"):
        mj.shanten(c, seven_pairs="riichi", wilds=1)


def _plain_batch(n):
    rng = np.random.default_rng(5)
    counts = np.zeros((n, 34), np.uint8)
    for i in range(n):
        np.add.at(counts[i], rng.choice(136, 13, replace=False) // 4, 1)
    expected = np.array([_general(c, 0, 0, False) for c in counts], np.int8)
    return counts, expected
