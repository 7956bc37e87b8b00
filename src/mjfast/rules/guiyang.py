"""贵阳麻将 Guiyang: 108 tiles, no chow, 个数 units, 豆 and 鸡 (rules/guiyang.md).

⚑ defaults used here (not in the seeds):

* GY-A2: only the 平胡 hand needs a 通行证 to win on a discard (``pass_scope="pinghu"``).
* GY-A3: no 缺一门 requirement.
* Claim priority (G-A1): 胡 > 杠 = 碰; several winners allowed (一炮两响/三响 are named).
* Option value names: ``dou`` and ``dealer`` use the source letters, default ``"B"``
  (the file names only the alternative ``"A"``).
"""
from __future__ import annotations

from typing import Any

from ._base import Calls, Rule, make_tileset

NAME = "guiyang"
NAME_ZH = "贵阳麻将"

OPTIONS: dict[str, tuple] = {
    "pass_scope": ("pinghu", "all_discard_wins"),
    "dou": ("B", "A"),
    "dealer": ("B", "A"),
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("guiyang", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 4567 discard wins per 1657 discard-legal self-draws (ρ = 2.756), 60.8 tiles unseen at the win.
DISCARD_HAZARD = 0.01512


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
    )
