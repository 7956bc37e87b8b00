"""Value analysis: exact win probability and expected payout of every discard, under a rule.

:func:`expected_value` answers "which discard wins me the most, under this rule?" with a
backward recursion over the draws (the draw-graph recursion of ``shared/VALUE.md``), in the
kernel :mod:`mjfast._kernels._value` without the GIL.  Legality and value of every win come
from the rule's own scorer (:func:`mjfast.can_win`, :func:`mjfast.score`), asked once per
distinct win and memoised across calls.  The model and its limits are in the docstring of
:func:`expected_value`; the pure-Python twin :mod:`mjfast._reference.value` states the same
model and checks the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import _bridge
from .. import rules as _rules
from .._inputs import as_hand, check_int, default_threads
from .._kernels import _shanten as _ks
from .._kernels import _value as _kv
from ..hand import Hand
from ..rules._base import Rule
from ..simulation.draws import hand_args
from ..tiles import CODES, N_KINDS

__all__ = ["expected_value", "WALLS", "COLUMNS", "TURN_COLUMNS", "default_hazard", "fresh_draws", "calibrate_hazard"]

#: Wall models of :func:`expected_value`.
WALLS = ("depleting", "returned")
#: Columns of the table :func:`expected_value` returns.
COLUMNS = (
    "discard",
    "shanten",
    "p_ready",
    "p_win",
    "p_win_self_draw",
    "p_win_discard",
    "ev",
    "ev_stakes",
    "mean_win",
    "mean_total",
    "mean_points",
    "n_states",
    "exact",
    "method",
)
#: Columns of the ``by_turn=True`` table.
TURN_COLUMNS = ("discard", "turn", "p_ready", "p_win", "p_win_self_draw", "p_win_discard", "ev", "ev_stakes")
#: Horizons (draws left) up to which the depleting wall is solved exactly, whatever its size.
EXACT_DRAWS = 3
#: Unseen tiles up to which the depleting wall is solved exactly, whatever the horizon.
EXACT_WALL = 20
#: From this shanten a row is estimated by the shanten-chain approximation (method "chain").
FALLBACK_SHANTEN = 4
#: Hazard for the rule-free analysis: the median of the ten rules' calibrated hazards.
_TILE_ORDER = list(CODES[:N_KINDS])
_MEMO: dict = {}
# the judged wins kept across calls, up to about this many bytes (an entry: its key and two small
# arrays, ~500 bytes + 48 per flower count, measured with tracemalloc)
_MEMO_LIMIT = 128 * 2**20
_MEMO_BYTES = 0
_DISCARDER = 2  # a discard win is scored as a win on the opposite player's discard


def default_hazard(rule=None) -> float:
    """The calibrated discard hazard of a rule (per unseen copy per opponent turn).

    Each rule module stores it as ``DISCARD_HAZARD`` with how it was measured; without a rule
    the median of the ten rules' values is used.

    Examples
    --------
    >>> from mjfast.analysis.value import default_hazard
    >>> 0 < default_hazard("sichuan") < 0.05
    True
    """
    rule_obj = _bridge.resolve_rule(rule)
    if rule_obj is None:
        values = sorted(_rules._REGISTRY[name].DISCARD_HAZARD for name in _rules.names())
        mid = len(values) // 2
        return float(values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2)
    return float(_rules._REGISTRY[rule_obj.name].DISCARD_HAZARD)


def fresh_draws(rule=None) -> int:
    """Draws the dealer makes from a fresh wall: ⌊(playable tiles − dealt tiles − flipped
    indicator) / 4⌋ (flowers are replaced and use no turn; no dead wall).

    Examples
    --------
    >>> from mjfast.analysis.value import fresh_draws
    >>> fresh_draws(), fresh_draws("sichuan"), fresh_draws("suzhou")
    (20, 13, 17)
    """
    rule_obj = _bridge.resolve_rule(rule)
    if rule_obj is None:
        return (136 - 14 - 3 * 13) // 4
    flip = 1 if rule_obj.wildcard is not None and rule_obj.wildcard.selection != "per_game" else 0
    dealt = rule_obj.deal[0] + 3 * rule_obj.deal[1]
    return max(0, (rule_obj.tileset.playable_total - dealt - flip) // 4)


def _hand_of(text: str):
    """A :class:`~mjfast.Hand` from a ``winning_hand`` record (mpsz, melds, ``bonus=``)."""
    parts = text.split()
    melds = [x for x in parts[1:] if not x.startswith(("bonus=", "wilds="))]
    bonus = [b for x in parts[1:] if x.startswith("bonus=") for b in x[6:].split(",") if b]
    wilds = sum(int(x[6:]) for x in parts[1:] if x.startswith("wilds="))
    conc = parts[0] if parts and not parts[0].startswith(("bonus=", "wilds=")) else ""
    if conc and not conc[0].isdigit():  # only melds / bonus: no concealed tile text
        melds, conc = [conc] + melds, ""
    return Hand(conc, melds=melds, bonus=bonus, wilds=wilds)


def calibrate_hazard(rule, n: int | None = None, *, rng=0, n_threads=None, **rule_options) -> dict:
    """Measure a rule's discard hazard from :func:`mjfast.simulate_games` (how the stored
    ``DISCARD_HAZARD`` constants were made).

    For a ready player with C unseen winning copies among S unseen playable tiles, the model
    wins by self-draw with probability C / S per own turn and on a discard with probability
    1 − (1 − q)^(3C) ≈ 3qC per round of three opponent turns, so discard wins outnumber
    self-draws by ρ = 3qS.  The simulated games give ρ and S:

    * ρ = (discard wins) / (self-draw wins that would also be legal on a discard).  A
      self-draw win counts by the share of its concealed kinds that, taken as the winning
      tile of a discard win (by the opposite seat), :func:`mjfast.can_win` accepts — so a rule
      that refuses discard wins the self-draw would have (贵阳's 平胡, 苏州's higher minimum,
      国标's lost 自摸/不求人) does not lower the hazard that the model then restricts again;
    * S = playable tiles − 13 − (discards made before the win), averaged over those wins (the
      tiles other players called stay counted as unseen, which puts S slightly high).

    q = ρ / (3 S̄).

    Parameters
    ----------
    rule : str
        A rule name.
    n : int, default 20,000
        Games to simulate (``n_games=``, its old name, is accepted with a ``DeprecationWarning``).
    rng, n_threads
        As in :func:`mjfast.simulate_games`.
    **rule_options
        Options of the rule.

    Returns
    -------
    dict
        ``hazard``, ``rho``, ``unseen`` (S̄), ``discard_wins``, ``self_draw_wins``,
        ``self_draw_discard_legal`` (the adjusted count), ``n_games``.

    Examples
    --------
    >>> from mjfast.analysis.value import calibrate_hazard
    >>> out = calibrate_hazard("sichuan", 300, rng=1, n_threads=1)
    >>> 0 < out["hazard"] < 0.1, out["n_games"]
    (True, 300)
    """
    from .._inputs import sample_size
    from ..scoring import WinContext, can_win
    from ..simulation.games import simulate_games

    n_games = sample_size("calibrate_hazard", n, "n_games", rule_options.pop("n_games", None), default=20_000)
    rule_obj = _rules.get(rule, **rule_options)
    games = simulate_games(
        rule_obj.name, check_int(n_games, "n", 1), rng=rng, n_threads=n_threads, **dict(rule_obj.options)
    )
    playable = rule_obj.tileset.playable_total
    disc = games[games["how"] == "discard"]
    selfd = games[games["how"] == "self_draw"]
    adj = 0.0
    flipped = selfd["flipped"].astype(str).tolist() if "flipped" in selfd.columns else [None] * len(selfd)
    for text, winners, flip in zip(selfd["winning_hand"], selfd["winners"], flipped):
        h = _hand_of(text)
        w = int(str(winners).split(",")[0])
        kinds = [int(k) for k in np.flatnonzero(h.counts)]
        ok = 0
        for k in kinds:
            ctx = WinContext(h, win_tile=k, winner=w, dealer=0, discarder=(w + 2) % 4, flipped=flip)
            try:
                ok += int(h.counts[k]) * bool(can_win(ctx, rule_obj))
            except ValueError:
                continue
        adj += ok / max(1, int(h.counts.sum()))
    turns = np.concatenate([disc["turn"].to_numpy(float), selfd["turn"].to_numpy(float)])
    unseen = float(np.mean(playable - 13 - (turns - 1))) if len(turns) else float("nan")
    rho = len(disc) / adj if adj > 0 else float("nan")
    return {
        "hazard": rho / (3 * unseen),
        "rho": rho,
        "unseen": unseen,
        "discard_wins": int(len(disc)),
        "self_draw_wins": int(len(selfd)),
        "self_draw_discard_legal": adj,
        "n_games": int(len(games)),
    }


# ---------------------------------------------------------------------------------------------
# set-up
@dataclass
class _Setup:
    """One hand, validated, with everything the kernel and the judge need."""

    hand: Hand
    rule: Rule | None
    scorer_options: dict
    spec: dict  # simulate_draws' set-up: wall tokens, caps, visible, judge
    start14: bool
    unseen: np.ndarray  # int16[35]
    returned_max: np.ndarray
    flowers: int
    draws_left: int
    hazard: np.ndarray  # float64[T + 1]
    turns: np.ndarray  # int8[T + 1]
    stake: float
    unit: str


def _split_options(rule_obj, rule_options: dict):
    """Rule options (applied to the Rule) and scorer options (passed to the scorer)."""
    if not rule_options:
        return rule_obj, {}
    if rule_obj is None:
        raise ValueError(f"unknown option(s) {', '.join(map(repr, rule_options))}: options need a rule")
    rule_keys = {k: v for k, v in rule_options.items() if k in rule_obj.option_choices}
    scorer = {k: v for k, v in rule_options.items() if k not in rule_obj.option_choices}
    if rule_keys:
        rule_obj = _rules.get(rule_obj.name, **{**dict(rule_obj.options), **rule_keys})
    if scorer:
        from ..scoring._core import _resolve

        _resolve(rule_obj, scorer)  # raises ValueError naming unknown options
    return rule_obj, scorer


@lru_cache(maxsize=64)
def _stake_cached(rule_obj, scorer_items: tuple) -> float:
    from ..scoring import WinContext, score
    from ..scoring._outcome import hook

    if not scorer_items:
        from .payout import base_stake

        return float(base_stake(rule_obj))
    # base_stake's candidates, scored with these scorer options (e.g. 太仓 base=)
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
        s = score(ctx, rule_obj, **dict(scorer_items))
        if s.legal and (best is None or s.points < best):
            best = float(s.points)
    if best is None or best <= 0:
        raise ValueError(f"no cheapest legal win known for {rule_obj!r} under these options")
    return best


def _hazard_array(hazard, rule_obj, T: int, discard_wins: bool) -> np.ndarray:
    if not discard_wins:
        return np.zeros(T + 1)
    if hazard is None:
        return np.full(T + 1, default_hazard(rule_obj))
    arr = np.asarray(hazard, dtype=float) if not isinstance(hazard, (bool, np.bool_)) else None
    if arr is None or arr.ndim > 1 or not np.issubdtype(np.asarray(hazard).dtype, np.number):
        raise ValueError(
            f"hazard must be a number in [0, 1] or one per opponent round (draws_left + 1 values); got {hazard!r}"
        )
    if arr.ndim == 1 and arr.shape != (T + 1,):
        raise ValueError(
            f"hazard needs one value per opponent round: draws_left + 1 = {T + 1} values, got {arr.shape[0]}"
        )
    if np.isnan(arr).any() or (arr < 0).any() or (arr > 1).any():
        raise ValueError(
            f"hazard must be between 0 and 1 (a probability per unseen copy per opponent turn); got {hazard!r}"
        )
    return np.ascontiguousarray(np.broadcast_to(arr, (T + 1,)), dtype=np.float64)


def _split_visible(visible, rule_obj):
    """``visible`` as (playable tiles, flower ids seen): flowers other players laid aside may be
    named among the visible tiles (苏州/太仓; a visible dragon there is a flower too)."""
    if visible is None or isinstance(visible, np.ndarray):
        return visible, []
    from ..tiles import parse_tiles

    ids = parse_tiles(visible, allow_bonus=True)
    flowers = [t for t in ids if t >= N_KINDS]
    if not flowers:
        return visible, []
    if rule_obj is None or not rule_obj.flowers:
        raise ValueError(
            f"visible holds bonus tiles ({', '.join(CODES[t] for t in flowers)}), but "
            f"{'no rule' if rule_obj is None else repr(rule_obj.name)} plays no flowers"
        )
    playable = [t for t in ids if t < N_KINDS]
    return np.bincount(np.asarray(playable, np.int64), minlength=N_KINDS).astype(np.uint8), flowers


def _remove_flowers(spec: dict, seen: list, rule_obj) -> dict:
    """Take flowers seen on the table out of the wall and out of the faces drawn flowers get."""
    from ..simulation.draws import _Judge

    judge = spec["judge"]
    pool = list(judge.pool)
    for t in seen:
        if CODES[t] not in rule_obj.tileset.bonus:
            raise ValueError(f"visible flower {CODES[t]} is not a flower of rule {rule_obj.name!r}")
        if t not in pool:
            raise ValueError(f"visible flower {CODES[t]} exceeds its copies (held, or seen too often)")
        pool.remove(t)
    wall = spec["wall"]
    flower_at = np.flatnonzero(wall == _kv.FLOWER_TOKEN)
    keep = np.ones(len(wall), bool)
    keep[flower_at[: len(seen)]] = False
    out = dict(spec)
    out["wall"] = np.ascontiguousarray(wall[keep])
    out["judge"] = _Judge(judge.rule, judge.melds, judge.own_bonus, tuple(pool))
    return out


def _plain_spec(h: Hand):
    """``simulation.draws._setup``'s result for a hand of natural tiles only (no melds, wildcards
    or bonus tiles) without a rule, ``visible`` or wildcard arguments: the wall is every copy
    not in the hand.  None when the hand is not of that kind, or holds more than the copies
    (the general set-up then says what is wrong)."""
    if h.n_melds or h.wilds or h.bonus:
        return None
    kr = _bridge.kernel_rule(None)
    counts = np.ascontiguousarray(h.counts, np.uint8)
    if (counts > kr.copies).any():
        return None
    remaining = kr.copies - counts
    return {
        "wall": np.repeat(np.arange(N_KINDS, dtype=np.int8), remaining),
        "counts": counts,
        "n_melds": 0,
        "wilds": 0,
        "cap": np.ascontiguousarray(kr.copies, np.uint8),
        "playable": np.ascontiguousarray(kr.playable, np.uint8),
        "forms": int(kr.forms),
        "options": int(kr.options),
        "visible": np.zeros(N_KINDS, np.int16),
        "rule": kr.name,
        "judge": None,
    }


def _setup(
    hand,
    *,
    rule,
    draws_left,
    visible,
    melds,
    wilds,
    wild_kind,
    wild_copies,
    discard_wins,
    hazard,
    first_turns,
    rule_options,
) -> _Setup:
    from ..simulation import draws as _draws

    h = as_hand(hand, melds=melds, wilds=wilds)
    slots = h.n_tiles + 3 * h.n_melds
    if h.n_tiles % 3 == 0 or slots > 14:
        raise ValueError(
            f"expected_value needs a 13-tile hand (about to draw) or a 14-tile hand (about to "
            f"discard), melds counted as 3; got {h.n_tiles} tiles in hand (+{h.n_melds} melds)"
        )
    rule_obj, scorer_options = _split_options(_bridge.resolve_rule(rule), dict(rule_options))
    if rule_obj is not None and slots not in (13, 14):
        raise ValueError(
            f"under a rule the hand must hold 13 or 14 tiles counting each meld as 3 (the scorer "
            f"judges 14-tile wins); got {slots}"
        )
    visible, seen_flowers = _split_visible(visible, rule_obj)
    spec = None
    if rule_obj is None and visible is None and wild_kind is None and wild_copies is None:
        spec = _plain_spec(h)
    if spec is not None:  # only natural tiles in the wall
        unseen = np.zeros(35, np.int16)
        unseen[:34] = spec["cap"] - spec["counts"]
        flowers = 0
    else:
        spec = _draws._setup(h, rule_obj, visible, (), None, wild_kind, wild_copies)
        if seen_flowers:
            spec = _remove_flowers(spec, seen_flowers, rule_obj)
        wall = spec["wall"]
        unseen = np.zeros(35, np.int16)
        unseen[:34] = np.bincount(wall[wall < N_KINDS], minlength=N_KINDS)
        unseen[34] = int(np.sum(wall == _kv.WILD_TOKEN))
        flowers = int(np.sum(wall == _kv.FLOWER_TOKEN))
    if flowers > _kv.MAX_FLOWERS:
        raise ValueError(f"at most {_kv.MAX_FLOWERS} unseen flowers are supported, got {flowers}")
    returned_max = np.zeros(35, np.int16)
    returned_max[:34] = spec["cap"].astype(np.int16) - spec["visible"]
    returned_max[34] = unseen[34] + h.wilds
    S0 = int(unseen.sum())
    if draws_left is None:
        T = min(fresh_draws(rule_obj), S0)
    else:
        T = check_int(draws_left, "draws_left", 0)
        if T > S0:
            raise ValueError(f"draws_left={T} is beyond the wall: only {S0} playable tiles are unseen")
    if isinstance(discard_wins, (bool, np.bool_)):
        discard_wins = bool(discard_wins)
    else:
        raise ValueError(f"discard_wins must be True or False, got {discard_wins!r}")
    hz = _hazard_array(hazard, rule_obj, T, discard_wins)
    turns = np.full(T + 1, 3, np.int8)
    turns[0] = first_turns
    stake = 1.0 if rule_obj is None else _stake_cached(rule_obj, tuple(sorted(scorer_options.items())))
    unit = "win" if rule_obj is None else rule_obj.unit
    return _Setup(
        h, rule_obj, scorer_options, spec, h.n_tiles % 3 == 2, unseen, returned_max, flowers, T, hz, turns, stake, unit
    )


# ---------------------------------------------------------------------------------------------
# judging the wins
class _WinJudge:
    """Legality and value of the wins one set-up reaches, asked of the rule's scorer.

    ``(pay, total, points)``: the winner's payment (``Score.payments[0]``), ``Score.total`` and
    ``Score.points``.  The player is seat 0, the dealer; a discard win is on seat 2's discard.
    The flowers drawn are given the faces still unseen in tile-set order (the scorers count
    every flower alike).  A drawn wildcard stands for the face that pays best.
    """

    def __init__(self, s: _Setup):
        from ..scoring._outcome import hook

        assert s.rule is not None  # _judge asks the scorer only when there is a rule
        j = s.spec["judge"]
        self.rule = s.rule
        # the scorer keywords the rule's games use (e.g. 国标's 花牌 with the 144-tile set), then the caller's
        base = hook(s.rule, "score_options")
        self.options = {**(dict(base(s.rule)) if base is not None else {}), **s.scorer_options}
        self.melds = tuple(j.melds)
        self.own = tuple(j.own_bonus)
        self.pool = tuple(j.pool)
        self.win_is_wild = bool(s.rule.engine.win_is_wild)
        self.key = (s.rule, tuple(sorted(self.options.items())), self.melds, self.own, self.pool)
        kr = _bridge.kernel_rule(s.rule)
        cap = np.ascontiguousarray(np.maximum(kr.copies.astype(np.int16) - s.hand.meld_counts, 0), np.uint8)
        self.shape = (kr, cap, _bridge.void_options(kr.options, {m.tiles[0] // 9 for m in self.melds}))

    def table(self, queries: dict, F: int):
        global _MEMO_BYTES
        counts, wilds, tiles, sd = queries["counts"], queries["wilds"], queries["tile"], queries["self_draw"]
        nq = len(tiles)
        legal = np.zeros((nq, F + 1, 2), np.uint8)
        vals = np.zeros((nq, F + 1, 2, 3), np.float64)
        if _MEMO_BYTES > _MEMO_LIMIT:
            _MEMO.clear()
            _MEMO_BYTES = 0
        # one entry per win (all its flower counts at once) under this set-up's judge key:
        # a repeated call asks one small-key lookup per win, not one per flower count
        memo = _MEMO.setdefault((self.key, F), {})
        for i in range(nq):
            key = (counts[i].tobytes(), int(wilds[i]), int(tiles[i]), bool(sd[i]))
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = self._decide_all(counts[i], key[1], key[2], key[3], F)
                _MEMO_BYTES += 500 + 48 * (F + 1)
            legal[i], vals[i] = hit
        return legal, vals

    def _decide_all(self, c, w: int, t: int, self_draw: bool, F: int):
        """``(legal[F + 1, 2], values[F + 1, 2, 3])`` of one win for every flower count and, for
        a self-draw with a flower drawn, for the winning tile replacing a flower or not."""
        legal = np.zeros((F + 1, 2), np.uint8)
        vals = np.zeros((F + 1, 2, 3), np.float64)
        for f in range(F + 1):
            for a in (0, 1) if self_draw and f >= 1 else (0,):
                v = self._decide(c, w, t, self_draw, f, a)
                if v is not None:
                    legal[f, a] = 1
                    vals[f, a] = v
        return legal, vals

    def _context(self, c, w: int, face: int, self_draw: bool, f: int, a: int, wild_win: bool):
        from ..scoring import WinContext

        hand = Hand(c, melds=self.melds, bonus=self.own + self.pool[:f], wilds=w)
        state = {"win_is_wild": wild_win} if self.win_is_wild and w else {}
        if self_draw:
            return WinContext(
                hand, win_tile=face, self_draw=True, winner=0, dealer=0, after_kong=bool(a), rule_state=state
            )
        return WinContext(
            hand, win_tile=face, self_draw=False, winner=0, dealer=0, discarder=_DISCARDER, rule_state=state
        )

    def _decide(self, c, w: int, tile: int, self_draw: bool, f: int, a: int):
        """``(pay, total, points)`` of the best legal reading, or None."""
        from ..scoring import can_win, score

        if tile < N_KINDS:
            faces = [(tile, False)]
        else:
            faces = [(k, True) for k in self._wild_faces(c, w)]
        best = None
        for face, wild_win in faces:
            ctx = self._context(c, w, face, self_draw, f, a, wild_win)
            if not can_win(ctx, self.rule, **self.options):
                continue
            s = score(ctx, self.rule, **self.options)
            v = (float(s.payments[0]), float(s.total), float(s.points))
            if best is None or v > best:
                best = v
        return best

    def _wild_faces(self, c, w: int) -> list:
        """Faces a drawn wildcard can stand for (the rest of the hand stays complete)."""
        out = []
        kr, cap, opts = self.shape
        c2 = np.array(c, np.uint8)
        for k in np.flatnonzero(self.rule.tileset.copies):
            if c2[k] >= cap[k]:
                continue  # a fifth copy: not a reading
            c2[k] += 1
            if _ks.shanten_fast(c2, len(self.melds), w - 1, cap, kr.playable, kr.forms, opts) < 0:
                out.append(int(k))
            c2[k] -= 1
        return out


def _judge(problem, s: _Setup):
    F = s.flowers
    if s.rule is None:  # every win is legal and worth 1: the queries need not be read
        nq = problem.n_queries
        legal, vals = np.ones((nq, F + 1, 2), np.uint8), np.ones((nq, F + 1, 2, 3))
    else:
        legal, vals = _WinJudge(s).table(problem.queries(), F)
    problem.set_judgement(legal, vals)
    return legal, vals


# ---------------------------------------------------------------------------------------------
# solving
def _new_problem(s: _Setup, mode: int, depth, max_states: int, roots=None):
    p = _kv.ValueProblem(
        *hand_args(s.spec),
        s.unseen,
        s.returned_max,
        s.flowers,
        s.start14,
        mode,
        -1 if depth is None else int(depth),
        s.draws_left,
        bool(s.hazard.any()),
        int(max_states),
        _root_mask(s, roots),
        wins_final=s.rule is None,
    )
    return p


def _root_mask(s: _Setup, roots) -> np.ndarray:
    mask = np.zeros(34, np.uint8)
    if s.start14:
        mask[:] = s.spec["counts"] > 0
        if roots is not None:
            mask[:] = 0
            mask[list(roots)] = 1
    return mask


def _pick_mode(wall: str, s: _Setup) -> int:
    if wall == "returned":
        return _kv.RETURNED
    if s.draws_left <= EXACT_DRAWS or int(s.unseen.sum()) <= EXACT_WALL:
        return _kv.EXACT
    return _kv.APPROX


def _budget_error(max_states: int, depth):
    return ValueError(
        f"the search reaches more than max_states={max_states} states at depth={depth}; "
        "lower depth, shorten draws_left or raise max_states"
    )


@dataclass
class _Solved:
    setup: _Setup
    problem: _kv.ValueProblem | None  # None: every row uses the chain fallback
    mode: int
    roots: list  # (kind, state id, shanten)
    results: np.ndarray
    chain: dict  # kind -> figures of the rows estimated by the chain model
    shanten: dict  # kind (-1 for the 13-tile form) -> shanten after the discard
    reach: np.ndarray  # states reachable from each root
    tables: tuple | None = None  # (legal, values) of the judged wins


def _row_shanten(s: _Setup) -> dict:
    """The shanten of each row: ``{kind: shanten}`` after each distinct discard of a 14-tile
    hand, ``{-1: shanten}`` of a 13-tile hand."""
    args = hand_args(s.spec)
    if not s.start14:
        return {-1: int(_ks.shanten_fast(*args))}
    return dict(_ks.shanten_after_discards(*args))


def _solve_many(setups: list, *, wall, depth, max_states, keep, n_threads, discards_list, fallback) -> list:
    """Build, judge and solve every set-up (builds and solves in parallel, judging serially)."""
    plans = []
    for s, discards in zip(setups, discards_list):
        sh = _row_shanten(s)
        kinds = list(sh) if discards is None else list(discards)
        graph_kinds = [k for k in kinds if fallback is None or sh[k] < fallback]
        chain_kinds = [k for k in kinds if k not in graph_kinds]
        plans.append((s, sh, graph_kinds, chain_kinds))
    problems, modes = [], []
    for s, sh, graph_kinds, _chain in plans:
        mode = _pick_mode(wall, s)
        modes.append(mode)
        problems.append(
            _new_problem(s, mode, depth, max_states, graph_kinds if s.start14 else None) if graph_kinds else None
        )
    todo = [i for i, p in enumerate(problems) if p is not None]
    status = _kv.build_many([p for p in problems if p is not None], n_threads) if todo else []
    for i, st in zip(todo, status):
        if st == 2:
            raise MemoryError("not enough memory for the draw graph")
        if st == 1:
            if modes[i] != _kv.EXACT:
                raise _budget_error(max_states, depth)
            # the exact depleting wall does not fit: the approximate one instead (flagged)
            s, _sh, graph_kinds, _c = plans[i]
            modes[i] = _kv.APPROX
            problems[i] = retry = _new_problem(s, _kv.APPROX, depth, max_states, graph_kinds if s.start14 else None)
            if _kv.build_many([retry], 1)[0] != 0:
                raise _budget_error(max_states, depth)
    tables = {}
    for i in todo:
        tables[i] = _judge(problems[i], plans[i][0])
    results = (
        _kv.solve_many(
            [p for p in problems if p is not None],
            [plans[i][0].hazard for i in todo],
            [plans[i][0].turns for i in todo],
            keep,
            n_threads,
        )
        if todo
        else []
    )
    out = []
    it = iter(results)
    for i, (s, sh, graph_kinds, chain_kinds) in enumerate(plans):
        p = problems[i]
        res = next(it) if p is not None else np.zeros((0, 6))
        roots = p.roots() if p is not None else []
        chain = {k: _chain_figures(s, k, wall) for k in chain_kinds}
        reach = p.reachable() if p is not None else np.zeros(0, np.int64)
        out.append(_Solved(s, p, modes[i], roots, res, chain, sh, reach, tables.get(i)))
    return out


# ---------------------------------------------------------------------------------------------
# the shanten-chain approximation (rows from FALLBACK_SHANTEN)
def _chain_figures(s: _Setup, kind: int, wall: str) -> np.ndarray:
    """Figures of one row from a chain over shanten levels: one level per accepted draw, with
    the 进张 of a greedy descent held at each level (shape only: the rule's legality and scores
    are not applied, so ``pay`` is the win probability itself)."""
    from ..efficiency import analyze_discards, ukeire

    spec = s.spec
    c = np.array(spec["counts"], np.uint8)
    if kind >= 0:
        c[kind] -= 1
    vis = np.array(spec["visible"], np.int16)
    if kind >= 0:
        vis[kind] += 1
    kr = dict(rule=s.rule) if s.rule is not None else {}
    hand = Hand(c, melds=s.hand.melds, wilds=s.hand.wilds, partial=True)
    u_levels = []
    for _ in range(12):
        u = ukeire(hand, visible=vis, legal="shape", **kr)
        if u.shanten < 0 or u.count == 0:
            break
        u_levels.append(u.count)
        if u.shanten == 0:
            break
        best = max(u.tiles, key=lambda x: (u.tiles[x], -CODES.index(x)))
        drawn = hand.with_tile(best)
        table = analyze_discards(drawn, visible=vis, legal="shape", combos=False, **kr)
        hand = drawn.without_tile(str(table["discard"].iloc[0]))
    levels = len(u_levels)
    T = s.draws_left
    S0 = int(s.unseen.sum())
    S_ret = S0 + (1 if s.start14 else 0)
    dist = np.zeros(levels + 1)  # dist[i]: i levels advanced, no win yet
    dist[0] = 1.0
    won_self = won_disc = 0.0
    ready = 1.0 if levels == 1 else 0.0
    q = s.hazard
    for t in range(T + 1):
        if levels and dist[levels - 1] > 0 and q[t] > 0:
            pd = 1 - (1 - q[t]) ** (int(s.turns[t]) * u_levels[-1])
            won_disc += dist[levels - 1] * pd
            dist[levels - 1] *= 1 - pd
        if t == T:
            break
        den = S_ret if wall == "returned" else S0 - t
        new = dist.copy()
        for i in range(levels):
            step = min(1.0, u_levels[i] / den) if den > 0 else 0.0
            move = dist[i] * step
            new[i] -= move
            if i == levels - 1:
                won_self += move
            else:
                new[i + 1] += move
                if i + 1 == levels - 1:
                    ready += move
        dist = new
    p_win = won_self + won_disc
    return np.array([p_win, won_self, won_disc, ready, p_win, p_win])


# ---------------------------------------------------------------------------------------------
def _is_batch(hand) -> bool:
    if isinstance(hand, np.ndarray):
        return hand.ndim == 2
    if isinstance(hand, (list, tuple)) and hand:
        return all(isinstance(x, (str, Hand, np.ndarray, list, tuple)) for x in hand)
    return False


def _check_common(wall, depth, by_turn, converge, max_states, fallback_shanten):
    if wall not in WALLS:
        raise ValueError(f"wall must be one of {', '.join(WALLS)}; got {wall!r}")
    if depth is not None:
        depth = check_int(depth, "depth", 0)
    for name, flag in (("by_turn", by_turn), ("converge", converge)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {flag!r}")
    max_states = check_int(max_states, "max_states", 1)
    if fallback_shanten is not None:
        fallback_shanten = check_int(fallback_shanten, "fallback_shanten", 1)
    return depth, max_states, fallback_shanten


def _discard_kinds(discards, s: _Setup):
    if discards is None:
        return None
    if not s.start14:
        raise ValueError("discards= applies to a 14-tile hand (about to discard); this hand draws first")
    from ..tiles import parse_tiles

    kinds = sorted(set(parse_tiles(discards, allow_bonus=False)))
    for k in kinds:
        if s.spec["counts"][k] == 0:
            raise ValueError(f"discard {CODES[k]} is not in the hand {s.hand}")
    return kinds


def _model_name(mode: int) -> str:
    return {_kv.RETURNED: "returned", _kv.EXACT: "depleting (exact)", _kv.APPROX: "depleting (approximate)"}[mode]


def _columns(solved: _Solved) -> dict:
    """The table's columns as NumPy arrays, best row first."""
    s = solved.setup
    nr = len(solved.roots)
    kinds = [k for k, _sid, _sh in solved.roots]
    if solved.chain:
        kinds += list(solved.chain)
        fig = np.zeros((len(kinds), 6))
        fig[:nr] = solved.results
        for i, k in enumerate(solved.chain):
            fig[nr + i] = solved.chain[k]
    else:
        fig = solved.results
    floats, ints, discard, exact, graph = _kv.table_columns(
        np.ascontiguousarray(fig, np.float64),
        np.array(kinds, np.int64),
        np.array([solved.shanten[k] for k in kinds], np.int64),
        np.ascontiguousarray(solved.reach, np.int64),
        nr,
        s.rule is None or not solved.chain,  # every row is valued
        float(s.stake),
        solved.mode != _kv.APPROX,
    )
    cols = {"discard": discard, "shanten": ints[0]}
    cols.update(zip(_FLOATS, floats))
    cols["n_states"] = ints[1]
    cols["exact"] = exact
    cols["method"] = graph
    return cols


