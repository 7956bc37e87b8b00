"""Helpers shared by the simulation tests: the kernel records of seeded games, the tile count
check, and the dealer rotation of every rule written from its source (an oracle independent of
the scorers' next_deal hooks)."""

import numpy as np

import mjfast as mj
from mjfast.simulation import _chunks
from mjfast.simulation import games as G


def raw(rule, n, seed, *, fei_policy=0, pung_policy=0, pass_policy=0, log=0, policy=None, **options):
    """``(game, records)``: the kernel's records of the games ``simulate_games(rule, n, rng=seed,
    policy=policy)`` plays (``log``: keep that many action-log entries per game)."""
    rule = rule if isinstance(rule, mj.rules.Rule) else mj.rules.get(rule, **options)
    game = G._Game(
        rule,
        fei_policy=fei_policy,
        pung_policy=pung_policy,
        pass_policy=pass_policy,
        seats=mj.policies.resolve(policy),
    )
    sizes = _chunks.chunk_sizes(n)
    children = _chunks.seed_sequence(seed).spawn(len(sizes))
    return game, G._raw(game, _chunks.bit_generators(children), sizes, 1, log=log)


def scored(game, records, log=False):
    """The Outcomes of recorded games after scoring (each with its ``scores``), and the rows."""
    outcomes = []
    rows = G._rows(game, *records[:6], outcomes=outcomes)
    return outcomes, rows


def actions(lg):
    """The action log of one game as ``(action name, seat, tile)`` tuples."""
    names = {v: k for k, v in G._kg.ACTIONS.items()}
    return [(names[int(a)], int(s), int(t)) for a, s, t in lg if a >= 0]


def tiles_in_play(game, flipped):
    """(natural copies per kind, copies per bonus code, wildcards) in play for a flipped code."""
    t = game.tables
    row = flipped if t.flip else 0
    copies = t.copies[row].astype(int)
    bonus = {mj.tiles.CODES.index(c): n for c, n in game.rule.tileset.bonus.items()}
    wilds = 0
    if t.flip:
        wilds = game.rule.wildcard.wild_copies(mj.tiles.CODES[flipped])
        if t.wild_kind[flipped] is None:  # flower faces are the wildcards
            for c in game.rule.wildcard.successor(mj.tiles.CODES[flipped]):
                bonus[mj.tiles.CODES.index(c)] = 0
    return copies, bonus, wilds


def check_tiles_conserved(game, records):
    """No kind appears more often than its copies in play; flowers and wildcards likewise."""
    rec, hands, melds, kongs, events, seats = records[:6]
    name = game.name
    for i in range(len(rec)):
        flipped = int(rec[i, 12])
        assert (flipped >= 0) == game.tables.flip
        copies, bonus, n_wild = tiles_in_play(game, flipped)
        seen = hands[i].sum(0).astype(int) + seats[i, :, 48:82].sum(0)
        wild_in_melds = 0
        for s in range(4):
            for kind, t, _src, _order, wm in melds[i, s]:
                if kind >= 0:
                    if kind == 0:  # a chow: by its lowest tile, an honour chow (瑞金) 27-30 / 31 by its code
                        tiles = [t, t + 1, t + 2] if t < 27 or t == 31 else [w for w in range(27, 31) if w != t]
                    else:
                        tiles = [t] * (3 if kind == 1 else 4)
                        assert wm == 0, (name, i, "a wildcard stands in a chow only")
                    for pos, x in enumerate(tiles):
                        if wm >> pos & 1:  # a wildcard stands for it (瑞金: the 宝 stays in the chow)
                            wild_in_melds += 1
                        else:
                            seen[x] += 1
        for e in range(int(rec[i, 11])):
            how, _d, tile, _f, emask, _lk, _b = (int(x) for x in events[i, e])
            if how in (1, 2):  # one tile, in every hand that won on it
                seen[tile] -= bin(emask).count("1") - 1
        assert (seen <= copies).all(), (name, i, np.flatnonzero(seen > copies))
        flowers = seats[i, :, :48].sum(0)
        for code in np.flatnonzero(flowers):
            assert flowers[code] <= bonus.get(int(code), 0), (name, i, mj.tiles.CODES[code])
        assert seats[i, :, 82].sum() + wild_in_melds <= n_wild, (name, i, "wildcards held and in chows")


def winners(cell):
    return [int(x) for x in str(cell).split(",") if x]


