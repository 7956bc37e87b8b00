"""瑞金麻将 (Ruijin) scorer: 宝 wildcards, 烂胡, 对对胡 (= 七对), honour chows, 飞, base multiples.

Rules: ``rules/ruijin_shangrao.md`` (RJ columns).  The Ruijin payment table
(§6) does not depend on the shape of the hand, only on *how* it was won:

* discard win (瑞金 平胡): each of the three others pays ``b``; the discarder pays ``+b``;
  the dealer extra ``+b`` (below);
* self-draw (杠上开花 included): each of the three pays ``2b`` plus the dealer extra;
* 飞 (lone 宝 head, or all 4 宝 / all 3 花宝): the self-draw payment × ``fei_mult``;
* 天胡 (``ctx.heavenly``) and 瑞金 地胡 (a non-dealer wins on the dealer's first discard,
  ``ctx.earthly``; ``ctx.human`` is accepted as the same event, RS-C2) are paid as 飞;
* 抢杠 (``ctx.robbing_kong``): a discard win, the robbed player being the discarder (⚑: the
  file says nothing about 抢杠).

``b`` is the scorer keyword ``base`` (default 1; the file gives no value).

Reading of the result: :attr:`Score.total` is the share of the *principal payer* in 基数 (the
discarder on a discard win, the dealer when he pays on a self-draw, otherwise any payer),
``points = total × base``, and ``payments`` are the four seat deltas (every payer's own
share).  The rows add up to ``total``: 底 1, 自摸 +1, 放炮 +1, 庄家 +1, then ×``fei_mult`` for
飞 / 天胡 / 地胡.

Legal shapes (any complete hand wins; there is no minimum): 4 sets + pair where a set may be
a chow, a pung/kong or (RS-A3 ⚑) an honour chow of 3 different winds or 中发白, concealed or
called ("中发白任何三个可以互吃，东南西北风任何三个也可以互吃": a :class:`~mjfast.Meld` such as
``"124z@left"``); a reading is a ``"standard"`` :class:`~mjfast.Decomposition` whose ``tiles``
hold the honour-chow tiles; 对对胡 = seven pairs (RS-C1);
烂胡 (rule option ``lanhu``); 飞.  The 宝 may stand for any tile, itself included (RS-A8,
RS-A10).

Hand conventions.  ``hand.wilds`` are the 宝 tiles held (for 花宝 the flowers).  When the 宝 is
not a flower, the 花 are 假宝 and must be given as the 宝's natural face (⚑ §2: they score
nothing).  A winning 宝 is given as the tile it stands for (``win_tile``); when the hand holds
no natural copy of ``win_tile`` the drawn tile is taken to be a 宝 (override with
``rule_state={"win_is_wild": True/False}``).  ``ctx.flipped`` (the indicator) is only used to
know whether the 宝 are flowers (then 3 宝 are in play and holding all 3 is 飞).

⚑ defaults used (flagged ⚑ in the rules file or chosen here):

* RS-A4: holding all 4 宝 (3 for 花宝) is a self-draw 飞 on the player's turn, whatever the
  shape.
* RS-A5: ``fei_mult = 2`` (rule option; the whole self-draw payment, dealer extra included, is
  multiplied).
* RS-A6: 暗杠 = ``2b`` from each other player (:func:`kong_payments`).
* RS-A11: the dealer extra ``b`` is symmetric — ``+b`` on the dealer's own payment when he
  pays, ``+b`` from every payer when the dealer wins.
* 飞 state (§5): ``rule_state["fei"]`` — ``None`` (default): a self-drawn hand that was 飞-ready
  (13 tiles = complete sets, or six pairs, plus a lone 宝) is scored as 飞, the highest reading;
  ``True``: the player declared 飞 (制飞), so a discard win is not legal ("制飞后不能平胡") and a
  self-draw must be 飞-ready; ``False``: the go-around was broken, no 飞 (plain self-draw).
* No 包 liability exists in the file: ``ctx.liable`` is rejected (ValueError), and so are bonus
  tiles (``hand.bonus``): 花宝 are wilds, 假宝 are given as their face.
* ``ctx.wild_faces`` (faces fixed at the win) restricts the readings to those that put the 宝 on
  those faces (the honour-chow search and the 飞 test do not look at it).
"""

