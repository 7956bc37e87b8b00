"""HTML rendering of tiles and hands for Jupyter (``_repr_html_``).

Rendering choices, all verified in browsers (see STYLE.md, "Unicode tile glyphs"):

* Glyphs are unreadable at body size, so tile spans use ``font-size: 2.5em``.
* Only the glyph spans carry the tile font stack. Putting it on the whole block
  made the Latin text fall back to a serif face.
* 🀄 (U+1F004) is the one emoji in the block and defaults to colour-emoji
  presentation; U+FE0E asks for the text glyph so it matches its neighbours.
* The mpsz text is always shown under the glyphs, because a reader may lack a
  covering font (Windows and macOS coverage is unverified).

Nothing here calls a kernel, so a repr is always cheap.
"""

from __future__ import annotations

from html import escape

from . import tiles as _t

__all__ = ["FONT_STACK", "tile_html", "tiles_html", "hand_html"]

FONT_STACK = "'Noto Sans Symbols 2','Segoe UI Symbol',Symbola"

_GLYPH_STYLE = f"font-family:{FONT_STACK};font-size:2.5em;line-height:1.15"
# Kinds without a code point are drawn as a small bordered label instead.
_LABEL_STYLE = (
    "display:inline-block;font-size:0.9em;border:1px solid currentColor;"
    "border-radius:3px;padding:0.9em 0.2em;margin:0 1px;vertical-align:bottom"
)
_GAP = '<span class="mjfast-gap" style="display:inline-block;width:0.9em"></span>'
_RED_DRAGON = 33


def tile_html(t: int) -> str:
    """Return one tile as an HTML span with its code and Chinese name as a tooltip.

    Examples
    --------
    >>> 'class="mjfast-tile"' in tile_html(0)
    True
    """
    title = escape(f"{_t.CODES[t]} {_t.NAMES_ZH[t]} ({_t.NAMES_EN[t]})")
    glyph = _t.GLYPHS[t]
    if len(glyph) == 1:
        text = glyph + ("\ufe0e" if t == _RED_DRAGON else "")
        return f'<span class="mjfast-tile" style="{_GLYPH_STYLE}" title="{title}">{text}</span>'
    return (
        f'<span class="mjfast-tile mjfast-label" style="{_LABEL_STYLE}" title="{title}">'
        f"{escape(_t.NAMES_ZH[t])}</span>"
    )


def tiles_html(ids, *, title: str | None = None) -> str:
    """Return a group of tiles as one HTML span (no gaps inside the group).

    Examples
    --------
    >>> tiles_html([0, 1]).count('class="mjfast-tile"')
    2
    """
    attr = f' title="{escape(title)}"' if title else ""
    inner = "".join(tile_html(t) for t in ids)
    return f'<span class="mjfast-group" style="white-space:nowrap"{attr}>{inner}</span>'


def _meld_title(meld) -> str:
    text = meld.kind.replace("_", " ")
    if meld.source is not None:
        text += f" from {meld.source}"
    if meld.claimed is not None:
        text += f", claimed {_t.CODES[meld.claimed]}"
    return text


def hand_html(hand) -> str:
    """Render a :class:`mjfast.Hand`: concealed tiles, each meld after a gap,
    bonus tiles, the wildcard count, and the mpsz text underneath.

    Examples
    --------
    >>> from mjfast.hand import Hand
    >>> html = hand_html(Hand("11p34567m45s9p", melds=["555z"]))
    >>> "34567m119p45s 555z" in html
    True
    """
    groups = []
    if hand.n_tiles - hand.wilds:
        groups.append(tiles_html(_t.tiles_from_counts(hand.counts), title="concealed"))
    if hand.wilds:
        groups.append(
            f'<span class="mjfast-wilds" title="wildcards held">+{hand.wilds} wild</span>'
        )
    for m in hand.melds:
        groups.append(tiles_html(m.tiles, title=_meld_title(m)))
    if hand.bonus:
        groups.append(tiles_html(hand.bonus, title="bonus tiles"))
    return (
        '<div class="mjfast-hand">'
        f'<div class="mjfast-tiles">{_GAP.join(groups)}</div>'
        f'<div class="mjfast-mpsz"><code>{escape(str(hand))}</code></div>'
        "</div>"
    )
