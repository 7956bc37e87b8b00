"""Monte-Carlo four-player games under a rule (issue 6, part 2).

:func:`simulate_games` plays whole hands with four efficiency-policy players in the kernel
:mod:`mjfast._kernels._game` (no GIL); the rule's legality is asked only when a hand becomes
complete (苏州's 花 minimum the kernel decides itself), and the finished games are scored here
with :func:`mjfast.score` and the rule module's settlement functions.  Chunking, seeds and executors are :mod:`mjfast.simulation._chunks`.
"""
from __future__ import annotations

import functools

import numpy as np

from . import _chunks
from .. import _bridge
from .. import rules as _rules
from .._kernels import _game as _kg
from ..hand import Hand, Meld
from ..rules._base import Rule
from ..scoring import WinContext, can_win, score
from ..scoring import suzhou as _suzhou
from .._inputs import check_samples, default_threads
from ..shape import shanten as _shanten
from ..tiles import CODES, N_KINDS, N_TILES_ALL

#: Rules :func:`simulate_games` supports.
SUPPORTED = tuple(_rules.names())
#: Policies understood by :func:`simulate_games`.
POLICIES = ("efficiency",)
#: Values of the ``how`` column.
HOW = ("self_draw", "discard", "robbing_kong", "draw_game")

COLUMNS = ("game", "dealer", "winners", "how", "discarder", "turn", "winning_hand", "total",
           "elements", "pay_0", "pay_1", "pay_2", "pay_3")

_MELD_KINDS = ("chow", "pung", "kong", "added_kong", "concealed_kong")
_SOURCES = {1: "right", 2: "opposite", 3: "left"}
_FL_AFTER_KONG, _FL_KONG_DISCARD, _FL_HEAVENLY, _FL_EARTHLY, _FL_LAST_TILE, _FL_LAST_COPY = 1, 2, 4, 8, 16, 32
_FL_FIRST_DISCARD = 64
_FL_ROBBING_KONG = 128   # set when the kernel asks about a win on an added kong's tile
#: How each rule names a win on the dealer's very first discard (the flag is ignored elsewhere):
#: 瑞金's 地胡 (RS-C2) and 广东's 人和; 四川 and 广东 call a non-dealer's first self-draw 地胡.
_FIRST_DISCARD_AS = {"ruijin": "earthly", "guangdong": "human"}
_FIRST_DRAW_EARTHLY = ("sichuan", "guangdong", "suzhou", "taicang", "guiyang", "jinhua", "shangrao", "jj")


@functools.lru_cache(maxsize=4096)     # bounded: streaming runs must not grow with the games played
def _melds(seat: int, melds: tuple) -> tuple:
    """Meld objects of ``(kind, lowest tile, source seat)`` triples (kind -1 ends the list)."""
    out = []
    for kind, tile, src in melds:
        if kind < 0:
            break
        kname = _MELD_KINDS[kind]
        if kname == "chow":
            out.append(Meld("chow", (tile, tile + 1, tile + 2), source="left"))
        elif kname == "concealed_kong":
            out.append(Meld("concealed_kong", (tile,) * 4))
        else:
            n = 3 if kname == "pung" else 4
            out.append(Meld(kname, (tile,) * n, source=_SOURCES[(src - seat) % 4], claimed=tile))
    return tuple(out)


