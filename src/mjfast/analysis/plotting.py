"""Plots (matplotlib, imported on first use). Every function takes ``ax=None`` and returns
the Axes it drew on; none calls ``plt.show()``.

Labels are in Chinese by default (``labels="zh"``; ``labels="en"`` for English). Chinese text
needs a CJK font: the first Chinese plot looks for an installed one (Noto Sans CJK, Source Han
Sans, WenQuanYi, PingFang, Microsoft YaHei, …) and adds it to matplotlib's font list as a
*fallback*, so only characters missing from the current font are drawn with it.
:func:`use_cjk_font` chooses a font explicitly. Without any CJK font the plots say once how to
install one and use English labels, so no character is drawn as an empty box.

Tile labels use the Unicode mahjong glyphs only when an installed font covers them (DejaVu,
matplotlib's default, does not); otherwise the mpsz codes are used.
"""

from __future__ import annotations

import warnings
from functools import lru_cache

import numpy as np

from .._inputs import check_int
from ..tiles import CODES, GLYPHS

_GLYPH_FONTS = ("Noto Sans Symbols 2", "Symbola", "Segoe UI Symbol")

#: CJK families tried in order (simplified-Chinese faces first); any other installed font that
#: covers the probe characters is accepted after these.
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Microsoft YaHei",
    "SimHei",
    "Heiti SC",
    "STHeiti",
    "Noto Serif CJK SC",
    "Source Han Serif SC",
    "AR PL UMing CN",
    "AR PL UKai CN",
    "Droid Sans Fallback",
    "Noto Sans CJK TC",
    "Noto Sans CJK JP",
)
# every character a Chinese mjfast label may contain must be covered by the chosen font
_PROBE = "苏州四川进张一进听组合数打牌选择由好到差向听摸次概率每局输赢分基本注占比规则庄家闲和者放炮所有座位麻将国标"
_INSTALL_HINT = (
    "no CJK font is installed, so mjfast plots use English labels. To get Chinese labels, install "
    "one (Debian/Ubuntu: apt install fonts-noto-cjk, or the smaller fonts-wqy-microhei; "
    "conda: conda install -c conda-forge font-ttf-noto-cjk; macOS and Windows ship PingFang SC / "
    "Microsoft YaHei) and call mjfast.plotting.use_cjk_font(), or pass labels='en' to silence this"
)


class CJKFontWarning(UserWarning):
    """No CJK font was found for Chinese plot labels (issued once per process)."""


_state: dict[str, str | bool | None] = {"font": None, "warned": False}


def _axes(ax):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.gca()


@lru_cache(maxsize=1)
def glyph_font() -> str | None:
    """Name of an installed font that covers the mahjong tile glyphs, or None.

    Examples
    --------
    >>> glyph_font() is None or isinstance(glyph_font(), str)
    True
    """
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    for name in _GLYPH_FONTS:
        if name in names:
            return name
    return None


def _covers(path: str, text: str) -> bool:
    from matplotlib import ft2font

    try:
        font = ft2font.FT2Font(path)
    except (OSError, RuntimeError, ValueError):
        return False
    return all(font.get_char_index(ord(ch)) for ch in text)


def _cjk_candidates() -> dict[str, str]:
    """Installed CJK-covering families -> a font file, preferred names first.

    matplotlib caches its font list, so a font installed after that cache was written is
    unknown to it; the system's font files are therefore scanned too and the new CJK ones are
    registered with ``fontManager.addfont``.
    """
    from matplotlib import font_manager

    fm = font_manager.fontManager

    def known() -> dict[str, str]:
        by_name: dict[str, str] = {}
        for entry in fm.ttflist:
            by_name.setdefault(entry.name, entry.fname)
        return by_name

    by_name = known()
    if not any(name in by_name for name in CJK_FONTS):
        seen = {entry.fname for entry in fm.ttflist}
        for path in font_manager.findSystemFonts():
            if path not in seen and _covers(path, _PROBE):
                try:
                    fm.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        by_name = known()
    found = {name: by_name[name] for name in CJK_FONTS if name in by_name and _covers(by_name[name], _PROBE)}
    if not found:
        found = {name: path for name, path in by_name.items() if _covers(path, _PROBE)}
    return found


