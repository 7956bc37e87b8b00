"""瑞金 a 宝 in a called chow: the seed's "如果含有宝，算吃成功，但宝不能拿起来了" — a chow that holds a 宝
is a valid chow, and the 宝 is then locked in that meld.  The engine offers such chows (with one
or two 宝 for the tiles the player lacks) to its players and to user policies, the records and
:class:`~mjfast.Meld` say which tiles the 宝 stand for, and every win holding one is accepted by
``mj.can_win``.  Rules whose wildcard may not be called into a chow never make one.

``MJFAST_ORACLE_SCALE=full`` plays more games."""

import os

import numpy as np
import pytest
from test_honour_chow_calls import _sweep

import mjfast as mj
from mjfast.policies import CHOW_TILES, Efficiency
from mjfast.scoring import WinContext, can_win

FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"


def _chow_tiles(code):
    """A chow row's tiles, written here independently of the kernel (27-30: the three winds but
    that one; 31: 中发白)."""
    if code < 27:
        return (code, code + 1, code + 2)
    return (31, 32, 33) if code == 31 else tuple(w for w in range(27, 31) if w != code)


def test_the_engine_calls_chows_with_a_bao_and_wins_with_them():
    from _sim_helpers import check_tiles_conserved

    n = 3000 if FULL else 400
    game, raw, outcomes = _sweep("ruijin", n)
    melds = raw[2]
    locked = 0
    for g in range(n):
        for s in range(4):
            for kind, code, src, _order, wm in melds[g, s]:
                if kind >= 0 and wm:
                    locked += 1
                    assert kind == 0 and src == (s - 1) % 4, "a 宝 stands in a chow from 上家 only"
                    assert 1 <= wm <= 6 and bin(int(wm)).count("1") <= 2, "one or two of its three tiles"
    check_tiles_conserved(game, raw)  # a 宝 in a chow counts as a wildcard, not as the tile it stands for
    holding = 0
    for o in outcomes:
        for s in range(4):
            for rec in o.melds(s):
                assert set(rec.wilds) <= set(_chow_tiles(rec.tile)) if rec.kind == "chow" else not rec.wilds
        for (w, _s), ctx in zip(o.scores, o.contexts):
            wild = [m for m in ctx.hand.melds if m.wilds]
            if not wild:
                continue
            holding += 1
            h = ctx.hand
            for m in wild:
                assert m.kind == "chow" and m.source == "left" and set(m.wilds) < set(m.tiles)
            assert h.meld_wilds == sum(len(m.wilds) for m in wild)
            natural = np.zeros(34, int)
            for m in h.melds:
                for t in m.tiles:
                    natural[t] += t not in m.wilds
            assert (h.meld_counts == natural).all()  # the tiles a 宝 stands for are no natural tiles
            assert h.wilds + h.meld_wilds <= 4
            assert can_win(ctx, "ruijin", **game.score_options), str(h)
            assert mj.shanten(h, rule="ruijin") == -1
    assert locked > n // 10 and holding > n // 50, (locked, holding)


@pytest.mark.parametrize("name", ["shangrao", "taicang", "jinhua", "jj"])
def test_no_other_rule_calls_its_wildcard_into_a_chow(name):
    _game, raw, _o = _sweep(name, 200)
    melds = raw[2]
    assert not (melds[..., 4] > 0).any(), name
    assert ((melds[..., 0] == 0) & (melds[..., 4] == 0)).any() or mj.rules.get(name).calls.chow != "left"


def test_user_policies_are_offered_chows_with_a_bao():
    from toy_policies import WildChower

    chower = WildChower()
    df = mj.simulate_games("ruijin", 200, rng=5, n_threads=1, policy=[chower, Efficiency(), Efficiency(), Efficiency()])
    assert len(df) == 200 and len(chower.offers) > 20
    for view, (_chow, code, wilds) in chower.offers:
        tiles = CHOW_TILES[code]
        assert tiles == _chow_tiles(code) and view.tile in tiles and view.tile not in wilds
        assert 1 <= len(wilds) <= min(2, view.wilds) and set(wilds) <= set(tiles)
        assert all(view.counts[t] >= 1 for t in tiles if t != view.tile and t not in wilds)
    # the seat's later views show the chow with its 宝 (it stays in the meld)
    shown = [m for v in chower.views for m in v.melds[v.seat] if m.wilds]
    assert shown and all(m.kind == "chow" and set(m.wilds) < set(m.tiles) for m in shown)
    assert any("~" in h for h in df.loc[df.winners == "0", "winning_hand"])


def test_a_bao_chow_the_engine_did_not_offer_is_refused():
    from toy_policies import WrongWildChower

    with pytest.raises(ValueError, match=r"seat 0, turn \d+ .*claim.*not one of the legal options"):
        mj.simulate_games("ruijin", 200, rng=5, n_threads=1, policy=[WrongWildChower()] + [Efficiency()] * 3)


def test_a_meld_says_which_tiles_its_wildcard_stands_for():
    m = mj.Meld.parse("456m~6m@left")
    assert m == mj.Meld("chow", "456m", source="left", wilds="6m") and m.wilds == (5,)
    assert str(m) == "456m~6m@left" and mj.Meld.parse(str(m)) == m and m.natural_tiles == (3, 4)
    h = mj.Hand("123m789s55s666p", melds=[m])
    assert h.meld_wilds == 1 and h.meld_counts[5] == 0 and h.meld_counts[3] == 1
    assert "456m~6m" in str(h)
    ctx = WinContext(h, win_tile="5s", self_draw=True)
    assert can_win(ctx, "ruijin")
    assert mj.shanten(mj.Hand("123m789s5s666p", melds=[m]), rule="ruijin") == 0
    # four natural 6m beside a 宝 standing for a fifth: not a fifth copy
    mj.Hand("123m6666p5s", melds=[mj.Meld.parse("456p~6p@left"), "789s@left"])
    for bad, words in (
        (lambda: mj.Meld("pung", "555m", wilds="5m"), "chow only"),
        (lambda: mj.Meld("chow", "456m", wilds="7m"), "stand for one or two different tiles"),
        (lambda: mj.Meld("chow", "456m", wilds="456m"), "one or two"),
        (lambda: mj.Meld("chow", "456m", claimed="6m", wilds="6m"), "claimed tile 6m is a natural tile"),
        (lambda: can_win(ctx, "taicang"), "does not let its 百搭 stand in a called chow"),
        (lambda: can_win(ctx, "suzhou"), "has no wildcards"),
        (lambda: mj.shanten(mj.Hand("123m789s5s666p", melds=[m]), rule="shangrao"), "宝 stand in a called chow"),
    ):
        with pytest.raises(ValueError, match=words):
            bad()
