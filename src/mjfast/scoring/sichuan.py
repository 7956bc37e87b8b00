"""四川麻将 (成都, 血战到底 option) scorer and its non-win settlements (rules/sichuan.md).

Scoring (sichuan.md §4–§6):

* Pattern fans, **the maximum** of those that apply (SC-C1): 平胡 1, 对对胡 2 ⚑, 清一色 3 ⚑,
  带幺九 3 ⚑, 七对 3 ⚑, 清对 4, 将对 4 ⚑, 龙七对 5 ⚑, 清七对 5 ⚑, 清幺九 5 ⚑, 天胡 6 ⚑,
  地胡 6 ⚑, 清龙七对 6 ⚑ (⚑ = the file's proposed defaults, used as they are).
* Adders on top: 根 +1 per four identical tiles not declared as a kong (declared kongs too
  with ``gen_counts_kongs=True``; 龙七对/清龙七对 take one 根 off), 杠上花 +1, 杠上炮 +1, 抢杠
  ``qianggang_fan`` (0 ⚑), 自摸 ``zimo_bonus`` (0 ⚑).  ``max_fan=6`` caps the total (SC-A4:
  no cap by default).  Among several readings of the tiles the highest total is scored.
* ``points`` = base × 2^(番−1), base 6 (基本分, scorer keyword ``base``); §5's table.
* 缺一门: a hand holding all three suits (melds included) is not legal.
* Payments: a discard win (and 抢杠, SC-A6: the robbed konger pays as the discarder) is paid by
  the discarder alone; a self-draw by each opponent that has not won yet (``won=``, 血战 only).
  杠上炮 also hands the discarder's income from that kong to the winner (``kong_income=``,
  SC-A5).  Sichuan has no 包 liability: ``ctx.liable`` is rejected.
* 血战到底 (``xuezhan=True``): ``won`` lists the seats that have already won; they pay nothing.

Non-win settlements, each returning int64 seat deltas that sum to zero:

* :func:`kong_payment` — 刮风下雨 at the moment of the kong (§2).
* :func:`next_dealer` — §8 (the discarder who dealt in deals; ⚑ SC-A8 after a self-draw).
* :func:`settle_draw` — 查花猪 and 查大叫 with the 刮风下雨 refund at an exhaustive draw (§7),
  ⚑ a 花猪 refunds his kong income too; players who have won (血战) neither pay nor collect
  but get their refunds back (SC-A10).

⚑ resolutions of points the file leaves open, made here: a pung meld plus the fourth tile in
hand is a 根 (four identical tiles, not declared as a kong); 大叫 is scored as a discard win
with no situational adders (SC-A7), i.e. pattern max + 根 only, capped by ``max_fan``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import rules as _rules
from .. import tiles as _t
from ..efficiency import waits
from ..hand import Hand
from ..shape import shanten
from ._core import WinContext
from ._framework import Element, Facts, Scheme, pay_all, pay_discarder, positive_int

__all__ = [
    "score_sichuan",
    "can_win_sichuan",
    "kong_payment",
    "settle_draw",
    "next_dealer",
    "PATTERNS",
    "BASE",
    "HUAZHU_TIMES",
    "SCHEME",
]

#: 基本分: the points of a 1-番 hand (sichuan.md §5).
BASE = 6
#: A 花猪 pays 16 × base to each non-花猪 player (§7).
HUAZHU_TIMES = 16

#: ``code -> (name_zh, name_en, 番)`` of the pattern fans (the maximum is taken).
PATTERNS = {
    "pinghu": ("平胡", "Basic win", 1),
    "duiduihu": ("对对胡", "All pungs", 2),
    "qingyise": ("清一色", "Full flush", 3),
    "daiyaojiu": ("带幺九", "Outside hand", 3),
    "qidui": ("七对", "Seven pairs", 3),
    "qingdui": ("清对", "Flush all pungs", 4),
    "jiangdui": ("将对", "2-5-8 all pungs", 4),
    "longqidui": ("龙七对", "Dragon seven pairs", 5),
    "qingqidui": ("清七对", "Flush seven pairs", 5),
    "qingyaojiu": ("清幺九", "Flush outside hand", 5),
    "tianhu": ("天胡", "Heavenly hand", 6),
    "dihu": ("地胡", "Earthly hand", 6),
    "qinglongqidui": ("清龙七对", "Flush dragon seven pairs", 6),
}
_TERMINAL = frozenset(t for s in range(3) for t in (9 * s, 9 * s + 8))
_258 = frozenset(t for s in range(3) for t in (9 * s + 1, 9 * s + 4, 9 * s + 7))
_NO_HONOURS = bytes(7)
_NONE3 = bytes(3)
_NOBODY: frozenset[int] = frozenset()


# ---------------------------------------------------------------------------------------------
# hand checks
def _check_hand(hand: Hand) -> None:
    if hand.bonus:
        raise ValueError("sichuan is played without flowers; the hand has bonus tiles")
    melds = hand.melds
    if hand.counts.tobytes()[27:] != _NO_HONOURS or melds and any(m.tiles[0] >= 27 for m in melds):
        raise ValueError("sichuan is played with the 108 suit tiles only (no honours)")
    if melds and any(m.kind == "chow" for m in melds):
        raise ValueError("吃 is not allowed in sichuan; the hand has a chow meld")


def _suits(hand: Hand) -> int:
    c = hand.counts.tobytes()
    present = {s for s in range(3) if c[9 * s : 9 * s + 9] != bytes(9)}
    melds = hand.melds
    if melds:
        present |= {m.tiles[0] // 9 for m in melds}
    return len(present)


def _gen(hand: Hand, gen_counts_kongs: bool) -> int:
    """根: kinds with all four copies in the hand, declared kongs only with the option."""
    total = hand.counts.astype(np.int16)
    n = 0
    for m in hand.melds:
        if m.is_kong:
            n += gen_counts_kongs
        else:
            total[m.tiles[0]] += 3
    return n + int((total == 4).sum())


def _check_won(won, opts, what="won") -> frozenset:
    try:
        seats = frozenset(int(s) for s in won)
    except TypeError:
        raise ValueError(f"{what} must be a collection of seats 0-3, got {won!r}") from None
    if any(not 0 <= s <= 3 for s in seats):
        raise ValueError(f"{what} must hold seats 0-3, got {sorted(seats)}")
    if len(seats) > 2:
        raise ValueError(f"at most two players can have won while the hand goes on, got {sorted(seats)}")
    if seats and not opts["xuezhan"]:
        raise ValueError("players who have already won (won=…) exist only in 血战到底; pass xuezhan=True")
    return seats


def _check_base(base) -> int:
    return positive_int(base, "base")


def _check_keywords(kw: dict, rule) -> dict:
    kw["base"] = _check_base(kw["base"])
    won = kw["won"]
    kw["won"] = _NOBODY if type(won) is tuple and not won else _check_won(won, rule.options)
    return kw


def _check(f: Facts) -> None:
    """The hand, flags and keywords (score and can_win); ``won`` and ``kong_income`` are read
    from ``ctx.rule_state`` when the engine passes them as per-hand state."""
    ctx, kw = f.ctx, f.kw
    won = kw["won"]
    kong_income = kw["kong_income"]
    state = ctx.rule_state
    if state:
        if not won and "won" in state:
            won = _check_won(state["won"], f.opts)
        if not kong_income:
            kong_income = state.get("kong_income", 0)
    f.won = won
    f.kong_income = kong_income
    if f.flowers or f.c[27:] != _NO_HONOURS or f.melds:  # (the checks of _check_hand)
        _check_hand(ctx.hand)
    if ctx.liable is not None:
        raise ValueError("sichuan has no 包 liability; liable must be None")
    if ctx.earthly and (not ctx.self_draw or ctx.winner == ctx.dealer):
        raise ValueError("地胡 is a non-dealer's self-draw on his first draw (SC-A3)")
    if ctx.winner in won:
        raise ValueError(f"seat {ctx.winner} has already won (won=…) and cannot win again")
    if ctx.discarder is not None and ctx.discarder in won:
        raise ValueError(f"seat {ctx.discarder} has already won and no longer discards or kongs")
    if (
        type(kong_income) is not int
        and (isinstance(kong_income, bool) or not isinstance(kong_income, (int, np.integer)))
        or kong_income < 0
    ):
        raise ValueError(f"kong_income must be a non-negative integer, got {kong_income!r}")
    if kong_income and not ctx.kong_discard:
        raise ValueError("kong_income is handed over only on 杠上炮 (kong_discard=True)")


# ---------------------------------------------------------------------------------------------
# facts and elements
class SichuanFacts(Facts):
    """Facts plus ``gen`` (根 of the hand, before 龙七对 takes one) and ``outside_ok`` (no 4, 5
    or 6 and every meld of a terminal: 带幺九 is possible)."""

    __slots__ = ("gen", "outside_ok", "won", "kong_income")


def _hand_facts(f: SichuanFacts) -> None:
    c = f.c
    melds = f.melds
    if melds:
        total = list(c)
        n = 0
        kongs = f.opts["gen_counts_kongs"]
        for m in melds:
            if m.is_kong:
                n += kongs
            else:
                total[m.tiles[0]] += 3
        f.gen = n + total.count(4)
    else:
        f.gen = c.count(4)
    f.outside_ok = (
        c[3:6] == _NONE3 and c[12:15] == _NONE3 and c[21:24] == _NONE3 and all(m.tiles[0] in _TERMINAL for m in melds)
    )


def _outside(f: Facts) -> bool:
    """带幺九: every set (melds included) and the pair hold a terminal."""
    if f.pair not in _TERMINAL:
        return False
    return all((t in _TERMINAL) if k == "pung" else (t % 9 in (0, 6)) for k, t in f.sets) and all(
        m.tiles[0] in _TERMINAL for m in f.melds
    )


def _jiang(f: Facts) -> bool:
    """将对: all pungs of 2, 5 and 8 with a 2-5-8 pair."""
    return f.pair in _258 and all(t in _258 for _k, t in f.sets) and all(m.tiles[0] in _258 for m in f.melds)


def _pattern(code, predicate, scope="reading"):
    zh, en, v = PATTERNS[code]
    return Element(code, zh, en, v, predicate, scope=scope, group="pattern")


_STD = "f.form == 'standard'"
_SEVEN = "f.form == 'seven_pairs'"
_OUTSIDE = f"(f.outside_ok and {_STD} and _outside(f))"  # (the sets only when it may be)

#: The 四川 element table (sichuan.md §4–§5): the pattern fans (one group: the maximum), then
#: the adders.
ELEMENTS = (
    _pattern("pinghu", _STD),
    _pattern("duiduihu", f"f.pungs and {_STD}"),
    _pattern("qingyise", f"f.one_suit and {_STD}"),
    _pattern("daiyaojiu", _OUTSIDE),
    _pattern("qidui", f"{_SEVEN} and not f.one_suit and 4 not in f.c"),
    _pattern("qingdui", f"f.pungs and f.one_suit and {_STD}"),
    _pattern("jiangdui", f"f.pungs and {_STD} and _jiang(f)"),
    _pattern("longqidui", f"{_SEVEN} and 4 in f.c and not f.one_suit"),
    _pattern("qingqidui", f"{_SEVEN} and f.one_suit and 4 not in f.c"),
    _pattern("qingyaojiu", f"f.one_suit and {_OUTSIDE}"),
    _pattern("tianhu", "f.ctx.heavenly", "context"),
    _pattern("dihu", "f.ctx.earthly", "context"),
    _pattern("qinglongqidui", f"{_SEVEN} and 4 in f.c and f.one_suit"),
    # 龙七对 / 清龙七对 take one 根 off
    Element("gen", "根", "Root", 1, "max(f.gen - ('longqidui' in got or 'qinglongqidui' in got), 0)"),
    Element("gangshanghua", "杠上花", "Win after kong", 1, "f.ctx.after_kong", scope="context"),
    Element("gangshangpao", "杠上炮", "Deal-in after kong", 1, "f.ctx.kong_discard", scope="context"),
    Element(
        "qianggang",
        "抢杠",
        "Robbing a kong",
        lambda o, kw: o["qianggang_fan"] or None,
        "f.ctx.robbing_kong",
        scope="context",
    ),
    Element("zimo", "自摸", "Self-draw", lambda o, kw: o["zimo_bonus"] or None, "f.self_draw", scope="context"),
)
_NAMESPACE = {"_outside": _outside, "_jiang": _jiang}


def _finish(f: Facts, r) -> Sequence[tuple]:
    m = f.opts["max_fan"]
    if m is not None and r.raw > m:
        return [("max_fan", "封顶", "Fan cap", m, 1, "番", "cap")]
    return ()


def _legality(f: Facts, r) -> str:
    s = f.suits
    return "缺一门: the hand holds all three suits" if s == 7 else ""


def _settle(b, ctx: WinContext, r) -> tuple:
    points = b.kw["base"] << (r.total - 1)
    f = r.facts
    if ctx.self_draw:
        return points, pay_all(ctx, points, f.won)
    return points, pay_discarder(ctx, points + f.kong_income)


def _not_complete(ctx: WinContext, rule) -> str:
    return f"hand not complete: {ctx.hand} does not form a winning hand under {rule.name} (4 sets + a pair, or 七对)"


#: The 四川 scorer, declared.
SCHEME = Scheme(
    "sichuan",
    ELEMENTS,
    keywords={"base": BASE, "won": (), "kong_income": 0},
    check_keywords=_check_keywords,
    check=_check,
    facts=SichuanFacts,
    hand_facts=_hand_facts,
    legality=_legality,
    finish=_finish,
    settle=_settle,
    not_complete=_not_complete,
    minimum_elements=(),
    namespace=_NAMESPACE,
    hand_legality=True,
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_sichuan(ctx: WinContext, rule, *, base: int = BASE, won=(), kong_income: int = 0):
    """Score a won hand under 四川麻将 (the registered scorer of ``"sichuan"``).

    Parameters
    ----------
    ctx : WinContext
        Flags used: ``self_draw``, ``after_kong`` (杠上花), ``kong_discard`` (杠上炮),
        ``robbing_kong`` (抢杠: ``discarder`` is the robbed konger), ``heavenly`` (天胡),
        ``earthly`` (地胡).
    rule : Rule
        The resolved ``sichuan`` rule: ``xuezhan``, ``gen_counts_kongs``, ``qianggang_fan``,
        ``zimo_bonus``, ``max_fan``.
    base : int, default 6
        基本分: the points of a 1-番 hand.
    won : collection of int, default ()
        血战到底 only: seats that have already won; they pay nothing on a self-draw.  Also read
        from ``ctx.rule_state["won"]``.
    kong_income : int, default 0
        杠上炮 only: what the discarder collected for the kong he made just before the
        discard (stake units); he hands it to the winner.  Also read from
        ``ctx.rule_state["kong_income"]``.

    Returns
    -------
    Score
        ``total`` in 番, ``points`` = base × 2^(番−1), ``legal`` False for a hand holding all
        three suits (缺一门).

    Raises
    ------
    ValueError
        A hand that is not complete (:class:`~mjfast.scoring.NotComplete`),
        honours/flowers/chows, a ``liable`` seat, or bad keywords.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext(Hand("11122233344455m"), win_tile="5m", self_draw=True), "sichuan")
    >>> s.total, s.points, s.payments.tolist()
    (4, 48, [144, -48, -48, -48])
    >>> s.elements[["name_zh", "value"]].values.tolist()
    [['清对', 4]]
    """
    return _score(ctx, rule, base=base, won=won, kong_income=kong_income)


def can_win_sichuan(ctx: WinContext, rule, *, base: int = BASE, won=(), kong_income: int = 0) -> bool:
    """Whether ``ctx`` is a legal 四川 win: complete (standard or 七对) and 缺一门.

    Examples
    --------
    >>> from mjfast.scoring import WinContext, can_win
    >>> can_win(WinContext("123m456m789m11p22p2p", win_tile="2p", discarder=1), "sichuan")
    True
    >>> can_win(WinContext("123m456m789s11p22p2p", win_tile="2p", discarder=1), "sichuan")
    False
    """
    return _can_win(ctx, rule, base=base, won=won, kong_income=kong_income)


def _wait_fan(hand: Hand, tile: int, bound) -> int:
    """The 番 of ``hand`` (13 tiles plus ``tile``) won on a discard without situational adders
    (SC-A7): the best reading's pattern maximum plus 根, capped; 0 when not complete."""
    ctx = WinContext(hand, win_tile=tile, discarder=1)
    try:
        _f, r, _listed = bound.evaluate(ctx)
    except ValueError:
        return 0
    return r.total


