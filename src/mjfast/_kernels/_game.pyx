"""Game kernel: full four-player games under a rule, with an efficiency policy.

One *chunk* of games uses one private random stream (a ``bitgen_t`` from a spawned
``SeedSequence``); chunks run in parallel under ``prange`` and share nothing that could change
a result, so the outcome depends only on the seed, never on threads or executors.

Per game: the wall is shuffled (Fisher–Yates), the dealer is drawn uniformly (or given: the
hands of a match), two dice are thrown when the rule's round state needs them, 13 tiles are
dealt to each seat and the dealer draws.  Every seat plays the efficiency policy (its calls as
its ``seat_policies`` entry says: the test below, every legal call, or none; staying concealed
unless a call makes the hand ready), or the value player (its ``seat_policies`` value bits:
discards and calls by the rating of ``rate_hand`` over the rule's ``pattern_values``, the
lone-wildcard wait, and, when it defends, the danger of each discard; see
:class:`mjfast.policies.Value`), or asks a Python user policy for some decisions (the ``user``
callback, with the GIL, only for the seats whose mask says so).  The efficiency policy:

* discard: (定缺) a tile of the seat's void suit (the suit it holds fewest of after the deal,
  ties to the lower suit) while it holds one, the lowest such kind; otherwise the least
  shanten, then the most 进张 (copies of the accepting kinds not in the seat's hand and not
  visible: discards and melds), ties to the lowest kind;
* concealed / added kong on its own turn when the shanten after the kong (before the
  replacement draw) is no worse than the best discard;
* on a discard: 胡 first (every seat that can, in turn order from the discarder, when the
  rule allows several winners, else the first: 截和), then 杠 (3 held; when the shanten does
  not rise) or 碰 (when the best discard afterwards lowers the shanten, or keeps it with more
  进张), then 吃 from the left (the same test) where the rule allows it -- under the rule's honour
  chows also a wind with two other different winds, a dragon with the two others; under
  ``wild_chow`` also with wildcards for one or two of the chow's other tiles (natural tiles
  preferred on a tie), which stay in the meld.  No seat claims the
  discard made after the last wall tile was drawn.  With ``call_locks`` a seat that passed a
  碰, or discarded one of three tiles it held, does not 碰 / 杠 that kind before its next draw.
* 飞 / 宝吊头 (``wild_head``): with ``fei_policy`` 1 a seat whose self-drawn hand is complete
  and can be discarded down to complete sets (or six pairs) plus a lone wildcard declines the
  win and discards to that wait, makes no call and takes no discard win while it waits, and
  wins on its next self-draw; the flags of that win say whether the rule's wait was kept
  (``go_around``: no 碰, 杠 or 胡 since the declaration) or broken.  A user policy's seat declares
  the same wait by declining its complete self-drawn hand and discarding a tile that leaves it.

A *potential win* is a complete hand (shanten −1; under 定缺 also none of the void suit).  A
flower minimum (苏州's 花 thresholds with their exemptions) is decided here from the counts,
melds and flowers; for the other rules with a ``checker`` the kernel asks it (with the GIL,
only at that moment) whether the rule accepts the win; everything else runs without the GIL.
A game ends at the first accepted win (several seats on one discard) or when the wall is
exhausted; with ``play_on`` (血战到底) the seats that have won stop playing and the others play
on until three have won or the wall is exhausted.  The kernel records the win events, the
outcome, the final hands and melds (in the order they were made) and every kong; scoring and
settlement happen in :mod:`mjfast.simulation.games`.
"""
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.math cimport pow
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

from mjfast._kernels._shanten cimport (
    Params, params_init, shanten_one, shanten_below, N_KINDS, INF, F_STANDARD, F_SEVEN_PAIRS, F_THIRTEEN_ORPHANS,
    F_HONORS_KNITTED, F_KNITTED_STRAIGHT, F_SEVEN_STARS, F_THIRTEEN_LAN, F_NINE_TERMINALS, O_NEED_VOID, O_VOID_M,
    O_HONOUR_CHOWS)
from mjfast._kernels._rng cimport bitgen_pointer, bounded_u32
from mjfast._kernels._mcr cimport mcr_fan_total, mcr_ready, MCR_CHOW, MCR_PUNG, MCR_KONG
from mjfast._kernels._policy cimport (Memo, Policy, Table, memo_init, memo_free, pol_shanten, pol_accepted,
                                      pol_ukeire, pol_decide, table_init, table_discards)
from mjfast._kernels._policy cimport CALL_FASTER, CALL_ALWAYS, CALL_NEVER, pol_claims, pol_kongs
from mjfast._kernels._policy cimport Hopes, ReachMemo, BOUNDS_SIZE, bounds_init, rate_hand, val_decide, \
    group_of, gates_add, PAT_PLAIN, \
    N_PATTERNS, knit_most, knitted_straight_bound, honours_knitted_bound

cdef enum:
    # positions in R.knobs of the value players' weights (VALUE_KNOBS) read by name
    KNOB_FAN_WAIT = 9
    KNOB_FAN_RISK = 10
    KNOB_FAN_HAZARD = 11
    N_KNOBS = 12
    N_FLOWER_ROWS = 8    # the value players' pattern values by flowers held: 0 .. 7 and more

cdef enum:
    MAX_WALL = 160
    N_CODES = 48         # tile codes of mjfast.tiles: 34 playable kinds, then the bonus tiles
    ROLE_WILD = 34       # roles of a code in a game (faces table): a kind 0..33, a wildcard
    ROLE_FLOWER = 35     # or a flower (laid aside and replaced from the back of the wall)
    SEAT_FIELDS = 84     # per seat: flowers by code [0, 48), discards left by kind [48, 82), wilds, 飞 declared
    MAX_KONGS = 16
    KF = 5               # fields per kong: konger, kind, feeder, tile, seats that had won
    # fields per meld: kind, lowest tile (a chow: its code, chow_tile), source seat, order made,
    # the chow's tiles a wildcard holds (bit i: chow_tile(code, i); 0: none)
    MF = 5
    WILD_SHIFT = 6       # a chow's code | its wildcard bits << WILD_SHIFT: the log and the user options
    CODE_MASK = 63       # the chow's code of such a tile
    LOG2_MEMO = 13
    LOG_FIELDS = 3       # action log entries: action, seat, tile

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
    R_FIRST_DISCARD = 13  # seat of the first discard of kind ``first_kind`` if nobody claimed it, else -1
    R_DICE = 14          # 6 * (die 1 - 1) + (die 2 - 1), -1 when no dice are thrown
    N_REC = 15

# win events (int32 ev[3 * N_EV] per game): how, discarder, tile, flags, winners mask,
# the kong index of a 杠上炮 or of a win on a kong's replacement (-1), seats that had won before
cdef enum:
    N_EV = 7
    MAX_EVENTS = 3

# flags
cdef enum:
    FL_AFTER_KONG = 1        # on the replacement of a kong or a flower (FL_AFTER_FLOWER: a flower's)
    FL_KONG_DISCARD = 2
    FL_HEAVENLY = 4
    FL_EARTHLY = 8
    FL_LAST_TILE = 16
    FL_LAST_COPY = 32
    FL_FIRST_DISCARD = 64    # won on the dealer's first discard, before any call (瑞金 地胡, 人和)
    FL_ROBBING_KONG = 128    # a potential win on the tile of an added kong (asked, not recorded)
    FL_AFTER_FLOWER = 256    # the replacement of a flower drawn in the normal turn, no kong
    FL_FIRST_ROUND = 512     # before the dealer's second draw, no call and no kong made yet
    FL_FEI = 1024            # a declared 飞 / 宝吊头 wait, kept as the rule requires
    FL_FEI_BROKEN = 2048     # a declared wait that the rule's go-around no longer counts
    FL_WIND_SHIFT = 12       # bits 12-13: the prevalent wind of the game (0-3 = E S W N)
    FL_WIND_MASK = 3 << 12

# meld kinds
cdef enum:
    M_CHOW = 0
    M_PUNG = 1
    M_KONG = 2           # exposed kong on a discard
    M_ADDED = 3
    M_CONCEALED = 4

# action log (tests): what happened, in order
cdef enum:
    A_DRAW = 0           # tile drawn (the deal, a replacement too); ROLE_WILD for a wildcard
    A_DISCARD = 1
    A_PASS_PUNG = 2      # the seat could 碰 the discard and did not
    A_PUNG = 3
    A_KONG = 4           # exposed kong on a discard
    A_CHOW = 5           # tile: the chow's code (chow_tile: the lowest tile of a suit chow) | wildcard bits << 6
    A_ADDED = 6
    A_CONCEALED = 7
    A_WIN = 8
    A_FEI = 9            # 飞 / 宝吊头 declared (the discard follows)
    A_PASS_WIN = 10      # a potential win the policy declined

# what a user policy is asked (the ``user`` callback of simulate_games_kernel)
cdef enum:
    U_DISCARD = 1        # bits of a seat's user mask: which decisions the user policy makes
    U_CLAIM = 2          # claims on a discard, and kongs on its own turn
    U_WIN = 4            # whether to take a potential win the rule accepts
    ASK_DISCARD = 0
    ASK_CLAIM = 1        # a discard it may 碰 / 杠 / 吃
    ASK_KONG = 2         # kongs on its own turn
    ASK_WIN = 3
    MAX_OPTIONS = 32

N_RECORD = N_REC
N_SEAT_FIELDS = SEAT_FIELDS
N_MELD_FIELDS = MF
#: A chow's log / option tile: its code | (the bits of its tiles a wildcard holds) << CHOW_WILD_SHIFT.
CHOW_WILD_SHIFT = WILD_SHIFT
WILD = ROLE_WILD
FLOWER = ROLE_FLOWER
N_EVENT_FIELDS = N_EV
MAX_WIN_EVENTS = MAX_EVENTS
KONG_FIELDS = KF
MAX_KONG_LOG = MAX_KONGS
N_LOG_FIELDS = LOG_FIELDS
#: Rows of ``flower_values`` at most (a seat holding 0 .. FLOWER_ROWS - 1 flowers, the last: or more).
FLOWER_ROWS = N_FLOWER_ROWS
#: Action codes of the log, by name.
ACTIONS = {"draw": A_DRAW, "discard": A_DISCARD, "pass_pung": A_PASS_PUNG, "pung": A_PUNG, "kong": A_KONG,
           "chow": A_CHOW, "added_kong": A_ADDED, "concealed_kong": A_CONCEALED, "win": A_WIN, "fei": A_FEI,
           "pass_win": A_PASS_WIN}
#: Flag bits of the records and win events, by name.
FLAGS = {"after_kong": FL_AFTER_KONG, "kong_discard": FL_KONG_DISCARD, "heavenly": FL_HEAVENLY,
         "earthly": FL_EARTHLY, "last_tile": FL_LAST_TILE, "last_copy": FL_LAST_COPY,
         "first_discard": FL_FIRST_DISCARD, "robbing_kong": FL_ROBBING_KONG, "after_flower": FL_AFTER_FLOWER,
         "first_round": FL_FIRST_ROUND, "fei": FL_FEI, "fei_broken": FL_FEI_BROKEN}
#: Shift of the prevalent wind in the flags (``flags >> WIND_SHIFT & 3``).
WIND_SHIFT = FL_WIND_SHIFT
#: Values of ``wild_head``.
WILD_HEADS = {None: 0, "go_around": 1, "next_draw": 2}
#: Values of ``win_lock``.
WIN_LOCKS = {None: 0, "any": 1, "same_kind": 2}
#: Call modes of a seat (``seat_policies``).
CALL_MODES = {"faster": CALL_FASTER, "always": CALL_ALWAYS, "never": CALL_NEVER}
import numpy as np

#: The value players' patterns, in the order of the rows of ``pattern_values``.
PATTERNS = ("plain", "flush", "half_flush", "pungs", "seven_pairs", "honours_knitted", "knitted_straight",
            "mixed_straight", "mixed_triple_chow", "pure_straight", "mixed_shifted_chows", "pure_shifted_chows",
            "five_gates")
#: Bits of a seat's value entry (``seat_policies``): it plays the value player, and defends.
VALUE_BITS = {"value": V_VALUE, "defend": V_DEFEND}
#: Bits of a seat's user mask (``seat_policies``): the decisions its user policy makes.
USER_BITS = {"discard": U_DISCARD, "claim": U_CLAIM, "declare_win": U_WIN}
#: What the ``user`` callback is asked, by name.
ASKS = {"discard": ASK_DISCARD, "claim": ASK_CLAIM, "kong": ASK_KONG, "win": ASK_WIN}

