"""苏州麻将 scorer (rules/suzhou.md): the worked example, hand-worked cases, options, payments."""

import numpy as np
import pytest
from _hands import check_invariants, rule_kinds

from mjfast import Hand
from mjfast.scoring import WinContext, can_win, score
from mjfast.scoring import suzhou as SZ  # registers the scorer


def sz(hand, win, **kw):
    """Score under suzhou; rule options and ``base`` go to score(), the rest to WinContext."""
    opts = {k: kw.pop(k) for k in list(kw) if k in _OPTION_KEYS}
    s = score(WinContext(hand, win_tile=win, **kw), "suzhou", **opts)
    check_invariants(s)
    return s


_OPTION_KEYS = {
    "threshold",
    "threshold_counts",
    "qidui",
    "dadiaoche",
    "songgang_scope",
    "qianggang_exempt",
    "daxiao_menqing",
    "tileset",
    "flower_faces",
    "base",
    "dealer",
    "dadiao_lock",
    "discard_wind_triplet",
    "foo",
}


def codes(s):
    return {r[0]: r[3] for r in s.rows}


# ---------------------------------------------------------------------------------------------
# §11 worked example: 清一色 七对, 5 hard flowers
QIDUI = Hand("11223355667788m", bonus="F1F2 5z 6z 7z")


def test_worked_example_self_draw():
    # 底 5 + 清一色 10 + 七对 15 + 硬花 5 × 2 = 40 花 per payer; 40 × 5 = 200 silver each
    s = sz(QIDUI, "8m", self_draw=True)
    assert (s.total, s.points, s.legal) == (40, 200, True)
    assert s.payments.tolist() == [600, -200, -200, -200]
    assert s.decomposition.form == "seven_pairs"
    assert codes(s) == {
        "base": 5,
        "hard_flower": 5,
        "qidui_flower_double": 5,
        "full_flush": 10,
        "seven_pairs": 15,
        "self_draw": 0,
    }


def test_worked_example_discard():
    # a discard win: the discarder alone pays the same 200
    s = sz(QIDUI, "8m", discarder=2)
    assert (s.total, s.points) == (40, 200)
    assert s.payments.tolist() == [200, 0, -200, 0]


@pytest.mark.parametrize(
    "qidui, total",
    [
        ("flat10", 30),  # 5 + 清一色 10 + 七对 10 + 5 flowers (not doubled) = 30 → 150
        ("flat5", 25),  # 5 + 10 + 5 + 5 = 25 ([001]'s arithmetic) → 125
    ],
)
def test_worked_example_qidui_options(qidui, total):
    s = sz(QIDUI, "8m", self_draw=True, qidui=qidui)
    assert (s.total, s.points) == (total, 5 * total)
    assert "qidui_flower_double" not in codes(s)


def test_qidui_without_flowers_and_quad_as_two_pairs():
    # 11 11 22 33 44 55 66m (SZ-A3: the four 1m are two pairs), no flowers, self-draw:
    # 七对: 5 + 七对 15 + 大小门清 15 (F = 0) + 清一色 10 = 45.  The standard reading
    # 123m 123m 456m 456m 11m only makes 5 + 大小门清 15 + 清一色 10 = 30, so 七对 is scored.
    h = Hand("11112233445566m")
    s = sz(h, "6m", self_draw=True)
    assert s.total == 45 and s.decomposition.form == "seven_pairs"
    assert codes(s)["big_small_concealed"] == 15 and "small_concealed" not in codes(s)
    # daxiao_menqing=False (SZ-C10): the F = 0 七对 adds 10 instead: 5 + 15 + 10 + 10 = 40
    s = sz(h, "6m", self_draw=True, daxiao_menqing=False)
    assert s.total == 40 and codes(s)["big_concealed"] == 10


# ---------------------------------------------------------------------------------------------
# hand-worked cases
KONGS = Hand("123s789s11z", melds=["2222m@left", "[5555p]"], bonus="F1")


