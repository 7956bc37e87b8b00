"""Wall kernel: Monte-Carlo draws for one player from a shuffled wall.

One *chunk* of games uses one private random stream (a ``bitgen_t`` from a spawned
``SeedSequence``); chunks run in parallel under ``prange`` and never share state that could
change a result, so the outcome depends only on the seed, never on threads or executors.

Per game the wall (a template of tile tokens, copied afresh at the start of every chunk; each
game then starts from the previous game's arrangement, which Fisher–Yates does not need to
undo) is shuffled by a Fisher–Yates shuffle run lazily from both ends: a draw from the front swaps
position ``f`` with a uniform position in ``[f, b]``, a replacement draw from the back swaps
position ``b`` likewise.  Every prefix/suffix of the result is a uniform random arrangement,
so this is exactly a uniformly shuffled wall, built only as far as it is drawn.

Tokens: ``0..33`` natural kinds, ``WILD_TOKEN`` a wildcard, ``FLOWER_TOKEN`` a bonus tile.

The discard policy ("efficiency", :mod:`mjfast._kernels._policy`, the game kernel's too) is
a pure function of the 3k+2 concealed tiles and the wildcards held: least shanten, then most
进张 (remaining copies of the accepting kinds, the remaining copies being cap − own concealed −
visible), ties to the lowest kind index; wildcards are never discarded.  On hands without
wildcards under a rule whose kinds are all natural with 4 copies, the shanten after each
discard and the accepting kinds come from the table path (the accept tables of the efficiency
kernel); elsewhere from the shanten kernel.  Because the policy is pure, each thread memoises
it in a hash table (:class:`PolicyCache`): ready hands revisit a few dozen states, so a turn
costs one lookup.

Legality (optional): when a ``checker`` is given, a hand that is complete in shape wins only if
the checker accepts it.  The checker is a Python callable asked with the GIL, and only at that
moment: ``checker(counts, wilds, tile, n_flowers, after_flower) -> int`` where ``counts`` is
the 34-byte concealed count vector with the drawn tile, ``tile`` the drawn kind (``WILD_TOKEN``
for a drawn wildcard, -1 for a 3k+2 starting hand that is already complete), ``n_flowers`` the
flowers drawn so far in that game and ``after_flower`` 1 when the tile replaced a flower.  It
returns a state id ``>= 0`` (the win is legal; the id is recorded for the game) or -1 (not
legal: the policy discards as from any other hand and the game goes on).  An exception raised
by the checker is recorded and re-raised after the parallel loop; the games after it are not
trusted (the checker is not asked again).  Each thread memoises the checker's answers for
the duration of a call, so a state seen again costs no GIL.
"""
import numpy as np
from cython.parallel cimport prange, threadid
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

from mjfast._kernels._shanten cimport (
    Params, params_init, shanten_one, N_KINDS, F_STANDARD, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS, O_NEED_VOID)
from mjfast._kernels._rng cimport bitgen_pointer, bounded_u32, bounded_u64, draw_front, draw_back
from mjfast._kernels._policy cimport (
    Memo, Policy, memo_init, memo_free, memo_key, mix, pol_choice, NOT_DECIDED)

cdef enum:
    WILD = 34
    FLOWER = 35
    MAX_WALL = 256
    LOG2_POLICY = 16
    LOG2_SHANTEN = 18

WILD_TOKEN = WILD
FLOWER_TOKEN = FLOWER
MAX_WALL_TILES = MAX_WALL