# ---------------------------------------------------------------------------------------------
# non-win settlements
_KONG_KINDS = {
    "direct": "direct",
    "exposed": "direct",
    "kong": "direct",
    "直杠": "direct",
    "刮风": "added",
    "added": "added",
    "added_kong": "added",
    "面下杠": "added",
    "concealed": "concealed",
    "concealed_kong": "concealed",
    "暗杠": "concealed",
    "下雨": "concealed",
}


def kong_payment(
    kind: str, konger: int, feeder: int | None = None, *, won=(), base: int = BASE, robbed: bool = False, **options
) -> np.ndarray:
    """刮风下雨: what a kong collects at once (sichuan.md §2).

    Parameters
    ----------
    kind : {"direct", "added", "concealed"}
        直杠 (3 held + a claimed discard), 面下杠 (a pung plus the self-drawn 4th), 下雨 (暗杠).
        ``"exposed"``/``"kong"``/``"直杠"``, ``"added_kong"``/``"面下杠"``/``"刮风"``,
        ``"concealed_kong"``/``"暗杠"``/``"下雨"`` are accepted too.
    konger : int
        The seat that made the kong.
    feeder : int, optional
        直杠 only: the seat whose discard was konged (引杠者).
    won : collection of int, default ()
        血战到底 only: seats that have already won; they pay nothing.
    base : int, default 6
        The stake unit (基本分).
    robbed : bool, default False
        The 面下杠 was robbed (抢杠胡): it earns nothing (刮风下雨无效).
    **options
        Rule options of ``sichuan`` (``xuezhan`` …); unknown names raise ValueError.

    Returns
    -------
    ndarray of int64, shape (4,)
        Seat deltas summing to zero: 直杠 1 × base from the feeder; 面下杠 1 × base and 下雨
        2 × base from each other player who has not won.

    Examples
    --------
    >>> kong_payment("concealed", 2).tolist()
    [-12, -12, 36, -12]
    >>> kong_payment("direct", 0, feeder=3).tolist()
    [6, 0, 0, -6]
    >>> kong_payment("added", 1, won={3}, xuezhan=True).tolist()
    [-6, 12, -6, 0]
    """
    opts = _rules.get("sichuan", **options).options
    base = _check_base(base)
    won = _check_won(won, opts)
    k = _KONG_KINDS.get(kind)
    if k is None:
        raise ValueError(f"kind must be 'direct', 'added' or 'concealed', got {kind!r}")
    if isinstance(konger, bool) or konger not in range(4):
        raise ValueError(f"konger must be a seat 0-3, got {konger!r}")
    if konger in won:
        raise ValueError(f"seat {konger} has already won and cannot kong")
    out = np.zeros(4, np.int64)
    if k == "direct":
        if feeder is None or isinstance(feeder, bool) or feeder not in range(4) or feeder == konger:
            raise ValueError(f"a direct kong needs the feeder's seat (not the konger), got {feeder!r}")
        if feeder in won:
            raise ValueError(f"seat {feeder} has already won and no longer discards")
        if robbed:
            raise ValueError("only an added kong (面下杠) can be robbed")
        out[feeder] -= base
        out[konger] += base
        return out
    if feeder is not None:
        raise ValueError(f"only a direct kong has a feeder ({k} kong given feeder={feeder})")
    if robbed:
        if k != "added":
            raise ValueError("only an added kong (面下杠) can be robbed")
        return out
    each = base if k == "added" else 2 * base
    for p in range(4):
        if p != konger and p not in won:
            out[p] -= each
            out[konger] += each
    return out


