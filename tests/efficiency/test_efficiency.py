"""Tile efficiency: the 一进听 article's figures, xiangting's necessary tiles, rule awareness."""

import numpy as np
import pytest

import mjfast as mj

# yijinting.md §3a: draw → (remaining, W(t)) on the 碰 line (34567m45s, fixed 111p and 555z)
PUNG_LINE = {
    "2m": (4, 6),
    "5m": (3, 6),
    "8m": (4, 6),
    "3m": (3, 8),
    "4m": (3, 8),
    "6m": (3, 8),
    "7m": (3, 8),
    "4s": (3, 11),
    "5s": (3, 11),
    "3s": (4, 12),
    "6s": (4, 12),
}
# §3b: the pass line (11p34567m45s9p, fixed 555z)
PASS_LINE = {"2m": (4, 8), "5m": (3, 8), "8m": (4, 8), "3s": (4, 11), "6s": (4, 11)}


@pytest.mark.parametrize(
    "hand, melds, table, totals",
    [
        ("34567m45s", ["111p", "555z"], PUNG_LINE, (37, 37, 324)),
        ("11p34567m45s9p", ["555z"], PASS_LINE, (19, 19, 176)),
    ],
)
def test_article_tables_row_by_row(hand, melds, table, totals):
    r = mj.yijinting(hand, melds=melds)
    got = {str(row.tile): (row.copies, row.ting_after) for row in r.breakdown.itertuples()}
    assert got == table
    assert (r.breakdown["product"] == r.breakdown["copies"] * r.breakdown["ting_after"]).all()
    assert (r.ukeire, r.ting, r.combos) == totals


def test_article_fixed_sets_and_aggregations():
    # fixed_sets= is the same as passing the set as a meld (yijinting.md §4 caveat 1)
    r = mj.yijinting("34567m45s111p", melds=["555z"], fixed_sets=["111p"])
    assert (r.ukeire, r.ting, r.combos) == (37, 37, 324)
    assert mj.yijinting("34567m45s", melds=["111p", "555z"], aggregate="max").combos == 243
    # caveat 1: with 555z concealed and breakable, 组合 becomes 500; 进张 stays 37
    r = mj.yijinting("555z34567m45s", melds=["111p"])
    assert (r.ukeire, r.ting, r.combos) == (37, 37, 500)
    # visible=table gives the same numbers here (the 1p and 9p are neither waits nor accepts)
    r = mj.yijinting("34567m45s", melds=["111p", "555z"], visible="1p9p")
    assert (r.ukeire, r.ting, r.combos) == (37, 37, 324)


def test_analyze_discards_article_hand():
    df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    assert list(df.columns) == [
        "discard",
        "shanten",
        "ukeire_kinds",
        "ukeire",
        "ukeire_tiles",
        "combos",
        "waits",
        "wait_count",
        "improvement_count",
    ]
    assert df["discard"].dtype.ordered
    assert df.iloc[0]["discard"] == "9p" and df.iloc[0]["ukeire"] == 37
    # sorted best first: shanten ascending, then ukeire descending, then combos descending
    keys = list(zip(df["shanten"], -df["ukeire"], -df["combos"]))
    assert keys == sorted(keys)
    raw = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"], as_frame=False)
    assert set(raw) == set(df.columns)
    assert raw["ukeire"].tolist() == df["ukeire"].tolist()
    # each row agrees with ukeire/yijinting of the 13-tile hand left (the discard counted as seen)
    for row in df.itertuples():
        left = mj.Hand("11p34567m45s9p1p", melds=["555z"]).without_tile(str(row.discard))
        u = mj.ukeire(left, visible=str(row.discard))
        assert (u.shanten, u.count, len(u.tiles)) == (row.shanten, row.ukeire, row.ukeire_kinds)
        if row.shanten == 1:
            assert mj.yijinting(left, visible=str(row.discard)).combos == row.combos


def test_ready_hand_waits_and_discard_table():
    assert mj.waits("1112345678999m") == {
        "1m": 1,
        "2m": 3,
        "3m": 3,
        "4m": 3,
        "5m": 3,
        "6m": 3,
        "7m": 3,
        "8m": 3,
        "9m": 1,
    }
    df = mj.analyze_discards("11123456789999m")
    top = df.iloc[0]
    assert top["shanten"] == 0 and top["waits"] and top["wait_count"] == top["ukeire"]


def test_improvements_keep_shanten_and_widen():
    base = mj.ukeire("11p34567m45s9p", melds=["555z"])
    imp = mj.improvements("11p34567m45s9p", melds=["555z"])
    assert imp["1p"] == (2, 37, "9p")
    for tile, (copies, new, discard) in imp.items():
        after = mj.Hand("11p34567m45s9p", melds=["555z"]).with_tile(tile).without_tile(discard)
        u = mj.ukeire(after)
        assert u.shanten == base.shanten and u.count == new > base.count


xiangting = pytest.importorskip("xiangting", reason="the xiangting oracle is not installed")


def _necessary(h):
    _, nt = xiangting.calculate_necessary_tiles(h.tolist(), xiangting.PlayerCount.FOUR)
    return {k for k in range(34) if nt >> k & 1 and h[k] < 4}


