"""Scorer cases taken sentence by sentence from the Chinese source pages (``shared/seeds``): each
test quotes the sentence it checks, builds the hand the sentence describes and checks the
scorer reads it as written (the defaults), with the other reading behind its named option."""
import numpy as np
import pytest

from _hands import check_invariants
from mjfast import Hand, rules
from mjfast.scoring import WinContext, can_win, score
from mjfast.scoring import taicang as TC


def rows(s):
    check_invariants(s)
    return {r[0]: r[3] for r in s.rows}


# ---------------------------------------------------------------------------------------------
# 太仓 对对胡
def test_taicang_all_pungs_needs_every_set_a_pung():
    """太仓 对对胡: "除了头子是一对以外另外的四铺都是三个头" — all four sets, the called ones
    included, are triplets; a hand with a chowed meld is not 对对胡."""
    conc = "111p999s222z55s"
    chowed = Hand(conc, melds=["234m@left"], bonus="F1F2")
    s = score(WinContext(chowed, win_tile="5s", self_draw=True), "taicang")
    assert "all_pungs" not in rows(s)
    # (1 底花 + 2 flowers + 风暗刻 1) = 4 花, no factor
    assert s.total == 4 and s.legal
    # the same concealed tiles with a called pung instead: 对对胡 ×2 → (1 + 2 + 1) × 2 = 8 花
    punged = Hand(conc, melds=["444m@left"], bonus="F1F2")
    s = score(WinContext(punged, win_tile="5s", self_draw=True), "taicang")
    assert rows(s)["all_pungs"] == 2 and s.total == 8
    # a called kong is a set of three heads too
    konged = Hand(conc, melds=["4444m@right"], bonus="F1F2")
    s = score(WinContext(konged, win_tile="5s", self_draw=True), "taicang")
    assert rows(s)["all_pungs"] == 2


def test_taicang_all_pungs_with_chows_in_random_hands(seed):
    """No scored 太仓 hand that holds a chow, concealed or called, has 对对胡; every hand whose
    sets are all pungs or kongs has it (4 sets + pair readings, wildcards aside)."""
    from mjfast import Meld

    rng = np.random.default_rng(seed + 7)
    kinds = list(range(27)) + [27, 28, 29, 30]
    seen = {True: 0, False: 0}
    for _ in range(300):
        counts = np.zeros(34, int)
        melds, chow = [], False
        for _k in range(4):
            t = int(rng.choice(kinds))
            if t < 27 and t % 9 <= 6 and rng.random() < 0.4:
                chow = True
                if rng.random() < 0.5:
                    counts[t:t + 3] += 1
                else:
                    melds.append(Meld("chow", (t, t + 1, t + 2), source="left", claimed=t))
            elif rng.random() < 0.5:
                melds.append(Meld("pung", (t,) * 3, source="right", claimed=t))
            else:
                counts[t] += 3
        pair = int(rng.choice(kinds))
        counts[pair] += 2
        total = counts.copy()
        for m in melds:
            for x in m.tiles:
                total[x] += 1
        if total.max() > 4:
            continue
        h = Hand(counts.astype(np.uint8), melds=melds, bonus="F1F2F3")
        win = int(rng.choice(np.flatnonzero(counts)))
        s = score(WinContext(h, win_tile=win, self_draw=True), "taicang")
        got = "all_pungs" in rows(s)
        if chow:
            # a hand with a chow may still read as all pungs (111222333m): only called chows
            # rule it out for sure
            if any(m.kind == "chow" for m in melds):
                assert not got, h
        else:
            assert got, h
        seen[got] += 1
    assert seen[True] > 20 and seen[False] > 20, seen
