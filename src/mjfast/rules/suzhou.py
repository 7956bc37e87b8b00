"""苏州麻将 Suzhou: 花 counting, 152 tiles, 28 flowers, no chow, no wildcard (rules/suzhou.md).

⚑ defaults used here (not in the seeds):

* SZ-A2: claim priority 胡 > 杠 = 碰; several players may win on one discard (一炮多响).
* SZ-A3: four identical tiles count as two pairs in 七对.
* ``tileset=144``: the 20 flowers are 中发白 (12) + 春夏秋冬 (4) + 梅兰竹菊 (4) (suzhou.md §1).
* Option value names for the defaults that the file describes but does not name:
  ``dealer="winner"``, ``flower_faces="tile_list"``, ``dadiao_lock="exception"``.

Engine facts: call locks (§3) — a player who passed a 碰, or discarded one of three tiles he
held, may not 碰 / 杠 that kind before his own next draw (a passed 杠 cannot be declared before the
next draw either, which the engine's turn order already ensures); 漏胡 (§9 rules 1-2) — after
passing a win he wins on no discard before his next draw (the 大吊车 exception and rule 3, a win
passed for a 碰, are not modelled). 包饺子 / 送杠 liabilities (§7) are the scorer's ``win_state``
hook. In a match (§8): the winner deals, 一炮多响 the first winner from the discarder's 下家 (⚑), a
draw keeps the dealer (SZ-A7); ``dealer="dahu_keeps"`` reads "大胡不改變莊家" as: a win holding a 大胡
element ([001] 大胡 1-7) keeps the dealer, whoever won (⚑); two dice per hand give 豹子, and 滴零
follows a 豹子 hand or a 一炮多响; the prevalent wind advances after every four changes of dealer (⚑
the file is silent; ``simulate_matches(wind="hands")`` advances it every four hands instead).
"""

from __future__ import annotations

from typing import Any

from ._base import DRAGONS, PLANTS, SEASONS, Calls, EngineFacts, Rule, make_tileset

NAME = "suzhou"
NAME_ZH = "苏州麻将"

OPTIONS: dict[str, tuple] = {
    "tileset": (152, 144),
    "threshold": ("3_4", "2_3"),
    "threshold_counts": ("all", "hard_only"),
    "qidui": ("double_plus15", "flat10", "flat5"),
    "dadiaoche": ("plus5", "double", "both"),
    "songgang_scope": ("gangkai", "any_later_selfdraw"),
    "dealer": ("winner", "dahu_keeps"),
    "flower_faces": ("tile_list", "dabaiban"),
    "qianggang_exempt": (False, True),
    "daxiao_menqing": (True, False),
    "dadiao_lock": ("exception", "strict"),
    "discard_wind_triplet": ("concealed", "pung"),
}

