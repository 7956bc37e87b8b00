"""Enumeration of the set + pair splits of a complete hand (standard form and 组合龙).

A split is a multiset of ``k`` sets (chows, pungs) and one pair whose faces ``F`` cover the
concealed natural counts ``c`` (``F[i] >= c[i]``); the surplus ``F - c`` is what the
wildcards stand for, so ``sum(F - c) == wilds`` and the surplus may only sit on playable
kinds.  A wildcard may stand for any playable kind, a fifth copy included.

The search walks the 34 kinds in order.  At kind ``i`` it chooses how many chows start there
(``a``), how many pungs (``b``) and whether the pair is there (``q``); together with the chows
started at ``i - 1`` and ``i - 2`` these give ``F[i]``, which must cover ``c[i]`` with a
surplus that fits the wildcards left.  Each choice sequence is a different multiset of groups,
so the search never yields the same split twice.

组合龙 (knitted straight): for each of the six knitted layouts, the nine knitted tiles are taken
out first (a missing one is a wildcard) and the rest is searched for ``k - 3`` sets and a pair.

Output rows (``int8``, :data:`ROW_WIDTH` columns)::

    [form, set0, set1, set2, set3, pair, layout, wild0 .. wild7]

``form`` is :data:`FORM_STANDARD` or :data:`FORM_KNITTED_STRAIGHT`; a set code ``t`` in
0..33 is the chow starting at ``t``, ``34 + t`` the pung of ``t``, ``-1`` unused; ``layout`` is
the knitted layout index (``-1`` for the standard form); the wild columns list the kinds the
wildcards stand for, ascending, ``-1`` padded.

Honour chows (``forms`` with :data:`FORM_HONOUR_CHOWS`, 瑞金): in the standard form any three
different winds and any three different dragons are sets too, coded ``HONOUR_CHOW_OFFSET + j``:
``j`` 0..3 the wind chow without wind ``j`` (东 南 西 北), ``j = 4`` the three dragons.  They are
chosen when the search reaches the first wind (the wind chows) and the first dragon.
"""
from libc.stdint cimport uint8_t, int8_t

from mjfast._kernels._common cimport F_STANDARD, F_KNITTED_STRAIGHT, KNIT, MAX_WILDS as MAX_WILDS_

cdef enum:
    WIDTH = 15
    C_FORM = 0
    C_SETS = 1
    C_PAIR = 5
    C_LAYOUT = 6
    C_WILDS = 7
    F_HONOUR_CHOWS = 1024    # a request to decompose: honour chows count as sets (beyond the form bits)
    PUNG = 34
    HCHOW = 68

FORM_STANDARD = F_STANDARD
FORM_KNITTED_STRAIGHT = F_KNITTED_STRAIGHT
FORM_HONOUR_CHOWS = F_HONOUR_CHOWS
ROW_WIDTH = WIDTH
MAX_WILDS = MAX_WILDS_
PUNG_OFFSET = PUNG
HONOUR_CHOW_OFFSET = HCHOW

# the six knitted layouts: 147 / 258 / 369 laid over m, p, s (the shanten kernel's order)
KNITTED_LAYOUTS = tuple(tuple(sorted(KNIT[_j][_x] for _x in range(9))) for _j in range(6))


ctypedef struct Search:
    int c[34]
    uint8_t playable[34]
    int suffix[35]          # naturals from kind i on
    int k                   # sets wanted
    int w                   # wildcards
    int groups[4]           # set codes chosen so far
    int ngroups
    int pair
    int wl[MAX_WILDS_]      # wild faces chosen so far
    int nwl
    int form
    int layout
    int hc                  # honour chows in this search
    int hcu[34]             # tiles of each kind in the honour chows chosen so far
    int8_t* out
    Py_ssize_t cap
    Py_ssize_t n


cdef inline bint chow_start(int i) noexcept nogil:
    return i < 27 and i % 9 <= 6


