"""Tile kinds, code tables and the three notations (mpsz, Chinese, Unicode glyphs).

This module is the single place where tile tables live. A tile is a plain ``int``:

* ``0``–``33`` are the 34 playable kinds, in mpsz order: ``1m``–``9m`` (0–8),
  ``1p``–``9p`` (9–17), ``1s``–``9s`` (18–26), ``1z``–``4z`` east/south/west/north
  (27–30), ``5z`` white 白 (31), ``6z`` green 发 (32), ``7z`` red 中 (33).
* ``34``–``47`` are bonus kinds, which never enter the 34-kind count vector:
  ``F1``–``F4`` 春夏秋冬, ``F5``–``F8`` 梅兰竹菊, ``RAT`` 老鼠, ``GOD`` 财神,
  ``CAT`` 猫, ``BOWL`` 聚宝盆, ``BD`` printed 百搭 and ``WB0`` frameless 白板.

Which kinds act as flowers or wildcards is a property of a rule (see
:mod:`mjfast.rules`); this module only names them.

Notation accepted by :func:`parse_tiles`
----------------------------------------
One string may mix the notations below; every token is read on its own.

* **mpsz**: digit runs closed by a suit letter, ``"11p34567m45s9p"``. ``0`` (red
  five) and ``8z``/``9z`` are errors. Bonus codes (``F1``…``F8``, ``RAT``, ``GOD``,
  ``CAT``, ``BOWL``, ``BD``, ``WB0``; case-insensitive) may stand between groups.
* **Chinese**: numeral runs closed by a suit character — numerals 一…九, the
  parenthesised ㈠…㈨ and circled ①…⑨ used in the seed articles, or Arabic
  digits (``45条``); suits 万/萬, 筒/饼/餅, 条/條/索. Honours 东南西北 (optional
  风), 中/红中, 发/发财, 白/白板; flowers 春夏秋冬梅兰竹菊; 老鼠 财神 猫 聚宝盆 百搭;
  无框白板 or 白板（不带框） for ``WB0``. Words are matched longest first, so
  ``发财神`` reads as 发财 + an unknown 神: separate adjacent words with a space.
* **Glyphs**: the Unicode Mahjong Tiles block (an optional U+FE0E/U+FE0F after a
  glyph is ignored), plus the bracketed fallbacks in :data:`GLYPHS` for the
  kinds that have no code point (``[老鼠]`` …).

Whitespace and the separators ``,`` ``，`` ``、`` ``|`` may appear between tokens;
a separator inside a digit run (``"12 3m"``) is an error, because guessing which
suit a stray digit belongs to would silently change the hand.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = [
    "N_KINDS",
    "N_TILES_ALL",
    "MAX_COPIES",
    "CODES",
    "NAMES_ZH",
    "NAMES_EN",
    "GLYPHS",
    "SUITS",
    "WINDS",
    "DRAGONS",
    "TERMINALS_AND_HONORS",
    "BONUS_KINDS",
    "is_bonus",
    "is_honor",
    "is_terminal",
    "is_terminal_or_honor",
    "is_wind",
    "is_dragon",
    "suit_of",
    "number_of",
    "parse_tiles",
    "parse_tile",
    "counts",
    "tiles_from_counts",
    "to_mpsz",
    "to_chinese",
    "to_glyphs",
]

# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------

N_KINDS = 34
"""Number of playable kinds (the length of a count vector)."""

N_TILES_ALL = 48
"""Number of kinds including the 14 bonus kinds."""

MAX_COPIES = 4
"""No tile set in the supported rules holds more than four copies of a face."""

SUITS = ("m", "p", "s", "z")
"""mpsz suit letters; ``SUITS[t // 9]`` is the suit of a playable kind ``t``."""

_BONUS_CODES = ("F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "RAT", "GOD", "CAT", "BOWL", "BD", "WB0")

CODES: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8)) + _BONUS_CODES
)
"""Code string of every kind, indexed by tile id (``CODES[31] == '5z'``)."""

