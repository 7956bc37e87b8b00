"""Game kernel: full four-player games under a rule, with an efficiency policy (issue 6).

One *chunk* of games uses one private random stream (a ``bitgen_t`` from a spawned
``SeedSequence``); chunks run in parallel under ``prange`` and share nothing that could change
a result, so the outcome depends only on the seed, never on threads or executors.

Per game: the wall is shuffled (Fisher–Yates), the dealer is drawn uniformly, 13 tiles are
dealt to each seat and the dealer draws.  Every seat plays the efficiency policy:

* discard: (四川) a tile of the seat's void suit (定缺: the suit it holds fewest of after the
  deal, ties to the lower suit) while it holds one, the lowest such kind; otherwise the least
  shanten, then the most 进张 (copies of the accepting kinds not in the seat's hand and not
  visible: discards and melds), ties to the lowest kind;
* concealed / added kong on its own turn when the shanten after the kong (before the
  replacement draw) is no worse than the best discard;
* on a discard: 胡 first (every seat that can, in turn order from the discarder, when the
  rule allows several winners, else the first), then 杠 (3 held; when the shanten does not
  rise) or 碰 (when the best discard afterwards lowers the shanten, or keeps it with more
  进张), then 吃 from the left (the same test) where the rule allows it.  No seat claims the
  discard made after the last wall tile was drawn.

A *potential win* is a complete hand (shanten −1; for 四川 also none of the void suit).  苏州's
花 minimum is decided here from the counts, melds and flowers; for the other rules with a
``checker`` the kernel asks it (with the GIL, only at that moment) whether the rule accepts
the win; everything else runs without the GIL.  A game ends
at the first accepted win (several seats on one discard) or when the wall is exhausted; under
血战到底 the seats that have won stop playing and the others play on until three have won or
the wall is exhausted.  The kernel records the win events, the outcome, the final hands and
melds and every kong; scoring and settlement happen in :mod:`mjfast.simulation.games`.
"""
cimport cython
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

from mjfast._kernels._shanten cimport (Params, params_init, shanten_one, N_KINDS, INF,
                                      F_STANDARD, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS, F_HONORS_KNITTED,
                                      F_KNITTED_STRAIGHT, F_SEVEN_STARS, F_THIRTEEN_LAN, F_NINE_TERMINALS,
                                      O_NEED_VOID, O_VOID_M, O_PAIRS_DISTINCT)
from mjfast._kernels._rng cimport bitgen_pointer, bounded_u32
from mjfast._kernels._policy cimport (Memo, Policy, Table, memo_init, memo_free, pol_shanten, pol_accepted,
                                      pol_ukeire, pol_decide, table_init, table_discards)

cdef enum:
    MAX_WALL = 160
    N_CODES = 48         # tile codes of mjfast.tiles: 34 playable kinds, then the bonus tiles
    ROLE_WILD = 34       # roles of a code in a game (faces table): a kind 0..33, a wildcard
    ROLE_FLOWER = 35     # or a flower (laid aside and replaced from the back of the wall)
    SEAT_FIELDS = 83     # per seat: flowers by code [0, 48), discards left by kind [48, 82), wilds
    MAX_KONGS = 16
    KF = 5               # fields per kong: konger, kind, feeder, tile, seats that had won
    LOG2_MEMO = 13

# record fields (int32 rec[N_REC] per game)
cdef enum:
    R_DEALER = 0
    R_HOW = 1            # 0 self_draw, 1 discard, 2 robbing_kong, 3 draw_game
    R_DISCARDER = 2      # -1 when none
    R_TURN = 3           # 1 + discards made before the end
    R_WINNERS = 4        # bit mask of winning seats
    R_WIN_TILE = 5       # -1 on a draw
    R_FLAGS = 6
    R_N_KONGS = 7
    R_LAST_KONG = 8      # index of the kong the discarder made just before a 杠上炮 discard
    R_VOID = 9           # void suits, 2 bits per seat (3 = none)
    R_EXHAUSTED = 10     # 1 if the hand ended with the wall exhausted
    R_N_EVENTS = 11      # win events recorded in ``events``
    R_FLIPPED = 12       # the flipped indicator's code (-1: the rule flips none)
    R_FIRST_DISCARD = 13 # seat of the first discard of kind ``first_kind`` if nobody claimed it, else -1
    N_REC = 14

# win events (int32 ev[3 * N_EV] per game): how, discarder, tile, flags, winners mask,
# the kong index of a 杠上炮 (-1), seats that had won before
cdef enum:
    N_EV = 7
    MAX_EVENTS = 3

# flags
cdef enum:
    FL_AFTER_KONG = 1
    FL_KONG_DISCARD = 2
    FL_HEAVENLY = 4
    FL_EARTHLY = 8
    FL_LAST_TILE = 16
    FL_LAST_COPY = 32
    FL_FIRST_DISCARD = 64    # won on the dealer's first discard, before any call (瑞金 地胡, 人和)
    FL_ROBBING_KONG = 128    # a potential win on the tile of an added kong (asked, not recorded)

# meld kinds
cdef enum:
    M_CHOW = 0
    M_PUNG = 1
    M_KONG = 2           # exposed kong on a discard
    M_ADDED = 3
    M_CONCEALED = 4

N_RECORD = N_REC
N_SEAT_FIELDS = SEAT_FIELDS
WILD = ROLE_WILD
FLOWER = ROLE_FLOWER
N_EVENT_FIELDS = N_EV
MAX_WIN_EVENTS = MAX_EVENTS
KONG_FIELDS = 5
MAX_KONG_LOG = MAX_KONGS

ctypedef struct Player:
    uint8_t c[34]        # concealed natural tiles by the kind they play as
    uint8_t fl[48]       # flowers laid aside, by code
    uint8_t disc[34]     # own discards nobody claimed
    int w                # wildcards held
    int8_t mk[4]
    int8_t mt[4]         # lowest tile of the meld
    int8_t ms[4]         # seat the claimed tile came from (-1: concealed kong)
    int n_melds
    int void_suit        # -1: none
    int n_draws

