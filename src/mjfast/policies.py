"""Players of the game engine: the built-in efficiency players and user-written policies.

A *policy* decides what one seat does in :func:`mjfast.simulate_games`,
:func:`mjfast.simulate_matches`, :func:`mjfast.compare_rules` and :func:`mjfast.duplicate_match`.
Whatever the policy, the engine enforces every rule mechanic: a policy only chooses among the
legal actions the engine offers it.

* :class:`Efficiency` — the built-in player, compiled into the game kernel.  ``Efficiency()``
  is the engine's default player; its two parameters change which calls it makes.
* A *user policy* — any object with some of the methods ``discard(view) -> tile``,
  ``claim(view, options) -> option`` and ``declare_win(view) -> bool``.  The engine calls them
  (from its compiled loop, holding the GIL) only for the seats that play that policy, and only
  for the methods the object has: the decisions whose method it lacks are ``Efficiency()``'s.
  ``view`` is a :class:`View`: a read-only snapshot of what that seat may see, never another
  player's concealed tiles.

  - ``discard(view)`` returns a tile of its concealed hand (a kind 0..33 or a name such as
    ``"5m"``), or :data:`WILD` (34) to discard one of its wildcards where the rule allows it
    (``Rule.wildcard.discardable``; a discarded wildcard is dead: nobody claims or wins on it),
    but not the lone wildcard of a declared 飞 / 宝吊头 wait.  A hand of wildcards alone discards
    one without asking.
  - ``claim(view, options)`` returns one of ``options`` — ``("pung", tile)``, ``("kong", tile)``,
    ``("chow", lowest tile)`` when another seat's discard (``view.tile``) may be claimed (under
    a rule with honour chows, 瑞金, also ``("chow", code)`` for a wind or dragon discard: code
    27-30 the three winds but that one, 31 中发白; :data:`CHOW_TILES` gives the tiles; where the
    rule's wildcard may stand in a called chow, 瑞金 "如果含有宝，算吃成功，但宝不能拿起来了", also
    ``("chow", code, wilds)`` with ``wilds`` the tiles its wildcards would stand for, one or two
    kinds: the wildcards stay in the meld), or
    ``("concealed_kong", tile)`` / ``("added_kong", tile)`` on its own turn — or None, the last
    option, to pass.  It is asked only when some call is legal; a 碰 / 杠 is offered to the seat
    holding two (three) of the discard, a 吃 to the next seat where the rule has chows, and only
    when no seat wins on the discard (胡 before 杠 / 碰 before 吃; the seat next to the
    discarder holding a pair is offered its 吃 with its 碰).  Nobody claims the discard made
    after the last wall tile.
  - ``declare_win(view)`` returns True to take a potential win the rule accepts (a self-draw,
    a discard or a robbed kong: ``view.tile``), False to pass; a passed win locks as the rule
    says (苏州 漏胡, 广东 过水).  A win the rule does not let a player pass is taken without asking
    (四川 "最后四张自动胡": among the wall's last four tiles; ``EngineFacts.forced_win_left``).
  - The 飞 / 宝吊头 wait (瑞金, 上饶: complete sets, or six pairs, plus one lone wildcard; any
    tile completes it): a policy declares it by declining a complete self-drawn hand and then
    discarding a tile that leaves that wait.  From then on the engine holds the seat in the
    wait as the rule says: it is offered no call and no discard win, and every tile it draws
    completes the hand (``declare_win`` is asked; the win scores as 飞 / 宝吊头 while the
    rule's conditions hold, e.g. 瑞金's go-around).

A user policy that answers something illegal makes the simulation raise a ``ValueError`` naming
the seat, the turn and the action; no game is returned from a failed call.  Deterministic user
policies (their answers depend only on the view) give the same games for any number of threads
and any executor; a policy travels to process pools and Dask workers by pickling, so it must be
picklable (a class defined at module level).  A user policy costs a Python call per decision
(measured in ``bench/RESULTS.md``); seats playing built-in policies keep the kernel's speed.

Examples
--------
>>> import mjfast as mj
>>> from mjfast.policies import Efficiency
>>> Efficiency(), Efficiency(call="never", keep_concealed=True)
(Efficiency(), Efficiency(call='never', keep_concealed=True))
>>> class LowestTile:                      # a user policy: always discard its lowest tile
...     def discard(self, view):
...         return min(view.tiles())
>>> df = mj.simulate_games("sichuan", 20, rng=0, n_threads=1, policy=[LowestTile(), Efficiency(),
...                                                                    Efficiency(), Efficiency()])
>>> df.attrs["policy"]
'[LowestTile(), Efficiency(), Efficiency(), Efficiency()]'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._kernels import _game as _kg
from .tiles import CODES

if TYPE_CHECKING:
    from .rules import Rule

__all__ = ["Efficiency", "View", "CALLS", "ACTIONS", "METHODS", "CHOW_TILES", "describe"]

#: Values of :class:`Efficiency`'s ``call``.
CALLS = ("faster", "always", "never")
#: Names of the actions in a user policy's ``options`` (``(action, tile)`` pairs).
ACTIONS = ("pung", "kong", "chow", "concealed_kong", "added_kong")
#: The methods a user policy may have.
METHODS = ("discard", "claim", "declare_win")
#: The tiles of a chow by the tile of its option or :class:`Meld`: a suit chow by its lowest
#: tile, an honour chow by its code (27-30: the three winds but that one; 31: 中发白).
CHOW_TILES: dict[int, tuple[int, int, int]] = dict(_kg.CHOW_TILES)


@dataclass(frozen=True)
class Efficiency:
    """The built-in efficiency player (compiled into the game kernel).

    **Discards**: to the least shanten over the rule's forms, then to the most 进张 (unseen
    copies of the accepting kinds: copies in play minus its own tiles, the discards and the
    melds), remaining ties to the lowest kind; under 定缺 (四川) the tiles of its void suit
    first, lowest first; wildcards only when nothing else is left.  **Wins**: every potential
    win the rule accepts.  **Own turn**: a concealed or added kong when the shanten after it is
    no worse than after the best discard.

    Parameters
    ----------
    call : {"faster", "always", "never"}, default "faster"
        Which calls it makes on another seat's discard (胡 is never affected: every accepted
        win is taken).  ``"faster"``: 杠 when it holds three and the shanten does not rise,
        else 碰 when the best discard afterwards lowers the shanten or keeps it with more 进张,
        else (the seat after the discarder, where the rule has 吃) the best 吃 by that test.
        ``"always"``: every legal call — 杠 when it holds three, else 碰 when it holds two,
        else the best 吃 by the efficiency order (least shanten, then most 进张, then the
        lowest chow); and on its own turn every concealed or added kong as soon as it holds it
        (the lowest kind first).  ``"never"``: no 吃, 碰 or 杠 on a discard (so no added kong
        either); its own concealed kongs are as under ``"faster"`` (they do not open the hand).
        The engine's order between seats is kept: 胡 before 杠 / 碰 before 吃, and only the
        seat holding two or three of the discard may 碰 / 杠 it.
    keep_concealed : bool, default False
        While the hand is concealed (no call made; a concealed kong keeps it concealed), decline
        every call on a discard that ``call`` would make unless the hand is ready (shanten 0)
        after it: after a 碰 / 吃 and the best discard that follows, or after a 杠 (before its
        replacement draw).  Once the hand is open, ``call`` alone decides.

    Examples
    --------
    >>> import mjfast as mj
    >>> df = mj.simulate_games("guangdong", 30, rng=1, n_threads=1, policy=Efficiency(call="never"))
    >>> df.attrs["policy"]
    "Efficiency(call='never')"
    >>> # a winning hand shows its melds after spaces, a concealed kong in brackets: none is open
    >>> bool(df["winning_hand"].str.contains(r" [^[]").any())
    False
    """

    call: str = "faster"
    keep_concealed: bool = False

    def __post_init__(self):
        if not isinstance(self.call, str) or self.call not in CALLS:
            raise ValueError(f"call must be one of {', '.join(map(repr, CALLS))}, got {self.call!r}")
        if not isinstance(self.keep_concealed, bool):
            raise ValueError(f"keep_concealed must be True or False, got {self.keep_concealed!r}")

    def __repr__(self) -> str:
        args = []
        if self.call != "faster":
            args.append(f"call={self.call!r}")
        if self.keep_concealed:
            args.append("keep_concealed=True")
        return f"Efficiency({', '.join(args)})"


_MELD_NAMES = {0: "chow", 1: "pung", 2: "kong", 3: "added_kong", 4: "concealed_kong"}
_WILD = 34


@dataclass(frozen=True)
class Meld:
    """A meld on the table: ``kind`` (``"chow"``, ``"pung"``, ``"kong"`` — exposed, on a
    discard —, ``"added_kong"``, ``"concealed_kong"``), ``tile`` (its lowest tile, a kind
    0..33; an honour chow's code, see :data:`CHOW_TILES`) and ``source`` (the seat the claimed
    tile came from; -1 for a concealed kong); ``wilds``, a chow's tiles a wildcard stands for
    (the wildcard stays in the meld).

    Examples
    --------
    >>> Meld("chow", 27, 3).tiles, Meld("chow", 31, 3).tiles, Meld("pung", 4, 1).tiles
    ((28, 29, 30), (31, 32, 33), (4, 4, 4))
    """

    kind: str
    tile: int
    source: int
    wilds: tuple[int, ...] = ()

    @property
    def tiles(self) -> tuple[int, ...]:
        """Its tiles, in order (kinds 0..33)."""
        if self.kind == "chow":
            return CHOW_TILES[self.tile]
        return (self.tile,) * (3 if self.kind == "pung" else 4)


class View:
    """What one seat may see when its policy is asked (read-only).

    Tiles are kinds 0..33 (``mjfast.tiles.CODES``: ``0`` = 1m … ``33`` = 7z); a wildcard discard
    is :data:`WILD` (34).  A user policy may answer a tile as a kind or as its name (``"5m"``).

    Attributes
    ----------
    decision : {"discard", "claim", "kong", "win"}
        What is asked: the discard of its 3k+2 hand; a claim of another seat's discard
        (``tile``); a kong on its own turn; whether to take a potential win on ``tile``.
    seat, dealer : int
        Its seat and the dealer's (0-3).
    turn : int
        Discards made so far in the hand.
    counts : tuple of 34 int
        Its concealed natural tiles by kind (wildcards apart).  On its own turn the drawn tile
        is included; for a claim or a win on another seat's discard it is not.
    wilds : int
        Wildcards it holds.
    tile : int or None
        The tile at stake: the tile just drawn on its own turn (None after a call), the
        discard it may claim or win on, or the tile of a kong it may rob.
    melds : tuple of 4 tuples of Meld
        Every seat's melds in the order made.
    discards : tuple of (seat, tile)
        Every discard of the hand in order (claimed ones included).
    flowers : tuple of 4 tuples of str
        Every seat's flowers laid aside (tile names).
    wall_left : int
        Tiles left in the wall.
    wild_tiles : tuple of str
        The tiles that are wildcards in this hand (empty when none).
    flipped : str or None
        The indicator turned up (the rules that flip one).
    scores : tuple of 4 int
        Every seat's result so far in the match, in the rule's unit (zeros outside
        :func:`mjfast.simulate_matches`).
    rule : mjfast.rules.Rule
        The rule being played.
    voids : tuple of 4 (str or None)
        Every seat's declared void suit (定缺: ``"m"``, ``"p"`` or ``"s"``; None under rules
        without it).  A seat wins only once it holds none of its void suit.
    waiting : bool
        Whether this seat has declared the 飞 / 宝吊头 wait (a lone wildcard beside complete
        sets; see the module docstring).
    """

    decision: str
    seat: int
    dealer: int
    turn: int
    counts: tuple[int, ...]
    wilds: int
    tile: int | None
    wall_left: int
    scores: tuple[int, ...]
    rule: Rule
    voids: tuple[str | None, ...]
    waiting: bool
    _melds: Any
    _discards: Any
    _flowers: Any
    _flipped: Any
    _tables: Any
    _cache: dict

    __slots__ = (
        "decision",
        "seat",
        "dealer",
        "turn",
        "counts",
        "wilds",
        "tile",
        "wall_left",
        "scores",
        "rule",
        "voids",
        "waiting",
        "_melds",
        "_discards",
        "_flowers",
        "_flipped",
        "_tables",
        "_cache",
    )

    def __init__(
        self,
        decision,
        seat,
        dealer,
        turn,
        counts,
        wilds,
        tile,
        melds,
        discards,
        flowers,
        wall_left,
        flipped,
        scores,
        rule,
        tables,
        voids=(None, None, None, None),
        waiting=False,
    ):
        set_ = object.__setattr__
        for name, value in (
            ("decision", decision),
            ("seat", seat),
            ("dealer", dealer),
            ("turn", turn),
            ("counts", counts),
            ("wilds", wilds),
            ("tile", tile),
            ("wall_left", wall_left),
            ("scores", scores),
            ("rule", rule),
            ("voids", voids),
            ("waiting", waiting),
            ("_melds", melds),
            ("_discards", discards),
            ("_flowers", flowers),
            ("_flipped", flipped),
            ("_tables", tables),
            ("_cache", {}),
        ):
            set_(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("a View is read-only")

    def __delattr__(self, name):
        raise AttributeError("a View is read-only")

    def __repr__(self) -> str:
        return (
            f"View(decision={self.decision!r}, seat={self.seat}, turn={self.turn}, "
            f"hand={[CODES[k] for k in self.tiles()]}, wilds={self.wilds}, tile={self.tile})"
        )

    def _get(self, name, build):
        cache = self._cache
        if name not in cache:
            cache[name] = build()
        return cache[name]

    @property
    def melds(self) -> tuple:
        return self._get(
            "melds",
            lambda: tuple(
                tuple(Meld(_MELD_NAMES[k], t, s, _kg.chow_wild_tiles(t, wm) if k == 0 else ()) for k, t, s, wm in row)
                for row in self._melds
            ),
        )

    @property
    def discards(self) -> tuple:
        d = self._discards
        return self._get("discards", lambda: tuple(zip(d[::2], d[1::2])))

    @property
    def flowers(self) -> tuple:
        return self._get(
            "flowers",
            lambda: tuple(
                tuple(CODES[c] for c in range(len(f)) for _ in range(f[c])) if any(f) else () for f in self._flowers
            ),
        )

    @property
    def flipped(self):
        return CODES[self._flipped] if self._flipped >= 0 else None

    @property
    def wild_tiles(self) -> tuple:
        t = self._tables
        row = self._flipped if t.flip and self._flipped >= 0 else 0
        return self._get("wild", lambda: tuple(CODES[c] for c in range(len(CODES)) if t.faces[row][c] == 34))

    def tiles(self) -> list:
        """Its concealed natural tiles as a sorted list of kinds (one entry per tile)."""
        return [k for k, n in enumerate(self.counts) for _ in range(n)]

    def hand(self):
        """Its hand as a :class:`mjfast.Hand` (concealed tiles, its melds, its wildcards): the
        input of :func:`mjfast.shanten`, :func:`mjfast.ukeire` or :func:`mjfast.analyze_discards`."""
        import numpy as np

        from .hand import Hand
        from .scoring._outcome import meld_objects

        return Hand(
            np.array(self.counts, np.uint8), melds=meld_objects(self.seat, self._melds[self.seat]), wilds=self.wilds
        )


_KINDS = {v: k for k, v in _MELD_NAMES.items()}
#: The tile code of a discarded wildcard in :attr:`View.discards`.
WILD = _WILD


def _has_methods(obj) -> int:
    """Bit mask of the user-policy methods ``obj`` has (``discard`` 1, ``claim`` 2, ``declare_win`` 4)."""
    mask = 0
    for bit, name in zip((1, 2, 4), METHODS):
        if callable(getattr(obj, name, None)):
            mask |= bit
    return mask


def describe(policy) -> str:
    """A readable name of a policy (``repr`` when its class defines one, else ``ClassName()``)."""
    if isinstance(policy, Efficiency) or type(policy).__repr__ is not object.__repr__:
        return repr(policy)
    return f"{type(policy).__qualname__}()"


_VALID = (
    "'efficiency', an mjfast.policies.Efficiency, an object with a discard, claim or declare_win "
    "method, or a list / tuple of four of these (one per seat)"
)


def one(policy, what: str = "policy"):
    """The policy object of one seat's ``policy`` argument (``None`` / ``"efficiency"``:
    ``Efficiency()``); a ``ValueError`` naming ``what`` and the valid choices otherwise."""
    if policy is None or (isinstance(policy, str) and policy == "efficiency"):
        return Efficiency()
    if isinstance(policy, Efficiency):
        return policy
    if isinstance(policy, (str, bytes, list, tuple, dict, int, float)) or not _has_methods(policy):
        raise ValueError(f"{what}: unknown policy {policy!r}; valid policies: {_VALID}")
    return policy


def resolve(policy, what: str = "policy") -> tuple:
    """The four seats' policies of a ``policy`` argument (one for all seats, or four).

    Raises
    ------
    ValueError
        Naming ``what`` and the valid choices, for anything else.
    """
    if isinstance(policy, (list, tuple)):
        if len(policy) != 4:
            raise ValueError(
                f"{what}: a list of policies needs one per seat (4), got {len(policy)}; valid policies: {_VALID}"
            )
        return tuple(one(p, f"{what}[{i}]") for i, p in enumerate(policy))
    p = one(policy, what)
    return (p, p, p, p)


def label(seats: tuple) -> str:
    """``df.attrs["policy"]`` of four seats' policies: one name when every seat plays the same."""
    names = [describe(p) for p in seats]
    if all(n == names[0] for n in names) and all(type(p) is type(seats[0]) for p in seats):
        return names[0]
    return "[" + ", ".join(names) + "]"


