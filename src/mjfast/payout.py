"""Payout distributions from per-game records.

The input is a games table with one row per game, as the Monte-Carlo engine produces it:
``dealer`` (seat 0-3), ``winners`` (the winning seats: a list/tuple, or a comma-separated
string, empty on a draw game), ``how`` (``self_draw`` / ``discard`` / ``robbing_kong`` /
``draw_game``), ``discarder`` (seat or missing), ``pay_0`` … ``pay_3`` (seat deltas that sum to
zero), and optionally ``rule`` and ``base`` (the stake unit, to compare rules on a one-unit
stake) and ``elements`` (the scoring elements of the win, comma-separated codes).
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
        One row per game (see the module docstring for the columns).
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
        how = games_part["how"].to_numpy(object)
        won = how != "draw_game"
        n_won = int(won.sum())
        if n_won:
            p, se = _prop(float((how[won] == "self_draw").mean()), n_won)
            out.append({**head, "role": "all", "statistic": "self_draw_share", "value": p, "se": se, "n": n_won})
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

    if "elements" not in games.columns or "how" not in games.columns:
        raise ValueError("games table needs 'elements' and 'how' columns")
    keys = ["rule"] + ([] if by is None else ([by] if isinstance(by, str) else list(by)))
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
