"""Tests for mjfast.tiles: tables, notations, round trips and error messages."""

import re
import unicodedata
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast import tiles
from mjfast.tiles import (
    CODES,
    GLYPHS,
    N_KINDS,
    N_TILES_ALL,
    NAMES_EN,
    NAMES_ZH,
    counts,
    parse_tile,
    parse_tiles,
    tiles_from_counts,
    to_chinese,
    to_glyphs,
    to_mpsz,
)

ALL = range(N_TILES_ALL)

# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


def test_table_sizes_and_uniqueness():
    assert N_KINDS == 34 and N_TILES_ALL == 48
    for table in (CODES, NAMES_ZH, NAMES_EN, GLYPHS):
        assert len(table) == 48
        assert len(set(table)) == 48


def test_codes_order():
    assert CODES[:9] == tuple(f"{n}m" for n in range(1, 10))
    assert CODES[9] == "1p" and CODES[18] == "1s" and CODES[27] == "1z"
    assert CODES[31:34] == ("5z", "6z", "7z")
    assert CODES[34:] == ("F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "RAT", "GOD", "CAT", "BOWL", "BD", "WB0")


def test_names():
    assert NAMES_ZH[0] == "一万" and NAMES_ZH[17] == "九筒" and NAMES_ZH[20] == "三条"
    assert NAMES_ZH[27:34] == ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
    assert NAMES_ZH[34:42] == tuple("春夏秋冬梅兰竹菊")
    assert NAMES_ZH[42:] == ("老鼠", "财神", "猫", "聚宝盆", "百搭", "无框白板")
    assert NAMES_EN[0] == "1 of characters"
    assert NAMES_EN[27] == "east wind" and NAMES_EN[31] == "white dragon"
    assert NAMES_EN[34] == "spring" and NAMES_EN[42] == "rat"


# Unicode character names for every kind that has a code point. The block's
# order (winds, red/green/white, man, sou, pin, plants, seasons) differs from
# ours, so check each glyph by name rather than by arithmetic.
_NUM = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]
_UNICODE_NAMES = (
    [f"MAHJONG TILE {n} OF CHARACTERS" for n in _NUM]
    + [f"MAHJONG TILE {n} OF CIRCLES" for n in _NUM]
    + [f"MAHJONG TILE {n} OF BAMBOOS" for n in _NUM]
    + [f"MAHJONG TILE {w} WIND" for w in ("EAST", "SOUTH", "WEST", "NORTH")]
    + ["MAHJONG TILE WHITE DRAGON", "MAHJONG TILE GREEN DRAGON", "MAHJONG TILE RED DRAGON"]
    + [f"MAHJONG TILE {s}" for s in ("SPRING", "SUMMER", "AUTUMN", "WINTER")]
    + [f"MAHJONG TILE {p}" for p in ("PLUM", "ORCHID", "BAMBOO", "CHRYSANTHEMUM")]
)


@pytest.mark.parametrize("t", range(42))
def test_glyph_unicode_names(t):
    assert unicodedata.name(GLYPHS[t]) == _UNICODE_NAMES[t]


def test_glyph_joker_and_fallbacks():
    assert unicodedata.name(GLYPHS[46]) == "MAHJONG TILE JOKER"  # BD
    for t in (42, 43, 44, 45, 47):  # no code point
        assert GLYPHS[t] == f"[{NAMES_ZH[t]}]"


def test_kind_helpers():
    assert [t for t in ALL if tiles.is_honor(t)] == list(range(27, 34))
    assert [t for t in ALL if tiles.is_terminal(t)] == [0, 8, 9, 17, 18, 26]
    assert [t for t in ALL if tiles.is_terminal_or_honor(t)] == list(tiles.TERMINALS_AND_HONORS)
    assert [t for t in ALL if tiles.is_bonus(t)] == list(range(34, 48))
    assert [t for t in ALL if tiles.is_wind(t)] == list(tiles.WINDS)
    assert [t for t in ALL if tiles.is_dragon(t)] == list(tiles.DRAGONS)
    assert [tiles.suit_of(t) for t in (0, 8, 9, 18, 27, 33, 34, 47)] == ["m", "m", "p", "s", "z", "z", None, None]
    assert tiles.SUITS == ("m", "p", "s", "z")
    assert [tiles.number_of(t) for t in (0, 13, 26, 27, 40)] == [1, 5, 9, None, None]
    with pytest.raises(ValueError, match="out of range"):
        tiles.suit_of(48)
    with pytest.raises(ValueError, match="out of range"):
        tiles.number_of(-1)