_CALL_CODES = {"faster": 0, "always": 1, "never": 2}


def kernel_seats(seats: tuple) -> tuple:
    """Per seat ``(call mode, keep concealed, user mask)`` for the game kernel."""
    out = []
    for p in seats:
        if isinstance(p, Efficiency):
            out.append((_CALL_CODES[p.call], p.keep_concealed, 0))
        else:
            out.append((0, False, _has_methods(p)))
    return tuple(out)


def is_default(seats: tuple) -> bool:
    return all(isinstance(p, Efficiency) and p == Efficiency() for p in seats)


_ASK = ("discard", "claim", "kong", "win")
_ACTION_OF = {3: "pung", 4: "kong", 5: "chow", 7: "concealed_kong", 6: "added_kong"}


def _option(action: int, tile: int) -> tuple:
    """A kernel option as the policy sees it: ``(name, tile)``, a chow with wildcards
    ``("chow", code, wilds)``."""
    name = _ACTION_OF[action]
    if name == "chow" and tile >> _kg.CHOW_WILD_SHIFT:
        code = tile & ((1 << _kg.CHOW_WILD_SHIFT) - 1)
        return (name, code, _kg.chow_wild_tiles(code, tile >> _kg.CHOW_WILD_SHIFT))
    return (name, tile)


