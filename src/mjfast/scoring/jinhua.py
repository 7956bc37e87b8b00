"""金华麻将 (Jinhua) scorer: 财神 wildcards, 白板 substitute, X multiples, 承包.

Rules: ``rules/jinhua.md`` §4.  ``X`` is the scorer keyword ``base`` (default 1;
the file gives no value).

* 平胡 (pair + 4 sets, any complete hand — there is no minimum): on a discard **the discarder
  pays 2X and each of the other two X**; on a self-draw **each of the three pays 2X**.
* Multipliers of the 平胡 payment (all payers): 碰碰胡 ×2 (all pungs/kongs with at least three
  of them claimed — 碰, 明杠 or 补杠 — "必须已经碰过三次", the pair already in hand and the
  winning tile completing the 4th pung, "手中有将牌，再碰一次既可胡牌": a 单钓 finish on the pair
  is not 碰碰胡); 全求人 ×2 (four claimed melds, a
  single natural tile left, not a 财神; on a self-draw it counts only as 平胡, "自摸只算平胡");
  七对子 ×2 (⚑ JH-A6; 清七对 = no 财神, also ×2 ⚑, not stacked on 七对子).  碰碰胡 and 全求人
  never meet (one wins on a pung, the other on the pair); were several to apply they would
  multiply.  Among several readings the highest multiplier is taken.
* 承包 (⚑ JH-A5): ``ctx.liable`` (the discarder who fed three consecutive claims) pays every
  share of the win; the others pay nothing.
* 抢杠: a discard win, the robbed player paying as the discarder (⚑: not in the file).

:attr:`Score.total` = the principal payer's share in X (the discarder on a discard, any payer
on a self-draw): ``2 × multipliers``; ``points = total × base``.  Rows: 平胡 2 (add), then one
``multiply`` row per multiplier.

Wildcards: ``hand.wilds`` are the 财神 held (3 in play, JH-A1 ⚑).  白板 play as the 财神's
natural face (JH-A10 ⚑): give them as that face, or give them as ``5z`` together with
``ctx.flipped`` (the 财神 kind) and they are moved to that face here (when the 财神 is 白板
itself there is no substitute, JH-A4 ⚑).  A winning 财神 is given as the tile it stands for.
Rule option ``qifeng`` (JH-A3): ``"none"`` (default, 财神 may stand for any tile) or
``"honours"`` (a 财神 never stands for an honour).  ``ctx.wild_faces`` (faces fixed at the win)
restricts the readings to those faces.  Bonus tiles are rejected (136 tiles, no flowers).
"""
from __future__ import annotations

import numpy as np

from .. import tiles as _t
from ..decomposition import decompose
from ..hand import Hand
from ._core import NotComplete, Score, WinContext, register
from . import _shortcuts
from .ruijin import _check_base, _faces_ok, _no_bonus

__all__ = ["score_jinhua", "can_win_jinhua"]

UNIT = "X"
_WHITE = 31
_CLAIMED = frozenset({"pung", "kong", "added_kong"})
_SUITS = _shortcuts.playable(range(27))  # qifeng="honours": a 财神 cannot stand for an honour


def _substituted(ctx: WinContext) -> WinContext:
    """Move 白板 to the 财神's face when ``ctx.flipped`` names the 财神 kind."""
    f = ctx.flipped
    if f is None or f == _WHITE or f >= _t.N_KINDS:
        if f is not None and f >= _t.N_KINDS:
            raise ValueError("the 财神 is a playable kind; flipped must not be a bonus tile")
        return ctx
    h = ctx.hand
    if not h.counts[_WHITE]:
        return ctx
    c = h.counts.astype(np.int64)
    c[f] += c[_WHITE]
    c[_WHITE] = 0
    if c[f] > 4:
        raise ValueError(f"too many tiles playing as {_t.CODES[f]}")
    hand = Hand(_t.tiles_from_counts(c), melds=h.melds, bonus=h.bonus, wilds=h.wilds)
    win = f if ctx.win_tile == _WHITE else ctx.win_tile
    from dataclasses import replace
    return replace(ctx, hand=hand, win_tile=win)


def _multipliers(ctx: WinContext, d) -> list:
    h = ctx.hand
    out = []
    if d.form == "seven_pairs":
        if d.wild_tiles:
            out.append(("qiduizi", "七对子", "seven pairs", 2))
        else:
            out.append(("qingqidui", "清七对", "seven pairs without 财神", 2))
        return out
    if d.form == "standard":
        if all(k != "chow" for k, _f, _c in d.sets):
            claimed = sum(1 for m in h.melds if m.kind in _CLAIMED)
            if h.counts[ctx.win_tile]:
                fourth = "shanpon" in d.waits
            else:  # a winning 财神: it completes a concealed pung of its face
                fourth = any(k == "pung" and f == ctx.win_tile and c for k, f, c in d.sets)
            if claimed >= 3 and fourth:
                out.append(("pengpenghu", "碰碰胡", "all pungs (3 claimed)", 2))
        if (h.n_melds == 4 and all(m.kind != "concealed_kong" for m in h.melds) and h.wilds == 0
                and not ctx.self_draw):
            out.append(("quanqiuren", "全求人", "all from others", 2))
    return out


def _evaluate(ctx: WinContext, rule):
    _no_bonus(ctx, "jinhua")
    ctx = _substituted(ctx)
    h = ctx.hand
    win = ctx.win_tile if h.counts[ctx.win_tile] else None
    readings = [d for d in decompose(h, rule=rule, win_tile=win) if _faces_ok(d, ctx.wild_faces)]
    if rule.options["qifeng"] == "honours":
        readings = [d for d in readings if all(t < 27 for t in d.wild_tiles)]
    if not readings:
        raise NotComplete(f"hand not complete: {h} does not form a winning hand under jinhua "
                         "(4 sets + pair, or seven pairs)")
    best = None
    for d in readings:
        m = _multipliers(ctx, d)
        val = 1
        for x in m:
            val *= x[3]
        if best is None or val > best[0]:
            best = (val, m, d)
    return ctx, best


