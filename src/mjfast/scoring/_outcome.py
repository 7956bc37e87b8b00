"""The finished-hand record that the game engine hands to a rule's settlement hooks.

A rule's scorer module may define any of these *engine hooks* (each optional; the engine finds
the module through ``Rule.engine.hooks`` and never tests a rule's name):

``settle_kongs(outcome) -> list of (konger, deltas)``
    Payments made as the hand goes, one entry per kong that pays (四川 刮风下雨, 瑞金 kongs).
``win_state(outcome, event, index, ctx, kong_log) -> (fields, options)``
    Per winner: :class:`~mjfast.scoring.WinContext` fields to set (``liable``, ``rule_state``,
    round flags such as ``baozi``) and scorer keywords for this win (e.g. ``lianzhuang``).
``settle_end(outcome, kong_log) -> deltas``
    Settlements after the last win or at the exhausted wall (四川 查花猪/查大叫, 贵阳 豆 and 鸡).
``next_deal(outcome) -> int``
    The next hand's dealer in a match (default: the first winner deals, a draw keeps the
    dealer).
``kernel_minimum(rule) -> tuple or None``
    A flower minimum the kernel decides itself (苏州), instead of asking ``can_win``.
``kernel_fan_minimum(rule) -> int or None``
    The option bits of the compiled 国标 fan search when the kernel may decide the 8-番 minimum
    itself (国标 as declared), instead of asking ``can_win``.
``kernel_fan_receipts(rule) -> tuple``
    With ``kernel_fan_minimum``: what the winner receives as a base and per 番, self-drawn, then
    on a discard (the value players weigh a wait for more 番 with it).
``complete_is_legal(rule) -> bool``
    Every complete hand the kernel finds is a legal win (no need to ask ``can_win``).
``score_options(rule) -> dict``
    Scorer keywords every simulated win is scored with (国标 with flowers: ``flowers=True``).
``MINIMAL_WINS``
    The rule's cheapest legal wins, ``(concealed, melds, bonus, win_tile, self_draw)`` each
    (:func:`mjfast.analysis.payout.base_stake`).

:class:`Outcome` is what the hooks read: the events, kongs, melds, final hands and discards of
one finished hand, built lazily from the kernel's arrays, plus the match round it belongs to.
"""

from __future__ import annotations

import functools
import importlib
from typing import NamedTuple

from .._kernels import _game as _kg
from ..hand import Hand, Meld

__all__ = [
    "Outcome",
    "WinEvent",
    "Kong",
    "MeldRecord",
    "Round",
    "MELD_KINDS",
    "HOW",
    "FLAGS",
    "hooks",
    "hook",
    "rule_options",
]

#: Meld kinds by the kernel's codes.
MELD_KINDS = ("chow", "pung", "kong", "added_kong", "concealed_kong")
#: Ways a hand ends, by the kernel's codes (``"draw_game"``: nobody won).
HOW = ("self_draw", "discard", "robbing_kong", "draw_game")
#: The kernel's flag bits of a win event, by name (``after_kong``, ``kong_discard`` …).
FLAGS = dict(_kg.FLAGS)
_KONG_KINDS = {2: "direct", 3: "added", 4: "concealed"}
_SOURCES = {1: "right", 2: "opposite", 3: "left"}
_NOBODY: frozenset[int] = frozenset()


@functools.cache
def _module(path: str):
    return importlib.import_module(path)


def hooks(rule):
    """The module holding ``rule``'s engine hooks (``rule.engine.hooks``), or None.

    Raises
    ------
    ValueError
        The module named by the rule cannot be imported.
    """
    path = rule.engine.hooks
    if path is None:
        return None
    try:
        return _module(path)
    except ImportError as exc:
        raise ValueError(f"rule {rule.name!r} names hook module {path!r}, which cannot be imported: {exc}") from None


@functools.lru_cache(maxsize=64)
def rule_options(rule) -> dict:
    """The rule's non-default options (cached): what the settlement functions that rebuild the
    rule from options (``**options``) need, without validating every option again."""
    return dict(rule.non_default_options)


def hook(rule, name: str):
    """The engine hook ``name`` of ``rule`` (see the module docstring), or None."""
    mod = hooks(rule)
    return None if mod is None else getattr(mod, name, None)


def _seats(mask: int) -> frozenset:
    return frozenset(s for s in range(4) if mask >> s & 1) if mask else _NOBODY


class WinEvent(NamedTuple):
    """One win event: a self-draw, or one discard (or robbed kong) won by one or more seats."""

    how: str  #: ``"self_draw"``, ``"discard"`` or ``"robbing_kong"``
    discarder: int | None  #: the discarder (the robbed konger); None on a self-draw
    tile: int  #: the winning tile's kind (the kernel's WILD for a drawn wildcard)
    flags: int  #: the kernel's flag bits (:data:`FLAGS`)
    winners: tuple  #: the winning seats, in claim order (from the discarder's 下家)
    kong: int  #: index into :attr:`Outcome.kongs` of the kong behind a 杠上炮 or
    #: of the kong whose replacement was self-drawn; -1
    before: frozenset  #: seats that had won before this event (血战)

    def has(self, flag: str) -> bool:
        """Whether the event carries the kernel flag ``flag`` (a key of :data:`FLAGS`)."""
        return bool(self.flags & FLAGS[flag])


