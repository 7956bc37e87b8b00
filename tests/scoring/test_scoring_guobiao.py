"""国标 MCR scorer: pinned probes (rules/guobiao_fans.md §7-§8), the rule options, and the
agreement with the reference calculator PyMahjongGB on seeded random winning hands."""

import pickle
import random

import numpy as np
import pytest

from mjfast import Hand
from mjfast._reference import mcr as M
from mjfast.scoring import WinContext, can_win, score
from mjfast.scoring.guobiao import FANS, fan_table

# ---------------------------------------------------------------------------------------------
# the probes of guobiao_fans.md: (id, hand, flags, oracle output); each output is pinned here
# (M4, M5, M7 and G9 feed the reference inputs a table cannot produce; see test_rejected_inputs)
PROBES = [
    ("1", "[pon 111z] [pon 222z] 333z444z5m + 5m", "ron, seat S/prev E", "大四喜 88, 混一色 6, 双暗刻 2, 独听・单钓 1"),
    ("2", "[pon 555z] [pon 666z] 777z234m9p + 9p", "ron, seat E/prev E", "大三元 88, 缺一门 1, 独听・单钓 1"),
    ("3", "234s234s666s888s6z + 6z", "ron, seat E/prev E", "绿一色 88, 门前清 2, 双暗刻 2, 一般高 1, 独听・单钓 1"),
    ("4", "1112345678999m + 5m", "ron, seat E/prev E", "九莲宝灯 88, 双暗刻 2, 幺九刻 1"),
    (
        "5",
        "[kan 1111m] [kan 2222p] [ankan 3333s] [kan 4444z] 9p + 9p",
        "ron, seat S/prev S",
        "四杠 88, 三色三节高 8, 幺九刻 1×2",
    ),
    ("6", "2233445566778s + 8s", "ron, seat E/prev E", "连七对 88, 断幺 2"),
    ("7", "19m19s19p1234567z + 1m", "ron, seat E/prev E", "十三幺 88"),
    ("8", "[pon 111m] 999m111p999p9s + 9s", "ron, seat E/prev E", "清幺九 64, 三暗刻 16, 独听・单钓 1"),
    ("9", "[pon 111z] [pon 222z] 333z44z56m + 7m", "ron, seat N/prev N", "小四喜 64, 混一色 6"),
    ("10", "[pon 555z] [pon 666z] 77z123m45m + 6m", "ron, seat E/prev E", "小三元 64, 混一色 6, 连六 1"),
    ("11", "[pon 111z] 222z555z66z77z + 6z", "ron, seat N/prev N", "小三元 64, 字一色 64, 双暗刻 2"),
    ("12", "111m222p333s777s5s + 5s", "ron, seat E/prev E", "四暗刻 64, 三色三节高 8, 幺九刻 1, 无字 1"),
    ("13", "1122337788995m + 5m", "ron, seat E/prev E", "一色双龙会 64, 门前清 2, 独听・单钓 1"),
    ("14", "[chi 234m] 234m234m234m9p + 9p", "ron, seat E/prev E", "一色四同顺 48, 平和 2, 缺一门 1, 独听・单钓 1"),
    (
        "15",
        "[pon 333m] 444m555m666m9p + 9p",
        "ron, seat E/prev E",
        "一色四节高 48, 三暗刻 16, 缺一门 1, 无字 1, 独听・单钓 1",
    ),
    ("16", "[chi 234m] 345m456m567m9p + 9p", "ron, seat E/prev E", "一色四步高 32, 平和 2, 缺一门 1, 独听・单钓 1"),
    (
        "17",
        "[kan 1111m] [kan 2222p] [ankan 3333s] 456p7z + 7z",
        "ron, seat E/prev E",
        "三杠 32, 三色三节高 8, 幺九刻 1, 独听・单钓 1",
    ),
    (
        "18",
        "[pon 111m] 999p111z777z9s + 9s",
        "ron, seat S/prev S",
        "混幺九 32, 三暗刻 16, 五门齐 6, 箭刻 2, 独听・单钓 1",
    ),
    ("19", "1133m5577p99s11z6z + 6z", "ron, seat E/prev E", "七对 24, 五门齐 6"),
    ("20", "147m25s36p123456z + 7z", "ron, seat E/prev E", "七星不靠 24"),
    ("21", "[pon 222m] 444p666s888s2p + 2p", "ron, seat E/prev E", "全双刻 24, 三暗刻 16"),
    ("22", "[chi 123m] 345m678m999m5m + 5m", "ron, seat E/prev E", "清一色 24, 连六 1, 幺九刻 1"),
    ("23", "[chi 123m] 123m123m789p5s + 5s", "ron, seat E/prev E", "一色三同顺 24, 平和 2, 独听・单钓 1"),
    ("24", "[pon 222m] 333m444m567p9s + 9s", "ron, seat E/prev E", "一色三节高 24, 双暗刻 2, 无字 1, 独听・单钓 1"),
    ("25", "[chi 789m] 789p777s888s9m + 9m", "ron, seat E/prev E", "全大 24, 双暗刻 2, 喜相逢 1, 独听・单钓 1"),
    ("26", "[chi 456m] 456p555s666s4m + 4m", "ron, seat E/prev E", "全中 24, 双暗刻 2, 喜相逢 1, 独听・单钓 1"),
    (
        "27",
        "[chi 123m] 123p111s333s2m + 2m",
        "ron, seat E/prev E",
        "全小 24, 双暗刻 2, 喜相逢 1, 幺九刻 1, 独听・单钓 1",
    ),
    ("28", "[chi 123m] 456m789m234p5s + 5s", "ron, seat E/prev E", "清龙 16, 平和 2, 独听・单钓 1"),
    ("29", "[chi 123m] 789m123p789p5s + 5s", "ron, seat E/prev E", "三色双龙会 16, 独听・单钓 1"),
    ("30", "[chi 123m] 234m345m789p5s + 5s", "ron, seat E/prev E", "一色三步高 16, 平和 2, 独听・单钓 1"),
    ("31", "[chi 345m] 567m456p555s5p + 5p", "ron, seat E/prev E", "全带五 16, 独听・嵌张 1"),
    ("32", "[pon 555m] 555p555s123m9s + 9s", "ron, seat E/prev E", "三同刻 16, 双暗刻 2, 无字 1, 独听・单钓 1"),
    ("33", "[chi 456s] 111m222p333s7z + 7z", "ron, seat E/prev E", "三暗刻 16, 三色三节高 8, 幺九刻 1, 独听・单钓 1"),
    ("34", "147m258s36p12345z + 6z", "ron, seat E/prev E", "全不靠 12"),
    ("35", "147m258s369p111z5z + 5z", "ron, seat S/prev S", "组合龙 12, 五门齐 6, 门前清 2, 幺九刻 1, 独听・单钓 1"),
    ("36", "[chi 678m] 789p666s99s77m + 9s", "ron, seat E/prev E", "大于五 12, 幺九刻 1"),
    ("37", "[chi 123m] 234p444s11s33m + 3m", "ron, seat E/prev E", "小于五 12, 四归一 2"),
    (
        "38",
        "[pon 111z] 222z333z123m9p + 9p",
        "ron, seat N/prev N",
        "三风刻 12, 全带幺 4, 双暗刻 2, 缺一门 1, 独听・单钓 1",
    ),
    ("39", "[chi 123m] 456p789s111z5p + 5p", "ron, seat S/prev S", "花龙 8, 幺九刻 1, 独听・嵌张 1"),
    ("40", "[chi 123p] 345p456s888s5z + 5z", "ron, seat E/prev E", "推不倒 8, 独听・单钓 1"),
    ("41", "[chi 123m] 123p123s789m5p + 5p", "ron, seat E/prev E", "三色三同顺 8, 平和 2, 老少副 1, 独听・单钓 1"),
    ("42", "[pon 222m] 333p444s567m9p + 9p", "ron, seat E/prev E", "三色三节高 8, 双暗刻 2, 无字 1, 独听・单钓 1"),
    ("43", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "ron, seat S/prev S", "无番和 8"),
    ("44", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "tsumo, wallLast, seat S/prev S", "妙手回春 8"),
    ("45", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "ron, wallLast, seat S/prev S", "海底捞月 8"),
    ("46", "[chi 234m] [chi 567p] [kan 3333s] 67s11z + 8s", "tsumo, aboutKong, seat S/prev S", "杠上开花 8, 明杠 1"),
    ("47", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "ron, aboutKong, seat S/prev S", "抢杠和 8"),
    ("48", "[pon 222m] [pon 555p] 777s33p11z + 1z", "ron, seat S/prev S", "碰碰和 6, 幺九刻 1"),
    (
        "49",
        "[chi 123m] 456m888m111z5z + 5z",
        "ron, seat S/prev S",
        "混一色 6, 双暗刻 2, 连六 1, 幺九刻 1, 独听・单钓 1",
    ),
    ("50", "[chi 123m] 234p345s789m5p + 5p", "ron, seat E/prev E", "三色三步高 6, 平和 2, 老少副 1"),
    ("51", "[chi 123m] 456p789s111z5z + 5z", "ron, seat S/prev S", "花龙 8, 五门齐 6, 幺九刻 1, 独听・单钓 1"),
    ("52", "[chi 123m] [chi 456p] [pon 777s] [pon 111z] 9m + 9m", "ron, seat S/prev S", "全求人 6, 幺九刻 1"),
    (
        "53",
        "[ankan 1111m] [ankan 2222p] 456s789s5z + 5z",
        "ron, seat E/prev E",
        "双暗杠 6, 门前清 2, 连六 1, 幺九刻 1, 独听・单钓 1",
    ),
    ("54", "[pon 555z] 666z123m456p9s + 9s", "ron, seat E/prev E", "双箭刻 6, 独听・单钓 1"),
    ("55", "[chi 123m] 789p111s111z9m + 9m", "ron, seat S/prev S", "全带幺 4, 双暗刻 2, 幺九刻 1×2, 独听・单钓 1"),
    ("56", "123m456p789s234s5p + 5p", "tsumo, seat E/prev E", "花龙 8, 不求人 4, 平和 2, 独听・嵌张 1"),
    ("57", "[kan 1111m] [kan 2222p] 456s789s5z + 5z", "ron, seat E/prev E", "双明杠 4, 连六 1, 幺九刻 1, 独听・单钓 1"),
    ("58", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "ron, 4thTile, seat S/prev S", "和绝张 4"),
    ("59", "[chi 123m] 345p678s555z9m + 9m", "ron, seat E/prev E", "箭刻 2, 独听・单钓 1"),
    ("60", "[chi 123m] 345p678s222z9m + 9m", "ron, seat E/prev S", "圈风刻 2, 独听・单钓 1"),
    ("61", "[chi 123m] 345p678s333z9m + 9m", "ron, seat W/prev E", "门风刻 2, 独听・单钓 1"),
    ("62", "123m456p678s22z34s + 5s", "ron, seat S/prev S", "门前清 2, 连六 1"),
    ("63", "[chi 123m] 456p678s55m23s + 4s", "ron, seat E/prev E", "平和 2"),
    ("64", "[chi 123m] 111m456p789s5z + 5z", "ron, seat E/prev E", "花龙 8, 四归一 2, 幺九刻 1, 独听・单钓 1"),
    ("65", "[pon 222m] 222p567s34s99m + 2s", "ron, seat E/prev E", "双同刻 2, 连六 1, 无字 1"),
    ("66", "[chi 123m] 444p777s456m5z + 5z", "ron, seat E/prev E", "双暗刻 2, 连六 1, 独听・单钓 1"),
    ("67", "[ankan 1111m] 456p789s234s5z + 5z", "ron, seat E/prev E", "门前清 2, 暗杠 2, 幺九刻 1, 独听・单钓 1"),
    ("68", "[chi 234m] 456p666s345s5m + 5m", "ron, seat E/prev E", "三色三步高 6, 断幺 2, 独听・单钓 1"),
    ("69", "[chi 123m] 123m456p678s5z + 5z", "ron, seat E/prev E", "一般高 1, 独听・单钓 1"),
    ("70", "[chi 123m] 123p567s111z9m + 9m", "ron, seat S/prev S", "喜相逢 1, 幺九刻 1, 独听・单钓 1"),
    ("71", "[chi 123m] 456m678p111z9s + 9s", "ron, seat S/prev S", "连六 1, 幺九刻 1, 独听・单钓 1"),
    ("72", "[chi 123m] 789m456p111z9s + 9s", "ron, seat S/prev S", "老少副 1, 幺九刻 1, 独听・单钓 1"),
    ("73", "[chi 234m] 999p567s456p5z + 5z", "ron, seat E/prev E", "幺九刻 1, 独听・单钓 1"),
    ("74", "[kan 1111m] 456p678s345s5z + 5z", "ron, seat E/prev E", "连六 1, 幺九刻 1, 明杠 1, 独听・单钓 1"),
    ("75", "[chi 234m] 456m678p345p1z + 1z", "ron, seat E/prev E", "连六 1, 缺一门 1, 独听・单钓 1"),
    ("76", "[chi 234m] 456p678s999s1m + 1m", "ron, seat E/prev E", "幺九刻 1, 无字 1, 独听・单钓 1"),
    ("77", "[chi 234m] 12s456p678s99m + 3s", "ron, seat E/prev E", "平和 2, 独听・边张 1"),
    ("78", "[chi 234m] 13s456p678s99m + 2s", "ron, seat E/prev E", "平和 2, 独听・嵌张 1"),
    ("79", "[chi 234m] 456p678s345s1z + 1z", "ron, seat E/prev E", "三色三步高 6, 连六 1, 独听・单钓 1"),
    ("80", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "tsumo, seat S/prev S", "自摸 1"),
    ("81", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "ron, flowers=3, seat S/prev S", "无番和 8, 花牌 1×3"),
    (
        "82",
        "[kan 1111m] [ankan 2222p] 456s789s5z + 5z",
        "ron, seat E/prev E",
        "连六 1, 幺九刻 1, 独听・单钓 1, 明暗杠 5",
    ),
    ("A1", "234567s23456p55z + 7p", "ron, seat E/prev E", "门前清 2, 喜相逢 1×2, 连六 1, 缺一门 1"),
    (
        "A2",
        "234s223344567p5z + 5z",
        "ron, seat E/prev E",
        "门前清 2, 一般高 1, 喜相逢 1, 连六 1, 缺一门 1, 独听・单钓 1",
    ),
    ("A3", "[chi 123m] 123m123m123p5s + 5s", "ron, seat E/prev E", "一色三同顺 24, 平和 2, 喜相逢 1, 独听・单钓 1"),
    ("A4", "[chi 123m] 123p123s123m5p + 5p", "ron, seat E/prev E", "三色三同顺 8, 平和 2, 一般高 1, 独听・单钓 1"),
    (
        "A5",
        "[chi 123m] 789m123p789p5z + 5z",
        "ron, seat E/prev E",
        "全带幺 4, 喜相逢 1×2, 老少副 1, 缺一门 1, 独听・单钓 1",
    ),
    ("A6", "[chi 123m] 123m456p456p5z + 5z", "ron, seat E/prev E", "一般高 1×2, 缺一门 1, 独听・单钓 1"),
    ("A7", "[chi 123m] 123p456m789s5z + 5z", "ron, seat E/prev E", "花龙 8, 喜相逢 1, 独听・单钓 1"),
    ("A8", "[chi 123m] 123m456m789m5s + 5s", "ron, seat E/prev E", "清龙 16, 平和 2, 一般高 1, 缺一门 1, 独听・单钓 1"),
    ("B1", "11123m444p789s55z + 1m", "ron, seat E/prev E", "门前清 2, 四归一 2, 双暗刻 2, 幺九刻 1"),
    ("B2", "11m123s444p789s55z + 1m", "ron, seat E/prev E", "门前清 2, 老少副 1, 幺九刻 1"),
    ("B3", "11m123s444p789s55z + 1m", "tsumo, seat E/prev E", "不求人 4, 双暗刻 2, 老少副 1, 幺九刻 1"),
    ("C1", "[chi 456p] [chi 789s] 1233m555z + 3m", "ron, seat E/prev E", "花龙 8, 箭刻 2, 独听・边张 1"),
    ("C2", "[chi 456p] [chi 789s] 2444m555z + 3m", "ron, seat E/prev E", "箭刻 2"),
    ("C3", "[chi 456p] [chi 789s] 1112m555z + 2m", "ron, seat E/prev E", "箭刻 2, 双暗刻 2, 幺九刻 1"),
    ("C4", "[chi 456p] [chi 789s] 1113m555z + 2m", "ron, seat E/prev E", "花龙 8, 箭刻 2"),
    ("C5", "[chi 456p] [chi 789s] 4566m555z + 6m", "ron, seat E/prev E", "箭刻 2, 喜相逢 1"),
    ("C6", "123m456p789s234s5p + 5p", "ron, seat E/prev E", "花龙 8, 门前清 2, 平和 2, 独听・嵌张 1"),
    ("D1", "[chi 234m] [chi 567p] [pon 888s] 79s11z + 8s", "ron, seat S/prev S", "和绝张 4, 四归一 2, 独听・嵌张 1"),
    ("D2", "[chi 234m] [chi 567p] [chi 234s] 88s11z + 8s", "ron, 4thTile, seat S/prev S", "喜相逢 1"),
    ("D3", "[chi 234m] [chi 567p] [chi 234s] 88s11z + 8s", "ron, aboutKong, seat S/prev S", "喜相逢 1"),
    ("D4", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "tsumo, aboutKong, seat S/prev S", "自摸 1"),
    ("D5", "[chi 234m] [chi 567p] [ankan 3333s] 67s11z + 8s", "tsumo, aboutKong, seat S/prev S", "杠上开花 8, 暗杠 2"),
    ("D6", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "ron, aboutKong, 4thTile, seat S/prev S", "抢杠和 8"),
    (
        "D7",
        "[chi 234m] [chi 567p] [kan 3333s] 67s11z + 8s",
        "tsumo, wallLast, aboutKong, seat S/prev S",
        "妙手回春 8, 杠上开花 8, 明杠 1",
    ),
    (
        "D8",
        "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s",
        "ron, wallLast, aboutKong, seat S/prev S",
        "海底捞月 8, 抢杠和 8",
    ),
    (
        "D9",
        "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s",
        "ron, wallLast, 4thTile, seat S/prev S",
        "海底捞月 8, 和绝张 4",
    ),
    ("E1", "[chi 123m] 456p678s55m23s + 4s", "ron, seat E/prev E", "平和 2"),
    ("E2", "[chi 234m] [chi 567p] [pon 333s] 67s11z + 8s", "ron, flowers=2, seat S/prev S", "无番和 8, 花牌 1×2"),
    ("E3", "[chi 123m] 456p678s55m23s + 4s", "ron, flowers=7, seat E/prev E", "平和 2, 花牌 1×7"),
    ("F1", "1111222233334m + 4m", "ron, seat E/prev E", "一色四同顺 48, 清一色 24, 小于五 12, 门前清 2, 平和 2"),
    ("F2", "1133m5577p99s11z6z + 6z", "tsumo, seat E/prev E", "七对 24, 五门齐 6, 自摸 1"),
    ("F3", "19m19s19p1234567z + 1m", "tsumo, seat E/prev E", "十三幺 88, 自摸 1"),
    ("F4", "111m222p333s777s5s + 5s", "tsumo, seat E/prev E", "四暗刻 64, 三色三节高 8, 幺九刻 1, 无字 1, 自摸 1"),
    ("F5", "147m258s36p12345z + 6z", "tsumo, seat E/prev E", "全不靠 12, 自摸 1"),
    ("F6", "147m258s369p111z5z + 5z", "tsumo, seat S/prev S", "组合龙 12, 五门齐 6, 不求人 4, 幺九刻 1, 独听・单钓 1"),
    ("F7", "1112345678999m + 5m", "tsumo, seat E/prev E", "九莲宝灯 88, 双暗刻 2, 幺九刻 1, 自摸 1"),
    ("F8", "1112345678999m + 1m", "ron, seat E/prev E", "九莲宝灯 88, 清龙 16, 四归一 2"),
    ("F9", "1112345678999m + 2m", "ron, seat E/prev E", "九莲宝灯 88, 双暗刻 2, 连六 1, 幺九刻 1"),
    ("F10", "1112345678999m + 4m", "ron, seat E/prev E", "九莲宝灯 88, 连六 1"),
    ("F11", "1112345567899m + 9m", "ron, seat E/prev E", "清一色 24, 门前清 2, 幺九刻 1×2"),
    ("F12", "2222m5577p88s11z6z + 6z", "ron, seat E/prev E", "七对 24, 五门齐 6, 四归一 2"),
    ("F13", "7788m99m7788p99p7s + 7s", "ron, seat E/prev E", "七对 24, 全大 24"),
    ("F14", "1122334455667p + 7p", "ron, seat E/prev E", "连七对 88"),
    ("F15", "2233445566778s + 8s", "tsumo, seat E/prev E", "连七对 88, 断幺 2, 自摸 1"),
    ("F16", "147m258s369p1234z + 5z", "ron, seat E/prev E", "全不靠 12, 组合龙 12"),
    ("F17", "[chi 123m] 147m258s369p5z + 5z", "ron, seat E/prev E", "组合龙 12, 独听・单钓 1"),
    ("F18", "[chi 123m] 14m258s369p55z + 7m", "ron, seat E/prev E", "组合龙 12"),
    ("F19", "14m258s369p123s55z + 7m", "ron, seat E/prev E", "组合龙 12, 门前清 2"),
    ("F20", "1122m1133p2233s1m + 1m", "ron, seat E/prev E", "七对 24, 全小 24, 四归一 2"),
    ("F21", "1122p4455s88s99p5z + 5z", "ron, seat E/prev E", "七对 24, 推不倒 8"),
    ("F22", "223344668s6688s + 8s", "ron, seat E/prev E", "绿一色 88, 七对 24, 清一色 24, 四归一 2×2, 断幺 2"),
    ("F23", "1122334455667z + 7z", "ron, seat E/prev E", "字一色 64, 七对 24"),
    ("F24", "1111m99m11p99p11s9s + 9s", "ron, seat E/prev E", "清幺九 64, 七对 24, 四归一 2"),
    ("F25", "147m25s36p123456z + 7z", "tsumo, seat E/prev E", "七星不靠 24, 自摸 1"),
    ("G1", "[chi 123m] 345p678s111z9m + 9m", "ron, seat E/prev E", "圈风刻 2, 门风刻 2, 独听・单钓 1"),
    ("G2", "[pon 111z] [pon 222z] 333z44z56m + 7m", "ron, seat E/prev S", "小四喜 64, 混一色 6, 圈风刻 2, 门风刻 2"),
    (
        "G3",
        "[pon 111z] 222z333z123m9p + 9p",
        "ron, seat N/prev E",
        "三风刻 12, 全带幺 4, 圈风刻 2, 双暗刻 2, 缺一门 1, 独听・单钓 1",
    ),
    (
        "G4",
        "[pon 111z] [pon 222z] 333z444z5m + 5m",
        "ron, seat E/prev E",
        "大四喜 88, 混一色 6, 双暗刻 2, 独听・单钓 1",
    ),
    ("G5", "[pon 777z] 345p678s234m9m + 9m", "ron, seat E/prev E", "箭刻 2, 独听・单钓 1"),
    ("G6", "[pon 444z] 345p678s234m9m + 9m", "ron, seat E/prev E", "幺九刻 1, 独听・单钓 1"),
    (
        "G7",
        "[pon 111m] 999p111z777z9s + 9s",
        "ron, seat S/prev E",
        "混幺九 32, 三暗刻 16, 五门齐 6, 箭刻 2, 圈风刻 2, 独听・单钓 1",
    ),
    ("G8", "[pon 777z] [pon 666z] 555z234m9p + 9p", "ron, seat E/prev E", "大三元 88, 缺一门 1, 独听・单钓 1"),
    (
        "H1",
        "[chi 234s] [chi 234s] [pon 666s] 888s3s + 3s",
        "ron, seat E/prev E",
        "绿一色 88, 清一色 24, 四归一 2, 断幺 2, 一般高 1, 独听・单钓 1",
    ),
    ("H2", "[pon 111m] 111p111s999m9p + 9p", "ron, seat E/prev E", "清幺九 64, 三同刻 16, 三暗刻 16, 独听・单钓 1"),
    ("H3", "[pon 111m] 111p999m999p9s + 9s", "ron, seat E/prev E", "清幺九 64, 三暗刻 16, 独听・单钓 1"),
    ("H4", "[pon 222m] 222p444s888s6m + 6m", "ron, seat E/prev E", "全双刻 24, 三暗刻 16, 双同刻 2, 独听・单钓 1"),
    (
        "H5",
        "[pon 111z] [pon 222z] 333z444z5z + 5z",
        "ron, seat E/prev E",
        "大四喜 88, 字一色 64, 双暗刻 2, 独听・单钓 1",
    ),
    (
        "H6",
        "[pon 555z] [pon 666z] 777z111z2z + 2z",
        "ron, seat W/prev W",
        "大三元 88, 字一色 64, 双暗刻 2, 独听・单钓 1",
    ),
    (
        "H7",
        "555z666z77z123m99m + 9m",
        "ron, seat E/prev E",
        "小三元 64, 混一色 6, 全带幺 4, 门前清 2, 双暗刻 2, 幺九刻 1",
    ),
    ("H8", "[chi 234m] 234m234m234m9p + 9p", "ron, seat E/prev E", "一色四同顺 48, 平和 2, 缺一门 1, 独听・单钓 1"),
    ("H9", "[chi 123m] 345m567m789m9p + 9p", "ron, seat E/prev E", "一色四步高 32, 平和 2, 缺一门 1, 独听・单钓 1"),
    (
        "H10",
        "[pon 222m] [pon 222p] 555s555m9s + 9s",
        "ron, seat E/prev E",
        "碰碰和 6, 双同刻 2×2, 双暗刻 2, 无字 1, 独听・单钓 1",
    ),
    (
        "K1",
        "[kan 1111m] [ankan 2222p] [ankan 3333s] 456p7z + 7z",
        "ron, seat E/prev E",
        "三杠 32, 三色三节高 8, 双暗刻 2, 幺九刻 1, 独听・单钓 1",
    ),
    (
        "K2",
        "[kan 1111m] [kan 2222p] [kan 3333s] 456p7z + 7z",
        "ron, seat E/prev E",
        "三杠 32, 三色三节高 8, 幺九刻 1, 独听・单钓 1",
    ),
    (
        "K3",
        "[ankan 1111m] [ankan 2222p] [ankan 3333s] 456p7z + 7z",
        "ron, seat E/prev E",
        "三杠 32, 三暗刻 16, 三色三节高 8, 门前清 2, 幺九刻 1, 独听・单钓 1",
    ),
    (
        "K4",
        "[ankan 1111m] [ankan 2222p] [ankan 3333s] 444p7z + 7z",
        "ron, seat E/prev E",
        "四暗刻 64, 三杠 32, 三色三节高 8, 幺九刻 1, 独听・单钓 1",
    ),
    (
        "K5",
        "[ankan 1111m] [ankan 2222p] [ankan 3333s] [ankan 4444z] 9p + 9p",
        "ron, seat S/prev S",
        "四杠 88, 四暗刻 64, 三色三节高 8, 幺九刻 1×2",
    ),
    (
        "K6",
        "[kan 1111m] [kan 2222p] [kan 3333s] [kan 4444z] 9p + 9p",
        "tsumo, seat S/prev S",
        "四杠 88, 三色三节高 8, 幺九刻 1×2, 自摸 1",
    ),
    (
        "K7",
        "[ankan 1111m] [ankan 2222p] 444s789s5z + 5z",
        "ron, seat E/prev E",
        "三暗刻 16, 双暗杠 6, 门前清 2, 幺九刻 1, 独听・单钓 1",
    ),
    (
        "K8",
        "[kan 1111m] [ankan 2222p] 444s789s5z + 5z",
        "ron, seat E/prev E",
        "双暗刻 2, 幺九刻 1, 独听・单钓 1, 明暗杠 5",
    ),
    (
        "K9",
        "[ankan 1111m] 444s789s234p5z + 5z",
        "ron, seat E/prev E",
        "门前清 2, 双暗刻 2, 暗杠 2, 幺九刻 1, 独听・单钓 1",
    ),
    (
        "M1",
        "[chi 123m] [chi 456p] [pon 777s] [pon 111z] 9m + 9m",
        "tsumo, seat S/prev S",
        "幺九刻 1, 独听・单钓 1, 自摸 1",
    ),
    (
        "M2",
        "[chi 123m] [chi 456p] [pon 777s] [ankan 1111z] 9m + 9m",
        "ron, seat S/prev S",
        "暗杠 2, 幺九刻 1, 独听・单钓 1",
    ),
    ("M3", "[ankan 1111z] 234m456p789s9m + 9m", "ron, seat S/prev S", "门前清 2, 暗杠 2, 幺九刻 1, 独听・单钓 1"),
    (
        "M6",
        "123m456p789s234s5p + 5p",
        "tsumo, wallLast, seat E/prev E",
        "花龙 8, 妙手回春 8, 不求人 4, 平和 2, 独听・嵌张 1",
    ),
    ("N1", "1122337788995m + 5m", "ron, seat E/prev E", "一色双龙会 64, 门前清 2, 独听・单钓 1"),
    ("N2", "112233m445566p7z + 7z", "ron, seat E/prev E", "七对 24, 缺一门 1"),
    (
        "N3",
        "111222333m111p9s + 9s",
        "ron, seat E/prev E",
        "四暗刻 64, 一色三节高 24, 双同刻 2, 幺九刻 1×2, 无字 1, 独听・单钓 1",
    ),
]

