"""The :class:`Hand` and :class:`Meld` data model.

A hand is what one player holds: a ``uint8[34]`` count vector of concealed
tiles, the called melds in call order, the bonus tiles laid aside, and the
number of wildcards held. It is rule-agnostic: which tiles are bonus tiles or
wildcards is decided by :mod:`mjfast.rules` before a Hand is built, so a Hand
only checks what is true under every rule (legal sets, at most four copies of
a kind, a sensible number of tiles).

Meld string syntax (:meth:`Meld.parse`)
---------------------------------------
``"123m"``
    chow (three consecutive tiles of one numbered suit, in any order)
``"124z"``, ``"567z"``
    honour chow (three different winds, or 中发白), as 瑞金 calls them ("中发白任何三个可以互吃，
    东南西北风任何三个也可以互吃"); any Meld may hold one, and the functions that take a rule
    (``can_win``, ``score``, ``shanten(melds=...)`` …) refuse it under a rule without honour chows
``"555z"``
    pung
``"1111p"``
    exposed kong (kind ``"kong"``: three concealed + a claimed discard)
``"+1111p"``
    added kong (an exposed pung plus a self-drawn fourth tile)
``"[1111p]"``
    concealed kong
``"...@left"``, ``"@opposite"``, ``"@right"`` (or ``@上家`` ``@对家`` ``@下家``)
    optional suffix: the seat the claimed tile came from.
``"456m~6m@left"``
    a chow in which a wildcard stands for the tiles after ``~`` (瑞金 "如果含有宝，算吃成功，但宝不能
    拿起来了": the 宝 stays in the meld); the functions that take a rule refuse it under a rule
    whose wildcard may not be called into a chow (``Rule.wildcard.usable_in_calls``)

Tiles inside a meld string may use any notation :func:`~mjfast.tiles.parse_tiles`
accepts (``"[一一一一筒]"``, ``"中中中"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import tiles as _t

__all__ = ["Hand", "Meld", "MELD_KINDS", "SOURCES"]

MELD_KINDS = ("chow", "pung", "kong", "added_kong", "concealed_kong")
"""Meld kinds, in the vocabulary of RULES.md §1.3."""

SOURCES = ("left", "opposite", "right")
"""Seats a claimed tile can come from: 上家 (left), 对家 (opposite), 下家 (right)."""

_KONG_KINDS = frozenset({"kong", "added_kong", "concealed_kong"})

_KIND_ALIASES = {k: k for k in MELD_KINDS}
_KIND_ALIASES.update(
    {
        "chi": "chow",
        "吃": "chow",
        "顺子": "chow",
        "pong": "pung",
        "碰": "pung",
        "刻子": "pung",
        "exposed_kong": "kong",
        "明杠": "kong",
        "直杠": "kong",
        "点杠": "kong",
        "加杠": "added_kong",
        "补杠": "added_kong",
        "续杠": "added_kong",
        "暗杠": "concealed_kong",
    }
)

_SOURCE_ALIASES = {s: s for s in SOURCES}
_SOURCE_ALIASES.update({"上家": "left", "对家": "opposite", "對家": "opposite", "下家": "right"})

_SET_HELP = (
    "a chow is 3 consecutive tiles of one numbered suit (or, an honour chow, 3 different winds or 3 different "
    "dragons), a pung 3 identical tiles, a kong 4 identical tiles"
)


def _normalise_kind(kind) -> str:
    k = _KIND_ALIASES.get(kind) if isinstance(kind, str) else None
    if k is None:
        raise ValueError(f"unknown meld kind {kind!r}; expected one of {', '.join(MELD_KINDS)}")
    return k


def _normalise_source(source) -> str | None:
    if source is None:
        return None
    s = _SOURCE_ALIASES.get(source) if isinstance(source, str) else None
    if s is None:
        raise ValueError(
            f"unknown source seat {source!r}; expected one of {', '.join(SOURCES)} (上家, 对家, 下家) or None"
        )
    return s


def _shape(ts: tuple[int, ...]) -> str | None:
    """The kind of set a sorted tuple forms: 'chow', 'pung', 'kong' or None."""
    if len(ts) == 3:
        a, b, c = ts
        if a == c:
            return "pung"
        if c < 27 and a // 9 == c // 9 and b == a + 1 and c == a + 2:
            return "chow"
        if a < b < c and (c <= 30 if a < 31 else a >= 31) and a >= 27:
            return "chow"  # an honour chow: three different winds (27-30) or the three dragons (31-33)
    elif len(ts) == 4 and ts[0] == ts[3]:
        return "kong"
    return None


@dataclass(frozen=True, repr=False)
class Meld:
    """A called (or concealed-kong) set.

    Parameters
    ----------
    kind : {'chow', 'pung', 'kong', 'added_kong', 'concealed_kong'}
        ``'kong'`` is an exposed kong made on a discard. Chinese names (吃, 碰,
        明杠, 补杠, 暗杠 …) are accepted and normalised. A ``'chow'`` may be an
        honour chow (three different winds, or 中发白: :attr:`is_honour_chow`);
        only rules that declare them (瑞金) accept a hand holding one.
    tiles : str or iterable
        The tiles, in any notation; stored as a sorted tuple of ids.
    source : {'left', 'opposite', 'right'} or None
        Seat the claimed tile came from (上家/对家/下家 accepted). For an added
        kong, the seat of the original pung. A concealed kong has none.
    claimed : int or str or None
        The claimed tile, which must be one of ``tiles``.
    wilds : str or iterable, default ()
        The tiles of a chow that a wildcard stands for (one or two, not the claimed tile): the
        wildcard stays in the meld, and those tiles are no natural tiles of the hand.

    Raises
    ------
    ValueError
        If the tiles do not form a legal set of that kind, or the kind,
        source or claimed tile is invalid.

    Examples
    --------
    >>> m = Meld("pung", "555z", source="left")
    >>> m.tiles, m.mpsz, m.is_kong
    ((31, 31, 31), '555z', False)
    >>> Meld.parse("[1111p]").kind
    'concealed_kong'
    >>> str(Meld.parse("东南北@上家"))
    '124z@left'
    >>> Meld.parse("456m~6m@left").wilds
    (5,)
    """

    kind: str
    tiles: tuple[int, ...]
    source: str | None = None
    claimed: int | None = None
    wilds: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        kind = _normalise_kind(self.kind)
        ts = tuple(sorted(_t.parse_tiles(self.tiles, allow_bonus=False)))
        shape = _shape(ts)
        want = "kong" if kind in _KONG_KINDS else kind
        if shape != want:
            raise ValueError(f"{_t.to_mpsz(ts)} is not a legal {kind}: {_SET_HELP}")
        source = _normalise_source(self.source)
        claimed = self.claimed
        if claimed is not None:
            claimed = _t.parse_tile(claimed)
            if claimed not in ts:
                raise ValueError(f"claimed tile {_t.CODES[claimed]} is not in the meld {_t.to_mpsz(ts)}")
        if kind == "concealed_kong" and (source is not None or claimed is not None):
            raise ValueError("a concealed kong has no source seat and no claimed tile")
        wilds = self.wilds
        if wilds:
            wilds = tuple(sorted(_t.parse_tiles(wilds, allow_bonus=False)))
            if kind != "chow":
                raise ValueError(f"a wildcard can stand in a called chow only, not in a {kind} ({_t.to_mpsz(ts)})")
            if len(set(wilds)) != len(wilds) or not set(wilds) <= set(ts) or len(wilds) > 2:
                raise ValueError(
                    f"wilds {_t.to_mpsz(wilds)}: the wildcards of the chow {_t.to_mpsz(ts)} stand for one or "
                    "two different tiles of it"
                )
            if claimed is not None and claimed in wilds:
                raise ValueError(f"the claimed tile {_t.CODES[claimed]} is a natural tile, not one of the wilds")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tiles", ts)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "claimed", claimed)
        object.__setattr__(self, "wilds", tuple(wilds))

    @classmethod
    def parse(cls, text: str, *, kind: str | None = None, source: str | None = None, claimed=None) -> Meld:
        """Build a Meld from the compact string syntax (see the module docstring).

        Parameters
        ----------
        text : str
            ``"123m"``, ``"555z"``, ``"1111p"``, ``"+1111p"``, ``"[1111p]"``,
            optionally followed by ``"@left"`` etc.
        kind : str, optional
            Force a kind, e.g. ``kind="concealed_kong"`` for ``"1111p"``. It must
            agree with a ``[...]``/``+`` marker if one is present.
        source, claimed : optional
            As for :class:`Meld`; ``source`` must agree with an ``@`` suffix.

        Examples
        --------
        >>> Meld.parse("312m").kind
        'chow'
        >>> Meld.parse("1111p", kind="concealed_kong").mpsz
        '[1111p]'
        >>> str(Meld.parse("+中中中中@对家"))
        '+7777z@opposite'
        """
        if not isinstance(text, str):
            raise TypeError(f"a meld string must be str, got {type(text).__name__}")
        body = text.strip()
        if "@" in body:
            body, _, seat_text = body.rpartition("@")
            seat = _normalise_source(seat_text.strip())
            if source is not None and _normalise_source(source) != seat:
                raise ValueError(f"meld {text!r} says @{seat} but source={source!r}")
            source = seat
            body = body.strip()
        wilds: tuple[int, ...] = ()
        if "~" in body:
            body, _, wild_text = body.partition("~")
            wilds = tuple(_t.parse_tiles(wild_text.strip(), allow_bonus=False))
            body = body.strip()
        marked = None
        if body.startswith("[") and body.endswith("]"):
            marked, body = "concealed_kong", body[1:-1]
        elif body.startswith("+"):
            marked, body = "added_kong", body[1:]
        ts = _t.parse_tiles(body, allow_bonus=False)
        if kind is not None:
            kind = _normalise_kind(kind)
            if marked is not None and marked != kind:
                raise ValueError(f"meld {text!r} is marked as {marked} but kind={kind!r}")
        elif marked is not None:
            kind = marked
        else:
            kind = _shape(tuple(sorted(ts)))
            if kind is None:
                raise ValueError(f"meld {text!r} is not a legal set: {_SET_HELP}")
        return cls(kind, tuple(ts), source=source, claimed=claimed, wilds=wilds)

    @property
    def is_kong(self) -> bool:
        """True for the three kong kinds."""
        return self.kind in _KONG_KINDS

    @property
    def is_honour_chow(self) -> bool:
        """True for a chow of three different winds or of the three dragons.

        Examples
        --------
        >>> Meld.parse("124z@left").is_honour_chow, Meld.parse("123m").is_honour_chow
        (True, False)
        """
        return self.kind == "chow" and self.tiles[0] >= 27

    @property
    def is_concealed(self) -> bool:
        """True for a concealed kong, the only meld that keeps a hand 门清."""
        return self.kind == "concealed_kong"

    @property
    def mpsz(self) -> str:
        """The tiles in mpsz with the kind marker: ``'[1111p]'``, ``'+1111p'``, ``'555z'``."""
        text = "".join([_t.CODES[t][0] for t in self.tiles]) + _t.CODES[self.tiles[0]][1]  # one suit, sorted
        if self.kind == "concealed_kong":
            return f"[{text}]"
        if self.kind == "added_kong":
            return "+" + text
        return text

    def to_chinese(self) -> str:
        """The meld in Chinese, with the same kind markers as :attr:`mpsz`.

        Examples
        --------
        >>> Meld.parse("[1111p]").to_chinese()
        '[一一一一筒]'
        """
        text = _t.to_chinese(self.tiles)
        if self.kind == "concealed_kong":
            return f"[{text}]"
        if self.kind == "added_kong":
            return "+" + text
        return text

    @property
    def natural_tiles(self) -> tuple[int, ...]:
        """Its tiles less those a wildcard stands for (:attr:`wilds`)."""
        if not self.wilds:
            return self.tiles
        return tuple(t for t in self.tiles if t not in self.wilds)

    @property
    def _text(self) -> str:
        """:attr:`mpsz`, and the tiles a wildcard stands for after ``~``."""
        return self.mpsz + (f"~{_t.to_mpsz(self.wilds)}" if self.wilds else "")

    def __str__(self) -> str:
        return self._text if self.source is None else f"{self._text}@{self.source}"

    def __repr__(self) -> str:
        args = [repr(self.kind), repr(_t.to_mpsz(self.tiles))]
        if self.source is not None:
            args.append(f"source={self.source!r}")
        if self.claimed is not None:
            args.append(f"claimed={_t.CODES[self.claimed]!r}")
        if self.wilds:
            args.append(f"wilds={_t.to_mpsz(self.wilds)!r}")
        return f"Meld({', '.join(args)})"


@lru_cache(maxsize=1024)
def _parse_meld_cached(text: str) -> Meld:
    # Melds are immutable, and analysis code rebuilds hands with the same few
    # meld strings over and over; parsing them once keeps Hand() cheap.
    return Meld.parse(text)


def _as_meld(m) -> Meld:
    if isinstance(m, Meld):
        return m
    if isinstance(m, str):
        return _parse_meld_cached(m)
    raise TypeError(f"a meld must be a Meld or a string such as '555z', got {type(m).__name__}")


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


_EMPTY_COUNTS = _readonly(np.zeros(_t.N_KINDS, dtype=np.uint8))
_BONUS_ALLOWED = frozenset(_t.DRAGONS) | frozenset(_t.BONUS_KINDS)


class Hand:
    """One player's hand: concealed tiles, melds, bonus tiles and wildcards.

    Parameters
    ----------
    tiles : str, iterable, ndarray or Hand
        Concealed tiles in any notation :func:`~mjfast.tiles.parse_tiles`
        accepts, or a count vector of shape ``(34,)``. A Hand is copied; its
        melds, bonus and wilds are kept unless the corresponding keyword is
        given a non-empty value.
    melds : iterable of Meld or str, or str, optional
        Called melds in call order (order matters for 包 liability rules), as
        :class:`Meld` objects or strings in the syntax of :meth:`Meld.parse`.
        A single string is split on whitespace (``"555z [1111p]"``), the form
        ``str(hand)`` prints.
    bonus : str or iterable, optional
        Bonus tiles laid aside: flowers, seasons, animals, ``BD``, ``WB0``, and
        also the dragons ``5z``/``6z``/``7z``, which 苏州 and 太仓 treat as flowers.
    wilds : int, default 0
        Wildcards held in the hand. They are not in :attr:`counts`.
    partial : bool, default False
        Accept any hand with 3k+1 or 3k+2 tiles in hand and at most 14 counting
        each meld as 3 (for fragments in tests and analyses), instead of
        requiring exactly 13 or 14.

    Raises
    ------
    ValueError
        Unparseable tiles, a bonus tile among the concealed tiles, an illegal
        meld, more than 4 copies of a kind across hand, melds and dragon bonus
        tiles, a wrong number of tiles, or an invalid ``wilds``.

    Examples
    --------
    >>> h = Hand("11p34567m45s9p", melds=["555z"])
    >>> str(h)
    '34567m119p45s 555z'
    >>> h.n_tiles, h.n_melds, h.is_concealed
    (10, 1, False)
    >>> Hand("一一筒 三四五六七万 四五条 九筒", melds=["白白白"]) == h
    True
    """

    __slots__ = ("_counts", "_melds", "_bonus", "_wilds", "_n_tiles", "_partial", "_meld_counts", "_hash")

    def __init__(self, tiles, *, melds=(), bonus=(), wilds=0, partial: bool = False) -> None:
        if isinstance(melds, str):
            # Iterating a string would yield single characters; read it as the
            # space-separated meld list that str(hand) prints instead.
            melds = melds.split()
        if isinstance(tiles, Hand):
            src = tiles
            c = src._counts
            n_conc = src._n_tiles - src._wilds
            melds = tuple(_as_meld(m) for m in melds) if melds else src._melds
            bonus = _t._parse(bonus, True, allow_empty=True) if _nonempty(bonus) else src._bonus
            wilds = wilds if wilds else src._wilds
            partial = partial or src._partial
        else:
            if (
                type(tiles) is np.ndarray
                and tiles.dtype == np.uint8
                and tiles.shape == (_t.N_KINDS,)
                and max(raw := tiles.tobytes()) <= _t.MAX_COPIES
            ):
                c = np.frombuffer(bytearray(raw), dtype=np.uint8)  # a valid count vector: copy as is
                n_conc = sum(raw)
            elif isinstance(tiles, np.ndarray) and tiles.shape == (_t.N_KINDS,):
                c = _t.counts(tiles)
                n_conc = int(c.sum())
            else:
                ids, pos = _t._parse_pos(tiles, True, allow_empty=True)
                for t, p in zip(ids, pos):
                    if t >= _t.N_KINDS:
                        raise ValueError(
                            f"bonus tile '{_t.CODES[t]}' at {p} among the concealed tiles; pass bonus tiles with bonus="
                        )
                cl = [0] * _t.N_KINDS
                for t in ids:
                    cl[t] += 1
                c = np.frombuffer(bytearray(cl), dtype=np.uint8)
                n_conc = len(ids)
            melds = tuple(_as_meld(m) for m in melds) if melds else ()
            if type(bonus) is tuple and all(type(t) is int and t in _BONUS_ALLOWED for t in bonus):
                pass  # bonus tile ids already (the game engine's hot path)
            else:
                bonus = _t._parse(bonus, True, allow_empty=True) if _nonempty(bonus) else ()
        if isinstance(wilds, (bool, np.bool_)) or not isinstance(wilds, (int, np.integer)):
            raise ValueError(f"wilds must be a non-negative integer, got {wilds!r}")
        if wilds < 0:
            raise ValueError(f"wilds must be a non-negative integer, got {wilds!r}")
        for t in bonus:
            if t not in _BONUS_ALLOWED:
                raise ValueError(
                    f"{_t.CODES[t]} ({_t.NAMES_ZH[t]}) cannot be a bonus tile; bonus tiles are "
                    "flowers, seasons, animals, BD, WB0 or the dragons 5z 6z 7z"
                )
        if melds:
            mc = [0] * _t.N_KINDS
            for m in melds:
                for t in m.natural_tiles:
                    mc[t] += 1
            meld_counts = _readonly(np.frombuffer(bytearray(mc), dtype=np.uint8).copy())
        else:
            meld_counts = _EMPTY_COUNTS
        self._init(c, n_conc, melds, tuple(sorted(bonus)), int(wilds), bool(partial), meld_counts)

    def _init(self, c, n_conc, melds, bonus, wilds, partial, meld_counts) -> None:
        """Validate the cross-part invariants and store; shared by ``__init__``
        and the cheap :meth:`with_tile`/:meth:`without_tile` paths."""
        if melds or any(t < _t.N_KINDS for t in bonus):
            total = c.astype(np.int16) + meld_counts
            for t in bonus:
                if t < _t.N_KINDS:
                    total[t] += 1
            if total.max() > _t.MAX_COPIES:
                t = int(total.argmax())
                raise ValueError(
                    f"{int(total[t])} copies of {_t.CODES[t]} ({_t.NAMES_ZH[t]}) across hand, "
                    f"melds and bonus; at most {_t.MAX_COPIES} of a kind exist"
                )
        n_tiles = n_conc + wilds
        slots = n_tiles + 3 * len(melds)
        if partial:
            if n_tiles % 3 == 0 or slots > 14:
                raise ValueError(
                    "a partial hand holds 3k+1 or 3k+2 tiles and at most 14 counting each "
                    f"meld as 3; got {n_tiles} in hand, {slots} in all "
                    f"({_size_detail(n_conc, wilds, len(melds))})"
                )
        elif slots not in (13, 14):
            raise ValueError(
                f"a hand holds 13 or 14 tiles counting each meld as 3; got {slots} "
                f"({_size_detail(n_conc, wilds, len(melds))})"
            )
        if c.flags.writeable:
            c = _readonly(c)
        self._counts = c
        self._melds = melds
        self._bonus = bonus
        self._wilds = wilds
        self._n_tiles = n_tiles
        self._partial = partial
        self._meld_counts = meld_counts
        self._hash: int | None = None

    # -- attributes ---------------------------------------------------------

    @property
    def counts(self) -> np.ndarray:
        """Concealed tiles as a read-only ``uint8[34]`` (wildcards excluded)."""
        return self._counts

    @property
    def melds(self) -> tuple[Meld, ...]:
        """Melds in call order."""
        return self._melds

    @property
    def bonus(self) -> tuple[int, ...]:
        """Bonus tile ids, sorted."""
        return self._bonus

    @property
    def wilds(self) -> int:
        """Number of wildcards held."""
        return self._wilds

    @property
    def n_melds(self) -> int:
        """Number of melds, kongs included."""
        return len(self._melds)

    @property
    def n_tiles(self) -> int:
        """Tiles in the hand: concealed tiles plus wildcards (melds excluded)."""
        return self._n_tiles

    @property
    def tiles(self) -> tuple[int, ...]:
        """Concealed tile ids, sorted (wildcards excluded)."""
        return tuple(_t.tiles_from_counts(self._counts))

    @property
    def meld_counts(self) -> np.ndarray:
        """Natural tiles in melds as a read-only ``uint8[34]``; a kong counts 4 (a tile a wildcard
        stands for in a chow, :attr:`Meld.wilds`, is not counted: :attr:`meld_wilds`)."""
        return self._meld_counts

    @property
    def meld_wilds(self) -> int:
        """Wildcards in the melds (the tiles they stand for in chows, :attr:`Meld.wilds`); not
        counted in :attr:`wilds`, the wildcards held."""
        return sum(len(m.wilds) for m in self._melds)

    @property
    def seen_counts(self) -> np.ndarray:
        """``counts + meld_counts``: every playable tile this hand accounts for."""
        return _readonly(self._counts + self._meld_counts)

    @property
    def is_concealed(self) -> bool:
        """True when no meld is exposed (concealed kongs keep a hand concealed)."""
        return all(m.kind == "concealed_kong" for m in self._melds)

    # -- derived hands ------------------------------------------------------

    def _derive(self, c: np.ndarray, n_conc: int) -> Hand:
        h = object.__new__(Hand)
        h._init(c, n_conc, self._melds, self._bonus, self._wilds, self._partial, self._meld_counts)
        return h

    def with_tile(self, tile) -> Hand:
        """Return a new Hand with one more concealed tile.

        Raises
        ------
        ValueError
            For a bonus tile, a fifth copy, or a hand that would be too large.

        Examples
        --------
        >>> str(Hand("123m456p789s1122z").with_tile("2z"))
        '123m456p789s11222z'
        """
        t = _t.parse_tile(tile)
        if t >= _t.N_KINDS:
            raise ValueError(f"bonus tile '{_t.CODES[t]}' cannot join the concealed tiles; use bonus=")
        n = int(self._counts[t]) + int(self._meld_counts[t]) + self._bonus.count(t) + 1
        if n > _t.MAX_COPIES:
            raise ValueError(
                f"{n} copies of {_t.CODES[t]} ({_t.NAMES_ZH[t]}) across hand, melds and bonus; "
                f"at most {_t.MAX_COPIES} of a kind exist"
            )
        c = self._counts.copy()
        c[t] += 1
        return self._derive(c, self._n_tiles - self._wilds + 1)

    def without_tile(self, tile) -> Hand:
        """Return a new Hand with one concealed tile removed.

        Raises
        ------
        ValueError
            If the hand holds no such tile, or the result would be too small.

        Examples
        --------
        >>> str(Hand("123m456p789s11222z").without_tile(27))
        '123m456p789s1222z'
        """
        t = _t.parse_tile(tile)
        if t >= _t.N_KINDS or self._counts[t] == 0:
            raise ValueError(f"the hand holds no {_t.CODES[t]} ({_t.NAMES_ZH[t]}) to remove")
        c = self._counts.copy()
        c[t] -= 1
        return self._derive(c, self._n_tiles - self._wilds - 1)

    # -- text ---------------------------------------------------------------

    def _tail(self) -> list[str]:
        out = []
        if self._bonus:
            out.append("bonus=" + ",".join(_t.CODES[t] for t in self._bonus))
        if self._wilds:
            out.append(f"wilds={self._wilds}")
        return out

    def __str__(self) -> str:
        parts = [_t.format_counts(self._counts.tolist())] if self._n_tiles > self._wilds else []
        parts += [m._text for m in self._melds]
        return " ".join(parts + self._tail())

    def to_chinese(self) -> str:
        """The hand in Chinese; melds, bonus tiles (花) and wildcards (万能) after ``|``.

        Examples
        --------
        >>> Hand("11p34567m45s9p", melds=["555z"]).to_chinese()
        '三四五六七万 一一九筒 四五条 | 白白白'
        """
        parts = [_t.to_chinese(self._counts)] if self._n_tiles > self._wilds else []
        parts += [m.to_chinese() for m in self._melds]
        if self._bonus:
            parts.append("花 " + _t.to_chinese(self._bonus))
        if self._wilds:
            parts.append(f"万能×{self._wilds}")
        return " | ".join(parts)

    def to_glyphs(self) -> str:
        """The hand as Unicode glyphs; melds, bonus tiles and wildcards after ``|``.

        Examples
        --------
        >>> Hand("11p34567m45s9p", melds=["555z"]).to_glyphs().count("|")
        1
        """
        parts = [_t.to_glyphs(self._counts)] if self._n_tiles > self._wilds else []
        parts += [_t.to_glyphs(m.tiles) for m in self._melds]
        if self._bonus:
            parts.append(_t.to_glyphs(self._bonus))
        if self._wilds:
            parts.append(f"wild×{self._wilds}")
        return " | ".join(parts)

    def __repr__(self) -> str:
        args = [repr(_t.to_mpsz(self._counts))]
        if self._melds:
            items = [repr(str(m)) if m.claimed is None else repr(m) for m in self._melds]
            args.append(f"melds=[{', '.join(items)}]")
        if self._bonus:
            args.append(f"bonus={[_t.CODES[t] for t in self._bonus]!r}")
        if self._wilds:
            args.append(f"wilds={self._wilds}")
        if self._n_tiles + 3 * len(self._melds) not in (13, 14):
            args.append("partial=True")
        return f"Hand({', '.join(args)})"

    def _repr_html_(self) -> str:
        from ._display import hand_html

        return hand_html(self)

    # -- value semantics ----------------------------------------------------

    def _key(self):
        return (self._counts.tobytes(), self._melds, self._bonus, self._wilds)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash


def _size_detail(n_conc: int, wilds: int, n_melds: int) -> str:
    return f"{n_conc} concealed + {wilds} wilds + {n_melds} meld{'' if n_melds == 1 else 's'} × 3"


def _nonempty(x) -> bool:
    if isinstance(x, str):
        return bool(x.strip())
    try:
        return len(x) > 0
    except TypeError:
        return True
