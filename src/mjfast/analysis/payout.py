"""Payout distributions from per-game records.

The input is a games table with one row per game, as the Monte-Carlo engine produces it:
``dealer`` (seat 0-3), ``winners`` (the winning seats: a list/tuple, or a comma-separated
string, empty on a draw game), ``how`` (``self_draw`` / ``discard`` / ``robbing_kong`` /
``draw_game``), ``discarder`` (seat or missing), ``pay_0`` … ``pay_3`` (seat deltas that sum to
zero), and optionally ``rule`` and ``base`` (the stake unit, to compare rules on a one-unit
stake) and ``elements`` (the scoring elements of the win, comma-separated codes).

:func:`compare_rules` simulates several rules (or option sets) on the same seeds and summarises
them in one-unit stakes (:func:`base_stake`: what one payer owes for the rule's cheapest legal
win); :func:`stack_games` stacks per-rule tables with that stake in ``base``.

Match tables (:func:`mjfast.simulate_matches`: one row per hand with ``match`` and each player's
running total ``cum_0`` … ``cum_3``) are summarised per match and player — the unit a player
actually feels: :func:`match_results` turns one into a table with one row per match whose
``pay_p`` is player ``p``'s result over the match (``dealer`` 0: player 0 deals first,
``winners``: the players who finished on top, ``how`` ``"match"``), which every function here
accepts in place of a games table.
"""
from __future__ import annotations

import numpy as np

PAY_COLUMNS = ["pay_0", "pay_1", "pay_2", "pay_3"]
QUANTILES = (0.05, 0.25, 0.50, 0.75, 0.95, 0.99)
ROLES = ("all", "dealer", "non_dealer", "winner", "discarder")
_Z = 1.959963984540054  # two-sided 95 % normal quantile


def _seats(value) -> tuple[int, ...]:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ()
    if isinstance(value, str):
        return tuple(int(x) for x in value.replace(";", ",").split(",") if x.strip() != "")
    if isinstance(value, (int, np.integer)):
        return (int(value),)
    return tuple(int(x) for x in value)


MATCH_COLUMNS = ["match", "cum_0", "cum_1", "cum_2", "cum_3"]


def is_match_table(table) -> bool:
    """Whether ``table`` holds the hands of matches (:func:`mjfast.simulate_matches`)."""
    return all(c in getattr(table, "columns", ()) for c in MATCH_COLUMNS)


def match_results(matches):
    """One row per match: each player's result over the match, as a games table.

    Parameters
    ----------
    matches : pandas.DataFrame
        A table of :func:`mjfast.simulate_matches` (or several of them stacked by
        :func:`stack_games`: the matches are then told apart by ``label`` too).

    Returns
    -------
    pandas.DataFrame
        ``match``, the grouping columns the table has (``label``, ``rule``, ``options``, ``base``),
        ``dealer`` (0: player 0 deals the first hand), ``winners`` (the players with the best
        result, comma-separated), ``how`` (``"match"``), ``discarder`` (-1), ``hands`` (hands
        played) and ``pay_0`` … ``pay_3`` (each player's result over the match, in the rule's
        unit; they sum to zero).  ``attrs`` are kept.

    Raises
    ------
    ValueError
        A table without the match columns.

    Examples
    --------
    >>> import pandas as pd
    >>> from mjfast.analysis.payout import match_results
    >>> t = pd.DataFrame({"match": [0, 0, 1], "cum_0": [3, 5, -1], "cum_1": [-3, -3, 1],
    ...                   "cum_2": [0, -2, 0], "cum_3": [0, 0, 0]})
    >>> match_results(t)[["match", "winners", "hands", "pay_0", "pay_1"]].values.tolist()
    [[0, '0', 2, 5, -3], [1, '1', 1, -1, 1]]
    """
    import pandas as pd

    if not is_match_table(matches):
        raise ValueError(f"a match table needs the columns {', '.join(MATCH_COLUMNS)} (mjfast.simulate_matches)")
    keys = [c for c in ("label", "rule", "options", "base") if c in matches.columns]
    grouped = matches.groupby(keys + ["match"], sort=False, observed=True)
    last = grouped.tail(1)
    cum = last[["cum_0", "cum_1", "cum_2", "cum_3"]].to_numpy(np.int64)
    top = cum.max(axis=1, keepdims=True)
    out = pd.DataFrame({"match": last["match"].to_numpy()})
    for k in keys:
        out[k] = last[k].to_numpy()
    out["dealer"] = np.zeros(len(out), np.int8)
    out["winners"] = [",".join(str(p) for p in range(4) if row[p] == t) for row, t in zip(cum, top[:, 0])]
    out["how"] = "match"
    out["discarder"] = np.full(len(out), -1, np.int8)
    out["hands"] = grouped.size().to_numpy()
    for p in range(4):
        out[f"pay_{p}"] = cum[:, p]
    out.attrs = dict(getattr(matches, "attrs", {}) or {})
    return out


