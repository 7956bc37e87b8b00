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

The discard policy ("efficiency") is a pure function of the 3k+2 concealed tiles and the
wildcards held: least shanten, then most 进张 (remaining copies of the accepting kinds, the
remaining copies being cap − own concealed − visible), ties to the lowest kind index;
wildcards are never discarded.  Because it is pure, each thread memoises it in a hash table
(:class:`PolicyCache`): ready hands revisit a few dozen states, so a turn costs one lookup.

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
cimport cython
import numpy as np
from cython.parallel cimport prange, threadid
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

from mjfast._kernels._shanten cimport Params, params_init, shanten_one, N_KINDS, INF
from mjfast._kernels._rng cimport bitgen_pointer, bounded_u32, bounded_u64

cdef enum:
    WILD = 34
    FLOWER = 35
    MAX_WALL = 256
    LOG2_POLICY = 16
    LOG2_SHANTEN = 18

WILD_TOKEN = WILD
FLOWER_TOKEN = FLOWER
MAX_WALL_TILES = MAX_WALL


# ---------------------------------------------------------------------------------------
# Memo tables: open addressing with linear probing; a slot whose k1 is 0 is empty (k1 always
# has bit 63 set).  Key: kinds 0..20 in k0 and kinds 21..33 in k1, 3 bits each; wildcards in
# k1 bits 39..54.  When a table reaches a load of 5/8 it is cleared: memo contents change
# only speed, never a result.
ctypedef struct Entry:         # policy decision for a 3k+2 hand
    uint64_t k0
    uint64_t k1
    int8_t discard             # kind the policy discards (-1: no natural tile to discard)
    int8_t s_after             # shanten after that discard
    int8_t complete            # 1 if the 3k+2 hand is complete (the discard is then what the
                               # policy throws when the rule does not accept the win)

ctypedef struct Memo:          # one per thread
    Entry* pol
    uint64_t* sh               # pairs (k0, k1 | (shanten + 1) << 55)
    long long pol_used
    long long sh_used
    uint64_t pol_mask
    uint64_t sh_mask

cdef enum:
    KEY_BITS_END = 55

cdef uint64_t K1_KEY_MASK = ((<uint64_t>1) << KEY_BITS_END) - 1 | ((<uint64_t>1) << 63)


cdef class PolicyCache:
    """Per-thread memo tables (policy decisions and shanten values) for one set-up.

    A cache belongs to one (rule, melds, visible) combination; make a new one for each
    set-up.  It only saves time: results never depend on it.
    """
    cdef Memo* memos
    cdef int n_slots

    def __cinit__(self, int n_slots, int log2_policy=LOG2_POLICY, int log2_shanten=LOG2_SHANTEN):
        cdef int i
        if n_slots < 1 or not 4 <= log2_policy <= 24 or not 4 <= log2_shanten <= 24:
            raise ValueError("n_slots must be >= 1 and the table sizes 2**4..2**24")
        self.n_slots = n_slots
        self.memos = <Memo*>calloc(n_slots, sizeof(Memo))
        if self.memos == NULL:
            raise MemoryError()
        for i in range(n_slots):
            self.memos[i].pol_mask = (<uint64_t>1 << log2_policy) - 1
            self.memos[i].sh_mask = (<uint64_t>1 << log2_shanten) - 1
            self.memos[i].pol = <Entry*>calloc(<size_t>1 << log2_policy, sizeof(Entry))
            self.memos[i].sh = <uint64_t*>calloc(<size_t>2 << log2_shanten, sizeof(uint64_t))
            if self.memos[i].pol == NULL or self.memos[i].sh == NULL:
                raise MemoryError()

    def __dealloc__(self):
        cdef int i
        if self.memos != NULL:
            for i in range(self.n_slots):
                free(self.memos[i].pol)
                free(self.memos[i].sh)
            free(self.memos)

    @property
    def n_slots(self):
        return self.n_slots

    @property
    def sizes(self):
        """``(policy entries, shanten entries)`` stored per slot (diagnostics)."""
        return [(int(self.memos[i].pol_used), int(self.memos[i].sh_used)) for i in range(self.n_slots)]


cdef inline void pack_key(const uint8_t* c, int wilds, uint64_t* k0, uint64_t* k1) noexcept nogil:
    cdef uint64_t a = 0, b = 0
    cdef int i
    for i in range(21):
        a |= (<uint64_t>c[i]) << (3 * i)
    for i in range(21, 34):
        b |= (<uint64_t>c[i]) << (3 * (i - 21))
    b |= (<uint64_t>(wilds & 0xFFFF)) << 39
    b |= (<uint64_t>1) << 63
    k0[0] = a
    k1[0] = b