ctypedef struct Rule:
    int n_rows           # rows of the per-indicator tables (1 when nothing is flipped)
    int flip             # 1: flip an indicator after the shuffle; its code selects the row
    const int8_t* faces  # [n_rows][48] role of each code
    const uint8_t* copies  # [n_rows][34] natural copies of each kind in play
    int first_kind       # kind whose first discard is recorded (-1: none)
    int prune            # 进张 may skip kinds far from the hand (standard / 7 pairs / 13 orphans)
    int forms            # forms of the fast path: standard, seven pairs, thirteen orphans
    int extra            # form bits of 十三浪 / 九幺, evaluated through ``rows``
    int options          # option bits of the shanten kernel (seven-pairs reading, 烂胡 strictness)
    int chow             # 1: chow from the left
    int sichuan          # 1: 缺一门 by 定缺, no calls in the void suit
    int multi            # several winners on one discard
    int xuezhan          # 血战到底: play on after a win until three seats have won
    int check            # ask the checker at every potential win
    void* checker
    int suzhou           # 1: 苏州's 花 minimum, decided here (no checker)
    int sz_need[2]       # 花 needed for a self-draw, for a discard win
    int sz_hard_only     # 1: only hard flowers count towards the minimum
    int sz_qg_exempt     # 1: a 抢杠 win needs no minimum
    int slow             # forms beyond standard / seven pairs / thirteen orphans (国标)
    Params p_hk          # 全不靠 / 七星不靠 alone
    Params p_ks          # 组合龙 alone
    Params* rows         # [n_rows] 十三浪 / 九幺 with the row's wildcard (playable kinds)


cdef int[6][9] KNITTED

ctypedef struct Eval:          # per chunk: the policy, its memo and the shanten parameters
    Policy pol                 # the efficiency policy (pol.ctx points at this Eval)
    Memo memo                  # the chunk's memo (pol.memo NULL: none)
    Params p                   # every kind playable, cap 4: the table fast path (no wildcard held)
    int row                    # this game's row of the rule tables
    const Rule* R


cdef int game_shanten(const uint8_t* c, int n_melds, int w, const void* ctx) noexcept nogil:
    """The policy's shanten: :func:`shanten_raw` of the chunk's rule and row."""
    cdef Eval* E = <Eval*>ctx
    return shanten_raw(c, n_melds, w, E, E.R)


cdef void eval_init(Eval* E, const Rule* R, const uint8_t* playable) noexcept nogil:
    """A chunk's evaluator at row 0, with a memo when there is memory for it (else none)."""
    cdef uint8_t cap[34]
    memset(cap, 4, 34)         # caps stay 4 (the fast table path); melds change nothing for complete hands
    params_init(&E.p, cap, playable, R.forms, R.options)
    E.R = R
    E.row = 0
    E.memo.keys = NULL
    E.memo.data = NULL
    E.pol.shanten = game_shanten
    E.pol.ctx = <const void*>E
    E.pol.table = &E.p if R.prune else NULL
    E.pol.copies = R.copies
    E.pol.tag = 0
    E.pol.memo = NULL
    E.pol.choices = NULL
    if memo_init(&E.memo, LOG2_MEMO) == 0:
        E.pol.memo = &E.memo


cdef inline void eval_row(Eval* E, const Rule* R, int row) noexcept nogil:
    """Point the evaluator at a game's row of the rule tables (the flipped indicator's)."""
    E.row = row
    E.pol.copies = R.copies + 34 * row
    E.pol.tag = <uint64_t>row


# the policy (mjfast._kernels._policy) under the game's names
cdef inline int shanten_of(const uint8_t* c, int n_melds, int w, Eval* E, const Rule* R) noexcept nogil:
    return pol_shanten(&E.pol, c, n_melds, w)


cdef inline uint64_t accepted(const uint8_t* c, int n_melds, int s0, Eval* E, const Rule* R) noexcept nogil:
    return pol_accepted(&E.pol, c, n_melds, s0)


cdef inline int ukeire(uint8_t* c, int n_melds, int w, int s0, Eval* E, const Rule* R, int void_suit,
                       const int16_t* vis) noexcept nogil:
    return pol_ukeire(&E.pol, c, n_melds, w, s0, void_suit, vis)


cdef inline int decide(uint8_t* c, int n_melds, int w, Eval* E, const Rule* R, int void_suit,
                       const int16_t* vis, int* s_out, int* u_out) noexcept nogil:
    return pol_decide(&E.pol, c, n_melds, w, void_suit, vis, 1, s_out, u_out)


cdef int extra_bound(const uint8_t* c, int n_melds, int w, int forms) noexcept nogil:
    """A lower bound on the 十三浪 / 九幺 shanten: 13 minus the tiles a target could keep and the
    wildcards.  十三浪 keeps, per suit, the most kinds two-apart-or-more (greedy from the
    lowest is optimal) and each honour kind once; 九幺 keeps every terminal and honour."""
    cdef int best = INF, kept, s, k, last
    if n_melds:
        return -1 if forms & F_NINE_TERMINALS else INF
    if forms & F_THIRTEEN_LAN:
        kept = 0
        for s in range(3):
            last = -9
            for k in range(9):
                if c[9 * s + k] and k - last >= 3:
                    kept += 1
                    last = k
        for k in range(27, 34):
            if c[k]:
                kept += 1
        best = 13 - kept - w
    if forms & F_NINE_TERMINALS:
        kept = 0
        for k in range(34):
            if k >= 27 or k % 9 == 0 or k % 9 == 8:
                kept += c[k]
        if 13 - kept - w < best:
            best = 13 - kept - w
    return best


cdef int shanten_raw(const uint8_t* c, int n_melds, int w, Eval* E, const Rule* R) noexcept nogil:
    """Shanten over the rule's forms.  The fast table path handles standard, seven pairs and
    thirteen orphans (wildcards included: there a wildcard may stand for any kind, and a win
    that needs one to be a kind absent from the rule is turned down by the rule's check).  For
    十三浪 and 九幺 the policy uses the count of :func:`extra_bound` (exact but for kinds
    already used up, and for the strict 烂胡 reading) and the row's exact parameters confirm a
    hand that count calls complete, so every win is exact; the knitted forms (国标, no wildcards) are evaluated
    only when a cheap lower bound (missing distinct tiles of the best knitted arrangement) says
    they could do better."""
    cdef int best = shanten_one(c, n_melds, w, &E.p), p, i, m, h, lb
    if R.extra:
        i = extra_bound(c, n_melds, w, R.extra)
        if i < best:
            if i <= -1:            # complete by the count: confirmed by the exact kernel
                i = shanten_one(c, n_melds, w, &R.rows[E.row])
            if i < best:
                best = i
    if w or not R.slow or n_melds > 1 or best < 0:
        return best
    m = 0
    for p in range(6):
        i = 0
        for h in range(9):
            if c[KNITTED[p][h]]:
                i += 1
        if i > m:
            m = i
    if R.p_ks.forms:
        lb = 9 - m - 1
        if lb < best:
            i = shanten_one(c, n_melds, 0, &R.p_ks)
            if i < best:
                best = i
    if R.p_hk.forms and n_melds == 0:
        h = 0
        for i in range(27, 34):
            if c[i]:
                h += 1
        lb = 13 - (m + h if m + h < 14 else 14)
        if lb < best:
            i = shanten_one(c, n_melds, 0, &R.p_hk)
            if i < best:
                best = i
    return best


