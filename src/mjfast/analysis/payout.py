"""Payout distributions from per-game records.

The input is a games table with one row per game, as the Monte-Carlo engine produces it:
``dealer`` (seat 0-3), ``winners`` (the winning seats: a list/tuple, or a comma-separated
string, empty on a draw game), ``how`` (``self_draw`` / ``discard`` / ``robbing_kong`` /
``draw_game``), ``discarder`` (seat or missing), ``pay_0`` … ``pay_3`` (seat deltas that sum to
zero), and optionally ``rule`` and ``base`` (the stake unit, to compare rules on a one-unit
stake) and ``elements`` (the scoring elements of the win, comma-separated codes).

**Units.**  Every payment statistic is in one of two units, chosen by the ``unit=`` keyword of
:func:`payout_summary`, :func:`compare_rules` and :func:`~mjfast.plot_payouts` and stated in the
``unit`` column of every result (and its ``attrs["unit"]``):

* ``"stakes"`` (the default): payments divided by the rule's one-unit stake
  (:func:`base_stake`: what one payer owes for the rule's cheapest legal win), so rules compare;
* ``"points"``: the payments as the games table holds them (what :attr:`mjfast.Score.payments`
  counts under the rule's own stake keywords, e.g. 四川 6 for a 1-番 平胡).

Thresholds are always in stakes: ``p_lose_gt_10x`` is the chance of losing more than ten
one-unit stakes in one game, whatever ``unit`` the other statistics use.  Proportions
(``win_rate``, ``p_lose_gt_10x`` …) have the unit ``proportion``.

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
#: Units of the payment statistics (see the module notes).
UNITS = ("stakes", "points")
#: The loss threshold of ``p_lose_gt_10x``, in one-unit stakes.
LOSS_THRESHOLD = 10
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
        ``match``, the grouping columns the table has (``label``, ``rule``, ``options``, ``base``,
        ``policy``),
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
    keys = [c for c in ("label", "rule", "options", "base", "policy") if c in matches.columns]
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
    pays = _numbers(games, PAY_COLUMNS)
    bad = np.flatnonzero(pays.sum(axis=1) != 0)
    if bad.size:
        row = games[PAY_COLUMNS].iloc[int(bad[0])].tolist()  # as the table holds them
        raise ValueError(f"payments of game row {int(bad[0])} do not sum to zero: {row}")
    dealer = _numbers(games, ["dealer"], "seats 0-3")[:, 0]
    _seat_column("dealer", dealer, games)
    if "discarder" in games.columns:  # -1 or missing: nobody (a self-draw or a draw)
        disc = pd.to_numeric(games["discarder"], errors="coerce").to_numpy(float)
        given = games["discarder"].notna().to_numpy()
        if np.isnan(disc[given]).any():
            _bad_row("discarder", games, np.flatnonzero(given & np.isnan(disc))[0], "a seat 0-3 or -1")
        disc = np.where(given, disc, -1.0)
        _seat_column("discarder", disc, games, nobody=True)
    winners = games["winners"]
    try:  # each distinct value once (a simulated table holds a few dozen)
        values = pd.unique(winners.to_numpy(object))
    except TypeError:  # lists of seats are not hashable: every row
        values = winners.to_numpy(object)
    for w in values:
        try:
            seats = _seats(w)
        except (TypeError, ValueError):
            seats = (-1,)
        if any(not 0 <= s <= 3 for s in seats):
            row = next(i for i, x in enumerate(winners) if x is w or x == w)
            _bad_row("winners", games, row, "seats 0-3 (e.g. '0' or '1,3'), or nothing for a draw")


def _bad_row(column: str, games, row: int, want: str):
    value = games[column].iloc[row]
    value = value.item() if isinstance(value, np.generic) else value
    raise ValueError(f"games column {column!r} must hold {want}; row {int(row)} holds {value!r}")


def _numbers(games, columns, want: str = "finite numbers") -> np.ndarray:
    """``columns`` as finite float values (a ``ValueError`` naming the first column and row that
    holds anything else)."""
    import pandas as pd

    out = np.empty((len(games), len(columns)))
    for j, c in enumerate(columns):
        col = games[c]
        if col.dtype == bool:
            _bad_row(c, games, 0, f"{want}, not booleans")
        values = pd.to_numeric(col, errors="coerce").to_numpy(float)
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            _bad_row(c, games, bad[0], want)
        out[:, j] = values
    return out


def _seat_column(column: str, values: np.ndarray, games, nobody: bool = False) -> None:
    ok = (values == np.round(values)) & (values >= (-1 if nobody else 0)) & (values <= 3)
    bad = np.flatnonzero(~ok)
    if bad.size:
        _bad_row(column, games, bad[0], "a seat 0-3 or -1" if nobody else "seats 0-3")


def _check_unit(unit) -> str:
    if unit not in UNITS:
        raise ValueError(
            f"unit must be 'stakes' (one-unit stakes, comparable across rules) or 'points' (the "
            f"payments as the table holds them); got {unit!r}"
        )
    return unit


def _stakes(games):
    """Each game's one-unit stake in the table's payment units, or None when it cannot be told.

    From a ``base`` column (:func:`stack_games`), else from the rule of the table: its ``rule``
    column (one stake per rule named there) or ``attrs["rule"]`` (with ``attrs["options"]``),
    as :func:`~mjfast.simulation.games.simulate_games` sets them."""
    n = len(games)
    if "base" in games.columns:
        base = games["base"].to_numpy(float)
        if not (base > 0).all():
            raise ValueError("base stakes must be positive")
        return base
    attrs = getattr(games, "attrs", {}) or {}
    attr_rule = _rule_name(attrs["rule"]) if "rule" in attrs else None
    options = dict(attrs.get("options") or {})
    if "rule" in games.columns:
        names = games["rule"].to_numpy(object)
        out = np.empty(n)
        for value in dict.fromkeys(names):
            name = _rule_name(value)
            try:
                stake = base_stake(name, **(options if name == attr_rule else {}))
            except ValueError:
                return None
            out[names == value] = stake
        return out
    if attr_rule is not None:
        try:
            return np.full(n, float(base_stake(attr_rule, **options)))
        except ValueError:
            return None
    return None


def _scale(games, unit: str):
    """(divisor that puts each game's payments in ``unit``, each game's stake or None)."""
    stake = _stakes(games)
    if unit == "stakes":
        if stake is None:
            raise ValueError(
                "unit='stakes' needs each game's one-unit stake: a 'base' column (stack_games), a "
                "'rule' column naming a rule or attrs['rule'] (simulate_games sets it); pass "
                "unit='points' to summarise the payments as the table holds them"
            )
        return stake, stake
    return np.ones(len(games)), stake


def _long_results(games, divisor=None, stake=None):
    """One row per (game, seat): the seat's result divided by ``divisor`` (default: the ``base``
    column, else 1), its stake (NaN when unknown) and its role flags."""
    import pandas as pd

    n = len(games)
    if divisor is None:
        divisor = games["base"].to_numpy(float) if "base" in games.columns else np.ones(n)
        if (divisor <= 0).any():
            raise ValueError("base stakes must be positive")
    pays = games[PAY_COLUMNS].to_numpy(float) / np.asarray(divisor, float)[:, None]
    winners = [_seats(w) for w in games["winners"]]
    discarder = games["discarder"] if "discarder" in games.columns else pd.Series([None] * n)
    disc = [(-1 if (d is None or (isinstance(d, float) and np.isnan(d))) else int(d)) for d in discarder]
    dealer = games["dealer"].to_numpy(int)
    if "rule" in games.columns:
        rule = games["rule"].to_numpy(object)
    else:  # a table of simulate_games / simulate_matches names its rule in attrs
        attrs = getattr(games, "attrs", {}) or {}
        rule = np.full(n, _rule_name(attrs["rule"]) if "rule" in attrs else "all", object)
    rows = {
        "rule": np.repeat(rule, 4),
        "game": np.repeat(np.arange(n), 4),
        "seat": np.tile(np.arange(4), n),
        "result": pays.reshape(-1),
        "stake": np.repeat(np.full(n, np.nan) if stake is None else np.asarray(stake, float), 4),
    }
    seat = rows["seat"]
    rows["dealer"] = seat == np.repeat(dealer, 4)
    rows["winner"] = np.array([s in winners[g] for g, s in zip(rows["game"], seat)])
    rows["discarder"] = seat == np.repeat(np.array(disc), 4)
    rows["how"] = np.repeat(games["how"].to_numpy(object), 4)
    return pd.DataFrame(rows)


def _quantile_se(x: np.ndarray, q: float) -> float:
    """Order-statistic standard error of the ``q`` quantile of ``x``, positive unless ``x`` is constant.

    The rank of the sample quantile has the binomial spread ``sqrt(q (1 - q) / n)``; the values at
    ranks ``q ± z · spread`` give a distribution-free 95 % interval, and half its width over ``z``
    is the standard error.  The ranks are read on the mid-distribution function of the sample
    (each distinct value at the middle of its share, straight lines between them, the first and
    last line extended), so a quantile that sits on a repeated value of a discrete result (most
    payouts) gets the spread towards its neighbouring values instead of 0; for distinct values
    this is the usual order-statistic interval."""
    n = len(x)
    values, counts = np.unique(x, return_counts=True)
    if n < 2 or len(values) < 2:
        return float("nan")
    mid = (np.cumsum(counts) - counts / 2) / n

    def at(u: float) -> float:
        if u <= mid[0]:
            j = 0
        elif u >= mid[-1]:
            j = len(mid) - 2
        else:
            j = int(np.searchsorted(mid, u)) - 1
        return float(values[j] + (u - mid[j]) * (values[j + 1] - values[j]) / (mid[j + 1] - mid[j]))

    half = _Z * np.sqrt(q * (1 - q) / n)
    return (at(q + half) - at(q - half)) / (2 * _Z)


def _prop(p: float, n: int) -> tuple[float, float, float, float]:
    """A proportion: (p, standard error, 95 % Wilson interval).  At p = 0 or 1 the binomial standard
    error is 0 and says nothing, so it is NaN; the interval still bounds p (a 0 seen in n trials
    has the upper bound z² / (n + z²), about 3.8 / n)."""
    if not n:
        return p, float("nan"), float("nan"), float("nan")
    se = float(np.sqrt(p * (1 - p) / n)) if 0 < p < 1 else float("nan")
    z2 = _Z * _Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, se, float(max(0.0, centre - half)), float(min(1.0, centre + half))


def _stat(name: str, value: float, se: float, unit: str) -> tuple:
    """A payment statistic with its normal 95 % interval."""
    return name, value, se, value - _Z * se, value + _Z * se, unit


def payout_summary(games, *, by=None, unit="stakes"):
    """Payout statistics per rule and seat role, each with a Monte-Carlo standard error and interval.

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
    unit : {"stakes", "points"}, default "stakes"
        Unit of the payment statistics (see the module notes): one-unit stakes (needs the stake:
        a ``base`` column, a ``rule`` column or ``attrs["rule"]``), or the payments as the table
        holds them.

    Returns
    -------
    pandas.DataFrame
        Tidy: one row per (group, ``role``, ``statistic``) with ``value``, ``se`` (standard
        error), ``ci_low`` / ``ci_high`` (95 % interval), ``n`` (observations) and ``unit``
        (``stakes`` / ``points`` for payment statistics, ``proportion`` for the others);
        ``attrs["unit"]`` is ``unit``.  The groups are ``rule`` (the table's ``rule`` column,
        else the rule its ``attrs`` name, else ``"all"``), ``policy`` when the table says which
        players produced it (a ``policy`` column, or ``attrs["policy"]`` as the simulations set
        it; ``attrs["policy"]`` of the result too when one policy played every row), then the
        ``by`` columns.  Roles: ``all`` (every seat of every game), ``dealer``,
        ``non_dealer``, ``winner``, ``discarder``.  Statistics per role: ``mean``, ``std``,
        ``q05`` … ``q99`` of the seat's result, ``p_lose_gt_10x`` (P(result < −10 stakes),
        in stakes whatever ``unit`` is; left out when ``unit="points"`` and the stake is
        unknown), and ``win_rate`` (share of that role's seat-games won).  Game-level
        statistics under role ``all``: ``self_draw_share`` (of won games),
        ``draw_game_rate``, ``dealer_edge`` (dealer mean minus non-dealer mean).

        Standard errors: of a mean the sample one; of ``std`` from the fourth moment; of a
        quantile the order-statistic one, its ranks read on the sample's mid-distribution
        function (each distinct result at the middle of its share, straight lines between), so
        a quantile on a repeated result is not given 0 (NaN only when every result is equal); of a proportion
        the binomial one, NaN at 0 or 1 where that is 0 and says nothing.  Intervals: value ±
        1.96 s.e.; for proportions the Wilson score interval, so a proportion of 0 still gets
        an upper bound (about 3.8 / n).

    Raises
    ------
    ValueError
        A malformed games table (a missing column, payments that are not finite numbers or do
        not sum to zero, a ``dealer``, ``discarder`` or ``winners`` entry that is not a seat 0-3;
        the message names the column and row), a bad ``by``, an unknown ``unit``, or
        ``unit="stakes"`` for a table whose stake cannot be told.

    Examples
    --------
    >>> import pandas as pd, mjfast as mj
    >>> games = pd.DataFrame({"dealer": [0, 0], "winners": [[0], []], "how": ["self_draw", "draw_game"],
    ...                       "discarder": [None, None], "pay_0": [6, 0], "pay_1": [-2, 0],
    ...                       "pay_2": [-2, 0], "pay_3": [-2, 0]})
    >>> s = mj.payout_summary(games, unit="points")
    >>> row = s.set_index(["role", "statistic"]).loc[("dealer", "mean")]
    >>> float(row["value"]), row["unit"]
    (3.0, 'points')
    >>> s = mj.payout_summary(games.assign(rule="sichuan"))       # 四川's stake is 6 points
    >>> row = s.set_index(["role", "statistic"]).loc[("dealer", "mean")]
    >>> float(row["value"]), row["unit"]
    (0.5, 'stakes')
    """
    import pandas as pd

    matches = is_match_table(games)
    if matches:
        games = match_results(games)
    _check(games)
    _check_unit(unit)
    keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
    for k in keys:
        if k not in games.columns:
            raise ValueError(f"by: games table has no column {k!r}")
    policies = _policy_column(games)
    if policies is not None and "policy" not in keys:
        keys = ["policy"] + keys
    divisor, stake = _scale(games, unit)
    long = _long_results(games, divisor, stake)
    # the grouping columns under names of their own: a key may be called like a column of the
    # long table (by="dealer" would otherwise replace the dealer-role flags)
    inner = [f"_by_{i}" for i in range(len(keys))]
    for k, name in zip(keys, inner):
        values = policies if k == "policy" and policies is not None else games[k].to_numpy(object)
        long[name] = np.repeat(values, 4)
    group_cols = ["rule"] + inner
    out = []

    def add(head, role, n, name, value, se, lo, hi, stat_unit):
        out.append(
            {
                **head,
                "role": role,
                "statistic": name,
                "value": value,
                "se": se,
                "ci_low": lo,
                "ci_high": hi,
                "n": n,
                "unit": stat_unit,
            }
        )

    for group, part in long.groupby(group_cols, sort=True, dropna=False):  # a missing key is a group too
        group = group if isinstance(group, tuple) else (group,)
        head = dict(zip(["rule"] + keys, group))
        games_part = part[part.seat == 0]
        n_games = len(games_part)
        for role in ROLES:
            sel = part if role == "all" else (part[~part.dealer] if role == "non_dealer" else part[part[role]])
            x = sel["result"].to_numpy(float)
            n = len(x)
            if n == 0:
                continue
            stats = [_stat("mean", float(x.mean()), float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan"), unit)]
            if n > 1:
                sd = float(x.std(ddof=1))
                # SE of the standard deviation, from the fourth central moment
                m4 = float(((x - x.mean()) ** 4).mean())
                se_sd = float(np.sqrt(max(m4 - sd**4, 0.0) / n) / (2 * sd)) if sd > 0 else float("nan")
                stats.append(_stat("std", sd, se_sd, unit))
            for q in QUANTILES:
                stats.append(_stat(f"q{round(q * 100):02d}", float(np.quantile(x, q)), _quantile_se(x, q), unit))
            # the threshold is in stakes: -10 stakes is -10 × stake points
            limit = -LOSS_THRESHOLD * (sel["stake"].to_numpy(float) if unit == "points" else 1.0)
            if not np.isnan(limit).any():
                stats.append(("p_lose_gt_10x",) + _prop(float((x < limit).mean()), n) + ("proportion",))
            stats.append(("win_rate",) + _prop(float(sel["winner"].mean()), n) + ("proportion",))
            for row in stats:
                add(head, role, n, *row)
        if matches:
            h = games["hands"].to_numpy(float)[games_part["game"].to_numpy()]
            add(
                head,
                "all",
                n_games,
                *_stat(
                    "hands_per_match",
                    float(h.mean()),
                    float(h.std(ddof=1) / np.sqrt(len(h))) if len(h) > 1 else float("nan"),
                    "hands",
                ),
            )
        else:
            how = games_part["how"].to_numpy(object)
            won = how != "draw_game"
            n_won = int(won.sum())
            if n_won:
                add(
                    head,
                    "all",
                    n_won,
                    "self_draw_share",
                    *_prop(float((how[won] == "self_draw").mean()), n_won),
                    "proportion",
                )
            add(head, "all", n_games, "draw_game_rate", *_prop(float((~won).mean()), n_games), "proportion")
        d = part[part.dealer]["result"].to_numpy(float)
        nd = part[~part.dealer]["result"].to_numpy(float)
        if len(d) > 1 and len(nd) > 1:
            # per game: dealer result minus the mean of the three others (paired, so one SE)
            edge = d - nd.reshape(-1, 3).mean(axis=1) if len(nd) == 3 * len(d) else None
            if edge is not None:
                add(
                    head,
                    "all",
                    len(edge),
                    *_stat("dealer_edge", float(edge.mean()), float(edge.std(ddof=1) / np.sqrt(len(edge))), unit),
                )
    head_cols = list(dict.fromkeys(["rule"] + keys))
    df = pd.DataFrame(out, columns=head_cols + ["role", "statistic", "value", "se", "ci_low", "ci_high", "n", "unit"])
    df.attrs["unit"] = unit
    played = _single_policy(policies)
    if played is not None:
        df.attrs["policy"] = played
    return df


def _policy_column(games):
    """The policy that played each row of ``games``: its ``policy`` column, else the one
    ``attrs["policy"]`` names (as the simulations set it); None when the table does not say."""
    if "policy" in games.columns:
        return games["policy"].to_numpy(object)
    attrs = getattr(games, "attrs", {}) or {}
    if isinstance(attrs.get("policy"), str):
        return np.full(len(games), attrs["policy"], object)
    return None


def _single_policy(policies) -> str | None:
    """The one policy of every row, or None (several, or not said)."""
    if policies is None or len(policies) == 0:
        return None
    first = policies[0]
    return first if isinstance(first, str) and (policies == first).all() else None


def element_frequencies(games, *, by=None):
    """How often each scoring element appears among won games, per rule.

    ``games`` needs an ``elements`` column (comma-separated element codes, or lists).

    Returns
    -------
    pandas.DataFrame
        One row per (rule, element): ``element`` (its code), ``name_zh`` (its Chinese name, as
        the rule's scorer gives it: from ``attrs["element_names"]``, which
        :func:`~mjfast.simulation.games.simulate_games` and :func:`stack_games` fill; missing
        for a table that lost its attrs, e.g. read back from a file), ``games_won``, ``count``
        (won games showing the element), ``frequency`` (count / games_won, a proportion) and
        its binomial ``se``; sorted by rule, then frequency descending.

    Examples
    --------
    >>> import pandas as pd, mjfast as mj
    >>> games = pd.DataFrame({"how": ["discard", "self_draw", "draw_game"],
    ...                       "elements": ["qingyise,menqing", "menqing", ""]})
    >>> mj.element_frequencies(games)[["element", "count", "frequency"]].values.tolist()
    [['menqing', 2, 1.0], ['qingyise', 1, 0.5]]
    >>> g = mj.simulate_games("sichuan", 200, rng=1, n_threads=1)
    >>> f = mj.element_frequencies(g)
    >>> f.set_index("element").loc["pinghu", "name_zh"]
    '平胡'
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
    attrs = getattr(games, "attrs", {}) or {}
    if "rule" not in frame.columns:
        frame["rule"] = attrs.get("rule", "all")
    known = attrs.get("element_names") or {}
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
        names = known.get(_rule_name(group[0]), {})
        for code, c in counts.items():
            p = c / n
            rows.append(
                {
                    **dict(zip(keys, group)),
                    "element": code,
                    "name_zh": names.get(code),
                    "games_won": n,
                    "count": c,
                    "frequency": p,
                    "se": float(np.sqrt(p * (1 - p) / n)),
                }
            )
    df = pd.DataFrame(rows, columns=keys + ["element", "name_zh", "games_won", "count", "frequency", "se"])
    return df.sort_values(
        keys + ["frequency", "element"], ascending=[True] * len(keys) + [False, True], ignore_index=True
    )


# --------------------------------------------------------------------------------------------
# comparing rules on a one-unit stake
# --------------------------------------------------------------------------------------------
#: Games per rule :func:`compare_rules` simulates when ``n`` is not given.
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
        ctx = WinContext(
            Hand(tiles, melds=list(melds), bonus=bonus),
            win_tile=win,
            self_draw=self_draw,
            winner=1,
            dealer=0,
            discarder=None if self_draw else 2,
        )
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

    supported = games.SUPPORTED  # read at call time: the rules the engine plays by name
    if rules is None:
        rules = supported
    if isinstance(rules, (str, Rule)):
        rules = [rules]
    if not isinstance(rules, (list, tuple)):
        raise ValueError(
            "rules must be None, a rule name, a list of rule names / Rules / (rule, options) "
            f"pairs, or a dict of label -> games table; got {type(rules).__name__}"
        )
    if not rules:
        raise ValueError("rules is empty: name at least one rule")
    out = []
    for item in rules:
        if isinstance(item, Rule):
            rule = item
        else:
            if isinstance(item, str):
                name, options = item, {}
            elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], dict):
                name, options = item[0], dict(item[1])
            else:
                raise ValueError(
                    f"cannot read rule spec {item!r}: give a rule name, a Rule, or a (name, options dict) pair"
                )
            try:
                name = _rules.canonical_name(name)  # 苏州, mcr, Sichuan …
            except ValueError as e:
                raise ValueError(f"simulate_games does not support rule {name!r}: {e}") from None
            if name not in supported and name not in _rules.variants():
                raise ValueError(
                    f"simulate_games does not support rule {name!r} yet; supported rules: {', '.join(supported)}"
                )
            rule = _rules.get(name, **options)  # validates the options before anything is simulated
        out.append((_label(rule.name, rule.non_default_options), rule))
    labels = [s[0] for s in out]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise ValueError(f"rule spec(s) given twice: {', '.join(dup)}")
    return out