_FLOATS = COLUMNS[2:11]  # the float columns, in order (what ``_kv.table_columns`` returns)
_CATEGORIES = None
_METHOD = None


def _frame(cols: dict, lead: dict | None = None):
    """The table of :data:`COLUMNS` (after the ``lead`` columns, a batch's ``hand``)."""
    import pandas as pd

    from .._display import _tile_frame_class

    global _CATEGORIES, _METHOD
    if _CATEGORIES is None:
        _CATEGORIES = pd.CategoricalDtype(_TILE_ORDER, ordered=True)
        _METHOD = pd.CategoricalDtype(["recursion", "chain"])
    data = dict(lead or {})
    data.update((k, cols[k]) for k in COLUMNS)  # in column order: no reindexing by ``columns=``
    data["discard"] = pd.Categorical.from_codes(np.where(cols["discard"] >= 0, cols["discard"], -1), dtype=_CATEGORIES)
    data["method"] = pd.Categorical.from_codes(np.where(cols["method"], 0, 1), dtype=_METHOD)
    # built once, straight as the tile frame (Jupyter draws its tiles): a DataFrame with
    # ``columns=`` copied into one cost more than the recursion of a 1-shanten hand
    return _tile_frame_class()(data, copy=False)


def _attrs(s: _Setup, solved: _Solved, wall, depth, discard_wins) -> dict:
    hz = s.hazard.tolist()
    return {
        "rule": None if s.rule is None else s.rule.name,
        "unit": s.unit,
        "draws_left": s.draws_left,
        "wall": wall,
        "model": _model_name(solved.mode),
        "depth": depth,
        "discard_wins": bool(discard_wins),
        "hazard": hz[0] if all(x == hz[0] for x in hz) else hz,
        "base_stake": s.stake,
        "unseen": int(s.unseen.sum()),
        "flowers_unseen": s.flowers,
        "start_shanten": None if solved.problem is None else solved.problem.start_shanten,
        "graph_states": None if solved.problem is None else solved.problem.n_states,
    }