def score_jinhua(ctx: WinContext, rule, *, base: int = 1) -> Score:
    """Score a won hand under 金华麻将 (registered as ``"jinhua"``).

    Parameters
    ----------
    ctx : WinContext
        Flags used: ``self_draw``, ``discarder``, ``liable`` (承包), ``flipped`` (财神 kind,
        for 白板 given as ``5z``).
    rule : Rule
        The resolved ``jinhua`` rule (option ``qifeng``).
    base : int, default 1
        X in stake units.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext(Hand("123m456p789s234s55p"), win_tile="5p", discarder=2, winner=1),
    ...           "jinhua")
    >>> s.total, s.payments.tolist()
    (2, [-1, 4, -2, -1])
    """
    base = _check_base(base)
    mult = _fast_mult(ctx)
    if mult is None:
        ctx2, (mult, rows_m, reading) = _evaluate(ctx, rule)
        lazy = None
    else:  # the best reading only for the rows and the decomposition, when asked for
        lazy = []

        def best():
            if not lazy:
                lazy.append(_evaluate(ctx, rule)[1])
            return lazy[0]
    shares = [0, 0, 0, 0]
    for p in ctx.payers:
        shares[p] = 2 * mult if (ctx.self_draw or p == ctx.discarder) else mult
    total = 2 * mult
    pay = [-s * base for s in shares]
    if ctx.liable is not None:
        pay = [0, 0, 0, 0]
        pay[ctx.liable] = -sum(shares) * base
    pay[ctx.winner] = sum(shares) * base

    def rows():
        r = [("pinghu", "平胡", "basic win (principal share)", 2, 1, UNIT, "add")]
        r += [(c, zh, en, v, 1, UNIT, "multiply")
              for c, zh, en, v in (rows_m if lazy is None else best()[1])]
        return r

    if lazy is None:
        return Score("jinhua", total, total * base, pay, True, "", UNIT, rows,
                     decomposition=reading)
    return Score("jinhua", total, total * base, pay, True, "", UNIT, rows,
                 decomposition_fn=lambda: best()[2])


def _fast_mult(ctx: WinContext) -> int | None:
    """The best reading's multiplier of a complete hand without 财神, bonus tiles or a 白板
    substitution, as :func:`_evaluate` finds it, without listing the readings; None when the
    hand is not of that kind or not complete (the full evaluation decides then).

    Without wildcards: a 七对 reading (no melds, every count even) is 清七对 ×2, and the standard
    readings of such a hand have no claimed melds (×1).  Otherwise 全求人 (four claimed melds,
    on a discard) applies to every standard reading, and 碰碰胡 to the all-pungs reading, which
    exists exactly when the concealed tiles are pungs and a pair, with the winning tile
    completing a pung (held three times); the two never meet (全求人 leaves no concealed pung).
    """
    h = ctx.hand
    f = ctx.flipped
    if (h.wilds or ctx.wild_faces or h.bonus
            or not (f is None or f == _WHITE or (f < _t.N_KINDS and not h.counts[_WHITE]))
            or not _shortcuts.complete(h, _shortcuts.STANDARD_PAIRS)):
        return None
    melds = h.melds
    if not melds:
        c = h.counts.tobytes()
        return 2 if c.count(1) == 0 and c.count(3) == 0 else 1
    if (len(melds) == 4 and not ctx.self_draw
            and all(m.kind != "concealed_kong" for m in melds)):
        return 2  # 全求人
    if (h.counts[ctx.win_tile] == 3 and _shortcuts.all_pungs(h.counts)
            and sum(1 for m in melds if m.kind in _CLAIMED) >= 3):
        return 2  # 碰碰胡
    return 1


def can_win_jinhua(ctx: WinContext, rule, *, base: int = 1) -> bool:
    """Whether ``ctx`` is a legal 金华 win: any complete hand (4 sets + pair, or 七对)."""
    _check_base(base)
    f = ctx.flipped
    if (not ctx.wild_faces and not ctx.hand.bonus
            and (f is None or f == _WHITE or (f < _t.N_KINDS and not ctx.hand.counts[_WHITE]))
            and _shortcuts.complete(ctx.hand, _shortcuts.STANDARD_PAIRS,
                               _SUITS if rule.options["qifeng"] == "honours" else _shortcuts.ALL_KINDS)):
        return True
    try:
        _evaluate(ctx, rule)
    except NotComplete:
        return False
    return True


register("jinhua", score_jinhua, can_win_jinhua)


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins: 平胡 2X from the discarder, or a self-draw.
MINIMAL_WINS = (("123m456p789s234s55p", (), (), "1m", False), ("123m456p789s234s55p", (), (), "1m", True))


def win_state(outcome, event, index, ctx, kong_log):
    """承包 (⚑ JH-A5): once a player has claimed (吃/碰/杠) three times in a row from one
    discarder ("连续三次或三次以上吃、碰、杠同一玩家的牌，满三次后则开始承包对方的牌"), that discarder is
    ``liable`` for his win (the claims in the order made; a concealed kong is no claim, ⚑)."""
    w = event.winners[index]
    run, src = 0, None
    for m in sorted(outcome.melds(w), key=lambda m: m.order):
        if m.kind == "concealed_kong":
            continue
        run = run + 1 if m.source == src else 1
        src = m.source
        if run >= 3:
            return {"liable": src}, None
    return None, None
