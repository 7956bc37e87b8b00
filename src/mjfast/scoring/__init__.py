"""Scoring of won hands: the framework and the per-rule scorers.

* :class:`WinContext` — a finished hand and how it was won (seats, winds, flags).
* :func:`score` — ``score(ctx, rule="guobiao", **options) -> Score`` dispatches to the scorer
  registered for the rule; :func:`can_win` is the legality test alone.
* :func:`register` — regional scorers plug in here (``register("suzhou", scorer)``).

Registered so far: ``guobiao`` (:mod:`mjfast.scoring.guobiao`, 国标 MCR, 81 fans).
"""
from ._core import ELEMENT_COLUMNS, HOW, Score, WinContext, can_win, register, score, scorers
from . import guobiao  # noqa: E402  (registers the 国标 scorer)

__all__ = ["WinContext", "Score", "score", "can_win", "register", "scorers", "ELEMENT_COLUMNS",
           "HOW", "guobiao"]
