"""广东麻将 鸡平胡 Guangdong: 番 with a 3-番 爆胡 cap, 136 tiles, chow from 上家 (rules/guangdong.md).

⚑ defaults used here (not in the seeds):

* GD-A1: 九莲宝灯 is a concealed-only form.
* GD-A2: 七对 is not a legal shape.
* Claim priority: only 碰 > 吃 is sourced; 胡 on top and 杠 = 碰 are defaults.
* Option value names for defaults the file describes but does not name:
  ``min_fan=0`` (鸡胡 allowed), ``draw="stay"`` (连庄), ``bao_scope="first"``,
  ``cap_scheme="3"``.
"""
from __future__ import annotations

from typing import Any

from ._base import Calls, Rule, make_tileset

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

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("guangdong", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 15260 discard wins per 4705 discard-legal self-draws (ρ = 3.243), 86.8 tiles unseen at the win.
DISCARD_HAZARD = 0.01246


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
    )
