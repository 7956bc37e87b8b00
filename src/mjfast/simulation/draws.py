"""Monte-Carlo simulation: wall draws for one player.

:func:`simulate_draws` shuffles the tiles the player has not seen into a wall and lets the
player draw and discard by an efficiency policy; the kernel is
:mod:`mjfast._kernels._wall`, the chunking, seeding and executors are :mod:`mjfast.simulation._chunks`.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from .. import _bridge
from .._inputs import as_hand, check_int, check_samples, default_threads, prepare, visible_counts
from .._kernels import _wall as _kw
from ..tiles import CODES, N_KINDS, parse_tile
from . import _chunks

#: Discard policies understood by :func:`simulate_draws`.
POLICIES = ("efficiency", "value")

_COLUMNS = ("turn", "p_ready", "se_ready", "p_win", "se_win")
#: Columns added when a rule is given (scores of the won runs, :attr:`mjfast.Score.points`).
SCORE_COLUMNS = ("mean_score", "score_q50", "score_q90")


class _Judge:
    """Legality and score of the complete hands one simulation reaches (picklable).

    Called by the kernel (with the GIL) on every hand that is complete in shape:
    ``judge(counts, wilds, tile, n_flowers, after_flower)`` returns a state id (the win is
    legal under the rule; ``keys[id]`` is the state) or -1.  Each state is judged once.
    The context of a state is :meth:`context`; its score :meth:`points`.
    """

    def __init__(self, rule_obj, melds: tuple, own_bonus: tuple, pool: tuple):
        self.rule = rule_obj
        self.melds = tuple(melds)
        self.own_bonus = tuple(own_bonus)
        self.pool = tuple(pool)  # faces given to the flowers drawn, in draw order
        # the rule's scorer reads rule_state["win_is_wild"] (a drawn 宝 given as its face)
        self.win_is_wild = rule_obj.engine.win_is_wild
        self.keys: list = []
        self._memo: dict = {}
        self._ctx: dict = {}
        self._points: dict = {}
        self._lock = threading.Lock()

    def fresh(self) -> _Judge:
        """A judge with the same set-up and empty tables (one per task: ids are per judge)."""
        return _Judge(self.rule, self.melds, self.own_bonus, self.pool)

    def __getstate__(self):
        return (self.rule, self.melds, self.own_bonus, self.pool)

    def __setstate__(self, state):
        self.__init__(*state)

    def __call__(self, counts: bytes, wilds: int, tile: int, n_flowers: int, after: int) -> int:
        key = (counts, wilds, tile, n_flowers, after)
        hit = self._memo.get(key)
        if hit is None:
            ctx, pts = self._decide(key)
            with self._lock:
                hit = self._memo.get(key)
                if hit is None:
                    hit = -1
                    if ctx is not None:
                        hit = len(self.keys)
                        self.keys.append(key)
                        self._ctx[key] = ctx
                        if pts is not None:
                            self._points[key] = pts
                    self._memo[key] = hit
        return hit

    def _make(self, c: np.ndarray, wilds: int, win_tile: int, n_flowers: int, after: int, drawn_wild: bool):
        from ..hand import Hand
        from ..scoring import WinContext

        hand = Hand(c, melds=self.melds, bonus=self.own_bonus + self.pool[:n_flowers], wilds=wilds)
        state = {"win_is_wild": bool(drawn_wild)} if self.win_is_wild and wilds else {}
        return WinContext(
            hand, win_tile=win_tile, self_draw=True, winner=0, dealer=0, after_kong=bool(after), rule_state=state
        )

    def _decide(self, key) -> tuple:
        """``(context, points or None)`` of the best legal reading of a state, or ``(None, None)``."""
        from ..scoring import can_win, score

        counts, wilds, tile, n_flowers, after = key
        c = np.frombuffer(counts, np.uint8).copy()
        if 0 <= tile < N_KINDS:  # a natural tile was drawn: no choice
            ctx = self._make(c, wilds, tile, n_flowers, after, False)
            return (ctx, None) if can_win(ctx, self.rule) else (None, None)
        # a drawn wildcard (the face it stands for is the player's choice) or a complete
        # starting hand (any of its tiles may have been the last one): the best legal reading
        options = []
        if tile < 0:
            options += [(int(k), False) for k in np.flatnonzero(c)]
        if wilds:
            options += [(k, True) for k in self._wild_faces(c, wilds)]
        best: tuple[Any, int] | tuple[None, None] = (None, None)
        for k, wild in options:
            ctx = self._make(c, wilds, k, n_flowers, after, wild)
            if can_win(ctx, self.rule):
                pts = int(score(ctx, self.rule).points)
                if best[1] is None or pts > best[1]:  # best[1] is None iff nothing won yet
                    best = (ctx, pts)
        return best

    def _wild_faces(self, c: np.ndarray, wilds: int) -> list:
        """Faces a wildcard of this complete hand can stand for (the rest stays complete)."""
        from ..hand import Hand
        from ..shape import shanten

        out = []
        for k in np.flatnonzero(self.rule.tileset.copies):
            c2 = c.copy()
            c2[k] += 1
            try:
                if shanten(Hand(c2, melds=self.melds, wilds=wilds - 1), rule=self.rule) < 0:
                    out.append(int(k))
            except ValueError:  # a fifth copy: not a reading
                continue
        return out

    def context(self, key):
        """The :class:`~mjfast.scoring.WinContext` scored for a legal state."""
        ctx = self._ctx.get(key)
        if ctx is None:
            ctx, pts = self._decide(key)
            if ctx is None:
                raise ValueError(f"state {key!r} is not a legal win")
            self._ctx[key] = ctx
            if pts is not None:
                self._points[key] = pts
        return ctx

    def points(self, key) -> int:
        """:attr:`~mjfast.Score.points` of a legal state (what one payer owes), memoised."""
        pts = self._points.get(key)
        if pts is None:
            from ..scoring import score

            pts = int(score(self.context(key), self.rule).points)
            self._points[key] = pts
        return pts


def _setup(hand, rule, visible, melds, wilds, wild_kind, wild_copies):
    """Validate the inputs; return the kernel arguments as a picklable dict."""
    h = as_hand(hand, melds=melds, wilds=wilds)
    if h.n_tiles % 3 == 0:
        raise ValueError(
            f"simulate_draws needs a 3k+1 (e.g. 13) or 3k+2 (e.g. 14) tile hand; got "
            f"{h.n_tiles} tiles in hand (+{h.n_melds} melds)"
        )
    rule_obj = _bridge.resolve_rule(rule)
    kr, caps, options = prepare(h, rule_obj, wild_kind=wild_kind)
    caps = np.ascontiguousarray(caps, np.uint8)
    vis = visible_counts(visible).astype(np.int16)
    vis_in = vis.copy()
    plays_flowers = rule_obj is not None and rule_obj.flowers
    bonus = dict(rule_obj.tileset.bonus) if plays_flowers else {}
    flowers_seen = 0
    for k in np.flatnonzero((kr.copies == 0) & (vis > 0)):
        if CODES[k] in bonus:  # 苏州/太仓 dragons are flowers: a visible one is a seen flower
            flowers_seen += int(vis[k])
            vis[k] = 0
    over = np.flatnonzero(h.counts.astype(np.int16) + vis > caps.astype(np.int16))
    if over.size:
        k = int(over[0])
        raise ValueError(
            f"visible makes {CODES[k]} exceed its copies: {int(h.counts[k])} in hand, "
            f"{int(h.meld_counts[k])} in melds, {int(vis[k])} visible, "
            f"{int(kr.copies[k])} in play"
        )
    remaining = (caps.astype(np.int16) - h.counts - vis).clip(0)
    n_flowers = 0
    pool = []
    if bonus:
        own = sum(1 for t in h.bonus if CODES[t] in bonus)
        n_flowers = sum(bonus.values()) - own - flowers_seen
        if n_flowers < 0:
            raise ValueError(
                f"the hand's bonus tiles and visible flowers ({own + flowers_seen}) exceed the "
                f"{sum(bonus.values())} flowers of rule {kr.name!r}"
            )
        # faces for the flowers drawn, in tile-set order: the flowers left after the hand's
        # own and the visible ones (the scorers count every flower alike)
        for code, copies in bonus.items():
            k = parse_tile(code)
            left = copies - sum(1 for t in h.bonus if t == k) - (int(vis_in[k]) if k < N_KINDS else 0)
            pool += [k] * max(0, left)
        pool = pool[:n_flowers]
    judge = None
    if rule_obj is not None:
        if h.bonus and not plays_flowers:
            raise ValueError(
                f"rule {rule_obj.name!r} plays no flowers: the hand's bonus tiles "
                f"({', '.join(CODES[t] for t in h.bonus)}) cannot be scored"
            )
        if (
            plays_flowers
            and rule_obj.wildcard is not None
            and wild_kind is None
            and (h.wilds or (wild_copies is not None and wild_copies))
        ):
            raise ValueError(
                f"under rule {rule_obj.name!r} a hand with wildcards needs wild_kind= (a playable "
                "face): a 百搭 chosen among the flowers is not supported, since the flowers in "
                "the wall would then be wrong"
            )
        judge = _Judge(rule_obj, h.melds, tuple(t for t in h.bonus if CODES[t] in bonus), pool)
    if wild_copies is None:
        if wild_kind is None:
            n_wild = 0
        else:
            in_play = rule_obj.wildcard.copies if rule_obj is not None and rule_obj.wildcard else 4
            n_wild = max(0, in_play - h.wilds)
    else:
        n_wild = check_int(wild_copies, "wild_copies", 0) - h.wilds
        if n_wild < 0:
            raise ValueError(f"wild_copies={wild_copies} is less than the {h.wilds} wildcards held")
    wall = np.concatenate(
        [
            np.repeat(np.arange(N_KINDS, dtype=np.int8), remaining),
            np.full(n_wild, _kw.WILD_TOKEN, np.int8),
            np.full(n_flowers, _kw.FLOWER_TOKEN, np.int8),
        ]
    )
    if wall.size > _kw.MAX_WALL_TILES:
        raise ValueError(f"a wall of {wall.size} tiles exceeds the kernel's {_kw.MAX_WALL_TILES}")
    return {
        "wall": np.ascontiguousarray(wall),
        "counts": np.ascontiguousarray(h.counts, np.uint8),
        "n_melds": int(h.n_melds),
        "wilds": int(h.wilds),
        "cap": caps,
        "playable": np.ascontiguousarray(kr.playable, np.uint8),
        "forms": int(kr.forms),
        "options": int(options),
        "visible": np.ascontiguousarray(vis, np.int16),
        "rule": kr.name,
        "judge": judge,
    }


def hand_args(spec: dict) -> tuple[np.ndarray, int, int, np.ndarray, np.ndarray, int, int]:
    """The hand and the rule as every kernel takes them, after the wall: ``(counts, n_melds,
    wilds, cap, playable, forms, options)`` of a :func:`_setup` result."""
    return (
        spec["counts"],
        spec["n_melds"],
        spec["wilds"],
        spec["cap"],
        spec["playable"],
        spec["forms"],
        spec["options"],
    )


def _run(spec: dict, draws_left: int, bitgens: list, sizes: np.ndarray, n_threads: int, cache, judge=None):
    """Run the kernel: ``(s0, ready_hist, win_hist, win_turn, win_state, keys)``.

    With a ``judge`` a complete hand wins only when the rule accepts it; ``win_turn`` and
    ``win_state`` then hold each game's win turn and state id (an index into ``keys``, a
    snapshot of the judge's states), otherwise they are None.
    """
    n_chunks = len(bitgens)
    ready = np.zeros((n_chunks, draws_left + 2), np.int32)
    win = np.zeros((n_chunks, draws_left + 2), np.int32)
    turns = states = None
    extra = {}
    if judge is not None:
        total = int(np.sum(sizes))
        turns = np.full(total, -1, np.int32)
        states = np.full(total, -1, np.int32)
        extra = dict(checker=judge, win_turn=turns, win_state=states)
    s0 = _kw.simulate_draws_kernel(
        bitgens,
        np.ascontiguousarray(sizes, np.int32),
        spec["wall"],
        *hand_args(spec),
        spec["visible"],
        draws_left,
        ready,
        win,
        cache,
        n_threads,
        **extra,
    )
    keys = None if judge is None else list(judge.keys)
    return s0, ready, win, turns, states, keys


def _draws_task(spec: dict, draws_left: int, children, sizes):
    """One executor task: build the chunk streams from their seeds and run on one thread."""
    judge = None if spec["judge"] is None else spec["judge"].fresh()
    return _run(spec, draws_left, _chunks.bit_generators(children), sizes, 1, _kw.PolicyCache(1), judge)


def _score_columns(parts, judge, draws_left: int) -> dict:
    """Per-turn mean / quantiles of the points of the runs won by that turn (NaN: none)."""
    turns = np.concatenate([p[3] for p in parts]) if parts else np.zeros(0, np.int32)
    per_part = []
    for p in parts:
        table = np.array([judge.points(k) for k in p[5]] + [0], np.float64)  # index -1: no win
        per_part.append(table[p[4]])
    points = np.concatenate(per_part) if per_part else np.zeros(0)
    won = turns >= 0
    turns, points = turns[won], points[won]
    out = {c: np.full(draws_left, np.nan) for c in SCORE_COLUMNS}
    for t in range(1, draws_left + 1):
        v = points[turns <= t]
        if v.size:
            out["mean_score"][t - 1] = v.mean()
            q50, q90 = np.quantile(v, [0.5, 0.9], method="inverted_cdf")
            out["score_q50"][t - 1] = q50
            out["score_q90"][t - 1] = q90
    return out


_VALUE_CACHE: dict = {}


def _value_recipe(hand, rule, visible, draws_left, melds, wilds, wild_kind, wild_copies, value_options) -> tuple:
    """A picklable description of a value policy (executor tasks rebuild it)."""
    from ..hand import Hand

    h = as_hand(hand, melds=melds, wilds=wilds)
    vis = None if visible is None else visible_counts(visible).tobytes()
    return (
        Hand(h.counts.copy(), melds=h.melds, bonus=h.bonus, wilds=h.wilds, partial=True),
        _bridge.resolve_rule(rule),
        vis,
        draws_left,
        wild_kind,
        wild_copies,
        tuple(sorted((value_options or {}).items())),
    )


def _value_solved(recipe: tuple):
    """The solved recursion of a recipe (memoised per process: one rebuild per task)."""
    hit = _VALUE_CACHE.get(id(recipe))
    if hit is not None and hit[0] is recipe:
        return hit[1]
    from ..analysis.value import value_policy

    h, rule_obj, vis, draws_left, wild_kind, wild_copies, opts = recipe
    visible = None if vis is None else np.frombuffer(vis, np.int16).copy()
    out = value_policy(
        h,
        rule=rule_obj,
        draws_left=draws_left,
        visible=visible,
        wild_kind=wild_kind,
        wild_copies=wild_copies,
        **dict(opts),
    )
    _VALUE_CACHE.clear()
    _VALUE_CACHE[id(recipe)] = (recipe, out)
    return out


def _value_run(solved, root: int, bitgens: list, sizes: np.ndarray, n_threads: int):
    T = solved.setup.draws_left
    n_chunks = len(bitgens)
    ready = np.zeros((n_chunks, T + 2), np.int32)
    win = np.zeros((n_chunks, T + 2), np.int32)
    total = int(np.sum(sizes))
    turns = np.full(total, -1, np.int32)
    states = np.full(total, -1, np.int32)
    solved.problem.simulate(
        bitgens,
        np.ascontiguousarray(sizes, np.int32),
        solved.setup.spec["wall"],
        root,
        n_threads,
        ready,
        win,
        turns,
        states,
    )
    return ready, win, turns, states


def _value_task(recipe: tuple, children, sizes):
    solved, root = _value_solved(recipe)
    return _value_run(solved, root, _chunks.bit_generators(children), sizes, 1)


def _simulate_value(
    hand,
    *,
    rule,
    visible,
    draws_left,
    n,
    rng,
    threads,
    executor,
    progress,
    melds,
    wilds,
    wild_kind,
    wild_copies,
    value_options,
):
    """simulate_draws with policy="value": the recursion's own choices played on real walls."""
    import functools

    import pandas as pd

    recipe = _value_recipe(hand, rule, visible, draws_left, melds, wilds, wild_kind, wild_copies, value_options)
    solved, root = _value_solved(recipe)
    s = solved.setup

    def local(bitgens, sizes, k):
        return _value_run(solved, root, bitgens, sizes, k)

    parts = _chunks.run_chunks(
        n,
        rng,
        local=local,
        task=functools.partial(_value_task, recipe),
        n_threads=threads,
        executor=executor,
        progress=progress,
        desc="simulate_draws",
    )
    ready = sum(p[0].sum(0, dtype=np.int64) for p in parts)
    win = sum(p[1].sum(0, dtype=np.int64) for p in parts)
    p_ready = np.cumsum(ready[: draws_left + 1])[1:] / n
    p_win = np.cumsum(win[: draws_left + 1])[1:] / n
    df = pd.DataFrame(
        {
            "turn": np.arange(1, draws_left + 1, dtype=np.int64),
            "p_ready": p_ready.astype(np.float64),
            "se_ready": np.sqrt(p_ready * (1 - p_ready) / n),
            "p_win": p_win.astype(np.float64),
            "se_win": np.sqrt(p_win * (1 - p_win) / n),
        },
        columns=list(_COLUMNS),
    )
    score_sd = None
    if s.rule is not None:
        legal, vals = solved.tables
        points = vals[..., 2].reshape(-1)
        turns = np.concatenate([p[2] for p in parts])
        st = np.concatenate([p[3] for p in parts])
        won = turns >= 0
        turns, pts = turns[won], points[st[won]]
        score_sd = float(pts.std(ddof=1)) if pts.size > 1 else None
        out = {c: np.full(draws_left, np.nan) for c in SCORE_COLUMNS}
        for t in range(1, draws_left + 1):
            v = pts[turns <= t]
            if v.size:
                out["mean_score"][t - 1] = v.mean()
                q50, q90 = np.quantile(v, [0.5, 0.9], method="inverted_cdf")
                out["score_q50"][t - 1] = q50
                out["score_q90"][t - 1] = q90
        for col, values in out.items():
            df[col] = values
    first = solved.roots[root][0]
    fig = solved.results[root]
    p_rec = float(fig[1] + fig[2])
    recursion = {
        "p_win": p_rec,
        "p_ready": float(fig[3]),
        "ev": float(fig[0]),
        "mean_points": float(fig[5] / p_rec) if p_rec > 0 else None,
        "exact": solved.mode != 1,
    }
    df.attrs.update(
        n=n,
        draws_left=draws_left,
        policy="value",
        rule=None if s.rule is None else s.rule.name,
        recursion=recursion,
        score_sd=score_sd,
        start_shanten=int(solved.roots[root][2]),
        model=(
            "returned" if solved.mode == 0 else "depleting (exact)" if solved.mode == 2 else "depleting (approximate)"
        ),
        first_discard=CODES[first] if first >= 0 else None,
        value_options=dict(recipe[6]),
    )
    return df