_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}


def parse_probe(text, flags):
    """Probe notation -> (WinContext, flowers)."""
    melds = []
    rest = text
    while rest.startswith("["):
        body, rest = rest[1:].split("]", 1)
        rest = rest.strip()
        kind, tiles = body.split()
        melds.append(
            {"chi": f"{tiles}@left", "pon": f"{tiles}@opposite", "kan": f"{tiles}@right", "ankan": f"[{tiles}]"}[kind]
        )
    standing, win = (x.strip() for x in rest.split("+"))
    fl = [f.strip() for f in flags.split(",")]
    tsumo = "tsumo" in fl
    n_flowers = next((int(f.split("=")[1]) for f in fl if f.startswith("flowers=")), 0)
    seat, prev = next(f for f in fl if f.startswith("seat")).replace("seat ", "").split("/prev ")
    hand = Hand(standing + win, melds=melds, bonus="".join(f"F{i + 1}" for i in range(n_flowers)))
    ctx = WinContext(
        hand,
        win_tile=win,
        self_draw=tsumo,
        discarder=None if tsumo else 1,
        winner=0,
        seat_wind=_WINDS[seat],
        prevalent_wind=_WINDS[prev],
        last_tile="wallLast" in fl,
        last_copy="4thTile" in fl,
        after_kong=tsumo and "aboutKong" in fl,
        robbing_kong=not tsumo and "aboutKong" in fl,
    )
    return ctx, n_flowers > 0