class _Tables:
    """The kernel's view of a rule: its wall and, per flipped indicator, each code's role."""

    def __init__(self, rule: Rule):
        ts = rule.tileset
        kr = _bridge.kernel_rule(rule)
        codes = [k for k in range(N_KINDS) for _ in range(int(ts.copies[k]))]
        codes += [CODES.index(code) for code, n in ts.bonus.items() for _ in range(int(n))]
        self.wall = np.ascontiguousarray(codes, np.int8)
        base = np.array([k if k < N_KINDS and ts.copies[k] > 0 else _kg.FLOWER for k in range(N_TILES_ALL)],
                        np.int8)
        scheme = rule.wildcard
        # 金华 / 太仓 / 瑞金 / 上饶 flip an indicator; JJ's 混 is per sub-game and not a rule option,
        # so JJ is played without one
        self.flip = scheme is not None and scheme.selection != "per_game"
        self.wild_kind = [None] * N_TILES_ALL
        if not self.flip:
            self.faces = base[None, :].copy()
            self.copies = np.asarray(kr.copies, np.uint8)[None, :].copy()
            self.playable = np.ones((1, N_KINDS), np.uint8)
        else:
            self.faces = np.repeat(base[None, :], N_TILES_ALL, 0)
            self.copies = np.repeat(np.asarray(kr.copies, np.uint8)[None, :], N_TILES_ALL, 0)
            self.playable = np.repeat(np.asarray(kr.playable, np.uint8)[None, :], N_TILES_ALL, 0)
            for code in scheme.flippable:
                f = CODES.index(code)
                wild = [CODES.index(x) for x in scheme.successor(code)]
                kinds = [k for k in wild if k < N_KINDS and ts.copies[k] > 0]
                wk = kinds[0] if kinds else None       # wild faces that are flowers stand for no kind
                krf = _bridge.kernel_rule(rule, wk)
                self.wild_kind[f] = wk
                self.faces[f, wild] = _kg.WILD
                subs = scheme.substitute_for(code)
                if subs and wk is not None:
                    self.faces[f, [CODES.index(x) for x in subs]] = wk
                self.copies[f] = krf.copies
                self.playable[f] = krf.playable
        self.options = kr.options
        self.forms = kr.forms


class _Game:
    """Rule-side helpers (picklable through ``name`` and ``options``)."""

    def __init__(self, name: str, options: dict):
        self.name = name
        self.options = dict(options)
        self.rule = _rules.get(name, **self.options)
        self.tables = _Tables(self.rule)
        self._memo: dict = {}
        self._contexts: dict = {}      # the checker's contexts, reused when the games are scored
        self.errors: list = []

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

    def context(self, seat, counts, melds, tile, self_draw, discarder, dealer, flags,
                wilds=0, flowers=b"", flipped=-1, keep=False) -> WinContext:
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

    def _build(self, seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers,
               flipped) -> WinContext:
        ms = _melds(seat, melds)
        bonus = []
        if flowers.count(0) != len(flowers):
            for k, n in enumerate(flowers):
                if n:
                    bonus += [k] * n
        hand = Hand(np.frombuffer(counts, np.uint8), melds=ms, bonus=tuple(bonus), wilds=int(wilds))
        extra = {}
        if tile == _kg.WILD:
            tile = self.win_face(counts, ms, wilds, flipped)
            if self.name in ("ruijin", "shangrao"):
                extra["rule_state"] = {"win_is_wild": True}
        if flipped >= 0:
            extra["flipped"] = int(flipped)
        situational = self.name != "guobiao"
        earthly = bool(flags & _FL_EARTHLY) and bool(self_draw) and self.name in _FIRST_DRAW_EARTHLY
        if flags & _FL_FIRST_DISCARD and not self_draw and self.name in _FIRST_DISCARD_AS:
            extra[_FIRST_DISCARD_AS[self.name]] = True
        extra["earthly"] = extra.get("earthly", False) or earthly
        return WinContext(
            hand, win_tile=int(tile), self_draw=bool(self_draw), winner=int(seat),
            discarder=None if self_draw else int(discarder), dealer=int(dealer),
            after_kong=bool(flags & _FL_AFTER_KONG) and bool(self_draw),
            robbing_kong=bool(flags & _FL_ROBBING_KONG),
            last_tile=bool(flags & _FL_LAST_TILE),
            last_copy=bool(flags & _FL_LAST_COPY) and self.name == "guobiao",
            heavenly=bool(flags & _FL_HEAVENLY) and situational and bool(self_draw),
            kong_discard=bool(flags & _FL_KONG_DISCARD) and not self_draw and self.name == "sichuan",
            **extra)

    def checker(self, seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers,
                flipped) -> bool:
        key = (seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds, flowers, flipped)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) > 100_000:
                self._memo.clear()
            try:
                ctx = self.context(seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds,
                                   flowers, flipped, keep=True)
                hit = bool(can_win(ctx, self.rule))
            except Exception as exc:  # the kernel keeps it, stops its games and raises it
                self.errors.append(exc)
                raise
            self._memo[key] = hit
        return hit