from __future__ import annotations

import numpy as np

from .. import tiles as _t
from ..decomposition import Decomposition, decompose
from . import _shortcuts
from ._core import WinContext
from ._framework import Element, Facts, Scheme, positive_int

__all__ = ["score_ruijin", "can_win_ruijin", "kong_payments", "UNIT", "SCHEME"]

UNIT = "基数"
_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)
_FLOWER_IDS = frozenset(range(34, 42))


# ---------------------------------------------------------------------------------------------
# set search with wildcards (and optional honour chows), shared with shangrao
def _sets(c: list, w: int, honour: bool, memo: dict):
    """A list of sets ``(kind, tiles)`` using all of ``c`` plus ``w`` wilds, or None."""
    key = (tuple(c), w)
    if key in memo:
        return memo[key]
    i = next((k for k in range(34) if c[k]), -1)
    if i < 0:
        res = [("pung", (-1, -1, -1))] * (w // 3) if w % 3 == 0 else None
        memo[key] = res
        return res
    res = None
    cands = []
    # pung (most naturals first; exchange argument)
    n = min(3, c[i])
    cands.append(("pung", [(i, n)], 3 - n, (i, i, i)))
    if i < 27:
        s0 = i - i % 9
        for s in (i, i - 1, i - 2):
            if s < s0 or s > s0 + 6:
                continue
            use = [(j, 1) for j in range(s, s + 3) if j >= i and c[j]]
            cands.append(("chow", use, 3 - len(use), (s, s + 1, s + 2)))
    elif honour:
        groups = []
        if i in _WINDS:
            groups = [g for g in ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30)) if i in g]
        else:
            groups = [_DRAGONS]
        for g in groups:
            use = [(j, 1) for j in g if j >= i and c[j]]
            if (i, 1) in use:
                cands.append(("honour_chow", use, 3 - len(use), g))
    for kind, use, need, tiles in cands:
        if need > w:
            continue
        for j, k in use:
            c[j] -= k
        sub = _sets(c, w - need, honour, memo)
        for j, k in use:
            c[j] += k
        if sub is not None:
            res = [(kind, tiles)] + sub
            break
    memo[key] = res
    return res


def _sets_pair(c: list, w: int, honour: bool):
    """``(sets, pair kind)`` for a 3k+2 concealed part with ``w`` wilds, or None."""
    memo: dict = {}
    for i in range(34):
        if c[i] >= 2:
            c[i] -= 2
            s = _sets(c, w, honour, memo)
            c[i] += 2
            if s is not None:
                return s, i
    for i in range(34):
        if c[i] == 1 and w >= 1:
            c[i] -= 1
            s = _sets(c, w - 1, honour, memo)
            c[i] += 1
            if s is not None:
                return s, i
    if w >= 2:
        s = _sets(c, w - 2, honour, memo)
        if s is not None:
            return s, -1
    return None


def _six_pairs(c: list, w: int) -> bool:
    """12 tiles (with ``w`` wilds) form six pairs (four of a kind = two pairs)."""
    singles = sum(x % 2 for x in c)
    return singles <= w and (w - singles) % 2 == 0


def _drawn_is_wild(ctx: WinContext) -> bool:
    v = ctx.rule_state.get("win_is_wild")
    if v is None:
        return ctx.hand.counts[ctx.win_tile] == 0
    if v and ctx.hand.wilds == 0:
        raise ValueError("rule_state win_is_wild=True but the hand holds no wildcard")
    if not v and ctx.hand.counts[ctx.win_tile] == 0:
        raise ValueError(f"rule_state win_is_wild=False but the hand holds no natural {_t.CODES[ctx.win_tile]}")
    return bool(v)


