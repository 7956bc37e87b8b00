"""国标麻将 Guobiao / MCR: 136 tiles, 8+番 settlement (rules/guobiao.md, rules/guobiao_fans.md).

⚑ defaults used here (not in the seeds):

* 136 tiles, no flowers (GB-A3).  ``tileset=144`` plays the competition set with its 8 花牌
  (春夏秋冬梅兰竹菊): they are laid aside and replaced, and score 花牌 (1 番 each, not towards the
  8-番 minimum; ``mjfast.score`` needs ``flowers=True`` for such hands, which the game engine
  passes).  A win on a flower's replacement is not 杠上开花.
* Deal: dealer 14, others 13; 吃 only from 上家.
* Claim priority (G-A1): 胡 > 杠 = 碰 > 吃.  One winner per discard by default: the claimant
  nearest the discarder counter-clockwise wins (截和, as in the competition rules);
  ``yipao_duoxiang=True`` lets every claimant win (一炮多响).
* GB-A4: four identical tiles count as two pairs in 七对.
* Forms follow the full MCR table (guobiao_fans.md): 七星不靠 / 全不靠
  (``honors_and_knitted``) and 组合龙 (``knitted_straight``).
* Option value names ``exclusions="union"`` (GB-C1 default) and ``False`` for the booleans
  whose default the file states but does not name.

Engine facts: no 天和/地和/人和 in MCR; with ``lianzhong_extras`` the 联众 definitions (§4): 天和
the dealer wins on the deal, 地和 the dealer's 下家 self-draws on his first draw, 人和 any other win
before the dealer's second draw (no call made).  和绝张 is scored.  A match is 16 hands, four
rounds with every seat dealing once a round and no 连庄 (v3 "一场比赛打四圈，不设连庄"); before the
third round East swaps with South and West with North, and the original South deals first.
"""

from __future__ import annotations

from typing import Any

from ._base import PLANTS, SEASONS, Calls, EngineFacts, Rule, make_tileset

NAME = "guobiao"
NAME_ZH = "国标麻将"