_KONG_NAMES = {2: "direct", 3: "added", 4: "concealed"}
_CHICKEN = 18            # 1条, 贵阳's 幺鸡


def _extra_columns(game: _Game) -> tuple:
    """Rule-specific columns: the flipped indicator; 四川's 定缺 suits (one letter per seat)."""
    return (("flipped",) if game.tables.flip else ()) + (("voids",) if game.name == "sichuan" else ())


def _settle_kongs(game: _Game, kongs, n_kongs: int, xuezhan: bool) -> list:
    """Kong payments made as the hand goes (四川 刮风下雨, 瑞金/上饶): ``(konger, deltas)``."""
    log = []
    if game.name == "sichuan":
        from ..scoring.sichuan import kong_payment as pay_kong
    elif game.name in ("ruijin", "shangrao"):
        from ..scoring.ruijin import kong_payments as pay_kong
    else:
        return log
    for k in range(n_kongs):
        konger, kind, feeder, _t, wmask = (int(x) for x in kongs[k])
        kname = _KONG_NAMES[kind]
        feeder = feeder if kname == "direct" else None
        if game.name == "sichuan":
            won = {s for s in range(4) if wmask >> s & 1} if xuezhan else ()
            d = pay_kong(kname, konger, feeder, won=won, **game.options)
        else:
            d = pay_kong("exposed" if kname == "direct" else kname, konger, feeder)
        log.append((konger, d))
    return log


def _settle_guiyang(game: _Game, hands, meld_rows, seat_info, kongs, n_kongs, winners, how, discarder, flags,
                    first_seat) -> np.ndarray:
    """贵阳 at the end of the hand: 豆 for the kongs and 鸡, collected by the seats that won or are
    ready (GY-A7)."""
    from ..scoring.guiyang import settle_chickens, settle_dou
    hs = [Hand(hands[s].copy(), melds=_melds(s, meld_rows[s])) for s in range(4)]
    ready = set(winners)
    for s in range(4):
        if s not in ready and _shanten(hs[s], rule=game.rule) == 0:
            ready.add(s)
    void = set()
    if how == 2 or (how == 1 and flags & _FL_KONG_DISCARD):
        void.add(discarder)         # the robbed kong / 烧豆: the discarder's 豆 are void
    log = [(int(kongs[k, 0]), _KONG_NAMES[int(kongs[k, 1])], int(kongs[k, 2]) if kongs[k, 1] == 2 else None)
           for k in range(n_kongs)]
    pay = settle_dou(log, ready, void=void, **{k: v for k, v in game.options.items() if k == "dou"})
    discards = [[k for k in range(N_KINDS) for _ in range(int(seat_info[s, N_TILES_ALL + k]))] for s in range(4)]
    ponged = [(src, s) for s in range(4) for kind, tile, src in meld_rows[s]
              if tile == _CHICKEN and kind in (1, 2)]         # a discarded 1条 ponged or konged
    return pay + settle_chickens(hs, discards, ready, first_chicken=first_seat if first_seat >= 0 else None,
                                 ponged=ponged)


