# The efficiency discard policy and its memo, shared by the wall and the game kernels.
#
# The policy on a 3k+2 hand: discard to the least shanten, then to the most 进张 (unseen natural
# copies of the kinds whose draw lowers that shanten: copies in play - own - visible), ties to
# the lowest kind; wildcards are never discarded.  A kernel describes its rule by a ``Policy``:
# the rule's exact shanten of any hand (a function and its context), the natural copies in
# play, and the table parameters when the rule's hands without wildcards may take the table
# path (every kind natural with 4 copies, forms among standard / seven pairs / thirteen
# orphans, no 缺一门).  On that path the shanten after each discard comes from one pass over
# the hand's group rows and a hand's 进张 kinds from the efficiency kernel's accept tables
# (``accept_mask``); elsewhere each discard and each draw is evaluated through the memo.
#
# Everything here is ``cdef inline`` so each kernel compiles it in without a call across modules.
from libc.stdint cimport uint8_t, int8_t, int16_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from mjfast._kernels._shanten cimport Params, table_row, merge_int_rows, finish, shanten_one, \
    N_KINDS, INF, F_STANDARD, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS, F_HONORS_KNITTED, O_PAIRS_DISTINCT
from mjfast._kernels._efficiency cimport Eval as IncEval, ev_init, accept_mask, seven_pairs_need

from mjfast._kernels._common cimport POW5, IS_ORPHAN, KNIT


# the rule's exact shanten of a hand (``wilds`` wildcards held; the hand size fixes ``n_melds``)
ctypedef int (*shanten_fn)(const uint8_t* c, int n_melds, int wilds, const void* ctx) noexcept nogil
# a lower bound on the shanten of a hand without wildcards over the rule's forms the table
# path does not cover, that falls by at most one per tile added and never by a discard; the
# caller needs it only as far as ``below`` (a bound under ``below`` may be made exact)
ctypedef int (*bound_fn)(const uint8_t* c, int n_melds, int below, const void* ctx) noexcept nogil


# ---------------------------------------------------------------------------------------
# Memo tables: open addressing with linear probing.  A slot's two key words hold kinds 0..20
# (3 bits each), then kinds 21..33, the wildcards (bits 39..43), the caller's tag (bits
# 44..51), the hand's shanten + 1 (bits 55..62) and bit 63 (set in every used slot: 0 marks
# an empty one).  Beside the keys (a separate array, so that a probe reads 16 bytes a slot)
# each slot has a datum, 0 until it is set.  A policy has two tables: ``memo``, every hand's
# shanten with the accept mask of a 3k+1 hand on the table path as its datum, and ``choices``
# (the wall kernel's), the decisions of 3k+2 hands (:func:`pol_choice`): small, so that a
# turn in a state seen before costs one probe into a table that stays in cache.  When a
# table reaches a load of 5/8 it is cleared: its contents change only speed, never a result.
ctypedef struct Memo:
    uint64_t* keys             # 2 words per slot
    uint64_t* data             # 1 word per slot
    uint64_t mask              # slots - 1 (a power of two)
    long long used

cdef enum:
    KEY_WILD_SHIFT = 39
    KEY_TAG_SHIFT = 44
    KEY_S_SHIFT = 55
    NOT_DECIDED = -2           # the discard of a complete hand, not computed (pol_choice)


ctypedef struct Policy:
    shanten_fn shanten         # the rule's exact shanten of any hand
    const void* ctx            # its context
    const Params* table        # the table path's parameters for hands without wildcards (NULL: none)
    const Params* part         # table NULL: the table forms' parameters (NULL: no partial path)
    bound_fn bound             # with ``part``: the bound on the rule's other forms
    const uint8_t* copies      # natural copies in play per kind (0: never counted in 进张)
    uint64_t tag               # extra key bits (< 256), e.g. the game's row of the rule tables
    Memo* memo                 # shanten and accept masks (NULL: every hand evaluated afresh)
    Memo* choices              # decisions of 3k+2 hands (pol_choice only)


cdef inline void memo_free(Memo* m) noexcept nogil:
    free(m.keys)
    free(m.data)
    m.keys = NULL
    m.data = NULL


cdef inline int memo_init(Memo* m, int log2_slots) noexcept nogil:
    """Allocate an empty table of ``2 ** log2_slots`` slots; -1 (and no table) when out of memory."""
    m.mask = ((<uint64_t>1) << log2_slots) - 1
    m.used = 0
    m.keys = <uint64_t*>calloc(<size_t>2 << log2_slots, sizeof(uint64_t))
    m.data = <uint64_t*>calloc(<size_t>1 << log2_slots, sizeof(uint64_t))
    if m.keys == NULL or m.data == NULL:
        memo_free(m)
        return -1
    return 0


cdef inline uint64_t mix(uint64_t a, uint64_t b) noexcept nogil:
    """A 64-bit hash of a two-word key (a multiply-xorshift finaliser)."""
    cdef uint64_t h = a * <uint64_t>0x9E3779B97F4A7C15 \
        ^ (b + <uint64_t>0x632BE59BD9B4E019) * <uint64_t>0xC2B2AE3D27D4EB4F
    h ^= h >> 31
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 29
    return h


