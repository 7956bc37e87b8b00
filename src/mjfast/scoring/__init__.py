"""Scoring of won hands: the framework and the per-rule scorers.

* :class:`WinContext` — a finished hand and how it was won (seats, winds, flags).
* :func:`score` — ``score(ctx, rule="guobiao", **options) -> Score`` dispatches to the scorer
  registered for the rule; :func:`can_win` is the legality test alone (False for a hand
  that is not complete, :class:`NotComplete`).
* :func:`register` — regional scorers plug in here (``register("suzhou", scorer)``).

One module per rule registers its scorer on import: :mod:`~mjfast.scoring.guobiao` (国标 MCR,
81 fans), :mod:`~mjfast.scoring.suzhou`, :mod:`~mjfast.scoring.taicang`,
:mod:`~mjfast.scoring.guangdong`, :mod:`~mjfast.scoring.sichuan`, :mod:`~mjfast.scoring.guiyang`,
:mod:`~mjfast.scoring.ruijin`, :mod:`~mjfast.scoring.shangrao`, :mod:`~mjfast.scoring.jinhua`,
:mod:`~mjfast.scoring.jj` — all ten rules.
"""

# Each module registers its scorer on import, and scorers() lists them in that order: 国标 first.
# isort: off
from . import guobiao
from . import guangdong, guiyang, jinhua, jj, ruijin, shangrao, sichuan, suzhou, taicang

# isort: on
from ._core import (
    ELEMENT_COLUMNS,
    HOW,
    ROW_FIELDS,
    WIN_FLAGS,
    NotComplete,
    Score,
    WinContext,
    can_win,
    register,
    score,
    scorers,
)

__all__ = [
    "WinContext",
    "Score",
    "NotComplete",
    "score",
    "can_win",
    "register",
    "scorers",
    "ELEMENT_COLUMNS",
    "ROW_FIELDS",
    "HOW",
    "WIN_FLAGS",
    "guobiao",
    "suzhou",
    "taicang",
    "guangdong",
    "sichuan",
    "guiyang",
    "ruijin",
    "shangrao",
    "jinhua",
    "jj",
]