def test_suit_kongs_discard_at_the_minimum():
    # F = 硬花 1 + 明杠 1 + 暗杠 2 = 4 ≥ 4 for a discard win (inclusive).  Not concealed (明杠),
    # three suits, chows: no pattern.  花 = 5 + 4 = 9; 9 × 5 = 45 from the discarder.
    s = sz(KONGS, "3s", discarder=1)
    assert (s.total, s.points, s.legal) == (9, 45, True)
    assert s.payments.tolist() == [45, -45, 0, 0]
    assert codes(s) == {"base": 5, "hard_flower": 1, "suit_exposed_kong": 1, "suit_concealed_kong": 2}


def test_minimum_three_self_draw_four_discard():
    # KONGS without its flower: F = 明杠 1 + 暗杠 2 = 3, no exempt pattern
    h = Hand("123s789s11z", melds=["2222m@left", "[5555p]"])
    # discard: 3 < 4 → not legal, nothing paid
    s = sz(h, "3s", discarder=1)
    assert not s.legal and s.total == 8 and "below the 4-花 minimum" in s.reason
    assert not can_win(WinContext(h, win_tile="3s", discarder=1), "suzhou")
    # self-draw: 3 ≥ 3 → legal, 花 = 5 + 3 = 8 → 40 from each of the three
    s = sz(h, "3s", self_draw=True, winner=2)
    assert s.legal and (s.total, s.points) == (8, 40)
    assert s.payments.tolist() == [-40, -40, 120, -40]
    # threshold=2_3 ("2花自摸，3花冲"): the discard win with F = 3 is legal, 40 from seat 1
    s = sz(h, "3s", discarder=1, threshold="2_3")
    assert s.legal and s.payments.tolist() == [40, -40, 0, 0]


def test_threshold_counts_hard_only():
    # F = 4 but only 1 hard flower: hard_only (SZ-C7) needs 4 hard flowers on a discard
    s = sz(KONGS, "3s", discarder=1, threshold_counts="hard_only")
    assert not s.legal and s.reason.startswith("1 hard 花")
    # self-draw with 3 hard flowers (F = 6) is enough: 花 = 5 + 6 = 11 → 55 each
    h = Hand("123s789s11z", melds=["2222m@left", "[5555p]"], bonus="F1 RAT BD")
    s = sz(h, "3s", self_draw=True, threshold_counts="hard_only")
    assert s.legal and (s.total, s.points) == (11, 55)


WINDS = Hand("444z55m", melds=["111z@right", "+2222z@left", "[3333z]"])


def test_wind_elements_self_draw():
    # 风碰 1 + 风明杠 3 (added kong) + 风暗杠 4 + 风暗刻 2 (444z concealed) = F 10;
    # one suit + winds: 混一色 5; all pungs: 对对胡 5.  花 = 5 + 10 + 5 + 5 = 25 → 125 each
    s = sz(WINDS, "5m", self_draw=True)
    assert (s.total, s.points) == (25, 125)
    assert s.payments.tolist() == [375, -125, -125, -125]
    assert codes(s) == {
        "base": 5,
        "wind_pung": 1,
        "wind_concealed_pung": 2,
        "wind_exposed_kong": 3,
        "wind_concealed_kong": 4,
        "half_flush": 5,
        "all_pungs": 5,
        "self_draw": 0,
    }


def test_wind_triplet_completed_by_discard_is_a_pung():
    # discard_wind_triplet="pung" (SZ-A4): winning on the discarded 4z, 444z counts as 风碰 (1),
    # not 风暗刻 (2): F = 1 + 1 + 3 + 4 = 9; 花 = 5 + 9 + 5 + 5 = 24 → 120 from seat 3
    s = sz(WINDS, "4z", discarder=3, discard_wind_triplet="pung")
    assert (s.total, s.points) == (24, 120)
    assert codes(s)["wind_pung"] == 2 and "wind_concealed_pung" not in codes(s)
    assert s.payments.tolist() == [120, 0, 0, -120]