def parse_output(text):
    out = {}
    for item in text.split(","):
        name, val = item.strip().rsplit(" ", 1)
        v, _, n = val.partition("×")
        out[name] = int(v) * int(n or 1)
    return out


#: Probes of flag combinations no table produces (the reference scores whatever it is passed):
#: WinContext rejects them.
IMPOSSIBLE = {"D8": "robbing_kong"}  # 抢杠和 on the last tile of the wall


@pytest.mark.parametrize("pid, hand, flags, expected", PROBES, ids=[p[0] for p in PROBES])
def test_probe(pid, hand, flags, expected):
    if pid in IMPOSSIBLE:
        with pytest.raises(ValueError, match=IMPOSSIBLE[pid]):
            parse_probe(hand, flags)
        return
    ctx, flowers = parse_probe(hand, flags)
    s = score(ctx, "guobiao", flowers=flowers)
    got = {r[1]: r[3] for r in s.rows}
    assert got == parse_output(expected)
    fan = sum(v for k, v in got.items() if k != "花牌")
    assert s.total == sum(got.values())
    assert s.legal == (fan >= 8)
    assert can_win(ctx, "guobiao", flowers=flowers) == s.legal


def test_elements_frame_and_order():
    ctx, _ = parse_probe("[pon 111z] [pon 222z] 333z44z56m + 7m", "ron, seat E/prev S")
    s = score(ctx)
    df = s.elements
    assert list(df.columns) == ["code", "name_zh", "name_en", "value", "count", "total", "unit", "how"]
    assert df["name_zh"].tolist() == ["小四喜", "混一色", "圈风刻", "门风刻"]
    assert df["code"].tolist() == ["little_four_winds", "half_flush", "prevalent_wind", "seat_wind"]
    assert df["value"].dtype == np.int64 and (df["how"] == "add").all() and (df["unit"] == "番").all()
    assert s.elements is df  # built once


