"""贵阳麻将 scorer and its non-win settlements: 豆 (kongs) and 鸡 (chickens) (rules/guiyang.md).

Scoring (guiyang.md §3–§5), in 个 (= 豆, GY-A1), one table entry, not a sum:

* 平胡 1, 大对子 5, 七对 10, 清一色 10, 清大对 15, 龙七对 20, 清七对 20 ⚑ (not listed in the
  seed; the file's default), 青龙背 30; the highest over the hand's readings.
* Added: 杠上花 +1; 连庄 +n when the dealer wins his n-th consecutive deal (⚑ GY-A4, scorer
  keyword ``lianzhuang``).
* 抢杠: 9 豆 base + the winner's hand value, paid by the robbed player (⚑ GY-A5).  烧豆/热炮
  (``kong_discard``): 3 豆 base + the winner's hand value, paid by the discarder (⚑ GY-A5).
* 通行证: a discard win (抢杠 included: it is settled as one, GY-A5) needs a 豆 (any kong of
  the winner's) when the hand is 平胡 (``pass_scope="pinghu"``, ⚑ GY-A2), or always
  (``pass_scope="all_discard_wins"``); otherwise the hand is not legal.  No 缺一门 (⚑ GY-A3).
* ``points`` = 个 × stake (scorer keyword ``base``, default 1).  A self-draw is paid by each
  opponent, a discard win by the discarder alone.  Guiyang has no 包: ``ctx.liable`` is
  rejected.

Non-win settlements, each returning int64 seat deltas that sum to zero:

* :func:`settle_dou` — 豆 of the hand's kongs (``dou="B"``: 闷豆 3 from each, 转弯豆 3 from
  each, 点豆 3 from the feeder; ``dou="A"``: 2 / 3 / 1); only a konger who is ready or has won
  collects (A "豆通常要叫牌后才可收钱"); 烧豆 and robbed kongers' 豆 are void.
* :func:`settle_chickens` — 冲锋鸡, 鸡, 翻鸡, 金鸡 and 打鸡被碰 (§6, ⚑ GY-A6, GY-A7).
* :func:`next_dealer` — the dealer rule (``dealer="B"`` / ``"A"``, §7).
"""

from __future__ import annotations

import numpy as np

from .. import rules as _rules
from .. import tiles as _t
from ..hand import Hand
from ._core import WinContext
from ._framework import Element, Facts, Scheme, pay_all, pay_discarder, positive_int

__all__ = ["score_guiyang", "can_win_guiyang", "settle_dou", "settle_chickens", "next_dealer", "HANDS", "DOU", "SCHEME"]

#: ``code -> (name_zh, name_en, 个)``: the hand-value table (one entry applies).
HANDS = {
    "pinghu": ("平胡", "Basic hand", 1),
    "daduizi": ("大对子", "All pungs", 5),
    "qidui": ("七对", "Seven pairs", 10),
    "qingyise": ("清一色", "Full flush", 10),
    "qingdadui": ("清大对", "Flush all pungs", 15),
    "longqidui": ("龙七对", "Dragon seven pairs", 20),
    "qingqidui": ("清七对", "Flush seven pairs", 20),
    "qinglongbei": ("青龙背", "Flush dragon seven pairs", 30),
}
#: 豆 per kong kind under ``dou`` = "B" / "A": (concealed from each, added from each,
#: direct from the feeder).
DOU = {"B": (3, 3, 3), "A": (2, 3, 1)}
QIANGGANG_BASE = 9
SHAODOU_BASE = 3
_CHICKEN = 18  # 1s, 幺鸡
_NO_HONOURS = bytes(7)


def _check_hand(hand: Hand) -> None:
    if hand.bonus:
        raise ValueError("guiyang is played without flowers; the hand has bonus tiles")
    if hand.counts.tobytes()[27:] != _NO_HONOURS or any(m.tiles[0] >= 27 for m in hand.melds):
        raise ValueError("guiyang is played with the 108 suit tiles only (no honours)")
    if any(m.kind == "chow" for m in hand.melds):
        raise ValueError("吃 is not allowed in guiyang; the hand has a chow meld")


