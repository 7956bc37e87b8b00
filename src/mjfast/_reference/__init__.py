"""Slow, obviously-correct pure-Python twins of the mjfast kernels, used by the tests.

They implement the definitions directly (brute force over targets and wildcard assignments)
and are importable so that notebooks and doctests can cross-check the compiled code.
"""

from .decompose import SET_TYPES, WAIT_TYPES, decompose, wait_types
from .efficiency import ukeire, waits, yijinting
from .shanten import (
    DEFAULT_FORMS,
    FORM_FUNCTIONS,
    HONOURS,
    KNITTED_PATTERNS,
    N_KINDS,
    SUITS,
    TERMINALS_HONOURS,
    default_caps,
    replacement_number,
    shanten,
    shanten_honors_and_knitted,
    shanten_knitted_straight,
    shanten_nine_terminals,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_lan,
    shanten_thirteen_orphans,
)

__all__ = [
    "DEFAULT_FORMS",
    "FORM_FUNCTIONS",
    "HONOURS",
    "KNITTED_PATTERNS",
    "N_KINDS",
    "SET_TYPES",
    "SUITS",
    "TERMINALS_HONOURS",
    "WAIT_TYPES",
    "decompose",
    "default_caps",
    "replacement_number",
    "shanten",
    "shanten_honors_and_knitted",
    "shanten_knitted_straight",
    "shanten_nine_terminals",
    "shanten_seven_pairs",
    "shanten_standard",
    "shanten_thirteen_lan",
    "shanten_thirteen_orphans",
    "ukeire",
    "wait_types",
    "waits",
    "yijinting",
    "value",
]
from . import value