def test_settlement():
    ctx, _ = parse_probe("123m456p789s234s5p + 5p", "ron, seat E/prev E")  # 13 番
    s = score(WinContext(ctx.hand, win_tile="5p", winner=2, discarder=0))
    assert (s.total, s.points, s.legal) == (13, 21, True)
    assert s.payments.tolist() == [-21, -8, 24 + 13, -8] and s.payments.sum() == 0
    s = score(WinContext(ctx.hand, win_tile="5p", winner=3, self_draw=True))  # 不求人 instead of 门前清
    assert s.total == 15 and s.payments.tolist() == [-23, -23, -23, 69]
    # below 8: nothing is paid
    s = score(parse_probe("[chi 123m] 456p678s55m23s + 4s", "ron, flowers=7, seat E/prev E")[0], flowers=True)
    assert (s.total, s.legal, s.points) == (9, False, 0) and not s.payments.any()
    assert "below the 8-番 minimum" in s.reason


def test_decomposition_is_the_scored_reading():
    # N3: 四暗刻 (111 222 333m) beats the 一色三同顺 reading (123m ×3)
    ctx, _ = parse_probe("111222333m111p9s + 9s", "ron, seat E/prev E")
    d = score(ctx).decomposition
    assert d.form == "standard" and d.groups() == ["111m", "222m", "333m", "111p", "99s"]
    # N2: 七对 beats 一般高 ×2
    ctx, _ = parse_probe("112233m445566p7z + 7z", "ron, seat E/prev E")
    assert score(ctx).decomposition.form == "seven_pairs"
    # N1: 一色双龙会 beats 七对 on the same tiles
    ctx, _ = parse_probe("1122337788995m + 5m", "ron, seat E/prev E")
    assert score(ctx).decomposition.groups() == ["123m", "123m", "789m", "789m", "55m"]
    ctx, _ = parse_probe("[kan 1111m] [ankan 2222p] 456s789s5z + 5z", "ron, seat E/prev E")
    d = score(ctx).decomposition
    assert d.sets[:2] == (("kong", 0, False), ("kong", 10, True)) and d.waits == {"tanki"}
    for hand, form in [
        ("147m258s369p111z5z + 5z", "knitted_straight"),
        ("19m19s19p1234567z + 1m", "thirteen_orphans"),
        ("147m25s36p123456z + 7z", "honors_and_knitted"),
        ("1112345678999m + 5m", "nine_gates"),
    ]:
        assert score(parse_probe(hand, "ron, seat E/prev E")[0]).decomposition.form == form


