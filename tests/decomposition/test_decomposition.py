"""Tests for mjfast.decomposition (the Cython split kernel and the Python layer).

Oracles: the reference twin :mod:`mjfast._reference.decompose` (exhaustive enumeration of
targets) on 20,000 constructed complete hands, and an independent brute force written here
(enumerate every wildcard assignment, then read the faces with the textbook recursion and the
definitions of the special forms) on smaller samples.
"""

from __future__ import annotations

import importlib
import itertools
import random
import time

import numpy as np
import pytest

from mjfast import Hand
from mjfast.decomposition import Decomposition, decompose, decompose_counts

# the submodule (the package re-exports its function under the same name)
ref = importlib.import_module("mjfast._reference.decompose")

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
ALL_FORMS = (
    "standard",
    "seven_pairs",
    "thirteen_orphans",
    "thirteen_lan",
    "honors_and_knitted",
    "knitted_straight",
    "nine_terminals",
)
LAYOUTS = tuple(
    tuple(sorted(9 * s + perm[s] + 3 * x for s in range(3) for x in range(3)))
    for perm in itertools.permutations(range(3))
)
FORM_ORDER = {f: i for i, f in enumerate(ALL_FORMS)}


# ------------------------------------------------------------------------------------------
# brute-force oracle
def _splits(f, k, have_pair=False, start=0):
    """All multisets of k sets + (one pair unless have_pair) covering the faces f exactly."""
    i = start
    while i < 34 and f[i] == 0:
        i += 1
    if i == 34:
        return [((), None)] if k == 0 and have_pair else []
    out = []
    if not have_pair and f[i] >= 2:
        f[i] -= 2
        out += [(s, i) for s, _ in _splits(f, k, True, i)]
        f[i] += 2
    if k and f[i] >= 3:
        f[i] -= 3
        out += [((("pung", i),) + s, p) for s, p in _splits(f, k - 1, have_pair, i)]
        f[i] += 3
    if k and i < 27 and i % 9 <= 6 and f[i + 1] and f[i + 2]:
        for j in (i, i + 1, i + 2):
            f[j] -= 1
        out += [((("chow", i),) + s, p) for s, p in _splits(f, k - 1, have_pair, i)]
        for j in (i, i + 1, i + 2):
            f[j] += 1
    return out


def _lan_ok(f, strict):
    if max(f) > 1:
        return False
    for s in range(3):
        nums = [x for x in range(9) if f[9 * s + x]]
        if any(b - a < 3 for a, b in zip(nums, nums[1:])):
            return False
        if strict and len(nums) != 3:
            return False
    return not strict or sum(f[27:]) == 5


