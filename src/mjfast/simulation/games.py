"""Monte-Carlo four-player games under a rule.

:func:`simulate_games` plays whole hands with four efficiency-policy players in the kernel
:mod:`mjfast._kernels._game` (no GIL); the rule's legality is asked only when a hand becomes
complete (a flower minimum the rule's scorer hands to the kernel is decided there), and the
finished games are scored here with :func:`mjfast.score` and settled by the hooks of the
rule's scorer module (:mod:`mjfast.scoring._outcome`).  What the engine does differently per
rule it reads from :class:`mjfast.rules.EngineFacts` (``Rule.engine``) and those hooks; it
never tests a rule's name.  Chunking, seeds and executors are :mod:`mjfast.simulation._chunks`.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from .. import _bridge
from .. import policies as _policies
from .. import rules as _rules
from .._inputs import check_samples, default_threads, sample_size
from .._kernels import _game as _kg
from ..hand import Hand
from ..rules._base import Rule
from ..scoring import WinContext, _outcome, can_win, score
from ..shape import shanten as _shanten
from ..tiles import CODES
from . import _chunks

#: Rules :func:`simulate_games` supports.
SUPPORTED = tuple(_rules.names())
#: Policy names understood by :func:`simulate_games` (besides :mod:`mjfast.policies` objects).
POLICIES = ("efficiency", "value")
#: Values of the ``how`` column.
HOW = _outcome.HOW

COLUMNS = (
    "game",
    "dealer",
    "winners",
    "how",
    "discarder",
    "turn",
    "winning_hand",
    "total",
    "elements",
    "pay_0",
    "pay_1",
    "pay_2",
    "pay_3",
)

_MELD_KINDS = _outcome.MELD_KINDS
_F = _kg.FLAGS
_FL_AFTER_KONG, _FL_KONG_DISCARD, _FL_HEAVENLY, _FL_EARTHLY = (
    _F[k] for k in ("after_kong", "kong_discard", "heavenly", "earthly")
)
_FL_LAST_TILE, _FL_LAST_COPY, _FL_FIRST_DISCARD = _F["last_tile"], _F["last_copy"], _F["first_discard"]
_FL_ROBBING_KONG, _FL_AFTER_FLOWER, _FL_FIRST_ROUND = _F["robbing_kong"], _F["after_flower"], _F["first_round"]
_FL_FEI, _FL_FEI_BROKEN = _F["fei"], _F["fei_broken"]
_WIND_SHIFT = _kg.WIND_SHIFT
_melds = _outcome.meld_objects
_NO_LOG = np.zeros((0, 0, _kg.N_LOG_FIELDS), np.int16)
#: Whether the compiled fan search decides 国标's 8-番 minimum in the kernel.  False puts every
#: complete hand to the rule's Python checker instead, which gives the same answers (and so the
#: same games; ``test_guobiao_minimum_in_kernel_matches_can_win``): for the benches and tests
#: that count or compare those answers.
FAN_MINIMUM_IN_KERNEL = True


def _turn_test(event: str):
    """The kernel-flag test of a first-turn moment (``EngineFacts.first_turn``):
    ``test(flags, self_draw, seat, dealer) -> bool``."""
    if event == "deal":
        return lambda fl, sd, seat, dealer: sd and bool(fl & _FL_HEAVENLY)
    if event == "first_draw":
        return lambda fl, sd, seat, dealer: sd and bool(fl & _FL_EARTHLY)
    if event == "dealer_next_first_draw":
        return lambda fl, sd, seat, dealer: sd and bool(fl & _FL_EARTHLY) and seat == (dealer + 1) % 4
    if event == "first_discard":
        return lambda fl, sd, seat, dealer: not sd and bool(fl & _FL_FIRST_DISCARD)
    return lambda fl, sd, seat, dealer: bool(fl & _FL_FIRST_ROUND)  # "first_round"


class _Game:
    """Rule-side helpers of a simulation, picklable as the Rule itself (and the policy knobs)."""

    def __init__(
        self, rule: Rule, fei_policy: int = 0, pung_policy: int = 0, pass_policy: int = 0, seats: tuple | None = None
    ):
        self.rule = rule
        self.seats = _policies.resolve(None) if seats is None else tuple(seats)  # one policy per seat
        self.name = rule.name
        self.options = dict(rule.options)
        self.facts = rule.engine
        self.fei_policy = int(fei_policy)  # policy knobs of the kernel (tests drive them)
        self.pung_policy = int(pung_policy)
        self.pass_policy = int(pass_policy)
        self.tables = _bridge.game_tables(rule)
        self.settle_kongs = _outcome.hook(rule, "settle_kongs")
        self.win_state = _outcome.hook(rule, "win_state")
        self.settle_end = _outcome.hook(rule, "settle_end")
        self.next_deal = _outcome.hook(rule, "next_deal")
        options = _outcome.hook(rule, "score_options")
        self.score_options = dict(options(rule)) if options is not None else {}
        self.turn = tuple((_turn_test(event), flag) for event, flag in self.facts.first_turn)
        self._memo: dict = {}
        self._contexts: dict = {}  # the checker's contexts, reused when the games are scored
        self.errors: list = []

    def __reduce__(self):
        return (_Game, (self.rule, self.fei_policy, self.pung_policy, self.pass_policy, self.seats))

    def wild_kind(self, flipped: int):
        """The playable kind this game's wildcards stand for naturally (None: none, or flowers)."""
        return self.tables.wild_kind[flipped] if flipped >= 0 else None

    def win_face(self, counts, melds, wilds: int, flipped: int) -> int:
        """The kind a drawn winning wildcard stands for: the first (lowest) kind that completes
        the hand, preferring one the hand holds no natural copy of (瑞金/上饶 read a winning
        tile without a natural copy as the 宝 itself)."""
        c = np.frombuffer(bytes(counts), np.uint8).astype(np.int64)
        wk = self.wild_kind(flipped)
        fallback = None
        for k in np.argsort(c > 0, kind="stable"):
            k = int(k)
            if not self.tables.playable[max(flipped, 0) if self.tables.flip else 0][k]:
                continue
            c[k] += 1
            try:
                h = Hand(c.astype(np.uint8), melds=melds, wilds=wilds - 1)
                if _shanten(h, rule=self.rule, wild_kind=wk) == -1:
                    return k
            except ValueError:
                pass
            finally:
                c[k] -= 1
            if fallback is None:
                fallback = k
        return fallback if fallback is not None else 0

    def context(
        self,
        seat,
        counts,
        melds,
        tile,
        self_draw,
        discarder,
        dealer,
        flags,
        wilds=0,
        flowers=b"",
        flipped=-1,
        keep=False,
    ) -> WinContext:
        """The WinContext of a potential win as the kernel describes it (``melds``: the
        ``(kind, lowest tile, source seat)`` rows actually made).  ``keep``: remember it for
        the scoring of this batch (the checker's contexts; :func:`_raw` forgets them)."""
        key = (seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers, flipped)
        ctx = self._contexts.get(key)
        if ctx is None:
            ctx = self._build(*key)
            if keep and len(self._contexts) < 8192:
                self._contexts[key] = ctx
        return ctx

    def _build(
        self, seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers, flipped
    ) -> WinContext:
        facts = self.facts
        ms = _melds(seat, melds)
        bonus = []
        if flowers.count(0) != len(flowers):
            for k, n in enumerate(flowers):
                if n:
                    bonus += [k] * n
        hand = Hand(np.frombuffer(counts, np.uint8), melds=ms, bonus=tuple(bonus), wilds=int(wilds))
        extra: dict[str, Any] = {}  # WinContext keywords beyond the hand's
        state = None
        if tile == _kg.WILD:
            tile = self.win_face(counts, ms, wilds, flipped)
            if facts.win_is_wild:
                state = {"win_is_wild": True}
        if flags & (_FL_FEI | _FL_FEI_BROKEN):
            state = dict(state or {}, fei=bool(flags & _FL_FEI))
        if state is not None:
            extra["rule_state"] = state
        if flipped >= 0:
            extra["flipped"] = int(flipped)
        sd = bool(self_draw)
        for test, flag in self.turn:
            if test(flags, sd, seat, dealer):
                extra[flag] = True
                break
        wind = flags >> _WIND_SHIFT & 3
        if wind:
            extra["prevalent_wind"] = wind
        after = bool(flags & _FL_AFTER_KONG) and sd and (facts.flower_bloom or not flags & _FL_AFTER_FLOWER)
        return WinContext(
            hand,
            win_tile=int(tile),
            self_draw=sd,
            winner=int(seat),
            discarder=None if sd else int(discarder),
            dealer=int(dealer),
            after_kong=after,
            robbing_kong=bool(flags & _FL_ROBBING_KONG),
            last_tile=bool(flags & _FL_LAST_TILE),
            last_copy=bool(flags & _FL_LAST_COPY) and facts.last_copy,
            kong_discard=bool(flags & _FL_KONG_DISCARD) and not sd and facts.kong_discard,
            **extra,
        )

    def checker(self, seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers, flipped) -> bool:
        key = (seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers, flipped)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) > 100_000:
                self._memo.clear()
            try:
                ctx = self.context(
                    seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers, flipped, keep=True
                )
                hit = bool(can_win(ctx, self.rule, **self.score_options))
            except Exception as exc:  # the kernel keeps it, stops its games and raises it
                self.errors.append(exc)
                raise
            self._memo[key] = hit
        return hit


