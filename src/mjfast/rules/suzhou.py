"""苏州麻将 Suzhou: 花 counting, 152 tiles, 28 flowers, no chow, no wildcard (rules/suzhou.md).

⚑ defaults used here (not in the seeds):

* SZ-A2: claim priority 胡 > 杠 = 碰; several players may win on one discard (一炮多响).
* SZ-A3: four identical tiles count as two pairs in 七对.
* ``tileset=144``: the 20 flowers are 中发白 (12) + 春夏秋冬 (4) + 梅兰竹菊 (4) (suzhou.md §1).
* Option value names for the defaults that the file describes but does not name:
  ``dealer="winner"``, ``flower_faces="tile_list"``, ``dadiao_lock="exception"``.
"""
from __future__ import annotations

from typing import Any

from ._base import DRAGONS, PLANTS, SEASONS, Calls, Rule, make_tileset

NAME = "suzhou"
NAME_ZH = "苏州麻将"

OPTIONS: dict[str, tuple] = {
    "tileset": (152, 144),
    "threshold": ("3_4", "2_3"),
    "threshold_counts": ("all", "hard_only"),
    "qidui": ("double_plus15", "flat10", "flat5"),
    "dadiaoche": ("plus5", "double", "both"),
    "songgang_scope": ("gangkai", "any_later_selfdraw"),
    "dealer": ("winner", "dahu_keeps"),
    "flower_faces": ("tile_list", "dabaiban"),
    "qianggang_exempt": (False, True),
    "daxiao_menqing": (True, False),
    "dadiao_lock": ("exception", "strict"),
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("suzhou", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 14560 discard wins per 4659 discard-legal self-draws (ρ = 3.125), 75.1 tiles unseen at the win.
DISCARD_HAZARD = 0.01386


def _flowers(tileset: int, flower_faces: str) -> dict[str, int]:
    dragons = {code: 4 for code in DRAGONS}
    seasons_plants = {code: 1 for code in SEASONS + PLANTS}
    if tileset == 144:
        if flower_faces != "tile_list":
            raise ValueError(
                "option suzhou.flower_faces='dabaiban' describes the 28-flower set; "
                "it cannot be combined with suzhou.tileset=144 (20 flowers)"
            )
        return {**dragons, **seasons_plants}
    if flower_faces == "dabaiban":  # "中发白，梅兰竹菊，春夏秋冬，4百搭，4大白板"
        return {**dragons, **seasons_plants, "BD": 4, "WB0": 4}
    # "老鼠/财神/猫/聚宝盆各1张…百搭4张"
    return {**dragons, **seasons_plants, "RAT": 1, "GOD": 1, "CAT": 1, "BOWL": 1, "BD": 4}


def build(options: dict[str, Any]) -> Rule:
    """Build the Suzhou rule from resolved options."""
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=make_tileset(
            dragons=False, bonus=_flowers(options["tileset"], options["flower_faces"])
        ),
        deal=(14, 13),
        calls=Calls(chow="none", multiple_winners=True, priority=(("win",), ("kong", "pung"))),
        wildcard=None,
        forms=frozenset({"standard", "seven_pairs"}),
        unit="花",
        flowers=True,
    )
