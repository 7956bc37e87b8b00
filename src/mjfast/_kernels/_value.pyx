"""Value kernel: exact win probability and expected value over the remaining draws.

One :class:`ValueProblem` is one hand under one set-up (rule arrays, unseen tiles, wall model,
search bound, horizon).  Its life has four steps, each a method:

1. :meth:`ValueProblem.build` (no GIL) walks the *draw graph*: 13-tile hands (about to draw,
   after a discard) and 14-tile hands (just drawn), joined by draws and discards, from the roots
   (the 13-tile hand, or every distinct discard of the 14-tile hand).  Which draws and discards
   are followed is the search bound (below).  Complete 14-tile hands and the waits of ready
   13-tile hands become *queries*: win contexts the caller judges and scores under the rule.
2. :meth:`ValueProblem.queries` / :meth:`ValueProblem.set_judgement`: the caller (with the GIL)
   answers every query once, for every number of flowers drawn and for a win on a flower's
   replacement tile or not: legal or not, and (pay, total, points) of the win.
3. :meth:`ValueProblem.solve` (no GIL) runs the backward recursion over the turns and returns
   six figures per root: expected value (pay), P(win by self-draw), P(win on a discard),
   P(ready at some point), expected total and expected points (each 0 without a win).
4. Optionally (``keep=True`` in solve): :meth:`ValueProblem.by_turn` (the same figures by turn,
   from a forward pass under the recursion's own choices) and :meth:`ValueProblem.simulate` (the
   recursion's choices played on a real, shuffled, depleting wall).

Wall models (``mode``):

* ``RETURNED``: discards go back, so the unseen tiles are always "everything but the hand and
  ``visible``"; a draw of kind k has probability (cap - hand - visible)_k / S with S constant.
* ``EXACT``: the real depleting wall.  A state is (hand, tiles drawn so far): the wall is the
  unseen tiles minus the draws, exactly.  The state space grows with the horizon.
* ``APPROX``: the depleting wall with the state (hand, turn) only.  Copies still held of kinds
  drawn are known to be gone; the other drawn tiles were thrown back, and the model takes them
  from the kinds the hand does not accept (the tiles it throws), in proportion to their copies,
  falling back to the accepted kinds only when those are exhausted.  Every weight is >= 0 and
  they sum to one, so this stays a probability by construction; it is exact while the accepted
  kinds stay the same (a wait that cannot change gives the hypergeometric law).

Flowers are independent of the playable tiles: the number drawn by each turn (and whether the
winning tile replaced one) follows the sequential draw law exactly, so values carry a flower
dimension (flowers drawn so far) and every win is judged at the flowers actually held.

Search bound (``depth``): write e(h) for the tiles of h not in the starting hand and s(h) for its
shanten; sigma(h) = e(h) + s(h) - s0 >= 0 (s0 the start's shanten).  A 13-tile hand with
sigma < depth follows every draw, else only the draws that lower its shanten (and wildcards);
any other drawn tile is thrown back at once.  A 14-tile hand with sigma < depth follows every
discard, else only the discards that keep its shanten (that keep it ready, when complete)
without raising sigma.  Throwing back the drawn tile is always an option.  ``depth < 0``: no bound.

Choices are made on the expected value; ties (within a relative 1e-12) go to the win, then to
the lower kind index (a 14-tile hand scans its discards in kind order and keeps the first unless
a later one is worth more beyond the tolerance; the drawn tile thrown back is then compared
with that discard the same way).  The twin in :mod:`mjfast._reference.value` states the same model.
"""
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int16_t, uint16_t, int32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
from libc.math cimport pow, fabs, INFINITY
from numpy.random cimport bitgen_t

from mjfast._kernels._shanten cimport (
    Params, params_init, shanten_one, table_row, INF,
    F_STANDARD, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS, O_PAIRS_DISTINCT, O_NEED_VOID, O_HONOUR_CHOWS)
from mjfast._kernels._common cimport POW5, IS_ORPHAN, ctz64, prefetch
from mjfast._kernels._efficiency cimport (
    Eval, ev_init, accept_mask, seven_pairs_need, merge_pair, finish_pair, mark_splits, special_accept_bits)
from mjfast._kernels._rng cimport bitgen_pointer, draw_front, draw_back

import numpy as np
cimport numpy as cnp
cnp.import_array()

cdef enum:
    NKIND = 34
    NK = 35                 # draw kinds: 34 natural + the wildcard token
    WILD = 34
    FLOWER = 35
    MAX_F = 48              # unseen flowers at most
    NV = 6                  # figures per value: pay, p_self, p_disc, p_ready, total, points
    MAX_C = 64              # unseen winning copies tabulated for the hazard
    MODE_RETURNED = 0
    MODE_APPROX = 1
    MODE_EXACT = 2
    UNKNOWN = -100
    MAX_WALL = 256
    STATUS_OK = 0
    STATUS_BUDGET = 1
    STATUS_MEMORY = 2

RETURNED = MODE_RETURNED
APPROX = MODE_APPROX
EXACT = MODE_EXACT
WILD_TOKEN = WILD
FLOWER_TOKEN = FLOWER
MAX_FLOWERS = MAX_F
#: Figures returned per root, in order.
FIGURES = ("pay", "p_self_draw", "p_discard", "p_ready", "total", "points")

cdef double TOL = 1e-12


# ---------------------------------------------------------------------------------------
# growable arrays and a hash map (open addressing, 4-word keys; a slot is empty when its
# second word is 0: that word always has bit 63 set)
ctypedef struct Arr:
    char* p
    int64_t n
    int64_t cap
    int64_t esz


cdef inline int64_t arr_push(Arr* a) noexcept nogil:
    cdef int64_t newcap
    cdef char* q
    if a.n == a.cap:
        newcap = 256 if a.cap == 0 else 2 * a.cap
        q = <char*>realloc(a.p, newcap * a.esz)
        if q == NULL:
            return -1
        a.p = q
        a.cap = newcap
    a.n += 1
    return a.n - 1


cdef inline void arr_free(Arr* a) noexcept nogil:
    free(a.p)
    a.p = NULL
    a.n = 0
    a.cap = 0


ctypedef struct HMap:
    uint64_t* k
    int32_t* v
    int64_t mask
    int64_t used


cdef inline uint64_t mix4(const uint64_t* key) noexcept nogil:
    cdef uint64_t h = key[0] * <uint64_t>0x9E3779B97F4A7C15
    h ^= (key[1] + <uint64_t>0x632BE59BD9B4E019) * <uint64_t>0xC2B2AE3D27D4EB4F
    h ^= (key[2] + <uint64_t>0x165667B19E3779F9) * <uint64_t>0x27D4EB2F165667C5
    h ^= key[3] * <uint64_t>0x94D049BB133111EB
    h ^= h >> 31
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 29
    return h


cdef int hm_init(HMap* m, int log2) noexcept nogil:
    cdef int64_t n = (<int64_t>1) << log2
    m.k = <uint64_t*>calloc(4 * n, sizeof(uint64_t))
    m.v = <int32_t*>malloc(n * sizeof(int32_t))
    m.mask = n - 1
    m.used = 0
    return 0 if (m.k != NULL and m.v != NULL) else -1


cdef void hm_free(HMap* m) noexcept nogil:
    free(m.k)
    free(m.v)
    m.k = NULL
    m.v = NULL


cdef inline bint hm_find_h(const HMap* m, const uint64_t* key, uint64_t h, int32_t* out) noexcept nogil:
    """Look a key up, its hash (mix4) known."""
    cdef uint64_t i = h & <uint64_t>m.mask
    cdef const uint64_t* s
    while True:
        s = m.k + 4 * i
        if s[1] == 0:
            return False
        if s[0] == key[0] and s[1] == key[1] and s[2] == key[2] and s[3] == key[3]:
            out[0] = m.v[i]
            return True
        i = (i + 1) & <uint64_t>m.mask


cdef int hm_put_h(HMap* m, const uint64_t* key, uint64_t h, int32_t v) noexcept nogil:
    """Insert a key known to be absent, its hash (mix4) known."""
    cdef uint64_t i
    if (m.used + 1) * 2 > m.mask + 1:
        if hm_grow(m) != 0:
            return -1
    i = h & <uint64_t>m.mask
    while m.k[4 * i + 1] != 0:
        i = (i + 1) & <uint64_t>m.mask
    memcpy(m.k + 4 * i, key, 4 * sizeof(uint64_t))
    m.v[i] = v
    m.used += 1
    return 0


cdef inline bint hm_find(const HMap* m, const uint64_t* key, int32_t* out) noexcept nogil:
    return hm_find_h(m, key, mix4(key), out)


cdef int hm_grow(HMap* m) noexcept nogil:
    cdef HMap n2
    cdef int64_t i, old = m.mask + 1
    cdef int log2 = 0
    cdef uint64_t j
    while ((<int64_t>1) << log2) < 2 * old:
        log2 += 1
    if hm_init(&n2, log2) != 0:
        hm_free(&n2)
        return -1
    for i in range(old):
        if m.k[4 * i + 1] != 0:
            j = mix4(m.k + 4 * i) & <uint64_t>n2.mask
            while n2.k[4 * j + 1] != 0:
                j = (j + 1) & <uint64_t>n2.mask
            memcpy(n2.k + 4 * j, m.k + 4 * i, 4 * sizeof(uint64_t))
            n2.v[j] = m.v[i]
    n2.used = m.used
    hm_free(m)
    m[0] = n2
    return 0


cdef int hm_put(HMap* m, const uint64_t* key, int32_t v) noexcept nogil:
    """Insert a key known to be absent."""
    return hm_put_h(m, key, mix4(key), v)


# the table rows of the group configurations a graph meets, with what one tile more or less
# does to them: the states of a graph share few configurations per group, so their rows are
# read from this small memo instead of the large tables (a cache miss each)
ctypedef struct GInfo:
    uint8_t row[10]         # natural-table row of the configuration
    uint16_t keep[10]       # bit i: a tile at position i is held and removing it leaves the cell
    uint16_t acc[10]        # bit i: fewer than 4 held at position i and drawing one lowers the cell
    int32_t idx             # the configuration
    uint8_t g               # its group
    uint8_t have            # the parts computed (keep: a 14-tile hand's, acc: a 13-tile hand's)


cdef enum:
    NEED_KEEP = 1
    NEED_ACC = 2


ctypedef struct GMemo:
    int32_t* k              # key + 1 (0: empty slot); key = group * 2^21 + configuration index
    int32_t* v              # index into info
    int64_t mask
    int64_t used
    Arr info


cdef int gm_init(GMemo* m, int log2) noexcept nogil:
    cdef int64_t n = (<int64_t>1) << log2
    m.k = <int32_t*>calloc(n, sizeof(int32_t))
    m.v = <int32_t*>malloc(n * sizeof(int32_t))
    m.mask = n - 1
    m.used = 0
    m.info.esz = sizeof(GInfo)
    return 0 if (m.k != NULL and m.v != NULL) else -1


cdef void gm_free(GMemo* m) noexcept nogil:
    free(m.k)
    free(m.v)
    arr_free(&m.info)
    m.k = NULL
    m.v = NULL


cdef inline uint64_t gm_hash(int32_t key) noexcept nogil:
    return ((<uint64_t>key) * <uint64_t>0x9E3779B97F4A7C15) >> 20


cdef int gm_grow(GMemo* m) noexcept nogil:
    cdef int64_t old = m.mask + 1, i, n = 2 * old
    cdef int32_t* k2 = <int32_t*>calloc(n, sizeof(int32_t))
    cdef int32_t* v2 = <int32_t*>malloc(n * sizeof(int32_t))
    cdef uint64_t j
    if k2 == NULL or v2 == NULL:
        free(k2)
        free(v2)
        return -1
    for i in range(old):
        if m.k[i] != 0:
            j = gm_hash(m.k[i]) & <uint64_t>(n - 1)
            while k2[j] != 0:
                j = (j + 1) & <uint64_t>(n - 1)
            k2[j] = m.k[i]
            v2[j] = m.v[i]
    free(m.k)
    free(m.v)
    m.k = k2
    m.v = v2
    m.mask = n - 1
    return 0


cdef void gm_fill(GInfo* gi, int g, int idx, int need) noexcept nogil:
    """Compute the ``need`` part (NEED_KEEP, NEED_ACC) of a memo entry not yet holding it.  The
    rows are first all asked for, so that their cache misses overlap."""
    cdef int n = 9 if g < 3 else 7, pos, cell, x = idx, sign = -1 if need == NEED_KEEP else 1
    cdef int digit[9]
    cdef const uint8_t* r2
    for pos in range(n):
        digit[pos] = x % 5
        x = x // 5
    for pos in range(n):
        if (digit[pos] > 0 if need == NEED_KEEP else digit[pos] < 4):
            r2 = table_row(g, idx + sign * POW5[pos])
            prefetch(r2)
            prefetch(r2 + 9)
    for cell in range(10):
        if need == NEED_KEEP:
            gi.keep[cell] = 0
        else:
            gi.acc[cell] = 0
    for pos in range(n):
        if need == NEED_KEEP and digit[pos] > 0:
            r2 = table_row(g, idx - POW5[pos])
            for cell in range(10):
                if r2[cell] == gi.row[cell]:
                    gi.keep[cell] |= <uint16_t>(1 << pos)
        elif need == NEED_ACC and digit[pos] < 4:
            r2 = table_row(g, idx + POW5[pos])
            for cell in range(10):
                if r2[cell] < gi.row[cell]:
                    gi.acc[cell] |= <uint16_t>(1 << pos)
    gi.have |= need


