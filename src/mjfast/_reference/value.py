"""Pure-Python twin of the value recursion (:mod:`mjfast._kernels._value`), by brute force.

Every draw sequence is enumerated token by token — each playable kind, each wildcard token and
each flower still in the wall, a flower replaced by the next draw of the same turn — with the
best discard at each step, memoised on the full state (hand, tiles drawn, flowers drawn, turn).
The model is the one :func:`mjfast.expected_value` documents for the walls it solves exactly:
``"returned"`` (discards go back) and the exact ``"depleting"`` wall (the state remembers every
draw).  Nothing here is shared with the kernel but the rule arrays (:mod:`mjfast._bridge`), the
shanten kernel and the scorers; the wins are judged and scored here with
:func:`mjfast.can_win` / :func:`mjfast.score`.

It is slow (small hands, short horizons): it exists to check the kernel.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from .. import _bridge
from .._inputs import as_hand, prepare, visible_counts
from .._kernels import _shanten as _ks
from ..tiles import CODES, N_KINDS, parse_tile

__all__ = ["expected_value", "FIGURES"]

#: The figures returned per row, in order (as the kernel's).
FIGURES = ("pay", "p_self_draw", "p_discard", "p_ready", "total", "points")
TOL = 1e-12
WILD = N_KINDS


def _tol(a: float, b: float) -> float:
    return TOL * (1.0 + max(abs(a), abs(b)))


def _add(acc: list, a: float, v) -> None:
    for i in range(6):
        acc[i] += a * v[i]


class _Model:
    """One set-up: the wall, the bound, the judge."""

    def __init__(
        self,
        hand,
        *,
        rule,
        draws_left,
        visible,
        melds,
        wilds,
        wall,
        depth,
        discard_wins,
        hazard,
        wild_kind,
        wild_copies,
        first_turns,
        rule_options,
    ):
        h = as_hand(hand, melds=melds, wilds=wilds)
        self.rule = _bridge.resolve_rule(rule)
        self.options = {}
        if rule_options:
            choices = self.rule.option_choices
            rule_keys = {k: v for k, v in rule_options.items() if k in choices}
            self.options = {k: v for k, v in rule_options.items() if k not in choices}
            if rule_keys:
                from .. import rules

                self.rule = rules.get(self.rule.name, **{**dict(self.rule.options), **rule_keys})
        if self.rule is not None:
            from ..scoring._outcome import hook

            base = hook(self.rule, "score_options")
            self.options = {**(dict(base(self.rule)) if base is not None else {}), **self.options}
        kr, caps, options = prepare(h, self.rule, wild_kind=wild_kind)
        self.kr, self.options_bits = kr, options
        self.cap = np.ascontiguousarray(caps, np.uint8)
        self.n_melds = h.n_melds
        self.melds = tuple(h.melds)
        self.h0 = tuple(int(x) for x in h.counts)
        self.w0 = h.wilds
        self.start14 = h.n_tiles % 3 == 2
        seen_bonus = []
        if visible is not None and not isinstance(visible, np.ndarray):
            from ..tiles import parse_tiles

            ids = parse_tiles(visible, allow_bonus=True)
            seen_bonus = [t for t in ids if t >= N_KINDS]
            visible = np.bincount(np.asarray([t for t in ids if t < N_KINDS], np.int64), minlength=N_KINDS)
        vis = visible_counts(None if visible is None else np.asarray(visible, np.int64)).astype(int)
        flowers_on = self.rule is not None and self.rule.flowers
        bonus = dict(self.rule.tileset.bonus) if flowers_on else {}
        seen_flowers = 0
        for k in range(N_KINDS):
            if kr.copies[k] == 0 and vis[k] > 0 and CODES[k] in bonus:
                seen_flowers += int(vis[k])
                vis[k] = 0
        self.vis = tuple(int(x) for x in vis)
        self.unseen = tuple(int(self.cap[k]) - self.h0[k] - self.vis[k] for k in range(N_KINDS))
        if min(self.unseen) < 0:
            raise ValueError("visible exceeds the copies in play")
        own = tuple(t for t in h.bonus if CODES[t] in bonus)
        self.own_bonus = own
        pool = []
        vis_in = visible_counts(None if visible is None else np.asarray(visible, np.int64))
        for code, copies in bonus.items():
            k = parse_tile(code)
            left = copies - sum(1 for t in h.bonus if t == k) - (int(vis_in[k]) if k < N_KINDS else 0)
            left -= sum(1 for t in seen_bonus if t == k)
            pool += [k] * max(0, left)
        self.F0 = sum(bonus.values()) - len(own) - seen_flowers - len(seen_bonus) if bonus else 0
        self.pool = tuple(pool[: self.F0])
        if wild_copies is None:
            if wild_kind is None:
                n_wild = 0
            else:
                n_wild = max(
                    0, (self.rule.wildcard.copies if self.rule is not None and self.rule.wildcard else 4) - h.wilds
                )
        else:
            n_wild = int(wild_copies) - h.wilds
        self.W0 = n_wild
        self.S0 = sum(self.unseen) + self.W0
        self.T = int(draws_left)
        if self.T > self.S0:
            raise ValueError("draws_left beyond the wall")
        self.returned = wall == "returned"
        if wall not in ("returned", "depleting"):
            raise ValueError(f"wall must be 'returned' or 'depleting', got {wall!r}")
        self.depth = depth
        self.q = [0.0] * (self.T + 1)
        if discard_wins:
            hz = np.broadcast_to(np.asarray(hazard, float), (self.T + 1,))
            self.q = [float(x) for x in hz]
        self.turns = [first_turns] + [3] * self.T
        self.win_is_wild = self.rule is not None and bool(self.rule.engine.win_is_wild)
        # the returned wall: every tile but the hand and visible
        self.rmax = tuple(int(self.cap[k]) - self.vis[k] for k in range(N_KINDS))
        # a drawn wildcard's faces are read with the rule's own copies (its face included)
        plain = _bridge.kernel_rule(self.rule)
        self.face_cap = np.ascontiguousarray(np.maximum(plain.copies.astype(int) - h.meld_counts, 0), np.uint8)
        self.face_kr = plain
        self.face_opts = (
            _bridge.void_options(plain.options, {m.tiles[0] // 9 for m in h.melds}) if h.n_melds else plain.options
        )
        self.s0 = (
            min(self.shanten(self._minus(self.h0, j), self.w0) for j in range(N_KINDS) if self.h0[j])
            if self.start14
            else self.shanten(self.h0, self.w0)
        )
        self._v13 = {}
        self._draw = {}
        self._judge = {}

    # -- shape ------------------------------------------------------------------------------
    @staticmethod
    def _minus(c, j):
        return c[:j] + (c[j] - 1,) + c[j + 1 :]

    @staticmethod
    def _plus(c, j):
        return c[:j] + (c[j] + 1,) + c[j + 1 :]

    @cache
    def shanten(self, c, w) -> int:
        v = _ks.shanten_fast(
            np.array(c, np.uint8), self.n_melds, w, self.cap, self.kr.playable, self.kr.forms, self.options_bits
        )
        return min(int(v), 120)

    def exchanges(self, c, w) -> int:
        return sum(max(0, c[k] - self.h0[k]) for k in range(N_KINDS)) + max(0, w - self.w0)

    def sigma(self, c, w, s) -> int:
        return self.exchanges(c, w) + s - self.s0

    def opened(self, sig: int) -> bool:
        return self.depth is None or sig < self.depth

    # -- the wall ---------------------------------------------------------------------------
    def copies(self, c, w, D, k) -> int:
        """Copies of kind k (WILD: wildcard tokens) that can be drawn now."""
        if self.returned:
            return (self.W0 + self.w0 - w) if k == WILD else self.rmax[k] - c[k]
        return (self.W0 if k == WILD else self.unseen[k]) - D[k]

    # -- judging ----------------------------------------------------------------------------
    def judge(self, c, w, tile, self_draw, f, after):
        """(pay, total, points) of the best legal reading of this win, or None."""
        key = (c, w, tile, self_draw, f, after)
        if key in self._judge:
            return self._judge[key]
        if self.rule is None:
            out = (1.0, 1.0, 1.0)
        else:
            from ..hand import Hand
            from ..scoring import WinContext, can_win, score

            if tile < N_KINDS:
                faces = [(tile, False)]
            else:
                faces = []
                for k in range(N_KINDS):
                    if self.rule.tileset.copies[k] == 0 or c[k] >= self.face_cap[k]:
                        continue
                    c2 = np.array(self._plus(c, k), np.uint8)
                    if (
                        _ks.shanten_fast(
                            c2,
                            self.n_melds,
                            w - 1,
                            self.face_cap,
                            self.face_kr.playable,
                            self.face_kr.forms,
                            self.face_opts,
                        )
                        < 0
                    ):
                        faces.append((k, True))
            out = None
            for face, wild_win in faces:
                hand = Hand(np.array(c, np.uint8), melds=self.melds, bonus=self.own_bonus + self.pool[:f], wilds=w)
                state = {"win_is_wild": wild_win} if self.win_is_wild and w else {}
                if self_draw:
                    ctx = WinContext(
                        hand,
                        win_tile=face,
                        self_draw=True,
                        winner=0,
                        dealer=0,
                        after_kong=bool(after),
                        rule_state=state,
                    )
                else:
                    ctx = WinContext(hand, win_tile=face, winner=0, dealer=0, discarder=2, rule_state=state)
                if not can_win(ctx, self.rule, **self.options):
                    continue
                s = score(ctx, self.rule, **self.options)
                v = (float(s.payments[0]), float(s.total), float(s.points))
                if out is None or v > out:
                    out = v
        self._judge[key] = out
        return out

    # -- the recursion ----------------------------------------------------------------------
    def value13(self, c, w, D, f, t):
        """The 13-tile state after the player's discard of turn t: the opponents' round, then
        the draws that remain."""
        key = (c, w, D, f, t)
        hit = self._v13.get(key)
        if hit is not None:
            return hit
        s = self.shanten(c, w)
        V = self.draw(c, w, D, f, t, False) if t < self.T else [0.0] * 6
        q = self.q[t]
        if s == 0 and q > 0 and self.turns[t] > 0:
            wins = []
            for k in range(N_KINDS):
                r = self.copies(c, w, D, k)
                if r <= 0 or c[k] >= self.cap[k]:
                    continue
                c2 = self._plus(c, k)
                if self.shanten(c2, w) != -1:
                    continue
                j = self.judge(c2, w, k, False, f, 0)
                if j is not None:
                    wins.append((r, j))
            C = sum(r for r, _j in wins)
            if C:
                poff = 1.0 - (1.0 - q) ** C
                for _ in range(self.turns[t]):
                    acc = [0.0] * 6
                    _add(acc, 1.0 - poff, V)
                    for r, j in wins:
                        pk = poff * r / C
                        if j[0] >= V[0] - _tol(j[0], V[0]):
                            _add(acc, pk, (j[0], 0.0, 1.0, 1.0, j[1], j[2]))
                        else:
                            _add(acc, pk, V)
                    V = acc
        V = list(V)
        if s == 0:
            V[3] = 1.0
        self._v13[key] = V
        return V

    def draw(self, c, w, D, f, t, after):
        """The draw of turn t + 1 (t draws made), after ``f`` flowers; ``after``: this draw
        replaces a flower."""
        key = (c, w, D, f, t, after)
        hit = self._draw.get(key)
        if hit is not None:
            return hit
        tokens = [(k, self.copies(c, w, D, k)) for k in range(N_KINDS + 1)]
        tokens = [(k, r) for k, r in tokens if r > 0]
        playable = sum(r for _k, r in tokens)
        flowers = self.F0 - f
        total = playable + flowers
        acc = [0.0] * 6
        if flowers:
            _add(acc, flowers / total, self.draw(c, w, D, f + 1, t, True))
        for k, r in tokens:
            _add(acc, r / total, self.answer(c, w, D, f, t, after, k))
        self._draw[key] = acc
        return acc

    def answer(self, c, w, D, f, t, after, k):
        """Value of the best answer to drawing kind k at turn t + 1."""
        s = self.shanten(c, w)
        D2 = D if self.returned else self._plus(D, k)
        if k == WILD:
            c2, w2 = c, w + 1
        else:
            c2, w2 = self._plus(c, k), w
        s14 = self.shanten(c2, w2)
        sig13 = self.sigma(c, w, s)
        followed = k == WILD or (s < 120 and (self.opened(sig13) or s14 < s))
        tsumo = None if k == WILD else self.value13(c, w, D2, f, t + 1)
        if not followed:
            return tsumo
        # the 14-tile hand's followed discards (kind order; a later one replaces the kept one
        # only when it is worth more beyond the tolerance)
        best = None
        bj = -1
        if s14 < 120:
            sig14 = self.sigma(c2, w2, s14)
            keep = max(s14, 0)
            for j in range(N_KINDS):
                if c2[j] == 0:
                    continue
                c3 = self._minus(c2, j)
                if not self.opened(sig14):
                    sj = self.shanten(c3, w2)
                    if sj != keep or self.sigma(c3, w2, sj) > sig14:
                        continue
                v = self.value13(c3, w2, D2, f, t + 1)
                if best is None or v[0] > best[0] + _tol(best[0], v[0]):
                    best, bj = v, j
        # against throwing the drawn tile back
        if best is None:
            cont = tsumo if tsumo is not None else [0.0] * 6
        elif tsumo is None:
            cont = best
        else:
            tl = _tol(best[0], tsumo[0])
            if tsumo[0] > best[0] + tl:
                cont = tsumo
            elif best[0] > tsumo[0] + tl:
                cont = best
            else:
                cont = tsumo if k < bj else best
        if s14 == -1:
            j = self.judge(c2, w2, k, True, f, 1 if after else 0)
            if j is not None and j[0] >= cont[0] - _tol(j[0], cont[0]):
                return [j[0], 1.0, 0.0, 1.0, j[1], j[2]]
        return cont

    def rows(self) -> dict:
        D0 = (0,) * (N_KINDS + 1)
        if not self.start14:
            return {None: tuple(self.value13(self.h0, self.w0, D0, 0, 0))}
        return {
            CODES[j]: tuple(self.value13(self._minus(self.h0, j), self.w0, D0, 0, 0))
            for j in range(N_KINDS)
            if self.h0[j]
        }


def expected_value(
    hand,
    *,
    rule=None,
    draws_left,
    visible=None,
    melds=(),
    wilds=None,
    wall="depleting",
    depth=1,
    discard_wins=False,
    hazard=0.0,
    wild_kind=None,
    wild_copies=None,
    first_turns=3,
    **rule_options,
) -> dict:
    """Brute-force figures of every row: ``{discard or None: (pay, p_self_draw, p_discard,
    p_ready, total, points)}`` (:data:`FIGURES`; each 0 without a win).

    Arguments as :func:`mjfast.expected_value`, for the walls it solves exactly (``"depleting"``
    is the exact wall here whatever the horizon: keep cases small); ``hazard`` is explicit.

    Examples
    --------
    >>> from mjfast._reference.value import expected_value
    >>> rows = expected_value("123m456p789s234s5p", draws_left=2, depth=0)   # one 5p wait, 2 left
    >>> round(rows[None][1], 12) == round(1 - (121 / 123) * (120 / 122), 12)
    True
    """
    return _Model(
        hand,
        rule=rule,
        draws_left=draws_left,
        visible=visible,
        melds=melds,
        wilds=wilds,
        wall=wall,
        depth=depth,
        discard_wins=discard_wins,
        hazard=hazard,
        wild_kind=wild_kind,
        wild_copies=wild_copies,
        first_turns=first_turns,
        rule_options=rule_options,
    ).rows()


def closed_form_single_wait(copies: int, unseen: int, draws: int, wall: str) -> float:
    """P(win by self-draw) of a wait that cannot change: hypergeometric (depleting wall) or
    geometric (returned wall)."""
    if wall == "returned":
        return 1.0 - (1.0 - copies / unseen) ** draws
    return 1.0 - math.comb(unseen - copies, draws) / math.comb(unseen, draws)
