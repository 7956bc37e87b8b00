"""Pure-Python twin of the wall kernel (:mod:`mjfast._kernels._wall`): the same streams, the
same wall and the same efficiency policy, through the public ``shanten``/``ukeire`` functions.

:func:`replay_draws` replays the games of :func:`mjfast.simulate_draws` one tile at a time;
the tests require identical histograms.
"""

import numpy as np

import mjfast as mj
from mjfast._kernels._wall import FLOWER_TOKEN
from mjfast.simulation import draws as _draws


class Stream:
    """numpy's PCG64DXSM ``next_uint32``: low half of a 64-bit output, then its high half."""

    def __init__(self, seed_seq):
        self.bg = np.random.PCG64DXSM(seed_seq)
        self.buf = []

    def u32(self):
        if not self.buf:
            x = int(self.bg.random_raw())
            self.buf = [x >> 32]
            return x & 0xFFFFFFFF
        return self.buf.pop()

    def bounded(self, n):
        while True:
            m = self.u32() * n
            if (m & 0xFFFFFFFF) >= (2**32 - n) % n:
                return m >> 32


def efficiency_choice(c, rule, visible, melds=()):
    """(complete, discard, shanten after) by the documented efficiency policy.

    A complete hand gets its discard too (thrown when the rule refuses the win)."""
    complete = mj.shanten(mj.Hand(c, melds=melds), rule=rule) < 0
    options = []
    for d in np.flatnonzero(c):
        c2 = c.copy()
        c2[d] -= 1
        options.append((mj.shanten(mj.Hand(c2, melds=melds), rule=rule), int(d), c2))
    best = min(o[0] for o in options)
    tied = [o for o in options if o[0] == best]
    if len(tied) > 1:
        # most 进张, then the lowest kind index
        tied.sort(key=lambda o: (-mj.ukeire(mj.Hand(o[2], melds=melds), rule=rule, visible=visible).count, o[1]))
    return complete, tied[0][1], best


def replay_draws(hand, rule, visible, draws_left, children, sizes, legal=None):
    """The kernel's games replayed in Python: ``(ready_hist, win_hist, games)``.

    With ``legal(c, tile, n_flowers, after) -> points or None`` a complete hand wins only when
    it returns points; ``games`` lists each game's ``(win turn, points)``."""
    spec = _draws._setup(hand, rule, visible, (), None, None, None)
    melds = hand.melds if isinstance(hand, mj.Hand) else ()
    c0 = spec["counts"]
    vis = spec["visible"]
    ready_hist = np.zeros((len(sizes), draws_left + 2), np.int32)
    win_hist = np.zeros_like(ready_hist)
    memo = {}

    def policy(c):
        key = c.tobytes()
        if key not in memo:
            memo[key] = efficiency_choice(c, rule, vis, melds)
        return memo[key]

    games = []
    start_discard = (int(c0.sum()) + 3 * len(melds)) % 3 == 2
    for ci, (child, size) in enumerate(zip(children, sizes)):
        st = Stream(child)
        wall = spec["wall"].tolist()
        for _ in range(size):
            c = c0.copy()
            f, b = 0, len(wall) - 1
            ready = won = -1
            points = None
            n_flowers = 0
            if start_discard:
                complete, d, s_after = policy(c)
                c[d] -= 1
                ready = 0 if s_after == 0 else -1
            elif mj.shanten(mj.Hand(c, melds=melds), rule=rule) == 0:
                ready = 0
            for t in range(1, draws_left + 1):
                tile, taken = None, 0
                while tile is None or tile == FLOWER_TOKEN:
                    if f > b:
                        tile = -1
                        break
                    j = f + st.bounded(b - f + 1)
                    if taken == 0:  # the turn's draw, from the front
                        wall[j], wall[f] = wall[f], wall[j]
                        tile = wall[f]
                        f += 1
                    else:  # a flower's replacement, from the back
                        wall[j], wall[b] = wall[b], wall[j]
                        tile = wall[b]
                        b -= 1
                    taken += 1
                    n_flowers += tile == FLOWER_TOKEN
                if tile < 0:
                    break
                c[tile] += 1
                complete, d, s_after = policy(c)
                if complete:
                    points = None if legal is None else legal(c, tile, n_flowers, taken > 1)
                    if legal is None or points is not None:
                        won = t
                        break
                c[d] -= 1
                if ready < 0 and s_after == 0:
                    ready = t
            ready_hist[ci, ready if ready >= 0 else draws_left + 1] += 1
            win_hist[ci, won if won >= 0 else draws_left + 1] += 1
            games.append((won, points if won >= 0 else None))
    return ready_hist, win_hist, games