ctypedef struct Player:
    uint8_t c[34]        # concealed natural tiles by the kind they play as
    uint8_t fl[48]       # flowers laid aside, by code
    uint8_t disc[34]     # own discards nobody claimed
    int w                # wildcards held
    int8_t mk[4]
    int8_t mt[4]         # lowest tile of the meld
    int8_t ms[4]         # seat the claimed tile came from (-1: concealed kong)
    int8_t mo[4]         # order the meld was made in (per game, over all seats)
    int8_t mw[4]         # the chow's tiles a wildcard holds (bit i: chow_tile(code, i)); it stays there
    int n_melds
    int void_suit        # -1: none
    int n_draws
    uint64_t lock        # kinds this seat may not 碰 / 杠 before its next draw (call locks)
    int fei              # 1: waiting with a declared lone wildcard (飞 / 宝吊头)
    int fei_mark         # calls + kongs of the game when the wait was declared
    int wlock            # 漏胡: no discard win before the next draw (a passed win, win_lock 1)
    uint64_t wlock_kinds  # 过水: kinds not to win on before the next draw or call (win_lock 2)
    int passed           # potential discard wins the pass policy declined

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
    int hchow            # 1: honour chows may be chowed too (the rule's honour chows, O_HONOUR_CHOWS)
    int wild_chow        # 1: a wildcard may stand for a tile of a called chow (瑞金)
    int void_suit        # 1: 缺一门 by 定缺, no calls in the void suit
    int multi            # several winners on one discard
    int rob_multi        # several winners robbing one kong
    int play_on          # 血战到底: play on after a win until three seats have won
    int call_locks       # a passed 碰 (or a kind discarded from three) is locked until the next draw
    int wild_head        # 0 none, 1 go-around wait (瑞金 制飞), 2 next-draw wait (上饶 宝吊头)
    int fei_policy       # 1: declare the lone-wildcard wait whenever a self-drawn hand allows it
    int pung_policy      # 1: 碰 whenever allowed (a test policy), 0: when it helps the hand
    # after a passed win: 0 no lock, 1 no discard win until the next draw (漏胡), 2 no win on
    # that kind until the next draw or call (过水)
    int win_lock
    int pass_policy      # 1: decline each seat's first potential discard win (a test policy)
    int forced_left      # wall size from which every potential win must be taken (0: none)
    int dice             # throw two dice per game
    int check            # ask the checker at every potential win
    void* checker
    int flower_min       # 1: a flower minimum decided here (no checker)
    int fm_need[2]       # 花 needed for a self-draw, for a discard win
    int fm_hard_only     # 1: only hard flowers count towards the minimum
    int fm_qg_exempt     # 1: a 抢杠 win needs no minimum
    int fm_discard_pung  # 1: a wind triplet completed by the winning discard is a 风碰 (SZ-A4)
    int fan_search       # 1: 国标's compiled fan search scores this rule (the value players' wait for more 番)
    int fan_min          # 1: it also decides the 8-番 minimum here (no checker)
    int fan_opts         # its option bits (mjfast._kernels._mcr)
    int fan_last_copy    # 1: 和绝张 is scored
    int fan_flower_bloom  # 1: a win on a flower's replacement is 杠上开花
    double fan_pay[4]    # the winner's receipt: self-drawn base and per 番, on a discard base and per 番
    int slow             # forms beyond standard / seven pairs / thirteen orphans (国标)
    Params p_hk          # 全不靠 / 七星不靠 alone
    Params p_ks          # 组合龙 alone
    Params* rows         # [n_rows] 十三浪 / 九幺 with the row's wildcard (playable kinds)
    int call_mode[4]     # per seat: CALL_FASTER, CALL_ALWAYS or CALL_NEVER
    int keep_conc[4]     # per seat: stay concealed unless a call makes the hand ready
    int user_mask[4]     # per seat: U_* decisions made by the user policy
    int value[4]         # per seat: V_VALUE (the value player), V_DEFEND (which also defends)
    double pat_values[4 * N_PATTERNS]   # a win's value by pattern, concealed / open, self-drawn / on a discard
    int n_fl_rows        # rows of fl_values (0: a seat's flowers do not select its values)
    double fl_values[N_FLOWER_ROWS * 4 * N_PATTERNS]  # pat_values of a seat holding 0, 1 .. flowers
    int honours          # honour kinds are in play
    double knobs[N_KNOBS]  # the value players' weights (VALUE_KNOBS, in order)
    int any_user         # some seat has a user policy (``user`` is called)
    void* user


ctypedef struct Eval:          # per chunk: the policy, its memo and the shanten parameters
    Policy pol                 # the efficiency policy (pol.ctx points at this Eval)
    Memo memo                  # the chunk's memo (pol.memo NULL: none)
    ReachMemo* reach           # the value players' table of :func:`reach` (NULL: none)
    Params p                   # every kind playable, cap 4: the table fast path (no wildcard held)
    int row                    # this game's row of the rule tables
    const Rule* R


cdef int game_shanten(const uint8_t* c, int n_melds, int w, const void* ctx) noexcept nogil:
    """The policy's shanten: :func:`shanten_raw` of the chunk's rule and row."""
    cdef Eval* E = <Eval*>ctx
    return shanten_raw(c, n_melds, w, E, E.R)


cdef void eval_init(Eval* E, const Rule* R, const uint8_t* playable) noexcept nogil:
    """A chunk's evaluator at row 0, with a fresh memo when there is memory for it (else none)."""
    cdef uint8_t cap[34]
    memset(cap, 4, 34)         # caps stay 4 (the fast table path); melds change nothing for complete hands
    params_init(&E.p, cap, playable, R.forms, R.options)
    E.R = R
    E.row = 0
    E.pol.shanten = game_shanten
    E.pol.ctx = <const void*>E
    E.pol.table = &E.p if R.prune else NULL
    # the partial table path knows no honour chows either
    E.pol.part = &E.p if not R.prune and not (R.options & O_HONOUR_CHOWS) else NULL
    E.pol.bound = other_forms_bound
    E.pol.copies = R.copies
    E.pol.tag = 0
    E.pol.memo = &E.memo
    E.pol.choices = NULL
    if memo_init(&E.memo, LOG2_MEMO) != 0:
        E.pol.memo = NULL
    E.reach = <ReachMemo*>calloc(1, sizeof(ReachMemo))


cdef void eval_done(Eval* E) noexcept nogil:
    """Free the chunk's memo and table of :func:`reach`."""
    memo_free(&E.memo)
    free(E.reach)
    E.reach = NULL


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


cdef inline int knitted_shanten(const uint8_t* c, int n_melds, const Rule* R, int below) noexcept nogil:
    """The least shanten of the rule's knitted forms (组合龙 with at most one meld, 全不靠 with
    none; INF where none applies): a form's exact shanten where its cheap bound (missing
    distinct tiles of the best knitted arrangement) is under ``below`` -- lowered by each exact
    value found, the search pruned there (:func:`shanten_below`) -- else a bound at least
    ``below``, which the caller cannot use anyway."""
    cdef int best = INF, m, lb
    if not R.slow or n_melds > 1:
        return INF
    m = knit_most(c)
    if R.p_ks.forms:
        lb = knitted_straight_bound(m)
        if lb < below:
            lb = shanten_below(c, n_melds, 0, &R.p_ks, below)
            if lb < below:
                below = lb
        if lb < best:
            best = lb
    if R.p_hk.forms and n_melds == 0:
        lb = honours_knitted_bound(m, c)
        if lb < below:
            lb = shanten_below(c, n_melds, 0, &R.p_hk, below)
        if lb < best:
            best = lb
    return best


cdef int other_forms_bound(const uint8_t* c, int n_melds, int below, const void* ctx) noexcept nogil:
    """The policy's bound on the forms beyond the table path's (:func:`shanten_raw` takes each
    at least at its bound here; each bound falls by at most one per tile added, and no discard
    lowers it).  A knitted form whose cheap bound is under ``below`` is given its exact shanten
    (one shanten kernel call instead of the tries a low bound would ask for)."""
    cdef const Rule* R = (<Eval*>ctx).R
    cdef int best = INF, lb
    if R.extra:
        best = extra_bound(c, n_melds, 0, R.extra)
    lb = knitted_shanten(c, n_melds, R, below)
    return lb if lb < best else best


cdef int shanten_raw(const uint8_t* c, int n_melds, int w, Eval* E, const Rule* R) noexcept nogil:
    """Shanten over the rule's forms.  The fast table path handles standard, seven pairs and
    thirteen orphans (wildcards included: there a wildcard may stand for any kind, and a win
    that needs one to be a kind absent from the rule is turned down by the rule's check).  For
    十三浪 and 九幺 the policy uses the count of :func:`extra_bound` (exact but for kinds
    already used up, and for the strict 烂胡 reading) and the row's exact parameters confirm a
    hand that count calls complete, so every win is exact; the knitted forms (国标, no wildcards) are evaluated
    only when a cheap lower bound (:func:`knitted_shanten`) says they could do better."""
    cdef int best = shanten_one(c, n_melds, w, &E.p), i
    if R.extra:
        i = extra_bound(c, n_melds, w, R.extra)
        if i < best:
            if i <= -1:            # complete by the count: confirmed by the exact kernel
                i = shanten_one(c, n_melds, w, &R.rows[E.row])
            if i < best:
                best = i
    if w or best < 0:
        return best
    i = knitted_shanten(c, n_melds, R, best)
    return i if i < best else best


# An exception raised by a checker, by the checker's id, until the kernel call that asked raises
# it (the entry holds the checker itself, so its id cannot be reused meanwhile)
cdef dict _checker_failures = {}
cdef int _n_failures = 0         # len(_checker_failures), read without the GIL by sim_chunk


cdef int checker_failed(void* checker) noexcept with gil:
    return id(<object>checker) in _checker_failures


cdef int ask_checker(void* checker, Player* P, int seat, int tile, int self_draw, int discarder,
                     int dealer, int flags, int flipped) noexcept with gil:
    """Ask Python whether the rule accepts this potential win.

    The kernel cannot raise from here, so an exception of the checker -- a ``KeyboardInterrupt``
    delivered while it runs included -- is kept for :func:`simulate_games_kernel` to raise when
    its threads are done, and from then on the checker is not called again (every later win
    counts as no): the call fails, and its games, changed by the failure, are never returned."""
    cdef object fn = <object>checker
    cdef int i
    if _checker_failures and id(fn) in _checker_failures:
        return 0
    try:
        melds = tuple((int(P.mk[i]), int(P.mt[i]), int(P.ms[i]), int(P.mw[i])) for i in range(P.n_melds))
        return 1 if fn(seat, (<char*>P.c)[:34], melds, tile, self_draw, discarder, dealer, flags,
                       P.w, (<char*>P.fl)[:N_CODES], flipped) else 0
    except BaseException as exc:
        global _n_failures
        _checker_failures[id(fn)] = (fn, exc)
        _n_failures = len(_checker_failures)
        return 0


cdef int ask_user(const Rule* R, int what, long long game, int seat, Player* P, const uint8_t* hist,
                  int n_hist, int left, int flipped, int dealer, int tile, int turn, const int* opts,
                  int n_opts) noexcept with gil:
    """Ask the user policies' bridge (``R.user``) for seat ``seat``'s decision.

    It receives only what that seat may see: its own concealed counts and wildcards, every
    seat's melds and flowers, the discards in order, the tiles left in the wall, the indicator,
    the dealer, the tile at stake, the options and whether it waits on a lone wildcard (飞).
    Its answer: a kind to discard, an option's index (-1: pass) or 1 / 0 for a win.  An
    exception it raises is kept as a checker's is (the call fails and its games are never
    returned), and -1 lets the built-in policy decide."""
    cdef object fn = <object>R.user
    cdef int i
    if _checker_failures and id(fn) in _checker_failures:
        return -1
    try:
        melds = tuple(tuple((int(P[q].mk[i]), int(P[q].mt[i]), int(P[q].ms[i]), int(P[q].mw[i]))
                            for i in range(P[q].n_melds))
                      for q in range(4))
        flowers = tuple((<char*>P[q].fl)[:N_CODES] for q in range(4))
        options = tuple((opts[2 * i], opts[2 * i + 1]) for i in range(n_opts))
        voids = tuple(int(P[q].void_suit) for q in range(4))
        return int(fn(what, game, seat, (<char*>P[seat].c)[:34], P[seat].w, melds, flowers,
                      (<char*>hist)[:2 * n_hist], left, flipped, dealer, tile, turn, options, voids,
                      P[seat].fei != 0))
    except BaseException as exc:
        global _n_failures
        _checker_failures[id(fn)] = (fn, exc)
        _n_failures = len(_checker_failures)
        return -1


# ---------------------------------------------------------------------------------------
# The value players (mjfast.policies.Value): discards and calls by the rating of
# mjfast._kernels._policy (rate_hand), less, when defending, the expected loss of dealing in.
cdef enum:
    V_VALUE = 1
    V_DEFEND = 2
    FEI_MIN_LEFT = 8           # the lone-wildcard wait is declared while this many tiles are left

# The value players' weights, by name (VALUE_KNOBS): the last tile's chance per turn relative to a
# draw's (it comes by a draw or by another seat's discard, some 70 % of wins being discard wins);
# the factor a pattern's rating is divided by (it must beat speed clearly); the scale of the
# patterns' usual 进张; how many tiles behind the plain hand a pattern may be to count; the
# factor by which a call must raise the rating; a ready seat's chance of waiting on a given
# unsafe tile; the loss of dealing in as a multiple of a plain open hand's discard win
# (winners hold more than the plainest hand); the share of its rating a call that makes the hand
# faster (the efficiency test) must keep to be made (inf: only calls that raise the rating; the
# rating's chance within the draws left undervalues speed, so a faster call pays more often
# than the rating says); the weight of a discard's shape worth (``shape_worth``) in breaking
# ties of rating and 进张 (0: ties to the lowest kind, as Efficiency).
# The values were chosen by duplicate matches against Efficiency() (1,000 to 10,000 walls per
# rule); a rule module's VALUE_KNOBS overrides some of them for its rule.
# Then the 国标 wait for more 番 (:func:`waits_for_more`): by how much waiting must beat winning now
# (inf: never wait), a round's chance that another seat wins first, and the chance per unseen copy
# per other seat's turn that it is discarded.
VALUE_KNOBS = {"last_boost": 3.0, "pattern_margin": 1.0, "pattern_usual": 0.6, "slack": 3.0,
               "call_margin": 1.1, "deal_in": 0.01, "loss_factor": 1.5, "call_keep": 0.5, "shape": 1.0,
               "fan_wait": float("inf"), "fan_risk": 0.1, "fan_hazard": 0.02}
# Defence: an opponent's chance of being ready by its exposed melds (0..4), plus THREAT_LATE times
# the share of the wall drawn
cdef double[5] THREAT = [0.05, 0.15, 0.35, 0.7, 1.0]
DEF THREAT_LATE = 0.4
DEF DISCARDED_BY_THEM = 0.25   # a kind that opponent discarded itself: a quarter of the danger


