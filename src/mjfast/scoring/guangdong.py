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

from collections.abc import Sequence
from dataclasses import replace

from .. import rules as _rules
from ..hand import Hand
from ._core import WinContext
from ._framework import Element, Facts, Scheme, faces, pay_all, pay_discarder, pay_one, positive_int

__all__ = ["score_guangdong", "can_win_guangdong", "liable_seat", "next_dealer", "SPECIALS", "WITHIN_CAP", "SCHEME"]

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
_CAPS = {"3": (3, 3), "3-6": (3, 6), "2-5": (2, 5)}  # (floor 满, cap 爆)
_WINDS = range(27, 31)
_DRAGONS = range(31, 34)
_TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
_SEAT_OFFSET = {"left": 3, "opposite": 2, "right": 1}  # 上家 = previous seat in turn order
_NO_MIDDLE = bytes(7)
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _check_hand(hand: Hand) -> None:
    if hand.bonus:
        raise ValueError("guangdong (鸡平胡) is played without flowers; the hand has bonus tiles")


def _check_base(base) -> int:
    return positive_int(base, "base")


def _check_keywords(kw: dict, rule) -> dict:
    kw["base"] = _check_base(kw["base"])
    winners = kw["winners"]
    if isinstance(winners, bool) or winners not in (1, 2, 3):
        raise ValueError(f"winners must be 1, 2 or 3, got {winners!r}")
    return kw


def _check(f: Facts) -> None:
    """The flags and keywords (score and can_win); the number of winners is read from
    ``ctx.rule_state`` when the engine passes it as per-hand state."""
    ctx, kw = f.ctx, f.kw
    winners = kw["winners"]
    if winners == 1 and ctx.rule_state:
        winners = ctx.rule_state.get("winners", 1)
        if isinstance(winners, bool) or winners not in (1, 2, 3):
            raise ValueError(f"winners must be 1, 2 or 3, got {winners!r}")
    f.winners = winners
    if winners > 1 and ctx.self_draw:
        raise ValueError("several winners (一炮多响) win on one discard, not by self-draw")
    if ctx.human and (ctx.self_draw or ctx.winner == ctx.dealer or ctx.discarder != ctx.dealer):
        raise ValueError("人和 is a non-dealer's win on the dealer's first discard")
    if ctx.earthly and (not ctx.self_draw or ctx.winner == ctx.dealer):
        raise ValueError("地和 is a non-dealer's self-draw on his first draw")
    if f.flowers:
        _check_hand(ctx.hand)


class GuangdongFacts(Facts):
    """Facts plus ``meld_honours`` (the wind and dragon pung/kong melds' kinds),
    ``exposed_honours`` (those of them that are claimed), ``outside`` (terminals and honours
    only), ``nine_gates`` and ``winners`` (on the discard: 一炮多响)."""

    __slots__ = ("meld_honours", "exposed_honours", "outside", "nine_gates", "winners")


def _hand_facts(f: GuangdongFacts) -> None:
    faces(f)
    c = f.c
    outside = c[1:8] == _NO_MIDDLE and c[10:17] == _NO_MIDDLE and c[19:26] == _NO_MIDDLE
    mh = []
    eh = []
    for m in f.melds:
        t = m.tiles[0]
        if m.kind == "chow":
            outside = False
        elif t >= 27:
            mh.append(t)
            if m.kind != "concealed_kong":
                eh.append(t)
        elif t not in _TERMINALS:
            outside = False
    f.meld_honours = tuple(mh)
    f.exposed_honours = tuple(eh)
    f.outside = outside
    nine = False
    if not f.melds and f.one_suit and not f.honours:
        s0 = 9 * (f.suits >> 1)  # 1, 2, 4 -> suit 0, 1, 2
        nine = min(a - b for a, b in zip(c[s0 : s0 + 9], _NINE_GATES)) >= 0
    f.nine_gates = nine


def _within(code, predicate, scope="reading"):
    zh, en, v = WITHIN_CAP[code]
    return Element(code, zh, en, v, predicate, scope=scope, tag="within")


