"""Tests of the pure-Python reference twins (mjfast._reference) against independent values.

Known values are hand-worked, from rules/yijinting.md §5, or from the installed oracles
``xiangting`` (standard / riichi seven pairs / thirteen orphans), ``PyMahjongGB`` (全不靠,
组合龙, seven pairs, thirteen orphans) and ``mahjong`` (decompositions, agari).
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from mjfast._reference import (
    decompose,
    default_caps,
    shanten,
    shanten_honors_and_knitted,
    shanten_knitted_straight,
    shanten_nine_terminals,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_lan,
    shanten_thirteen_orphans,
    ukeire,
    wait_types,
    waits,
    yijinting,
)

RIICHI_FORMS = ("standard", ("seven_pairs", {"distinct": True}), "thirteen_orphans")


def h(text: str) -> list[int]:
    """MPSZ string -> 34 counts (test helper, independent of mjfast.tiles)."""
    counts = [0] * 34
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        for d in digits:
            counts["mpsz".index(suit) * 9 + int(d) - 1] += 1
    return counts


def k(text: str) -> int:
    """Single tile 'Nx' -> kind index."""
    return h(text).index(1)


def kinds(text: str) -> set[int]:
    return {i for i, c in enumerate(h(text)) if c}


# ------------------------------------------------------------------------------------------
# Hand-worked standard / seven pairs / thirteen orphans
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand",
    ["123m456p789s11222z", "11122233388899m", "11223344556677m", "234567m23455s777z", "22334455667788p"],
)
def test_complete_hands(hand):
    assert shanten(h(hand)) == -1


@pytest.mark.parametrize(
    "hand, expected_waits",
    [
        ("123m456p789s1122z", "12z"),  # shanpon
        ("1112345678999m", "123456789m"),  # nine gates
        ("2345m456p789s111z", "25m"),  # tanki 2m/5m
    ],
)
def test_ready_hands_and_waits(hand, expected_waits):
    assert shanten(h(hand)) == 0
    assert set(waits(h(hand))) == kinds(expected_waits)


def test_simple_waits():
    assert set(waits(h("123m456p789s11z23s"))) == kinds("14s")  # ryanmen
    assert set(waits(h("123m456p789s11z13s"))) == kinds("2s")  # kanchan
    assert set(waits(h("123m456p789s11z12s"))) == kinds("3s")  # penchan
    assert set(waits(h("123m456p789s111z5z"))) == kinds("5z")  # tanki


def test_fifth_tile_is_never_a_wait():
    # The only wait would be a fifth 1m: standard shanten 1, not 0.
    assert shanten_standard(h("1111m234p567789s")) == 1
    assert waits(h("1111m234p567789s"), forms="standard") == {}
    # 111m 123m 456p 789s 5z: tanki on 5z; a fifth 1m is never listed.
    assert set(waits(h("111123m456p789s5z"))) == kinds("5z")


def test_honour_quads():
    hand = h("11112222333344z")
    assert shanten_standard(hand) == 2  # 111 222 333z + 444z + a new pair: 3 missing tiles
    assert shanten_seven_pairs(hand) == -1  # four-of-a-kind = two pairs (RULES.md 7P)
    assert shanten_seven_pairs(hand, distinct=True) == 5  # 4 distinct pairs, 3 more needed
    assert shanten_standard(h("1111222233334z")) == 3


def test_thirteen_orphans_and_seven_pairs_classics():
    assert shanten_thirteen_orphans(h("19m19p19s12345677z")) == -1
    assert shanten_thirteen_orphans(h("19m19p19s1234567z")) == 0
    assert set(waits(h("19m19p19s1234567z"))) == kinds("19m19p19s1234567z")  # 13-sided
    assert shanten_seven_pairs(h("1122m3344p5566s7z")) == 0
    assert set(waits(h("1122m3344p5566s7z"), forms="seven_pairs")) == kinds("7z")
    assert shanten_seven_pairs(h("1122m3344p5566s7z"), n_melds=1) is None
    assert shanten(h("1122m3344p5566s7z")) == 0


# ------------------------------------------------------------------------------------------
# Regional / Guobiao special forms
# ------------------------------------------------------------------------------------------
def test_thirteen_lan():
    assert shanten_thirteen_lan(h("147m258p369s12345z")) == -1
    assert shanten_thirteen_lan(h("147m258p369s12345z"), strict=True) == -1
    general = h("14m25p369s1234567z")  # 2+2+3 suited + 7 honours
    assert shanten_thirteen_lan(general) == -1
    assert shanten_thirteen_lan(general, strict=True) == 1  # two honours -> 7m/8p (say)
    assert shanten_thirteen_lan(h("12m25p369s1234567z")) == 0  # 1m-2m too close
    assert shanten_thirteen_lan(h("159m159p159s12345z")) == -1  # 1-5-9 is >= 3 apart


def test_honors_and_knitted():
    hand = h("147m258p36s123456z")
    assert shanten_honors_and_knitted(hand) == -1
    assert shanten_honors_and_knitted(hand, seven_stars=True) == 0
    assert shanten_honors_and_knitted(h("147m25p36s1234567z"), seven_stars=True) == -1
    # knitted tiles must come from one pattern: only one of 147m / 147p is kept, so
    # 3 + 2 (36s) + 5 honours = 10 useful tiles of 13, 4 missing from 14.
    assert shanten_honors_and_knitted(h("147m147p36s12345z")) == 3


def test_knitted_straight():
    assert shanten_knitted_straight(h("147m258p369s234s55z")) == -1
    assert shanten_knitted_straight(h("147m258p369s55z"), n_melds=1) == -1
    assert shanten_knitted_straight(h("147m258p369s55z"), n_melds=2) is None
    assert shanten_knitted_straight(h("147m258p39s234s55z")) == 0


def test_nine_terminals():
    assert shanten_nine_terminals(h("111m999m111p999p11z")) == -1
    assert shanten_nine_terminals(h("19m19p19s1234567z")) == 0
    assert shanten_nine_terminals(h("19m19p19s1234567z5m")) == 0
    assert shanten_nine_terminals(h("123m19p19s123456z5m")) == 2  # 2m 3m 5m are not 1/9


# ------------------------------------------------------------------------------------------
# Wildcards and caps
# ------------------------------------------------------------------------------------------
def test_wild_head():
    # 宝吊头 / 飞: four complete sets + a lone wildcard wait on every kind.
    hand = h("123m456p789s111z")
    assert shanten(hand, wilds=1) == 0
    assert set(waits(hand, wilds=1)) == set(range(34))
    assert shanten(h("123m456p789s"), wilds=2) == -1
    assert shanten(h("123m456p789s1z"), wilds=4) == -1  # WWW set + 1z W pair
    assert shanten(h("123m456p789s11z"), wilds=3) == -1


def test_wildcard_may_be_a_fifth_copy():
    hand = h("1111m234p56789s")  # 12 natural tiles + 1 wildcard
    assert shanten_standard(hand, wilds=1) == 0  # wildcard = fifth 1m, pair 11m
    no_1m = [True] * 34
    no_1m[0] = False
    assert shanten_standard(hand, wilds=1, wild_mask=no_1m) == 1


def test_caps_and_missing_kinds():
    # Dragons absent from the tile set (cap 0): no target may use them.
    caps = [4] * 34
    caps[31:34] = [0, 0, 0]
    assert shanten_standard(h("123m456p789s1122z"), caps=caps) == 0
    assert shanten_thirteen_orphans(h("19m19p19s1234z"), wilds=0, caps=caps) is None  # 13 tiles, needs 5z-7z
    # A wildcard can still stand for an absent kind when the mask allows it.
    assert shanten_thirteen_orphans(h("19m19p19s11234z"), wilds=3) == -1


def naive_wild_shanten(fn, counts, w, caps=None, mask=None, **kw):
    """The definition literally: min over every assignment of the wildcards to kinds."""
    caps = np.full(34, 4) if caps is None else np.asarray(caps)
    allowed = range(34) if mask is None else np.flatnonzero(mask)
    results = []
    for combo in itertools.combinations_with_replacement(allowed, w):
        a = np.bincount(np.asarray(combo, dtype=int), minlength=34)
        r = fn(np.asarray(counts) + a, 0, 0, caps + a, None, **kw)
        if r is not None:
            results.append(r)
    return min(results) if results else None


@pytest.mark.parametrize(
    "fn, kw",
    [
        (shanten_standard, {}),
        (shanten_seven_pairs, {}),
        (shanten_thirteen_lan, {}),
        (shanten_honors_and_knitted, {}),
        (shanten_knitted_straight, {}),
    ],
)
def test_wildcards_match_literal_definition(fn, kw):
    rng = np.random.default_rng(11)
    for trial in range(4):
        wall = np.repeat(np.arange(34), 4)
        rng.shuffle(wall)
        n = 12 + trial % 2
        counts = np.bincount(wall[:n], minlength=34)
        caps = np.full(34, 4) if trial < 2 else np.maximum(counts, rng.integers(0, 5, 34))
        mask = None if trial % 2 else rng.random(34) < 0.6
        assert fn(counts, 0, 1, caps, mask, **kw) == naive_wild_shanten(fn, counts, 1, caps, mask, **kw)


def test_two_wildcards_match_literal_definition():
    rng = np.random.default_rng(12)
    for _ in range(2):
        wall = np.repeat(np.concatenate([np.arange(9), np.arange(27, 34)]), 4)
        rng.shuffle(wall)
        counts = np.bincount(wall[:11], minlength=34)
        assert shanten_standard(counts, wilds=2) == naive_wild_shanten(shanten_standard, counts, 2)


# ------------------------------------------------------------------------------------------
# Oracle cross-checks
# ------------------------------------------------------------------------------------------
def _random_hands(rng, n, count):
    for trial in range(count):
        pool = np.arange(34) if trial % 2 else np.concatenate([np.arange(9), np.arange(27, 34)])
        wall = np.repeat(pool, 4)
        rng.shuffle(wall)
        yield np.bincount(wall[:n], minlength=34)


@pytest.mark.parametrize("n", [13, 14, 10, 11, 7, 8, 4, 5, 2])
def test_against_xiangting(n):
    xiangting = pytest.importorskip("xiangting")
    rng = np.random.default_rng(100 + n)
    for counts in _random_hands(rng, n, 400 if n >= 13 else 150):
        rn = xiangting.calculate_replacement_number(counts.tolist(), xiangting.PlayerCount.FOUR)
        assert shanten(counts, n_melds=(14 - n) // 3, form=RIICHI_FORMS) == rn - 1, counts


def test_ukeire_against_xiangting():
    xiangting = pytest.importorskip("xiangting")
    rng = np.random.default_rng(7)
    for counts in _random_hands(rng, 13, 30):
        _, flags = xiangting.calculate_necessary_tiles(counts.tolist(), xiangting.PlayerCount.FOUR)
        expected = {i for i, f in enumerate(xiangting.to_array(flags)) if f and counts[i] < 4}
        assert set(ukeire(counts, forms=RIICHI_FORMS)) == expected, counts


def test_against_pymahjonggb():
    gb = pytest.importorskip("MahjongGB")
    codes = [f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + [f"T{i}" for i in range(1, 10)]
    codes += ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
    rng = np.random.default_rng(21)
    knit = [0, 3, 6, 10, 13, 16, 20, 23, 26]  # 147m 258p 369s
    pool = np.r_[knit, np.arange(27, 34), np.arange(34)]  # biased towards knitted hands
    for trial in range(150):
        wall = np.repeat(np.arange(34), 4) if trial % 2 else np.repeat(pool, 2)
        rng.shuffle(wall)
        counts = np.bincount(wall[:13], minlength=34)
        if counts.max() > 4:
            continue
        tiles = tuple(codes[i] for i in range(34) for _ in range(counts[i]))
        assert gb.HonorsAndKnittedTilesShanten(tiles)[0] == shanten_honors_and_knitted(counts)
        assert gb.KnittedStraightShanten(tiles)[0] == shanten_knitted_straight(counts)
        assert gb.SevenPairsShanten(tiles)[0] == shanten_seven_pairs(counts)
        assert gb.ThirteenOrphansShanten(tiles)[0] == shanten_thirteen_orphans(counts)


# ------------------------------------------------------------------------------------------
# 一进听 golden cases (rules/yijinting.md §5)
# ------------------------------------------------------------------------------------------
def test_yijinting_peng_line():
    caps = default_caps([("pung", k("1p")), ("pung", k("5z"))])
    res = yijinting(h("34567m45s"), n_melds=2, caps=caps)
    assert (res["ukeire"], res["ting"], res["combos"]) == (37, 37, 324)
    assert res["tiles"][k("3s")]["W"] == 12 and res["tiles"][k("3m")]["W"] == 8
    assert yijinting(h("34567m45s"), n_melds=2, caps=caps, aggregate="max")["combos"] == 243
    assert yijinting(h("34567m45s"), n_melds=2, caps=caps, aggregate="sum")["combos"] == 420


def test_yijinting_pass_line():
    res = yijinting(h("11p34567m45s9p"), n_melds=1, caps=default_caps([("pung", k("5z"))]))
    assert (res["ukeire"], res["ting"], res["combos"]) == (19, 19, 176)
    assert set(res["tiles"]) == kinds("258m36s")


def test_yijinting_concealed_set():
    res = yijinting(h("555z34567m45s"), n_melds=1, caps=default_caps([("pung", k("1p"))]))
    assert (res["ukeire"], res["ting"], res["combos"]) == (37, 37, 500)
    assert res["tiles"][k("2m")]["W"] == 14 and res["tiles"][k("3s")]["W"] == 23


def test_ukeire_visible_and_waits_remaining():
    hand = h("123m456p789s11z23s")
    visible = [0] * 34
    visible[k("1s")] = 4
    assert ukeire(hand, visible=visible) == {k("4s"): 4}  # 1s all seen: not listed
    assert waits(hand, visible=visible) == {k("1s"): 0, k("4s"): 4}  # still a wait, 0 left


# ------------------------------------------------------------------------------------------
# Decomposition
# ------------------------------------------------------------------------------------------
def test_decompose_examples():
    assert decompose(h("11122233388899m")) == [
        (("chow", 0), ("chow", 0), ("chow", 0), ("pung", 7), ("pair", 8), ()),
        (("pung", 0), ("pung", 1), ("pung", 2), ("pung", 7), ("pair", 8), ()),
    ]
    sp = decompose(h("11223344556677m"))
    assert (("seven_pairs", 0, 1, 2, 3, 4, 5, 6), ()) in sp and len(sp) == 4
    assert decompose(h("19m19p19s12345677z")) == [
        (("thirteen_orphans", 0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 33), ())
    ]
    assert decompose(h("123m456p789s1122z")) == []
    # one wildcard: it completes either pung
    assert decompose(h("123m456p789s1122z"), wilds=1) == [
        (("chow", 0), ("chow", 12), ("chow", 24), ("pung", 27), ("pair", 28), (27,)),
        (("chow", 0), ("chow", 12), ("chow", 24), ("pung", 28), ("pair", 27), (28,)),
    ]
    # melds reduce the sets needed
    assert decompose(h("11223344m"), melds=[("pung", 31), ("pung", 32)]) == [
        (("chow", 0), ("chow", 0), ("pair", 3), ()),
        (("chow", 1), ("chow", 1), ("pair", 0), ()),
    ]
    assert decompose(h("147m258p369s234s55z"), forms="knitted_straight") == [
        (("knitted", 0, 3, 6, 10, 13, 16, 20, 23, 26), ("chow", 19), ("pair", 31), ())
    ]


def test_wait_types():
    d = (("chow", 0), ("chow", 12), ("chow", 24), ("pung", 27), ("pair", 28), ())
    assert wait_types(d, 0) == {"ryanmen"}  # 23m + 1m
    assert wait_types(d, 2) == {"penchan"}  # 12m + 3m
    assert wait_types(d, 1) == {"kanchan"}
    assert wait_types(d, 24) == {"penchan"}  # 89s + 7s
    assert wait_types(d, 26) == {"ryanmen"}  # 78s + 9s
    assert wait_types(d, 27) == {"shanpon"}
    assert wait_types(d, 28) == {"tanki"}
    # 123m (3m is its penchan end), 234m (3m in the middle), pair 33m
    assert wait_types((("chow", 0), ("chow", 1), ("pair", 2), ()), 2) == {"penchan", "kanchan", "tanki"}
    assert wait_types((("seven_pairs", 0, 1, 2, 3, 4, 5, 6), ()), 3) == {"tanki"}


def _random_complete(rng):
    while True:
        counts = np.zeros(34, dtype=int)
        for _ in range(4):
            if rng.random() < 0.5:
                suit, start = rng.integers(0, 3), rng.integers(0, 7)
                counts[9 * suit + start : 9 * suit + start + 3] += 1
            else:
                counts[rng.integers(0, 34)] += 3
        counts[rng.integers(0, 34)] += 2
        if counts.max() <= 4:
            return counts


def test_decompose_against_mahjong_divider():
    divider = pytest.importorskip("mahjong.hand_calculating.divider")
    rng = np.random.default_rng(3)
    for _ in range(150):
        counts = _random_complete(rng)
        theirs = set()
        for division in divider.HandDivider.divide_hand(counts.tolist()):
            if len(division) == 7:
                continue  # chiitoitsu
            blocks = []
            for b in division:
                if len(b) == 2:
                    blocks.append(("pair", b[0]))
                elif b[0] == b[1]:
                    blocks.append(("pung", b[0]))
                else:
                    blocks.append(("chow", b[0]))
            pair = [b for b in blocks if b[0] == "pair"]
            theirs.add((*sorted(b for b in blocks if b[0] != "pair"), *pair, ()))
        assert set(decompose(counts, forms="standard")) == theirs


def test_decompose_agari_against_mahjong():
    agari = pytest.importorskip("mahjong.agari")
    checker = agari.Agari()
    rng = np.random.default_rng(4)
    for trial in range(300):
        counts = _random_complete(rng)
        if trial % 3:  # perturb: move one tile
            src = rng.choice(np.flatnonzero(counts))
            dst = rng.integers(0, 34)
            counts[src] -= 1
            counts[dst] += 1
            if counts.max() > 4:
                continue
        expected = checker.is_agari(counts.tolist())
        assert bool(decompose(counts, forms=RIICHI_FORMS)) == expected
        assert (shanten(counts, form=RIICHI_FORMS) == -1) == expected