OPTIONS: dict[str, tuple] = {
    "tileset": (136, 144),
    "exclusions": ("union", "v2"),
    "selfdraw_buqiuren": (False, True),
    "qingyaojiu_tongke": (False, True),
    "lianzhong_extras": (False, True),
    "yipao_duoxiang": (False, True),
    "sigang_angang": (False, True),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "tileset": {
        "meaning": "the tile set: 136 tiles without flowers, or the competition set with its 8 花牌 in play",
        "values": {
            136: "136 tiles, no flowers",
            144: "144 tiles: 春夏秋冬梅兰竹菊 laid aside, replaced and scored as 花牌 (1 番 each)",
        },
        "spec": "GB-A3",
        "source": None,
    },
    "exclusions": {
        "meaning": "which fans a big fan excludes (the seed's three versions differ)",
        "values": {"union": "the union of every version's exclusions", "v2": "version v2's lists"},
        "spec": "GB-C1",
        "source": "不重复计算：碰碰和、圈风刻、门风刻、三风刻 / 不计圈风刻、门风刻、三风刻、幺九刻、碰碰和",
    },
    "selfdraw_buqiuren": {
        "meaning": "whether a self-drawn 十三幺 or 连七对 adds 不求人",
        "values": {False: "no", True: "yes (version v3)"},
        "spec": "GB-C2",
        "source": "不计五门齐、不求人、单钓 / 不计五门齐、单钓，自摸加计不求人",
    },
    "qingyaojiu_tongke": {
        "meaning": "whether 清幺九 may add 双同刻 / 三同刻",
        "values": {False: "no (excluded)", True: "yes (version v3)"},
        "spec": "GB-C7",
        "source": "不计碰碰和、同刻、无字 / 不计碰碰和、全带幺、幺九刻、无字，可加计双同刻、三同刻",
    },
    "lianzhong_extras": {
        "meaning": "whether the non-MCR 联众 hands (四方大发, 天和, 地和, 人和, 混杠) score",
        "values": {False: "no (MCR only)", True: "yes"},
        "spec": None,
        "source": "四方大发168番（非国标牌型）",
    },
    "yipao_duoxiang": {
        "meaning": "who wins when several players can win on one discard",
        "values": {
            False: "截和: the nearest claimant counter-clockwise from the discarder",
            True: "一炮多响: every claimant wins",
        },
        "spec": None,
        "source": None,
    },
    "sigang_angang": {
        "meaning": "whether 四杠 also scores 暗杠 (2 番) for each concealed kong",
        "values": {
            False: "no: as the reference calculator, the concealed kongs count only towards 双/三/四暗刻",
            True: 'yes, as version v3 writes it ("暗杠加计")',
        },
        "spec": None,
        "source": "4个杠，暗杠加计",
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("guobiao", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 11684 discard wins per 2409 discard-legal self-draws (ρ = 4.849), 63.0 tiles unseen at the win.
DISCARD_HAZARD = 0.02566

#: The patterns the value players aim at here besides those of every rule
#: (``mjfast.policies.RULE_PATTERNS``): the chow patterns — 花龙 and 三色三同顺 alone make the 8-番
#: minimum, 清龙 and 一色三步高 are 16, 三色三步高 6 (with 平和 8) — and 五门齐 (6 番).
VALUE_PATTERNS = (
    "mixed_straight",
    "mixed_triple_chow",
    "pure_straight",
    "mixed_shifted_chows",
    "pure_shifted_chows",
    "five_gates",
)

#: The value players' weights that differ here from the other rules' (``_game.VALUE_KNOBS``): a
#: pattern's usual 进张 1.2 times a plain hand's and its rating divided by 0.8, not 1 (the 8-番
#: minimum makes a plain hand worth little: a ready hand without a fan route sits on illegal
#: wins), and a legal win passed when waiting for more 番 with the same 13 tiles is worth more
#: (``fan_wait`` 1: by the chance of the waits' self-draws and discards, ``fan_hazard`` the
#: calibrated discard hazard above, against their receipts).  Measured with 20,000 games
#: (``rng=20261201``, ``bench/realism.py``): draw 3.67 % against 6.66 % with the other rules'
#: weights, self-draw 28.48 % of wins against 31.50 %, 55.65 % of the legality checks accepted
#: against 33.75 %; duplicate matches against ``Efficiency()`` (20,000 walls): +0.2376 ± 0.0048
#: and +0.2487 ± 0.0048 stakes (``rng=`` 20261201, 20261204), against +0.2348 and +0.2458 without
#: the wait for more 番 and +0.2350 (20261201) with ``fan_wait`` 1.25.
VALUE_KNOBS = {"pattern_usual": 1.2, "pattern_margin": 0.8, "fan_wait": 1.0, "fan_hazard": DISCARD_HAZARD}

#: Win forms of the MCR table.
FORMS = frozenset(
    {
        "standard",
        "seven_pairs",
        "thirteen_orphans",
        "honors_and_knitted",
        "knitted_straight",
        "nine_gates",
    }
)


def build(options: dict[str, Any]) -> Rule:
    """Build the Guobiao rule from resolved options."""
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=make_tileset(bonus={code: 1 for code in SEASONS + PLANTS} if options["tileset"] == 144 else None),
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=bool(options["yipao_duoxiang"])),
        wildcard=None,
        forms=FORMS,
        unit="番",
        flowers=options["tileset"] == 144,
        engine=EngineFacts(
            hooks="mjfast.scoring.guobiao",
            last_copy=True,
            rounds="fixed",
            flower_bloom=False,
            seat_swaps=((2, (1, 0, 3, 2)),),
            first_turn=(("deal", "heavenly"), ("dealer_next_first_draw", "earthly"), ("first_round", "human"))
            if options["lianzhong_extras"]
            else (),
        ),
    )
