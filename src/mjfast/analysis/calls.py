"""Call versus pass: every legal answer to an offered discard, measured the same way.

For a 13-tile hand and a tile another player discards, :func:`call_vs_pass` lists passing,
each 碰 + discard, each 吃 variant + discard (only from the player on the left, and only where
the rule allows chows), 明杠 and 和, and measures the hand each option leaves with the
efficiency figures of ``rules/yijinting.md`` (shanten, 进张, 听张, 一进听 组合数).
"""

from __future__ import annotations

import numpy as np

from .. import _bridge
from ..efficiency import ukeire, waits, yijinting
from ..hand import Hand, Meld
from ..shape import shanten
from ..tiles import CODES, N_KINDS, parse_tile

_COLUMNS = ["option", "meld", "discard", "shanten", "ukeire", "ting", "combos"]
_OPTION_ORDER = {"win": 0, "kong": 1, "pung": 2, "chow": 3, "pass": 4}
_MC_COLUMNS = ["p_ready", "se_ready", "p_win", "se_win"]
#: Columns ``value=True`` adds (exact, from :func:`mjfast.expected_value`).
VALUE_COLUMNS = ["p_ready", "p_win", "p_win_self_draw", "p_win_discard", "ev", "ev_stakes", "mean_win", "exact"]
#: Opponent turns between a passed discard and the player's draw, by who discarded it.
_TURNS_AFTER = {"left": 0, "opposite": 1, "right": 2}
_SCORE_COLUMNS = ["mean_score", "score_q50", "score_q90"]
#: The discarder's seat when the player is seat 0 (上家 = seat 3, 对家 = 2, 下家 = 1).
_SEAT_OF = {"left": 3, "opposite": 2, "right": 1}


def seat_name(value, what: str = "from_seat") -> str:
    """The relative seat a user names: ``left`` / ``opposite`` / ``right``, or 上家 / 对家 / 下家.

    Examples
    --------
    >>> from mjfast.analysis.calls import seat_name
    >>> seat_name("上家"), seat_name("Opposite"), seat_name("下家")
    ('left', 'opposite', 'right')
    >>> seat_name("oposite")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: from_seat: unknown seat 'oposite'; did you mean 'opposite'? seats: left (上家), ...
    """
    import difflib

    from ..hand import _SOURCE_ALIASES

    key = value.strip().lower() if isinstance(value, str) else value
    if isinstance(key, str) and key in _SOURCE_ALIASES:
        return _SOURCE_ALIASES[key]
    close = difflib.get_close_matches(key, list(_SOURCE_ALIASES), n=3, cutoff=0.6) if isinstance(key, str) else []
    guesses = list(dict.fromkeys(_SOURCE_ALIASES[c] for c in close))
    hint = f"did you mean {' or '.join(repr(g) for g in guesses)}? " if guesses else ""
    raise ValueError(f"{what}: unknown seat {value!r}; {hint}seats: left (上家), opposite (对家), right (下家)")


def _measure(hand: Hand, rule, visible) -> tuple:
    """(shanten, 进张, 听张, 组合数) of a 3k+1 hand; 听张/组合 only where they are defined."""
    u = ukeire(hand, rule=rule, visible=visible)
    ting = combos = None
    if u.shanten == 0:
        ting = sum(waits(hand, rule=rule, visible=visible).values())
    elif u.shanten == 1:
        y = yijinting(hand, rule=rule, visible=visible)
        ting, combos = y.ting, y.combos
    return u.shanten, u.count, ting, combos