def _positive(value, what: str, zero_ok: bool = False) -> int:
    return positive_int(value, what, zero_ok)


def _check_keywords(kw: dict, rule) -> dict:
    kw["base"] = _positive(kw["base"], "base")
    kw["lianzhuang"] = _positive(kw["lianzhuang"], "lianzhuang", zero_ok=True)
    return kw


def _check(f: Facts) -> None:
    """The hand, flags and keywords (score and can_win)."""
    ctx, kw = f.ctx, f.kw
    if kw["lianzhuang"] and ctx.winner != ctx.dealer:
        raise ValueError("连庄 (lianzhuang) counts only when the dealer wins")
    if f.flowers or f.c[27:] != _NO_HONOURS or f.melds:  # (the checks of _check_hand)
        _check_hand(ctx.hand)
    if ctx.liable is not None:
        raise ValueError("guiyang has no 包 liability; liable must be None")


def _hand(code, predicate):
    zh, en, v = HANDS[code]
    return Element(code, zh, en, v, predicate, group="hand")


_STD = "f.form == 'standard'"
_SEVEN = "f.form == 'seven_pairs'"

#: The 贵阳 element table (guiyang.md §3–§5): the hand value (one entry), then the adders.
ELEMENTS = (
    _hand("pinghu", f"{_STD} and not f.pungs and not f.one_suit"),
    _hand("daduizi", f"{_STD} and f.pungs and not f.one_suit"),
    _hand("qidui", f"{_SEVEN} and 4 not in f.c and not f.one_suit"),
    _hand("qingyise", f"{_STD} and not f.pungs and f.one_suit"),
    _hand("qingdadui", f"{_STD} and f.pungs and f.one_suit"),
    _hand("longqidui", f"{_SEVEN} and 4 in f.c and not f.one_suit"),
    _hand("qingqidui", f"{_SEVEN} and 4 not in f.c and f.one_suit"),
    _hand("qinglongbei", f"{_SEVEN} and 4 in f.c and f.one_suit"),
    Element("gangshanghua", "杠上花", "Win after kong", 1, "f.ctx.after_kong", scope="context"),
    Element("lianzhuang", "连庄", "Consecutive dealer", 1, "f.kw['lianzhuang']", scope="context"),
    Element("qianggang", "抢杠", "Robbing a kong (9 豆 base)", QIANGGANG_BASE, "f.ctx.robbing_kong", scope="context"),
    Element("shaodou", "烧豆", "Deal-in after kong (3 豆 base)", SHAODOU_BASE, "f.ctx.kong_discard", scope="context"),
)


def _exempt_if(f: Facts) -> bool:
    """A self-draw, or a hand with a 豆 (any kong), needs no 通行证."""
    return f.self_draw or f.n_kongs > 0


def _legality(f: Facts, r) -> str:
    """通行证: a discard win needs a 豆 (any kong) when it is 平胡 (or always, by option)."""
    if f.opts["pass_scope"] == "all_discard_wins":
        return "a discard win needs a 通行证 (a 豆: any kong) (pass_scope=all_discard_wins)"
    if "pinghu" in r.got:
        return "平胡 wins on a discard only with a 通行证 (a 豆: any kong)"
    return ""


def _settle(b, ctx: WinContext, r) -> tuple:
    points = r.total * b.kw["base"]
    if ctx.self_draw:
        return points, pay_all(ctx, points)
    return points, pay_discarder(ctx, points)


def _not_complete(ctx: WinContext, rule) -> str:
    return f"hand not complete: {ctx.hand} does not form a winning hand under {rule.name} (4 sets + a pair, or 七对)"


