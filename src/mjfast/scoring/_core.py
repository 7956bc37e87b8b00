"""The scoring framework: :class:`WinContext`, :class:`Score`, the scorer registry and the
public entry points :func:`score` and :func:`can_win`.

Rule-specific scorers live in their own modules (:mod:`mjfast.scoring.guobiao`) and plug in
with :func:`register`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import rules as _rules
from .. import tiles as _t
from ..hand import Hand
from ..rules._base import FrozenMap, Rule

__all__ = [
    "WinContext",
    "Score",
    "NotComplete",
    "score",
    "can_win",
    "register",
    "scorers",
    "ELEMENT_COLUMNS",
    "ROW_FIELDS",
    "HOW",
]

#: Columns of :attr:`Score.elements`, in order: ``value`` is one element's worth, ``total`` what
#: the row adds (``value`` × ``count``).
ELEMENT_COLUMNS = ("code", "name_zh", "name_en", "value", "count", "total", "unit", "how")
#: Fields of each tuple of :attr:`Score.rows` (what scorers build), in order; the fourth is the
#: row's total (``value`` × ``count``).
ROW_FIELDS = ("code", "name_zh", "name_en", "total", "count", "unit", "how")
#: How an element combines with the ones before it: ``add`` its value to the total,
#: ``multiply`` the total by it, ``cap`` the total at it, or ``replace`` the total by it.
HOW = ("add", "multiply", "cap", "replace")

_WIND_NAMES = {
    "e": 0,
    "east": 0,
    "东": 0,
    "東": 0,
    "1z": 0,
    "s": 1,
    "south": 1,
    "南": 1,
    "2z": 1,
    "w": 2,
    "west": 2,
    "西": 2,
    "3z": 2,
    "n": 3,
    "north": 3,
    "北": 3,
    "4z": 3,
}


class NotComplete(ValueError):
    """The tiles do not form a winning hand (under the rule, or at all: not 14 tiles).

    A :class:`ValueError`, so that code catching those keeps working; :func:`can_win` answers
    False for exactly this error and lets every other one through.

    Examples
    --------
    >>> issubclass(NotComplete, ValueError)
    True
    """


def _wind(value, what: str) -> int:
    if type(value) is int and 0 <= value <= 3:
        return value
    if isinstance(value, str):
        w = _WIND_NAMES.get(value.strip().lower())
        if w is None:
            raise ValueError(f"{what} must be 0-3 or a wind name (E S W N, 东南西北), got {value!r}")
        return w
    return _seat(value, what)


def _seat(value, what: str) -> int:
    if type(value) is int and 0 <= value <= 3:
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 0 <= value <= 3:
        raise ValueError(f"{what} must be a seat number 0-3, got {value!r}")
    return int(value)


_PAYERS = tuple(tuple(p for p in range(4) if p != w) for w in range(4))
#: The situation flags of a win (``WinContext`` keywords besides ``self_draw``).
WIN_FLAGS = (
    "after_kong",
    "robbing_kong",
    "last_tile",
    "last_copy",
    "heavenly",
    "earthly",
    "human",
    "kong_discard",
    "baozi",
    "diling",
)
_FLAGS = ("self_draw", *WIN_FLAGS)
_NO_STATE = FrozenMap()


def _first_turn(
    heavenly, earthly, human, self_draw, after_kong, robbing_kong, kong_discard, last_tile, by_dealer
) -> None:
    """Reject flags that a first-turn win cannot come with under any rule's definition (GB-C6:
    the rules define 地胡/人和 differently — 联众's 人和 is any win in the first go-around, the
    dealer's included — so only what no definition allows is rejected here; each scorer checks
    its own definition): another first-turn win, the last tile of the wall, a robbed kong (nobody
    can add to a pung before the dealer's second draw), 天胡 on a kong's replacement, and a
    dealer's 地胡."""
    names = [n for n, v in (("heavenly (天胡)", heavenly), ("earthly (地胡)", earthly), ("human (人和)", human)) if v]
    if len(names) > 1:
        raise ValueError(f"{' and '.join(names)} exclude each other: one hand has one first-turn win")
    what = names[0]
    exclusions = [
        (last_tile, "last_tile (海底): the wall is not empty on the first turn"),
        (robbing_kong, "robbing_kong (抢杠): nobody has a pung to add to yet"),
    ]
    if heavenly:
        exclusions.append(
            (after_kong, "after_kong (杠上开花): 天胡 is won with the dealt tiles, not on a replacement tile")
        )
    for flag, why in exclusions:
        if flag:
            raise ValueError(f"{what} is a first-turn win and cannot come with {why}")
    if earthly and by_dealer:
        raise ValueError(f"{what} is a non-dealer's win (the dealer's first-turn win is 天胡)")


@dataclass(frozen=True, slots=True, init=False)
class WinContext:
    """Everything a scorer needs to know about one finished (won) hand.

    Seats are numbered 0-3 in turn order; seat winds follow from the dealer (the dealer is
    East), so ``seat_wind`` need only be given when it differs from ``(winner - dealer) % 4``.

    Parameters
    ----------
    hand : Hand or str
        The winner's hand: concealed tiles *including* the winning tile, the melds with their
        sources (上家/对家/下家), bonus tiles (flowers) and wildcards.  A string is read by
        :class:`~mjfast.Hand` (melds cannot be given that way; pass a Hand).
    win_tile : int or str
        The winning tile.  It must be among the concealed tiles, except that in a rule with
        wildcards a winning wildcard is given as the tile it stands for.
    self_draw : bool, default False
        自摸.  A discard win (点和) needs ``discarder``.
    winner : int, default 0
        The winner's seat.
    discarder : int, optional
        The seat that discarded the winning tile (or whose kong was robbed); None on a self-draw.
    dealer : int, default 0
        The dealer's seat (庄家).
    seat_wind : int or str, optional
        The winner's seat wind, 0-3 = East South West North (or ``"E"``, ``"东"`` …); by default
        ``(winner - dealer) % 4``.
    prevalent_wind : int or str, default 0
        The prevalent (round) wind.
    after_kong : bool, default False
        Won on the replacement tile after a kong (杠上开花) or a flower (花开); a self-draw.
    robbing_kong : bool, default False
        Won on the tile another player added to a melded pung (抢杠); not a self-draw.
    last_tile : bool, default False
        Won on the last tile of the wall (海底): 妙手回春 when self-drawn, 海底捞月 on its discard.
    last_copy : bool, default False
        和绝张: the winning tile is the last copy not yet seen (the other three are visible).
    heavenly, earthly, human : bool, default False
        天胡 / 地胡 / 人和, as the rule defines them (definitions differ, GB-C6).  ``heavenly``
        is the dealer's self-draw on the deal.
    kong_discard : bool, default False
        杠上炮: won on a discard the discarder made right after his own kong.
    baozi, diling : bool, default False
        Round multipliers of the rules that have them (豹子, 滴零 in 苏州).
    liable : int, optional
        包: the seat liable for the whole payment (e.g. the player who fed the meld that left
        the winner with one tile, 12 tiles down), where the rule has such liability.
    wild_faces : tuple of int or str, default ()
        What each wildcard stood for, when that was fixed at the win (one entry per wildcard
        at most).
    flipped : int or str, optional
        The flipped indicator tile that chose the wildcard (翻宝/翻混).
    rule_state : Mapping, optional
        Any other per-hand state a rule needs (for example 鸡 tiles), key -> value.

    Raises
    ------
    ValueError
        A hand that is not 14 tiles (melds counted as 3), a winning tile the hand does not
        hold, a seat out of range, a discarder equal to the winner, a self-draw with a
        discarder, a discard win without one, flags that contradict the way of winning
        (杠上开花 on a discard, 抢杠 or 杠上炮 on a self-draw, 天胡 not by the dealer's self-draw,
        地胡 or 人和 by the dealer, 人和 on a self-draw), or flags that contradict each other: two
        of 天胡 / 地胡 / 人和, one of them with 海底, 杠上开花, 抢杠 or 杠上炮, and 抢杠 with 杠上炮 or
        海底.  (豹子 and 滴零 may stack.)

    Examples
    --------
    >>> from mjfast import Hand
    >>> ctx = WinContext(Hand("123m456p789s234s55p"), win_tile="5p", discarder=2, winner=1)
    >>> ctx.seat_wind, ctx.self_draw, ctx.discarder
    (1, False, 2)
    >>> WinContext("123m456p789s234s55p", win_tile="5p", self_draw=True, discarder=2)
    Traceback (most recent call last):
    ...
    ValueError: a self-draw has no discarder (got discarder=2)
    """

    hand: Hand
    win_tile: int
    self_draw: bool = False
    winner: int = 0
    discarder: int | None = None
    dealer: int = 0
    seat_wind: int | None = None
    prevalent_wind: int = 0
    after_kong: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    last_copy: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    kong_discard: bool = False
    baozi: bool = False
    diling: bool = False
    liable: int | None = None
    wild_faces: tuple = ()
    flipped: int | None = None
    rule_state: Mapping = _NO_STATE

    # One pass that validates and sets each field once (the generated frozen-dataclass __init__
    # plus a __post_init__ re-setting half the fields cost twice as much; contexts are built per
    # candidate win by the game engine and the draws simulator).
    def __init__(
        self,
        hand,
        win_tile,
        self_draw=False,
        winner=0,
        discarder=None,
        dealer=0,
        seat_wind=None,
        prevalent_wind=0,
        after_kong=False,
        robbing_kong=False,
        last_tile=False,
        last_copy=False,
        heavenly=False,
        earthly=False,
        human=False,
        kong_discard=False,
        baozi=False,
        diling=False,
        liable=None,
        wild_faces=(),
        flipped=None,
        rule_state=_NO_STATE,
    ) -> None:
        s = object.__setattr__
        if type(hand) is not Hand:
            hand = Hand(hand)
        if hand.n_tiles + 3 * hand.n_melds != 14:
            raise NotComplete(
                f"hand not complete: a winning hand holds 14 tiles counting each meld as 3, "
                f"got {hand.n_tiles + 3 * hand.n_melds} ({hand})"
            )
        win = win_tile
        if type(win) is not int:
            win = _t.parse_tile(win)
        elif not 0 <= win < _t.N_KINDS:
            raise ValueError(f"win_tile must be a tile id 0-33, got {win}")
        if win >= _t.N_KINDS:
            raise ValueError(f"the winning tile cannot be a bonus tile ({_t.CODES[win]})")
        if hand.counts[win] == 0 and hand.wilds == 0:
            raise ValueError(f"winning tile {_t.CODES[win]} is not in the hand's concealed tiles ({hand})")
        B = bool
        if not (
            type(self_draw) is B
            and type(after_kong) is B
            and type(robbing_kong) is B
            and type(last_tile) is B
            and type(last_copy) is B
            and type(heavenly) is B
            and type(earthly) is B
            and type(human) is B
            and type(kong_discard) is B
            and type(baozi) is B
            and type(diling) is B
        ):
            flags = [
                self_draw,
                after_kong,
                robbing_kong,
                last_tile,
                last_copy,
                heavenly,
                earthly,
                human,
                kong_discard,
                baozi,
                diling,
            ]
            for k, (name, v) in enumerate(zip(_FLAGS, flags)):
                if type(v) is not bool:
                    if not isinstance(v, (bool, np.bool_, int, np.integer)):
                        raise ValueError(f"{name} must be True or False, got {v!r}")
                    flags[k] = bool(v)
            (
                self_draw,
                after_kong,
                robbing_kong,
                last_tile,
                last_copy,
                heavenly,
                earthly,
                human,
                kong_discard,
                baozi,
                diling,
            ) = flags
        if type(winner) is not int or not 0 <= winner <= 3:
            winner = _seat(winner, "winner")
        if type(dealer) is not int or not 0 <= dealer <= 3:
            dealer = _seat(dealer, "dealer")
        d = discarder
        if self_draw:
            if d is not None:
                raise ValueError(f"a self-draw has no discarder (got discarder={d!r})")
        else:
            if d is None:
                raise ValueError("a discard win needs the discarder's seat (discarder=0-3), or pass self_draw=True")
            d = _seat(d, "discarder")
            if d == winner:
                raise ValueError(f"the discarder cannot be the winner (both are seat {d})")
        seat_wind = (winner - dealer) % 4 if seat_wind is None else _wind(seat_wind, "seat_wind")
        if type(prevalent_wind) is not int or not 0 <= prevalent_wind <= 3:
            prevalent_wind = _wind(prevalent_wind, "prevalent_wind")
        if after_kong and not self_draw:
            raise ValueError(
                "after_kong (杠上开花) is a self-draw: pass self_draw=True, or "
                "robbing_kong / kong_discard for a discard win"
            )
        if robbing_kong and self_draw:
            raise ValueError("robbing_kong (抢杠) is a win on another player's tile, not a self-draw")
        if kong_discard and self_draw:
            raise ValueError("kong_discard (杠上炮) is a win on a discard, not a self-draw")
        if heavenly and not (self_draw and winner == dealer):
            raise ValueError("heavenly (天胡) is the dealer's self-draw on the deal")
        if heavenly or earthly or human:
            _first_turn(
                heavenly, earthly, human, self_draw, after_kong, robbing_kong, kong_discard, last_tile, winner == dealer
            )
        if robbing_kong and (kong_discard or last_tile):
            raise ValueError(
                "robbing_kong (抢杠) is a win on the tile added to a kong: not "
                + (
                    "a discard after a kong (kong_discard, 杠上炮)"
                    if kong_discard
                    else "on the last tile of the wall (last_tile, 海底): nobody kongs when no replacement tile is left"
                )
            )
        if liable is not None:
            liable = _seat(liable, "liable")
            if liable == winner:
                raise ValueError(f"the liable seat cannot be the winner (both are seat {liable})")
        if wild_faces:
            faces = tuple(_t.parse_tile(x) for x in wild_faces)
            if len(faces) > hand.wilds:
                raise ValueError(f"{len(faces)} wild_faces given for {hand.wilds} wildcards")
            if any(f >= _t.N_KINDS for f in faces):
                raise ValueError("a wildcard can only stand for a playable tile, not a bonus tile")
            wild_faces = faces
        elif not isinstance(wild_faces, tuple):
            wild_faces = tuple(wild_faces)
        if flipped is not None:
            flipped = _t.parse_tile(flipped)
        if rule_state is not _NO_STATE and not isinstance(rule_state, FrozenMap):
            if not isinstance(rule_state, Mapping):
                raise ValueError(f"rule_state must be a mapping, got {type(rule_state).__name__}")
            rule_state = FrozenMap(rule_state)
        s(self, "hand", hand)
        s(self, "win_tile", win)
        s(self, "self_draw", self_draw)
        s(self, "winner", winner)
        s(self, "discarder", d)
        s(self, "dealer", dealer)
        s(self, "seat_wind", seat_wind)
        s(self, "prevalent_wind", prevalent_wind)
        s(self, "after_kong", after_kong)
        s(self, "robbing_kong", robbing_kong)
        s(self, "last_tile", last_tile)
        s(self, "last_copy", last_copy)
        s(self, "heavenly", heavenly)
        s(self, "earthly", earthly)
        s(self, "human", human)
        s(self, "kong_discard", kong_discard)
        s(self, "baozi", baozi)
        s(self, "diling", diling)
        s(self, "liable", liable)
        s(self, "wild_faces", wild_faces)
        s(self, "flipped", flipped)
        s(self, "rule_state", rule_state)

    @property
    def kongs(self) -> tuple:
        """The winner's kongs (exposed, added and concealed), as :class:`~mjfast.Meld`."""
        return tuple(m for m in self.hand.melds if m.is_kong)

    @property
    def n_flowers(self) -> int:
        """Number of bonus tiles (flowers) the winner has laid aside."""
        return len(self.hand.bonus)

    @property
    def payers(self) -> tuple[int, ...]:
        """The seats other than the winner."""
        return _PAYERS[self.winner]


class Score:
    """The result of scoring one won hand under one rule.

    Scorers build it as ``Score(rule, total, points, payments, legal, reason, unit, rows,
    decomposition=None, decomposition_fn=None, source=None)``, where ``payments`` is any
    4-sequence of ints, ``rows`` a list of element tuples (:data:`ROW_FIELDS`) or a
    callable returning one, ``reason`` a string or a callable returning one, and
    ``decomposition_fn`` a callable building the decomposition on demand.  Given a
    ``source``, those callables are called with it (``rows(source)``), so that a scorer can
    pass module-level functions and the one object they read instead of building closures
    on every call.

    Attributes
    ----------
    rule : str
        Registry name of the rule.
    total : int
        The hand's value in the rule's unit (:attr:`unit`), every element included.
    points : int
        What one payer owes, in stake units (for 国标 ``8 + total``; 0 when not legal).
    payments : ndarray of int64, shape (4,)
        Seat deltas (winner positive), read-only; they sum to zero.  All zero when not legal.
        Built on first access from the sequence the scorer passed.
    legal : bool
        Whether the hand meets the rule's minimum to win.
    reason : str
        Why the hand is not legal ("" when it is).
    unit : str
        The rule's scoring unit (番, 花, …).
    decomposition : Decomposition
        The reading that was scored (built on first access).
    elements : pandas.DataFrame
        One row per scoring element, columns :data:`ELEMENT_COLUMNS` (built on first access):
        ``code`` (snake-case id), ``name_zh``, ``name_en``, ``value`` (one element's worth, e.g.
        1 花 per flower; for ``multiply`` / ``cap`` / ``replace`` rows the factor, cap or new
        total), ``count`` (how many times it applies), ``total`` (what the row adds: ``value`` ×
        ``count``), ``unit``, ``how`` (:data:`HOW`).  Where every row adds,
        ``elements.total.sum()`` is :attr:`total`.
    rows : list of tuple
        The same elements as plain tuples (:data:`ROW_FIELDS`: the row's total, not ``value``),
        for loops that do not want pandas.
    """

    __slots__ = (
        "rule",
        "total",
        "points",
        "_payments",
        "legal",
        "_reason",
        "unit",
        "_rows",
        "_elements",
        "_decomp",
        "_decomp_fn",
        "_source",
    )

    def __init__(
        self,
        rule: str,
        total: int,
        points: int,
        payments,
        legal: bool,
        reason: str | Callable,
        unit: str,
        rows,
        decomposition=None,
        decomposition_fn: Callable | None = None,
        source=None,
    ):
        self.rule = rule
        self.total = total
        self.points = points
        self._payments = payments
        self.legal = legal
        self._reason = reason
        self.unit = unit
        self._rows = rows
        self._elements = None
        self._decomp = decomposition
        self._decomp_fn = decomposition_fn
        self._source = source

    def _lazy(self, fn):
        return fn() if self._source is None else fn(self._source)

    @property
    def reason(self) -> str:
        """Why the hand is not legal ("" when it is)."""
        r = self._reason
        if type(r) is not str:
            r = self._reason = self._lazy(r)
        return r

    @property
    def elements(self):
        """One row per scoring element (pandas DataFrame, :data:`ELEMENT_COLUMNS`)."""
        if self._elements is None:
            import pandas as pd

            df = pd.DataFrame(self.rows, columns=list(ROW_FIELDS)).astype({"total": "int64", "count": "int64"})
            count = df["count"].to_numpy()
            # one element's worth: a row that adds holds value × count (a multiple of count)
            value = np.where(count > 1, df["total"].to_numpy() // np.maximum(count, 1), df["total"].to_numpy())
            df.insert(3, "value", value.astype(np.int64))
            self._elements = df[list(ELEMENT_COLUMNS)]
        return self._elements

    @property
    def payments(self) -> np.ndarray:
        """Seat deltas, int64 array of shape (4,) summing to zero (read-only)."""
        p = self._payments
        if type(p) is not np.ndarray:
            p = np.array(p, np.int64)
            if p.shape != (4,) or p.sum() != 0:
                raise ValueError(f"payments must be 4 seat deltas summing to zero, got {p.tolist()}")
            p.setflags(write=False)
            self._payments = p
        return p

    @property
    def rows(self) -> list[tuple]:
        """The elements as plain tuples in :data:`ROW_FIELDS` order (no pandas)."""
        if callable(self._rows):
            self._rows = self._lazy(self._rows)
        return self._rows

    @property
    def decomposition(self):
        """The reading (:class:`~mjfast.Decomposition`) the score was computed on."""
        if self._decomp is None and self._decomp_fn is not None:
            self._decomp = self._lazy(self._decomp_fn)
            self._decomp_fn = None
        return self._decomp

    def __repr__(self) -> str:
        state = "legal" if self.legal else f"not legal: {self.reason}"
        return (
            f"Score({self.rule!r}, total={self.total} {self.unit}, points={self.points}, "
            f"payments={self.payments.tolist()}, {state})"
        )

    def _repr_html_(self) -> str:
        from html import escape

        head = escape(repr(self))
        return f"<div class='mjfast-score'><p>{head}</p>{self.elements.to_html(index=False)}</div>"


# ---------------------------------------------------------------------------------------------
# registry
_SCORERS: dict[str, tuple[Callable, Callable | None, Callable | None]] = {}  # scorer, can_win, bind
_RESOLVED: dict[tuple | str, tuple] = {}  # also by bare rule name, for option-free calls
_RESOLVED_ID: dict[int, tuple] = {}  # id(Rule) -> (Rule, resolved), for option-free calls
_LAST: tuple = (None, {}, None)  # (rule, options, resolved) of the last call with options
_MISSING = object()


def register(
    name: str, scorer: Callable, can_win: Callable | None = None, *, bind: Callable | None = None, replace: bool = False
) -> None:
    """Register the scorer of a rule, so that :func:`score` and :func:`can_win` find it.

    Parameters
    ----------
    name : str
        The rule's registry name (see :func:`mjfast.rules.names`).
    scorer : callable
        ``scorer(ctx, rule, **options) -> Score``, where ``rule`` is the resolved
        :class:`~mjfast.rules.Rule` and ``options`` are the keyword options that are not rule
        options.  It raises :class:`NotComplete` for a hand that is not complete under the rule
        and ValueError for options it does not know.
    can_win : callable, optional
        ``can_win(ctx, rule, **options) -> bool``, a faster legality test.  By default
        :func:`can_win` calls ``scorer`` and reads :attr:`Score.legal`.
    bind : callable, optional
        ``bind(rule, **options) -> (score, can_win)`` or None: the scorer and the legality test
        specialised once to a resolved Rule and scorer options, each called as ``fn(ctx)``
        with a checked :class:`WinContext` and meaning the same as ``scorer(ctx, rule,
        **options)`` / ``can_win(ctx, rule, **options)``.  :func:`score` and :func:`can_win`
        then skip passing the rule and options on every call.  None (or None in place of
        either) keeps the general call (e.g. for options the scorer itself is left to reject).
    replace : bool, default False
        Allow replacing an existing registration.

    Raises
    ------
    ValueError
        An unknown rule name, a second registration without ``replace=True``, or a scorer that
        is not callable.

    Examples
    --------
    >>> "guobiao" in scorers()
    True
    >>> register("guobiao", lambda ctx, rule: None)
    Traceback (most recent call last):
    ...
    ValueError: rule 'guobiao' already has a scorer; pass replace=True to replace it
    """
    if name not in _rules.names() and name not in _rules.variants():
        raise ValueError(f"unknown rule {name!r}; valid rules: {', '.join(_rules.names())}")
    if not callable(scorer) or any(f is not None and not callable(f) for f in (can_win, bind)):
        raise ValueError("scorer, can_win and bind must be callables")
    if name in _SCORERS and not replace:
        raise ValueError(f"rule {name!r} already has a scorer; pass replace=True to replace it")
    _SCORERS[name] = (scorer, can_win, bind)
    _RESOLVED.clear()
    _RESOLVED_ID.clear()
    global _LAST
    _LAST = (None, {}, None)


def scorers() -> tuple[str, ...]:
    """Names of the rules that have a scorer, in registration order.

    Examples
    --------
    >>> scorers()[:1]
    ('guobiao',)
    """
    return tuple(_SCORERS)


def _cached(rule, options: dict):
    """The cached ``_resolve`` result for this call, or None: by name, by the Rule's identity,
    or the last call with options when it passed the very same option objects (the hot path
    of :func:`score` and :func:`can_win`)."""
    if not options:
        if type(rule) is str:
            return _RESOLVED.get(rule)
        # a Rule: keyed by identity (hashing a Rule walks all its fields); the entry holds the
        # Rule, so its id cannot be reused while it is cached
        hit = _RESOLVED_ID.get(id(rule))
        return hit[1] if hit is not None and hit[0] is rule else None
    last_rule, last_opts, hit = _LAST
    if last_rule is not rule or len(options) != len(last_opts):
        return None
    for k, v in options.items():
        if last_opts.get(k, _MISSING) is not v:
            return None
    return hit


#: Largest scorer ``base`` (stake unit) accepted by :func:`score` and :func:`can_win`.
MAX_BASE = 2**40


def _resolve(rule, options: dict) -> tuple:
    """(scorer, can_win, Rule, scorer options, bound scorer, bound can_win) for a rule name or
    Rule plus keyword options; the bound pair is ``register``'s ``bind`` result, or (None,
    None) (callers try :func:`_cached` first)."""
    try:
        # each value's type is part of the key: True == 1 and they hash alike, but a scorer
        # may accept one and reject the other (国标 flowers=True / flowers=1)
        items = tuple((k, v, type(v)) for k, v in options.items())
        key = (rule, items if len(items) < 2 else tuple(sorted(items)))
        hit = _RESOLVED.get(key)
    except TypeError:  # unhashable option value
        key, hit = None, None
    if hit is not None:
        _remember(rule, options, hit)
        return hit
    if isinstance(rule, Rule):
        name = rule.name
    elif isinstance(rule, str):
        name = rule if rule in _SCORERS else _rules.canonical_name(rule)  # 国标, mcr, Suzhou …
    else:
        raise ValueError(f"rule must be a rule name or a Rule, got {type(rule).__name__}")
    if name not in _SCORERS:
        if name not in _rules.names():
            raise ValueError(f"unknown rule {name!r}; valid rules: {', '.join(_rules.names())}")
        have = ", ".join(_SCORERS) or "none"
        raise ValueError(f"no scorer for rule {name!r} yet; rules with a scorer: {have}")
    scorer, cw, bind = _SCORERS[name]
    if isinstance(rule, Rule):
        rule_obj = rule
        extra = dict(options)
        clash = [k for k in extra if k in rule_obj.option_choices]
        if clash:
            raise ValueError(
                f"rule options {', '.join(clash)} cannot be applied to an existing "
                f"Rule; use rules.get({name!r}, ...) or pass the rule by name"
            )
    else:
        choices = _rules.get(name).option_choices
        rule_opts = {k: v for k, v in options.items() if k in choices}
        extra = {k: v for k, v in options.items() if k not in choices}
        rule_obj = _rules.get(name, **rule_opts)
    allowed = _keywords(scorer)
    if allowed is not None:
        unknown = sorted(k for k in extra if k not in allowed)
        if unknown:
            known = sorted(set(rule_obj.option_choices) | allowed)
            raise ValueError(
                f"unknown option(s) {', '.join(unknown)} for rule {name!r}; valid options: {', '.join(known) or 'none'}"
            )
    base = extra.get("base")
    if isinstance(base, (int, np.integer)) and not isinstance(base, (bool, np.bool_)) and abs(base) > MAX_BASE:
        # payments are 64-bit integers: a larger base overflows them
        raise ValueError(f"base must be at most {MAX_BASE} (2**40), got {base}")
    bound = bind(rule_obj, **extra) if bind is not None else None
    out = (scorer, cw, rule_obj, extra) + (bound or (None, None))
    if key is not None:
        _RESOLVED[key] = out
        if not options and isinstance(rule, str):
            _RESOLVED[rule] = out
    if not options and isinstance(rule, Rule):
        if len(_RESOLVED_ID) > 64:
            _RESOLVED_ID.clear()
        _RESOLVED_ID[id(rule)] = (rule, out)
    if options:
        _remember(rule, options, out)
    return out


def _remember(rule, options: dict, resolved: tuple) -> None:
    global _LAST
    _LAST = (rule, dict(options), resolved)


def _keywords(fn) -> set | None:
    """Keyword options a scorer takes (None if it takes ``**kwargs``)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in list(params)[2:] if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}


def _check_ctx(ctx, rule_obj: Rule) -> None:
    if not isinstance(ctx, WinContext):
        raise ValueError(f"score() takes a WinContext, got {type(ctx).__name__}")
    if ctx.hand.wilds and rule_obj.wildcard is None:
        raise ValueError(f"the hand holds {ctx.hand.wilds} wildcard(s) but {rule_obj.name} is played without wildcards")
    rule_obj.check_melds(ctx.hand.melds)


def score(ctx: WinContext, rule="guobiao", **options: Any) -> Score:
    """Score a won hand under a rule.

    Parameters
    ----------
    ctx : WinContext
        The finished hand and how it was won.
    rule : str or Rule, default "guobiao"
        The rule, by registry name or as a :class:`~mjfast.rules.Rule`.
    **options
        Rule options (as for :func:`mjfast.rules.get`, e.g. ``qingyaojiu_tongke=True``) and the
        scorer's own options (for 国标 ``flowers=True``).

    Returns
    -------
    Score
        ``total``, ``points``, ``payments``, ``legal``/``reason`` as plain values;
        ``elements`` (DataFrame) and ``decomposition`` on first access.

    Raises
    ------
    ValueError
        An unknown rule, a rule without a scorer yet (the message names those that have one),
        an unknown option, wildcards under a rule without them, or a hand that is not
        complete under the rule.

    See Also
    --------
    can_win : the legality test alone.
    mjfast.scoring.guobiao.score_guobiao : the 国标 scorer and its options.

    Examples
    --------
    >>> from mjfast import Hand
    >>> ctx = WinContext(Hand("123m456p789s234s55p"), win_tile="5p", self_draw=True)
    >>> s = score(ctx)
    >>> s.total, s.points, s.payments.tolist(), s.legal
    (15, 23, [69, -23, -23, -23], True)
    >>> s.elements[["name_zh", "value", "count", "total"]].values.tolist()
    [['花龙', 8, 1, 8], ['不求人', 4, 1, 4], ['平和', 2, 1, 2], ['独听・嵌张', 1, 1, 1]]
    >>> score(ctx, rule="tokyo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown rule 'tokyo'; valid rules: suzhou, taicang, ...
    """
    scorer, _cw, rule_obj, extra, bound, _bcw = _cached(rule, options) or _resolve(rule, options)
    # a WinContext's hand is exactly a Hand: its slot is read, not the property (a Python call)
    if (
        type(ctx) is not WinContext
        or (ctx.hand._wilds and rule_obj.wildcard is None)
        or (ctx.hand._melds and not rule_obj._any_meld)
    ):
        _check_ctx(ctx, rule_obj)
    if bound is not None:
        return bound(ctx)
    return scorer(ctx, rule_obj, **extra) if extra else scorer(ctx, rule_obj)


def can_win(ctx: WinContext, rule="guobiao", **options: Any) -> bool:
    """Whether a hand is a legal win under a rule: complete, and meeting the rule's minimum.

    Parameters
    ----------
    ctx : WinContext
    rule : str or Rule, default "guobiao"
    **options
        As for :func:`score`.

    Returns
    -------
    bool
        False for a hand that is not complete (no exception) or below the minimum
        (国标 8 番, flowers not counted).

    Raises
    ------
    ValueError
        As :func:`score`, except for an incomplete hand (:class:`NotComplete`).

    Examples
    --------
    >>> from mjfast import Hand
    >>> can_win(WinContext(Hand("123m456p789s234s55p"), win_tile="5p", self_draw=True))
    True
    >>> can_win(WinContext(Hand("123m456p678s234s55p"), win_tile="5p", discarder=3))
    False
    """
    scorer, cw, rule_obj, extra, _bs, bound = _cached(rule, options) or _resolve(rule, options)
    if (
        type(ctx) is not WinContext
        or (ctx.hand._wilds and rule_obj.wildcard is None)
        or (ctx.hand._melds and not rule_obj._any_meld)
    ):
        _check_ctx(ctx, rule_obj)
    if bound is not None:
        return bool(bound(ctx))
    if cw is not None:
        return bool(cw(ctx, rule_obj, **extra) if extra else cw(ctx, rule_obj))
    try:
        return bool(scorer(ctx, rule_obj, **extra).legal)
    except NotComplete:
        return False
