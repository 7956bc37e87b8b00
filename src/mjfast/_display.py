"""Tiles drawn for Jupyter: every tile is a small SVG picture made here, so nothing depends on a font.

A tile is an ivory face in a rounded frame: dots for 筒, bamboo sticks for 条, the Chinese numeral
over 万 for 万 (all drawn as strokes, not as text), E/S/W/N for the winds, 中 / 发 / a blue frame for
the dragons and a flower, animal or star for the bonus tiles. The pictures are embedded as
``data:`` URIs of ``<img>`` tags, which Jupyter, JupyterLab, VS Code and exported HTML all show;
the tile code is the ``alt`` text and the tooltip adds the Chinese and English names, and the mpsz
text is always printed beside the tiles.

* :func:`hand_html` is :meth:`mjfast.Hand._repr_html_`;
* :func:`style` turns a table of mjfast (``analyze_discards``, ``call_vs_pass`` …) into a pandas
  ``Styler`` with the tiles drawn in their cells;
* :class:`TileFrame` is the DataFrame those functions return: an ordinary ``pandas.DataFrame``
  in every way (equality, pickling, ``pd.testing``, every method) whose only addition is that
  Jupyter shows it through :func:`style`, with its tiles drawn;
* :class:`Readings` is the list :func:`mjfast.decompose` returns: it shows each reading as sets of
  tiles.

Nothing here calls a kernel, so a repr is always cheap.
"""
from __future__ import annotations

import base64
from functools import cache
from html import escape

from . import tiles as _t

__all__ = ["tile_svg", "tile_html", "tiles_html", "hand_html", "style", "tile_frame", "Readings", "TILE_COLUMNS"]

#: Columns whose values are tiles (one code or an mpsz string); :func:`style` draws them.
TILE_COLUMNS = ("discard", "meld", "ukeire_tiles", "waits", "tile", "win_tile", "offered", "tiles", "hand",
                "winning_hand")

_FACE, _EDGE = "#fbf6e9", "#7d7466"
_BLUE, _RED, _GREEN, _INK = "#1f5aa6", "#c62f2a", "#2d7a3a", "#1c2333"
_W, _H = 30, 40                        # viewBox of a tile
_PX = 24                               # displayed width in CSS pixels (height 32)
_GAP = '<span class="mjfast-gap" style="display:inline-block;width:0.6em"></span>'

# --------------------------------------------------------------------------------------------
# strokes: Chinese numerals (10 x 8 box), 万 (10 x 10), letters (10 x 12), digits (4 x 6)
# --------------------------------------------------------------------------------------------
_NUMERALS = {
    1: "M0.5,4 H9.5",
    2: "M2,2 H8 M0.5,6.5 H9.5",
    3: "M2,0.8 H8 M3,4 H7 M0.5,7.3 H9.5",
    4: "M1,0.8 H9 V7.6 H1 Z M4,0.8 Q4,4.5 2.4,5.6 M6,0.8 V4.6 Q6,5.6 8,5.6",
    5: "M1.2,0.8 H8.8 M4.6,0.8 L3.6,7.4 M2,4 H7.6 V7.4 M0.5,7.4 H9.5",
    6: "M4.6,0 L5.6,1.4 M0.5,2.6 H9.5 M3.8,4.2 L1.2,8 M6.2,4.2 L8.8,8",
    7: "M0.5,4.2 L9.5,2.8 M4,0 V6.4 Q4,8 6,8 H9.5 V6.6",
    8: "M3.6,0.8 Q3.6,5 0.5,8 M6.2,0.8 Q6.6,5 9.5,8",
    9: "M0.5,2.8 H6.2 V6.6 Q6.2,8 7.6,8 H9.5 V6.4 M3.6,0 Q3.6,5 0.5,8",
}
_WAN = "M0.5,1.2 H9.5 M4.2,1.2 Q4.2,6.5 0.6,10 M4.2,4.6 H8.8 V8.6 Q8.8,10 7,9.4"
_LETTERS = {
    "E": "M8,0.5 H1.5 V11.5 H8 M1.5,6 H7",
    "S": "M8.5,2.2 C7.2,0.2 2.4,0 1.8,3 C1.2,6 8.6,5.6 8.6,8.8 C8.4,12.4 2.4,12.6 1.2,9.8",
    "W": "M0.2,0.5 L2.6,11.5 L5,3.2 L7.4,11.5 L9.8,0.5",
    "N": "M1.5,11.5 V0.5 L8.5,11.5 V0.5",
}
_ZHONG = "M1,3 H9 V7.4 H1 Z M5,0 V10"
_FA = ("M1.6,3.2 H8.8 M4,0.4 Q4,6 0.6,10 M4.6,5.4 H8 Q6.8,8.6 3.4,10 M5,6.4 Q6.8,9 9.6,10 "
       "M7,0.4 L8.6,1.8")
