"""mjfast: fast, exact analysis of Chinese mahjong hands.

Exact shanten over every form a rule allows (with called melds and wildcards), waits, 进张,
改良 and the 一进听 combination count, and the exact win probability and expected payout of
every discard (:func:`expected_value`), under ten regional rule sets.
"""
from . import policies, rules, scoring, tiles
from ._version import __version__
from .hand import Hand, Meld
from .analysis.calls import call_vs_pass
from .analysis.value import expected_value
from .decomposition import Decomposition, decompose, decompose_counts
from .simulation.games import iter_games, simulate_games
from .simulation.matches import duplicate_match, iter_matches, match_summary, simulate_matches
from .efficiency import improvements, ukeire_batch, waits, yijinting
from .analysis.payout import compare_rules, element_frequencies, payout_summary
from .analysis import plotting
from .analysis.plotting import plot_discards, plot_elements, plot_payouts, plot_win_curve
from .scoring import Score, WinContext, can_win, register, score, scorers
from .shape import shanten_batch
from .simulation.draws import simulate_draws
from ._kernels._front import analyze_discards, shanten, ukeire
from .tiles import parse_tiles, to_chinese, to_glyphs, to_mpsz
from ._display import style
from ._config import show_config


from ._config import warn_without_openmp as _warn_without_openmp  # noqa: E402
from ._kernels import _shanten as _kernel  # noqa: E402

_warn_without_openmp(_kernel.OPENMP)
del _warn_without_openmp, _kernel

__all__ = [
    "Hand",
    "Meld",
    "rules",
    "tiles",
    "parse_tiles",
    "to_mpsz",
    "to_chinese",
    "to_glyphs",
    "shanten",
    "shanten_batch",
    "Decomposition",
    "decompose",
    "decompose_counts",
    "ukeire",
    "ukeire_batch",
    "waits",
    "improvements",
    "yijinting",
    "analyze_discards",
    "expected_value",
    "call_vs_pass",
    "payout_summary",
    "element_frequencies",
    "compare_rules",
    "plot_payouts",
    "plot_elements",
    "plot_win_curve",
    "plot_discards",
    "simulate_draws",
    "simulate_games",
    "iter_games",
    "simulate_matches",
    "iter_matches",
    "match_summary",
    "duplicate_match",
    "policies",
    "plotting",
    "style",
    "scoring",
    "WinContext",
    "Score",
    "score",
    "can_win",
    "register",
    "scorers",
    "show_config",
    "__version__",
]