def test_ukeire_matches_xiangting_100k(seed):
    rng = np.random.default_rng(seed + 10)
    n = 100_000
    melds = rng.integers(0, 5, n)
    wall = np.repeat(np.arange(34), 4)
    bad = []
    for i in range(n):
        h = np.zeros(34, np.uint8)
        np.add.at(h, rng.choice(wall, 13 - 3 * melds[i], replace=False), 1)
        u = (
            mj.ukeire(h, seven_pairs="riichi")
            if melds[i] == 0
            else mj.ukeire(mj.Hand(h, partial=True), seven_pairs="riichi")
        )
        ours = {mj.tiles.CODES.index(t) for t in u.tiles}
        ref = _necessary(h)
        if ours != ref or u.count != sum(4 - int(h[k]) for k in ref):
            bad.append((mj.to_mpsz(h), sorted(ours), sorted(ref)))
    assert not bad, bad[:3]


def _complete_hand(rng):
    while True:
        h = np.zeros(34, np.uint8)
        for _ in range(4):
            if rng.random() < 0.6:
                s, x = rng.integers(3), rng.integers(7)
                h[9 * s + x : 9 * s + x + 3] += 1
            else:
                h[rng.integers(34)] += 3
        h[rng.integers(34)] += 2
        if h.max() <= 4:
            return h


def test_waits_match_xiangting_on_constructed_ready_hands(seed):
    rng = np.random.default_rng(seed + 11)
    checked = 0
    while checked < 20_000:
        h = _complete_hand(rng)
        h[rng.choice(np.flatnonzero(h))] -= 1
        if mj.shanten(h, seven_pairs="riichi") != 0:
            continue  # e.g. the only wait was a fifth copy
        ours = {mj.tiles.CODES.index(t) for t in mj.waits(h, seven_pairs="riichi")}
        assert ours == _necessary(h), mj.to_mpsz(h)
        checked += 1


def test_sichuan_missing_suit_and_tile_set():
    # 缺一门: three suits can never win; the void suit's tiles are surplus
    assert mj.shanten("123m456p789s1155m", rule="sichuan") > mj.shanten("123m456p789s1155m")
    hand = "123456789m1234p"  # waits 1p/4p only as 2-suit hand; honours never drawn
    w = mj.waits(hand, rule="sichuan")
    assert set(w) == {"1p", "4p"}
    assert all(not t.endswith("z") for t in mj.ukeire("12345m2468p1s", rule="sichuan").tiles)
    # a hand holding a tile the rule lacks is an error
    with pytest.raises(ValueError, match="not played"):
        mj.ukeire("123456789m123p1z", rule="sichuan")


def test_bad_input_errors():
    with pytest.raises(ValueError, match="3k\\+1"):
        mj.ukeire("11123456789999m")
    with pytest.raises(ValueError, match="3k\\+2"):
        mj.analyze_discards("1112345678999m")
    with pytest.raises(ValueError, match="visible makes 1m exceed"):
        mj.ukeire("1112345678999m", visible="11m")
    with pytest.raises(ValueError, match="no wildcards"):
        mj.ukeire("112345678999m", wilds=1, rule="guobiao")
    with pytest.raises(ValueError, match="1-shanten"):
        mj.yijinting("1112345678999m")


def test_ukeire_batch_matches_single_hand_api(seed):
    rng = np.random.default_rng(seed + 12)
    n = 3000
    melds = rng.integers(0, 5, n)
    wall = np.repeat(np.arange(34), 4)
    hands = np.zeros((n, 34), np.uint8)
    for i in range(n):
        np.add.at(hands[i], rng.choice(wall, 13 - 3 * melds[i], replace=False), 1)
    out = mj.ukeire_batch(hands, melds=melds, n_threads=2)
    for i in range(n):
        # the batch knows only the number of melds, like a Hand whose melds use other tiles
        # a fragment of 13 - 3m tiles: the single-hand API sees the same tiles, no meld tiles
        u = mj.ukeire(mj.Hand(hands[i], partial=True)) if melds[i] else mj.ukeire(hands[i])
        assert (out["shanten"][i], out["ukeire"][i], out["ukeire_kinds"][i]) == (u.shanten, u.count, len(u.tiles))
    assert mj.ukeire_batch(hands, melds=melds, n_threads=1)["ukeire"].tolist() == out["ukeire"].tolist()
    with pytest.raises(ValueError, match="3k\\+1"):
        mj.ukeire_batch(np.ones((1, 34), np.uint8))


def test_wildcards_in_efficiency():
    # a drawn wildcard always accepts: reported apart, natural figures unchanged
    u = mj.ukeire("1112345678999m", rule="taicang")
    assert u.wild_accept == 4 and u.count == mj.ukeire("1112345678999m").count
    assert mj.ukeire("112345678999m", wilds=1, rule="taicang").wild_accept == 3
    assert mj.ukeire("1112345678999m", wild_copies=2).wild_accept == 2
    # held wildcards count in shanten: 11m + W waits on anything that completes 12 tiles + pair
    assert mj.ukeire("123456789m11p5s", wilds=1).shanten == 0
