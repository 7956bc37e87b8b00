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

from dataclasses import replace

import numpy as np

from .. import tiles as _t
from ..decomposition import from_reading
from ..hand import Hand
from . import _shortcuts
from ._core import WinContext
from ._framework import Element, Facts, Scheme, positive_int
from ._wildcards import check_chows_from_left, check_wild_tiles

__all__ = ["score_jinhua", "can_win_jinhua", "SCHEME"]

UNIT = "X"
_WHITE = 31
_CLAIMED = frozenset({"pung", "kong", "added_kong"})
_SUITS = _shortcuts.playable(range(27))  # qifeng="honours": a 财神 cannot stand for an honour


def _substituted(ctx: WinContext, rule=None) -> WinContext:
    """Move 白板 to the 财神's face when ``ctx.flipped`` names the 财神 kind (after the check
    that there are no bonus tiles)."""
    if ctx.hand.bonus:
        raise ValueError("jinhua scores no bonus tiles: give wild flowers (花宝) as wilds and "
                         "假宝 / 白板 substitutes as the face they play")
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
    return replace(ctx, hand=hand, win_tile=win)


def _check(f: Facts) -> None:
    """吃 only from 上家; at most the 3 财神 ("财神有三个"); with ``ctx.flipped`` (the 财神 kind) no
    natural tile of it: the other three are the 财神 and the indicator is out (JH-A1), except
    the 白板 that play as its face (moved there by :func:`_substituted`; none when the 财神 is
    白板 itself, JH-A4)."""
    ctx = f.ctx
    check_chows_from_left(f.melds, "金华")
    fl = ctx.flipped
    scheme = f.rule.wildcard
    if fl is None:
        check_wild_tiles(f.hand, label='金华 ("财神有三个")', name="财神", copies=scheme.copies)
        return
    code = _t.CODES[fl]
    white = fl == _WHITE
    check_wild_tiles(f.hand, label='金华 ("财神有三个")', name="财神",
                     copies=scheme.wild_copies(code), wild=(fl,), why=f" (flipped {code})",
                     substitutes=0 if white else scheme.face_copies["5z"],
                     note=" (JH-A4: when the 财神 is 白板 no tile plays as it)" if white else "")


def _check_keywords(kw: dict, rule) -> dict:
    kw["base"] = positive_int(kw["base"], "base")
    return kw


E = Element
#: The 金华 element table (jinhua.md §4): 平胡 (the principal share, 2X), then the multipliers.
ELEMENTS = (
    E("pinghu", "平胡", "basic win (principal share)", 2, "1", scope="hand"),
    E("qiduizi", "七对子", "seven pairs", 2, "f.form == 'seven_pairs' and f.wild_tiles != ()",
      how="multiply", unit=UNIT),
    E("qingqidui", "清七对", "seven pairs without 财神", 2,
      "f.form == 'seven_pairs' and f.wild_tiles == ()", how="multiply", unit=UNIT),
    # all pungs, three of them claimed, the winning tile completing a concealed pung
    E("pengpenghu", "碰碰胡", "all pungs (3 claimed)", 2,
      "f.pungs and f.form == 'standard' and f.pung_claims >= 3 and ('pung', f.win) in f.sets",
      how="multiply", unit=UNIT),
    # four claimed melds (no 暗杠), no 财神, on a discard ("自摸只算平胡")
    E("quanqiuren", "全求人", "all from others", 2,
      "f.claimed == 4 and not f.wilds and not f.self_draw", scope="hand", how="multiply",
      unit=UNIT),
)


class JinhuaFacts(Facts):
    """Facts plus ``claimed`` (melds claimed from others, chows included) and ``pung_claims``
    (those that are 碰, 明杠 or 补杠)."""

    __slots__ = ("claimed", "pung_claims")


def _hand_facts(f: JinhuaFacts) -> None:
    n = pc = 0
    for m in f.melds:
        if m.kind != "concealed_kong":
            n += 1
            if m.kind in _CLAIMED:
                pc += 1
    f.claimed = n
    f.pung_claims = pc


def _settle(b, ctx: WinContext, r) -> tuple:
    """平胡: the discarder 2 shares and the others 1 (a self-draw: 2 each), × the multipliers;
    承包 (``liable``): one seat pays them all."""
    base = b.kw["base"]
    mult = r.total // 2
    shares = [0, 0, 0, 0]
    for p in ctx.payers:
        shares[p] = 2 * mult if (ctx.self_draw or p == ctx.discarder) else mult
    pay = [-s * base for s in shares]
    if ctx.liable is not None:
        pay = [0, 0, 0, 0]
        pay[ctx.liable] = -sum(shares) * base
    pay[ctx.winner] = sum(shares) * base
    return r.total * base, pay


def _playable(rule):
    return _SUITS if rule.options["qifeng"] == "honours" else _shortcuts.ALL_KINDS


def _not_complete(ctx: WinContext, rule) -> str:
    return (f"hand not complete: {ctx.hand} does not form a winning hand under {rule.name} "
            "(4 sets + pair, or seven pairs)")


def _decomposition(b, o):
    """A winning 财神 has no natural tile in hand: its wait type is not given."""
    d = b.best_reading(o)
    ctx = o.ctx
    return from_reading(d, ctx.hand.melds, ctx.win_tile if ctx.hand.counts[ctx.win_tile] else None)


#: The 金华 scorer, declared.
SCHEME = Scheme("jinhua", ELEMENTS, keywords={"base": 1}, check_keywords=_check_keywords,
                prepare=_substituted, check=_check, facts=JinhuaFacts, hand_facts=_hand_facts, settle=_settle, playable=_playable,
                not_complete=_not_complete, decomposition=_decomposition, always_legal=True)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_jinhua(ctx: WinContext, rule, *, base: int = 1):
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
    return _score(ctx, rule, base=base)


def can_win_jinhua(ctx: WinContext, rule, *, base: int = 1) -> bool:
    """Whether ``ctx`` is a legal 金华 win: any complete hand (4 sets + pair, or 七对)."""
    return _can_win(ctx, rule, base=base)


SCHEME.register()


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