def _extra_columns(game: _Game) -> tuple:
    """Rule-specific columns: the flipped indicator; the 定缺 suits (one letter per seat)."""
    return (("flipped",) if game.tables.flip else ()) + (("voids",) if game.facts.void_suit else ())


_CTX_FIELDS = tuple(f for f in WinContext.__dataclass_fields__)


#: WinContext fields no other field constrains (the round multipliers): a context with only
#: these replaced by bools is valid without being checked again.
_FREE_FLAGS = frozenset({"baozi", "diling"})
_set = object.__setattr__


def _with(ctx: WinContext, **fields) -> WinContext:
    """``ctx`` with some fields replaced."""
    if fields.keys() <= _FREE_FLAGS and all(type(v) is bool for v in fields.values()):
        new = object.__new__(WinContext)
        for f in _CTX_FIELDS:
            _set(new, f, getattr(ctx, f))
        for f, v in fields.items():
            _set(new, f, v)
        return new
    values = {f: getattr(ctx, f) for f in _CTX_FIELDS}
    if "winner" in fields or "dealer" in fields:
        values["seat_wind"] = None
    state = fields.get("rule_state")
    if state is not None and ctx.rule_state:
        fields = dict(fields, rule_state={**ctx.rule_state, **state})
    values.update(fields)
    return WinContext(**values)