cdef class PolicyCache:
    """Per-thread memo tables of the efficiency policy (shanten, 进张 and decisions) for one set-up.

    A cache belongs to one (rule, melds, visible) combination; make a new one for each
    set-up.  It only saves time: results never depend on it.
    """
    cdef Memo* memos           # per slot: the shanten memo, then the decisions
    cdef int n_slots

    def __cinit__(self, int n_slots, int log2_policy=LOG2_POLICY, int log2_shanten=LOG2_SHANTEN):
        cdef int i
        if n_slots < 1 or not 4 <= log2_policy <= 24 or not 4 <= log2_shanten <= 24:
            raise ValueError("n_slots must be >= 1 and the table sizes 2**4..2**24")
        self.n_slots = n_slots
        self.memos = <Memo*>calloc(2 * n_slots, sizeof(Memo))
        if self.memos == NULL:
            raise MemoryError()
        for i in range(n_slots):
            if memo_init(&self.memos[2 * i], log2_shanten) < 0 \
                    or memo_init(&self.memos[2 * i + 1], log2_policy) < 0:
                raise MemoryError()

    def __dealloc__(self):
        cdef int i
        if self.memos != NULL:
            for i in range(2 * self.n_slots):
                memo_free(&self.memos[i])
            free(self.memos)

    @property
    def n_slots(self):
        return self.n_slots

    @property
    def sizes(self):
        """``(decisions, shanten entries)`` stored per slot (diagnostics)."""
        return [(int(self.memos[2 * i + 1].used), int(self.memos[2 * i].used)) for i in range(self.n_slots)]


cdef int wall_shanten(const uint8_t* c, int n_melds, int wilds, const void* ctx) noexcept nogil:
    """The policy's shanten: the shanten kernel under the set-up's parameters."""
    return shanten_one(c, n_melds, wilds, <const Params*>ctx)


cdef void policy_init(Policy* P, const Params* prm, uint8_t* copies) noexcept nogil:
    """The wall's policy: exact shanten under ``prm``; 进张 counts the copies of the playable
    kinds (``copies`` is filled in); the table path when every kind is natural with 4 copies,
    with no 缺一门 and forms among standard / seven pairs / thirteen orphans."""
    cdef int k
    for k in range(N_KINDS):
        copies[k] = prm.cap[k] if prm.playable[k] else 0
    P.shanten = wall_shanten
    P.ctx = <const void*>prm
    P.copies = copies
    P.tag = 0
    P.memo = NULL
    P.choices = NULL
    P.table = NULL
    P.part = NULL
    if prm.all_natural and not (prm.options & O_NEED_VOID) \
            and (prm.forms & ~(F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS)) == 0:
        P.table = prm


ctypedef struct Ask:           # the legality checker (shared by the threads; used with the GIL)
    void* fn                   # Python callable, or NULL: every complete hand wins
    void* errors               # Python list receiving the checker's exceptions
    int failed                 # set (with the GIL) once the checker has raised


cdef int ask_checker(Ask* a, const uint8_t* c, int wilds, int tile, int n_flowers,
                     int after) noexcept with gil:
    """Ask Python whether this complete hand wins: its state id, or -1 (exceptions recorded)."""
    cdef object r
    if a.failed:
        return -1
    try:
        r = (<object>a.fn)(PyBytes_FromStringAndSize(<const char*>c, 34), wilds, tile, n_flowers, after)
        return <int>r
    except BaseException as exc:     # recorded here, re-raised by the kernel after the loop
        (<list>a.errors).append(exc)
        a.failed = 1
        return -1


ctypedef struct Verdict:       # a checker answer memoised in the kernel (per thread, per call)
    uint64_t k0
    uint64_t k1                # 0: empty slot
    uint64_t k2                # drawn tile, flowers drawn and the after-flower flag
    int32_t sid

cdef enum:
    LOG2_VERDICTS = 12


cdef int ask_memo(Ask* a, Verdict* tab, long long* used, const uint8_t* c, int wilds, int tile,
                  int n_flowers, int after) noexcept nogil:
    """:func:`ask_checker` through the thread's table of answers (no GIL on a hit).

    A checker's answer depends only on its arguments, so it is asked once per state per thread.
    """
    cdef uint64_t k0, k1, k2, i
    cdef uint64_t mask = ((<uint64_t>1) << LOG2_VERDICTS) - 1
    cdef int sid
    if tab == NULL:
        return ask_checker(a, c, wilds, tile, n_flowers, after)
    memo_key(c, wilds, 0, &k0, &k1)
    k2 = (<uint64_t>(tile + 1) & 0xFF) | ((<uint64_t>n_flowers & 0xFFFF) << 8) | ((<uint64_t>after & 1) << 24)
    i = mix(k0, k1 ^ (k2 * <uint64_t>0x9E3779B97F4A7C15)) & mask
    while tab[i].k1 != 0:
        if tab[i].k0 == k0 and tab[i].k1 == k1 and tab[i].k2 == k2:
            return tab[i].sid
        i = (i + 1) & mask
    sid = ask_checker(a, c, wilds, tile, n_flowers, after)
    if a.failed:                  # not memoised: the answer is not the checker's
        return sid
    if used[0] * 8 >= <long long>(mask + 1) * 5:
        memset(tab, 0, <size_t>(mask + 1) * sizeof(Verdict))
        used[0] = 0
        i = mix(k0, k1 ^ (k2 * <uint64_t>0x9E3779B97F4A7C15)) & mask
    tab[i].k0 = k0
    tab[i].k1 = k1
    tab[i].k2 = k2
    tab[i].sid = sid
    used[0] += 1
    return sid