def _check(games):
    import pandas as pd

    if not isinstance(games, pd.DataFrame):
        raise ValueError(f"games must be a pandas DataFrame, got {type(games).__name__}")
    missing = [c for c in ["dealer", "winners", "how", *PAY_COLUMNS] if c not in games.columns]
    if missing:
        raise ValueError(f"games table lacks column(s) {', '.join(missing)}")
    if len(games) == 0:
        raise ValueError("games table is empty")
    pays = games[PAY_COLUMNS].to_numpy()
    bad = np.flatnonzero(pays.sum(axis=1) != 0)
    if bad.size:
        raise ValueError(f"payments of game row {int(bad[0])} do not sum to zero: {pays[bad[0]].tolist()}")


def _long_results(games):
    """One row per (game, seat): the seat's result in base units and its role flags."""
    import pandas as pd

    n = len(games)
    base = games["base"].to_numpy(float) if "base" in games.columns else np.ones(n)
    if (base <= 0).any():
        raise ValueError("base stakes must be positive")
    pays = games[PAY_COLUMNS].to_numpy(float) / base[:, None]
    winners = [_seats(w) for w in games["winners"]]
    discarder = games["discarder"] if "discarder" in games.columns else pd.Series([None] * n)
    disc = [(-1 if (d is None or (isinstance(d, float) and np.isnan(d))) else int(d)) for d in discarder]
    dealer = games["dealer"].to_numpy(int)
    rule = games["rule"].to_numpy(object) if "rule" in games.columns else np.full(n, "all", object)
    rows = {
        "rule": np.repeat(rule, 4),
        "game": np.repeat(np.arange(n), 4),
        "seat": np.tile(np.arange(4), n),
        "result": pays.reshape(-1),
    }
    seat = rows["seat"]
    rows["dealer"] = seat == np.repeat(dealer, 4)
    rows["winner"] = np.array([s in winners[g] for g, s in zip(rows["game"], seat)])
    rows["discarder"] = seat == np.repeat(np.array(disc), 4)
    rows["how"] = np.repeat(games["how"].to_numpy(object), 4)
    return pd.DataFrame(rows)


def _quantile_se(x: np.ndarray, q: float) -> float:
    """Non-parametric standard error of a sample quantile (order-statistic interval / 2z)."""
    n = len(x)
    half = _Z * np.sqrt(q * (1 - q) / n)
    lo, hi = np.quantile(x, [max(0.0, q - half), min(1.0, q + half)])
    return float((hi - lo) / (2 * _Z))


def _prop(p: float, n: int) -> tuple[float, float]:
    return p, float(np.sqrt(p * (1 - p) / n)) if n else float("nan")


