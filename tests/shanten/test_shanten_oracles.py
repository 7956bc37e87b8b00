"""Shanten against independent oracles: xiangting (standard / riichi seven pairs / thirteen
orphans) and PyMahjongGB (全不靠, 组合龙 and its combined MCR shanten)."""

import numpy as np
import pytest
from _hands import random_hands

import mjfast as mj

xiangting = pytest.importorskip("xiangting", reason="the xiangting oracle is not installed")


def test_xiangting_agreement_200k(seed):
    # 0-4 called melds; xiangting takes the concealed part only, so do we (batch API)
    rng = np.random.default_rng(seed)
    n = 200_000
    melds = rng.integers(0, 5, n)
    hands = np.zeros((n, 34), np.uint8)
    wall = np.repeat(np.arange(34), 4)
    size = 14 - 3 * melds - rng.integers(0, 2, n)
    for i in range(n):
        np.add.at(hands[i], rng.choice(wall, size[i], replace=False), 1)
    ours = mj.shanten_batch(hands, melds=melds, seven_pairs="riichi")
    four = xiangting.PlayerCount.FOUR
    ref = np.array([xiangting.calculate_replacement_number(h.tolist(), four) - 1 for h in hands])
    diff = np.flatnonzero(ours != ref)
    assert diff.size == 0, [(mj.to_mpsz(hands[i]), int(melds[i]), int(ours[i]), int(ref[i])) for i in diff[:5]]
    # the batch sees every meld count and both hand sizes
    assert set(melds.tolist()) == {0, 1, 2, 3, 4} and {13, 14} <= set((size + 3 * melds).tolist())


def test_single_hand_api_matches_batch(seed):
    rng = np.random.default_rng(seed + 1)
    hands, _ = random_hands(rng, 2000, [13, 14])
    batch = mj.shanten_batch(hands)
    single = [mj.shanten(h) for h in hands]
    assert batch.tolist() == single


GB = pytest.importorskip("MahjongGB", reason="the PyMahjongGB oracle is not installed")
_GB_NAMES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)  # GB: W=万 B=饼 T=条; J1 中 J2 发 J3 白


def _gb_hand(counts):
    return tuple(_GB_NAMES[k] for k in range(34) for _ in range(int(counts[k])))


def _knitted_biased_hands(rng, n):
    """Random 13-tile hands, half of them drawn mostly from knitted tiles and honours so that
    the 全不靠 / 组合龙 branches are exercised near completion, not only far from it."""
    hands = np.zeros((n, 34), np.uint8)
    wall = np.repeat(np.arange(34), 4)
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    for i in range(n):
        if i % 2:
            pm = perms[rng.integers(6)]
            knit = [9 * s + pm[s] + 3 * x for s in range(3) for x in range(3)] + list(range(27, 34))
            pool = np.repeat(np.array(knit), 4)
            k = rng.integers(8, 14)
            picks = np.concatenate([rng.choice(pool, k, replace=False), rng.choice(wall, 13 - k, replace=False)])
            np.add.at(hands[i], picks, 1)
            if hands[i].max() > 4:  # rare: redraw plainly
                hands[i] = 0
                np.add.at(hands[i], rng.choice(wall, 13, replace=False), 1)
        else:
            np.add.at(hands[i], rng.choice(wall, 13, replace=False), 1)
    return hands


def test_pymahjonggb_special_forms_50k(seed):
    rng = np.random.default_rng(seed + 2)
    hands = _knitted_biased_hands(rng, 50_000)
    hk = mj.shanten_batch(hands, form="honors_and_knitted")
    ks = mj.shanten_batch(hands, form="knitted_straight")
    combined = mj.shanten_batch(hands, rule="guobiao")
    bad = []
    for i, h in enumerate(hands):
        t = _gb_hand(h)
        if GB.HonorsAndKnittedTilesShanten(hand=t)[0] != hk[i]:
            bad.append(("全不靠", mj.to_mpsz(h), int(hk[i])))
        if GB.KnittedStraightShanten(hand=t)[0] != ks[i]:
            bad.append(("组合龙", mj.to_mpsz(h), int(ks[i])))
        if GB.MahjongShanten(pack=(), hand=t) != combined[i]:
            bad.append(("MCR", mj.to_mpsz(h), int(combined[i])))
    assert not bad, bad[:5]
    assert (hk <= 1).sum() > 100 and (ks <= 1).sum() > 30  # the near-complete region was reached


def test_pymahjonggb_with_called_melds(seed):
    # MCR shanten with one to four pungs called (组合龙 with one meld included).  PyMahjongGB
    # ignores the copies a meld uses up: "3z + 111z 222z 333z 444z" is ready for it, waiting
    # on a fifth 3z.  The batch API, which knows only the number of melds, must agree with it
    # exactly; the Hand API, which knows the meld tiles, may only be further from complete,
    # and only for hands whose meld tiles exhaust a kind the hand needs.
    rng = np.random.default_rng(seed + 3)
    wall = np.repeat(np.arange(34), 4)
    exhausted = 0
    for _ in range(5000):
        n_melds = int(rng.integers(1, 5))
        h = np.zeros(34, np.uint8)
        np.add.at(h, rng.choice(wall, 13 - 3 * n_melds, replace=False), 1)
        if any(h[27 + j] > 1 for j in range(n_melds)):
            continue  # the pung plus the hand would exceed 4 copies
        packs = tuple(("PENG", _GB_NAMES[27 + j], 1) for j in range(n_melds))
        ref = GB.MahjongShanten(pack=packs, hand=_gb_hand(h))
        blind = mj.shanten_batch(h[None], melds=n_melds, rule="guobiao")[0]
        assert blind == ref, (mj.to_mpsz(h), n_melds)
        hand = mj.Hand(h, melds=[f"{j + 1}{j + 1}{j + 1}z" for j in range(n_melds)], partial=True)
        exact = mj.shanten(hand, rule="guobiao")
        if exact != ref:
            assert exact > ref
            assert any(h[27 + j] == 1 for j in range(n_melds)), str(hand)  # a 4th copy in hand
            exhausted += 1
    assert exhausted > 0  # the documented difference was exercised


def test_fast_entry_matches_general_path(seed):
    # mjfast.shanten's compiled front door (plain count vectors) against the general function
    from mjfast import shape

    rng = np.random.default_rng(seed + 4)
    for wilds in (0, 1, 2):
        hands, _ = random_hands(rng, 300, [13 - wilds, 14 - wilds])
        for h in hands:
            for reading in (None, "riichi"):
                fast = mj.shanten(h, wilds=wilds, seven_pairs=reading)
                general = shape.shanten(mj.Hand(h, wilds=wilds, partial=True), seven_pairs=reading)
                assert fast == general, (mj.to_mpsz(h), wilds, reading)
