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
a chow, a pung/kong or (RS-A3 ⚑) an honour chow of 3 different winds or 中发白 (in the concealed
part only: :class:`~mjfast.Meld` cannot hold an honour chow; such a reading is reported as a
``"standard"`` :class:`~mjfast.Decomposition` whose ``tiles`` hold the honour-chow tiles, since
``decompose`` has no honour chows); 对对胡 = seven pairs (RS-C1);
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
from ._core import _NO_STATE, NotComplete, Score, WinContext, register

__all__ = ["score_ruijin", "can_win_ruijin", "kong_payments", "UNIT"]

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
        raise ValueError("rule_state win_is_wild=False but the hand holds no natural "
                         f"{_t.CODES[ctx.win_tile]}")
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
        raise ValueError(f"{name} scores no bonus tiles: give wild flowers (花宝) as wilds and "
                         "假宝 / 白板 substitutes as the face they play")


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
                conc.append(("kong" if m.is_kong else m.kind, m.tiles[0],
                             m.kind == "concealed_kong"))
            conc.sort(key=lambda s: (s[1], s[0]))
            out.append(Decomposition("standard", tuple(conc), None if pair < 0 else pair,
                                     tuple(sorted(hon)), ()))
    return out


# ---------------------------------------------------------------------------------------------
def _check_base(base):
    if isinstance(base, bool) or not isinstance(base, (int, np.integer)) or base <= 0:
        raise ValueError(f"base must be a positive integer, got {base!r}")
    return int(base)


def _check_mult(m, what="fei_mult"):
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"{what} must be a positive integer, got {m!r}")
    return int(m)


def _settle(ctx: WinContext, kind: str, mult: int):
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
        return ctx.discarder
    if ctx.dealer != ctx.winner:
        return ctx.dealer
    return ctx.payers[0]


def _rows(ctx, kind, mult, why_fei):
    p = _principal(ctx, kind)
    rows = [("base", "底", "base", 1, 1, UNIT, "add")]
    if kind != "discard":
        rows.append(("self_draw", "自摸", "self-draw", 1, 1, UNIT, "add"))
    else:
        rows.append(("discarder", "放炮", "discarder pays double", 1, 1, UNIT, "add"))
    if ctx.winner == ctx.dealer or p == ctx.dealer:
        rows.append(("dealer", "庄家", "dealer extra", 1, 1, UNIT, "add"))
    if kind == "fei":
        code, zh, en = why_fei
        rows.append((code, zh, en, mult, 1, UNIT, "multiply"))
    return rows


def _score(ctx: WinContext, rule, name: str, honour: bool, *, base: int, mult: int,
           fei_names: tuple, discard_ban: bool, specials: bool) -> Score:
    """Shared Ruijin-table scorer (Shangrao reuses it, RS-A9)."""
    base = _check_base(base)
    if ctx.liable is not None:
        raise ValueError(f"{name} has no 包 liability (ctx.liable must be None)")
    _no_bonus(ctx, name)
    fei_state = ctx.rule_state.get("fei")
    if fei_state not in (None, True, False):
        raise ValueError(f"rule_state['fei'] must be None, True or False, got {fei_state!r}")
    if not ctx.wild_faces and _shortcuts.complete(ctx.hand, _shortcuts.STANDARD_PAIRS):
        # complete as 4 sets + a pair or 七对 (the kernel test is exact, wildcards included):
        # the readings exist, and only the first is reported (built when first asked for)
        readings = None
    else:
        readings = _readings(ctx, rule, honour)
    heavenly = specials and ctx.heavenly
    earthly = specials and (ctx.earthly or ctx.human)
    if earthly:
        if ctx.self_draw or ctx.discarder != ctx.dealer or ctx.winner == ctx.dealer:
            raise ValueError("瑞金 地胡 is a non-dealer's win on the dealer's first discard "
                             "(discarder = dealer)")
    fei = None
    legal, reason = True, ""
    if ctx.self_draw and fei_state is not False:
        if _fei_ready(ctx, honour):
            fei = fei_names[0]
        elif _all_bao(ctx):
            fei = fei_names[1]
    if readings is not None and not readings and fei is None:
        raise NotComplete(f"hand not complete: {ctx.hand} does not form a winning hand under "
                         f"{name}")
    if fei_state is True and discard_ban and not ctx.self_draw:
        legal, reason = False, "制飞后不能平胡: after declaring 飞 the player may only self-draw"
    elif fei_state is True and ctx.self_draw and fei is None:
        legal, reason = False, "飞 declared but the hand was not 飞-ready"
    if heavenly:
        kind, why = "fei", ("heavenly", "天胡", "heavenly hand (paid as 飞)")
    elif earthly:
        kind, why = "fei", ("earthly", "地胡", "earthly hand (paid as 飞)")
    elif fei is not None:
        kind, why = "fei", fei
    else:
        kind, why = ("self_draw" if ctx.self_draw else "discard"), None
    shares = _settle(ctx, kind, mult)
    p = _principal(ctx, kind)
    total = shares[p]
    if not legal:
        points, pay = 0, [0, 0, 0, 0]
    else:
        points = total * base
        pay = [-s * base for s in shares]
        pay[ctx.winner] = sum(shares) * base
    # payments do not depend on the shape: report the first reading (None for a 四宝 飞 that
    # forms no shape)
    if readings is None:
        return Score(name, total, points, pay, legal, reason, UNIT,
                     lambda: _rows(ctx, kind, mult, why),
                     decomposition_fn=lambda: _readings(ctx, rule, honour)[0])
    reading = readings[0] if readings else None
    return Score(name, total, points, pay, legal, reason, UNIT,
                 lambda: _rows(ctx, kind, mult, why), decomposition=reading)