def _wait_fans(hand: Hand, opts) -> int:
    """The 大叫 of a 13-tile hand: the best fan over its winning tiles, 0 if not ready.

    Scored as a discard win without situational adders (SC-A7): pattern max + 根, capped.  Only
    the shape waits with a copy left (the shanten kernel's) are scored.
    """
    rule = _rules.get("sichuan", **opts)
    if _suits(hand) > 2 or shanten(hand, rule=rule) != 0:
        return 0
    bound = SCHEME.bound(rule, {})
    best = 0
    for name in waits(hand, rule=rule, legal="shape"):
        t = _t.parse_tile(name)
        h2 = hand.with_tile(t)
        if _suits(h2) > 2:
            continue
        best = max(best, _wait_fan(h2, t, bound))
    return best


def settle_draw(hands, *, kong_log=(), won=(), base: int = BASE, **options) -> np.ndarray:
    """查花猪 and 查大叫 at an exhaustive draw (流局), with the 刮风下雨 refund (sichuan.md §7).

    Parameters
    ----------
    hands : sequence of 4 (Hand, str or None)
        Each seat's final 13-tile hand (concealed tiles and melds); ``None`` for a seat that
        has already won (血战到底 only; it must then be in ``won`` too).
    kong_log : iterable of (konger, deltas)
        Every 刮风下雨 payment of the hand, as the konger's seat and the deltas
        :func:`kong_payment` returned.  A konger who is not ready (花猪 included, ⚑) refunds
        each of his kongs: its deltas are reversed, so every payer (a winner too, SC-A10) gets
        back what he paid.
    won : collection of int, default ()
        血战到底 only: seats that have already won; they neither pay nor collect 花猪/大叫.
    base : int, default 6
        基本分.
    **options
        Rule options of ``sichuan`` (``xuezhan``, ``gen_counts_kongs``, ``max_fan``).

    Returns
    -------
    ndarray of int64, shape (4,)
        Seat deltas summing to zero:

        1. 查花猪: a player still holding all three suits pays 16 × base to every player in
           play who is not a 花猪.
        2. 查大叫: every player in play who is neither ready nor a 花猪 pays every ready player
           in play that player's 大叫, base × 2^(F−1) with F the best 番 over his winning
           tiles (a discard win, 根 included, no situational adders: SC-A7).
        3. Refund: every player in play who is not ready reverses his ``kong_log`` entries.

    Examples
    --------
    Seat 0 waits on 1p/2p (平胡, 1 番 = 6), seat 1 on 5m/7m (清对, 4 番 = 48), seat 2 is not
    ready, seat 3 holds three suits (花猪, pays 16 × 6 = 96 to each of the others):

    >>> hands = ["123m456m789m11p22p", "1112223335577m", "13579m2468p99p11m", "123m456p789s1112m"]
    >>> settle_draw(hands).tolist()
    [102, 144, 42, -288]
    """
    opts = _rules.get("sichuan", **options).options
    base = _check_base(base)
    won = _check_won(won, opts)
    if isinstance(hands, (str, Hand)) or len(hands) != 4:
        raise ValueError("hands must give the 4 seats' hands (None for a seat that has won)")
    hs: list[Hand | None] = []
    for s, h in enumerate(hands):
        if h is None:
            if s not in won:
                raise ValueError(f"seat {s} has no hand but is not in won")
            hs.append(None)
            continue
        if s in won:
            raise ValueError(f"seat {s} has won; pass None as its hand")
        h = h if isinstance(h, Hand) else Hand(h)
        if h.n_tiles + 3 * h.n_melds != 13:
            raise ValueError(f"seat {s}: a hand at the draw holds 13 tiles (melds as 3), got {h}")
        _check_hand(h)
        hs.append(h)
    if len(won) > 2:
        raise ValueError("an exhaustive draw needs at least two players still in play")
    held = {s: h for s, h in enumerate(hs) if h is not None}
    active = list(held)
    huazhu = {s for s in active if _suits(held[s]) == 3}
    fans = {s: (0 if s in huazhu else _wait_fans(held[s], opts)) for s in active}
    ready = {s for s in active if fans[s] > 0}
    out = np.zeros(4, np.int64)
    pig = HUAZHU_TIMES * base
    for p in huazhu:
        for q in active:
            if q not in huazhu:
                out[p] -= pig
                out[q] += pig
    for p in active:
        if p in ready or p in huazhu:
            continue
        for q in ready:
            amount = base << (fans[q] - 1)
            out[p] -= amount
            out[q] += amount
    for entry in kong_log:
        try:
            konger, deltas = entry
            d = np.asarray(deltas, np.int64)
        except (TypeError, ValueError):
            raise ValueError("kong_log entries must be (konger, deltas)") from None
        if d.shape != (4,) or d.sum() != 0 or isinstance(konger, bool) or konger not in range(4):
            raise ValueError(f"bad kong_log entry {entry!r}: (seat 0-3, 4 deltas summing to zero)")
        if konger in active and konger not in ready:
            out -= d
    return out