def _tile_name(k) -> str:
    return "wildcard" if k == _WILD else CODES[k]


class Bridge:
    """The game kernel's ``user`` callback: builds the asked seat's :class:`View`, calls its
    policy and checks the answer (a ``ValueError`` naming the seat, the turn and the action)."""

    def __init__(self, rule, tables, seats: tuple):
        self.rule = rule
        self.seats = seats
        self.tables = tables
        self.scores = None  # per game row: the seats' results so far (None: zeros)

    def view(
        self,
        what,
        game,
        seat,
        counts,
        wilds,
        melds,
        flowers,
        discards,
        left,
        flipped,
        dealer,
        tile,
        turn,
        voids=(-1, -1, -1, -1),
        waiting=False,
    ) -> View:
        scores = (0, 0, 0, 0) if self.scores is None else tuple(int(x) for x in self.scores[game])
        return View(
            _ASK[what],
            seat,
            dealer,
            turn,
            tuple(counts),
            wilds,
            None if tile < 0 or tile >= 34 else tile,
            melds,
            discards,
            flowers,
            left,
            flipped,
            scores,
            self.rule,
            self.tables,
            tuple("mps"[x] if x >= 0 else None for x in voids),
            bool(waiting),
        )

    def __call__(
        self,
        what,
        game,
        seat,
        counts,
        wilds,
        melds,
        flowers,
        discards,
        left,
        flipped,
        dealer,
        tile,
        turn,
        options,
        voids=(-1, -1, -1, -1),
        waiting=False,
    ) -> int:
        policy = self.seats[seat]
        v = self.view(
            what, game, seat, counts, wilds, melds, flowers, discards, left, flipped, dealer, tile, turn, voids, waiting
        )
        where = f"seat {seat}, turn {turn} ({describe(policy)}"
        if what == 0:
            answer = policy.discard(v)
            if not isinstance(answer, (bool, str)) and _index(answer) == WILD:
                wild = self.rule.wildcard
                if wilds and wild is not None and wild.discardable and not waiting:
                    return WILD
                if not wilds or wild is None:
                    why = "it holds no wildcard"
                elif waiting:
                    why = f"it waits on its lone {wild.name} (飞 / 宝吊头)"
                else:
                    why = f"rule {self.rule.name!r} never discards its {wild.name}"
                raise ValueError(f"{where}.discard): discard WILD ({WILD}): {why}")
            k = _kind(answer)
            if k is None or counts[k] == 0:
                shown = f"{answer!r} ({CODES[k]})" if k is not None and not isinstance(answer, str) else repr(answer)
                raise ValueError(
                    f"{where}.discard): discard {shown} is not a tile of its concealed hand "
                    f"{[CODES[x] for x in v.tiles()]}"
                )
            return k
        if what == 3:
            answer = policy.declare_win(v)
            if not isinstance(answer, bool) and answer not in (0, 1):
                raise ValueError(f"{where}.declare_win): answer {answer!r} on {_tile_name(tile)} is not True or False")
            return 1 if answer else 0
        opts = tuple(_option(a, t) for a, t in options)
        answer = policy.claim(v, opts + (None,))
        if answer is None:
            return -1
        key: tuple | None = None
        if isinstance(answer, tuple) and len(answer) == 2:
            key = (answer[0], _kind(answer[1]))
        elif isinstance(answer, tuple) and len(answer) == 3 and isinstance(answer[2], (tuple, list)):
            faces = tuple(_kind(x) for x in answer[2])
            if None not in faces:
                key = (answer[0], _kind(answer[1]), tuple(sorted(faces)))
        if key not in opts:
            raise ValueError(f"{where}.claim): claim {answer!r} is not one of the legal options {list(opts) + [None]}")
        return opts.index(key)


def _index(x):
    """``x`` as an integer (``operator.index``), or None."""
    import operator

    try:
        return operator.index(x)
    except TypeError:
        return None


def _kind(tile):
    """A kind 0..33 from a kind or a tile name; None for anything else."""
    if isinstance(tile, bool):
        return None
    if isinstance(tile, str):
        return CODES.index(tile) if tile in CODES[:34] else None
    k = _index(tile)
    return k if k is not None and 0 <= k < 34 else None