_DIGITS = {1: "M2,0 V6 M0.8,1.2 L2,0", 2: "M0.4,1.4 Q2,-0.8 3.6,1.4 L0.4,6 H3.8",
           3: "M0.4,0.6 H3.4 L1.6,2.8 Q4.2,3.2 3.2,5.4 Q2,6.6 0.4,5.4", 4: "M3,6 V0 L0.2,4.2 H4"}


def _strokes(d: str, colour: str, x: float, y: float, scale: float, width: float) -> str:
    return (f'<path d="{d}" transform="translate({x},{y}) scale({scale})" fill="none" stroke="{colour}" '
            f'stroke-width="{width / scale:.3f}" stroke-linecap="round" stroke-linejoin="round"/>')


# --------------------------------------------------------------------------------------------
# suits: positions in the 30 x 40 tile
# --------------------------------------------------------------------------------------------
_DOTS: dict[int, list[tuple[float, float, float]]] = {
    1: [(15, 20, 8.5)],
    2: [(15, 11, 5), (15, 29, 5)],
    3: [(8, 9, 4.2), (15, 20, 4.2), (22, 31, 4.2)],
    4: [(9.5, 12, 4.5), (20.5, 12, 4.5), (9.5, 28, 4.5), (20.5, 28, 4.5)],
    5: [(9, 10, 4), (21, 10, 4), (15, 20, 4), (9, 30, 4), (21, 30, 4)],
    6: [(10, 8.5, 3.6), (20, 8.5, 3.6), (10, 20, 3.6), (20, 20, 3.6), (10, 31, 3.6), (20, 31, 3.6)],
    7: [(7.5, 6.5, 3), (15, 9.5, 3), (22.5, 12.5, 3), (10, 21.5, 3.3), (20, 21.5, 3.3), (10, 31, 3.3),
        (20, 31, 3.3)],
    8: [(10, 6.5, 3), (20, 6.5, 3), (10, 15, 3), (20, 15, 3), (10, 24, 3), (20, 24, 3), (10, 33, 3),
        (20, 33, 3)],
    9: [(8, 9, 3.2), (15, 9, 3.2), (22, 9, 3.2), (8, 20, 3.2), (15, 20, 3.2), (22, 20, 3.2), (8, 31, 3.2),
        (15, 31, 3.2), (22, 31, 3.2)],
}
# colour of each dot (index into the layout above)
_DOT_COLOURS = {1: [_RED], 2: [_BLUE, _GREEN], 3: [_BLUE, _RED, _GREEN], 4: [_BLUE, _GREEN, _GREEN, _BLUE],
                5: [_BLUE, _GREEN, _RED, _GREEN, _BLUE], 6: [_GREEN, _GREEN] + [_RED] * 4,
                7: [_GREEN] * 3 + [_RED] * 4, 8: [_BLUE] * 8, 9: [_BLUE] * 3 + [_RED] * 3 + [_GREEN] * 3}

