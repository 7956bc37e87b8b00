"""Rule legality in the efficiency functions: under a rule a wait, an accepting tile and W(t)
count only wins that :func:`mjfast.can_win` accepts.  Checked against a brute force built from
``mj.shanten`` and ``mj.can_win`` alone, on near-complete random hands."""

import numpy as np
import pytest

import mjfast as mj
from mjfast.scoring import WinContext
from mjfast.tiles import CODES

RULES = ["guobiao", "suzhou", "guiyang", "jj"]


def _complete(rng, copies):
    """A random complete 14-tile concealed hand of the tile set (4 sets + a pair)."""
    while True:
        c = np.zeros(34, np.int64)
        for _ in range(4):
            if rng.random() < 0.6:
                s, k = int(rng.integers(0, 3)), int(rng.integers(0, 7))
                for t in (9 * s + k, 9 * s + k + 1, 9 * s + k + 2):
                    c[t] += 1
            else:
                c[int(rng.integers(0, 34))] += 3
        c[int(rng.integers(0, 34))] += 2
        if (c <= copies).all():
            return c


def _legal(c14, tile, rule, self_draw):
    ctx = WinContext(
        mj.Hand(c14.astype(np.uint8)),
        win_tile=int(tile),
        self_draw=self_draw,
        winner=0,
        dealer=0,
        discarder=None if self_draw else 2,
    )
    return mj.can_win(ctx, rule)


def _brute_waits(c13, rule, copies, self_draw=True):
    out = []
    for k in range(34):
        if c13[k] < copies[k]:
            g = c13.copy()
            g[k] += 1
            if mj.shanten(g.astype(np.uint8), rule=rule) == -1 and _legal(g, k, rule, self_draw):
                out.append(k)
    return out


def _hands(rule, n, seed, remove):
    rng = np.random.default_rng(seed)
    copies = mj._bridge.kernel_rule(mj.rules.get(rule)).copies.astype(np.int64)
    out = []
    while len(out) < n:
        c = _complete(rng, copies)
        for _ in range(remove):
            c[rng.choice(np.flatnonzero(c))] -= 1
        if remove == 2:  # 13 tiles at most 1-shanten: add a random tile back
            c[int(rng.choice(np.flatnonzero(c < copies)))] += 1
        out.append(c)
    return out, copies


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("legal", ["self_draw", "discard"])
def test_waits_are_the_legal_winning_kinds(rule, legal):
    hands, copies = _hands(rule, 60, 3, remove=1)
    differs = 0
    for c in hands:
        h = c.astype(np.uint8)
        if mj.shanten(h, rule=rule) != 0:
            continue
        want = _brute_waits(c, rule, copies, legal == "self_draw")
        got = [CODES.index(t) for t in mj.waits(h, rule=rule, legal=legal)]
        assert got == want, (mj.to_mpsz(h), got, want)
        shape = [CODES.index(t) for t in mj.waits(h, rule=rule, legal="shape")]
        differs += shape != want
        u = mj.ukeire(h, rule=rule, legal=legal)
        assert u.count == sum(int(copies[k] - c[k]) for k in want)
    if rule == "guobiao" or (rule == "guiyang" and legal == "discard"):  # 8 番; 平胡 needs a pass on a discard
        assert differs > 0, "the rule's minimum must drop some shape waits"


@pytest.mark.parametrize("rule", ["guobiao", "suzhou"])
def test_yijinting_counts_only_legal_waits(rule):
    hands, copies = _hands(rule, 40, 5, remove=2)
    checked = 0
    for c in hands:
        h = c.astype(np.uint8)
        if mj.shanten(h, rule=rule) != 1:
            continue
        got = mj.yijinting(h, rule=rule)
        rows = {}
        ting = set()
        for t in range(34):
            if c[t] >= copies[t]:
                continue
            g = c.copy()
            g[t] += 1
            if mj.shanten(g.astype(np.uint8), rule=rule) != 0:
                continue
            union = set()
            for d in np.flatnonzero(g):
                r = g.copy()
                r[d] -= 1
                if mj.shanten(r.astype(np.uint8), rule=rule) == 0:
                    union |= set(_brute_waits(r, rule, copies))
            if union:
                rows[t] = (int(copies[t] - c[t]), sum(int(copies[k] - g[k]) for k in union))
                ting |= union
        assert got.ukeire == sum(n for n, _w in rows.values()), mj.to_mpsz(h)
        assert got.combos == sum(n * w for n, w in rows.values()), mj.to_mpsz(h)
        assert got.ting == sum(int(copies[k] - c[k]) for k in ting), mj.to_mpsz(h)
        assert mj.ukeire(h, rule=rule).count == got.ukeire
        checked += 1
    assert checked >= 10


def test_legal_hook_and_errors():
    hand = "234m567p34588s67s"
    assert mj.waits(hand, rule="guobiao", legal=lambda h14, tile: tile == CODES.index("8s")) == {"8s": 2}
    assert mj.waits(hand, legal=lambda h14, tile: False) == {}  # a callable applies without a rule
    assert mj.waits(hand, rule="guobiao", legal="shape") == mj.waits(hand)
    with pytest.raises(ValueError, match="legal must be one of"):
        mj.waits(hand, rule="guobiao", legal="sometimes")


@pytest.mark.parametrize("rule", ["guobiao", "suzhou"])
def test_discard_table_rows_match_the_single_hand_functions(rule):
    """Each row of the legal discard table is ukeire / waits / yijinting of the hand left, with the
    discard seen; rows stay sorted best first."""
    rng = np.random.default_rng(11)
    copies = mj._bridge.kernel_rule(mj.rules.get(rule)).copies.astype(np.int64)
    tables = 0
    while tables < 6:
        c = _complete(rng, copies)
        c[rng.choice(np.flatnonzero(c))] -= 1
        c[int(rng.choice(np.flatnonzero(c < copies)))] += 1  # 14 tiles, ready or 1-shanten after a discard
        h = c.astype(np.uint8)
        df = mj.analyze_discards(h, rule=rule)
        if df["shanten"].min() > 1:
            continue
        tables += 1
        keys = list(zip(df["shanten"], -df["ukeire"], -df["combos"]))
        assert keys == sorted(keys)
        for row in df.itertuples():
            if row.shanten > 1:
                continue
            left = mj.Hand(h, partial=True).without_tile(CODES.index(str(row.discard)))
            u = mj.ukeire(left, rule=rule, visible=str(row.discard))
            assert (row.ukeire, row.ukeire_kinds) == (u.count, len(u.tiles)), (mj.to_mpsz(h), row.discard)
            if row.shanten == 0:
                assert row.waits == mj.to_mpsz(
                    " ".join(w for w, n in mj.waits(left, rule=rule, visible=str(row.discard)).items() if n)
                )
            else:
                assert row.combos == mj.yijinting(left, rule=rule, visible=str(row.discard)).combos
