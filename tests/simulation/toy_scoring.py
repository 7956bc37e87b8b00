"""The toy rule's scorer and engine hooks (see ``toy_rule``).

A win is worth 1 point (七对 2, a win on the discard right after the discarder's kong doubles);
a self-draw is paid by each opponent, a discard win by the discarder.  Every kong is paid at once,
``kong_pays`` from each other seat.  The deal always passes to the next seat."""

import numpy as np

from mjfast import shanten
from mjfast.scoring import Score


def _value(ctx, rule):
    if shanten(ctx.hand, rule=rule) != -1:
        raise ValueError(f"hand not complete: {ctx.hand} is not a winning hand under toy")
    pairs = ctx.hand.n_melds == 0 and all(c in (0, 2, 4) for c in ctx.hand.counts.tolist())
    value = 2 if pairs else 1
    return value * (2 if ctx.kong_discard else 1)


def score_toy(ctx, rule, *, base: int = 1) -> Score:
    value = _value(ctx, rule)
    points = value * base
    pay = [0, 0, 0, 0]
    if ctx.self_draw:
        for p in ctx.payers:
            pay[p] = -points
    else:
        pay[ctx.discarder] = -points
    pay[ctx.winner] = -sum(pay)
    rows = [("win", "胡", "Win", value, 1, "点", "add")]
    return Score("toy", value, points, pay, True, "", "点", rows)


def can_win_toy(ctx, rule, *, base: int = 1) -> bool:
    return shanten(ctx.hand, rule=rule) == -1


MINIMAL_WINS = (("123m456m789m234p55p", (), (), "2p", False),)


def complete_is_legal(rule) -> bool:
    return True


def settle_kongs(outcome) -> list:
    each = outcome.rule.options["kong_pays"]
    out = []
    for k in outcome.kongs:
        d = np.full(4, -each, np.int64)
        d[k.konger] = 3 * each
        out.append((k.konger, d))
    return out


def next_deal(outcome) -> int:
    return (outcome.dealer + 1) % 4