def next_dealer(current: int, first_winner: int | None = None, discarder: int | None = None) -> int:
    """The next hand's dealer (sichuan.md §8, ⚑ SC-A8).

    Parameters
    ----------
    current : int
        This hand's dealer.
    first_winner : int, optional
        The hand's first winner; None after an exhaustive draw with no win (the dealer stays).
    discarder : int, optional
        The discarder of the first win (None when it was a self-draw).  The player who dealt
        in becomes dealer (a 一炮多响 first win included); after a self-draw the winner deals.

    Examples
    --------
    >>> next_dealer(0), next_dealer(0, 2, discarder=3), next_dealer(0, 2)
    (0, 3, 2)
    """
    for name, v in (("current", current), ("first_winner", first_winner), ("discarder", discarder)):
        if v is not None and (isinstance(v, bool) or v not in range(4)):
            raise ValueError(f"{name} must be a seat 0-3, got {v!r}")
    if first_winner is None:
        if discarder is not None:
            raise ValueError("a discarder without a winner")
        return current
    if discarder is not None:
        if discarder == first_winner:
            raise ValueError("the discarder cannot be the winner")
        return discarder
    return first_winner


SCHEME.register()


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

from ._outcome import rule_options  # noqa: E402  (the hooks' part of the module)

#: The cheapest legal win: 平胡 = 1 番 (the smallest fan), 2 suits (缺一门): points = base × 2^0.
MINIMAL_WINS = (("123m456m789m234p55p", (), (), "2p", False),)


