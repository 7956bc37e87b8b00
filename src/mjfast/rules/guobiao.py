"""国标麻将 Guobiao / MCR: 136 tiles, 8+番 settlement (rules/guobiao.md, rules/guobiao_fans.md).

⚑ defaults used here (not in the seeds):

* 136 tiles, no flowers (GB-A3; the flower fan is out of scope).
* Deal: dealer 14, others 13; 吃 only from 上家.
* Claim priority (G-A1): 胡 > 杠 = 碰 > 吃, several winners allowed (the files are silent).
* GB-A4: four identical tiles count as two pairs in 七对.
* Forms follow the full MCR table (guobiao_fans.md): 七星不靠 / 全不靠
  (``honors_and_knitted``) and 组合龙 (``knitted_straight``).
* Option value names ``exclusions="union"`` (GB-C1 default) and ``False`` for the booleans
  whose default the file states but does not name.
"""
from __future__ import annotations

from typing import Any

from ._base import Calls, Rule, make_tileset

NAME = "guobiao"
NAME_ZH = "国标麻将"

OPTIONS: dict[str, tuple] = {
    "exclusions": ("union", "v2"),
    "selfdraw_buqiuren": (False, True),
    "qingyaojiu_tongke": (False, True),
    "lianzhong_extras": (False, True),
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("guobiao", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 11684 discard wins per 2409 discard-legal self-draws (ρ = 4.849), 63.0 tiles unseen at the win.
DISCARD_HAZARD = 0.02566

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
        tileset=make_tileset(),
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=True),
        wildcard=None,
        forms=FORMS,
        unit="番",
        flowers=False,
    )