def _special(code, predicate, scope="reading"):
    zh, en, v = SPECIALS[code]
    return Element(code, zh, en, v, predicate, scope=scope, group="special", excludes=("within",))


# the honour pungs of a reading, melds included: all of them, and those the adders count
# (claimed ones only under adder_exposed_only, GD-C4); expressions over the facts ``f``
_PUNGS = "(f.meld_honours + f.honour_pungs)"
_COUNTED = f"(f.exposed_honours if f.opts['adder_exposed_only'] else {_PUNGS})"
_DRAGON_PUNGS = f"sum(1 for t in {_PUNGS} if t >= 31)"
_WIND_PUNGS = f"sum(1 for t in {_PUNGS} if t < 31)"
_STD = "f.form == 'standard'"

#: The 鸡平胡 element table (guangdong.md §4): the within-cap patterns and adders (summed, then
#: capped), then the special hands (one group: the maximum, which replaces the within-cap rows).
ELEMENTS = (
    _within("pinghu", f"{_STD} and f.chows"),
    _within("pengpenghu", f"{_STD} and f.pungs"),
    _within("hunyise", "f.honours and f.one_suit"),
    _within("jihu", "not ('pinghu' in got or 'pengpenghu' in got or 'hunyise' in got)"),
    _within("zimo", "f.self_draw", "context"),
    _within("menfeng", f"27 + f.ctx.seat_wind in {_COUNTED}"),
    _within("quanfeng", f"27 + f.ctx.prevalent_wind in {_COUNTED}"),
    _within("sanyuan", f"sum(1 for t in {_COUNTED} if t >= 31)"),
    _special("qingyise", f"{_STD} and not f.honours and f.one_suit and not f.pungs"),
    _special("hunpeng", f"{_STD} and f.honours and f.one_suit and f.pungs"),
    _special("qingpeng", f"{_STD} and not f.honours and f.one_suit and f.pungs"),
    _special("hunyaojiu", f"{_STD} and f.outside and f.honours and f.suits != 0"),
    _special("xiaosanyuan", f"{_STD} and f.honour_pair is not None and f.honour_pair >= 31 and {_DRAGON_PUNGS} == 2"),
    _special("xiaosixi", f"{_STD} and f.honour_pair is not None and f.honour_pair < 31 and {_WIND_PUNGS} == 3"),
    _special("ziyise", f"{_STD} and not f.suits"),
    _special("qingyaojiu", f"{_STD} and f.outside and not f.honours"),
    _special("dasanyuan", f"{_STD} and {_DRAGON_PUNGS} == 3"),
    _special("dasixi", f"{_STD} and {_WIND_PUNGS} == 4"),
    _special("jiulian", f"{_STD} and f.nine_gates"),
    _special("shisanyao", "f.form == 'thirteen_orphans'"),
    _special("tianhu", "f.ctx.heavenly", "context"),
    _special("renhu", "f.ctx.human", "context"),
    _special("dihu", "f.ctx.earthly", "context"),
)


def _special_of(r) -> str | None:
    for code in r.got:
        if code in SPECIALS:
            return code
    return None


def _finish(f: Facts, r) -> Sequence[tuple]:
    """爆胡 caps the within-cap sum; a minimum-3 event (一炮三响, 杠上开花, 海底捞针, 抢杠)
    raises a lower one to the floor."""
    if _special_of(r) is not None:
        return ()
    floor, cap = _CAPS[f.opts["cap_scheme"]]
    ctx = f.ctx
    rows = []
    fan = r.raw
    if fan > cap:
        rows.append(("baohu", "爆胡", "Fan cap", cap, 1, "番", "cap"))
        fan = cap
    if fan < floor and (f.winners >= 3 or ctx.after_kong or ctx.robbing_kong or (ctx.last_tile and ctx.self_draw)):
        rows.append(("min_three", "保底", "Minimum-fan event", floor, 1, "番", "replace"))
    return rows