#: What each option means, in one place (``mjfast.rules.describe`` and the rule's documentation page
#: show it): key -> ``meaning`` (one sentence), ``values`` (what each value does, default first),
#: ``spec`` (the id in the rule specification, or None) and ``source`` (the seed sentence(s) it comes
#: from, quoted; " / " separates the two sides of a contradiction).
OPTION_DOCS: dict[str, dict] = {
    "tileset": {
        "meaning": "size of the tile set: 152 tiles with 28 flowers, or 144 tiles with 20 flowers",
        "values": {
            152: "152 tiles, 28 flowers, walls of 19 stacks",
            144: "144 tiles, 20 flowers (中发白 + 春夏秋冬 + 梅兰竹菊), walls of 18 stacks",
        },
        "spec": "SZ-C1",
        "source": "共有152张牌…每个风圈19排，双层堆砌，合计38张牌 / 每個風圈18排，36張牌。144張牌中",
    },
    "threshold": {
        "meaning": "flower minimum (F: 花 beyond the base) to win without an exempt pattern: self-draw / discard",
        "values": {
            "3_4": "3 花 to self-draw, 4 花 to win on a discard",
            "2_3": "2 花 to self-draw, 3 花 on a discard (the newer fashion)",
        },
        "spec": "SZ-C6",
        "source": "硬花3花自摸，硬花4花冲 / 不过最近流行2花自摸，3花冲",
    },
    "threshold_counts": {
        "meaning": "which 花 count toward the flower minimum",
        "values": {
            "all": "every 花 except the base: hard flowers, wind pungs and kongs",
            "hard_only": "only the hard flowers (flower tiles) exposed",
        },
        "spec": "SZ-C7",
        "source": "硬花3花自摸，硬花4花冲 / 必须要四个以上的花（如红中、、发财等；风碰、、暗杠、风杠等也算花）",
    },
    "qidui": {
        "meaning": "value of a seven-pairs (七对) hand",
        "values": {
            "double_plus15": "15 花 and the hard flowers counted twice",
            "flat10": "a flat 10 花",
            "flat5": "a flat 5 花",
        },
        "spec": "SZ-C4",
        "source": "成牌后硬花翻倍后再另加15花 / 七对子：10花",
    },
    "dadiaoche": {
        "meaning": "value of 大吊车 (all four sets exposed, waiting on the last single tile)",
        "values": {"plus5": "+5 花", "double": "the settlement is doubled", "both": "+5 花 and the settlement doubled"},
        "spec": "SZ-C5",
        "source": "独听最后手中的一张牌。结算翻倍 / 大吊车：5花",
    },
    "songgang_scope": {
        "meaning": "when 送杠 applies (the player whose discard was konged pays for the other two on a self-draw)",
        "values": {
            "gangkai": "only a win on the kong's replacement tile (杠开), as 包饺子",
            "any_later_selfdraw": "any later self-draw of the konger in the same hand",
        },
        "spec": None,
        "source": "被對方杠牌后自摸，被杠牌方幫其他兩家付牌",
    },
    "dealer": {
        "meaning": "who deals the next hand",
        "values": {"winner": "the winner deals next", "dahu_keeps": "a big hand (大胡) does not change the dealer"},
        "spec": "SZ-C9",
        "source": "谁胡牌谁下一把坐庄 / 大胡不改變莊家",
    },
    "flower_faces": {
        "meaning": "which faces the 28 flowers are (no effect on scoring: every flower is 1 花)",
        "values": {
            "tile_list": "老鼠, 财神, 猫, 聚宝盆 and 4 百搭 besides the dragons, seasons and plants",
            "dabaiban": "4 百搭 and 4 frameless 白板 instead (the 太仓 set)",
        },
        "spec": "SZ-C3",
        "source": "硬花：指中发白，梅兰竹菊，春夏秋冬，4百搭，4大白板",
    },
    "qianggang_exempt": {
        "meaning": "whether robbing a kong (抢杠) is exempt from the flower minimum",
        "values": {False: "no: robbing a kong needs the self-draw minimum", True: "yes: it is on the exempt list"},
        "spec": "SZ-C8",
        "source": "小牌遵循3花以上（包括3花，抢杠当自摸），才能抢杠",
    },
    "daxiao_menqing": {
        "meaning": "whether 大小门清 (no flowers, no calls: 15 花) exists",
        "values": {True: "yes, 15 花", False: "no: a hand without 花 scores 大门清 (10)"},
        "spec": "SZ-C10",
        "source": "大小門清：無花，沒有碰過，沒有杠過。算15個花",
    },
    "dadiao_lock": {
        "meaning": "whether the 大吊车 exception to the missed-win lock applies",
        "values": {
            "exception": "after passing a win for a 碰 that leaves 大吊车, the first matching discard may still be won",
            "strict": "the lock applies as to any other hand",
        },
        "spec": "SZ-C13",
        "source": "如果别人跟着打出（第一次出现），他是可以胡的",
    },
    "discard_wind_triplet": {
        "meaning": "what a wind triplet completed by the winning discard (or the robbed tile) scores",
        "values": {
            "concealed": "the three winds in the hand after the win are a 风暗刻 (2 花)",
            "pung": "the discard makes it a claimed pung: a 风碰 (1 花, SZ-A4)",
        },
        "spec": "SZ-A4",
        "source": "风杠：胡牌后手上有3张相同的风算2个花",
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("suzhou", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 14560 discard wins per 4659 discard-legal self-draws (ρ = 3.125), 75.1 tiles unseen at the win.
DISCARD_HAZARD = 0.01386

#: The value players' weights that differ here from the other rules' (``_game.VALUE_KNOBS``): a
#: pattern's usual 进张 1.2 times a plain hand's (``pattern_usual``), for the 花 of 清一色 and
#: 混一色.  Measured by duplicate matches of ``Value()`` against ``Efficiency()`` (20,000 walls
#: each, ``rng=`` 20261201, 20261203, 20261204): +3.2, +2.0 and +3.4 SE, against +3.2 and +3.6 SE
#: (20261201, 20261204) with 0.6, and +1.6 SE (20261201) with 1.5; 清一色 + 混一色 1.47 % of wins
#: (20,000 games, ``rng=20261201``) against 0.42 %.
VALUE_KNOBS = {"pattern_usual": 1.2}

#: The value players rate their hands by the flowers they hold (``mjfast.policies.pattern_values``
#: with ``flowers=``), so that the 花 minimum (SZ-C6) enters at the seat's own count.  Duplicate
#: matches of ``Value()`` against ``Efficiency()`` (100,000 walls): +0.0148 ± 0.0024 stakes against
#: +0.0100 ± 0.0023 with the table of the average flowers (``rng=20261201``), +0.0155 ± 0.0024 against
#: +0.0127 ± 0.0023 (``rng=20261203``); by that table and the flowers still to come (each copy with a
#: chance of 0.08 or 0.16) it led by less.
VALUE_BY_FLOWERS = True


def _flowers(tileset: int, flower_faces: str) -> dict[str, int]:
    dragons = {code: 4 for code in DRAGONS}
    seasons_plants = {code: 1 for code in SEASONS + PLANTS}
    if tileset == 144:
        if flower_faces != "tile_list":
            raise ValueError(
                "option suzhou.flower_faces='dabaiban' describes the 28-flower set; "
                "it cannot be combined with suzhou.tileset=144 (20 flowers)"
            )
        return {**dragons, **seasons_plants}
    if flower_faces == "dabaiban":  # "中发白，梅兰竹菊，春夏秋冬，4百搭，4大白板"
        return {**dragons, **seasons_plants, "BD": 4, "WB0": 4}
    # "老鼠/财神/猫/聚宝盆各1张…百搭4张"
    return {**dragons, **seasons_plants, "RAT": 1, "GOD": 1, "CAT": 1, "BOWL": 1, "BD": 4}


def build(options: dict[str, Any]) -> Rule:
    """Build the Suzhou rule from resolved options."""
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=make_tileset(dragons=False, bonus=_flowers(options["tileset"], options["flower_faces"])),
        deal=(14, 13),
        calls=Calls(chow="none", multiple_winners=True, priority=(("win",), ("kong", "pung"))),
        wildcard=None,
        forms=frozenset({"standard", "seven_pairs"}),
        unit="花",
        flowers=True,
        engine=EngineFacts(hooks="mjfast.scoring.suzhou", call_locks=True, win_lock="any", dice=True),
    )