def complete_is_legal(rule) -> bool:
    """A complete hand without the declared void suit (the kernel's 定缺 check) is legal."""
    return True


def settle_kongs(outcome) -> list:
    """刮风下雨 of every kong as it is made: ``(konger, deltas)`` (血战: the seats that had won
    then pay nothing)."""
    play_on = outcome.rule.engine.play_on
    opts = rule_options(outcome.rule)
    return [
        (k.konger, kong_payment(k.kind, k.konger, k.feeder, won=k.won if play_on else (), **opts))
        for k in outcome.kongs
    ]


def win_state(outcome, event, index, ctx, kong_log):
    """血战: the seats that won before (``rule_state["won"]``); 杠上炮: the discarder's income
    from that kong (``rule_state["kong_income"]``) — each winner receives all of it ("如果1炮多响则胡家
    给多份", SC-A5)."""
    state = {}
    if outcome.rule.engine.play_on:
        state["won"] = event.before
    if ctx.kong_discard and event.kong >= 0:
        state["kong_income"] = max(0, int(kong_log[event.kong][1][event.discarder]))
    return ({"rule_state": state} if state else None), None


def settle_end(outcome, kong_log) -> np.ndarray:
    """At an exhausted wall: 查花猪 and 查大叫 with the 刮风下雨 refunds (:func:`settle_draw`)."""
    if not outcome.exhausted:
        return np.zeros(4, np.int64)
    won = frozenset(outcome.winners)
    hands = [None if s in won else outcome.hand(s) for s in range(4)]
    return settle_draw(
        hands, kong_log=kong_log, won=won if outcome.rule.engine.play_on else (), **rule_options(outcome.rule)
    )


def next_deal(outcome) -> int:
    """§8 (:func:`next_dealer`): the player who dealt in deals next (点炮者坐庄), a self-draw winner
    after a self-draw (⚑ SC-A8), a draw keeps the dealer.  血战 (⚑ SC-A8): the hand's first winner,
    or the discarder when several won on that first discard."""
    if not outcome.events:
        return outcome.dealer
    first = outcome.events[0]
    if outcome.rule.engine.play_on:
        return first.discarder if first.discarder is not None and len(first.winners) > 1 else first.winners[0]
    return next_dealer(outcome.dealer, first.winners[0], first.discarder)