def _legality(f: Facts, r) -> str:
    if _special_of(r) is not None or r.raw >= f.opts["min_fan"]:
        return ""
    return "鸡胡 (0 番) is not allowed (min_fan=1)"


def _key(f: Facts, r) -> tuple:
    """Legal first, then the 番, a special hand before a within-cap one, then the sum before
    the cap."""
    special = _special_of(r) is not None
    return (r.legal, r.total, special, 0 if special else r.raw)


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
    if ctx.after_kong and any(m.kind == "kong" and _seat_of(m.source, ctx.winner) in (None, liable) for m in melds):
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
        "with the sets exposed; the claimed meld's source must be the liable seat)"
    )


def _settle(b, ctx: WinContext, r) -> tuple:
    """§5: a self-draw by each opponent (or the liable seat alone), a discard by the discarder,
    抢杠 by the robbed konger (3 shares)."""
    share = b.kw["base"] << r.total
    if ctx.robbing_kong:
        return share, pay_discarder(ctx, share, 3)
    if ctx.self_draw:
        who = _liability(ctx, _special_of(r), b.rule.options["baozimo_small"])
        if who is None:
            return share, pay_all(ctx, share)
        return share, pay_one(ctx, who, 3 * share)
    return share, pay_discarder(ctx, share)


def _not_complete(ctx: WinContext, rule) -> str:
    return (
        f"hand not complete: {ctx.hand} does not form a winning hand under {rule.name} "
        "(4 sets + a pair, 十三幺 or 九莲宝灯; 七对 is not a winning shape)"
    )


#: The 鸡平胡 scorer, declared.
SCHEME = Scheme(
    "guangdong",
    ELEMENTS,
    keywords={"base": 1, "winners": 1},
    check_keywords=_check_keywords,
    check=_check,
    facts=GuangdongFacts,
    hand_facts=_hand_facts,
    legality=_legality,
    key=_key,
    finish=_finish,
    settle=_settle,
    not_complete=_not_complete,
    always_legal=lambda b, ctx: b.rule.options["min_fan"] == 0,
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_guangdong(ctx: WinContext, rule, *, base: int = 1, winners: int = 1):
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
    return _score(ctx, rule, base=base, winners=winners)


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
    return _can_win(ctx, rule, base=base, winners=winners)


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
    return _next_dealer(dealer, winners, opts["draw"])


def _next_dealer(dealer: int, winners, draw: str) -> int:
    """:func:`next_dealer` with its ``draw`` option already checked (the engine's hook)."""
    if dealer in winners or (not winners and draw == "stay"):
        return dealer
    return (dealer + 1) % 4


SCHEME.register()


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
            if (
                exposed == 4
                or (wind and (winds == 4 or (small and winds == 3)))
                or (dragon and (dragons == 3 or (small and dragons == 2)))
            ):
                out.append((m.order, m.source, b))
    return [(liable, b) for _o, liable, b in sorted(out)]


def _special_code(ctx: WinContext, rule) -> str | None:
    """The special hand the scorer finds for ``ctx`` (None: a within-cap hand)."""
    b = SCHEME.bound(rule, {})
    ctx, f = b.check(ctx)
    return _special_of(b.evaluate(ctx, f=f)[1])


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
                special = _special_code(bound, outcome.rule)
                # None: a 小三元 / 小四喜 liability without baozimo_small, not enforced
                liable = _liability(bound, special, outcome.rule.options["baozimo_small"])
            except ValueError:  # the hand no longer meets the condition (e.g. a special outranks 大三元)
                liable = None
        if liable is not None:
            fields["liable"] = liable
    return fields or None, None


def next_deal(outcome) -> int:
    """§6 (:func:`next_dealer`): the dealer keeps the deal on a win (一炮多响 included) or a draw
    (``draw="pass"``: the deal passes then), otherwise his 下家 deals."""
    return _next_dealer(outcome.dealer, outcome.winners, outcome.rule.options["draw"])