def _rule_name(text) -> str:
    """A registry name for a rule as a table may spell it (苏州, mcr …); the text itself otherwise."""
    from .. import rules as _rules

    try:
        return _rules.canonical_name(str(text))
    except ValueError:
        return str(text)


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
        return _rule_name(names[0]), {}, None
    if _rule_name(label) in _rules.names():
        return _rule_name(label), {}, None
    raise ValueError(
        f"cannot tell which rule games table {label!r} was played under: it has no attrs['rule'] "
        "(simulate_games sets it), no 'rule' column, and its label is not a rule name"
    )


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
        for the defaults), ``base`` (:func:`base_stake`) and, when a table says which players
        produced it, ``policy`` (its ``attrs["policy"]`` or its own ``policy`` column; "" for
        a table that does not say) in front: the input of
        :func:`payout_summary` and :func:`~mjfast.plot_payouts`, which divide the ``pay_*``
        columns by ``base``.  ``pay_*`` keep the rule's own units.  ``attrs`` keeps only the
        tables' ``element_names`` (per rule, for :func:`element_frequencies`).

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
        front = pd.DataFrame(
            {"label": label, "rule": name, "options": _options_text(options), "base": stake}, index=games.index
        )
        played = (getattr(games, "attrs", {}) or {}).get("policy")
        if "policy" not in games.columns and isinstance(played, str):
            front["policy"] = played  # the players, as the simulation named them
        rest = games.drop(columns=[c for c in ("rule", "options") if c in games.columns])
        rest.attrs = {}
        parts.append(pd.concat([front, rest], axis=1))
    out = pd.concat(parts, ignore_index=True)
    if "policy" in out.columns:
        out["policy"] = out["policy"].fillna("")  # a table that does not say which policy played
    names: dict = {}  # the element names the tables carry, per rule
    for games in tables.values():
        for rule, table in ((getattr(games, "attrs", {}) or {}).get("element_names") or {}).items():
            names.setdefault(rule, {}).update(table)
    out.attrs = {"element_names": names} if names else {}
    return out