def _chows(tile: int, counts: np.ndarray, honours: bool = False) -> list[tuple[int, int, int]]:
    """The runs containing ``tile`` whose two other tiles are in hand; with ``honours`` (a rule
    with honour chows) also ``tile`` with any two other different winds / dragons in hand."""
    if tile >= 27:
        if not honours:
            return []
        group = range(27, 31) if tile < 31 else range(31, 34)
        others = [t for t in group if t != tile and counts[t]]
        out3 = []
        for i, a in enumerate(others):
            for b in others[i + 1 :]:
                x, y, z = sorted((tile, a, b))
                out3.append((x, y, z))
        return out3
    number, base = tile % 9, tile - tile % 9
    out = []
    for lo in (number - 2, number - 1, number):
        if lo < 0 or lo + 2 > 8:
            continue
        run = (base + lo, base + lo + 1, base + lo + 2)
        others = [t for t in run if t != tile]
        if all(counts[t] >= 1 for t in others) and (others[0] != others[1] or counts[others[0]] >= 2):
            out.append(run)
    return out


def call_vs_pass(
    hand13,
    offered,
    *,
    from_seat,
    rule=None,
    visible=None,
    melds=(),
    fixed_sets=(),
    n=None,
    draws_left=18,
    rng=None,
    n_threads=None,
    executor=None,
    progress=False,
    value=False,
    value_options=None,
    mc_games=None,
):
    """Compare every legal answer to a discarded tile: pass, 碰, 吃, 杠 or 和.

    Parameters
    ----------
    hand13 : Hand or str
        The 13-tile hand (3k+1 counting melds as 3) before the offer.
    offered : str or int
        The discarded tile.
    from_seat : {"left", "opposite", "right"} or {"上家", "对家", "下家"}
        Who discarded it; chows are only possible from the left (上家).
    rule : str or Rule, optional
        Decides which calls exist (苏州 and 四川 have no 吃), the tile set and the win forms.
    visible : tiles, optional
        Tiles seen on the table, as in :func:`mjfast.ukeire` (default: own tiles only).
    melds, fixed_sets
        Called melds, and concealed sets to treat as fixed (yijinting.md caveat 1).
    n : int, default 0
        With a positive value, each option is also played out ``n`` times with
        :func:`mjfast.simulate_draws` over ``draws_left`` draws, adding ``p_ready`` and ``p_win``
        (probabilities by the end of those draws) and their standard errors ``se_ready``,
        ``se_win``.  Every option uses the same random walls (common random numbers), so the
        differences between rows are estimated more tightly than the rows themselves.  With a
        rule, also ``mean_score``, ``score_q50`` and ``score_q90`` (the last turn of
        :func:`mjfast.simulate_draws`: points one payer owes over the runs that won, NaN when
        none did): a called meld shows what it costs, e.g. the 门清 bonus under 苏州.
    draws_left : int, default 18
        Draws that remain for this player, for the Monte-Carlo columns.
    rng : int, SeedSequence, Generator, optional
        Seed of the Monte-Carlo columns.
    n_threads, executor
        As in :func:`mjfast.simulate_draws`: OpenMP threads, or a ``concurrent.futures``
        executor; the results do not depend on them.
    progress : bool, default False
        A ``tqdm.auto`` bar counting the runs played, over all options.
    value : bool, default False
        Compare the options by the exact value of :func:`mjfast.expected_value` instead:
        ``p_ready``, ``p_win`` (= ``p_win_self_draw`` + ``p_win_discard``), ``ev`` (the
        player's expected payment), ``ev_stakes``, ``mean_win`` and ``exact``, over
        ``draws_left`` draws, and rank the rows by ``ev``.  Passing keeps the 13 tiles (the
        offered tile is then seen) and lets the players between the discarder and the player
        move before the draw; 碰/吃 fix the meld and advance the turn — the call takes the
        place of the next draw, so ``draws_left - 1`` draws follow, and the discard is seen;
        明杠 fixes the kong and draws its replacement at once (``draws_left`` draws; 杠开 is not
        tracked); 和 is the discard win itself (``p_win`` 1, ``ev`` its payment).  The greedy
        Monte Carlo stays available through ``n`` (its ``p_ready`` / ``p_win`` columns
        are then named ``mc_p_ready`` / ``mc_p_win``).
    value_options : dict, optional
        Keywords of :func:`mjfast.expected_value` for ``value=True`` (``wall``, ``depth``,
        ``discard_wins``, ``hazard``, ``max_states``, rule or scorer options).
    mc_games : int, optional
        The old name of ``n``, accepted with a ``DeprecationWarning``.

    Returns
    -------
    pandas.DataFrame
        Shown in Jupyter with its tiles drawn (as :func:`mjfast.style` does).
        One row per option, best first (a win first, then by shanten, 进张, 组合数): ``option``
        (pass / pung / chow / kong / win), ``meld`` (the called set, mpsz), ``discard`` (the tile
        thrown after the call), ``shanten``, ``ukeire``, ``ting`` and ``combos`` (nullable
        integers: 听张 where the result is ready or 1-shanten, 组合数 where it is 1-shanten).
        A kong row measures the hand before its replacement draw.  With a rule, the win row
        appears only when :func:`mjfast.can_win` accepts the discard win (seat 0 is the
        dealer, the discarder sits as ``from_seat`` says); its Monte-Carlo columns are those
        of that one win (``p_win`` 1, the score its :attr:`~mjfast.Score.points`).

    Examples
    --------
    >>> import mjfast as mj
    >>> df = mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="opposite", melds=["555z"])
    >>> df[["option", "discard", "ukeire", "ting", "combos"]].head(2).values.tolist()
    [['pung', '9p', 37, 37, 324], ['pass', '', 19, 19, 176]]

    With ``value=True`` the options are ranked by their exact expected value:

    >>> df = mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="opposite", melds=["555z"], value=True,
    ...                      draws_left=6, value_options=dict(discard_wins=False))
    >>> df[["option", "discard"]].head(2).values.tolist()   # the 碰 costs a draw: with 6 left, pass
    [['pass', ''], ['pung', '9p']]
    >>> bool(df["ev"].is_monotonic_decreasing)
    True

    Under 苏州 the Monte-Carlo columns include the score of the wins:

    >>> df = mj.call_vs_pass("11p34567m45s9p111s", "1p", from_seat="opposite", rule="suzhou",
    ...                      n=200, draws_left=6, rng=0)
    >>> list(df.columns[-3:])
    ['mean_score', 'score_q50', 'score_q90']
    >>> bool((df["score_q50"] <= df["score_q90"]).all())
    True
    """
    import pandas as pd

    from .._inputs import sample_size

    mc_games = sample_size("call_vs_pass", n, "mc_games", mc_games, default=0)
    if isinstance(mc_games, bool) or not isinstance(mc_games, (int, np.integer)) or mc_games < 0:
        raise ValueError(f"n must be a non-negative integer (Monte-Carlo runs per option), got {mc_games!r}")
    from .._inputs import default_threads
    from ..simulation._chunks import check_executor

    default_threads(n_threads)  # checked even when nothing is simulated
    check_executor(executor)
    from_seat = seat_name(from_seat)
    tile = parse_tile(offered)
    if tile >= N_KINDS:
        raise ValueError(f"{CODES[tile]} is a bonus tile; it cannot be offered")
    h = hand13 if isinstance(hand13, Hand) and not melds else Hand(hand13, melds=melds)
    if fixed_sets:
        from .._inputs import fix_sets

        h = fix_sets(h, fixed_sets)
    if h.n_tiles + 3 * h.n_melds != 13:
        raise ValueError(f"call_vs_pass needs a 13-tile hand (melds counted as 3), got {h.n_tiles + 3 * h.n_melds}")
    rule_obj = _bridge.resolve_rule(rule)
    calls = rule_obj.calls if rule_obj is not None else None
    seen = h.counts.astype(int) + h.meld_counts
    if rule_obj is not None and rule_obj.tileset.copies[tile] == 0:
        raise ValueError(f"{CODES[tile]} is not played under rule {rule_obj.name!r}")
    if seen[tile] >= 4:
        raise ValueError(f"the hand already holds all four {CODES[tile]}; it cannot be offered")

    rows = []
    hands = []  # the hand each row leaves, for the Monte-Carlo columns
    counts = h.counts

    # 和: the offered tile completes the hand (and, under a rule, the rule accepts the win)
    won = h.with_tile(tile)
    win_points = None
    if shanten(won, rule=rule) == -1:
        legal = True
        if rule_obj is not None:
            from ..scoring import WinContext, can_win, score

            bonus = h.bonus if rule_obj.flowers else ()
            if h.bonus and not rule_obj.flowers:
                raise ValueError(f"rule {rule_obj.name!r} plays no flowers: the hand's bonus tiles cannot be scored")
            ctx = WinContext(
                Hand(won.counts, melds=h.melds, bonus=bonus, wilds=h.wilds),
                win_tile=tile,
                winner=0,
                dealer=0,
                discarder=_SEAT_OF[from_seat],
            )
            legal = can_win(ctx, rule_obj)
            if legal:
                win_points = float(score(ctx, rule_obj).points)
        if legal:
            rows.append(("win", "", "", -1, 0, None, None))
            hands.append(None)

    def after_call(meld: Meld):
        rest = counts.copy()
        taken = list(meld.tiles)
        taken.remove(tile)
        for t in taken:
            rest[t] -= 1
        return rest

    def with_discards(kind: str, meld: Meld):
        rest = after_call(meld)
        for d in np.flatnonzero(rest):  # 食替 (discarding the called kind again) included
            left = rest.copy()
            left[d] -= 1
            hand = Hand(left, melds=tuple(h.melds) + (meld,), bonus=h.bonus, wilds=h.wilds)
            rows.append((kind, meld.mpsz, CODES[d]) + _measure(hand, rule, visible))
            hands.append(hand)

    if calls is None or calls.pung:
        if counts[tile] >= 2:
            with_discards("pung", Meld("pung", (tile,) * 3, source=from_seat, claimed=tile))
    if (calls is None or calls.chow == "left") and from_seat == "left":
        for run in _chows(tile, counts, calls is not None and bool(calls.chow_honours)):
            with_discards("chow", Meld("chow", run, source=from_seat, claimed=tile))
    if (calls is None or "exposed" in calls.kongs) and counts[tile] >= 3:
        meld = Meld("kong", (tile,) * 4, source=from_seat, claimed=tile)
        hand = Hand(after_call(meld), melds=tuple(h.melds) + (meld,), bonus=h.bonus, wilds=h.wilds)
        rows.append(("kong", meld.mpsz, "") + _measure(hand, rule, visible))
        hands.append(hand)
    rows.append(("pass", "", "") + _measure(h, rule, visible))
    hands.append(h)

    from .._display import tile_frame

    df = tile_frame(pd.DataFrame(rows, columns=_COLUMNS))
    for col in ("ting", "combos"):
        df[col] = df[col].astype("Int64")
    if value is not False and value is not True:
        raise ValueError(f"value must be True or False, got {value!r}")
    if value_options is not None and not value:
        raise ValueError("value_options applies to value=True only")
    if value:
        df = _value_columns(df, h, tile, from_seat, rule_obj, visible, draws_left, hands, value_options or {})
    if mc_games:
        from ..simulation._chunks import progress_bar, seed_sequence
        from ..simulation.draws import simulate_draws

        root = seed_sequence(rng)  # one seed for every option: common random numbers
        cols = _MC_COLUMNS + (_SCORE_COLUMNS if rule_obj is not None else [])
        played = [hand for hand in hands if hand is not None]
        bar = progress_bar(progress, int(mc_games) * len(played), "call_vs_pass", "run")
        mc = []
        try:
            for hand in hands:
                if hand is None:  # the win itself
                    mc.append((1.0, 0.0, 1.0, 0.0) + ((win_points,) * 3 if rule_obj is not None else ()))
                    continue
                curve = simulate_draws(
                    hand,
                    rule=rule_obj,
                    visible=visible,
                    draws_left=draws_left,
                    n=int(mc_games),
                    rng=np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key),
                    n_threads=n_threads,
                    executor=executor,
                )
                bar.update(int(mc_games))
                if len(curve):
                    mc.append(tuple(float(curve[c].iloc[-1]) for c in cols))
                else:  # draws_left=0: nothing is drawn, nothing won
                    mc.append((np.nan,) * len(cols))
        finally:
            bar.close()
        if value:
            cols_out = ["mc_" + c if c in VALUE_COLUMNS else c for c in cols]
        else:
            cols_out = cols
        df[cols_out] = np.array(mc, float).reshape(len(hands), len(cols))

    # ranked by the exact figures only, so Monte-Carlo noise never reorders the table
    if value:
        order = sorted(
            range(len(df)),
            key=lambda i: (-df["ev"][i], -df["p_win"][i], _OPTION_ORDER[df["option"][i]], df["discard"][i]),
        )
    else:
        order = sorted(
            range(len(df)),
            key=lambda i: (
                df["option"][i] != "win",
                df["shanten"][i],
                -df["ukeire"][i],
                -(0 if pd.isna(df["combos"][i]) else df["combos"][i]),
                _OPTION_ORDER[df["option"][i]],
            ),
        )
    return df.iloc[order].reset_index(drop=True)


