"""The game engine plays each rule as its source says: liabilities (包), kong-discard settlements,
claim order (截和 / 一炮多响, several robbers), call locks, 飞 / 宝吊头, first-turn hands, flowers and
wildcards in play.  Each test quotes the sentence it checks; each failed on the engine before
these rules' facts and hooks existed."""

import numpy as np
import pytest
from _sim_helpers import actions, raw, scored

import mjfast as mj
from mjfast.scoring import WinContext
from mjfast.simulation import games as G


# --------------------------------------------------------------------------------------------
# liabilities
def test_suzhou_baojiaozi_feeder_pays_three_shares():
    """包饺子：一人支付3倍费用（放给玩家杠，此杠牌玩家杠开） — a win on the replacement of a kong made
    on P's discard is paid by P alone, three shares."""
    game, rec = raw("suzhou", 4000, 11)
    outcomes, rows = scored(game, rec)
    found = 0
    for g, o in enumerate(outcomes):
        if not o.events or o.events[0].how != "self_draw" or o.events[0].kong < 0:
            continue
        k = o.kongs[o.events[0].kong]
        w = o.events[0].winners[0]
        if k.konger != w or k.kind != "direct":
            continue
        pay = [rows[f"pay_{s}"][g] for s in range(4)]
        share = o.scores[0][1].points
        assert pay[k.feeder] == -3 * share and pay[w] == 3 * share, (g, pay)
        assert all(pay[s] == 0 for s in range(4) if s not in (w, k.feeder))
        found += 1
    assert found >= 5


def test_suzhou_songgang_any_later_selfdraw():
    """送杠 (option any_later_selfdraw): 被對方杠牌后自摸，被杠牌方幫其他兩家付牌 — any later self-draw of
    the konger is paid by the player whose tile he konged."""
    game, rec = raw("suzhou", 4000, 12, songgang_scope="any_later_selfdraw")
    outcomes, rows = scored(game, rec)
    found = 0
    for g, o in enumerate(outcomes):
        if not o.events or o.events[0].how != "self_draw":
            continue
        w = o.events[0].winners[0]
        fed = [k.feeder for k in o.kongs if k.konger == w and k.kind == "direct"]
        if not fed:
            continue
        pay = [rows[f"pay_{s}"][g] for s in range(4)]
        assert pay[fed[-1]] == -pay[w] and sum(p != 0 for p in pay) == 2, (g, pay)
        found += 1
    assert found >= 5


def _guangdong_events(o):
    """Every 包 condition of a hand in the order made, written from guangdong.md §5: P's discard
    completes B's 4th exposed set (包自摸), or B's 4th exposed wind set / 3rd exposed dragon set."""
    out = []
    for b in range(4):
        exposed = winds = dragons = 0
        for m in sorted(o.melds(b), key=lambda m: m.order):
            if m.kind == "concealed_kong":
                continue
            exposed += 1
            winds += m.kind != "chow" and 27 <= m.tile <= 30
            dragons += m.kind != "chow" and m.tile >= 31
            if exposed == 4 or (
                m.kind != "chow" and ((27 <= m.tile <= 30 and winds == 4) or (m.tile >= 31 and dragons == 3))
            ):
                out.append((m.order, m.source, b))
    return [(liable, b) for _o, liable, b in sorted(out)]


def test_guangdong_liabilities_in_play():
    """杠上开花包杠: W kongs P's discard and wins on the replacement — P pays all 3 shares; 包自摸:
    if P's discard lets B complete a 4th exposed set and B later self-draws, P pays all 3 shares
    (包先不包后: only the first liability of the hand binds)."""
    game, rec = raw("guangdong", 6000, 13)
    outcomes, rows = scored(game, rec)
    kong_bloom = twelve = 0
    for g, o in enumerate(outcomes):
        if not o.events or o.events[0].how != "self_draw":
            continue
        ev = o.events[0]
        w = ev.winners[0]
        pay = [rows[f"pay_{s}"][g] for s in range(4)]
        share = o.scores[0][1].points
        k = o.kongs[ev.kong] if ev.kong >= 0 else None
        if k is not None and k.konger == w and k.kind == "direct":
            assert pay[k.feeder] == -3 * share, (g, pay)
            kong_bloom += 1
            continue
        events = _guangdong_events(o)
        if events and events[0][1] == w:
            liable = events[0][0]
            assert pay[liable] == -3 * share and sum(p != 0 for p in pay) == 2, (g, pay, events)
            twelve += 1
        else:
            assert all(pay[s] == -share for s in range(4) if s != w), (g, pay)
    assert kong_bloom >= 5 and twelve >= 2, (kong_bloom, twelve)