def payout_summary(games, *, by=None):
    """Payout statistics per rule and seat role, each with a Monte-Carlo standard error.

    Parameters
    ----------
    games : pandas.DataFrame
        One row per game (see the module docstring for the columns), or a match table of
        :func:`mjfast.simulate_matches`, summarised per match and player (:func:`match_results`):
        the roles are then ``all`` (every player of every match), ``dealer`` / ``non_dealer``
        (the player who dealt the first hand / the others) and ``winner`` (the players who
        finished on top; ``win_rate`` is then the share of matches finished on top); the
        match-level statistics are ``hands_per_match`` and ``dealer_edge``.
    by : str or list of str, optional
        Extra grouping columns of ``games`` (besides ``rule``), e.g. a policy label.

    Returns
    -------
    pandas.DataFrame
        Tidy: one row per (group, ``role``, ``statistic``) with ``value``, ``se`` and ``n``
        (observations). Roles: ``all`` (every seat of every game), ``dealer``, ``non_dealer``,
        ``winner``, ``discarder``. Statistics per role: ``mean``, ``std``, ``q05`` … ``q99`` of
        the seat's result in base units, ``p_lose_gt_10x`` (P(result < −10 stakes)), and
        ``win_rate`` (share of that role's seat-games won). Game-level statistics under role
        ``all``: ``self_draw_share`` (of won games), ``draw_game_rate``, ``dealer_edge`` (dealer
        mean minus non-dealer mean).

    Examples
    --------
    >>> import pandas as pd, mjfast as mj
    >>> games = pd.DataFrame({"dealer": [0, 0], "winners": [[0], []], "how": ["self_draw", "draw_game"],
    ...                       "discarder": [None, None], "pay_0": [6, 0], "pay_1": [-2, 0],
    ...                       "pay_2": [-2, 0], "pay_3": [-2, 0]})
    >>> s = mj.payout_summary(games)
    >>> float(s.set_index(["role", "statistic"]).loc[("dealer", "mean"), "value"])
    3.0
    """
    import pandas as pd

    matches = is_match_table(games)
    if matches:
        games = match_results(games)
    _check(games)
    keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
    for k in keys:
        if k not in games.columns:
            raise ValueError(f"by: games table has no column {k!r}")
    long = _long_results(games)
    for k in keys:
        long[k] = np.repeat(games[k].to_numpy(object), 4)
    group_cols = ["rule"] + keys
    out = []
    for group, part in long.groupby(group_cols, sort=True):
        group = group if isinstance(group, tuple) else (group,)
        head = dict(zip(group_cols, group))
        games_part = part[part.seat == 0]
        n_games = len(games_part)
        for role in ROLES:
            sel = part if role == "all" else (part[~part.dealer] if role == "non_dealer" else part[part[role]])
            x = sel["result"].to_numpy(float)
            n = len(x)
            if n == 0:
                continue
            stats = [("mean", float(x.mean()), float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan"))]
            if n > 1:
                sd = float(x.std(ddof=1))
                # SE of the standard deviation, from the fourth central moment
                m4 = float(((x - x.mean()) ** 4).mean())
                se_sd = float(np.sqrt(max(m4 - sd ** 4, 0.0) / n) / (2 * sd)) if sd > 0 else 0.0
                stats.append(("std", sd, se_sd))
            for q in QUANTILES:
                stats.append((f"q{round(q * 100):02d}", float(np.quantile(x, q)), _quantile_se(x, q)))
            stats.append(("p_lose_gt_10x",) + _prop(float((x < -10).mean()), n))
            stats.append(("win_rate",) + _prop(float(sel["winner"].mean()), n))
            for name, value, se in stats:
                out.append({**head, "role": role, "statistic": name, "value": value, "se": se, "n": n})
        if matches:
            h = games["hands"].to_numpy(float)[games_part["game"].to_numpy()]
            out.append({**head, "role": "all", "statistic": "hands_per_match", "value": float(h.mean()),
                        "se": float(h.std(ddof=1) / np.sqrt(len(h))) if len(h) > 1 else float("nan"),
                        "n": n_games})
        else:
            how = games_part["how"].to_numpy(object)
            won = how != "draw_game"
            n_won = int(won.sum())
            if n_won:
                p, se = _prop(float((how[won] == "self_draw").mean()), n_won)
                out.append({**head, "role": "all", "statistic": "self_draw_share", "value": p, "se": se,
                            "n": n_won})
            p, se = _prop(float((~won).mean()), n_games)
            out.append({**head, "role": "all", "statistic": "draw_game_rate", "value": p, "se": se, "n": n_games})
        d = part[part.dealer]["result"].to_numpy(float)
        nd = part[~part.dealer]["result"].to_numpy(float)
        if len(d) > 1 and len(nd) > 1:
            # per game: dealer result minus the mean of the three others (paired, so one SE)
            edge = d - nd.reshape(-1, 3).mean(axis=1) if len(nd) == 3 * len(d) else None
            if edge is not None:
                out.append({**head, "role": "all", "statistic": "dealer_edge", "value": float(edge.mean()),
                            "se": float(edge.std(ddof=1) / np.sqrt(len(edge))), "n": len(edge)})
    return pd.DataFrame(out, columns=group_cols + ["role", "statistic", "value", "se", "n"])


def element_frequencies(games, *, by=None):
    """How often each scoring element appears among won games, per rule.

    ``games`` needs an ``elements`` column (comma-separated element codes, or lists).

    Returns
    -------
    pandas.DataFrame
        One row per (rule, element): ``games_won``, ``count`` (won games showing the element),
        ``frequency`` (count / games_won) and its binomial ``se``; sorted by rule, then
        frequency descending.

    Examples
    --------
    >>> import pandas as pd, mjfast as mj
    >>> games = pd.DataFrame({"how": ["discard", "self_draw", "draw_game"],
    ...                       "elements": ["qingyise,menqing", "menqing", ""]})
    >>> mj.element_frequencies(games)[["element", "count", "frequency"]].values.tolist()
    [['menqing', 2, 1.0], ['qingyise', 1, 0.5]]
    """
    import pandas as pd

    if not isinstance(games, pd.DataFrame):
        raise ValueError(f"games must be a pandas DataFrame, got {type(games).__name__}")
    if "elements" not in games.columns or "how" not in games.columns:
        raise ValueError("games table needs 'elements' and 'how' columns")
    keys = ["rule"] + ([] if by is None else ([by] if isinstance(by, str) else list(by)))
    missing = [k for k in keys[1:] if k not in games.columns]
    if missing:
        raise ValueError(f"by names column(s) the games table lacks: {', '.join(map(str, missing))}")
    frame = games.copy()
    if "rule" not in frame.columns:
        frame["rule"] = "all"
    won = frame[frame["how"] != "draw_game"]
    rows = []
    for group, part in won.groupby(keys, sort=True):
        group = group if isinstance(group, tuple) else (group,)
        n = len(part)
        counts: dict[str, int] = {}
        for cell in part["elements"]:
            codes = cell.split(",") if isinstance(cell, str) else list(cell)
            for code in {c.strip() for c in codes if c and c.strip()}:
                counts[code] = counts.get(code, 0) + 1
        for code, c in counts.items():
            p = c / n
            rows.append({**dict(zip(keys, group)), "element": code, "games_won": n, "count": c,
                         "frequency": p, "se": float(np.sqrt(p * (1 - p) / n))})
    df = pd.DataFrame(rows, columns=keys + ["element", "games_won", "count", "frequency", "se"])
    return df.sort_values(keys + ["frequency", "element"], ascending=[True] * len(keys) + [False, True],
                          ignore_index=True)


# --------------------------------------------------------------------------------------------
# comparing rules on a one-unit stake (issue 7)
# --------------------------------------------------------------------------------------------
#: Games per rule :func:`compare_rules` simulates when ``n_games`` is not given.
DEFAULT_N_GAMES = 10_000

def base_stake(rule, **options) -> int:
    """A rule's one-unit stake: what one payer owes for the rule's cheapest legal win.

    The stake is :attr:`mjfast.Score.points` (the share of the principal payer: the discarder
    of a discard win, each payer of a self-draw) of the smallest legal win under the rule and
    its options, scored by :func:`mjfast.score` with the scorer's default stake keywords —
    the amounts :func:`~mjfast.simulation.games.simulate_games` pays.  The candidate hands are the
    ``MINIMAL_WINS`` of the rule's scorer module (``Rule.engine.hooks``; each candidate is won by
    seat 1 with seat 0 dealing and, on a discard, seat 2 discarding, so no dealer extra reaches
    the principal payer; several candidates per rule exist because an option may move the
    minimum, e.g. 苏州 ``threshold``, 广东 ``min_fan``); the smallest ``points`` among the legal
    ones is returned.  :func:`compare_rules` divides every
    payment of a rule by this number, so a result of −3 means "lost three cheapest hands".

    Parameters
    ----------
    rule : str or Rule
        A rule name (:func:`mjfast.rules.names`) or a :class:`~mjfast.rules.Rule`.
    **options
        Rule options (as for :func:`mjfast.rules.get`), when ``rule`` is a name.

    Returns
    -------
    int
        The stake, in the rule's own payment unit (> 0).

    Raises
    ------
    ValueError
        An unknown rule or option, or options under which no candidate hand is legal.

    Examples
    --------
    >>> from mjfast.analysis.payout import base_stake
    >>> base_stake("sichuan"), base_stake("guobiao")     # 平胡 1 番 × 6; 无番和 8 + 8 番
    (6, 16)
    >>> base_stake("guangdong"), base_stake("guangdong", min_fan=1)   # 鸡胡 2^0; 平胡 2^1
    (1, 2)
    """
    from .. import rules as _rules
    from ..hand import Hand
    from ..scoring import WinContext, score
    from ..scoring._outcome import hook

    rule_obj = _rules.get(rule, **options)
    best = None
    for tiles, melds, bonus, win, self_draw in hook(rule_obj, "MINIMAL_WINS") or ():
        ctx = WinContext(Hand(tiles, melds=list(melds), bonus=bonus), win_tile=win, self_draw=self_draw,
                         winner=1, dealer=0, discarder=None if self_draw else 2)
        s = score(ctx, rule_obj)
        if s.legal and (best is None or s.points < best):
            best = int(s.points)
    if best is None or best <= 0:
        raise ValueError(f"no cheapest legal win known for {rule_obj!r}; cannot set its stake")
    return best


def _options_text(options: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in sorted(options.items()))


def _label(name: str, options: dict) -> str:
    return f"{name}({_options_text(options)})" if options else name


def _specs(rules) -> list:
    """``[(label, Rule)]`` from the ``rules`` argument of :func:`compare_rules` (a Rule is kept as
    it is: a user-declared variant is simulated as itself)."""
    from .. import rules as _rules
    from ..rules._base import Rule
    from ..simulation import games

    supported = games.SUPPORTED            # read at call time: the rules the engine plays by name
    if rules is None:
        rules = supported
    if isinstance(rules, (str, Rule)):
        rules = [rules]
    if not isinstance(rules, (list, tuple)):
        raise ValueError("rules must be None, a rule name, a list of rule names / Rules / (rule, options) "
                         f"pairs, or a dict of label -> games table; got {type(rules).__name__}")
    if not rules:
        raise ValueError("rules is empty: name at least one rule")
    out = []
    for item in rules:
        if isinstance(item, Rule):
            rule = item
        else:
            if isinstance(item, str):
                name, options = item, {}
            elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) \
                    and isinstance(item[1], dict):
                name, options = item[0], dict(item[1])
            else:
                raise ValueError(f"cannot read rule spec {item!r}: give a rule name, a Rule, "
                                 "or a (name, options dict) pair")
            if name not in supported:
                raise ValueError(f"simulate_games does not support rule {name!r} yet; supported rules: "
                                 f"{', '.join(supported)}")
            rule = _rules.get(name, **options)  # validates the options before anything is simulated
        out.append((_label(rule.name, rule.non_default_options), rule))
    labels = [s[0] for s in out]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise ValueError(f"rule spec(s) given twice: {', '.join(dup)}")
    return out


def _table_rule(label: str, games) -> tuple:
    """The rule a games table was played under, as ``(name, options, Rule or None)``: from its
    attrs (the Rule itself when the engine put it there), a ``rule`` column, or the label."""
    from .. import rules as _rules

    attrs = getattr(games, "attrs", {}) or {}
    if "rule" in attrs:
        return str(attrs["rule"]), dict(attrs.get("options") or {}), attrs.get("rule_object")
    if "rule" in games.columns:
        names = games["rule"].unique()
        if len(names) != 1:
            raise ValueError(f"games table {label!r} mixes rules {sorted(map(str, names))}; give one table per rule")
        return str(names[0]), {}, None
    if label in _rules.names():
        return label, {}, None
    raise ValueError(f"cannot tell which rule games table {label!r} was played under: it has no attrs['rule'] "
                     "(simulate_games sets it), no 'rule' column, and its label is not a rule name")


def stack_games(tables):
    """Stack per-rule games tables into one table whose payments are in one-unit stakes.

    Parameters
    ----------
    tables : dict of str -> pandas.DataFrame
        Label -> games table (as :func:`~mjfast.simulation.games.simulate_games` returns) or
        match table (:func:`mjfast.simulate_matches`).  A table's rule comes from its attrs (the
        Rule itself, or ``rule``/``options``, set by the engine), else from a single-valued
        ``rule`` column, else from its label.

    Returns
    -------
    pandas.DataFrame
        The rows of every table in order, with ``label``, ``rule``, ``options`` (text, ""
        for the defaults) and ``base`` (:func:`base_stake`) in front: the input of
        :func:`payout_summary` and :func:`~mjfast.plot_payouts`, which divide the ``pay_*``
        columns by ``base``.  ``pay_*`` keep the rule's own units.

    Raises
    ------
    ValueError
        A non-dict, an empty dict, a label that is not a non-empty string, a value that is not a
        games table, a table that already has a ``base`` or ``label`` column, or a table whose
        rule cannot be told.

    Examples
    --------
    >>> import pandas as pd
    >>> from mjfast.analysis.payout import stack_games
    >>> t = pd.DataFrame({"dealer": [0], "winners": ["1"], "how": ["discard"], "discarder": [2],
    ...                   "pay_0": [0], "pay_1": [12], "pay_2": [-12], "pay_3": [0]})
    >>> stack_games({"sichuan": t})[["label", "rule", "base", "pay_1"]].values.tolist()
    [['sichuan', 'sichuan', 6, 12]]
    """
    import pandas as pd

    if not isinstance(tables, dict):
        raise ValueError(f"tables must be a dict of label -> games table, got {type(tables).__name__}")
    if not tables:
        raise ValueError("tables is empty")
    parts = []
    for label, games in tables.items():
        if not isinstance(label, str) or not label:
            raise ValueError(f"labels must be non-empty strings, got {label!r}")
        if not isinstance(games, pd.DataFrame):
            raise ValueError(f"tables[{label!r}] must be a games DataFrame, got {type(games).__name__}")
        _check(games)
        for col in ("label", "base"):
            if col in games.columns:
                raise ValueError(f"games table {label!r} already has a {col!r} column; stack_games sets it")
        name, options, rule = _table_rule(label, games)
        stake = base_stake(rule) if rule is not None else base_stake(name, **options)
        front = pd.DataFrame({"label": label, "rule": name, "options": _options_text(options),
                              "base": stake}, index=games.index)
        rest = games.drop(columns=[c for c in ("rule", "options") if c in games.columns])
        rest.attrs = {}
        parts.append(pd.concat([front, rest], axis=1))
    out = pd.concat(parts, ignore_index=True)
    out.attrs = {}
    return out


def compare_rules(rules=None, n_games=None, *, n_matches=None, hands=None, rng=None, n_threads=None,
                  executor=None, progress=False, by=None, policy=None):
    """Payout statistics of several rules (or option sets) on the same seeds, in one-unit stakes.

    Each rule is simulated by :func:`~mjfast.simulation.games.simulate_games` (or, with
    ``n_matches``, :func:`mjfast.simulate_matches`: then the statistics are per match and player)
    from the *same* root ``SeedSequence`` (so every rule plays from the same seeds: chunk ``c``
    of every rule uses child stream ``c``), its payments are divided by its one-unit stake, and
    the statistics of :func:`payout_summary` are computed per rule.

    **One-unit stake.**  One stake is what one payer owes for the rule's cheapest legal win
    (:func:`base_stake`): :attr:`mjfast.Score.points` — the discarder's share of a discard
    win, or each payer's share of a self-draw — of the smallest legal hand under the rule and
    its options, scored with the scorer's default stake keywords as ``simulate_games`` pays
    them (e.g. 四川 平胡 1 番 = 6, 国标 无番和 8 番 = 8 + 8 = 16, 广东 鸡胡 = 1).  So a
    mean of +0.5 is half a cheapest hand per game, and ``p_lose_gt_10x`` is the chance of
    losing more than ten cheapest hands in one game, comparable across rules.

    Parameters
    ----------
    rules : None, str, list or dict
        ``None``: every rule in :data:`mjfast.simulation.games.SUPPORTED` (default options).  A rule name, or a
        list of rule names, :class:`~mjfast.rules.Rule` objects (user-declared variants
        included, simulated as they are) and ``(name, options dict)`` pairs — e.g.
        ``[("sichuan", {}), ("sichuan", {"xuezhan": True})]`` to compare options of one rule.
        Or a dict ``label -> games table`` of games (or matches) already simulated (then nothing
        is simulated, see :func:`stack_games`).
    n_games : int, optional
        Games per rule (default :data:`DEFAULT_N_GAMES`); not allowed with a dict or with
        ``n_matches``.
    n_matches : int, optional
        Simulate this many matches per rule instead of independent games.
    hands : int, optional
        Hands per match (the rule's default when None); only with ``n_matches``.
    rng : None, int, SeedSequence, BitGenerator or Generator
        The seed shared by every rule (a Generator is advanced once, not once per rule).
    n_threads, executor, progress
        Passed to :func:`~mjfast.simulation.games.simulate_games`.
    by : str or list of str, optional
        Extra grouping columns of the games tables (e.g. a policy label of tables given as a
        dict), as in :func:`payout_summary`.
    policy : optional
        The players of every simulated rule (:mod:`mjfast.policies`: one policy, or one per
        seat), passed to the simulation; None: ``Efficiency()``.

    Returns
    -------
    pandas.DataFrame
        Tidy, one row per (``label``, ``role``, ``statistic``), rules in the order given:
        ``label`` (the dict key, or ``name`` / ``name(key=value, ...)`` for non-default
        options), ``rule``, ``options`` (text), ``base_stake``, the ``by`` columns, ``role``,
        ``statistic``, ``value`` and ``se`` (in stakes for payment statistics) and ``n``
        (see :func:`payout_summary` for the roles and statistics).

    Raises
    ------
    ValueError
        An unsupported rule or invalid option, a malformed or repeated rule spec, an empty
        ``rules``, ``n_games`` that is not a positive integer, simulation arguments given
        with precomputed tables, a bad ``by``, or a games table whose payments do not sum
        to zero.

    Examples
    --------
    >>> import mjfast as mj
    >>> s = mj.compare_rules(["sichuan", ("sichuan", {"xuezhan": True})], n_games=40, rng=0, n_threads=1)
    >>> s.label.unique().tolist()
    ['sichuan', 'sichuan(xuezhan=True)']
    >>> s.base_stake.unique().tolist()
    [6]
    >>> bool(s.query("role == 'all' and statistic == 'mean'").value.abs().max() < 1e-12)   # zero-sum
    True
    """
    import numbers

    keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
    reserved = {"label", "rule", "options", "base", "base_stake", "role", "statistic", "value", "se", "n"}
    bad = [k for k in keys if not isinstance(k, str) or k in reserved]
    if bad:
        raise ValueError(f"by: cannot group by {bad}; reserved or not a column name")
    if isinstance(rules, dict):
        if n_games is not None or n_matches is not None or hands is not None or rng is not None \
                or n_threads is not None or executor is not None or progress or policy is not None:
            raise ValueError("n_games, n_matches, hands, rng, n_threads, executor, progress and policy only apply "
                             "when compare_rules simulates; a dict of games tables is summarised as it is")
        tables = rules
    else:
        from ..simulation import _chunks
        from ..simulation.games import simulate_games
        from ..simulation.matches import simulate_matches

        if n_matches is not None and n_games is not None:
            raise ValueError("give n_games (independent games) or n_matches (whole matches), not both")
        if hands is not None and n_matches is None:
            raise ValueError("hands applies to matches: give n_matches too")
        if n_matches is not None:
            count, what = n_matches, "n_matches"
        else:
            count, what = (DEFAULT_N_GAMES if n_games is None else n_games), "n_games"
        if isinstance(count, (bool, np.bool_)) or not isinstance(count, numbers.Integral) or count < 1:
            raise ValueError(f"{what} must be a positive integer, got {count!r}")
        specs = _specs(rules)
        root = _chunks.seed_sequence(rng)  # one root: each simulation copies it unchanged
        if n_matches is not None:
            tables = {label: simulate_matches(rule, int(count), hands=hands, rng=root, n_threads=n_threads,
                                              executor=executor, progress=progress, policy=policy)
                      for label, rule in specs}
        else:
            tables = {label: simulate_games(rule, int(count), rng=root, n_threads=n_threads, executor=executor,
                                            progress=progress, policy=policy)
                      for label, rule in specs}
    stacked = stack_games(tables)
    if is_match_table(stacked) and not all(is_match_table(t) for t in tables.values()):
        raise ValueError("give games tables or match tables, not both")
    summary = payout_summary(stacked, by=["label"] + keys)
    order = {label: i for i, label in enumerate(tables)}
    info = stacked.drop_duplicates("label").set_index("label")
    summary.insert(1, "options", summary["label"].map(info["options"]))
    summary.insert(2, "base_stake", summary["label"].map(info["base"]).astype("int64"))
    cols = ["label", "rule", "options", "base_stake"] + keys + ["role", "statistic", "value", "se", "n"]
    summary = summary[cols]
    rank = summary["label"].map(order)
    summary = summary.iloc[np.argsort(rank.to_numpy(), kind="stable")].reset_index(drop=True)
    return summary
