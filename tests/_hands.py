"""Random hands for the tests and the benchmarks (kernel inputs and winning contexts)."""

import numpy as np


def random_hands(rng, n, sizes, copies=None):
    """``n`` random concealed hands drawn from a wall (``copies`` per kind, default 4 each).

    ``sizes`` is a sequence of tile counts to pick from uniformly per hand.
    """
    copies = np.full(34, 4) if copies is None else np.asarray(copies)
    wall = np.repeat(np.arange(34), copies)
    out = np.zeros((n, 34), np.uint8)
    sz = rng.choice(np.asarray(sizes), n)
    for i in range(n):
        np.add.at(out[i], rng.choice(wall, sz[i], replace=False), 1)
    return out, sz


def random_hand(rng, kinds, chow_melds=False):
    """A random complete hand (4 sets + pair) from ``kinds``; ~30 % of sets called as melds."""
    from mjfast import Hand, Meld
    from mjfast.tiles import CODES

    while True:
        counts = np.zeros(34, int)
        sets = []
        for _ in range(4):
            if rng.random() < 0.5:
                t = kinds[rng.integers(len(kinds))]
                if t < 27 and t % 9 <= 6:
                    sets.append(("chow", t))
                    continue
            sets.append(("pung", kinds[rng.integers(len(kinds))]))
        pair = kinds[rng.integers(len(kinds))]
        for k, t in sets:
            for x in (t, t + 1, t + 2) if k == "chow" else (t, t, t):
                counts[x] += 1
        counts[pair] += 2
        if counts.max() <= 4:
            break
    concealed = [pair, pair]
    melds = []
    for k, t in sets:
        tiles = [t, t + 1, t + 2] if k == "chow" else [t, t, t]
        if rng.random() < 0.3 and (k == "pung" or chow_melds):
            melds.append(Meld(k, tiles, source="left"))
        else:
            concealed += tiles
    return Hand(" ".join(CODES[x] for x in concealed), melds=melds)


def random_contexts(rng, kinds, n, chow_melds=False):
    """``n`` WinContexts of random complete hands, half self-drawn, some 抢杠."""
    from mjfast.scoring import WinContext

    out = []
    for _ in range(n):
        h = random_hand(rng, kinds, chow_melds)
        ids = [i for i in range(34) for _ in range(int(h.counts[i]))]
        win = ids[rng.integers(len(ids))]
        winner = int(rng.integers(4))
        if rng.random() < 0.5:
            out.append(WinContext(h, win_tile=win, self_draw=True, winner=winner))
        else:
            d = int((winner + 1 + rng.integers(3)) % 4)
            out.append(WinContext(h, win_tile=win, discarder=d, winner=winner, robbing_kong=bool(rng.random() < 0.2)))
    return out


def rule_kinds(name):
    """The playable kinds of a rule (``rules.get(name).tileset``), as a list of tile ids."""
    from mjfast import rules

    return [k for k in range(34) if rules.get(name).tileset.copies[k]]


def replay(rows):
    """The total the element rows give, replayed in order (``add``, ``multiply``, ``cap``,
    ``replace``); a row in stake units (太仓 无花果) replaces the settlement, not the total."""
    t = 0
    for _code, _zh, _en, value, _n, unit, how in rows:
        if unit == "stake":
            continue
        if how == "add":
            t += value
        elif how == "multiply":
            t *= value
        elif how == "cap":
            t = min(t, value)
        else:
            t = value
    return t


def check_invariants(s):
    """What every Score promises: zero-sum int64 payments of shape (4,), rows of the seven
    :data:`~mjfast.scoring.ELEMENT_COLUMNS` that replay to the total, a stake row only as a
    ``replace`` of the points, and legality consistent with the reason, points and payments."""
    from mjfast.scoring import HOW

    p = s.payments
    assert p.shape == (4,) and p.dtype == np.int64 and int(p.sum()) == 0
    for row in s.rows:
        assert len(row) == 7 and row[6] in HOW, row
        if row[5] == "stake":
            assert row[6] == "replace" and row[3] == s.points, row
    assert replay(s.rows) == s.total, (s.rows, s.total)
    if s.legal:
        assert s.reason == "" and s.points > 0
    else:
        assert s.points == 0 and not p.any() and s.reason
    return s


def ron(hand, win, discarder=2, winner=0, **kw):
    """A discard win of ``hand`` on ``win``: seat ``winner`` wins on ``discarder``'s discard."""
    from mjfast.scoring import WinContext

    return WinContext(hand, win_tile=win, discarder=discarder, winner=winner, **kw)


def tsumo(hand, win, winner=0, **kw):
    """A self-drawn win of ``hand`` on ``win`` by seat ``winner``."""
    from mjfast.scoring import WinContext

    return WinContext(hand, win_tile=win, self_draw=True, winner=winner, **kw)