def test_small_concealed_half_flush_kong_bloom():
    # concealed (暗杠 only), F = 硬花 1 + 暗杠 2 + 风暗刻 2 = 5 ≥ 1 → 小门清 5; 混一色 5;
    # 杠开 5.  花 = 5 + 5 + 5 + 5 + 5 = 25 → 125 each, winner +375
    h = Hand("123m456m111z22z", melds=["[9999m]"], bonus="F3")
    s = sz(h, "2z", self_draw=True, after_kong=True)
    assert (s.total, s.points) == (25, 125)
    assert s.payments.tolist() == [375, -125, -125, -125]
    assert codes(s)["small_concealed"] == 5 and codes(s)["kong_bloom"] == 5


BAOJIAOZI = Hand("123m456m111z22z", melds=["9999m@opposite"], bonus="F3")


def test_baojiaozi_liable_pays_three_shares():
    # 一次杠 on 对家's (seat 2) 9m, won on the replacement: F = 1 + 明杠 1 + 风暗刻 2 = 4;
    # not concealed; 混一色 5; 杠开 5.  花 = 5 + 4 + 5 + 5 = 19 → 95; seat 2 pays 3 × 95 = 285
    s = sz(BAOJIAOZI, "2z", self_draw=True, after_kong=True, liable=2)
    assert (s.total, s.points) == (19, 95)
    assert s.payments.tolist() == [285, 0, -285, 0]


def test_songgang_scope():
    # a later self-draw that is not 杠开: 花 = 5 + 4 + 5 = 14 → 70.
    # default scope (gangkai): the liability does not apply, the three opponents pay 70 each
    s = sz(BAOJIAOZI, "2z", self_draw=True, liable=2)
    assert s.total == 14 and s.payments.tolist() == [210, -70, -70, -70]
    # any_later_selfdraw: seat 2 pays for everybody, 3 × 70 = 210
    s = sz(BAOJIAOZI, "2z", self_draw=True, liable=2, songgang_scope="any_later_selfdraw")
    assert s.payments.tolist() == [210, 0, -210, 0]


def test_big_concealed_and_big_small_concealed():
    # F = 0 with claimed suit pungs: 大门清 10, exempt from the minimum, on a discard:
    # 花 = 5 + 10 = 15 → 75 from seat 1
    h = Hand("234s567s88m", melds=["111m@left", "999p@right"])
    s = sz(h, "8m", discarder=1)
    assert s.legal and (s.total, s.points) == (15, 75) and codes(s)["big_concealed"] == 10
    # fully concealed, no 花: 大小门清 15 → 花 20 → 100
    h = Hand("123m456p789s234s55p")
    s = sz(h, "5p", discarder=3)
    assert (s.total, s.points) == (20, 100) and codes(s)["big_small_concealed"] == 15
    # daxiao_menqing=False (SZ-C10): 大门清 10 → 花 15 → 75
    s = sz(h, "5p", discarder=3, daxiao_menqing=False)
    assert (s.total, s.points) == (15, 75) and codes(s)["big_concealed"] == 10


DADIAO = Hand("55m", melds=["111m@left", "222p@right", "333s@opposite", "+4444s@left"])


@pytest.mark.parametrize(
    "option, total",
    [
        ("plus5", 16),  # 5 + 明杠 1 + 对对胡 5 + 大吊车 5 = 16 → 80
        ("double", 22),  # (5 + 1 + 5) × 2 = 22 → 110
        ("both", 32),  # (5 + 1 + 5 + 5) × 2 = 32 → 160
    ],
)
def test_big_hanging_options(option, total):
    # F = 1 (< 4) on a discard, but 大吊车 and 对对胡 are exempt
    s = sz(DADIAO, "5m", discarder=3, dadiaoche=option)
    assert s.legal and (s.total, s.points) == (total, 5 * total)
    assert s.payments.tolist() == [5 * total, 0, 0, -5 * total]