def test_guangdong_lipai_names_the_last_feeder():
    """例牌包自摸: "如有人打出余下一款者，那人则需承担包自模的使命" — the liable player is the one who
    discarded the *last* dragon of 大三元, not any feeder of a dragon set."""
    melds = ["555z@left", "666z@opposite", "777z@right"]
    h = mj.Hand("123m99s", melds=melds)
    last = (1 + 1) % 4  # winner seat 1; the 777z came from his 下家 (right): seat 2
    ok = WinContext(h, win_tile="9s", self_draw=True, winner=1, liable=last)
    assert mj.score(ok, "guangdong").payments.tolist()[last] == -3 * mj.score(ok, "guangdong").points
    first = (1 + 3) % 4  # the 555z came from his 上家: seat 0
    with pytest.raises(ValueError, match="包"):
        mj.score(WinContext(h, win_tile="9s", self_draw=True, winner=1, liable=first), "guangdong")


def test_jinhua_chengbao():
    """承包: "玩家可以连续三次或三次以上吃、碰、杠同一玩家的牌，满三次后则开始承包对方的牌" — after the
    third consecutive claim from one discarder, that discarder pays every share of the win."""
    game, rec = raw("jinhua", 3000, 14)
    outcomes, rows = scored(game, rec)
    found = 0
    for g, o in enumerate(outcomes):
        for ev in o.events:
            for w in ev.winners:
                srcs = [m.source for m in sorted(o.melds(w), key=lambda m: m.order) if m.kind != "concealed_kong"]
                liable = next((srcs[j] for j in range(len(srcs) - 2) if srcs[j] == srcs[j + 1] == srcs[j + 2]), None)
                if liable is None:
                    continue
                pay = [rows[f"pay_{s}"][g] for s in range(4)]
                assert pay[liable] == -pay[w] and sum(p != 0 for p in pay) == 2, (g, pay, srcs)
                found += 1
    assert found >= 5


# --------------------------------------------------------------------------------------------
# kong-discard settlements
def test_guiyang_shaodou_and_repao():
    """烧豆 "结算为3个豆打底" — a win on the discard right after the discarder's kong is settled with
    a 3-豆 base; 热炮 "不可以再有任何进钱的机会（一废全废）" — that discarder collects nothing in the hand."""
    game, rec = raw("guiyang", 6000, 15)
    outcomes, rows = scored(game, rec)
    found = 0
    for g, o in enumerate(outcomes):
        if not o.events or o.events[0].how != "discard" or not o.events[0].has("kong_discard"):
            continue
        ev = o.events[0]
        s = o.scores[0][1]
        assert "shaodou" in [r[0] for r in s.rows], s.rows
        pay = [rows[f"pay_{p}"][g] for p in range(4)]
        won = sum(sc.points for _w, sc in o.scores)
        assert pay[ev.discarder] <= -won, (g, pay, won)  # he pays the win(s), gains nothing
        found += 1
    assert found >= 10


def test_guiyang_added_kong_keeps_the_pung_chicken():
    """打鸡被碰: a discarded 1条 that was ponged earns the ponger one chicken from the discarder, and
    so does it when the pung later becomes a 补杠 (the discard was ponged all the same)."""
    from mjfast.scoring import guiyang

    game, rec = raw("guiyang", 6000, 16)
    outcomes, _rows = scored(game, rec)
    added = 0
    for o in outcomes:
        want = sorted(
            (m.source, s)
            for s in range(4)
            for m in o.melds(s)
            if m.tile == 18 and m.kind in ("pung", "kong", "added_kong")
        )
        assert sorted(guiyang._ponged_chickens(o)) == want
        added += any(m.tile == 18 and m.kind == "added_kong" for s in range(4) for m in o.melds(s))
    assert added >= 3