def _by_turn_frame(solved: _Solved, summary):
    import pandas as pd

    assert solved.problem is not None  # the caller checks it: the turns come from the recursion
    s = solved.setup
    parts = []
    order = {d: i for i, d in enumerate(summary["discard"].astype(object))}
    for i, (k, _sid, _sh) in enumerate(solved.roots):
        bt = solved.problem.by_turn(i)
        T = bt.shape[0]
        parts.append(
            pd.DataFrame(
                {
                    "discard": [CODES[k] if k >= 0 else None] * T,
                    "turn": np.arange(T, dtype=np.int64),
                    "p_ready": bt[:, 3],
                    "p_win": bt[:, 1] + bt[:, 2],
                    "p_win_self_draw": bt[:, 1],
                    "p_win_discard": bt[:, 2],
                    "ev": bt[:, 0],
                    "ev_stakes": bt[:, 0] / s.stake,
                }
            )
        )
    df = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=list(TURN_COLUMNS))
    key = df["discard"].map(lambda d: order.get(d, len(order)))
    df = df.assign(_o=key).sort_values(["_o", "turn"], kind="stable").drop(columns="_o").reset_index(drop=True)
    df["discard"] = pd.Categorical(df["discard"], categories=_TILE_ORDER, ordered=True)
    return df