def _value_columns(df, h: Hand, tile: int, from_seat: str, rule_obj, visible, draws_left, hands, options: dict):
    """The exact value of every row (see ``value`` in :func:`call_vs_pass`)."""
    from .._inputs import check_int, visible_counts
    from ..analysis.value import value_table

    draws_left = check_int(draws_left, "draws_left", 1)
    seen = visible_counts(visible).astype(np.int64)
    out: dict[str, list] = {c: [] for c in VALUE_COLUMNS}
    cache = {}

    def run(hand, draws, seen_extra, first_turns, discard=None):
        vis = seen.copy()
        for t in seen_extra:
            vis[t] += 1
        key = (str(hand), draws, tuple(vis), first_turns)
        if key not in cache:
            cache[key] = value_table(
                hand, rule=rule_obj, draws_left=draws, visible=vis.astype(np.uint8), first_turns=first_turns, **options
            )
        table = cache[key]
        if discard is None:
            return table.iloc[0]
        return table[table["discard"].astype(str) == discard].iloc[0]

    for i, hand in enumerate(hands):
        option = df["option"][i]
        if option == "win":
            from ..scoring import WinContext, score

            won = h.with_tile(tile)
            ctx = WinContext(
                Hand(
                    won.counts,
                    melds=h.melds,
                    bonus=h.bonus if rule_obj is not None and rule_obj.flowers else (),
                    wilds=h.wilds,
                ),
                win_tile=tile,
                winner=0,
                dealer=0,
                discarder=_SEAT_OF[from_seat],
            )
            pay = 1.0 if rule_obj is None else float(score(ctx, rule_obj).payments[0])
            from ..analysis.value import _stake_cached

            stake = (
                1.0
                if rule_obj is None
                else _stake_cached(
                    rule_obj,
                    tuple(
                        sorted(
                            (k, v) for k, v in options.items() if rule_obj is None or k not in rule_obj.option_choices
                        )
                    ),
                )
            )
            vals = dict(
                p_ready=1.0,
                p_win=1.0,
                p_win_self_draw=0.0,
                p_win_discard=1.0,
                ev=pay,
                ev_stakes=pay / stake,
                mean_win=pay,
                exact=True,
            )
        elif option == "pass":
            row = run(hand, draws_left, [tile], _TURNS_AFTER[from_seat])
            vals = {c: row[c] for c in VALUE_COLUMNS}
        elif option == "kong":
            row = run(hand, draws_left, [], 0)
            vals = {c: row[c] for c in VALUE_COLUMNS}
        else:
            d = df["discard"][i]
            before = Hand(
                hand.counts.copy(), melds=hand.melds, bonus=hand.bonus, wilds=hand.wilds, partial=True
            ).with_tile(d)
            row = run(before, draws_left - 1, [], 3, discard=d)
            vals = {c: row[c] for c in VALUE_COLUMNS}
        for c in VALUE_COLUMNS:
            out[c].append(vals[c])
    for c in VALUE_COLUMNS:
        df[c] = np.array(out[c], bool if c == "exact" else float)
    return df