cdef void hopes_of_rule(Hopes* H, const Rule* R) noexcept nogil:
    """The rule's part of :func:`rate_hand`'s ``Hopes``: its values, forms and weights."""
    H.values = R.pat_values
    H.hk = &R.p_hk
    H.ks = &R.p_ks
    H.pairs_ok = (R.forms & F_SEVEN_PAIRS) != 0
    H.honours = R.honours
    H.last_boost = R.knobs[0]
    H.pattern_margin = R.knobs[1]
    H.pattern_usual = R.knobs[2]
    H.slack = <int>R.knobs[3]
    H.shape = R.knobs[8]
    H.bounds = NULL
    H.reach = NULL
    H.gates = 0


cdef int set_knobs(Rule* R, object overrides) except -1:
    """R.knobs from VALUE_KNOBS and ``overrides`` (None or a dict of some of them)."""
    knobs = dict(VALUE_KNOBS)
    if overrides:
        unknown = set(overrides) - set(knobs)
        if unknown:
            raise ValueError(f"unknown value knobs {sorted(unknown)}; valid: {list(knobs)}")
        knobs.update(overrides)
    assert len(VALUE_KNOBS) == N_KNOBS
    for i, name in enumerate(VALUE_KNOBS):
        R.knobs[i] = float(knobs[name])
    return 0


cdef void probe_rule(Rule* R, Params* row, uint8_t* play, uint8_t* copies, int forms, int options) noexcept nogil:
    """The rule of the single-hand probes (:func:`policy_shanten`, :func:`value_ratings`): these
    form and option bits, every kind playable with 4 copies (``play``, ``copies`` filled here),
    nothing else set; ``row`` holds its 十三浪 / 九幺 parameters."""
    cdef uint8_t cap4[34]
    memset(cap4, 4, 34)
    memset(play, 1, 34)
    memset(copies, 4, 34)
    memset(R, 0, sizeof(Rule))
    options &= ~(O_NEED_VOID | 7 * O_VOID_M)
    R.n_rows = 1
    R.copies = copies
    R.options = options
    R.forms = forms & (F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS)
    R.extra = forms & (F_THIRTEEN_LAN | F_NINE_TERMINALS)
    R.prune = R.forms == forms and not (options & O_HONOUR_CHOWS)
    R.slow = (forms & (F_HONORS_KNITTED | F_SEVEN_STARS | F_KNITTED_STRAIGHT)) != 0
    params_init(&R.p_hk, cap4, play, forms & (F_HONORS_KNITTED | F_SEVEN_STARS), options)
    params_init(&R.p_ks, cap4, play, forms & F_KNITTED_STRAIGHT, options)
    params_init(row, cap4, play, forms & (F_THIRTEEN_LAN | F_NINE_TERMINALS), options)
    R.rows = row


cdef void hopes_of(Hopes* H, const Rule* R, const Player* S, int left, int won, ReachMemo* reach) noexcept nogil:
    """What :func:`rate_hand` needs about seat ``S`` besides its hand (``reach``: the thread's
    table of :func:`reach`, or NULL).  Under a rule with flower rows its pattern values are
    those of a seat holding the flowers ``S`` holds."""
    cdef int j, active = 4, held = 0
    hopes_of_rule(H, R)
    if R.n_fl_rows:
        for j in range(48):
            held += S.fl[j]
        if held >= R.n_fl_rows:
            held = R.n_fl_rows - 1
        H.values = R.fl_values + 4 * N_PATTERNS * held
    H.reach = reach
    H.melded = 0
    H.chowed = 0
    H.meld_chows = 0
    H.open_ = 0
    for j in range(S.n_melds):
        H.melded |= 1 << group_of(S.mt[j])
        H.gates = gates_add(H.gates, S.mt[j])
        if S.mk[j] == M_CHOW:
            H.chowed = 1
            if S.mt[j] < 27:
                H.meld_chows |= 1u << S.mt[j]
        if S.mk[j] != M_CONCEALED:
            H.open_ = 1
    for j in range(4):
        active -= won >> j & 1
    H.draws = <double>left / (active if active > 0 else 1)


cdef void danger_of(double* danger, const Rule* R, const Player* P, int me, const int16_t* vis, int left,
                    int left0, int won) noexcept nogil:
    """The expected loss (stakes) of discarding each kind seat ``me`` holds: per opponent, its
    chance of being ready (exposed melds, the wall drawn) times ``deal_in`` times the tile's danger
    (suit tiles by rank, 3-7 the most; an honour with at most one copy unseen the least; a kind
    that opponent discarded itself a quarter) times the loss of dealing in (``loss_factor``)."""
    cdef int q, k, j, m, unseen
    cdef double r, base, progress, loss = R.knobs[6] * R.pat_values[4 * PAT_PLAIN + 3]
    for k in range(N_KINDS):
        danger[k] = 0.0
    progress = 1.0 - <double>left / left0 if left0 > 0 else 1.0
    for q in range(4):
        if q == me or won >> q & 1 or P[q].fei:
            continue
        m = 0
        for j in range(P[q].n_melds):
            if P[q].mk[j] != M_CONCEALED:
                m += 1
        r = THREAT[m] + THREAT_LATE * progress
        if r > 1.0:
            r = 1.0
        for k in range(N_KINDS):
            if P[me].c[k] == 0:
                continue
            if k >= 27:
                unseen = 4 - vis[k] - P[me].c[k]
                base = 0.2 if unseen <= 1 else 0.5
            elif k % 9 == 0 or k % 9 == 8:
                base = 0.6
            elif k % 9 == 1 or k % 9 == 7:
                base = 0.8
            else:
                base = 1.0
            if P[q].disc[k]:
                base *= DISCARDED_BY_THEM
            danger[k] += r * R.knobs[5] * base * loss


cdef int value_discard(Player* P, int me, Eval* E, const Rule* R, const int16_t* vis, int left, int left0,
                       int won, int* s_out) noexcept nogil:
    """A value player's discard (:func:`val_decide`, with its danger when it defends)."""
    cdef Hopes H
    cdef double danger[34]
    cdef double bounds[BOUNDS_SIZE]
    cdef double v
    cdef int defend = R.value[me] & V_DEFEND and R.knobs[5] > 0.0   # deal_in 0: every danger is 0
    hopes_of(&H, R, &P[me], left, won, E.reach)
    bounds_init(&H, bounds)
    if defend:
        danger_of(danger, R, P, me, vis, left, left0, won)
    return val_decide(&E.pol, P[me].c, P[me].n_melds, P[me].w, P[me].void_suit, vis, &H,
                      danger if defend else NULL, s_out, &v, False)


cdef int value_claim(Player* S, int d, Eval* E, const Rule* R, int16_t* vis, int left, int won,
                     int kong_ok) noexcept nogil:
    """A value player's answer to another seat's discard ``d`` it holds two (three) of: M_KONG
    when it holds three and the kong keeps its shanten (as :class:`Efficiency`: a kong pays under
    most rules, which the rating does not count), else M_PUNG when the pung raises its rating
    by ``call_margin``, or when it passes the efficiency test (:func:`pol_claims`) and keeps at
    least ``call_keep`` of the rating, else -1."""
    cdef Hopes H
    cdef double bounds[BOUNDS_SIZE]
    cdef int s0, s1, u0, u1, call, test
    cdef double v0, v1
    s0 = shanten_of(S.c, S.n_melds, S.w, E, R)
    if S.c[d] == 3 and kong_ok:
        S.c[d] = 0
        s1 = shanten_of(S.c, S.n_melds + 1, S.w, E, R)
        S.c[d] = 3
        if s1 <= s0:
            return M_KONG
    hopes_of(&H, R, S, left, won, E.reach)
    bounds_init(&H, bounds)
    v0 = rate_hand(&E.pol, S.c, S.n_melds, S.w, s0, S.void_suit, vis, &H)
    H.melded |= 1 << group_of(d)
    H.gates = gates_add(H.gates, d)
    H.open_ = 1
    S.c[d] -= 2
    vis[d] += 2
    S.n_melds += 1
    # a rating below both thresholds makes no call: searched only above them
    val_decide(&E.pol, S.c, S.n_melds, S.w, S.void_suit, vis, &H, NULL, &s1, &v1, True,
               v0 * min(R.knobs[4], R.knobs[7]) - 1e-9)
    call = v1 > v0 * R.knobs[4]
    # the efficiency test only where its answer may count (call_keep inf: never)
    test = not call and v1 >= v0 * R.knobs[7]
    if test:
        decide(S.c, S.n_melds, S.w, E, R, S.void_suit, vis, &s1, &u1)
    S.n_melds -= 1
    S.c[d] += 2
    vis[d] -= 2
    if test:
        u0 = ukeire(S.c, S.n_melds, S.w, s0, E, R, S.void_suit, vis)
        call = pol_claims(CALL_FASTER, 0, s0, u0, s1, u1)
    return M_PUNG if call else -1


cdef inline int is_concealed(const Player* P) noexcept nogil:
    """No call made yet (a concealed kong keeps the hand concealed)."""
    cdef int j
    for j in range(P.n_melds):
        if P.mk[j] != M_CONCEALED:
            return 0
    return 1


cdef inline int chow_tile(int k, int i) noexcept nogil:
    """Tile ``i`` (0, 1, 2, in order) of the chow coded ``k``: a suit chow by its lowest tile
    (``k, k+1, k+2``), an honour chow by ``HONOUR_CHOW_OFFSET + j`` of the decomposition kernel
    (27-30: the three winds other than ``k``; 31: 中发白)."""
    cdef int t
    if k < 27 or k >= 31:
        return k + i
    t = 27 + i
    return t + 1 if t >= k else t


#: The tiles of each chow code of the meld records and the log (:func:`chow_tile`): a suit chow
#: by its lowest tile, an honour chow 27-30 (the winds but that one) or 31 (中发白).
CHOW_TILES = {k: (chow_tile(k, 0), chow_tile(k, 1), chow_tile(k, 2))
              for k in [9 * _s + _x for _s in range(3) for _x in range(7)] + list(range(27, 32))}


def chow_wild_tiles(int code, int wm):
    """The tiles of the chow ``code`` (:data:`CHOW_TILES`) that its wildcard bits ``wm`` mark
    (bit i: tile i), as the meld records and the log give them; ``()`` for none."""
    if not wm:
        return ()
    tiles = CHOW_TILES[code]
    return tuple(tiles[i] for i in range(3) if wm >> i & 1)


cdef inline int chow_codes(int d, int honours, int* out) noexcept nogil:
    """The chow codes (:func:`chow_tile`) that could hold the discard ``d``, in ``out``; how
    many.  Honour chows only with ``honours`` (the rule's honour chows)."""
    cdef int k, n = 0
    if d < 27:
        out[0] = d - 2
        out[1] = d - 1
        out[2] = d
        return 3
    if not honours:
        return 0
    if d >= 31:
        out[0] = 31
        return 1
    for k in range(27, 31):
        if k != d:
            out[n] = k
            n += 1
    return n