cdef void emit(Search* s) noexcept nogil:
    cdef int8_t* row
    cdef int j, x, y, t
    cdef int tmp[MAX_WILDS_]
    if s.n < s.cap:
        row = s.out + s.n * WIDTH
        row[C_FORM] = <int8_t>s.form
        for j in range(4):
            row[C_SETS + j] = <int8_t>(s.groups[j] if j < s.ngroups else -1)
        row[C_PAIR] = <int8_t>s.pair
        row[C_LAYOUT] = <int8_t>s.layout
        for j in range(s.nwl):
            tmp[j] = s.wl[j]
        # insertion sort (the knitted part's wilds come first, out of order)
        for x in range(1, s.nwl):
            t = tmp[x]
            y = x - 1
            while y >= 0 and tmp[y] > t:
                tmp[y + 1] = tmp[y]
                y -= 1
            tmp[y + 1] = t
        for j in range(MAX_WILDS_):
            row[C_WILDS + j] = <int8_t>(tmp[j] if j < s.nwl else -1)
    s.n += 1


cdef inline bint hc_pending(const Search* s, int i) noexcept nogil:
    """Honour chows chosen earlier still need tiles of kind ``i`` or later."""
    cdef int j
    if not s.hc:
        return False
    for j in range(i if i > 27 else 27, 34):
        if s.hcu[j]:
            return True
    return False


cdef void dfs(Search* s, int i, int p1, int p2, int nsets, int pr, int e) noexcept nogil:
    """Kind ``i``; ``p1``/``p2`` chows started at ``i-1``/``i-2``; ``e`` wildcards used."""
    cdef int a, b, q, f, ex, amax, left, j, need
    if nsets == s.k and pr == 1 and p1 == 0 and p2 == 0 and not hc_pending(s, i):
        if s.suffix[i] == 0 and e == s.w:
            emit(s)
        return
    if i >= 34:
        return
    left = s.k - nsets
    if s.hc and (i == 27 or i == 31) and s.hc != i:
        honour_chows(s, i, nsets, pr, e)
        return
    amax = left if chow_start(i) else 0
    need = s.c[i]
    for a in range(amax + 1):
        for b in range(left - a + 1):
            for q in range(2 - pr):
                f = p1 + p2 + a + 3 * b + 2 * q + s.hcu[i]
                if f < need:
                    continue
                ex = f - need
                if e + ex > s.w:
                    continue
                if ex > 0 and not s.playable[i]:
                    continue
                for j in range(a):
                    s.groups[s.ngroups] = i
                    s.ngroups += 1
                for j in range(b):
                    s.groups[s.ngroups] = PUNG + i
                    s.ngroups += 1
                if q:
                    s.pair = i
                for j in range(ex):
                    s.wl[s.nwl] = i
                    s.nwl += 1
                dfs(s, i + 1, a, p1, nsets + a + b, pr + q, e + ex)
                s.nwl -= ex
                s.ngroups -= a + b
                if q:
                    s.pair = -1


cdef void honour_chows(Search* s, int i, int nsets, int pr, int e) noexcept nogil:
    """At the first wind (``i = 27``) or dragon (``i = 31``): every multiset of that group's
    honour chows that fits the sets left, then the search on from ``i`` with their tiles."""
    cdef int x[4]
    cdef int n_types = 4 if i == 27 else 1
    cdef int n_kinds = 4 if i == 27 else 3
    cdef int code, tmp, X, j, r, n_codes = 1, mark = s.hc
    for j in range(n_types):
        n_codes *= 5
    for code in range(n_codes):
        X = 0
        tmp = code
        for j in range(n_types):
            x[j] = tmp % 5
            tmp = tmp // 5
            X += x[j]
        if X > s.k - nsets:
            continue
        for j in range(n_kinds):
            s.hcu[i + j] = X - x[j] if n_types == 4 else X
        for j in range(n_types):
            for r in range(x[j]):
                s.groups[s.ngroups] = HCHOW + (j if n_types == 4 else 4)
                s.ngroups += 1
        s.hc = i                      # chosen here: the search goes on from this kind
        dfs(s, i, 0, 0, nsets + X, pr, e)
        s.hc = mark
        s.ngroups -= X
    for j in range(n_kinds):
        s.hcu[i + j] = 0


