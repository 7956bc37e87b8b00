"""Shared data model of the rules registry: tile sets, calls, wildcard schemes and rules.

Everything here is immutable and hashable, so a :class:`Rule` can be used as a cache key and
shared between threads. Tile codes come from :mod:`mjfast.tiles` (RULES.md §1.1).
"""

from __future__ import annotations

import numbers
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import tiles as _tiles

__all__ = [
    "KINDS",
    "KIND_INDEX",
    "SUIT_CODES",
    "WINDS",
    "DRAGONS",
    "HONOURS",
    "SEASONS",
    "PLANTS",
    "BONUS_CODES",
    "FORMS",
    "KONG_KINDS",
    "FrozenMap",
    "TileSet",
    "Calls",
    "WildcardScheme",
    "EngineFacts",
    "FIRST_TURN_EVENTS",
    "Rule",
    "resolve_options",
    "make_tileset",
    "cyclic_table",
    "standard_successors",
]

# --------------------------------------------------------------------------------------------
# Tile codes (RULES.md §1.1): 34 playable kinds in m, p, s, z order, then the bonus codes.
# --------------------------------------------------------------------------------------------
SUIT_CODES: tuple[str, ...] = ("m", "p", "s")
KINDS: tuple[str, ...] = _tiles.CODES[: _tiles.N_KINDS]  # the tile tables live in mjfast.tiles
KIND_INDEX: Mapping[str, int] = {code: i for i, code in enumerate(KINDS)}
WINDS: tuple[str, ...] = tuple(KINDS[k] for k in _tiles.WINDS)  # E S W N
DRAGONS: tuple[str, ...] = tuple(KINDS[k] for k in _tiles.DRAGONS)  # 白 white, 发 green, 中 red
HONOURS: tuple[str, ...] = WINDS + DRAGONS
BONUS_CODES: tuple[str, ...] = _tiles.CODES[_tiles.N_KINDS :]
SEASONS: tuple[str, ...] = BONUS_CODES[:4]  # 春夏秋冬
PLANTS: tuple[str, ...] = BONUS_CODES[4:8]  # 梅兰竹菊

#: The win-form vocabulary used by ``Rule.forms``.
FORMS: tuple[str, ...] = (
    "standard",
    "seven_pairs",
    "thirteen_orphans",
    "thirteen_lan",
    "honors_and_knitted",
    "knitted_straight",
    "nine_terminals",
    "nine_gates",
    "wild_head",
)
#: Kong kinds used by ``Calls.kongs``: direct kong on a discard, added kong, concealed kong.
KONG_KINDS: tuple[str, ...] = ("exposed", "added", "concealed")
_CHOW_MODES = ("none", "left")
_SELECTIONS = ("flip_successor", "flip_self", "per_game")
_CALL_NAMES = ("win", "kong", "pung", "chow")