cdef int32_t gm_get(GMemo* m, int g, int idx) noexcept nogil:
    """Index in ``m.info`` of group g's configuration ``idx`` (added, with its row only, when
    new); -1: no memory."""
    cdef int32_t key = ((g << 21) | idx) + 1
    cdef uint64_t j = gm_hash(key) & <uint64_t>m.mask
    cdef int64_t i
    cdef GInfo* gi
    while m.k[j] != 0:
        if m.k[j] == key:
            return m.v[j]
        j = (j + 1) & <uint64_t>m.mask
    if (m.used + 1) * 2 > m.mask + 1:
        if gm_grow(m) != 0:
            return -1
        j = gm_hash(key) & <uint64_t>m.mask
        while m.k[j] != 0:
            j = (j + 1) & <uint64_t>m.mask
    i = arr_push(&m.info)
    if i < 0:
        return -1
    m.k[j] = key
    m.v[j] = <int32_t>i
    m.used += 1
    gi = (<GInfo*>m.info.p) + i
    memcpy(gi.row, table_row(g, idx), 10)
    gi.have = 0
    gi.g = <uint8_t>g
    gi.idx = idx
    return <int32_t>i


cdef inline int group_infos(GMemo* m, const uint8_t* c, const GInfo** out, int need) noexcept nogil:
    """The memo entries of the four groups of a hand, with their ``need`` part; -1: no memory."""
    cdef int32_t at[4]
    cdef int g, i, x
    cdef GInfo* gi
    for g in range(4):
        x = 0
        for i in range(8 if g < 3 else 6, -1, -1):
            x = x * 5 + c[9 * g + i]
        at[g] = gm_get(m, g, x)
        if at[g] < 0:
            return -1
    for g in range(4):
        gi = (<GInfo*>m.info.p) + at[g]
        if not (gi.have & need):
            gm_fill(gi, gi.g, gi.idx, need)
        out[g] = gi
    return 0


cdef inline void hm_prefetch(const HMap* m, uint64_t h) noexcept nogil:
    """Start loading the slot a lookup of this hash begins at (the keys, then the value)."""
    cdef uint64_t i = h & <uint64_t>m.mask
    prefetch(m.k + 4 * i)
    prefetch(m.v + i)


cdef inline void pack(const uint8_t* c, int w, const uint8_t* dc, uint64_t* key) noexcept nogil:
    """Key of a hand (3 bits per kind, the wildcards in 4 bits) and, in the exact model, of the
    tiles drawn so far (the same layout, the wildcard tokens drawn last)."""
    cdef uint64_t a = 0, b = 0
    cdef int i
    for i in range(21):
        a |= (<uint64_t>c[i]) << (3 * i)
    for i in range(21, 34):
        b |= (<uint64_t>c[i]) << (3 * (i - 21))
    b |= (<uint64_t>(w & 15)) << 39
    b |= (<uint64_t>1) << 63
    key[0] = a
    key[1] = b
    if dc == NULL:
        key[2] = 0
        key[3] = 0
        return
    a = 0
    b = 0
    for i in range(21):
        a |= (<uint64_t>dc[i]) << (3 * i)
    for i in range(21, 34):
        b |= (<uint64_t>dc[i]) << (3 * (i - 21))
    b |= (<uint64_t>(dc[34] & 15)) << 39
    b |= (<uint64_t>1) << 62
    key[2] = a
    key[3] = b


cdef inline void key_add(uint64_t* key, int k, int word, int sign) noexcept nogil:
    """Add ``sign`` to the count of kind k (WILD: the wildcards) in the packed key: words 0-1
    for the hand, 2-3 for the tiles drawn (a count never overflows its 3 or 4 bits)."""
    cdef uint64_t d
    if k < 21:
        d = (<uint64_t>1) << (3 * k)
        if sign > 0:
            key[word] += d
        else:
            key[word] -= d
    else:
        d = (<uint64_t>1) << (39 if k == WILD else 3 * (k - 21))
        if sign > 0:
            key[word + 1] += d
        else:
            key[word + 1] -= d


# ---------------------------------------------------------------------------------------
# the graph
ctypedef struct N13:
    # the fields the recursion reads every turn first, so that they share a cache line
    int32_t e0              # draw edges [e0, e0 + ne)
    int32_t ne
    int32_t q0              # discard-win queries [q0, q0 + nq)
    int32_t nq
    int32_t nf_r            # RETURNED / APPROX: copies of the kinds not followed (thrown back)
    int32_t a_held          # drawn tiles still held (sum of the a_k)
    int32_t racc            # APPROX: copies of the accepted kinds (wildcards included)
    int32_t rnon            # APPROX: copies of the other kinds
    int16_t layer           # EXACT: draws made; else the least number of draws that reaches it
    int16_t sigma
    int8_t s                # shanten (INF: no form applies)
    uint8_t w
    uint8_t open_
    uint8_t expanded
    uint64_t key[4]
    uint8_t c[34]


ctypedef struct N14:
    int32_t d0              # followed discards [d0, d0 + nd)
    int32_t nd
    int16_t layer
    int8_t s
    uint8_t w
    uint64_t key[4]
    uint8_t c[34]


ctypedef struct Edge:
    int32_t g               # 14-tile hand after the draw, -1: not followed (thrown back)
    int32_t ts              # 13-tile state after throwing the drawn tile back (-1: a wildcard)
    int32_t q               # self-draw query when g is complete, else -1
    int16_t r               # copies (the model's weight before normalising)
    int8_t k
    uint8_t acc             # the draw lowers the shanten


ctypedef struct Disc:
    int32_t child
    int8_t j


ctypedef struct DQ:
    int32_t q
    int16_t r               # unseen copies of the wait (the hazard's weight; fixed per state)
    int8_t k


ctypedef struct Query:
    uint8_t c[34]
    uint8_t w
    int8_t tile             # the winning kind, WILD for a drawn wildcard
    uint8_t self_draw


ctypedef struct Prob:
    # set-up
    uint8_t h0[34]
    int w0
    int n_melds
    Params prm
    int16_t U0[35]          # unseen copies per kind, [34]: wildcard tokens
    int16_t rmax[35]        # RETURNED: cap - visible per kind, [34]: every wildcard tile not seen
    int F0                  # unseen flowers
    int S0                  # unseen playable tiles (wildcard tokens included)
    int S_ret               # RETURNED: the constant wall
    int mode
    int depth
    int T
    bint dw                 # discard wins
    int64_t max_states
    int s0
    bint fused              # no wildcards, every kind natural, standard / 七对 / 十三幺 only
    bint wins_final         # every complete hand is a legal win worth the most (no rule)
    bint start14
    uint8_t root_mask[34]   # 14-tile form: the discards that are roots
    int n_roots
    int8_t root_kind[34]
    int32_t root_id[34]
    # graph
    Arr n13
    Arr n14
    Arr edges
    Arr discs
    Arr dqs
    Arr queries
    Arr dc13                # EXACT: 35 drawn counts per 13-tile state
    Arr dc14
    HMap m13
    HMap m14
    HMap mq
    HMap ms                 # shanten memo (the general path only)
    GMemo gm                # group rows (the fused path only)
    int status
    int32_t* by_layer       # EXACT: 13-tile states sorted by layer, with offsets
    int32_t* layer_off
    int32_t* by_layer14
    int32_t* layer_off14
    # judgement
    uint8_t* legal          # [q][f][a]
    double* wv              # [q][f][a][3]: pay, total, points
    # solve
    double* hz              # hazard per round (T + 1)
    double* poff            # [t][C]: 1 - (1 - hz[t])^C for C < MAX_C
    int8_t* hz_turns        # opponent turns per round (T + 1)
    double* PF              # flower law [t][f][g]
    double* res             # [root][NV]
    bint solved
    bint keep
    bint unit_wins          # every win judged legal and worth (1, 1, 1) (set by prepare_solve)
    double* kV              # [layer][n13][F + 1]: value (pay) after the round
    double* kD              # [layer][n13][F + 1]: value (pay) of the draw phase, before the round
    int32_t* kC             # [layer][n14][F + 1]: chosen child
    int8_t* kJ              # [layer][n14][F + 1]: its discarded kind


cdef inline N13* node13(Prob* p, int64_t i) noexcept nogil:
    return (<N13*>p.n13.p) + i


cdef inline N14* node14(Prob* p, int64_t i) noexcept nogil:
    return (<N14*>p.n14.p) + i


cdef inline Edge* edge(Prob* p, int64_t i) noexcept nogil:
    return (<Edge*>p.edges.p) + i


cdef inline Disc* disc(Prob* p, int64_t i) noexcept nogil:
    return (<Disc*>p.discs.p) + i


cdef inline DQ* dq(Prob* p, int64_t i) noexcept nogil:
    return (<DQ*>p.dqs.p) + i


cdef inline uint8_t* dc13(Prob* p, int64_t i) noexcept nogil:
    return <uint8_t*>p.dc13.p + 35 * i


cdef inline uint8_t* dc14(Prob* p, int64_t i) noexcept nogil:
    return <uint8_t*>p.dc14.p + 35 * i


cdef int shanten_of(Prob* p, const uint8_t* c, int w) noexcept nogil:
    """Shanten through the problem's memo."""
    cdef uint64_t key[4]
    cdef int32_t v
    if p.fused:
        v = shanten_one(c, p.n_melds, w, &p.prm)
        return v if v <= 120 else 120
    pack(c, w, NULL, key)
    if hm_find(&p.ms, key, &v):
        return v
    v = shanten_one(c, p.n_melds, w, &p.prm)
    if v > 120:
        v = 120
    if hm_put(&p.ms, key, v) != 0:
        p.status = STATUS_MEMORY
    return v


cdef inline int exchanges(const Prob* p, const uint8_t* c, int w) noexcept nogil:
    cdef int k, e = 0
    for k in range(34):
        if c[k] > p.h0[k]:
            e += c[k] - p.h0[k]
    if w > p.w0:
        e += w - p.w0
    return e


cdef inline int base_weight(const Prob* p, const uint8_t* c, int w, const uint8_t* dc, int k) noexcept nogil:
    """Copies of kind k (WILD: wildcard tokens) the model can draw from this state."""
    cdef int held, start
    if p.mode == MODE_RETURNED:
        return p.rmax[k] - (w if k == WILD else c[k])
    if p.mode == MODE_EXACT:
        return p.U0[k] - dc[k]
    held = w if k == WILD else c[k]
    start = p.w0 if k == WILD else p.h0[k]
    return p.U0[k] - (held - start if held > start else 0)


cdef inline bint over_budget(Prob* p) noexcept nogil:
    if p.n13.n + p.n14.n > p.max_states:
        if p.status == STATUS_OK:
            p.status = STATUS_BUDGET
        return True
    return False


cdef inline int32_t get13(Prob* p, const uint64_t* key, const uint8_t* c, int w, const uint8_t* dc, int layer,
                          int s_known, int e) noexcept nogil:
    return get13h(p, key, mix4(key), c, w, dc, layer, s_known, e)


cdef int32_t get13h(Prob* p, const uint64_t* key, uint64_t hk, const uint8_t* c, int w, const uint8_t* dc,
                    int layer, int s_known, int e) noexcept nogil:
    """The 13-tile state of this key (hand, and drawn tiles in the exact model; created when
    new), ``hk`` its hash; ``e``: its exchanges."""
    cdef int32_t v
    cdef int64_t i
    cdef N13* n
    cdef int s, sig
    if hm_find_h(&p.m13, key, hk, &v):
        return v
    s = s_known if s_known != UNKNOWN else shanten_of(p, c, w)
    i = arr_push(&p.n13)
    if i < 0 or hm_put_h(&p.m13, key, hk, <int32_t>i) != 0:
        p.status = STATUS_MEMORY
        return -1
    n = node13(p, i)
    memcpy(n.key, key, 4 * sizeof(uint64_t))
    memcpy(n.c, c, 34)
    n.w = <uint8_t>w
    n.s = <int8_t>(s if s < 120 else 120)
    sig = e + s - p.s0 if s < INF else 30000
    n.sigma = <int16_t>(sig if sig < 30000 else 30000)
    n.open_ = s < INF and (p.depth < 0 or sig < p.depth)
    n.expanded = 0
    n.layer = <int16_t>layer
    n.e0 = 0
    n.ne = 0
    n.q0 = 0
    n.nq = 0
    n.nf_r = 0
    n.a_held = e
    n.racc = 0
    n.rnon = 0
    if p.mode == MODE_EXACT:
        if arr_push(&p.dc13) < 0:
            p.status = STATUS_MEMORY
            return -1
        memcpy(dc13(p, i), dc, 35)
    over_budget(p)
    return <int32_t>i


cdef inline const void* array_n(object a, int typenum, Py_ssize_t size, str name) except NULL:
    if not cnp.PyArray_Check(a):
        raise ValueError(f"{name} must be a numpy array")
    cdef cnp.ndarray arr = <cnp.ndarray>a
    if cnp.PyArray_TYPE(arr) != typenum or cnp.PyArray_SIZE(arr) != size or not cnp.PyArray_IS_C_CONTIGUOUS(arr):
        raise ValueError(f"{name} must be a C-contiguous array of {size} entries of the right type")
    return cnp.PyArray_DATA(arr)


cdef inline int pair_tally(const uint8_t* c, bint distinct, int* pairs, int* odd, int* orph,
                           int* orph_pairs) noexcept nogil:
    """Add a hand's seven-pairs material (pairs held, kinds with a spare single; ``distinct``:
    seven different kinds) and thirteen-orphans material (orphan kinds held, those with a pair)
    to the counters; return its tiles."""
    cdef int k, x, n = 0
    for k in range(34):
        x = c[k]
        n += x
        if distinct:
            pairs[0] += x >= 2
            odd[0] += x == 1
        else:
            pairs[0] += x >> 1
            odd[0] += x & 1
        if IS_ORPHAN[k]:
            orph[0] += x >= 1
            orph_pairs[0] += x >= 2
    return n