cdef int ask_checker(void* checker, Player* P, int seat, int tile, int self_draw, int discarder,
                     int dealer, int flags, int flipped) noexcept with gil:
    """Ask Python whether the rule accepts this potential win (exceptions count as no)."""
    cdef object fn = <object>checker
    cdef int i
    try:
        melds = tuple((int(P.mk[i]), int(P.mt[i]), int(P.ms[i])) for i in range(P.n_melds))
        return 1 if fn(seat, (<char*>P.c)[:34], melds, tile, self_draw, discarder, dealer, flags,
                       P.w, (<char*>P.fl)[:N_CODES], flipped) else 0
    except BaseException:
        return 0


cdef inline int void_clear(const Player* P) noexcept nogil:
    cdef int d
    if P.void_suit < 0:
        return 1
    for d in range(9 * P.void_suit, 9 * P.void_suit + 9):
        if P.c[d]:
            return 0
    return 1


cdef int suzhou_minimum(const Player* P, const Rule* R, int tile, int self_draw, int flags) noexcept nogil:
    """苏州's minimum (§5) on a complete hand ``P``, as ``scoring.suzhou._legal_complete`` decides
    it for the context the checker would build (no wildcards, no dragons in hand, no chows;
    the situational exemptions only on a self-draw; a robbed kong as a 抢杠 win).

    Every standard reading has the same F (the called melds and the concealed wind pungs), so
    only 对对胡 depends on the reading: some reading is all pungs exactly when the concealed
    tiles are pungs and a pair.  A 七对 reading needs no melds, i.e. a concealed hand: exempt."""
    cdef int i, k, t, x, F = 0, hard = 0, concealed = 1, n1 = 0, n2 = 0, n4 = 0, suits = 0
    if self_draw and flags & (FL_AFTER_KONG | FL_HEAVENLY | FL_EARTHLY):
        return 1                   # 杠开/花开, 天胡, 地胡
    if P.n_melds == 4:
        return 1                   # 大吊车
    if flags & FL_ROBBING_KONG and R.sz_qg_exempt:
        return 1                   # suzhou.qianggang_exempt
    for i in range(P.n_melds):
        t = P.mt[i]
        if t < 27:
            suits |= 1 << (t // 9)
        if P.mk[i] == M_PUNG:
            F += t >= 27           # 风碰 1
            concealed = 0
        elif P.mk[i] == M_CONCEALED:
            F += 4 if t >= 27 else 2
        else:                      # exposed or added kong (苏州 has no chow)
            F += 3 if t >= 27 else 1
            concealed = 0
    if concealed:
        return 1                   # 门清 (七对 included)
    for k in range(N_KINDS):
        x = P.c[k]
        n1 += x == 1
        n2 += x == 2
        n4 += x == 4
        if x and k < 27:
            suits |= 1 << (k // 9)
    if n2 == 1 and n1 == 0 and n4 == 0:
        return 1                   # 对对胡
    if suits == 1 or suits == 2 or suits == 4:
        return 1                   # 混一色 / 清一色
    for k in range(27, 31):
        if P.c[k] == 3:            # 风暗刻 2; 风碰 1 when the winning discard completed it (SZ-A4)
            F += 1 if (not self_draw and k == tile) else 2
    for k in range(N_CODES):
        hard += P.fl[k]
    F += hard
    if F == 0:
        return 1                   # 大门清
    # 抢杠 counts as a self-draw for the minimum (SZ-C8)
    return (hard if R.sz_hard_only else F) >= R.sz_need[0 if self_draw or flags & FL_ROBBING_KONG else 1]


cdef int complete(Player* P, Eval* prm, const Rule* R, int tile) noexcept nogil:
    """Whether the 3k+2 hand ``P`` (``tile`` just added) is complete.  On the table fast path
    from the memo of the hand before ``tile`` (the seat's hand since its last discard): one
    tile lowers the shanten by at most one, so the hand is complete exactly when that hand is
    ready and accepts ``tile``."""
    cdef int ready
    if R.prune and not P.w and tile < N_KINDS:
        P.c[tile] -= 1
        ready = shanten_of(P.c, P.n_melds, 0, prm, R) == 0 \
            and (accepted(P.c, P.n_melds, 0, prm, R) >> tile & 1) != 0
        P.c[tile] += 1
        return ready
    return shanten_of(P.c, P.n_melds, P.w, prm, R) == -1


cdef int can_win(Player* P, Eval* prm, const Rule* R, int seat, int tile, int self_draw,
                 int discarder, int dealer, int flags, int flipped) noexcept nogil:
    """Potential win of a 3k+2 hand ``P`` (the winning tile included); 1 if accepted."""
    if R.sichuan and not void_clear(P):
        return 0
    if not complete(P, prm, R, tile):
        return 0
    if R.suzhou:
        return suzhou_minimum(P, R, tile, self_draw, flags)
    if R.check:
        return ask_checker(R.checker, P, seat, tile, self_draw, discarder, dealer, flags, flipped)
    return 1


cdef int take(Player* P, const int8_t* wall, int* f, int* b, int back, const int8_t* faces,
              int* replaced) noexcept nogil:
    """Draw one tile from the front (or the back); a flower is laid aside and replaced from the
    back.  Returns the role drawn (a kind, or ROLE_WILD), -1 when the wall ran out; ``replaced``
    is set when a flower was replaced (花开 on a win)."""
    cdef int tok, role
    replaced[0] = 0
    while f[0] <= b[0]:
        if back:
            tok = wall[b[0]]
            b[0] -= 1
        else:
            tok = wall[f[0]]
            f[0] += 1
        role = faces[tok]
        if role == ROLE_FLOWER:
            P.fl[tok] += 1
            back = 1
            replaced[0] = 1
            continue
        if role == ROLE_WILD:
            P.w += 1
        else:
            P.c[role] += 1
        return role
    return -1


cdef inline int draw_next(Player* P, int* cur, int won, const int8_t* wall, int* f, int* b,
                         const int8_t* faces, int* replaced) noexcept nogil:
    """The next seat still playing (not yet won) draws from the front: :func:`take`'s result."""
    cur[0] = (cur[0] + 1) % 4
    while won >> cur[0] & 1:
        cur[0] = (cur[0] + 1) % 4
    return take(&P[cur[0]], wall, f, b, 0, faces, replaced)


cdef void play_game(bitgen_t* rng, int8_t* wall, int n_wall, const Rule* R, Eval* E,
                    int32_t* rec, uint8_t* hands, int8_t* melds, int8_t* kongs, int32_t* ev,
                    uint8_t* seats) noexcept nogil:
    cdef Player P[4]
    cdef int16_t vis[34]
    cdef int i, j, k, t, f, b, cur, dealer, q, d, s0, u0, s1, u1, sb, ub, n_disc = 0, flags
    cdef int drawn, after_kong, kong_discard, last, calls = 0, n_kongs = 0, last_kong = -1
    cdef int winners, how, discarder, win_tile, best_a, claimed
    cdef int cnt[3]
    cdef int won = 0, n_won = 0, n_ev = 0, event = 0, exhausted = 1
    cdef int ev_how = 0, ev_disc = -1, ev_tile = -1, ev_flags = 0, ev_last = 0, ev_lk = -1
    cdef int flipped = -1, row = 0, replaced = 0, first_disc = -2
    cdef const int8_t* faces
    # shuffle
    for i in range(n_wall - 1, 0, -1):
        j = <int>bounded_u32(rng, <uint32_t>(i + 1))
        t = wall[i]
        wall[i] = wall[j]
        wall[j] = <int8_t>t
    dealer = <int>bounded_u32(rng, 4)
    memset(P, 0, sizeof(P))
    memset(vis, 0, sizeof(vis))
    f = 0
    b = n_wall - 1
    if R.flip:               # the indicator: a uniformly random tile, out of play
        flipped = wall[b]
        b -= 1
        row = flipped
    eval_row(E, R, row)
    faces = R.faces + N_CODES * row
    for i in range(4):
        for j in range(13):
            take(&P[(dealer + i) % 4], wall, &f, &b, 0, faces, &replaced)
        P[i].void_suit = -1
    rec[R_DEALER] = dealer
    rec[R_DISCARDER] = -1
    rec[R_WINNERS] = 0
    rec[R_WIN_TILE] = -1
    rec[R_FLAGS] = 0
    rec[R_LAST_KONG] = -1
    rec[R_VOID] = 0xFF
    rec[R_FLIPPED] = flipped
    cur = dealer
    t = take(&P[cur], wall, &f, &b, 0, faces, &replaced)
    if R.sichuan:            # 定缺 after the deal (the dealer's 14 tiles included)
        rec[R_VOID] = 0
        for i in range(4):
            for j in range(3):
                cnt[j] = 0
                for k in range(9 * j, 9 * j + 9):
                    cnt[j] += P[i].c[k]
            P[i].void_suit = 0
            if cnt[1] < cnt[P[i].void_suit]:
                P[i].void_suit = 1
            if cnt[2] < cnt[P[i].void_suit]:
                P[i].void_suit = 2
            rec[R_VOID] |= P[i].void_suit << (2 * i)
    drawn = 1
    after_kong = replaced
    how = 3
    winners = 0
    discarder = -1
    win_tile = -1
    flags = 0
    P[cur].n_draws = 1
    for i in range(MAX_EVENTS * N_EV):
        ev[i] = -1
    while True:
        if event:
            event = 0
            ev[N_EV * n_ev] = ev_how
            ev[N_EV * n_ev + 1] = ev_disc
            ev[N_EV * n_ev + 2] = ev_tile
            ev[N_EV * n_ev + 3] = ev_flags
            ev[N_EV * n_ev + 4] = winners
            ev[N_EV * n_ev + 5] = ev_lk
            ev[N_EV * n_ev + 6] = won
            if n_ev == 0:
                how = ev_how
                discarder = ev_disc
                win_tile = ev_tile
                flags = ev_flags
                rec[R_LAST_KONG] = ev_lk
            n_ev += 1
            won |= winners
            winners = 0
            n_won = 0
            for i in range(4):
                n_won += won >> i & 1
            if not R.xuezhan or n_won >= 3 or n_ev >= MAX_EVENTS:
                exhausted = 0
                break
            cur = (ev_last + 1) % 4               # the seat after the (last) winner draws
            while won >> cur & 1:
                cur = (cur + 1) % 4
            t = take(&P[cur], wall, &f, &b, 0, faces, &replaced)
            if t < 0:
                break
            P[cur].n_draws += 1
            drawn = 1
            after_kong = replaced
        # ---- cur holds 3k+2 tiles; ``drawn``: t was just drawn from the wall
        if drawn:
            flags = FL_AFTER_KONG if after_kong else 0
            if f > b:
                flags |= FL_LAST_TILE
            if calls == 0 and n_disc == 0 and cur == dealer and not after_kong:
                flags |= FL_HEAVENLY
            if calls == 0 and P[cur].n_draws == 1 and cur != dealer and not after_kong:
                flags |= FL_EARTHLY
            if t < N_KINDS and vis[t] == 3:
                flags |= FL_LAST_COPY
            if can_win(&P[cur], E, R, cur, t, 1, -1, dealer, flags, flipped):
                event = 1
                ev_how = 0
                ev_disc = -1
                ev_tile = t
                ev_flags = flags
                ev_last = cur
                ev_lk = -1
                winners = 1 << cur
                continue
            # kongs on one's own turn
            k = -1
            sb = -2                        # best discard shanten, computed on demand
            if P[cur].n_melds < 4:
                for i in range(N_KINDS):
                    if R.sichuan and i // 9 == P[cur].void_suit:
                        continue
                    if P[cur].c[i] == 4:
                        if sb == -2:
                            decide(P[cur].c, P[cur].n_melds, P[cur].w, E, R, P[cur].void_suit, vis, &sb, &ub)
                        P[cur].c[i] = 0
                        s1 = shanten_of(P[cur].c, P[cur].n_melds + 1, P[cur].w, E, R)
                        P[cur].c[i] = 4
                        if s1 <= sb:
                            k = i
                            best_a = M_CONCEALED
                            break
                    elif P[cur].c[i] >= 1:
                        for j in range(P[cur].n_melds):
                            if P[cur].mk[j] == M_PUNG and P[cur].mt[j] == i:
                                if sb == -2:
                                    decide(P[cur].c, P[cur].n_melds, P[cur].w, E, R, P[cur].void_suit,
                                           vis, &sb, &ub)
                                P[cur].c[i] -= 1
                                s1 = shanten_of(P[cur].c, P[cur].n_melds, P[cur].w, E, R)
                                P[cur].c[i] += 1
                                if s1 <= sb:
                                    k = i
                                    best_a = j      # the pung to extend
                                break
                        if k >= 0:
                            best_a = M_ADDED * 16 + best_a
                            break
            if k >= 0 and n_kongs < MAX_KONGS:
                if best_a == M_CONCEALED:
                    P[cur].c[k] = 0
                    j = P[cur].n_melds
                    P[cur].mk[j] = M_CONCEALED
                    P[cur].mt[j] = <int8_t>k
                    P[cur].ms[j] = -1
                    P[cur].n_melds += 1
                    vis[k] += 4
                    kongs[KF * n_kongs] = <int8_t>cur
                    kongs[KF * n_kongs + 1] = M_CONCEALED
                    kongs[KF * n_kongs + 2] = -1
                    kongs[KF * n_kongs + 3] = <int8_t>k
                    kongs[KF * n_kongs + 4] = <int8_t>won
                else:
                    j = best_a - M_ADDED * 16
                    P[cur].c[k] -= 1
                    # 抢杠: others may win on the added tile
                    for i in range(1, 4):
                        q = (cur + i) % 4
                        if won >> q & 1:
                            continue
                        P[q].c[k] += 1
                        if can_win(&P[q], E, R, q, k, 0, cur, dealer,
                                   FL_ROBBING_KONG | (FL_LAST_COPY if vis[k] == 3 else 0), flipped):
                            winners |= 1 << q
                            ev_last = q
                            if not R.multi:
                                break
                        else:
                            P[q].c[k] -= 1
                    if winners:
                        event = 1
                        ev_how = 2
                        ev_disc = cur
                        ev_tile = k
                        ev_flags = FL_LAST_COPY if vis[k] == 3 else 0
                        ev_lk = -1
                        continue
                    P[cur].mk[j] = M_ADDED
                    vis[k] += 1
                    kongs[KF * n_kongs] = <int8_t>cur
                    kongs[KF * n_kongs + 1] = M_ADDED
                    kongs[KF * n_kongs + 2] = -1
                    kongs[KF * n_kongs + 3] = <int8_t>k
                    kongs[KF * n_kongs + 4] = <int8_t>won
                n_kongs += 1
                t = take(&P[cur], wall, &f, &b, 1, faces, &replaced)
                if t < 0:
                    break                      # no replacement tile: draw game
                P[cur].n_draws += 1
                after_kong = 1
                continue
        # ---- discard
        d = decide(P[cur].c, P[cur].n_melds, P[cur].w, E, R, P[cur].void_suit, vis, &sb, &ub)
        n_disc += 1
        if d < 0:                          # only wildcards left: a discarded wildcard is dead
            P[cur].w -= 1
            t = draw_next(P, &cur, won, wall, &f, &b, faces, &replaced)
            if t < 0:
                break
            P[cur].n_draws += 1
            drawn = 1
            after_kong = replaced
            continue
        P[cur].c[d] -= 1
        P[cur].disc[d] += 1
        vis[d] += 1
        if d == R.first_kind and first_disc == -2:
            first_disc = cur
        kong_discard = after_kong and drawn
        last = f > b
        flags = 0
        if kong_discard:
            flags |= FL_KONG_DISCARD
        if last:
            flags |= FL_LAST_TILE
        if vis[d] == 4:
            flags |= FL_LAST_COPY
        if n_disc == 1 and calls == 0:
            flags |= FL_FIRST_DISCARD
        for i in range(1, 4):
            q = (cur + i) % 4
            if won >> q & 1:
                continue
            P[q].c[d] += 1
            if can_win(&P[q], E, R, q, d, 0, cur, dealer, flags, flipped):
                winners |= 1 << q
                ev_last = q
                if not R.multi:
                    break
            else:
                P[q].c[d] -= 1
        if winners:
            P[cur].disc[d] -= 1            # the winners take the discard
            if first_disc == cur and d == R.first_kind and P[cur].disc[d] == 0:
                first_disc = -1
            event = 1
            ev_how = 1
            ev_disc = cur
            ev_tile = d
            ev_flags = flags
            ev_lk = n_kongs - 1 if kong_discard else -1
            continue
        if last:
            break
        # 杠 / 碰
        claimed = -1
        for i in range(1, 4):
            q = (cur + i) % 4
            if won >> q & 1 or P[q].c[d] < 2 or P[q].n_melds >= 4 or (R.sichuan and d // 9 == P[q].void_suit):
                continue
            s0 = shanten_of(P[q].c, P[q].n_melds, P[q].w, E, R)
            if P[q].c[d] == 3 and n_kongs < MAX_KONGS:
                P[q].c[d] = 0
                s1 = shanten_of(P[q].c, P[q].n_melds + 1, P[q].w, E, R)
                P[q].c[d] = 3
                if s1 <= s0:
                    claimed = q
                    best_a = M_KONG
                    break
            u0 = ukeire(P[q].c, P[q].n_melds, P[q].w, s0, E, R, P[q].void_suit, vis)
            P[q].c[d] -= 2
            vis[d] += 2
            P[q].n_melds += 1
            decide(P[q].c, P[q].n_melds, P[q].w, E, R, P[q].void_suit, vis, &s1, &u1)
            P[q].n_melds -= 1
            P[q].c[d] += 2
            vis[d] -= 2
            if s1 < s0 or (s1 == s0 and u1 > u0):
                claimed = q
                best_a = M_PUNG
            break
        if claimed < 0 and R.chow and d < 27:
            q = (cur + 1) % 4
            if P[q].n_melds < 4:
                s0 = shanten_of(P[q].c, P[q].n_melds, P[q].w, E, R)
                u0 = -1
                sb = INF + 1
                ub = -1
                for j in range(3):
                    k = d - 2 + j          # lowest tile of the chow
                    if k < 0 or k // 9 != d // 9 or (k + 2) // 9 != d // 9:
                        continue
                    if (k != d and P[q].c[k] == 0) or (k + 1 != d and P[q].c[k + 1] == 0) \
                            or (k + 2 != d and P[q].c[k + 2] == 0):
                        continue
                    if u0 < 0:
                        u0 = ukeire(P[q].c, P[q].n_melds, P[q].w, s0, E, R, -1, vis)
                    P[q].c[d] += 1
                    P[q].c[k] -= 1
                    P[q].c[k + 1] -= 1
                    P[q].c[k + 2] -= 1
                    P[q].n_melds += 1
                    decide(P[q].c, P[q].n_melds, P[q].w, E, R, -1, vis, &s1, &u1)
                    P[q].n_melds -= 1
                    P[q].c[k] += 1
                    P[q].c[k + 1] += 1
                    P[q].c[k + 2] += 1
                    P[q].c[d] -= 1
                    if (s1 < s0 or (s1 == s0 and u1 > u0)) and (s1 < sb or (s1 == sb and u1 > ub)):
                        sb = s1
                        ub = u1
                        claimed = q
                        best_a = 100 + k
        if claimed >= 0:
            q = claimed
            P[cur].disc[d] -= 1
            if first_disc == cur and d == R.first_kind and P[cur].disc[d] == 0:
                first_disc = -1            # the first discard of that kind was claimed
            j = P[q].n_melds
            P[q].ms[j] = <int8_t>cur
            if best_a == M_KONG:
                P[q].c[d] = 0
                P[q].mk[j] = M_KONG
                P[q].mt[j] = <int8_t>d
                vis[d] += 3
                kongs[KF * n_kongs] = <int8_t>q
                kongs[KF * n_kongs + 1] = M_KONG
                kongs[KF * n_kongs + 2] = <int8_t>cur
                kongs[KF * n_kongs + 3] = <int8_t>d
                kongs[KF * n_kongs + 4] = <int8_t>won
                n_kongs += 1
            elif best_a == M_PUNG:
                P[q].c[d] -= 2
                P[q].mk[j] = M_PUNG
                P[q].mt[j] = <int8_t>d
                vis[d] += 2
            else:
                k = best_a - 100
                P[q].c[d] += 1
                P[q].c[k] -= 1
                P[q].c[k + 1] -= 1
                P[q].c[k + 2] -= 1
                for i in range(3):
                    if k + i != d:
                        vis[k + i] += 1
                P[q].mk[j] = M_CHOW
                P[q].mt[j] = <int8_t>k
            P[q].n_melds += 1
            calls += 1
            cur = q
            if best_a == M_KONG:
                t = take(&P[cur], wall, &f, &b, 1, faces, &replaced)
                if t < 0:
                    break
                P[cur].n_draws += 1
                drawn = 1
                after_kong = 1
            else:
                drawn = 0
                after_kong = 0
            continue
        t = draw_next(P, &cur, won, wall, &f, &b, faces, &replaced)
        if t < 0:
            break
        P[cur].n_draws += 1
        drawn = 1
        after_kong = replaced
    rec[R_HOW] = how
    rec[R_DISCARDER] = discarder
    rec[R_TURN] = n_disc + 1
    rec[R_WINNERS] = won
    rec[R_EXHAUSTED] = exhausted
    rec[R_N_EVENTS] = n_ev
    rec[R_WIN_TILE] = win_tile
    rec[R_FLAGS] = flags if how != 3 else 0
    rec[R_N_KONGS] = n_kongs
    rec[R_FIRST_DISCARD] = first_disc if first_disc >= 0 else -1
    for i in range(4):
        memcpy(hands + 34 * i, P[i].c, 34)
        memcpy(seats + SEAT_FIELDS * i, P[i].fl, N_CODES)
        memcpy(seats + SEAT_FIELDS * i + N_CODES, P[i].disc, 34)
        seats[SEAT_FIELDS * i + N_CODES + 34] = <uint8_t>P[i].w
        for j in range(4):
            if j < P[i].n_melds:
                melds[12 * i + 3 * j] = P[i].mk[j]
                melds[12 * i + 3 * j + 1] = P[i].mt[j]
                melds[12 * i + 3 * j + 2] = P[i].ms[j]
            else:
                melds[12 * i + 3 * j] = -1
                melds[12 * i + 3 * j + 1] = -1
                melds[12 * i + 3 * j + 2] = -1


cdef void sim_chunk(bitgen_t* rng, const int8_t* wall0, int n_wall, const Rule* R, const uint8_t* playable,
                    int n_games, int32_t* rec, uint8_t* hands, int8_t* melds, int8_t* kongs,
                    int32_t* ev, uint8_t* seats) noexcept nogil:
    cdef int8_t wall[MAX_WALL]
    cdef int g
    cdef Eval E
    eval_init(&E, R, playable)
    memcpy(wall, wall0, n_wall)
    for g in range(n_games):
        play_game(rng, wall, n_wall, R, &E, rec + N_REC * g, hands + 136 * g, melds + 48 * g,
                  kongs + KF * MAX_KONGS * g, ev + MAX_EVENTS * N_EV * g, seats + 4 * SEAT_FIELDS * g)
    memo_free(&E.memo)


def discard_table(const uint8_t[::1] counts, int n_melds, int forms, int options):
    """The policy's table evaluation of a 3k+2 hand without wildcards: per discard, the
    shanten after it (:func:`table_discards`) and the kinds whose draw would then lower that
    shanten (:func:`accepted`); for the tests, which compare them with the shanten kernel.

    Parameters
    ----------
    counts : uint8[34]
        Concealed counts (3k+2 tiles, at most 4 of a kind).
    n_melds : int
        Melds made (``3 * n_melds`` + the concealed tiles = 14).
    forms, options : int
        Forms among standard / seven pairs / thirteen orphans; option bits of the shanten kernel.

    Returns
    -------
    list
        Per kind: ``(shanten, accepted kinds)`` after discarding one of it, None for the kinds
        not held.
    """
    cdef Params p
    cdef Table T
    cdef Policy pol
    cdef uint8_t cap[34]
    cdef uint8_t play[34]
    cdef uint8_t h[34]
    cdef int8_t sd[34]
    cdef int k, j, n = 0
    cdef uint64_t acc
    if counts.shape[0] != 34:
        raise ValueError("counts needs 34 entries")
    for k in range(34):
        if counts[k] > 4:
            raise ValueError("at most 4 of a kind")
        n += counts[k]
    if n_melds < 0 or n + 3 * n_melds != 14:
        raise ValueError("a 3k+2 hand: 3 * n_melds + the concealed tiles = 14")
    if forms & ~(F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS) or not forms:
        raise ValueError("forms among standard, seven pairs and thirteen orphans")
    memset(cap, 4, 34)
    memset(play, 1, 34)
    params_init(&p, cap, play, forms, options)
    memset(&pol, 0, sizeof(Policy))    # no memo: each hand evaluated afresh on the table path
    pol.table = &p
    table_init(&T, &counts[0], n_melds, &p)
    table_discards(&T, &counts[0], sd)
    out = []
    for k in range(34):
        if sd[k] == 127:
            out.append(None)
            continue
        memcpy(h, &counts[0], 34)
        h[k] -= 1
        acc = pol_accepted(&pol, h, n_melds, sd[k])
        out.append((sd[k], [j for j in range(34) if acc >> j & 1]))
    return out


@cython.boundscheck(False)
def simulate_games_kernel(list bitgens,                 # IN one BitGenerator per chunk
                          const int32_t[::1] games,     # IN games per chunk
                          const int8_t[::1] wall,       # IN the rule's tiles (codes 0..47)
                          const int8_t[:, ::1] faces,   # IN (n_rows, 48) role of each code
                          const uint8_t[:, ::1] copies,    # IN (n_rows, 34) natural copies in play
                          const uint8_t[:, ::1] playable,  # IN (n_rows, 34) what a wildcard may be
                          int forms, int options, bint chow, bint sichuan, bint multi, bint xuezhan,
                          bint flip, int first_kind,
                          object suzhou,                # None or (need self-draw, need discard, hard only)
                          object checker,               # None or callable (see Parameters)
                          int32_t[:, ::1] rec,          # OUT (n_games, N_RECORD)
                          uint8_t[:, :, ::1] hands,     # OUT (n_games, 4, 34)
                          int8_t[:, :, :, ::1] melds,   # OUT (n_games, 4, 4, 3) kind, tile, source
                          int8_t[:, :, ::1] kongs,      # OUT (n_games, MAX_KONG_LOG, 5) konger, kind, feeder, tile, won
                          int32_t[:, :, ::1] events,    # OUT (n_games, MAX_WIN_EVENTS, N_EVENT_FIELDS)
                          uint8_t[:, :, ::1] seats,     # OUT (n_games, 4, N_SEAT_FIELDS)
                          int n_threads=1):
    """Play every chunk; chunk ``c`` uses ``bitgens[c]`` and fills its games' rows in order.

    The BitGenerators must be private to this call (spawned streams): they are advanced
    without taking their locks.

    Parameters
    ----------
    bitgens : list of BitGenerator
        One per chunk.
    games : int32[n_chunks]
        Games per chunk; rows of the outputs are the chunks' games in order.
    wall : int8[n]
        The tiles in play, as codes of :mod:`mjfast.tiles` (bonus tiles included), ``n <= 160``.
    faces : int8[n_rows, 48]
        The role each code plays: the kind 0..33 it counts as (金华's 白板 as the 财神's face),
        :data:`WILD` or :data:`FLOWER`.  With ``flip`` the row is the flipped code's, so
        ``n_rows == 48``; otherwise one row.
    copies : uint8[n_rows, 34]
        Natural copies of each kind in play (per row), for the policy's 进张.
    playable : uint8[n_rows, 34]
        Kinds a wildcard may stand for (per row).
    forms, options : int
        Form and option bits of the shanten kernel (缺一门 is handled by ``sichuan``).
    chow, sichuan, multi, xuezhan : bool
        Chow from the left; 定缺 / no calls in the void suit; several winners on one discard;
        血战到底 (play on after a win until three seats have won or the wall is exhausted).
    flip : bool
        Turn up an indicator (a uniformly random tile, out of play) after the shuffle.
    first_kind : int
        A kind whose first discard is recorded (贵阳 冲锋鸡), -1 for none.
    suzhou : tuple or None
        ``(need_self_draw, need_discard, hard_only)``: decide 苏州's 花 minimum here (the
        thresholds of the rule's options; ``hard_only``: only hard flowers count) instead of
        asking a checker; None for every other rule.
    checker : callable or None
        ``checker(seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds,
        flowers, flipped) -> bool`` with ``counts`` the 34 concealed counts as bytes (the
        winning tile included; a drawn wildcard is ``tile == WILD`` and counted in
        ``wilds``), ``melds`` a tuple of ``(kind, lowest tile, source seat)``, ``flowers``
        48 bytes of flowers laid aside by code, ``flipped`` the indicator's code or -1; asked
        (with the GIL) at every potential win; exceptions count as False, so the caller must
        record them.  None accepts every complete hand.
    rec : int32[n_games, N_RECORD]
        dealer, how of the first win (0 self-draw, 1 discard, 2 robbing a kong, 3 none),
        its discarder (-1), turn (1 + discards), winners mask, first winning tile, its
        flags (1 after a kong or a flower, 2 杠上炮, 4 天胡, 8 a non-dealer's self-draw on his
        first draw, 16 last wall tile, 32 last copy, 64 the dealer's first discard), kongs made, the 杠上炮 kong index, 四川 void suits (2 bits per seat), wall
        exhausted, win events, the flipped code (-1), the seat of an unclaimed first
        ``first_kind`` discard (-1).
    hands : uint8[n_games, 4, 34]
        Final concealed natural counts (a winner's hand includes his winning tile).
    melds : int8[n_games, 4, 4, 3]
        ``(kind, lowest tile, source seat)``, kind 0 chow, 1 pung, 2 exposed kong, 3 added
        kong, 4 concealed kong; -1 rows after the last meld.
    kongs : int8[n_games, MAX_KONG_LOG, KONG_FIELDS]
        Kongs in order: konger, kind, feeder (-1), tile, mask of seats that had won.
    events : int32[n_games, MAX_WIN_EVENTS, N_EVENT_FIELDS]
        Win events in order: how, discarder, tile, flags, winners mask, 杠上炮 kong index,
        mask of seats that had won before.
    seats : uint8[n_games, 4, N_SEAT_FIELDS]
        Per seat: flowers laid aside by code (48), unclaimed discards by kind (34), wildcards held.
    n_threads : int
        OpenMP threads.
    """
    cdef Py_ssize_t n_chunks = len(bitgens)
    cdef Py_ssize_t ci
    cdef int i, j, n_rows = faces.shape[0]
    cdef Rule R
    cdef uint8_t playable_all[34]
    cdef bitgen_t** rngs = NULL
    cdef int32_t* offs = NULL
    cdef Params* rows = NULL
    cdef long long total = 0
    cdef uint8_t cap4[34]
    memset(cap4, 4, 34)
    if n_rows < 1 or faces.shape[1] != N_CODES or copies.shape[0] != n_rows or copies.shape[1] != 34 \
            or playable.shape[0] != n_rows or playable.shape[1] != 34:
        raise ValueError("faces, copies and playable need (n_rows, 48), (n_rows, 34), (n_rows, 34)")
    if flip and n_rows != N_CODES:
        raise ValueError("a flipping rule needs one table row per code (48)")
    for i in range(n_rows):
        for j in range(N_CODES):
            if faces[i, j] < 0 or faces[i, j] > ROLE_FLOWER:
                raise ValueError("faces must be kinds 0..33, WILD or FLOWER")
    if games.shape[0] != n_chunks:
        raise ValueError("games needs one entry per BitGenerator")
    if wall.shape[0] > MAX_WALL or wall.shape[0] < 4 * 13 + 2:
        raise ValueError(f"the wall holds 54..{MAX_WALL} tiles")
    for i in range(wall.shape[0]):
        if wall[i] < 0 or wall[i] >= N_CODES:
            raise ValueError("wall tokens must be codes 0..47")
    if first_kind < -1 or first_kind >= N_KINDS:
        raise ValueError("first_kind must be a kind or -1")
    for i in range(n_chunks):
        if games[i] < 0:
            raise ValueError("games per chunk must be >= 0")
        total += games[i]
    if rec.shape[0] != total or rec.shape[1] != N_REC or hands.shape[0] != total or hands.shape[1] != 4 \
            or hands.shape[2] != 34 or melds.shape[0] != total or melds.shape[1] != 4 or melds.shape[2] != 4 \
            or melds.shape[3] != 3 or kongs.shape[0] != total or kongs.shape[1] != MAX_KONGS or kongs.shape[2] != KF \
            or events.shape[0] != total or events.shape[1] != MAX_EVENTS or events.shape[2] != N_EV \
            or seats.shape[0] != total or seats.shape[1] != 4 or seats.shape[2] != SEAT_FIELDS:
        raise ValueError("output arrays have the wrong shape")
    for i in range(34):
        playable_all[i] = 1             # the fast shanten path; absent kinds are never drawn
    for i in range(6):                  # the six 组合龙 arrangements: suit of 147, 258, 369
        perm = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))[i]
        for j in range(9):
            KNITTED[i][j] = 9 * perm[j // 3] + (j % 3) + 3 * (j // 3)
    options &= ~(O_NEED_VOID | 7 * O_VOID_M)
    R.n_rows = n_rows
    R.flip = flip
    R.faces = &faces[0, 0]
    R.copies = &copies[0, 0]
    R.first_kind = first_kind
    R.options = options
    R.forms = forms & (F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS)
    R.extra = forms & (F_THIRTEEN_LAN | F_NINE_TERMINALS)
    R.prune = R.forms == forms
    R.slow = (forms & (F_HONORS_KNITTED | F_SEVEN_STARS | F_KNITTED_STRAIGHT)) != 0
    params_init(&R.p_hk, &cap4[0], playable_all, forms & (F_HONORS_KNITTED | F_SEVEN_STARS), options)
    params_init(&R.p_ks, &cap4[0], playable_all, forms & F_KNITTED_STRAIGHT, options)
    R.chow = chow
    R.sichuan = sichuan
    R.multi = multi
    R.xuezhan = xuezhan
    R.check = checker is not None
    R.checker = <void*>checker
    R.suzhou = suzhou is not None
    if R.suzhou:
        R.sz_need[0], R.sz_need[1], R.sz_hard_only, R.sz_qg_exempt = suzhou
    if n_chunks == 0 or total == 0:
        return
    rngs = <bitgen_t**>malloc(n_chunks * sizeof(bitgen_t*))
    offs = <int32_t*>malloc(n_chunks * sizeof(int32_t))
    rows = <Params*>malloc(n_rows * sizeof(Params))
    if rngs == NULL or offs == NULL or rows == NULL:
        free(rngs)
        free(offs)
        free(rows)
        raise MemoryError()
    try:
        for i in range(n_rows):
            params_init(&rows[i], &cap4[0], &playable[i, 0], forms & (F_THIRTEEN_LAN | F_NINE_TERMINALS), options)
        R.rows = rows
        total = 0
        for ci in range(n_chunks):
            rngs[ci] = bitgen_pointer(bitgens[ci])
            offs[ci] = <int32_t>total
            total += games[ci]
        kongs[:, :, :] = -1
        for ci in prange(n_chunks, nogil=True, schedule="dynamic", num_threads=max(1, n_threads)):
            if games[ci] > 0:
                sim_chunk(rngs[ci], &wall[0], <int>wall.shape[0], &R, playable_all, games[ci],
                          &rec[offs[ci], 0], &hands[offs[ci], 0, 0], &melds[offs[ci], 0, 0, 0],
                          &kongs[offs[ci], 0, 0], &events[offs[ci], 0, 0], &seats[offs[ci], 0, 0])
    finally:
        free(rngs)
        free(offs)
        free(rows)
