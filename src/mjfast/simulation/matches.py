"""Monte-Carlo whole matches: many hands in a row, the deal passing as the rule says.

:func:`simulate_matches` plays ``n`` matches of ``hands`` hands each with the game
engine of :mod:`mjfast.simulation.games` (the same players, scoring and settlements), carrying
from one hand to the next what a table carries:

* the dealer — each rule's rotation, from its scorer's ``next_deal`` hook (default: the first
  winner deals, a draw keeps the dealer), or the fixed order of ``EngineFacts.rounds ==
  "fixed"`` (国标: every seat deals once per round, no 连庄);
* the prevalent wind — it advances after every four changes of dealer (``rounds="passes"``), or
  every four hands (``"fixed"``);
* the seating — players change seats where the rule says so (国标: East with South and West with
  North before the third round);
* round state — the two dice of every hand and the previous hand, read by the rule's
  ``win_state`` hook (苏州 豹子 and 滴零 doubling), and the dealer's streak of consecutive deals
  (贵阳 连庄 n).

Player ``p`` sits at seat ``p`` in the first hand and seat 0 deals it.  Chunk ``c`` of
:data:`MATCH_CHUNK` matches uses random stream ``c`` and plays its matches hand by hand, so the
result depends only on the seed, never on ``n_threads`` or the executor.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .. import policies as _policies
from .._inputs import MAX_SAMPLES, check_int, check_samples, default_threads, sample_size
from ..scoring._outcome import Round
from . import _chunks
from . import games as _games

#: Matches per chunk (one random stream each).  Changing it changes every seeded result.
MATCH_CHUNK = 64

#: Columns of :func:`simulate_matches` before the per-hand columns of ``simulate_games``.
KEYS = ("match", "hand", "dealer", "prevalent_wind")
#: Values of :func:`simulate_matches`'s ``wind``.
WINDS = ("passes", "hands")
#: Columns of :func:`match_summary`.
SUMMARY_COLUMNS = ("match", "player", "total", "rank", "wins", "self_draws", "deal_ins", "dealt")


def _first_winner_deals(outcome) -> int:
    """The default rotation: the hand's first winner deals; after a draw the dealer stays."""
    winners = outcome.winners
    return winners[0] if winners else outcome.dealer


class _Table:
    """The state one match carries from hand to hand (its players' totals are :func:`_play`'s)."""

    __slots__ = ("index", "dealer", "wind", "streak", "changes", "seating", "previous")

    def __init__(self, index: int):
        self.index = index
        self.dealer = 0
        self.wind = 0
        self.streak = 0
        self.changes = 0
        self.seating: tuple[int, ...] = (0, 1, 2, 3)
        self.previous = None


