"""贵阳麻将 Guiyang: 108 tiles, no chow, 个数 units, 豆 and 鸡 (rules/guiyang.md).

⚑ defaults used here (not in the seeds):

* GY-A2: only the 平胡 hand needs a 通行证 to win on a discard (``pass_scope="pinghu"``).
* GY-A3: no 缺一门 requirement.
* Claim priority (G-A1): 胡 > 杠 = 碰; several winners allowed (一炮两响/三响 are named).
* Option value names: ``dou`` and ``dealer`` use the source letters, default ``"B"``
  (the file names only the alternative ``"A"``).

Engine facts: 冲锋鸡 is the first 1条 discarded and not claimed; a win on the discard that follows
the discarder's own kong is 烧豆 / 热炮 (``kong_discard``). In a match (§7): the winner deals, 一炮三响
the discarder (``dealer="B"``), 黄庄 by who is ready; a dealer winning his n-th consecutive deal
is paid 连庄 n (⚑ GY-A4); the prevalent wind advances after every four changes of dealer (⚑ the
file is silent; ``simulate_matches(wind="hands")`` advances it every four hands instead).
"""

from __future__ import annotations

from typing import Any

from ._base import Calls, EngineFacts, Rule, make_tileset

NAME = "guiyang"
NAME_ZH = "贵阳麻将"

OPTIONS: dict[str, tuple] = {
    "pass_scope": ("pinghu", "all_discard_wins"),
    "dou": ("B", "A"),
    "dealer": ("B", "A"),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "pass_scope": {
        "meaning": "which discard wins need a 通行证 (a 豆, i.e. a kong)",
        "values": {"pinghu": "only the basic 平胡 hand", "all_discard_wins": "every discard win"},
        "spec": "GY-A2",
        "source": "平胡可以自摸湖牌，或在有“豆”（杠）情况下允许点湖 / 可以平胡或自扣，平胡胡牌需要通行证",
    },
    "dou": {
        "meaning": "豆 (kong) payments: 闷豆 (concealed) / 转弯豆 (added), from each; 点豆 (direct), from the feeder",
        "values": {"B": "source B: 3 / 3 / 3", "A": "source A: 2 / 3 / 1"},
        "spec": "GY-C1",
        "source": "其他3个玩家每人给闷豆者2个 / 闷豆（暗杠），算3个豆，收3家",
    },
    "dealer": {
        "meaning": "who deals after one discard wins for several players (一炮多响)",
        "values": {"B": "the discarder deals", "A": "a winner deals"},
        "spec": "GY-C3",
        "source": "湖牌者接庄 / 一炮三响时，点炮的人当庄",
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("guiyang", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 4567 discard wins per 1657 discard-legal self-draws (ρ = 2.756), 60.8 tiles unseen at the win.
DISCARD_HAZARD = 0.01512

#: The value players' weights that differ here from the other rules' (``_game.VALUE_KNOBS``): no
#: defence (a 平胡 cannot win on a discard, and a discard that rates lower for its safety costs
#: more than it saves).  Measured by duplicate matches of ``Value()`` against ``Efficiency()``
#: (10,000 walls, ``rng=20261203``): +0.0720 ± 0.0195 stakes (+3.7 SE) so, −0.0554 ± 0.0198
#: (−2.8 SE) with the other rules' ``deal_in`` (0.01); the loss does not shrink with the weight
#: (−3.8 and −3.9 SE at 0.01 and 0.003 before shape worth broke ties).
VALUE_KNOBS = {"deal_in": 0.0}


def build(options: dict[str, Any]) -> Rule:
    """Build the Guiyang rule from resolved options."""
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
        unit="个",
        flowers=False,
        engine=EngineFacts(hooks="mjfast.scoring.guiyang", first_discard_kind="1s", kong_discard=True),
    )