#: The 贵阳 scorer, declared.
SCHEME = Scheme(
    "guiyang",
    ELEMENTS,
    keywords={"base": 1, "lianzhuang": 0},
    check_keywords=_check_keywords,
    check=_check,
    legality=_legality,
    exempt_if=_exempt_if,
    settle=_settle,
    not_complete=_not_complete,
    minimum_elements=("pinghu",),
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_guiyang(ctx: WinContext, rule, *, base: int = 1, lianzhuang: int = 0):
    """Score a won hand under 贵阳麻将 (the registered scorer of ``"guiyang"``).

    Parameters
    ----------
    ctx : WinContext
        Flags used: ``self_draw``, ``after_kong`` (杠上花), ``robbing_kong`` (抢杠: the
        ``discarder`` is the robbed player), ``kong_discard`` (烧豆/热炮), the winner's kongs
        (通行证).
    rule : Rule
        The resolved ``guiyang`` rule (``pass_scope``; ``dou``/``dealer`` matter only to the
        settlements).
    base : int, default 1
        Stake per 个.
    lianzhuang : int, default 0
        The dealer's consecutive deals before this one (连庄 n); only for a dealer's win.

    Returns
    -------
    Score
        ``total`` in 个, ``points`` = 个 × base; ``legal`` False for a discard win without the
        通行证 it needs.

    Examples
    --------
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext("111m333m555m777m99m", win_tile="9m", self_draw=True), "guiyang")
    >>> s.total, s.payments.tolist()
    (15, [45, -15, -15, -15])
    >>> score(WinContext("123m456m789p11p234p", win_tile="4p", discarder=1), "guiyang").reason
    '平胡 wins on a discard only with a 通行证 (a 豆: any kong)'
    """
    return _score(ctx, rule, base=base, lianzhuang=lianzhuang)


def can_win_guiyang(ctx: WinContext, rule, *, base: int = 1, lianzhuang: int = 0) -> bool:
    """Whether ``ctx`` is a legal 贵阳 win: complete, with a 通行证 where it needs one.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, can_win
    >>> can_win(WinContext("123m456m789p11p234p", win_tile="4p", discarder=1), "guiyang")
    False
    >>> h = Hand("123m456m11p234p", melds=["[7777p]"])
    >>> can_win(WinContext(h, win_tile="4p", discarder=1), "guiyang")
    True
    """
    return _can_win(ctx, rule, base=base, lianzhuang=lianzhuang)


# ---------------------------------------------------------------------------------------------
# non-win settlements
def _seat(x, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x <= 3:
        raise ValueError(f"{what} must be a seat 0-3, got {x!r}")
    return int(x)


def _seats(xs, what: str) -> frozenset:
    try:
        return frozenset(_seat(x, what) for x in xs)
    except TypeError:
        raise ValueError(f"{what} must be a collection of seats 0-3, got {xs!r}") from None


_KONG_KINDS = {
    "concealed": 0,
    "concealed_kong": 0,
    "闷豆": 0,
    "暗杠": 0,
    "added": 1,
    "added_kong": 1,
    "转弯豆": 1,
    "爬坡豆": 1,
    "补杠": 1,
    "direct": 2,
    "exposed": 2,
    "kong": 2,
    "点豆": 2,
    "直杠": 2,
}


def settle_dou(kongs, ready, *, void=(), base: int = 1, **options) -> np.ndarray:
    """豆: the payments for the hand's kongs (guiyang.md §5), settled at the end of the hand.

    Parameters
    ----------
    kongs : iterable of (konger, kind, feeder)
        Every kong that earns 豆, in any order.  ``kind`` is ``"concealed"`` (闷豆),
        ``"added"`` (转弯豆/爬坡豆) or ``"direct"`` (点豆; ``feeder`` = the seat whose discard
        was konged, None for the other kinds).  A late kong (B: not declared at once) earns no
        豆 and is left out; a robbed added kong never happened.
    ready : collection of int
        Seats that won or are ready at the end: only they collect (A "豆通常要叫牌后才可收钱").
    void : collection of int, default ()
        Seats whose 豆 are all void: 烧豆 (the discarder won on right after his kong) and the
        robbed player of a 抢杠.
    base : int, default 1
        Stake per 豆.
    **options
        ``dou``: ``"B"`` (default; 3 / 3 / 3) or ``"A"`` (闷豆 2 from each, 转弯豆 3 from each,
        点豆 1 from the feeder).

    Returns
    -------
    ndarray of int64, shape (4,)

    Examples
    --------
    >>> settle_dou([(0, "concealed", None), (1, "direct", 3)], ready={0, 1}).tolist()
    [9, 0, -3, -6]
    >>> settle_dou([(0, "concealed", None), (1, "direct", 3)], ready={0, 1}, dou="A").tolist()
    [6, -1, -2, -3]
    """
    values = DOU[_rules.get("guiyang", **options).options["dou"]]
    base = _positive(base, "base")
    ready = _seats(ready, "ready")
    void = _seats(void, "void")
    out = np.zeros(4, np.int64)
    for entry in kongs:
        try:
            konger, kind, feeder = entry
        except (TypeError, ValueError):
            raise ValueError(f"kongs entries are (konger, kind, feeder), got {entry!r}") from None
        konger = _seat(konger, "konger")
        k = _KONG_KINDS.get(kind)
        if k is None:
            raise ValueError(f"kind must be 'concealed', 'added' or 'direct', got {kind!r}")
        if k == 2:
            feeder = _seat(feeder, "feeder")
            if feeder == konger:
                raise ValueError("the feeder of a direct kong is another player")
        elif feeder is not None:
            raise ValueError(f"only a direct kong (点豆) has a feeder, got {entry!r}")
        if konger not in ready or konger in void:
            continue
        amount = values[k] * base
        payers = (feeder,) if k == 2 else tuple(p for p in range(4) if p != konger)
        for p in payers:
            out[p] -= amount
            out[konger] += amount
    return out


def _tiles_list(x) -> list[int]:
    if x is None:
        return []
    if isinstance(x, str):
        return list(_t.parse_tiles(x, allow_bonus=False)) if x.strip() else []
    return [_t.parse_tile(t) for t in x]


def _successor(tile: int) -> int:
    s, n = divmod(tile, 9)
    return 9 * s + (n + 1) % 9


def settle_chickens(
    hands, discards, ready, *, first_chicken=None, ponged=(), flipped=None, base: int = 1
) -> np.ndarray:
    """鸡: the chicken payments at the end of the hand (guiyang.md §6, ⚑ GY-A6, GY-A7).

    Parameters
    ----------
    hands : sequence of 4 (Hand or str)
        Each seat's final tiles, concealed and melded (13, or 14 for a winner).
    discards : sequence of 4 (str or iterable of tiles)
        Each seat's discards still lying in front of him (not claimed by anyone).
    ready : collection of int
        Seats that won or are ready: only they collect (GY-A7).
    first_chicken : int, optional
        The seat whose discard was the first 1条 of the hand, when nobody claimed it (冲锋鸡;
        it must be in his ``discards``).  None when there is none (it was ponged or konged).
    ponged : iterable of (discarder, ponger), default ()
        Each discarded 1条 that was ponged or konged (打鸡被碰): the discarder pays the ponger
        1 chicken directly.
    flipped : tile, optional
        The tile flipped after the win (翻鸡); its successor in the same suit (9 -> 1, ⚑) is a
        chicken for the hand.  A flipped 9条 makes 1条 金鸡: every 1条 unit counts double.
        None: no flip (GY-A9).
    base : int, default 1
        Stake per 豆.

    Returns
    -------
    ndarray of int64, shape (4,)
        Seat deltas: each ready seat collects its units from each of the other three; a
        chicken unit is every 1条 in the seat's hand, melds and discards (冲锋鸡 2), doubled
        for 金鸡, plus every copy of the 翻鸡 tile there; and the 打鸡被碰 transfers.

    Examples
    --------
    Seat 0 (ready) holds one 1条 and discarded the 冲锋鸡: 1 + 2 = 3 units from each:

    >>> hands = ["1s23s456m789m11p22p", "123456789m1234p", "123456789m1234p", "123456789m1234p"]
    >>> settle_chickens(hands, ["1s", "", "", ""], ready={0}, first_chicken=0).tolist()
    [9, -3, -3, -3]
    """
    base = _positive(base, "base")
    ready = _seats(ready, "ready")
    if isinstance(hands, (str, Hand)) or len(hands) != 4:
        raise ValueError("hands must give the 4 seats' final tiles")
    if isinstance(discards, str) or len(discards) != 4:
        raise ValueError("discards must give the 4 seats' discards")
    hs = [h if isinstance(h, Hand) else Hand(h) for h in hands]
    ds = [_tiles_list(d) for d in discards]
    golden = False
    extra = None
    if flipped is not None:
        f = _t.parse_tile(flipped)
        if f >= 27:
            raise ValueError("the flipped tile must be a suit tile")
        succ = _successor(f)
        if succ == _CHICKEN:
            golden = True
        else:
            extra = succ
    mult = 2 if golden else 1
    if first_chicken is not None:
        first_chicken = _seat(first_chicken, "first_chicken")
        if _CHICKEN not in ds[first_chicken]:
            raise ValueError(f"seat {first_chicken} has no discarded 1条 for the 冲锋鸡")
    units = [0, 0, 0, 0]
    for s in range(4):
        held = np.asarray(hs[s].counts, np.int64) + np.asarray(hs[s].meld_counts, np.int64)
        n1 = int(held[_CHICKEN]) + ds[s].count(_CHICKEN)
        u = n1 * mult
        if s == first_chicken:
            u += mult  # the 冲锋鸡 counts 2 (金鸡 4) instead of 1 (2)
        if extra is not None:
            u += int(held[extra]) + ds[s].count(extra)
        units[s] = u
    out = np.zeros(4, np.int64)
    for s in ready:
        amount = units[s] * base
        for p in range(4):
            if p != s:
                out[p] -= amount
                out[s] += amount
    for entry in ponged:
        try:
            d, p = entry
        except (TypeError, ValueError):
            raise ValueError(f"ponged entries are (discarder, ponger), got {entry!r}") from None
        d, p = _seat(d, "discarder"), _seat(p, "ponger")
        if d == p:
            raise ValueError("a player cannot pong his own discard")
        out[d] -= base
        out[p] += base
    return out


def next_dealer(current: int, winners=(), *, discarder=None, ready=(), **options) -> int:
    """The next hand's dealer (guiyang.md §7).

    Parameters
    ----------
    current : int
        This hand's dealer.
    winners : sequence of int
        The winners in order (the first winner first); empty for 黄庄.
    discarder : int, optional
        The discarder of a 一炮多响.
    ready : collection of int
        黄庄 only: the seats that are ready.
    **options
        ``dealer``: ``"B"`` (default: 一炮三响 → the discarder deals) or ``"A"`` (a winner
        always deals, "湖牌者接庄").

    Examples
    --------
    >>> next_dealer(0, [2]), next_dealer(0, [1, 3, 2], discarder=0)
    (2, 0)
    >>> next_dealer(0, [1, 3, 2], discarder=0, dealer="A")
    1
    >>> next_dealer(0, [], ready={0, 1, 3}), next_dealer(0, [], ready={0, 3}), next_dealer(0, [], ready={2, 3})
    (2, 0, 2)
    """
    rule = _rules.get("guiyang", **options).options["dealer"]
    dealer = _seat(current, "current dealer")
    winners = [_seat(w, "winner") for w in winners]
    if len(winners) == 3 and rule == "B":
        _seat(discarder, "discarder")
    return _next_dealer(dealer, winners, discarder, () if winners else _seats(ready, "ready"), rule)


def _next_dealer(dealer: int, winners, discarder, ready, rule: str) -> int:
    """:func:`next_dealer` with its arguments already checked (the engine's hook)."""
    if winners:
        if len(winners) == 3 and rule == "B":
            return discarder
        return winners[0]
    not_ready = [s for s in range(4) if s not in ready]
    if len(not_ready) in (0, 4):
        return dealer
    if len(not_ready) == 1:
        return not_ready[0]
    if dealer in ready:
        return dealer
    return next((dealer + k) % 4 for k in range(1, 4) if (dealer + k) % 4 in ready)


SCHEME.register()


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal win: 平胡 1 个, self-drawn (a discard 平胡 needs a 通行证).
MINIMAL_WINS = (("123m456m789m234p55p", (), (), "2p", True),)


def _ponged_chickens(outcome) -> list:
    """打鸡被碰: ``(discarder, ponger)`` for every discarded 1条 that was ponged or konged — a pung
    later made into a 补杠 included (the discard was ponged all the same)."""
    return [
        (m.source, s)
        for s in range(4)
        for m in outcome.melds(s)
        if m.tile == _CHICKEN and m.kind in ("pung", "kong", "added_kong")
    ]


def settle_end(outcome, kong_log) -> np.ndarray:
    """豆 for the kongs and 鸡, collected by the seats that won or are ready (GY-A7).  A robbed
    konger's 豆 are void; the discarder of a 烧豆 / 热炮 win collects nothing at all in the hand
    (A "本局不可以再有任何“进钱”的机会…一废全废": his 豆, his chickens and the 打鸡被碰 he would receive)."""
    rule = outcome.rule
    hands = [outcome.hand(s) for s in range(4)]
    ready = _ready(outcome, hands)
    void, income_void = set(), set()
    first = outcome.events[0] if outcome.events else None
    if first is not None and first.how == "robbing_kong":
        void.add(first.discarder)
    elif first is not None and first.how == "discard" and first.has("kong_discard"):
        void.add(first.discarder)
        income_void.add(first.discarder)
    pay = settle_dou([(k.konger, k.kind, k.feeder) for k in outcome.kongs], ready, void=void, dou=rule.options["dou"])
    discards = [outcome.discards(s) for s in range(4)]
    ponged = [(d, p) for d, p in _ponged_chickens(outcome) if p not in income_void]
    return pay + settle_chickens(
        hands, discards, ready - income_void, first_chicken=outcome.first_discard, ponged=ponged
    )


def _ready(outcome, hands=None) -> set:
    """The seats that won or are ready (shanten 0) at the end of the hand."""
    from ..shape import shanten

    hands = hands or [outcome.hand(s) for s in range(4)]
    ready = set(outcome.winners)
    for s in range(4):
        if s not in ready and shanten(hands[s], rule=outcome.rule) == 0:
            ready.add(s)
    return ready


def win_state(outcome, event, index, ctx, kong_log):
    """In a match: 连庄 — a dealer winning his n-th consecutive deal is scored with ``lianzhuang=n``
    (⚑ GY-A4: n = 0 on his first deal)."""
    rnd = outcome.round
    if rnd is not None and rnd.streak and event.winners[index] == outcome.dealer:
        return None, {"lianzhuang": rnd.streak}
    return None, None


def next_deal(outcome) -> int:
    """§7 (:func:`next_dealer`): the (first) winner deals; 一炮三响: the discarder (``dealer="B"``);
    黄庄: who is ready decides."""
    first = outcome.events[0] if outcome.events else None
    ready = () if outcome.winners else _ready(outcome)
    discarder = first.discarder if first else None
    return _next_dealer(outcome.dealer, outcome.winners, discarder, ready, outcome.rule.options["dealer"])