def _rows(game: _Game, rec, hands, melds, kongs, events, seats) -> dict:
    """Score and settle the recorded games; columns as lists (``game`` is numbered later)."""
    n = rec.shape[0]
    out = {c: [] for c in COLUMNS[1:] + _extra_columns(game)}
    sichuan = game.name == "sichuan"
    xuezhan = sichuan and bool(game.rule.options["xuezhan"])
    if sichuan:
        from ..scoring.sichuan import settle_draw
    # Python lists and bytes once for the batch: indexing them per game is far cheaper than numpy
    rec_l, melds_l, events_l = rec.tolist(), melds.tolist(), events.tolist()
    hands_b, seats_b = hands.tobytes(), seats.tobytes()
    nh, ns = hands.shape[2], seats.shape[2]
    for g in range(n):
        r = rec_l[g]
        dealer, turn, n_kongs, exhausted, n_ev, flipped, first_seat = (r[i] for i in (0, 3, 7, 10, 11, 12, 13))
        meld_rows = [tuple(tuple(m) for m in melds_l[g][s] if m[0] >= 0) for s in range(4)]
        pay = np.zeros(4, np.int64)
        kong_log = _settle_kongs(game, kongs[g], n_kongs, xuezhan)
        for _konger, d in kong_log:
            pay += d
        winners: list = []
        total = 0
        elements = ""
        hand_text = ""
        how0 = 3
        disc0 = -1
        flags0 = 0
        for e in range(n_ev):
            how, discarder, tile, flags, wmask, last_kong, before = events_l[g][e]
            seats_ = [s for s in ((discarder + i) % 4 for i in range(1, 4))] if how else [s for s in range(4)]
            seats_ = [s for s in seats_ if wmask >> s & 1]
            won = {s for s in range(4) if before >> s & 1} if xuezhan else ()
            if e == 0:
                how0, disc0, flags0 = how, discarder, flags
            for i, w in enumerate(seats_):
                hs, ss = nh * (4 * g + w), ns * (4 * g + w)
                ctx = game.context(w, hands_b[hs:hs + nh], meld_rows[w], tile, how == 0, discarder, dealer,
                                   flags, seats_b[ss + ns - 1], seats_b[ss:ss + N_TILES_ALL], flipped)
                if how == 2:
                    ctx = WinContext(ctx.hand, win_tile=ctx.win_tile, winner=w, discarder=discarder,
                                     dealer=dealer, robbing_kong=True, last_copy=ctx.last_copy,
                                     flipped=ctx.flipped)
                extra = {}
                if sichuan:
                    if xuezhan:
                        extra["won"] = won
                    if ctx.kong_discard and last_kong >= 0:
                        income = max(0, int(kong_log[last_kong][1][discarder]))
                        share = income // len(seats_)
                        extra["kong_income"] = share if i else income - (len(seats_) - 1) * share
                if game.name == "guangdong":
                    extra["winners"] = len(seats_)
                s = score(ctx, game.rule, **extra)
                pay += s.payments
                if not winners:
                    total = int(s.total)
                    elements = ",".join(str(row[0]) for row in s.rows)
                    hand_text = str(ctx.hand)
                winners.append(w)
        if sichuan and exhausted:
            won_all = {s for s in winners}
            hs = [None if s in won_all else Hand(hands[g, s].copy(), melds=_melds(s, meld_rows[s]))
                  for s in range(4)]
            pay += settle_draw(hs, kong_log=kong_log, won=won_all if xuezhan else (), **game.options)
        if game.name == "guiyang":
            pay += _settle_guiyang(game, hands[g], meld_rows, seats[g],
                                   kongs[g], n_kongs, winners, how0, disc0, flags0, first_seat)
        out["dealer"].append(dealer)
        out["winners"].append(",".join(map(str, winners)))
        out["how"].append(HOW[how0])
        out["discarder"].append(disc0)
        out["turn"].append(turn)
        out["winning_hand"].append(hand_text)
        out["total"].append(total)
        out["elements"].append(elements)
        for s in range(4):
            out[f"pay_{s}"].append(int(pay[s]))
        if game.tables.flip:
            out["flipped"].append(CODES[flipped])
        if sichuan:
            out["voids"].append("".join("mps"[int(r[9]) >> (2 * s) & 3] for s in range(4)))
    return out