def score_ruijin(ctx: WinContext, rule, *, base: int = 1) -> Score:
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
        An incomplete hand, ``ctx.liable`` given, a 地胡 not on the dealer's discard, a bad
        ``base``.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext(Hand("123m456p789s234s55p"), win_tile="5p", discarder=2,
    ...                      winner=1), "ruijin", base=10)
    >>> s.total, s.points, s.payments.tolist()
    (2, 20, [-20, 50, -20, -10])
    """
    return _score(ctx, rule, "ruijin", True, base=base,
                  mult=_check_mult(rule.options["fei_mult"]),
                  fei_names=(("fei", "飞", "lone 宝 head (飞)"),
                             ("fei_all_bao", "飞(四宝)", "all 宝 held (飞)")),
                  discard_ban=True, specials=True)


def _plain(ctx: WinContext) -> bool:
    """No rule state, fixed wildcard faces, liability or bonus tiles: with a valid ``base``,
    a complete hand is then a legal win (the can_win fast path)."""
    rs = ctx.rule_state
    return (ctx.liable is None and not ctx.wild_faces and not ctx.hand.bonus
            and (rs is _NO_STATE or not rs))


def can_win_ruijin(ctx: WinContext, rule, *, base: int = 1) -> bool:
    """Whether ``ctx`` is a legal 瑞金 win (complete; not a discard win after declaring 飞)."""
    if (_plain(ctx) and not (ctx.earthly or ctx.human) and _check_base(base)
            and _check_mult(rule.options["fei_mult"])
            and _shortcuts.complete(ctx.hand, _shortcuts.STANDARD_PAIRS)):
        return True
    try:
        return bool(score_ruijin(ctx, rule, base=base).legal)
    except NotComplete:
        return False


_KONG_KINDS = {"added": "added", "added_kong": "added", "回头杠": "added", "补杠": "added",
               "exposed": "exposed", "kong": "exposed", "direct": "exposed", "别人放杠": "exposed",
               "明杠": "exposed", "concealed": "concealed", "concealed_kong": "concealed",
               "暗杠": "concealed"}


def kong_payments(kind: str, konger: int, feeder: int | None = None, *,
                  base: int = 1) -> np.ndarray:
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
    if isinstance(konger, bool) or not isinstance(konger, (int, np.integer)) \
            or not 0 <= konger <= 3:
        raise ValueError(f"konger must be a seat 0-3, got {konger!r}")
    pay = np.zeros(4, np.int64)
    if k == "exposed":
        if feeder is None or isinstance(feeder, bool) or not 0 <= feeder <= 3 or feeder == konger:
            raise ValueError("a direct kong needs the feeder's seat (not the konger), "
                             f"got {feeder!r}")
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


register("ruijin", score_ruijin, can_win_ruijin)


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins: 底 + 放炮 for the discarder (the cheapest way of winning in the
#: Ruijin table), or a self-draw.
MINIMAL_WINS = (("123m456p789s234s55p", (), (), "1m", False), ("123m456p789s234s55p", (), (), "1m", True))


def settle_kongs(outcome) -> list:
    """The kong payments of §6 as each kong is made: ``(konger, deltas)``."""
    return [(k.konger, kong_payments("exposed" if k.kind == "direct" else k.kind, k.konger, k.feeder))
            for k in outcome.kongs]