def test_sichuan_gangshangpao_each_winner_receives_the_kong_income():
    """杠上炮: "如果1炮多响则胡家给多份" — with several winners each receives the whole kong income."""
    from mjfast.scoring import sichuan

    game, rec = raw("sichuan", 20000, 17)
    outcomes, rows = scored(game, rec)
    found = 0
    for g, o in enumerate(outcomes):
        ev = o.events[0] if o.events else None
        if ev is None or ev.how != "discard" or not ev.has("kong_discard") or len(ev.winners) < 2:
            continue
        k = o.kongs[ev.kong]
        income = int(sichuan.kong_payment(k.kind, k.konger, k.feeder)[ev.discarder])
        for _w, s in o.scores:
            assert s.payments[ev.discarder] == -(s.points + income), (g, s.payments)
        found += 1
    assert found >= 3


# --------------------------------------------------------------------------------------------
# claims and first-turn hands
def test_guobiao_head_bump_by_default():
    """截和: a discard is won by the nearest claimant counter-clockwise from the discarder; 一炮多响
    stays an option (``yipao_duoxiang=True``)."""
    game, rec = raw("guobiao", 3000, 18)
    multi = sum(bin(int(m)).count("1") > 1 for m in rec[4][:, 0, 4])
    assert multi == 0
    game, rec = raw("guobiao", 3000, 18, yipao_duoxiang=True)
    assert sum(bin(int(m)).count("1") > 1 for m in rec[4][:, 0, 4]) > 0


def test_several_robbers_where_the_rule_allows_them():
    """上饶: "Several robbers may all win" although a discard has one winner (head bump)."""
    sr = mj.rules.get("shangrao")
    assert sr.calls.multiple_winners is False and sr.calls.several_robbers is True
    seen = {}

    def spy(*args, **kw):
        seen.update(kw)
        return real(*args, **kw)

    real = G._kg.simulate_games_kernel
    try:
        G._kg.simulate_games_kernel = spy
        raw("shangrao", 10, 1)
    finally:
        G._kg.simulate_games_kernel = real
    assert seen["rob_multi"] is True and seen["multi"] is False


def test_guobiao_lianzhong_first_turn_hands():
    """联众 (guobiao.md §4): 天和 the dealer wins on the deal; 地和 "after the dealer's first discard,
    his 下家 self-draws"; 人和 "a win within the first go-around".  So the dealer's own discard win in
    the first go-around is 人和, never 地和."""
    game = G._Game(mj.rules.get("guobiao", lianzhong_extras=True))
    counts = mj.tiles.counts("123m456m789p234s55p").astype(np.uint8).tobytes()
    f = G._kg.FLAGS
    ask = dict(counts=counts, melds=(), tile=mj.tiles.CODES.index("5p"))
    deal = game.context(seat=0, self_draw=1, discarder=-1, dealer=0, flags=f["heavenly"] | f["first_round"], **ask)
    assert deal.heavenly and not deal.earthly and not deal.human
    nxt = game.context(seat=1, self_draw=1, discarder=-1, dealer=0, flags=f["earthly"] | f["first_round"], **ask)
    assert nxt.earthly and not nxt.human
    other = game.context(seat=2, self_draw=1, discarder=-1, dealer=0, flags=f["earthly"] | f["first_round"], **ask)
    assert other.human and not other.earthly
    own = game.context(seat=0, self_draw=0, discarder=3, dealer=0, flags=f["first_round"], **ask)
    assert own.human and not own.earthly
    plain = G._Game(mj.rules.get("guobiao"))
    assert not plain.context(seat=1, self_draw=1, discarder=-1, dealer=0, flags=f["earthly"], **ask).earthly