def _raw(game: "_Game", bitgens: list, sizes, n_threads: int):
    """Run the kernel; return ``(rec, hands, melds, kongs, events, seats)`` (see :mod:`mjfast._kernels._game`)."""
    t = game.tables
    n = int(np.sum(sizes))
    rec = np.zeros((n, _kg.N_RECORD), np.int32)
    hands = np.zeros((n, 4, 34), np.uint8)
    melds = np.zeros((n, 4, 4, 3), np.int8)
    kongs = np.zeros((n, _kg.MAX_KONG_LOG, _kg.KONG_FIELDS), np.int8)
    events = np.zeros((n, _kg.MAX_WIN_EVENTS, _kg.N_EVENT_FIELDS), np.int32)
    seats = np.zeros((n, 4, _kg.N_SEAT_FIELDS), np.uint8)
    name = game.name
    # 苏州's minimum is decided in the kernel; 四川: complete + 缺一门 is legal (the kernel's 定缺
    # check); 广东 min_fan=0: complete is legal
    suzhou = _suzhou.kernel_minimum(game.rule) if name == "suzhou" else None
    trivial = suzhou is not None or name == "sichuan" or (name == "guangdong" and game.rule.options["min_fan"] == 0)
    checker = None if trivial else game.checker
    game._contexts.clear()                # only this batch's contexts are scored next
    _kg.simulate_games_kernel(bitgens, np.ascontiguousarray(sizes, np.int32), t.wall, t.faces, t.copies,
                              t.playable, t.forms, t.options, game.rule.calls.chow == "left",
                              name == "sichuan", bool(game.rule.calls.multiple_winners),
                              name == "sichuan" and bool(game.rule.options["xuezhan"]), t.flip,
                              _CHICKEN if name == "guiyang" else -1, suzhou, checker,
                              rec, hands, melds, kongs, events, seats, n_threads)
    if game.errors:
        raise game.errors[0]
    return rec, hands, melds, kongs, events, seats


def _run(name: str, options: dict, bitgens: list, sizes, n_threads: int, game=None):
    game = game or _Game(name, options)
    return _rows(game, *_raw(game, bitgens, sizes, n_threads))


def _task(name: str, options: dict, children, sizes):
    """One executor task: the chunks' streams from their seeds, on one thread."""
    return _run(name, options, _chunks.bit_generators(children), sizes, 1)


_PARAMS_DOC = """rule : str or Rule
        Any of :data:`SUPPORTED` (every rule of :mod:`mjfast.rules`).  四川 ends at the first
        win; with ``xuezhan=True`` (血战到底) the seats that have won stop playing and the
        others play on until three have won or the wall is exhausted.
    n_games : int
        Games to play, ``> 0``.
    rng : None, int, SeedSequence, BitGenerator or Generator
        Seed (SPEC 7); chunk ``c`` of 1024 games uses stream ``c``, so results do not depend
        on ``n_threads`` or ``executor``.
    policy : {None, "efficiency"}
        The players' policy (only ``"efficiency"``).
    n_threads : int, optional
        OpenMP threads (None: ``OMP_NUM_THREADS``, else the usable CPUs; at most 256, or the
        usable CPUs if more).  Legality checks of rules with a minimum take the GIL.
    executor : concurrent.futures.Executor, optional
        Run groups of chunks as tasks (each on one thread), e.g. a ``ProcessPoolExecutor`` or
        a dask ``client.get_executor()``.
    progress : bool, default False
        ``tqdm.auto`` progress bar per chunk."""


def _resolve(rule, policy, rule_options) -> _Game:
    """Validate the rule, its options and the policy; the game helper."""
    if isinstance(rule, Rule):
        if rule_options:
            raise ValueError("rule options cannot be applied to an existing Rule; pass the rule by name")
        name = rule.name
        options = dict(rule.options)
    elif isinstance(rule, str):
        name = rule
        options = dict(rule_options)
    else:
        raise ValueError(f"rule must be a rule name or a Rule, got {type(rule).__name__}")
    if name not in SUPPORTED:
        raise ValueError(f"unknown rule {name!r}; supported rules: {', '.join(SUPPORTED)}")
    if policy not in (None,) + POLICIES:
        raise ValueError(f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)}")
    return _Game(name, options)           # validates the options


#: Every ordered list of distinct winning seats (a hand has at most three winners).
_WINNER_LISTS = tuple([""] + [",".join(map(str, p)) for k in (1, 2, 3)
                              for p in __import__("itertools").permutations(range(4), k)])
_COMPACT = {"dealer": "int8", "discarder": "int8", "turn": "int16", "total": "int64",
            "pay_0": "int64", "pay_1": "int64", "pay_2": "int64", "pay_3": "int64"}
_CATEGORIES = {"winners": _WINNER_LISTS, "how": HOW}