def _rows(game: _Game, rec, hands, melds, kongs, events, seats, rounds=None, outcomes=None, on_outcome=None) -> dict:
    """Score and settle the recorded games; columns as lists (``game`` is numbered later).

    ``rounds``: the match :class:`~mjfast.scoring._outcome.Round` of each game (None outside
    matches); ``outcomes``: a list to append each game's :class:`~mjfast.scoring._outcome.Outcome`
    to (its ``scores`` filled in); ``on_outcome(g, outcome, pay)``: called with each game's
    Outcome and seat deltas as soon as it is settled (the Outcome need not outlive it)."""
    n = rec.shape[0]
    # the columns (lists), and "element_names" (a dict) once the games are scored
    out: dict[str, Any] = {c: [] for c in COLUMNS[1:] + _extra_columns(game)}
    rule, opts0 = game.rule, game.score_options
    settle_kongs, win_state, settle_end = game.settle_kongs, game.win_state, game.settle_end
    need_outcome = settle_kongs or win_state or settle_end or outcomes is not None or on_outcome is not None
    # Python lists and bytes once for the batch: indexing them per game is far cheaper than numpy
    rec_l, melds_l, events_l = rec.tolist(), melds.tolist(), events.tolist()
    hands_b, seats_b = hands.tobytes(), seats.tobytes()
    nh, ns = hands.shape[2], seats.shape[2]
    names: dict = {}  # element code -> its Chinese name, as the scorer gave it
    for g in range(n):
        r = rec_l[g]
        dealer, turn, n_ev, flipped = r[0], r[3], r[11], r[12]
        meld_rows = [tuple((m[0], m[1], m[2], m[4]) for m in melds_l[g][s] if m[0] >= 0) for s in range(4)]
        rnd = rounds[g] if rounds is not None else None
        outcome = None
        if need_outcome:
            outcome = _outcome.Outcome(rule, r, hands[g], melds_l[g], kongs[g], events_l[g], seats[g], rnd)
        pay = np.zeros(4, np.int64)
        kong_log = settle_kongs(outcome) if settle_kongs is not None else ()
        for _konger, d in kong_log:
            pay += d
        winners: list = []
        total = 0
        elements = ""
        hand_text = ""
        how0 = 3
        disc0 = -1
        for e in range(n_ev):
            how, discarder, tile, flags, wmask, _k, _before = events_l[g][e]
            seats_ = [s for s in ((discarder + i) % 4 for i in range(1, 4))] if how else [s for s in range(4)]
            seats_ = [s for s in seats_ if wmask >> s & 1]
            if e == 0:
                how0, disc0 = how, discarder
            for i, w in enumerate(seats_):
                hs, ss = nh * (4 * g + w), ns * (4 * g + w)
                ctx = game.context(
                    w,
                    hands_b[hs : hs + nh],
                    meld_rows[w],
                    tile,
                    how == 0,
                    discarder,
                    dealer,
                    flags,
                    seats_b[ss + 82],
                    seats_b[ss : ss + 48],
                    flipped,
                )
                if how == 2:
                    ctx = WinContext(
                        ctx.hand,
                        win_tile=ctx.win_tile,
                        winner=w,
                        discarder=discarder,
                        dealer=dealer,
                        prevalent_wind=ctx.prevalent_wind,
                        robbing_kong=True,
                        last_copy=ctx.last_copy,
                        flipped=ctx.flipped,
                    )
                opts = opts0
                if win_state is not None:
                    assert outcome is not None  # need_outcome holds with a win_state hook
                    fields, more = win_state(outcome, outcome.events[e], i, ctx, kong_log)
                    if fields:
                        ctx = _with(ctx, **fields)
                    if more:
                        opts = {**opts0, **more}
                s = score(ctx, rule, **opts)
                pay += s.payments
                if outcome is not None:
                    outcome.scores.append((w, s))
                    outcome.contexts.append(ctx)
                if not winners:
                    total = int(s.total)
                    elements = ",".join(str(row[0]) for row in s.rows)
                    for row in s.rows:
                        names.setdefault(row[0], row[1])
                    hand_text = str(ctx.hand)
                winners.append(w)
        if settle_end is not None:
            pay += settle_end(outcome, kong_log)
        if outcomes is not None:
            outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(g, outcome, pay)
        out["dealer"].append(dealer)
        out["winners"].append(",".join(map(str, winners)))
        out["how"].append(HOW[how0])
        out["discarder"].append(disc0)
        out["turn"].append(turn)
        out["winning_hand"].append(hand_text)
        out["total"].append(total)
        out["elements"].append(elements)
        for seat in range(4):
            out[f"pay_{seat}"].append(int(pay[seat]))
        if game.tables.flip:
            out["flipped"].append(CODES[flipped])
        if game.facts.void_suit:
            out["voids"].append("".join("mps"[int(r[9]) >> (2 * s) & 3] for s in range(4)))
    out["element_names"] = names  # not a column: attrs["element_names"] of the frames
    return out


