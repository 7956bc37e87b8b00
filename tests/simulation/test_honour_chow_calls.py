"""瑞金 called honour chows in the game engine: the seed's "1，只能吃上家的牌。2，… 除筒万条子可以吃外，
中发白任何三个可以互吃，东南西北风任何三个也可以互吃" — a player may 吃 a wind from 上家 with two other
different winds, a dragon with the other two; the efficiency policy and user policies are offered
it, the records hold it, and every win holding one is accepted by ``mj.can_win``.

``MJFAST_ORACLE_SCALE=full`` plays more games."""

import itertools
import os

import mjfast as mj
from mjfast.scoring import can_win

FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"
WIND_CHOWS = ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30))
DRAGON_CHOW = (31, 32, 33)


def _honour_chow_tiles(code):
    """The tiles of an honour chow meld row (27-30: the three winds but that one; 31: 中发白),
    written here independently of the kernel."""
    return DRAGON_CHOW if code == 31 else tuple(w for w in range(27, 31) if w != code)


def _sweep(name, n, seed=20261201):
    from mjfast.simulation import _chunks
    from mjfast.simulation import games as G

    game = G._Game(mj.rules.get(name))
    sizes = _chunks.chunk_sizes(n)
    children = _chunks.seed_sequence(seed).spawn(len(sizes))
    raw = G._raw(game, _chunks.bit_generators(children), sizes, 1)
    outcomes = []
    G._rows(game, *raw, outcomes=outcomes)
    return game, raw, outcomes


def test_the_engine_calls_honour_chows_from_the_left_and_wins_with_them():
    # "只能吃上家的牌 … 中发白任何三个可以互吃，东南西北风任何三个也可以互吃"
    from _sim_helpers import check_tiles_conserved

    n = 3000 if FULL else 400
    game, raw, outcomes = _sweep("ruijin", n)
    melds = raw[2]
    called = 0
    for g in range(n):
        for s in range(4):
            for kind, code, src, _order, _wilds in melds[g, s]:
                if kind == 0 and code >= 27:
                    called += 1
                    assert code <= 31 and src == (s - 1) % 4  # from 上家 (the discarder on his left)
    check_tiles_conserved(game, raw)
    holding = 0
    for o in outcomes:
        for (_w, _s), ctx in zip(o.scores, o.contexts):
            hc = [m for m in ctx.hand.melds if m.is_honour_chow]
            for m in hc:
                assert m.tiles in WIND_CHOWS + (DRAGON_CHOW,) and m.source == "left"
            holding += bool(hc)
            assert can_win(ctx, "ruijin", **game.score_options), str(ctx.hand)
            assert mj.shanten(ctx.hand, rule="ruijin") == -1
    assert called > n // 20 and holding > n // 100, (called, holding)


def test_only_ruijin_offers_honour_chows_in_play():
    for name in ("shangrao", "guangdong", "jj"):
        _game, raw, _o = _sweep(name, 200)
        melds = raw[2]
        assert not ((melds[..., 0] == 0) & (melds[..., 1] >= 27)).any(), name


def test_user_policies_are_offered_honour_chows():
    from toy_policies import HonourChower

    from mjfast.policies import CHOW_TILES, Efficiency

    chower = HonourChower()
    df = mj.simulate_games("ruijin", 150, rng=5, n_threads=1, policy=[chower, Efficiency(), Efficiency(), Efficiency()])
    assert len(df) == 150 and chower.offers
    for seat, tile, code, wilds, counts, held, (discarder, discard), _melds in chower.offers:
        assert discarder == (seat - 1) % 4 and discard == tile
        tiles = _honour_chow_tiles(code)
        assert CHOW_TILES[code] == tiles and tile in tiles
        assert tile not in wilds and set(wilds) <= set(tiles) and len(wilds) <= held  # 宝 for the others
        assert all(counts[t] >= 1 for t in tiles if t != tile and t not in wilds)
    # the views show the called honour chows with their tiles
    shown = [m for *_x, ms in chower.offers for row in ms for m in row if m.kind == "chow" and m.tile >= 27]
    assert shown and all(m.tiles == _honour_chow_tiles(m.tile) for m in shown)


def _splits_into_sets(c, w, sets):
    """Whether the counts ``c`` and ``w`` wildcards split exactly into ``sets`` (tuples of three
    kinds), a wildcard standing in any place: the lowest held kind is taken, with each other
    place of a set holding it filled by a held tile or a wildcard."""
    k = next((i for i, x in enumerate(c) if x), None)
    if k is None:
        return w % 3 == 0
    c[k] -= 1
    try:
        for s in sets:
            if k not in s:
                continue
            others = list(s)
            others.remove(k)
            for natural in itertools.product((0, 1), repeat=2):
                taken = [t for n, t in zip(natural, others) if n]
                for t in taken:
                    c[t] -= 1
                ok = min(c) >= 0 and 2 - len(taken) <= w and _splits_into_sets(c, w - 2 + len(taken), sets)
                for t in taken:
                    c[t] += 1
                if ok:
                    return True
        return False
    finally:
        c[k] += 1


def _lone_wildcard_wait(counts, wilds, n_melds, sets):
    """Whether some discard leaves the hand as sets plus one lone wildcard (or, concealed, six
    pairs and the wildcard): the 飞 wait, on which any tile wins."""
    for z in range(34):
        if not counts[z] or wilds < 1:
            continue
        c = list(counts)
        c[z] -= 1
        if _splits_into_sets(c, wilds - 1, sets):
            return True
        singles = sum(x & 1 for x in c)
        if n_melds == 0 and singles <= wilds - 1 and (wilds - 1 - singles) % 2 == 0:
            return True
    return False


def test_the_fei_wait_counts_honour_chows_as_sets():
    """瑞金 制飞 ("…剩下一张宝牌单吊") under the rule's honour chows: a hand whose sets include
    东南西 or 中发白 may wait with its lone 宝 as much as any other.  With the kernel's test hook
    (``fei_policy=1``: declare whenever a self-drawn hand allows it), no self-drawn win is
    taken where a discard would leave sets — honour chows among them — and the lone 宝."""
    from _sim_helpers import raw, scored

    suits = [(t, t, t) for t in range(34)] + [(t, t + 1, t + 2) for s in (0, 9, 18) for t in range(s, s + 7)]
    sets = suits + list(WIND_CHOWS) + [DRAGON_CHOW]
    game, rec = raw("ruijin", 3000 if FULL else 800, 7, fei_policy=1)
    outcomes, _rows = scored(game, rec)
    won = missed = declared = 0
    for o in outcomes:
        declared += sum(o.declared_wait(s) for s in range(4))
        for e, ctx in zip([e for e in o.events for _w in e.winners], o.contexts):
            if e.how != "self_draw" or o.declared_wait(ctx.winner):
                continue
            won += 1
            counts = [int(x) for x in ctx.hand.counts[:34]]
            missed += _lone_wildcard_wait(counts, ctx.hand.wilds, len(ctx.hand.melds), sets)
    assert won > 100 and declared > 20, (won, declared)
    assert missed == 0, f"{missed} of {won} self-drawn wins could have waited with the lone 宝"