def _fei_ready(ctx: WinContext, honour: bool) -> bool:
    """The 13 tiles before the winning tile were four complete sets (or six pairs) + a lone 宝."""
    h = ctx.hand
    c = h.counts.tolist()
    w = h.wilds
    if _drawn_is_wild(ctx):
        w -= 1
    else:
        c[ctx.win_tile] -= 1
    if w < 1:
        return False
    w -= 1  # the lone 宝 head
    if _sets(list(c), w, honour, {}) is not None:
        return True
    return h.n_melds == 0 and _six_pairs(c, w)


def _all_bao(ctx: WinContext) -> bool:
    """Holding every 宝 in play: 4, or 3 when the flipped indicator is a flower (花宝)."""
    need = 3 if ctx.flipped is not None and ctx.flipped in _FLOWER_IDS else 4
    return ctx.hand.wilds >= need


def _faces_ok(d, faces) -> bool:
    """The reading puts the wildcards on the faces fixed by ``ctx.wild_faces`` (a sub-multiset)."""
    if not faces:
        return True
    have = list(d.wild_tiles)
    for f in faces:
        if f not in have:
            return False
        have.remove(f)
    return True


def _no_bonus(ctx: WinContext, name: str) -> None:
    if ctx.hand.bonus:
        raise ValueError(
            f"{name} scores no bonus tiles: give wild flowers (花宝) as wilds and "
            "假宝 / 白板 substitutes as the face they play"
        )


def _readings(ctx: WinContext, rule, honour: bool) -> list:
    """The readings of the hand (mjfast.decompose, plus honour-chow readings for Ruijin)."""
    h = ctx.hand
    win = ctx.win_tile if h.counts[ctx.win_tile] else None
    out = [d for d in decompose(h, rule=rule, win_tile=win) if _faces_ok(d, ctx.wild_faces)]
    if not out and honour:
        res = _sets_pair(h.counts.tolist(), h.wilds, True)
        if res is not None:
            sets, pair = res
            conc = []
            hon = []
            for kind, tiles in sets:
                if kind == "honour_chow":
                    hon.extend(tiles)
                elif tiles[0] >= 0:
                    conc.append((kind, tiles[0], True))
                else:  # three wilds: report them as a pung of their own (any face would do)
                    conc.append(("pung", 0, True))
            for m in h.melds:
                if m.is_honour_chow:  # a called honour chow (RS-A3: 互吃)
                    hon.extend(m.tiles)
                else:
                    conc.append(("kong" if m.is_kong else m.kind, m.tiles[0], m.kind == "concealed_kong"))
            conc.sort(key=lambda s: (s[1], s[0]))
            out.append(Decomposition("standard", tuple(conc), None if pair < 0 else pair, tuple(sorted(hon)), ()))
    return out


# ---------------------------------------------------------------------------------------------
# the Ruijin payment table, shared with shangrao (RS-A9)
def _check_base(base):
    return positive_int(base, "base")


def _check_mult(m, what="fei_mult"):
    return positive_int(m, what)


def _settle_shares(ctx: WinContext, kind: str, mult: int):
    """Per-seat shares in 基数 for ``kind`` in ("discard", "self_draw", "fei")."""
    shares = [0, 0, 0, 0]
    dealer_wins = ctx.winner == ctx.dealer
    for p in ctx.payers:
        extra = 1 if (dealer_wins or p == ctx.dealer) else 0
        if kind == "discard":
            s = 1 + (p == ctx.discarder) + extra
        else:
            s = 2 + extra
            if kind == "fei":
                s *= mult
        shares[p] = s
    return shares


def _principal(ctx: WinContext, kind: str) -> int:
    if kind == "discard":
        assert ctx.discarder is not None  # a discard win names its discarder
        return ctx.discarder
    if ctx.dealer != ctx.winner:
        return ctx.dealer
    return ctx.payers[0]