class Kong(NamedTuple):
    """One kong, in the order made."""

    konger: int
    kind: str  #: ``"direct"`` (on a discard), ``"added"`` or ``"concealed"``
    feeder: int | None  #: the discarder of a direct kong's tile
    tile: int
    won: frozenset  #: seats that had won when it was made (血战)


class MeldRecord(NamedTuple):
    """One meld as the kernel recorded it."""

    kind: str  #: one of :data:`MELD_KINDS`
    tile: int  #: its lowest tile
    source: int | None  #: the seat whose discard was claimed (None: concealed kong)
    order: int  #: its place among all melds of the hand (claims over all seats)
    wilds: tuple = ()  #: a chow's tiles a wildcard stands for (瑞金: the 宝 stays in the meld)


class Round(NamedTuple):
    """Where a hand sits in a match (None for the independent hands of ``simulate_games``)."""

    match: int  #: the match's number in the batch being played
    hand: int  #: 0-based hand number in the match
    dealer: int
    prevalent_wind: int  #: 0-3 = East South West North
    streak: int  #: hands the dealer dealt in a row before this one (连庄 n)
    dice: tuple | None  #: the two dice of this hand (1-6 each), when the rule throws them
    previous: Outcome | None  #: the match's previous hand
    seating: tuple  #: the player at each seat


@functools.lru_cache(maxsize=4096)  # bounded: streaming runs must not grow with the games played
def meld_objects(seat: int, melds: tuple) -> tuple:
    """:class:`~mjfast.Meld` objects of ``(kind, lowest tile, source seat, wildcard bits)`` rows
    (a kind below 0 ends the list) for the hand of ``seat``; the bits mark a chow's tiles a
    wildcard stands for (bit i: tile i of :data:`~mjfast._kernels._game.CHOW_TILES`)."""
    out = []
    for kind, tile, src, wm in melds:
        if kind < 0:
            break
        kname = MELD_KINDS[kind]
        if kname == "chow":  # a suit chow by its lowest tile, an honour chow by its code (27-31)
            out.append(Meld("chow", _kg.CHOW_TILES[tile], source="left", wilds=_kg.chow_wild_tiles(tile, wm)))
        elif kname == "concealed_kong":
            out.append(Meld("concealed_kong", (tile,) * 4))
        else:
            n = 3 if kname == "pung" else 4
            out.append(Meld(kname, (tile,) * n, source=_SOURCES[(src - seat) % 4], claimed=tile))
    return tuple(out)


