"""Tests of the rules registry against the numbers and tables of the rules files (rules/*.md)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mjfast import rules
from mjfast.rules import Calls, Rule, TileSet, WildcardScheme

ALL = ("suzhou", "taicang", "guangdong", "sichuan", "guiyang", "ruijin", "shangrao", "jinhua",
       "guobiao", "jj")

# Tile codes of RULES.md §1.1, written out independently of mjfast.rules.
SUITS = "mps"
KINDS = [f"{n}{s}" for s in SUITS for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
WINDS = ["1z", "2z", "3z", "4z"]
DRAGONS = ["5z", "6z", "7z"]
SEASONS = ["F1", "F2", "F3", "F4"]
PLANTS = ["F5", "F6", "F7", "F8"]


# ------------------------------------------------------------------------------------------
# Registry
# ------------------------------------------------------------------------------------------
def test_names_in_registry_order():
    # RULES.md §1.7: "(`suzhou`, `taicang`, `guangdong`, `sichuan`, `guiyang`, `ruijin`,
    # `shangrao`, `jinhua`, `guobiao`, `jj`)"
    assert rules.names() == ALL


@pytest.mark.parametrize("name", ALL)
def test_get_returns_frozen_hashable_rule(name):
    rule = rules.get(name)
    assert isinstance(rule, Rule)
    assert rule.name == name
    assert rules.get(name) == rule
    assert hash(rules.get(name)) == hash(rule)
    assert {rule: 1}[rules.get(name)] == 1
    with pytest.raises(AttributeError):
        rule.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rule.options["x"] = 1  # type: ignore[index]
    assert isinstance(rule.tileset, TileSet)
    assert isinstance(rule.calls, Calls)


def test_distinct_options_give_distinct_rules():
    a = rules.get("suzhou")
    b = rules.get("suzhou", threshold="2_3")
    assert a != b
    assert len({a, b, rules.get("suzhou", threshold="3_4")}) == 2


def test_get_accepts_rule_instance():
    rule = rules.get("taicang", fan2x=4)
    assert rules.get(rule) is rule
    with pytest.raises(ValueError, match="fan2x"):
        rules.get(rule, fan2x=2)


def test_unknown_rule_lists_valid_names():
    with pytest.raises(ValueError) as err:
        rules.get("riichi")
    message = str(err.value)
    assert "'riichi'" in message
    for name in ALL:
        assert name in message


def test_repr_shows_non_default_options_only():
    assert repr(rules.get("suzhou")) == "Rule('suzhou')"
    assert repr(rules.get("suzhou", threshold="2_3")) == "Rule('suzhou', threshold='2_3')"
    assert repr(rules.get("sichuan", xuezhan="true")) == "Rule('sichuan', xuezhan=True)"
    assert repr(rules.get("suzhou", threshold="3_4")) == "Rule('suzhou')"


# ------------------------------------------------------------------------------------------
# Tile sets
# ------------------------------------------------------------------------------------------
# (rule, options, total, playable, flowers) with the rules-file lines they come from.
TILE_TOTALS = [
    # suzhou.md §1: "| **Total** | | | **152** | 124 playable ("不带花共124张"), 28 flowers |"
    ("suzhou", {}, 152, 124, 28),
    # suzhou.md §1: "Option `suzhou.tileset=144` ([001]): 144 tiles, … 20 flowers. …
    # Playable tiles stay 124."
    ("suzhou", {"tileset": 144}, 144, 124, 20),
    # suzhou.md SZ-C3 `dabaiban`: "硬花：指中发白，梅兰竹菊，春夏秋冬，4百搭，4大白板" (12+8+4+4)
    ("suzhou", {"flower_faces": "dabaiban"}, 152, 124, 28),
    # taicang.md §1: "| **Total** | | | **152** | 28 flowers ✔ (4+4+4+4+4+4+4) |"
    ("taicang", {}, 152, 124, 28),
    # guangdong.md §1: "136 tiles: suits 108, winds 16, dragons 12. No flowers."
    ("guangdong", {}, 136, 136, 0),
    # sichuan.md §1: "108 tiles: 万/筒/条 1–9 × 4. No honours, no flowers."
    ("sichuan", {}, 108, 108, 0),
    # guiyang.md §1: "108 tiles (条/筒/万 × 36)."
    ("guiyang", {}, 108, 108, 0),
    # ruijin_shangrao.md §1: "**140** = 108 suits + 16 winds + 12 dragons + 4 花 ✔"
    ("ruijin", {}, 140, 136, 4),
    # ruijin_shangrao.md RS-A1: "SR tile set | 136, no flowers"
    ("shangrao", {}, 136, 136, 0),
    # jinhua.md §1: "136 tiles: 万/筒/索 1–9 × 4, winds × 4, dragons × 4. **No flowers.**"
    ("jinhua", {}, 136, 136, 0),
    # guobiao.md §1: "Default ⚑: 136 tiles (no flowers; …)"
    ("guobiao", {}, 136, 136, 0),
    # the competition set: 136 + 春夏秋冬梅兰竹菊
    ("guobiao", {"tileset": 144}, 144, 136, 8),
    # jj.md §1: "Default ⚑ 136 tiles (flowers only where a sub-game has them …)"
    ("jj", {}, 136, 136, 0),
]


@pytest.mark.parametrize(("name", "options", "total", "playable", "flowers"), TILE_TOTALS)
def test_tileset_totals(name, options, total, playable, flowers):
    ts = rules.get(name, **options).tileset
    assert ts.total == total
    assert ts.playable_total == playable
    assert ts.flower_total == flowers
    assert int(ts.copies.sum()) == playable
    assert sum(ts.bonus.values()) == flowers


def test_every_rule_has_a_tile_total_check():
    assert {row[0] for row in TILE_TOTALS} == set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_copies_array_is_read_only_uint8(name):
    copies = rules.get(name).tileset.copies
    assert copies.dtype == np.uint8
    assert copies.shape == (34,)
    assert not copies.flags.writeable
    with pytest.raises(ValueError):
        copies[0] = 3
    assert set(np.unique(copies)) <= {0, 4}


# Which kind groups are playable (4 copies) per rule, from the tile tables.
PLAYABLE_GROUPS = {
    # suzhou.md §1: "Dragons 中/发/白 | 7z 6z 5z | 4 | 12 | **flowers** (硬花)"
    "suzhou": ("suits", "winds"),
    # taicang.md §1: "中 / 发 … flowers", "白板（带框）framed white | 5z | 4 | 4 | flower"
    "taicang": ("suits", "winds"),
    "guangdong": ("suits", "winds", "dragons"),
    # sichuan.md §1 / guiyang.md §1: suits only
    "sichuan": ("suits",),
    "guiyang": ("suits",),
    "ruijin": ("suits", "winds", "dragons"),
    # ruijin_shangrao.md: "Honours exist (九幺 lists them)"
    "shangrao": ("suits", "winds", "dragons"),
    "jinhua": ("suits", "winds", "dragons"),
    "guobiao": ("suits", "winds", "dragons"),
    "jj": ("suits", "winds", "dragons"),
}
GROUP_KINDS = {"suits": KINDS[:27], "winds": WINDS, "dragons": DRAGONS}


@pytest.mark.parametrize("name", ALL)
def test_playable_kinds(name):
    ts = rules.get(name).tileset
    expected = {k for group in PLAYABLE_GROUPS[name] for k in GROUP_KINDS[group]}
    for i, code in enumerate(KINDS):
        assert ts.has_kind(code) == (code in expected), code
        assert ts.has_kind(i) == (code in expected), code
        assert ts.copies[i] == (4 if code in expected else 0), code
    mask = ts.playable_mask
    assert mask.dtype == np.bool_
    assert [KINDS[i] for i in np.flatnonzero(mask)] == [k for k in KINDS if k in expected]


def test_has_kind_rejects_bad_codes():
    ts = rules.get("guangdong").tileset
    with pytest.raises(ValueError, match="8z"):
        ts.has_kind("8z")
    with pytest.raises(ValueError, match="34"):
        ts.has_kind(34)


def test_suzhou_flower_faces():
    # suzhou.md §1: dragons 4 each, 春夏秋冬 1 each, 梅兰竹菊 1 each,
    # "老鼠 rat / 财神 god of wealth / 猫 cat / 聚宝盆 treasure bowl | 4 faces | 1", "百搭 | 1 face | 4"
    bonus = dict(rules.get("suzhou").tileset.bonus)
    expected = {**{d: 4 for d in DRAGONS}, **{f: 1 for f in SEASONS + PLANTS},
                "RAT": 1, "GOD": 1, "CAT": 1, "BOWL": 1, "BD": 4}
    assert bonus == expected
    # ⚑ 144: "中发白 (12) + 春夏秋冬 (4) + 梅兰竹菊 (4); no 百搭, no 老鼠/财神/猫/聚宝盆"
    bonus144 = dict(rules.get("suzhou", tileset="144").tileset.bonus)
    assert bonus144 == {**{d: 4 for d in DRAGONS}, **{f: 1 for f in SEASONS + PLANTS}}
    # SZ-C3 dabaiban: "中发白，梅兰竹菊，春夏秋冬，4百搭，4大白板"
    dabaiban = dict(rules.get("suzhou", flower_faces="dabaiban").tileset.bonus)
    assert dabaiban == {**{d: 4 for d in DRAGONS}, **{f: 1 for f in SEASONS + PLANTS},
                        "BD": 4, "WB0": 4}


def test_suzhou_144_with_dabaiban_is_rejected():
    with pytest.raises(ValueError, match="tileset=144"):
        rules.get("suzhou", tileset=144, flower_faces="dabaiban")


def test_taicang_flower_faces():
    # taicang.md §1: 中/发 4 each, 白板（带框）4, 白板（不带框）4, 百搭 4, 春夏秋冬/梅兰竹菊 1 each
    bonus = dict(rules.get("taicang").tileset.bonus)
    assert bonus == {**{d: 4 for d in DRAGONS}, "WB0": 4, "BD": 4,
                     **{f: 1 for f in SEASONS + PLANTS}}


# ------------------------------------------------------------------------------------------
# Deal, flowers flag, unit
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL)
def test_deal(name):
    # Every file: "Dealer 14, others 13" (stated or ⚑ G-A2).
    assert rules.get(name).deal == (14, 13)


@pytest.mark.parametrize(("name", "plays_flowers", "unit"), [
    ("suzhou", True, "花"), ("taicang", True, "花"), ("guangdong", False, "番"),
    ("sichuan", False, "番"), ("guiyang", False, "个"), ("ruijin", False, "基数"),
    ("shangrao", False, "基数"), ("jinhua", False, "X"), ("guobiao", False, "番"),
    ("jj", False, "番"),
])
def test_flowers_flag_and_unit(name, plays_flowers, unit):
    rule = rules.get(name)
    assert rule.flowers is plays_flowers
    assert rule.unit == unit


# ------------------------------------------------------------------------------------------
# Calls
# ------------------------------------------------------------------------------------------
CALLS = {
    # suzhou.md §3: "吃 chow | **No** | "不能吃牌，能碰能杠""; §6 一炮多响 allowed
    "suzhou": ("none", True),
    # taicang.md §3: "可吃（只可吃上家的）"; TC-A12 一炮多响 allowed
    "taicang": ("left", True),
    # guangdong.md §2: "only by the discarder's 下家"; GD-A9 all win
    "guangdong": ("left", True),
    # sichuan.md §2: "吃 is **not allowed**"; §3 "一炮多响 allowed"
    "sichuan": ("none", True),
    # guiyang.md §1: "No 吃."; §7 一炮两响/三响
    "guiyang": ("none", True),
    # ruijin_shangrao.md §3: "only from 上家"; G-A1 several winners
    "ruijin": ("left", True),
    # ruijin_shangrao.md §3 "default ⚑ 上家"; §7 "**one winner per discard**"
    "shangrao": ("left", False),
    # jinhua.md §3 "only from 上家"; JH-A9 head bump
    "jinhua": ("left", False),
    # guobiao.md §1 "Chow from 上家 only is a default ⚑"; 截和 (one winner per discard) by default,
    # 一炮多响 as the option yipao_duoxiang
    "guobiao": ("left", False),
    # jj.md §1 "吃: only from 上家"
    "jj": ("left", True),
}


@pytest.mark.parametrize("name", ALL)
def test_calls(name):
    calls = rules.get(name).calls
    chow, multiple = CALLS[name]
    assert calls.chow == chow
    assert calls.multiple_winners is multiple
    assert calls.pung is True
    assert set(calls.kongs) == {"exposed", "added", "concealed"}
    ranks = {call: i for i, level in enumerate(calls.priority) for call in level}
    assert ranks["win"] == 0
    assert ranks["kong"] == ranks["pung"]  # G-A1 胡 > 杠 = 碰 > 吃
    assert ("chow" in ranks) == (chow != "none")
    if chow != "none":
        assert ranks["pung"] < ranks["chow"]  # e.g. guangdong.md "“碰”比“吃”优先"


def test_honour_chows_only_in_ruijin():
    # ruijin_shangrao.md §3: "honour chows: any 3 different dragons (中发白), or any 3 different winds"
    groups = {frozenset(g) for g in rules.get("ruijin").calls.chow_honours}
    assert groups == {frozenset(WINDS), frozenset(DRAGONS)}
    for name in ALL:
        if name != "ruijin":
            assert rules.get(name).calls.chow_honours == ()


def test_calls_validation():
    with pytest.raises(ValueError, match="chow"):
        Calls(chow="right")
    with pytest.raises(ValueError, match="kong"):
        Calls(chow="none", kongs=("robbed",))


# ------------------------------------------------------------------------------------------
# Forms
# ------------------------------------------------------------------------------------------
FORMS = {
    # suzhou.md §4: STD, 7P, 大吊车 (a STD shape)
    ("suzhou", ()): {"standard", "seven_pairs"},
    # taicang.md §4: "七对 is not mentioned. Default ⚑: not a legal shape (`taicang.qidui=false`)"
    ("taicang", ()): {"standard"},
    ("taicang", (("qidui", True),)): {"standard", "seven_pairs"},
    # guangdong.md §3: "STD, 十三幺 (13O), 九莲宝灯 …. 七对 is **not** listed"
    ("guangdong", ()): {"standard", "thirteen_orphans", "nine_gates"},
    # sichuan.md §3: "Shapes: STD or 7P"
    ("sichuan", ()): {"standard", "seven_pairs"},
    # guiyang.md §2: "STD, 7P."
    ("guiyang", ()): {"standard", "seven_pairs"},
    # ruijin_shangrao.md §4: 普通胡, 对对胡 (7P), 烂胡, 飞
    ("ruijin", ()): {"standard", "seven_pairs", "thirteen_lan", "wild_head"},
    # ruijin_shangrao.md §4: STD, 七对, 十三浪, 九幺, 宝吊头
    ("shangrao", ()): {"standard", "seven_pairs", "thirteen_lan", "nine_terminals", "wild_head"},
    # jinhua.md §4: 平胡, 碰碰胡, 全求人 (STD), 七对子
    ("jinhua", ()): {"standard", "seven_pairs"},
    # guobiao_fans.md §5: 十三幺, 七对, 七星不靠/全不靠, 组合龙, 九莲宝灯
    ("guobiao", ()): {"standard", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
                      "knitted_straight", "nine_gates"},
    # jj.md §2: "Winning shapes and fans are MCR-style"
    ("jj", ()): {"standard", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
                 "knitted_straight", "nine_gates"},
}


@pytest.mark.parametrize(("key", "forms"), list(FORMS.items()),
                         ids=[name + "".join(f"-{k}={v}" for k, v in opts) for name, opts in FORMS])
def test_forms(key, forms):
    name, options = key
    rule = rules.get(name, **dict(options))
    assert rule.forms == frozenset(forms)
    assert rule.forms <= set(rules.FORMS)


@pytest.mark.parametrize("name", ALL)
def test_seven_pairs_quad_as_two(name):
    # RULES.md G-A3: "4 identical tiles inside 七对 | 2 pairs"
    assert rules.get(name).seven_pairs_quad_as_two is True


def test_thirteen_lan_strict():
    # ruijin_shangrao.md RS-C3: default general; option `ruijin.lanhu=strict`
    assert rules.get("ruijin").thirteen_lan_strict is False
    assert rules.get("ruijin", lanhu="strict").thirteen_lan_strict is True
    assert rules.get("shangrao").thirteen_lan_strict is False


# ------------------------------------------------------------------------------------------
# Wildcards and successor tables
# ------------------------------------------------------------------------------------------
def _suit_successors() -> dict[str, str]:
    # "n m/p/s, n = 1..8 | (n+1) same suit"; "9 m/p/s | 1 same suit ("翻到9万则1万为百搭")"
    table = {}
    for s in SUITS:
        for n in range(1, 9):
            table[f"{n}{s}"] = f"{n + 1}{s}"
        table[f"9{s}"] = f"1{s}"
    return table


# E → S → W → N → E ("翻到北风则东风为百搭")
WIND_SUCCESSORS = {"1z": "2z", "2z": "3z", "3z": "4z", "4z": "1z"}
# 中 → 发 → 白 → 中 (taicang "红中－发财－白板（带框）"; ruijin/shangrao "翻开的牌为白，则中为宝")
DRAGON_SUCCESSORS = {"7z": "6z", "6z": "5z", "5z": "7z"}


def _expected_34() -> dict[str, tuple[str, ...]]:
    merged = {**_suit_successors(), **WIND_SUCCESSORS, **DRAGON_SUCCESSORS}
    assert sorted(merged) == sorted(KINDS)
    return {k: (v,) for k, v in merged.items()}


def test_taicang_successor_table():
    wc = rules.get("taicang").wildcard
    expected = _expected_34()
    # "any of 春夏秋冬 | all four 梅兰竹菊 are 百搭"
    expected.update({f: tuple(PLANTS) for f in SEASONS})
    # "any of 梅兰竹菊 | … Default ⚑: all four 春夏秋冬 (TC-A1)"
    expected.update({f: tuple(SEASONS) for f in PLANTS})
    # "printed 百搭 | 白板（不带框）"; "白板（不带框） | printed 百搭"
    expected["BD"] = ("WB0",)
    expected["WB0"] = ("BD",)
    assert set(wc.flippable) == set(expected)
    for flipped, wild in expected.items():
        assert set(wc.successor(flipped)) == set(wild), flipped
        assert len(wc.successor(flipped)) == len(wild), flipped


def test_ruijin_successor_table():
    wc = rules.get("ruijin").wildcard
    expected = _expected_34()
    # "if the flipped tile is a 花, the **花 are 宝** ("如果是花就是花宝")"
    flowers = tuple(rules.get("ruijin").tileset.bonus)
    assert len(flowers) == 4  # "4 花"
    expected.update({f: flowers for f in flowers})
    assert set(wc.flippable) == set(expected)
    for flipped, wild in expected.items():
        assert set(wc.successor(flipped)) == set(wild), flipped


def test_shangrao_successor_table():
    wc = rules.get("shangrao").wildcard
    expected = _expected_34()
    assert set(wc.flippable) == set(expected)  # RS-A1: no flowers
    for flipped, wild in expected.items():
        assert wc.successor(flipped) == wild, flipped


def test_successor_rejects_faces_not_in_the_set():
    with pytest.raises(ValueError, match="F1"):
        rules.get("shangrao").wildcard.successor("F1")
    with pytest.raises(ValueError, match="RAT"):
        rules.get("taicang").wildcard.successor("RAT")


def test_wildcard_copies():
    # RULES.md §1.5: Taicang 4; Ruijin/Shangrao "4 (3 for 花宝)"; Jinhua "财神有三个" 3
    taicang = rules.get("taicang").wildcard
    assert taicang.copies == 4
    assert {taicang.wild_copies(f) for f in taicang.flippable} == {4}
    ruijin = rules.get("ruijin").wildcard
    assert ruijin.copies == 4
    for flipped in ruijin.flippable:
        assert ruijin.wild_copies(flipped) == (3 if flipped in SEASONS else 4), flipped
    shangrao = rules.get("shangrao").wildcard
    assert {shangrao.wild_copies(f) for f in shangrao.flippable} == {4}
    jinhua = rules.get("jinhua").wildcard
    assert jinhua.copies == 3
    assert {jinhua.wild_copies(f) for f in jinhua.flippable} == {3}


def test_wildcard_schemes():
    # RULES.md §1.5 table: name, how chosen, substitute, usable in calls
    assert rules.get("suzhou").wildcard is None  # "they are **flowers**, not wild"
    for name in ("guangdong", "sichuan", "guiyang", "guobiao"):
        assert rules.get(name).wildcard is None
    expected = {
        "taicang": ("百搭", "flip_successor", None, ()),
        "ruijin": ("宝", "flip_successor", tuple(rules.get("ruijin").tileset.bonus), ("chow",)),
        "shangrao": ("宝", "flip_successor", None, ()),
        "jinhua": ("财神", "flip_self", ("5z",), ()),
        "jj": ("混", "per_game", None, ()),
    }
    for name, (wname, selection, substitute, in_calls) in expected.items():
        wc = rules.get(name).wildcard
        assert isinstance(wc, WildcardScheme)
        assert (wc.name, wc.selection, wc.substitute, wc.usable_in_calls) == (
            wname, selection, substitute, in_calls), name


def test_jinhua_flip_self_and_substitute():
    wc = rules.get("jinhua").wildcard
    for code in KINDS:
        assert wc.successor(code) == (code,)
    # "财神 = 三万 → a 白板 plays as 三万"
    assert wc.substitute_for("3m") == ("5z",)
    # JH-A4: "If the 财神 is 白板 itself: … no substitute"
    assert wc.substitute_for("5z") is None


def test_ruijin_fake_bao():
    wc = rules.get("ruijin").wildcard
    # "如宝是7万，那花就是7万": flipped 6m → 宝 7m, the 花 play as 7m
    assert wc.successor("6m") == ("7m",)
    assert set(wc.substitute_for("6m")) == set(SEASONS)
    # 花宝: the 花 are the wildcard, so there is no 假宝
    assert wc.substitute_for("F2") is None


def test_jinhua_restrictions():
    # jinhua.md §2: "in 七风 it may not stand for a wind ("七风中不可代替风")"
    wc = rules.get("jinhua").wildcard
    assert dict(wc.restrictions) == {"qifeng": frozenset(WINDS)}
    # JH-A3 other reading: 七风 = the seven honour kinds
    honours = rules.get("jinhua", qifeng="honours").wildcard
    assert dict(honours.restrictions) == {"any": frozenset(WINDS + DRAGONS)}
    for name in ("taicang", "ruijin", "shangrao", "jj"):
        assert dict(rules.get(name).wildcard.restrictions) == {}


def test_jj_hun_is_not_flipped():
    with pytest.raises(ValueError, match="sub-game"):
        rules.get("jj").wildcard.successor("1m")


# ------------------------------------------------------------------------------------------
# Options
# ------------------------------------------------------------------------------------------
# Allowed values (default first) as the rules files list them.
OPTIONS = {
    "suzhou": {
        "tileset": (152, 144),  # "default `suzhou.tileset=152`"; "`suzhou.tileset=144`"
        "threshold": ("3_4", "2_3"),  # "`suzhou.threshold=3_4` (default) or `2_3`"
        "threshold_counts": ("all", "hard_only"),  # "`all` (default; F) or `hard_only`"
        "qidui": ("double_plus15", "flat10", "flat5"),  # SZ-C4
        "dadiaoche": ("plus5", "double", "both"),  # SZ-C5
        "songgang_scope": ("gangkai", "any_later_selfdraw"),  # §7 送杠
        "dealer": ("winner", "dahu_keeps"),  # SZ-C9 "winner deals" / `dahu_keeps`
        "flower_faces": ("tile_list", "dabaiban"),  # SZ-C3 "tile list" / `dabaiban`
        "qianggang_exempt": (False, True),  # SZ-C8
        "daxiao_menqing": (True, False),  # SZ-C10 "include (15)" / `false`
        "dadiao_lock": ("exception", "strict"),  # SZ-C13
        "discard_wind_triplet": ("concealed", "pung"),  # "胡牌后手上有3张相同的风" / SZ-A4
    },
    "taicang": {
        "qidui": (False, True),  # TC-A4 `taicang.qidui=false`
        "threshold_counts": ("all", "hard_only"),  # TC-A14
        "threshold_exempt": ("menqing", "suzhou_list"),  # TC-A6
        "fan2x": (2, 4),  # TC-C1 default ×2, `taicang.fan2x=4`
        "discard_wind_triplet": ("concealed", "pung"),  # "胡牌后手上有3张相同的风" / as SZ-A4
    },
    "guangdong": {
        "min_fan": (0, 1),  # GD-C1 "allowed (0 番)" / `guangdong.min_fan=1`
        "draw": ("stay", "pass"),  # GD-C2 连庄 / `guangdong.draw=pass`
        "bao_scope": ("first", "per_discarder"),  # GD-C3
        "adder_exposed_only": (False, True),  # GD-C4
        "cap_scheme": ("3", "3-6", "2-5"),  # GD-C5 "cap 3" / `3-6` or `2-5`
        "baozimo_small": (False, True),  # §5 例牌包自摸
    },
    "sichuan": {
        "xuezhan": (False, True),  # §3 `sichuan.xuezhan=true`
        "gen_counts_kongs": (False, True),  # SC-C3
        "qianggang_fan": (0, 1),  # §4 "0 ⚑ … `sichuan.qianggang_fan=1`"
        "zimo_bonus": (0, 1, 2, 3, 4, 5, 6),  # §4 "`0` (default) or a positive 番 count"
        "max_fan": (None, 6),  # SC-A4 "none (`max_fan` option)"; `sichuan.max_fan=6`
    },
    "guiyang": {
        "pass_scope": ("pinghu", "all_discard_wins"),  # GY-A2
        "dou": ("B", "A"),  # GY-C1/C2
        "dealer": ("B", "A"),  # GY-C3
    },
    "ruijin": {
        "lanhu": ("general", "strict"),  # RS-C3
        "fei_mult": (2,),  # RS-A5 `ruijin.fei_mult=2`
    },
    "shangrao": {"scoring": ("rj",)},  # RS-A9 `shangrao.scoring=rj`
    "jinhua": {"qifeng": ("none", "honours")},  # JH-A3 placeholder `jinhua.qifeng`
    "guobiao": {
        "tileset": (136, 144),  # GB-A3 "136 tiles (no flowers)"; 144: the competition set's 8 花牌
        "exclusions": ("union", "v2"),  # GB-C1
        "selfdraw_buqiuren": (False, True),  # GB-C2
        "qingyaojiu_tongke": (False, True),  # GB-C7
        "lianzhong_extras": (False, True),  # §4 "default off"
        "yipao_duoxiang": (False, True),  # 截和 by default (competition rules); 一炮多响 as the option
        "sigang_angang": (False, True),  # v3 "4个杠，暗杠加计" as the option (guobiao_fans.md §9)
    },
    "jj": {
        "hun": ("none", "flip_successor", "flip_self"),  # JJ-A1: per sub-game; in play by a flipped tile
        "dealer": ("next", "winner"),  # §1 only "荒庄 … the dealer of that hand deals again"
    },
}


@pytest.mark.parametrize("name", ALL)
def test_option_table(name):
    rule = rules.get(name)
    assert dict(rule.option_choices) == OPTIONS[name]
    assert list(rule.option_choices) == list(OPTIONS[name])


@pytest.mark.parametrize("name", ALL)
def test_defaults_are_first_values(name):
    rule = rules.get(name)
    assert dict(rule.options) == {key: values[0] for key, values in OPTIONS[name].items()}
    assert rule.non_default_options == {}


def _text(value) -> str:
    """How an option value is written in the rules files (`true`, `none`, `144`, `3_4`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


OPTION_CASES = [(name, key, value) for name in ALL for key, values in OPTIONS[name].items()
                for value in values]


@pytest.mark.parametrize(("name", "key", "value"), OPTION_CASES)
def test_every_allowed_value_is_accepted(name, key, value):
    rule = rules.get(name, **{key: value})
    assert rule.options[key] == value
    assert type(rule.options[key]) is type(value)
    is_default = value == OPTIONS[name][key][0] and type(value) is type(OPTIONS[name][key][0])
    assert (key in rule.non_default_options) == (not is_default)
    if not is_default:
        assert f"{key}={value!r}" in repr(rule)
    # The text form used in the rules files normalises to the same value.
    assert rules.get(name, **{key: _text(value)}) is rule


def test_numbers_may_be_given_as_int_or_str():
    assert rules.get("suzhou", tileset="144") is rules.get("suzhou", tileset=144)
    assert rules.get("taicang", fan2x="4").options["fan2x"] == 4
    assert rules.get("sichuan", max_fan="6").options["max_fan"] == 6
    assert rules.get("guangdong", cap_scheme=3).options["cap_scheme"] == "3"
    assert rules.get("sichuan", xuezhan="True").options["xuezhan"] is True


def test_bools_and_ints_are_not_confused():
    with pytest.raises(ValueError, match="qianggang_fan"):
        rules.get("sichuan", qianggang_fan=True)
    with pytest.raises(ValueError, match="xuezhan"):
        rules.get("sichuan", xuezhan=1)


@pytest.mark.parametrize("name", [n for n in ALL if OPTIONS[n]])
def test_invalid_value_message(name):
    key, values = next(iter(OPTIONS[name].items()))
    with pytest.raises(ValueError) as err:
        rules.get(name, **{key: "bogus_value"})
    message = str(err.value)
    assert "'bogus_value'" in message
    assert f"{name}.{key}" in message
    for value in values:
        assert _text(value) in message


@pytest.mark.parametrize("name", ALL)
def test_unknown_key_message(name):
    with pytest.raises(ValueError) as err:
        rules.get(name, no_such_option=1)
    message = str(err.value)
    assert "'no_such_option'" in message
    assert name in message
    for key in OPTIONS[name]:
        assert key in message
    if not OPTIONS[name]:
        assert "no options" in message


def test_suzhou_threshold_option_example():
    # RULES.md §1.7: "rules.get("suzhou", threshold="2_3")"
    assert rules.get("suzhou", threshold="2_3").options["threshold"] == "2_3"


def _rules_dir() -> Path | None:
    for candidate in (Path(__file__).resolve().parents[1] / "rules", Path("/work/shared/rules")):
        if (candidate / "RULES.md").is_file():
            return candidate
    return None


# Named in the files without listed values; they are free amounts / per-hand inputs, passed to
# scoring or analysis calls rather than fixed in the rule (see the module docstrings).
PARAMETERS = {("taicang", "max_payment"), ("jj", "hun_kinds")}


def test_every_option_named_in_the_rules_files_is_accepted():
    directory = _rules_dir()
    if directory is None:
        pytest.skip("rules/*.md not available")
    names = "|".join(ALL)
    with_value = re.compile(r"`(" + names + r")\.([a-z_0-9]+)=([^`]+)`")
    bare = re.compile(r"`(" + names + r")\.(?!md`)([a-z_0-9]+)`")  # not file names like `jj.md`
    settings, keys = set(), set()
    for path in sorted(directory.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for name, key, values in with_value.findall(text):
            for value in values.split("|"):  # e.g. `taicang.threshold_counts=all|hard_only`
                settings.add((name, key, value))
        keys.update(bare.findall(text))
    assert len(settings) >= 30  # the files name over thirty `variant.key=value` settings
    for name, key, value in sorted(settings):
        assert key in OPTIONS[name], (name, key)
        assert rules.get(name, **{key: value}).options[key] in OPTIONS[name][key]
    for name, key in sorted(keys):
        assert key in OPTIONS[name] or (name, key) in PARAMETERS, (name, key)
    assert ("jinhua", "qifeng") in keys


# ------------------------------------------------------------------------------------------
# describe / summary
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL)
def test_describe(name):
    rule = rules.get(name)
    table = rules.describe(rule)
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns) == ["section", "item", "value", "meaning"]
    sections = set(table["section"])
    assert {"rule", "tiles", "deal", "calls", "wildcard", "forms"} <= sections
    as_dict = {(s, i): v for s, i, v, _ in table.itertuples(index=False) if i != "successor"}
    assert as_dict[("tiles", "total")] == str(rule.tileset.total)
    assert as_dict[("calls", "chow")] == rule.calls.chow
    for key in OPTIONS[name]:
        assert ("options", key) in as_dict
    if rule.wildcard is not None and rule.wildcard.selection == "flip_successor":
        lines = list(table.loc[table["item"] == "successor", "value"])
        assert "1m→2m→3m→4m→5m→6m→7m→8m→9m→1m" in lines
        assert "1z→2z→3z→4z→1z" in lines
        assert "7z→6z→5z→7z" in lines


def test_describe_shows_taicang_flower_groups():
    lines = list(rules.describe("taicang").query("item == 'successor'")["value"])
    assert "F1/F2/F3/F4 → F5+F6+F7+F8" in lines
    assert "BD→WB0→BD" in lines


def test_describe_with_options():
    table = rules.describe("suzhou", threshold="2_3")
    row = table[(table.section == "options") & (table.item == "threshold")]
    assert row["value"].iloc[0].startswith("2_3")


def test_summary():
    table = rules.summary()
    assert list(table.columns) == ["name", "name_zh", "total", "playable", "flowers", "chow",
                                   "wildcard", "unit"]
    assert tuple(table["name"]) == ALL
    by_name = table.set_index("name")
    for name, options, total, playable, flowers in TILE_TOTALS:
        if not options:
            assert by_name.loc[name, "total"] == total
            assert by_name.loc[name, "playable"] == playable
            assert by_name.loc[name, "flowers"] == flowers
    assert by_name.loc["taicang", "wildcard"] == "百搭"
    assert by_name.loc["suzhou", "chow"] == "none"