def test_heavenly_earthly_last_tile():
    h = Hand("123m456p789s234s55p", bonus="F1")
    # 天胡, dealer: 5 + 硬花 1 + 小门清 5 + 天胡 50 = 61 → 305 each
    s = sz(h, "5p", self_draw=True, heavenly=True)
    assert (s.total, s.points) == (61, 305) and codes(s)["heavenly_hand"] == 50
    assert s.payments.tolist() == [915, -305, -305, -305]
    # 地胡, non-dealer seat 1: the same 61
    s = sz(h, "5p", self_draw=True, winner=1, earthly=True)
    assert s.total == 61 and codes(s)["earthly_hand"] == 50
    with pytest.raises(ValueError, match="地胡"):
        sz(h, "5p", discarder=2, winner=1, earthly=True)
    # 海底捞月 on a self-draw: KONGS hand 5 + 4 + 5 = 14 → 70 each
    s = sz(KONGS, "3s", self_draw=True, last_tile=True)
    assert s.total == 14 and codes(s)["last_tile"] == 5
    # on the last discard it is not counted (SZ-C14): 9
    assert sz(KONGS, "3s", discarder=1, last_tile=True).total == 9


def test_robbing_kong():
    # 抢杠 counts as a self-draw for the minimum: F = 3 ≥ 3.  花 = 5 + 3 = 8 → 40;
    # the robbed konger (seat 1) pays 3 shares = 120
    h = Hand("123s789s11z", melds=["2222m@left", "[5555p]"])
    s = sz(h, "3s", discarder=1, robbing_kong=True)
    assert s.legal and s.total == 8 and s.payments.tolist() == [120, -120, 0, 0]
    # F = 2 (no 暗杠 bonus: 明杠 1 + 硬花 1): 2 < 3 → not legal (SZ-C8) ...
    h2 = Hand("123s789s11z555p", melds=["2222m@left"], bonus="F2")
    s = sz(h2, "3s", discarder=1, robbing_kong=True)
    assert not s.legal and "抢杠" in s.reason
    # ... unless qianggang_exempt: 花 = 5 + 2 = 7 → 35, seat 1 pays 105
    s = sz(h2, "3s", discarder=1, robbing_kong=True, qianggang_exempt=True)
    assert s.legal and s.payments.tolist() == [105, -105, 0, 0]


def test_leopard_and_dripping_multiply():
    # 大小门清 hand of 20 花 (above): 豹子 ×2 and 滴零 ×2 stack (SZ-A5): 80 花 → 400
    h = Hand("123m456p789s234s55p")
    s = sz(h, "5p", discarder=3, baozi=True, diling=True)
    assert (s.total, s.points) == (80, 400)
    assert s.payments.tolist() == [400, 0, 0, -400]
    assert sz(h, "5p", discarder=3, baozi=True).total == 40


def test_base_option():
    # base = silver per 花: 40 花 × 10 = 400 each
    s = sz(QIDUI, "8m", self_draw=True, base=10)
    assert s.points == 400 and s.payments.tolist() == [1200, -400, -400, -400]
    with pytest.raises(ValueError, match="base"):
        sz(QIDUI, "8m", self_draw=True, base=0)


def test_best_reading_all_pungs():
    # 111222333m 444p 55p: pungs (对对胡 5) beat chows (nothing): F = 0 concealed → 大小门清 15;
    # 清一色? no (m and p).  花 = 5 + 15 + 5 = 25 on a discard → 125
    h = Hand("111222333m44455p")
    s = sz(h, "5p", discarder=1)
    assert s.total == 25 and codes(s)["all_pungs"] == 5
    assert all(k == "pung" for k, _f, _c in s.decomposition.sets)


