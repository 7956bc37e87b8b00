"""Decomposition of a complete hand into sets and a pair (and the special forms).

:func:`decompose` lists every distinct way a complete hand splits into its winning form; the
set + pair search runs in the Cython kernel :mod:`mjfast._kernels._decompose` (standard form
and 组合龙), the special forms are small enumerations here.  :func:`decompose_counts` is the
rule-free, count-vector level used by scorers.

Model
-----
The hand is its concealed natural tiles ``c`` (34 counts, the winning tile included), its
called melds and ``w`` wildcards.  A decomposition fixes the *faces* ``F`` of the concealed
part (what every tile, natural or wild, is read as); it is valid when ``F >= c`` kind by kind
and the surplus ``F - c`` (``w`` tiles, :attr:`Decomposition.wild_tiles`) lies on kinds the rule
plays.  A wildcard may stand for any playable kind, a fifth copy included.  Two decompositions
are the same when their form, groups and wildcard faces are the same.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from . import _bridge
from . import tiles as _t
from ._kernels import _decompose as _k

__all__ = ["Decomposition", "decompose", "decompose_counts", "honour_chows", "WAITS", "SPECIAL_FORMS"]

#: Wait names carried by :attr:`Decomposition.waits`.
WAITS = ("ryanmen", "penchan", "kanchan", "tanki", "shanpon")
#: Forms other than ``"standard"`` that :func:`decompose` can report.
SPECIAL_FORMS = (
    "seven_pairs",
    "thirteen_orphans",
    "thirteen_lan",
    "honors_and_knitted",
    "knitted_straight",
    "nine_terminals",
)

_FB = _bridge.FORM_BITS
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_HONOURS = tuple(range(27, 34))
_ALL_PLAYABLE = np.ones(_t.N_KINDS, np.uint8)
_ALL_PLAYABLE.setflags(write=False)
# 十三浪: per suit, the sets of numbers pairwise >= 3 apart (as number offsets 0..8)
_LAN_SUIT = tuple(
    tuple(x for x in range(9) if mask >> x & 1)
    for mask in range(512)
    if all(b - a >= 3 for a in range(9) for b in range(a + 1, 9) if mask >> a & 1 and mask >> b & 1)
)
_SET_KIND = ("chow", "pung", "kong")


@dataclass(frozen=True)
class Decomposition:
    """One way a complete hand splits into its winning form.

    Attributes
    ----------
    form : str
        ``"standard"``, ``"seven_pairs"``, ``"thirteen_orphans"``, ``"thirteen_lan"`` (十三浪),
        ``"honors_and_knitted"`` (全不靠, 七星不靠 included), ``"knitted_straight"`` (组合龙) or
        ``"nine_terminals"`` (九幺).
    sets : tuple of (str, int, bool)
        ``(kind, first tile id, concealed)`` with kind ``"chow"``, ``"pung"`` or ``"kong"``,
        sorted by first tile then kind.  Called melds are included with ``concealed=False``; a
        concealed kong (暗杠) is a ``"kong"`` with ``concealed=True``.
    pair : int or None
        The pair's kind (standard form, 组合龙, and the doubled kind of 十三幺); None otherwise.
    tiles : tuple of int
        The tiles of a special form that are not in ``sets``/``pair``: 七对 the seven pair kinds
        (a kind twice for four of a kind); 十三幺 the thirteen orphan kinds; 组合龙 the nine
        knitted tiles; 十三浪, 全不靠 and 九幺 all fourteen tiles.  The standard form: the tiles
        of its honour chows, concealed and called, where the rule has them (瑞金: any three
        different winds or dragons; the tiles decide the chows, see :func:`honour_chows`), else
        empty.
    wild_tiles : tuple of int
        The kinds the wildcards stand for, sorted (one entry per wildcard).
    waits : frozenset of str
        The wait types (:data:`WAITS`) this reading gives the winning tile; empty when no
        ``win_tile`` was given.  The winning tile may sit in any concealed group of its kind,
        so one reading can have several waits (``123m 345m``, winning on 3m: ``penchan`` and
        ``ryanmen``).  A winning tile in a pair is ``tanki`` (七对 included), in a concealed
        pung ``shanpon``, in a chow ``ryanmen`` / ``penchan`` / ``kanchan``; a winning tile in
        any other part of a special form (十三幺 included, its pair too, and the knitted tiles
        of 组合龙) has no wait name.  This is :func:`mjfast._reference.decompose.wait_types`.
    """

    form: str
    sets: tuple = ()
    pair: int | None = None
    tiles: tuple = ()
    wild_tiles: tuple = ()
    waits: frozenset = field(default_factory=frozenset)

    @property
    def key(self) -> tuple:
        """``(form, sets, pair, tiles, wild_tiles)``: what makes two readings different."""
        return (self.form, self.sets, self.pair, self.tiles, self.wild_tiles)

    def groups(self) -> list[str]:
        """The reading as mpsz groups, sets first (``["123m", "111z", "55z"]``)."""
        out = []
        for kind, first, concealed in self.sets:
            ts = (first, first + 1, first + 2) if kind == "chow" else (first,) * (4 if kind == "kong" else 3)
            text = _t.to_mpsz(ts)
            if kind == "kong" and concealed:
                text = f"[{text}]"
            out.append(text)
        if self.form == "seven_pairs":
            out += [_t.to_mpsz((k, k)) for k in self.tiles]
        elif self.form == "standard" and self.tiles:
            out += [_t.to_mpsz(chow) for chow in honour_chows(self.tiles)]
        elif self.tiles:
            out.append(_t.to_mpsz(self.tiles))
        if self.pair is not None:
            out.append(_t.to_mpsz((self.pair, self.pair)))
        return out

    def __str__(self) -> str:
        text = " ".join(self.groups())
        if self.wild_tiles:
            text += " (wild=" + ",".join(_t.CODES[t] for t in self.wild_tiles) + ")"
        if self.waits:
            text += " [" + ",".join(w for w in WAITS if w in self.waits) + "]"
        return text

    def _repr_html_(self) -> str:
        from html import escape

        from ._display import _GAP, tiles_html

        parts = []
        for g in self.groups():
            parts.append(tiles_html(_t.parse_tiles(g.strip("[]")), title=g))
        extra = f" wild={','.join(_t.CODES[t] for t in self.wild_tiles)}" if self.wild_tiles else ""
        waits = f" waits={','.join(w for w in WAITS if w in self.waits)}" if self.waits else ""
        return (
            f"<div class='mjfast-decomposition'><b>{escape(self.form)}</b>{escape(extra + waits)}<br>"
            + _GAP.join(parts)
            + "</div>"
        )


# ---------------------------------------------------------------------------------------------
# count-vector level
def _as_counts(counts) -> np.ndarray:
    if (
        type(counts) is np.ndarray
        and counts.dtype == np.uint8
        and counts.shape == (_t.N_KINDS,)
        and counts.flags.c_contiguous
    ):
        if counts.max() > 4:
            raise ValueError("each count must be between 0 and 4")
        return counts
    c = np.asarray(counts)
    if c.shape != (_t.N_KINDS,) or not np.issubdtype(c.dtype, np.integer):
        raise ValueError(f"counts must be an integer vector of 34 entries, got shape {c.shape}")
    if c.min() < 0 or c.max() > 4:
        raise ValueError("each count must be between 0 and 4")
    return np.ascontiguousarray(c, dtype=np.uint8)


def _kernel_rows(c: np.ndarray, n_sets: int, wilds: int, playable: np.ndarray, forms: int) -> np.ndarray:
    out = np.empty((64, _k.ROW_WIDTH), np.int8)
    n = _k.decompose_kernel(c, n_sets, wilds, playable, forms, out)
    if n > out.shape[0]:
        out = np.empty((n, _k.ROW_WIDTH), np.int8)
        n = _k.decompose_kernel(c, n_sets, wilds, playable, forms, out)
    return out[:n]


def _seven_pairs(c, w, playable, distinct):
    hi = 1 if distinct else 2
    lo = [(x + 1) >> 1 for x in c]
    if max(lo) > hi or sum(lo) > 7:
        return []
    if any(2 * lo[i] > c[i] and not playable[i] for i in range(34)):
        return []
    extra = 7 - sum(lo)
    room = [i for i in range(34) if playable[i] and lo[i] < hi]
    res = []
    for add in itertools.combinations_with_replacement(room, extra):
        m = list(lo)
        for i in add:
            m[i] += 1
        if max(m) > hi:
            continue
        pairs = tuple(i for i in range(34) for _ in range(m[i]))
        wild = tuple(i for i in range(34) for _ in range(2 * m[i] - c[i]))
        res.append(("seven_pairs", (), None, pairs, wild))
    return res


def _faces_ok(faces, c, playable) -> tuple | None:
    """The wildcard faces ``faces - c`` if ``faces`` covers ``c`` on playable kinds, else None."""
    wild = []
    for i in range(34):
        d = faces[i] - c[i]
        if d < 0 or (d > 0 and not playable[i]):
            return None
        wild += [i] * d
    return tuple(wild)


def _thirteen_orphans(c, w, playable):
    if sum(c[i] for i in _ORPHANS) != 14 - w or max(c) > 2:
        return []
    res = []
    for d in _ORPHANS:
        f = [0] * 34
        for i in _ORPHANS:
            f[i] = 1
        f[d] = 2
        wild = _faces_ok(f, c, playable)
        if wild is not None:
            res.append(("thirteen_orphans", (), d, _ORPHANS, wild))
    return res


def _distinct_faces(form, c, playable, choices):
    """Readings whose faces are one each of a 14-kind set from ``choices`` (must cover ``c``)."""
    res = []
    for kinds in choices:
        f = [0] * 34
        for i in kinds:
            f[i] = 1
        wild = _faces_ok(f, c, playable)
        if wild is not None:
            res.append((form, (), None, tuple(sorted(kinds)), wild))
    return res


def _lan_choices(c, strict):
    if max(c) > 1:
        return
    per_suit = []
    for s in range(3):
        held = {x for x in range(9) if c[9 * s + x]}
        opts = [
            tuple(9 * s + x for x in sub) for sub in _LAN_SUIT if held <= set(sub) and (not strict or len(sub) == 3)
        ]
        per_suit.append(opts)
    held_h = [i for i in _HONOURS if c[i]]
    free_h = [i for i in _HONOURS if not c[i]]
    for a, b, d in itertools.product(*per_suit):
        n_h = 14 - len(a) - len(b) - len(d)
        if n_h < len(held_h) or n_h > 7 or (strict and n_h != 5):
            continue
        for more in itertools.combinations(free_h, n_h - len(held_h)):
            yield a + b + d + tuple(held_h) + more


def _knitted_choices(c):
    if max(c) > 1:
        return
    for layout in _k.KNITTED_LAYOUTS:
        pool = layout + _HONOURS
        if any(c[i] for i in range(34) if i not in pool):
            continue
        droppable = [i for i in pool if not c[i]]
        for drop in itertools.combinations(droppable, 2):
            yield tuple(i for i in pool if i not in drop)


def _nine_terminals(c, w, playable):
    if any(c[i] for i in range(34) if i not in _ORPHANS):
        return []
    base = tuple(i for i in _ORPHANS for _ in range(int(c[i])))
    res = []
    for wild in itertools.combinations_with_replacement([i for i in _ORPHANS if playable[i]], w):
        res.append(("nine_terminals", (), None, tuple(sorted(base + wild)), wild))
    return res


_SET_OF_CODE = tuple(
    ("chow", t) if t < _k.PUNG_OFFSET else ("pung", t - _k.PUNG_OFFSET) for t in range(_k.PUNG_OFFSET + _t.N_KINDS)
)
_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)
# kernel code - HONOUR_CHOW_OFFSET -> the chow's tiles (the wind chows without wind j, the dragons)
_HONOUR_CHOW_TILES = tuple(tuple(k for k in _WINDS if k != 27 + j) for j in range(4)) + (_DRAGONS,)


def honour_chows(tiles) -> list[tuple[int, ...]]:
    """The honour chows whose tiles are ``tiles`` (the :attr:`Decomposition.tiles` of a
    standard reading), sorted: with ``X`` chows in a group, a kind held ``u`` times is left out
    of ``X - u`` of them, so the tiles decide the chows.

    Examples
    --------
    >>> [_t.to_mpsz(c) for c in honour_chows((27, 27, 28, 28, 29, 30, 31, 32, 33))]
    ['123z', '124z', '567z']
    """
    tiles = list(tiles)
    out: list[tuple[int, ...]] = []
    for group in (_WINDS, _DRAGONS):
        u = [tiles.count(k) for k in group]
        if sum(u) % 3 or (sum(u) and len(group) == 3 and len(set(u)) > 1):
            raise ValueError(f"{_t.to_mpsz(tiles)} are not the tiles of honour chows")
        x = sum(u) // 3
        omit = [x - v for v in u]
        if min(omit) < 0:
            raise ValueError(f"{_t.to_mpsz(tiles)} are not the tiles of honour chows")
        if len(group) == 3:
            out += [group] * x
        else:
            out += sorted(tuple(k for k in group if k != group[j]) for j in range(4) for _ in range(omit[j]))
    return out


def _rows_to_tuples(rows: np.ndarray) -> list[tuple]:
    """Kernel rows -> ``(form, sets, pair, tiles, wild_tiles)``.

    The kernel emits sets by first tile, chows before the pung of the same tile, which is
    already the canonical order.
    """
    out = []
    for row in rows.tolist():
        form = "standard" if row[0] == _k.FORM_STANDARD else "knitted_straight"
        sets = tuple(_SET_OF_CODE[x] for x in row[1:5] if 0 <= x < _k.HONOUR_CHOW_OFFSET)
        tiles = _k.KNITTED_LAYOUTS[row[6]] if row[6] >= 0 else ()
        if max(row[1:5]) >= _k.HONOUR_CHOW_OFFSET:
            tiles = tuple(
                sorted(
                    t
                    for x in row[1:5]
                    if x >= _k.HONOUR_CHOW_OFFSET
                    for t in _HONOUR_CHOW_TILES[x - _k.HONOUR_CHOW_OFFSET]
                )
            )
        out.append((form, sets, row[5], tiles, tuple(x for x in row[7:] if x >= 0)))
    return out


def decompose_counts(
    counts,
    n_melds: int = 0,
    wilds: int = 0,
    *,
    forms=None,
    playable=None,
    seven_pairs_distinct: bool = False,
    lan_strict: bool = False,
    honour_chows: bool = False,
) -> list[tuple]:
    """Every reading of the concealed part of a complete hand, as plain tuples.

    Parameters
    ----------
    counts : array_like of int, shape (34,)
        Concealed natural tiles (the winning tile included), 0..4 of each kind.
    n_melds : int, default 0
        Called melds (they only decide which forms can apply: the special forms need none,
        组合龙 at most one, and 3k+2 concealed tiles need k sets).
    wilds : int, default 0
        Wildcards held, 0..8.
    forms : str or iterable of str, optional
        Forms to look for (names as :data:`mjfast._bridge.FORM_BITS`); default standard, seven
        pairs and thirteen orphans.
    playable : array_like of 0/1, shape (34,), optional
        Kinds a wildcard may stand for (default: all).
    seven_pairs_distinct : bool, default False
        七对 needs seven different kinds (otherwise four of a kind counts as two pairs).
    lan_strict : bool, default False
        十三浪 needs exactly three tiles per suit and five honours.
    honour_chows : bool, default False
        Any three different winds and any three different dragons are sets of the standard
        form too (瑞金); their tiles are the reading's ``tiles``.

    Returns
    -------
    list of tuple
        ``(form, sets, pair, tiles, wild_tiles)`` sorted, where ``sets`` is a tuple of
        ``("chow" | "pung", first tile id)`` for the concealed sets only and the other fields
        are as in :class:`Decomposition`.  Empty when the tiles form no allowed reading.

    Raises
    ------
    ValueError
        Bad counts, or a number of tiles that is not ``3k + 2``.

    Examples
    --------
    >>> from mjfast import Hand
    >>> decompose_counts(Hand("111222333m789p11z").counts)[:1]
    [('standard', (('chow', 0), ('chow', 0), ('chow', 0), ('chow', 15)), 27, (), ())]
    >>> decompose_counts(Hand("123m456p124z567z55p").counts, honour_chows=True)
    [('standard', (('chow', 0), ('chow', 12)), 13, (27, 28, 30, 31, 32, 33), ())]
    """
    c = _as_counts(counts)
    if not 0 <= wilds <= _k.MAX_WILDS:
        raise ValueError(f"wilds must be between 0 and {_k.MAX_WILDS}, got {wilds}")
    if not 0 <= n_melds <= 4:
        raise ValueError(f"n_melds must be between 0 and 4, got {n_melds}")
    n = int(c.sum()) + wilds
    if n % 3 != 2 or n + 3 * n_melds > 14:
        raise ValueError(
            f"{n} tiles in hand with {n_melds} melds is not a complete-hand size "
            "(3k+2 tiles, at most 14 counting each meld as 3)"
        )
    bits = _bridge.form_bits(forms, None)
    if playable is None:
        pl = _ALL_PLAYABLE
    else:
        pl = np.ascontiguousarray(np.asarray(playable) != 0, dtype=np.uint8)
        if pl.shape != (_t.N_KINDS,):
            raise ValueError("playable must have 34 entries")
    n_sets = (n - 2) // 3
    kbits = bits & _FB["standard"]
    if kbits and honour_chows:
        kbits |= _k.FORM_HONOUR_CHOWS
    if bits & _FB["knitted_straight"] and n_melds <= 1 and n_sets + n_melds == 4:
        kbits |= _k.FORM_KNITTED_STRAIGHT
    res = _rows_to_tuples(_kernel_rows(c, n_sets, wilds, pl, kbits)) if kbits else []
    if n_melds == 0 and n == 14:
        cl = c.tolist()
        if bits & _FB["seven_pairs"]:
            res += _seven_pairs(cl, wilds, pl, seven_pairs_distinct)
        if bits & _FB["thirteen_orphans"]:
            res += _thirteen_orphans(cl, wilds, pl)
        if bits & _FB["thirteen_lan"]:
            res += _distinct_faces("thirteen_lan", cl, pl, _lan_choices(cl, lan_strict))
        if bits & (_FB["honors_and_knitted"] | _FB["seven_stars"]):
            res += _distinct_faces("honors_and_knitted", cl, pl, _knitted_choices(cl))
        if bits & _FB["nine_terminals"]:
            res += _nine_terminals(cl, wilds, pl)
    if len(res) > 1:
        res = sorted(set(res), key=_sort_key)
    return res


def _sort_key(t):
    form, sets, pair, tiles, wild = t
    return (_bridge.FORM_BITS[form], sets, -1 if pair is None else pair, tiles, wild)


# ---------------------------------------------------------------------------------------------
def _chow_wait(first: int, t: int) -> str:
    if t == first + 1:
        return "kanchan"
    if t == first + 2:
        return "penchan" if first % 9 == 0 else "ryanmen"
    return "penchan" if first % 9 == 6 else "ryanmen"


def _waits(form, sets, pair, tiles, t) -> frozenset:
    out = set()
    for kind, first in sets:
        if kind == "chow" and first <= t <= first + 2:
            out.add(_chow_wait(first, t))
        elif kind == "pung" and first == t:
            out.add("shanpon")
    if (pair == t and form != "thirteen_orphans") or (form == "seven_pairs" and t in tiles):
        out.add("tanki")
    return frozenset(out)


def _meld_set(m) -> tuple:
    kind = "kong" if m.is_kong else m.kind
    return (kind, m.tiles[0], m.kind == "concealed_kong")


def from_reading(reading, melds=(), win_tile=None) -> Decomposition:
    """Build a :class:`Decomposition` from a raw reading of :func:`decompose_counts`
    (``(form, concealed sets, pair, tiles, wild_tiles)``) and the hand's called melds.

    The concealed sets and the melds are listed together in canonical order; ``waits`` are the
    wait types of ``win_tile`` within the concealed part (empty when it is None).
    """
    form, sets, pair, tiles, wild = reading
    # a called honour chow (瑞金) joins the honour-chow tiles: ``sets`` name a chow by its first tile
    called = tuple(t for m in melds if m.is_honour_chow for t in m.tiles)
    if called:
        tiles = tuple(sorted(tuple(tiles) + called))
    all_sets = tuple(
        sorted(
            [(k, f, True) for k, f in sets] + [_meld_set(m) for m in melds if not m.is_honour_chow],
            key=lambda s: (s[1], _SET_KIND.index(s[0]), s[2]),
        )
    )
    waits = _waits(form, sets, pair, tiles, win_tile) if win_tile is not None else frozenset()
    return Decomposition(form, all_sets, pair, tiles, wild, waits)


def _suits_ok(kr_options: int, faces: np.ndarray) -> bool:
    """缺一门: some suit that may be left empty is empty (melds already narrowed the options)."""
    if not kr_options & _bridge.OPT_NEED_VOID:
        return True
    return any(kr_options & (_bridge.OPT_VOID_M << s) and not faces[9 * s : 9 * s + 9].any() for s in range(3))


def decompose(hand, *, rule=None, win_tile=None, melds=(), wilds=None, strict: bool = False) -> list[Decomposition]:
    """Every distinct way a complete hand splits into its winning form.

    Parameters
    ----------
    hand : Hand, str, sequence or array
        The hand: concealed tiles with the winning tile, plus called melds and wildcards (a
        :class:`~mjfast.Hand`, or tiles with ``melds=``/``wilds=``).  Any hand of ``3k + 2``
        concealed tiles is accepted, so fragments such as ``"111222333m11z"`` decompose too.
    rule : str or Rule, optional
        Picks the forms (十三浪, 全不靠, 组合龙, 九幺 only for rules that list them), the seven
        pairs reading (four of a kind as two pairs or not), 十三浪's strictness, 缺一门, and the
        kinds a wildcard may stand for.  Without a rule: standard, seven pairs and thirteen
        orphans over all 34 kinds, and wildcards are accepted.
    win_tile : int or str, optional
        The winning tile (a concealed tile of the hand).  When given, every decomposition
        carries its wait types in :attr:`Decomposition.waits`.
    melds, wilds
        Called melds and wildcards when ``hand`` is not a :class:`~mjfast.Hand`.
    strict : bool, default False
        Raise instead of returning an empty list when the hand is not complete.

    Returns
    -------
    list of Decomposition
        One entry per distinct reading (form, sets, pair, special tiles, wildcard faces), with
        all its waits in one frozenset; sorted by form (standard first), then sets.  Empty when
        the hand is not complete under the rule (unless ``strict``).  In Jupyter the list shows
        each reading as sets of tiles.

    Raises
    ------
    ValueError
        Unparseable tiles, a concealed tile count that is not ``3k + 2``, a kind or wildcard
        the rule does not allow, a ``win_tile`` the hand does not hold, or (``strict=True``)
        a hand that is not complete.

    Examples
    --------
    >>> from mjfast.decomposition import decompose
    >>> for d in decompose("111222333m789p11z"):
    ...     print(d)
    123m 123m 123m 789p 11z
    111m 222m 333m 789p 11z
    >>> [str(d) for d in decompose("112233m445566p77s")]
    ['123m 123m 456p 456p 77s', '11m 22m 33m 44p 55p 66p 77s']
    >>> [str(d) for d in decompose("13m456p789s11z", melds=["555z"], win_tile="3m", wilds=1)]
    ['123m 456p 789s 555z 11z (wild=2m) [penchan]']
    >>> [sorted(d.waits) for d in decompose("123345m456p789s11z", win_tile="3m")]
    [['penchan', 'ryanmen']]
    >>> decompose("123m456p789s12344z")
    []
    >>> [str(d) for d in decompose("123m456p124z567z55p", rule="ruijin")]   # honour chows
    ['123m 456p 124z 567z 55p']
    """
    from ._inputs import as_hand, prepare

    h = as_hand(hand, melds=melds, wilds=wilds)
    if h.n_tiles % 3 != 2:
        raise ValueError(
            f"a complete hand holds 3k+2 tiles besides its melds; got {h.n_tiles} "
            f"({h.n_melds} meld{'' if h.n_melds == 1 else 's'})"
        )
    kr, caps, options = prepare(h, rule)
    if h.wilds > _k.MAX_WILDS:
        raise ValueError(f"at most {_k.MAX_WILDS} wildcards are supported")
    t_win = None
    if win_tile is not None:
        t_win = _t.parse_tile(win_tile)
        if t_win >= _t.N_KINDS or h.counts[t_win] == 0:
            raise ValueError(f"win_tile {_t.CODES[t_win]} is not among the hand's concealed tiles")
    names = [f for f, b in _FB.items() if kr.forms & b and f != "seven_stars"]
    raw = decompose_counts(
        h.counts,
        h.n_melds,
        h.wilds,
        forms=names,
        playable=kr.playable,
        seven_pairs_distinct=bool(options & _bridge.OPT_PAIRS_DISTINCT),
        lan_strict=bool(options & _bridge.OPT_LAN_STRICT),
        honour_chows=bool(options & _bridge.OPT_HONOUR_CHOWS),
    )
    out = []
    for reading in raw:
        if options & _bridge.OPT_NEED_VOID:
            faces = h.counts.astype(np.int16) + np.bincount(np.asarray(reading[4], np.intp), minlength=34)
            if not _suits_ok(options, faces):
                continue
        out.append(from_reading(reading, h.melds, t_win))
    if strict and not out:
        raise ValueError("hand is not complete")
    from ._display import Readings  # a list that Jupyter shows as sets of tiles

    return Readings(out)