cdef int discard_shanten_fused(Prob* p, const uint8_t* c, int8_t* out) noexcept nogil:
    """Shanten after each discard of a 14-tile hand on the fused path (no wildcards, every
    kind natural, standard / seven pairs / thirteen orphans).  A discard raises a form's
    deficit by at most one, and keeps it exactly when some split attaining the minimum uses a
    cell of the discard's group whose table entry the discard leaves unchanged (a removed tile
    never lowers an entry), so one pass over the optimal splits decides every discard.
    ``out[j]`` for every kind held (others untouched).
    The rows, and which discards leave each cell, come from the group memo; returns -1 when
    out of memory."""
    cdef const GInfo* gi[4]
    cdef int ab[10]
    cdef int cd[10]
    cdef unsigned int opt[4]
    cdef unsigned int keepb[4]
    cdef bint kept7[5]
    cdef bint kept13[5]
    cdef bint kept13o[5]
    cdef int g, j, x, pos, best, cell, dstd = INF, d7 = INF, d13 = INF, kmax = 4 - p.n_melds
    cdef int pairs = 0, odd = 0, orph = 0, orph_pairs = 0, dp, do, o, op
    cdef unsigned int bits
    cdef bint kept, std_best
    cdef bint distinct = (p.prm.options & O_PAIRS_DISTINCT) != 0
    cdef bint sp = (p.prm.forms & F_SEVEN_PAIRS) != 0 and p.n_melds == 0
    cdef bint to = (p.prm.forms & F_THIRTEEN_ORPHANS) != 0 and p.n_melds == 0
    cdef bint st = (p.prm.forms & F_STANDARD) != 0
    if group_infos(&p.gm, c, gi, NEED_KEEP) != 0:
        return -1
    pair_tally(c, distinct, &pairs, &odd, &orph, &orph_pairs)
    if st:
        merge_pair(ab, gi[0].row, gi[1].row, kmax)
        merge_pair(cd, gi[2].row, gi[3].row, kmax)
        dstd = finish_pair(ab, cd, kmax)
    if sp:
        d7 = seven_pairs_need(pairs, odd)
    if to:
        d13 = 14 - orph - (1 if orph_pairs > 0 else 0)
    best = dstd if dstd < d7 else d7
    if d13 < best:
        best = d13
    if best >= INF:
        for j in range(34):
            if c[j]:
                out[j] = 120
        return 0
    std_best = st and dstd == best
    for g in range(4):
        opt[g] = 0
        keepb[g] = 0
    if std_best:
        mark_splits(gi[0].row, gi[1].row, ab, cd, kmax, best, &opt[0], &opt[1])
        mark_splits(gi[2].row, gi[3].row, cd, ab, kmax, best, &opt[2], &opt[3])
        for g in range(4):
            bits = opt[g]
            while bits:
                cell = ctz64(bits)
                bits &= bits - 1
                keepb[g] |= gi[g].keep[cell]
    # whether seven pairs / thirteen orphans keep their deficit after a discard depends only on
    # the count held (and, for the orphans, on the kind being one): by count, once
    for x in range(1, 5):
        kept7[x] = False
        if sp and d7 == best:
            if distinct:
                dp = (x - 1 >= 2) - (x >= 2)
                do = (x - 1 == 1) - (x == 1)
            else:
                dp = ((x - 1) >> 1) - (x >> 1)
                do = ((x - 1) & 1) - (x & 1)
            kept7[x] = seven_pairs_need(pairs + dp, odd + do) == d7
        kept13[x] = False
        kept13o[x] = False
        if to and d13 == best:
            kept13[x] = True            # not an orphan: the orphans' deficit stays
            o = orph - (x == 1)
            op = orph_pairs - (x == 2)
            kept13o[x] = 14 - o - (1 if op > 0 else 0) == d13
    for j in range(34):
        x = c[j]
        if x == 0:
            continue
        g = j // 9 if j < 27 else 3
        pos = j - 9 * g
        kept = (std_best and ((keepb[g] >> pos) & 1) != 0) or kept7[x] \
            or (kept13o[x] if IS_ORPHAN[j] else kept13[x])
        out[j] = <int8_t>(best - 1 if kept else best)
    return 0


cdef int accept_memo(Prob* p, const uint8_t* c, int s, uint8_t* mask) noexcept nogil:
    """The fused path's accept mask of a hand of shanten s (accept_mask of the efficiency
    kernel, with the group rows and their one-tile-more rows from the memo); -1: no memory,
    1: a hand size the tables do not take (the caller asks accept_mask)."""
    cdef const GInfo* gi[4]
    cdef int ab[10]
    cdef int cd[10]
    cdef unsigned int opt[4]
    cdef unsigned int accb, cb
    cdef uint64_t bits = 0
    cdef int g, k, x, n = 0, kmax, best = INF, d, target = s + 1
    cdef int pairs = 0, odd = 0, orph = 0, orph_pair = 0
    cdef bint distinct = (p.prm.options & O_PAIRS_DISTINCT) != 0
    cdef bint st = (p.prm.forms & F_STANDARD) != 0
    n = pair_tally(c, distinct, &pairs, &odd, &orph, &orph_pair)
    memset(mask, 0, 34)
    if (n + 1) % 3 == 0:
        return 1
    kmax = n // 3 if (n + 1) % 3 == 1 else (n - 1) // 3
    if kmax > 4:
        return 1
    if group_infos(&p.gm, c, gi, NEED_ACC) != 0:
        return -1
    if st:
        merge_pair(ab, gi[0].row, gi[1].row, kmax)
        merge_pair(cd, gi[2].row, gi[3].row, kmax)
        best = finish_pair(ab, cd, kmax)
    if p.n_melds == 0 and kmax == 4:
        if p.prm.forms & F_SEVEN_PAIRS:
            d = seven_pairs_need(pairs, odd)
            if d < best:
                best = d
        if p.prm.forms & F_THIRTEEN_ORPHANS:
            d = 14 - orph - (1 if orph_pair > 0 else 0)
            if d < best:
                best = d
    if best >= INF or best > target:
        return 0
    if best < target:
        for k in range(34):
            mask[k] = c[k] < 4
        return 0
    if st and finish_pair(ab, cd, kmax) == best:
        for g in range(4):
            opt[g] = 0
        mark_splits(gi[0].row, gi[1].row, ab, cd, kmax, best, &opt[0], &opt[1])
        mark_splits(gi[2].row, gi[3].row, cd, ab, kmax, best, &opt[2], &opt[3])
        for g in range(4):
            accb = 0
            cb = opt[g] & ((1u << (2 * kmax + 2)) - 1)
            while cb:
                x = ctz64(cb)
                cb &= cb - 1
                accb |= gi[g].acc[x]
            bits |= (<uint64_t>accb) << (9 * g)
    if p.n_melds == 0 and kmax == 4:
        bits |= special_accept_bits(c, pairs, odd, orph, orph_pair, distinct, p.prm.forms, best)
    for k in range(34):
        mask[k] = (bits >> k) & 1
    return 0


def table_columns(const double[:, ::1] fig, const int64_t[::1] kinds, const int64_t[::1] shanten,
                  const int64_t[::1] reach, int n_graph, bint all_valued, double stake, bint exact_model):
    """expected_value's table columns, best row first: ``(floats (9, n), ints (2, n), discard,
    exact, graph)``.  ``fig`` (n, 6): the figures of each row (the first ``n_graph`` from the
    recursion, the rest from the chain); ``reach`` (n_graph,): states reached per graph row.
    The float rows are p_ready, p_win, p_win_self_draw, p_win_discard, ev, ev_stakes, mean_win,
    mean_total, mean_points; the int rows shanten and n_states.  Best first: ev descending (NaN
    last), then p_win descending, then the kind."""
    cdef Py_ssize_t n = fig.shape[0], i, j, a, b
    cdef double pw, won, nan = float("nan")
    cdef double* kev
    cdef double* kpw
    cdef int64_t* order
    if fig.shape[1] != NV or kinds.shape[0] != n or shanten.shape[0] != n or reach.shape[0] != n_graph \
            or not 0 <= n_graph <= n:
        raise ValueError("fig must be (n, 6), kinds and shanten (n,), reach (n_graph,), n_graph <= n")
    floats = np.empty((9, n), np.float64)
    ints = np.empty((2, n), np.int64)
    discard = np.empty(n, np.int64)
    exact = np.empty(n, np.bool_)
    graph = np.empty(n, np.bool_)
    cdef double[:, ::1] F = floats
    cdef int64_t[:, ::1] iv = ints
    cdef int64_t[::1] D = discard
    cdef uint8_t[::1] E = exact.view(np.uint8)
    cdef uint8_t[::1] G = graph.view(np.uint8)
    cdef double out[9]
    kev = <double*>malloc((n + 1) * sizeof(double))
    kpw = <double*>malloc((n + 1) * sizeof(double))
    order = <int64_t*>malloc((n + 1) * sizeof(int64_t))
    if kev == NULL or kpw == NULL or order == NULL:
        free(kev)
        free(kpw)
        free(order)
        raise MemoryError()
    try:
        # sort keys (as numpy's lexsort of (kind, -p_win, -ev with NaN as -inf)); a stable
        # insertion sort: the kinds are distinct, so the order is the same total order
        for i in range(n):
            pw = fig[i, 1] + fig[i, 2]
            kpw[i] = -pw
            if all_valued or i < n_graph:
                kev[i] = -fig[i, 0]
            else:
                kev[i] = INFINITY      # NaN ev: last
            order[i] = i
        for i in range(1, n):
            a = order[i]
            j = i - 1
            while j >= 0:
                b = order[j]
                if kev[b] < kev[a] or (kev[b] == kev[a] and (
                        kpw[b] < kpw[a] or (kpw[b] == kpw[a] and kinds[b] <= kinds[a]))):
                    break
                order[j + 1] = b
                j -= 1
            order[j + 1] = a
        for j in range(n):
            i = order[j]
            pw = fig[i, 1] + fig[i, 2]
            won = pw if pw > 0 else nan
            out[0] = fig[i, 3]
            out[1] = pw
            out[2] = fig[i, 1]
            out[3] = fig[i, 2]
            if all_valued or i < n_graph:
                out[4] = fig[i, 0]
                out[6] = fig[i, 0] / won
                out[7] = fig[i, 4] / won
                out[8] = fig[i, 5] / won
            else:
                out[4] = nan
                out[6] = nan
                out[7] = nan
                out[8] = nan
            out[5] = out[4] / stake
            for a in range(9):
                F[a, j] = out[a]
            iv[0, j] = shanten[i]
            iv[1, j] = reach[i] if i < n_graph else 0
            D[j] = kinds[i]
            G[j] = i < n_graph
            E[j] = i < n_graph and exact_model
    finally:
        free(kev)
        free(kpw)
        free(order)
    return floats, ints, discard, exact, graph


cdef int probe_counts(const uint8_t* c, uint8_t* cap, uint8_t* pl) except -1:
    """The tiles of a probe's hand (counts at most 4), every kind playable with cap 4."""
    cdef int j, n = 0
    for j in range(34):
        if c[j] > 4:
            raise ValueError("counts must be at most 4")
        n += c[j]
        cap[j] = 4
        pl[j] = 1
    return n


def _fused_discards(object counts, int n_melds, int forms, int options):
    """Test hook: ``(fused, exact)`` shanten after each discard of a 14-tile hand under the
    fused rule arrays (every kind natural), from :func:`discard_shanten_fused` and from the
    shanten kernel (127 where the kind is not held)."""
    cdef const uint8_t* c = <const uint8_t*>array_n(counts, cnp.NPY_UINT8, 34, "counts")
    cdef Prob pr
    cdef uint8_t cap[34]
    cdef uint8_t pl[34]
    cdef uint8_t c3[34]
    cdef int8_t fz[34]
    cdef int j, n = 0
    n = probe_counts(c, cap, pl)
    if n + 3 * n_melds != 14 or not 0 <= n_melds <= 4:
        raise ValueError("a 14-tile hand is needed (melds counted as 3)")
    if forms & ~(F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS) or options & (O_NEED_VOID | O_HONOUR_CHOWS):
        raise ValueError("forms beyond standard / seven pairs / thirteen orphans are not fused")
    memset(&pr, 0, sizeof(Prob))
    pr.n_melds = n_melds
    params_init(&pr.prm, cap, pl, forms, options)
    fused = np.full(34, 127, np.int64)
    exact = np.full(34, 127, np.int64)
    for j in range(34):
        fz[j] = 127
    if gm_init(&pr.gm, 2) != 0:
        gm_free(&pr.gm)
        raise MemoryError()
    j = discard_shanten_fused(&pr, c, fz)
    gm_free(&pr.gm)
    if j != 0:
        raise MemoryError()
    memcpy(c3, c, 34)
    for j in range(34):
        if c[j] == 0:
            continue
        c3[j] -= 1
        fused[j] = fz[j]
        exact[j] = min(120, shanten_one(c3, n_melds, 0, &pr.prm))
        c3[j] += 1
    return fused, exact