def use_cjk_font(name: str | None = None) -> str | None:
    """Use a CJK font for Chinese characters in matplotlib figures.

    The font is appended to ``rcParams["font.family"]`` as a fallback: text keeps its current
    font, and only characters that font lacks (Chinese ones) are drawn with the CJK font. This
    also covers labels you add yourself to an mjfast figure. mjfast's plots call this once by
    themselves when they draw Chinese labels.

    Parameters
    ----------
    name : str, optional
        A font family name (``"Noto Sans CJK SC"``, ``"WenQuanYi Micro Hei"``, …). By default
        the first installed one of :data:`CJK_FONTS`, else any installed font that covers the
        Chinese characters mjfast's labels use.

    Returns
    -------
    str or None
        The family now used, or None when no CJK font is installed (``name`` not given).

    Raises
    ------
    ValueError
        When ``name`` is given but no installed font of that name covers Chinese text; the
        message lists the CJK fonts that are installed.

    Examples
    --------
    >>> from mjfast import plotting
    >>> font = plotting.use_cjk_font()
    >>> font is None or font in plotting.installed_cjk_fonts()
    True
    """
    import matplotlib

    found = _cjk_candidates()
    if name is None:
        if not found:
            return None
        name = next(iter(found))
    elif name not in found:
        raise ValueError(
            f"name: no installed font named {name!r} covers Chinese text; installed CJK fonts: "
            + (", ".join(found) or "none")
        )
    family = [f for f in matplotlib.rcParams["font.family"] if f not in found] + [name]
    matplotlib.rcParams["font.family"] = family
    _state["font"] = name
    return name


def installed_cjk_fonts() -> tuple[str, ...]:
    """Installed font families that cover the Chinese text of mjfast's labels, preferred first.

    Examples
    --------
    >>> from mjfast import plotting
    >>> all(isinstance(name, str) for name in plotting.installed_cjk_fonts())
    True
    """
    return tuple(_cjk_candidates())


def _language(labels: str) -> str:
    """The label language to draw: ``zh`` needs a CJK font, else (once) a hint and ``en``."""
    if labels not in ("zh", "en"):
        raise ValueError(f"labels must be 'zh' or 'en'; got {labels!r}")
    if labels == "en":
        return "en"
    import matplotlib

    if _state["font"] is not None and _state["font"] in matplotlib.rcParams["font.family"]:
        return "zh"
    if _state["warned"]:  # searched already and found nothing: say it once only
        return "en"
    if use_cjk_font() is not None:
        return "zh"
    _state["warned"] = True
    warnings.warn(_INSTALL_HINT, CJKFontWarning, stacklevel=3)
    return "en"


def _apply_font(ax, lang: str, first: str | None = None) -> None:
    """Give the Axes' texts the current font list (with its CJK fallback).

    A Text keeps the font family it was created with, and an Axes creates its title, axis
    labels and first ticks when it is made, usually before the plot function runs (and before
    the CJK fallback was added), so they are updated here; ticks made later copy the first.
    """
    if lang != "zh":
        return
    import matplotlib

    family = list(matplotlib.rcParams["font.family"])
    if first:
        family = [first, *family]
    texts = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    texts += ax.get_xticklabels(which="both") + ax.get_yticklabels(which="both")
    for axis in (ax.xaxis, ax.yaxis):
        for tick in axis.get_major_ticks() + axis.get_minor_ticks():
            texts += [tick.label1, tick.label2]
    legend = ax.get_legend()
    if legend is not None:
        texts += [*legend.get_texts(), legend.get_title()]
    for text in texts:
        text.set_fontfamily(family)