_STICKS: dict[int, list[tuple[float, float]]] = {   # (x, y) of each stick's centre; a stick is 3.4 x 9
    2: [(15, 11), (15, 29)],
    3: [(15, 11), (10, 29), (20, 29)],
    4: [(10, 11), (20, 11), (10, 29), (20, 29)],
    5: [(9, 11), (21, 11), (15, 20), (9, 29), (21, 29)],
    6: [(8, 11), (15, 11), (22, 11), (8, 29), (15, 29), (22, 29)],
    7: [(15, 7), (8, 20), (15, 20), (22, 20), (8, 32), (15, 32), (22, 32)],
    8: [(6.5, 11), (12, 11), (18, 11), (23.5, 11), (6.5, 29), (12, 29), (18, 29), (23.5, 29)],
    9: [(8, 8), (15, 8), (22, 8), (8, 20), (15, 20), (22, 20), (8, 32), (15, 32), (22, 32)],
}
_RED_STICKS = {5: {2}, 7: {0}, 9: {1, 4, 7}}


def _dot(x: float, y: float, r: float, colour: str) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{colour}" stroke-width="{r * 0.32:.2f}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.38:.2f}" fill="{colour}"/>')


def _stick(x: float, y: float, colour: str, h: float = 9.0) -> str:
    return (f'<rect x="{x - 1.7}" y="{y - h / 2}" width="3.4" height="{h}" rx="1.5" fill="{colour}"/>'
            f'<line x1="{x - 1.7}" y1="{y}" x2="{x + 1.7}" y2="{y}" stroke="{_FACE}" stroke-width="0.7"/>')


def _suit_body(suit: int, n: int) -> str:
    if suit == 0:                                                     # 万: numeral over 万
        return (_strokes(_NUMERALS[n], _INK, 7, 5, 1.6, 1.9)
                + _strokes(_WAN, _RED, 8, 20, 1.4, 1.9))
    if suit == 1:                                                     # 筒: dots
        return "".join(_dot(x, y, r, c) for (x, y, r), c in zip(_DOTS[n], _DOT_COLOURS[n]))
    if n == 1:                                                        # 1条: one tall stick
        return _stick(15, 21, _GREEN, 24) + f'<circle cx="15" cy="8" r="3" fill="{_RED}"/>'
    red = _RED_STICKS.get(n, set())
    return "".join(_stick(x, y, _RED if i in red else _GREEN) for i, (x, y) in enumerate(_STICKS[n]))


def _flower(colour: str, centre: str = "#e0a020") -> str:
    petals = "".join(f'<circle cx="{15 + 5.2 * dx}" cy="{22 + 5.2 * dy}" r="4" fill="{colour}"/>'
                     for dx, dy in ((0, -1), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31)))
    return petals + f'<circle cx="15" cy="22" r="2.6" fill="{centre}"/>'


def _bonus_body(code: str) -> str:
    if code[0] == "F":                                                # 春夏秋冬 / 梅兰竹菊 + number
        n = int(code[1])
        number = (n - 1) % 4 + 1
        colour = _RED if n <= 4 else "#b0418f"
        return _flower(colour) + _strokes(_DIGITS[number], _INK, 5, 4, 1.3, 1.6)
    if code == "RAT":
        return ('<ellipse cx="15" cy="24" rx="8" ry="5.5" fill="#8c8c8c"/>'
                '<circle cx="9" cy="18" r="3" fill="#8c8c8c"/><circle cx="21" cy="18" r="3" fill="#8c8c8c"/>'
                f'<path d="M23,25 Q27,30 23,34" fill="none" stroke="#8c8c8c" stroke-width="1.4"/>'
                f'<circle cx="12.5" cy="23" r="1" fill="{_INK}"/><circle cx="17.5" cy="23" r="1" fill="{_INK}"/>')
    if code == "CAT":
        return ('<circle cx="15" cy="23" r="8" fill="#e08a2c"/>'
                '<path d="M8,19 L8.5,11 L13,16 Z M22,19 L21.5,11 L17,16 Z" fill="#e08a2c"/>'
                f'<circle cx="12" cy="22" r="1.2" fill="{_INK}"/><circle cx="18" cy="22" r="1.2" fill="{_INK}"/>')
    if code == "GOD":                                                 # a coin with a square hole
        return ('<circle cx="15" cy="20" r="9" fill="#d9a521" stroke="#a67c12" stroke-width="1.2"/>'
                f'<rect x="12" y="17" width="6" height="6" fill="{_FACE}" stroke="#a67c12" stroke-width="1"/>')
    if code == "BOWL":
        return ('<circle cx="15" cy="18" r="5" fill="#d9a521"/>'
                '<path d="M4,21 H26 Q25,33 15,33 Q5,33 4,21 Z" fill="#2f6fa0"/>')
    if code == "BD":                                                  # 百搭: a star
        return ('<path d="M15,7 L18.5,16.5 L28,17 L20.5,23 L23,32.5 L15,27 L7,32.5 L9.5,23 L2,17 L11.5,16.5 Z" '
                'fill="#7b3fb0"/>')
    return ""                                                         # WB0: a blank face, no frame