_ZH_NUMERALS = "一二三四五六七八九"

NAMES_ZH: tuple[str, ...] = (
    tuple(f"{_ZH_NUMERALS[n]}{suit}" for suit in "万筒条" for n in range(9))
    + ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
    + ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊", "老鼠", "财神", "猫", "聚宝盆", "百搭", "无框白板")
)
"""Chinese name of every kind (simplified script)."""

NAMES_EN: tuple[str, ...] = (
    tuple(f"{n} of {suit}" for suit in ("characters", "dots", "bamboo") for n in range(1, 10))
    + ("east wind", "south wind", "west wind", "north wind", "white dragon", "green dragon", "red dragon")
    + (
        "spring",
        "summer",
        "autumn",
        "winter",
        "plum",
        "orchid",
        "bamboo flower",
        "chrysanthemum",
        "rat",
        "god of wealth",
        "cat",
        "treasure bowl",
        "joker",
        "frameless white",
    )
)
"""English name of every kind."""


def _build_glyphs() -> tuple[str, ...]:
    # The Unicode block is ordered winds, red/green/white, man, *sou*, pin,
    # plum..chrysanthemum, spring..winter, joker -- not our index order, so
    # every range is mapped explicitly.
    g = [chr(0x1F007 + n) for n in range(9)]  # man 1-9
    g += [chr(0x1F019 + n) for n in range(9)]  # pin 1-9 (U+1F019..)
    g += [chr(0x1F010 + n) for n in range(9)]  # sou 1-9 (U+1F010..)
    g += [chr(0x1F000 + n) for n in range(4)]  # E S W N
    g += [chr(0x1F006), chr(0x1F005), chr(0x1F004)]  # white, green, red
    g += [chr(0x1F026 + n) for n in range(4)]  # F1-F4 spring..winter
    g += [chr(0x1F022 + n) for n in range(4)]  # F5-F8 plum..chrysanthemum
    # No code points exist for these; a bracketed name keeps glyph text parseable.
    g += ["[老鼠]", "[财神]", "[猫]", "[聚宝盆]", chr(0x1F02A), "[无框白板]"]
    return tuple(g)


GLYPHS: tuple[str, ...] = _build_glyphs()
"""Unicode glyph of every kind; kinds without a code point get ``'[name]'``."""

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
BONUS_KINDS = tuple(range(N_KINDS, N_TILES_ALL))

# ---------------------------------------------------------------------------
# Kind-group helpers
# ---------------------------------------------------------------------------


def is_bonus(t: int) -> bool:
    """Return True for a bonus kind (ids 34–47).

    Examples
    --------
    >>> is_bonus(34), is_bonus(33)
    (True, False)
    """
    return N_KINDS <= t < N_TILES_ALL


def is_honor(t: int) -> bool:
    """Return True for a wind or dragon (ids 27–33).

    Examples
    --------
    >>> is_honor(27), is_honor(26)
    (True, False)
    """
    return 27 <= t < N_KINDS


def is_wind(t: int) -> bool:
    """Return True for east, south, west or north (ids 27–30).

    Examples
    --------
    >>> is_wind(30), is_wind(31)
    (True, False)
    """
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    """Return True for white, green or red dragon (ids 31–33).

    Examples
    --------
    >>> is_dragon(33), is_dragon(30)
    (True, False)
    """
    return 31 <= t <= 33


def is_terminal(t: int) -> bool:
    """Return True for a 1 or 9 of a numbered suit.

    Examples
    --------
    >>> [is_terminal(t) for t in (0, 4, 8, 27)]
    [True, False, True, False]
    """
    return 0 <= t < 27 and t % 9 in (0, 8)


def is_terminal_or_honor(t: int) -> bool:
    """Return True for a 幺九 tile: a terminal or an honour.

    Examples
    --------
    >>> is_terminal_or_honor(9), is_terminal_or_honor(33), is_terminal_or_honor(4)
    (True, True, False)
    """
    return is_terminal(t) or is_honor(t)