def _raw(
    game: _Game,
    bitgens: list,
    sizes,
    n_threads: int,
    dealers=None,
    winds=None,
    dice: bool = False,
    log: int = 0,
    seats: tuple | None = None,
    scores=None,
):
    """Run the kernel; return ``(rec, hands, melds, kongs, events, seats)`` (see
    :mod:`mjfast._kernels._game`), and the action log when ``log`` (entries per game) > 0.

    ``dealers`` / ``winds``: per game, the dealer seat (-1: drawn) and the prevalent wind;
    ``dice``: throw the two dice of the rule's round state (the hands of a match); ``seats``: the
    policy of each seat (default ``game.seats``); ``scores``: per game, the seats' results so far
    (what a user policy's view shows; default zeros)."""
    t = game.tables
    facts = game.facts
    rule = game.rule
    n = int(np.sum(sizes))
    rec = np.zeros((n, _kg.N_RECORD), np.int32)
    hands = np.zeros((n, 4, 34), np.uint8)
    melds = np.zeros((n, 4, 4, _kg.N_MELD_FIELDS), np.int8)
    kongs = np.zeros((n, _kg.MAX_KONG_LOG, _kg.KONG_FIELDS), np.int8)
    events = np.zeros((n, _kg.MAX_WIN_EVENTS, _kg.N_EVENT_FIELDS), np.int32)
    seat_fields = np.zeros((n, 4, _kg.N_SEAT_FIELDS), np.uint8)
    lg = np.full((n, log, _kg.N_LOG_FIELDS), -1, np.int16) if log else _NO_LOG
    dealers = np.full(n, -1, np.int8) if dealers is None else np.ascontiguousarray(dealers, np.int8)
    winds = np.zeros(n, np.int8) if winds is None else np.ascontiguousarray(winds, np.int8)
    minimum = _outcome.hook(rule, "kernel_minimum")
    minimum = minimum(rule) if minimum is not None else None
    fans = _outcome.hook(rule, "kernel_fan_minimum")
    fans = fans(rule) if fans is not None else None
    fan_search = (
        None
        if fans is None
        else (fans, facts.last_copy, facts.flower_bloom, _outcome.hook(rule, "kernel_fan_receipts")(rule))
    )
    fan_minimum = fan_search is not None and FAN_MINIMUM_IN_KERNEL
    legal = _outcome.hook(rule, "complete_is_legal")
    trivial = minimum is not None or fan_minimum or (legal is not None and legal(rule))
    game._contexts.clear()  # only this batch's contexts are scored next
    seats = game.seats if seats is None else seats
    seat_policies = user = values = flower_values = None
    if _policies.any_value(seats):
        values = _policies._pattern_values(rule)
        flower_values = _policies._flower_values(rule)
    if not _policies.kernel_default(seats):
        seat_policies = _policies.kernel_seats(seats)
        if _policies.any_user(seats):
            user = _policies.Bridge(rule, t, seats)
            user.scores = scores
    _kg.simulate_games_kernel(
        bitgens,
        np.ascontiguousarray(sizes, np.int32),
        t.wall,
        t.faces,
        t.copies,
        t.playable,
        t.forms,
        t.options,
        chow=rule.calls.chow == "left",
        void_suit=facts.void_suit,
        multi=bool(rule.calls.multiple_winners),
        rob_multi=rule.calls.several_robbers,
        play_on=facts.play_on,
        flip=t.flip,
        first_kind=CODES.index(facts.first_discard_kind) if facts.first_discard_kind else -1,
        call_locks=facts.call_locks,
        wild_head=_kg.WILD_HEADS[facts.wild_head],
        fei_policy=game.fei_policy,
        pung_policy=game.pung_policy,
        win_lock=_kg.WIN_LOCKS[facts.win_lock],
        pass_policy=game.pass_policy,
        forced_win_left=facts.forced_win_left,
        wild_chow=rule.wild_chows,
        dice=bool(dice),
        flower_minimum=minimum,
        fan_search=fan_search,
        fan_minimum=fan_minimum,
        checker=None if trivial else game.checker,
        dealers=dealers,
        winds=winds,
        rec=rec,
        hands=hands,
        melds=melds,
        kongs=kongs,
        events=events,
        seats=seat_fields,
        log=lg,
        n_threads=n_threads,
        seat_policies=seat_policies,
        user=user,
        pattern_values=values,
        flower_values=flower_values,
        value_knobs=_policies._rule_knobs(rule) or None,
    )
    if game.errors:
        raise game.errors[0]
    out = (rec, hands, melds, kongs, events, seat_fields)
    return out + (lg,) if log else out