@cache
def tile_svg(t: int) -> str:
    """The SVG picture of one tile (a 30 x 40 view box), made from shapes only.

    Parameters
    ----------
    t : int
        A tile id (0-33 playable kinds, 34-47 bonus kinds).

    Returns
    -------
    str
        A standalone ``<svg>`` element.

    Examples
    --------
    >>> svg = tile_svg(9)          # 1p: one big dot
    >>> svg.startswith("<svg") and svg.count("<circle") == 2
    True
    >>> len({tile_svg(t) for t in range(48)})     # every kind is drawn differently
    48
    """
    if not isinstance(t, int) or not 0 <= t < _t.N_TILES_ALL:
        raise ValueError(f"t must be a tile id 0-{_t.N_TILES_ALL - 1}, got {t!r}")
    if t < 27:
        body = _suit_body(t // 9, t % 9 + 1)
    elif t < 31:
        body = _strokes(_LETTERS["ESWN"[t - 27]], _INK, 7, 12, 1.6, 2.4)
    elif t == 31:                                                     # 白: a blue frame
        body = (f'<rect x="6" y="7" width="18" height="26" rx="2" fill="none" stroke="{_BLUE}" stroke-width="2"/>'
                f'<rect x="9" y="10" width="12" height="20" rx="1" fill="none" stroke="{_BLUE}" stroke-width="1"/>')
    elif t == 32:
        body = _strokes(_FA, _GREEN, 6, 9, 1.8, 2.4)
    elif t == 33:
        body = _strokes(_ZHONG, _RED, 6, 10, 1.8, 2.6)
    else:
        body = _bonus_body(_t.CODES[t])
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" width="{_PX}" '
            f'height="{_PX * _H // _W}">'
            f'<rect x="1" y="1" width="28" height="38" rx="4" fill="{_FACE}" stroke="{_EDGE}" stroke-width="1.2"/>'
            f'{body}</svg>')


@cache
def _uri(t: int) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(tile_svg(t).encode()).decode()


def tile_html(t: int) -> str:
    """One tile as an ``<img>`` of its picture; the code is the alt text, the names the tooltip.

    Examples
    --------
    >>> html = tile_html(0)
    >>> html.startswith('<img class="mjfast-tile"') and 'alt="1m"' in html and "一万" in html
    True
    """
    title = escape(f"{_t.CODES[t]} {_t.NAMES_ZH[t]} ({_t.NAMES_EN[t]})")
    return (f'<img class="mjfast-tile" src="{_uri(t)}" alt="{_t.CODES[t]}" title="{title}" width="{_PX}" '
            f'height="{_PX * _H // _W}" style="display:inline-block;margin:0 1px;vertical-align:middle">')


def tiles_html(ids, *, title: str | None = None) -> str:
    """A group of tiles as one span (no gaps inside the group).

    Examples
    --------
    >>> tiles_html([0, 1]).count('class="mjfast-tile"')
    2
    """
    attr = f' title="{escape(title)}"' if title else ""
    inner = "".join(tile_html(t) for t in ids)
    return f'<span class="mjfast-group" style="white-space:nowrap"{attr}>{inner}</span>'


