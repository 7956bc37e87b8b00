"""Plots (matplotlib, imported on first use). Every function takes ``ax=None`` and returns
the Axes it drew on; none calls ``plt.show()``.

Tile labels use the Unicode mahjong glyphs only when an installed font covers them (DejaVu,
matplotlib's default, does not); otherwise the mpsz codes are used.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..tiles import CODES, GLYPHS

_GLYPH_FONTS = ("Noto Sans Symbols 2", "Symbola", "Segoe UI Symbol")


def _axes(ax):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.gca()


@lru_cache(maxsize=1)
def glyph_font() -> str | None:
    """Name of an installed font that covers the mahjong tile glyphs, or None."""
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    for name in _GLYPH_FONTS:
        if name in names:
            return name
    return None


def tile_label(code: str) -> str:
    """A tile's axis label: its glyph where a font covers it, else its mpsz code."""
    if glyph_font() is None or code not in CODES:
        return code
    return GLYPHS[CODES.index(code)]


def plot_payouts(games, *, seat_role="all", kind="ecdf", by="rule", ax=None, **kwargs):
    """Distribution of a seat's result per game, one line per rule (or ``by`` group).

    Results are in one-unit stakes when the table has a ``base`` column (as
    :func:`mjfast.analysis.payout.stack_games` adds), otherwise in the table's own units.

    Parameters
    ----------
    games : pandas.DataFrame or dict of str -> DataFrame
        A games table (see :mod:`mjfast.analysis.payout`), or a dict of label -> games table as
        :func:`mjfast.compare_rules` takes (stacked by :func:`mjfast.analysis.payout.stack_games`, so in
        one-unit stakes, one line per label).
    seat_role : {"all", "dealer", "non_dealer", "winner", "discarder"}
    kind : {"ecdf", "tail", "hist"}
        ``ecdf``: empirical CDF on a symmetric-log x axis (default).  ``tail``: the loss tail
        P(loss ≥ x) on log-log axes (one point per loss size, so rare large losses stay
        visible; a group without losses draws an empty line).  ``hist``: a histogram.
    by : str
        Column whose values get one line each, in order of first appearance (default
        ``rule``, or ``label`` for a dict; a table without the column is one line).
    ax : matplotlib Axes, optional
    **kwargs
        Passed to ``Axes.step`` / ``Axes.hist``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt, pandas as pd, mjfast as mj
    >>> games = pd.DataFrame({"dealer": [0, 1], "winners": [[0], [2]], "how": ["self_draw", "discard"],
    ...                       "discarder": [None, 1], "pay_0": [6, 0], "pay_1": [-2, -8],
    ...                       "pay_2": [-2, 8], "pay_3": [-2, 0]})
    >>> ax = mj.plot_payouts(games, ax=plt.figure().gca())
    >>> ax.get_xlabel()
    'result per game (base stakes)'
    >>> ax = mj.plot_payouts(games, kind="tail", ax=plt.figure().gca())
    >>> ax.lines[0].get_ydata().tolist()    # P(loss >= 2) = 4/8, P(loss >= 8) = 1/8
    [0.5, 0.125]
    """
    from .payout import ROLES, _check, _long_results, stack_games

    if seat_role not in ROLES:
        raise ValueError(f"seat_role must be one of {', '.join(ROLES)}; got {seat_role!r}")
    if kind not in ("ecdf", "tail", "hist"):
        raise ValueError(f"kind must be 'ecdf', 'tail' or 'hist'; got {kind!r}")
    if isinstance(games, dict):
        games = stack_games(games)
        by = "label" if by == "rule" else by
    _check(games)
    ax = _axes(ax)
    long = _long_results(games)
    labels = games[by].to_numpy(object) if by in games.columns else np.full(len(games), "all", object)
    long["label"] = np.repeat(labels, 4)
    if seat_role == "non_dealer":
        long = long[~long.dealer]
    elif seat_role != "all":
        long = long[long[seat_role]]
    for label, part in long.groupby("label", sort=False):
        x = np.sort(part["result"].to_numpy(float))
        if kind == "ecdf":
            ax.step(x, np.arange(1, len(x) + 1) / len(x), where="post", label=str(label), **kwargs)
        elif kind == "tail":
            loss = -x[x < 0]
            sizes, counts = np.unique(loss, return_counts=True)
            # P(loss >= v) at every observed loss size v; between sizes the next size's value
            exceed = np.cumsum(counts[::-1])[::-1] / len(x)
            ax.step(sizes, exceed, where="pre", marker=".", label=str(label), **kwargs)
        else:
            ax.hist(x, bins=min(50, max(5, len(np.unique(x)))), histtype="step", label=str(label), **kwargs)
    if kind == "tail":
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("loss per game x (base stakes)")
        ax.set_ylabel("P(loss ≥ x)")
        ax.set_title(f"loss tails, {seat_role.replace('_', ' ')} seats")
    else:
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlabel("result per game (base stakes)")
        ax.set_ylabel("P(result ≤ x)" if kind == "ecdf" else "games")
        ax.set_title(f"payouts, {seat_role.replace('_', ' ')} seats")
    ax.legend(title=by if by in games.columns else None)
    return ax