cdef inline void memo_key(const uint8_t* c, int wilds, uint64_t tag, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The two key words of a hand (layout above, without the shanten; bit 63 of ``k1`` set)."""
    cdef uint64_t a = 0, b = (<uint64_t>1) << 63
    cdef int i
    for i in range(21):
        a |= (<uint64_t>c[i]) << (3 * i)
    for i in range(21, 34):
        b |= (<uint64_t>c[i]) << (3 * (i - 21))
    b |= (<uint64_t>(wilds & 0x1F)) << KEY_WILD_SHIFT | (tag & 0xFF) << KEY_TAG_SHIFT
    k0[0] = a
    k1[0] = b


cdef inline bint memo_probe(const Memo* m, uint64_t k0, uint64_t k1, uint64_t* slot) noexcept nogil:
    """Whether the key is stored; ``slot`` receives its slot, or the free slot it would take."""
    cdef uint64_t i = mix(k0, k1) & m.mask, v
    cdef uint64_t key_bits = (((<uint64_t>1) << KEY_S_SHIFT) - 1) | ((<uint64_t>1) << 63)
    while True:
        v = m.keys[2 * i + 1]
        if v == 0:
            slot[0] = i
            return False
        if m.keys[2 * i] == k0 and (v & key_bits) == k1:
            slot[0] = i
            return True
        i = (i + 1) & m.mask


cdef inline uint64_t memo_insert(Memo* m, uint64_t slot, uint64_t k0, uint64_t k1, int s) noexcept nogil:
    """Store a key not yet stored at the free ``slot`` :func:`memo_probe` gave (no call to the
    table in between), with shanten ``s`` and datum 0; returns its slot (a full table is
    cleared first)."""
    if s > 126:
        s = 126
    if m.used * 8 >= <long long>(m.mask + 1) * 5:
        memset(m.keys, 0, <size_t>(m.mask + 1) * 2 * sizeof(uint64_t))
        memset(m.data, 0, <size_t>(m.mask + 1) * sizeof(uint64_t))
        m.used = 0
        slot = mix(k0, k1) & m.mask
    m.keys[2 * slot] = k0
    m.keys[2 * slot + 1] = k1 | (<uint64_t>(s + 1) << KEY_S_SHIFT)
    m.data[slot] = 0
    m.used += 1
    return slot


cdef inline int slot_shanten(const Memo* m, uint64_t slot) noexcept nogil:
    return <int>((m.keys[2 * slot + 1] >> KEY_S_SHIFT) & 0xFF) - 1


cdef inline uint64_t memo_slot(Policy* P, const uint8_t* c, int n_melds, int w, int s) noexcept nogil:
    """The ``P.memo`` slot of a hand (``P.memo`` must not be NULL), filled in when new with its
    shanten (``s`` when the caller knows it, else -2: computed).  Valid until the next call to
    the table (a full table is cleared)."""
    cdef uint64_t k0, k1, i
    memo_key(c, w, P.tag, &k0, &k1)
    if memo_probe(P.memo, k0, k1, &i):
        return i
    if s == -2:
        s = P.shanten(c, n_melds, w, P.ctx)
    return memo_insert(P.memo, i, k0, k1, s)


cdef inline int pol_shanten(Policy* P, const uint8_t* c, int n_melds, int w) noexcept nogil:
    """The rule's shanten of a hand, through the memo."""
    if P.memo == NULL:
        return P.shanten(c, n_melds, w, P.ctx)
    return slot_shanten(P.memo, memo_slot(P, c, n_melds, w, -2))


# ---------------------------------------------------------------------------------------
# The table path of a 3k+2 hand without wildcards: the shanten after every discard at once.
ctypedef struct Table:
    const Params* p            # every kind playable, forms among standard / seven pairs / 13 orphans
    int kmax                   # sets of the hand (and of the 3k+1 hands one discard away)
    bint special               # no melds: seven pairs and thirteen orphans apply
    bint distinct              # seven pairs of distinct kinds
    int idx[4]                 # each group's table index
    int r[4][10]               # each group's table row
    int ex[4][10]              # the other three groups merged, per group
    int pairs, odd, orph, orph_pair


cdef inline int group_of(int k) noexcept nogil:
    return k // 9 if k < 27 else 3


cdef inline int pos_of(int k) noexcept nogil:
    return k % 9 if k < 27 else k - 27


cdef inline int n_pairs(int x, bint distinct) noexcept nogil:
    if distinct:
        return x >= 2
    return x >> 1


cdef inline int n_odd(int x, bint distinct) noexcept nogil:
    if distinct:
        return x == 1
    return x & 1


cdef inline int combine(const int* ex, const uint8_t* row, int kmax) noexcept nogil:
    """The standard deficit of ``ex`` (three groups merged) with the fourth group's ``row``."""
    cdef int m1, v, best = INF
    for m1 in range(kmax + 1):
        v = ex[2 * m1] + row[2 * (kmax - m1) + 1]
        if v < best:
            best = v
        v = ex[2 * m1 + 1] + row[2 * (kmax - m1)]
        if v < best:
            best = v
    return best


cdef inline void table_init(Table* T, const uint8_t* c, int n_melds, const Params* p) noexcept nogil:
    """The group rows, merges and pair / orphan counts of a 3k+2 hand ``c``."""
    cdef int ab[10]
    cdef int cd[10]
    cdef int k, g, j, x, n = 0
    cdef const uint8_t* row
    T.p = p
    T.distinct = (p.options & O_PAIRS_DISTINCT) != 0
    T.pairs = 0
    T.odd = 0
    T.orph = 0
    T.orph_pair = 0
    for g in range(4):
        T.idx[g] = 0
    for k in range(N_KINDS):
        x = c[k]
        if x == 0:
            continue
        n += x
        T.idx[group_of(k)] += x * POW5[pos_of(k)]
        T.pairs += n_pairs(x, T.distinct)
        T.odd += n_odd(x, T.distinct)
        if IS_ORPHAN[k]:
            T.orph += 1
            T.orph_pair += x >= 2
    T.kmax = (n - 2) // 3
    T.special = n_melds == 0 and T.kmax == 4
    if p.forms & F_STANDARD:
        for g in range(4):
            row = table_row(g, T.idx[g])
            for j in range(2 * T.kmax + 2):
                T.r[g][j] = row[j]
        merge_int_rows(ab, T.r[0], T.r[1], T.kmax)
        merge_int_rows(cd, T.r[2], T.r[3], T.kmax)
        merge_int_rows(T.ex[0], T.r[1], cd, T.kmax)
        merge_int_rows(T.ex[1], T.r[0], cd, T.kmax)
        merge_int_rows(T.ex[2], ab, T.r[3], T.kmax)
        merge_int_rows(T.ex[3], ab, T.r[2], T.kmax)


cdef inline void table_discards(const Table* T, const uint8_t* c, int8_t* sd) noexcept nogil:
    """sd[d] = the shanten after discarding d from the table's hand ``c`` (127 for the kinds not
    held), as the shanten kernel gives it: a discard changes only its group's row, so the other
    groups' merge is made once per group instead of once per discard."""
    cdef int k, g, x, y, best, v
    for k in range(N_KINDS):
        x = c[k]
        sd[k] = 127
        if x == 0:
            continue
        best = INF
        if T.p.forms & F_STANDARD:
            g = group_of(k)
            best = combine(T.ex[g], table_row(g, T.idx[g] - POW5[pos_of(k)]), T.kmax)
        if T.special:
            y = x - 1
            if T.p.forms & F_SEVEN_PAIRS:
                v = seven_pairs_need(T.pairs - n_pairs(x, T.distinct) + n_pairs(y, T.distinct),
                                     T.odd - n_odd(x, T.distinct) + n_odd(y, T.distinct))
                if v < best:
                    best = v
            if T.p.forms & F_THIRTEEN_ORPHANS:
                v = 14 - T.orph + (IS_ORPHAN[k] != 0 and y == 0)
                if T.orph_pair - (IS_ORPHAN[k] != 0 and x == 2) > 0:
                    v -= 1
                if v < best:
                    best = v
        sd[k] = <int8_t>(best - 1 if best < INF else INF)


# ---------------------------------------------------------------------------------------
# 进张 and the decision.
cdef inline uint64_t pol_accepted(Policy* P, const uint8_t* c, int n_melds, int s0) noexcept nogil:
    """Bit k set for every kind whose draw lowers the shanten ``s0`` of a 3k+1 hand ``c``
    without wildcards on the table path (the efficiency kernel's accept mask), memoised in the
    hand's slot: a hand is asked again when it next draws or claims."""
    cdef IncEval ev
    cdef uint8_t mask[34]
    cdef uint64_t slot = 0
    cdef uint64_t acc = 0
    cdef int k
    if P.memo != NULL:
        slot = memo_slot(P, c, n_melds, 0, s0)
        if P.memo.data[slot]:
            return P.memo.data[slot] & ~((<uint64_t>1) << 63)
    ev_init(&ev, c, n_melds, 0, P.table)
    accept_mask(&ev, s0, mask)
    for k in range(N_KINDS):
        if mask[k]:
            acc |= (<uint64_t>1) << k
    if P.memo != NULL:
        P.memo.data[slot] = acc | ((<uint64_t>1) << 63)
    return acc


cdef inline uint64_t pol_accepted_part(Policy* P, uint8_t* c, int n_melds, int s0) noexcept nogil:
    """:func:`pol_accepted` of a hand without wildcards on the partial table path: the hand's
    shanten is the least over its table forms and the others, and a draw lowers it only
    through a form whose own shanten is already ``s0`` (one tile lowers a form's shanten by at
    most one), so the table forms' kinds come from the accept tables when their shanten is
    ``s0``, and each other kind is tried only when the other forms' bound allows it."""
    cdef IncEval ev
    cdef uint8_t mask[34]
    cdef uint64_t slot, acc = 0
    cdef int k
    if P.memo != NULL:
        slot = memo_slot(P, c, n_melds, 0, s0)
        if P.memo.data[slot]:
            return P.memo.data[slot] & ~((<uint64_t>1) << 63)
    if shanten_one(c, n_melds, 0, P.part) == s0:
        ev_init(&ev, c, n_melds, 0, P.part)
        accept_mask(&ev, s0, mask)
        for k in range(N_KINDS):
            if mask[k]:
                acc |= (<uint64_t>1) << k
    if P.bound(c, n_melds, s0 + 1, P.ctx) - 1 < s0:
        for k in range(N_KINDS):
            if c[k] < 4 and P.copies[k] and not (acc >> k & 1):
                c[k] += 1
                if pol_shanten(P, c, n_melds, 0) < s0:
                    acc |= (<uint64_t>1) << k
                c[k] -= 1
    if P.memo != NULL:        # the tries above may have moved or cleared the hand's slot
        slot = memo_slot(P, c, n_melds, 0, s0)
        P.memo.data[slot] = acc | ((<uint64_t>1) << 63)
    return acc


cdef inline int pol_unseen(const Policy* P, uint64_t acc, const uint8_t* c, int void_suit,
                           const int16_t* vis) noexcept nogil:
    """Unseen natural copies of the kinds in ``acc`` (outside the void suit) for hand ``c``."""
    cdef int k, r, total = 0
    for k in range(N_KINDS):
        if acc >> k & 1 and not (void_suit >= 0 and k // 9 == void_suit):
            r = <int>P.copies[k] - <int>c[k] - <int>vis[k]
            if r > 0:
                total += r
    return total


cdef inline int pol_ukeire(Policy* P, uint8_t* c, int n_melds, int w, int s0, int void_suit,
                           const int16_t* vis) noexcept nogil:
    """进张 of a 3k+1 hand at shanten ``s0`` (its shanten): unseen natural copies of the kinds
    (outside the void suit) that lower it."""
    cdef int k, r, total = 0
    if P.table != NULL and not w:
        return pol_unseen(P, pol_accepted(P, c, n_melds, s0), c, void_suit, vis)
    if P.part != NULL and not w:
        return pol_unseen(P, pol_accepted_part(P, c, n_melds, s0), c, void_suit, vis)
    for k in range(N_KINDS):
        if P.copies[k] == 0 or (void_suit >= 0 and k // 9 == void_suit):
            continue
        r = <int>P.copies[k] - <int>c[k] - <int>vis[k]
        if r <= 0:
            continue
        c[k] += 1
        if pol_shanten(P, c, n_melds, w) < s0:
            total += r
        c[k] -= 1
    return total


cdef inline int void_discard(Policy* P, uint8_t* c, int n_melds, int w, int void_suit, int* s_out) noexcept nogil:
    """The lowest tile of the void suit (定缺) a hand holds, -1 if none; ``s_out`` the shanten
    after discarding it."""
    cdef int d
    for d in range(9 * void_suit, 9 * void_suit + 9):
        if c[d]:
            c[d] -= 1
            s_out[0] = pol_shanten(P, c, n_melds, w)
            c[d] += 1
            return d
    return -1


cdef inline void discard_shanten(Policy* P, uint8_t* c, int n_melds, int w, int8_t* sd) noexcept nogil:
    """sd[d] = the shanten after discarding d from a 3k+2 hand ``c`` (127 for the kinds not
    held): on the table path in one pass, elsewhere through the memo."""
    cdef Table T
    cdef int d, s, lb
    if P.table != NULL and not w:
        table_init(&T, c, n_melds, P.table)
        table_discards(&T, c, sd)
        return
    if P.part != NULL and not w:
        # the table forms in one pass; the other forms only for the discards their bound (which
        # a discard never lowers) leaves below the table forms' shanten
        table_init(&T, c, n_melds, P.part)
        table_discards(&T, c, sd)
        lb = -1
        for d in range(N_KINDS):
            if sd[d] != 127 and sd[d] > lb:
                lb = sd[d]
        lb = P.bound(c, n_melds, lb, P.ctx)
        for d in range(N_KINDS):
            if sd[d] != 127 and lb < sd[d]:
                c[d] -= 1
                s = pol_shanten(P, c, n_melds, w)
                c[d] += 1
                sd[d] = <int8_t>(s if s < 127 else 127)
        return
    for d in range(N_KINDS):
        sd[d] = 127
        if c[d]:
            c[d] -= 1
            s = pol_shanten(P, c, n_melds, w)
            c[d] += 1
            sd[d] = <int8_t>(s if s < 127 else 127)


cdef inline int pol_decide(Policy* P, uint8_t* c, int n_melds, int w, int void_suit, const int16_t* vis,
                           bint want_u, int* s_out, int* u_out) noexcept nogil:
    """The policy's discard from a 3k+2 hand ``c`` (restored before returning; -1 when only
    wildcards are left); ``s_out`` the shanten after it, ``u_out`` its 进张 (computed for a
    unique best discard only when ``want_u``, else -1).  A seat with a void suit
    (``void_suit >= 0``, 四川 定缺) discards its lowest tile of that suit first (``u_out`` 0)."""
    cdef int8_t sd[34]
    cdef int d, s, best_s = INF + 1, best_d = -1, n_best = 0, u, best_u = -1
    if void_suit >= 0:
        d = void_discard(P, c, n_melds, w, void_suit, s_out)
        if d >= 0:
            u_out[0] = 0
            return d
    discard_shanten(P, c, n_melds, w, sd)
    for d in range(N_KINDS):
        if sd[d] == 127:
            continue
        s = sd[d]
        if s < best_s:
            best_s = s
            best_d = d
            n_best = 1
        elif s == best_s:
            n_best += 1
    if n_best > 1:
        best_d = -1
        for d in range(N_KINDS):
            if sd[d] != best_s:
                continue
            c[d] -= 1
            u = pol_ukeire(P, c, n_melds, w, best_s, void_suit, vis)
            c[d] += 1
            if u > best_u:          # strict: ties keep the lowest kind index
                best_u = u
                best_d = d
    elif best_d >= 0 and want_u:
        c[best_d] -= 1
        best_u = pol_ukeire(P, c, n_melds, w, best_s, void_suit, vis)
        c[best_d] += 1
    s_out[0] = best_s
    u_out[0] = best_u
    return best_d


cdef inline int pol_choice(Policy* P, uint8_t* c, int n_melds, int w, const int16_t* vis, bint lazy,
                           int* s_hand, int* s_after) noexcept nogil:
    """:func:`pol_decide` (no void suit) memoised in ``P.choices``, with the hand's shanten in
    ``s_hand`` from the same probe: one probe per turn once a state has been seen.  Only for a
    policy whose copies and ``vis`` stay fixed for the tables' life (the wall kernel); neither
    ``P.memo`` nor ``P.choices`` may be NULL.  With ``lazy`` a complete hand (``s_hand`` -1)
    returns NOT_DECIDED: its discard is needed only when the rule turns the win down."""
    cdef Memo* m = P.choices
    cdef uint64_t k0, k1, i, v
    cdef int s, d, sa, u
    memo_key(c, w, P.tag, &k0, &k1)
    if memo_probe(m, k0, k1, &i):
        s = slot_shanten(m, i)
        v = m.data[i]
        s_hand[0] = s
        if v:
            s_after[0] = <int>((v >> 8) & 0xFF) - 1
            return <int>(v & 0xFF) - 1
        if lazy and s < 0:
            return NOT_DECIDED
    else:
        s = pol_shanten(P, c, n_melds, w)
        s_hand[0] = s
        i = memo_insert(m, i, k0, k1, s)       # P.memo is another table: the probe still holds
        if lazy and s < 0:
            return NOT_DECIDED
    d = pol_decide(P, c, n_melds, w, -1, vis, 0, &sa, &u)
    if sa > 126:
        sa = 126
    m.data[i] = (<uint64_t>(d + 1)) | (<uint64_t>(sa + 1)) << 8 | ((<uint64_t>1) << 63)
    s_after[0] = sa
    return d


# ---------------------------------------------------------------------------------------
# Claims of the configurable efficiency players (mjfast.policies.Efficiency): which calls a seat
# makes on another seat's discard.  ``concealed``: the seat has made no call yet (concealed kongs
# keep a hand concealed) and asks to stay so (``keep_concealed``), so it calls only when the hand
# is ready (shanten 0) afterwards.
cdef enum:
    CALL_FASTER = 0            # when the call makes the hand faster (the efficiency test)
    CALL_ALWAYS = 1            # every legal call
    CALL_NEVER = 2             # none


cdef inline bint pol_claims(int mode, bint concealed, int s0, int u0, int s1, int u1) noexcept nogil:
    """Whether a seat 碰s / 吃s: ``s0``, ``u0`` the shanten and 进张 before, ``s1``, ``u1`` after the
    call and the best discard."""
    if mode == CALL_NEVER or (concealed and s1 != 0):
        return 0
    return mode == CALL_ALWAYS or s1 < s0 or (s1 == s0 and u1 > u0)


cdef inline bint pol_kongs(int mode, bint concealed, int s0, int s1) noexcept nogil:
    """Whether a seat holding three of a discard claims it as a kong: ``s0`` the shanten before,
    ``s1`` after the kong (before its replacement draw)."""
    if mode == CALL_NEVER or (concealed and s1 != 0):
        return 0
    return mode == CALL_ALWAYS or s1 <= s0


# ---------------------------------------------------------------------------------------
# The value players (mjfast.policies.Value).  A 3k+1 hand is rated by the best of its *targets*:
# the plain hand (the rule's own shanten over every form) and the scoring patterns it may still
# reach: 清一色 and 混一色 in each suit, 对对胡, 七对 and the knitted hands (全不靠 / 组合龙 where the
# rule has them); where the rule values them (国标), the chow patterns and 五门齐.  For each target
# the restricted deficit D (tiles missing: shanten + 1 of the hand held to that pattern, the
# tiles outside it counted as missing) and its 进张 u (unseen
# copies of the kinds whose draw lowers D) give a chance to complete it within the draws left
# (:func:`reach`); the rating is the best chance times the pattern's value
# (``values[pattern][open][on a discard]``: the mean result of a win of that pattern under the rule, in
# one-unit stakes, measured with the rule's scorer by mjfast.policies, concealed or open and
# self-drawn or won on a discard).  A wildcard lowers every deficit by one.
cdef enum:
    PAT_PLAIN = 0
    PAT_FLUSH = 1              # 清一色
    PAT_HALF = 2               # 混一色
    PAT_PUNGS = 3              # 对对胡
    PAT_PAIRS = 4              # 七对
    PAT_HONOURS_KNITTED = 5    # 全不靠
    PAT_KNITTED_STRAIGHT = 6   # 组合龙 (with a set and a pair)
    PAT_MIXED_STRAIGHT = 7     # 花龙 (123, 456, 789 in three suits; with a set and a pair)
    PAT_TRIPLE_CHOW = 8        # 三色三同顺 (one chow in each suit)
    PAT_PURE_STRAIGHT = 9      # 清龙 (123456789 in one suit)
    PAT_MIXED_SHIFTED = 10     # 三色三步高 (one chow in each suit, their ranks up by one)
    PAT_PURE_SHIFTED = 11      # 一色三步高 (three chows of one suit up by one or by two)
    PAT_FIVE_GATES = 12        # 五门齐 (a set or the pair in each suit, the winds and the dragons)
    N_PATTERNS = 13


# :func:`reach` answers from a small direct-mapped table: within a game the same few targets
# (a need, a 进张, the tiles unseen, the draws left, a pattern's usual 进张) are rated again for
# every discard and every call considered.  A slot keeps its whole key, so an answer is always
# the one the recursion gives; a collision only recomputes.
DEF REACH_SLOTS = 4096

ctypedef struct ReachMemo:
    uint64_t key[REACH_SLOTS]  # need, 进张, unseen, draws packed, bit 63 set (0: an empty slot)
    double usual[REACH_SLOTS]
    double boost[REACH_SLOTS]
    double value[REACH_SLOTS]


ctypedef struct Hopes:          # what the rating of one seat's hands needs besides the hand
    const double* values       # [N_PATTERNS][2][2] a win's value: concealed / open, self-drawn / on a discard
    const Params* hk           # 全不靠 alone (forms 0: not a form of the rule)
    const Params* ks           # 组合龙 alone (forms 0: none)
    int melded                 # bit g: a meld in group g (3: honours)
    int chowed                 # a chow among the melds
    unsigned int meld_chows    # bit k: a melded suit chow whose lowest tile is kind k
    int open_                  # a meld made on a discard
    int gates                  # 五门齐's groups the melds fill (bit :func:`gate_of`), GATES_CLASH: two share one
    int pairs_ok               # seven pairs is a form of the rule
    int honours                # honour kinds are in play
    double draws               # the seat's draws still expected
    double last_boost          # the last tile's chance per draw, relative to a draw's (discard wins)
    double pattern_margin      # a pattern's rating is divided by this (it must beat speed clearly)
    double pattern_usual       # scales every pattern's usual 进张
    int slack                  # a pattern is a target only this many tiles behind the plain hand
    double shape               # the weight of a discard's shape worth in its tie-break
    double* bounds             # NULL, or BOUNDS_SIZE entries < 0: :func:`target_bound`'s cache for these hopes
    ReachMemo* reach           # NULL, or :func:`reach`'s table (shared by every hopes of a thread)


# A standard hand's usual 进张 (of 136 tiles) by the tiles it misses, 1..8 and beyond: the shape of
# how a hand's 进张 shrinks as it nears completion (a wait has some 7, a 1-shanten hand 20 …)
# Each pattern's 进张 as a share of a standard hand's at the same stage (a 清一色 waits on one
# suit, 对对胡 and 七对 on the last copies of their pairs and singles)
DEF USUAL_PLAIN = 1.0
DEF TIE_PER_TILE = 1e-9        # stakes per tile of plain 进张: breaks ties only
DEF USUAL_FLUSH = 0.5
DEF USUAL_HALF = 0.6
DEF USUAL_PUNGS = 0.5
DEF USUAL_PAIRS = 0.4
DEF USUAL_KNITTED = 0.6
DEF USUAL_CHOWS = 0.5          # the chow patterns (花龙, 三色三同顺 …): mostly single waits
DEF USUAL_GATES = 0.5          # 五门齐: one block in each group, the last often a single wait


cdef inline double usual_accept(int missing) noexcept nogil:
    """A standard hand's usual 进张 (of 136 tiles) with ``missing`` tiles to go."""
    if missing <= 1:
        return 7.0
    if missing == 2:
        return 20.0
    if missing == 3:
        return 34.0
    if missing == 4:
        return 48.0
    if missing == 5:
        return 60.0
    if missing == 6:
        return 70.0
    if missing == 7:
        return 78.0
    return 85.0


cdef inline double reach(int need, int u, int unseen, double usual, double boost, double draws) noexcept nogil:
    """The chance of completing a target ``need`` tiles away within ``draws`` draws: the next
    useful draw comes with chance ``u / unseen`` per draw (the hand's own 进张); each later one,
    with j tiles still missing, with chance ``usual * usual_accept(j) / 136`` (the target's usual
    进张 at that stage: ``usual`` is the pattern's share of a standard hand's); the last tile's
    chance is ``boost`` times more (the discards of the other seats it may win on)."""
    cdef double dp[16]
    cdef double q[16]
    cdef double qj
    cdef int n = <int>draws, t, j
    if need <= 0:
        return 1.0
    if u <= 0 or unseen <= 0 or need > 15:
        return 0.0
    for j in range(need + 1):
        dp[j] = 0.0
        if j:
            qj = <double>u / unseen if j == need else usual * usual_accept(j) / 136.0
            if j == 1:
                qj *= boost
            q[j] = qj if qj < 1.0 else 1.0
    dp[need] = 1.0
    for t in range(n):
        # after t draws at most t useful ones came: the states below need - t are still empty
        for j in range(need - t if need - t > 1 else 1, need + 1):
            dp[j - 1] += dp[j] * q[j]
            dp[j] *= 1.0 - q[j]
    return dp[0]


cdef inline double reach_memo(ReachMemo* M, int need, int u, int unseen, double usual, double boost,
                              double draws) noexcept nogil:
    """:func:`reach`, through the table ``M`` (NULL: computed)"""
    cdef uint64_t key, i
    cdef double v
    if M == NULL or need <= 0 or u <= 0 or unseen <= 0 or need > 15 or draws < 0.0 or draws >= 256.0 \
            or u > 255 or unseen > 255:
        return reach(need, u, unseen, usual, boost, draws)
    key = (<uint64_t>1 << 63) | (<uint64_t>need << 24) | (<uint64_t>u << 16) | (<uint64_t>unseen << 8) \
        | <uint64_t><int>draws
    i = mix(key, (<uint64_t>(usual * 1048576.0)) ^ (<uint64_t>(boost * 1048576.0) << 32)) & (REACH_SLOTS - 1)
    if M.key[i] == key and M.usual[i] == usual and M.boost[i] == boost:
        return M.value[i]
    v = reach(need, u, unseen, usual, boost, draws)
    M.key[i] = key
    M.usual[i] = usual
    M.boost[i] = boost
    M.value[i] = v
    return v


cdef inline double top_value(const Hopes* H, int pat, int op) noexcept nogil:
    """The larger of a pattern's self-drawn and discard-won values (a bound for pruning)."""
    cdef double vs = H.values[4 * pat + 2 * op], vd = H.values[4 * pat + 2 * op + 1]
    return vs if vs > vd else vd


cdef inline double target_value(const Hopes* H, int pat, int op, int need, int u, int unseen,
                                double usual, int plain_need=0) noexcept nogil:
    """A target's rating: its chance (:func:`reach`) times its value, the self-drawn and the
    discard-won value in the shares the chance gives them; a pattern the rule does not let a
    player win on a discard waits for its last tile from the wall alone."""
    cdef double vs = H.values[4 * pat + 2 * op], vd = H.values[4 * pat + 2 * op + 1], b = 1.0
    if vs <= 0.0 and vd <= 0.0:
        return 0.0
    if pat != PAT_PLAIN:
        if need > plain_need + H.slack:
            return 0.0
        usual *= H.pattern_usual
    if vd > 0.0:
        b = H.last_boost
    b = reach_memo(H.reach, need, u, unseen, usual, b, H.draws) * (vs + (b - 1.0) * vd) / b
    return b if pat == PAT_PLAIN else b / H.pattern_margin


cdef enum:
    BOUND_NEEDS = 16           # needs 0..15 (reach answers 0 beyond)
    BOUNDS_SIZE = 416          # N_PATTERNS * 2 * BOUND_NEEDS: the size of a Hopes' bounds


cdef inline void bounds_init(Hopes* H, double* bounds) noexcept nogil:
    """Give ``H`` the cache ``bounds`` (BOUNDS_SIZE entries) of :func:`target_bound`, empty."""
    cdef int i
    for i in range(BOUNDS_SIZE):
        bounds[i] = -1.0
    H.bounds = bounds


cdef inline double target_bound(const Hopes* H, int pat, int op, int need, double usual,
                                int plain_need=0) noexcept nogil:
    """:func:`target_value` with every unseen tile useful (an upper bound on a target's rating,
    :func:`reach` being monotone in the 进张): it depends on the pattern, open or not and the
    need alone, so it is computed once per hopes (``H.bounds``)."""
    cdef int i
    cdef double v
    if pat != PAT_PLAIN and need > plain_need + H.slack:
        return 0.0
    if H.bounds == NULL or need < 0 or need >= BOUND_NEEDS:
        return target_value(H, pat, op, need, 1, 1, usual, plain_need)
    i = (2 * pat + op) * BOUND_NEEDS + need
    v = H.bounds[i]
    if v < 0.0:
        v = target_value(H, pat, op, need, 1, 1, usual, plain_need)
        H.bounds[i] = v
    return v


cdef inline int pungs_need(const uint8_t* c, int kmax) noexcept nogil:
    """对对胡 deficit of a hand needing ``kmax`` triplets and a pair: the best head, the
    ``kmax`` fullest other kinds as the triplets (an empty kind costs 3)."""
    cdef int top[14]
    cdef int held[4]
    cdef int n = 0, k, x, j, _copy, h, best = INF, need, used
    held[1] = held[2] = held[3] = 0
    for k in range(N_KINDS):
        if c[k]:
            held[c[k] if c[k] < 3 else 3] += 1
    for x in range(3, 0, -1):             # the kinds held, fullest first (at most 14 of them)
        for _copy in range(held[x]):
            if n < 14:
                top[n] = x
                n += 1
    for h in range(-1, n):
        if h > 0 and top[h] == top[h - 1]:
            continue                              # the same head count leaves the same others
        need = 2 if h < 0 else 2 - (top[h] if top[h] < 2 else 2)
        used = 0
        for j in range(n):
            if j == h or used == kmax:
                continue
            need += 3 - top[j]
            used += 1
        need += 3 * (kmax - used)
        if need < best:
            best = need
    return best


cdef inline int knit_most(const uint8_t* c) noexcept nogil:
    """The most kinds of one knitted arrangement (147/258/369 in three suits) a hand holds."""
    cdef int p, h, i, m = 0
    for p in range(6):
        i = 0
        for h in range(9):
            if c[KNIT[p][h]]:
                i += 1
        if i > m:
            m = i
    return m


cdef inline int knitted_straight_bound(int m) noexcept nogil:
    """A lower bound on the 组合龙 shanten of a hand holding ``m`` kinds of its best arrangement."""
    return 9 - m - 1


cdef inline int honours_knitted_bound(int m, const uint8_t* c) noexcept nogil:
    """A lower bound on the 全不靠 shanten: 14 distinct tiles of an arrangement and the honours."""
    cdef int h = 0, i
    for i in range(27, 34):
        if c[i]:
            h += 1
    return 13 - (m + h if m + h < 14 else 14)


cdef inline int chow_layouts(int pat) noexcept nogil:
    """The ways to lay a chow pattern's three chows: 花龙 over the six orders of the suits,
    三色三同顺 on ranks 1-7, 清龙 in each suit, 三色三步高 from ranks 1-5 over the orders of the
    suits, 一色三步高 in each suit from ranks 1-5 up by one and 1-3 up by two."""
    if pat == PAT_MIXED_STRAIGHT:
        return 6
    if pat == PAT_TRIPLE_CHOW:
        return 7
    if pat == PAT_PURE_STRAIGHT:
        return 3
    if pat == PAT_MIXED_SHIFTED:
        return 30
    return 24


cdef inline void chow_layout(int pat, int a, int* lows) noexcept nogil:
    """The lowest kinds of the three chows of layout ``a`` of a chow pattern (the orders of the
    suits as KNIT lays 147 / 258 / 369 over them)."""
    cdef int s, step
    for s in range(3):
        if pat == PAT_MIXED_STRAIGHT:
            lows[s] = 9 * s + 3 * (KNIT[a][3 * s] - 9 * s)
        elif pat == PAT_TRIPLE_CHOW:
            lows[s] = 9 * s + a
        elif pat == PAT_PURE_STRAIGHT:
            lows[s] = 9 * a + 3 * s
        elif pat == PAT_MIXED_SHIFTED:
            lows[s] = 9 * s + a // 6 + (KNIT[a % 6][3 * s] - 9 * s)
        else:
            step = 1 if a % 8 < 5 else 2
            lows[s] = 9 * (a // 8) + (a % 8 if step == 1 else a % 8 - 5) + step * s


cdef inline int bits_set(unsigned int x) noexcept nogil:
    """The bits set in ``x`` (no popcount instruction assumed)."""
    x = x - ((x >> 1) & 0x55555555u)
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u)
    return <int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24)


cdef inline int layout_missing(int pat, const int* lows, const int* chow_miss, const unsigned int* held) noexcept nogil:
    """The tiles of the chows ``lows`` a hand does not hold (melds aside): ``chow_miss[k]``, those
    of the chow from kind k; for 一色三步高, whose chows share kinds (wanted as often as they
    share them), ``held[j]``: bit k for the suit kinds held more than ``j`` times."""
    cdef unsigned int a, b, x
    if pat != PAT_PURE_SHIFTED:
        return chow_miss[lows[0]] + chow_miss[lows[1]] + chow_miss[lows[2]]
    a = 7u << lows[0]
    b = 7u << lows[1]
    x = 7u << lows[2]
    return bits_set((a | b | x) & ~held[0]) + bits_set(((a & b) | (a & x) | (b & x)) & ~held[1]) \
        + bits_set((a & b & x) & ~held[2])


cdef inline void cells_merge(int* out, const int* a, const int* b) noexcept nogil:
    """Min-plus of two rows cut to their cells of at most one set (``2m+p``, m, p in 0, 1)."""
    cdef int x
    out[0] = a[0] + b[0]
    out[1] = a[1] + b[0]
    x = a[0] + b[1]
    if x < out[1]:
        out[1] = x
    out[2] = a[2] + b[0]
    x = a[0] + b[2]
    if x < out[2]:
        out[2] = x
    out[3] = a[3] + b[0]
    x = a[0] + b[3]
    if x < out[3]:
        out[3] = x
    x = a[2] + b[1]
    if x < out[3]:
        out[3] = x
    x = a[1] + b[2]
    if x < out[3]:
        out[3] = x


cdef inline int rest_need(const uint8_t* const* tab, const int* rest, int kr) noexcept nogil:
    """The standard deficit of the tiles left (``rest``: their group indices) for ``kr`` sets (0
    or 1) and a pair: the four groups' rows (``tab[g]``: group g's table) cut to at most one set,
    min-plus."""
    cdef int acc[4]
    cdef int row[4]
    cdef int out[4]
    cdef int g, j
    cdef const uint8_t* r = tab[0] + 10 * rest[0]
    for j in range(4):
        acc[j] = r[j]
    for g in range(1, 4):
        r = tab[g] + 10 * rest[g]
        for j in range(4):
            row[j] = r[j]
        cells_merge(out, acc, row)
        for j in range(4):
            acc[j] = out[j]
    return acc[2 * kr + 1]


cdef inline int layout_need(const uint8_t* c, const int* idx, int n_melds, unsigned int meld_chows,
                            const int* lows, const uint8_t* const* tab, int* rest, int* k_rest,
                            uint64_t* missing) noexcept nogil:
    """Tiles a 3k+1 hand misses for a complete hand holding the chows ``lows`` (a melded one
    counts) and any other set and a pair: the chows' tiles not held (``missing``: bit k set for
    their kinds, the others cleared) plus the deficit of the tiles left (``rest``: their group
    indices; ``tab``: the group tables) for the pair and, unless a meld is it, the other set
    (``k_rest``: 1 or 0); INF when two melds are not the chows."""
    cdef int s, s2, i, k, g, taken, d = 0, other = n_melds
    cdef int todo[3]
    missing[0] = 0
    for s in range(4):
        rest[s] = idx[s]
    for s in range(3):
        todo[s] = not (meld_chows >> lows[s] & 1)
        if not todo[s]:
            other -= 1
            meld_chows &= ~(1u << lows[s])    # a melded chow stands for one chow of the layout
    if other > 1:
        return INF
    for s in range(3):
        if not todo[s]:
            continue
        g = lows[s] // 9
        for i in range(3):
            k = lows[s] + i
            taken = 0                         # copies of k the chows before took (一色三步高)
            for s2 in range(s):
                if todo[s2] and 0 <= k - lows[s2] <= 2:
                    taken += 1
            if c[k] > taken:
                rest[g] -= POW5[k - 9 * g]
            else:
                missing[0] |= <uint64_t>1 << k
                d += 1
    k_rest[0] = 1 - other
    return d + rest_need(tab, rest, 1 - other)


cdef inline int layout_need_apart(const int* idx, int n_melds, unsigned int meld_chows, const int* lows,
                                  const int* chow_miss, const int* chow_sub, const uint64_t* chow_mask,
                                  const uint8_t* const* tab, int* rest, int* k_rest, uint64_t* missing) noexcept nogil:
    """:func:`layout_need` for chows that share no kind (every chow pattern but 一色三步高), from
    each chow's tiles held and missed, worked out once per hand: ``chow_miss[k]`` / ``chow_mask[k]``
    the tiles (their count, their kinds' bits) the chow from kind k misses, ``chow_sub[k]`` what
    its tiles held weigh in their group index."""
    cdef int s, g, d = 0, other = n_melds, low
    missing[0] = 0
    for s in range(4):
        rest[s] = idx[s]
    for s in range(3):
        low = lows[s]
        if meld_chows >> low & 1:
            other -= 1
            meld_chows &= ~(1u << low)    # a melded chow stands for one chow of the layout
            continue
        g = low // 9
        rest[g] -= chow_sub[low]
        d += chow_miss[low]
        missing[0] |= chow_mask[low]
    if other > 1:
        return INF
    k_rest[0] = 1 - other
    return d + rest_need(tab, rest, 1 - other)


cdef inline int layout_need_of(int pat, const uint8_t* c, const int* idx, int n_melds, unsigned int meld_chows,
                               const int* lows, const int* chow_miss, const int* chow_sub, const uint64_t* chow_mask,
                               const uint8_t* const* tab, int* rest, int* k_rest, uint64_t* missing) noexcept nogil:
    """A layout's need: :func:`layout_need_apart` where its chows share no kind."""
    if pat == PAT_PURE_SHIFTED:
        return layout_need(c, idx, n_melds, meld_chows, lows, tab, rest, k_rest, missing)
    return layout_need_apart(idx, n_melds, meld_chows, lows, chow_miss, chow_sub, chow_mask, tab, rest, k_rest,
                             missing)


cdef inline void rest_others(const uint8_t* const* tab, const int* rest, int (*others)[4]) noexcept nogil:
    """``others[g]``: the cells (at most one set) of the tiles left outside group ``g``, so that
    the deficit with group g's row changed is one lookup (:func:`rest_deficit`)."""
    cdef int g, h, j
    cdef int row[4]
    cdef int acc[4]
    cdef const uint8_t* r
    for g in range(4):
        acc[0] = 0
        acc[1] = acc[2] = acc[3] = INF
        for h in range(4):
            if h == g:
                continue
            r = tab[h] + 10 * rest[h]
            for j in range(4):
                row[j] = r[j]
            cells_merge(others[g], acc, row)
            for j in range(4):
                acc[j] = others[g][j]


cdef inline int rest_deficit(const uint8_t* row, const int* other, int kr) noexcept nogil:
    """The deficit for ``kr`` sets (0 or 1) and a pair of group row ``row`` with the others' cells."""
    cdef int x, best = row[1] + other[2 * kr]
    x = row[0] + other[2 * kr + 1]
    if x < best:
        best = x
    if kr:
        x = row[2] + other[1]
        if x < best:
            best = x
        x = row[3] + other[0]
        if x < best:
            best = x
    return best


cdef inline void layout_useful(const uint8_t* c, const int* left, const uint8_t* const* tab, const int* rest,
                               int kr, uint64_t missing, uint8_t* useful) noexcept nogil:
    """Mark in ``useful`` the kinds with copies left whose draw lowers the need of a layout (of
    a chow pattern or 组合龙): its ``missing`` kinds (bit k: kind k), and those that lower the deficit of the
    tiles left (``rest``) for ``kr`` sets and a pair."""
    cdef int k, g, dr
    cdef int others[4][4]
    rest_others(tab, rest, others)
    dr = rest_deficit(tab[0] + 10 * rest[0], others[0], kr)
    for k in range(N_KINDS):
        if left[k] and c[k] < 4 and not useful[k]:
            if missing >> k & 1:
                useful[k] = 1
            else:
                g = group_of(k)
                useful[k] = rest_deficit(tab[g] + 10 * (rest[g] + POW5[pos_of(k)]), others[g], kr) < dr


cdef inline int knit_held(const uint8_t* c, int a) noexcept nogil:
    """The kinds of knitted arrangement ``a`` (KNIT) a hand holds."""
    cdef int i, n = 0
    for i in range(9):
        n += c[KNIT[a][i]] != 0
    return n


cdef inline int knit_need(const uint8_t* c, const int* idx, int a, const uint8_t* const* tab, int* rest,
                          uint64_t* missing) noexcept nogil:
    """Tiles a concealed 13-tile hand misses for a 组合龙 of arrangement ``a``: the arrangement's
    kinds not held (``missing``: bit k set for each, the others cleared) plus the deficit of the
    tiles left (``rest``: their group indices) for a set and a pair."""
    cdef int i, k, d = 0
    missing[0] = 0
    for i in range(4):
        rest[i] = idx[i]
    for i in range(9):
        k = KNIT[a][i]
        if c[k]:
            rest[k // 9] -= POW5[k % 9]
        else:
            missing[0] |= <uint64_t>1 << k
            d += 1
    return d + rest_need(tab, rest, 1)


DEF GATES_CLASH = 32           # Hopes.gates: two melds in one group of 五门齐 (no longer a target)


cdef inline int gate_of(int k) noexcept nogil:
    """五门齐's group of kind k: its suit, 3 for a wind, 4 for a dragon."""
    return k // 9 if k < 27 else (3 if k < 31 else 4)


cdef inline int gates_add(int gates, int k) noexcept nogil:
    """``gates`` (Hopes.gates) with a meld of kind k (its lowest tile) added."""
    cdef int b = 1 << gate_of(k)
    return gates | b | (GATES_CLASH if gates & b else 0)


cdef inline void honour_block(const uint8_t* c, int lo, int hi, int* set_need, int* pair_need) noexcept nogil:
    """The tiles an honour group (kinds lo .. hi - 1) misses for a pung, and for a pair."""
    cdef int k, most = 0
    for k in range(lo, hi):
        if c[k] > most:
            most = c[k]
    set_need[0] = 3 - (most if most < 3 else 3)
    pair_need[0] = 2 - (most if most < 2 else 2)


cdef inline int gates_need(const int* set_need, const int* pair_need, int gates) noexcept nogil:
    """五门齐's need: the pair in one group no meld fills and a set in each other such group, the
    least over the pair's group (each group's own need from ``set_need`` / ``pair_need``)."""
    cdef int G, g, t, best = INF
    if gates & GATES_CLASH:
        return INF
    for G in range(5):
        if gates >> G & 1:
            continue
        t = pair_need[G]
        for g in range(5):
            if g != G and not (gates >> g & 1):
                t += set_need[g]
        if t < best:
            best = t
    return best


cdef inline double max_of(double a, double b) noexcept nogil:
    return a if a > b else b


cdef inline int lowered(int d, int w) noexcept nogil:
    """A 3k+1 hand's deficit ``d`` with ``w`` wildcards (never below 1: a wait)."""
    d -= w
    return d if d > 1 else 1


cdef inline double rate_hand(Policy* P, uint8_t* c, int n_melds, int w, int s_plain, int void_suit,
                             const int16_t* vis, const Hopes* H, bint plain=True,
                             double floor=-1e300) noexcept nogil:
    """The value rating of a 3k+1 hand ``c`` at plain shanten ``s_plain`` (see above); without
    ``plain`` only its patterns count (a discard that gives up speed is made for a pattern).

    The caller needs the rating only where it exceeds ``floor``: a target whose rating cannot
    (its value with every unseen tile useful, :func:`reach` being monotone in the 进张) is
    skipped, so the result is exact whenever it exceeds ``floor`` and at most ``floor`` (or
    exact) otherwise."""
    cdef int idx[4]
    cdef int rows[4][10]
    cdef int merged[10]
    cdef int g, j, k, kmax = 4 - n_melds, unseen = 0, r, d, d2, u, pairs = 0, odd = 0, m = -1
    cdef int op = 1 if H.open_ else 0
    cdef double best = 0.0, v
    cdef const uint8_t* row
    cdef int left[34]
    cdef int rest[4]
    cdef uint64_t missing
    cdef uint8_t useful[34]
    cdef int pat, a, i, lb_min, lb_hand, n
    cdef int lb[30]
    cdef int l_need[30]            # a layout's need, once searched (-1: not yet)
    cdef int l_rest[30][4]         # and the group indices of its tiles left
    cdef int l_kr[30]              # and the sets they still make (1 or 0)
    cdef uint64_t l_missing[30]    # and the kinds its chows miss
    cdef int L[30][3]              # the pattern's layouts (their chows' lowest kinds)
    cdef int chow_miss[27]
    cdef int chow_sub[27]
    cdef uint64_t chow_mask[27]
    cdef int chow_ready = 0
    cdef int sneed[5]              # 五门齐: each group's need for a set, and for the pair
    cdef int pneed[5]
    cdef int total, least, second, at, s2, p2, x
    cdef unsigned int held[3]
    cdef const uint8_t* tab[4]     # each group's table (a row: tab[g] + 10 * index)
    for g in range(4):
        tab[g] = table_row(g, 0)
    for k in range(N_KINDS):
        r = <int>P.copies[k] - <int>c[k] - <int>vis[k]
        if void_suit >= 0 and k // 9 == void_suit:
            r = 0
        left[k] = r if r > 0 else 0
        unseen += left[k]
    if unseen <= 0 or kmax < 0:
        return 0.0
    if plain and target_bound(H, PAT_PLAIN, op, s_plain + 1, USUAL_PLAIN) \
            + TIE_PER_TILE * unseen > floor:
        u = pol_ukeire(P, c, n_melds, w, s_plain, void_suit, vis)
        # the tie term keeps the efficiency order (more 进张) where every chance rounds to 0
        best = target_value(H, PAT_PLAIN, op, s_plain + 1, u, unseen, USUAL_PLAIN) + TIE_PER_TILE * u
    for g in range(4):
        idx[g] = 0
    for k in range(N_KINDS):
        if c[k]:
            idx[group_of(k)] += c[k] * POW5[pos_of(k)]
    for g in range(4):
        row = tab[g] + 10 * idx[g]
        for j in range(10):
            rows[g][j] = row[j]
    # 清一色 / 混一色 in each suit
    for g in range(3):
        if g == void_suit:
            continue
        # (a pattern more than ``slack`` tiles behind the plain hand is not a target: skipped)
        if not (H.melded & ~(1 << g)) and top_value(H, PAT_FLUSH, op) > max_of(best, floor) \
                and lowered(rows[g][2 * kmax + 1], w) <= s_plain + 1 + H.slack:
            d = rows[g][2 * kmax + 1]
            u = 0
            for k in range(9 * g, 9 * g + 9):
                if left[k] and c[k] < 4 and (tab[g] + 10 * (idx[g] + POW5[k - 9 * g]))[2 * kmax + 1] < d:
                    u += left[k]
            v = target_value(H, PAT_FLUSH, op, lowered(d, w), u, unseen, USUAL_FLUSH, s_plain + 1)
            if v > best:
                best = v
        if H.honours and not (H.melded & ~(1 << g | 8)) and top_value(H, PAT_HALF, op) > max_of(best, floor):
            d = finish(rows[g], rows[3], kmax)
            if lowered(d, w) > s_plain + 1 + H.slack or target_bound(
                    H, PAT_HALF, op, lowered(d, w), USUAL_HALF, s_plain + 1) <= max_of(best, floor):
                continue
            u = 0
            for k in range(9 * g, 9 * g + 9):
                if left[k] and c[k] < 4:
                    row = (tab[g] + 10 * (idx[g] + POW5[k - 9 * g]))
                    for j in range(10):
                        merged[j] = row[j]
                    if finish(merged, rows[3], kmax) < d:
                        u += left[k]
            for k in range(27, 34):
                if left[k] and c[k] < 4:
                    row = tab[3] + 10 * (idx[3] + POW5[k - 27])
                    for j in range(10):
                        merged[j] = row[j]
                    if finish(rows[g], merged, kmax) < d:
                        u += left[k]
            v = target_value(H, PAT_HALF, op, lowered(d, w), u, unseen, USUAL_HALF, s_plain + 1)
            if v > best:
                best = v
    # 对对胡
    if not H.chowed and top_value(H, PAT_PUNGS, op) > max_of(best, floor):
        d = pungs_need(c, kmax)
        u = 0
        for k in range(N_KINDS):
            if c[k] == 1 or c[k] == 2:
                u += left[k]
        v = target_value(H, PAT_PUNGS, op, lowered(d, w), u, unseen, USUAL_PUNGS, s_plain + 1)
        if v > best:
            best = v
    # 国标's chow patterns (花龙, 三色三同顺, 清龙, 三色三步高, 一色三步高): the layout of least need;
    # its 进张 the kinds that bring some layout of that need closer (so the pattern's deficit down)
    held[0] = held[1] = held[2] = 0
    for pat in range(PAT_MIXED_STRAIGHT, PAT_PURE_SHIFTED + 1):
        # a pattern of standard hands needs at least the plain hand's tiles
        if top_value(H, pat, op) <= max_of(best, floor) or target_bound(
                H, pat, op, s_plain + 1, USUAL_CHOWS, s_plain + 1) <= max_of(best, floor):
            continue
        if not chow_ready:
            chow_ready = 1
            for k in range(27):
                for j in range(3):
                    if c[k] > j:
                        held[j] |= 1u << k
                if k % 9 <= 6:
                    chow_miss[k] = 0
                    chow_sub[k] = 0
                    chow_mask[k] = 0
                    for j in range(3):
                        if c[k + j]:
                            chow_sub[k] += POW5[k % 9 + j]
                        else:
                            chow_miss[k] += 1
                            chow_mask[k] |= <uint64_t>1 << (k + j)
        # a layout needs at least its chows' missing tiles (unless melds are its chows) and, a
        # complete hand of it being a standard hand, the plain hand's need (one at least): the
        # exact need only where that bound may still count and is below the least so far
        lb_hand = s_plain + 1 if w == 0 and s_plain >= 0 else 1
        n = chow_layouts(pat)
        lb_min = INF
        for a in range(n):
            chow_layout(pat, a, L[a])
            l_need[a] = -1
            lb[a] = layout_missing(pat, L[a], chow_miss, held) if H.meld_chows == 0 else 0
            if lb[a] < lb_hand:
                lb[a] = lb_hand
            if lb[a] < lb_min:
                lb_min = lb[a]
        if lowered(lb_min, w) > s_plain + 1 + H.slack or target_bound(
                H, pat, op, lowered(lb_min, w), USUAL_CHOWS, s_plain + 1) <= max_of(best, floor):
            continue
        d = INF
        j = lb_min
        while j < d:                  # the layouts by their bound, up to the least need found
            if target_bound(H, pat, op, lowered(j, w), USUAL_CHOWS, s_plain + 1) <= max_of(best, floor):
                break                 # no layout left can count
            for a in range(n):
                if lb[a] == j:
                    d2 = layout_need_of(pat, c, idx, n_melds, H.meld_chows, L[a], chow_miss, chow_sub, chow_mask,
                                        tab, l_rest[a], &l_kr[a], &l_missing[a])
                    l_need[a] = d2
                    if d2 < d:
                        d = d2
            j += 1
            if j > s_plain + 1 + H.slack + w:
                break
        if d >= INF or lowered(d, w) > s_plain + 1 + H.slack or target_bound(
                H, pat, op, lowered(d, w), USUAL_CHOWS, s_plain + 1) <= max_of(best, floor):
            continue
        memset(useful, 0, 34)
        for a in range(n):
            if lb[a] > d:
                continue
            if l_need[a] < 0:          # a layout whose bound is the least need: not searched yet
                l_need[a] = layout_need_of(pat, c, idx, n_melds, H.meld_chows, L[a], chow_miss, chow_sub, chow_mask,
                                           tab, l_rest[a], &l_kr[a], &l_missing[a])
            if l_need[a] == d:
                layout_useful(c, left, tab, l_rest[a], l_kr[a], l_missing[a], useful)
        u = 0
        for k in range(N_KINDS):
            if useful[k]:
                u += left[k]
        v = target_value(H, pat, op, lowered(d, w), u, unseen, USUAL_CHOWS, s_plain + 1)
        if v > best:
            best = v
    # 五门齐 (国标): a set or the pair in each suit, the winds and the dragons; a complete hand
    # of it is a standard hand, so it needs at least the plain hand's tiles.  Its need is the sum
    # of the free groups' set needs plus the least (pair - set) need among them, so a tile's
    # effect on it is read from the two least; its 进张 the kinds that lower it
    if top_value(H, PAT_FIVE_GATES, op) > max_of(best, floor) and target_bound(
            H, PAT_FIVE_GATES, op, s_plain + 1 if w == 0 and s_plain >= 0 else 1, USUAL_GATES, s_plain + 1) \
            > max_of(best, floor):
        for g in range(3):
            sneed[g] = rows[g][2]
            pneed[g] = rows[g][1]
        honour_block(c, 27, 31, &sneed[3], &pneed[3])
        honour_block(c, 31, 34, &sneed[4], &pneed[4])
        d = gates_need(sneed, pneed, H.gates)
        if d < INF and lowered(d, w) <= s_plain + 1 + H.slack and target_bound(
                H, PAT_FIVE_GATES, op, lowered(d, w), USUAL_GATES, s_plain + 1) > max_of(best, floor):
            total = 0
            least = second = INF
            at = -1
            for g in range(5):
                if H.gates >> g & 1:
                    continue
                total += sneed[g]
                x = pneed[g] - sneed[g]
                if x < least:
                    second = least
                    least = x
                    at = g
                elif x < second:
                    second = x
            u = 0
            for k in range(N_KINDS):
                g = gate_of(k)
                if not left[k] or c[k] >= 4 or H.gates >> g & 1:
                    continue              # a tile of a group a meld fills fills nothing
                if g < 3:
                    row = tab[g] + 10 * (idx[g] + POW5[pos_of(k)])
                    s2 = row[2]
                    p2 = row[1]
                else:
                    c[k] += 1
                    honour_block(c, 27 if g == 3 else 31, 31 if g == 3 else 34, &s2, &p2)
                    c[k] -= 1
                x = second if g == at else least
                if p2 - s2 < x:
                    x = p2 - s2
                if total - sneed[g] + s2 + x < d:
                    u += left[k]
            v = target_value(H, PAT_FIVE_GATES, op, lowered(d, w), u, unseen, USUAL_GATES, s_plain + 1)
            if v > best:
                best = v
    if n_melds:
        return best
    # 七对
    if H.pairs_ok and top_value(H, PAT_PAIRS, 0) > max_of(best, floor):
        u = 0
        for k in range(N_KINDS):
            pairs += c[k] >= 2
            if c[k] == 1:
                odd += 1
                u += left[k]
        v = target_value(H, PAT_PAIRS, 0, lowered(seven_pairs_need(pairs, odd), w), u, unseen, USUAL_PAIRS, s_plain + 1)
        if v > best:
            best = v
    # 全不靠 / 组合龙 (国标, JJ; their wildcards aside): 全不靠 misses the tiles it lacks of 14
    # distinct ones among an arrangement's 9 and the 7 honours (七星不靠 alone: of the 7 honours
    # and 7 of the 9), so its 进张 are the honours not held and the kinds an arrangement of the
    # most held lacks; 组合龙, as the chow patterns, is an arrangement and the other tiles' set
    # and pair
    for j in range(2):
        if (H.hk if j == 0 else H.ks).forms == 0 or top_value(H, PAT_HONOURS_KNITTED + j, 0) <= max_of(best, floor):
            continue
        if m < 0:
            m = knit_most(c)
        if j == 1:
            d = knitted_straight_bound(m) + 1
        elif H.hk.forms & F_HONORS_KNITTED:
            d = honours_knitted_bound(m, c) + 1
        else:
            d = 7 - (m if m < 7 else 7)
            for k in range(27, 34):
                d += c[k] == 0
        if d > s_plain + 3 or target_bound(H, PAT_HONOURS_KNITTED + j, 0, d, USUAL_KNITTED, s_plain + 1) \
                <= max_of(best, floor):
            continue
        memset(useful, 0, 34)
        if j == 0:
            for k in range(27, 34):
                useful[k] = c[k] == 0
            for a in range(6 if H.hk.forms & F_HONORS_KNITTED or m < 7 else 0):
                if knit_held(c, a) == m:
                    for i in range(9):
                        if not c[KNIT[a][i]]:
                            useful[KNIT[a][i]] = 1
        else:
            d = INF
            for a in range(6):
                if 9 - knit_held(c, a) < d:
                    d2 = knit_need(c, idx, a, tab, rest, &missing)
                    if d2 < d:
                        d = d2
            if d > s_plain + 3 or target_bound(H, PAT_HONOURS_KNITTED + j, 0, d, USUAL_KNITTED, s_plain + 1) \
                    <= max_of(best, floor):
                continue
            for a in range(6):
                if 9 - knit_held(c, a) > d:
                    continue
                if knit_need(c, idx, a, tab, rest, &missing) == d:
                    layout_useful(c, left, tab, rest, 1, missing, useful)
        u = 0
        for k in range(N_KINDS):
            if useful[k] and left[k] and c[k] < 4:
                u += left[k]
        v = target_value(H, PAT_HONOURS_KNITTED + j, 0, d, u, unseen, USUAL_KNITTED, s_plain + 1)
        if v > best:
            best = v
    return best


DEF SHAPE_PER_UNIT = 1e-10    # stakes per unit of a tile's shape worth: below one 进张 tile's tie term


cdef inline double shape_worth(const uint8_t* c, int k) noexcept nogil:
    """What a held tile of kind ``k`` may still make: its rank's chances (a 3-7 the most, an
    honour the least), its other copies held, and its suit neighbours held (the next ranks
    fully, the ranks two away half).  A discard's tie-break after its rating and 进张."""
    cdef double w
    cdef int r, j
    if k >= 27:
        return 0.3 + (c[k] - 1)
    r = k % 9
    w = 0.6 if r == 0 or r == 8 else (0.8 if r == 1 or r == 7 else 1.0)
    w += c[k] - 1
    for j in range(-2, 3):
        if j and 0 <= r + j < 9:
            w += c[k + j] * (1.0 if j == 1 or j == -1 else 0.5)
    return w


cdef inline int val_decide(Policy* P, uint8_t* c, int n_melds, int w, int void_suit, const int16_t* vis,
                           const Hopes* H, const double* danger, int* s_out, double* v_out,
                           bint want_v=True, double floor0=-1e300) noexcept nogil:
    """The value player's discard from a 3k+2 hand ``c`` (restored before returning; -1 when only
    wildcards are left): among the discards that leave the least shanten or one more (rated by
    their patterns alone), the best :func:`rate_hand` after it less its ``danger`` (the expected
    loss of discarding each kind, in stakes; NULL: none) and ``H.shape`` times SHAPE_PER_UNIT
    its :func:`shape_worth`, ties to the lower shanten, then the lowest kind; ``s_out`` the
    shanten after it, ``v_out`` its rating.  Under 定缺 the void suit's tiles go first, as
    :func:`pol_decide` discards them, and ``v_out`` is the rating of the hand left (0 without
    ``want_v``, for a caller that needs only the discard).  A caller that needs ``v_out`` only
    where it exceeds ``floor0`` may say so: the ratings are then searched only above it, and
    ``v_out`` is exact when the best exceeds ``floor0``, else at most ``floor0``."""
    cdef int8_t sd[34]
    cdef int d, s, best_d = -1, best_s = INF + 1, least = INF, first = -1
    cdef double v, floor, best_v = -1e300, v_first = -1e300
    if void_suit >= 0:
        d = void_discard(P, c, n_melds, w, void_suit, s_out)
        if d >= 0:
            v_out[0] = 0.0
            if want_v:
                c[d] -= 1
                v_out[0] = rate_hand(P, c, n_melds, w, s_out[0], void_suit, vis, H)
                c[d] += 1
            return d
    discard_shanten(P, c, n_melds, w, sd)
    for d in range(N_KINDS):
        if sd[d] < least:
            least = sd[d]
    # a likely best discard rated first (the least worth among those keeping the least shanten):
    # its rating raises every other's floor from the start, so their searches prune earlier
    for d in range(N_KINDS):
        if sd[d] == least and (first < 0 or shape_worth(c, d) < shape_worth(c, first)):
            first = d
    if first >= 0:
        c[first] -= 1
        v_first = rate_hand(P, c, n_melds, w, least, void_suit, vis, H, True, floor0)
        c[first] += 1
        if danger != NULL:
            v_first -= danger[first]
        if H.shape:
            v_first -= H.shape * SHAPE_PER_UNIT * shape_worth(c, first)
    for d in range(N_KINDS):
        if sd[d] == 127 or sd[d] > least + 1:
            continue
        s = sd[d]
        # a rating at or below this floor cannot be chosen: it is below another's (best_v or
        # v_first) by more than the tie margin 1e-12 (and no chain of ties spans 1e-9)
        floor = max_of(floor0, max_of(best_v, v_first) - 1e-9 + (danger[d] if danger != NULL else 0.0))
        if d == first:
            v = v_first
        else:
            c[d] -= 1
            v = rate_hand(P, c, n_melds, w, s, void_suit, vis, H, s == least, floor)
            c[d] += 1
            if v <= floor:
                continue
            if danger != NULL:
                v -= danger[d]
            if H.shape:
                v -= H.shape * SHAPE_PER_UNIT * shape_worth(c, d)
        if v > best_v + 1e-12 or (v > best_v - 1e-12 and s < best_s):
            best_v = v
            best_s = s
            best_d = d
    s_out[0] = best_s
    v_out[0] = best_v if best_d >= 0 else 0.0
    return best_d
