"""瑞金麻将 Ruijin: 140 tiles (4 花), 宝 wildcard, honour chows, 烂胡, 飞 (rules/ruijin_shangrao.md).

⚑ defaults used here (not in the seeds):

* Deal: dealer 14, others 13.
* The 4 花 are taken as 春夏秋冬 (``F1``–``F4``); the seed gives only their number.
* 假宝: when the 宝 is not a flower the 花 play as the 宝's natural face; they are not replaced
  as flowers and score nothing (so ``Rule.flowers`` is False).
* RS-A2: the flipped indicator is out of play (花宝 leaves 3 wild flowers).
* RS-A3: honour chows (any 3 different winds / dragons) are sets in a winning hand.  The rule
  declares them as ``Calls.chow_honours``; every layer reads that fact through the kernel bridge
  (shanten, 进张, 一进听, discard tables, decompositions, draw and game simulations), a 宝 may
  stand in a concealed one.  They may be called too ("1，只能吃上家的牌。2，… 中发白任何三个可以
  互吃，东南西北风任何三个也可以互吃": from 上家 only): a :class:`~mjfast.Meld` such as
  ``"124z@left"`` (东南北), which ``can_win``, ``score``, ``shanten(melds=...)`` and
  ``call_vs_pass`` accept under this rule, and the game engine offers the call to its players
  and to user policies like a suit chow.
* RS-A5: ``fei_mult=2`` (飞 pays 2 × self-draw); the file lists no other value.
* Several winners on one discard (G-A1; the Ruijin text is silent).
* Claim priority (G-A1): 胡 > 杠 = 碰 > 吃 (a pung beats a chow even after it was made).
* Option value name ``lanhu="general"`` for the general 烂胡 reading (RS-C3 default).

Engine facts: 天胡 the dealer on the deal, 瑞金 地胡 a win on the dealer's first discard; a drawn
winning 宝 is reported as such; 飞 (§5 制飞): a player may decline a complete hand to wait with a
lone 宝 — the wait counts once a full go-around has passed without 碰, 杠 or 胡 ("制飞成功后还要空 转一圈"),
and he may no longer win on a discard ("制飞后不能平胡"). Declining is a policy's choice. A 宝 may stand
in a called chow ("如果含有宝，算吃成功，但宝不能拿起来了": ``usable_in_calls=("chow",)``): one or two
of its tiles, and it stays in the meld (:attr:`mjfast.Meld.wilds`); 上饶 does not allow it (G-A5).
In a match: the winner deals, the dealer stays on 荒牌 (⚑ RS-A7); the prevalent wind advances after every four
changes of dealer (⚑ the file is silent; ``simulate_matches(wind="hands")`` advances it every
four hands instead).
"""

from __future__ import annotations

from typing import Any

from ._base import (
    DRAGONS,
    SEASONS,
    WINDS,
    Calls,
    EngineFacts,
    Rule,
    WildcardScheme,
    make_tileset,
    standard_successors,
)

NAME = "ruijin"
NAME_ZH = "瑞金麻将"

OPTIONS: dict[str, tuple] = {
    "lanhu": ("general", "strict"),
    "fei_mult": (2,),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "lanhu": {
        "meaning": "which 烂胡 (garbage hand) shapes are allowed",
        "values": {
            "general": "14 distinct tiles, same-suit tiles at least 3 apart, honours all different",
            "strict": "exactly 3 tiles per suit and 5 honours (ADG*3+5)",
        },
        "spec": "RS-C3",
        "source": "ADG*3+5/7东南西北中发白（万条筒要跳2张以上） / 序数牌间隔大于等于3，字牌没有重复",
    },
    "fei_mult": {
        "meaning": "payment of a 飞 (wildcard-head) win, as a multiple of a self-draw's (the seed gives none)",
        "values": {2: "twice a self-draw"},
        "spec": "RS-A5",
        "source": None,
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("ruijin", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 14858 discard wins per 5127 discard-legal self-draws (ρ = 2.898), 98.4 tiles unseen at the win.
DISCARD_HAZARD = 0.00982

#: The value players' weights that differ here from the other rules' (``_game.VALUE_KNOBS``): a call
#: is made only when it raises the hand's rating.  Measured by duplicate matches of ``Value()``
#: against ``Efficiency()`` (10,000 walls, ``rng=20261203``): +0.0279 ± 0.0065 stakes (+4.3 SE) so,
#: +0.0004 ± 0.0065 (+0.1 SE) when faster calls keeping half the rating are made too.
VALUE_KNOBS = {"call_keep": float("inf")}

#: The 4 花 of the 140-tile set ("再加4个花一共就是140张").
FLOWERS: dict[str, int] = {code: 1 for code in SEASONS}


def successor_table() -> dict[str, tuple[str, ...]]:
    """宝 = successor of the flipped tile; a flipped 花 makes the 花 宝 ("如果是花就是花宝")."""
    table = standard_successors(dragon_cycle=("7z", "6z", "5z"))  # 中→发→白→中
    table.update({code: tuple(FLOWERS) for code in FLOWERS})
    return table


def build(options: dict[str, Any]) -> Rule:
    """Build the Ruijin rule from resolved options."""
    tileset = make_tileset(bonus=FLOWERS)
    faces = {code: tileset.face_copies(code) for code in successor_table()}
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=tileset,
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=True, chow_honours=(WINDS, DRAGONS)),
        wildcard=WildcardScheme(
            name="宝",
            selection="flip_successor",
            copies=4,
            face_copies=faces,
            table=successor_table(),
            substitute=tuple(FLOWERS),
            usable_in_calls=("chow",),
        ),
        forms=frozenset({"standard", "seven_pairs", "thirteen_lan", "wild_head"}),
        thirteen_lan_strict=options["lanhu"] == "strict",
        unit="基数",
        flowers=False,
        engine=EngineFacts(
            hooks="mjfast.scoring.ruijin",
            win_is_wild=True,
            wild_head="go_around",
            first_turn=(("deal", "heavenly"), ("first_discard", "earthly")),
        ),
    )