def _begin_hand(game, table: _Table, hand: int, wind: str) -> None:
    """Set the dealer, wind and seating of hand ``hand`` (0-based): the fixed order of
    ``rounds="fixed"``; the prevalent wind every four hands under ``wind="hands"``."""
    facts = game.facts
    if facts.rounds == "fixed":
        rnd, k = divmod(hand, 4)
        for before, perm in facts.seat_swaps:
            if before == rnd and k == 0:
                table.seating = tuple(table.seating[perm[s]] for s in range(4))
        table.dealer = k
        table.streak = 0
    if wind == "hands":
        table.wind = (hand // 4) % 4


def _end_hand(table: _Table, nxt: int, wind: str) -> None:
    """Pass the deal to seat ``nxt`` after a finished hand (not under fixed rounds); under
    ``wind="passes"`` the prevalent wind advances after every four changes of dealer."""
    if nxt == table.dealer:
        table.streak += 1
    else:
        table.streak = 0
        table.changes += 1
        if wind == "passes" and table.changes % 4 == 0:
            table.wind = (table.wind + 1) % 4
    table.dealer = nxt


def _match_major(per_hand: list) -> list:
    """The values of ``per_hand[h][i]`` (hand ``h``, match ``i``) in match-major order: every hand
    of match 0, then match 1, ..."""
    return [x for by_hand in zip(*per_hand) for x in by_hand]


def _play(game, bitgens: list, sizes, n_threads: int, n_hands: int, wind: str) -> dict:
    """Play the matches of a batch of chunks; columns as lists or arrays (``match`` numbered
    from 0 in the batch, ``_n`` the number of matches).

    Only the previous hand's Outcome is kept per match (a finished hand's round drops its own
    ``previous``), so the objects alive do not grow with the hands played."""
    n = int(np.sum(sizes))
    tables = [_Table(i) for i in range(n)]
    extra = _games._extra_columns(game)
    per_hand: list[tuple[Any, ...]] = []  # per hand: (rows, seatings, winds, dice or None)
    totals = np.zeros((n, 4), np.int64)  # each match's players' results so far
    cum = np.zeros((n_hands, n, 4), np.int64)  # the same after each hand
    dice = game.facts.dice
    rotate = None if game.facts.rounds == "fixed" else game.next_deal or _first_winner_deals
    begins = game.facts.rounds == "fixed" or wind == "hands"  # otherwise _begin_hand does nothing
    for h in range(n_hands):
        if begins:
            for t in tables:
                _begin_hand(game, t, h, wind)
        dealers = np.fromiter((t.dealer for t in tables), np.int8, n)
        winds = np.fromiter((t.wind for t in tables), np.int8, n)
        seating = tables[0].seating  # the same in every match (seats move only under fixed rounds)
        lineup = tuple(game.seats[seating[s]] for s in range(4))
        scores = None
        if _policies.any_user(lineup):  # what a user policy sees: the seats' results so far
            scores = [tuple(row) for row in totals[:, seating].tolist()]
        raw = _games._raw(
            game,
            bitgens,
            sizes,
            n_threads,
            dealers=dealers,
            winds=winds,
            dice=dice,
            seats=lineup,
            scores=scores,
        )
        thrown = raw[0][:, 14].tolist()
        rounds, bare = [], []  # each hand's Round, and the same without the previous hand
        for t, d in zip(tables, thrown):
            pair = (d // 6 + 1, d % 6 + 1) if d >= 0 else None
            rounds.append(Round(t.index, h, t.dealer, t.wind, t.streak, pair, t.previous, t.seating))
            bare.append(Round(t.index, h, t.dealer, t.wind, t.streak, pair, None, t.seating))

        def settled(i, outcome, pay):  # rotate and let the hand go as soon as it is settled
            t = tables[i]
            outcome.round = bare[i]  # the chain of hands ends here
            if rotate is not None:
                nxt = int(rotate(outcome))
                if not 0 <= nxt <= 3:
                    raise ValueError(f"{game.name}: next_deal returned {nxt!r}, not a seat 0-3")
                _end_hand(t, nxt, wind)
            outcome.release()  # the next hand reads only its events
            t.previous = outcome

        rec, hands, melds, kongs, events, seat_fields = raw  # (no log: six arrays)
        rows = _games._rows(game, rec, hands, melds, kongs, events, seat_fields, rounds=rounds, on_outcome=settled)
        pay = np.array([rows[f"pay_{s}"] for s in range(4)], np.int64).T  # (match, seat)
        totals[:, seating] += pay  # the player at seat s receives seat s's result
        cum[h] = totals
        per_hand.append(
            (
                rows,
                [r.seating for r in rounds],
                [r.prevalent_wind for r in rounds],
                [r.dice for r in rounds] if dice else None,
            )
        )
    # match-major order: every hand of match 0, then match 1, ...
    cols: dict = {"match": np.repeat(np.arange(n), n_hands), "hand": np.tile(np.arange(n_hands), n)}
    cols["prevalent_wind"] = _match_major([ph[2] for ph in per_hand])
    for c in _games.COLUMNS[1:] + extra:
        cols[c] = _match_major([ph[0][c] for ph in per_hand])
    if game.facts.seat_swaps:
        cols["seating"] = ["".join(map(str, s)) for s in _match_major([ph[1] for ph in per_hand])]
    if dice:
        cols["dice"] = ["{}{}".format(*d) for d in _match_major([ph[3] for ph in per_hand])]
    by_match = cum.transpose(1, 0, 2).reshape(n * n_hands, 4)
    for p in range(4):
        cols[f"cum_{p}"] = by_match[:, p]
    cols["_n"] = n
    return cols


def _task(game, n_hands: int, wind: str, children, sizes):
    """One executor task: the chunks' streams from their seeds, on one thread."""
    return _play(game, _chunks.bit_generators(children), sizes, 1, n_hands, wind)


_COMPACT = {"match": "int64", "hand": "int16", "prevalent_wind": "int8"}


def _joined(parts: list, c: str):
    """Column ``c`` of the batches, in order (arrays joined as arrays, lists as a list)."""
    if len(parts) == 1:
        return parts[0][c]
    if isinstance(parts[0][c], np.ndarray):
        return np.concatenate([p[c] for p in parts])
    return [x for p in parts for x in p[c]]


def _batch(game, parts: list):
    """A batch of :func:`iter_matches`: its hands, ``attrs["policy"]`` naming the players."""
    df = _frame(game, parts)
    df.attrs["policy"] = _policies.label(game.seats)
    return df


def _frame(game, parts: list):
    import pandas as pd

    first = _games._frame(game, [{c: _joined(parts, c) for c in parts[0]}], 0)
    first = first.drop(columns="game")
    data = {c: np.asarray(_joined(parts, c), _COMPACT[c]) for c in _COMPACT}
    data["dealer"] = first["dealer"].to_numpy()
    out = pd.concat([pd.DataFrame(data, columns=list(KEYS)), first.drop(columns=["dealer"])], axis=1)
    for c in ("seating", "dice"):
        if c in parts[0]:
            out[c] = pd.Categorical(_joined(parts, c))
    for p in range(4):
        out[f"cum_{p}"] = np.asarray(_joined(parts, f"cum_{p}"), np.int64)
    return out


def iter_matches(
    rule,
    n: int | None = None,
    *,
    hands: int | None = None,
    wind: str | None = None,
    rng=None,
    policy=None,
    n_threads: int | None = None,
    executor=None,
    progress: bool = False,
    batch_matches: int = 4096,
    **rule_options,
):
    """Simulate matches as :func:`simulate_matches` does, handing them back in batches of whole
    matches (memory stays bounded however many are played).

    Parameters
    ----------
    rule, n, hands, wind, rng, policy, n_threads, executor, progress, **rule_options
        As for :func:`simulate_matches`.
    batch_matches : int, default 4096
        Matches per yielded batch, rounded up to whole chunks of :data:`MATCH_CHUNK`.

    Yields
    ------
    pandas.DataFrame
        The next matches' hands, in order (the columns of :func:`simulate_matches`);
        ``attrs["policy"]`` names the players.

    Examples
    --------
    >>> from mjfast.simulation.matches import iter_matches
    >>> [b["match"].nunique() for b in iter_matches("sichuan", 150, hands=2, rng=0, n_threads=1,
    ...                                             batch_matches=64)]
    [64, 64, 22]
    """
    game, n_matches, n_hands, wind, threads = _check(
        "iter_matches", rule, n, hands, wind, policy, n_threads, executor, rule_options
    )
    batch_matches = check_samples(batch_matches, "batch_matches")
    check_samples(batch_matches * n_hands, "batch_matches * hands", 120)  # a batch is held in memory
    return _iter(game, n_matches, n_hands, wind, rng, threads, executor, progress, batch_matches)


def _check(func, rule, n, hands, wind, policy, n_threads, executor, rule_options):
    n_matches = check_samples(sample_size(func, n, "n_matches", rule_options.pop("n_matches", None)), "n")
    game = _games._resolve(rule, policy, rule_options)
    n_hands = game.facts.match_hands if hands is None else check_int(hands, "hands", 1, MAX_SAMPLES)
    check_samples(n_matches * n_hands, "n * hands")
    if wind is None:
        wind = "hands" if game.facts.rounds == "fixed" else "passes"
    elif wind not in WINDS:
        raise ValueError(f"wind must be one of {', '.join(WINDS)} (or None: the rule's), got {wind!r}")
    threads = default_threads(n_threads)
    _chunks.check_executor(executor)
    return game, n_matches, n_hands, wind, threads


def _iter(game, n_matches, n_hands, wind, rng, threads, executor, progress, batch_matches):
    def local(bitgens, sizes, k):
        return _play(game, bitgens, sizes, k, n_hands, wind)

    parts, held, first = [], 0, 0
    for part in _chunks.iter_chunks(
        n_matches,
        rng,
        local=local,
        task=functools.partial(_task, game, n_hands, wind),
        n_threads=threads,
        executor=executor,
        progress=progress,
        desc=f"simulate_matches({game.name})",
        unit="match",
        chunk_size=MATCH_CHUNK,
        max_batch_chunks=-(-batch_matches // MATCH_CHUNK),
    ):
        k = part.pop("_n")
        part["match"] = part["match"] + (first + held)  # parts come in chunk order
        parts.append(part)
        held += k
        if held >= batch_matches:
            yield _batch(game, parts)
            first += held
            parts, held = [], 0
    if parts:
        yield _batch(game, parts)


def simulate_matches(
    rule,
    n: int | None = None,
    *,
    hands: int | None = None,
    wind: str | None = None,
    rng=None,
    policy=None,
    n_threads: int | None = None,
    executor=None,
    progress: bool = False,
    **rule_options,
):
    """Simulate whole matches under a rule: hands in a row, with the rule's dealer rotation,
    prevalent wind, seating and round state; one row per hand.

    Parameters
    ----------
    rule : str or Rule
        A rule name or any :class:`~mjfast.rules.Rule` (user-declared variants included; it is
        pickled as it is to process pools and Dask workers).
    n : int
        Matches to play, ``> 0`` (``n_matches=``, its old name, is accepted with a
        ``DeprecationWarning``).
    hands : int, optional
        Hands per match (default: the rule's ``EngineFacts.match_hands``, 16 — four rounds of
        four deals; 国标's source states 16 hands).
    wind : {None, "passes", "hands"}
        How the prevalent wind advances: ``"passes"`` after every four changes of dealer (广东's
        "after the last seat has dealt and lost the deal"; the choice made for the rules whose
        sources are silent), ``"hands"`` every four hands (国标's rounds); None: the rule's
        (``"hands"`` for ``EngineFacts.rounds == "fixed"``, else ``"passes"``).
    rng : None, int, SeedSequence, BitGenerator or Generator
        Seed (SPEC 7); chunk ``c`` of :data:`MATCH_CHUNK` matches uses stream ``c``, so results
        do not depend on ``n_threads`` or ``executor``.
    policy : None, "value", "efficiency", policy object, or list / tuple of four
        The players (:mod:`mjfast.policies`), as for :func:`~mjfast.simulation.games.simulate_games`;
        a list gives player ``p`` (who sits at seat ``p`` in the first hand and moves with the
        rule's seat changes) the policy ``policy[p]``.
    n_threads : int, optional
        OpenMP threads (None: all cores).
    executor : concurrent.futures.Executor, optional
        Run groups of chunks as tasks (each on one thread), e.g. a ``ProcessPoolExecutor`` or a
        dask ``client.get_executor()``.
    progress : bool, default False
        A ``tqdm.auto`` progress bar counting the matches played.
    **rule_options
        Options of the rule (``mjfast.rules.get(rule, **rule_options)``).

    Returns
    -------
    pandas.DataFrame
        One row per hand, match by match: ``match``, ``hand`` (0-based), ``dealer`` (the seat
        that dealt), ``prevalent_wind`` (0-3 = East South West North), then the per-hand
        columns of :func:`~mjfast.simulation.games.simulate_games` (``winners`` … ``pay_3``
        in seat deltas, and ``flipped`` / ``voids`` where the rule has them), ``seating``
        (the player at each seat, e.g. ``"1032"``; for the rules whose players change seats),
        ``dice`` (the two dice, e.g. ``"35"``; for the rules whose round state reads them)
        and ``cum_0`` … ``cum_3``: player ``p``'s running total in the match after this hand
        (player ``p`` sits at seat ``p`` in the first hand, and at the same seat throughout
        unless the rule moves players).  :func:`match_summary` gives one row per match and
        player.  ``attrs`` holds the rule's name, its non-default options, the Rule, the
        number of matches and of hands, the wind and the policy (a readable name).

    Raises
    ------
    ValueError
        An unknown rule or option (a rotation option given an invalid value included),
        ``n <= 0``, ``hands <= 0``, more hands in all than this machine's memory can hold
        (:func:`iter_matches` streams them) or above ``2**40``, an unknown ``wind``, an
        unknown policy, a bad ``rng``, executor or ``n_threads``.

    Examples
    --------
    >>> from mjfast.simulation.matches import simulate_matches, match_summary
    >>> df = simulate_matches("guobiao", 3, rng=0, n_threads=1)
    >>> len(df), df["dealer"].tolist()[:8], df["prevalent_wind"].tolist()[::4]
    (48, [0, 1, 2, 3, 0, 1, 2, 3], [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3])
    >>> s = match_summary(df)
    >>> len(s), bool((s.groupby("match")["total"].sum() == 0).all())
    (12, True)
    """
    game, n_matches, n_hands, wind, threads = _check(
        "simulate_matches", rule, n, hands, wind, policy, n_threads, executor, rule_options
    )
    check_samples(n_matches * n_hands, "n * hands", 120, "iter_matches streams the matches in batches")
    (df,) = _iter(game, n_matches, n_hands, wind, rng, threads, executor, progress, n_matches)
    df.attrs.update(
        rule=game.name,
        options=game.rule.non_default_options,
        rule_object=game.rule,
        n_matches=n_matches,
        hands=n_hands,
        wind=wind,
        policy=_policies.label(game.seats),
    )
    return df


def match_summary(matches):
    """One row per match and player: the final result of a match table.

    Parameters
    ----------
    matches : pandas.DataFrame
        A table of :func:`simulate_matches`.

    Returns
    -------
    pandas.DataFrame
        ``match``, ``player``, ``total`` (the player's result over the match, in the rule's
        payment unit), ``rank`` (1 = best; ties share the better rank), ``wins`` (hands won,
        血战 wins included), ``self_draws``, ``deal_ins`` (hands whose first win was on this
        player's discard), ``dealt`` (hands this player dealt).

    Raises
    ------
    ValueError
        A table without the match columns.
    """
    import pandas as pd

    need = ["match", "dealer", "winners", "how", "discarder"] + [f"cum_{p}" for p in range(4)]
    if not isinstance(matches, pd.DataFrame) or any(c not in matches.columns for c in need):
        raise ValueError(
            "matches must be a table of simulate_matches (columns match, dealer, winners, how, "
            "discarder, cum_0 .. cum_3)"
        )
    if len(matches) == 0:
        raise ValueError("matches table is empty")
    seating = matches["seating"].astype(str).tolist() if "seating" in matches.columns else ["0123"] * len(matches)
    m = matches["match"].to_numpy()
    last = np.r_[m[1:] != m[:-1], True]
    rows = {}
    for i, (match, winners, how, disc, dealer) in enumerate(
        zip(
            m,
            matches["winners"].astype(str),
            matches["how"].astype(str),
            matches["discarder"].to_numpy(),
            matches["dealer"].to_numpy(),
        )
    ):
        seats = seating[i]
        for p in range(4):
            rows.setdefault((match, p), [0, 0, 0, 0])
        rows[(match, int(seats[int(dealer)]))][3] += 1
        ws = [int(x) for x in winners.split(",") if x]
        for w in ws:
            rows[(match, int(seats[w]))][0] += 1
        if how == "self_draw" and ws:
            rows[(match, int(seats[ws[0]]))][1] += 1
        if how in ("discard", "robbing_kong") and disc >= 0:
            rows[(match, int(seats[int(disc)]))][2] += 1
    cum = matches[[f"cum_{p}" for p in range(4)]].to_numpy()[last]
    out = []
    for match, totals in zip(m[last], cum):
        order = sorted(totals, reverse=True)
        for p in range(4):
            wins, zimo, deal_ins, dealt = rows[(match, p)]
            out.append((int(match), p, int(totals[p]), order.index(totals[p]) + 1, wins, zimo, deal_ins, dealt))
    return pd.DataFrame(out, columns=list(SUMMARY_COLUMNS))


#: Columns of :func:`duplicate_match`.
DUPLICATE_COLUMNS = ("policy", "mean_stakes", "se_stakes", "n_walls")


def _lineups(policies: tuple) -> list:
    """The four rotations' seat policies: slot ``i`` of the lineup is ``policies[i % k]``, and
    rotation ``r`` seats slot ``(s - r) % 4`` at seat ``s`` (everyone moves one seat on)."""
    slots = [policies[i % len(policies)] for i in range(4)]
    return [tuple(slots[(s - r) % 4] for s in range(4)) for r in range(4)]


def duplicate_match(
    rule,
    policies,
    n_walls: int,
    *,
    rng=None,
    n_threads: int | None = None,
    executor=None,
    progress: bool = False,
    **rule_options,
):
    """Which policy wins more: every wall played four times, the seats rotated (duplicate format).

    The four seats are filled by ``policies`` in turn (slot ``i`` plays ``policies[i % k]`` for
    ``k`` policies).  Each wall — the shuffle, the dealer, the dice and the indicator of one
    random stream — is played four times, the players moving one seat on each time, so that every
    slot plays every seat's tiles of that wall once, and the luck of the deal cancels out of the
    comparison.  A wall's four hands are independent hands as in
    :func:`~mjfast.simulation.games.simulate_games` (game ``g`` of every rotation uses the same
    random stream).

    Parameters
    ----------
    rule : str or Rule
        A rule name or any :class:`~mjfast.rules.Rule`.
    policies : sequence of 1 to 4 policies
        The policies compared (:mod:`mjfast.policies`: ``Efficiency(...)`` objects, ``"efficiency"``
        or user policies).  Equal entries are still reported separately.
    n_walls : int
        Walls to play (each four times), ``> 0``.
    rng : None, int, SeedSequence, BitGenerator or Generator
        Seed (SPEC 7): the same seed gives the same walls and results for any ``n_threads`` or
        executor (user policies: when deterministic).
    n_threads, executor, progress
        As for :func:`~mjfast.simulation.games.simulate_games`.
    **rule_options
        Options of the rule.

    Returns
    -------
    pandas.DataFrame
        One row per policy, in the order given: ``policy`` (a readable name), ``mean_stakes``
        (the mean result per hand of a seat playing that policy, in one-unit stakes —
        :func:`mjfast.analysis.payout.base_stake`: what one payer owes for the rule's cheapest
        legal win), ``se_stakes`` (its standard error over walls: the walls are independent,
        a wall's 16 seat-hands are not) and ``n_walls``.  ``attrs`` holds the rule's name, its
        non-default options, the stake and the seat lineup of each rotation.

    Raises
    ------
    ValueError
        An unknown rule or option, ``policies`` not a list of 1 to 4 valid policies (naming the
        bad entry and the valid choices), ``n_walls <= 0``, a bad ``rng``, executor or
        ``n_threads``; an illegal action of a user policy (naming its seat, turn and action).

    Examples
    --------
    >>> import mjfast as mj
    >>> from mjfast.policies import Efficiency
    >>> r = mj.duplicate_match("sichuan", [Efficiency(), Efficiency(call="never")], 60, rng=0, n_threads=1)
    >>> r.columns.tolist(), r["policy"].tolist()
    (['policy', 'mean_stakes', 'se_stakes', 'n_walls'], ['Efficiency()', "Efficiency(call='never')"])
    >>> bool(abs(r["mean_stakes"].sum()) < 1e-9)           # two slots each: the results are zero-sum
    True
    """
    import pandas as pd

    from ..analysis.payout import base_stake

    if isinstance(policies, (str, bytes)) or not isinstance(policies, (list, tuple)) or not 1 <= len(policies) <= 4:
        raise ValueError(f"policies must be a list or tuple of 1 to 4 policies, got {policies!r}")
    resolved = tuple(_policies.one(p, f"policies[{i}]") for i, p in enumerate(policies))
    game = _games._resolve(rule, None, rule_options)
    n_walls = check_samples(n_walls, "n_walls", 120, "play fewer walls per call")
    threads = default_threads(n_threads)
    _chunks.check_executor(executor)
    stake = base_stake(game.rule)
    root = _chunks.seed_sequence(rng)  # one root: every rotation replays the same walls
    k = len(resolved)
    sums = np.zeros((n_walls, k))
    counts = np.zeros(k)
    lineups = _lineups(resolved)
    for r, lineup in enumerate(lineups):
        g = _games._Game(game.rule, seats=lineup)
        (df,) = _games._iter(g, n_walls, root, threads, executor, progress, n_walls)
        pay = df[[f"pay_{s}" for s in range(4)]].to_numpy(np.float64) / stake
        for s in range(4):
            i = (s - r) % 4 % k  # the policy of slot (s - r) % 4
            sums[:, i] += pay[:, s]
            if r == 0:
                counts[i] += 4  # a slot plays four hands of each wall
    per_wall = sums / counts  # each policy's mean per seat-hand, wall by wall
    mean = per_wall.mean(axis=0)
    se = per_wall.std(axis=0, ddof=1) / np.sqrt(n_walls) if n_walls > 1 else np.full(k, np.nan)
    out = pd.DataFrame(
        {
            "policy": [_policies.describe(p) for p in resolved],
            "mean_stakes": mean,
            "se_stakes": se,
            "n_walls": np.full(k, n_walls, np.int64),
        },
        columns=list(DUPLICATE_COLUMNS),
    )
    out.attrs.update(
        rule=game.name,
        options=game.rule.non_default_options,
        base_stake=stake,
        lineups=[_policies.label(lu) for lu in lineups],
    )
    return out