def test_not_a_winning_hand():
    ctx = WinContext(Hand("123m456p789s23456s"), win_tile="6s", discarder=1)
    with pytest.raises(ValueError, match="hand not complete"):
        score(ctx)
    assert can_win(ctx) is False


def test_flower_option():
    ctx = WinContext(Hand("1112345678999m5m", bonus="F1F5"), win_tile="5m", discarder=1)
    with pytest.raises(ValueError, match="flowers=True"):
        score(ctx)
    s = score(ctx, flowers=True)
    assert s.total == 91 + 2 and s.rows[-1][1:5] == ("花牌", "Flower Tiles", 2, 2)
    with pytest.raises(ValueError, match="True or False"):
        score(ctx, flowers="yes")
    bad = WinContext(Hand("1112345678999m5m", bonus="5z"), win_tile="5m", discarder=1)
    with pytest.raises(ValueError, match="春夏秋冬"):
        score(bad, flowers=True)
    # can_win checks the flowers the same way
    assert can_win(ctx, flowers=True)
    for c, kw, message in (
        (ctx, {}, "flowers=True"),
        (ctx, {"flowers": "yes"}, "True or False"),
        (bad, {"flowers": True}, "春夏秋冬"),
    ):
        with pytest.raises(ValueError, match=message):
            can_win(c, **kw)