cdef void sim_chunk(bitgen_t* rng, const int8_t* wall0, int n_wall,
                    const uint8_t* c0, int n_melds, int wilds0, bint start_discard, int s0,
                    const Policy* pol, const int16_t* vis, int draws_left, int n_games,
                    int32_t* ready_hist, int32_t* win_hist,      # OUT (draws_left + 2,) each
                    Memo* memo,                                   # the thread's two tables
                    Ask* ask, Verdict* verdicts, long long* n_verdicts,
                    int32_t* win_turn, int32_t* win_state) noexcept nogil:   # OUT (n_games,) each
    """``n_games`` games on one stream; histogram of the first ready turn and the win turn.

    Index ``t`` (0..draws_left) counts games first ready / won at turn ``t``; the last index
    counts games never ready / never won.  With a checker (``ask.fn``), ``win_turn[g]`` and
    ``win_state[g]`` receive game ``g``'s win turn and the checker's state id (-1: no win).
    """
    cdef int8_t wall[MAX_WALL]
    cdef uint8_t c[34]
    cdef int g, t, tile, f, b, w, ready, won, sid, n_fl, after, d, s, s_after
    cdef bint check = ask.fn != NULL
    cdef Policy P = pol[0]
    P.memo = memo
    P.choices = memo + 1
    memcpy(wall, wall0, n_wall)
    for g in range(n_games):
        memcpy(c, c0, 34)
        w = wilds0
        f = 0
        b = n_wall - 1
        ready = -1
        won = -1
        sid = -1
        n_fl = 0
        if start_discard:
            d = pol_choice(&P, c, n_melds, w, vis, 1, &s, &s_after)
            if s < 0 and check:
                sid = ask_memo(ask, verdicts, n_verdicts, c, w, -1, 0, 0)
            if s < 0 and (not check or sid >= 0):
                ready = 0
                won = 0
            else:
                if d == NOT_DECIDED:
                    d = pol_choice(&P, c, n_melds, w, vis, 0, &s, &s_after)
                if d >= 0:
                    c[d] -= 1
                    if s_after == 0:
                        ready = 0
        elif s0 == 0:
            ready = 0
        if won < 0:
            for t in range(1, draws_left + 1):
                tile = draw_front(rng, wall, &f, &b)
                after = 0
                while tile == FLOWER:                    # set aside, replace from the back
                    n_fl += 1
                    after = 1
                    tile = draw_back(rng, wall, &f, &b)
                if tile < 0:                             # the wall is exhausted
                    break
                if tile == WILD:
                    w += 1
                else:
                    c[tile] += 1
                d = pol_choice(&P, c, n_melds, w, vis, 1, &s, &s_after)
                if s < 0:
                    if check:
                        sid = ask_memo(ask, verdicts, n_verdicts, c, w, tile, n_fl, after)
                    if not check or sid >= 0:
                        won = t
                        if ready < 0:
                            ready = t
                        break
                if d == NOT_DECIDED:                     # a complete hand the rule refused
                    d = pol_choice(&P, c, n_melds, w, vis, 0, &s, &s_after)
                if d < 0:                                # nothing natural to discard
                    break
                c[d] -= 1
                if ready < 0 and s_after == 0:
                    ready = t
        ready_hist[ready if ready >= 0 else draws_left + 1] += 1
        win_hist[won if won >= 0 else draws_left + 1] += 1
        if check:
            win_turn[g] = won
            win_state[g] = sid if won >= 0 else -1