class RuijinFacts(Facts):
    """Facts plus how the hand pays: ``fei`` (the 飞 of a self-drawn 飞-ready hand or of all 宝
    held, as ``(code, name_zh, name_en)``; None), ``kind`` ("discard", "self_draw" or "fei"),
    ``why`` (the multiplier's code: the 飞, or 天胡 / 地胡, which are paid as 飞; None),
    ``principal`` (the seat whose share :attr:`~mjfast.Score.total` is) and ``fei_state``
    (``rule_state["fei"]``)."""

    __slots__ = ("fei", "kind", "why", "principal", "fei_state")


class _Table:
    """What differs between the Ruijin and the Shangrao use of the table."""

    def __init__(self, name, honour, fei_names, discard_ban, specials):
        self.name, self.honour, self.fei_names = name, honour, fei_names
        self.discard_ban, self.specials = discard_ban, specials


def _check_for(t: _Table):
    def check(f: Facts) -> None:
        ctx = f.ctx
        if ctx.liable is not None:
            raise ValueError(f"{t.name} has no 包 liability (ctx.liable must be None)")
        _no_bonus(ctx, t.name)
        fei_state = ctx.rule_state.get("fei")
        if fei_state not in (None, True, False):
            raise ValueError(f"rule_state['fei'] must be None, True or False, got {fei_state!r}")
        if t.specials and (ctx.earthly or ctx.human):
            if ctx.self_draw or ctx.discarder != ctx.dealer or ctx.winner == ctx.dealer:
                raise ValueError("瑞金 地胡 is a non-dealer's win on the dealer's first discard (discarder = dealer)")

    return check


def _how_for(t: _Table):
    def how(f: RuijinFacts) -> None:
        """How the hand pays (the 飞 test runs after the checks)."""
        ctx = f.ctx
        fei_state = ctx.rule_state.get("fei")
        f.fei_state = fei_state
        fei = None
        if ctx.self_draw and fei_state is not False:
            if _fei_ready(ctx, t.honour):
                fei = t.fei_names[0]
            elif t.fei_names[1] is not None and _all_bao(ctx):
                fei = t.fei_names[1]
        f.fei = fei
        if t.specials and ctx.heavenly:
            f.kind, f.why = "fei", "heavenly"
        elif t.specials and (ctx.earthly or ctx.human):
            f.kind, f.why = "fei", "earthly"
        elif fei is not None:
            f.kind, f.why = "fei", fei[0]
        else:
            f.kind, f.why = ("self_draw" if ctx.self_draw else "discard"), None
        f.principal = _principal(ctx, f.kind)

    return how


def _complete_for(t: _Table):
    how = _how_for(t)

    def complete(b, f: RuijinFacts) -> bool:
        how(f)
        if f.fei is not None:  # a 飞 hand wins whatever its shape
            return True
        ctx = f.ctx
        if not ctx.wild_faces and _shortcuts.complete(ctx.hand, _shortcuts.STANDARD_PAIRS):
            return True  # (the kernel test is exact, wildcards included)
        return bool(_readings(ctx, b.rule, t.honour))

    return complete


def _legality_for(t: _Table):
    def legality(f: RuijinFacts, r) -> str:
        if f.fei_state is True:
            if t.discard_ban and not f.self_draw:
                return "制飞后不能平胡: after declaring 飞 the player may only self-draw"
            if f.self_draw and f.fei is None:
                return "飞 declared but the hand was not 飞-ready"
        return ""

    return legality


def _elements(t: _Table, mult) -> tuple:
    """The Ruijin table's rows: 底 1, 自摸 +1 or 放炮 +1, 庄家 +1, then × fei_mult for 飞."""
    E = Element
    els = [
        E("base", "底", "base", 1, "1", scope="hand"),
        E("self_draw", "自摸", "self-draw", 1, "f.kind != 'discard'", scope="context"),
        E("discarder", "放炮", "discarder pays double", 1, "f.kind == 'discard'", scope="context"),
        E(
            "dealer",
            "庄家",
            "dealer extra",
            1,
            "f.ctx.winner == f.ctx.dealer or f.principal == f.ctx.dealer",
            scope="context",
        ),
    ]
    fei = [x for x in t.fei_names if x is not None]
    if t.specials:
        fei += [("heavenly", "天胡", "heavenly hand (paid as 飞)"), ("earthly", "地胡", "earthly hand (paid as 飞)")]
    for code, zh, en in fei:
        els.append(E(code, zh, en, mult, f"f.why == {code!r}", scope="context", how="multiply", unit=UNIT))
    return tuple(els)