def expected_next_dealer(name, options, row):
    """The next dealer as each rule's source states it (rules/<variant>.md), from a hand's row;
    None where the frame does not carry what the rule needs (贵阳 黄庄: who is ready)."""
    dealer, ws, how, disc = int(row.dealer), winners(row.winners), str(row.how), int(row.discarder)
    if not ws:  # 荒庄 / 流局
        if name == "guangdong" and options.get("draw") == "pass":
            return (dealer + 1) % 4  # 过庄
        if name == "guiyang":
            return None  # depends on who is ready
        return dealer  # every other rule: the dealer stays
    if name == "guangdong":  # the dealer keeps the deal on a win, else 下家
        return dealer if dealer in ws else (dealer + 1) % 4
    if name == "sichuan":
        if options.get("xuezhan"):  # SC-A8: the first winner (the caller checks discard wins)
            return ws[0]
        return disc if how in ("discard", "robbing_kong") else ws[0]  # 点炮者坐庄
    if name == "guiyang":
        if len(ws) == 3 and options.get("dealer", "B") == "B":
            return disc  # 一炮三响: the discarder deals
        return ws[0]  # 湖牌者接庄
    if name == "taicang" and how == "robbing_kong":
        return disc  # after a robbed kong the konger deals
    if name == "jj" and options.get("dealer", "next") == "next":
        return (dealer + 1) % 4  # the deal passes on (荒庄 keeps it)
    if name == "suzhou" and options.get("dealer") == "dahu_keeps":
        codes = set(str(row.elements).split(","))
        if codes & DAHU:
            return dealer  # 大胡不改变庄家
    return ws[0]  # 谁胡牌谁下一把坐庄 (the first winner)


#: 苏州's 大胡 ([001] 大胡 items): 门清 (three kinds), 混一色, 清一色, 对对胡, 七对, 杠开, 大吊车.
DAHU = {
    "small_concealed",
    "big_concealed",
    "big_small_concealed",
    "half_flush",
    "full_flush",
    "all_pungs",
    "seven_pairs",
    "kong_bloom",
    "big_hanging",
}


def check_running_totals(df):
    """Zero-sum hands and running totals; each player's total is the sum of what his seats got."""
    import pandas as pd

    from mjfast.simulation import matches as M

    pay = ["pay_0", "pay_1", "pay_2", "pay_3"]
    cum = ["cum_0", "cum_1", "cum_2", "cum_3"]
    assert (df[pay].sum(axis=1) == 0).all() and (df[cum].sum(axis=1) == 0).all()
    seating = df["seating"].astype(str) if "seating" in df.columns else pd.Series(["0123"] * len(df), df.index)
    pays, cums = df[pay].to_numpy(), df[cum].to_numpy()
    seats = seating.to_numpy()
    matches = df["match"].to_numpy()
    totals = np.zeros(4, np.int64)
    for i in range(len(df)):
        if i == 0 or matches[i] != matches[i - 1]:
            totals[:] = 0
        for s in range(4):
            totals[int(seats[i][s])] += pays[i, s]
        assert totals.tolist() == cums[i].tolist(), (i, totals, cums[i])
    s = M.match_summary(df)
    hands = df.groupby("match").size()
    assert (s.groupby("match")["total"].sum() == 0).all()
    assert (s.groupby("match")["dealt"].sum() == hands).all()
    won = df[df["how"] != "draw_game"]
    assert s["wins"].sum() == sum(len(winners(w)) for w in won["winners"])


def check_rotation(name, options, df) -> int:
    """Every hand's next dealer is the one the rule's source names (hand 0: seat 0 deals); the
    number of transitions checked exactly."""
    checked = 0
    for _m, part in df.groupby("match"):
        rows = list(part.itertuples())
        assert rows[0].dealer == 0
        for row, nxt in zip(rows, rows[1:]):
            if name == "guobiao":
                assert nxt.dealer == nxt.hand % 4  # 16 hands, no 连庄: each seat deals once a round
                checked += 1
                continue
            want = expected_next_dealer(name, options, row)
            if want is None:
                assert 0 <= nxt.dealer <= 3
                continue
            if name == "sichuan" and options.get("xuezhan") and row.how in ("discard", "robbing_kong"):
                # SC-A8: the first winner, or the discarder when several won on that first discard
                assert nxt.dealer in (int(row.discarder), winners(row.winners)[0])
                continue
            assert nxt.dealer == want, (name, options, row, nxt.dealer)
            checked += 1
    return checked


def check_winds_and_seating(name, df):
    """The prevalent wind: 国标 one round per four hands with the seat swap before the third;
    elsewhere the next wind after every four changes of dealer."""
    for _m, part in df.groupby("match"):
        winds = part["prevalent_wind"].tolist()
        dealers = part["dealer"].tolist()
        if name == "guobiao":
            assert winds == [h // 4 for h in range(len(winds))]
            seats = part["seating"].astype(str).tolist()
            assert seats == ["0123"] * min(8, len(seats)) + ["1032"] * max(0, len(seats) - 8)
            if len(seats) > 8:
                assert int(seats[8][dealers[8]]) == 1  # the original South deals first in round 3
            continue
        changes = 0
        for h in range(1, len(winds)):
            changes += dealers[h] != dealers[h - 1]
            assert winds[h] == (changes // 4) % 4
