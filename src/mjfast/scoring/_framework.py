"""The scorer framework: a rule's scorer declared as an element table plus a few hooks.

A regional scorer is a :class:`Scheme`: its **elements** (code, 中文, English, value, scope,
exclusion group, predicate), the checks of a context, the legality test (the rule's minimum), the
ranking of readings and the settlement.  :meth:`Scheme.register` plugs it into
:func:`mjfast.score` / :func:`mjfast.can_win`; per resolved Rule and scorer keywords it is bound
once (:class:`Bound`): element values resolved from the rule's options, the element list split by
scope.

Evaluation
----------
The hand-level facts of a context (counts, melds, flowers, suits, honours …, plus whatever the
rule's ``facts`` hook adds) are computed once into a :class:`Facts` object.  Elements of scope
``"hand"`` or ``"context"`` are evaluated on it once; elements of scope ``"reading"`` once per
reading, after the reading's facts (``form``, ``sets``, ``pair``, ``pungs``, ``chows``,
``honour_pungs`` …) were set on the same object.  Each element's predicate returns its count
(0 or False: absent).  Of the present elements of one exclusion ``group`` only the highest value
stays (the first listed on a tie).  The present elements, in table order, are the rows of
:attr:`~mjfast.Score.rows`; the total is those rows replayed (``add``, ``multiply``, ``cap``,
``replace``), so the rows always replay to the total.  The rule's ``key`` ranks the readings
(by default: legal first, then the total); the first reading of the best key is scored.

A rule whose elements are found together by one search instead (国标 and JJ: the compiled MCR
fan search applies the 不计 principles and chooses the reading itself) declares the same table
and a ``search`` hook: no predicate is evaluated, the rows are the table's rows of the elements
the search found, and the total is the search's own under the declared values, or the rows
replayed when a :func:`~mjfast.rules.variant` changed them.

The shortcut
------------
Listing every reading of a hand is what makes scoring slow, and for a hand without wildcards it
is rarely needed: every standard reading of such a hand is one of a few **classes** — all
pungs (at most one reading, known from the counts), all chows, mixed — and a seven-pairs reading
is unique.  Within a class, the facts most elements read are the same for every reading: the
honour pungs and the honour pair (honours never form chows), the suits, the melds.  The framework
evaluates the element table once per class, with the facts a class does not fix (``sets``,
``pair``, and ``chows`` until some element asks for it) *left unset*: a predicate or legality
test that reads one raises AttributeError, and the hand is then evaluated reading by reading.
A class whose existence is not known cheaply (mixed, when an all-pungs or all-chows reading
exists) is only looked at when it could beat the best class that exists; when it could, or when
two classes tie on the key with different rows, the readings decide.  So the shortcut gives
exactly what the reading-by-reading evaluation gives (``tests/scoring/test_scoring_shortcuts.py``
compares the two on random hands under every option), and it holds for every element table a
rule or a :func:`~mjfast.rules.variant` declares, not just for the built-in values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _bridge
from .._kernels import _shanten as _ks
from ..decomposition import decompose_counts, from_reading
from . import _shortcuts
from ._core import HOW, NotComplete, Score, WinContext, register

__all__ = ["Element", "Facts", "Scheme", "Bound", "SCOPES", "positive_int", "pay_discarder", "pay_all", "pay_one"]

#: When an element's predicate is evaluated: once per hand (``hand``: tiles and melds;
#: ``context``: how the hand was won) or once per reading (``reading``).
SCOPES = ("hand", "context", "reading")
_MULT_UNIT = "倍"
_CAP4 = _shortcuts._CAP4
_ALL_KINDS = _shortcuts.ALL_KINDS
_EMPTY_SUIT = bytes(9)
_NO_HONOURS = bytes(7)


class Element:
    """One scoring element of a rule: a row of :attr:`~mjfast.Score.rows` when present.

    Parameters
    ----------
    code : str
        Snake-case id, unique in the table (the ``code`` column; :func:`mjfast.rules.variant`
        keys its ``values`` and ``elements`` by it).
    zh, en : str
        Chinese and English names.
    value : int or callable
        Value per unit: added ``count`` times (``how="add"``), the factor (``"multiply"``), the
        cap (``"cap"``) or the replacing total (``"replace"``).  A callable ``value(options,
        keywords)`` is resolved once per rule (its options) and scorer keywords; it returns None
        where the element does not exist under those options.
    predicate : str or callable
        The element's count, 0 or False when absent (True = 1): a Python expression over the
        facts ``f`` (and, for a reading-scope element, ``got`` and ``sums``: :attr:`Facts.got`,
        :attr:`Facts.sums`), compiled into the scorer (the fast form, and one that pickles), or
        a callable ``predicate(facts)``.
    scope : {"reading", "hand", "context"}, default "reading"
        What the predicate reads: only hand-level facts and the context (``hand``,
        ``context``: evaluated once), or also the reading's (evaluated per reading).
    group : str, optional
        Exclusion group: of its present elements only the highest value stays (the first listed
        on a tie).  A predicate of a later element sees the group as resolved so far in
        :attr:`Facts.got`.
    how : {"add", "multiply", "cap", "replace"}, default "add"
    unit : str, optional
        The row's unit (default: the rule's unit; ``倍`` for a multiplier).
    tag : str, optional
        Elements of one tag have their row values summed in :attr:`Facts.sums` (e.g. the 花 that
        count towards 苏州's minimum) as they are found, for later predicates and the legality
        test.
    excludes : tuple of str, default ()
        Tags whose elements are dropped when this one is present (广东's special hands take no
        within-cap element).

    Examples
    --------
    >>> e = Element("full_flush", "清一色", "Full flush", 10, lambda f: f.one_suit and not f.honours)
    >>> e.code, e.how, e.scope
    ('full_flush', 'add', 'reading')
    """

    __slots__ = ("code", "zh", "en", "value", "predicate", "scope", "group", "how", "unit", "tag", "excludes")

    def __init__(
        self,
        code: str,
        zh: str,
        en: str,
        value,
        predicate: str | Callable,
        *,
        scope: str = "reading",
        group: str | None = None,
        how: str = "add",
        unit: str | None = None,
        tag: str | None = None,
        excludes: tuple = (),
    ):
        if not isinstance(code, str) or not code.isidentifier():
            raise ValueError(f"an element code is a snake-case identifier, got {code!r}")
        for what, v in (("zh", zh), ("en", en)):
            if not isinstance(v, str) or not v:
                raise ValueError(f"element {code!r}: {what} must be a non-empty string, got {v!r}")
        if not (callable(value) or (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)))):
            raise ValueError(
                f"element {code!r}: value must be an integer or a callable value(options, keywords), got {value!r}"
            )
        if isinstance(predicate, str):
            try:
                compile(predicate, f"<predicate of {code}>", "eval")
            except SyntaxError as e:
                raise ValueError(
                    f"element {code!r}: predicate {predicate!r} is not a Python expression ({e.msg})"
                ) from None
        elif not callable(predicate):
            raise ValueError(
                f"element {code!r}: predicate must be an expression over the facts "
                f"f or a callable predicate(facts), got {predicate!r}"
            )
        if scope not in SCOPES:
            raise ValueError(f"element {code!r}: scope must be one of {', '.join(SCOPES)}, got {scope!r}")
        if how not in HOW:
            raise ValueError(f"element {code!r}: how must be one of {', '.join(HOW)}, got {how!r}")
        self.code, self.zh, self.en = code, zh, en
        self.value = value if callable(value) else int(value)
        self.predicate = predicate
        self.scope, self.group, self.how, self.tag = scope, group, how, tag
        self.unit = unit
        self.excludes = tuple(excludes)

    def replace(self, **changes) -> Element:
        """A copy with some fields changed (``value=20``)."""
        kw = {k: getattr(self, k) for k in self.__slots__}
        kw.update(changes)
        return Element(kw.pop("code"), kw.pop("zh"), kw.pop("en"), kw.pop("value"), kw.pop("predicate"), **kw)

    def __repr__(self) -> str:
        v = self.value if not callable(self.value) else "<per option>"
        return f"Element({self.code!r}, {self.zh!r}, value={v}, scope={self.scope!r}, how={self.how!r})"

    def __reduce__(self):
        return (_element, (tuple(getattr(self, k) for k in self.__slots__),))


class _Override:
    """A changed value of an element whose value depends on the options: the new value where
    the element exists (``base`` is not None), absent where it did not."""

    __slots__ = ("base", "value")

    def __init__(self, base, value: int):
        self.base, self.value = base, value

    def __call__(self, options, keywords):
        return None if self.base(options, keywords) is None else self.value

    def __eq__(self, other):
        return type(other) is _Override and (self.base, self.value) == (other.base, other.value)

    def __hash__(self):
        return hash((_Override, self.value))

    def __reduce__(self):
        return (_Override, (self.base, self.value))


def _element(fields):
    code, zh, en, value, predicate, scope, group, how, unit, tag, excludes = fields
    return Element(
        code, zh, en, value, predicate, scope=scope, group=group, how=how, unit=unit, tag=tag, excludes=excludes
    )


# ---------------------------------------------------------------------------------------------
# facts
#: Facts a reading sets (unset between readings; a class leaves the ones it does not fix unset).
READING_FACTS = (
    "form",
    "sets",
    "pair",
    "tiles",
    "wild_tiles",
    "pungs",
    "chows",
    "conc_pungs",
    "honour_pungs",
    "honour_pair",
)


class _Slotted:
    """The attributes of its subclasses are slots set per context and per reading (and by a
    rule's own subclass), read by predicates compiled from expressions: typed as Any."""

    __slots__ = ()

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...


class Facts(_Slotted):
    """What element predicates read: the context, hand-level facts and the current reading's.

    Hand level (set once per context): ``ctx``, ``hand``, ``rule``, ``opts`` (the rule's
    options), ``kw`` (the scorer keywords), ``c`` (the concealed counts as ``bytes``),
    ``counts`` (the same as an array), ``melds``, ``n_melds``, ``concealed`` (no claimed meld),
    ``wilds``, ``flowers`` (bonus tiles held), ``win`` (the winning tile), ``self_draw``,
    ``chow_melds`` (some called chow), ``n_kongs``; the faces, natural tiles and melds (a
    reading with wildcards sets them again with its wildcard faces): ``suits`` (bit *s* = suit
    *s* present), ``one_suit``, ``honours``, ``winds``, ``dragons``.

    Reading level: ``form`` (``"standard"``, ``"seven_pairs"`` …), ``sets`` (the concealed sets
    ``(kind, first tile)``), ``pair``, ``tiles`` (a special form's tiles), ``wild_tiles``,
    ``pungs`` (every set of the hand, melds included, is a pung or kong), ``chows`` (every set is
    a chow), ``conc_pungs`` (every concealed set is a pung), ``honour_pungs`` (the concealed
    honour pungs' kinds), ``honour_pair`` (the pair's kind when it is an honour, else None).

    During evaluation: ``got`` (code -> count of the elements found so far) and ``sums`` (tag ->
    summed row value).  A rule's ``facts`` hook may set more, on a subclass with its own
    ``__slots__``.
    """

    __slots__ = (
        "ctx",
        "hand",
        "rule",
        "opts",
        "kw",
        "c",
        "counts",
        "melds",
        "n_melds",
        "concealed",
        "wilds",
        "flowers",
        "win",
        "self_draw",
        "chow_melds",
        "n_kongs",
        "suits",
        "one_suit",
        "honours",
        "winds",
        "dragons",
        "got",
        "sums",
        "_unfixed",
        "_faced",
        *READING_FACTS,
    )


def _faces(f: Facts, c: bytes, melds) -> None:
    """The face facts of concealed counts ``c`` (bytes) and ``melds``."""
    # one int of the 34 counts, tested against byte masks: no slice is allocated
    x = int.from_bytes(c, "little")
    suits = bool(x & _M0) | bool(x & _M1) << 1 | bool(x & _M2) << 2
    winds = x & _MW != 0
    dragons = x & _MD != 0
    for m in melds:
        t = m.tiles[0]
        if t < 27:
            suits |= 1 << t // 9
        elif t < 31:
            winds = True
        else:
            dragons = True
    f.suits = suits
    f.one_suit = suits == 1 or suits == 2 or suits == 4
    f.winds = winds
    f.dragons = dragons
    f.honours = winds or dragons
    f._faced = True


def _byte_mask(lo: int, hi: int) -> int:
    """The bits of bytes ``lo..hi-1`` of a little-endian int of the 34 counts."""
    return ((1 << 8 * (hi - lo)) - 1) << 8 * lo


_M0, _M1, _M2 = _byte_mask(0, 9), _byte_mask(9, 18), _byte_mask(18, 27)
_MW, _MD, _MH = _byte_mask(27, 31), _byte_mask(31, 34), _byte_mask(27, 34)


def faces(f: Facts) -> None:
    """Make sure the face facts (``suits``, ``one_suit``, ``winds``, ``dragons``,
    ``honours``) of the natural tiles and melds are set (a rule's ``hand_facts`` hook that
    reads them calls this first)."""
    if not f._faced:
        _faces(f, f.c, f.melds)


def hand_facts(f: Facts, ctx: WinContext) -> None:
    """Set the hand-level facts of ``ctx`` on ``f`` (the faces, ``suits`` …, are set by
    :func:`_faces` before the elements are evaluated: :func:`~mjfast.can_win` often answers
    without them)."""
    h = ctx.hand
    f._unfixed = True  # sets, pair and chows are not set
    f._faced = False
    f.ctx = ctx
    f.hand = h
    counts = h._counts
    c = counts.tobytes()
    f.c = c
    f.counts = counts
    melds = h._melds
    f.melds = melds
    f.n_melds = len(melds)
    f.wilds = h._wilds
    f.flowers = len(h._bonus)
    f.win = ctx.win_tile
    f.self_draw = ctx.self_draw
    if melds:
        chow = conc = kongs = 0
        for m in melds:
            k = m.kind
            if k == "chow":
                chow = 1
            elif k == "concealed_kong":
                kongs += 1
                conc += 1
            elif k != "pung":
                kongs += 1
        f.chow_melds = bool(chow)
        f.n_kongs = kongs
        f.concealed = conc == len(melds)
    else:
        f.chow_melds = False
        f.n_kongs = 0
        f.concealed = True


def _set_reading(f: Facts, reading, melds, faces_again: bool) -> None:
    """Set the facts of a raw reading ``(form, sets, pair, tiles, wild_tiles)``."""
    form, sets, pair, tiles, wild = reading
    f._unfixed = False
    f.form = form
    f.sets = sets
    f.pair = pair
    f.tiles = tiles
    f.wild_tiles = wild
    if form == "standard":
        pungs = chows = True
        hp = []
        for k, t in sets:
            if k == "pung":
                chows = False
                if t >= 27:
                    hp.append(t)
            else:
                pungs = False
        f.conc_pungs = pungs
        if melds:
            for m in melds:
                if m.kind == "chow":
                    pungs = False
                else:
                    chows = False
        f.pungs = pungs
        f.chows = chows
        f.honour_pungs = tuple(hp)
        f.honour_pair = pair if pair is not None and pair >= 27 else None
    else:
        f.pungs = f.chows = f.conc_pungs = False
        f.honour_pungs = ()
        f.honour_pair = None
    if faces_again:
        if wild:
            c = bytearray(f.c)
            for t in wild:
                c[t] += 1
            _faces(f, bytes(c), melds)
        else:
            _faces(f, f.c, melds)


def _positions(c: bytes, x: int, start: int) -> tuple:
    """The kinds from ``start`` on held exactly ``x`` times."""
    out = []
    i = c.find(x, start)
    while i >= 0:
        out.append(i)
        i = c.find(x, i + 1)
    return tuple(out)


# reading classes of a complete hand without wildcards
_PUNGS, _CHOWS, _MIXED, _SEVEN = "all pungs", "all chows", "mixed", "seven pairs"


def _set_class(f: Facts, cls: str, chows_known: bool) -> None:
    c = f.c
    melds = f.melds
    if cls == _SEVEN:
        f._unfixed = False
        f.form = "seven_pairs"
        f.sets = ()
        f.pair = None
        f.tiles = tuple(t for t in range(34) for _ in range(c[t] // 2))
        f.wild_tiles = ()
        f.pungs = f.chows = f.conc_pungs = False
        f.honour_pungs = ()
        f.honour_pair = None
        return
    f.form = "standard"
    f.tiles = ()
    f.wild_tiles = ()
    if c[27:] != _NO_HONOURS:  # honours never chow: a 3 is a pung, a 2 the pair
        hp = _positions(c, 3, 27)
        i = c.find(2, 27)
        f.honour_pair = i if i >= 0 else None
    else:
        hp = ()
        f.honour_pair = None
    if cls == _PUNGS:  # the concealed sets are pungs (none with four melds)
        sets = tuple(("pung", t) for t in _positions(c, 3, 0))
        f.sets = sets
        f.pair = c.find(2)
        f.pungs = not f.chow_melds
        f.conc_pungs = True
        f.chows = not sets and all(m.kind == "chow" for m in melds)
        f.honour_pungs = hp
        f._unfixed = False
        return
    if not f._unfixed:  # sets, pair and chows unset: this class does not fix them
        del f.sets, f.pair, f.chows
        f._unfixed = True
    f.pungs = f.conc_pungs = False
    if cls == _CHOWS:
        f.chows = all(m.kind == "chow" for m in melds)
        f.honour_pungs = ()
    else:
        f.honour_pungs = hp
        if chows_known:
            f.chows = False


def chows_and_pair(c: bytes) -> bool:
    """The concealed counts ``c`` split into chows and one pair (some reading is all chows)."""
    x = list(c)
    pair_suit = None
    for t in range(27, 34):
        if x[t]:
            if x[t] != 2 or pair_suit is not None:
                return False
            pair_suit = 3  # an honour pair
    sums = [sum(x[9 * s : 9 * s + 9]) % 3 for s in range(3)]
    for s in range(3):
        if sums[s] == 1 or (sums[s] == 2 and pair_suit is not None):
            return False
        if sums[s] == 2:
            pair_suit = s
    if pair_suit is None:
        return False
    if pair_suit == 3:
        return all(_chows_only(x, 9 * s) for s in range(3))
    for s in range(3):
        if s != pair_suit and not _chows_only(x, 9 * s):
            return False
    o = 9 * pair_suit
    for p in range(o, o + 9):
        if x[p] >= 2:
            y = x[:]
            y[p] -= 2
            if _chows_only(y, o):
                return True
    return False


def _chows_only(x: list, o: int) -> bool:
    """Suit ``o..o+8`` of ``x`` splits into chows (greedy from the lowest tile; ``x`` is
    modified)."""
    for i in range(o, o + 7):
        n = x[i]
        if n:
            if x[i + 1] < n or x[i + 2] < n:
                return False
            x[i + 1] -= n
            x[i + 2] -= n
    return not (x[o + 7] or x[o + 8])


# ---------------------------------------------------------------------------------------------
# helpers the scheme hooks share
def positive_int(value, what: str, zero_ok: bool = False) -> int:
    """``value`` as an int, or a ValueError naming ``what`` (bools and non-integers rejected)."""
    if type(value) is int and (value > 0 or (zero_ok and value == 0)):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < (0 if zero_ok else 1):
        kind = "a non-negative" if zero_ok else "a positive"
        raise ValueError(f"{what} must be {kind} integer, got {value!r}")
    return int(value)


def pay_discarder(ctx: WinContext, amount: int, times: int = 1) -> list:
    """Seat deltas: the discarder (or robbed konger) pays ``times × amount``."""
    assert ctx.discarder is not None  # only a discard (or robbed kong) is paid by one seat
    pay = [0, 0, 0, 0]
    pay[ctx.discarder] = -times * amount
    pay[ctx.winner] = times * amount
    return pay


def pay_all(ctx: WinContext, amount: int, skip=()) -> list:
    """Seat deltas: every other seat (but those in ``skip``) pays ``amount``."""
    pay = [0, 0, 0, 0]
    w = ctx.winner
    for p in range(4):
        if p != w and p not in skip:
            pay[p] = -amount
            pay[w] += amount
    return pay


def pay_one(ctx: WinContext, seat: int, amount: int) -> list:
    """Seat deltas: ``seat`` alone pays ``amount``."""
    pay = [0, 0, 0, 0]
    pay[seat] = -amount
    pay[ctx.winner] = amount
    return pay


_NO_PAYMENT = (0, 0, 0, 0)


# ---------------------------------------------------------------------------------------------
class _Result(_Slotted):
    """One evaluated reading (or class): element counts, total, legality, key; once scored,
    also what the Score's lazy parts read (its ``source``: no closure is built per call)."""

    __slots__ = (
        "got",
        "raw",
        "total",
        "extra",
        "legal",
        "reason",
        "key",
        "reading",
        "cls",
        "facts",
        "bound",
        "ctx",
        "full",
    )

    @property
    def result(self) -> _Result:
        return self

    def __reduce__(self):
        # a Score pickles its source: the rows and the decomposition, read now (the bound
        # scheme holds compiled code, which does not pickle)
        b = self.bound
        return (_Read, (b.rows(self), b.decomposition(self)))


class _Read:
    """An unpickled :class:`_Result`: its rows and decomposition, as read when it was pickled
    (its own ``bound``, for the Score's lazy parts)."""

    __slots__ = ("_rows", "_decomposition")

    def __init__(self, rows, decomposition):
        self._rows, self._decomposition = rows, decomposition

    @property
    def bound(self) -> _Read:
        return self

    def rows(self, r) -> list:
        return list(self._rows)

    def decomposition(self, r):
        return self._decomposition

    def __reduce__(self):
        return (_Read, (self._rows, self._decomposition))


class _Searched:
    """The result of a scheme with a ``search`` hook: the search's ``source`` (``reading``), the
    elements present (``got``: None until the rows are read, when the values are the declared
    ones), total and legality."""

    __slots__ = ("reading", "ctx", "bound", "got", "total")  # (got: unset until the rows are read)
    extra: tuple = ()
    cls = None
    facts = None

    if TYPE_CHECKING:
        # slots set by the framework's closures, read by the rule's hooks: typed as Any

        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...

    @property
    def raw(self):
        return self.total

    @property
    def result(self) -> _Searched:
        return self

    __reduce__ = _Result.__reduce__


def _rows(r: _Result) -> list:
    return r.bound.rows(r)


def _decomposition(r: _Result):
    return r.bound.decomposition(r)


class _Fallback(Exception):
    """The classes cannot decide: evaluate reading by reading."""


class Scheme:
    """A rule's scorer, declared: the element table and the hooks for what the table does not
    say.

    Parameters
    ----------
    name : str
        The rule's registry name.
    elements : sequence of Element
        In row order.
    keywords : dict, optional
        The scorer's keywords and their defaults (``{"base": 5}``); unknown keywords are
        ValueErrors (through :func:`mjfast.score`).
    check_keywords : callable, optional
        ``check_keywords(kw, rule) -> kw``: validate the keywords once per binding (raise
        ValueError) and return them normalised.
    check : callable, optional
        ``check(facts)``: validate the context (``facts.ctx``, against ``facts.rule`` and the
        keywords ``facts.kw`` too), for :func:`~mjfast.score` and :func:`~mjfast.can_win` alike
        (raise ValueError); the hand-level facts are set.
    prepare : callable, optional
        ``prepare(ctx, rule) -> ctx``: a context checked and rewritten before anything else
        (金华's 白板).
    facts : type, default Facts
        The facts class (a subclass adds the rule's own slots).
    hand_facts : callable, optional
        ``hand_facts(f)``: set the rule's own hand-level facts on ``f``.
    exempt : tuple of str or callable, optional
        Element codes whose presence makes a reading a legal win whatever ``legality`` says
        (the patterns exempt from a minimum); a callable ``exempt(options)`` returns them.
    exempt_if : callable, optional
        ``exempt_if(f) -> bool`` on the hand-level facts: the hand is exempt from the minimum
        (苏州's 门清).  With ``exempt``, what lets :func:`~mjfast.can_win` answer before any
        reading is evaluated.
    surely_legal : callable, optional
        ``surely_legal(f, sums) -> bool``: a sufficient condition for some reading to be legal,
        from the hand-level facts and ``sums``, the tag sums of the hand- and context-scope
        elements (a lower bound of every reading's when the tagged values are not negative,
        which the framework checks first): :func:`~mjfast.can_win` answers True on it without
        evaluating a reading (苏州's 花 of the flowers and melds already meeting the minimum).
    hand_legality : bool, default False
        The legality test reads only hand-level facts (四川's 缺一门), so
        :func:`~mjfast.can_win` asks it once the hand is known to be complete, ``result`` None.
    legality : callable, optional
        ``legality(f, result) -> str``: why a reading that is not exempt is not a legal win (""
        when it is); reads ``result.got`` and ``f.sums``.  Default: every complete hand is
        legal.
    key : callable, optional
        ``key(f, result) -> tuple``: how readings rank (the highest is scored).  Default:
        ``(legal, total before the finish rows)``.
    finish : callable, optional
        ``finish(f, result) -> list of rows``: rows appended after the table's (a cap, a floor, a
        settlement row in ``stake`` units); the total replays them too (``stake`` rows excepted).
    settle : callable
        ``settle(bound, ctx, result) -> (points, payments)`` for a legal result (``bound.rule``,
        ``bound.kw``: the rule and the scorer keywords).
    readings : callable, optional
        ``readings(bound, f) -> list of raw readings`` (default: :func:`decompose_counts` with the
        rule's forms and playable kinds, restricted to ``ctx.wild_faces``).
    shortcut : bool, default True
        Try the reading classes (hands without wildcards) before listing readings.
    complete : callable, optional
        ``complete(bound, ctx) -> bool or None`` for :func:`can_win`: whether the hand is complete
        (None: unknown, evaluate).  Default: the shanten kernel on the rule's forms when there
        are no fixed wildcard faces.
    always_legal : bool or callable, default False
        Every complete hand is a legal win, so :func:`can_win` needs no evaluation (a callable
        ``always_legal(bound, ctx)`` decides per rule and context).
    reading_free : callable, optional
        ``reading_free(bound, facts) -> bool``: for a rule whose elements read no reading (瑞金's
        payments depend only on how the hand was won), whether the hand is a win at all (after
        the checks; it may set facts the elements read); the table is then evaluated once,
        without readings.
    playable : callable, optional
        ``playable(rule) -> uint8[34]``: the kinds a wildcard may stand for (default: the rule's,
        through the kernel bridge; 金华's 财神 never an honour, by option).
    minimum_elements : tuple of str, optional
        The element codes (and tags) the legality test reads: :func:`can_win` evaluates only
        those elements (all of them when None).
    not_complete : callable
        ``not_complete(ctx, rule) -> str``: the NotComplete message.
    search : callable, optional
        For a rule whose elements are found together by one search rather than by their
        predicates (国标's compiled fan search, which applies the MCR 不计 principles and picks
        the reading itself): ``search(bound)`` returns the binding's search function (called
        once per rule and keywords), ``fn(ctx, first) -> (source, total, reason)``, or None when
        the hand is not a win.  ``source`` is what the other hooks read (``decomposition``,
        ``found``, ``legality``), ``total`` the total its elements replay to under the values
        the scheme *declares* and ``reason`` why that is not a legal win ("" when it is, or a
        callable ``reason(result)`` giving it); ``first``: :func:`~mjfast.can_win` asks, so any
        legal result will do.
        The framework then evaluates no predicate: the rows are built from the element table
        on demand (``found(bound, source) -> {code: count}`` of the elements present), and
        when a :func:`~mjfast.rules.variant` changed or switched off an element the total is
        the rows replayed under the bound values and ``legality(bound, source, total) -> str``
        says why it is not a legal win.
    found : callable, optional
        With ``search``: the elements present in a search's result (see ``search``).
    """

    def __init__(
        self,
        name: str,
        elements,
        *,
        settle: Callable,
        not_complete: Callable,
        namespace: Mapping | None = None,
        keywords: Mapping | None = None,
        check_keywords: Callable | None = None,
        check: Callable | None = None,
        prepare: Callable | None = None,
        facts: type = Facts,
        hand_facts: Callable | None = None,
        legality: Callable | None = None,
        key: Callable | None = None,
        finish: Callable | None = None,
        readings: Callable | None = None,
        shortcut: bool = True,
        complete: Callable | None = None,
        always_legal: bool | Callable = False,
        minimum_elements: tuple | None = None,
        decomposition: Callable | None = None,
        unit: str | None = None,
        reading_free: Callable | None = None,
        playable: Callable | None = None,
        exempt=(),
        exempt_if: Callable | None = None,
        surely_legal: Callable | None = None,
        hand_legality: bool = False,
        search: Callable | None = None,
        found: Callable | None = None,
    ):
        if (search is None) != (found is None):
            raise ValueError("a scheme's search and found hooks are given together")
        self.name = name
        self.elements = tuple(elements)
        codes = [e.code for e in self.elements]
        dup = sorted({c for c in codes if codes.count(c) > 1})
        if dup:
            raise ValueError(f"element codes must be unique; repeated: {', '.join(dup)}")
        self.namespace = dict(namespace or {})
        self.keywords = dict(keywords or {})
        self.check_keywords = check_keywords
        self.check = check
        self.prepare = prepare
        self.facts = facts
        self.hand_facts = hand_facts
        self.legality = legality
        self.key = key
        self.finish = finish
        self.settle = settle
        self.readings = readings
        self.shortcut = shortcut
        self.complete = complete
        self.always_legal = always_legal
        self.minimum_elements = minimum_elements
        self.not_complete = not_complete
        self.decomposition = decomposition
        self.unit = unit
        self.reading_free = reading_free
        self.playable = playable
        self.exempt = exempt
        self.exempt_if = exempt_if
        self.surely_legal = surely_legal
        self.hand_legality = hand_legality
        self.search = search
        self.found = found
        #: The elements as declared (a derived scheme keeps its base's: the values a search's
        #: total is computed with).
        self.declared = self.elements
        self._bound: dict = {}

    # -- variants ----------------------------------------------------------------------------
    def codes(self) -> tuple:
        """The element codes, in row order."""
        return tuple(e.code for e in self.elements)

    def derive(self, name: str, *, values: Mapping | None = None, elements: Mapping | None = None) -> Scheme:
        """This scheme under another rule name, with element values changed, elements switched
        off (``elements={code: None}``) or added (``elements={code: Element}``, appended in
        the order given, before the multipliers when they add).  A changed value of an element
        whose value depends on the options keeps it absent where it was absent.

        Raises
        ------
        ValueError
            An unknown element code (the message lists the valid ones) or a bad value.
        """
        codes = self.codes()
        els = list(self.elements)
        for code, v in (values or {}).items():
            if code not in codes:
                raise ValueError(f"unknown element {code!r} of rule {self.name!r}; valid elements: {', '.join(codes)}")
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"the value of element {code!r} must be an integer, got {v!r}")
            i = codes.index(code)
            old = els[i].value  # a per-option value keeps existing only where it did
            els[i] = els[i].replace(value=_Override(old, int(v)) if callable(old) else int(v))
        for code, e in (elements or {}).items():
            if e is None:
                if code not in codes:
                    raise ValueError(
                        f"unknown element {code!r} of rule {self.name!r}; valid elements: {', '.join(codes)}"
                    )
                els = [x for x in els if x.code != code]
                continue
            if not isinstance(e, Element):
                raise ValueError(
                    f"elements[{code!r}] must be None (switch it off) or an Element, got {type(e).__name__}"
                )
            if self.search is not None:
                raise ValueError(
                    f"elements[{code!r}]: the elements of rule {self.name!r} are found by its own search "
                    "(no predicate is evaluated), so a variant of it can change values and switch "
                    "elements off (None), not add or replace one"
                )
            if e.code != code:
                raise ValueError(f"elements[{code!r}] is an Element coded {e.code!r}")
            if code in codes:
                els[[x.code for x in els].index(code)] = e
                continue
            at = len(els)
            if e.how == "add":  # before the first multiplier, cap or replacement
                at = next((k for k, x in enumerate(els) if x.how != "add"), len(els))
            els.insert(at, e)
        new = Scheme.__new__(Scheme)
        new.__dict__.update(self.__dict__)
        new.name = name
        new.elements = tuple(els)
        new._bound = {}
        return new

    # -- registration ------------------------------------------------------------------------
    def register(self, replace: bool = False) -> None:
        """Register this scheme's scorer with :func:`mjfast.scoring.register`."""
        register(self.name, self.score_fn(), self.can_win_fn(), bind=self.bind_fn(), replace=replace)

    def _kw(self, options) -> dict:
        unknown = sorted(k for k in options if k not in self.keywords)
        if unknown:  # (score() names the valid options before this is reached)
            raise ValueError(
                f"unknown option(s) {', '.join(unknown)} for rule {self.name!r}; "
                f"valid keywords: {', '.join(self.keywords) or 'none'}"
            )
        kw = dict(self.keywords)
        kw.update(options)
        return kw

    def bound(self, rule, options: Mapping) -> Bound:
        """The scheme bound to a resolved Rule and scorer keywords (cached)."""
        kw = self._kw(options)
        try:
            # each value's type is part of the key: True == 1 and they hash alike, but a
            # keyword check may accept one and reject the other (国标 flowers=True / flowers=1)
            key = (id(rule), tuple(sorted((k, v, type(v)) for k, v in kw.items())))
            hash(key)
        except TypeError:
            return Bound(self, rule, kw)
        hit = self._bound.get(key)
        if hit is not None and hit.rule is rule:
            return hit
        b = Bound(self, rule, kw)
        if len(self._bound) > 256:
            self._bound.clear()
        self._bound[key] = b
        return b

    def score_fn(self):
        keywords = tuple(self.keywords)
        scheme = self

        def scorer(ctx: WinContext, rule, **options) -> Score:
            return scheme.bound(rule, options).score(ctx)

        scorer.__signature__ = _signature(keywords)
        scorer.__name__ = f"score_{self.name}"
        return scorer

    def can_win_fn(self):
        scheme = self

        def can_win(ctx: WinContext, rule, **options) -> bool:
            return scheme.bound(rule, options).can_win(ctx)

        can_win.__signature__ = _signature(tuple(self.keywords))
        can_win.__name__ = f"can_win_{self.name}"
        return can_win

    def bind_fn(self):
        scheme = self

        def bind(rule, **options):
            try:
                b = scheme.bound(rule, options)
            except (ValueError, TypeError):
                return None  # left to the general call, which names the problem
            return b.score, b.can_win

        return bind


def _searched_score(bound, settle, name, unit, ctx, source, t, reason) -> Score:
    """The Score of a search's result (see :class:`Scheme`'s ``search``)."""
    r = _Searched()
    r.reading = source
    r.ctx = ctx
    r.bound = bound
    r.total = t
    if not reason:
        points, pay = settle(bound, ctx, r)
        return Score(name, t, points, pay, True, "", unit, _rows, None, _decomposition, r)
    if type(reason) is not str:
        reason = reason(r)
    return Score(name, t, 0, _NO_PAYMENT, False, reason, unit, _rows, None, _decomposition, r)


def _signature(keywords):
    import inspect

    P = inspect.Parameter
    params = [P("ctx", P.POSITIONAL_OR_KEYWORD), P("rule", P.POSITIONAL_OR_KEYWORD)]
    params += [P(k, P.KEYWORD_ONLY) for k in keywords]
    return inspect.Signature(params)


class Bound:
    """A :class:`Scheme` bound to one resolved Rule and scorer keywords: element values
    resolved, elements split by scope, the forms and playable kinds of the rule."""

    def __init__(self, scheme: Scheme, rule, kw: dict):
        self.scheme = scheme
        self.rule = rule
        if scheme.check_keywords is not None:
            kw = scheme.check_keywords(dict(kw), rule)
        self.kw = kw
        self.name = scheme.name
        self.unit = scheme.unit or rule.unit
        opts = rule.options
        self.opts = dict(opts)  # (a plain dict: the predicates read it on every call)
        els = []
        for e in scheme.elements:
            v = e.value(opts, kw) if callable(e.value) else e.value
            if v is None:
                continue  # not under these options
            unit = e.unit or (_MULT_UNIT if e.how == "multiply" else self.unit)
            els.append(
                (e.code, v, e.predicate, e.scope == "reading", e.group, e.how, e.tag, e.excludes, e.zh, e.en, unit)
            )
        self.elements = tuple(els)
        self.search = scheme.search
        #: A search's total holds as it is: the elements and values are the declared ones.
        self.as_declared = True
        if self.search is not None:
            declared = []
            for e in scheme.declared:
                v = e.value(opts, kw) if callable(e.value) else e.value
                if v is not None:
                    declared.append((e.code, v))
            self.as_declared = declared == [(x[0], x[1]) for x in els]
            # (instance attributes: the bound functions are closures; no predicate is compiled)
            self._search = scheme.search(self)  # type: ignore[misc]
            self._searched = self._searched_fn()
            self.score = self._searched_score()  # type: ignore[method-assign]
            self.can_win = self._searched_can_win()  # type: ignore[method-assign]
            return
        keep = scheme.minimum_elements
        if keep is not None:  # (the exempt patterns are read by the legality test too)
            ex = scheme.exempt(opts) if callable(scheme.exempt) else scheme.exempt
            keep = tuple(keep) + tuple(ex)
        self.min_mask: tuple[bool, ...] | None
        if keep is None:
            self.min_mask = None
        else:  # the elements named, those of their tags, and their groups' other members
            named = [x[0] in keep or (x[6] is not None and x[6] in keep) for x in els]
            groups = {x[4] for x, n in zip(els, named) if n and x[4] is not None}
            self.min_mask = tuple(n or x[4] in groups for x, n in zip(els, named))
        ex = scheme.exempt(opts) if callable(scheme.exempt) else scheme.exempt
        self.exempt = frozenset(c for c in ex if any(x[0] == c for x in els))
        removable_tags = {t for x in els for t in x[7]}
        self.sure_exempt = tuple(
            x[0] for x in els if x[0] in self.exempt and not x[3] and x[4] is None and x[6] not in removable_tags
        )
        self.sure_sums = scheme.surely_legal is not None and all(x[1] >= 0 for x in els if x[6] is not None)
        ns = scheme.namespace
        # whether a reading's predicates read ``chows`` (a callable might: assumed to)
        self.reads_chows: dict[tuple[bool, ...] | None, bool] = {}
        for m in (None, self.min_mask):
            self.reads_chows[m] = any(
                x[3] and (m is None or m[i]) and (callable(x[2]) or "chows" in x[2]) for i, x in enumerate(els)
            )
        self._compiled: dict[tuple[bool, ...] | None, tuple] = {None: _compile(els, None, ns)}
        self._pre_all, self._ev_all = self._compiled[None]
        if self.min_mask is not None:
            self._compiled[self.min_mask] = _compile(els, self.min_mask, ns)
        kr = _bridge.kernel_rule(rule)
        self.kr = kr
        self.play = kr.playable if scheme.playable is None else scheme.playable(rule)
        self.form_names = tuple(fn for fn, b in _bridge.FORM_BITS.items() if kr.forms & b and fn != "seven_stars")
        self.form_bits = kr.forms
        self.seven = bool(kr.forms & _bridge.FORM_BITS["seven_pairs"])
        self.quads_as_two = not (kr.options & _bridge.OPT_PAIRS_DISTINCT)
        self.class_ok = (
            scheme.shortcut
            and scheme.readings is None
            and not kr.forms
            & ~(
                _bridge.FORM_BITS["standard"] | _bridge.FORM_BITS["seven_pairs"] | _bridge.FORM_BITS["thirteen_orphans"]
            )
        )
        self.std_bits = _bridge.FORM_BITS["standard"]

    # -- evaluation --------------------------------------------------------------------------
    def _facts(self, ctx: WinContext) -> Facts:
        f = self.scheme.facts()
        f.rule = self.rule
        f.opts = self.opts
        f.kw = self.kw
        hand_facts(f, ctx)
        if self.scheme.hand_facts is not None:
            self.scheme.hand_facts(f)
        return f

    def _pre(self, f: Facts, mask) -> list:
        """Counts of the hand- and context-scope elements."""
        return (self._pre_all if mask is None else self._compiled[mask][0])(f)

    def _eval(self, f: Facts, pre: list, mask, cls=None) -> _Result:
        """Evaluate the reading (or class ``cls``) whose facts are set on ``f``."""
        got, t = (self._ev_all if mask is None else self._compiled[mask][1])(f, pre)
        r = _Result()
        r.got = got
        r.cls = cls
        r.reading = None
        r.raw = t
        sch = self.scheme
        if sch.finish is not None:
            extra = r.extra = sch.finish(f, r)
            for row in extra:
                if row[5] != "stake":
                    t = _apply(t, row[3], row[6])
        else:
            r.extra = ()
        r.total = t
        if (
            sch.legality is None
            or (sch.exempt_if is not None and sch.exempt_if(f))
            or (self.exempt and not self.exempt.isdisjoint(got))
        ):
            r.reason = ""
            r.legal = True
        else:
            reason = r.reason = sch.legality(f, r)
            r.legal = not reason
        r.key = sch.key(f, r) if sch.key is not None else (r.legal, r.raw)
        return r

    @property
    def _index(self) -> dict:
        idx = self.__dict__.get("_idx")
        if idx is None:
            idx = self.__dict__["_idx"] = {x[0]: i for i, x in enumerate(self.elements)}
        return idx

    def raw_readings(self, f: Facts) -> list:
        """Every reading of the hand (raw tuples), restricted to ``ctx.wild_faces``."""
        sch = self.scheme
        if sch.readings is not None:
            return sch.readings(self, f)
        h = f.hand
        options = self.kr.options
        reads = decompose_counts(
            h.counts,
            h.n_melds,
            h.wilds,
            forms=self.form_names,
            playable=self.play,
            seven_pairs_distinct=bool(options & _bridge.OPT_PAIRS_DISTINCT),
            lan_strict=bool(options & _bridge.OPT_LAN_STRICT),
        )
        faces = f.ctx.wild_faces
        if faces and reads:
            reads = [d for d in reads if _faces_ok(d[4], faces)]
        return reads

    def _full(self, f: Facts, pre: list, mask, legal_only: bool = False) -> _Result:
        """The first reading of the best key, listing the readings (``legal_only``: the first
        legal one)."""
        reads = self.raw_readings(f)
        if not reads:
            raise NotComplete(self.scheme.not_complete(f.ctx, self.rule))
        best: _Result | None = None
        melds = f.melds
        faces_again = f.wilds > 0
        for d in reads:
            _set_reading(f, d, melds, faces_again)
            r = self._eval(f, pre, mask)
            r.reading = d
            r.cls = None
            if legal_only and r.legal:
                return r
            if best is None or r.key > best.key:
                best = r
        assert best is not None  # reads is not empty
        return best

    def _classes(self, f: Facts, pre: list, mask, legal_only: bool):
        """The best class result, or raise _Fallback (see the module docstring); None when the
        hand is not complete in the standard form or as seven pairs.  ``legal_only``: any legal
        result (for can_win), the rows and the ranking aside."""
        h = f.hand
        c = f.c
        std = _ks.shanten_fast(h._counts, f.n_melds, 0, _CAP4, _ALL_KINDS, 1, 0) == -1
        seven = (
            self.seven
            and not f.melds
            and c.count(1) == 0
            and c.count(3) == 0
            and (self.quads_as_two or c.count(4) == 0)
        )
        if not (std or seven):
            return None
        P = std and c.count(2) == 1 and c.count(1) == 0 and c.count(4) == 0  # pungs and a pair
        reads_chows = self.reads_chows[mask]
        if not seven and (P and f.n_melds == 4 or not P and not reads_chows):
            cls = _PUNGS if P else _MIXED  # one class, and it exists
            _set_class(f, cls, P)
            try:
                return self._eval(f, pre, mask, cls)
            except AttributeError as e:
                if getattr(e, "obj", f) is not f:
                    raise
                if P or getattr(e, "name", None) != "chows":
                    raise _Fallback from None
                reads_chows = True
        if not seven and not P and reads_chows:  # all chows or mixed: some reading is either
            try:
                _set_class(f, _MIXED, True)
                mixed = self._eval(f, pre, mask, _MIXED)
                if any(c[t] not in (0, 2) for t in range(27, 34)):
                    return mixed  # (an honour pung: no reading is all chows)
                _set_class(f, _CHOWS, True)
                chows = self._eval(f, pre, mask, _CHOWS)
            except AttributeError as e:
                if getattr(e, "obj", f) is not f:
                    raise
                raise _Fallback from None
            if chows.got == mixed.got:
                return mixed  # (the same element counts: it does not matter which exists)
            if legal_only and mixed.legal and chows.legal:
                return mixed
            if not chows_and_pair(c):
                return mixed
            if chows.key > mixed.key or (legal_only and chows.legal):
                return chows
            raise _Fallback  # whether a mixed reading exists decides
        cands: list[list[Any]] = []  # [result, exists: True / None (not known yet)]
        chows_touched = False
        try:
            if P:
                _set_class(f, _PUNGS, True)
                cands.append([self._eval(f, pre, mask, _PUNGS), True])
            if std and f.n_melds < 4:  # (four melds: the pair is the only reading)
                if reads_chows:
                    chows_touched = True
                else:
                    _set_class(f, _MIXED, False)
                    try:
                        cands.append([self._eval(f, pre, mask, _MIXED), None if P else True])
                    except AttributeError as e:
                        if getattr(e, "name", None) != "chows" or getattr(e, "obj", f) is not f:
                            raise
                        chows_touched = True
            if chows_touched:
                _set_class(f, _MIXED, True)
                cands.append([self._eval(f, pre, mask, _MIXED), None])
                if all(c[t] in (0, 2) for t in range(27, 34)):  # honours only as the pair
                    _set_class(f, _CHOWS, True)
                    cands.append([self._eval(f, pre, mask, _CHOWS), None])
            if seven:
                _set_class(f, _SEVEN, True)
                cands.append([self._eval(f, pre, mask, _SEVEN), True])
        except AttributeError as e:
            if getattr(e, "obj", f) is not f:
                raise
            raise _Fallback from None
        if len(cands) == 1 and cands[0][1] is True:
            return cands[0][0]  # (most hands: one class, known to exist)
        if not legal_only and len(cands) == 2 and cands[0][1] is True and cands[1][1] is None:
            a, b = cands[0][0], cands[1][0]  # all pungs, and a class that may not exist
            if b.key < a.key:
                return a
        chows_exist = None
        while True:
            known = [x[0] for x in cands if x[1] is True]
            if legal_only:
                best = next((r for r in known if r.legal), None)
                if best is not None:
                    return best
                need = next((x for x in cands if x[1] is None and x[0].legal), None)
            else:
                best = max(known, key=_key) if known else None
                need = next(
                    (
                        x
                        for x in cands
                        if x[1] is None
                        and (best is None or x[0].key > best.key or (x[0].key == best.key and x[0].got != best.got))
                    ),
                    None,
                )
            if need is None:
                break
            if need[0].cls == _CHOWS:
                if chows_exist is None:
                    chows_exist = chows_and_pair(c)
                need[1] = chows_exist
            elif chows_touched and not P:  # mixed exists unless every reading is all chows
                if chows_exist is None:
                    chows_exist = chows_and_pair(c)
                if chows_exist:
                    raise _Fallback
                need[1] = True
            else:
                raise _Fallback
        if legal_only:
            return cands[0][0]  # nothing legal (some class exists: the hand is complete)
        if best is None:
            raise _Fallback
        for x in cands:
            if x[1] is True and x[0].key == best.key and x[0].got != best.got:
                raise _Fallback
        return best

    def evaluate(
        self, ctx: WinContext, mask=None, legal_only: bool = False, full: bool = False, f: Facts | None = None, pre=None
    ) -> tuple:
        """``(facts, result, listed)``: the scored result and whether the readings were listed
        (``full=True``: list them, the classes aside).  ``f``, ``pre``: the facts (checked) and
        the hand-scope counts when already computed."""
        if f is None:
            f = self._facts(ctx)
        if pre is None and not f._faced:
            _faces(f, f.c, f.melds)
        sch = self.scheme
        if sch.reading_free is not None:  # (it may set facts the elements read)
            if not sch.reading_free(self, f):
                raise NotComplete(sch.not_complete(ctx, self.rule))
            r = self._eval(f, self._pre(f, mask) if pre is None else pre, mask)
            r.facts = f
            return f, r, False
        if pre is None:
            pre = self._pre(f, mask)
        if self.class_ok and not f.wilds and not full:
            try:
                found = self._classes(f, pre, mask, legal_only)
            except _Fallback:
                found = None
            if found is not None:
                found.facts = f
                return f, found, False
        r = self._full(f, pre, mask, legal_only)
        r.facts = f
        return f, r, True

    def value(self, code: str):
        """The bound value of element ``code`` (None: switched off or absent under the options)."""
        i = self._index.get(code)
        return None if i is None else self.elements[i][1]

    def _searched_fn(self) -> Callable:
        """``searched(ctx, first=False) -> result`` of a scheme with a ``search`` hook (see
        :class:`Scheme`): a closure over this binding, as the hot path of 国标 scoring is."""
        sch = self.scheme
        prepare, search, legality, rule = sch.prepare, self._search, sch.legality, self.rule
        els, index, declared, bound = self.elements, self._index, self.as_declared, self
        not_complete = sch.not_complete

        def searched(ctx: WinContext, first: bool = False):
            """``(source, total, reason)``: the search's source, the total (replayed when a
            variant changed the values) and why it is not a legal win ("" when it is)."""
            if prepare is not None:
                ctx = prepare(ctx, rule)
            hit = search(ctx, first)
            if hit is None:
                raise NotComplete(not_complete(ctx, rule))
            source, t, reason = hit
            if not declared:
                got = bound._found(source)
                t = 0
                for code in sorted(got, key=index.__getitem__):
                    x = els[index[code]]
                    t = _apply(t, x[1] * got[code] if x[5] == "add" else x[1], x[5])
                reason = "" if legality is None else legality(bound, source, t)
            return source, t, reason, ctx

        return searched

    def _found(self, source) -> dict:
        """``{code: count}`` of the bound elements a search found (switched-off ones dropped)."""
        index = self._index
        found = self.scheme.found
        assert found is not None  # (given with the search)
        return {c: n for c, n in found(self, source).items() if n and c in index}

    def check(self, ctx: WinContext) -> tuple:
        """``(ctx, facts)``: the context prepared and checked, and its hand-level facts."""
        sch = self.scheme
        if sch.prepare is not None:
            ctx = sch.prepare(ctx, self.rule)
        f = self._facts(ctx)
        if sch.check is not None:
            sch.check(f)
        return ctx, f

    def _searched_score(self) -> Callable:
        """:meth:`score` of a scheme with a ``search`` hook, as a closure over this binding."""
        settle, name, unit, bound = self.scheme.settle, self.name, self.unit, self
        if not self.as_declared or self.scheme.prepare is not None:
            searched = self._searched

            def score(ctx: WinContext) -> Score:
                source, t, reason, ctx = searched(ctx)
                return _searched_score(bound, settle, name, unit, ctx, source, t, reason)

            return score
        # the hot path (国标 in games and batches): the search gives the total and the reason
        search, not_complete, rule = self._search, self.scheme.not_complete, self.rule

        def score_declared(ctx: WinContext) -> Score:
            hit = search(ctx, False)
            if hit is None:
                raise NotComplete(not_complete(ctx, rule))
            r = _Searched()
            r.reading, t, reason = hit
            r.ctx = ctx
            r.bound = bound
            r.total = t
            if not reason:
                points, pay = settle(bound, ctx, r)
                return Score(name, t, points, pay, True, "", unit, _rows, None, _decomposition, r)
            if type(reason) is not str:
                reason = reason(r)
            return Score(name, t, 0, _NO_PAYMENT, False, reason, unit, _rows, None, _decomposition, r)

        return score_declared

    def _searched_can_win(self) -> Callable:
        """:meth:`can_win` of a scheme with a ``search`` hook, as a closure over this binding."""
        if not self.as_declared or self.scheme.prepare is not None:
            searched = self._searched

            def can_win(ctx: WinContext) -> bool:
                try:
                    return not searched(ctx, True)[2]
                except NotComplete:
                    return False

            return can_win
        search = self._search

        def can_win_declared(ctx: WinContext) -> bool:
            hit = search(ctx, True)
            return hit is not None and not hit[2]

        return can_win_declared

    def score(self, ctx: WinContext) -> Score:
        sch = self.scheme
        if sch.prepare is not None:
            ctx = sch.prepare(ctx, self.rule)
        f = self._facts(ctx)
        if sch.check is not None:
            sch.check(f)
        r = self.evaluate(ctx, f=f)[1]
        r.bound = self
        r.ctx = ctx
        if r.legal:
            points, pay = sch.settle(self, ctx, r)
            return Score(self.name, r.total, points, pay, True, "", self.unit, _rows, None, _decomposition, r)
        return Score(self.name, r.total, 0, _NO_PAYMENT, False, r.reason, self.unit, _rows, None, _decomposition, r)

    def can_win(self, ctx: WinContext) -> bool:
        ctx, f = self.check(ctx)
        sch = self.scheme
        if sch.complete is not None:
            done = sch.complete(self, ctx)
        elif not ctx.wild_faces:
            h = ctx.hand
            done = _shortcuts.complete(h, self.form_bits, self.play) if h.wilds <= 8 else None
            if not done and sch.playable is not None:
                done = None  # the kernel's kinds exclude natural tiles too: only True is exact
        else:
            done = None
        if done is False:
            return False
        if ctx.liable is not None:  # whether the 包 is one the rule has: the settlement says
            try:
                return self.score(ctx).legal
            except NotComplete:
                return False
        mask = self.min_mask
        pre = None
        if done:
            al = sch.always_legal
            if al and (al is True or al(self, ctx)):
                return True
            if sch.exempt_if is not None and sch.exempt_if(f):
                return True
            if sch.hand_legality:
                assert sch.legality is not None  # a hand-level legality test is one that is given
                if not f._faced:
                    _faces(f, f.c, f.melds)
                return not sch.legality(f, None)
            if self.sure_exempt or self.sure_sums:
                if not f._faced:
                    _faces(f, f.c, f.melds)
                pre = self._pre(f, mask)
                split = type(pre) is tuple
                got = pre[0] if split else ()  # (read only when split)
                index = self._index
                for code in self.sure_exempt:  # a hand-level exempt pattern: all readings legal
                    if (code in got) if split else pre[index[code]]:
                        return True
                if self.sure_sums and split:
                    assert sch.surely_legal is not None  # sure_sums is set only with it
                    if sch.surely_legal(f, pre[3]):
                        return True
        try:
            return self.evaluate(ctx, mask, legal_only=True, f=f, pre=pre)[1].legal
        except NotComplete:
            return False

    def summary(self, ctx: WinContext, full: bool = False) -> tuple:
        """``(listed, total, points, payments, legal, reason, rows)`` of a checked context, by
        the classes when they decide (``listed`` False) or reading by reading (``full=True``):
        what the tests compare."""
        if self.search is not None:  # (one search: nothing to list)
            s = self.score(ctx)
            return False, s.total, s.points, s.payments.tolist(), s.legal, s.reason, s.rows
        ctx, f = self.check(ctx)
        _f, r, listed = self.evaluate(ctx, full=full, f=f)
        points, pay = self.scheme.settle(self, ctx, r) if r.legal else (0, _NO_PAYMENT)
        return listed, r.total, points, list(pay), r.legal, r.reason, self.rows(r)

    # -- the lazy parts ----------------------------------------------------------------------
    def rows(self, r: _Result) -> list:
        els = self.elements
        index = self._index
        if getattr(r, "got", None) is None:  # (a search's result: built now)
            r.got = self._found(r.reading)
        out = []
        for code in sorted(r.got, key=index.__getitem__):
            n = r.got[code]
            x = els[index[code]]
            how = x[5]
            out.append((code, x[8], x[9], x[1] * n if how == "add" else x[1], n, x[10], how))
        out.extend(r.extra)
        return out

    def best_reading(self, o: _Result):
        """The raw reading scored (listing the readings when the classes decided)."""
        r = o
        if self.search is not None:
            return r.reading
        if r.reading is None and r.cls is not None:
            f = self._facts(o.ctx)
            if self.scheme.check is not None:
                self.scheme.check(f)  # (it may set per-context facts)
            faces(f)
            pre = self._pre(f, None)
            best = self._full(f, pre, None)
            r.reading = best.reading
        return r.reading

    def decomposition(self, o: _Result):
        if self.scheme.decomposition is not None:
            return self.scheme.decomposition(self, o)
        d = self.best_reading(o)
        return None if d is None else from_reading(d, o.ctx.hand.melds, o.ctx.win_tile)


def _compile(els, mask, namespace) -> tuple:
    """``(pre, evaluate)`` for a resolved element table (the tuples of :class:`Bound`): plain
    Python functions generated once per binding, with the values as constants, so that scoring
    a hand runs straight-line code instead of interpreting the table.

    ``pre(f)`` returns the counts of the hand- and context-scope elements; ``evaluate(f, pre)``
    the present elements ``{code: count}`` in table order (exclusion groups and ``excludes``
    applied, :attr:`Facts.got` / :attr:`Facts.sums` kept up to date for later predicates) and
    the total they replay to.  ``mask``: the elements to look at (None: all)."""
    idx = [i for i in range(len(els)) if mask is None or mask[i]]
    env = dict(namespace)

    def call(i):
        p = els[i][2]
        if isinstance(p, str):
            return f"({p})"
        env[f"P{i}"] = p
        return f"P{i}(f)"

    tags = {els[i][6] for i in idx if els[i][6] is not None}
    hows = [els[i][5] for i in idx]
    first = hows.index("multiply") if "multiply" in hows else len(hows)
    split = (
        all(els[i][4] is None and not els[i][7] for i in idx)
        and all(h == "add" for h in hows[:first])
        and all(h == "multiply" for h in hows[first:])
    )
    if split:
        return _compile_split(els, idx, env, call, tags)
    lines = ["def pre(f):", f"    out = [0] * {len(els)}"]
    for i in idx:
        if not els[i][3]:
            if els[i][2] == "1":
                lines.append(f"    out[{i}] = 1")
            else:
                lines += [f"    n = {call(i)}", "    if n:", f"        out[{i}] = +n"]
    lines.append("    return out")
    removable = set()
    groups: dict[Any, list[int]] = {}
    for i in idx:
        if els[i][4] is not None:
            groups.setdefault(els[i][4], []).append(i)
            removable.add(i)
    excl_tags = {t for i in idx for t in els[i][7]}
    for i in idx:
        if els[i][6] in excl_tags:
            removable.add(i)
    inline = not removable  # nothing is taken back: the total is replayed as it goes
    # what a removed element takes back from the sums: code -> (tag, amount per unit, add?)
    env["TAGV"] = {els[i][0]: (els[i][6], els[i][1], els[i][5] == "add") for i in idx}
    lines += [
        "",
        "def ev(f, pre):",
        "    got = {}",
        "    f.got = got",
        "    sums = {" + ", ".join(f"{t!r}: 0" for t in sorted(tags)) + "}",
        "    f.sums = sums",
        "    t = 0",
    ]
    lines += [f"    g_{k} = None" for k in range(len(groups))]
    gname = {g: k for k, g in enumerate(groups)}
    if not inline:
        lines += [f"    c{i} = 0" for i in idx if i not in removable]

    def times(v):
        return "n" if v == 1 else f"{v} * n"

    def total(i, var):
        v, how = els[i][1], els[i][5]
        return {
            "add": f"t += {v} * {var}" if v != 1 else f"t += {var}",
            "multiply": f"t *= {v} ** {var}" if v != 1 else "pass",
            "cap": f"t = min(t, {v})",
            "replace": f"t = {v}",
        }[how]

    def add(i, ind):
        code, v, _p, _r, _g, how, tag, excludes = els[i][:8]
        out = []
        for tg in excludes:
            for j in idx:
                if els[j][6] == tg:
                    out += [f"{ind}m = got.pop({els[j][0]!r}, 0)"]
                    out += [
                        f"{ind}if m:",
                        f"{ind}    sums[{tg!r}] -= " + (f"{els[j][1]} * m" if els[j][5] == "add" else f"{els[j][1]}"),
                    ]
        out.append(f"{ind}got[{code!r}] = n")
        if inline:
            out.append(f"{ind}{total(i, 'n')}")
        elif i not in removable:
            out.append(f"{ind}c{i} = n")
        if tag is not None:
            out.append(f"{ind}sums[{tag!r}] += {times(v) if how == 'add' else v}")
        return out

    for i in idx:
        code, v, _p, reading, group = els[i][:5]
        if reading:
            lines += [f"    n = {call(i)}", "    if n:", "        n = +n"]
        else:
            lines += [f"    n = pre[{i}]", "    if n:"]
        if group is None:
            lines += add(i, "        ")
        else:
            k = gname[group]
            lines += [
                f"        if g_{k} is None or {v} > TAGV[g_{k}][1]:",
                f"            if g_{k} is not None:",
                f"                m = got.pop(g_{k}, 0)",
                f"                tv = TAGV[g_{k}]",
                "                if m and tv[0] is not None:",
                "                    sums[tv[0]] -= tv[1] * m if tv[2] else tv[1]",
                f"            g_{k} = {code!r}",
            ]
            lines += add(i, "            ")
    if not inline:
        for i in idx:
            code = els[i][0]
            if i in removable:
                lines.append(f"    c{i} = got.get({code!r}, 0)")
            lines += [f"    if c{i}:", f"        {total(i, f'c{i}')}"]
    lines.append("    return got, t")
    exec(compile("\n".join(lines), "<scheme elements>", "exec"), env)
    return env["pre"], env["ev"]


def _compile_split(els, idx, env, call, tags) -> tuple:
    """:func:`_compile` for a table without exclusion groups, caps or replacements whose adds
    all come before its multipliers (苏州, 太仓, 金华, the 瑞金 table): the total is (the sum of
    the adds) × (the product of the factors), so the hand- and context-scope elements are
    summed once per hand (``pre``) and each reading adds only its own.  The readings' elements
    then come after those in :attr:`Facts.got` (the rows put them back in table order)."""
    stags = sorted(tags)
    lines = [
        "def pre(f):",
        "    got = {}",
        "    add = 0",
        "    mult = 1",
        "    sums = {" + ", ".join(f"{t!r}: 0" for t in stags) + "}",
    ]
    for i in idx:
        code, v, _p, reading, _g, how, tag = els[i][:7]
        if reading:
            continue
        if els[i][2] == "1":
            lines += ["    n = 1", "    if 1:"]
        else:
            lines += [f"    n = {call(i)}", "    if n:", "        n = +n"]
        lines.append(f"        got[{code!r}] = n")
        if how == "add":
            lines.append("        add += n" if v == 1 else f"        add += {v} * n")
        elif v != 1:
            lines.append(f"        mult *= {v} ** n")
        if tag is not None:
            lines.append(
                f"        sums[{tag!r}] += " + ("n" if v == 1 else f"{v} * n")
                if how == "add"
                else f"        sums[{tag!r}] += {v}"
            )
    lines.append("    return got, add, mult, sums")
    lines += [
        "",
        "def ev(f, pre):",
        "    got, add, mult, sums = pre",
        "    got = got.copy()",
        "    f.got = got",
        "    sums = sums.copy()" if tags else "",
        "    f.sums = sums",
    ]
    for i in idx:
        code, v, _p, reading, _g, how, tag = els[i][:7]
        if not reading:
            continue
        lines += [f"    n = {call(i)}", "    if n:", "        n = +n", f"        got[{code!r}] = n"]
        if how == "add":
            lines.append("        add += n" if v == 1 else f"        add += {v} * n")
        elif v != 1:
            lines.append(f"        mult *= {v} ** n")
        if tag is not None:
            lines.append(
                f"        sums[{tag!r}] += " + ("n" if v == 1 else f"{v} * n")
                if how == "add"
                else f"        sums[{tag!r}] += {v}"
            )
    lines.append("    return got, add * mult")
    exec(compile("\n".join(x for x in lines if x), "<scheme elements>", "exec"), env)
    return env["pre"], env["ev"]


def _key(r: _Result):
    return r.key


def _apply(t, value, how):
    if how == "add":
        return t + value
    if how == "multiply":
        return t * value
    if how == "cap":
        return min(t, value)
    return value


def _faces_ok(wild: tuple, faces: tuple) -> bool:
    """The reading's wildcard faces include those fixed by ``ctx.wild_faces`` (a sub-multiset)."""
    have = list(wild)
    for x in faces:
        if x not in have:
            return False
        have.remove(x)
    return True


def element_table(scheme: Scheme, rule=None, **keywords) -> Any:
    """The element table of a scheme as a DataFrame (values resolved for ``rule``)."""
    import pandas as pd

    from .. import rules as _rules

    rule = _rules.get(scheme.name) if rule is None else rule
    b = scheme.bound(rule, keywords)
    rows = [
        dict(code=x[0], name_zh=x[8], name_en=x[9], value=x[1], unit=x[10], how=x[5], scope=e.scope, group=x[4])
        for x, e in zip(b.elements, scheme.elements)
    ]
    return pd.DataFrame(rows)