def _run(game: _Game, bitgens: list, sizes, n_threads: int):
    return _rows(game, *_raw(game, bitgens, sizes, n_threads))


def _task(game: _Game, children, sizes):
    """One executor task: the chunks' streams from their seeds, on one thread (``game`` is
    pickled as its Rule)."""
    return _run(game, _chunks.bit_generators(children), sizes, 1)


_PARAMS_DOC = """rule : str or Rule
        A rule name (:func:`mjfast.rules.names`) or any :class:`~mjfast.rules.Rule`,
        user-declared variants included (it is pickled as it is to process pools and Dask
        workers).  With ``xuezhan=True`` (血战到底) 四川's seats that have won stop playing and
        the others play on until three have won or the wall is exhausted.
    n : int
        Games to play, ``> 0`` (``n_games=``, its old name, is accepted with a
        ``DeprecationWarning``).
    rng : None, int, SeedSequence, BitGenerator or Generator
        Seed (SPEC 7); chunk ``c`` of 1024 games uses stream ``c``, so results do not depend
        on ``n_threads`` or ``executor``.
    policy : None, "efficiency", "value", policy object, or list / tuple of four
        The players (:mod:`mjfast.policies`): one policy for every seat, or one per seat.  None
        and ``"value"`` are :class:`mjfast.policies.Value` ``()`` (it plays for the result under
        the rule), ``"efficiency"`` is :class:`mjfast.policies.Efficiency` ``()`` (the speed
        player); a user policy is any object with ``discard``, ``claim`` or ``declare_win``
        methods (the others are ``Value()``'s).  ``df.attrs["policy"]`` names the players.
    n_threads : int, optional
        OpenMP threads (None: ``OMP_NUM_THREADS``, else the usable CPUs; at most 256, or the
        usable CPUs if more).  Legality checks of rules with a minimum take the GIL.
    executor : concurrent.futures.Executor, optional
        Run groups of chunks as tasks (each on one thread), e.g. a ``ProcessPoolExecutor`` or
        a dask ``client.get_executor()``.
    progress : bool, default False
        A ``tqdm.auto`` progress bar counting the games played."""


