"""The can_win fast paths agree with the full scorers (``score().legal``) on random hands."""

import numpy as np
import pytest
from _hands import random_contexts, random_hand, rule_kinds

from mjfast import Hand, rules
from mjfast.decomposition import decompose
from mjfast.scoring import NotComplete, WinContext, can_win, score
from mjfast.scoring import _shortcuts as _fast

KINDS = {name: rule_kinds(name) for name in rules.names()}
WILD_RULES = ("taicang", "ruijin", "shangrao", "jinhua", "jj")


def _legal(ctx, rule, **options):
    """The slow answer: the full scorer's ``legal``, False for a hand that is not complete."""
    try:
        return bool(score(ctx, rule, **options).legal)
    except NotComplete:
        return False


def _with_wilds(rng, ctx, k):
    """The same win with ``k`` random concealed tiles (not the winning tile) made wildcards."""
    h = ctx.hand
    ids = [i for i in range(34) for _ in range(int(h.counts[i]))]
    ids.remove(ctx.win_tile)
    rng.shuffle(ids)
    k = min(k, len(ids))
    keep = ids[k:] + [ctx.win_tile]
    c = np.bincount(keep, minlength=34).astype(np.uint8)
    hand = Hand(c, melds=h.melds, wilds=k)
    return WinContext(
        hand,
        win_tile=ctx.win_tile,
        self_draw=ctx.self_draw,
        winner=ctx.winner,
        discarder=ctx.discarder,
        robbing_kong=ctx.robbing_kong,
    )


def _broken(rng, ctx, kinds):
    """The same win with one concealed tile (not the winning tile) swapped for another kind:
    mostly an incomplete hand."""
    h = ctx.hand
    c = h.counts.astype(int)
    seen = c + h.meld_counts
    out = [i for i in range(34) if c[i] and i != ctx.win_tile or c[i] > 1]
    into = [i for i in kinds if seen[i] < 4]
    if not out or not into:
        return ctx
    a, b = out[rng.integers(len(out))], into[rng.integers(len(into))]
    c[a] -= 1
    c[b] += 1
    hand = Hand(c.astype(np.uint8), melds=h.melds, wilds=h.wilds)
    return WinContext(
        hand,
        win_tile=ctx.win_tile,
        self_draw=ctx.self_draw,
        winner=ctx.winner,
        discarder=ctx.discarder,
        robbing_kong=ctx.robbing_kong,
    )


def _with_flowers(rng, ctx, rule):
    """The same win with 0-5 random flowers of the rule's tile set and random flags."""
    faces = [f for f, k in rule.tileset.bonus.items() for _ in range(min(k, 2))]
    k = int(rng.integers(0, 6))
    bonus = " ".join(faces[i] for i in rng.choice(len(faces), k, replace=False))
    h = ctx.hand
    hand = Hand(h.counts.copy(), melds=h.melds, wilds=h.wilds, bonus=bonus)
    sd = ctx.self_draw
    return WinContext(
        hand,
        win_tile=ctx.win_tile,
        self_draw=sd,
        winner=ctx.winner,
        discarder=ctx.discarder,
        robbing_kong=ctx.robbing_kong,
        after_kong=sd and rng.random() < 0.1,
        last_tile=bool(rng.random() < 0.1) and not ctx.robbing_kong,
    )


def _winds(rng, n):
    """Hands rich in wind pungs (concealed or called) for the 花 counts of 苏州 / 太仓."""
    return random_contexts(rng, [0, 4, 9, 13, 18, 22, 27, 28, 29, 30], n)