def _fused_accepts(object counts, int n_melds, int forms, int options):
    """Test hook: ``(fused, kernel)`` accept masks (uint8[34]) of a 3k+1-tile hand under the
    fused rule arrays (every kind natural), from :func:`accept_memo` and from the efficiency
    kernel's accept_mask, with the hand's own shanten."""
    cdef const uint8_t* c = <const uint8_t*>array_n(counts, cnp.NPY_UINT8, 34, "counts")
    cdef Prob pr
    cdef Eval ev
    cdef uint8_t cap[34]
    cdef uint8_t pl[34]
    cdef uint8_t m1[34]
    cdef uint8_t m2[34]
    cdef int j, n = 0, s, st
    n = probe_counts(c, cap, pl)
    if n % 3 != 1 or n + 3 * n_melds > 13 or not 0 <= n_melds <= 4:
        raise ValueError("a 3k+1-tile hand is needed, at most 13 with melds counted as 3")
    if forms & ~(F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS) or options & (O_NEED_VOID | O_HONOUR_CHOWS):
        raise ValueError("forms beyond standard / seven pairs / thirteen orphans are not fused")
    memset(&pr, 0, sizeof(Prob))
    pr.n_melds = n_melds
    params_init(&pr.prm, cap, pl, forms, options)
    s = shanten_one(c, n_melds, 0, &pr.prm)
    if gm_init(&pr.gm, 2) != 0:
        gm_free(&pr.gm)
        raise MemoryError()
    st = accept_memo(&pr, c, s, m1)
    gm_free(&pr.gm)
    if st < 0:
        raise MemoryError()
    ev_init(&ev, c, n_melds, 0, &pr.prm)
    accept_mask(&ev, s, m2)
    fused = np.zeros(34, np.uint8)
    kernel = np.zeros(34, np.uint8)
    for j in range(34):
        fused[j] = m1[j] if st == 0 else 255
        kernel[j] = m2[j]
    return fused, kernel


cdef int32_t get14(Prob* p, const uint64_t* key, uint64_t hk, const uint8_t* c, int w, const uint8_t* dc,
                   int layer, int s14, int e) noexcept nogil:
    """The 14-tile state of this key (created when new, with its followed discards), ``hk``
    its hash.  The followed discards are chosen first and their states' slots prefetched, then
    looked up (or created) in kind order."""
    cdef int32_t v, child
    cdef int64_t i, di
    cdef uint8_t c3[34]
    cdef int8_t sh[34]
    cdef uint64_t ck[4 * 34]
    cdef uint64_t chh[34]
    cdef int8_t cj[34]
    cdef int8_t cs[34]
    cdef int8_t ce[34]
    cdef int j, sj, sig, keep_s, e3, nch = 0, x
    cdef bint open14, fz = p.fused and w == 0
    cdef N14* n
    if hm_find_h(&p.m14, key, hk, &v):
        return v
    i = arr_push(&p.n14)
    if i < 0 or hm_put_h(&p.m14, key, hk, <int32_t>i) != 0:
        p.status = STATUS_MEMORY
        return -1
    n = node14(p, i)
    memcpy(n.key, key, 4 * sizeof(uint64_t))
    memcpy(n.c, c, 34)
    n.w = <uint8_t>w
    n.s = <int8_t>(s14 if s14 < 120 else 120)
    n.layer = <int16_t>layer
    n.d0 = <int32_t>p.discs.n
    n.nd = 0
    if p.mode == MODE_EXACT:
        if arr_push(&p.dc14) < 0:
            p.status = STATUS_MEMORY
            return -1
        memcpy(dc14(p, i), dc, 35)
    if s14 >= INF:
        return <int32_t>i             # no form applies: nothing is worth keeping
    if s14 < 0 and p.wins_final:
        return <int32_t>i             # the win is always taken: its discards are never played
    sig = e + s14 - p.s0
    open14 = p.depth < 0 or sig < p.depth
    keep_s = s14 if s14 >= 0 else 0
    if fz:
        if discard_shanten_fused(p, c, sh) != 0:
            p.status = STATUS_MEMORY
            return -1
    memcpy(c3, c, 34)
    for j in range(34):
        if c[j] == 0:
            continue
        e3 = e - (1 if c[j] > p.h0[j] else 0)
        if open14:
            sj = sh[j] if fz else UNKNOWN
        else:
            if fz:
                sj = sh[j]
            else:
                c3[j] -= 1
                sj = shanten_of(p, c3, w)
                c3[j] += 1
            # keep the shanten (ready, for a complete hand) without raising the slack: a
            # complete hand declined or refused may swap a drawn tile, not an original one
            if not (sj == keep_s and e3 + sj - p.s0 <= sig):
                continue
        memcpy(ck + 4 * nch, key, 4 * sizeof(uint64_t))
        key_add(ck + 4 * nch, j, 0, -1)
        chh[nch] = mix4(ck + 4 * nch)
        hm_prefetch(&p.m13, chh[nch])
        cj[nch] = <int8_t>j
        cs[nch] = <int8_t>(sj if sj != UNKNOWN else -128)
        ce[nch] = <int8_t>e3
        nch += 1
    if p.status == STATUS_MEMORY:
        return -1
    for x in range(nch):
        j = cj[x]
        c3[j] -= 1
        child = get13h(p, ck + 4 * x, chh[x], c3, w, dc, layer, cs[x] if cs[x] != -128 else UNKNOWN, ce[x])
        c3[j] += 1
        if child < 0 or p.status == STATUS_MEMORY:
            return -1
        di = arr_push(&p.discs)
        if di < 0:
            p.status = STATUS_MEMORY
            return -1
        disc(p, di).child = child
        disc(p, di).j = <int8_t>j
        node14(p, i).nd += 1
    return <int32_t>i


cdef int32_t get_query(Prob* p, const uint8_t* c, int w, int tile, bint self_draw) noexcept nogil:
    cdef uint64_t key[4]
    cdef int32_t v
    cdef int64_t i
    cdef Query* q
    pack(c, w, NULL, key)
    key[2] = <uint64_t>(tile + 1) | (<uint64_t>self_draw << 8)
    key[3] = 0
    if hm_find(&p.mq, key, &v):
        return v
    i = arr_push(&p.queries)
    if i < 0 or hm_put(&p.mq, key, <int32_t>i) != 0:
        p.status = STATUS_MEMORY
        return -1
    q = (<Query*>p.queries.p) + i
    memcpy(q.c, c, 34)
    q.w = <uint8_t>w
    q.tile = <int8_t>tile
    q.self_draw = self_draw
    return <int32_t>i


cdef void expand13(Prob* p, int64_t i) noexcept nogil:
    """Draw edges and discard-win queries of one 13-tile state."""
    cdef uint8_t c[34]
    cdef uint8_t c2[34]
    cdef uint8_t d[35]
    cdef uint8_t d2[35]
    cdef uint8_t mask[34]
    cdef int8_t s14k[34]
    cdef Eval ev
    cdef N13* n = node13(p, i)
    cdef uint64_t key[4]
    cdef uint64_t kgs[4 * NK]
    cdef uint64_t gh[NK]
    cdef uint64_t kt[4]
    cdef int w = n.w, s = n.s, layer = n.layer, k, r, s14, racc = 0, rnon = 0, nf = 0, ex = n.a_held, eg, x
    cdef bint opn = n.open_, acck, exact = p.mode == MODE_EXACT
    cdef int32_t g, ts, q, qi
    cdef int64_t e0 = p.edges.n, q0 = p.dqs.n, ei
    cdef Edge* e
    memcpy(c, n.c, 34)
    memcpy(key, n.key, 4 * sizeof(uint64_t))
    if exact:
        memcpy(d, dc13(p, i), 35)
    else:
        memset(d, 0, 35)
    memset(mask, 0, 34)
    memset(s14k, 127, 34)
    if s < INF:
        if p.fused:
            x = accept_memo(p, c, s, mask)
            if x < 0:
                p.status = STATUS_MEMORY
                return
            if x > 0:
                ev_init(&ev, c, p.n_melds, w, &p.prm)
                accept_mask(&ev, s, mask)
        else:
            # the general shanten path is slow: through the memo, which the 14-tile hands
            # reached from several 13-tile hands share
            for k in range(34):
                if c[k] < p.prm.cap[k] and p.prm.playable[k] and base_weight(p, c, w, d, k) > 0:
                    c[k] += 1
                    s14k[k] = <int8_t>shanten_of(p, c, w)
                    c[k] -= 1
                    mask[k] = s14k[k] < s
    # discard-win queries of a ready hand: one per wait with copies left
    if p.dw and s == 0:
        for k in range(34):
            if mask[k] and base_weight(p, c, w, d, k) > 0:
                c[k] += 1
                q = get_query(p, c, w, k, False)
                c[k] -= 1
                if q < 0:
                    return
                qi = arr_push(&p.dqs)
                if qi < 0:
                    p.status = STATUS_MEMORY
                    return
                dq(p, qi).q = q
                dq(p, qi).k = <int8_t>k
                dq(p, qi).r = <int16_t>base_weight(p, c, w, d, k)
    if layer < p.T:
        # the 14-tile hands of the followed draws: keys and hashes first, their slots
        # prefetched, so that the lookups below overlap their cache misses
        for k in range(NK):
            gh[k] = 0
            if base_weight(p, c, w, d, k) > 0 and (opn or k == WILD or mask[k] != 0):
                memcpy(kgs + 4 * k, key, 4 * sizeof(uint64_t))
                if exact:
                    key_add(kgs + 4 * k, k, 2, 1)
                key_add(kgs + 4 * k, k, 0, 1)
                gh[k] = mix4(kgs + 4 * k)
                hm_prefetch(&p.m14, gh[k])
        for k in range(NK):
            r = base_weight(p, c, w, d, k)
            if r <= 0:
                continue
            if k == WILD:
                acck = True
            else:
                acck = mask[k] != 0
            if acck:
                racc += r
            else:
                rnon += r
            memcpy(kt, key, 4 * sizeof(uint64_t))
            if exact:
                memcpy(d2, d, 35)
                d2[k] += 1
                key_add(kt, k, 2, 1)          # the same hand, one more tile drawn
            if opn or acck:
                memcpy(c2, c, 34)
                if k == WILD:
                    eg = ex + (1 if w >= p.w0 else 0)
                    s14 = shanten_of(p, c, w + 1) if s < INF else INF
                    g = get14(p, kgs + 4 * k, gh[k], c2, w + 1, d2, layer + 1, s14, eg)
                else:
                    eg = ex + (1 if c[k] >= p.h0[k] else 0)
                    c2[k] += 1
                    s14 = (s - 1 if acck else s) if s < INF else INF
                    g = get14(p, kgs + 4 * k, gh[k], c2, w, d2, layer + 1, s14, eg)
                if g < 0:
                    return
                q = -1
                if s14 == -1:
                    q = get_query(p, c2, w + (1 if k == WILD else 0), k, True)
                    if q < 0:
                        return
                if k == WILD:
                    ts = -1
                elif exact:
                    ts = get13(p, kt, c, w, d2, layer + 1, s, ex)
                    if ts < 0:
                        return
                else:
                    ts = <int32_t>i
            else:
                if not exact:
                    nf += r
                    continue
                g = -1
                q = -1
                ts = get13(p, kt, c, w, d2, layer + 1, s, ex)
                if ts < 0:
                    return
            ei = arr_push(&p.edges)
            if ei < 0:
                p.status = STATUS_MEMORY
                return
            e = edge(p, ei)
            e.g = g
            e.ts = ts
            e.q = q
            e.r = <int16_t>r
            e.k = <int8_t>k
            e.acc = acck
            if p.status != STATUS_OK:
                return
    n = node13(p, i)
    n.e0 = <int32_t>e0
    n.ne = <int32_t>(p.edges.n - e0)
    n.q0 = <int32_t>q0
    n.nq = <int32_t>(p.dqs.n - q0)
    n.nf_r = nf
    n.racc = racc
    n.rnon = rnon
    n.expanded = 1


cdef int init_maps(Prob* p) noexcept nogil:
    """The state maps, sized for the graph the start's shanten usually gives (they grow): a
    few hundred states from one shanten, tens of thousands from two (at the default bound)."""
    cdef int lg = 9 if p.s0 <= 1 or p.depth == 0 else 14
    if hm_init(&p.m13, lg) or hm_init(&p.m14, lg) or hm_init(&p.mq, 8) or gm_init(&p.gm, 7):
        p.status = STATUS_MEMORY
        return -1
    return 0


cdef int build_graph(Prob* p) noexcept nogil:
    cdef uint8_t c[34]
    cdef uint8_t d[35]
    cdef uint64_t key[4]
    cdef int j, s, best = INF
    cdef int64_t i
    cdef bint exact = p.mode == MODE_EXACT
    memset(d, 0, 35)
    memcpy(c, p.h0, 34)
    p.status = STATUS_OK
    if not p.fused and hm_init(&p.ms, 10):
        p.status = STATUS_MEMORY
        return p.status
    p.n13.esz = sizeof(N13)
    p.n14.esz = sizeof(N14)
    p.edges.esz = sizeof(Edge)
    p.discs.esz = sizeof(Disc)
    p.dqs.esz = sizeof(DQ)
    p.queries.esz = sizeof(Query)
    p.dc13.esz = 35
    p.dc14.esz = 35
    if p.start14:
        for j in range(34):
            if c[j] == 0:
                continue
            c[j] -= 1
            s = shanten_of(p, c, p.w0)
            c[j] += 1
            if s < best:
                best = s
        p.s0 = best
        if init_maps(p) != 0:
            return p.status
        p.n_roots = 0
        for j in range(34):
            if c[j] == 0 or not p.root_mask[j]:
                continue
            c[j] -= 1
            pack(c, p.w0, d if exact else NULL, key)
            p.root_kind[p.n_roots] = <int8_t>j
            p.root_id[p.n_roots] = get13(p, key, c, p.w0, d, 0, UNKNOWN, 0)
            c[j] += 1
            p.n_roots += 1
    else:
        p.s0 = shanten_of(p, c, p.w0)
        if init_maps(p) != 0:
            return p.status
        p.n_roots = 1
        p.root_kind[0] = -1
        pack(c, p.w0, d if exact else NULL, key)
        p.root_id[0] = get13(p, key, c, p.w0, d, 0, p.s0, 0)
    i = 0
    while i < p.n13.n and p.status == STATUS_OK:
        expand13(p, i)
        i += 1
    return p.status


