"""Monte-Carlo simulation: wall draws for one player (issue 6, part 1).

:func:`simulate_draws` shuffles the tiles the player has not seen into a wall and lets the
player draw and discard by an efficiency policy; the kernel is
:mod:`mjfast._kernels._wall`, the chunking, seeding and executors are :mod:`mjfast._parallel`.
"""
from __future__ import annotations

import numbers

import numpy as np

from . import _parallel
from . import _params
from . import shape as _shape  # noqa: F401  (imported first: it installs the shanten tables)
from ._kernels import _wall as _kw
from .efficiency import _visible
from .shape import as_hand, default_threads, prepare
from .tiles import CODES, N_KINDS

#: Discard policies understood by :func:`simulate_draws`.
POLICIES = ("efficiency",)

_COLUMNS = ("turn", "p_ready", "se_ready", "p_win", "se_win")


def _check_int(value, name: str, lo: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < lo:
        raise ValueError(f"{name} must be at least {lo}, got {value}")
    return int(value)


def _setup(hand, rule, visible, melds, wilds, wild_kind, wild_copies):
    """Validate the inputs; return the kernel arguments as a picklable dict."""
    h = as_hand(hand, melds=melds, wilds=wilds)
    if h.n_tiles % 3 == 0:
        raise ValueError(f"simulate_draws needs a 3k+1 (e.g. 13) or 3k+2 (e.g. 14) tile hand; got "
                         f"{h.n_tiles} tiles in hand (+{h.n_melds} melds)")
    rule_obj = _params.resolve_rule(rule)
    kr, caps, options = prepare(h, rule_obj, wild_kind=wild_kind)
    caps = np.ascontiguousarray(caps, np.uint8)
    vis = _visible(visible).astype(np.int16)
    plays_flowers = rule_obj is not None and rule_obj.flowers
    bonus = dict(rule_obj.tileset.bonus) if plays_flowers else {}
    flowers_seen = 0
    for k in np.flatnonzero((kr.copies == 0) & (vis > 0)):
        if CODES[k] in bonus:           # 苏州/太仓 dragons are flowers: a visible one is a seen flower
            flowers_seen += int(vis[k])
            vis[k] = 0
    over = np.flatnonzero(h.counts.astype(np.int16) + vis > caps.astype(np.int16))
    if over.size:
        k = int(over[0])
        raise ValueError(f"visible makes {CODES[k]} exceed its copies: {int(h.counts[k])} in hand, "
                         f"{int(h.meld_counts[k])} in melds, {int(vis[k])} visible, "
                         f"{int(kr.copies[k])} in play")
    remaining = (caps.astype(np.int16) - h.counts - vis).clip(0)
    n_flowers = 0
    if bonus:
        own = sum(1 for t in h.bonus if CODES[t] in bonus)
        n_flowers = sum(bonus.values()) - own - flowers_seen
        if n_flowers < 0:
            raise ValueError(f"the hand's bonus tiles and visible flowers ({own + flowers_seen}) exceed the "
                             f"{sum(bonus.values())} flowers of rule {kr.name!r}")
    if wild_copies is None:
        if wild_kind is None:
            n_wild = 0
        else:
            in_play = rule_obj.wildcard.copies if rule_obj is not None and rule_obj.wildcard else 4
            n_wild = max(0, in_play - h.wilds)
    else:
        n_wild = _check_int(wild_copies, "wild_copies", 0) - h.wilds
        if n_wild < 0:
            raise ValueError(f"wild_copies={wild_copies} is less than the {h.wilds} wildcards held")
    wall = np.concatenate([np.repeat(np.arange(N_KINDS, dtype=np.int8), remaining),
                           np.full(n_wild, _kw.WILD_TOKEN, np.int8),
                           np.full(n_flowers, _kw.FLOWER_TOKEN, np.int8)])
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
    }


def _run(spec: dict, draws_left: int, bitgens: list, sizes: np.ndarray, n_threads: int, cache):
    n_chunks = len(bitgens)
    ready = np.zeros((n_chunks, draws_left + 2), np.int32)
    win = np.zeros((n_chunks, draws_left + 2), np.int32)
    s0 = _kw.simulate_draws_kernel(bitgens, np.ascontiguousarray(sizes, np.int32), spec["wall"], spec["counts"],
                                   spec["n_melds"], spec["wilds"], spec["cap"], spec["playable"], spec["forms"],
                                   spec["options"], spec["visible"], draws_left, ready, win, cache, n_threads)
    return s0, ready, win


def _draws_task(spec: dict, draws_left: int, children, sizes):
    """One executor task: build the chunk streams from their seeds and run on one thread."""
    return _run(spec, draws_left, _parallel.bit_generators(children), sizes, 1, _kw.PolicyCache(1))