def _settle_for(t: _Table, mult_of):
    def settle(b, ctx: WinContext, r) -> tuple:
        base = b.kw["base"]
        f = r.facts
        shares = _settle_shares(ctx, f.kind, mult_of(b))
        pay = [-s * base for s in shares]
        pay[ctx.winner] = sum(shares) * base
        return r.total * base, pay

    return settle


def _decomposition_for(t: _Table):
    def decomposition(b, o):
        """Payments do not depend on the shape: the first reading (None for a 四宝 飞 that forms
        no shape)."""
        readings = _readings(o.ctx, b.rule, t.honour)
        return readings[0] if readings else None

    return decomposition


def _not_complete_for(t: _Table):
    def not_complete(ctx: WinContext, rule) -> str:
        return f"hand not complete: {ctx.hand} does not form a winning hand under {rule.name}"

    return not_complete


def table_scheme(
    name: str, honour: bool, fei_names: tuple, discard_ban: bool, specials: bool, mult, keywords: dict, check_keywords
) -> Scheme:
    """The Ruijin payment table as the scheme of rule ``name`` (瑞金, and 上饶 by RS-A9)."""
    t = _Table(name, honour, fei_names, discard_ban, specials)
    return Scheme(
        name,
        _elements(t, mult),
        keywords=keywords,
        check_keywords=check_keywords,
        check=_check_for(t),
        facts=RuijinFacts,
        legality=_legality_for(t),
        settle=_settle_for(t, lambda b: mult(b.rule.options, b.kw)),
        reading_free=_complete_for(t),
        decomposition=_decomposition_for(t),
        not_complete=_not_complete_for(t),
        unit=UNIT,
        complete=_kernel_complete,
        always_legal=_plain,
    )


def _kernel_complete(b, ctx: WinContext):
    """True when the kernel finds 4 sets + a pair or 七对 (exact, wildcards included); None
    otherwise (honour chows, 烂胡 and 飞 are the scorer's to find)."""
    if not ctx.wild_faces and ctx.hand.wilds <= 8 and _shortcuts.complete(ctx.hand, _shortcuts.STANDARD_PAIRS):
        return True
    return None


def _plain(b, ctx: WinContext) -> bool:
    """No rule state (飞, a drawn 宝) to look at: a complete hand is then a legal win."""
    rs = ctx.rule_state
    return not rs


def _ruijin_keywords(kw: dict, rule) -> dict:
    _check_mult(rule.options["fei_mult"])
    kw["base"] = _check_base(kw["base"])
    return kw