class Outcome:
    """A finished hand: what the settlement hooks of a rule read.

    Built by the engine from the kernel's records of one game; the parts are read lazily.

    Attributes
    ----------
    rule : Rule
        The rule the hand was played under.
    dealer : int
    exhausted : bool
        The hand ended with the wall exhausted (a draw, or the end of a 血战 hand).
    events : tuple of WinEvent
    winners : tuple of int
        Every winning seat, in the order they won.
    kongs : tuple of Kong
    flipped : int or None
        The flipped indicator's code.
    first_discard : int or None
        The seat that discarded the rule's ``first_discard_kind`` first, if nobody claimed it.
    dice : tuple or None
    round : Round or None
        The match round (None outside a match).
    scores : list
        ``(seat, Score)`` of every win, in order; filled in by the engine after scoring.
    contexts : list
        The :class:`~mjfast.scoring.WinContext` each win was scored with, in the same order.
    """

    __slots__ = (
        "rule",
        "dealer",
        "exhausted",
        "flipped",
        "first_discard",
        "dice",
        "round",
        "scores",
        "contexts",
        "_rec",
        "_hands",
        "_melds",
        "_kongs",
        "_events",
        "_seats",
        "_cache",
    )

    def __init__(self, rule, rec, hands, melds, kongs, events, seats, round=None):
        self.rule = rule
        self._rec = rec  # the kernel's record row (a list)
        self._hands, self._melds, self._kongs = hands, melds, kongs
        self._events, self._seats = events, seats
        self.dealer = rec[0]
        self.exhausted = bool(rec[10])
        self.flipped = rec[12] if rec[12] >= 0 else None
        self.first_discard = rec[13] if rec[13] >= 0 else None
        self.dice = (rec[14] // 6 + 1, rec[14] % 6 + 1) if rec[14] >= 0 else None
        self.round = round
        self.scores: list = []
        self.contexts: list = []
        self._cache: dict = {}

    def release(self) -> None:
        """Keep what a later hand reads (the events, kongs, dice, winners and round) and drop the
        rest (scores, contexts, hands, the kernel's rows): a match keeps its previous hand."""
        cache = self._cache
        winners = self.winners
        events, kongs = cache["events"], cache.get("kongs")
        cache.clear()
        cache["events"], cache["winners"] = events, winners
        if kongs is None and self._rec[7] == 0:
            cache["kongs"] = ()
            self._kongs = None
        elif kongs is None:  # read lazily (few hands need them): keep this hand's rows, not the batch's
            self._kongs = self._kongs[: self._rec[7]].copy()
        else:
            cache["kongs"] = kongs
            self._kongs = None
        self.scores = []
        self.contexts = []
        self._hands = self._melds = self._events = self._seats = None

    @property
    def how(self) -> str:
        """How the hand's first win was made (``"draw_game"`` when nobody won)."""
        return HOW[self._rec[1]]

    @property
    def events(self) -> tuple:
        hit = self._cache.get("events")
        if hit is None:
            if not self._rec[11]:  # a drawn hand (most of them need nothing more)
                hit = self._cache["events"] = ()
                return hit
            out = []
            for e in range(self._rec[11]):
                how, disc, tile, flags, wmask, kong, before = self._events[e]
                if how:
                    order = tuple(s for s in ((disc + i) % 4 for i in (1, 2, 3)) if wmask >> s & 1)
                else:
                    order = tuple(s for s in range(4) if wmask >> s & 1)
                out.append(WinEvent(HOW[how], disc if how else None, tile, flags, order, kong, _seats(before)))
            hit = self._cache["events"] = tuple(out)
        return hit

    @property
    def winners(self) -> tuple:
        hit = self._cache.get("winners")
        if hit is None:
            events = self.events
            if len(events) == 1:
                hit = events[0].winners
            else:
                hit = tuple(w for e in events for w in e.winners)
            self._cache["winners"] = hit
        return hit

    @property
    def kongs(self) -> tuple:
        hit = self._cache.get("kongs")
        if hit is None:
            out = []
            for k in range(self._rec[7]):
                konger, kind, feeder, tile, wmask = (int(x) for x in self._kongs[k])
                kname = _KONG_KINDS[kind]
                out.append(Kong(konger, kname, feeder if kname == "direct" else None, tile, _seats(wmask)))
            hit = self._cache["kongs"] = tuple(out)
        return hit

    def melds(self, seat: int) -> tuple:
        """The melds of ``seat`` in the order he made them (:class:`MeldRecord`)."""
        key = ("melds", seat)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = tuple(
                sorted(
                    (
                        MeldRecord(
                            MELD_KINDS[k], t, s if s >= 0 else None, o, _kg.chow_wild_tiles(t, wm) if k == 0 else ()
                        )
                        for k, t, s, o, wm in self._meld_rows(seat)
                        if k >= 0
                    ),
                    key=lambda m: m.order,
                )
            )
        return hit

    def _meld_rows(self, seat: int) -> tuple:
        rows = self._melds[seat]  # the kernel's rows, as Python lists
        return tuple(tuple(m) for m in rows)

    def hand(self, seat: int) -> Hand:
        """The final hand of ``seat``: concealed natural tiles (the winning tile included for a
        winner), melds, flowers and wildcards."""
        key = ("hand", seat)
        hit = self._cache.get(key)
        if hit is None:
            import numpy as np

            rows = tuple((m[0], m[1], m[2], m[4]) for m in self._meld_rows(seat))
            fl = self.flowers(seat)
            bonus = tuple(k for k, n in enumerate(fl) if n for _ in range(n))
            hit = self._cache[key] = Hand(
                np.asarray(self._hands[seat], np.uint8).copy(),
                melds=meld_objects(seat, rows),
                bonus=bonus,
                wilds=self.wilds(seat),
            )
        return hit

    def flowers(self, seat: int) -> tuple:
        """Flowers laid aside by ``seat``, per tile code (48 counts)."""
        return tuple(int(x) for x in self._seats[seat][:48])

    def discards(self, seat: int) -> list:
        """The discards of ``seat`` nobody claimed, as kinds (in kind order)."""
        row = self._seats[seat]
        return [k for k in range(34) for _ in range(int(row[48 + k]))]

    def wilds(self, seat: int) -> int:
        """Wildcards ``seat`` holds at the end."""
        return int(self._seats[seat][82])

    def declared_wait(self, seat: int) -> bool:
        """Whether ``seat`` declined a win to wait with a lone wildcard (飞 / 宝吊头)."""
        return bool(self._seats[seat][83])

    @property
    def voids(self) -> tuple | None:
        """The void suit of each seat (0-2, m p s) under 定缺, else None."""
        v = self._rec[9]
        return None if v == 0xFF else tuple(v >> (2 * s) & 3 for s in range(4))