#: Label texts: key -> (English, Chinese).
_TEXT = {
    "result": ("result per game ({unit})", "每局输赢（{unit}）"),
    "loss": ("loss per game x ({unit})", "每局输分 x（{unit}）"),
    "stakes": ("stakes", "注"),
    "points": ("points", "分"),
    "p_loss": ("P(loss ≥ x)", "P(输分 ≥ x)"),
    "p_result": ("P(result ≤ x)", "P(输赢 ≤ x)"),
    "games": ("games", "局数"),
    "payouts": ("payouts, {role} seats", "输赢分布：{role}"),
    "tails": ("loss tails, {role} seats", "输分尾部：{role}"),
    "all": ("all", "所有座位"),
    "dealer": ("dealer", "庄家"),
    "non_dealer": ("non dealer", "闲家"),
    "winner": ("winner", "和牌者"),
    "discarder": ("discarder", "放炮者"),
    "rule": ("rule", "规则"),
    "label": ("rule", "规则"),
    "share_won": ("share of won games", "占和牌局的比例"),
    "draws": ("draws", "摸牌次数"),
    "probability": ("probability", "概率"),
    "ready": ("P(ready)", "听牌概率"),
    "win": ("P(win)", "和牌概率"),
    "ukeire": ("ukeire (jinzhang)", "进张"),
    "combos": ("yijinting combos / 10", "一进听组合数 / 10"),
    "copies": ("copies", "张数"),
    "discards": ("discard choices, best first", "打牌选择（由好到差）"),
    "shanten": ("{n}-shanten", "{n}向听"),
}


def _say(key: str, lang: str, **fields) -> str:
    text = _TEXT[key][lang == "zh"]
    return text.format(**fields) if fields else text


def _group_name(value, lang: str) -> str:
    """A legend entry: a rule's registry name becomes its Chinese name under ``zh``."""
    text = str(value)
    if lang == "zh":
        from .. import rules

        if text in rules.names():
            return rules.get(text).name_zh
    return text


def tile_label(code: str) -> str:
    """A tile's axis label: its glyph where a font covers it, else its mpsz code.

    Examples
    --------
    >>> tile_label("5z") in ("5z", "🀆")
    True
    """
    if glyph_font() is None or code not in CODES:
        return code
    return GLYPHS[CODES.index(code)]