def _frame(game: _Game, parts: list, first: int):
    """One compact DataFrame of scored batches: small integers, categories for the repeated
    strings (``winners``, ``how``, ``elements``, ``flipped``, ``voids``), each column built in
    its dtype (a pass of ``astype`` over the frame costs more than a small batch's rows)."""
    import pandas as pd

    names = COLUMNS + _extra_columns(game)
    data = {}
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


def iter_games(rule, n_games: int, *, rng=None, policy=None, n_threads: int | None = None, executor=None,
               progress: bool = False, batch_games: int = 65_536, **rule_options):
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
        The next games, in order.

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
    game = _resolve(rule, policy, rule_options)
    n_games = check_samples(n_games, "n_games")
    batch_games = check_samples(batch_games, "batch_games", 120)          # a batch is held in memory
    threads = default_threads(n_threads)
    _chunks.check_executor(executor)
    return _iter(game, n_games, rng, threads, executor, progress, batch_games)


def _iter(game: _Game, n_games, rng, threads, executor, progress, batch_games):
    name, options = game.name, game.options

    def local(bitgens, sizes, k):
        return _run(name, options, bitgens, sizes, k, game)

    parts, held, first = [], 0, 0
    for part in _chunks.iter_chunks(n_games, rng, local=local, task=functools.partial(_task, name, options),
                                      n_threads=threads, executor=executor, progress=progress,
                                      desc=f"simulate_games({name})",
                                      max_batch_chunks=-(-batch_games // _chunks.CHUNK_SIZE)):
        parts.append(part)
        held += len(part["dealer"])
        if held >= batch_games:
            yield _frame(game, parts, first)
            first += held
            parts, held = [], 0
    if parts:
        yield _frame(game, parts, first)


def simulate_games(rule, n_games: int, *, rng=None, policy=None, n_threads: int | None = None, executor=None,
                   progress: bool = False, **rule_options):
    """Simulate whole four-player hands under a rule; one row per game.

    Every seat plays the efficiency policy (see :mod:`mjfast._kernels._game`): discard to
    the least shanten then the most 进张 (四川: the void suit first, 定缺 after the deal;
    wildcards are never discarded), 碰/杠 when it lowers the shanten or keeps it with more
    进张, 吃 only from the left where the rule allows it, 胡 whenever the rule accepts the
    win (priority 胡 > 杠/碰 > 吃).  A hand ends at the first win (on one discard several
    seats may win when the rule allows it) or when the wall is exhausted.  Flowers are laid
    aside and replaced from the back of the wall; the rules that flip an indicator (太仓,
    瑞金, 上饶, 金华) turn up one random tile after the shuffle, out of play.  No dead wall
    is kept: kong replacements come from the back of the wall.  What the engine leaves out:
    瑞金's honour chows and a 宝 used in a chow, JJ's 混 (its kind is a sub-game setting, so
    JJ is played without one), a 混/宝 kong, and round-level state (豹子, 连庄).

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
        ``voids`` (四川's 定缺 suit of each seat, e.g. ``"mpsm"``).  Small integer and
        categorical dtypes keep a game to about 120 bytes; :func:`iter_games` streams runs
        too large for memory.  ``attrs`` holds the rule, its options, ``n_games`` and the
        policy.

    Raises
    ------
    ValueError
        An unknown rule or option, ``n_games <= 0``, more games than this machine's memory can
        hold (:func:`iter_games` streams them) or above ``2**40``, an unknown policy, a bad
        ``rng``, a bad ``n_threads``.

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
    game = _resolve(rule, policy, rule_options)
    n_games = check_samples(n_games, "n_games", 120, "iter_games streams the games in batches")
    threads = default_threads(n_threads)
    _chunks.check_executor(executor)
    (df,) = _iter(game, n_games, rng, threads, executor, progress, n_games)   # one batch: every game
    df.attrs.update(rule=game.name, options=dict(game.options), n_games=n_games, policy="efficiency")
    return df


iter_games.__doc__ = iter_games.__doc__.replace("{params}", _PARAMS_DOC)
simulate_games.__doc__ = simulate_games.__doc__.replace("{params}", _PARAMS_DOC)