#: The 瑞金 scorer, declared.
SCHEME = table_scheme(
    "ruijin",
    True,
    (("fei", "飞", "lone 宝 head (飞)"), ("fei_all_bao", "飞(四宝)", "all 宝 held (飞)")),
    discard_ban=True,
    specials=True,
    mult=lambda o, kw: o["fei_mult"],
    keywords={"base": 1},
    check_keywords=_ruijin_keywords,
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_ruijin(ctx: WinContext, rule, *, base: int = 1):
    """Score a won hand under 瑞金麻将 (registered as ``"ruijin"``).

    Parameters
    ----------
    ctx : WinContext
        The hand (conventions in the module docstring).  Flags used: ``self_draw``,
        ``discarder``, ``dealer``, ``heavenly``, ``earthly``/``human`` (瑞金 地胡),
        ``flipped`` (花宝), ``rule_state`` keys ``fei`` and ``win_is_wild``.
    rule : Rule
        The resolved ``ruijin`` rule: options ``lanhu`` ("general" | "strict", RS-C3) and
        ``fei_mult`` (2, RS-A5).
    base : int, default 1
        基数 ``b`` in stake units.

    Returns
    -------
    Score
        ``total`` = the principal payer's share in 基数, ``points = total × base``.

    Raises
    ------
    ValueError
        An incomplete hand (:class:`~mjfast.scoring.NotComplete`), ``ctx.liable`` given, a 地胡
        not on the dealer's discard, a bad ``base``.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext(Hand("123m456p789s234s55p"), win_tile="5p", discarder=2,
    ...                      winner=1), "ruijin", base=10)
    >>> s.total, s.points, s.payments.tolist()
    (2, 20, [-20, 50, -20, -10])
    """
    return _score(ctx, rule, base=base)


def can_win_ruijin(ctx: WinContext, rule, *, base: int = 1) -> bool:
    """Whether ``ctx`` is a legal 瑞金 win (complete; not a discard win after declaring 飞)."""
    return _can_win(ctx, rule, base=base)


_KONG_KINDS = {
    "added": "added",
    "added_kong": "added",
    "回头杠": "added",
    "补杠": "added",
    "exposed": "exposed",
    "kong": "exposed",
    "direct": "exposed",
    "别人放杠": "exposed",
    "明杠": "exposed",
    "concealed": "concealed",
    "concealed_kong": "concealed",
    "暗杠": "concealed",
}


def kong_payments(kind: str, konger: int, feeder: int | None = None, *, base: int = 1) -> np.ndarray:
    """Ruijin kong settlement (§6) as seat deltas summing to zero.

    Parameters
    ----------
    kind : {"added", "exposed", "concealed"}
        ``"added"`` 回头杠 (added kong after a pung): each other player pays ``b``;
        ``"exposed"`` 别人放杠 (direct kong on a discard): the ``feeder`` alone pays ``3b``;
        ``"concealed"`` 暗杠: each other player pays ``2b`` (⚑ RS-A6).  Chinese names and the
        :class:`~mjfast.Meld` kinds (``kong``, ``added_kong``, ``concealed_kong``) are accepted.
    konger : int
        The seat that made the kong.
    feeder : int, optional
        The discarder of the konged tile; required for ``"exposed"`` only.
    base : int, default 1

    Examples
    --------
    >>> kong_payments("exposed", 0, feeder=2, base=5).tolist()
    [15, 0, -15, 0]
    >>> kong_payments("concealed", 1).tolist()
    [-2, 6, -2, -2]
    """
    k = _KONG_KINDS.get(kind)
    if k is None:
        raise ValueError(f"unknown kong kind {kind!r}; valid: added, exposed, concealed")
    base = _check_base(base)
    if isinstance(konger, bool) or not isinstance(konger, (int, np.integer)) or not 0 <= konger <= 3:
        raise ValueError(f"konger must be a seat 0-3, got {konger!r}")
    pay = np.zeros(4, np.int64)
    if k == "exposed":
        if feeder is None or isinstance(feeder, bool) or not 0 <= feeder <= 3 or feeder == konger:
            raise ValueError(f"a direct kong needs the feeder's seat (not the konger), got {feeder!r}")
        pay[feeder] -= 3 * base
        pay[konger] += 3 * base
        return pay
    if feeder is not None:
        raise ValueError(f"a {k} kong has no feeder")
    each = base if k == "added" else 2 * base
    for p in range(4):
        if p != konger:
            pay[p] -= each
    pay[konger] += 3 * each
    return pay


SCHEME.register()


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins: 底 + 放炮 for the discarder (the cheapest way of winning in the
#: Ruijin table), or a self-draw.
MINIMAL_WINS = (("123m456p789s234s55p", (), (), "1m", False), ("123m456p789s234s55p", (), (), "1m", True))


def settle_kongs(outcome) -> list:
    """The kong payments of §6 as each kong is made: ``(konger, deltas)``."""
    return [
        (k.konger, kong_payments("exposed" if k.kind == "direct" else k.kind, k.konger, k.feeder))
        for k in outcome.kongs
    ]
