"""JJ麻将 JJ (platform-generic): 混 wildcard chosen per sub-game, MCR-style fans (rules/jj.md).

⚑ defaults used here (not in the seeds):

* 136 tiles without flowers (flowers only where a sub-game has them), dealer 14, others 13.
* Claim priority: 碰 > 吃, 杠 > 吃, 胡 on top; several winners allowed (G-A1).
* JJ-A1: the 混 kind is chosen per sub-game, so by default it is a per-hand input of the analysis
  functions (``hun="none"``: the game engine plays without a 混), 4 copies (the 联众 混杠 is "a
  kong of the four 混").  Option ``hun`` chooses it in play the way many sub-games do: by a flipped
  tile, ``"flip_successor"`` (its successor is 混, 4 copies; winds E→S→W→N→E, dragons 中→发→白→中)
  or ``"flip_self"`` (the flipped kind itself, 3 copies left).  A 混 is never discarded (JJ-A2) and
  not used in calls ("不可吃碰").
* Win forms are the MCR forms of guobiao.md ("MCR-style").
* Dealer rotation: "荒庄 (wall exhausted, no win): the dealer of that hand deals again" is all the
  file says.  Option ``dealer``: ``"next"`` (default; after a win the deal passes to the dealer's
  下家, as in the MCR-style games this file follows) or ``"winner"`` (the winner deals).  The
  prevalent wind advances after every four changes of dealer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._base import KINDS, Calls, EngineFacts, Rule, WildcardScheme, make_tileset, standard_successors
from .guobiao import FORMS as MCR_FORMS

NAME = "jj"
NAME_ZH = "JJ麻将"

OPTIONS: dict[str, tuple] = {
    "hun": ("none", "flip_successor", "flip_self"),
    "dealer": ("next", "winner"),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "hun": {
        "meaning": "how the game engine chooses the 混 (its kind is a sub-game setting)",
        "values": {
            "none": "per sub-game, given with each hand: the engine plays without a 混",
            "flip_successor": "a flipped tile's successor is 混 (4 copies)",
            "flip_self": "the flipped tile's kind is 混 (3 copies left)",
        },
        "spec": "JJ-A1",
        "source": "混可以代替任意牌（不包含花牌）进行游戏，不可吃碰，一般不能打出",
    },
    "dealer": {
        "meaning": "who deals after a hand with a win (the file names only 荒庄, which keeps the dealer)",
        "values": {"next": "the dealer's 下家", "winner": "the (first) winner"},
        "spec": None,
        "source": "荒庄当盘的庄家继续做下一盘的庄家",
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("jj", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 15157 discard wins per 4812 discard-legal self-draws (ρ = 3.150), 86.0 tiles unseen at the win.
DISCARD_HAZARD = 0.01221

#: The value players' weights that differ here from the other rules' (``_game.VALUE_KNOBS``): ties of
#: rating and 进张 go to the lowest kind, not by shape worth (which discards honours and terminals
#: first, the tiles 十三浪 and 九幺 are made of).  Measured by duplicate matches of ``Value()``
#: against ``Efficiency()`` (10,000 walls, ``rng=20261203``): +0.0531 ± 0.0222 stakes (+2.4 SE) so,
#: +0.0162 ± 0.0224 (+0.7 SE) with shape worth.
VALUE_KNOBS = {"shape": 0.0}


def build(options: dict[str, Any]) -> Rule:
    """Build the JJ rule from resolved options."""
    tileset = make_tileset()
    faces = {code: tileset.face_copies(code) for code in KINDS}
    table: Mapping[str, tuple[str, ...]] = {}
    if options["hun"] == "flip_successor":
        selection, copies, table = "flip_successor", 4, standard_successors(dragon_cycle=("7z", "6z", "5z"))
    elif options["hun"] == "flip_self":
        selection, copies = "flip_self", 3
    else:
        selection, copies = "per_game", 4
    scheme = WildcardScheme(
        name="混",
        selection=selection,
        copies=copies,
        face_copies=faces,
        table=table,
        discardable=False,  # JJ-A2
    )
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=tileset,
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=True),
        wildcard=scheme,
        forms=MCR_FORMS,
        unit="番",
        flowers=False,
        engine=EngineFacts(hooks="mjfast.scoring.jj"),
    )