def value_policy(
    hand,
    *,
    rule=None,
    draws_left=18,
    visible=None,
    melds=(),
    wilds=None,
    wild_kind=None,
    wild_copies=None,
    wall="depleting",
    depth=1,
    max_states=2_000_000,
    **rule_options,
):
    """The recursion of :func:`expected_value` (self-draws only) with its choices kept, for
    :func:`mjfast.simulate_draws` with ``policy="value"``: ``(solved, root)``, ``root`` the
    row the policy discards first (the best by ``ev``)."""
    depth, max_states, _f = _check_common(wall, depth, False, False, max_states, None)
    s = _setup(
        hand,
        rule=rule,
        draws_left=draws_left,
        visible=visible,
        melds=melds,
        wilds=wilds,
        wild_kind=wild_kind,
        wild_copies=wild_copies,
        discard_wins=False,
        hazard=None,
        first_turns=3,
        rule_options=rule_options,
    )
    solved = _solve_many(
        [s], wall=wall, depth=depth, max_states=max_states, keep=True, n_threads=1, discards_list=[None], fallback=None
    )[0]
    best = int(_columns(solved)["discard"][0])
    root = next(i for i, (k, _sid, _sh) in enumerate(solved.roots) if k == best)
    return solved, root


def value_table(
    hand,
    *,
    first_turns: int = 3,
    rule=None,
    draws_left=None,
    visible=None,
    melds=(),
    wilds=None,
    wall="depleting",
    depth=1,
    discard_wins=True,
    hazard=None,
    wild_kind=None,
    wild_copies=None,
    discards=None,
    fallback_shanten=FALLBACK_SHANTEN,
    max_states=2_000_000,
    **rule_options,
):
    """:func:`expected_value`'s table for one hand, with the opponent turns before the first
    draw of a 13-tile hand set by ``first_turns`` (0-3; :func:`mjfast.call_vs_pass` uses it:
    after passing a discard only the players between the discarder and the player move)."""
    if isinstance(first_turns, (bool, np.bool_)) or first_turns not in (0, 1, 2, 3):
        raise ValueError(f"first_turns must be 0, 1, 2 or 3, got {first_turns!r}")
    depth, max_states, fallback = _check_common(wall, depth, False, False, max_states, fallback_shanten)
    s = _setup(
        hand,
        rule=rule,
        draws_left=draws_left,
        visible=visible,
        melds=melds,
        wilds=wilds,
        wild_kind=wild_kind,
        wild_copies=wild_copies,
        discard_wins=discard_wins,
        hazard=hazard,
        first_turns=int(first_turns),
        rule_options=rule_options,
    )
    sv = _solve_many(
        [s],
        wall=wall,
        depth=depth,
        max_states=max_states,
        keep=False,
        n_threads=1,
        discards_list=[_discard_kinds(discards, s)],
        fallback=fallback,
    )[0]
    df = _frame(_columns(sv))
    df.attrs.update(_attrs(s, sv, wall, depth, discard_wins))
    return df