def test_bound_scorer_matches_the_registered_one(seed):
    """score()/can_win() run the scorer ``_bind`` specialised; calling the registered
    functions with the rule and options gives the same results."""
    from mjfast.rules import get
    from mjfast.scoring.guobiao import can_win_guobiao, score_guobiao

    rng = random.Random(seed + 2)
    rules_ = [get("guobiao"), get("guobiao", exclusions="v2", lianzhong_extras=True)]
    for _ in range(300):
        ctx, flowers, _args = random_win(rng)
        rule = rng.choice(rules_)
        a, b = score(ctx, rule, flowers=flowers), score_guobiao(ctx, rule, flowers=flowers)
        assert (a.total, a.points, a.legal, a.reason, a.rows) == (b.total, b.points, b.legal, b.reason, b.rows)
        assert a.payments.tolist() == b.payments.tolist() and a.decomposition == b.decomposition
        assert can_win(ctx, rule, flowers=flowers) == can_win_guobiao(ctx, rule, flowers=flowers)


def test_fan_table():
    t = fan_table()
    assert len(t) == 82 and t["value"].sum() == sum(M.FAN_VALUE)
    assert t.loc[t["name_zh"] == "双暗杠", "value"].item() == 6
    assert len({f[1] for f in FANS}) == 82
    with pytest.raises(ValueError):
        fan_table("wmo")


# ---------------------------------------------------------------------------------------------
# deliberate differences from the reference (guobiao.md GB-C*, guobiao_fans.md §3), each pinned
def test_rejected_inputs():
    # M7: a fifth copy of 1m is accepted by the reference, rejected here
    with pytest.raises(ValueError, match="copies"):
        Hand("111222m5z5z", melds=["123m@left", "123m@left"])
    # G9: winds out of range are accepted by the reference (no wind fans), rejected here
    with pytest.raises(ValueError, match="seat_wind"):
        WinContext(Hand("123m456p789s23455m"), win_tile="5m", discarder=1, seat_wind=7)
    # M4/M5: a PENG/CHI passed "not melded" (offer 0) scores 门前清 and a concealed pung in the
    # reference; a mjfast pung or chow meld is always exposed (a concealed set simply stays
    # among the concealed tiles), so the same tiles score as an exposed pung here.
    ctx = WinContext(
        Hand("234m456p789s99m", melds=["111z"]), win_tile="9m", discarder=1, seat_wind="S", prevalent_wind="S"
    )
    assert {r[1]: r[3] for r in score(ctx).rows} == {"幺九刻": 1, "独听・单钓": 1}


def _ctx(text, flags="ron, seat E/prev E"):
    return parse_probe(text, flags)[0]


def test_option_selfdraw_buqiuren():
    """GB-C2: self-drawn 十三幺 / 连七对 / 九莲宝灯 score 不求人 instead of 自摸 (default: 自摸)."""
    for hand, base in [("19m19s19p1234567z + 1m", 88), ("2233445566778s + 8s", 90), ("1112345678999m + 5m", 91)]:
        ctx = _ctx(hand, "tsumo, seat E/prev E")
        names = {r[1] for r in score(ctx).rows}
        assert "自摸" in names and "不求人" not in names
        s = score(ctx, selfdraw_buqiuren=True)
        assert {r[1] for r in s.rows} == (names - {"自摸"}) | {"不求人"} and s.total == base + 4
    # 七对 is not affected (GB-C2 names 十三幺 and 连七对 only)
    ctx = _ctx("1133m5577p99s11z6z + 6z", "tsumo, seat E/prev E")
    assert score(ctx, selfdraw_buqiuren=True).total == 31


def test_option_qingyaojiu_tongke():
    """GB-C7: 清幺九 drops 双同刻 by default (the reference); the option keeps it."""
    ctx = _ctx("[pon 111m] 111p999m999p9s + 9s")  # H3: 清幺九 + 双同刻 ×2 dropped
    assert score(ctx).total == 81
    s = score(ctx, qingyaojiu_tongke=True)
    assert dict((r[1], r[3]) for r in s.rows)["双同刻"] == 4 and s.total == 85
    ctx = _ctx("[pon 111m] 111p111s999m9p + 9p")  # H2: 三同刻 is kept either way
    assert score(ctx).total == score(ctx, qingyaojiu_tongke=True).total == 97


def test_option_exclusions_v2():
    """GB-C1 v2: 大四喜 / 小四喜 / 清幺九 keep their 幺九刻, 清幺九 keeps 全带幺."""
    g4 = _ctx("[pon 111z] [pon 222z] 333z444z5m + 5m", "ron, seat E/prev E")
    assert score(g4).total == 97
    assert dict((r[1], r[3]) for r in score(g4, exclusions="v2").rows)["幺九刻"] == 4
    g2 = _ctx("[pon 111z] [pon 222z] 333z44z56m + 7m", "ron, seat E/prev S")
    # 3 wind pungs: E (prevalent... no: seat E, prevalent S) lose one 幺九刻 each
    assert dict((r[1], r[3]) for r in score(g2, exclusions="v2").rows)["幺九刻"] == 1
    h3 = _ctx("[pon 111m] 111p999m999p9s + 9s")
    rows = dict((r[1], r[3]) for r in score(h3, exclusions="v2").rows)
    assert rows["幺九刻"] == 4 and rows["全带幺"] == 4


def test_option_lianzhong_extras():
    """guobiao.md §4 联众 hands replace the fan total; default off."""
    h = Hand("123m456p789s234s55p")
    heavenly = WinContext(h, win_tile="5p", self_draw=True, winner=0, dealer=0, heavenly=True)
    assert score(heavenly).total == 15
    s = score(heavenly, lianzhong_extras=True)
    assert s.total == 168 and s.rows[-1][6] == "replace" and s.rows[-1][1] == "天和"
    assert s.payments.tolist() == [3 * 176, -176, -176, -176]
    earthly = WinContext(h, win_tile="5p", self_draw=True, winner=1, earthly=True)
    assert score(earthly, lianzhong_extras=True).total == 158
    human = WinContext(h, win_tile="5p", discarder=0, winner=1, human=True)
    assert score(human, lianzhong_extras=True).total == 108
    fw = _ctx("[pon 111z] [pon 222z] 333z444z6z + 6z")
    assert score(fw, lianzhong_extras=True).total == 168
    fw_earthly = WinContext(fw.hand, win_tile="6z", self_draw=True, winner=1, earthly=True)
    assert score(fw_earthly, lianzhong_extras=True).total == 168  # the highest applies
    weak = WinContext(Hand("123m456p678s234s55p"), win_tile="5p", discarder=0, winner=2, human=True)
    assert not can_win(weak) and can_win(weak, lianzhong_extras=True)