def plot_payouts(games, *, seat_role="all", kind="ecdf", by="rule", ax=None, labels="zh", unit="stakes", **kwargs):
    """Distribution of a seat's result per game, one line per rule (or ``by`` group).

    The results are in ``unit`` (one-unit stakes by default, as :func:`mjfast.payout_summary`
    and :func:`mjfast.compare_rules` report them), and the x axis says which.

    Parameters
    ----------
    games : pandas.DataFrame or dict of str -> DataFrame
        A games table (see :mod:`mjfast.analysis.payout`), or a dict of label -> games table as
        :func:`mjfast.compare_rules` takes (stacked by :func:`mjfast.analysis.payout.stack_games`, so in
        one-unit stakes, one line per label).  Match tables (:func:`mjfast.simulate_matches`) are
        drawn per match and player (:func:`mjfast.analysis.payout.match_results`).
    seat_role : {"all", "dealer", "non_dealer", "winner", "discarder"}
    kind : {"ecdf", "tail", "hist"}
        ``ecdf``: empirical CDF on a symmetric-log x axis (default).  ``tail``: the loss tail
        P(loss ≥ x) on log-log axes (one point per loss size, so rare large losses stay
        visible; a group without losses draws an empty line).  ``hist``: a histogram.
    by : str
        Column whose values get one line each, in order of first appearance (default
        ``rule``, or ``label`` for a dict; a table without the column is one line).
    ax : matplotlib Axes, optional
    labels : {"zh", "en"}, default "zh"
        Language of the axis labels, the title and the legend (a rule's registry name is
        shown as its Chinese name under ``zh``); see the module notes on fonts.
    unit : {"stakes", "points"}, default "stakes"
        ``stakes``: each payment divided by the rule's one-unit stake (a ``base`` column, or the
        stake of the rule in the ``rule`` column / ``attrs["rule"]``); ``points``: the payments
        as the table holds them (see :mod:`mjfast.analysis.payout`).
    **kwargs
        Passed to ``Axes.step`` / ``Axes.hist``.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        A malformed games table (as for :func:`mjfast.payout_summary`), an unknown
        ``seat_role``, ``kind`` or ``unit``, or a ``seat_role`` that no seat of the table has (a
        table of draws has no winner): an empty plot is not drawn.

    Examples
    --------
    >>> import matplotlib.pyplot as plt, pandas as pd, mjfast as mj
    >>> games = pd.DataFrame({"dealer": [0, 1], "winners": [[0], [2]], "how": ["self_draw", "discard"],
    ...                       "discarder": [None, 1], "pay_0": [6, 0], "pay_1": [-2, -8],
    ...                       "pay_2": [-2, 8], "pay_3": [-2, 0]})
    >>> ax = mj.plot_payouts(games, ax=plt.figure().gca(), labels="en", unit="points")
    >>> ax.get_xlabel()
    'result per game (points)'
    >>> ax = mj.plot_payouts(games.assign(rule="sichuan"), ax=plt.figure().gca(), labels="en")
    >>> ax.get_xlabel(), float(ax.lines[0].get_xdata().max())    # 四川: 8 points are 8/6 of a 6-point stake
    ('result per game (stakes)', 1.3333333333333333)
    >>> ax = mj.plot_payouts(games, kind="tail", ax=plt.figure().gca(), unit="points")
    >>> ax.lines[0].get_ydata().tolist()    # P(loss >= 2) = 4/8, P(loss >= 8) = 1/8
    [0.5, 0.125]
    """
    from .payout import ROLES, _check, _check_unit, _long_results, _scale, is_match_table, match_results, stack_games

    if seat_role not in ROLES:
        raise ValueError(f"seat_role must be one of {', '.join(ROLES)}; got {seat_role!r}")
    if kind not in ("ecdf", "tail", "hist"):
        raise ValueError(f"kind must be 'ecdf', 'tail' or 'hist'; got {kind!r}")
    if isinstance(games, dict):
        games = stack_games(games)
        by = "label" if by == "rule" else by
    per_match = is_match_table(games)
    if per_match:  # a player's result over each match (match tables)
        games = match_results(games)
    _check(games)
    _check_unit(unit)
    lang = _language(labels)
    divisor, _stake = _scale(games, unit)
    long = _long_results(games, divisor)
    labels = games[by].to_numpy(object) if by in games.columns else np.full(len(games), "all", object)
    long["label"] = np.repeat(labels, 4)
    if seat_role == "non_dealer":
        long = long[~long.dealer]
    elif seat_role != "all":
        long = long[long[seat_role]]
    if long.empty:  # an empty plot would pass for a result
        raise ValueError(
            f"seat_role={seat_role!r}: no seat of the games table has that role (a table of draws has no winner)"
        )
    ax = _axes(ax)
    for label, part in long.groupby("label", sort=False):
        x = np.sort(part["result"].to_numpy(float))
        if kind == "ecdf":
            ax.step(x, np.arange(1, len(x) + 1) / len(x), where="post", label=_group_name(label, lang), **kwargs)
        elif kind == "tail":
            loss = -x[x < 0]
            sizes, counts = np.unique(loss, return_counts=True)
            # P(loss >= v) at every observed loss size v; between sizes the next size's value
            exceed = np.cumsum(counts[::-1])[::-1] / len(x)
            ax.step(sizes, exceed, where="pre", marker=".", label=_group_name(label, lang), **kwargs)
        else:
            ax.hist(
                x, bins=min(50, max(5, len(np.unique(x)))), histtype="step", label=_group_name(label, lang), **kwargs
            )
    role = _say(seat_role, lang)
    if kind == "tail":
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(_say("loss", lang, unit=_say(unit, lang)))
        ax.set_ylabel(_say("p_loss", lang))
        ax.set_title(_say("tails", lang, role=role))
    else:
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlabel(_say("result", lang, unit=_say(unit, lang)))
        ax.set_ylabel(_say("p_result", lang) if kind == "ecdf" else _say("games", lang))
        ax.set_title(_say("payouts", lang, role=role))
    if per_match:
        ax.set_xlabel(ax.get_xlabel().replace("per game", "per match").replace("每局", "每场"))
    title = None
    if by in games.columns:
        title = _say(by, lang) if by in ("rule", "label") else by
    ax.legend(title=title)
    _apply_font(ax, lang)
    return ax


def _check_table(table, name: str, need: set, source: str) -> None:
    """``table`` is a DataFrame with the columns ``need`` (as ``source`` returns them)."""
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{name} must be a DataFrame (from {source}), got {type(table).__name__}")
    if not need <= set(table.columns):
        raise ValueError(f"{name} needs columns {sorted(need)} (from {source})")


