"""广东麻将 鸡平胡 Guangdong: 番 with a 3-番 爆胡 cap, 136 tiles, chow from 上家 (rules/guangdong.md).

⚑ defaults used here (not in the seeds):

* GD-A1: 九莲宝灯 is a concealed-only form.
* GD-A2: 七对 is not a legal shape.
* Claim priority: only 碰 > 吃 is sourced; 胡 on top and 杠 = 碰 are defaults.
* Option value names for defaults the file describes but does not name:
  ``min_fan=0`` (鸡胡 allowed), ``draw="stay"`` (连庄), ``bao_scope="first"``,
  ``cap_scheme="3"``.

Engine facts: 天和 / 地和 / 人和 as §4 defines them; 过水 (§7) — after passing a win a player cannot win
on that same kind before he 碰/吃/杠 or draws; the 包 liabilities of §5 are the scorer's
``win_state`` hook. In a match (§6): the dealer keeps the deal on a win (一炮多响 included) or a
draw (``draw="pass"``: the deal passes), otherwise his 下家 deals; the round wind advances after
the last seat has dealt and lost the deal, i.e. after every four changes of dealer.
"""

from __future__ import annotations

from typing import Any

from ._base import Calls, EngineFacts, Rule, make_tileset

NAME = "guangdong"
NAME_ZH = "广东鸡平胡"

OPTIONS: dict[str, tuple] = {
    "min_fan": (0, 1),
    "draw": ("stay", "pass"),
    "bao_scope": ("first", "per_discarder"),
    "adder_exposed_only": (False, True),
    "cap_scheme": ("3", "3-6", "2-5"),
    "baozimo_small": (False, True),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "min_fan": {
        "meaning": "minimum 番 to win",
        "values": {0: "0: the plain 鸡胡 may win", 1: "1: no 鸡胡"},
        "spec": "GD-C1",
        "source": "什么牌都可能胡，可吃碰杠 / 不可以鸡胡",
    },
    "draw": {
        "meaning": "who deals after an exhaustive draw (流局)",
        "values": {"stay": "the dealer stays (连庄)", "pass": "the deal passes on (过庄)"},
        "spec": "GD-C2",
        "source": "借使田舍胡牌或和牌（流局）则下盘仍然由该田舍做庄 / 桌主可以选择和牌（流局）连庄或者过庄",
    },
    "bao_scope": {
        "meaning": "which 包自摸 liabilities bind in one hand (包先不包后)",
        "values": {
            "first": "only the first liability of the hand",
            "per_discarder": "the first liability of each discarder",
        },
        "spec": "GD-C3",
        "source": "只接受最先达成包自模条件的人被这条规则约束…后来者则不需受这条规则约束",
    },
    "adder_exposed_only": {
        "meaning": "whether the seat-wind and dragon pung adders need an exposed (claimed) pung",
        "values": {False: "any pung or kong, concealed or exposed", True: "only a claimed pung or kong"},
        "spec": "GD-C4",
        "source": "碰出所坐的风位牌既有一番 / 拿到本盘家声的刻子",
    },
    "cap_scheme": {
        "meaning": "番 cap (爆胡) and floor (满)",
        "values": {"3": "cap 3 番", "3-6": "三番满六番爆", "2-5": "二番满五番爆"},
        "spec": "GD-C5",
        "source": "爆胡为3番 / 三番满六番爆",
    },
    "baozimo_small": {
        "meaning": "whether 小三元 and 小四喜 also create a special-hand 包自摸 liability",
        "values": {False: "only 大三元 and 大四喜", True: "also 小三元 and 小四喜"},
        "spec": None,
        "source": "大小三元、大小四喜等",
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("guangdong", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 15260 discard wins per 4705 discard-legal self-draws (ρ = 3.243), 86.8 tiles unseen at the win.
DISCARD_HAZARD = 0.01246

#: The value players' weights that differ here from the other rules' (``_game.VALUE_KNOBS``): a
#: pattern's usual 进张 as a plain hand's (``pattern_usual`` 1.0), for the 番 of 清一色, 混一色 and
#: 碰碰胡 above 鸡胡.  Measured by duplicate matches of ``Value()`` against ``Efficiency()`` (20,000
#: walls each, ``rng=`` 20261201, 20261203, 20261204): +2.5, +1.5 and +0.7 SE, against +1.5 and
#: +1.4 SE (20261201, 20261204) with 0.6; 清一色 / 混一色 (清碰 and 混碰 with them) 4.05 % of wins
#: (20,000 games, ``rng=20261201``) against 2.00 %.
VALUE_KNOBS = {"pattern_usual": 1.0}


def build(options: dict[str, Any]) -> Rule:
    """Build the Guangdong rule from resolved options."""
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=make_tileset(),
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=True),
        wildcard=None,
        forms=frozenset({"standard", "thirteen_orphans", "nine_gates"}),
        unit="番",
        flowers=False,
        engine=EngineFacts(
            hooks="mjfast.scoring.guangdong",
            win_lock="same_kind",
            first_turn=(("deal", "heavenly"), ("first_draw", "earthly"), ("first_discard", "human")),
        ),
    )
