"""Pure-Python twin of the value players' rating (``rate_hand`` / ``val_decide`` of
:mod:`mjfast._kernels._policy`), for the tests: the same model, computed from the reference
shanten (:mod:`mjfast._reference.shanten`) and by brute force, for hands without melds or
wildcards under a rule whose forms are standard and (optionally) seven pairs, every kind in
play with four copies.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .shanten import shanten_seven_pairs, shanten_standard

#: A standard hand's usual 进张 by the tiles it misses (1..8 and beyond).
USUAL_ACCEPT = {1: 7.0, 2: 20.0, 3: 34.0, 4: 48.0, 5: 60.0, 6: 70.0, 7: 78.0}
#: Each pattern's usual 进张 as a share of a standard hand's.
USUAL = {"plain": 1.0, "flush": 0.5, "half_flush": 0.6, "pungs": 0.5, "seven_pairs": 0.4}
#: The chow patterns: three fixed chows and any set and a pair.
CHOW_PATTERNS = ("mixed_straight", "mixed_triple_chow", "pure_straight", "mixed_shifted_chows", "pure_shifted_chows")
USUAL.update({pattern: 0.5 for pattern in CHOW_PATTERNS}, five_gates=0.5)
PATTERNS = (
    "plain",
    "flush",
    "half_flush",
    "pungs",
    "seven_pairs",
    "honours_knitted",
    "knitted_straight",
    *CHOW_PATTERNS,
    "five_gates",
)
TIE_PER_TILE = 1e-9


def usual_accept(missing: int) -> float:
    return USUAL_ACCEPT.get(max(missing, 1), 85.0)


def reach(need: int, u: int, unseen: int, usual: float, boost: float, draws: float) -> float:
    """P(a target ``need`` tiles away completes within ``draws`` draws) under the model: a Markov
    chain over the tiles still missing, solved by stepping its distribution draw by draw."""
    if need <= 0:
        return 1.0
    if u <= 0 or unseen <= 0 or need > 15:
        return 0.0
    p = np.zeros(need + 1)
    p[need] = 1.0
    for _ in range(int(draws)):
        nxt = p.copy()
        for j in range(1, need + 1):
            q = u / unseen if j == need else usual * usual_accept(j) / 136.0
            q = min(q * (boost if j == 1 else 1.0), 1.0)
            nxt[j] -= p[j] * q
            nxt[j - 1] += p[j] * q
        p = nxt  # each draw moves the chain one step at most
    return float(p[0])


def pungs_need(c, kmax: int) -> int:
    """对对胡 deficit by brute force over the head and the triplet kinds."""
    held = [k for k in range(34) if c[k]]
    best = 3 * kmax + 2
    for head in [None] + held:
        rest = [k for k in held if k != head]
        for trip in itertools.combinations(rest, min(kmax, len(rest))):
            need = (2 if head is None else 2 - min(c[head], 2)) + sum(3 - min(c[k], 3) for k in trip)
            need += 3 * (kmax - len(trip))
            best = min(best, need)
    return best


def _restricted(c, kinds, n_sets=4) -> int:
    """Tiles missing for ``n_sets`` sets and a pair made of ``kinds`` alone (the hand's other
    tiles count as missing), by a search over the sets each kind starts (at most four copies
    of a kind in the completed hand; chows only within a suit)."""
    order = sorted(kinds)
    held = tuple(int(c[k]) for k in order)

    @functools.cache
    def best(i, have, used, sets, pair):
        if sets == 0 and pair == 0:
            return 0
        if i == len(order):
            return 99
        k = order[i]
        out = best(i + 1, have[1:], used[1:], sets, pair)  # no more sets start at kind k
        steps = []
        if sets:
            steps.append(((3,), 1, 0))
            if k < 27 and k % 9 <= 6 and i + 2 < len(order) and order[i + 2] == k + 2:
                steps.append(((1, 1, 1), 1, 0))
        if pair:
            steps.append(((2,), 0, 1))
        for need, ds, dp in steps:
            h, u, cost = list(have), list(used), 0
            for j, n in enumerate(need):
                if u[j] + n > 4:
                    break
                take = min(h[j], n)
                h[j] -= take
                cost += n - take
                u[j] += n
            else:
                out = min(out, cost + best(i, tuple(h), tuple(u), sets - ds, pair - dp))
        return out

    return best(0, held, (0,) * len(order), n_sets, 1)


def chow_layouts(pattern):
    """Every way to lay the three chows of a chow pattern, as their lowest kinds."""
    orders = list(itertools.permutations(range(3)))
    if pattern == "mixed_straight":  # 123, 456, 789, one in each suit
        return [tuple(9 * suit + 3 * j for j, suit in enumerate(order)) for order in orders]
    if pattern == "mixed_triple_chow":  # one rank in the three suits
        return [(r, 9 + r, 18 + r) for r in range(7)]
    if pattern == "pure_straight":  # 123456789 of one suit
        return [(9 * g, 9 * g + 3, 9 * g + 6) for g in range(3)]
    if pattern == "mixed_shifted_chows":  # ranks r, r+1, r+2, one in each suit
        return [tuple(9 * suit + r + j for j, suit in enumerate(order)) for r in range(5) for order in orders]
    assert pattern == "pure_shifted_chows"  # one suit, up by one or by two
    return [
        tuple(9 * g + r + step * j for j in range(3)) for g in range(3) for step in (1, 2) for r in range(7 - 2 * step)
    ]


def _sets_of(kinds):
    """Every set (a pung, or a suit chow) whose lowest tile is one of ``kinds``, as 34 counts."""
    sets = []
    for k in kinds:
        pung = np.zeros(34, np.int64)
        pung[k] = 3
        sets.append(pung)
        if k < 27 and k % 9 <= 6:
            chow = np.zeros(34, np.int64)
            chow[k : k + 3] = 1
            sets.append(chow)
    return sets


@functools.cache
def _chow_hands(pattern):
    """Every complete hand of a chow pattern as a (hands, 34) array: each layout's chows, one
    set (a pung or a chow) and a pair, at most four of a kind."""
    sets = _sets_of(range(34))
    pairs = 2 * np.eye(34, dtype=np.int64)
    hands = []
    for lows in chow_layouts(pattern):
        base = np.zeros(34, np.int64)
        for low in lows:
            base[low : low + 3] += 1
        full = base[None, None, :] + np.asarray(sets)[:, None, :] + pairs[None, :, :]
        hands.append(full.reshape(-1, 34))
    hands = np.concatenate(hands)
    return hands[(hands <= 4).all(axis=1)]


def chow_need(c, pattern):
    """A concealed 13-tile hand's need for a chow pattern (the fewest tiles it misses of one of
    the pattern's complete hands) and, per kind, the need after one more tile of it."""
    hands = _chow_hands(pattern)
    c = np.asarray(c, np.int64)
    short = np.maximum(hands - c, 0).sum(axis=1)
    after = (short[:, None] - (hands > c)).min(axis=0)
    return int(short.min()), after


