"""金华麻将 Jinhua: 136 tiles, 财神 wildcards with a 白板 substitute, head bump (rules/jinhua.md).

⚑ defaults used here (not in the seeds):

* Deal: dealer 14, others 13.
* JH-A1: the 财神 is the flipped kind itself; the indicator is out, so 3 copies are wild.
* JH-A4: when the 财神 is 白板 there is no substitute.
* JH-A8: a 财神 cannot be used in 吃/碰/杠.
* JH-A9: one winner per discard (head bump).
* JH-A10: 白板 always plays as the 财神's natural face.
* JH-A3: 七风 is undefined. The sourced restriction "七风中不可代替风" is recorded as data under
  the form name ``"qifeng"`` (not an accepted form, so it has no effect by default);
  ``qifeng="honours"`` takes the other reading: the 财神 never stands for an honour.
  Value names ``"none"`` / ``"honours"`` are the registry's (the file names only the key).
* Claim priority: 碰 > 吃 is sourced; 胡 on top and 杠 = 碰 are G-A1 defaults.

Engine facts: 承包 (⚑ JH-A5) is the scorer's ``win_state`` hook: after a player's third claim in a
row from one discarder, that discarder is liable for his win. In a match: the winner deals, the
dealer stays on 荒庄 (⚑ JH-A7); the prevalent wind advances after every four changes of dealer (⚑
the file is silent; ``simulate_matches(wind="hands")`` advances it every four hands instead).
"""

from __future__ import annotations

from typing import Any

from ._base import HONOURS, KINDS, WINDS, Calls, EngineFacts, Rule, WildcardScheme, make_tileset

NAME = "jinhua"
NAME_ZH = "金华麻将"

OPTIONS: dict[str, tuple] = {
    "qifeng": ("none", "honours"),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "qifeng": {
        "meaning": "the 七风 restriction on 财神 (七风 is not defined by the seed)",
        "values": {"none": "no restriction: 财神 stands for any tile", "honours": "a 财神 never stands for an honour"},
        "spec": "JH-A3",
        "source": "七风中不可代替风",
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("jinhua", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 14427 discard wins per 5550 discard-legal self-draws (ρ = 2.599), 96.1 tiles unseen at the win.
DISCARD_HAZARD = 0.00901


def build(options: dict[str, Any]) -> Rule:
    """Build the Jinhua rule from resolved options."""
    tileset = make_tileset()
    if options["qifeng"] == "honours":
        restrictions = {"any": HONOURS}
    else:
        restrictions = {"qifeng": WINDS}
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=tileset,
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=False),
        wildcard=WildcardScheme(
            name="财神",
            selection="flip_self",
            copies=3,
            face_copies={code: tileset.face_copies(code) for code in KINDS},
            substitute=("5z",),
            restrictions=restrictions,
        ),
        forms=frozenset({"standard", "seven_pairs"}),
        unit="X",
        flowers=False,
        engine=EngineFacts(hooks="mjfast.scoring.jinhua"),
    )