# ---------------------------------------------------------------------------------------------
# errors and options
def test_unknown_option():
    with pytest.raises(ValueError, match="unknown option"):
        sz(QIDUI, "8m", self_draw=True, foo=1)
    with pytest.raises(ValueError, match="invalid value"):
        sz(QIDUI, "8m", self_draw=True, qidui="flat7")


def test_bad_hands():
    with pytest.raises(ValueError, match="吃"):
        sz(Hand("123s789s11z555p", melds=["234m@left"]), "3s", discarder=1)
    with pytest.raises(ValueError, match="dragons are flowers"):
        sz(Hand("123s789s11z555p", melds=["777z@left"]), "3s", discarder=1)
    with pytest.raises(ValueError, match="not played"):
        sz(Hand("123s789s11z555p777z"), "3s", discarder=1)
    # tileset=144 has no 百搭 flower
    with pytest.raises(ValueError, match="not a flower"):
        sz(Hand("123m456p789s234s55p", bonus="BD"), "5p", discarder=1, tileset=144)
    # flower_faces=dabaiban has WB0 but no RAT
    s = sz(Hand("123m456p789s234s55p", bonus="WB0"), "5p", discarder=1, flower_faces="dabaiban")
    assert s.total == 5 + 1 + 5  # 底 + 硬花 + 小门清
    with pytest.raises(ValueError, match="not a flower"):
        sz(Hand("123m456p789s234s55p", bonus="RAT"), "5p", discarder=1, flower_faces="dabaiban")
    with pytest.raises(ValueError, match="not complete"):
        sz(Hand("123m456p789s234s56p"), "5p", discarder=1)
    assert not can_win(WinContext(Hand("123m456p789s234s56p"), win_tile="5p", discarder=1), "suzhou")
    with pytest.raises(ValueError, match="discarder"):
        sz(QIDUI, "8m", discarder=2, liable=1)


def test_can_win_agrees_with_score(seed):
    rng = np.random.default_rng(seed)
    hands = [
        QIDUI,
        KONGS,
        WINDS,
        BAOJIAOZI,
        DADIAO,
        Hand("123m456p789s234s55p"),
        Hand("123s789s11z555p", melds=["2222m@left"], bonus="F2"),
        Hand("123m456m789p11s", melds=["222s@left"], bonus="F1F2"),
    ]
    for _ in range(60):
        h = hands[rng.integers(len(hands))]
        win = int(rng.choice(np.flatnonzero(h.counts)))
        kw = dict(threshold=str(rng.choice(["3_4", "2_3"])), threshold_counts=str(rng.choice(["all", "hard_only"])))
        if rng.random() < 0.5:
            ctx = WinContext(h, win_tile=win, self_draw=True, winner=int(rng.integers(4)))
        else:
            ctx = WinContext(
                h, win_tile=win, discarder=1, winner=int(rng.choice([0, 2, 3])), robbing_kong=bool(rng.random() < 0.2)
            )
        s = score(ctx, "suzhou", **kw)
        check_invariants(s)
        assert can_win(ctx, "suzhou", **kw) == s.legal


_MELD_KINDS = ("pung", "kong", "added_kong", "concealed_kong")


def _random_hand(rng, kinds):
    """A random complete 4 sets + pair hand from ``kinds``; a pung stays concealed or is called
    as a pung or one of the kongs (sometimes all four sets are called: 大吊车)."""
    from mjfast import Meld

    while True:
        sets = [
            ("chow", t) if rng.random() < 0.4 and t < 27 and t % 9 <= 6 else ("pung", t) for t in rng.choice(kinds, 4)
        ]
        pair = int(rng.choice(kinds))
        counts = np.zeros(34, int)
        counts[pair] += 2
        melds, call_all = [], rng.random() < 0.1
        for kind, t in sets:
            if kind == "chow":
                counts[t : t + 3] += 1
            elif call_all or rng.random() < 0.45:
                mk = _MELD_KINDS[int(rng.integers(4))] if rng.random() < 0.6 else "pung"
                melds.append(
                    Meld(
                        mk,
                        (int(t),) * (3 if mk == "pung" else 4),
                        **({} if mk == "concealed_kong" else {"source": "left", "claimed": int(t)}),
                    )
                )
                counts[t] += 3 if mk == "pung" else 4
                continue
            else:
                counts[t] += 3
        if counts.max() <= 4:
            for m in melds:
                counts[m.tiles[0]] -= len(m.tiles)
            return Hand(counts.astype(np.uint8), melds=melds)