# ---------------------------------------------------------------------------------------
# the recursion
cdef inline void vzero(double* v) noexcept nogil:
    v[0] = 0.0
    v[1] = 0.0
    v[2] = 0.0
    v[3] = 0.0
    v[4] = 0.0
    v[5] = 0.0


cdef inline void vaxpy(double* acc, double a, const double* x) noexcept nogil:
    acc[0] += a * x[0]
    acc[1] += a * x[1]
    acc[2] += a * x[2]
    acc[3] += a * x[3]
    acc[4] += a * x[4]
    acc[5] += a * x[5]


cdef inline double tol_of(double a, double b) noexcept nogil:
    a = fabs(a)
    b = fabs(b)
    return TOL * (1.0 + (a if a > b else b))


cdef inline bint take_win(double win, double cont) noexcept nogil:
    """Win rather than play on (ties go to the win)."""
    return win >= cont - tol_of(win, cont)


cdef inline int32_t choose_cont(double cev, int32_t cch, int cj, double tev, int32_t ts, int k,
                                double* cont) noexcept nogil:
    """The 13-tile state chosen after a draw that is not won: the 14-tile hand's best followed
    discard (``cch``, of kind ``cj``, value ``cev``; -1: none) or throwing the drawn tile back
    (``ts``, value ``tev``; -1: not possible).  Ties go to the lower kind."""
    cdef double t
    if cch < 0:
        cont[0] = tev if ts >= 0 else 0.0
        return ts
    if ts < 0:
        cont[0] = cev
        return cch
    t = tol_of(cev, tev)
    if tev > cev + t:
        cont[0] = tev
        return ts
    if cev > tev + t:
        cont[0] = cev
        return cch
    if k < cj:
        cont[0] = tev
        return ts
    cont[0] = cev
    return cch


cdef inline void best_discard(const Prob* p, const N14* g, const double* V, int NF, int f,
                              int32_t* ch, int8_t* kind_out) noexcept nogil:
    """Best followed discard of a 14-tile hand: in kind order, a discard replaces the one kept
    only when it is worth more beyond the tolerance (so ties keep the lower kind)."""
    cdef int i
    cdef double best = 0.0, x
    cdef const Disc* dd = (<const Disc*>p.discs.p) + g.d0
    ch[0] = -1
    kind_out[0] = -1
    for i in range(g.nd):
        x = V[(<int64_t>dd[i].child * NF + f) * NV]
        if ch[0] < 0 or x > best + tol_of(best, x):
            best = x
            ch[0] = dd[i].child
            kind_out[0] = dd[i].j


cdef inline double draw_prob(const Prob* p, int t, int a_held, int rnon, int racc, bint acc) noexcept nogil:
    """Probability per copy of a draw at turn t + 1 (t draws made) from a state holding
    ``a_held`` drawn tiles, with ``rnon`` / ``racc`` copies of the kinds it does not / does accept
    (APPROX: the t - a_held tiles drawn and thrown back are taken from the kinds not accepted
    first)."""
    cdef int m, den
    if p.mode == MODE_RETURNED:
        return 1.0 / p.S_ret
    den = p.S0 - t
    if den <= 0:
        return 0.0
    if p.mode == MODE_EXACT:
        return 1.0 / den
    m = t - a_held
    if m <= 0:
        return 1.0 / den
    if rnon >= m:
        return (1.0 / den) if acc else (<double>(rnon - m)) / rnon / den
    if acc:
        return (<double>(racc - (m - rnon))) / racc / den
    return 0.0


cdef inline double draw_factor(const Prob* p, const N13* n, int t, bint acc) noexcept nogil:
    """:func:`draw_prob` of state n."""
    return draw_prob(p, t, n.a_held, n.rnon, n.racc, acc)


cdef inline double* win_vals(const Prob* p, int32_t q, int f, int a) noexcept nogil:
    return p.wv + ((<int64_t>q * (p.F0 + 1) + f) * 2 + a) * 3


cdef inline bint win_legal(const Prob* p, int32_t q, int f, int a) noexcept nogil:
    return p.legal[(<int64_t>q * (p.F0 + 1) + f) * 2 + a] != 0


cdef inline void round_step(const Prob* p, const N13* n, int t, int f, double* V,
                            int turns) noexcept nogil:
    """The opponents' turns after a discard: each unseen copy of a legal discard win is thrown
    with probability hz[t] per opponent turn; a thrown one is won when that is worth more."""
    cdef int _turn, x, r, C = 0
    cdef double q = p.hz[t], poff, pk
    cdef double acc[NV]
    cdef double dv[NV]
    cdef const DQ* e = (<const DQ*>p.dqs.p) + n.q0
    cdef double* wv
    if not p.dw or n.s != 0 or n.nq == 0 or q <= 0.0 or turns <= 0:
        return
    for x in range(n.nq):
        if win_legal(p, e[x].q, f, 0):
            r = e[x].r
            if r > 0:
                C += r
    if C == 0:
        return
    poff = p.poff[t * MAX_C + C] if C < MAX_C else 1.0 - pow(1.0 - q, C)
    for _turn in range(turns):
        vzero(acc)
        vaxpy(acc, 1.0 - poff, V)
        for x in range(n.nq):
            if not win_legal(p, e[x].q, f, 0):
                continue
            r = e[x].r
            if r <= 0:
                continue
            pk = poff * r / C
            wv = win_vals(p, e[x].q, f, 0)
            if take_win(wv[0], V[0]):
                dv[0] = wv[0]
                dv[1] = 0.0
                dv[2] = 1.0
                dv[3] = 1.0
                dv[4] = wv[1]
                dv[5] = wv[2]
                vaxpy(acc, pk, dv)
            else:
                vaxpy(acc, pk, V)
        memcpy(V, acc, NV * sizeof(double))


cdef inline bint relevant13(const Prob* p, const N13* n, int t) noexcept nogil:
    if p.mode == MODE_EXACT:
        return n.layer == t
    return n.layer <= t


cdef inline int64_t vidx(const Prob* p, int t, int64_t node, int64_t nn) noexcept nogil:
    """Row of the kept tables for (layer, state)."""
    if p.mode == MODE_EXACT:
        return node
    return t * nn + node


cdef void flower_law(Prob* p) noexcept nogil:
    """PF[t][f][g]: P(g flowers, then a playable tile) at the draw after t playable draws with
    f flowers drawn."""
    cdef int t, f, g, Snf, NF = p.F0 + 1
    cdef double pr
    for t in range(p.T):
        Snf = p.S_ret if p.mode == MODE_RETURNED else p.S0 - t
        for f in range(NF):
            for g in range(NF):
                p.PF[(t * NF + f) * NF + g] = 0.0
            if Snf <= 0:
                continue
            pr = 1.0
            for g in range(NF - f):
                p.PF[(t * NF + f) * NF + g] = pr * Snf / (Snf + p.F0 - f - g)
                pr *= (<double>(p.F0 - f - g)) / (Snf + p.F0 - f - g)


cdef inline void edge_sum(const Prob* p, const N13* n, int64_t h, const double* Vn, const int32_t* Cch,
                          const int8_t* Cj, int NF, int f1, int a, double fa, double fn, double nfw,
                          double* acc6) noexcept nogil:
    """Sum over the draws of state n (flowers f1 held, ``a``: the tile replaced a flower) of the
    probability times the value of the best answer to the draw."""
    cdef int64_t ei
    cdef const Edge* e
    cdef double wfac, cont
    cdef double wvec[NV]
    cdef int32_t ch, tgt
    cdef const double* wv
    vzero(acc6)
    for ei in range(n.e0, n.e0 + n.ne):
        e = (<const Edge*>p.edges.p) + ei
        wfac = e.r * (fa if e.acc else fn)
        if wfac <= 0.0:
            continue
        if e.g >= 0:
            ch = Cch[<int64_t>e.g * NF + f1]
            tgt = choose_cont(Vn[(<int64_t>ch * NF + f1) * NV] if ch >= 0 else 0.0, ch,
                              Cj[<int64_t>e.g * NF + f1],
                              Vn[(<int64_t>e.ts * NF + f1) * NV] if e.ts >= 0 else 0.0,
                              e.ts, e.k, &cont)
        else:
            tgt = e.ts
            cont = Vn[(<int64_t>tgt * NF + f1) * NV]
        if e.q >= 0 and p.legal[(<int64_t>e.q * NF + f1) * 2 + a]:
            wv = p.wv + ((<int64_t>e.q * NF + f1) * 2 + a) * 3
            if take_win(wv[0], cont):
                wvec[0] = wv[0]
                wvec[1] = 1.0
                wvec[2] = 0.0
                wvec[3] = 1.0
                wvec[4] = wv[1]
                wvec[5] = wv[2]
                vaxpy(acc6, wfac, wvec)
                continue
        if tgt >= 0:
            vaxpy(acc6, wfac, Vn + (<int64_t>tgt * NF + f1) * NV)
    if nfw > 0.0:
        vaxpy(acc6, nfw, Vn + (h * NF + f1) * NV)

cdef int solve_graph(Prob* p) noexcept nogil:
    cdef int64_t n13 = p.n13.n, n14 = p.n14.n, h, gi, x
    cdef int NF = p.F0 + 1, t, f, f1
    cdef bint exact = p.mode == MODE_EXACT
    cdef double* Vbuf = NULL
    cdef double* Vc
    cdef double* Vn
    cdef int32_t* Cch = NULL
    cdef int8_t* Cj = NULL
    cdef double* Abuf = NULL
    cdef double* D = NULL
    cdef double pf, nfw, fa, fn
    cdef N13* n
    cdef N14* g
    cdef int64_t nv = (<int64_t>n13) * NF * NV
    cdef int64_t lo, hi, li
    Vbuf = <double*>calloc(nv * (1 if exact else 2) + 1, sizeof(double))
    Cch = <int32_t*>malloc((n14 * NF + 1) * sizeof(int32_t))
    Cj = <int8_t*>malloc((n14 * NF + 1) * sizeof(int8_t))
    Abuf = <double*>malloc(2 * NF * NV * sizeof(double))
    D = <double*>malloc(NF * NV * sizeof(double))
    if p.T > 0:
        p.PF = <double*>malloc(p.T * NF * NF * sizeof(double))
    if Vbuf == NULL or Cch == NULL or Cj == NULL or Abuf == NULL or D == NULL or (p.T > 0 and p.PF == NULL):
        free(Vbuf)
        free(Cch)
        free(Cj)
        free(Abuf)
        free(D)
        return STATUS_MEMORY
    if p.T > 0:
        flower_law(p)
    if p.keep:
        x = (1 if exact else (p.T + 1))
        p.kV = <double*>calloc(x * n13 * NF + 1, sizeof(double))
        p.kD = <double*>calloc(x * n13 * NF + 1, sizeof(double))
        p.kC = <int32_t*>malloc((x * n14 * NF + 1) * sizeof(int32_t))
        p.kJ = <int8_t*>malloc((x * n14 * NF + 1) * sizeof(int8_t))
        if p.kV == NULL or p.kD == NULL or p.kC == NULL or p.kJ == NULL:
            free(Vbuf)
            free(Cch)
            free(Cj)
            free(Abuf)
            free(D)
            return STATUS_MEMORY
        for x in range((1 if exact else (p.T + 1)) * n14 * NF):
            p.kC[x] = -1
            p.kJ[x] = -1
    for t in range(p.T, -1, -1):
        if exact:
            Vc = Vbuf
            Vn = Vbuf
        else:
            Vc = Vbuf + (t & 1) * nv
            Vn = Vbuf + ((t + 1) & 1) * nv
        if t < p.T:
            # best discard of every 14-tile hand at layer t + 1
            if exact:
                lo = p.layer_off14[t + 1]
                hi = p.layer_off14[t + 2]
            else:
                lo = 0
                hi = n14
            for li in range(lo, hi):
                gi = p.by_layer14[li] if exact else li
                g = node14(p, gi)
                if not exact and g.layer > t + 1:
                    continue
                for f in range(NF):
                    best_discard(p, g, Vn, NF, f, &Cch[gi * NF + f], &Cj[gi * NF + f])
                    if p.keep:
                        p.kC[vidx(p, t + 1, gi, n14) * NF + f] = Cch[gi * NF + f]
                        p.kJ[vidx(p, t + 1, gi, n14) * NF + f] = Cj[gi * NF + f]
        if exact:
            lo = p.layer_off[t]
            hi = p.layer_off[t + 1]
        else:
            lo = 0
            hi = n13
        for li in range(lo, hi):
            h = p.by_layer[li] if exact else li
            n = node13(p, h)
            if not relevant13(p, n, t):
                continue
            for f in range(NF):
                vzero(D + f * NV)
            if t < p.T and n.expanded:
                fa = draw_factor(p, n, t, True)
                fn = draw_factor(p, n, t, False)
                nfw = n.nf_r * fn if not exact else 0.0
                if NF == 1:
                    edge_sum(p, n, h, Vn, Cch, Cj, 1, 0, 0, fa, fn, nfw, D)
                else:
                    for f1 in range(NF):
                        edge_sum(p, n, h, Vn, Cch, Cj, NF, f1, 0, fa, fn, nfw, Abuf + f1 * NV)
                        if f1 >= 1:
                            edge_sum(p, n, h, Vn, Cch, Cj, NF, f1, 1, fa, fn, nfw, Abuf + (NF + f1) * NV)
                    for f in range(NF):
                        for f1 in range(f, NF):
                            pf = p.PF[(t * NF + f) * NF + (f1 - f)]
                            if pf > 0.0:
                                vaxpy(D + f * NV, pf, Abuf + ((1 if f1 > f else 0) * NF + f1) * NV)
            for f in range(NF):
                memcpy(Vc + (h * NF + f) * NV, D + f * NV, NV * sizeof(double))
                if p.keep:
                    p.kD[vidx(p, t, h, n13) * NF + f] = D[f * NV]
                round_step(p, n, t, f, Vc + (h * NF + f) * NV, p.hz_turns[t])
                if n.s == 0:
                    Vc[(h * NF + f) * NV + 3] = 1.0
                if p.keep:
                    p.kV[vidx(p, t, h, n13) * NF + f] = Vc[(h * NF + f) * NV]
    Vc = Vbuf
    for x in range(p.n_roots):
        memcpy(p.res + x * NV, Vc + (<int64_t>p.root_id[x] * NF) * NV, NV * sizeof(double))
    free(Vbuf)
    free(Cch)
    free(Cj)
    free(Abuf)
    free(D)
    p.solved = True
    return STATUS_OK