def _resolve_rule(rule, rule_options) -> Rule:
    """The Rule of a ``rule`` argument (a name plus options, or a Rule without options)."""
    if isinstance(rule, Rule):
        if rule_options:
            raise ValueError("rule options cannot be applied to an existing Rule; pass the rule by name")
        return rule
    if isinstance(rule, str):
        return _rules.get(rule, **rule_options)  # validates the name (苏州, mcr …) and the options
    raise ValueError(f"rule must be a rule name or a Rule, got {type(rule).__name__}")


def _resolve(rule, policy, rule_options) -> _Game:
    """Validate the rule, its options and the policy; the game helper."""
    rule_obj = _resolve_rule(rule, rule_options)
    return _Game(rule_obj, seats=_policies.resolve(policy))


#: Every ordered list of distinct winning seats (a hand has at most three winners).
_WINNER_LISTS = tuple([""] + [",".join(map(str, p)) for k in (1, 2, 3) for p in itertools.permutations(range(4), k)])
_COMPACT = {
    "dealer": "int8",
    "discarder": "int8",
    "turn": "int16",
    "total": "int64",
    "pay_0": "int64",
    "pay_1": "int64",
    "pay_2": "int64",
    "pay_3": "int64",
}
_CATEGORIES = {"winners": _WINNER_LISTS, "how": HOW}


def _frame(game: _Game, parts: list, first: int):
    """One compact DataFrame of scored batches: small integers, categories for the repeated
    strings (``winners``, ``how``, ``elements``, ``flipped``, ``voids``), each column built in
    its dtype (a pass of ``astype`` over the frame costs more than a small batch's rows)."""
    import pandas as pd

    names = COLUMNS + _extra_columns(game)
    data: dict[str, Any] = {}
    for c in names[1:]:
        values = parts[0][c] if len(parts) == 1 else [x for p in parts for x in p[c]]
        if c in _COMPACT:
            data[c] = np.array(values, _COMPACT[c])
        elif c in _CATEGORIES:
            data[c] = pd.Categorical(values, categories=_CATEGORIES[c])
        elif c in ("elements", "flipped", "voids"):
            data[c] = pd.Categorical(values)
        else:
            data[c] = values
    data["game"] = np.arange(first, first + len(data["dealer"]), dtype=np.int64)
    return pd.DataFrame(data, columns=list(names))


