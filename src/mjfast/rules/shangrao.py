"""上饶麻将 Shangrao: 宝 wildcard, 十三浪, 九幺, 宝吊头, head bump (rules/ruijin_shangrao.md).

⚑ defaults used here (not in the seeds):

* RS-A1: 136 tiles, no flowers.
* Deal: dealer 14, others 13.
* 吃 only from 上家.
* RS-A2: the flipped indicator is out of play.
* G-A5: a 宝 cannot be used in calls.
* RS-A9: ``scoring="rj"`` (reuse the Ruijin table); the file lists no other value.
* Claim priority: 杠 > 吃 is sourced; 胡 on top and 杠 = 碰 are G-A1 defaults.
  One winner per discard (head bump, first counterclockwise from the discarder), but several
  players robbing one kong all win ("Several robbers may all win"; the first of them deals next).

Engine facts: a drawn winning 宝 is reported as such; 宝吊头: a player may decline a complete hand
to wait with a lone 宝, and his next own draw wins ("等下轮摸牌时任一张牌都可糊牌"); declining is a policy's
choice. In a match: the winner deals (of several robbers the first in order, "从打牌者按逆时
针方向，顺序在前者被定为“庄家”"), the dealer stays on 荒牌 (⚑ RS-A7); the prevalent wind advances after every
four changes of dealer (⚑ the file is silent; ``simulate_matches(wind="hands")`` advances it
every four hands instead).
"""

from __future__ import annotations

from typing import Any

from ._base import Calls, EngineFacts, Rule, WildcardScheme, make_tileset, standard_successors

NAME = "shangrao"
NAME_ZH = "上饶麻将"

OPTIONS: dict[str, tuple] = {
    "scoring": ("rj",),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "scoring": {
        "meaning": "the scoring table (the 上饶 text gives none)",
        "values": {"rj": "瑞金's table"},
        "spec": "RS-A9",
        "source": None,
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("shangrao", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 14909 discard wins per 5078 discard-legal self-draws (ρ = 2.936), 98.8 tiles unseen at the win.
DISCARD_HAZARD = 0.00990


def successor_table() -> dict[str, tuple[str, ...]]:
    """宝 = successor of the flipped tile ("翻开的牌为白，则中为宝")."""
    return standard_successors(dragon_cycle=("7z", "6z", "5z"))  # 中→发→白→中


def build(options: dict[str, Any]) -> Rule:
    """Build the Shangrao rule from resolved options."""
    tileset = make_tileset()
    faces = {code: tileset.face_copies(code) for code in successor_table()}
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=tileset,
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=False, robbing_multiple=True),
        wildcard=WildcardScheme(
            name="宝",
            selection="flip_successor",
            copies=4,
            face_copies=faces,
            table=successor_table(),
        ),
        forms=frozenset({"standard", "seven_pairs", "thirteen_lan", "nine_terminals", "wild_head"}),
        unit="基数",
        flowers=False,
        engine=EngineFacts(hooks="mjfast.scoring.shangrao", win_is_wild=True, wild_head="next_draw"),
    )