def _with_text(pictures: str, text: str) -> str:
    # the text wraps under the pictures where a narrow page leaves no room beside them
    return (f'<span style="display:inline-flex;flex-wrap:wrap;align-items:center;gap:0.2em 0.5em">{pictures}'
            f'<code class="mjfast-mpsz">{escape(text)}</code></span>')


def _meld_title(meld) -> str:
    text = meld.kind.replace("_", " ")
    if meld.source is not None:
        text += f" from {meld.source}"
    if meld.claimed is not None:
        text += f", claimed {_t.CODES[meld.claimed]}"
    return text


def hand_html(hand) -> str:
    """Render a :class:`mjfast.Hand`: concealed tiles, each meld after a gap, the bonus tiles, the
    wildcard count, and the mpsz text beside them.

    Examples
    --------
    >>> from mjfast.hand import Hand
    >>> html = hand_html(Hand("11p34567m45s9p", melds=["555z"]))
    >>> html.count('class="mjfast-tile"'), "34567m119p45s 555z" in html
    (13, True)
    """
    groups = []
    if hand.n_tiles - hand.wilds:
        groups.append(tiles_html(_t.tiles_from_counts(hand.counts), title="concealed"))
    if hand.wilds:
        groups.append(f'<span class="mjfast-wilds" title="wildcards held">+{hand.wilds} wild</span>')
    for m in hand.melds:
        groups.append(tiles_html(m.tiles, title=_meld_title(m)))
    if hand.bonus:
        groups.append(tiles_html(hand.bonus, title="bonus tiles"))
    return f'<div class="mjfast-hand">{_with_text(_GAP.join(groups), str(hand))}</div>'