def simulate_draws(hand, *, rule=None, visible=None, draws_left: int = 18, policy: str = "efficiency",
                   n: int = 10_000, rng=None, n_threads: int | None = None, executor=None,
                   progress: bool = False, melds=(), wilds=None, wild_kind=None, wild_copies=None):
    """Monte-Carlo chance of getting ready (听牌) and of winning by self-draw within each turn.

    The tiles the player has not seen — the rule's tile set minus the hand, its melds and
    ``visible`` (plus the flowers, when the rule plays flowers) — are shuffled into a wall.
    The player draws ``draws_left`` times.  After each draw a complete hand wins; otherwise
    the policy discards.  Flowers drawn are set aside and replaced from the back of the wall
    without using a turn.  Other players are not simulated: nobody else draws, discards or
    claims, and the player never calls.

    Parameters
    ----------
    hand : Hand, str, sequence or array
        A 3k+1 hand (13 tiles: it draws first) or a 3k+2 hand (14 tiles: it discards first
        by the policy, then draws).  ``melds`` and ``wilds`` as in :func:`mjfast.ukeire`.
    rule : str or Rule, optional
        Tile set, flowers and win forms (default: 136 tiles, no flowers, standard + seven
        pairs + thirteen orphans).
    visible : tiles or uint8[34], optional
        Tiles seen elsewhere (discards, other players' melds): they are not in the wall, and
        count as gone in the policy's 进张.  Under 苏州/太仓 a visible dragon is a seen flower.
    draws_left : int, default 18
        Draws (turns) to simulate, ``>= 0``.  The game stops early if the wall runs out.
    policy : {"efficiency"}
        ``"efficiency"``: discard to the least shanten, then to the most 进张 (remaining
        copies of the accepting kinds, counting the player's own tiles and ``visible``), ties
        to the lowest kind index (1m first); wildcards are never discarded.
    n : int, default 10_000
        Simulated hands, ``> 0``.
    rng : None, int, SeedSequence, BitGenerator or Generator
        Seed (SPEC 7).  ``n`` is split into chunks of 1024 games; chunk ``c`` uses stream
        ``c`` of ``SeedSequence.spawn`` (``PCG64DXSM``), so a seed gives the same result for
        any ``n_threads`` and any ``executor``.  A Generator advances: successive calls differ.
    n_threads : int, optional
        OpenMP threads (None: all cores; negative: cores + 1 + n_threads).
    executor : concurrent.futures.Executor, optional
        Run groups of chunks as tasks on this executor (e.g. ``ProcessPoolExecutor()`` or a
        dask ``client.get_executor()``); each task runs on one thread.
    progress : bool, default False
        Show a ``tqdm.auto`` progress bar ticking per chunk (needs ``tqdm``).
    melds, wilds : optional
        Called melds and wildcards held, when ``hand`` is not already a :class:`~mjfast.Hand`.
    wild_kind : str, optional
        The wildcard face this game (as in :func:`mjfast.shanten`); its natural copies are
        wild, not natural tiles.
    wild_copies : int, optional
        Wildcard tiles in play, counting those held; the rest are in the wall.  Default: none
        without ``wild_kind``, else the rule's usual wildcard count (4 without a rule).

    Returns
    -------
    pandas.DataFrame
        One row per turn ``1..draws_left``: ``turn``; ``p_ready``, the fraction of hands
        ready by the end of that turn (after its discard; a hand ready from the start counts
        from turn 1); ``p_win``, the fraction that had won by self-draw by that turn;
        ``se_ready`` / ``se_win``, their binomial standard errors ``sqrt(p (1 - p) / n)``.
        ``attrs`` holds ``n``, ``draws_left``, ``policy``, ``rule`` and ``start_shanten`` (a
        convenience copy).  A 3k+2 hand that is already complete counts as won from turn 1.

    Raises
    ------
    ValueError
        An unknown policy, ``draws_left < 0``, ``n <= 0``, a hand that is not 3k+1 or 3k+2,
        ``visible`` exceeding the copies in play, or an invalid ``rng``.

    Notes
    -----
    Each turn costs one shanten evaluation per distinct discard plus 进张 for ties; the
    policy's decisions are memoised per thread (they depend only on the hand), so ready
    hands run at hundreds of thousands of games per second per core.

    Examples
    --------
    >>> from mjfast.simulate import simulate_draws
    >>> df = simulate_draws("19m19p19s1234567z", draws_left=6, n=2000, rng=0)  # 13-way wait
    >>> list(df.columns)
    ['turn', 'p_ready', 'se_ready', 'p_win', 'se_win']
    >>> float(df["p_ready"].iloc[0])
    1.0
    >>> exact = 1 - 84 / 123 * 83 / 122 * 82 / 121 * 81 / 120 * 80 / 119 * 79 / 118
    >>> abs(float(df["p_win"].iloc[-1]) - exact) < 4 * float(df["se_win"].iloc[-1])
    True
    """
    import functools

    import pandas as pd

    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)}")
    draws_left = _check_int(draws_left, "draws_left", 0)
    n = _check_int(n, "n", 1)
    threads = default_threads(n_threads)
    _parallel.check_executor(executor)
    spec = _setup(hand, rule, visible, melds, wilds, wild_kind, wild_copies)
    s0 = _run(spec, draws_left, [], np.zeros(0, np.int32), 1, _kw.PolicyCache(1))[0]
    if s0 >= _params.INF:
        raise ValueError("no winning form of this rule applies to the hand")
    cache = _kw.PolicyCache(threads) if executor is None else None

    def local(bitgens, sizes, k):
        return _run(spec, draws_left, bitgens, sizes, k, cache)

    parts = _parallel.run_chunks(n, rng, local=local, task=functools.partial(_draws_task, spec, draws_left),
                                 n_threads=threads, executor=executor, progress=progress,
                                 desc="simulate_draws")
    ready = sum(p[1].sum(0, dtype=np.int64) for p in parts)
    win = sum(p[2].sum(0, dtype=np.int64) for p in parts)
    p_ready = np.cumsum(ready[:draws_left + 1])[1:] / n
    p_win = np.cumsum(win[:draws_left + 1])[1:] / n
    df = pd.DataFrame({
        "turn": np.arange(1, draws_left + 1, dtype=np.int64),
        "p_ready": p_ready.astype(np.float64),
        "se_ready": np.sqrt(p_ready * (1 - p_ready) / n),
        "p_win": p_win.astype(np.float64),
        "se_win": np.sqrt(p_win * (1 - p_win) / n),
    }, columns=list(_COLUMNS))
    df.attrs.update(n=n, draws_left=draws_left, policy=policy, rule=spec["rule"], start_shanten=int(s0))
    return df
