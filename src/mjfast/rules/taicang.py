"""太仓麻将 Taicang: flowers with multipliers, flipped 百搭 wildcard, chow from 上家 (rules/taicang.md).

⚑ defaults used here (not in the seeds):

* TC-A1: a flipped 梅兰竹菊 makes all four 春夏秋冬 百搭.
* TC-A2: a flower face chosen as 百搭 is a wildcard for the hand, not a flower (it stays
  listed in ``tileset.bonus``; the engine must not expose or replace it).
* TC-A3: a 百搭 cannot be used to 吃/碰/杠 a discard.
* TC-A4: 七对 is not a legal shape (``qidui=False``).
* TC-A12: several players may win on one discard.
* Claim priority (G-A1): 胡 > 杠 = 碰 > 吃.
* Option value name for the default the file describes but does not name:
  ``threshold_exempt="menqing"`` (only 门清 hands are exempt, TC-A6).

``taicang.max_payment`` (无花果, "比如付100两银子") is a payment amount like ``base``, not a
registry option: it is passed to the scoring call.

Engine facts: 漏胡 as 苏州's rules 1-2 (TC-A10): after passing a win a player wins on no discard
before his next draw. In a match (§8): the winner deals (the dealer keeps the deal when he
wins), after a robbed kong the robbed konger deals, a draw keeps the dealer (TC-A9); the
prevalent wind advances after every four changes of dealer (⚑ the file is silent;
``simulate_matches(wind="hands")`` advances it every four hands instead).
"""

from __future__ import annotations

from typing import Any

from ._base import (
    DRAGONS,
    PLANTS,
    SEASONS,
    Calls,
    EngineFacts,
    Rule,
    WildcardScheme,
    make_tileset,
    standard_successors,
)

NAME = "taicang"
NAME_ZH = "太仓麻将"

OPTIONS: dict[str, tuple] = {
    "qidui": (False, True),
    "threshold_counts": ("all", "hard_only"),
    "threshold_exempt": ("menqing", "suzhou_list"),
    "fan2x": (2, 4),
    "discard_wind_triplet": ("concealed", "pung"),
}

#: What each option means, in one place (see ``mjfast.rules.suzhou.OPTION_DOCS`` for the fields).
OPTION_DOCS: dict[str, dict] = {
    "qidui": {
        "meaning": "whether seven pairs (七对) is a winning shape (the seed does not mention it)",
        "values": {False: "no", True: "yes"},
        "spec": "TC-A4",
        "source": None,
    },
    "threshold_counts": {
        "meaning": "which 花 count toward the flower minimum (二花自摸三花冲) and toward 无花果",
        "values": {"all": "hard flowers, wind pungs and kongs", "hard_only": "only the hard flowers (flower tiles)"},
        "spec": "TC-A14",
        "source": "必须要三个以上的花（洳红中、白板、发财等）",
    },
    "threshold_exempt": {
        "meaning": "which hands may win below the flower minimum",
        "values": {
            "menqing": "only concealed (门清) hands",
            "suzhou_list": "also the big patterns exempt in 苏州 (对对胡, 混一色, 清一色, …)",
        },
        "spec": "TC-A6",
        "source": "如果是门清，则无论花有多少，都可以成牌",
    },
    "fan2x": {
        "meaning": 'factor of 混一色 and 对对胡 ("花翻2倍")',
        "values": {2: "×2 (翻N倍 read as ×N, as the worked example pins for 清一色)", 4: "×4 (read as two doublings)"},
        "spec": "TC-C1",
        "source": "门清花翻一倍",
    },
    "discard_wind_triplet": {
        "meaning": "what a wind triplet completed by the winning discard (or the robbed tile) scores",
        "values": {
            "concealed": "the three winds in the hand after the win are a 风杠 (1 花)",
            "pung": "the discard makes it a claimed pung: a 风碰 (0 花, as 苏州's SZ-A4)",
        },
        "spec": None,
        "source": "风杠：胡牌后手上有3张相同的风算1个花",
    },
}

#: Discard hazard of :func:`mjfast.expected_value` (chance per unseen copy per opponent turn that it is
#: discarded), measured by ``calibrate_hazard("taicang", 20_000, rng=20261201)`` (:mod:`mjfast.analysis.value`):
#: 13342 discard wins per 5272 discard-legal self-draws (ρ = 2.531), 88.3 tiles unseen at the win.
DISCARD_HAZARD = 0.00955

#: The value players rate their hands by the average flowers a winner holds, not by their own
#: count (``VALUE_BY_FLOWERS`` as in 苏州): by their own count ``Value()`` led ``Efficiency()`` by
#: less in duplicate matches (100,000 walls): +0.0550 ± 0.0043 against +0.0662 ± 0.0043 stakes
#: (``rng=20261201``), +0.0631 ± 0.0043 against +0.0705 ± 0.0043 (``rng=20261203``).
VALUE_BY_FLOWERS = False

#: 28 flowers: 中/发/白（带框） 4 each, 白板（不带框） 4, printed 百搭 4, 春夏秋冬梅兰竹菊 1 each.
FLOWERS: dict[str, int] = {
    **{code: 4 for code in DRAGONS},
    "WB0": 4,
    "BD": 4,
    **{code: 1 for code in SEASONS + PLANTS},
}


def successor_table() -> dict[str, tuple[str, ...]]:
    """百搭 = successor of the flipped tile (taicang.md §2)."""
    table = standard_successors(dragon_cycle=("7z", "6z", "5z"))  # 红中－发财－白板（带框）
    table.update({code: PLANTS for code in SEASONS})  # 翻到春夏秋冬则梅兰竹菊为百搭
    table.update({code: SEASONS for code in PLANTS})  # TC-A1 ⚑
    table["BD"] = ("WB0",)
    table["WB0"] = ("BD",)
    return table


def build(options: dict[str, Any]) -> Rule:
    """Build the Taicang rule from resolved options."""
    tileset = make_tileset(dragons=False, bonus=FLOWERS)
    faces = {code: tileset.face_copies(code) for code in successor_table()}
    forms = {"standard"} | ({"seven_pairs"} if options["qidui"] else set())
    return Rule(
        name=NAME,
        name_zh=NAME_ZH,
        options=options,
        option_choices=OPTIONS,
        tileset=tileset,
        deal=(14, 13),
        calls=Calls(chow="left", multiple_winners=True),
        wildcard=WildcardScheme(
            name="百搭",
            selection="flip_successor",
            copies=4,
            face_copies=faces,
            table=successor_table(),
            usable_in_calls=(),
        ),
        forms=frozenset(forms),
        unit="花",
        flowers=True,
        engine=EngineFacts(hooks="mjfast.scoring.taicang", win_lock="any"),
    )