def _locked_claims(rule):
    """Claims (碰/杠) by a seat of a kind it passed a 碰 of, or discarded while holding three, before
    its next draw — replayed from the action log (the deal is logged as draws) of players who 碰
    whenever they may (the efficiency players, whose calls ``pung_policy`` sets, never re-claim a
    kind they passed or broke up)."""
    game, rec = raw(rule, 1500, 19, pung_policy=1, log=700, policy=mj.policies.Efficiency())
    n = 0
    for lg in rec[6]:
        locked = {s: set() for s in range(4)}
        held = [[0] * 35 for _ in range(4)]
        dealt = 0
        last_discard = None
        for act, seat, tile in actions(lg):
            if act == "draw":
                held[seat][tile] += 1
                dealt += 1
                if dealt > 52:  # a draw of play (not the deal) ends the seat's locks
                    locked[seat] = set()
            elif act == "discard":
                if held[seat][tile] == 3:
                    locked[seat].add(tile)  # discarded one of three
                held[seat][tile] -= 1
                last_discard = tile
            elif act == "pass_pung":
                locked[seat].add(tile)
            elif act in ("pung", "kong"):
                n += tile in locked[seat]
                held[seat][tile] -= 2 if act == "pung" else 3
                locked[seat] = set()
            elif act == "chow":
                for k in (tile, tile + 1, tile + 2):
                    held[seat][k] -= k != last_discard
            elif act == "added_kong":
                held[seat][tile] -= 1
            elif act == "concealed_kong":
                held[seat][tile] -= 4
    return n


def test_suzhou_call_locks():
    """苏州 call locks (suzhou.md §3): "a player who declined a 碰 cannot pung the same tile if
    another player discards it" and "a player who held 3 of a tile and discarded one cannot pung
    that tile if another player discards it" — until his own next draw."""
    import dataclasses

    locked = mj.rules.get("suzhou")
    assert locked.engine.call_locks
    assert _locked_claims(locked) == 0
    # the same count finds passed-then-claimed pungs when the locks are off
    unlocked = dataclasses.replace(locked, engine=dataclasses.replace(locked.engine, call_locks=False))
    assert _locked_claims(unlocked) > 0


# --------------------------------------------------------------------------------------------
# 飞 / 宝吊头
@pytest.mark.parametrize("name, element", [("ruijin", "fei"), ("shangrao", "baodiaotou")])
def test_lone_wildcard_wait_declared_and_settled(name, element):
    """瑞金 飞 / 上饶 宝吊头: a player may decline the complete hand and wait with the lone 宝 (any tile
    then wins).  瑞金: "制飞成功后还要空转一圈" (a go-around without 碰/杠/胡, else it is not 飞) and
    "制飞后不能平胡" (no discard win after declaring); 上饶: the next own draw wins.  Driven by the
    kernel's policy hook (``fei_policy=1``: declare whenever a self-drawn hand allows it)."""
    game, rec = raw(name, 1500, 20, fei_policy=1, log=800)
    outcomes, _rows = scored(game, rec)
    declared = fei = broken = 0
    for g, o in enumerate(outcomes):
        acts = actions(rec[6][g])
        wins = [(ev, w, sc) for ev, (w, sc) in zip([e for e in o.events for _w in e.winners], o.scores)]
        for s in range(4):
            if not o.declared_wait(s):
                continue
            declared += 1
            i = next(j for j, a in enumerate(acts) if a[0] == "fei" and a[1] == s)
            calls = any(a[0] in ("pung", "kong", "chow", "added_kong", "concealed_kong") for a in acts[i + 1 :])
            for ev, w, sc in wins:
                if w != s:
                    continue
                assert ev.how == "self_draw", (g, ev)  # no discard win while waiting
                codes = [r[0] for r in sc.rows]
                if name == "ruijin" and calls:
                    assert element not in codes, (g, codes)  # the go-around was broken: a plain self-draw
                    broken += 1
                else:
                    assert element in codes, (g, codes)
                    fei += 1
    assert declared >= 20 and fei >= 10, (declared, fei, broken)
    assert broken >= 5 or name == "shangrao"
    plain = raw(name, 300, 20, policy="efficiency")[1]
    assert not plain[5][:, :, 83].any()  # the speed player never declines a win


