"""广东麻将 鸡平胡 scorer: 番 with the 3-番 爆胡 cap, special hands, 包 (rules/guangdong.md).

Scoring (guangdong.md §4):

* Within the cap: 鸡胡 0, 平胡 1 (four chows, any pair ⚑ GD-A3), 碰碰胡 2, 混一色 2, added
  together with the adders 自摸 +1, 门风刻 +1, 圈风刻 +1 (both: +2), 三元刻 +1 each; the sum
  is capped at 3 (爆胡).  ``adder_exposed_only=True`` counts only claimed (exposed) wind and
  dragon pungs/kongs (GD-C4).
* Special hands (爆胡以外) score a fixed 番 and take nothing else: 清一色 4, 混碰 4, 清碰 5,
  混幺九 5, 小三元 5, 小四喜 5 (pair = the 4th wind ⚑ GD-A11), 字一色 6, 清幺九 6, 大三元 6,
  大四喜 6, 九莲宝灯 6 (concealed ⚑ GD-A1), 十三幺 6, 天和/人和/地和 6; several: the maximum
  (⚑ GD-A5, GD-A8).  七对 is not a winning shape (⚑ GD-A2).
* Minimum-3 events (a lower within-cap hand is scored 3): 一炮三响 (``winners=3``), 杠上开花
  (杠上开花包杠 included), 海底捞针 (``last_tile`` on a self-draw), 抢杠.
* ``cap_scheme`` (GD-C5): ``"3"`` cap 3 and floor 3; ``"3-6"`` (三番满六番爆) floor 3, cap 6;
  ``"2-5"`` floor 2, cap 5 — 满 read as the floor of the minimum events and 爆 as the cap.
* ``min_fan=1`` (GD-C1, no 鸡胡): a within-cap hand needs at least 1 番 from its patterns and
  adders, before the minimum-3 floor (⚑ this module's reading).
* ``points`` = share = base × 2^番 (scorer keyword ``base``, default 1).

Payments (§5): a self-draw is paid one share by each opponent; a discard by the discarder
(⚑ GD-A4; 一炮多响: score each winner with ``winners=n``, the discarder pays each); 抢杠 counts
as a self-draw paid by the robbed konger alone (3 shares).  ``ctx.liable`` on a self-draw makes
that seat pay all 3 shares; it must be one of the file's liabilities: 杠上开花包杠 (an exposed
kong, the winner won on its replacement), 包自摸 (12 tiles exposed), 例牌包自摸 (大四喜 / 大三元
with its wind / dragon sets exposed, the liable seat having fed the last of them — the melds are
read in the order they were made; 小四喜 / 小三元 too with ``baozimo_small=True``, otherwise such a
liability is not enforced and every opponent pays).  On a discard win the liability is
void and the discarder pays (GD-A6).  Which liability of a hand is enforced (包先不包后,
``bao_scope``) is :func:`liable_seat`; the dealer rotation (``draw``) is :func:`next_dealer`.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import rules as _rules
from ..decomposition import Decomposition, decompose_counts, from_reading
from ..hand import Hand
from . import _shortcuts
from ._core import NotComplete, Score, WinContext, register

__all__ = ["score_guangdong", "can_win_guangdong", "liable_seat", "next_dealer", "SPECIALS",
           "WITHIN_CAP"]

#: Within-cap patterns and adders: ``code -> (name_zh, name_en, 番)``.
WITHIN_CAP = {
    "jihu": ("鸡胡", "Chicken hand", 0),
    "pinghu": ("平胡", "All chows", 1),
    "pengpenghu": ("碰碰胡", "All pungs", 2),
    "hunyise": ("混一色", "Half flush", 2),
    "zimo": ("自摸", "Self-draw", 1),
    "menfeng": ("门风", "Seat wind pung", 1),
    "quanfeng": ("圈风", "Round wind pung", 1),
    "sanyuan": ("三元", "Dragon pung", 1),
}
#: Special hands: ``code -> (name_zh, name_en, 番)``; the maximum applies, nothing is added.
SPECIALS = {
    "qingyise": ("清一色", "Full flush", 4),
    "hunpeng": ("混碰", "Half flush all pungs", 4),
    "qingpeng": ("清碰", "Full flush all pungs", 5),
    "hunyaojiu": ("混幺九", "Terminals and honours", 5),
    "xiaosanyuan": ("小三元", "Small three dragons", 5),
    "xiaosixi": ("小四喜", "Small four winds", 5),
    "ziyise": ("字一色", "All honours", 6),
    "qingyaojiu": ("清幺九", "Pure terminals", 6),
    "dasanyuan": ("大三元", "Big three dragons", 6),
    "dasixi": ("大四喜", "Big four winds", 6),
    "jiulian": ("九莲宝灯", "Nine gates", 6),
    "shisanyao": ("十三幺", "Thirteen orphans", 6),
    "tianhu": ("天和", "Heavenly hand", 6),
    "renhu": ("人和", "Human hand", 6),
    "dihu": ("地和", "Earthly hand", 6),
}
_SPECIAL_ORDER = tuple(SPECIALS)
_CAPS = {"3": (3, 3), "3-6": (3, 6), "2-5": (2, 5)}  # (floor 满, cap 爆)
_WINDS = range(27, 31)
_DRAGONS = range(31, 34)
_TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
_SEAT_OFFSET = {"left": 3, "opposite": 2, "right": 1}  # 上家 = previous seat in turn order
_NO_PAY = (0, 0, 0, 0)


def _check_hand(hand: Hand) -> None:
    if hand.bonus:
        raise ValueError("guangdong (鸡平胡) is played without flowers; the hand has bonus tiles")


def _readings(hand: Hand) -> list:
    forms = ("standard", "thirteen_orphans") if not hand.melds else ("standard",)
    return decompose_counts(hand.counts, hand.n_melds, forms=forms)


def _all_kinds(hand: Hand) -> np.ndarray:
    c = hand.counts.astype(np.int16)
    for m in hand.melds:
        for t in m.tiles:
            c[t] += 1
    return c


def _nine_gates(hand: Hand) -> bool:
    if hand.melds:
        return False
    c = hand.counts
    for s in range(3):
        part = c[9 * s: 9 * s + 9].astype(np.int16)
        if part.sum() == 14:
            need = np.array([3, 1, 1, 1, 1, 1, 1, 1, 3])
            d = part - need
            return bool((d >= 0).all() and d.sum() == 1)
    return False


def _specials(hand: Hand, reading, ctx) -> list:
    form, sets, pair, _tiles, _w = reading
    out = []
    if form == "thirteen_orphans":
        out.append("shisanyao")
    else:
        kinds = np.flatnonzero(_all_kinds(hand))
        suits = {int(t) // 9 for t in kinds if t < 27}
        honours = any(t >= 27 for t in kinds)
        groups = [(k, f) for k, f in sets] + [("pung" if m.kind != "chow" else "chow", m.tiles[0])
                                              for m in hand.melds]
        all_pungs = all(k == "pung" for k, _ in groups)
        pungs = {f for k, f in groups if k == "pung"}
        if not honours and len(suits) == 1:
            out.append("qingpeng" if all_pungs else "qingyise")
        if honours and len(suits) == 1 and all_pungs:
            out.append("hunpeng")
        if all(t >= 27 for t in kinds):
            out.append("ziyise")
        elif all(t >= 27 or t in _TERMINALS for t in kinds):
            out.append("hunyaojiu" if honours else "qingyaojiu")
        n_dragon = len(pungs & set(_DRAGONS))
        n_wind = len(pungs & set(_WINDS))
        if n_dragon == 3:
            out.append("dasanyuan")
        elif n_dragon == 2 and pair in _DRAGONS:
            out.append("xiaosanyuan")
        if n_wind == 4:
            out.append("dasixi")
        elif n_wind == 3 and pair in _WINDS:
            out.append("xiaosixi")
        if _nine_gates(hand):
            out.append("jiulian")
    if ctx.heavenly:
        out.append("tianhu")
    if ctx.human:
        out.append("renhu")
    if ctx.earthly:
        out.append("dihu")
    return out


def _within(hand: Hand, reading, ctx, exposed_only: bool) -> list:
    """Rows ``(code, 番, count)`` of a within-cap reading (patterns, then adders)."""
    _form, sets, _pair, _tiles, _w = reading
    groups = [(k, f, False) for k, f in sets] + [
        ("chow" if m.kind == "chow" else "pung", m.tiles[0], m.kind != "concealed_kong")
        for m in hand.melds]
    kinds = np.flatnonzero(_all_kinds(hand))
    suits = {int(t) // 9 for t in kinds if t < 27}
    honours = any(t >= 27 for t in kinds)
    rows = []
    if all(k == "chow" for k, _f, _e in groups):
        rows.append(("pinghu", 1, 1))
    elif all(k == "pung" for k, _f, _e in groups):
        rows.append(("pengpenghu", 2, 1))
    if honours and len(suits) == 1:
        rows.append(("hunyise", 2, 1))
    if not rows:
        rows.append(("jihu", 0, 1))
    if ctx.self_draw:
        rows.append(("zimo", 1, 1))
    pungs = [f for k, f, e in groups if k == "pung" and (e or not exposed_only)]
    seat, prev = 27 + ctx.seat_wind, 27 + ctx.prevalent_wind
    if seat in pungs:
        rows.append(("menfeng", 1, 1))
    if prev in pungs:
        rows.append(("quanfeng", 1, 1))
    n_dragon = sum(1 for f in pungs if f in _DRAGONS)
    if n_dragon:
        rows.append(("sanyuan", n_dragon, n_dragon))
    return rows


def _check_base(base) -> int:
    if isinstance(base, bool) or not isinstance(base, (int, np.integer)) or base <= 0:
        raise ValueError(f"base must be a positive integer, got {base!r}")
    return int(base)


def _evaluate(ctx: WinContext, rule, winners: int):
    """Best reading: ``(fan, raw within-cap sum or None, special code or None, rows, reading,
    floor applied)``."""
    h = ctx.hand
    _check_hand(h)
    opts = rule.options
    readings = _readings(h)
    if not readings:
        raise NotComplete(f"hand not complete: {h} does not form a winning hand under guangdong "
                         "(4 sets + a pair, 十三幺 or 九莲宝灯; 七对 is not a winning shape)")
    floor, cap = _CAPS[opts["cap_scheme"]]
    floor_event = (winners >= 3 or ctx.after_kong or ctx.robbing_kong
                   or (ctx.last_tile and ctx.self_draw))
    best = None
    for r in readings:
        sp = _specials(h, r, ctx)
        if sp:
            code = max(sp, key=lambda c: (SPECIALS[c][2], -_SPECIAL_ORDER.index(c)))
            cand = (SPECIALS[code][2], None, code, None, r, False)
        else:
            rows = _within(h, r, ctx, opts["adder_exposed_only"])
            raw = sum(v for _c, v, _n in rows)
            fan = min(raw, cap)
            floored = floor_event and fan < floor
            if floored:
                fan = floor
            cand = (fan, raw, None, rows, r, floored)
        if best is None or (cand[0], cand[1] is None, cand[1] or 0) > \
                (best[0], best[1] is None, best[1] or 0):
            best = cand
    return best, cap, floor


def _check_call(ctx: WinContext, base, winners) -> tuple:
    """The checks of the scorer's keywords and of the context's flags (score and can_win):
    ``(base, winners)``, the number of winners read from ``ctx.rule_state`` when the engine passes
    it as per-hand state."""
    if winners == 1 and ctx.rule_state:
        winners = ctx.rule_state.get("winners", 1)
    if type(base) is not int or base <= 0:
        base = _check_base(base)
    if isinstance(winners, bool) or winners not in (1, 2, 3):
        raise ValueError(f"winners must be 1, 2 or 3, got {winners!r}")
    if winners > 1 and ctx.self_draw:
        raise ValueError("several winners (一炮多响) win on one discard, not by self-draw")
    if ctx.human and (ctx.self_draw or ctx.winner == ctx.dealer or ctx.discarder != ctx.dealer):
        raise ValueError("人和 is a non-dealer's win on the dealer's first discard")
    if ctx.earthly and (not ctx.self_draw or ctx.winner == ctx.dealer):
        raise ValueError("地和 is a non-dealer's self-draw on his first draw")
    return base, winners


def _seat_of(source: str | None, winner: int) -> int | None:
    return None if source is None else (winner + _SEAT_OFFSET[source]) % 4


def _liability(ctx: WinContext, special: str | None, baozimo_small: bool) -> int | None:
    """The seat paying all three shares of a self-draw, or None (everyone pays)."""
    liable = ctx.liable
    if liable is None:
        return None
    melds = ctx.hand.melds
    exposed = [m for m in melds if m.kind != "concealed_kong"]
    kinds = ("kong", "pung", "added_kong")
    # 杠上开花包杠: an exposed kong on the liable player's discard, won on its replacement
    if ctx.after_kong and any(m.kind == "kong" and _seat_of(m.source, ctx.winner) in (None, liable)
                              for m in melds):
        return liable
    # 包自摸: 12 tiles exposed, the 4th set fed by the liable player
    if len(exposed) == 4 and _seat_of(exposed[-1].source, ctx.winner) in (None, liable):
        return liable
    # 例牌包自摸
    group = None
    if special in ("dasixi", "xiaosixi"):
        group = _WINDS
    elif special in ("dasanyuan", "xiaosanyuan"):
        group = _DRAGONS
    if group is not None:
        sets = [m for m in exposed if m.kind in kinds and m.tiles[0] in group]
        need = 4 if special == "dasixi" else 3 if special in ("dasanyuan", "xiaosixi") else 2
        # the liable player discarded the set's *last* tile ("如有人打出余下一款者"): the last set
        # in the order the melds were made
        if len(sets) >= need and _seat_of(sets[-1].source, ctx.winner) in (None, liable):
            if special in ("dasixi", "dasanyuan") or baozimo_small:
                return liable
            return None  # 小三元 / 小四喜 liability without baozimo_small: not enforced
    raise ValueError(
        f"liable seat {liable} given, but the hand meets no 包 condition of guangdong "
        "(杠上开花包杠 after an exposed kong, 包自摸 with 12 tiles exposed, 例牌 大四喜/大三元 "
        "with the sets exposed; the claimed meld's source must be the liable seat)")


def score_guangdong(ctx: WinContext, rule, *, base: int = 1, winners: int = 1) -> Score:
    """Score a won hand under 广东鸡平胡 (the registered scorer of ``"guangdong"``).

    Parameters
    ----------
    ctx : WinContext
        Flags used: ``self_draw``, ``after_kong`` (杠上开花), ``robbing_kong`` (抢杠; the
        ``discarder`` is the robbed konger), ``last_tile`` (海底捞针 on a self-draw),
        ``heavenly``/``earthly``/``human`` (天和/地和/人和), ``seat_wind``,
        ``prevalent_wind``, ``liable`` (包).
    rule : Rule
        The resolved ``guangdong`` rule (options in the module docstring).
    base : int, default 1
        The stake of a 0-番 hand: one share is base × 2^番.
    winners : int, default 1
        How many players won on this discard (一炮多响); 3 = 一炮三响, a minimum-3 event.
        Also read from ``ctx.rule_state["winners"]``.

    Returns
    -------
    Score
        ``total`` in 番; ``points`` = base × 2^番; ``legal`` False for a 鸡胡 under
        ``min_fan=1``.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext(Hand("123m456m789p234s55z"), win_tile="5z", self_draw=True),
    ...           "guangdong")
    >>> s.total, s.points, s.payments.tolist()
    (2, 4, [12, -4, -4, -4])
    >>> s.elements[["name_zh", "value"]].values.tolist()
    [['平胡', 1], ['自摸', 1]]
    """
    opts = rule.options
    base, winners = _check_call(ctx, base, winners)
    fast = _fast_evaluate(ctx, rule, winners)
    if fast is None:
        (fan, raw, special, wrows, reading, floored), cap, floor = _evaluate(ctx, rule, winners)
        lazy = None
    else:  # the reading and its rows only when asked for
        fan, raw, special, floored, cap, floor = fast
        lazy = []

        def full():
            if not lazy:
                lazy.append(_evaluate(ctx, rule, winners)[0])
            return lazy[0]
    legal = special is not None or raw >= opts["min_fan"]
    reason = "" if legal else "鸡胡 (0 番) is not allowed (min_fan=1)"
    share = base << fan if legal else 0
    pay = list(_NO_PAY)
    if legal:
        if ctx.robbing_kong:
            pay[ctx.discarder] -= 3 * share
            pay[ctx.winner] += 3 * share
        elif ctx.self_draw:
            who = _liability(ctx, special, opts["baozimo_small"])
            if who is None:
                for p in range(4):
                    if p != ctx.winner:
                        pay[p] -= share
                pay[ctx.winner] += 3 * share
            else:
                pay[who] -= 3 * share
                pay[ctx.winner] += 3 * share
        else:
            pay[ctx.discarder] -= share
            pay[ctx.winner] += share

    def rows():
        if special is not None:
            zh, en, v = SPECIALS[special]
            return [(special, zh, en, v, 1, "番", "add")]
        out = [(c, *WITHIN_CAP[c][:2], v, n, "番", "add")
               for c, v, n in (wrows if lazy is None else full()[3])]
        if raw > cap:
            out.append(("baohu", "爆胡", "Fan cap", cap, 1, "番", "cap"))
        if floored:
            out.append(("min_three", "保底", "Minimum-fan event", floor, 1, "番", "replace"))
        return out

    if lazy is None:
        return Score("guangdong", fan, share, pay, legal, reason, "番", rows,
                     decomposition_fn=lambda: _decomposition(ctx, reading))
    return Score("guangdong", fan, share, pay, legal, reason, "番", rows,
                 decomposition_fn=lambda: _decomposition(ctx, full()[4]))


_SPECIAL_KEY = {c: (v[2], -i) for i, (c, v) in enumerate(SPECIALS.items())}
_EMPTY_SUIT = bytes(9)
_NO_HONOURS = bytes(7)
_NO_MIDDLE = bytes(7)
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _chows_and_pair(c: bytes) -> bool:
    """The concealed tiles split into chows and one pair (some reading is all chows)."""
    x = list(c)
    pair_suit = None
    for t in range(27, 34):
        if x[t]:
            if x[t] != 2 or pair_suit is not None:
                return False
            pair_suit = 3  # an honour pair
    sums = [sum(x[9 * s: 9 * s + 9]) % 3 for s in range(3)]
    for s in range(3):
        if sums[s] == 1 or (sums[s] == 2 and pair_suit is not None):
            return False
        if sums[s] == 2:
            pair_suit = s
    if pair_suit is None:
        return False
    if pair_suit == 3:
        return all(_chows_only(x, 9 * s) for s in range(3))
    for s in range(3):
        if s != pair_suit and not _chows_only(x, 9 * s):
            return False
    o = 9 * pair_suit
    for p in range(o, o + 9):
        if x[p] >= 2:
            y = x[:]
            y[p] -= 2
            if _chows_only(y, o):
                return True
    return False


def _chows_only(x: list, o: int) -> bool:
    """Suit ``o..o+8`` of ``x`` splits into chows (greedy from the lowest tile; ``x`` is
    modified)."""
    for i in range(o, o + 7):
        n = x[i]
        if n:
            if x[i + 1] < n or x[i + 2] < n:
                return False
            x[i + 1] -= n
            x[i + 2] -= n
    return not (x[o + 7] or x[o + 8])


def _fast_evaluate(ctx: WinContext, rule, winners: int):
    """``(fan, raw, special, floored, cap, floor)`` of the reading :func:`_evaluate` picks,
    without listing the readings, or None for a hand with wildcards, a 十三幺 or an incomplete
    hand (:func:`_evaluate` decides and raises then).

    Honours never form chows, so every standard reading has the same wind and dragon pungs and
    the same honour pair; the readings differ only in being all chows (平胡) or all pungs (碰碰胡,
    清碰, 混碰).  An all-pungs reading exists exactly when the concealed tiles are pungs and a
    pair; an all-chows one when they are chows and a pair; any other (mixed) reading scores no
    more than either of them, with the same result on a tie, so it matters only when neither
    exists; except against 混碰, a special of the all-pungs reading alone, which a mixed
    混一色 reading's adders can beat under a cap above 4 (left to :func:`_evaluate`).  The
    all-chows reading comes first in the readings' order (it wins a tie).
    """
    h = ctx.hand
    _check_hand(h)
    if h.wilds or not _shortcuts.complete(h, _shortcuts.STANDARD):
        return None
    opts = rule.options
    c = h.counts.tobytes()
    melds = h.melds
    suits = ((c[0:9] != _EMPTY_SUIT) | (c[9:18] != _EMPTY_SUIT) << 1
             | (c[18:27] != _EMPTY_SUIT) << 2)  # bit s: suit s present
    honours = c[27:] != _NO_HONOURS
    outside = (c[1:8] == _NO_MIDDLE and c[10:17] == _NO_MIDDLE
               and c[19:26] == _NO_MIDDLE)  # terminals and honours only
    chow_melds = False
    pungs = []  # wind and dragon pungs/kongs, (tile, exposed)
    for m in melds:
        t = m.tiles[0]
        if m.kind == "chow":
            chow_melds = True
            suits |= 1 << t // 9
            outside = False
        elif t >= 27:
            honours = True
            pungs.append((t, m.kind != "concealed_kong"))
        else:
            suits |= 1 << t // 9
            if t not in _TERMINALS:
                outside = False
    pair = None
    if honours:
        for t in range(27, 34):
            x = c[t]
            if x == 3:
                pungs.append((t, False))
            elif x == 2:
                pair = t
    one_suit = suits == 1 or suits == 2 or suits == 4
    classes = []  # (all chows, all pungs) of the readings that decide
    if not chow_melds and _shortcuts.all_pungs(h.counts):
        classes.append((False, True))
    if not pungs and all(m.kind == "chow" for m in melds) and _chows_and_pair(c):
        classes.insert(0, (True, False))
    if not classes:
        classes.append((False, False))
    # reading-independent specials
    sp0 = []
    if not suits:
        sp0.append("ziyise")
    elif outside:
        sp0.append("hunyaojiu" if honours else "qingyaojiu")
    n_dragon = n_wind = 0
    for t, _e in pungs:
        if t >= 31:
            n_dragon += 1
        else:
            n_wind += 1
    if n_dragon == 3:
        sp0.append("dasanyuan")
    elif n_dragon == 2 and pair is not None and pair >= 31:
        sp0.append("xiaosanyuan")
    if n_wind == 4:
        sp0.append("dasixi")
    elif n_wind == 3 and pair is not None and pair < 31:
        sp0.append("xiaosixi")
    if not melds and one_suit and not honours:
        s0 = 9 * (suits >> 1)  # 1, 2, 4 -> suit 0, 1, 2
        d = [a - b for a, b in zip(c[s0: s0 + 9], _NINE_GATES)]
        if min(d) >= 0:  # 14 tiles: the surplus is one tile
            sp0.append("jiulian")
    if ctx.heavenly:
        sp0.append("tianhu")
    if ctx.human:
        sp0.append("renhu")
    if ctx.earthly:
        sp0.append("dihu")
    # reading-independent within-cap adders
    exposed_only = opts["adder_exposed_only"]
    counted = [t for t, e in pungs if e or not exposed_only]
    adders = 1 if ctx.self_draw else 0
    if 27 + ctx.seat_wind in counted:
        adders += 1
    if 27 + ctx.prevalent_wind in counted:
        adders += 1
    adders += sum(1 for t in counted if t >= 31)
    hunyise = honours and one_suit
    if hunyise and not sp0 and (False, True) in classes:
        # 混碰 (4) of the all-pungs reading against the within-cap 番 of a mixed reading
        # (混一色 + adders, up to the cap): whether a mixed reading exists needs the readings
        return None
    floor, cap = _CAPS[opts["cap_scheme"]]
    floor_event = (winners >= 3 or ctx.after_kong or ctx.robbing_kong
                   or (ctx.last_tile and ctx.self_draw))
    best = None
    for all_chows, all_pungs in classes:
        sp = list(sp0)
        if not honours and one_suit:
            sp.append("qingpeng" if all_pungs else "qingyise")
        if hunyise and all_pungs:
            sp.append("hunpeng")
        if sp:
            code = max(sp, key=_SPECIAL_KEY.__getitem__)
            cand = (SPECIALS[code][2], None, code, False)
        else:
            raw = adders + (1 if all_chows else 2 if all_pungs else 0) + (2 if hunyise else 0)
            fan = min(raw, cap)
            floored = floor_event and fan < floor
            if floored:
                fan = floor
            cand = (fan, raw, None, floored)
        if best is None or (cand[0], cand[1] is None, cand[1] or 0) > \
                (best[0], best[1] is None, best[1] or 0):
            best = cand
    return best + (cap, floor)


def _decomposition(ctx: WinContext, reading) -> Decomposition:
    """The :class:`~mjfast.Decomposition` of a raw reading (built when first asked for)."""
    return from_reading(reading, ctx.hand.melds, ctx.win_tile)


def can_win_guangdong(ctx: WinContext, rule, *, base: int = 1, winners: int = 1) -> bool:
    """Whether ``ctx`` is a legal 鸡平胡 win (complete; 1 番 with ``min_fan=1``).

    Examples
    --------
    >>> from mjfast.scoring import WinContext, can_win
    >>> ctx = WinContext("123m456m789p234s55s", win_tile="5s", discarder=1)
    >>> can_win(ctx, "guangdong"), can_win(ctx, "guangdong", min_fan=1)
    (True, True)
    >>> ctx = WinContext("123m456m789p222s55s", win_tile="5s", discarder=1)
    >>> can_win(ctx, "guangdong"), can_win(ctx, "guangdong", min_fan=1)
    (True, False)
    """
    _check_call(ctx, base, winners)
    _check_hand(ctx.hand)
    # no wildcards in 鸡平胡 (score() rejects them): the kernel's complete test is exact here
    if not _shortcuts.complete(ctx.hand, _shortcuts.STANDARD_ORPHANS):
        return False
    if ctx.liable is not None and ctx.self_draw:  # whether the 包 is one the rule has
        return score_guangdong(ctx, rule, base=base, winners=winners).legal
    if rule.options["min_fan"] == 0:
        return True
    (_fan, raw, special, *_r), _c, _f = _evaluate(ctx, rule, winners)
    return special is not None or raw >= rule.options["min_fan"]


# ---------------------------------------------------------------------------------------------
def liable_seat(events, winner: int, **options) -> int | None:
    """包先不包后: which liability of a hand binds when ``winner`` self-draws (GD-C3).

    Parameters
    ----------
    events : iterable of (liable, beneficiary)
        Every 包 condition created in the hand, in order: seat ``liable``'s discard put seat
        ``beneficiary`` into a 包自摸 / 例牌 / 杠上开花包杠 state.
    winner : int
        The seat that self-draws.
    **options
        ``bao_scope``: ``"first"`` (default) only the first liability of the hand binds;
        ``"per_discarder"`` each discarder is bound by his own first liability.

    Returns
    -------
    int or None
        The seat to pass as ``WinContext(liable=…)``, or None.

    Examples
    --------
    >>> liable_seat([(0, 1), (2, 3)], 3) is None, liable_seat([(0, 1), (2, 3)], 1)
    (True, 0)
    >>> liable_seat([(0, 1), (2, 3)], 3, bao_scope="per_discarder")
    2
    """
    scope = _rules.get("guangdong", **options).options["bao_scope"]
    bound = set()
    for i, (liable, ben) in enumerate(events):
        if scope == "first" and i > 0:
            break
        if liable in bound:
            continue
        bound.add(liable)
        if ben == winner:
            return liable
    return None


def next_dealer(dealer: int, winners=(), **options) -> int:
    """The next hand's dealer (guangdong.md §6).

    The dealer stays when he wins (一炮多响 included) and after an exhaustive draw (no
    ``winners``; ``draw="pass"``: the deal passes then); otherwise his 下家 deals.

    Examples
    --------
    >>> next_dealer(0, [0]), next_dealer(0, [2]), next_dealer(0, []), next_dealer(0, [], draw="pass")
    (0, 1, 0, 1)
    """
    opts = _rules.get("guangdong", **options).options
    winners = set(winners)
    if dealer in winners or (not winners and opts["draw"] == "stay"):
        return dealer
    return (dealer + 1) % 4


register("guangdong", score_guangdong, can_win_guangdong)


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins: 鸡胡 0 番 (chows + a pung, legal with min_fan=0); 平胡 1 番 when 鸡胡
#: is barred.
MINIMAL_WINS = (("123m456p789s55s", ("111p@left",), (), "1m", False), ("123m456p789s234s55p", (), (), "1m", False))


def complete_is_legal(rule) -> bool:
    """Every complete hand is a legal win when 鸡胡 is allowed (``min_fan=0``)."""
    return rule.options["min_fan"] == 0


def _bao_events(outcome) -> list:
    """Every 包自摸 condition created in the hand, in the order made, as ``(liable, beneficiary)``:
    P's discard completed B's 4th exposed set (12 tiles exposed), or B's last wind set of 大四喜 /
    dragon set of 大三元 (and of 小四喜 / 小三元 with ``baozimo_small``) — claimed by B (⚑ GD-A7)."""
    small = outcome.rule.options["baozimo_small"]
    out = []
    for b in range(4):
        exposed = winds = dragons = 0
        for m in sorted(outcome.melds(b), key=lambda m: m.order):
            if m.kind == "concealed_kong":
                continue
            exposed += 1
            wind = m.kind != "chow" and m.tile in _WINDS
            dragon = m.kind != "chow" and m.tile in _DRAGONS
            winds += wind
            dragons += dragon
            if exposed == 4 or (wind and (winds == 4 or (small and winds == 3))) \
                    or (dragon and (dragons == 3 or (small and dragons == 2))):
                out.append((m.order, m.source, b))
    return [(liable, b) for _o, liable, b in sorted(out)]


def win_state(outcome, event, index, ctx, kong_log):
    """一炮多响: the number of winners on the discard (``rule_state["winners"]``).  On a self-draw
    the liable seat (§5): 杠上开花包杠 — the winner konged P's discard and won on its replacement,
    P pays all; else 包自摸 / 例牌 — the liability that binds under 包先不包后
    (:func:`liable_seat` over :func:`_bao_events`), when the hand meets its condition."""
    n = len(event.winners)
    fields = {"rule_state": {"winners": n}} if n > 1 else {}
    if event.how == "self_draw":
        w = event.winners[0]
        kong = outcome.kongs[event.kong] if event.kong >= 0 else None
        if kong is not None and kong.konger == w and kong.kind == "direct":
            liable = kong.feeder
        else:
            liable = liable_seat(_bao_events(outcome), w, bao_scope=outcome.rule.options["bao_scope"])
        if liable is not None:
            bound = replace(ctx, liable=liable)
            try:
                special = _evaluate(bound, outcome.rule, 1)[0][2]
                # None: a 小三元 / 小四喜 liability without baozimo_small, not enforced
                liable = _liability(bound, special, outcome.rule.options["baozimo_small"])
            except ValueError:        # the hand no longer meets the condition (e.g. a special outranks 大三元)
                liable = None
        if liable is not None:
            fields["liable"] = liable
    return fields or None, None


def next_deal(outcome) -> int:
    """§6 (:func:`next_dealer`): the dealer keeps the deal on a win (一炮多响 included) or a draw
    (``draw="pass"``: the deal passes then), otherwise his 下家 deals."""
    return next_dealer(outcome.dealer, outcome.winners, draw=outcome.rule.options["draw"])