def _contexts(rng, name, n):
    rule = rules.get(name)
    kinds = list(KINDS[name])
    out = random_contexts(rng, kinds, n, chow_melds=rule.calls.chow != "none")
    # seven pairs (and four of a kind as two pairs) for the rules that have them
    for _ in range(n // 5):
        c = np.zeros(34, np.uint8)
        while c.sum() < 14:
            t = kinds[rng.integers(len(kinds))]
            if c[t] <= 2:
                c[t] += 2
        win = int(rng.choice(np.flatnonzero(c)))
        if rng.random() < 0.5:
            out.append(WinContext(Hand(c), win_tile=win, self_draw=True))
        else:
            out.append(WinContext(Hand(c), win_tile=win, discarder=1))
    if name in ("suzhou", "taicang"):
        out += _winds(rng, n // 2)
        out = [_with_flowers(rng, ctx, rule) for ctx in out]
    out += [_broken(rng, ctx, kinds) for ctx in out[: n // 2]]
    if name in WILD_RULES:
        out += [_with_wilds(rng, ctx, int(rng.integers(1, 4))) for ctx in out[: n // 2]]
    return out


@pytest.mark.parametrize("name", sorted(KINDS))
def test_can_win_matches_score(name, seed):
    rng = np.random.default_rng(seed)
    rule = rules.get(name)
    n_legal = n_illegal = 0
    for ctx in _contexts(rng, name, 300):
        try:
            want = _legal(ctx, name)
        except ValueError:  # an input the scorer rejects: can_win must reject it too
            with pytest.raises(ValueError):
                can_win(ctx, rule)
            continue
        assert can_win(ctx, rule) == want, (name, str(ctx.hand), ctx)
        assert can_win(ctx, name) == want
        n_legal += want
        n_illegal += not want
    assert n_legal > 20 and n_illegal > 20


@pytest.mark.parametrize("name", ["guiyang", "guangdong", "sichuan", "ruijin", "shangrao", "suzhou", "taicang"])
def test_can_win_options(name, seed):
    """The option-dependent branches of the fast paths (pass_scope, min_fan, thresholds …)."""
    variants = {
        "suzhou": [dict(threshold="2_3"), dict(threshold_counts="hard_only"), dict(qianggang_exempt=True)],
        "taicang": [
            dict(qidui=True),
            dict(threshold_exempt="suzhou_list"),
            dict(threshold_counts="hard_only"),
            dict(threshold_exempt="suzhou_list", threshold_counts="hard_only"),
        ],
        "guiyang": [dict(pass_scope="all_discard_wins")],
        "guangdong": [dict(min_fan=1)],
        "sichuan": [dict(xuezhan=True)],
        "ruijin": [dict(base=3), dict(lanhu="strict")],
        "shangrao": [dict(fei_mult=3)],
    }[name]
    rng = np.random.default_rng(seed + 5)
    for opts in variants:
        for ctx in _contexts(rng, name, 80):
            try:
                want = _legal(ctx, name, **opts)
            except ValueError:
                continue
            assert can_win(ctx, name, **opts) == want, (name, opts, str(ctx.hand))


def test_fast_paths_keep_errors():
    """Inputs the scorers reject are still rejected by can_win."""
    h = Hand("123m456p789s234s55p")
    with pytest.raises(ValueError, match="base"):
        can_win(WinContext(h, win_tile="5p", discarder=1), "ruijin", base=0)
    with pytest.raises(ValueError, match="fei_mult"):
        can_win(WinContext(h, win_tile="5p", discarder=1), "shangrao", fei_mult=0)
    with pytest.raises(ValueError, match="liability"):
        can_win(WinContext(h, win_tile="5p", discarder=1, liable=2), "ruijin")
    with pytest.raises(ValueError, match="honours"):
        can_win(WinContext(Hand("123m456p789s11z22z2z"), win_tile="2z", discarder=1), "sichuan")
    with pytest.raises(ValueError, match="bonus"):
        can_win(WinContext(Hand("123m456p789s234s55p", bonus="F1"), win_tile="5p", discarder=1), "jinhua")


@pytest.mark.parametrize("name", WILD_RULES[:4])
def test_complete_is_sound_with_wildcards(name, seed):
    """The kernel's complete test never accepts a hand the decomposition rejects (wildcards,
    melds and seven pairs included), and misses none of standard / seven-pairs shape."""
    rng = np.random.default_rng(seed + 11)
    rule = rules.get(name)
    play = _fast.ALL_KINDS if name != "taicang" else _fast.playable(KINDS["taicang"])
    for _ in range(400):
        ctx = random_contexts(rng, list(KINDS[name]), 1, chow_melds=True)[0]
        ctx = _with_wilds(rng, ctx, int(rng.integers(0, 4)))
        if rng.random() < 0.5:
            ctx = _broken(rng, ctx, list(KINDS[name]))
        h = ctx.hand
        # (the shortcut knows no honour chows: 瑞金's readings with them are the slow path's)
        reads = [
            d
            for d in decompose(h, rule=None if name == "taicang" else rule)
            if d.form in ("standard", "seven_pairs")
            and not (d.form == "standard" and d.tiles)
            and all(play[t] for t in d.wild_tiles)
        ]
        assert _fast.complete(h, _fast.STANDARD_PAIRS, play) == bool(reads), str(h)


def test_all_pungs():
    assert _fast.all_pungs(Hand("111222m333p444s55z").counts)
    assert not _fast.all_pungs(Hand("123m222m333p444s55z").counts)
    assert not _fast.all_pungs(Hand("111122m333p444s55z").counts)
    c = np.zeros(34, np.uint8)
    c[[0, 1]] = 2
    assert not _fast.all_pungs(c)
    c[1] = 0
    assert _fast.all_pungs(c)


def test_random_hand_helper_is_complete(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        h = random_hand(rng, list(range(34)), True)
        assert _fast.complete(h, _fast.STANDARD)