# ---------------------------------------------------------------------------------------------
# random winning hands, built constructively, against PyMahjongGB
_ORPH = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
_KNIT = [tuple(M.FROM_REF[t] for t in k) for k in M.KNITTED]
_GREEN = [19, 20, 21, 23, 25, 32]
_REF_CODE = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)
_SRC = ("left", "opposite", "right")
_NOT_WINDS = [t for t in range(34) if t not in (27, 28, 29, 30)]


def _palette(rng):
    r = rng.random()
    if r < 0.35:
        return list(range(34))
    if r < 0.55:
        s = rng.randrange(3)
        return list(range(9 * s, 9 * s + 9)) + (list(range(27, 34)) if rng.random() < 0.5 else [])
    if r < 0.65:
        return _ORPH
    if r < 0.72:
        return list(range(27, 34)) + [rng.randrange(27)]
    if r < 0.77:
        return _GREEN
    if r < 0.85:
        lo = rng.choice([0, 3, 5, 6])
        return [9 * s + k for s in range(3) for k in range(lo, min(9, lo + 4))]
    if r < 0.92:
        return [9 * s + k for s in range(3) for k in (1, 3, 5, 7)] + [4, 13, 22]
    return list(range(27))


def _regular(rng):
    """4 sets + a pair from a random palette; some sets become melds (kongs always do)."""
    while True:
        pal = _palette(rng)
        used = [0] * 34
        sets = []
        n_melds = rng.choice([0, 0, 0, 1, 1, 2, 2, 3, 4])
        for k in range(4):
            chow = rng.random() < 0.45
            for _ in range(30):
                t = rng.choice(pal)
                if chow and t < 27 and t % 9 <= 6:
                    if all(used[t + d] < 4 for d in range(3)):
                        for d in range(3):
                            used[t + d] += 1
                        sets.append(("chow", t))
                        break
                elif not chow:
                    n = 4 if (k < n_melds and rng.random() < 0.3) else 3
                    if used[t] + n <= 4:
                        used[t] += n
                        sets.append(("kong" if n == 4 else "pung", t))
                        break
            else:
                break
        if len(sets) < 4:
            continue
        pairs = [t for t in pal if used[t] <= 2]
        if not pairs:
            continue
        return _realise(rng, sets, rng.choice(pairs), n_melds)