# --------------------------------------------------------------------------------------------
# flowers and wildcards in play
def test_guobiao_flowers_in_play():
    """国标 with its 8 花牌 (``tileset=144``): flowers are laid aside, replaced, and score 花牌, 1 番 each
    (not towards the 8-番 minimum); a win on a flower's replacement is not 杠上开花."""
    df = mj.simulate_games("guobiao", 1500, rng=21, n_threads=2, tileset=144)
    won = df[df["how"] != "draw_game"]
    has = won["elements"].astype(str).str.contains("flower_tiles")
    assert has.mean() > 0.5
    assert (won.loc[has, "winning_hand"].str.contains("F")).all()
    game, rec = raw("guobiao", 1500, 21, tileset=144)
    outcomes, _rows = scored(game, rec)
    after_flower = 0
    for o in outcomes:
        if o.events and o.events[0].how == "self_draw" and o.events[0].has("after_flower"):
            assert "out_with_replacement_tile" not in [r[0] for r in o.scores[0][1].rows]
            after_flower += 1
    assert after_flower > 5


def test_jj_hun_in_play():
    """JJ's 混 "可以代替任意牌（不包含花牌）进行游戏，不可吃碰，一般不能打出": with a 混 chosen by a flipped
    tile (``hun="flip_successor"``) wins use it as any tile; by default JJ plays without one."""
    df = mj.simulate_games("jj", 600, rng=22, n_threads=2, hun="flip_successor")
    assert "flipped" in df.columns
    game, rec = raw("jj", 600, 22, hun="flip_successor")
    assert rec[5][:, :, 82].sum() > 0  # 混 held
    wins_with_hun = sum(
        int(rec[5][i, s, 82]) > 0 for i in range(len(rec[0])) for s in range(4) if rec[0][i, 4] >> s & 1
    )
    assert wins_with_hun > 20
    assert "flipped" not in mj.simulate_games("jj", 20, rng=22, n_threads=1).columns


def _wins_after_a_pass(rule):
    """Discard wins by a seat after it passed a win and before its next draw, replayed from the
    log of players who decline each seat's first potential discard win: ``(any kind, that kind)``."""
    game, rec = raw(rule, 1500, 23, pass_policy=1, log=700)
    any_kind = same_kind = 0
    for lg in rec[6]:
        acts = actions(lg)
        locked = {s: False for s in range(4)}
        kinds = {s: set() for s in range(4)}
        dealt = 0
        for j, (act, seat, tile) in enumerate(acts):
            if act == "draw":
                dealt += 1
                if dealt > 52:
                    locked[seat], kinds[seat] = False, set()
            elif act == "pass_win":
                locked[seat] = True
                kinds[seat].add(tile)
            elif act in ("pung", "kong", "chow"):
                kinds[seat] = set()
            elif act == "win" and j and acts[j - 1][0] == "discard":  # a win on the discard just made
                any_kind += locked[seat]
                same_kind += acts[j - 1][2] in kinds[seat]
    return any_kind, same_kind


@pytest.mark.parametrize("name, lock", [("suzhou", "any"), ("taicang", "any"), ("guangdong", "same_kind")])
def test_missed_win_locks(name, lock):
    """漏胡 (苏州 §9, 太仓 TC-A10): "在他没摸牌之前，再有别人打同样或者能胡的牌，是不允许胡的" — after passing
    a discard win a player wins on no discard before his next draw.  过水 (广东 §7): he cannot win on
    *that same tile* until he 碰/吃/杠 or draws.  Shown with players who decline each seat's first
    potential discard win (the efficiency players never pass a win)."""
    import dataclasses

    rule = mj.rules.get(name)
    assert rule.engine.win_lock == lock
    any_kind, same_kind = _wins_after_a_pass(rule)
    assert (any_kind if lock == "any" else same_kind) == 0
    unlocked = dataclasses.replace(rule, engine=dataclasses.replace(rule.engine, win_lock=None))
    any_kind, same_kind = _wins_after_a_pass(unlocked)
    assert (any_kind if lock == "any" else same_kind) > 0
