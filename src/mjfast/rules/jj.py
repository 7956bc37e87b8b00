"""JJ麻将 JJ (platform-generic): 混 wildcard chosen per sub-game, MCR-style fans (rules/jj.md).

⚑ defaults used here (not in the seeds):

* 136 tiles without flowers (flowers only where a sub-game has them), dealer 14, others 13.
* Claim priority: 碰 > 吃, 杠 > 吃, 胡 on top; several winners allowed (G-A1).
* JJ-A1: the 混 kind is chosen per sub-game (``selection="per_game"``), so it is a per-hand
  input of the analysis functions, not a registry option; 4 copies (the 联众 混杠 is "a kong
  of the four 混").
* Win forms are the MCR forms of guobiao.md ("MCR-style").
* The file names no ``jj.`` option with values, so this rule takes no options.
"""
from __future__ import annotations

from typing import Any

from ._base import KINDS, Calls, Rule, WildcardScheme, make_tileset
from .guobiao import FORMS as MCR_FORMS

NAME = "jj"
NAME_ZH = "JJ麻将"

OPTIONS: dict[str, tuple] = {}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("jj", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 15157 discard wins per 4812 discard-legal self-draws (ρ = 3.150), 86.0 tiles unseen at the win.
DISCARD_HAZARD = 0.01221


def build(options: dict[str, Any]) -> Rule:
    """Build the JJ rule from resolved options."""
    tileset = make_tileset()
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=tileset,
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=True),
        wildcard=WildcardScheme(
            name="混",
            selection="per_game",
            copies=4,
            face_copies={code: tileset.face_copies(code) for code in KINDS},
        ),
        forms=MCR_FORMS,
        unit="番",
        flowers=False,
    )