@functools.cache
def _gate_hands():
    """Every complete 五门齐 hand as a (hands, 34) array: a set or the pair in each of the five
    groups (the three suits, the winds, the dragons), one group holding the pair."""
    groups = [list(range(9 * g, 9 * g + 9)) for g in range(3)] + [list(range(27, 31)), list(range(31, 34))]
    # a suit's sets: its pungs and the chows that start in it (at 1..7), so none leaves it
    sets = [_sets_of(kinds) for kinds in groups]
    pairs = [[2 * np.eye(34, dtype=np.int64)[k] for k in kinds] for kinds in groups]
    hands = []
    for pair_group in range(5):
        choices = [pairs[g] if g == pair_group else sets[g] for g in range(5)]
        for blocks in itertools.product(*choices):
            hands.append(np.sum(blocks, axis=0))
    return np.asarray(hands, np.int8)


def gates_need(c):
    """A concealed 13-tile hand's need for 五门齐 (the fewest tiles it misses of one of its
    complete hands) and, per kind, whether one more tile of it lowers that need (it does when
    some complete hand missing the fewest holds more of it)."""
    hands = _gate_hands()
    c = np.asarray(c, np.int8)
    short = np.maximum(hands - c, 0).sum(axis=1, dtype=np.int64)
    need = int(short.min())
    return need, (hands[short == need] > c).any(axis=0)