cdef inline uint64_t mix(uint64_t a, uint64_t b) noexcept nogil:
    cdef uint64_t h = a * <uint64_t>0x9E3779B97F4A7C15 ^ (b + <uint64_t>0x632BE59BD9B4E019) * <uint64_t>0xC2B2AE3D27D4EB4F
    h ^= h >> 31
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 29
    return h


cdef int shanten_memo(Memo* m, uint8_t* c, int n_melds, int wilds, const Params* prm) noexcept nogil:
    """``shanten_one`` through the thread's memo table."""
    cdef uint64_t k0, k1, i, slot_k1
    cdef int s
    pack_key(c, wilds, &k0, &k1)
    i = mix(k0, k1) & m.sh_mask
    while True:
        slot_k1 = m.sh[2 * i + 1]
        if slot_k1 == 0:
            break
        if m.sh[2 * i] == k0 and (slot_k1 & K1_KEY_MASK) == k1:
            return <int>(slot_k1 >> KEY_BITS_END & 0xFF) - 1
        i = (i + 1) & m.sh_mask
    s = shanten_one(c, n_melds, wilds, prm)
    if s > 126:
        s = 126
    if m.sh_used * 8 >= <long long>(m.sh_mask + 1) * 5:
        memset(m.sh, 0, <size_t>(m.sh_mask + 1) * 2 * sizeof(uint64_t))
        m.sh_used = 0
        i = mix(k0, k1) & m.sh_mask
    m.sh[2 * i] = k0
    m.sh[2 * i + 1] = k1 | (<uint64_t>(s + 1) << KEY_BITS_END)
    m.sh_used += 1
    return s


cdef int ukeire_of(Memo* m, uint8_t* c, int n_melds, int wilds, const Params* prm, int s0,
                   const int16_t* vis) noexcept nogil:
    """进张 of a 3k+1 hand at shanten ``s0``: remaining copies of the kinds that lower it."""
    cdef int k, r, total = 0
    for k in range(N_KINDS):
        if not prm.playable[k] or c[k] >= prm.cap[k]:
            continue
        r = <int>prm.cap[k] - <int>c[k] - <int>vis[k]
        if r <= 0:
            continue
        c[k] += 1
        if shanten_memo(m, c, n_melds, wilds, prm) < s0:
            total += r
        c[k] -= 1
    return total


cdef enum:
    NOT_DECIDED = -2           # Entry.discard of a complete hand whose discard is not computed yet


cdef void decide(Memo* m, uint8_t* c, int n_melds, int wilds, const Params* prm, const int16_t* vis,
                 Entry* e) noexcept nogil:
    """The efficiency policy on a 3k+2 hand (``c`` is restored before returning).

    A complete hand gets ``discard = NOT_DECIDED``: its discard is only needed when the rule
    does not accept the win, and is then filled in by :func:`choose_discard`.
    """
    e.complete = 1 if shanten_memo(m, c, n_melds, wilds, prm) < 0 else 0
    if e.complete:
        e.discard = NOT_DECIDED
        e.s_after = -1
    else:
        choose_discard(m, c, n_melds, wilds, prm, vis, e)


cdef void choose_discard(Memo* m, uint8_t* c, int n_melds, int wilds, const Params* prm, const int16_t* vis,
                         Entry* e) noexcept nogil:
    """Least shanten after the discard, then most 进张, then the lowest kind (sets ``e.discard``)."""
    cdef int8_t sd[34]
    cdef int d, best_s = INF + 1, best_u = -1, best_d = -1, n_best = 0, u
    for d in range(N_KINDS):
        sd[d] = 127
        if c[d] == 0:
            continue
        c[d] -= 1
        sd[d] = <int8_t>shanten_memo(m, c, n_melds, wilds, prm)
        c[d] += 1
        if sd[d] < best_s:
            best_s = sd[d]
            best_d = d
            n_best = 1
        elif sd[d] == best_s:
            n_best += 1
    if n_best > 1:
        best_d = -1
        for d in range(N_KINDS):
            if sd[d] != best_s:
                continue
            c[d] -= 1
            u = ukeire_of(m, c, n_melds, wilds, prm, best_s, vis)
            c[d] += 1
            if u > best_u:          # strict: ties keep the lowest kind index
                best_u = u
                best_d = d
    e.discard = <int8_t>best_d
    e.s_after = <int8_t>(best_s if best_s <= 127 else 127)