def plot_elements(frequencies, *, top=15, ax=None, **kwargs):
    """Bar chart of scoring-element frequencies (the output of :func:`mjfast.element_frequencies`).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt, pandas as pd, mjfast as mj
    >>> freq = mj.element_frequencies(pd.DataFrame({"how": ["discard"], "elements": ["menqing"]}))
    >>> len(mj.plot_elements(freq, ax=plt.figure().gca()).patches)
    1
    """
    need = {"element", "frequency", "se"}
    if not need <= set(frequencies.columns):
        raise ValueError(f"frequencies needs columns {sorted(need)}")
    ax = _axes(ax)
    groups = list(frequencies.groupby("rule", sort=True)) if "rule" in frequencies.columns else [("", frequencies)]
    width = 0.8 / max(1, len(groups))
    elements = list(dict.fromkeys(frequencies.sort_values("frequency", ascending=False)["element"]))[:top]
    y = np.arange(len(elements))
    for i, (label, part) in enumerate(groups):
        f = part.set_index("element").reindex(elements)
        ax.barh(y + i * width, f["frequency"].fillna(0), height=width, xerr=f["se"].fillna(0),
                label=str(label) or None, **kwargs)
    ax.set_yticks(y + width * (len(groups) - 1) / 2, elements)
    ax.invert_yaxis()
    ax.set_xlabel("share of won games")
    if len(groups) > 1:
        ax.legend(title="rule")
    return ax


def plot_win_curve(curves, *, ax=None, band=2.0, top=None, **kwargs):
    """P(ready) and P(win) by turn, with ±``band`` standard-error bands where the tables have them.

    Parameters
    ----------
    curves : pandas.DataFrame or dict of label -> DataFrame
        Tables with ``turn``, ``p_ready`` and ``p_win``, as :func:`mjfast.simulate_draws`
        returns (with ``se_ready`` and ``se_win``: drawn as bands) or as
        :func:`mjfast.expected_value` returns with ``by_turn=True`` (exact: no band; one pair
        of lines per discard, in the table's order, best first).  A dict draws one pair per
        entry.
    top : int, optional
        With a by-turn table of several discards, draw only the first ``top``.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt, pandas as pd, mjfast as mj
    >>> t = pd.DataFrame({"turn": [1, 2], "p_ready": [.2, .4], "se_ready": [.01, .01],
    ...                   "p_win": [0, .1], "se_win": [0, .01]})
    >>> len(mj.plot_win_curve({"pass": t}, ax=plt.figure().gca()).lines)
    2
    >>> bt = mj.expected_value("11p34567m45s9p1p", melds=["555z"], draws_left=6, by_turn=True)
    >>> len(mj.plot_win_curve(bt, top=2, ax=plt.figure().gca()).lines)
    4
    """
    ax = _axes(ax)
    if isinstance(curves, dict):
        items = list(curves.items())
    elif "discard" in curves.columns:
        items = []
        for label in dict.fromkeys(curves["discard"].astype(object)):
            part = curves[curves["discard"].astype(object) == label] if label == label else \
                curves[curves["discard"].isna()]
            items.append(("" if label != label or label is None else str(label), part))
        if top is not None:
            items = items[:int(top)]
    else:
        items = [("", curves)]
    for label, df in items:
        missing = {"turn", "p_ready", "p_win"} - set(df.columns)
        se = {"se_ready", "se_win"} & set(df.columns)
        if len(se) == 1:                  # a band needs both standard errors
            missing |= {"se_ready", "se_win"} - se
        if missing:
            raise ValueError(f"curve {label!r} lacks column(s) {', '.join(sorted(missing))}")
        color = kwargs.pop("color", None) if len(items) == 1 else None
        for col, style in (("ready", "--"), ("win", "-")):
            p = df[f"p_{col}"].to_numpy(float)
            # one colour per option: dashed = ready, solid = won
            line, = ax.plot(df["turn"], p, style, color=color, label=f"{label} P({col})".strip(), **kwargs)
            color = line.get_color()
            if f"se_{col}" in df.columns:
                se = df[f"se_{col}"].to_numpy(float)
                ax.fill_between(df["turn"], np.clip(p - band * se, 0, 1), np.clip(p + band * se, 0, 1),
                                color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_xlabel("draws")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    ax.legend()
    return ax


def plot_discards(table, *, ax=None, **kwargs):
    """A discard table (:func:`mjfast.analyze_discards`) as horizontal bars of 进张 and 组合数.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt, mjfast as mj
    >>> df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    >>> ax = mj.plot_discards(df, ax=plt.figure().gca())
    >>> len(ax.patches) == 2 * len(df)
    True
    """
    need = {"discard", "ukeire", "combos", "shanten"}
    if not need <= set(table.columns):
        raise ValueError(f"table needs columns {sorted(need)} (from analyze_discards)")
    ax = _axes(ax)
    y = np.arange(len(table))
    # labels stay ASCII: matplotlib's default font has no CJK glyphs
    ax.barh(y - 0.2, table["ukeire"], height=0.4, label="ukeire (jinzhang)", **kwargs)
    ax.barh(y + 0.2, table["combos"] / 10.0, height=0.4, label="yijinting combos / 10", **kwargs)
    labels = [f"{tile_label(str(d))}  ({s}-shanten)" if s >= 0 else tile_label(str(d))
              for d, s in zip(table["discard"], table["shanten"])]
    font = glyph_font()
    ax.set_yticks(y, labels, fontfamily=[font, "sans-serif"] if font else None)
    ax.invert_yaxis()
    ax.set_xlabel("copies")
    ax.set_title("discard choices, best first")
    ax.legend()
    return ax