def plot_elements(frequencies, *, top=15, ax=None, labels="zh", **kwargs):
    """Bar chart of scoring-element frequencies (the output of :func:`mjfast.element_frequencies`).

    Parameters
    ----------
    frequencies : pandas.DataFrame
        Columns ``element``, ``frequency``, ``se`` and optionally ``rule`` (one bar colour per
        rule) and ``name_zh`` (the element's Chinese name, used for the bar labels under
        ``labels="zh"``; the element code otherwise).
    top : int, default 15
        How many of the most frequent elements to show.
    ax : matplotlib Axes, optional
    labels : {"zh", "en"}, default "zh"
        Language of the axis label and legend.
    **kwargs
        Passed to ``Axes.barh``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt, pandas as pd, mjfast as mj
    >>> freq = mj.element_frequencies(pd.DataFrame({"how": ["discard"], "elements": ["menqing"]}))
    >>> len(mj.plot_elements(freq, ax=plt.figure().gca()).patches)
    1
    """
    _check_table(frequencies, "frequencies", {"element", "frequency", "se"}, "element_frequencies")
    top = check_int(top, "top", 1)
    lang = _language(labels)
    ax = _axes(ax)
    groups = list(frequencies.groupby("rule", sort=True)) if "rule" in frequencies.columns else [("", frequencies)]
    width = 0.8 / max(1, len(groups))
    elements = list(dict.fromkeys(frequencies.sort_values("frequency", ascending=False)["element"]))[:top]
    y = np.arange(len(elements))
    for i, (label, part) in enumerate(groups):
        f = part.set_index("element").reindex(elements)
        ax.barh(
            y + i * width,
            f["frequency"].fillna(0),
            height=width,
            xerr=f["se"].fillna(0),
            label=_group_name(label, lang) or None,
            **kwargs,
        )
    names = elements
    if lang == "zh" and "name_zh" in frequencies.columns:
        zh = frequencies.drop_duplicates("element").set_index("element")["name_zh"]
        names = [str(zh.get(e)) if isinstance(zh.get(e), str) and zh.get(e) else e for e in elements]
    ax.set_yticks(y + width * (len(groups) - 1) / 2, names)
    ax.invert_yaxis()
    ax.set_xlabel(_say("share_won", lang))
    if len(groups) > 1:
        ax.legend(title=_say("rule", lang))
    _apply_font(ax, lang)
    return ax