def iter_games(
    rule,
    n: int | None = None,
    *,
    rng=None,
    policy=None,
    n_threads: int | None = None,
    executor=None,
    progress: bool = False,
    batch_games: int = 65_536,
    **rule_options,
):
    """Simulate games as :func:`simulate_games` does, handing them back in batches.

    For runs too large to hold at once: each batch is a DataFrame of :func:`simulate_games`'s
    columns (``game`` numbers run on across batches) and is not kept here, so memory stays
    bounded however many games are played.  The games are exactly those of
    :func:`simulate_games` with the same arguments.

    Parameters
    ----------
    {params}
    batch_games : int, default 65_536
        Games per yielded batch, rounded up to whole chunks of 1024 and to at least one chunk
        per thread.
    **rule_options
        Options of the rule (``mjfast.rules.get(rule, **rule_options)``).

    Yields
    ------
    pandas.DataFrame
        The next games, in order; ``attrs`` holds ``element_names`` (the Chinese names of the
        elements seen so far) and ``policy`` (the players, as :func:`simulate_games` names them).

    Raises
    ------
    ValueError
        As :func:`simulate_games`, or ``batch_games <= 0``.

    Examples
    --------
    >>> from mjfast.simulation.games import iter_games
    >>> sizes = [len(b) for b in iter_games("sichuan", 2500, rng=0, n_threads=1, batch_games=1024)]
    >>> sizes
    [1024, 1024, 452]
    """
    n_games = check_samples(sample_size("iter_games", n, "n_games", rule_options.pop("n_games", None)), "n")
    game = _resolve(rule, policy, rule_options)
    batch_games = check_samples(batch_games, "batch_games", 120)  # a batch is held in memory
    threads = default_threads(n_threads)
    _chunks.check_executor(executor)
    return _iter(game, n_games, rng, threads, executor, progress, batch_games)


