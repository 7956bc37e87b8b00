"""四川麻将 Sichuan: 108 tiles, no chow, 缺一门, 刮风下雨, optional 血战到底 (rules/sichuan.md).

⚑ defaults used here (not in the seeds):

* Deal: dealer 14, others 13.
* Claim priority (G-A1): 胡 > 杠 = 碰.
* ``qianggang_fan=0`` and ``zimo_bonus=0``: 抢杠 and 自摸 add no 番.
* ``max_fan=None``: no fan cap (SC-A4); the option value ``6`` caps at the seed table's end.
* ``zimo_bonus`` allowed values: the file says "0 (default) or a positive 番 count"; the
  registry lists 0–6 (6 = the seed table's largest 番).
"""
from __future__ import annotations

from typing import Any

from ._base import Calls, Rule, make_tileset

NAME = "sichuan"
NAME_ZH = "四川麻将"

OPTIONS: dict[str, tuple] = {
    "xuezhan": (False, True),
    "gen_counts_kongs": (False, True),
    "qianggang_fan": (0, 1),
    "zimo_bonus": (0, 1, 2, 3, 4, 5, 6),
    "max_fan": (None, 6),
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("sichuan", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 15342 discard wins per 4437 discard-legal self-draws (ρ = 3.458), 63.3 tiles unseen at the win.
DISCARD_HAZARD = 0.01822


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
    )