def plot_win_curve(curves, *, ax=None, band=2.0, top=None, labels="zh", **kwargs):
    """P(ready) and P(win) by turn, with ±``band`` standard-error bands where the tables have them.

    Parameters
    ----------
    curves : pandas.DataFrame or dict of label -> DataFrame
        Tables with ``turn``, ``p_ready`` and ``p_win``, as :func:`mjfast.simulate_draws`
        returns (with ``se_ready`` and ``se_win``: drawn as bands) or as
        :func:`mjfast.expected_value` returns with ``by_turn=True`` (exact: no band; one pair
        of lines per discard, in the table's order, best first).  A dict draws one pair per
        entry.
    ax : matplotlib Axes, optional
    band : float, default 2.0
        Half-width of the shaded band, in standard errors.
    top : int, optional
        With a by-turn table of several discards, draw only the first ``top``.
    labels : {"zh", "en"}, default "zh"
        Language of the axis labels and legend.
    **kwargs
        Passed to ``Axes.plot``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt, pandas as pd, mjfast as mj
    >>> t = pd.DataFrame({"turn": [1, 2], "p_ready": [.2, .4], "se_ready": [.01, .01],
    ...                   "p_win": [0, .1], "se_win": [0, .01]})
    >>> len(mj.plot_win_curve({"pass": t}, ax=plt.figure().gca()).lines)
    2
    >>> bt = mj.expected_value("11p34567m45s9p1p", melds=["555z"], draws_left=6, by_turn=True)
    >>> len(mj.plot_win_curve(bt, top=2, ax=plt.figure().gca()).lines)
    4
    """
    import pandas as pd

    lang = _language(labels)
    if isinstance(curves, dict):
        items = list(curves.items())
    elif not isinstance(curves, pd.DataFrame):
        raise TypeError(
            "curves must be a DataFrame (from simulate_draws, or expected_value with by_turn=True) "
            f"or a dict of them, got {type(curves).__name__}"
        )
    elif "discard" in curves.columns:
        items = []
        for label in dict.fromkeys(curves["discard"].astype(object)):
            part = (
                curves[curves["discard"].astype(object) == label]
                if label == label
                else curves[curves["discard"].isna()]
            )
            items.append(("" if label != label or label is None else str(label), part))
        if top is not None:
            items = items[: check_int(top, "top", 1)]
    else:
        items = [("", curves)]
    for label, df in items:  # every table checked before anything is drawn
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"curve {label!r} must be a DataFrame, got {type(df).__name__}")
        missing = {"turn", "p_ready", "p_win"} - set(df.columns)
        se = {"se_ready", "se_win"} & set(df.columns)
        if len(se) == 1:  # a band needs both standard errors
            missing |= {"se_ready", "se_win"} - se
        if missing:
            raise ValueError(f"curve {label!r} lacks column(s) {', '.join(sorted(missing))}")
    ax = _axes(ax)
    for label, df in items:
        color = kwargs.pop("color", None) if len(items) == 1 else None
        for col, style in (("ready", "--"), ("win", "-")):
            p = df[f"p_{col}"].to_numpy(float)
            # one colour per option: dashed = ready, solid = won
            (line,) = ax.plot(df["turn"], p, style, color=color, label=f"{label} {_say(col, lang)}".strip(), **kwargs)
            color = line.get_color()
            if f"se_{col}" in df.columns:
                se = df[f"se_{col}"].to_numpy(float)
                ax.fill_between(
                    df["turn"],
                    np.clip(p - band * se, 0, 1),
                    np.clip(p + band * se, 0, 1),
                    color=line.get_color(),
                    alpha=0.15,
                    linewidth=0,
                )
    ax.set_xlabel(_say("draws", lang))
    ax.set_ylabel(_say("probability", lang))
    ax.set_ylim(0, 1)
    ax.legend()
    _apply_font(ax, lang)
    return ax


def plot_discards(table, *, ax=None, labels="zh", **kwargs):
    """A discard table (:func:`mjfast.analyze_discards`) as horizontal bars of 进张 and 组合数.

    Parameters
    ----------
    table : pandas.DataFrame
        The table of :func:`mjfast.analyze_discards` (columns ``discard``, ``ukeire``,
        ``combos``, ``shanten``), one bar pair per row, in the table's order.
    ax : matplotlib Axes, optional
    labels : {"zh", "en"}, default "zh"
        Language of the labels, title and legend.
    **kwargs
        Passed to ``Axes.barh``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt, mjfast as mj
    >>> df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    >>> ax = mj.plot_discards(df, ax=plt.figure().gca())
    >>> len(ax.patches) == 2 * len(df)
    True
    """
    _check_table(table, "table", {"discard", "ukeire", "combos", "shanten"}, "analyze_discards")
    lang = _language(labels)
    ax = _axes(ax)
    y = np.arange(len(table))
    ax.barh(y - 0.2, table["ukeire"], height=0.4, label=_say("ukeire", lang), **kwargs)
    ax.barh(y + 0.2, table["combos"] / 10.0, height=0.4, label=_say("combos", lang), **kwargs)
    ticks = [
        f"{tile_label(str(d))}  ({_say('shanten', lang, n=s)})" if s >= 0 else tile_label(str(d))
        for d, s in zip(table["discard"], table["shanten"])
    ]
    font = glyph_font()
    ax.set_yticks(y, ticks)
    ax.invert_yaxis()
    ax.set_xlabel(_say("copies", lang))
    ax.set_title(_say("discards", lang))
    ax.legend()
    _apply_font(ax, lang)
    if font:  # the tile glyphs first, then the text fonts
        import matplotlib

        for text in ax.get_yticklabels():
            text.set_fontfamily([font, *matplotlib.rcParams["font.family"]])
    return ax