class FrozenMap(Mapping):
    """A read-only, hashable mapping that keeps insertion order."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping | Iterable[tuple[Any, Any]] = ()) -> None:
        self._data = dict(data)
        self._hash: int | None = None

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._data) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


def _check_codes(codes: Iterable[str], allowed: Iterable[str], what: str) -> None:
    allowed = set(allowed)
    bad = [c for c in codes if c not in allowed]
    if bad:
        raise ValueError(f"unknown {what} code(s) {bad}; valid codes: {', '.join(sorted(allowed))}")


# --------------------------------------------------------------------------------------------
# Tile set
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class TileSet:
    """The physical tiles of a rule.

    Attributes
    ----------
    copies : numpy.ndarray
        Read-only ``uint8[34]``: playable copies of each kind (0 for kinds the rule lacks, and 0
        for the dragons in 苏州/太仓, where they are flowers).
    bonus : FrozenMap
        Bonus (flower) code -> number of copies. In 苏州/太仓 the dragons appear here under
        ``'5z'``, ``'6z'``, ``'7z'``.
    """

    copies: np.ndarray
    bonus: FrozenMap = field(default_factory=FrozenMap)

    def __post_init__(self) -> None:
        arr = np.array(self.copies, dtype=np.uint8)
        if arr.shape != (len(KINDS),):
            raise ValueError(f"copies must have shape (34,), got {arr.shape}")
        arr.setflags(write=False)
        object.__setattr__(self, "copies", arr)
        bonus = FrozenMap((str(k), int(v)) for k, v in dict(self.bonus).items())
        _check_codes(bonus, BONUS_CODES + DRAGONS, "bonus")
        object.__setattr__(self, "bonus", bonus)

    @property
    def playable_total(self) -> int:
        """Number of playable tiles (the 34-kind count vector's total)."""
        return int(self.copies.sum())

    @property
    def flower_total(self) -> int:
        """Number of bonus (flower) tiles."""
        return sum(self.bonus.values())

    @property
    def total(self) -> int:
        """Number of physical tiles, playable plus bonus."""
        return self.playable_total + self.flower_total

    @property
    def playable_mask(self) -> np.ndarray:
        """``bool[34]``: True for the kinds that are in play."""
        mask = self.copies > 0
        mask.setflags(write=False)
        return mask

    def has_kind(self, kind: str | int) -> bool:
        """Whether the playable kind ``kind`` (code like ``'5z'`` or index 0–33) is in play."""
        if isinstance(kind, str):
            if kind not in KIND_INDEX:
                raise ValueError(f"unknown tile kind {kind!r}; valid kinds: {', '.join(KINDS)}")
            kind = KIND_INDEX[kind]
        if not 0 <= int(kind) < len(KINDS):
            raise ValueError(f"kind index must be in 0..33, got {kind}")
        return bool(self.copies[int(kind)])

    def face_copies(self, code: str) -> int:
        """Copies of a face in the whole set: playable copies, or bonus copies for flowers."""
        if code in self.bonus:
            return self.bonus[code]
        if code in KIND_INDEX:
            return int(self.copies[KIND_INDEX[code]])
        return 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileSet):
            return NotImplemented
        return bool(np.array_equal(self.copies, other.copies)) and self.bonus == other.bonus

    def __hash__(self) -> int:
        return hash((self.copies.tobytes(), self.bonus))

    def __repr__(self) -> str:
        return f"TileSet(total={self.total}, playable={self.playable_total}, flowers={self.flower_total})"


def make_tileset(
    suits: bool = True,
    winds: bool = True,
    dragons: bool = True,
    bonus: Mapping[str, int] | None = None,
) -> TileSet:
    """Build a tile set with 4 copies of every playable kind in the chosen groups."""
    copies = np.zeros(len(KINDS), dtype=np.uint8)
    if suits:
        copies[:27] = 4
    if winds:
        copies[27:31] = 4
    if dragons:
        copies[31:34] = 4
    return TileSet(copies=copies, bonus=FrozenMap(bonus or {}))