cdef inline Entry* lookup(Memo* m, uint8_t* c, int n_melds, int wilds, const Params* prm,
                          const int16_t* vis) noexcept nogil:
    """The memoised decision for ``c`` (computed and stored on a miss)."""
    cdef uint64_t k0, k1, i
    cdef Entry* e
    cdef Entry fresh
    pack_key(c, wilds, &k0, &k1)
    i = mix(k0, k1) & m.pol_mask
    while True:
        e = &m.pol[i]
        if e.k1 == 0:
            break
        if e.k0 == k0 and e.k1 == k1:
            return e
        i = (i + 1) & m.pol_mask
    decide(m, c, n_melds, wilds, prm, vis, &fresh)
    if m.pol_used * 8 >= <long long>(m.pol_mask + 1) * 5:
        memset(m.pol, 0, <size_t>(m.pol_mask + 1) * sizeof(Entry))
        m.pol_used = 0
        i = mix(k0, k1) & m.pol_mask
        e = &m.pol[i]
    fresh.k0 = k0
    fresh.k1 = k1
    e[0] = fresh
    m.pol_used += 1
    return e


cdef inline int draw_front(bitgen_t* rng, int8_t* wall, int* f, int* b) noexcept nogil:
    cdef int j, t
    if f[0] > b[0]:
        return -1
    j = f[0] + <int>bounded_u32(rng, <uint32_t>(b[0] - f[0] + 1))
    t = wall[j]
    wall[j] = wall[f[0]]
    wall[f[0]] = <int8_t>t
    f[0] += 1
    return t


cdef inline int draw_back(bitgen_t* rng, int8_t* wall, int* f, int* b) noexcept nogil:
    cdef int j, t
    if f[0] > b[0]:
        return -1
    j = f[0] + <int>bounded_u32(rng, <uint32_t>(b[0] - f[0] + 1))
    t = wall[j]
    wall[j] = wall[b[0]]
    wall[b[0]] = <int8_t>t
    b[0] -= 1
    return t


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
    pack_key(c, wilds, &k0, &k1)
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
                    const Params* prm, const int16_t* vis, int draws_left, int n_games,
                    int32_t* ready_hist, int32_t* win_hist,      # OUT (draws_left + 2,) each
                    Memo* memo, Ask* ask, Verdict* verdicts, long long* n_verdicts,
                    int32_t* win_turn, int32_t* win_state) noexcept nogil:   # OUT (n_games,) each
    """``n_games`` games on one stream; histogram of the first ready turn and the win turn.

    Index ``t`` (0..draws_left) counts games first ready / won at turn ``t``; the last index
    counts games never ready / never won.  With a checker (``ask.fn``), ``win_turn[g]`` and
    ``win_state[g]`` receive game ``g``'s win turn and the checker's state id (-1: no win).
    """
    cdef int8_t wall[MAX_WALL]
    cdef uint8_t c[34]
    cdef int g, t, tile, f, b, w, ready, won, sid, n_fl, after
    cdef bint check = ask.fn != NULL
    cdef Entry* e
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
            e = lookup(memo, c, n_melds, w, prm, vis)
            if e.complete and check:
                sid = ask_memo(ask, verdicts, n_verdicts, c, w, -1, 0, 0)
            if e.complete and (not check or sid >= 0):
                ready = 0
                won = 0
            else:
                if e.discard == NOT_DECIDED:
                    choose_discard(memo, c, n_melds, w, prm, vis, e)
                if e.discard >= 0:
                    c[e.discard] -= 1
                    if e.s_after == 0:
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
                e = lookup(memo, c, n_melds, w, prm, vis)
                if e.complete:
                    if check:
                        sid = ask_memo(ask, verdicts, n_verdicts, c, w, tile, n_fl, after)
                    if not check or sid >= 0:
                        won = t
                        if ready < 0:
                            ready = t
                        break
                if e.discard == NOT_DECIDED:             # a complete hand the rule refused
                    choose_discard(memo, c, n_melds, w, prm, vis, e)
                if e.discard < 0:                        # nothing natural to discard
                    break
                c[e.discard] -= 1
                if ready < 0 and e.s_after == 0:
                    ready = t
        ready_hist[ready if ready >= 0 else draws_left + 1] += 1
        win_hist[won if won >= 0 else draws_left + 1] += 1
        if check:
            win_turn[g] = won
            win_state[g] = sid if won >= 0 else -1


@cython.boundscheck(False)
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
    cdef bitgen_t** rngs
    cdef Entry entry
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
    start_discard = n_tiles % 3 == 2
    params_init(&prm, &cap[0], &playable[0], forms, options)
    memcpy(c, &counts[0], 34)
    if wall.shape[0] > 0:
        wp = &wall[0]
    if start_discard:
        decide(&cache.memos[0], c, n_melds, wilds, &prm, &visible[0], &entry)
        s0 = -1 if entry.complete else entry.s_after
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
                      &counts[0], n_melds, wilds, start_discard, s0, &prm, &visible[0], draws_left,
                      games[ci], &ready_hist[ci, 0], &win_hist[ci, 0],
                      &cache.memos[slot], &ask,
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
