"""A toy eleventh rule, declared from scratch: this module is its rule (the registry facts), and
``toy_scoring`` its scorer with the engine hooks.  The engine needs nothing else to play, settle
and rotate it (``test_engine_facts.py``)."""

from mjfast.rules._base import Calls, EngineFacts, Rule, make_tileset

NAME = "toy"
NAME_ZH = "玩具麻将"

OPTIONS = {"kong_pays": (1, 2)}


def build(options):
    """The toy rule: 108 suit tiles, no chow, one winner per discard, kongs paid at once."""
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=make_tileset(winds=False, dragons=False),
        deal=(14, 13),
        calls=Calls(chow="none", multiple_winners=False, priority=(("win",), ("kong", "pung"))),
        wildcard=None,
        forms=frozenset({"standard", "seven_pairs"}),
        unit="点",
        flowers=False,
        engine=EngineFacts(hooks="toy_scoring", kong_discard=True, match_hands=8),
    )