cdef void run(Search* s, int start_e) noexcept nogil:
    cdef int i
    s.suffix[34] = 0
    for i in range(33, -1, -1):
        s.suffix[i] = s.suffix[i + 1] + s.c[i]
    s.ngroups = 0
    s.pair = -1
    for i in range(34):
        s.hcu[i] = 0
    dfs(s, 0, 0, 0, 0, 0, start_e)


cdef Py_ssize_t search_all(const uint8_t* counts, int n_sets, int wilds, const uint8_t* playable,
                           int forms, int8_t* out, Py_ssize_t cap) noexcept nogil:
    cdef Search s
    cdef int i, j, k, pex
    cdef bint ok
    s.out = out
    s.cap = cap
    s.n = 0
    s.w = wilds
    for i in range(34):
        s.playable[i] = playable[i]
    if forms & F_STANDARD:
        for i in range(34):
            s.c[i] = counts[i]
        s.k = n_sets
        s.nwl = 0
        s.form = F_STANDARD
        s.layout = -1
        s.hc = 1 if forms & F_HONOUR_CHOWS else 0
        run(&s, 0)
    s.hc = 0                          # 组合龙 readings take no honour chows
    if (forms & F_KNITTED_STRAIGHT) and n_sets >= 3:
        for j in range(6):
            for i in range(34):
                s.c[i] = counts[i]
            s.nwl = 0
            pex = 0
            ok = True
            for i in range(9):
                k = KNIT[j][i]
                if s.c[k] > 0:
                    s.c[k] -= 1
                elif not playable[k] or pex >= wilds:
                    ok = False
                    break
                else:
                    pex += 1
                    s.wl[s.nwl] = k
                    s.nwl += 1
            if not ok:
                continue
            s.k = n_sets - 3
            s.form = F_KNITTED_STRAIGHT
            s.layout = j
            run(&s, pex)
    return s.n


def decompose_kernel(const uint8_t[::1] counts, int n_sets, int wilds, const uint8_t[::1] playable,
                     int forms, int8_t[:, ::1] out):
    """Write the splits of one hand into ``out``; return how many there are.

    Parameters
    ----------
    counts : uint8[34]          # IN concealed natural tiles
    n_sets : int                # IN sets wanted besides the pair (0..4)
    wilds : int                 # IN wildcards held (0..8); the hand has 3 * n_sets + 2 tiles
    playable : uint8[34]        # IN kinds a wildcard may stand for
    forms : int                 # IN FORM_STANDARD | FORM_KNITTED_STRAIGHT, | FORM_HONOUR_CHOWS
    out : int8[cap, ROW_WIDTH]  # OUT rows (see the module docstring)

    Returns
    -------
    int
        The number of splits.  When it exceeds ``out.shape[0]`` only the first rows were
        written; call again with a larger ``out``.
    """
    cdef int i, total = 0
    cdef Py_ssize_t r
    if counts.shape[0] != 34 or playable.shape[0] != 34:
        raise ValueError("counts and playable must each have 34 entries")
    if out.shape[1] != WIDTH:
        raise ValueError(f"out must have {WIDTH} columns")
    if wilds < 0 or wilds > MAX_WILDS_:
        raise ValueError(f"wilds must be between 0 and {MAX_WILDS_}")
    if n_sets < 0 or n_sets > 4:
        raise ValueError("n_sets must be between 0 and 4")
    for i in range(34):
        if counts[i] > 4:
            raise ValueError("each count must be at most 4")
        total += counts[i]
    if total + wilds != 3 * n_sets + 2:
        return 0
    with nogil:
        r = search_all(&counts[0], n_sets, wilds, &playable[0], forms, &out[0, 0] if out.shape[0] else NULL,
                       out.shape[0])
    return r
