"""Tests for mjfast.hand: Meld and Hand construction, validation, text and HTML."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjfast import _display
from mjfast.hand import Hand, Meld
from mjfast.tiles import counts, parse_tiles, to_mpsz

SEED = "11p34567m45s9p"

# ---------------------------------------------------------------------------
# Meld
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, kind, tiles, mpsz",
    [
        ("123m", "chow", (0, 1, 2), "123m"),
        ("312m", "chow", (0, 1, 2), "123m"),
        ("789s", "chow", (24, 25, 26), "789s"),
        ("555z", "pung", (31, 31, 31), "555z"),
        ("1111p", "kong", (9, 9, 9, 9), "1111p"),
        ("+1111p", "added_kong", (9, 9, 9, 9), "+1111p"),
        ("[1111p]", "concealed_kong", (9, 9, 9, 9), "[1111p]"),
        ("[一一一一筒]", "concealed_kong", (9, 9, 9, 9), "[1111p]"),
        ("中中中", "pung", (33, 33, 33), "777z"),
        (" 四五六条 ", "chow", (21, 22, 23), "456s"),
    ],
)
def test_meld_parse_infers_kind(text, kind, tiles, mpsz):
    m = Meld.parse(text)
    assert (m.kind, m.tiles, m.mpsz, m.source, m.claimed) == (kind, tiles, mpsz, None, None)
    assert m.is_kong == (kind in ("kong", "added_kong", "concealed_kong"))
    assert m.is_concealed == (kind == "concealed_kong")


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("concealed_kong", "concealed_kong"),
        ("暗杠", "concealed_kong"),
        ("added_kong", "added_kong"),
        ("补杠", "added_kong"),
        ("加杠", "added_kong"),
        ("kong", "kong"),
        ("明杠", "kong"),
    ],
)
def test_meld_parse_explicit_kind(kind, expected):
    assert Meld.parse("1111p", kind=kind).kind == expected


def test_meld_constructor_and_sources():
    m = Meld("pung", "555z", source="left", claimed="5z")
    assert m == Meld("碰", [31, 31, 31], source="上家", claimed=31)
    assert m.source == "left" and m.claimed == 31
    assert Meld.parse("555z@left") == Meld("pung", "555z", source="left")
    assert Meld.parse("555z@对家").source == "opposite"
    assert Meld.parse("123m@下家", claimed="1m") == Meld("chow", "123m", source="right", claimed=0)
    assert Meld.parse("+1111p@left").source == "left"
    assert str(Meld.parse("+1111p @ right")) == "+1111p@right"
    assert Meld("吃", "123m").kind == "chow"
    assert hash(m) == hash(Meld("pung", "555z", source="left", claimed=31))
    assert repr(m) == "Meld('pung', '555z', source='left', claimed='5z')"
    assert eval(repr(m)) == m


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: Meld.parse("124m"), "not a legal set"),
        (lambda: Meld.parse("123z"), "not a legal set"),
        (lambda: Meld.parse("89m1p"), "not a legal set"),
        (lambda: Meld.parse("11m"), "not a legal set"),
        (lambda: Meld.parse("11112m"), "not a legal set"),
        (lambda: Meld("chow", "111m"), "111m is not a legal chow"),
        (lambda: Meld("pung", "1111m"), "1111m is not a legal pung"),
        (lambda: Meld("kong", "111m"), "111m is not a legal kong"),
        (lambda: Meld("concealed_kong", "123m"), "not a legal concealed_kong"),
        (lambda: Meld.parse("[1111p]", kind="kong"), "marked as concealed_kong but kind='kong'"),
        (lambda: Meld.parse("+1111p", kind="concealed_kong"), "marked as added_kong"),
        (lambda: Meld.parse("555z@left", source="right"), "says @left but source='right'"),
        (lambda: Meld("triple", "555z"), "unknown meld kind 'triple'"),
        (lambda: Meld.parse("555z@behind"), "unknown source seat 'behind'"),
        (lambda: Meld("pung", "555z", claimed="6z"), "claimed tile 6z is not in the meld 555z"),
        (lambda: Meld("concealed_kong", "1111p", source="left"), "no source seat"),
        (lambda: Meld.parse("F1F1F1"), "bonus tile 'F1' at 0 is not allowed"),
        (lambda: Meld.parse("12x"), "unknown tile 'x' at 2"),
    ],
)
def test_meld_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_meld_is_frozen():
    m = Meld.parse("555z")
    with pytest.raises(AttributeError):
        m.kind = "chow"


# ---------------------------------------------------------------------------
# Hand
# ---------------------------------------------------------------------------


def test_hand_basics():
    h = Hand(SEED, melds=["555z"])
    assert str(h) == "34567m119p45s 555z"
    assert h.n_tiles == 10 and h.n_melds == 1 and h.wilds == 0 and h.bonus == ()
    assert h.melds == (Meld("pung", "555z"),)
    assert h.counts.dtype == np.uint8 and h.counts.shape == (34,)
    np.testing.assert_array_equal(h.counts, counts(SEED))
    assert h.meld_counts[31] == 3 and h.meld_counts.sum() == 3
    assert h.seen_counts[31] == 3 and h.seen_counts.sum() == 13
    assert h.tiles == tuple(sorted(parse_tiles(SEED)))
    assert not h.is_concealed
    assert h == Hand("一一筒 三四五六七万 四五条 九筒", melds=["白白白"])


def test_counts_are_read_only():
    h = Hand(SEED, melds=["[1111z]"])
    for arr in (h.counts, h.meld_counts, h.seen_counts):
        with pytest.raises(ValueError, match="read-only"):
            arr[0] = 1
    with pytest.raises(AttributeError):
        h.counts = np.zeros(34, dtype=np.uint8)
    with pytest.raises(AttributeError):
        h.extra = 1


def test_kong_counts_four_and_is_concealed():
    h = Hand(SEED, melds=["[1111z]"])
    assert h.meld_counts[27] == 4 and h.is_concealed
    assert not Hand(SEED, melds=["1111z"]).is_concealed
    assert Hand("123m456p789s1122z").is_concealed


def test_hand_sizes():
    Hand("123m456p789s1122z")  # 13
    Hand("123m456p789s11222z")  # 14
    Hand("1122z", melds=["123m", "456p", "789s"])  # 4 + 3*3 = 13
    Hand("11222z", melds=["123m", "456p", "[1111s]"])  # kongs take 3 slots too
    Hand("", melds=["123m", "456p", "789s", "111z"], wilds=1)  # 宝吊头: a lone wildcard
    Hand("123m456p789s123z", wilds=2)  # 12 + 2 wilds = 14
    Hand("12m", partial=True)
    Hand("12m", melds=["555z"], partial=True)
    Hand("1m", melds=["555z", "123p", "456p", "789p"], partial=True)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            dict(tiles="123m456p789s112z"),
            r"13 or 14 tiles counting each meld as 3; got 12 "
            r"\(12 concealed \+ 0 wilds \+ 0 melds × 3\)",
        ),
        (dict(tiles="123m456p789s11222z1z"), "got 15"),
        (dict(tiles="123m456p789s1122z", melds=["555z"]), r"got 16 \(13 concealed \+ 0 wilds \+ 1 meld × 3\)"),
        (dict(tiles="123m456p789s123z", wilds=3), r"got 15 \(12 concealed \+ 3 wilds"),
        (dict(tiles="123m", partial=True), r"partial hand holds 3k\+1 or 3k\+2 tiles"),
        (dict(tiles="1234m", melds=["123p", "456p", "789p", "111s"], partial=True), "16 in all"),
        (dict(tiles="123m456p789s1122z", melds=["124m"]), "not a legal set"),
        (
            dict(tiles="1111m45p789s112z", melds=["111m"]),
            r"7 copies of 1m \(一万\) across hand, melds and bonus; at most 4",
        ),
        (dict(tiles="5555z123m456p789s", bonus=["5z"]), r"5 copies of 5z \(白板\) across"),
        (dict(tiles="1m45p789s112z", melds=["[1111s]", "+1111s"]), r"8 copies of 1s \(一条\)"),
        (
            dict(tiles="123m456p789s112zF1"),
            r"bonus tile 'F1' at 16 among the concealed tiles; "
            "pass bonus tiles with bonus=",
        ),
        (dict(tiles=SEED + "123s", bonus="1m"), r"1m \(一万\) cannot be a bonus tile"),
        (dict(tiles=SEED + "123s", wilds=-1), "wilds must be a non-negative integer, got -1"),
        (dict(tiles=SEED + "123s", wilds=1.5), "wilds must be a non-negative integer, got 1.5"),
        (dict(tiles=SEED + "123s", wilds=True), "wilds must be a non-negative integer, got True"),
        (dict(tiles="11p34567m45s9x"), "unknown tile 'x' at 13"),
    ],
)
def test_hand_errors(kwargs, message):
    kwargs = dict(kwargs)
    tiles = kwargs.pop("tiles")
    with pytest.raises(ValueError, match=message):
        Hand(tiles, **kwargs)


def test_melds_as_one_string():
    assert Hand(SEED, melds="555z") == Hand(SEED, melds=["555z"])
    h = Hand("1m", melds="555z [1111p] +2222s@left 123m")
    assert [m.kind for m in h.melds] == ["pung", "concealed_kong", "added_kong", "chow"]


@given(st.text())
def test_property_random_text_only_value_error(text):
    for build in (
        lambda: Hand(text),
        lambda: Hand("1m", melds=[text], partial=True),
        lambda: Meld.parse(text),
        lambda: Hand(SEED + "123s", bonus=text),
    ):
        try:
            build()
        except ValueError:
            pass


def test_hand_melds_type_error():
    with pytest.raises(TypeError, match="a meld must be a Meld or a string"):
        Hand(SEED, melds=[(31, 31, 31)])


def test_bonus_and_dragon_flowers():
    h = Hand(SEED + "123s", bonus="春 梅 5z 百搭 WB0")
    assert h.bonus == (31, 34, 38, 46, 47)
    assert str(h) == "34567m119p12345s bonus=5z,F1,F5,BD,WB0"  # sorted by id


def test_hand_from_counts_and_copy():
    c = counts(SEED + "123s")
    assert Hand(c) == Hand(SEED + "123s")
    h = Hand(SEED, melds=["555z@left"], bonus="F1", wilds=0)
    assert Hand(h) == h and Hand(h) is not h
    h2 = Hand(Hand(SEED + "123s"), wilds=1)  # keywords override the copy
    assert h2.wilds == 1 and h2.n_tiles == 14


def test_equality_and_hash():
    a = Hand(SEED, melds=["555z"])
    b = Hand("9p45s11p34567m", melds=[Meld("pung", "555z")])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Hand(SEED, melds=["555z@left"])
    assert a != Hand(SEED + "123s")
    assert a != "34567m119p45s 555z"
    # Melds are kept in call order (包 rules depend on it), and order is part of equality.
    x = Hand("1122z", melds=["123m", "456p", "789s"])
    y = Hand("1122z", melds=["789s", "456p", "123m"])
    assert x != y and str(y) == "1122z 789s 456p 123m"


@pytest.mark.parametrize(
    "h",
    [
        Hand(SEED, melds=["555z"]),
        Hand(SEED + "123s"),
        Hand("123m4p", melds=["[1111p]", "+2222s@left", "555z@对家"], bonus="F1 F2 RAT 5z", wilds=1),
        Hand("123m45p", melds=[Meld("pung", "555z", source="left", claimed="5z"), "[1111p]"], wilds=2),
        Hand("12m", melds=["555z"], partial=True),
        Hand("", melds=["123m", "456p", "789s", "111z"], wilds=1),
    ],
)
def test_repr_eval_round_trip(h):
    text = repr(h)
    assert text.startswith("Hand(")
    assert eval(text, {"Hand": Hand, "Meld": Meld}) == h


def test_repr_format():
    assert repr(Hand(SEED, melds=["555z"])) == "Hand('34567m119p45s', melds=['555z'])"
    assert repr(Hand("12m", partial=True)) == "Hand('12m', partial=True)"


def test_with_and_without_tile():
    h13 = Hand("123m456p789s1122z")
    h14 = h13.with_tile("2z")
    assert str(h14) == "123m456p789s11222z" and h14.n_tiles == 14
    assert h14.without_tile(28) == h13
    assert h13.with_tile("东") == Hand("123m456p789s11122z")
    assert h13 == Hand("123m456p789s1122z")  # the original is unchanged
    with pytest.raises(ValueError, match="13 or 14"):
        h14.with_tile("3z")
    with pytest.raises(ValueError, match="13 or 14"):
        h13.without_tile("1m")
    with pytest.raises(ValueError, match=r"holds no 9m \(九万\) to remove"):
        h14.without_tile("9m")
    with pytest.raises(ValueError, match="bonus tile 'F1' cannot join"):
        h13.with_tile("F1")
    with pytest.raises(ValueError, match=r"5 copies of 1z"):
        Hand("1111z456p789s111m").with_tile("1z")
    with pytest.raises(ValueError, match=r"5 copies of 5z"):
        Hand("55z123m456p789s12z", bonus="5z5z").with_tile("5z")
    with pytest.raises(ValueError, match=r"5 copies of 1p"):
        Hand("23m456p789s11z", melds=["[1111p]"]).with_tile("1p")
    partial = Hand("1m", partial=True)  # derived hands stay partial
    assert str(partial.with_tile("2m")) == "12m"
    with pytest.raises(ValueError, match="partial hand holds 3k"):
        partial.with_tile("2m").with_tile("3m")


def test_text_forms():
    h = Hand("11p4567m9p", melds=["555z", "[1111s]"], bonus="春", wilds=1)
    assert str(h) == "4567m119p 555z [1111s] bonus=F1 wilds=1"
    assert h.to_chinese() == "四五六七万 一一九筒 | 白白白 | [一一一一条] | 花 春 | 万能×1"
    assert h.to_glyphs() == "🀊🀋🀌🀍 🀙🀙🀡 | 🀆🀆🀆 | 🀐🀐🀐🀐 | 🀦 | wild×1"


def test_repr_html():
    h = Hand("11p34567m9p", melds=["777z@left", "[1111s]"], bonus="RAT F1")
    html = h._repr_html_()
    assert html.count('class="mjfast-tile"') == 8 + 3 + 4 + 2  # every tile a picture, RAT included
    assert html.count("data:image/svg+xml;base64,") == 8 + 3 + 4 + 2
    assert html.count('class="mjfast-gap"') == 3  # between 4 groups
    assert f'<code class="mjfast-mpsz">{h}</code>' in html
    assert 'title="pung from left"' in html and 'alt="RAT"' in html
    assert "font-family" not in html  # drawn, so no font is needed


def test_repr_html_wilds_and_escaping():
    html = Hand("", melds=["123m", "456p", "789s", "111z"], wilds=1)._repr_html_()
    assert "+1 wild" in html and "&lt;" not in html
    assert 'title="RAT 老鼠 (rat)"' in _display.tile_html(42)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

_WALL = [t for t in range(34) for _ in range(4)]


@given(st.permutations(_WALL), st.integers(13, 14))
def test_property_random_hands_round_trip(wall, n):
    ids = wall[:n]
    h = Hand(ids)
    assert h.n_tiles == n and sorted(h.tiles) == sorted(ids)
    assert Hand(str(h)) == h
    assert Hand(h.to_chinese()) == h
    assert eval(repr(h), {"Hand": Hand}) == h
    assert to_mpsz(h.counts) == str(h)