cdef int reach_counts(Prob* p, int64_t* counts) noexcept nogil:
    """States reachable from each root (bit r of a state's mask: reachable from root r).

    The masks are propagated in sweeps over the 13-tile states in index order: the states are
    created breadth first, so most edges point forward and a sweep settles them; a state whose
    mask grows after its turn in the sweep (a back edge) is left dirty for the next sweep."""
    cdef int64_t n13 = p.n13.n, n14 = p.n14.n, h, ei, x
    cdef uint64_t* m13 = <uint64_t*>calloc(n13 + 1, sizeof(uint64_t))
    cdef uint64_t* m14 = <uint64_t*>calloc(n14 + 1, sizeof(uint64_t))
    cdef uint8_t* dirty = <uint8_t*>calloc(n13 + 1, 1)
    cdef uint64_t m, b
    cdef int r
    cdef bint again = True
    cdef const Edge* e
    cdef const N13* n
    cdef const N14* g
    cdef const Disc* dd
    cdef int32_t ch
    if m13 == NULL or m14 == NULL or dirty == NULL:
        free(m13)
        free(m14)
        free(dirty)
        return STATUS_MEMORY
    for r in range(p.n_roots):
        h = p.root_id[r]
        m13[h] |= (<uint64_t>1) << r
        dirty[h] = 1
    while again:
        again = False
        for h in range(n13):
            if not dirty[h]:
                continue
            dirty[h] = 0
            m = m13[h]
            n = node13(p, h)
            for ei in range(n.e0, n.e0 + n.ne):
                e = edge(p, ei)
                if e.ts >= 0 and (m13[e.ts] | m) != m13[e.ts]:
                    m13[e.ts] |= m
                    dirty[e.ts] = 1
                    again = again or e.ts <= h
                if e.g >= 0 and (m14[e.g] | m) != m14[e.g]:
                    m14[e.g] |= m
                    g = node14(p, e.g)
                    dd = (<const Disc*>p.discs.p) + g.d0
                    for x in range(g.nd):
                        ch = dd[x].child
                        if (m13[ch] | m) != m13[ch]:
                            m13[ch] |= m
                            dirty[ch] = 1
                            again = again or ch <= h
    for r in range(p.n_roots):
        counts[r] = 0
    for h in range(n13):
        b = m13[h]
        while b:
            counts[ctz64(b)] += 1
            b &= b - 1
    for h in range(n14):
        b = m14[h]
        while b:
            counts[ctz64(b)] += 1
            b &= b - 1
    free(m13)
    free(m14)
    free(dirty)
    return STATUS_OK


cdef int sort_layers(Prob* p) noexcept nogil:
    """EXACT: the states of each layer (13- and 14-tile), for the layer loops."""
    cdef int64_t i
    cdef int L = p.T + 2, t
    cdef int32_t* fill
    p.layer_off = <int32_t*>calloc(L + 1, sizeof(int32_t))
    p.layer_off14 = <int32_t*>calloc(L + 1, sizeof(int32_t))
    p.by_layer = <int32_t*>malloc((p.n13.n + 1) * sizeof(int32_t))
    p.by_layer14 = <int32_t*>malloc((p.n14.n + 1) * sizeof(int32_t))
    if p.layer_off == NULL or p.layer_off14 == NULL or p.by_layer == NULL or p.by_layer14 == NULL:
        return STATUS_MEMORY
    for i in range(p.n13.n):
        p.layer_off[node13(p, i).layer + 1] += 1
    for i in range(p.n14.n):
        p.layer_off14[node14(p, i).layer + 1] += 1
    for t in range(L):
        p.layer_off[t + 1] += p.layer_off[t]
        p.layer_off14[t + 1] += p.layer_off14[t]
    fill = <int32_t*>calloc(L + 1, sizeof(int32_t))
    if fill == NULL:
        return STATUS_MEMORY
    for i in range(p.n13.n):
        t = node13(p, i).layer
        p.by_layer[p.layer_off[t] + fill[t]] = <int32_t>i
        fill[t] += 1
    memset(fill, 0, (L + 1) * sizeof(int32_t))
    for i in range(p.n14.n):
        t = node14(p, i).layer
        p.by_layer14[p.layer_off14[t] + fill[t]] = <int32_t>i
        fill[t] += 1
    free(fill)
    return STATUS_OK


# ---------------------------------------------------------------------------------------
# the recursion when every win is worth 1 and no discard win is modelled (no rule, the
# default of the riichi-style question): pay, P(self-draw), total and points are then the same
# number at every state and P(discard win) is 0, so two figures per state carry all six.  The
# operations on the two figures kept are those of solve_graph, in the same order.
ctypedef struct Hot13:
    int32_t e0
    int32_t ne
    int32_t nf_r
    int32_t a_held
    int32_t racc
    int32_t rnon
    int16_t layer
    int8_t s
    uint8_t expanded


ctypedef struct Pick:
    int32_t ch              # chosen child (-1: none)
    int32_t j               # its discarded kind


cdef inline double draw_factor_hot(const Prob* p, const Hot13* n, int t, bint acc) noexcept nogil:
    """:func:`draw_prob` of the solve's copy of a state's fields."""
    return draw_prob(p, t, n.a_held, n.rnon, n.racc, acc)


cdef bint unit_applies(const Prob* p) noexcept nogil:
    """solve_unit applies: unit wins, no discard wins, no flowers, nothing kept, a wall model
    whose states are (hand, turn), and states numbered in layer order (breadth first)."""
    cdef int64_t i
    if not p.unit_wins or p.dw or p.F0 != 0 or p.keep or p.mode == MODE_EXACT:
        return False
    for i in range(1, p.n13.n):
        if node13(<Prob*>p, i).layer < node13(<Prob*>p, i - 1).layer:
            return False
    for i in range(1, p.n14.n):
        if node14(<Prob*>p, i).layer < node14(<Prob*>p, i - 1).layer:
            return False
    return True


cdef int solve_unit_in(Prob* p, double* V, Hot13* hot, Pick* pick, int32_t* multi, int32_t* mdisc, int32_t* mnd,
                       int64_t* end13, int64_t* endm) noexcept nogil:
    """:func:`solve_unit`'s recursion in the arrays it allocated."""
    cdef int64_t n13 = p.n13.n, n14 = p.n14.n, h, i, x, lim13, lim14, nmulti = 0
    cdef int t, T = p.T, ti
    cdef double* Vc
    cdef double* Vn
    cdef const N13* n
    cdef const N14* g
    cdef Hot13* hh
    cdef const Edge* e
    cdef const Edge* e_end
    cdef const Disc* dd
    cdef double fa, fn, nfw, wfac, cont, d0, d1, best, v, vh
    cdef int32_t tgt, ch
    cdef int nd, k
    for h in range(n13):
        n = node13(p, h)
        hot[h].e0 = n.e0
        hot[h].ne = n.ne
        hot[h].nf_r = n.nf_r
        hot[h].a_held = n.a_held
        hot[h].racc = n.racc
        hot[h].rnon = n.rnon
        hot[h].layer = n.layer
        hot[h].s = n.s
        hot[h].expanded = n.expanded
    # a 14-tile hand with at most one followed discard always makes the same choice
    # (best_discard keeps the first); the others are evaluated every turn, in layer order
    for i in range(n14):
        g = node14(p, i)
        if g.nd == 0:
            pick[i].ch = -1
            pick[i].j = -1
        elif g.nd == 1:
            dd = (<const Disc*>p.discs.p) + g.d0
            pick[i].ch = dd[0].child
            pick[i].j = dd[0].j
        else:
            multi[nmulti] = <int32_t>i
            mdisc[nmulti] = g.d0
            mnd[nmulti] = g.nd
            nmulti += 1
    # end13[t]: the states of layer <= t are 0 .. end13[t] - 1; endm[t]: the same in multi
    lim13 = 0
    lim14 = 0
    for ti in range(T + 2):
        while lim13 < n13 and hot[lim13].layer <= ti:
            lim13 += 1
        while lim14 < nmulti and node14(p, multi[lim14]).layer <= ti:
            lim14 += 1
        end13[ti] = lim13
        endm[ti] = lim14
    for t in range(T, -1, -1):
        Vc = V + (t & 1) * 2 * n13
        Vn = V + ((t + 1) & 1) * 2 * n13
        if t < T:
            # best discard of every 14-tile hand at layer <= t + 1 with a choice to make
            for x in range(endm[t + 1]):
                dd = (<const Disc*>p.discs.p) + mdisc[x]
                ch = dd[0].child
                k = dd[0].j
                best = Vn[2 * <int64_t>ch]
                for nd in range(1, mnd[x]):
                    v = Vn[2 * <int64_t>dd[nd].child]
                    if v > best + tol_of(best, v):
                        best = v
                        ch = dd[nd].child
                        k = dd[nd].j
                pick[multi[x]].ch = ch
                pick[multi[x]].j = k
        for h in range(end13[t]):
            hh = hot + h
            d0 = 0.0
            d1 = 0.0
            if t < T and hh.expanded:
                fa = draw_factor_hot(p, hh, t, True)
                fn = draw_factor_hot(p, hh, t, False)
                nfw = hh.nf_r * fn
                vh = Vn[2 * h]
                e = (<const Edge*>p.edges.p) + hh.e0
                e_end = e + hh.ne
                while e < e_end:
                    wfac = e.r * (fa if e.acc else fn)
                    if wfac <= 0.0:
                        e += 1
                        continue
                    if e.g >= 0:
                        ch = pick[e.g].ch
                        # the drawn tile thrown back leads to this state itself (the wall
                        # models here keep no drawn tiles in the state)
                        tgt = choose_cont(Vn[2 * <int64_t>ch] if ch >= 0 else 0.0, ch, pick[e.g].j,
                                          (vh if e.ts == h else Vn[2 * <int64_t>e.ts]) if e.ts >= 0 else 0.0,
                                          e.ts, e.k, &cont)
                    else:
                        tgt = e.ts
                        cont = Vn[2 * <int64_t>tgt]
                    if e.q >= 0 and take_win(1.0, cont):
                        d0 += wfac * 1.0
                        d1 += wfac * 1.0
                    elif tgt >= 0:
                        d0 += wfac * Vn[2 * <int64_t>tgt]
                        d1 += wfac * Vn[2 * <int64_t>tgt + 1]
                    e += 1
                if nfw > 0.0:
                    d0 += nfw * Vn[2 * h]
                    d1 += nfw * Vn[2 * h + 1]
            Vc[2 * h] = d0
            Vc[2 * h + 1] = 1.0 if hh.s == 0 else d1
    for x in range(p.n_roots):
        h = p.root_id[x]
        p.res[x * NV + 0] = V[2 * h]
        p.res[x * NV + 1] = V[2 * h]
        p.res[x * NV + 2] = 0.0
        p.res[x * NV + 3] = V[2 * h + 1]
        p.res[x * NV + 4] = V[2 * h]
        p.res[x * NV + 5] = V[2 * h]
    p.solved = True
    return STATUS_OK


cdef int solve_unit(Prob* p) noexcept nogil:
    """The recursion where :func:`unit_applies`: every win worth 1 and no discard win, so that a
    state carries two figures (the win and the ready chance) instead of six."""
    cdef int64_t n13 = p.n13.n, n14 = p.n14.n
    cdef int T = p.T
    cdef double* V = <double*>calloc(4 * n13 + 2, sizeof(double))
    cdef Hot13* hot = <Hot13*>malloc((n13 + 1) * sizeof(Hot13))
    cdef Pick* pick = <Pick*>malloc((n14 + 1) * sizeof(Pick))
    cdef int32_t* multi = <int32_t*>malloc((n14 + 1) * sizeof(int32_t))
    cdef int32_t* mdisc = <int32_t*>malloc((n14 + 1) * sizeof(int32_t))
    cdef int32_t* mnd = <int32_t*>malloc((n14 + 1) * sizeof(int32_t))
    cdef int64_t* end13 = <int64_t*>calloc(T + 3, sizeof(int64_t))
    cdef int64_t* endm = <int64_t*>calloc(T + 3, sizeof(int64_t))
    cdef int status = STATUS_MEMORY
    if V != NULL and hot != NULL and pick != NULL and multi != NULL and end13 != NULL and endm != NULL \
            and mdisc != NULL and mnd != NULL:
        status = solve_unit_in(p, V, hot, pick, multi, mdisc, mnd, end13, endm)
    free(V)
    free(hot)
    free(pick)
    free(multi)
    free(mdisc)
    free(mnd)
    free(end13)
    free(endm)
    return status


cdef int solve_prob(Prob* p) noexcept nogil:
    cdef int st
    if p.mode == MODE_EXACT and p.by_layer == NULL:
        st = sort_layers(p)
        if st != STATUS_OK:
            return st
    if unit_applies(p):
        return solve_unit(p)
    return solve_graph(p)