# ---------------------------------------------------------------------------
# Round trips for every kind in every notation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("t", ALL)
def test_every_kind_round_trips(t):
    assert parse_tiles(CODES[t]) == [t]
    assert parse_tiles(NAMES_ZH[t]) == [t]
    assert parse_tiles(GLYPHS[t]) == [t]
    assert parse_tiles([CODES[t]]) == [t]
    assert parse_tiles([t]) == [t]
    assert parse_tiles(to_mpsz([t])) == [t]
    assert parse_tiles(to_chinese([t])) == [t]
    assert parse_tiles(to_glyphs([t])) == [t]
    assert parse_tile(CODES[t]) == t


def test_formatting_all_kinds():
    assert to_mpsz(ALL) == ("123456789m123456789p123456789s1234567z F1 F2 F3 F4 F5 F6 F7 F8 RAT GOD CAT BOWL BD WB0")
    assert to_chinese(ALL).startswith(
        "一二三四五六七八九万 一二三四五六七八九筒 一二三四五六七八九条 东南西北 白发中 春 夏"
    )
    assert to_chinese(ALL).endswith("百搭 无框白板")


# ---------------------------------------------------------------------------
# Notation details
# ---------------------------------------------------------------------------

SEED_HAND = "11p34567m45s9p"


def test_mpsz_canonical():
    assert parse_tiles(SEED_HAND) == [9, 9, 2, 3, 4, 5, 6, 21, 22, 17]
    assert to_mpsz(SEED_HAND) == "34567m119p45s"
    assert to_mpsz(" 11p 34567m\t45s,9p ") == "34567m119p45s"
    assert to_mpsz("1z F1 2z RAT") == "12z F1 RAT"
    assert to_mpsz("f1 rat wb0 Bd") == "F1 RAT BD WB0"  # bonus codes: any case
    assert to_mpsz("") == ""


def test_seed_numerals():
    # The 一进听 article in seed [003] writes "听㈣㈤条6张" and "㈢㈥条8张".
    assert parse_tiles("㈣㈤条") == [21, 22]
    assert parse_tiles("㈢㈥条") == [20, 23]
    assert to_mpsz("一一筒 三四五六七万 四五条 九筒") == to_mpsz(SEED_HAND)
    assert sorted(parse_tiles("一一筒 三四五六七万 四五条 九筒")) == sorted(parse_tiles(SEED_HAND))
    assert to_chinese(SEED_HAND) == "三四五六七万 一一九筒 四五条"
    # "刻子一筒一筒一筒" (seed [003]): a suit after every numeral.
    assert parse_tiles("一筒一筒一筒") == [9, 9, 9]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("一万九万", [0, 8]),
        ("一二三萬", [0, 1, 2]),
        ("五饼 五餅 五筒", [13, 13, 13]),
        ("七条 七條 七索", [24, 24, 24]),
        ("45条", [21, 22]),
        ("４５条", [21, 22]),  # fullwidth digits
        ("①②③万", [0, 1, 2]),
        ("㈠㈨筒", [9, 17]),
        ("东南西北", [27, 28, 29, 30]),
        ("东风 南风 西風 北風 東", [27, 28, 29, 30, 27]),
        ("中 发 白", [33, 32, 31]),
        ("红中 发财 白板 紅中 發財 發", [33, 32, 31, 33, 32, 32]),
        ("春夏秋冬梅兰竹菊", list(range(34, 42))),
        ("老鼠 财神 猫 聚宝盆 百搭", [42, 43, 44, 45, 46]),
        ("無框白板 貓 聚寶盆 財神 蘭", [47, 44, 45, 43, 39]),
        ("无框白板", [47]),
        ("白板（不带框）", [47]),
        ("白板(不带框)", [47]),
        ("白板（带框）", [31]),
        ("白白发中", [31, 31, 32, 33]),
        ("🀄\ufe0e🀄\ufe0f🀄", [33, 33, 33]),
        ("🀇🀙🀐", [0, 9, 18]),  # man, pin, sou
        ("[老鼠][猫]🀪", [42, 44, 46]),
        ("1m、2m|3m，4m", [0, 1, 2, 3]),
    ],
)
def test_chinese_and_glyph_forms(text, expected):
    assert parse_tiles(text) == expected