def compare_rules(
    rules=None,
    n=None,
    *,
    matches=False,
    hands=None,
    rng=None,
    n_threads=None,
    executor=None,
    progress=False,
    by=None,
    unit="stakes",
    n_games=None,
    n_matches=None,
    policy=None,
):
    """Payout statistics of several rules (or option sets) on the same seeds, in one-unit stakes.

    Each rule is simulated by :func:`~mjfast.simulation.games.simulate_games` (or, with
    ``matches=True``, :func:`mjfast.simulate_matches`: then the statistics are per match and player)
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
    n : int, optional
        Games per rule (default :data:`DEFAULT_N_GAMES`), or matches per rule with
        ``matches=True`` (then required); not allowed with a dict.
    matches : bool, default False
        Simulate whole matches (:func:`mjfast.simulate_matches`) instead of independent games.
    hands : int, optional
        Hands per match (the rule's default when None); only with ``matches=True``.
    rng : None, int, SeedSequence, BitGenerator or Generator
        The seed shared by every rule (a Generator is advanced once, not once per rule).
    n_threads, executor, progress
        Passed to :func:`~mjfast.simulation.games.simulate_games`.
    by : str or list of str, optional
        Extra grouping columns of the games tables (e.g. a policy label of tables given as a
        dict), as in :func:`payout_summary`.
    unit : {"stakes", "points"}, default "stakes"
        Unit of the payment statistics: one-unit stakes, comparable across rules, or each
        rule's own payments (``base_stake`` converts).  ``p_lose_gt_10x`` is in stakes either way.
    n_games, n_matches : int, optional
        The old names of ``n`` (``n_matches=k`` is ``n=k, matches=True``), accepted with a
        ``DeprecationWarning``.
    policy : optional
        The players of every simulated rule (:mod:`mjfast.policies`: one policy, or one per
        seat), passed to the simulation; None: ``Value()`` (:data:`mjfast.policies.DEFAULT`).

    Returns
    -------
    pandas.DataFrame
        Tidy, one row per (``label``, ``role``, ``statistic``), rules in the order given:
        ``label`` (the dict key, or ``name`` / ``name(key=value, ...)`` for non-default
        options), ``rule``, ``options`` (text), ``base_stake`` (in points), ``policy`` (the
        players that produced each table, as :func:`stack_games` reads them; left out when no
        table says), the ``by`` columns, ``role``, ``statistic``, ``value``, ``se``,
        ``ci_low``, ``ci_high``, ``n`` and ``unit`` (see :func:`payout_summary` for the roles,
        statistics, errors and units); ``attrs["unit"]`` is ``unit``, and ``attrs["policy"]``
        names the policy when one played every table.

    Raises
    ------
    ValueError
        An unsupported rule or invalid option, a malformed or repeated rule spec, an empty
        ``rules``, an ``n`` that is not a positive integer, simulation arguments given
        with precomputed tables, a bad ``by``, or a games table whose payments do not sum
        to zero.

    Examples
    --------
    >>> import mjfast as mj
    >>> s = mj.compare_rules(["sichuan", ("sichuan", {"xuezhan": True})], n=40, rng=0, n_threads=1)
    >>> s.label.unique().tolist()
    ['sichuan', 'sichuan(xuezhan=True)']
    >>> s.base_stake.unique().tolist()
    [6]
    >>> bool(s.query("role == 'all' and statistic == 'mean'").value.abs().max() < 1e-12)   # zero-sum
    True
    """
    import numbers

    from .._inputs import sample_size

    if n_games is not None and n_matches is not None:
        raise ValueError("give n_games (independent games) or n_matches (whole matches), not both")
    if n_matches is not None:
        n, matches = sample_size("compare_rules", n, "n_matches", n_matches), True
    else:
        n = sample_size("compare_rules", n, "n_games", n_games)
    keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
    _check_unit(unit)
    reserved = {
        "label",
        "rule",
        "options",
        "base",
        "base_stake",
        "role",
        "statistic",
        "value",
        "se",
        "ci_low",
        "ci_high",
        "n",
        "unit",
    }
    bad = [k for k in keys if not isinstance(k, str) or k in reserved]
    if bad:
        raise ValueError(f"by: cannot group by {bad}; reserved or not a column name")
    if isinstance(rules, dict):
        if (
            n is not None
            or matches
            or hands is not None
            or rng is not None
            or n_threads is not None
            or executor is not None
            or progress
            or policy is not None
        ):
            raise ValueError(
                "n, matches, hands, rng, n_threads, executor, progress and policy only apply when "
                "compare_rules simulates; a dict of games tables is summarised as it is"
            )
        tables = rules
    else:
        from ..simulation import _chunks
        from ..simulation.games import simulate_games
        from ..simulation.matches import simulate_matches

        if hands is not None and not matches:
            raise ValueError("hands applies to matches: pass matches=True too")
        if matches and n is None:
            raise ValueError("n: say how many matches per rule to play with matches=True")
        count = DEFAULT_N_GAMES if n is None else n
        if isinstance(count, (bool, np.bool_)) or not isinstance(count, numbers.Integral) or count < 1:
            raise ValueError(
                f"n must be a positive integer ({'matches' if matches else 'games'} per rule), got {count!r}"
            )
        specs = _specs(rules)
        root = _chunks.seed_sequence(rng)  # one root: each simulation copies it unchanged
        if matches:
            tables = {
                label: simulate_matches(
                    rule,
                    int(count),
                    hands=hands,
                    rng=root,
                    n_threads=n_threads,
                    executor=executor,
                    progress=progress,
                    policy=policy,
                )
                for label, rule in specs
            }
        else:
            tables = {
                label: simulate_games(
                    rule, int(count), rng=root, n_threads=n_threads, executor=executor, progress=progress, policy=policy
                )
                for label, rule in specs
            }
    stacked = stack_games(tables)
    if is_match_table(stacked) and not all(is_match_table(t) for t in tables.values()):
        raise ValueError("give games tables or match tables, not both")
    summary = payout_summary(stacked, by=["label"] + keys, unit=unit)
    order = {label: i for i, label in enumerate(tables)}
    info = stacked.drop_duplicates("label").set_index("label")
    summary.insert(1, "options", summary["label"].map(info["options"]))
    summary.insert(2, "base_stake", summary["label"].map(info["base"]).astype("int64"))
    played = ["policy"] if "policy" in summary.columns and "policy" not in keys else []
    cols = (
        ["label", "rule", "options", "base_stake"]
        + played
        + keys
        + ["role", "statistic", "value", "se", "ci_low", "ci_high", "n", "unit"]
    )
    policy_attr = summary.attrs.get("policy")
    summary = summary[cols]
    rank = summary["label"].map(order)
    summary = summary.iloc[np.argsort(rank.to_numpy(), kind="stable")].reset_index(drop=True)
    summary.attrs = {"unit": unit} if policy_attr is None else {"unit": unit, "policy": policy_attr}
    return summary