# --------------------------------------------------------------------------------------------
# tables
# --------------------------------------------------------------------------------------------
def _cell(value) -> str:
    """A table cell of tiles: pictures and the text; anything that is not tiles stays as it is."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    text = str(value)
    if not text.strip():
        return ""
    try:
        groups = [_t.parse_tiles(part.strip("[]+")) for part in text.replace(",", " ").split()]
    except ValueError:
        return escape(text)
    pictures = _GAP.join(tiles_html(ids) for ids in groups if ids)
    return _with_text(pictures, text)


def style(table, *, columns=None):
    """A pandas ``Styler`` of an mjfast table with its tiles drawn in the cells.

    Parameters
    ----------
    table : pandas.DataFrame
        A table of :func:`mjfast.analyze_discards`, :func:`mjfast.call_vs_pass` or any table with
        tile columns.
    columns : list of str, optional
        The columns to draw; by default those of :data:`TILE_COLUMNS` the table has.

    Returns
    -------
    pandas.io.formats.style.Styler
        Displayed in Jupyter with the tiles as pictures (and their mpsz text); the numbers are
        those of the table.

    Raises
    ------
    TypeError
        ``table`` is not a DataFrame, or ``columns`` is not a list of names.
    ValueError
        ``columns`` names a column the table does not have.

    Examples
    --------
    >>> import mjfast as mj
    >>> styled = mj.style(mj.analyze_discards("11p34567m45s9p1p", melds=["555z"]))
    >>> html = styled.to_html()
    >>> html.count('class="mjfast-tile"') > 20, 'alt="9p"' in html
    (True, True)
    """
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas.DataFrame, got {type(table).__name__}")
    if columns is not None and (isinstance(columns, str) or not isinstance(columns, (list, tuple))
                                or not all(isinstance(c, str) for c in columns)):
        raise TypeError(f"columns must be a list of column names, got {columns!r}")
    cols = [c for c in (columns if columns is not None else TILE_COLUMNS) if c in table.columns]
    missing = [c for c in (columns or ()) if c not in table.columns]
    if missing:
        raise ValueError(f"columns: the table has no column(s) {', '.join(map(repr, missing))}")
    styler = table.style.format(_cell, subset=cols) if cols else table.style
    return styler.set_table_styles(
        [{"selector": "td", "props": "vertical-align: middle; text-align: left"}], overwrite=False)


_TILE_FRAME: list = []   # the TileFrame class, made on first use (pandas is imported lazily)


def _tile_frame_class():
    if _TILE_FRAME:
        return _TILE_FRAME[0]
    import pandas as pd

    class _AnyFrame(type):
        # every DataFrame passes isinstance(df, TileFrame), so that a TileFrame and the plain
        # DataFrame of the same data compare equal either way round (DataFrame.equals and
        # pd.testing.assert_frame_equal test isinstance(left, type(right)))
        def __instancecheck__(cls, obj):
            return isinstance(obj, pd.DataFrame)

    class TileFrame(pd.DataFrame, metaclass=_AnyFrame):
        """A ``pandas.DataFrame`` that Jupyter shows with its tiles drawn (see :func:`style`).

        Everything else is the DataFrame's own: the data, ``==`` and ``equals``, pickling,
        ``pd.testing`` (a TileFrame equals the plain DataFrame of its data, in either order),
        ``to_html`` / ``to_string`` (plain text), and every method; results of its methods
        stay TileFrames while they are tables.  ``pd.DataFrame(frame)`` gives the plain
        DataFrame.  Tables longer than ``pandas.options.display.max_rows``, or without a tile
        column, display as pandas displays them.
        """

        _metadata: list = []

        @property
        def _constructor(self):
            return TileFrame

        def _repr_html_(self):
            if (len(self) > (pd.get_option("display.max_rows") or len(self))
                    or not any(c in self.columns for c in TILE_COLUMNS)
                    or not pd.get_option("display.notebook_repr_html")):
                return super()._repr_html_()
            try:
                return style(self).to_html()
            except ImportError:         # pandas' Styler needs jinja2: show the plain table then
                return super()._repr_html_()

    TileFrame.__module__ = __name__
    TileFrame.__qualname__ = "TileFrame"
    _TILE_FRAME.append(TileFrame)
    return TileFrame


def __getattr__(name):
    # the class is made when first asked for, so pickles of it load (``mjfast._display.TileFrame``)
    if name == "TileFrame":
        return _tile_frame_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def tile_frame(table):
    """``table`` (a DataFrame, or what ``pandas.DataFrame`` takes) as a :class:`TileFrame`.

    Examples
    --------
    >>> import pandas as pd
    >>> from mjfast._display import tile_frame
    >>> t = tile_frame(pd.DataFrame({"discard": ["9p"], "ukeire": [37]}))
    >>> type(t).__name__, t._repr_html_().count('class="mjfast-tile"'), t.equals(pd.DataFrame(t))
    ('TileFrame', 1, True)
    """
    frame = _tile_frame_class()(table)
    frame.attrs = dict(getattr(table, "attrs", {}) or {})
    return frame


class Readings(list):
    """The readings :func:`mjfast.decompose` returns: a list that Jupyter shows as sets of tiles.

    Examples
    --------
    >>> from mjfast import decompose
    >>> r = decompose("111222333m789p11z")
    >>> isinstance(r, list), len(r), r._repr_html_().count("<tr>")
    (True, 2, 3)
    """

    def _repr_html_(self) -> str:
        if not self:
            return "<p>no reading: the hand is not complete</p>"
        rows = ["<tr><th>form</th><th>sets</th><th>waits</th><th>mpsz</th></tr>"]
        for d in self:
            sets = _GAP.join(tiles_html(_t.parse_tiles(g.strip("[]")), title=g) for g in d.groups())
            waits = ", ".join(sorted(d.waits)) if d.waits else ""
            wild = f" wild={','.join(_t.CODES[t] for t in d.wild_tiles)}" if d.wild_tiles else ""
            rows.append(f"<tr><td>{escape(d.form)}</td><td>{sets}</td><td>{escape(waits)}</td>"
                        f"<td><code>{escape(' '.join(d.groups()) + wild)}</code></td></tr>")
        return '<table class="mjfast-readings">' + "".join(rows) + "</table>"