def _iter(game: _Game, n_games, rng, threads, executor, progress, batch_games):
    def local(bitgens, sizes, k):
        return _run(game, bitgens, sizes, k)

    def frame(parts, first):
        df = _frame(game, parts, first)
        df.attrs["element_names"] = {game.name: dict(names)}  # the Chinese names of the elements seen
        df.attrs["policy"] = _policies.label(game.seats)
        return df

    parts, held, first, names = [], 0, 0, {}
    for part in _chunks.iter_chunks(
        n_games,
        rng,
        local=local,
        task=functools.partial(_task, game),
        n_threads=threads,
        executor=executor,
        progress=progress,
        desc=f"simulate_games({game.name})",
        unit="game",
        max_batch_chunks=-(-batch_games // _chunks.CHUNK_SIZE),
    ):
        parts.append(part)
        names.update(part.get("element_names", {}))
        held += len(part["dealer"])
        if held >= batch_games:
            yield frame(parts, first)
            first += held
            parts, held = [], 0
    if parts:
        yield frame(parts, first)


def simulate_games(
    rule,
    n: int | None = None,
    *,
    rng=None,
    policy=None,
    n_threads: int | None = None,
    executor=None,
    progress: bool = False,
    **rule_options,
):
    """Simulate whole four-player hands under a rule; one row per game.

    By default every seat plays :class:`mjfast.policies.Value` ``()`` (compiled into
    :mod:`mjfast._kernels._game`): it rates its hand by the scoring patterns it can still
    reach under the rule, their chance and their value from the rule's scorer, calls when that
    rating rises, waits for 飞 / 宝吊头 where the rule pays for it and weighs the danger of its
    discards.  ``policy="efficiency"`` seats the speed players
    (:class:`mjfast.policies.Efficiency` ``()``: discard to the least shanten then the most
    进张, 碰/杠 when that is faster, every accepted win); other call modes, or user policies
    written in Python, are other ``policy`` values (:mod:`mjfast.policies`).  Whatever the
    players, the engine enforces the rule: 吃 only from the left where the rule allows it,
    no wildcard discarded where the rule forbids it, a 胡 only where the rule accepts the win,
    claims by priority (胡 > 杠/碰 > 吃; where the rule has one winner per discard, the claimant
    nearest the discarder in turn order).  A hand ends at the first win (on one discard several
    seats may win when the rule allows it) or when the wall is exhausted.  Flowers are laid aside and
    replaced from the back of the wall; the rules that flip an indicator (太仓, 瑞金, 上饶,
    金华) turn up one random tile after the shuffle, out of play.  No dead wall is kept: kong
    replacements come from the back of the wall.  Each hand is an independent deal with a
    random dealer (:func:`mjfast.simulate_matches` plays hands in a row, with the rule's
    dealer rotation and round state).  The liabilities (包), kong and end-of-hand settlements
    of the rule are its scorer's (:mod:`mjfast.scoring._outcome`).  Under a rule with honour
    chows (瑞金) a seat may 吃 a wind from 上家 with two other different winds, a dragon with the
    other two, as it may a suit tile.  Where the rule's wildcard may be called into a chow
    (``Rule.wildcard.usable_in_calls``; 瑞金 "如果含有宝，算吃成功，但宝不能拿起来了") a 宝 may stand for
    one or two of the chow's tiles and stays in the meld (the built-in players weigh such
    chows like the others, natural tiles first on a tie; the winning hand shows it as
    ``456m~6m``).  What the engine leaves out: a 混/宝 kong.

    Parameters
    ----------
    {params}
    **rule_options
        Options of the rule (``mjfast.rules.get(rule, **rule_options)``).

    Returns
    -------
    pandas.DataFrame
        ``game``, ``dealer``, ``winners`` (comma-separated seats in the order they won, ""
        on a draw), ``how`` (:data:`HOW`; of the first win), ``discarder`` (of the first
        win, -1 when none), ``turn`` (1 + discards made in the hand), ``winning_hand`` (the
        first winner's hand, mpsz and melds), ``total`` (its value in the rule's unit),
        ``elements`` (its element codes), ``pay_0`` .. ``pay_3`` (seat deltas: every
        winner's payments and the rule's other settlements — 四川 刮风下雨 and, at an
        exhausted wall, 查花猪/查大叫; 贵阳 豆 and 鸡; 瑞金/上饶 kong payments; each row sums
        to zero); then ``flipped`` (the indicator, for the rules that flip one) and
        ``voids`` (the 定缺 suit of each seat, e.g. ``"mpsm"``, where the rule declares
        one).  Small integer and categorical dtypes keep a game to about 120 bytes;
        :func:`iter_games` streams runs too large for memory.  ``attrs`` holds the rule's
        name, its non-default options, the Rule itself (``rule_object``), ``n_games``, the policy
        and ``element_names`` (``{rule: {element code: Chinese name}}`` of the elements seen, for
        :func:`mjfast.element_frequencies`).

    Raises
    ------
    ValueError
        An unknown rule or option, ``n <= 0``, more games than this machine's memory can
        hold (:func:`iter_games` streams them) or above ``2**40``, an unknown policy (naming
        the argument and the valid choices), a bad ``rng``, a bad ``n_threads``; an illegal
        answer of a user policy (naming its seat, the turn and the action).

    Examples
    --------
    >>> from mjfast.simulation.games import simulate_games
    >>> df = simulate_games("sichuan", 50, rng=0, n_threads=1)
    >>> len(df), bool((df[["pay_0", "pay_1", "pay_2", "pay_3"]].sum(axis=1) == 0).all())
    (50, True)
    >>> df = simulate_games("taicang", 20, rng=0, n_threads=1)
    >>> bool(df["flipped"].isna().any()), set(df["how"]) <= set(HOW)
    (False, True)
    """
    n_games = check_samples(
        sample_size("simulate_games", n, "n_games", rule_options.pop("n_games", None)),
        "n",
        120,
        "iter_games streams the games in batches",
    )
    game = _resolve(rule, policy, rule_options)
    threads = default_threads(n_threads)
    _chunks.check_executor(executor)
    (df,) = _iter(game, n_games, rng, threads, executor, progress, n_games)  # one batch: every game
    df.attrs.update(
        rule=game.name,
        options=game.rule.non_default_options,
        rule_object=game.rule,
        n_games=n_games,
        policy=_policies.label(game.seats),
    )
    return df


if iter_games.__doc__ and simulate_games.__doc__:  # (None under python -OO)
    iter_games.__doc__ = iter_games.__doc__.replace("{params}", _PARAMS_DOC)
    simulate_games.__doc__ = simulate_games.__doc__.replace("{params}", _PARAMS_DOC)