def suit_of(t: int) -> str | None:
    """Return the mpsz suit letter of a playable kind, or None for a bonus kind.

    Examples
    --------
    >>> suit_of(0), suit_of(17), suit_of(18), suit_of(33), suit_of(40)
    ('m', 'p', 's', 'z', None)
    """
    if 0 <= t < N_KINDS:
        return SUITS[t // 9]
    if is_bonus(t):
        return None
    raise ValueError(f"tile id {t} out of range 0-{N_TILES_ALL - 1}")


def number_of(t: int) -> int | None:
    """Return the rank 1–9 of a numbered-suit tile, or None for honours and bonus kinds.

    Examples
    --------
    >>> number_of(4), number_of(26), number_of(27)
    (5, 9, None)
    """
    if 0 <= t < 27:
        return t % 9 + 1
    if 27 <= t < N_TILES_ALL:
        return None
    raise ValueError(f"tile id {t} out of range 0-{N_TILES_ALL - 1}")


# ---------------------------------------------------------------------------
# Parser lookup tables (built once at import; parsing is on the Hand hot path)
# ---------------------------------------------------------------------------

_ARABIC: dict[str, int] = {str(d): d for d in range(10)}
_ARABIC.update({chr(0xFF10 + d): d for d in range(10)})  # fullwidth ０-９

_CJK_NUMERALS: dict[str, int] = {c: n + 1 for n, c in enumerate(_ZH_NUMERALS)}
_CJK_NUMERALS.update({chr(0x3220 + n): n + 1 for n in range(9)})  # ㈠-㈨
_CJK_NUMERALS.update({chr(0x2460 + n): n + 1 for n in range(9)})  # ①-⑨

_MPSZ_SUITS = {"m": 0, "p": 9, "s": 18, "z": 27}
_ZH_SUITS = {"万": 0, "萬": 0, "筒": 9, "饼": 9, "餅": 9, "条": 18, "條": 18, "索": 18}
_ZH_SUIT_CANON = {0: "万", 9: "筒", 18: "条"}

_SEPARATORS = frozenset(",，、|")
_VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")

_CODE_TO_ID: dict[str, int] = {c: i for i, c in enumerate(CODES)}


def _build_words() -> dict[str, int]:
    w: dict[str, int] = {}
    for code in _BONUS_CODES:
        w[code] = _CODE_TO_ID[code]  # matched case-insensitively
    for i, name in enumerate(NAMES_ZH):
        if i >= 27:
            w[name] = i
    for i, g in enumerate(GLYPHS):
        if len(g) > 1:
            w[g] = i  # bracketed glyph fallbacks
    for chars, i in (("东東", 27), ("南", 28), ("西", 29), ("北", 30)):
        for c in chars:
            w[c] = i
            w[c + "风"] = i
            w[c + "風"] = i
    w.update(
        {
            "白": 31,
            "白板": 31,
            "白板（带框）": 31,
            "白板(带框)": 31,
            "白板（帶框）": 31,
            "白板(帶框)": 31,
            "发": 32,
            "發": 32,
            "发财": 32,
            "發財": 32,
            "中": 33,
            "红中": 33,
            "紅中": 33,
            "蘭": _CODE_TO_ID["F6"],
            "財神": _CODE_TO_ID["GOD"],
            "貓": _CODE_TO_ID["CAT"],
            "聚寶盆": _CODE_TO_ID["BOWL"],
            "無框白板": _CODE_TO_ID["WB0"],
            "白板（不带框）": _CODE_TO_ID["WB0"],
            "白板(不带框)": _CODE_TO_ID["WB0"],
            "白板（不帶框）": _CODE_TO_ID["WB0"],
            "白板(不帶框)": _CODE_TO_ID["WB0"],
        }
    )
    return w


_WORDS = _build_words()
# Candidates per first character, longest first, so that 白板（不带框） wins over 白板 and 白.
_WORDS_BY_FIRST: dict[str, tuple[tuple[str, int], ...]] = {}
for _w in sorted(_WORDS, key=len, reverse=True):
    _WORDS_BY_FIRST.setdefault(_w[0], ())
    _WORDS_BY_FIRST[_w[0]] += ((_w, _WORDS[_w]),)
del _w

_GLYPH_TO_ID: dict[str, int] = {g: i for i, g in enumerate(GLYPHS) if len(g) == 1}


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def _unknown_token(text: str, i: int) -> str:
    """The offending token for an error message: a run of ASCII letters
    (plus trailing digits after a bonus-code prefix such as ``F`` or ``WB``),
    otherwise the single character."""
    ch = text[i]
    if not (ch.isascii() and ch.isalpha()):
        return ch
    j = i
    while j < len(text) and text[j].isascii() and text[j].isalpha():
        j += 1
    if text[i:j].upper() in ("F", "WB"):
        while j < len(text) and text[j].isascii() and text[j].isdigit():
            j += 1
    return text[i:j]


def _flush_digits(pending: list, base: int, suit_text: str, mpsz: bool, out: list[int], pos: list[int]) -> None:
    for j, v, c, arabic in pending:
        if mpsz and not arabic:
            raise ValueError(f"unknown tile '{c}{suit_text}' at {j}")
        if v == 0:
            if base < 27:
                raise ValueError(f"red fives are not supported: '{c}{suit_text}' at {j}; write 5{SUITS[base // 9]}")
            raise ValueError(f"unknown tile '{c}{suit_text}' at {j}")
        if base == 27 and v > 7:
            raise ValueError(f"unknown tile '{c}{suit_text}' at {j}")
        out.append(base + v - 1)
        pos.append(j)
    pending.clear()


def _no_suit(pending: list) -> ValueError:
    j, _, c, _ = pending[0]
    return ValueError(f"digit '{c}' at {j} has no suit")


def _parse_str(text: str) -> tuple[list[int], list[int]]:
    """Tokenise one string; return tile ids and the position of each."""
    out: list[int] = []
    pos: list[int] = []
    pending: list = []  # digits waiting for their suit: (pos, value, char, arabic)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        v = _ARABIC.get(ch)
        if v is not None:
            pending.append((i, v, ch, True))
            i += 1
            continue
        v = _CJK_NUMERALS.get(ch)
        if v is not None:
            pending.append((i, v, ch, False))
            i += 1
            continue
        base = _MPSZ_SUITS.get(ch)
        if base is not None:
            if not pending:
                raise ValueError(f"suit letter '{ch}' at {i} has no digits before it")
            _flush_digits(pending, base, ch, True, out, pos)
            i += 1
            continue
        base = _ZH_SUITS.get(ch)
        if base is not None:
            if not pending:
                raise ValueError(f"suit '{ch}' at {i} has no numerals before it")
            _flush_digits(pending, base, ch, False, out, pos)
            i += 1
            continue
        # Any other known token ends a digit run, which must therefore already
        # be closed; an unknown character is reported as itself instead, since
        # it is the more likely culprit ("123x").
        if ch.isspace() or ch in _SEPARATORS:
            if pending:
                raise _no_suit(pending)
            i += 1
            continue
        t = _GLYPH_TO_ID.get(ch)
        if t is not None:
            if pending:
                raise _no_suit(pending)
            out.append(t)
            pos.append(i)
            i += 1
            if i < n and text[i] in _VARIATION_SELECTORS:
                i += 1
            continue
        ascii_letter = ch.isascii()
        cands = _WORDS_BY_FIRST.get(ch.upper() if ascii_letter else ch)
        if cands:
            for word, t in cands:
                seg = text[i : i + len(word)]
                if (seg.upper() if ascii_letter else seg) == word:
                    if pending:
                        raise _no_suit(pending)
                    out.append(t)
                    pos.append(i)
                    i += len(word)
                    break
            else:
                cands = None
            if cands:
                continue
        raise ValueError(f"unknown tile '{_unknown_token(text, i)}' at {i}")
    if pending:
        raise _no_suit(pending)
    return out, pos


def _parse_iterable(tiles: Iterable) -> tuple[list[int], list[int]]:
    out: list[int] = []
    for k, x in enumerate(tiles):
        if isinstance(x, str):
            t = _CODE_TO_ID.get(x)
            if t is None:
                try:
                    ids, _ = _parse_str(x)
                except ValueError as e:
                    raise ValueError(f"element {k} ({x!r}): {e}") from None
                if len(ids) != 1:
                    raise ValueError(f"element {k} ({x!r}) is not a single tile")
                t = ids[0]
            out.append(t)
        elif isinstance(x, (bool, np.bool_)):
            raise TypeError(f"tile at {k} must be an int id or a tile string, got bool")
        elif isinstance(x, (int, np.integer)):
            if not 0 <= x < N_TILES_ALL:
                raise ValueError(f"tile id {int(x)} at {k} out of range 0-{N_TILES_ALL - 1}")
            out.append(int(x))
        else:
            raise TypeError(f"tile at {k} must be an int id or a tile string, got {type(x).__name__}")
    return out, list(range(len(out)))


def _check(ids: list[int], pos: list[int], allow_bonus: bool) -> None:
    if not allow_bonus:
        for t, p in zip(ids, pos):
            if t >= N_KINDS:
                raise ValueError(f"bonus tile '{CODES[t]}' at {p} is not allowed here")
    if len(ids) > MAX_COPIES:
        # Plain-list counting: np.bincount costs several µs of call overhead
        # on a 14-tile hand, more than the whole parse.
        c = [0] * N_TILES_ALL
        for t in ids:
            c[t] += 1
            if c[t] > MAX_COPIES:
                n = ids.count(t)
                raise ValueError(f"{n} copies of {CODES[t]} ({NAMES_ZH[t]}); at most {MAX_COPIES} of a kind exist")


def _parse(tiles, allow_bonus: bool, allow_empty: bool) -> list[int]:
    return _parse_pos(tiles, allow_bonus, allow_empty)[0]


def _parse_pos(tiles, allow_bonus: bool, allow_empty: bool) -> tuple[list[int], list[int]]:
    """Parse and validate; also return each tile's position for callers'
    own error messages (:class:`mjfast.Hand` reports misplaced bonus tiles)."""
    if isinstance(tiles, str):
        ids, pos = _parse_str(tiles)
        if not ids and not allow_empty:
            raise ValueError(f"empty tile string {tiles!r}: tiles are required")
    elif isinstance(tiles, (bytes, bytearray)):
        # bytes iterate as ints and would silently become tile ids
        raise TypeError("tiles must be str, not bytes; decode first")
    elif isinstance(tiles, Iterable):
        ids, pos = _parse_iterable(tiles)
    else:
        raise TypeError(f"expected a tile string or an iterable of tiles, got {type(tiles).__name__}")
    _check(ids, pos, allow_bonus)
    return ids, pos


def parse_tiles(tiles, *, allow_bonus: bool = True) -> list[int]:
    """Parse tiles in any supported notation into a list of tile ids.

    Parameters
    ----------
    tiles : str or iterable of int or str
        A string in mpsz, Chinese or glyph notation (they may be mixed, see the
        module docstring), or an iterable whose items are tile ids (``int``) or
        single-tile strings (codes such as ``'5z'``, ``'F1'``, or any one-tile
        string like ``'红中'``).
    allow_bonus : bool, default True
        If False, a bonus kind (ids 34–47) is an error.

    Returns
    -------
    list of int
        Tile ids in input order.

    Raises
    ------
    ValueError
        Unknown token (``"unknown tile 'x' at 7"``), a digit without a suit,
        a red five (``0m``), an empty or blank string, a bonus tile when
        ``allow_bonus`` is False, more than four copies of a kind, an id out
        of range. Positions are 0-based character offsets in a string, item
        indices in an iterable.
    TypeError
        ``tiles`` or one of its items has an unsupported type.

    Notes
    -----
    An empty string is an error because it is almost always a mistake at the
    call site; an empty iterable returns ``[]``.

    Examples
    --------
    >>> parse_tiles("11p34567m")
    [9, 9, 2, 3, 4, 5, 6]
    >>> parse_tiles("一一筒 ㈣㈤条")
    [9, 9, 21, 22]
    >>> parse_tiles("东风 红中 F1")
    [27, 33, 34]
    >>> parse_tiles(["1m", 33, "RAT"])
    [0, 33, 42]
    >>> parse_tiles("123x")
    Traceback (most recent call last):
    ...
    ValueError: unknown tile 'x' at 3
    """
    return _parse(tiles, allow_bonus, allow_empty=False)


def parse_tile(tile) -> int:
    """Parse exactly one tile (an id, a code or any one-tile string).

    Examples
    --------
    >>> parse_tile("7z"), parse_tile("中"), parse_tile(5)
    (33, 33, 5)
    """
    if isinstance(tile, (int, np.integer, str)) and not isinstance(tile, (bool, np.bool_)):
        ids = _parse([tile], True, allow_empty=False)
        return ids[0]
    raise TypeError(f"expected a tile id or a tile string, got {type(tile).__name__}")


# ---------------------------------------------------------------------------
# Count vectors
# ---------------------------------------------------------------------------


def _check_count_vector(c: np.ndarray) -> np.ndarray:
    if c.shape != (N_KINDS,):
        raise ValueError(f"a count vector has shape ({N_KINDS},), got {c.shape}")
    if not np.issubdtype(c.dtype, np.integer):
        if not np.issubdtype(c.dtype, np.floating):
            raise ValueError(f"a count vector holds integers, got dtype {c.dtype}")
        whole = np.isfinite(c)
        whole[whole] = np.mod(c[whole], 1) == 0  # finite ones only: np.mod warns on inf
        if not whole.all():
            t = int(np.argmin(whole))
            raise ValueError(f"a count vector holds whole numbers; got {float(c[t])!r} for {CODES[t]} ({NAMES_ZH[t]})")
    if c.min() < 0:
        t = int(np.argmin(c))
        raise ValueError(f"negative count {int(c[t])} for {CODES[t]} ({NAMES_ZH[t]})")
    if c.max() > MAX_COPIES:
        t = int(np.argmax(c))
        raise ValueError(f"{int(c[t])} copies of {CODES[t]} ({NAMES_ZH[t]}); at most {MAX_COPIES} of a kind exist")
    return c.astype(np.uint8)


def counts(tiles) -> np.ndarray:
    """Return the 34-kind count vector of some playable tiles.

    Parameters
    ----------
    tiles : str, iterable or ndarray
        Anything :func:`parse_tiles` accepts, or an existing count vector (a
        NumPy array of shape ``(34,)``, which is validated and copied). A 34-item
        *list* is read as tile ids, not counts.

    Returns
    -------
    numpy.ndarray
        A new ``uint8`` array of shape ``(34,)``.

    Raises
    ------
    ValueError
        As :func:`parse_tiles`; also for any bonus tile, which has no slot in
        the count vector.

    Examples
    --------
    >>> counts("112m")[:3]
    array([2, 1, 0], dtype=uint8)
    """
    if isinstance(tiles, np.ndarray) and tiles.shape == (N_KINDS,):
        return _check_count_vector(tiles)
    ids = _parse(tiles, allow_bonus=False, allow_empty=True)
    # Counting in a list and converting once is ~10x cheaper than indexing a
    # numpy array per tile, and Hand construction goes through here.
    c = [0] * N_KINDS
    for t in ids:
        c[t] += 1
    return np.frombuffer(bytearray(c), dtype=np.uint8)  # writable, owns a fresh buffer


def tiles_from_counts(c) -> list[int]:
    """Return the sorted tile ids described by a 34-kind count vector.

    Examples
    --------
    >>> c = counts("3m11p")
    >>> tiles_from_counts(c)
    [2, 9, 9]
    """
    c = _check_count_vector(np.asarray(c))
    return np.repeat(np.arange(N_KINDS), c).tolist()


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------


def _ids(x) -> list[int]:
    if isinstance(x, np.ndarray) and x.shape == (N_KINDS,):
        return tiles_from_counts(x)
    return _parse(x, True, allow_empty=True)


def format_counts(counts: list) -> str:
    """mpsz of a trusted list of 34 counts (no validation: the formatting hot path of Hand)."""
    text = []
    for k in range(4):
        seg = "".join([_DIGITS[i] * n for i, n in enumerate(counts[9 * k : 9 * k + 9]) if n])
        if seg:
            text.append(seg + SUITS[k])
    return "".join(text)


_DIGITS = tuple(str(i + 1) for i in range(9))


def _split(ids: list[int]) -> tuple[list[list[int]], list[int]]:
    """Sorted playable tiles per suit (m, p, s, z) and sorted bonus tiles."""
    groups: list[list[int]] = [[], [], [], []]
    bonus: list[int] = []
    for t in sorted(ids):
        if t < N_KINDS:
            groups[t // 9].append(t)
        else:
            bonus.append(t)
    return groups, bonus


def to_mpsz(tiles) -> str:
    """Format tiles as canonical mpsz: sorted, grouped m p s z, bonus codes appended.

    Parameters
    ----------
    tiles : str, iterable or ndarray
        Anything :func:`parse_tiles` accepts (an empty string gives ``""``), or a
        count vector of shape ``(34,)``.

    Examples
    --------
    >>> to_mpsz("11p34567m45s9p")
    '34567m119p45s'
    >>> to_mpsz("中中 春 百搭")
    '77z F1 BD'
    """
    groups, bonus = _split(_ids(tiles))
    text = "".join("".join(str(t % 9 + 1) for t in g) + SUITS[k] for k, g in enumerate(groups) if g)
    return " ".join(([text] if text else []) + [CODES[t] for t in bonus])


def to_chinese(tiles) -> str:
    """Format tiles in Chinese, grouped by suit: ``'三四五六七万 一一九筒'``.

    Honours are written with single characters (winds ``东南西北``, then dragons
    ``白发中``) and bonus tiles with their full names, so the output parses back.

    Examples
    --------
    >>> to_chinese("11p34567m45s9p")
    '三四五六七万 一一九筒 四五条'
    >>> to_chinese("1z1z7z F5")
    '东东 中 梅'
    """
    groups, bonus = _split(_ids(tiles))
    parts = []
    for k in range(3):
        if groups[k]:
            parts.append("".join(_ZH_NUMERALS[t % 9] for t in groups[k]) + _ZH_SUIT_CANON[9 * k])
    winds = "".join("东南西北"[t - 27] for t in groups[3] if t <= 30)
    dragons = "".join("白发中"[t - 31] for t in groups[3] if t >= 31)
    parts += [p for p in (winds, dragons) if p]
    parts += [NAMES_ZH[t] for t in bonus]
    return " ".join(parts)


def to_glyphs(tiles) -> str:
    """Format tiles as Unicode Mahjong Tiles glyphs, one space between suits.

    Kinds without a code point use the bracketed fallbacks of :data:`GLYPHS`.

    Examples
    --------
    >>> to_glyphs("123m5z") == "\\U0001F007\\U0001F008\\U0001F009 \\U0001F006"
    True
    """
    groups, bonus = _split(_ids(tiles))
    parts = ["".join(GLYPHS[t] for t in g) for g in groups if g]
    if bonus:
        parts.append("".join(GLYPHS[t] for t in bonus))
    return " ".join(parts)