# ---------------------------------------------------------------------------------------
# decisions under kept tables (forward pass and play)
cdef inline int32_t kept_choice(Prob* p, const Edge* e, int t1, int f1, int a, int* won) noexcept nogil:
    """The recursion's choice after drawing along edge e at draw t1 (1..T) with f1 flowers
    drawn and ``a`` = the tile replaced a flower: ``won[0] = 1`` for a win, else the 13-tile
    state moved to (-1: none, a dead end)."""
    cdef int NF = p.F0 + 1
    cdef int64_t n13 = p.n13.n, n14 = p.n14.n
    cdef int32_t ch = -1, tgt
    cdef int cj = -1
    cdef double cont, cev = 0.0, tev = 0.0
    cdef double* wv
    if e.g >= 0:
        ch = p.kC[vidx(p, t1, e.g, n14) * NF + f1]
        cj = p.kJ[vidx(p, t1, e.g, n14) * NF + f1]
        if ch >= 0:
            cev = p.kV[vidx(p, t1, ch, n13) * NF + f1]
        if e.ts >= 0:
            tev = p.kV[vidx(p, t1, e.ts, n13) * NF + f1]
        tgt = choose_cont(cev, ch, cj, tev, e.ts, e.k, &cont)
    else:
        tgt = e.ts
        cont = p.kV[vidx(p, t1, tgt, n13) * NF + f1]
    won[0] = 0
    if e.q >= 0 and win_legal(p, e.q, f1, a):
        wv = win_vals(p, e.q, f1, a)
        if take_win(wv[0], cont):
            won[0] = 1
    return tgt


cdef inline double round_value(const Prob* p, const N13* n, int f, int C, double poff,
                               double U) noexcept nogil:
    """One opponent turn applied to a continuation value (pay only), as in round_step."""
    cdef int x, r
    cdef double out = (1.0 - poff) * U, pk
    cdef const DQ* e = (<const DQ*>p.dqs.p) + n.q0
    cdef double* wv
    for x in range(n.nq):
        if not win_legal(p, e[x].q, f, 0):
            continue
        r = e[x].r
        if r <= 0:
            continue
        pk = poff * r / C
        wv = win_vals(p, e[x].q, f, 0)
        out += pk * (wv[0] if take_win(wv[0], U) else U)
    return out


cdef void forward(Prob* p, int root, double* out) noexcept nogil:
    """Figures by turn (non-cumulative, [T + 1][NV]) from one root under the kept choices;
    ``out`` must be zeroed.  NV index 3 is P(first ready at that turn)."""
    cdef int64_t n13 = p.n13.n, h, ei, lo, hi, li
    cdef int NF = p.F0 + 1, t, f, f1, a, x, r, C, won, i, turns
    cdef bint exact = p.mode == MODE_EXACT
    cdef int64_t sz = n13 * NF
    cdef double* mu = <double*>calloc(2 * sz + 1, sizeof(double))
    cdef double* nu = <double*>calloc(2 * sz + 1, sizeof(double))
    cdef double* muc
    cdef double* mun
    cdef double* nuc
    cdef double* nun
    cdef double m, v, pf, wfac, q, poff, rho, acc_p, pk, nfw
    cdef double U[4]
    cdef N13* n
    cdef Edge* e
    cdef const DQ* dd
    cdef double* wv
    cdef int32_t tgt
    if mu == NULL or nu == NULL:
        free(mu)
        free(nu)
        return
    mu[<int64_t>p.root_id[root] * NF] = 1.0
    nu[<int64_t>p.root_id[root] * NF] = 1.0
    for t in range(p.T + 1):
        if exact:
            muc = mu
            mun = mu
            nuc = nu
            nun = nu
            lo = p.layer_off[t]
            hi = p.layer_off[t + 1]
        else:
            muc = mu + (t & 1) * sz
            mun = mu + ((t + 1) & 1) * sz
            nuc = nu + (t & 1) * sz
            nun = nu + ((t + 1) & 1) * sz
            lo = 0
            hi = n13
        for li in range(lo, hi):
            h = p.by_layer[li] if exact else li
            n = node13(p, h)
            if not relevant13(p, n, t):
                continue
            for f in range(NF):
                m = muc[h * NF + f]
                v = nuc[h * NF + f]
                if m == 0.0 and v == 0.0:
                    continue
                muc[h * NF + f] = 0.0
                nuc[h * NF + f] = 0.0
                if n.s == 0 and v > 0.0:
                    out[t * NV + 3] += v
                    v = 0.0
                # the opponents' round
                turns = p.hz_turns[t]
                q = p.hz[t]
                if p.dw and n.s == 0 and n.nq > 0 and q > 0.0 and turns > 0 and m > 0.0:
                    dd = (<const DQ*>p.dqs.p) + n.q0
                    C = 0
                    for x in range(n.nq):
                        if win_legal(p, dd[x].q, f, 0):
                            r = dd[x].r
                            if r > 0:
                                C += r
                    if C > 0:
                        poff = p.poff[t * MAX_C + C] if C < MAX_C else 1.0 - pow(1.0 - q, C)
                        # continuation after opponent turn i (U[turns] = the draw phase)
                        U[turns] = p.kD[vidx(p, t, h, n13) * NF + f]
                        for i in range(turns - 1, 0, -1):
                            U[i] = round_value(p, n, f, C, poff, U[i + 1])
                        rho = 1.0
                        for i in range(1, turns + 1):
                            acc_p = 0.0
                            for x in range(n.nq):
                                if not win_legal(p, dd[x].q, f, 0):
                                    continue
                                r = dd[x].r
                                if r <= 0:
                                    continue
                                wv = win_vals(p, dd[x].q, f, 0)
                                if take_win(wv[0], U[i]):
                                    pk = poff * r / C
                                    acc_p += pk
                                    out[t * NV + 0] += m * rho * pk * wv[0]
                                    out[t * NV + 2] += m * rho * pk
                                    out[t * NV + 4] += m * rho * pk * wv[1]
                                    out[t * NV + 5] += m * rho * pk * wv[2]
                            rho *= 1.0 - acc_p
                        m *= rho
                if t >= p.T or not n.expanded:
                    continue
                nfw = n.nf_r * draw_factor(p, n, t, False) if not exact else 0.0
                for f1 in range(f, NF):
                    pf = p.PF[(t * NF + f) * NF + (f1 - f)]
                    if pf <= 0.0:
                        continue
                    a = 1 if f1 > f else 0
                    for ei in range(n.e0, n.e0 + n.ne):
                        e = edge(p, ei)
                        wfac = e.r * draw_factor(p, n, t, e.acc) * pf
                        if wfac <= 0.0:
                            continue
                        tgt = kept_choice(p, e, t + 1, f1, a, &won)
                        if won:
                            wv = win_vals(p, e.q, f1, a)
                            out[(t + 1) * NV + 0] += m * wfac * wv[0]
                            out[(t + 1) * NV + 1] += m * wfac
                            out[(t + 1) * NV + 3] += v * wfac
                            out[(t + 1) * NV + 4] += m * wfac * wv[1]
                            out[(t + 1) * NV + 5] += m * wfac * wv[2]
                        elif tgt >= 0:
                            mun[<int64_t>tgt * NF + f1] += m * wfac
                            nun[<int64_t>tgt * NF + f1] += v * wfac
                    if nfw > 0.0:
                        mun[h * NF + f1] += m * nfw * pf
                        nun[h * NF + f1] += v * nfw * pf
    free(mu)
    free(nu)


# ---------------------------------------------------------------------------------------
# play on a real wall


cdef void play_chunk(Prob* p, bitgen_t* rng, const int8_t* wall0, int n_wall, int root, int n_games,
                     int32_t* ready_hist, int32_t* win_hist, int32_t* win_turn, int32_t* win_state) noexcept nogil:
    """``n_games`` hands played by the kept choices on one stream (self-draw wins only)."""
    cdef int8_t wall[MAX_WALL]
    cdef int gme, t, tile, fpos, bpos, ready, won, nfl, after, w
    cdef int32_t node, tgt
    cdef int64_t ei
    cdef N13* n
    cdef Edge* e
    cdef int NF = p.F0 + 1
    memcpy(wall, wall0, n_wall)
    for gme in range(n_games):
        node = p.root_id[root]
        fpos = 0
        bpos = n_wall - 1
        ready = 0 if node13(p, node).s == 0 else -1
        won = -1
        nfl = 0
        win_state[gme] = -1
        for t in range(p.T):
            tile = draw_front(rng, wall, &fpos, &bpos)
            after = 0
            while tile == FLOWER:
                nfl += 1
                after = 1
                tile = draw_back(rng, wall, &fpos, &bpos)
            if tile < 0:
                break
            n = node13(p, node)
            e = NULL
            for ei in range(n.e0, n.e0 + n.ne):
                if edge(p, ei).k == tile:
                    e = edge(p, ei)
                    break
            if e == NULL:
                continue                    # not followed: the drawn tile goes back at once
            tgt = kept_choice(p, e, t + 1, nfl, after, &w)
            if w:
                won = t + 1
                if ready < 0:
                    ready = t + 1
                win_state[gme] = (e.q * NF + nfl) * 2 + after
                break
            if tgt < 0:
                break
            node = tgt
            if ready < 0 and node13(p, node).s == 0:
                ready = t + 1
        ready_hist[ready if ready >= 0 else p.T + 1] += 1
        win_hist[won if won >= 0 else p.T + 1] += 1
        win_turn[gme] = won