def test_mixed_notations_in_one_string():
    assert parse_tiles("一一筒 34567m 🀓🀔 9p") == parse_tiles(SEED_HAND)[:2] + [2, 3, 4, 5, 6, 21, 22, 17]


def test_iterables():
    assert parse_tiles(["1m", "红中", 5, np.int64(9), "F1"]) == [0, 33, 5, 9, 34]
    assert parse_tiles([]) == []
    assert parse_tiles(np.array([3, 4])) == [3, 4]
    assert parse_tiles(iter(["1z"])) == [27]


# ---------------------------------------------------------------------------
# Count vectors
# ---------------------------------------------------------------------------


def test_counts_and_inverse():
    c = counts(SEED_HAND)
    assert c.dtype == np.uint8 and c.shape == (34,)
    assert c.sum() == 10 and c[9] == 2 and c[17] == 1
    assert tiles_from_counts(c) == sorted(parse_tiles(SEED_HAND))
    c[0] = 3  # a fresh, writable array
    assert counts(SEED_HAND)[0] == 0
    assert to_mpsz(c) == "11134567m119p45s"  # count vectors format directly
    assert counts(np.ones(34, dtype=np.int64)).dtype == np.uint8
    assert counts("").sum() == 0


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.full(34, 5), "5 copies of 1m"),
        (np.full(34, -1), "negative count"),
        (np.full(34, 0.5), r"whole numbers; got 0.5 for 1m"),
        (np.array(["1"] * 34), "integers, got dtype <U1"),
    ],
)
def test_counts_vector_validation(bad, message):
    with pytest.raises(ValueError, match=message):
        counts(bad)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_a_count_that_is_no_number_is_named_without_a_numpy_warning(value):
    c = np.zeros(34)
    c[9] = value
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # np.mod(inf, 1) used to warn before the ValueError
        with pytest.raises(ValueError, match=rf"got {value!r} for 1p"):
            counts(c)


def test_tiles_from_counts_shape():
    with pytest.raises(ValueError, match=r"shape \(34,\)"):
        tiles_from_counts([1, 2, 3])


# ---------------------------------------------------------------------------
# Error messages
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("11p3456x", "unknown tile 'x' at 7"),
        ("123x", "unknown tile 'x' at 3"),
        ("11p5", "digit '5' at 3 has no suit"),
        ("5F1", "digit '5' at 0 has no suit"),
        ("12 3m", "digit '1' at 0 has no suit"),
        ("一二", "digit '一' at 0 has no suit"),
        ("", "empty tile string '': tiles are required"),
        ("   ", "empty tile string"),
        ("11111m", r"5 copies of 1m \(一万\); at most 4"),
        ("1111m 1m", r"5 copies of 1m \(一万\)"),
        ("F1F1F1F1F1", r"5 copies of F1 \(春\)"),
        ("中中中中 7z", r"5 copies of 7z \(红中\)"),
        ("0m", "red fives are not supported: '0m' at 0"),
        ("12340p", "red fives are not supported: '0p' at 4"),
        ("8z", "unknown tile '8z' at 0"),
        ("18z", "unknown tile '8z' at 1"),
        ("0z", "unknown tile '0z' at 0"),
        ("m", "suit letter 'm' at 0 has no digits"),
        ("万", "suit '万' at 0 has no numerals"),
        ("一m", "unknown tile '一m' at 0"),
        ("F9", "unknown tile 'F9' at 0"),
        ("1m WB1", "unknown tile 'WB1' at 3"),
        ("1m foo", "unknown tile 'foo' at 3"),
        ("1M", "unknown tile 'M' at 1"),
        ("发财神", "unknown tile '神' at 2"),
        ("🀫", "unknown tile '🀫' at 0"),  # tile back
        ("1m\ufe0e", "unknown tile '\ufe0e' at 2"),  # variation selector only after a glyph
    ],
)
def test_parse_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_tiles(text)


