"""expected_value against its brute-force twin (mjfast._reference.value) on random small cases.

Small cases are those the kernel solves exactly: the returned wall at any horizon, the depleting
wall with at most 3 draws left or at most 20 unseen tiles.  Hands are kept small with called
melds (so the twin's enumeration stays fast), across the ten rules, with flowers (苏州/太仓,
most of them visible or held so that few remain unseen) and with wildcards (金华, 太仓, 瑞金,
上饶).  Every figure (pay, both win probabilities, p_ready, total, points) must agree to 1e-12.
``MJFAST_ORACLE_SCALE=full`` runs 600 cases instead of 72.
"""

import os

import numpy as np
import pytest

import mjfast as mj
from mjfast import _bridge, rules
from mjfast._reference import value as ref
from mjfast.analysis.value import expected_value
from mjfast.tiles import CODES

FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"
N_CASES = 600 if FULL else 72
WILD_RULES = {"jinhua": 3, "taicang": 4, "ruijin": 4, "shangrao": 4}


def _rule_wall(rule_obj):
    return [k for k in range(34) for _ in range(int(rule_obj.tileset.copies[k]))]


def random_case(rng, name):
    """A random small set-up under rule ``name``: (hand, keyword arguments)."""
    rule_obj = rules.get(name)
    kw = {}
    wild_kind = None
    wilds = 0
    copies = rule_obj.tileset.copies.astype(int)
    if name in WILD_RULES and rng.random() < 0.7:
        wk = int(rng.choice([k for k in range(27) if copies[k]]))
        wild_kind = CODES[wk]
        wilds = int(rng.integers(0, 2))
        kw["wild_kind"] = wild_kind
        kw["wild_copies"] = wilds + int(rng.integers(0, 3))
        copies = _bridge.kernel_rule(rule_obj, wk).copies.astype(int)
        copies[wk] = 0  # its natural copies are wild: none in the hand
    all_kinds = [k for k in range(34) if copies[k] > 0]
    kinds = list(all_kinds)
    suits = sorted({k // 9 for k in kinds if k < 27})
    if name == "sichuan":  # 缺一门: keep the hand in two suits
        suits = sorted(rng.choice(suits, 2, replace=False).tolist())
        kinds = [k for k in kinds if k // 9 in suits]
    n_melds = int(rng.choice([3, 3, 2]))
    size = 14 - 3 * n_melds - int(rng.integers(2))  # 14- or 13-tile form
    counts = np.zeros(34, int)
    melds = []
    chow_ok = rule_obj.calls.chow != "none"
    while len(melds) < n_melds:
        k = int(rng.choice(kinds))
        if chow_ok and k < 27 and k % 9 <= 6 and rng.random() < 0.4 and all(k + i in kinds for i in range(3)):
            tiles = [k, k + 1, k + 2]
            kind, src = "chow", "left"
        else:
            tiles = [k] * 3
            kind, src = "pung", ["left", "opposite", "right"][int(rng.integers(3))]
        if all(counts[t] + tiles.count(t) <= copies[t] for t in set(tiles)):
            for t in tiles:
                counts[t] += 1
            melds.append(mj.Meld(kind, tiles, source=src, claimed=tiles[0]))
    avail = copies - counts
    pool = [k for k in kinds for _ in range(max(0, avail[k]))]
    conc = np.zeros(34, int)
    for t in rng.choice(pool, size - wilds, replace=False):
        conc[t] += 1
    bonus = []
    visible = np.zeros(34, int)
    if rule_obj.flowers:
        # most flowers seen (the dragons on the table) or held, a few left in the wall
        for k in (31, 32, 33):
            visible[k] = 4
        faces = [c for c, n in rule_obj.tileset.bonus.items() if c not in ("5z", "6z", "7z") for _ in range(n)]
        rng.shuffle(faces)
        left = int(rng.integers(0, 4))
        bonus = faces[: len(faces) - left]
    # some tiles seen elsewhere; now and then a wall of at most 20 unseen tiles, with more draws
    rest = [k for k in all_kinds for _ in range(max(0, avail[k] - conc[k]))]
    small_wall = rng.random() < 0.25
    n_vis = len(rest) - int(rng.integers(12, 19)) if small_wall else int(rng.choice([0, 10, 40]))
    for t in rng.choice(rest, max(0, n_vis), replace=False):
        visible[t] += 1
    hand = mj.Hand(conc.astype(np.uint8), melds=melds, bonus=bonus, wilds=wilds, partial=True)
    wall = "returned" if rng.random() < 0.4 else "depleting"
    depth = [0, 1, 1, None][int(rng.integers(4))]
    # keep the twin's enumeration small: the exact wall remembers every draw, and wildcards
    # multiply the states
    long_ok = wild_kind is None and not bonus and FULL
    if small_wall:
        draws = int(rng.integers(1, 6 if long_ok else 4))
        depth = 0 if draws >= 3 else min(depth if depth is not None else 1, 1)
    elif wall == "returned":
        draws = int(rng.integers(1, 5 if wild_kind is None else 3)) if depth is not None else int(rng.integers(1, 3))
    else:
        draws = {0: int(rng.integers(1, 4 if long_ok else 3)), 1: int(rng.integers(1, 3)), None: 1}[depth]
    discard_wins = bool(rng.random() < 0.6)
    kw.update(
        rule=name,
        draws_left=draws,
        visible=visible.astype(np.uint8),
        wall=wall,
        depth=depth,
        discard_wins=discard_wins,
        hazard=float(rng.choice([0.005, 0.02, 0.2])),
    )
    return hand, kw


def _table(df):
    out = {}
    for _, r in df.iterrows():
        d = r["discard"] if isinstance(r["discard"], str) else None
        pw = r["p_win"]
        out[d] = (
            r["ev"],
            r["p_win_self_draw"],
            r["p_win_discard"],
            r["p_ready"],
            r["mean_total"] * pw if pw > 0 else 0.0,
            r["mean_points"] * pw if pw > 0 else 0.0,
        )
    return out


def _close(a, b):
    return all(abs(x - y) <= 1e-12 * max(1.0, abs(x), abs(y)) for x, y in zip(a, b))


CASES = [(i, rules.names()[i % 10]) for i in range(N_CASES)]


@pytest.mark.parametrize("i,name", CASES, ids=[f"{n}-{i}" for i, n in CASES])
def test_matches_brute_force(i, name):
    rng = np.random.default_rng(1000 + i)
    hand, kw = random_case(rng, name)
    df = expected_value(hand, fallback_shanten=None, **kw)
    assert df["exact"].all(), df.attrs["model"]
    twin = ref.expected_value(hand, **kw)
    mine = _table(df)
    assert set(mine) == set(twin)
    for d, fig in twin.items():
        assert _close(mine[d], fig), (d, mine[d], fig, kw)


def test_twin_closed_form():
    """The twin itself on a wait that cannot change (one 5p wait, 2 copies left)."""
    rows = ref.expected_value("123m456p789s234s5p", draws_left=3, depth=0)
    assert abs(rows[None][1] - ref.closed_form_single_wait(2, 123, 3, "depleting")) < 1e-12
    rows = ref.expected_value("123m456p789s234s5p", draws_left=3, depth=0, wall="returned")
    assert abs(rows[None][1] - ref.closed_form_single_wait(2, 123, 3, "returned")) < 1e-12