# ---------------------------------------------------------------------------------------
# Python interface
cdef class ValueProblem:
    """One hand's draw graph and recursion (see the module docstring).

    Parameters
    ----------
    counts : uint8[34]        # IN the starting hand's concealed natural tiles (13- or 14-tile form)
    n_melds, wilds : int      # IN called melds; wildcards held
    cap, playable : uint8[34] # IN natural-copy limits (melds subtracted) and the playable mask
    forms, options : int      # IN the rule's form and option bits
    unseen : int16[35]        # IN copies not seen per kind; [34]: wildcard tokens
    returned_max : int16[35]  # IN RETURNED: cap - visible per kind; [34]: wildcard tiles not seen
    flowers : int             # IN unseen flowers (0..MAX_FLOWERS)
    start14 : bool            # IN the hand is about to discard (one root per distinct discard)
    mode : int                # IN RETURNED, APPROX or EXACT
    depth : int               # IN search bound (< 0: none)
    draws_left : int          # IN the horizon T
    discard_wins : bool       # IN model the opponents' discards
    max_states : int          # IN stop building beyond this many states (status BUDGET)
    root_mask : uint8[34]     # IN 14-tile form: the discards to root (default: every one); the
                              #    bound's reference shanten is still the whole hand's
    wins_final : bool         # IN every complete hand is a legal win worth at least any other
                              #    outcome (no rule: each win is worth 1), so it is always taken
    """
    cdef Prob* p

    def __cinit__(self, object counts, int n_melds, int wilds, object cap, object playable, int forms,
                  int options, object unseen, object returned_max, int flowers, bint start14, int mode,
                  int depth, int draws_left, bint discard_wins, long long max_states, object root_mask=None,
                  bint wins_final=False):
        cdef const uint8_t* rmask = NULL
        cdef const uint8_t* c = <const uint8_t*>array_n(counts, cnp.NPY_UINT8, 34, "counts")
        cdef const uint8_t* cp = <const uint8_t*>array_n(cap, cnp.NPY_UINT8, 34, "cap")
        cdef const uint8_t* pl = <const uint8_t*>array_n(playable, cnp.NPY_UINT8, 34, "playable")
        cdef const int16_t* u = <const int16_t*>array_n(unseen, cnp.NPY_INT16, 35, "unseen")
        cdef const int16_t* rm = <const int16_t*>array_n(returned_max, cnp.NPY_INT16, 35, "returned_max")
        cdef int k, n = wilds, S = 0, Sr = 0
        if mode not in (MODE_RETURNED, MODE_APPROX, MODE_EXACT):
            raise ValueError("mode must be RETURNED, APPROX or EXACT")
        if not 0 <= flowers <= MAX_F:
            raise ValueError(f"at most {MAX_F} unseen flowers are supported")
        if not 0 <= n_melds <= 4 or not 0 <= wilds <= 8:
            raise ValueError("n_melds must be 0..4 and wilds 0..8")
        for k in range(34):
            if c[k] > cp[k] or cp[k] > 4:
                raise ValueError("each count must be at most its cap (<= 4)")
            n += c[k]
        for k in range(35):
            if u[k] < 0 or rm[k] < 0:
                raise ValueError("unseen and returned_max must be >= 0")
            S += u[k]
        if n % 3 != (2 if start14 else 1) or n + 3 * n_melds > 14:
            raise ValueError("the hand must hold 3k+2 tiles (start14) or 3k+1 tiles, at most 14 with melds")
        if draws_left < 0 or draws_left > S or draws_left > MAX_WALL:
            raise ValueError(f"draws_left must be between 0 and the {S} unseen tiles")
        self.p = <Prob*>calloc(1, sizeof(Prob))
        if self.p == NULL:
            raise MemoryError()
        memcpy(self.p.h0, c, 34)
        self.p.w0 = wilds
        self.p.n_melds = n_melds
        params_init(&self.p.prm, cp, pl, forms, options)
        memcpy(self.p.U0, u, 35 * sizeof(int16_t))
        memcpy(self.p.rmax, rm, 35 * sizeof(int16_t))
        self.p.F0 = flowers
        self.p.S0 = S
        for k in range(34):
            Sr += rm[k] - c[k]
        Sr += rm[34] - wilds
        self.p.S_ret = Sr + (1 if start14 else 0)
        self.p.mode = mode
        self.p.depth = depth
        self.p.T = draws_left
        self.p.dw = discard_wins
        self.p.max_states = max_states
        self.p.start14 = start14
        self.p.wins_final = wins_final
        self.p.fused = (self.p.prm.all_natural and not (options & O_NEED_VOID) and wilds == 0 and u[34] == 0
                        and (forms & ~(F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS)) == 0)
        if root_mask is not None:
            rmask = <const uint8_t*>array_n(root_mask, cnp.NPY_UINT8, 34, "root_mask")
            memcpy(self.p.root_mask, rmask, 34)
        else:
            memset(self.p.root_mask, 1, 34)
        self.p.status = -1
        if mode == MODE_RETURNED and self.p.S_ret <= 0 and draws_left > 0:
            raise ValueError("no tile left to draw")

    def __dealloc__(self):
        cdef Prob* p = self.p
        if p == NULL:
            return
        arr_free(&p.n13)
        arr_free(&p.n14)
        arr_free(&p.edges)
        arr_free(&p.discs)
        arr_free(&p.dqs)
        arr_free(&p.queries)
        arr_free(&p.dc13)
        arr_free(&p.dc14)
        hm_free(&p.m13)
        hm_free(&p.m14)
        hm_free(&p.mq)
        hm_free(&p.ms)
        gm_free(&p.gm)
        free(p.by_layer)
        free(p.layer_off)
        free(p.by_layer14)
        free(p.layer_off14)
        free(p.legal)
        free(p.wv)
        free(p.hz)
        free(p.hz_turns)
        free(p.poff)
        free(p.PF)
        free(p.res)
        free(p.kV)
        free(p.kD)
        free(p.kC)
        free(p.kJ)
        free(p)

    def build(self):
        """Build the draw graph (no GIL); returns the status (0 ok, 1 over max_states, 2 memory)."""
        cdef int st
        if self.p.status != -1:
            raise ValueError("the graph is already built")
        with nogil:
            st = build_graph(self.p)
        return st

    @property
    def status(self):
        return self.p.status

    @property
    def n_states(self):
        """``(13-tile states, 14-tile states, draw edges)``."""
        return int(self.p.n13.n), int(self.p.n14.n), int(self.p.edges.n)

    @property
    def n_queries(self):
        """Number of wins to judge (the rows of :meth:`queries`)."""
        return int(self.p.queries.n)

    @property
    def start_shanten(self):
        return int(self.p.s0)

    @property
    def flowers(self):
        return int(self.p.F0)

    @property
    def draws_left(self):
        return int(self.p.T)

    def roots(self):
        """``(discarded kind or -1, state id, shanten)`` of each root, in kind order."""
        out = []
        for i in range(self.p.n_roots):
            out.append((int(self.p.root_kind[i]), int(self.p.root_id[i]),
                        int(node13(self.p, self.p.root_id[i]).s)))
        return out

    def queries(self):
        """Every win to judge: ``counts`` (n, 34) uint8 (the 14 tiles, the winning tile included
        when natural), ``wilds`` (n,), ``tile`` (n,) int8 (WILD_TOKEN for a drawn wildcard),
        ``self_draw`` (n,) bool."""
        cdef int64_t nq = self.p.queries.n, i
        cdef Query* q
        counts = np.zeros((nq, 34), np.uint8)
        wilds = np.zeros(nq, np.uint8)
        tile = np.zeros(nq, np.int8)
        sd = np.zeros(nq, np.bool_)
        cdef uint8_t[:, ::1] cv = counts
        cdef uint8_t[::1] wv = wilds
        cdef int8_t[::1] tv = tile
        for i in range(nq):
            q = (<Query*>self.p.queries.p) + i
            memcpy(&cv[i, 0], q.c, 34)
            wv[i] = q.w
            tv[i] = q.tile
            sd[i] = q.self_draw != 0
        return {"counts": counts, "wilds": wilds, "tile": tile, "self_draw": sd}

    def set_judgement(self, object legal, object values):
        """The caller's verdicts: ``legal`` (n, F + 1, 2) uint8 and ``values`` (n, F + 1, 2, 3)
        float64 = (pay, total, points), indexed [query][flowers drawn][won on a flower's
        replacement tile]."""
        cdef int64_t nq = self.p.queries.n, NF = self.p.F0 + 1
        cdef const uint8_t* lg = <const uint8_t*>array_n(legal, cnp.NPY_UINT8, nq * NF * 2, "legal")
        cdef const double* vv = <const double*>array_n(values, cnp.NPY_FLOAT64, nq * NF * 6, "values")
        free(self.p.legal)
        free(self.p.wv)
        self.p.legal = <uint8_t*>malloc(nq * NF * 2 + 1)
        self.p.wv = <double*>malloc((nq * NF * 6 + 1) * sizeof(double))
        if self.p.legal == NULL or self.p.wv == NULL:
            raise MemoryError()
        memcpy(self.p.legal, lg, nq * NF * 2)
        memcpy(self.p.wv, vv, nq * NF * 6 * sizeof(double))

    def prepare_solve(self, object hazard, object turns, bint keep):
        """Hazard per opponent turn and opponent turns per round (each T + 1 entries)."""
        cdef int T1 = self.p.T + 1, t, C
        cdef int64_t q
        cdef const double* hz = <const double*>array_n(hazard, cnp.NPY_FLOAT64, T1, "hazard")
        cdef const int8_t* tn = <const int8_t*>array_n(turns, cnp.NPY_INT8, T1, "turns")
        if self.p.status != STATUS_OK:
            raise ValueError("build the graph first")
        if self.p.legal == NULL and self.p.queries.n > 0:
            raise ValueError("judge the queries first")
        if self.p.legal == NULL:
            self.p.legal = <uint8_t*>malloc(1)
            self.p.wv = <double*>malloc(sizeof(double))
        if self.p.solved:
            raise ValueError("already solved")
        self.p.hz = <double*>malloc(T1 * sizeof(double))
        self.p.hz_turns = <int8_t*>malloc(T1)
        self.p.res = <double*>calloc(self.p.n_roots * NV + 1, sizeof(double))
        if self.p.hz == NULL or self.p.hz_turns == NULL or self.p.res == NULL:
            raise MemoryError()
        memcpy(self.p.hz, hz, T1 * sizeof(double))
        memcpy(self.p.hz_turns, tn, T1)
        self.p.unit_wins = self.p.wins_final
        for q in range(self.p.queries.n * (self.p.F0 + 1) * 2):
            if self.p.legal[q] != 1 or self.p.wv[3 * q] != 1.0 or self.p.wv[3 * q + 1] != 1.0 \
                    or self.p.wv[3 * q + 2] != 1.0:
                self.p.unit_wins = False
                break
        self.p.poff = <double*>malloc(T1 * MAX_C * sizeof(double))
        if self.p.poff == NULL:
            raise MemoryError()
        for t in range(T1):
            for C in range(MAX_C):
                self.p.poff[t * MAX_C + C] = 1.0 - pow(1.0 - hz[t], C)
        self.p.keep = keep

    def solve(self, object hazard, object turns, bint keep=False):
        """Run the recursion (no GIL); returns ``(n_roots, 6)`` float64 (:data:`FIGURES`)."""
        cdef int st
        self.prepare_solve(hazard, turns, keep)
        with nogil:
            st = solve_prob(self.p)
        if st != STATUS_OK:
            raise MemoryError("not enough memory for the recursion")
        return self.results()

    def results(self):
        cdef int i, j
        if not self.p.solved:
            raise ValueError("not solved")
        out = np.empty((self.p.n_roots, NV), np.float64)
        for i in range(self.p.n_roots):
            for j in range(NV):
                out[i, j] = self.p.res[i * NV + j]
        return out

    def by_turn(self, int root):
        """Figures of one root by turn 0..T, cumulative: ``(T + 1, 6)`` with column 3 the
        probability of having been ready (needs ``keep=True`` in solve)."""
        if not self.p.solved or not self.p.keep:
            raise ValueError("solve with keep=True first")
        if not 0 <= root < self.p.n_roots:
            raise ValueError("root out of range")
        out = np.zeros((self.p.T + 1, NV), np.float64)
        cdef double[:, ::1] ov = out
        with nogil:
            forward(self.p, root, &ov[0, 0])
        return np.cumsum(out, axis=0)

    def reachable(self):
        """States (13- and 14-tile) reachable from each root, ``int64 (n_roots,)``."""
        out = np.zeros(max(1, self.p.n_roots), np.int64)
        cdef int64_t[::1] ov = out
        cdef int st
        if self.p.status != STATUS_OK:
            raise ValueError("build the graph first")
        with nogil:
            st = reach_counts(self.p, &ov[0])
        if st != STATUS_OK:
            raise MemoryError()
        return out[:self.p.n_roots]

    def simulate(self, list bitgens, object games, object wall, int root, int n_threads,
                 object ready_hist, object win_hist, object win_turn, object win_state):
        """Play the kept choices from ``root`` on shuffled walls (``wall``: int8 tokens, 0..33,
        WILD_TOKEN, FLOWER_TOKEN); chunk ``c`` uses ``bitgens[c]`` and ``games[c]`` games.

        ``ready_hist`` / ``win_hist`` (n_chunks, T + 2) int32 count the first ready / win turn
        (last column: never); ``win_turn`` / ``win_state`` (sum(games),) int32 get each game's
        win turn and ``(query * (F + 1) + flowers) * 2 + after_flower`` (-1: no win).
        """
        cdef Py_ssize_t n_chunks = len(bitgens), ci
        cdef int T2 = self.p.T + 2, i
        cdef const int32_t* gm
        cdef const int8_t* wl
        cdef int32_t* rh
        cdef int32_t* wh
        cdef int32_t* wt
        cdef int32_t* ws
        cdef bitgen_t** rngs
        cdef int64_t total = 0
        cdef int64_t* offs
        cdef Py_ssize_t n_wall
        if not self.p.solved or not self.p.keep:
            raise ValueError("solve with keep=True first")
        if not 0 <= root < self.p.n_roots:
            raise ValueError("root out of range")
        gm = <const int32_t*>array_n(games, cnp.NPY_INT32, n_chunks, "games")
        for ci in range(n_chunks):
            if gm[ci] < 0:
                raise ValueError("games per chunk must be >= 0")
            total += gm[ci]
        if not cnp.PyArray_Check(wall):
            raise ValueError("wall must be a numpy int8 array")
        n_wall = cnp.PyArray_SIZE(wall)
        if n_wall > MAX_WALL:
            raise ValueError(f"the wall holds at most {MAX_WALL} tiles")
        wl = <const int8_t*>array_n(wall, cnp.NPY_INT8, n_wall, "wall")
        for i in range(n_wall):
            if wl[i] < 0 or wl[i] > FLOWER:
                raise ValueError("wall tokens must be 0..33, WILD_TOKEN or FLOWER_TOKEN")
        rh = <int32_t*>array_n(ready_hist, cnp.NPY_INT32, n_chunks * T2, "ready_hist")
        wh = <int32_t*>array_n(win_hist, cnp.NPY_INT32, n_chunks * T2, "win_hist")
        wt = <int32_t*>array_n(win_turn, cnp.NPY_INT32, total, "win_turn")
        ws = <int32_t*>array_n(win_state, cnp.NPY_INT32, total, "win_state")
        rngs = <bitgen_t**>malloc((n_chunks + 1) * sizeof(bitgen_t*))
        offs = <int64_t*>malloc((n_chunks + 1) * sizeof(int64_t))
        if rngs == NULL or offs == NULL:
            free(rngs)
            free(offs)
            raise MemoryError()
        try:
            offs[0] = 0
            for ci in range(n_chunks):
                rngs[ci] = bitgen_pointer(bitgens[ci])
                offs[ci + 1] = offs[ci] + gm[ci]
            memset(rh, 0, n_chunks * T2 * sizeof(int32_t))
            memset(wh, 0, n_chunks * T2 * sizeof(int32_t))
            for ci in prange(n_chunks, nogil=True, schedule="dynamic", num_threads=max(1, n_threads)):
                play_chunk(self.p, rngs[ci], wl, <int>n_wall, root, gm[ci], rh + ci * T2, wh + ci * T2,
                           wt + offs[ci], ws + offs[ci])
        finally:
            free(rngs)
            free(offs)


cdef inline Prob* prob_of(object x) except NULL:
    if not isinstance(x, ValueProblem):
        raise ValueError("expected ValueProblem objects")
    return (<ValueProblem>x).p


def build_many(list problems, int n_threads=1):
    """Build several graphs in parallel (no GIL); returns their statuses."""
    cdef Py_ssize_t n = len(problems), i
    cdef Prob** ps = <Prob**>malloc((n + 1) * sizeof(Prob*))
    if ps == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            ps[i] = prob_of(problems[i])
            if ps[i].status != -1:
                raise ValueError("a graph is already built")
        for i in prange(n, nogil=True, schedule="dynamic", num_threads=max(1, n_threads)):
            build_graph(ps[i])
        return [int(ps[i].status) for i in range(n)]
    finally:
        free(ps)


def solve_many(list problems, list hazards, list turns, bint keep=False, int n_threads=1):
    """Solve several problems in parallel (no GIL); returns their result arrays."""
    cdef Py_ssize_t n = len(problems), i
    cdef Prob** ps = <Prob**>malloc((n + 1) * sizeof(Prob*))
    cdef int* st = <int*>malloc((n + 1) * sizeof(int))
    if ps == NULL or st == NULL:
        free(ps)
        free(st)
        raise MemoryError()
    try:
        for i in range(n):
            (<ValueProblem>problems[i]).prepare_solve(hazards[i], turns[i], keep)
            ps[i] = prob_of(problems[i])
        for i in prange(n, nogil=True, schedule="dynamic", num_threads=max(1, n_threads)):
            st[i] = solve_prob(ps[i])
        for i in range(n):
            if st[i] != STATUS_OK:
                raise MemoryError("not enough memory for the recursion")
        return [(<ValueProblem>problems[i]).results() for i in range(n)]
    finally:
        free(ps)
        free(st)