def test_bonus_not_allowed():
    with pytest.raises(ValueError, match="bonus tile 'F1' at 3 is not allowed here"):
        parse_tiles("1m F1", allow_bonus=False)
    with pytest.raises(ValueError, match="bonus tile 'RAT' at 1"):
        counts(["1m", "RAT"])


@pytest.mark.parametrize(
    "items, message",
    [
        ([48], "tile id 48 at 0 out of range"),
        ([0, -1], "tile id -1 at 1 out of range"),
        (["1m", "12m"], r"element 1 \('12m'\) is not a single tile"),
        (["1x"], r"element 0 \('1x'\): unknown tile 'x' at 1"),
    ],
)
def test_iterable_errors(items, message):
    with pytest.raises(ValueError, match=message):
        parse_tiles(items)


@pytest.mark.parametrize("bad", [5, None, b"1m", [1.5], [True], [[1]]])
def test_type_errors(bad):
    with pytest.raises(TypeError):
        parse_tiles(bad)


def test_parse_tile():
    assert parse_tile("中") == 33
    with pytest.raises(ValueError, match="not a single tile"):
        parse_tile("11m")
    with pytest.raises(TypeError):
        parse_tile(["1m"])


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

# A multiset of the 48 kinds with at most 4 copies each.
multisets = st.dictionaries(st.integers(0, 47), st.integers(1, 4), min_size=1).map(
    lambda d: [t for t, n in d.items() for _ in range(n)]
)


@given(multisets)
def test_property_round_trip_every_notation(ids):
    expected = sorted(ids)
    assert sorted(parse_tiles(to_mpsz(ids))) == expected
    assert sorted(parse_tiles(to_chinese(ids))) == expected
    assert sorted(parse_tiles(to_glyphs(ids))) == expected
    assert sorted(parse_tiles([CODES[t] for t in ids])) == expected
    assert to_mpsz(to_chinese(ids)) == to_mpsz(ids)


@given(multisets)
def test_property_counts_round_trip(ids):
    playable = [t for t in ids if t < N_KINDS]
    assert tiles_from_counts(counts(playable)) == sorted(playable)


def _only_value_errors(text):
    try:
        result = parse_tiles(text)
    except ValueError:
        return
    assert all(isinstance(t, int) and 0 <= t < N_TILES_ALL for t in result)
    assert sorted(parse_tiles(to_mpsz(result))) == sorted(result)


@given(st.text())
def test_property_random_text_only_value_error(text):
    _only_value_errors(text)


_TILE_ALPHABET = list("0123456789mpsz 一二三九万筒条索东南中发白板风红财神老鼠猫百搭无框FBDWRATGOCL[]()（）带不,|、")
_TILE_ALPHABET += ["🀄", "🀇", "🀙", "🀪", "🀫", "\ufe0e", "㈣", "⑤", "５"]


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(_TILE_ALPHABET)))
def test_property_tile_like_text_only_value_error(text):
    # Text built from tile characters reaches far more parser branches than st.text().
    _only_value_errors(text)


def test_errors_name_a_real_position():
    # Every "at N" in an error points at the character it names.
    for text in ("11p3456x", "123 m", "5z8z", "1m 🀫", "发财神"):
        with pytest.raises(ValueError) as info:
            parse_tiles(text)
        m = re.search(r"'(.+?)' at (\d+)", str(info.value))
        assert m and text[int(m.group(2)) :].startswith(m.group(1)[0])