def _random_contexts(rng, n):
    """Random complete 苏州 hands: standard (melds and kongs, some from one suit and winds, so
    that 对对胡, 混一色 and the wind elements come up) and 七对, with flowers and situational flags."""
    from mjfast import rules
    from mjfast.tiles import CODES

    flowers = [c for c, k in rules.get("suzhou").tileset.bonus.items() for _ in range(k)]
    out = []
    while len(out) < n:
        suit = 9 * int(rng.integers(3))
        kinds = rule_kinds("suzhou") if rng.random() < 0.5 else list(range(suit, suit + 9)) + [27, 28, 29, 30]
        if rng.random() < 0.2:
            cnt = np.bincount(rng.choice(kinds, 7), minlength=34) * 2
            if cnt.max() > 4:
                continue
            h = Hand(cnt.astype(np.uint8))
        else:
            h = _random_hand(rng, kinds)
        fl = rng.choice(flowers, int(rng.integers(0, 7)), replace=False) if rng.random() < 0.7 else []
        h = Hand(h.counts, melds=h.melds, bonus=" ".join(fl))
        win = CODES[int(rng.choice(np.flatnonzero(h.counts)))]
        kw = {f: True for f in ("last_tile", "baozi", "diling", "heavenly") if rng.random() < 0.08}
        winner = int(rng.integers(4))
        try:
            if rng.random() < 0.5:
                if rng.random() < 0.15:
                    kw["after_kong"] = True
                if rng.random() < 0.08 and winner != 0:
                    kw["earthly"] = True
                ctx = WinContext(h, win_tile=win, self_draw=True, winner=winner, dealer=0, **kw)
            else:
                ctx = WinContext(
                    h,
                    win_tile=win,
                    discarder=(winner + 1) % 4,
                    winner=winner,
                    dealer=0,
                    robbing_kong=bool(rng.random() < 0.15),
                    **kw,
                )
        except ValueError:
            continue
        out.append(ctx)
    return out


def test_shortcut_rows_match_the_full_evaluation(seed):
    """The framework's reading classes (no listing of the readings) give the rows, total and
    payments of the reading-by-reading evaluation, under every option value."""
    from mjfast import rules

    rng = np.random.default_rng(seed + 61)
    ctxs = _random_contexts(rng, 300)
    base = rules.get("suzhou")
    variants = [base] + [
        rules.get("suzhou", **{k: v}) for k, vs in base.option_choices.items() for v in vs[1:] if k != "flower_faces"
    ]
    seen, n_fast = set(), 0
    for rule in variants:
        b = SZ.SCHEME.bound(rule, {})
        for ctx in ctxs:
            try:
                fast = b.summary(ctx)
            except ValueError:  # a flower the 144-tile set lacks
                continue
            full = b.summary(ctx, full=True)
            assert fast[1:] == full[1:], ctx
            n_fast += not fast[0]
            seen.update(r[0] for r in fast[-1])
    assert n_fast >= 2000
    assert {
        "seven_pairs",
        "all_pungs",
        "wind_pung",
        "wind_concealed_pung",
        "half_flush",
        "full_flush",
        "small_concealed",
        "big_concealed",
        "big_small_concealed",
        "kong_bloom",
        "big_hanging",
        "big_hanging_double",
        "suit_exposed_kong",
        "suit_concealed_kong",
        "wind_exposed_kong",
        "wind_concealed_kong",
        "qidui_flower_double",
    } <= seen, seen