def simulate_draws(
    hand,
    *,
    rule=None,
    visible=None,
    draws_left: int = 18,
    policy: str = "efficiency",
    n: int = 10_000,
    rng=None,
    n_threads: int | None = None,
    executor=None,
    progress: bool = False,
    melds=(),
    wilds=None,
    wild_kind=None,
    wild_copies=None,
    value_options=None,
):
    """Monte-Carlo chance of getting ready (听牌) and of winning by self-draw within each turn.

    The tiles the player has not seen — the rule's tile set minus the hand, its melds and
    ``visible`` (plus the flowers, when the rule plays flowers) — are shuffled into a wall.
    The player draws ``draws_left`` times.  After each draw a complete hand wins if the rule
    accepts it (without a rule: always); otherwise the policy discards.  Flowers drawn are set
    aside and replaced from the back of the wall without using a turn.  Other players are not
    simulated: nobody else draws, discards or claims, and the player never calls.

    Parameters
    ----------
    hand : Hand, str, sequence or array
        A 3k+1 hand (13 tiles: it draws first) or a 3k+2 hand (14 tiles: it discards first
        by the policy, then draws).  ``melds`` and ``wilds`` as in :func:`mjfast.ukeire`.
    rule : str or Rule, optional
        Tile set, flowers and win forms (default: 136 tiles, no flowers, standard + seven
        pairs + thirteen orphans).  With a rule, a hand that is complete in shape wins only
        if :func:`mjfast.can_win` accepts it (minimums such as 苏州 三花自摸 or 国标 8 番,
        四川 缺一门), and the wins are scored (see Returns and Notes); a refused hand
        discards by the policy and plays on.
    visible : tiles or uint8[34], optional
        Tiles seen elsewhere (discards, other players' melds): they are not in the wall, and
        count as gone in the policy's 进张.  Under 苏州/太仓 a visible dragon is a seen flower.
    draws_left : int, default 18
        Draws (turns) to simulate, ``>= 0``.  The game stops early if the wall runs out.
    policy : {"efficiency", "value"}
        ``"efficiency"``: discard to the least shanten, then to the most 进张 (remaining
        copies of the accepting kinds, counting the player's own tiles and ``visible``), ties
        to the lowest kind index (1m first); wildcards are never discarded.
        ``"value"``: the choices of :func:`mjfast.expected_value`'s recursion for this hand
        and horizon (self-draws only: ``discard_wins=False``), played on the real shuffled
        wall — every discard, and whether to take a legal win or play on, as the recursion
        rates best; a 14-tile hand first throws the recursion's best discard.  The check that
        the recursion is right: ``attrs["recursion"]`` holds its own ``p_win``, ``p_ready``,
        ``ev`` and ``mean_points`` for the row played, ``attrs["model"]`` the wall model it was
        solved for and ``attrs["score_sd"]`` the spread of the won scores.
    n : int, default 10_000
        Simulated hands, ``> 0``.
    rng : None, int, SeedSequence, BitGenerator or Generator
        Seed (SPEC 7).  ``n`` is split into chunks of 1024 games; chunk ``c`` uses stream
        ``c`` of ``SeedSequence.spawn`` (``PCG64DXSM``), so a seed gives the same result for
        any ``n_threads`` and any ``executor``.  A Generator advances: successive calls differ.
    n_threads : int, optional
        OpenMP threads (None: ``OMP_NUM_THREADS``, else the usable CPUs; negative: CPUs + 1 +
        n_threads; at most 256, or the usable CPUs if more).
    executor : concurrent.futures.Executor, optional
        Run groups of chunks as tasks on this executor (e.g. ``ProcessPoolExecutor()`` or a
        dask ``client.get_executor()``); each task runs on one thread.
    progress : bool, default False
        Show a ``tqdm.auto`` progress bar counting the runs played.
    melds, wilds : optional
        Called melds and wildcards held, when ``hand`` is not already a :class:`~mjfast.Hand`.
    wild_kind : str, optional
        The wildcard face this game (as in :func:`mjfast.shanten`); its natural copies are
        wild, not natural tiles.
    wild_copies : int, optional
        Wildcard tiles in play, counting those held; the rest are in the wall.  Default: none
        without ``wild_kind``, else the rule's usual wildcard count (4 without a rule).
    value_options : dict, optional
        With ``policy="value"``: ``wall``, ``depth`` and ``max_states`` of the recursion (as in
        :func:`mjfast.expected_value`; default the depleting wall at depth 1) and rule or
        scorer options.

    Returns
    -------
    pandas.DataFrame
        One row per turn ``1..draws_left``: ``turn``; ``p_ready``, the fraction of hands
        ready by the end of that turn (after its discard; a hand ready from the start counts
        from turn 1); ``p_win``, the fraction that had won by self-draw by that turn;
        ``se_ready`` / ``se_win``, their binomial standard errors ``sqrt(p (1 - p) / n)``.
        ``attrs`` holds ``n``, ``draws_left``, ``policy``, ``rule`` and ``start_shanten`` (a
        convenience copy).  A 3k+2 hand that is already complete (and, with a rule, legal)
        counts as won from turn 1.  ``p_ready`` is about the shape (听牌), also under a rule.

        With a rule, three more columns describe the score of the wins:
        ``mean_score``, ``score_q50`` and ``score_q90`` are the mean, median and 90th
        percentile of :attr:`mjfast.Score.points` (what one payer owes, in stake units) over
        the runs that have won by that turn; NaN where none has.  The quantiles are values
        actually scored (the smallest ``s`` with at least 50 % / 90 % of the wins ``<= s``).
        Without a rule these columns are absent.

    Raises
    ------
    ValueError
        An unknown policy, ``draws_left`` outside 0..256 (no wall holds more), ``n <= 0`` or
        above ``2**40``, a bad ``n_threads``, a hand that is not 3k+1 or 3k+2,
        ``visible`` exceeding the copies in play, or an invalid ``rng``.  With a rule: bonus
        tiles under a rule without flowers, wildcards under 太仓 without ``wild_kind`` (a 百搭
        chosen among the flowers cannot be simulated: the flowers in the wall would be
        wrong); and any error the rule's scorer raises on a reached hand.

    Notes
    -----
    Each turn costs one shanten evaluation per distinct discard plus 进张 for ties; the
    policy's decisions are memoised per thread (they depend only on the hand), so ready
    hands run at hundreds of thousands of games per second per core.  With a rule the
    kernel asks Python (with the GIL) only when a hand is complete, once per distinct
    state; each distinct winning state is scored once.

    A win is scored as :class:`mjfast.WinContext` of a self-draw (自摸) by seat 0, who is
    also the dealer (East; the prevalent wind is East), with the hand's melds.  Under a rule
    that plays flowers (苏州, 太仓) the hand's bonus tiles plus the flowers drawn are its
    bonus tiles (the drawn ones are given the faces still unseen in tile-set order: these
    scorers count every flower alike), and a win on a flower's replacement tile is
    ``after_kong`` (花开).  Wildcards held are ``Hand(..., wilds=w)``; ``flipped`` is not
    set (the face is ``wild_kind``), so 瑞金 花宝 are not modelled.  A winning wildcard
    stands for the face that scores best, as does the last tile of a complete 3k+2 starting
    hand.  ``last_tile`` (海底), ``last_copy`` and 天胡/地胡 are never set, since the rest of the
    table is not simulated, and a win needs a complete shape (瑞金's 四宝 飞 is not seen).

    Examples
    --------
    >>> from mjfast.simulation.draws import simulate_draws
    >>> df = simulate_draws("19m19p19s1234567z", draws_left=6, n=2000, rng=0)  # 13-way wait
    >>> list(df.columns)
    ['turn', 'p_ready', 'se_ready', 'p_win', 'se_win']
    >>> float(df["p_ready"].iloc[0])
    1.0
    >>> exact = 1 - 84 / 123 * 83 / 122 * 82 / 121 * 81 / 120 * 80 / 119 * 79 / 118
    >>> abs(float(df["p_win"].iloc[-1]) - exact) < 4 * float(df["se_win"].iloc[-1])
    True

    Under a rule the wins are legal and scored.  One draw on a single wait (5p): every win is
    the same hand, so its mean score is that hand's 国标 score (8 + 15 番 from each payer):

    >>> import mjfast as mj
    >>> df = simulate_draws("123m456p789s234s5p", rule="guobiao", draws_left=1, n=4000, rng=1)
    >>> list(df.columns[-3:])
    ['mean_score', 'score_q50', 'score_q90']
    >>> won = mj.WinContext(mj.Hand("123m456p789s234s55p"), win_tile="5p", self_draw=True)
    >>> float(df["mean_score"].iloc[0]) == mj.score(won, "guobiao").points == 23
    True
    """
    import functools

    import pandas as pd

    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)}")
    draws_left = check_int(draws_left, "draws_left", 0, _kw.MAX_WALL_TILES)  # no wall holds more
    n = check_samples(n, "n", 8)
    threads = default_threads(n_threads)
    _chunks.check_executor(executor)
    if value_options is not None and policy != "value":
        raise ValueError("value_options applies to policy='value' only")
    if policy == "value":
        if value_options is not None and not isinstance(value_options, dict):
            raise ValueError(f"value_options must be a dict, got {value_options!r}")
        return _simulate_value(
            hand,
            rule=rule,
            visible=visible,
            draws_left=draws_left,
            n=n,
            rng=rng,
            threads=threads,
            executor=executor,
            progress=progress,
            melds=melds,
            wilds=wilds,
            wild_kind=wild_kind,
            wild_copies=wild_copies,
            value_options=value_options,
        )
    spec = _setup(hand, rule, visible, melds, wilds, wild_kind, wild_copies)
    s0 = _run(spec, draws_left, [], np.zeros(0, np.int32), 1, _kw.PolicyCache(1))[0]
    if s0 >= _bridge.INF:
        raise ValueError("no winning form of this rule applies to the hand")
    cache = _kw.PolicyCache(threads) if executor is None else None
    judge = spec["judge"]

    def local(bitgens, sizes, k):
        return _run(spec, draws_left, bitgens, sizes, k, cache, judge)

    parts = _chunks.run_chunks(
        n,
        rng,
        local=local,
        task=functools.partial(_draws_task, spec, draws_left),
        n_threads=threads,
        executor=executor,
        progress=progress,
        desc="simulate_draws",
        unit="run",
    )
    ready = sum(p[1].sum(0, dtype=np.int64) for p in parts)
    win = sum(p[2].sum(0, dtype=np.int64) for p in parts)
    p_ready = np.cumsum(ready[: draws_left + 1])[1:] / n
    p_win = np.cumsum(win[: draws_left + 1])[1:] / n
    df = pd.DataFrame(
        {
            "turn": np.arange(1, draws_left + 1, dtype=np.int64),
            "p_ready": p_ready.astype(np.float64),
            "se_ready": np.sqrt(p_ready * (1 - p_ready) / n),
            "p_win": p_win.astype(np.float64),
            "se_win": np.sqrt(p_win * (1 - p_win) / n),
        },
        columns=list(_COLUMNS),
    )
    if judge is not None:
        for col, values in _score_columns(parts, judge, draws_left).items():
            df[col] = values
    df.attrs.update(n=n, draws_left=draws_left, policy=policy, rule=spec["rule"], start_shanten=int(s0))
    return df
