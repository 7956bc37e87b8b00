"""四川麻将 Sichuan: 108 tiles, no chow, 缺一门, 刮风下雨, optional 血战到底 (rules/sichuan.md).

⚑ defaults used here (not in the seeds):

* Deal: dealer 14, others 13.
* Claim priority (G-A1): 胡 > 杠 = 碰.
* ``qianggang_fan=0`` and ``zimo_bonus=0``: 抢杠 and 自摸 add no 番.
* ``max_fan=None``: no fan cap (SC-A4); the option value ``6`` caps at the seed table's end.
* ``zimo_bonus`` allowed values: the file says "0 (default) or a positive 番 count"; the
  registry lists 0–6 (6 = the seed table's largest 番).

Engine facts: 定缺 after the deal (the suit held fewest, ⚑ SC-A1: the file describes no
declaration step; no call in that suit, a win needs none of it); 血战到底 with ``xuezhan``; 杠上炮 is
flagged. In a match (§8): the player who dealt in deals (点炮者坐庄), a self-draw winner after a
self-draw, 血战 the first winner or, after a 一炮多响 first win, the discarder (⚑ SC-A8), a draw keeps
the dealer; the prevalent wind advances after every four changes of dealer (⚑ the file is
silent; ``simulate_matches(wind="hands")`` advances it every four hands instead).
"""

from __future__ import annotations

from typing import Any

from ._base import Calls, EngineFacts, Rule, make_tileset

NAME = "sichuan"
NAME_ZH = "四川麻将"

OPTIONS: dict[str, tuple] = {
    "xuezhan": (False, True),
    "gen_counts_kongs": (False, True),
    "qianggang_fan": (0, 1),
    "zimo_bonus": (0, 1, 2, 3, 4, 5, 6),
    "max_fan": (None, 6),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "xuezhan": {
        "meaning": "血战到底: whether a win ends the hand",
        "values": {
            False: "the first win ends the hand",
            True: "the winners leave and play goes on until three have won or the wall is empty",
        },
        "spec": None,
        "source": "血战场中的血战模式指1家胡了并不结束该局而是未胡的玩家继续打",
    },
    "gen_counts_kongs": {
        "meaning": "whether a declared kong counts as a 根 (+1 番)",
        "values": {False: "no: only four identical tiles not declared as a kong", True: "yes, declared kongs too"},
        "spec": "SC-C3",
        "source": "四张同样的牌不作杠算1根",
    },
    "qianggang_fan": {
        "meaning": "番 added for robbing a kong (抢杠; not in the seed's table)",
        "values": {0: "0 番", 1: "+1 番"},
        "spec": None,
        "source": None,
    },
    "zimo_bonus": {
        "meaning": "番 added for a self-draw (自摸; not in the seed's table)",
        "values": {0: "+0 番", 1: "+1 番", 2: "+2 番", 3: "+3 番", 4: "+4 番", 5: "+5 番", 6: "+6 番"},
        "spec": None,
        "source": None,
    },
    "max_fan": {
        "meaning": "番 cap (the seed states none; its table stops at 6 番)",
        "values": {None: "no cap", 6: "at most 6 番"},
        "spec": "SC-A4",
        "source": None,
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("sichuan", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 15342 discard wins per 4437 discard-legal self-draws (ρ = 3.458), 63.3 tiles unseen at the win.
DISCARD_HAZARD = 0.01822

#: The value players' weights that differ here from the other rules' (``_game.VALUE_KNOBS``): a
#: pattern's usual 进张 as a plain hand's (``pattern_usual`` 1.0), so that 清一色 (×4, and a two-suit
#: hand under 定缺 is near one) is aimed at more.  Measured by duplicate matches of ``Value()``
#: against ``Efficiency()`` (20,000 walls each, ``rng=`` 20261201, 20261203, 20261204): +3.1, +4.3
#: and +6.3 SE, against +2.5 and +6.4 SE (20261201, 20261204) with 0.6; 清一色 + 混一色 0.87 % of
#: wins (20,000 games, ``rng=20261201``) against 0.57 %.
VALUE_KNOBS = {"pattern_usual": 1.0}


def build(options: dict[str, Any]) -> Rule:
    """Build the Sichuan rule from resolved options."""
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=make_tileset(winds=False, dragons=False),
        deal=(14, 13),
        calls=Calls(chow="none", multiple_winners=True, priority=(("win",), ("kong", "pung"))),
        wildcard=None,
        forms=frozenset({"standard", "seven_pairs"}),
        unit="番",
        flowers=False,
        # 缺一门: "胡牌的时候不能有三种花色的牌" — melds included
        max_suits=2,
        engine=EngineFacts(
            hooks="mjfast.scoring.sichuan",
            void_suit=True,
            play_on=bool(options["xuezhan"]),
            kong_discard=True,
            forced_win_left=4,  # "最后四张自动胡": no passing a win among the wall's last four tiles
        ),
    )