def _realise(rng, sets, pair, n_melds):
    """Concealed counts and meld strings for 4 sets + a pair; the first ``n_melds`` sets
    (after shuffling; kongs first, as they must be melds) are called, with random sources."""
    rng.shuffle(sets)
    sets.sort(key=lambda s: s[0] != "kong")
    n_melds = max(n_melds, sum(s[0] == "kong" for s in sets))
    melds, c = [], [0] * 34
    for i, (kind, t) in enumerate(sets):
        text = (
            "".join(
                str(x % 9 + 1) for x in ((t, t + 1, t + 2) if kind == "chow" else (t,) * (4 if kind == "kong" else 3))
            )
            + "mpsz"[t // 9]
        )
        if i < n_melds:
            if kind == "chow":
                melds.append(f"{text}@left")
            elif kind == "pung":
                melds.append(f"{text}@{rng.choice(_SRC)}")
            else:
                melds.append(
                    rng.choice([f"{text}@{rng.choice(_SRC)}", f"+{text}@{rng.choice(_SRC)}", f"[{text}]", f"[{text}]"])
                )
        elif kind == "chow":
            for d in range(3):
                c[t + d] += 1
        else:
            c[t] += 3
    c[pair] += 2
    return c, melds


def _template(rng):
    """Rare shapes a random draw seldom builds: 一色/三色双龙会, 四杠, 清幺九, 大四喜, 全带五."""
    f = rng.random()
    n_melds = rng.choice([0, 0, 1, 2, 3, 4])
    if f < 0.15:
        ends = rng.sample([0, 8, 9, 17, 18, 26], 5)
        return _realise(rng, [("pung", t) for t in ends[:4]], ends[4], n_melds)
    if f < 0.3:
        return _realise(rng, [("pung", t) for t in (27, 28, 29, 30)], rng.choice(_NOT_WINDS), n_melds)
    if f < 0.45:
        sets = [
            rng.choice([("chow", 9 * s + rng.randint(2, 4)), ("pung", 9 * s + 4)])
            for s in (rng.randrange(3) for _ in range(4))
        ]
        pair = 9 * rng.randrange(3) + 4
        used = [0] * 34
        for kind, t in sets + [("pair", pair)]:
            for d in (0, 1, 2) if kind == "chow" else (0,) * (3 if kind == "pung" else 2):
                used[t + d] += 1
        if max(used) > 4:
            return _template(rng)
        return _realise(rng, sets, pair, n_melds)
    if f < 0.65:
        s = rng.randrange(3)
        sets = [("chow", 9 * s), ("chow", 9 * s), ("chow", 9 * s + 6), ("chow", 9 * s + 6)]
        return _realise(rng, sets, 9 * s + 4, n_melds)
    if f < 0.85:
        a, b, p = rng.sample(range(3), 3)
        sets = [("chow", 9 * a), ("chow", 9 * a + 6), ("chow", 9 * b), ("chow", 9 * b + 6)]
        return _realise(rng, sets, 9 * p + 4, n_melds)
    kinds = rng.sample(range(34), 5)
    return _realise(rng, [("kong", t) for t in kinds[:4]], kinds[4], 4)


def _special(rng):
    f = rng.random()
    c = [0] * 34
    if f < 0.3:  # 七对 (four of a kind allowed)
        pal = _palette(rng)
        while sum(c) < 14:
            t = rng.choice(pal)
            if c[t] <= 2:
                c[t] += 2
        return c, []
    if f < 0.4:  # 连七对
        s, lo = rng.randrange(3), rng.randrange(3)
        for k in range(7):
            c[9 * s + lo + k] = 2
        return c, []
    if f < 0.5:  # 十三幺
        for t in _ORPH:
            c[t] = 1
        c[rng.choice(_ORPH)] += 1
        return c, []
    if f < 0.7:  # 全不靠 / 七星不靠
        nh = rng.randint(5, 7)
        for t in rng.sample(list(rng.choice(_KNIT)), 14 - nh) + rng.sample(range(27, 34), nh):
            c[t] += 1
        return c, []
    if f < 0.9:  # 组合龙 + set + pair, the set concealed or melded
        for t in rng.choice(_KNIT):
            c[t] += 1
        t = rng.randrange(34)
        chow = t < 27 and t % 9 <= 6 and rng.random() < 0.5
        mc = [0] * 34
        melds = []
        if rng.random() < 0.4:
            text = ("".join(str(t % 9 + d + 1) for d in range(3)) if chow else str(t % 9 + 1) * 3) + "mpsz"[t // 9]
            if not chow and rng.random() < 0.3:
                text = str(t % 9 + 1) + text
                melds = [rng.choice([f"[{text}]", f"{text}@right"])]
                mc[t] += 4
            else:
                melds = [f"{text}@left"]
                for d in range(3 if chow else 1):
                    mc[t + d] += 1 if chow else 3
        else:
            for d in range(3 if chow else 1):
                c[t + d] += 1 if chow else 3
        c[rng.randrange(34)] += 2
        if any(c[i] + mc[i] > 4 for i in range(34)):
            return _special(rng)
        return c, melds
    s = rng.randrange(3)  # 九莲宝灯 on any tile of the suit
    for k, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
        c[9 * s + k] = n
    c[9 * s + rng.randrange(9)] += 1
    return c, []


def random_win(rng):
    """(WinContext, flowers, oracle call arguments) for one random winning hand."""
    r = rng.random()
    c, melds = _special(rng) if r < 0.25 else _template(rng) if r < 0.29 else _regular(rng)
    win = rng.choice([i for i in range(34) for _ in range(c[i])])
    tsumo = rng.random() < 0.45
    kong = rng.random() < 0.12
    n_fl = rng.choice([0, 0, 0, 1, 2, 5, 8])
    winner, dealer = rng.randrange(4), rng.randrange(4)
    hand = Hand(np.array(c, np.uint8), melds=melds, bonus="".join(f"F{i + 1}" for i in range(n_fl)))
    ctx = WinContext(
        hand,
        win_tile=win,
        self_draw=tsumo,
        winner=winner,
        dealer=dealer,
        discarder=None if tsumo else (winner + rng.randrange(1, 4)) % 4,
        prevalent_wind=rng.randrange(4),
        last_copy=rng.random() < 0.12,
        last_tile=rng.random() < 0.1 and (tsumo or not kong),  # no 抢杠 on the last tile
        after_kong=tsumo and kong,
        robbing_kong=kong and not tsumo,
    )
    packs = []
    for m in hand.melds:
        t = m.tiles[0]
        if m.kind == "chow":
            packs.append(("CHI", _REF_CODE[t + 1], rng.randint(1, 3)))
        elif m.kind == "pung":
            packs.append(("PENG", _REF_CODE[t], 1 + _SRC.index(m.source)))
        else:
            packs.append(("GANG", _REF_CODE[t], 0 if m.kind == "concealed_kong" else 1 + _SRC.index(m.source)))
    rest = list(c)
    rest[win] -= 1
    standing = tuple(_REF_CODE[i] for i in range(34) for _ in range(rest[i]))
    args = (
        tuple(packs),
        standing,
        _REF_CODE[win],
        n_fl,
        tsumo,
        ctx.last_copy,
        kong,
        ctx.last_tile,
        ctx.seat_wind,
        ctx.prevalent_wind,
    )
    return ctx, n_fl > 0, args


N_RANDOM = 20_000


@pytest.mark.slow
def test_random_hands_match_reference(seed):
    mg = pytest.importorskip("MahjongGB")
    rng = random.Random(seed)
    seen = set()
    forms = set()
    flags = set()
    for i in range(N_RANDOM):
        ctx, flowers, args = random_win(rng)
        ref = mg.MahjongFanCalculator(*args, verbose=True)
        want = {name: (v * n, n) for v, n, name, _en in ref}
        s = score(ctx, "guobiao", flowers=flowers)
        got = {r[1]: (r[3], r[4]) for r in s.rows}
        assert got == want, (i, str(ctx.hand), ctx)
        assert {r[2] for r in s.rows} == {en for _v, _n, _z, en in ref}
        fan = sum(v for k, (v, _n) in want.items() if k != "花牌")
        assert s.total == fan + args[3] and s.legal == (fan >= 8)
        assert s.payments.sum() == 0
        seen |= set(got)
        forms.add(s.decomposition.form)
        flags.add((ctx.self_draw, ctx.after_kong or ctx.robbing_kong, ctx.last_tile, ctx.last_copy))
    # every fan of the table was produced at least once (the sample covers the whole table)
    assert seen == {f[2] for f in FANS}, {f[2] for f in FANS} - seen
    assert forms >= {
        "standard",
        "seven_pairs",
        "thirteen_orphans",
        "honors_and_knitted",
        "knitted_straight",
        "nine_gates",
    }
    # every flag combination a table produces (抢杠和 is never on the last tile of the wall)
    assert len(flags) == 14


def test_kernel_matches_python_twin(seed):
    """The compiled fan search and the pure-Python one agree on fans and readings, options included."""
    from mjfast.scoring import guobiao as G

    rng = random.Random(seed + 1)
    for _ in range(3000):
        ctx, _flowers, _args = random_win(rng)
        opts = rng.randrange(8)
        a = G._compute(ctx, opts, pure_python=True)
        b = G._compute(ctx, opts, pure_python=False)
        assert a[0] == b[0] == M.fan_total(a[1])
        assert list(a[1]) == list(b[1])
        assert G._reading(a[2]) == G._reading(b[2])
        assert G._decomposition(ctx, a[2]) == G._decomposition(ctx, b[2])


def test_kernel_result_type():
    """The kernel returns an instance of the Found subclass it is given, and only of one."""
    from mjfast._kernels import _mcr as K
    from mjfast.scoring import guobiao as G

    ctx = WinContext(Hand("1112345678999m5m"), win_tile="5m", discarder=1)
    args = (ctx.hand.counts, (), ctx.win_tile, False, False, False, False, 0, 0, 0)
    f = K.mcr_calculate(*args, G._Found)
    assert type(f) is G._Found and f.total == G._compute(ctx, 0)[0] > 0
    assert type(K.mcr_calculate(*args)) is K.Found
    with pytest.raises(TypeError, match="Found or a subclass"):
        K.mcr_calculate(*args, tuple)
    g = pickle.loads(pickle.dumps(K.mcr_calculate(*args)))
    assert type(g) is K.Found and (g.total, g.fans, g.reading) == (f.total, f.fans, f.reading)


@pytest.mark.parametrize(
    "meld, why",
    [
        ((1, 7, True), "rank 1-7"),  # a chow from 8m
        ((1, 27, True), "rank 1-7"),  # a chow of honours
        ((2, 34, True), "tile id is 0-33"),
        ((2, -1, True), "tile id is 0-33"),
        ((4, 0, True), "type is 1"),
    ],
)
def test_the_fan_search_refuses_melds_it_cannot_read(meld, why):
    """A meld the search would read outside its tables is refused before the search."""
    from mjfast._kernels import _mcr as K

    h = Hand("1112345678999m5m")
    with pytest.raises(ValueError, match=why):
        K.mcr_calculate(h.counts, (meld,), 4, False, False, False, False, 0, 0, 0)


def test_scores_pickle(seed):
    """A Score pickles with its lazy parts unread (they rebuild from the kernel's result)."""
    rng = random.Random(seed + 3)
    legal = set()
    for _ in range(100):
        ctx, flowers, _args = random_win(rng)
        s = score(ctx, "guobiao", flowers=flowers)
        t = pickle.loads(pickle.dumps(s))
        assert (t.total, t.points, t.legal, t.reason, t.rows, t.decomposition) == (
            s.total,
            s.points,
            s.legal,
            s.reason,
            s.rows,
            s.decomposition,
        )
        assert t.payments.tolist() == s.payments.tolist()
        legal.add(s.legal)
    assert legal == {True, False}