def rate(c, values, draws, *, visible=None, seven_pairs=True, last_boost=3.0, pattern_usual=0.6, slack=3, plain=True):
    """The rating of a concealed 13-tile hand ``c`` (no melds, no wildcards)."""
    c = [int(x) for x in c]
    vis = [0] * 34 if visible is None else [int(x) for x in visible]
    left = [max(4 - c[k] - vis[k], 0) for k in range(34)]
    unseen = sum(left)
    values = np.asarray(values, float)

    def shanten(h):
        s = shanten_standard(h, 0, 0)
        if seven_pairs:
            s = min(s, shanten_seven_pairs(h, 0, 0))
        return s

    def value(pat, need, u, plain_need):
        vs, vd = values[PATTERNS.index(pat), 0], values[PATTERNS.index(pat), 1]
        if vs <= 0 and vd <= 0:
            return 0.0
        usual = USUAL[pat]
        if pat != "plain":
            if need > plain_need + slack:
                return 0.0
            usual *= pattern_usual
        b = last_boost if vd > 0 else 1.0
        return reach(need, u, unseen, usual, b, draws) * (vs + (b - 1) * vd) / b

    def accept(deficit, kinds):
        u = 0
        for k in kinds:
            if left[k] and c[k] < 4:
                c[k] += 1
                if deficit(c) < deficit_now[0]:
                    u += left[k]
                c[k] -= 1
        return u

    s_plain = shanten(c)
    plain_need = s_plain + 1
    best = 0.0
    deficit_now = [0]
    if plain:
        deficit_now[0] = s_plain
        u = accept(shanten, range(34))
        best = value("plain", plain_need, u, plain_need) + TIE_PER_TILE * u
    for g in range(3):
        suit = set(range(9 * g, 9 * g + 9))
        for pat, kinds in (("flush", suit), ("half_flush", suit | set(range(27, 34)))):
            deficit_now[0] = _restricted(c, kinds)
            u = accept(lambda h, kinds=kinds: _restricted(h, kinds), sorted(kinds))
            best = max(best, value(pat, max(deficit_now[0], 1), u, plain_need))
    u = sum(left[k] for k in range(34) if c[k] in (1, 2))
    best = max(best, value("pungs", max(pungs_need(c, 4), 1), u, plain_need))
    for pat in CHOW_PATTERNS:
        need, after = chow_need(c, pat)
        u = sum(left[k] for k in range(34) if left[k] and c[k] < 4 and after[k] < need)
        best = max(best, value(pat, need, u, plain_need))
    need, lowers = gates_need(c)
    u = sum(left[k] for k in range(34) if left[k] and c[k] < 4 and lowers[k])
    best = max(best, value("five_gates", need, u, plain_need))
    if seven_pairs:
        u = sum(left[k] for k in range(34) if c[k] == 1)
        need = shanten_seven_pairs(c, 0, 0, distinct=True) + 1  # the pattern: seven different pairs
        best = max(best, value("seven_pairs", need, u, plain_need))
    return best


def ratings(counts, values, draws, *, seven_pairs=True, **kw):
    """Per kind of a 14-tile hand: ``(shanten, rating)`` after discarding one as the value player
    rates it (patterns alone one shanten above the least; rating None beyond), None if not held."""
    counts = [int(x) for x in counts]

    def shanten(h):
        s = shanten_standard(h, 0, 0)
        return min(s, shanten_seven_pairs(h, 0, 0)) if seven_pairs else s

    after = {}
    for k in range(34):
        if counts[k]:
            h = list(counts)
            h[k] -= 1
            after[k] = (h, shanten(h))
    least = min(s for _h, s in after.values())
    out = []
    for k in range(34):
        if k not in after:
            out.append(None)
            continue
        h, s = after[k]
        if s > least + 1:
            out.append((s, None))
        else:
            out.append((s, rate(h, values, draws, seven_pairs=seven_pairs, plain=s == least, **kw)))
    return out