def oracle(
    counts,
    n_melds=0,
    wilds=0,
    forms=("standard", "seven_pairs", "thirteen_orphans"),
    playable=None,
    distinct=False,
    strict_lan=False,
):
    c = [int(x) for x in counts]
    n = sum(c) + wilds
    k = (n - 2) // 3
    kinds = [i for i in range(34) if playable is None or playable[i]]
    special = n_melds == 0 and n == 14
    res = set()
    for a in itertools.combinations_with_replacement(kinds, wilds):
        f = list(c)
        for i in a:
            f[i] += 1
        if "standard" in forms:
            for sets, pair in _splits(list(f), k):
                res.add(("standard", tuple(sorted(sets, key=lambda s: (s[1], s[0]))), pair, (), a))
        if "knitted_straight" in forms and n_melds <= 1 and k + n_melds == 4:
            for lay in LAYOUTS:
                if all(f[i] for i in lay):
                    g = list(f)
                    for i in lay:
                        g[i] -= 1
                    for sets, pair in _splits(g, k - 3):
                        res.add(("knitted_straight", tuple(sorted(sets, key=lambda s: (s[1], s[0]))), pair, lay, a))
        if not special:
            continue
        tiles14 = tuple(i for i in range(34) for _ in range(f[i]))
        if "seven_pairs" in forms and all(x % 2 == 0 and x <= (2 if distinct else 4) for x in f):
            res.add(("seven_pairs", (), None, tuple(i for i in range(34) for _ in range(f[i] // 2)), a))
        if "thirteen_orphans" in forms and all(f[i] for i in ORPHANS) and sum(f[i] for i in ORPHANS) == 14:
            res.add(("thirteen_orphans", (), max(ORPHANS, key=lambda i: f[i]), ORPHANS, a))
        if "thirteen_lan" in forms and _lan_ok(f, strict_lan):
            res.add(("thirteen_lan", (), None, tiles14, a))
        if (
            "honors_and_knitted" in forms
            and max(f) == 1
            and any(all(f[i] == 0 or i in lay or i >= 27 for i in range(34)) for lay in LAYOUTS)
        ):
            res.add(("honors_and_knitted", (), None, tiles14, a))
        if "nine_terminals" in forms and sum(f[i] for i in ORPHANS) == 14:
            res.add(("nine_terminals", (), None, tiles14, a))
    return res


# ------------------------------------------------------------------------------------------
# random complete hands, built constructively
def _random_complete(rng: random.Random, max_wilds=2):
    """(counts, melds, wilds): random sets + pair, some melds, some tiles turned wild."""
    while True:
        n_melds = rng.choice((0, 0, 0, 0, 1, 2))
        total = [0] * 34
        groups = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.6:
                s, x = rng.randrange(3), rng.randrange(7)
                ts = [9 * s + x, 9 * s + x + 1, 9 * s + x + 2]
            else:
                # bias towards few kinds so that ambiguous shapes are common
                t = rng.randrange(34) if rng.random() < 0.5 else rng.choice((0, 1, 2, 3, 9, 10, 27))
                ts = [t] * 3
            groups.append(ts)
        pair = rng.randrange(34) if rng.random() < 0.6 else rng.choice((0, 1, 2, 3, 4))
        for ts in groups + [[pair, pair]]:
            for t in ts:
                total[t] += 1
        if max(total) > 4:
            continue
        melds = []
        for ts in groups[:n_melds]:
            melds.append(ts)
        conc = [t for ts in groups[n_melds:] for t in ts] + [pair, pair]
        w = rng.choice([0] * 14 + [1] * 5 + [2]) if max_wilds <= 2 else max_wilds
        w = min(w, max_wilds)
        rng.shuffle(conc)
        conc = conc[w:]
        counts = np.zeros(34, np.uint8)
        for t in conc:
            counts[t] += 1
        if ok:
            return counts, melds, w


def _random_special(rng: random.Random):
    """14-tile hands near the special forms (not always complete)."""
    kind = rng.randrange(5)
    if kind == 0:  # seven pairs, sometimes with a quad
        ks = rng.sample(range(34), 7)
        if rng.random() < 0.3:
            ks[1] = ks[0]
        tiles = [t for t in ks for _ in range(2)]
    elif kind == 1:  # thirteen orphans
        tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    elif kind == 2:  # honours and knitted / 十三浪-like
        lay = rng.choice(LAYOUTS)
        pool = list(lay) + list(range(27, 34))
        tiles = rng.sample(pool, 14)
    elif kind == 3:  # knitted straight
        lay = list(rng.choice(LAYOUTS))
        s, x = rng.randrange(3), rng.randrange(7)
        tiles = lay + [9 * s + x, 9 * s + x + 1, 9 * s + x + 2] + [rng.randrange(34)] * 2
    else:  # nine terminals
        tiles = [rng.choice(ORPHANS) for _ in range(14)]
    rng.shuffle(tiles)
    w = rng.choice((0, 0, 1, 1, 2))
    tiles = tiles[w:]
    counts = np.bincount(tiles, minlength=34).astype(np.uint8)
    if counts.max() > 4:
        return _random_special(rng)
    return counts, w


def to_ref(t) -> tuple:
    """A :func:`decompose_counts` tuple in the reference twin's flat format."""
    form, sets, pair, tiles, wild = t
    if form == "standard":
        return (*sorted(sets), ("pair", pair), wild)
    if form == "knitted_straight":
        return (("knitted", *tiles), *sorted(sets), ("pair", pair), wild)
    if form == "thirteen_orphans":
        return (("thirteen_orphans", *sorted(tiles + (pair,))), wild)
    return ((form, *tiles), wild)


def _meld_strings(melds):
    return ["".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in m) for m in melds]


def _meld_pairs(melds):
    return [("chow" if m[0] != m[1] else "pung", m[0]) for m in melds]


# ------------------------------------------------------------------------------------------
def test_random_complete_hands_match_reference_twin():
    """20,000 constructed complete hands (some melds, some wildcards): same readings, same waits."""
    rng = random.Random(20240601)
    n_hands = 20000
    t_fast = 0.0
    n_readings = 0
    for _ in range(n_hands):
        counts, melds, w = _random_complete(rng)
        t0 = time.perf_counter()
        got = decompose_counts(counts, len(melds), w)
        t_fast += time.perf_counter() - t0
        assert len(got) == len(set(got))  # no duplicates
        assert got, "a constructed complete hand must have a reading"
        want = ref.decompose(counts, _meld_pairs(melds), w)
        assert sorted(to_ref(t) for t in got) == want, (counts.tolist(), melds, w)
        n_readings += len(got)
        if rng.random() < 0.1:
            # waits through the public API, on a random concealed winning tile
            win = rng.choice(np.flatnonzero(counts).tolist())
            ds = decompose(Hand(counts, melds=_meld_strings(melds), wilds=w), win_tile=win)
            assert {to_ref(d_raw): d.waits for d, d_raw in zip(ds, got)} == {
                r: frozenset(ref.wait_types(r, win)) for r in want
            }
    print(f"\ndecompose_counts: {1e6 * t_fast / n_hands:.1f} us per hand, {n_readings} readings")


def test_random_complete_hands_match_local_oracle():
    rng = random.Random(17)
    for _ in range(1500):
        counts, melds, w = _random_complete(rng)
        got = decompose_counts(counts, len(melds), w)
        assert set(got) == oracle(counts, len(melds), w), (counts.tolist(), melds, w)


def test_random_special_hands_all_forms():
    rng = random.Random(7)
    for i in range(1000):
        counts, w = _random_special(rng)
        distinct = i % 2 == 1
        strict = i % 3 == 1
        got = decompose_counts(counts, 0, w, forms=ALL_FORMS, seven_pairs_distinct=distinct, lan_strict=strict)
        forms = [f for f in ALL_FORMS if f not in ("seven_pairs", "thirteen_lan")]
        forms += [("seven_pairs", {"distinct": distinct}), ("thirteen_lan", {"strict": strict})]
        assert sorted(to_ref(t) for t in got) == ref.decompose(counts, (), w, forms=forms), (counts.tolist(), w)
        if i % 3 == 0:
            assert set(got) == oracle(counts, 0, w, forms=ALL_FORMS, distinct=distinct, strict_lan=strict)


def test_random_three_wildcards():
    rng = random.Random(5)
    for _ in range(15):
        counts, melds, w = _random_complete(rng, max_wilds=3)
        got = decompose_counts(counts, len(melds), w, forms=ALL_FORMS)
        assert set(got) == oracle(counts, len(melds), w, forms=ALL_FORMS)


def test_random_with_unplayable_kinds():
    rng = random.Random(11)
    playable = np.ones(34, np.uint8)
    playable[27:] = 0  # e.g. a rule without honours
    n = 0
    while n < 1000:
        counts, melds, w = _random_complete(rng)
        if counts[27:].any():
            continue
        n += 1
        got = decompose_counts(counts, len(melds), w, forms=ALL_FORMS, playable=playable)
        want = ref.decompose(counts, _meld_pairs(melds), w, wild_mask=playable.astype(bool), forms=ALL_FORMS)
        assert sorted(to_ref(t) for t in got) == want


def test_public_api_with_melds_matches_counts_level():
    rng = random.Random(3)
    for _ in range(1500):
        counts, melds, w = _random_complete(rng)
        hand = Hand(counts, melds=_meld_strings(melds), wilds=w)
        ds = decompose(hand)
        raw = decompose_counts(counts, len(melds), w)
        assert len(ds) == len(raw)
        for d, (form, sets, pair, tiles, wild) in zip(ds, raw):
            assert d.form == form and d.pair == pair and d.tiles == tiles and d.wild_tiles == wild
            conc = sorted((k, f) for k, f, c in d.sets if c)
            assert conc == sorted(sets)
            assert sum(not c for _, _, c in d.sets) == len(melds)
            assert d.waits == frozenset()


# ------------------------------------------------------------------------------------------
# hand-worked examples
def strs(hand, **kw):
    return [str(d) for d in decompose(hand, **kw)]


def test_nine_gates_like_hands():
    # 1112345678999m + 5m: the only reading
    assert strs("11123455678999m", win_tile="5m") == ["111m 234m 678m 999m 55m [tanki]"]
    # + 1m: the 1m sits in the pung (shanpon reading) or in the chow (ryanmen)
    assert strs("11112345678999m", win_tile="1m") == ["123m 111m 456m 789m 99m [ryanmen,shanpon]"]
    # a shape with four readings
    assert strs("11122233344455m", win_tile="5m") == [
        "123m 123m 123m 444m 55m [tanki]",
        "111m 234m 234m 234m 55m [tanki]",
        "111m 234m 345m 345m 22m [ryanmen]",
        "111m 222m 333m 444m 55m [tanki]",
    ]


def test_nine_gates_every_winning_tile():
    # 1112345678999m waits on all nine kinds; each completion has a standard reading
    for x in range(9):
        counts = np.zeros(34, np.uint8)
        for t in [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, x]:
            counts[t] += 1
        ds = decompose(counts, win_tile=x)
        assert ds and all(d.form == "standard" for d in ds)
        assert all(d.waits for d in ds)
        assert {d.key for d in ds} == {
            ("standard", tuple((k, f, True) for k, f in sets), pair, (), ())
            for _, sets, pair, _, _ in oracle_sorted(counts)
        }


def oracle_sorted(counts, **kw):
    return sorted(oracle(counts, **kw), key=lambda t: (FORM_ORDER[t[0]], t[1], -1 if t[2] is None else t[2]))


def test_triple_chow_vs_triple_pung():
    assert strs("111222333m789p11z") == ["123m 123m 123m 789p 11z", "111m 222m 333m 789p 11z"]
    ds = decompose("111222333m789p11z", win_tile="2m")
    assert [sorted(d.waits) for d in ds] == [["kanchan"], ["shanpon"]]


def test_seven_pairs_vs_standard():
    ds = decompose("112233m445566p77s")
    assert [d.form for d in ds] == ["standard", "seven_pairs"]
    assert str(ds[0]) == "123m 123m 456p 456p 77s"
    assert ds[1].tiles == (0, 1, 2, 12, 13, 14, 24) and ds[1].pair is None
    assert str(ds[1]) == "11m 22m 33m 44p 55p 66p 77s"
    # four of a kind counts as two pairs by default, not with seven distinct pairs
    ds = decompose("1111m2233p445566s")
    assert [d.form for d in ds] == ["seven_pairs"] and ds[0].tiles[:2] == (0, 0)
    assert decompose_counts(Hand("1111m2233p445566s").counts, seven_pairs_distinct=True) == []


def test_thirteen_orphans():
    ds = decompose("19m19p19s12345677z", win_tile="7z")
    assert len(ds) == 1
    d = ds[0]
    assert d.form == "thirteen_orphans" and d.pair == 33 and d.tiles == ORPHANS
    assert d.waits == frozenset()  # no wait name for thirteen orphans, as in the reference
    # with a wildcard standing for the missing orphan
    ds = decompose("19m19p19s1234577z", wilds=1)
    assert [(d.form, d.wild_tiles) for d in ds] == [("thirteen_orphans", (32,))]


@pytest.mark.parametrize(
    "hand, win, waits",
    [
        ("234m456p789s111z55s", "2m", {"ryanmen"}),  # 34m waiting 2m/5m
        ("234m456p789s111z55s", "4m", {"ryanmen"}),
        ("123m456p789s111z55s", "3m", {"penchan"}),  # 12m waiting 3m
        ("789m456p789s111z55s", "7m", {"penchan"}),  # 89m waiting 7m
        ("123m456p789s111z55s", "2m", {"kanchan"}),  # 13m waiting 2m
        ("123m456p789s111z55s", "5s", {"tanki"}),  # 123m456p789s111z5s waiting 5s
        ("123m456p789s111z55s", "1z", {"shanpon"}),  # 11z + 55s waiting on either
        ("123345m456p789s11z", "3m", {"penchan", "ryanmen"}),
        ("123m456p789s11z", "1z", {"tanki"}),  # fragment: 3k+2 tiles are fine
    ],
)
def test_wait_types(hand, win, waits):
    ds = decompose(hand, win_tile=win)
    assert len(ds) == 1
    assert ds[0].waits == waits


def test_wait_types_across_readings():
    # 111222333m: 2m in a chow (kanchan) or in a pung (shanpon), one wait per reading
    ds = decompose("111222333m789p11z", win_tile="2m")
    assert [str(d) for d in ds] == ["123m 123m 123m 789p 11z [kanchan]", "111m 222m 333m 789p 11z [shanpon]"]
    # two standard splits and seven pairs, the 5p in a different group in each
    assert strs("223344m55667788p", win_tile="5p") == [
        "234m 234m 567p 567p 88p [ryanmen]",
        "234m 234m 678p 678p 55p [tanki]",
        "22m 33m 44m 55p 66p 77p 88p [tanki]",
    ]


def test_wildcards():
    ds = decompose("123m456p789s11z5s", wilds=2)
    assert [(str(d)) for d in ds] == [
        "123m 456p 345s 789s 11z (wild=3s,4s)",
        "123m 456p 456s 789s 11z (wild=4s,6s)",
        "123m 456p 567s 789s 11z (wild=6s,7s)",
        "123m 456p 789s 111z 55s (wild=5s,1z)",
        "123m 456p 555s 789s 11z (wild=5s,5s)",
    ]
    # a wildcard may be a fifth copy
    ds = decompose("1111m234p567s789s", wilds=1)
    assert any(d.wild_tiles == (0,) and ("pung", 0, True) in d.sets for d in ds)
    # two wildcards alone may be the pair of any kind
    ds = decompose("123m456p789s123s", wilds=2)
    assert sorted(d.pair for d in ds if d.wild_tiles == (d.pair, d.pair)) == list(range(34))


def test_melds_are_included_not_concealed():
    ds = decompose("123m44p", melds=["555z", "[1111s]", "789p"], win_tile="4p")
    assert len(ds) == 1
    d = ds[0]
    assert d.sets == (("chow", 0, True), ("chow", 15, False), ("kong", 18, True), ("pung", 31, False))
    assert d.pair == 12 and d.waits == {"tanki"}
    assert str(d) == "123m 789p [1111s] 555z 44p [tanki]"


def test_rule_forms():
    ds = decompose("147m258p369s11155z", rule="guobiao")
    assert [d.form for d in ds] == ["knitted_straight"]
    assert ds[0].tiles == (0, 3, 6, 10, 13, 16, 20, 23, 26) and ds[0].pair == 31
    assert decompose("147m258p369s11155z") == []  # not a form without a rule
    ds = decompose("147m258p369s12345z", rule="guobiao")
    assert [d.form for d in ds] == ["honors_and_knitted"]
    ds = decompose("1199m1199p19s1177z", rule="shangrao")
    assert "nine_terminals" in [d.form for d in ds]
    ds = decompose("147m258p369s12345z", rule="shangrao")
    assert [d.form for d in ds] == ["thirteen_lan"]


def test_sichuan_needs_a_void_suit():
    assert decompose("123m456p789p11p234p", rule="sichuan")
    assert decompose("123m456p789s11p234p", rule="sichuan") == []


# ------------------------------------------------------------------------------------------
# bad input
def test_not_complete():
    assert decompose("123m456p789s12344z") == []
    with pytest.raises(ValueError, match="hand is not complete"):
        decompose("123m456p789s12344z", strict=True)
    assert decompose("123m456p789s111z55s", strict=True)


@pytest.mark.parametrize(
    "hand, kw",
    [
        ("123m456p789s1234z", {}),  # 13 tiles
        ("123m456p789s11z", {"melds": ["555z", "666z"]}),  # too many tiles
        ("123m456p789s111z55s", {"win_tile": "9m"}),  # win tile not held
        ("123m456p789s111z55s", {"rule": "sichuan"}),  # honours not played
        ("123m456p789s11z5s", {"wilds": 1, "rule": "guobiao"}),  # no wildcards in the rule
        ("123m456p789s11x55s", {}),  # unparseable
    ],
)
def test_bad_input(hand, kw):
    with pytest.raises(ValueError):
        decompose(hand, **kw)


def test_decompose_counts_bad_input():
    with pytest.raises(ValueError):
        decompose_counts(np.zeros(33, np.uint8))
    with pytest.raises(ValueError):
        decompose_counts(np.full(34, 5, np.uint8))
    c = np.zeros(34, np.uint8)
    c[0] = 3
    with pytest.raises(ValueError):
        decompose_counts(c)  # 3 tiles
    with pytest.raises(ValueError):
        decompose_counts(c, wilds=9)


def test_decomposition_object():
    d = decompose("123m456p789s111z55s", win_tile="5s")[0]
    assert isinstance(d, Decomposition)
    with pytest.raises(AttributeError):
        d.form = "x"
    assert d.key == (
        "standard",
        (("chow", 0, True), ("chow", 12, True), ("chow", 24, True), ("pung", 27, True)),
        22,
        (),
        (),
    )
    assert "<div" in d._repr_html_()
    assert hash(d) == hash(decompose("123m456p789s111z55s", win_tile="5s")[0])
