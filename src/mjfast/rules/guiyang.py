"""贵阳麻将 Guiyang: 108 tiles, no chow, 个数 units, 豆 and 鸡 (rules/guiyang.md).

⚑ defaults used here (not in the seeds):

* GY-A2: only the 平胡 hand needs a 通行证 to win on a discard (``pass_scope="pinghu"``).
* GY-A3: no 缺一门 requirement.
* Claim priority (G-A1): 胡 > 杠 = 碰; several winners allowed (一炮两响/三响 are named).
* Option value names: ``dou`` and ``dealer`` use the source letters, default ``"B"``
  (the file names only the alternative ``"A"``).

Engine facts: 冲锋鸡 is the first 1条 discarded and not claimed; a win on the discard that follows
the discarder's own kong is 烧豆 / 热炮 (``kong_discard``).
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