def expected_value(
    hand,
    *,
    rule=None,
    draws_left=None,
    visible=None,
    melds=(),
    wilds=None,
    wall="depleting",
    depth=1,
    discard_wins=True,
    hazard=None,
    by_turn=False,
    converge=False,
    wild_kind=None,
    wild_copies=None,
    discards=None,
    fallback_shanten=FALLBACK_SHANTEN,
    max_states=2_000_000,
    n_threads=None,
    **rule_options,
):
    """Exact win probability and expected result of every discard (or of a 13-tile hand).

    Parameters
    ----------
    hand : Hand, str, sequence or array; or a list of hands / an ``(n, 34)`` array
        A 14-tile hand about to discard (one row per distinct discard) or a 13-tile hand
        about to draw (one row), melds counted as 3.  A list of hands or an ``(n, 34)`` count
        array is a batch: the rows of every hand in one table with a ``hand`` column (its
        position), computed on ``n_threads`` threads.
    rule : str or Rule, optional
        The rule (tile set, forms, flowers, wildcards, legality and scores).  Without one:
        136 tiles, every complete hand wins and is worth 1 (``ev`` is then ``p_win``).
    draws_left : int, optional
        The player's draws, ``0 <= draws_left <=`` the unseen playable tiles.  Default: what a
        fresh wall gives the dealer under the rule (:func:`fresh_draws`: 20 without a rule).
    visible : tiles or uint8[34], optional
        Tiles seen elsewhere (not in the wall).  Under a rule with flowers (苏州, 太仓) the
        flowers other players laid aside may be listed too (``"F1 F5"``; a visible dragon is
        a flower there): they are no longer in the wall.
    melds, wilds : optional
        Called melds and wildcards held, when ``hand`` is not already a :class:`~mjfast.Hand`.
    wall : {"depleting", "returned"}, default "depleting"
        The wall model (see Notes).
    depth : int or None, default 1
        The search bound: how many hand changes / steps back (向听戻し) are followed (see
        Notes); ``None`` follows every draw and discard (small cases only).
    discard_wins : bool, default True
        Model wins on the opponents' discards (see Notes).
    hazard : float or array of float, optional
        Probability per unseen copy per opponent turn that it is discarded; one value, or one
        per opponent round (``draws_left + 1`` values: the round after the player's discard
        of turn 0, 1, ...).  Default: the rule's calibrated value (:func:`default_hazard`,
        also in ``attrs["hazard"]``).
    by_turn : bool, default False
        Return the long table by turn instead (:data:`TURN_COLUMNS`): one row per discard and
        turn 0..draws_left, the figures reached by the end of that turn (cumulative) under the
        choices that maximise ``ev`` over the whole horizon; :func:`mjfast.plot_win_curve`
        draws it.  The summary table is in ``attrs["summary"]``.
    converge : bool, default False
        Also solve at ``depth + 1`` and report in ``attrs["converge"]`` how ``p_win`` and
        ``ev`` of the best discard change.
    wild_kind, wild_copies : optional
        The wildcard face of this hand and the wildcard tiles in play (as in
        :func:`mjfast.simulate_draws`); the wildcard tiles not held are in the wall.
    discards : tiles, optional
        Only these discards of a 14-tile hand (each must be in the hand).
    fallback_shanten : int or None, default 4
        Rows from this shanten use the shanten-chain approximation (``method="chain"``; see
        Notes); None: always the recursion.
    max_states : int, default 2,000,000
        Most states the draw graph may hold; beyond it a ``ValueError`` (the exact depleting
        wall falls back to the approximate one instead, ``exact`` False).
    n_threads : int, optional
        Threads for a batch (None: all cores).  Results do not depend on it.
    **rule_options
        Options of the rule (as :func:`mjfast.rules.get`) and of its scorer (as
        :func:`mjfast.score`, e.g. ``base=`` under 太仓).

    Returns
    -------
    pandas.DataFrame
        One row per distinct discard (a 14-tile hand) or one row (a 13-tile hand, ``discard``
        missing), best first by ``ev``:

        ``discard``; ``shanten`` after it; ``p_ready`` (ready in shape, 听牌, at some point),
        ``p_win`` = ``p_win_self_draw`` + ``p_win_discard``; ``ev`` — the expected result for
        the player: the winner's payment ``Score.payments[winner]`` in the rule's payment unit
        (what ``simulate_games`` records in ``pay_*``), 0 without a win; ``ev_stakes`` — the
        same in one-unit stakes (divided by :func:`mjfast.analysis.payout.base_stake`, the
        unit :func:`mjfast.payout_summary` uses); ``mean_win`` (= ``ev / p_win``: the
        expected payment given a win), ``mean_total`` (expected ``Score.total`` given a win,
        in ``attrs["unit"]``: 番, 花, …), ``mean_points`` (expected ``Score.points`` given a
        win: what one payer owes); ``n_states`` (states the search reached from that row);
        ``exact`` (the row is exact for its model, see Notes); ``method`` ("recursion" or
        "chain").  ``attrs``: rule, unit, draws_left, wall, model, depth, discard_wins,
        hazard, base_stake, unseen, flowers_unseen, start_shanten, graph_states, and
        ``converge`` on request.

    Raises
    ------
    ValueError
        A hand size that fits neither form, ``draws_left`` beyond the wall, ``hazard`` outside
        [0, 1] (or of the wrong length), ``depth < 0``, an unknown wall, a discard not in the
        hand, an unknown rule or option (rule or scorer), a search beyond ``max_states``, and
        the input errors of :func:`mjfast.simulate_draws` (tiles a rule does not play,
        ``visible`` exceeding the copies, wildcards under a rule without them).

    Notes
    -----
    **Model.**  The player (seat 0, the dealer, East) draws ``draws_left`` times from the
    unseen tiles — the rule's tile set minus the hand, its melds and ``visible``.  After each
    draw a complete hand may win if :func:`mjfast.can_win` accepts it (a self-draw), or the
    player discards; after every discard (and before the first draw of a 13-tile hand) the
    three opponents take one turn each.  Every choice — which tile to discard, whether to
    take a legal win or play on for a bigger one — maximises ``ev``; every other figure is
    that policy's.  A hand complete in shape but refused by the rule plays on.  The value of
    a win is the rule's score for that win: a self-draw (``after_kong`` when the winning tile
    replaced a flower: 花开), or a discard win on the opposite player's discard.  Not tracked
    (so never set): 杠开 (the player makes no kongs), 海底, 天胡/地胡, and calls during the
    horizon (:func:`mjfast.call_vs_pass` compares a call with passing).  门清 and the melds
    are those of the hand.

    **Walls.**  ``"returned"``: the peers' constant wall — discards go back, so a draw of
    kind k has probability (copies of k not in hand and not visible) / S with S constant;
    exact for any horizon.  ``"depleting"``: the real wall — the player's draws leave it and
    discards are out of play.  It is exact only if the state remembers what was drawn; that
    is done (``exact`` True) when ``draws_left <= 3`` or at most 20 tiles are unseen (and
    the states fit in ``max_states``).  Beyond, the state is the hand and the turn: copies
    of drawn tiles still held are gone, and the drawn tiles thrown back are taken from the
    kinds the hand does not accept, in proportion to their copies (from the accepted kinds
    only when those run out).  Every probability stays in [0, 1] by construction, it is exact
    while the accepted kinds stay the same (a wait that cannot change gives the
    hypergeometric law), and its bias against play on a real wall is measured in
    ``bench/RESULTS.md``.  How far apart the two walls are: a single 5p wait with 3 copies
    over 20 draws from 100 unseen tiles wins 1 − C(97, 20) / C(100, 20) = 0.492 on the
    depleting wall and 1 − (97/100)^20 = 0.456 on the returned one.

    **Search bound.**  With e the tiles of a hand not in the starting hand and s its
    shanten, a hand's slack is e + s − (the start's shanten).  A 13-tile hand with slack
    below ``depth`` follows every draw, else only those that lower its shanten (and drawn
    wildcards); a 14-tile hand with slack below ``depth`` follows every discard, else only
    those that keep its shanten.  Throwing the drawn tile back is always possible.  The
    search is exact for ``depth=None``; ``converge=True`` shows whether ``depth`` suffices.

    **Flowers** (苏州, 太仓): a flower drawn is set aside and replaced, using no turn.  The
    number drawn by each turn, and whether the winning tile replaced one, follow their exact
    law (independent of the playable tiles); values carry that count, so a 花 minimum or a
    花 total is judged at the flowers actually held.

    **Wildcards**: drawing one is always followed; they are never discarded; a drawn
    wildcard wins as the face that pays best.  Their rules (金华 财神, 瑞金/上饶 宝), 四川's
    缺一门, fixed melds and ``visible`` are honoured through the rule's shape kernel and
    scorer.

    **Discard wins** (``discard_wins=True``): in each opponent turn, every unseen copy of a
    tile that wins by discard under the rule is thrown with probability ``hazard``: at least
    one is with probability 1 − (1 − hazard)^C (C such copies), its kind in proportion to
    its copies; the player takes it when that is worth more than playing on.  The wall is not
    changed by an opponent's turn.  The default hazard is calibrated per rule from
    :func:`mjfast.simulate_games` (see ``DISCARD_HAZARD`` in each rule module).

    **Fallback.**  Rows from ``fallback_shanten`` (default 4-shanten) are estimated by a chain
    over shanten levels: one level per accepted draw, the 进张 of a greedy descent at each
    level (shape only, no rule); their ``ev`` is NaN under a rule, ``method`` is "chain".  The
    chain is optimistic (every level keeps the greedy descent's 进张, and the rule's legality is
    not applied), so its ``p_win`` can exceed a recursion row's for a hand one shanten closer:
    compare chain rows with each other, not with recursion rows.

    Examples
    --------
    >>> import mjfast as mj
    >>> df = mj.expected_value("19m19p19s1234567z", draws_left=6, discard_wins=False, depth=0)  # 13-sided wait
    >>> from math import comb
    >>> abs(float(df["p_win"].iloc[0]) - (1 - comb(123 - 39, 6) / comb(123, 6))) < 1e-12
    True

    Under 国标 (花龙 makes both single waits legal) the 6m wait has three copies left, 5p two:

    >>> df = mj.expected_value("123m456p789s234s5p6m", rule="guobiao", draws_left=8, discard_wins=False)
    >>> df["discard"].astype(str).head(2).tolist(), bool(df["p_win"].iloc[0] > df["p_win"].iloc[1])
    (['5p', '6m'], True)

    Under 苏州 a called hand with 3 花 may win by self-draw but not on a discard (4 花 needed);
    with every other flower seen, none can be drawn to lift it:

    >>> h = mj.Hand("123m456m789p1s", melds=["222s@left"], bonus=["F1", "F2", "F3"])
    >>> seen = "5z5z5z5z6z6z6z6z7z7z7z7z F4 F5 F6 F7 F8 RAT GOD CAT BOWL BD BD BD BD"
    >>> df = mj.expected_value(h, rule="suzhou", visible=seen, draws_left=3)
    >>> float(df["p_win_discard"].iloc[0]), bool(df["p_win_self_draw"].iloc[0] > 0), df.attrs["model"]
    (0.0, True, 'depleting (exact)')
    """
    depth, max_states, fallback = _check_common(wall, depth, by_turn, converge, max_states, fallback_shanten)
    batch = _is_batch(hand)
    # one hand is solved on one thread: the default (every usable CPU) need not be looked up
    threads = default_threads(n_threads) if batch or n_threads is not None else 1
    hands = (
        (list(hand) if not isinstance(hand, np.ndarray) else [np.ascontiguousarray(r, np.uint8) for r in hand])
        if batch
        else [hand]
    )
    if batch and (by_turn or converge):
        raise ValueError("by_turn and converge apply to one hand, not a batch")
    setups = [
        _setup(
            h,
            rule=rule,
            draws_left=draws_left,
            visible=visible,
            melds=melds,
            wilds=wilds,
            wild_kind=wild_kind,
            wild_copies=wild_copies,
            discard_wins=discard_wins,
            hazard=hazard,
            first_turns=3,
            rule_options=rule_options,
        )
        for h in hands
    ]
    discards_list = [_discard_kinds(discards, s) for s in setups]
    solved = _solve_many(
        setups,
        wall=wall,
        depth=depth,
        max_states=max_states,
        keep=bool(by_turn),
        n_threads=threads if batch else 1,
        discards_list=discards_list,
        fallback=fallback,
    )
    if batch:
        # one table from the hands' columns joined (not a frame per hand, then concatenated)
        parts = [_columns(sv) for sv in solved]
        sizes = [len(c["discard"]) for c in parts]
        lead = {"hand": np.repeat(np.arange(len(parts), dtype=np.int64), sizes)}
        out = _frame({k: np.concatenate([c[k] for c in parts]) for k in COLUMNS}, lead)
        first = _attrs(setups[0], solved[0], wall, depth, discard_wins)
        out.attrs.update(
            {k: v for k, v in first.items() if k in ("rule", "unit", "wall", "depth", "discard_wins", "base_stake")}
        )
        out.attrs["n_hands"] = len(parts)
        return out
    df = _frame(_columns(solved[0]))
    df.attrs.update(_attrs(setups[0], solved[0], wall, depth, discard_wins))
    if converge:
        more = _solve_many(
            setups,
            wall=wall,
            depth=None if depth is None else depth + 1,
            max_states=max_states,
            keep=False,
            n_threads=1,
            discards_list=discards_list,
            fallback=fallback,
        )[0]
        nxt = _frame(_columns(more))
        best = df.iloc[0]
        row = nxt[nxt["discard"].astype(object) == best["discard"]] if setups[0].start14 else nxt
        df.attrs["converge"] = {
            "depth": depth,
            "next_depth": None if depth is None else depth + 1,
            "discard": None
            if best["discard"] is None or (isinstance(best["discard"], float))
            else str(best["discard"]),
            "p_win": float(best["p_win"]),
            "p_win_next": float(row["p_win"].iloc[0]),
            "ev": float(best["ev"]),
            "ev_next": float(row["ev"].iloc[0]),
            "delta_p_win": float(row["p_win"].iloc[0] - best["p_win"]),
            "delta_ev": float(row["ev"].iloc[0] - best["ev"]),
            "best_next": None if not setups[0].start14 else str(nxt["discard"].iloc[0]),
        }
    if by_turn:
        if solved[0].problem is None:
            raise ValueError(
                "by_turn needs the recursion: every row of this hand uses the chain fallback "
                "(pass fallback_shanten=None)"
            )
        bt = _by_turn_frame(solved[0], df)
        bt.attrs.update(df.attrs)
        bt.attrs["summary"] = df
        return bt
    return df