cdef inline int chow_legal(const Player* P, int d, int k, int wm) noexcept nogil:
    """Whether the seat ``P`` may 吃 the discard ``d`` into the chow coded ``k`` (a suit chow
    ``k, k+1, k+2`` or an honour chow, :func:`chow_tile`) with wildcards for the tiles of the bits
    ``wm`` (bit i: ``chow_tile(k, i)``): ``d`` is one of its other tiles and ``P`` holds the
    rest, natural tiles and that many wildcards."""
    cdef int i, t, has = 0, n = 0
    if k < 27 and (k < 0 or k // 9 != d // 9 or (k + 2) // 9 != d // 9):
        return 0
    for i in range(3):
        t = chow_tile(k, i)
        if wm >> i & 1:
            n += 1
        elif t == d:
            has = 1
        elif P.c[t] == 0:
            return 0
    return has and n <= P.w


cdef inline int chow_wild_sets(const Rule* R, const Player* P) noexcept nogil:
    """How many wildcard choices a chow has for ``P``: 1 (natural tiles only), or the bit sets
    0-6 when the rule lets a wildcard stand in a called chow and ``P`` holds one."""
    return 7 if R.wild_chow and P.w > 0 else 1


cdef inline void apply_chow(Player* P, int d, int k, int wm, int sign, int16_t* vis) noexcept nogil:
    """Take (``sign`` 1) or give back (-1) the tiles of the chow ``k`` on the discard ``d``, with
    wildcards for the bits ``wm``; ``vis`` (when given) counts the natural tiles shown."""
    cdef int i, t
    for i in range(3):
        t = chow_tile(k, i)
        if wm >> i & 1:
            P.w -= sign
        elif t != d:
            P.c[t] -= sign
            if vis != NULL:
                vis[t] += sign


cdef inline int chow_options(const Rule* R, const Player* P, int d, const int* codes, int n_codes, int* opts,
                             int n_opt) noexcept nogil:
    """Append the legal chows of the discard ``d`` to a user policy's options (natural tiles
    first, then with wildcards: the code | wildcard bits << WILD_SHIFT); the new count."""
    cdef int j, k, wm
    for j in range(n_codes * chow_wild_sets(R, P)):
        k = codes[j % n_codes]
        wm = j // n_codes
        if n_opt < MAX_OPTIONS and chow_legal(P, d, k, wm):
            opts[2 * n_opt] = A_CHOW
            opts[2 * n_opt + 1] = k | wm << WILD_SHIFT
            n_opt += 1
    return n_opt


cdef inline int void_clear(const Player* P) noexcept nogil:
    cdef int d
    if P.void_suit < 0:
        return 1
    for d in range(9 * P.void_suit, 9 * P.void_suit + 9):
        if P.c[d]:
            return 0
    return 1


cdef int flower_minimum(const Player* P, const Rule* R, int tile, int self_draw, int flags) noexcept nogil:
    """A flower minimum (苏州 §5) on a complete hand ``P``, as the 苏州 scorer's ``_legal_complete``
    decides it for the context the checker would build (no wildcards, no dragons in hand, no
    chows; the situational exemptions only on a self-draw; a robbed kong as a 抢杠 win).

    Every standard reading has the same F (the called melds and the concealed wind pungs), so
    only 对对胡 depends on the reading: some reading is all pungs exactly when the concealed
    tiles are pungs and a pair.  A 七对 reading needs no melds, i.e. a concealed hand: exempt."""
    cdef int i, k, t, x, F = 0, hard = 0, concealed = 1, n1 = 0, n2 = 0, n4 = 0, suits = 0
    if self_draw and flags & (FL_AFTER_KONG | FL_HEAVENLY | FL_EARTHLY):
        return 1                   # 杠开/花开, 天胡, 地胡
    if P.n_melds == 4:
        return 1                   # 大吊车
    if flags & FL_ROBBING_KONG and R.fm_qg_exempt:
        return 1                   # qianggang_exempt
    for i in range(P.n_melds):
        t = P.mt[i]
        if t < 27:
            suits |= 1 << (t // 9)
        if P.mk[i] == M_PUNG:
            F += t >= 27           # 风碰 1
            concealed = 0
        elif P.mk[i] == M_CONCEALED:
            F += 4 if t >= 27 else 2
        else:                      # exposed or added kong (no chow under this minimum)
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
            F += 1 if (R.fm_discard_pung and not self_draw and k == tile) else 2
    for k in range(N_CODES):
        hard += P.fl[k]
    F += hard
    if F == 0:
        return 1                   # 大门清
    # 抢杠 counts as a self-draw for the minimum (SZ-C8)
    return (hard if R.fm_hard_only else F) >= R.fm_need[0 if self_draw or flags & FL_ROBBING_KONG else 1]


cdef enum:
    MCR_MINIMUM = 8      # 国标 GB-A1: a win needs 8 番 without the flowers


cdef int fan_total(const Player* P, const Rule* R, int seat, int tile, int self_draw, int dealer,
                   int flags) noexcept nogil:
    """国标's fans without flowers of the best reading of a complete hand ``P``, from the flags of
    the context the checker would build (和绝张, 杠上开花 / 抢杠和, the wall's last tile, the seat's
    and the game's winds)."""
    cdef int mtype[4]
    cdef int mfirst[4]
    cdef int mmelded[4]
    cdef int i, kong
    for i in range(P.n_melds):
        mtype[i] = MCR_CHOW if P.mk[i] == M_CHOW else (MCR_PUNG if P.mk[i] == M_PUNG else MCR_KONG)
        mfirst[i] = P.mt[i]
        mmelded[i] = P.mk[i] != M_CONCEALED
    kong = (flags & FL_ROBBING_KONG) != 0 or (
        self_draw and flags & FL_AFTER_KONG and (R.fan_flower_bloom or not flags & FL_AFTER_FLOWER))
    return mcr_fan_total(P.c, P.n_melds, mtype, mfirst, mmelded, tile, self_draw,
                         R.fan_last_copy and flags & FL_LAST_COPY, kong, flags & FL_LAST_TILE,
                         (seat - dealer + 4) & 3, flags >> FL_WIND_SHIFT & 3, R.fan_opts)


cdef inline int fan_minimum(const Player* P, const Rule* R, int seat, int tile, int self_draw, int dealer,
                            int flags) noexcept nogil:
    """国标's 8-番 minimum on a complete hand ``P`` (:func:`fan_total` without flowers)."""
    return fan_total(P, R, seat, tile, self_draw, dealer, flags) >= MCR_MINIMUM


cdef inline double fan_receipt(const Rule* R, int fans, int self_draw) noexcept nogil:
    """What the winner of a 国标 hand of ``fans`` 番 (flowers included) receives, in the rule's
    unit: ``R.fan_pay`` per the rule's settlement (self-drawn, on a discard: base and per 番)."""
    cdef int i = 0 if self_draw else 2
    return R.fan_pay[i] + R.fan_pay[i + 1] * fans


cdef int waits_for_more(Player* P, Eval* E, const Rule* R, int seat, int tile, int self_draw, int dealer,
                        int flags, const int16_t* vis, int left, int won) noexcept nogil:
    """Whether a value player passes its legal 国标 win on ``tile`` (held in ``P``) to wait for a
    bigger one with the same 13 tiles (a self-drawn ``tile`` is discarded again).

    The wait is worth, round by round over the seat's share of the ``left`` tiles, the chance of
    winning in that round times the mean receipt of the waits that would win (each wait kind by
    its unseen copies, legal and scored with :func:`fan_total` as a self-draw and as a discard
    win): its own draw wins with chance (unseen copies of the self-draw waits) / (tiles unseen),
    each of the three other seats' discards with chance 1 - (1 - ``fan_hazard``)^(unseen copies
    of the discard waits); a round is reached only if no win came before it and, with chance
    1 - ``fan_risk``, no other seat won.  It passes when that beats the receipt of winning now by
    the factor ``fan_wait`` (inf: never)."""
    cdef int k, u, fl = 0, now, fans, active = 4, rounds, _round, unseen = 0, u_self = 0, u_disc = 0
    cdef double v_self = 0.0, v_disc = 0.0, p_self, p_disc, alive = 1.0, worth = 0.0, v_now
    if not R.knobs[KNOB_FAN_WAIT] < 1e300:
        return 0
    for k in range(48):
        fl += P.fl[k]
    now = fan_total(P, R, seat, tile, self_draw, dealer, flags) + fl
    v_now = fan_receipt(R, now, self_draw)
    for k in range(4):
        active -= won >> k & 1
    rounds = left // (active if active > 0 else 1)
    if rounds <= 0:
        return 0
    P.c[tile] -= 1
    for k in range(N_KINDS):
        u = <int>E.pol.copies[k] - <int>P.c[k] - <int>vis[k] - (1 if self_draw and k == tile else 0)
        if u <= 0:
            continue
        unseen += u
        if P.c[k] >= 4:
            continue
        P.c[k] += 1
        if complete(P, E, R, k):
            fans = fan_total(P, R, seat, k, 1, dealer, flags & FL_WIND_MASK)
            if fans >= MCR_MINIMUM:
                u_self += u
                v_self += u * fan_receipt(R, fans + fl, 1)
            fans = fan_total(P, R, seat, k, 0, dealer, flags & FL_WIND_MASK)
            if fans >= MCR_MINIMUM:
                u_disc += u
                v_disc += u * fan_receipt(R, fans + fl, 0)
        P.c[k] -= 1
    P.c[tile] += 1
    if unseen <= 0 or u_self + u_disc == 0:
        return 0
    p_self = <double>u_self / unseen
    p_disc = 1.0 - pow(1.0 - R.knobs[KNOB_FAN_HAZARD], 3.0 * u_disc)
    if u_self:
        v_self /= u_self
    if u_disc:
        v_disc /= u_disc
    for _round in range(rounds):
        worth += alive * (p_disc * v_disc + (1.0 - p_disc) * p_self * v_self)
        alive *= (1.0 - p_disc) * (1.0 - p_self) * (1.0 - R.knobs[KNOB_FAN_RISK])
    return worth > R.knobs[KNOB_FAN_WAIT] * v_now


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
    if R.void_suit and not void_clear(P):
        return 0
    if not complete(P, prm, R, tile):
        return 0
    if R.flower_min:
        return flower_minimum(P, R, tile, self_draw, flags)
    if R.fan_min:
        return fan_minimum(P, R, seat, tile, self_draw, dealer, flags)
    if R.check:
        return ask_checker(R.checker, P, seat, tile, self_draw, discarder, dealer, flags, flipped)
    return 1


cdef int sets_only(uint8_t* c, int k, int w, int hchow) noexcept nogil:
    """Whether the counts ``c`` (kinds ``k`` and up) with ``w`` wildcards split exactly into
    sets (pungs and chows, wildcards standing for any kind), leaving nothing over; ``hchow``:
    the rule's honour chows (three different winds, the three dragons) are sets too."""
    cdef int j, p, lo, a, b, ok, x, y, g0, g1
    while k < N_KINDS and c[k] == 0:
        k += 1
    if k == N_KINDS:
        return w % 3 == 0
    for j in range(1, 4):                          # a pung holding j natural copies of k
        if c[k] >= j and w >= 3 - j:
            c[k] -= j
            ok = sets_only(c, k, w - 3 + j, hchow)
            c[k] += j
            if ok:
                return 1
    if k >= 27:
        if not hchow:
            return 0
        g0, g1 = (27, 31) if k < 31 else (31, 34)  # k's honour group: the winds, the dragons
        for x in range(g0, g1):                    # an honour chow of k and two others x < y
            for y in range(x + 1, g1):
                if x == k or y == k:
                    continue
                for a in range(2):                 # x, y natural (1) or wildcards (0)
                    for b in range(2):
                        if fill_set(c, k, x, y, a, b, w, hchow) > 0:
                            return 1
        return 0
    for p in range(3):                             # a chow with k at position p
        lo = k - p
        if lo < 9 * (k // 9) or lo + 2 > 9 * (k // 9) + 8:
            continue
        x = lo if p else lo + 1                    # the chow's other two kinds, in tile order
        y = lo + 1 if p == 2 else lo + 2
        for a in range(2):
            for b in range(2):
                if fill_set(c, k, x, y, a, b, w, hchow) > 0:
                    return 1
    return 0


cdef int fill_set(uint8_t* c, int k, int x, int y, int a, int b, int w, int hchow) noexcept nogil:
    """Take the set of one ``k`` and the kinds ``x``, ``y``, each natural (``a`` / ``b`` = 1)
    or a wildcard (0); 1 if the rest then splits into sets, -1 if not (or the set cannot be
    taken so)."""
    cdef int used, ok
    if a and c[x] == 0 or b and c[y] == 0:
        return -1
    used = (1 - a) + (1 - b)
    if used > w:
        return -1
    c[k] -= 1
    if a:
        c[x] -= 1
    if b:
        c[y] -= 1
    ok = sets_only(c, k, w - used, hchow)
    c[k] += 1
    if a:
        c[x] += 1
    if b:
        c[y] += 1
    return 1 if ok else -1


cdef int leaves_lone_wild(const Player* P, int z, int hchow) noexcept nogil:
    """Whether discarding the natural kind ``z`` (held) leaves the 3k+2 hand ``P`` as complete
    sets (or, without melds, six pairs) plus one lone wildcard — the 飞 / 宝吊头 wait, on which
    any tile wins."""
    cdef uint8_t c[34]
    cdef int k, singles
    if P.w < 1 or P.c[z] == 0:
        return 0
    memcpy(c, P.c, 34)
    c[z] -= 1
    if sets_only(c, 0, P.w - 1, hchow):
        return 1
    if P.n_melds == 0:
        singles = 0
        for k in range(N_KINDS):
            singles += c[k] & 1
        if singles <= P.w - 1 and (P.w - 1 - singles) % 2 == 0:
            return 1
    return 0


cdef int lone_wild_discard(const Player* P, int hchow) noexcept nogil:
    """The lowest natural kind whose discard leaves the lone-wildcard wait
    (:func:`leaves_lone_wild`), or -1."""
    cdef int z
    if P.w < 1:
        return -1
    for z in range(N_KINDS):
        if leaves_lone_wild(P, z, hchow):
            return z
    return -1


cdef inline int win_locked(const Player* P, const Rule* R, int tile) noexcept nogil:
    """Whether a passed win keeps this seat from winning on ``tile`` now (漏胡 / 过水)."""
    if R.win_lock == 1:
        return P.wlock
    if R.win_lock == 2:
        return (P.wlock_kinds >> tile & 1) != 0
    return 0


cdef inline void pass_win(Player* P, const Rule* R, int tile) noexcept nogil:
    """The seat passed a potential win on ``tile``: the rule's lock."""
    if R.win_lock == 1:
        P.wlock = 1
    elif R.win_lock == 2:
        P.wlock_kinds |= (<uint64_t>1) << tile


cdef inline void log_action(int16_t* lg, int* n_log, int max_log, int action, int seat, int tile) noexcept nogil:
    if n_log[0] < max_log:
        lg[LOG_FIELDS * n_log[0]] = <int16_t>action
        lg[LOG_FIELDS * n_log[0] + 1] = <int16_t>seat
        lg[LOG_FIELDS * n_log[0] + 2] = <int16_t>tile
        n_log[0] += 1


cdef inline int natural_held(const Player* P) noexcept nogil:
    cdef int k
    for k in range(N_KINDS):
        if P.c[k]:
            return 1
    return 0


cdef int user_declines(const Rule* R, long long gidx, int q, Player* P, const uint8_t* hist, int n_hist, int left,
                       int flipped, int dealer, int tile, int turn, int16_t* lg, int* n_log,
                       int max_log) noexcept nogil:
    """Whether seat ``q``'s user policy declines the potential win on another seat's ``tile`` (held
    in ``P[q]`` already; its view shows the hand without it).  With ``max_log >= 0`` a declined
    win is logged and locks as the rule says."""
    cdef int r
    if left <= R.forced_left and R.forced_left:
        return 0                       # the rule's last tiles: the win is not the policy's to decline
    P[q].c[tile] -= 1
    r = ask_user(R, ASK_WIN, gidx, q, P, hist, n_hist, left, flipped, dealer, tile, turn, NULL, 0)
    P[q].c[tile] += 1
    if r != 0:
        return 0
    if max_log >= 0:
        log_action(lg, n_log, max_log, A_PASS_WIN, q, tile)
        pass_win(&P[q], R, tile)
    return 1


cdef int take(Player* P, const int8_t* wall, int* f, int* b, int back, const int8_t* faces,
              int* replaced) noexcept nogil:
    """Draw one tile from the front (or the back); a flower is laid aside and replaced from the
    back.  Returns the role drawn (a kind, or ROLE_WILD), -1 when the wall ran out; ``replaced``
    is set when a flower was replaced (花开 on a win).  A draw ends the seat's call locks."""
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
        P.lock = 0
        P.wlock = 0
        P.wlock_kinds = 0
        return role
    return -1


cdef inline int draw_next(Player* P, int* cur, int won, const int8_t* wall, int* f, int* b,
                          const int8_t* faces, int* replaced) noexcept nogil:
    """The next seat still playing (not yet won) draws from the front: :func:`take`'s result."""
    cur[0] = (cur[0] + 1) % 4
    while won >> cur[0] & 1:
        cur[0] = (cur[0] + 1) % 4
    return take(&P[cur[0]], wall, f, b, 0, faces, replaced)


cdef void play_game(bitgen_t* rng, int8_t* wall, int n_wall, const Rule* R, Eval* E, int dealer, int wind,
                    int32_t* rec, uint8_t* hands, int8_t* melds, int8_t* kongs, int32_t* ev,
                    uint8_t* seats, int16_t* lg, int max_log, long long gidx) noexcept nogil:
    cdef Player P[4]
    cdef uint8_t hist[2 * MAX_WALL]      # the discards in order (seat, kind or ROLE_WILD): user policies' view
    cdef int opts[2 * MAX_OPTIONS]       # a user policy's options: (action, tile)
    cdef int n_hist = 0, n_opt = 0, asked, mode, kc, r, declined
    cdef int offered = 0                 # a user seat declined a complete self-draw: its discard may declare 飞
    cdef int must_win = 0                # the rule's last tiles: a potential discard win cannot be passed
    cdef int16_t vis[34]
    cdef int i, j, _r, k, t, f, b, cur, q, d, s0, u0, s1, u1, sb, ub, n_disc = 0, flags
    cdef int drawn, after_kong, after_flower, kong_src = -1, kong_discard, last, calls = 0, n_kongs = 0
    cdef int winners, how, discarder, win_tile, best_a, claimed, forced, n_made = 0, n_log = 0
    cdef int wm, best_wm = 0               # a chow's tiles held by wildcards (chow_legal)
    cdef int call, test                  # a value player's chow: made, and put to the efficiency test
    cdef int wait                        # a value player passes a discard win to wait for more 番
    cdef int cnt[3]
    cdef int codes[3]                    # the chow codes that could hold a discard (chow_codes)
    cdef int n_codes = 0
    cdef int won = 0, n_won = 0, n_ev = 0, event = 0, exhausted = 1
    cdef int ev_how = 0, ev_disc = -1, ev_tile = -1, ev_flags = 0, ev_last = 0, ev_lk = -1
    cdef int flipped = -1, row = 0, replaced = 0, first_disc = -2
    cdef int left0 = 0                   # tiles left after the deal (the value players' defence)
    cdef Hopes H
    cdef double bounds[BOUNDS_SIZE]     # H's cache (bounds_init)
    cdef double v0, v1, vb
    cdef unsigned int mc                 # H.meld_chows before a chow is tried
    cdef int gg                          # H.gates before a chow is tried
    cdef const int8_t* faces
    cdef int wflag = (wind & 3) << FL_WIND_SHIFT
    # shuffle
    for i in range(n_wall - 1, 0, -1):
        j = <int>bounded_u32(rng, <uint32_t>(i + 1))
        t = wall[i]
        wall[i] = wall[j]
        wall[j] = <int8_t>t
    if dealer < 0:
        dealer = <int>bounded_u32(rng, 4)
    rec[R_DICE] = -1
    if R.dice:
        i = <int>bounded_u32(rng, 6)
        rec[R_DICE] = 6 * i + <int>bounded_u32(rng, 6)
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
        for _r in range(13):
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
    if max_log:              # the deal, as draws (in kind order)
        for i in range(4):
            for k in range(N_KINDS):
                for _r in range(P[i].c[k]):
                    log_action(lg, &n_log, max_log, A_DRAW, i, k)
            for _r in range(P[i].w):
                log_action(lg, &n_log, max_log, A_DRAW, i, ROLE_WILD)
    cur = dealer
    t = take(&P[cur], wall, &f, &b, 0, faces, &replaced)
    log_action(lg, &n_log, max_log, A_DRAW, cur, t)
    left0 = b - f + 1
    if R.void_suit:          # 定缺 after the deal (the dealer's 14 tiles included)
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
    after_kong = 0
    after_flower = replaced
    how = 3
    winners = 0
    discarder = -1
    win_tile = -1
    flags = 0
    P[cur].n_draws = 1
    for i in range(MAX_EVENTS * N_EV):
        ev[i] = -1
    while True:
        forced = -1
        offered = 0
        if event:
            event = 0
            ev[N_EV * n_ev] = ev_how
            ev[N_EV * n_ev + 1] = ev_disc
            ev[N_EV * n_ev + 2] = ev_tile
            ev[N_EV * n_ev + 3] = ev_flags
            ev[N_EV * n_ev + 4] = winners
            ev[N_EV * n_ev + 5] = ev_lk
            ev[N_EV * n_ev + 6] = won
            for i in range(4):
                if winners >> i & 1:
                    log_action(lg, &n_log, max_log, A_WIN, i, ev_tile)
            if n_ev == 0:
                how = ev_how
                discarder = ev_disc
                win_tile = ev_tile
                flags = ev_flags
                rec[R_LAST_KONG] = ev_lk if ev_how == 1 else -1
            n_ev += 1
            won |= winners
            winners = 0
            n_won = 0
            for i in range(4):
                n_won += won >> i & 1
            if not R.play_on or n_won >= 3 or n_ev >= MAX_EVENTS:
                exhausted = 0
                break
            cur = (ev_last + 1) % 4               # the seat after the (last) winner draws
            while won >> cur & 1:
                cur = (cur + 1) % 4
            t = take(&P[cur], wall, &f, &b, 0, faces, &replaced)
            if t < 0:
                break
            log_action(lg, &n_log, max_log, A_DRAW, cur, t)
            P[cur].n_draws += 1
            drawn = 1
            after_kong = 0
            after_flower = replaced
        # ---- cur holds 3k+2 tiles; ``drawn``: t was just drawn from the wall
        if drawn:
            flags = wflag | (FL_AFTER_KONG if (after_kong or after_flower) else 0)
            if after_flower and not after_kong:
                flags |= FL_AFTER_FLOWER
            if f > b:
                flags |= FL_LAST_TILE
            if calls == 0 and n_disc == 0 and cur == dealer and not (after_kong or after_flower):
                flags |= FL_HEAVENLY
            if calls == 0 and P[cur].n_draws == 1 and cur != dealer and not (after_kong or after_flower):
                flags |= FL_EARTHLY
            if calls == 0 and n_kongs == 0 and n_disc < 4 and not (after_kong or after_flower):
                flags |= FL_FIRST_ROUND
            if t < N_KINDS and vis[t] == 3:
                flags |= FL_LAST_COPY
            if P[cur].fei:
                if R.wild_head == 2 or calls + n_kongs == P[cur].fei_mark:
                    flags |= FL_FEI
                else:
                    flags |= FL_FEI_BROKEN
            if can_win(&P[cur], E, R, cur, t, 1, -1, dealer, flags, flipped):
                declined = 0
                if R.user_mask[cur] & U_WIN and b - f + 1 >= R.forced_left:   # the drawn tile is not a forced one
                    declined = ask_user(R, ASK_WIN, gidx, cur, P, hist, n_hist, b - f + 1, flipped, dealer, t,
                                        n_disc, opts, 0) == 0
                elif R.wild_head and not P[cur].fei and (
                        R.fei_policy or (R.value[cur] and b - f + 1 >= FEI_MIN_LEFT)):
                    forced = lone_wild_discard(&P[cur], (R.options & O_HONOUR_CHOWS) != 0)
                elif R.value[cur] and R.fan_search and b - f + 1 > R.forced_left and waits_for_more(
                        &P[cur], E, R, cur, t, 1, dealer, flags, vis, b - f + 1, won):
                    declined = 1
                    forced = t                 # discarded again: the same 13 tiles wait on
                if declined:
                    log_action(lg, &n_log, max_log, A_PASS_WIN, cur, t)
                    pass_win(&P[cur], R, t)           # a passed self-draw locks too
                    offered = R.wild_head and not P[cur].fei
                elif forced < 0:
                    event = 1
                    ev_how = 0
                    ev_disc = -1
                    ev_tile = t
                    ev_flags = flags
                    ev_last = cur
                    ev_lk = kong_src if after_kong else -1
                    winners = 1 << cur
                    continue
                else:
                    log_action(lg, &n_log, max_log, A_PASS_WIN, cur, t)
                    log_action(lg, &n_log, max_log, A_FEI, cur, forced)
                    pass_win(&P[cur], R, t if t < N_KINDS else forced)   # a passed self-draw locks too
                    P[cur].fei = 1
                    P[cur].fei_mark = calls + n_kongs
            # kongs on one's own turn
            k = -1
            sb = -2                        # best discard shanten, computed on demand
            if P[cur].n_melds < 4 and forced < 0 and not P[cur].fei and R.user_mask[cur] & U_CLAIM:
                n_opt = 0                  # the user policy chooses among every legal kong, or none
                for i in range(N_KINDS):
                    if R.void_suit and i // 9 == P[cur].void_suit:
                        continue
                    if P[cur].c[i] == 4:
                        opts[2 * n_opt] = A_CONCEALED
                        opts[2 * n_opt + 1] = i
                        n_opt += 1
                    elif P[cur].c[i] >= 1:
                        for j in range(P[cur].n_melds):
                            if P[cur].mk[j] == M_PUNG and P[cur].mt[j] == i:
                                opts[2 * n_opt] = A_ADDED
                                opts[2 * n_opt + 1] = i
                                n_opt += 1
                                break
                if n_opt and n_kongs < MAX_KONGS:
                    r = ask_user(R, ASK_KONG, gidx, cur, P, hist, n_hist, b - f + 1, flipped, dealer, t, n_disc,
                                 opts, n_opt)
                    if 0 <= r < n_opt:
                        k = opts[2 * r + 1]
                        best_a = M_CONCEALED
                        if opts[2 * r] == A_ADDED:
                            for j in range(P[cur].n_melds):
                                if P[cur].mk[j] == M_PUNG and P[cur].mt[j] == k:
                                    best_a = M_ADDED * 16 + j
            elif P[cur].n_melds < 4 and forced < 0 and not P[cur].fei:
                mode = R.call_mode[cur]
                for i in range(N_KINDS):
                    if R.void_suit and i // 9 == P[cur].void_suit:
                        continue
                    if P[cur].c[i] == 4:
                        if mode == CALL_ALWAYS:
                            k = i
                            best_a = M_CONCEALED
                            break
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
                                if mode == CALL_ALWAYS:
                                    k = i
                                    best_a = j
                                    break
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
                    P[cur].mo[j] = <int8_t>n_made
                    n_made += 1
                    P[cur].n_melds += 1
                    vis[k] += 4
                    kongs[KF * n_kongs] = <int8_t>cur
                    kongs[KF * n_kongs + 1] = M_CONCEALED
                    kongs[KF * n_kongs + 2] = -1
                    kongs[KF * n_kongs + 3] = <int8_t>k
                    kongs[KF * n_kongs + 4] = <int8_t>won
                    log_action(lg, &n_log, max_log, A_CONCEALED, cur, k)
                else:
                    j = best_a - M_ADDED * 16
                    P[cur].c[k] -= 1
                    # 抢杠: others may win on the added tile
                    for i in range(1, 4):
                        q = (cur + i) % 4
                        if won >> q & 1 or P[q].fei or win_locked(&P[q], R, k):
                            continue
                        P[q].c[k] += 1
                        if can_win(&P[q], E, R, q, k, 0, cur, dealer,
                                   wflag | FL_ROBBING_KONG | (FL_LAST_COPY if vis[k] == 3 else 0), flipped) \
                                and not (R.user_mask[q] & U_WIN and user_declines(R, gidx, q, P, hist, n_hist,
                                                                                  b - f + 1, flipped, dealer, k,
                                                                                  n_disc, lg, &n_log, max_log)):
                            winners |= 1 << q
                            ev_last = q
                            if not R.rob_multi:
                                break
                        else:
                            P[q].c[k] -= 1
                    if winners:
                        event = 1
                        ev_how = 2
                        ev_disc = cur
                        ev_tile = k
                        ev_flags = wflag | (FL_LAST_COPY if vis[k] == 3 else 0)
                        ev_lk = -1
                        continue
                    P[cur].mk[j] = M_ADDED
                    vis[k] += 1
                    kongs[KF * n_kongs] = <int8_t>cur
                    kongs[KF * n_kongs + 1] = M_ADDED
                    kongs[KF * n_kongs + 2] = -1
                    kongs[KF * n_kongs + 3] = <int8_t>k
                    kongs[KF * n_kongs + 4] = <int8_t>won
                    log_action(lg, &n_log, max_log, A_ADDED, cur, k)
                n_kongs += 1
                t = take(&P[cur], wall, &f, &b, 1, faces, &replaced)
                if t < 0:
                    break                      # no replacement tile: draw game
                log_action(lg, &n_log, max_log, A_DRAW, cur, t)
                P[cur].n_draws += 1
                after_kong = 1
                kong_src = n_kongs - 1
                continue
        # ---- discard
        if forced >= 0:
            d = forced
        else:
            d = -3
            if R.user_mask[cur] & U_DISCARD and natural_held(&P[cur]):
                d = ask_user(R, ASK_DISCARD, gidx, cur, P, hist, n_hist, b - f + 1, flipped, dealer,
                             t if drawn else -1, n_disc, opts, 0)
                if d == ROLE_WILD and P[cur].w > 0 and not P[cur].fei:
                    d = -1                 # a wildcard, discarded dead (the bridge checked the rule allows it)
                elif d < 0 or d >= N_KINDS or P[cur].c[d] == 0:
                    d = -3                 # the bridge refused the answer (the call fails): any legal tile
                elif offered and leaves_lone_wild(&P[cur], d, (R.options & O_HONOUR_CHOWS) != 0):
                    log_action(lg, &n_log, max_log, A_FEI, cur, d)   # the declined hand waits on its lone wildcard
                    P[cur].fei = 1
                    P[cur].fei_mark = calls + n_kongs
            if d == -3 and R.value[cur]:
                d = value_discard(P, cur, E, R, vis, b - f + 1, left0, won, &sb)
            elif d == -3:
                d = decide(P[cur].c, P[cur].n_melds, P[cur].w, E, R, P[cur].void_suit, vis, &sb, &ub)
        if R.any_user and n_hist < MAX_WALL:
            hist[2 * n_hist] = <uint8_t>cur
            hist[2 * n_hist + 1] = <uint8_t>(d if d >= 0 else ROLE_WILD)
            n_hist += 1
        n_disc += 1
        if d < 0:                          # only wildcards left, or a policy's choice: a discarded wildcard is dead
            P[cur].w -= 1
            log_action(lg, &n_log, max_log, A_DISCARD, cur, ROLE_WILD)
            t = draw_next(P, &cur, won, wall, &f, &b, faces, &replaced)
            if t < 0:
                break
            log_action(lg, &n_log, max_log, A_DRAW, cur, t)
            P[cur].n_draws += 1
            drawn = 1
            after_kong = 0
            after_flower = replaced
            continue
        if R.call_locks and P[cur].c[d] == 3:
            P[cur].lock |= (<uint64_t>1) << d  # discarded one of three: no 碰 of it before the next draw
        P[cur].c[d] -= 1
        P[cur].disc[d] += 1
        vis[d] += 1
        log_action(lg, &n_log, max_log, A_DISCARD, cur, d)
        if d == R.first_kind and first_disc == -2:
            first_disc = cur
        kong_discard = after_kong and drawn
        last = f > b
        flags = wflag
        if kong_discard:
            flags |= FL_KONG_DISCARD
        if last:
            flags |= FL_LAST_TILE
        if vis[d] == 4:
            flags |= FL_LAST_COPY
        if n_disc == 1 and calls == 0:
            flags |= FL_FIRST_DISCARD
        if calls == 0 and n_kongs == 0 and n_disc <= 4:
            flags |= FL_FIRST_ROUND
        for i in range(1, 4):
            q = (cur + i) % 4
            if won >> q & 1 or win_locked(&P[q], R, d):
                continue
            P[q].c[d] += 1
            if can_win(&P[q], E, R, q, d, 0, cur, dealer, flags, flipped):
                must_win = R.forced_left and b - f + 1 <= R.forced_left
                wait = R.value[q] and R.fan_search and not must_win and not R.user_mask[q] & U_WIN \
                    and waits_for_more(&P[q], E, R, q, d, 0, dealer, flags, vis, b - f + 1, won)
                if P[q].fei or wait or (R.pass_policy and not P[q].passed and not must_win) or (
                        R.user_mask[q] & U_WIN and user_declines(R, gidx, q, P, hist, n_hist, b - f + 1, flipped,
                                                                 dealer, d, n_disc, lg, &n_log, -1)):
                    # waiting for the lone-wildcard self-draw or for more 番, or the pass policy:
                    # no discard win
                    P[q].c[d] -= 1
                    P[q].passed += not P[q].fei and not wait
                    pass_win(&P[q], R, d)
                    log_action(lg, &n_log, max_log, A_PASS_WIN, q, d)
                    continue
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
        best_wm = 0
        asked = -1
        for i in range(1, 4):
            q = (cur + i) % 4
            if won >> q & 1 or P[q].c[d] < 2 or P[q].n_melds >= 4 or (R.void_suit and d // 9 == P[q].void_suit) \
                    or P[q].fei or (P[q].lock >> d & 1):
                continue
            if R.user_mask[q] & U_CLAIM:   # the user policy: 碰, 杠, (the left seat) 吃, or pass
                asked = q
                opts[0] = A_PUNG
                opts[1] = d
                n_opt = 1
                if P[q].c[d] == 3 and n_kongs < MAX_KONGS:
                    opts[2] = A_KONG
                    opts[3] = d
                    n_opt = 2
                if R.chow and q == (cur + 1) % 4:
                    n_opt = chow_options(R, &P[q], d, codes, chow_codes(d, R.hchow, codes), opts, n_opt)
                r = ask_user(R, ASK_CLAIM, gidx, q, P, hist, n_hist, b - f + 1, flipped, dealer, d, n_disc, opts,
                             n_opt)
                if 0 <= r < n_opt:
                    claimed = q
                    best_a = M_PUNG if opts[2 * r] == A_PUNG else (M_KONG if opts[2 * r] == A_KONG
                                                                   else 100 + (opts[2 * r + 1] & CODE_MASK))
                    best_wm = opts[2 * r + 1] >> WILD_SHIFT
                    break
                log_action(lg, &n_log, max_log, A_PASS_PUNG, q, d)
                if R.call_locks:
                    P[q].lock |= (<uint64_t>1) << d
                break
            mode = R.call_mode[q]
            kc = R.keep_conc[q] and is_concealed(&P[q])
            if R.value[q] and mode != CALL_NEVER:
                r = value_claim(&P[q], d, E, R, vis, b - f + 1, won, n_kongs < MAX_KONGS)
                if r >= 0:
                    claimed = q
                    best_a = r
                    break
                mode = CALL_NEVER          # passed: logged and locked below
            if mode == CALL_NEVER:
                log_action(lg, &n_log, max_log, A_PASS_PUNG, q, d)
                if R.call_locks:
                    P[q].lock |= (<uint64_t>1) << d
                break
            s0 = shanten_of(P[q].c, P[q].n_melds, P[q].w, E, R)
            if P[q].c[d] == 3 and n_kongs < MAX_KONGS:
                P[q].c[d] = 0
                s1 = shanten_of(P[q].c, P[q].n_melds + 1, P[q].w, E, R)
                P[q].c[d] = 3
                if pol_kongs(mode, kc, s0, s1):
                    claimed = q
                    best_a = M_KONG
                    break
            u0 = ukeire(P[q].c, P[q].n_melds, P[q].w, s0, E, R, P[q].void_suit, vis) if mode == CALL_FASTER else 0
            P[q].c[d] -= 2
            vis[d] += 2
            P[q].n_melds += 1
            decide(P[q].c, P[q].n_melds, P[q].w, E, R, P[q].void_suit, vis, &s1, &u1)
            P[q].n_melds -= 1
            P[q].c[d] += 2
            vis[d] -= 2
            if pol_claims(mode, kc, s0, u0, s1, u1) or R.pung_policy:
                claimed = q
                best_a = M_PUNG
            else:
                log_action(lg, &n_log, max_log, A_PASS_PUNG, q, d)
                if R.call_locks:
                    P[q].lock |= (<uint64_t>1) << d    # a passed 碰: not again before the next draw
            break
        if claimed < 0 and R.chow and (d < 27 or R.hchow):
            q = (cur + 1) % 4
            n_codes = chow_codes(d, R.hchow, codes)
            if P[q].n_melds < 4 and not P[q].fei and q != asked and R.user_mask[q] & U_CLAIM:
                n_opt = chow_options(R, &P[q], d, codes, n_codes, opts, 0)
                if n_opt:
                    r = ask_user(R, ASK_CLAIM, gidx, q, P, hist, n_hist, b - f + 1, flipped, dealer, d, n_disc,
                                 opts, n_opt)
                    if 0 <= r < n_opt:
                        claimed = q
                        best_a = 100 + (opts[2 * r + 1] & CODE_MASK)
                        best_wm = opts[2 * r + 1] >> WILD_SHIFT
            elif P[q].n_melds < 4 and not P[q].fei and q != asked and R.value[q] \
                    and R.call_mode[q] != CALL_NEVER:
                hopes_of(&H, R, &P[q], b - f + 1, won, E.reach)
                bounds_init(&H, bounds)
                s0 = shanten_of(P[q].c, P[q].n_melds, P[q].w, E, R)
                v0 = rate_hand(&E.pol, P[q].c, P[q].n_melds, P[q].w, s0, P[q].void_suit, vis, &H)
                vb = -1e300                # the rating after the best chow made so far
                u0 = -1
                H.open_ = 1
                H.chowed = 1
                i = H.melded
                mc = H.meld_chows
                gg = H.gates
                for j in range(n_codes * chow_wild_sets(R, &P[q])):
                    k = codes[j % n_codes]
                    wm = j // n_codes
                    if not chow_legal(&P[q], d, k, wm):
                        continue
                    H.melded = i | 1 << group_of(k)
                    H.meld_chows = mc | (1u << k if k < 27 else 0u)
                    H.gates = gates_add(gg, k)
                    apply_chow(&P[q], d, k, wm, 1, NULL)
                    P[q].n_melds += 1
                    # a rating below both thresholds, or not above the best chow's, is not chosen
                    val_decide(&E.pol, P[q].c, P[q].n_melds, P[q].w, -1, vis, &H, NULL, &s1, &v1, True,
                               max(vb, v0 * min(R.knobs[4], R.knobs[7])) - 1e-9)
                    call = v1 > v0 * R.knobs[4]
                    test = not call and v1 > vb and v1 >= v0 * R.knobs[7]
                    if test:
                        decide(P[q].c, P[q].n_melds, P[q].w, E, R, -1, vis, &s1, &u1)
                    P[q].n_melds -= 1
                    apply_chow(&P[q], d, k, wm, -1, NULL)
                    if test:
                        if u0 < 0:
                            u0 = ukeire(P[q].c, P[q].n_melds, P[q].w, s0, E, R, -1, vis)
                        call = pol_claims(CALL_FASTER, 0, s0, u0, s1, u1)
                    if call and v1 > vb:
                        vb = v1
                        claimed = q
                        best_a = 100 + k
                        best_wm = wm
            elif P[q].n_melds < 4 and not P[q].fei and q != asked and R.call_mode[q] != CALL_NEVER:
                mode = R.call_mode[q]
                kc = R.keep_conc[q] and is_concealed(&P[q])
                s0 = shanten_of(P[q].c, P[q].n_melds, P[q].w, E, R)
                u0 = -1
                sb = INF + 1
                ub = -1
                for j in range(n_codes * chow_wild_sets(R, &P[q])):
                    k = codes[j % n_codes]  # the chow's code (its lowest tile for a suit chow)
                    wm = j // n_codes       # its tiles held by wildcards (natural tiles first)
                    if not chow_legal(&P[q], d, k, wm):
                        continue
                    if u0 < 0:
                        u0 = ukeire(P[q].c, P[q].n_melds, P[q].w, s0, E, R, -1, vis)
                    apply_chow(&P[q], d, k, wm, 1, NULL)
                    P[q].n_melds += 1
                    decide(P[q].c, P[q].n_melds, P[q].w, E, R, -1, vis, &s1, &u1)
                    P[q].n_melds -= 1
                    apply_chow(&P[q], d, k, wm, -1, NULL)
                    if pol_claims(mode, kc, s0, u0, s1, u1) and (s1 < sb or (s1 == sb and u1 > ub)):
                        sb = s1
                        ub = u1
                        claimed = q
                        best_a = 100 + k
                        best_wm = wm
        if claimed >= 0:
            q = claimed
            P[cur].disc[d] -= 1
            if first_disc == cur and d == R.first_kind and P[cur].disc[d] == 0:
                first_disc = -1            # the first discard of that kind was claimed
            j = P[q].n_melds
            P[q].ms[j] = <int8_t>cur
            P[q].mo[j] = <int8_t>n_made
            P[q].mw[j] = 0
            n_made += 1
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
                log_action(lg, &n_log, max_log, A_KONG, q, d)
            elif best_a == M_PUNG:
                P[q].c[d] -= 2
                P[q].mk[j] = M_PUNG
                P[q].mt[j] = <int8_t>d
                vis[d] += 2
                log_action(lg, &n_log, max_log, A_PUNG, q, d)
            else:
                k = best_a - 100
                apply_chow(&P[q], d, k, best_wm, 1, vis)
                P[q].mk[j] = M_CHOW
                P[q].mt[j] = <int8_t>k
                P[q].mw[j] = <int8_t>best_wm
                log_action(lg, &n_log, max_log, A_CHOW, q, k | best_wm << WILD_SHIFT)
            P[q].n_melds += 1
            P[q].lock = 0
            P[q].wlock_kinds = 0           # 过水 ends with a call
            calls += 1
            cur = q
            if best_a == M_KONG:
                t = take(&P[cur], wall, &f, &b, 1, faces, &replaced)
                if t < 0:
                    break
                log_action(lg, &n_log, max_log, A_DRAW, cur, t)
                P[cur].n_draws += 1
                drawn = 1
                after_kong = 1
                kong_src = n_kongs - 1
            else:
                drawn = 0
                after_kong = 0
                after_flower = 0
            continue
        t = draw_next(P, &cur, won, wall, &f, &b, faces, &replaced)
        if t < 0:
            break
        log_action(lg, &n_log, max_log, A_DRAW, cur, t)
        P[cur].n_draws += 1
        drawn = 1
        after_kong = 0
        after_flower = replaced
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
        seats[SEAT_FIELDS * i + N_CODES + 35] = <uint8_t>P[i].fei
        for j in range(4):
            if j < P[i].n_melds:
                melds[4 * MF * i + MF * j] = P[i].mk[j]
                melds[4 * MF * i + MF * j + 1] = P[i].mt[j]
                melds[4 * MF * i + MF * j + 2] = P[i].ms[j]
                melds[4 * MF * i + MF * j + 3] = P[i].mo[j]
                melds[4 * MF * i + MF * j + 4] = P[i].mw[j]
            else:
                melds[4 * MF * i + MF * j] = -1
                melds[4 * MF * i + MF * j + 1] = -1
                melds[4 * MF * i + MF * j + 2] = -1
                melds[4 * MF * i + MF * j + 3] = -1
                melds[4 * MF * i + MF * j + 4] = -1
    for i in range(n_log, max_log):
        lg[LOG_FIELDS * i] = -1


cdef void sim_chunk(bitgen_t* rng, const int8_t* wall0, int n_wall, const Rule* R, const uint8_t* playable,
                    int n_games, const int8_t* dealers, const int8_t* winds, int32_t* rec, uint8_t* hands,
                    int8_t* melds, int8_t* kongs, int32_t* ev, uint8_t* seats, int16_t* lg, int max_log,
                    long long game0) noexcept nogil:
    """Play a chunk's games in order."""
    cdef int8_t wall[MAX_WALL]
    cdef int g
    cdef Eval E
    eval_init(&E, R, playable)
    memcpy(wall, wall0, n_wall)
    for g in range(n_games):
        if _n_failures and ((R.check and checker_failed(R.checker)) or (R.any_user and checker_failed(R.user))):
            break              # the checker raised: the call fails, so its other games need not be played
        play_game(rng, wall, n_wall, R, &E, dealers[g], winds[g], rec + N_REC * g, hands + 136 * g, melds + 16 * MF * g,
                  kongs + KF * MAX_KONGS * g, ev + MAX_EVENTS * N_EV * g, seats + 4 * SEAT_FIELDS * g,
                  lg + LOG_FIELDS * max_log * g if max_log else lg, max_log, game0 + g)
    eval_done(&E)


def policy_shanten(const uint8_t[::1] counts, int n_melds, int forms, int options):
    """The efficiency policy's shanten of a hand without wildcards, as the game kernel computes it
    for a rule of these form and option bits (the fast path, then the 十三浪 / 九幺 bound and the
    knitted forms behind their lower bounds); for the tests, which compare it with
    :func:`mjfast.shanten`.

    Parameters
    ----------
    counts : uint8[34]
        Concealed tiles, 3k+1 or 3k+2 of them with ``3 * n_melds`` at most 14 in all.
    n_melds : int
        Called melds.
    forms, options : int
        The kernel rule's form and option bits (``mjfast._bridge.kernel_rule``).

    Returns
    -------
    int
    """
    cdef Rule R
    cdef Eval E
    cdef Params row
    cdef uint8_t play[34]
    cdef uint8_t copies[34]
    cdef int k, n = 0, s
    if counts.shape[0] != 34:
        raise ValueError("counts needs 34 entries")
    for k in range(34):
        if counts[k] > 4:
            raise ValueError("at most 4 of a kind")
        n += counts[k]
    if n_melds < 0 or n % 3 == 0 or n + 3 * n_melds > 14:
        raise ValueError("a 3k+1 or 3k+2 hand with 3 * n_melds + the concealed tiles at most 14")
    probe_rule(&R, &row, play, copies, forms, options)
    eval_init(&E, &R, play)
    E.pol.memo = NULL                  # each hand afresh
    s = shanten_raw(&counts[0], n_melds, 0, &E, &R)
    eval_done(&E)
    return s


def value_ratings(const uint8_t[::1] counts, int n_melds, int forms, int options, values, double draws, *,
                  double last_boost=3.0, int wilds=0, int melded=0, bint chowed=False, bint open_=False,
                  unsigned int meld_chows=0, int meld_gates=0, visible=None):
    """The value player's rating (:func:`rate_hand`) of each discard of a 3k+2 hand, as the game
    kernel computes it for a rule of these form and option bits with every kind in play
    (4 copies); for the tests, which compare it with :mod:`mjfast._reference.policy`.

    Parameters
    ----------
    counts : uint8[34]
        Concealed natural tiles (3k+2 with the wildcards and ``3 * n_melds``: 14).
    n_melds, forms, options : int
        Melds made; the kernel rule's form and option bits (``mjfast._bridge.kernel_rule``).
    values : float64[N_PATTERNS, 4]
        A win's value per pattern: concealed self-drawn, concealed on a discard, open self-drawn,
        open on a discard (:func:`mjfast.policies.pattern_values`).
    draws : float
        The draws the rating counts on.
    last_boost : float
        The last tile's chance per draw relative to a draw's (the game kernel's: 3).
    wilds : int
        Wildcards held.
    melded, chowed, open_ :
        The melds: bit g for a meld in group g (3 honours), a chow among them, one made on a discard.
    meld_chows : int
        Bit k for a melded suit chow whose lowest tile is kind k.
    meld_gates : int
        The groups of 五门齐 the melds fill: bit g for suit g, 3 for the winds, 4 for the
        dragons; 32 when two melds are in one group.
    visible : int16[34], optional
        Copies of each kind visible outside the hand.

    Returns
    -------
    list
        Per kind: ``(shanten, rating)`` after discarding one of it as :func:`val_decide` rates it
        (its patterns alone when the shanten is one above the least; rating None two or more
        above), None for the kinds not held.
    """
    cdef Rule R
    cdef Eval E
    cdef Params row
    cdef Hopes H
    cdef uint8_t play[34]
    cdef uint8_t copies[34]
    cdef uint8_t h[34]
    cdef int16_t vis[34]
    cdef int k, n = 0
    cdef double v
    if counts.shape[0] != 34:
        raise ValueError("counts needs 34 entries")
    for k in range(34):
        if counts[k] > 4:
            raise ValueError("at most 4 of a kind")
        n += counts[k]
    if n == 0:
        raise ValueError("a hand without natural tiles has no discard to rate")
    if n_melds < 0 or wilds < 0 or n + wilds + 3 * n_melds != 14:
        raise ValueError("a 3k+2 hand: 3 * n_melds + the concealed tiles and wildcards = 14")
    vals = np.ascontiguousarray(values, np.float64)
    if vals.shape != (N_PATTERNS, 4):
        raise ValueError(f"values needs shape ({N_PATTERNS}, 4)")
    seen = np.zeros(34, np.int16) if visible is None else np.ascontiguousarray(visible, np.int16)
    if seen.shape != (34,) or (seen < 0).any() or (seen + np.asarray(counts) > 4).any():
        raise ValueError("visible needs 34 counts, at most 4 with the hand's own")
    probe_rule(&R, &row, play, copies, forms, options)
    R.honours = 1
    for k in range(N_PATTERNS):
        for n in range(4):
            R.pat_values[4 * k + n] = vals[k, n]
    set_knobs(&R, {"last_boost": last_boost})
    for k in range(34):
        vis[k] = seen[k]
    eval_init(&E, &R, play)
    E.pol.memo = NULL
    hopes_of_rule(&H, &R)
    H.melded = melded
    H.chowed = chowed
    H.meld_chows = meld_chows
    H.open_ = open_
    H.gates = meld_gates
    H.draws = draws
    shanten = {}
    for k in range(34):
        if counts[k]:
            memcpy(h, &counts[0], 34)
            h[k] -= 1
            shanten[k] = shanten_raw(h, n_melds, wilds, &E, &R)
    least = min(shanten.values())
    out = []
    for k in range(34):
        if counts[k] == 0 or shanten[k] > least + 1:
            out.append(None if counts[k] == 0 else (shanten[k], None))
            continue
        memcpy(h, &counts[0], 34)
        h[k] -= 1
        v = rate_hand(&E.pol, h, n_melds, wilds, shanten[k], -1, vis, &H, shanten[k] == least)
        out.append((shanten[k], v))
    eval_done(&E)
    return out


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
    if options & O_HONOUR_CHOWS:
        raise ValueError("the table evaluation knows no honour chows")
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


def simulate_games_kernel(list bitgens,                 # IN one BitGenerator per chunk
                          const int32_t[::1] games,     # IN games per chunk
                          const int8_t[::1] wall,       # IN the rule's tiles (codes 0..47)
                          const int8_t[:, ::1] faces,   # IN (n_rows, 48) role of each code
                          const uint8_t[:, ::1] copies,    # IN (n_rows, 34) natural copies in play
                          const uint8_t[:, ::1] playable,  # IN (n_rows, 34) what a wildcard may be
                          int forms, int options, *,
                          bint chow, bint void_suit, bint multi, bint rob_multi, bint play_on, bint flip,
                          int first_kind, bint call_locks, int wild_head, int fei_policy, bint dice,
                          int pung_policy=0, int win_lock=0, int pass_policy=0, int forced_win_left=0,
                          bint wild_chow=False,
                          object flower_minimum,        # None or (self-draw, discard, hard only, 抢杠 exempt, SZ-A4)
                          object checker,               # None or callable (see Parameters)
                          object fan_search=None,       # None or (option bits, 和绝张, flower bloom, receipts)
                          bint fan_minimum=False,       # the fan search decides 国标's 8-番 minimum
                          const int8_t[::1] dealers,    # IN (n_games,) the dealer of each game, -1: drawn
                          const int8_t[::1] winds,      # IN (n_games,) the prevalent wind of each game
                          int32_t[:, ::1] rec,          # OUT (n_games, N_RECORD)
                          uint8_t[:, :, ::1] hands,     # OUT (n_games, 4, 34)
                          int8_t[:, :, :, ::1] melds,   # OUT (n_games, 4, 4, N_MELD_FIELDS) kind, tile, source, order
                          int8_t[:, :, ::1] kongs,      # OUT (n_games, MAX_KONG_LOG, 5) konger, kind, feeder, tile, won
                          int32_t[:, :, ::1] events,    # OUT (n_games, MAX_WIN_EVENTS, N_EVENT_FIELDS)
                          uint8_t[:, :, ::1] seats,     # OUT (n_games, 4, N_SEAT_FIELDS)
                          int16_t[:, :, ::1] log,       # OUT (n_games, max_log, N_LOG_FIELDS), or max_log 0
                          int n_threads=1,
                          object seat_policies=None,    # None or 4 x (call mode, keep concealed, user mask, value)
                          object user=None,             # None or callable (see Parameters)
                          object pattern_values=None,   # None or float64 (N_PATTERNS, 4)
                          object flower_values=None,    # None or float64 (rows, N_PATTERNS, 4)
                          object value_knobs=None):     # None (VALUE_KNOBS) or a dict of some of them
    """Play every chunk; chunk ``c`` uses ``bitgens[c]`` and fills its games' rows in order.

    The BitGenerators must be private to this call (spawned streams): they are advanced
    without taking their locks.  Calling again with the same BitGenerators plays on from
    where their streams stopped (the hands of a match).

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
        Form and option bits of the shanten kernel (缺一门 is handled by ``void_suit``).
    chow, void_suit, multi, rob_multi, play_on : bool
        Chow from the left (with :data:`~mjfast._kernels._shanten` option ``honour_chows`` in
        ``options`` also the honour chows: a meld row ``(0, code, ...)`` with code 27-30 the
        winds but that one, 31 中发白); 定缺 / no calls in the void suit; several winners on one discard;
        several winners robbing one kong; 血战到底 (play on after a win until three seats
        have won or the wall is exhausted).
    flip : bool
        Turn up an indicator (a uniformly random tile, out of play) after the shuffle.
    first_kind : int
        A kind whose first discard is recorded (贵阳 冲锋鸡), -1 for none.
    call_locks : bool
        A seat that passed a 碰 of a kind, or discarded one of three it held, does not 碰 / 杠
        that kind before its next draw.
    wild_head : int
        The lone-wildcard wait the rule knows (:data:`WILD_HEADS`): 0 none, 1 a go-around wait
        (瑞金 制飞), 2 a next-draw wait (上饶 宝吊头).
    fei_policy : int
        0: never decline a win; 1: decline a self-drawn win to wait with a lone wildcard
        whenever ``wild_head`` allows it.
    pung_policy : int
        0: 碰 when it helps the hand (the efficiency policy); 1: 碰 whenever allowed (for tests).
    win_lock : int
        What a passed win locks until the seat's next draw: 0 nothing; 1 every discard win (漏胡:
        "同样或者能胡的牌"); 2 wins on that kind, until the next draw or call (过水).
    pass_policy : int
        0: take every potential win; 1: decline each seat's first potential discard win (for
        tests of the locks).
    forced_win_left : int
        From this many tiles left in the wall (0: never) every potential win is taken: on a
        drawn tile that was one of them, on a discard or a robbed kong; no policy is asked.
    wild_chow : bool
        A wildcard may stand for one or two tiles of a chow called from the left (瑞金 "如果含有宝，
        算吃成功，但宝不能拿起来了"): it stays in the meld (bits of ``melds[..., 4]``).  The built-in
        policy weighs those chows like the others, preferring natural tiles on a tie.
    dice : bool
        Throw two dice per game (recorded).
    flower_minimum : tuple or None
        ``(need_self_draw, need_discard, hard_only, qianggang_exempt, discard_pung)``: decide a
        flower minimum here (苏州 §5: the thresholds of the rule's options; ``hard_only``: only
        hard flowers count; ``qianggang_exempt``: a 抢杠 win needs none; ``discard_pung``: a wind
        triplet completed by the winning discard is a 风碰, 1 花, not a 风暗刻, 2) instead of
        asking a checker; None for every other rule.
    fan_search : tuple or None
        ``(option_bits, last_copy, flower_bloom, receipts)``: 国标's fans come from the compiled
        fan search of :mod:`mjfast._kernels._mcr` with its option bits, and 和绝张 / 杠上开花 on
        a flower's replacement as the rule's facts say (only for rules without wildcards or
        honour chows); ``receipts``: what a winner receives as a base and per 番, self-drawn
        then on a discard.  The value players weigh a wait for more 番 with them.  None for
        every other rule.
    fan_minimum : bool
        With ``fan_search``: decide 国标's 8-番 minimum here by that search, instead of asking
        a checker.
    checker : callable or None
        ``checker(seat, counts, melds, tile, self_draw, discarder, dealer, flags, wilds,
        flowers, flipped) -> bool`` with ``counts`` the 34 concealed counts as bytes (the
        winning tile included; a drawn wildcard is ``tile == WILD`` and counted in
        ``wilds``), ``melds`` a tuple of ``(kind, lowest tile, source seat, wildcard bits)``, ``flowers``
        48 bytes of flowers laid aside by code, ``flipped`` the indicator's code or -1; asked
        (with the GIL) at every potential win; an exception it raises (``KeyboardInterrupt``
        included) is raised by this function once the threads are done.  None accepts every
        complete hand.
    dealers : int8[n_games]
        Each game's dealer seat, or -1 to draw it uniformly.
    winds : int8[n_games]
        Each game's prevalent wind (0-3), carried in bits :data:`WIND_SHIFT` of every flags
        value (the checker's and the records').
    rec : int32[n_games, N_RECORD]
        dealer, how of the first win (0 self-draw, 1 discard, 2 robbing a kong, 3 none),
        its discarder (-1), turn (1 + discards), winners mask, first winning tile, its
        flags (:data:`FLAGS`), kongs made, the 杠上炮 kong index, void suits (2 bits per
        seat), wall exhausted, win events, the flipped code (-1), the seat of an unclaimed
        first ``first_kind`` discard (-1), the dice (-1).
    hands : uint8[n_games, 4, 34]
        Final concealed natural counts (a winner's hand includes his winning tile).
    melds : int8[n_games, 4, 4, N_MELD_FIELDS]
        ``(kind, lowest tile, source seat, order, wildcards)``, kind 0 chow, 1 pung, 2 exposed
        kong, 3 added kong, 4 concealed kong, ``order`` the meld's place among all melds of the
        game, ``wildcards`` the chow's tiles a wildcard holds (bit i: tile i of the chow's code,
        :data:`CHOW_TILES`); -1 rows after the last meld.
    kongs : int8[n_games, MAX_KONG_LOG, KONG_FIELDS]
        Kongs in order: konger, kind, feeder (-1), tile, mask of seats that had won.
    events : int32[n_games, MAX_WIN_EVENTS, N_EVENT_FIELDS]
        Win events in order: how, discarder, tile, flags, winners mask, the kong index of a
        杠上炮 discard or of a self-draw on a kong's replacement (-1), mask of seats that had
        won before.
    seats : uint8[n_games, 4, N_SEAT_FIELDS]
        Per seat: flowers laid aside by code (48), unclaimed discards by kind (34), wildcards
        held, whether the seat declared a lone-wildcard wait.
    log : int16[n_games, max_log, N_LOG_FIELDS]
        Every action in order (:data:`ACTIONS`: action, seat, tile), -1 after the last; a
        shape ``(0, 0, 3)`` array (or ``max_log == 0``) keeps no log.
    n_threads : int
        OpenMP threads.
    seat_policies : sequence of 4 (int, bool, int), optional
        Per seat: the call mode (:data:`CALL_MODES`: ``faster`` the efficiency test above,
        ``always`` every legal 碰 / 杠 / 吃 on a discard and every kong on its own turn, ``never``
        no call on a discard), whether it stays concealed (no call on a discard while it has made
        none, unless the hand is ready afterwards), and its user mask (:data:`USER_BITS`: the
        decisions ``user`` makes for it).  None: every seat ``(faster, False, 0)``.
    user : callable or None
        Asked (with the GIL) for the decisions of the seats whose mask has bits:
        ``user(what, game, seat, counts, wilds, melds, flowers, discards, wall_left, flipped,
        dealer, tile, turn, options, voids, waiting) -> int`` with ``what`` of :data:`ASKS`, ``game`` the row,
        ``counts`` the seat's 34 concealed counts (bytes), ``wilds`` its wildcards, ``melds``
        every seat's ``(kind, lowest tile, source, wildcard bits)`` rows, ``flowers`` every seat's 48 flower
        counts (bytes), ``discards`` every discard so far as (seat, kind or :data:`WILD`) byte
        pairs, ``tile`` the tile at stake (the drawn tile on one's own turn, else -1 / the
        discard / the winning tile), ``turn`` the discards made, ``options`` the legal
        ``(action code, tile)`` choices of a claim or kong (a chow's tile: its code | its
        wildcard bits << :data:`CHOW_WILD_SHIFT`), ``voids`` every seat's 定缺 suit (-1:
        none), ``waiting`` whether the seat waits on a lone wildcard (飞 / 宝吊头, declared by
        declining a complete self-drawn hand and discarding down to that wait).  It answers a held
        kind to discard,
        an option's index (-1: none) or 1 / 0 (take the win or not).  Its exceptions are raised
        as a checker's are.
    pattern_values : float64[N_PATTERNS, 4], optional
        The value players' pattern values (:func:`mjfast.policies.pattern_values`); needed when a
        seat plays the value player.
    flower_values : float64[rows, N_PATTERNS, 4], optional
        The same for a seat holding 0, 1 .. ``rows - 1`` flowers (the last row: that many or
        more), 1 to :data:`FLOWER_ROWS` rows: a value player's hopes use the row of the flowers
        it holds.  None: ``pattern_values`` whatever it holds.
    value_knobs : dict, optional
        Value players' weights that differ from :data:`VALUE_KNOBS`.
    """
    cdef Py_ssize_t n_chunks = len(bitgens)
    cdef Py_ssize_t ci
    cdef int i, j, n_rows = faces.shape[0], max_log = log.shape[1]
    cdef Rule R
    cdef uint8_t playable_all[34]
    cdef bitgen_t** rngs = NULL
    cdef int32_t* offs = NULL
    cdef Params* rows = NULL
    cdef long long total = 0
    cdef uint8_t cap4[34]
    cdef int16_t no_log[3]
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
    if wild_head < 0 or wild_head > 2:
        raise ValueError("wild_head must be 0, 1 or 2")
    if fei_policy < 0 or fei_policy > 1 or pung_policy < 0 or pung_policy > 1 or pass_policy < 0 \
            or pass_policy > 1:
        raise ValueError("fei_policy, pung_policy and pass_policy must be 0 or 1")
    if forced_win_left < 0:
        raise ValueError("forced_win_left must be >= 0")
    if win_lock < 0 or win_lock > 2:
        raise ValueError("win_lock must be 0, 1 or 2")
    for i in range(n_chunks):
        if games[i] < 0:
            raise ValueError("games per chunk must be >= 0")
        total += games[i]
    if rec.shape[0] != total or rec.shape[1] != N_REC or hands.shape[0] != total or hands.shape[1] != 4 \
            or hands.shape[2] != 34 or melds.shape[0] != total or melds.shape[1] != 4 or melds.shape[2] != 4 \
            or melds.shape[3] != MF or kongs.shape[0] != total or kongs.shape[1] != MAX_KONGS or kongs.shape[2] != KF \
            or events.shape[0] != total or events.shape[1] != MAX_EVENTS or events.shape[2] != N_EV \
            or seats.shape[0] != total or seats.shape[1] != 4 or seats.shape[2] != SEAT_FIELDS \
            or dealers.shape[0] != total or winds.shape[0] != total or log.shape[2] != LOG_FIELDS \
            or (max_log and log.shape[0] != total):
        raise ValueError("output arrays have the wrong shape")
    for i in range(dealers.shape[0]):
        if dealers[i] < -1 or dealers[i] > 3 or winds[i] < 0 or winds[i] > 3:
            raise ValueError("dealers must be seats 0-3 or -1, winds 0-3")
    for i in range(34):
        playable_all[i] = 1             # the fast shanten path; absent kinds are never drawn
    options &= ~(O_NEED_VOID | 7 * O_VOID_M)
    R.n_rows = n_rows
    R.flip = flip
    R.faces = &faces[0, 0]
    R.copies = &copies[0, 0]
    R.first_kind = first_kind
    R.options = options
    R.forms = forms & (F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN_ORPHANS)
    R.extra = forms & (F_THIRTEEN_LAN | F_NINE_TERMINALS)
    R.prune = R.forms == forms and not (options & O_HONOUR_CHOWS)   # the table path knows no honour chows
    R.slow = (forms & (F_HONORS_KNITTED | F_SEVEN_STARS | F_KNITTED_STRAIGHT)) != 0
    params_init(&R.p_hk, &cap4[0], playable_all, forms & (F_HONORS_KNITTED | F_SEVEN_STARS), options)
    params_init(&R.p_ks, &cap4[0], playable_all, forms & F_KNITTED_STRAIGHT, options)
    R.chow = chow
    R.hchow = chow and (options & O_HONOUR_CHOWS) != 0
    R.wild_chow = chow and wild_chow
    R.void_suit = void_suit
    R.multi = multi
    R.rob_multi = rob_multi
    R.play_on = play_on
    R.call_locks = call_locks
    R.wild_head = wild_head
    R.fei_policy = fei_policy
    R.pung_policy = pung_policy
    R.win_lock = win_lock
    R.pass_policy = pass_policy
    R.forced_left = forced_win_left
    R.dice = dice
    R.check = checker is not None
    R.checker = <void*>checker
    R.flower_min = flower_minimum is not None
    R.fan_search = fan_search is not None
    R.fan_min = fan_minimum
    R.any_user = 0
    for i in range(4):
        R.call_mode[i] = CALL_FASTER
        R.keep_conc[i] = 0
        R.user_mask[i] = 0
        R.value[i] = 0
    for i in range(4 * N_PATTERNS):
        R.pat_values[i] = 0.0
    R.honours = 0
    for i in range(27, 34):
        if copies[0, i]:
            R.honours = 1
    if seat_policies is not None:
        if len(seat_policies) != 4:
            raise ValueError("seat_policies needs one (call mode, keep concealed, user mask, value) per seat")
        for i in range(4):
            mode, keep, mask, value = seat_policies[i]
            if mode not in (CALL_FASTER, CALL_ALWAYS, CALL_NEVER) or mask < 0 or mask > 7 or value < 0 \
                    or value > V_VALUE + V_DEFEND:
                raise ValueError("seat_policies: call modes of CALL_MODES, user masks 0..7, value bits 0..3")
            R.call_mode[i] = mode
            R.keep_conc[i] = 1 if keep else 0
            R.user_mask[i] = mask
            R.value[i] = value
            if mask:
                R.any_user = 1
    set_knobs(&R, value_knobs)
    if any(R.value[i] for i in range(4)):
        values = np.ascontiguousarray(pattern_values, np.float64) if pattern_values is not None else None
        if values is None or values.shape != (N_PATTERNS, 4) or not np.isfinite(values).all():
            raise ValueError(f"value players need pattern_values: finite floats of shape ({N_PATTERNS}, 4)")
        for i in range(N_PATTERNS):
            for j in range(4):
                R.pat_values[4 * i + j] = values[i, j]
    R.n_fl_rows = 0
    if any(R.value[i] for i in range(4)) and flower_values is not None:
        fl_rows = np.ascontiguousarray(flower_values, np.float64)
        if fl_rows.ndim != 3 or not 1 <= fl_rows.shape[0] <= N_FLOWER_ROWS or fl_rows.shape[1:] != (N_PATTERNS, 4) \
                or not np.isfinite(fl_rows).all():
            raise ValueError(f"flower_values needs finite floats of shape (1 .. {N_FLOWER_ROWS}, {N_PATTERNS}, 4)")
        R.n_fl_rows = fl_rows.shape[0]
        for i in range(R.n_fl_rows * N_PATTERNS):
            for j in range(4):
                R.fl_values[4 * i + j] = fl_rows[i // N_PATTERNS, i % N_PATTERNS, j]
    if R.any_user and user is None:
        raise ValueError("seat_policies name user decisions but no user callable is given")
    if not R.any_user:
        user = None
    R.user = <void*>user
    if R.flower_min:
        R.fm_need[0], R.fm_need[1], R.fm_hard_only, R.fm_qg_exempt, R.fm_discard_pung = flower_minimum
    if R.fan_min and not R.fan_search:
        raise ValueError("fan_minimum needs the fan_search it decides with")
    if R.fan_min and (R.check or R.flower_min):
        raise ValueError("fan_minimum decides the wins: give no checker and no flower_minimum with it")
    if R.fan_search:
        R.fan_opts, R.fan_last_copy, R.fan_flower_bloom, receipts = fan_search
        if len(receipts) != 4:
            raise ValueError(f"fan_search's receipts are 4 numbers, got {receipts!r}")
        for i in range(4):
            R.fan_pay[i] = float(receipts[i])
        if R.hchow or np.any(np.asarray(faces) == ROLE_WILD):
            raise ValueError("fan_search reads natural tiles only: the rule may have no wildcards and no honour chows")
        if not 0 <= R.fan_opts <= 7:
            raise ValueError(f"fan_search's option bits are 0..7, got {R.fan_opts}")
        mcr_ready()
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
                sim_chunk(rngs[ci], &wall[0], <int>wall.shape[0], &R, playable_all, games[ci], &dealers[offs[ci]],
                          &winds[offs[ci]],
                          &rec[offs[ci], 0], &hands[offs[ci], 0, 0], &melds[offs[ci], 0, 0, 0],
                          &kongs[offs[ci], 0, 0], &events[offs[ci], 0, 0], &seats[offs[ci], 0, 0],
                          &log[offs[ci], 0, 0] if max_log else &no_log[0], max_log, offs[ci])
    finally:
        free(rngs)
        free(offs)
        free(rows)
        global _n_failures
        failure = _checker_failures.pop(id(checker), None) if checker is not None else None
        user_failure = _checker_failures.pop(id(user), None) if user is not None else None
        if failure is None:
            failure = user_failure
        _n_failures = len(_checker_failures)
    if failure is not None:
        raise failure[1]