# --------------------------------------------------------------------------------------------
# Calls
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Calls:
    """Which claims and kongs a rule allows.

    Attributes
    ----------
    chow : str
        ``"none"`` (no 吃) or ``"left"`` (吃 only the discard of the player on your left, 上家).
    chow_honours : tuple of tuple of str
        Groups of honour kinds from which any three *different* tiles form a chow (瑞金: the
        winds and the dragons); empty when honour chows are not allowed.
    pung : bool
        Whether 碰 is allowed.
    kongs : tuple of str
        Allowed kong kinds, from ``"exposed"`` (direct kong on a discard), ``"added"`` (added to
        an exposed pung) and ``"concealed"``.
    multiple_winners : bool
        True if several players may win on one discard (一炮多响); False for head bump (截和:
        the claimant nearest the discarder in turn order wins).
    robbing_multiple : bool or None
        Whether several players may rob one kong (抢杠); None: as ``multiple_winners``.
    priority : tuple of tuple of str
        Claim priority, highest first; each level lists calls of equal rank
        (``"win"``, ``"kong"``, ``"pung"``, ``"chow"``).
    """

    chow: str
    pung: bool = True
    kongs: tuple[str, ...] = KONG_KINDS
    multiple_winners: bool = True
    priority: tuple[tuple[str, ...], ...] = (("win",), ("kong", "pung"), ("chow",))
    chow_honours: tuple[tuple[str, ...], ...] = ()
    robbing_multiple: bool | None = None

    def check_melds(self, melds, rule_name: str) -> None:
        """Refuse a called honour chow (:attr:`mjfast.Meld.is_honour_chow`) when these calls
        have no honour chows: ``ValueError`` naming the meld and the rule."""
        if self.chow_honours:
            return
        for m in melds:
            if m.is_honour_chow:
                raise ValueError(
                    f"meld {m}: an honour chow (three different winds or dragons) is a set only under a "
                    f"rule with honour chows (瑞金); rule {rule_name!r} has none"
                )

    @property
    def several_robbers(self) -> bool:
        """Whether several players may rob one added kong (抢杠)."""
        return self.multiple_winners if self.robbing_multiple is None else bool(self.robbing_multiple)

    def __post_init__(self) -> None:
        if self.chow not in _CHOW_MODES:
            raise ValueError(f"chow must be one of {_CHOW_MODES}, got {self.chow!r}")
        _check_codes(self.kongs, KONG_KINDS, "kong kind")
        for level in self.priority:
            _check_codes(level, _CALL_NAMES, "call")
        for group in self.chow_honours:
            _check_codes(group, HONOURS, "honour")


