"""The game engine plays each rule as its source says: liabilities (包), kong-discard settlements,
claim order (截和 / 一炮多响, several robbers), call locks, 飞 / 宝吊头, first-turn hands, flowers and
wildcards in play.  Each test quotes the sentence it checks; each failed on the engine before
these rules' facts and hooks existed."""


from _sim_helpers import raw, scored


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