def simulate_draws_kernel(list bitgens,                     # IN one BitGenerator per chunk
                          const int32_t[::1] games,         # IN games per chunk
                          const int8_t[::1] wall,           # IN wall template (tokens)
                          const uint8_t[::1] counts,        # IN concealed tiles (3k+1 or 3k+2)
                          int n_melds, int wilds,
                          const uint8_t[::1] cap, const uint8_t[::1] playable,
                          int forms, int options,
                          const int16_t[::1] visible,       # IN seen elsewhere (进张 only)
                          int draws_left,
                          int32_t[:, ::1] ready_hist,       # OUT (n_chunks, draws_left + 2)
                          int32_t[:, ::1] win_hist,         # OUT (n_chunks, draws_left + 2)
                          PolicyCache cache,
                          int n_threads=1,
                          object checker=None,              # IN None or callable (module docstring)
                          int32_t[::1] win_turn=None,       # OUT (sum(games),) win turn per game, -1: none
                          int32_t[::1] win_state=None):     # OUT (sum(games),) checker state id, -1: none
    """Simulate every chunk; chunk ``c`` uses ``bitgens[c]`` and writes row ``c``.

    The BitGenerators must be private to this call (spawned streams): they are advanced
    without taking their locks.  Returns the shanten of the starting hand (after the first
    discard for a 3k+2 hand).  With a ``checker`` a complete hand wins only when the checker
    accepts it, and ``win_turn`` / ``win_state`` (required then) receive one entry per game,
    chunk after chunk.  An exception raised by the checker is re-raised here.
    """
    cdef Py_ssize_t n_chunks = len(bitgens)
    cdef Py_ssize_t ci
    cdef int i, n_tiles = wilds, s0, slot
    cdef bint start_discard
    cdef Params prm
    cdef Policy pol
    cdef uint8_t copies[34]
    cdef bitgen_t** rngs
    cdef int s, s_after
    cdef uint8_t c[34]
    cdef const int8_t* wp = NULL
    cdef Ask ask
    cdef list errors = []
    cdef Py_ssize_t[::1] offsets
    cdef Py_ssize_t total = 0
    cdef int32_t* tp
    cdef int32_t* sp
    cdef Verdict* verdicts = NULL       # one table of checker answers per thread
    cdef long long* n_verdicts = NULL
    cdef int n_slots = max(1, n_threads)
    if counts.shape[0] != 34 or cap.shape[0] != 34 or playable.shape[0] != 34 or visible.shape[0] != 34:
        raise ValueError("counts, cap, playable and visible must have 34 entries")
    if games.shape[0] != n_chunks or ready_hist.shape[0] != n_chunks or win_hist.shape[0] != n_chunks:
        raise ValueError("games, ready_hist and win_hist need one row per BitGenerator")
    if ready_hist.shape[1] != draws_left + 2 or win_hist.shape[1] != draws_left + 2 or draws_left < 0:
        raise ValueError("ready_hist and win_hist need draws_left + 2 columns")
    if wall.shape[0] > MAX_WALL or wall.shape[0] < 0:
        raise ValueError(f"the wall holds at most {MAX_WALL} tiles")
    if wilds < 0 or n_melds < 0 or n_melds > 4:
        raise ValueError("wilds must be >= 0 and n_melds in 0..4")
    if cache.n_slots < max(1, n_threads):
        raise ValueError("the cache needs one slot per thread")
    for i in range(34):
        if counts[i] > cap[i] or cap[i] > 4 or visible[i] < 0:
            raise ValueError("each count must be at most its cap (<= 4); visible counts >= 0")
        n_tiles += counts[i]
    for i in range(wall.shape[0]):
        if wall[i] < 0 or wall[i] > FLOWER:
            raise ValueError("wall tokens must be kinds 0..33, WILD_TOKEN or FLOWER_TOKEN")
    for i in range(n_chunks):
        if games[i] < 0:
            raise ValueError("games per chunk must be >= 0")
        total += games[i]
    ask.fn = NULL
    ask.errors = <void*>errors
    ask.failed = 0
    if checker is not None:
        if not callable(checker):
            raise ValueError("checker must be None or a callable")
        if win_turn is None or win_state is None or win_turn.shape[0] != total or win_state.shape[0] != total:
            raise ValueError("with a checker, win_turn and win_state need one entry per game")
        ask.fn = <void*>checker
    if n_tiles % 3 == 0:
        raise ValueError("the hand must hold 3k+1 or 3k+2 tiles")
    if n_tiles + 3 * n_melds > 14:
        raise ValueError("the hand (wildcards included) and its melds hold at most 14 tiles")
    start_discard = n_tiles % 3 == 2
    params_init(&prm, &cap[0], &playable[0], forms, options)
    policy_init(&pol, &prm, copies)
    memcpy(c, &counts[0], 34)
    if wall.shape[0] > 0:
        wp = &wall[0]
    if start_discard:
        pol.memo = &cache.memos[0]
        pol.choices = &cache.memos[1]
        pol_choice(&pol, c, n_melds, wilds, &visible[0], 1, &s, &s_after)   # the discard itself is not needed
        s0 = -1 if s < 0 else s_after
        pol.memo = NULL
        pol.choices = NULL
    else:
        s0 = shanten_one(c, n_melds, wilds, &prm)
    if n_chunks == 0:
        return s0
    rngs = <bitgen_t**>malloc(n_chunks * sizeof(bitgen_t*))
    if rngs == NULL:
        raise MemoryError()
    if ask.fn != NULL:
        verdicts = <Verdict*>calloc(<size_t>n_slots << LOG2_VERDICTS, sizeof(Verdict))
        n_verdicts = <long long*>calloc(n_slots, sizeof(long long))
        if verdicts == NULL or n_verdicts == NULL:
            free(rngs)
            free(verdicts)
            free(n_verdicts)
            raise MemoryError()
    offsets = np.zeros(n_chunks, np.intp)
    for ci in range(1, n_chunks):
        offsets[ci] = offsets[ci - 1] + games[ci - 1]
    tp = NULL
    sp = NULL
    if ask.fn != NULL and total > 0:
        tp = &win_turn[0]
        sp = &win_state[0]
    try:
        for ci in range(n_chunks):
            rngs[ci] = bitgen_pointer(bitgens[ci])
        ready_hist[:, :] = 0
        win_hist[:, :] = 0
        for ci in prange(n_chunks, nogil=True, schedule="dynamic", num_threads=max(1, n_threads)):
            slot = threadid()
            sim_chunk(rngs[ci], wp, <int>wall.shape[0],
                      &counts[0], n_melds, wilds, start_discard, s0, &pol, &visible[0], draws_left,
                      games[ci], &ready_hist[ci, 0], &win_hist[ci, 0],
                      &cache.memos[2 * slot], &ask,
                      verdicts + (<size_t>slot << LOG2_VERDICTS) if verdicts != NULL else NULL,
                      n_verdicts + slot if n_verdicts != NULL else NULL,
                      tp + offsets[ci] if tp != NULL else NULL,
                      sp + offsets[ci] if sp != NULL else NULL)
    finally:
        free(rngs)
        free(verdicts)
        free(n_verdicts)
    if errors:
        raise errors[0]
    return s0


def bounded_sample(object bitgen, uint64_t n, uint64_t[::1] out, bint wide=False):
    """Fill ``out`` with uniform integers in ``[0, n)`` from the mjfast bounded-int helpers.

    ``wide=False`` uses the 32-bit Lemire helper (``n < 2**32``), ``True`` the 64-bit one.
    For tests of the helpers; the BitGenerator's lock is held while it is advanced.
    """
    cdef bitgen_t* rng = bitgen_pointer(bitgen)
    cdef Py_ssize_t i
    if n == 0 or (not wide and n > 0xFFFFFFFF):
        raise ValueError("n must be in 1..2**32-1 (or 1..2**64-1 with wide=True)")
    with bitgen.lock, nogil:
        for i in range(out.shape[0]):
            out[i] = bounded_u64(rng, n) if wide else bounded_u32(rng, <uint32_t>n)