# --------------------------------------------------------------------------------------------
# Wildcards
# --------------------------------------------------------------------------------------------
def cyclic_table(*cycles: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Successor entries for cycles: each code maps to the next one, the last to the first."""
    table: dict[str, tuple[str, ...]] = {}
    for cycle in cycles:
        codes = tuple(cycle)
        for i, code in enumerate(codes):
            table[code] = (codes[(i + 1) % len(codes)],)
    return table


def standard_successors(dragon_cycle: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Successors of the 34 kinds: n -> n+1 and 9 -> 1 per suit, E->S->W->N->E, dragons as given."""
    suits = [[f"{n}{s}" for n in range(1, 10)] for s in SUIT_CODES]
    return cyclic_table(*suits, WINDS, dragon_cycle)


@dataclass(frozen=True)
class WildcardScheme:
    """How a rule chooses its wildcards and what they may do.

    Attributes
    ----------
    name : str
        Local name (百搭, 宝, 财神, 混).
    selection : str
        ``"flip_successor"`` (the successor of a flipped tile), ``"flip_self"`` (the flipped kind
        itself) or ``"per_game"`` (chosen by the sub-game configuration, JJ).
    table : FrozenMap
        Flipped code -> tuple of wild codes, for ``flip_successor``. A tuple with several codes
        is a group of faces that are all wild (e.g. 太仓: a flipped season makes 梅兰竹菊 wild).
    copies : int
        Wildcard tiles in play in the usual case, as the rules state it.
    face_copies : FrozenMap
        Copies of every face in the tile set (playable and bonus), used by :meth:`wild_copies`.
    substitute : tuple of str or None
        Faces that play as the wild kind's natural face (金华 白板, 瑞金 花 = 假宝), or None.
    usable_in_calls : tuple of str
        Calls in which a wildcard from the hand may be used (empty: none).
    restrictions : FrozenMap
        Win form -> frozenset of kinds the wildcard may not represent in that form.
        The key ``"any"`` applies to every form.
    discardable : bool
        A player may discard a wildcard (it is dead: nobody claims or wins on it; G-A5, 金华
        JH-A8).  False: never, unless it holds nothing else (JJ-A2).
    """

    name: str
    selection: str
    copies: int
    # The mapping fields accept any mapping and are stored as FrozenMap by __post_init__.
    face_copies: Mapping[str, int]
    table: Mapping[str, tuple[str, ...]] = field(default_factory=FrozenMap)
    substitute: tuple[str, ...] | None = None
    usable_in_calls: tuple[str, ...] = ()
    restrictions: Mapping[str, Collection[str]] = field(default_factory=FrozenMap)
    discardable: bool = True

    def __post_init__(self) -> None:
        if self.selection not in _SELECTIONS:
            raise ValueError(f"selection must be one of {_SELECTIONS}, got {self.selection!r}")
        _check_codes(self.usable_in_calls, _CALL_NAMES, "call")
        if not isinstance(self.discardable, bool):
            raise ValueError(f"discardable must be True or False, got {self.discardable!r}")
        object.__setattr__(self, "table", FrozenMap(self.table))
        object.__setattr__(self, "face_copies", FrozenMap(self.face_copies))
        restrictions = FrozenMap((k, frozenset(v)) for k, v in dict(self.restrictions).items())
        object.__setattr__(self, "restrictions", restrictions)

    @property
    def flippable(self) -> tuple[str, ...]:
        """The codes that can be flipped as the indicator (all faces of the tile set)."""
        return tuple(code for code, n in self.face_copies.items() if n > 0)

    def successor(self, flipped: str) -> tuple[str, ...]:
        """Wild faces chosen by the flipped indicator ``flipped``.

        Raises
        ------
        ValueError
            If ``flipped`` is not a face of this rule's tile set, or the rule does not choose its
            wildcard by flipping (``selection == "per_game"``).
        """
        if self.selection == "per_game":
            raise ValueError(f"the {self.name} wildcard is chosen per sub-game, not by a flipped tile")
        if flipped not in self.flippable:
            valid = ", ".join(self.flippable)
            raise ValueError(f"{flipped!r} is not a face of this tile set; valid faces: {valid}")
        if self.selection == "flip_self":
            return (flipped,)
        return self.table[flipped]

    def wild_copies(self, flipped: str) -> int:
        """Wildcard tiles left in play after ``flipped`` was turned up (the indicator is out)."""
        wild = self.successor(flipped)
        return sum(self.face_copies[code] for code in wild) - (1 if flipped in wild else 0)

    def substitute_for(self, flipped: str) -> tuple[str, ...] | None:
        """Substitute faces in a hand whose indicator is ``flipped``.

        None when the rule has no substitute, or when the substitute is itself the wild kind
        (金华 财神 = 白板, 瑞金 花宝).
        """
        if self.substitute is None:
            return None
        wild = set(self.successor(flipped))
        if wild & set(self.substitute):
            return None
        return self.substitute


# --------------------------------------------------------------------------------------------
# Engine facts
# --------------------------------------------------------------------------------------------
#: Moments of the first go-around that some rules name (天胡, 地胡, 人和), as the game engine
#: sees them (no call made yet in the hand):
#:
#: * ``"deal"`` — the dealer wins on his first draw (his 14 dealt tiles);
#: * ``"first_draw"`` — a non-dealer self-draws on his first draw;
#: * ``"dealer_next_first_draw"`` — the dealer's 下家 self-draws on his first draw;
#: * ``"first_discard"`` — a non-dealer wins on the dealer's first discard;
#: * ``"first_round"`` — any win before the dealer's second draw.
FIRST_TURN_EVENTS: tuple[str, ...] = ("deal", "first_draw", "dealer_next_first_draw", "first_discard", "first_round")
_FIRST_TURN_FLAGS = ("heavenly", "earthly", "human")
_WILD_HEADS = (None, "go_around", "next_draw")
_WIN_LOCKS = (None, "any", "same_kind")
_ROUNDS = ("passes", "fixed")


@dataclass(frozen=True)
class EngineFacts:
    """How the game engine plays, flags and settles a rule: the facts it would otherwise read
    from the rule's name.

    Every field is plain data; the settlements themselves are functions of the rule's scorer
    module (:attr:`hooks`), which the engine looks up by that name.

    Attributes
    ----------
    hooks : str or None
        The module holding the rule's scorer and its engine hooks (``settle_kongs``,
        ``win_state``, ``settle_end``, ``next_deal``, ``kernel_minimum``, ``complete_is_legal``,
        ``score_options``, ``MINIMAL_WINS``; each optional).  None: no hooks.
    void_suit : bool
        定缺: after the deal every seat declares the suit it holds fewest of as void; it makes no
        call in that suit and wins only once it holds none of it.
    play_on : bool
        血战到底: the seats that have won stop playing, the others play on until three have won
        or the wall is exhausted.
    first_turn : tuple of (event, flag)
        Which moments of the first go-around (:data:`FIRST_TURN_EVENTS`) set which
        :class:`~mjfast.scoring.WinContext` flag (``heavenly``, ``earthly``, ``human``); the first
        entry that matches a win applies.
    kong_discard : bool
        Pass 杠上炮 (``WinContext.kong_discard``): a win on the discard a player made right
        after his own kong.
    last_copy : bool
        Pass 和绝张 (``WinContext.last_copy``).
    win_is_wild : bool
        A winning wildcard drawn from the wall is reported as such
        (``rule_state["win_is_wild"]``).
    first_discard_kind : str or None
        Record the seat whose discard was the hand's first tile of this kind, when nobody
        claimed it (贵阳 冲锋鸡: ``"1s"``).
    flower_bloom : bool
        A win on the replacement of a flower counts as one on a kong's replacement (花开 = 杠开:
        ``WinContext.after_kong``).
    call_locks : bool
        A player who passes a 碰, or discards one of three tiles he held, may not 碰 that kind
        until his next draw (苏州 call locks).
    win_lock : {None, "any", "same_kind"}
        What a passed win locks (漏胡): ``"any"`` — no discard win before the player's next draw
        (苏州 "同样或者能胡的牌"); ``"same_kind"`` — no win on that kind before his next draw or
        call (广东 过水); None: nothing.  Passing a win is a policy's choice.
    wild_head : {None, "go_around", "next_draw"}
        A player whose hand is complete with a wildcard may decline the win and wait with a lone
        wildcard (飞 / 宝吊头): ``"go_around"`` (瑞金 制飞: the wait counts once a full go-around
        has passed without 碰, 杠 or 胡, and the player may no longer win on a discard);
        ``"next_draw"`` (上饶 宝吊头: the next own draw wins).  Declining is a policy's choice.
    forced_win_left : int
        Once the wall holds at most this many tiles, a player must take every potential win the
        rule accepts — on a drawn tile that was one of them, on a discard or a robbed kong — and
        no policy may decline it (四川: 4, "最后四张自动胡 … 玩家没有选择的权利"); 0: declining is
        always a policy's choice.
    dice : bool
        Two dice are thrown for every hand of a match (苏州 豹子 and the 滴零 that follows it).
    match_hands : int
        Hands in one match (:func:`mjfast.simulate_matches`).
    rounds : {"passes", "fixed"}
        How the prevalent wind advances in a match: ``"passes"`` after every four changes of
        dealer; ``"fixed"`` every four hands, the deal going round the table in seat order
        whatever happens (no 连庄).
    seat_swaps : tuple of (round, permutation)
        Before the given round (0-based) the players change seats: seat ``s`` is then taken by
        the player who sat at ``permutation[s]`` (国标: East with South, West with North).
    """

    hooks: str | None = None
    void_suit: bool = False
    play_on: bool = False
    first_turn: tuple[tuple[str, str], ...] = (("deal", "heavenly"), ("first_draw", "earthly"))
    kong_discard: bool = False
    last_copy: bool = False
    win_is_wild: bool = False
    first_discard_kind: str | None = None
    flower_bloom: bool = True
    call_locks: bool = False
    win_lock: str | None = None
    wild_head: str | None = None
    forced_win_left: int = 0
    dice: bool = False
    match_hands: int = 16
    rounds: str = "passes"
    seat_swaps: tuple[tuple[int, tuple[int, int, int, int]], ...] = ()

    def __post_init__(self) -> None:
        turn = tuple((str(e), str(f)) for e, f in self.first_turn)
        for event, flag in turn:
            if event not in FIRST_TURN_EVENTS:
                raise ValueError(f"unknown first_turn event {event!r}; valid events: {', '.join(FIRST_TURN_EVENTS)}")
            if flag not in _FIRST_TURN_FLAGS:
                raise ValueError(f"unknown first_turn flag {flag!r}; valid flags: {', '.join(_FIRST_TURN_FLAGS)}")
        object.__setattr__(self, "first_turn", turn)
        if self.first_discard_kind is not None:
            _check_codes((self.first_discard_kind,), KINDS, "first_discard_kind")
        if self.win_lock not in _WIN_LOCKS:
            raise ValueError(f"win_lock must be one of {_WIN_LOCKS}, got {self.win_lock!r}")
        if self.wild_head not in _WILD_HEADS:
            raise ValueError(f"wild_head must be one of {_WILD_HEADS}, got {self.wild_head!r}")
        if (
            isinstance(self.forced_win_left, bool)
            or not isinstance(self.forced_win_left, int)
            or not (0 <= self.forced_win_left <= 144)
        ):
            raise ValueError(f"forced_win_left must be an integer 0-144, got {self.forced_win_left!r}")
        if self.rounds not in _ROUNDS:
            raise ValueError(f"rounds must be one of {_ROUNDS}, got {self.rounds!r}")
        if isinstance(self.match_hands, bool) or not isinstance(self.match_hands, int) or self.match_hands < 1:
            raise ValueError(f"match_hands must be a positive integer, got {self.match_hands!r}")
        swaps = tuple((int(r), tuple(int(x) for x in perm)) for r, perm in self.seat_swaps)
        for r, perm in swaps:
            if r < 0 or sorted(perm) != [0, 1, 2, 3]:
                raise ValueError(f"seat_swaps entries are (round >= 0, a permutation of 0-3), got {(r, perm)}")
        object.__setattr__(self, "seat_swaps", swaps)


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------
def _token(value: Any) -> str | None:
    """Canonical text form used to match option values (``True`` ~ ``"true"``, ``6`` ~ ``"6"``)."""
    if value is None:
        return "none"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, str):
        return value.strip().lower()
    return None


def _fmt(value: Any) -> str:
    token = _token(value)
    return token if token is not None else repr(value)


def resolve_options(rule_name: str, choices: Mapping[str, tuple], given: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and normalise ``given`` against ``choices``; fill defaults (first values).

    Numbers may be given as int or str, booleans as bool or ``"true"``/``"false"``, and
    ``None`` as ``"none"``; the result holds the values exactly as ``choices`` lists them.
    """
    unknown = [key for key in given if key not in choices]
    if unknown:
        valid = ", ".join(choices) if choices else "(none: this rule takes no options)"
        raise ValueError(
            f"unknown option(s) {', '.join(map(repr, unknown))} for rule {rule_name!r}; valid options: {valid}"
        )
    resolved = {key: allowed[0] for key, allowed in choices.items()}
    for key, value in given.items():
        allowed = choices[key]
        token = _token(value)
        matches = [a for a in allowed if token is not None and _token(a) == token]
        if not matches:
            raise ValueError(
                f"invalid value {value!r} for option {rule_name}.{key}; "
                f"allowed values: {', '.join(_fmt(a) for a in allowed)}"
            )
        resolved[key] = matches[0]
    return resolved


# --------------------------------------------------------------------------------------------
# Rule
# --------------------------------------------------------------------------------------------
#: Variant name -> its recipe (:class:`mjfast.rules._variants.VariantSpec`), for pickling.
_VARIANT_SPECS: dict[str, Any] = {}


@dataclass(frozen=True, repr=False)
class Rule:
    """Every rule fact of one variant under one set of options.

    Build rules with :func:`mjfast.rules.get`; rules are immutable and hashable.

    Attributes
    ----------
    name, name_zh : str
        Registry name (``"suzhou"``) and Chinese name.
    options : FrozenMap
        Resolved options, key -> value.
    option_choices : FrozenMap
        Key -> allowed values (default first), as the rules file lists them.
    tileset : TileSet
    deal : tuple of int
        Tiles dealt to (the dealer, each other player).
    calls : Calls
    wildcard : WildcardScheme or None
    forms : frozenset of str
        Accepted win forms, from :data:`FORMS`.
    seven_pairs_quad_as_two : bool
        Four identical tiles count as two pairs in 七对 (G-A3).
    thirteen_lan_strict : bool
        十三浪/烂胡 needs exactly 3 tiles per suit + 5 honours (RS-C3 ``strict``).
    unit : str
        Scoring unit (花, 番, 个, 基数, X).
    flowers : bool
        Whether bonus tiles are drawn, exposed and replaced as flowers.
    max_suits : int
        Most suits a winning hand may hold, melds included (四川 缺一门: 2; otherwise 3).
    engine : EngineFacts
        How the game engine plays and settles the rule (dealing, flags, liabilities, dealer
        rotation and round state live in the rule's scorer hooks it names).
    """

    name: str
    name_zh: str
    # Any mapping is accepted; __post_init__ stores a FrozenMap.
    options: Mapping[str, Any]
    option_choices: Mapping[str, tuple[Any, ...]]
    tileset: TileSet
    deal: tuple[int, int]
    calls: Calls
    wildcard: WildcardScheme | None
    forms: frozenset[str]
    unit: str
    flowers: bool
    seven_pairs_quad_as_two: bool = True
    thirteen_lan_strict: bool = False
    max_suits: int = 3
    engine: EngineFacts = field(default_factory=EngineFacts)
    #: whether :meth:`check_melds` can refuse nothing (the scorers' fast path skips it then)
    _any_meld: bool = field(init=False, repr=False, compare=False, default=False)

    def __post_init__(self) -> None:
        if not isinstance(self.engine, EngineFacts):
            raise ValueError(f"engine must be EngineFacts, got {type(self.engine).__name__}")
        object.__setattr__(self, "options", FrozenMap(self.options))
        object.__setattr__(self, "option_choices", FrozenMap(self.option_choices))
        object.__setattr__(self, "forms", frozenset(self.forms))
        object.__setattr__(self, "deal", tuple(self.deal))
        _check_codes(self.forms, FORMS, "win form")
        object.__setattr__(self, "_any_meld", bool(self.calls.chow_honours) and self.wild_chows)

    def __copy__(self) -> Rule:
        return self

    def __reduce_ex__(self, protocol):
        # a declared variant travels as its recipe: a process that never declared it (a pool
        # or Dask worker) declares it before building the Rule
        spec = _VARIANT_SPECS.get(self.name)
        if spec is None:
            return super().__reduce_ex__(protocol)
        from ._variants import restore_rule

        return (restore_rule, (spec, tuple(self.options.items())))

    def __deepcopy__(self, memo) -> Rule:
        return self  # immutable: a copy is the rule itself (cheap in DataFrame.attrs)

    @property
    def non_default_options(self) -> dict[str, Any]:
        """The options whose value differs from the default (first listed value)."""
        return {
            key: value for key, value in self.options.items() if _token(value) != _token(self.option_choices[key][0])
        }

    @property
    def wild_chows(self) -> bool:
        """Whether the rule's wildcard may stand for tiles of a called chow (``"chow"`` in
        ``wildcard.usable_in_calls``; 瑞金): the wildcard stays in the meld."""
        return self.wildcard is not None and "chow" in self.wildcard.usable_in_calls

    def check_melds(self, melds) -> None:
        """Refuse the melds no table of this rule can show: a called honour chow under calls
        without them (:meth:`Calls.check_melds`), a wildcard in a chow (:attr:`mjfast.Meld.wilds`)
        unless the rule's wildcard may be called into one (``usable_in_calls``).

        Raises
        ------
        ValueError
            Naming the meld and the rule.
        """
        self.calls.check_melds(melds, self.name)
        wc = self.wildcard
        for m in melds:
            if m.wilds and not self.wild_chows:
                why = "has no wildcards" if wc is None else f"does not let its {wc.name} stand in a called chow"
                raise ValueError(f"meld {m}: a wildcard stands in this chow, but rule {self.name!r} {why}")

    def __repr__(self) -> str:
        extra = "".join(f", {key}={value!r}" for key, value in self.non_default_options.items())
        return f"Rule({self.name!r}{extra})"
