"""太仓麻将 (Taicang) scorer: ``(1 + 花) × multipliers``, the 二花自摸三花冲 minimum, 无花果.

Everything follows ``rules/taicang.md`` (§5 minimum, §6 elements, §7 payment).  The dragons
中发白, the frameless 白板 and the printed 百搭 are flowers: bonus tiles in ``ctx.hand.bonus``.
The flipped indicator (``ctx.flipped``) picks the 百搭 wildcard (§2 successor table); the
wildcards held are ``ctx.hand.wilds`` and what they stood for may be fixed with
``ctx.wild_faces``.  吃 is allowed from 上家 only.

Elements: 底花 +1; 花 +1 per flower tile; suit 明杠 +1, suit 暗杠 +2; 风暗刻 ("风杠") +1;
风明杠 +2, 风暗杠 +3; 风碰 0 (TC-A7, shown as a 0 row); then multipliers 门清 ×2,
混一色 ×2, 清一色 ×4, 对对胡 ×2, 杠开 ×2, 大吊车 ×2.  ``hua = (1 + F) × Π multipliers``
(TC-C2: the factors multiply); self-draw adds no factor.  无花果 (门清 with F = 0) is paid a fixed
``max_payment`` per payer on a self-draw and half of it on a discard.

``Score.total`` = ``hua`` in 花 (the ``add`` rows then the ``multiply`` rows replay to it);
``points`` = one share = ``hua × base`` (silver per 花, default 5, the file's example) or the
无花果 amount; ``payments`` per §7.  For 无花果 the last row (code ``no_flower_concealed``,
unit ``stake``, how ``replace``) replaces the *settlement* by the fixed amount, in stake units;
the 花 total keeps the formula value.

Rule options (``mjfast.rules.get("taicang", ...)``; defaults first):

``qidui`` : False | True
    TC-A4.  True makes 七对 a legal shape.  The file gives it no value of its own, so it scores
    as any other concealed hand (门清 ×2, flushes, flowers).
``threshold_counts`` : ``"all"`` | ``"hard_only"``
    TC-A14.  What counts towards the minimum and towards F = 0 for 无花果: F (flowers + the
    花 of rows 3–6) or the flower tiles alone.
``threshold_exempt`` : ``"menqing"`` | ``"suzhou_list"``
    TC-A6.  Only 门清 hands are exempt from the minimum, or also the patterns of Suzhou's
    list that Taicang has: 混一色, 清一色, 对对胡, 七对, 杠开, 大吊车, 天胡, 地胡 (``heavenly``,
    ``earthly``; they score nothing in Taicang).
``fan2x`` : 2 | 4
    TC-C1.  The factor of 混一色 and 对对胡 ("花翻2倍").

Scorer keywords: ``base`` (silver per 花, default 5) and ``max_payment`` (无花果 per payer on
a self-draw, default 100 as in "比如付100两银子"; it must be even, as a discard pays half).

⚑ defaults used here (the rules file marks them so):

* TC-A2: a flower face chosen as 百搭 is a wildcard, not a flower: such a bonus tile is an error.
* TC-A3: no call uses a 百搭, so melds never hold the wild kind.
* TC-A5: the 底花 does not count towards the minimum.  TC-A7: 风碰 = 0.
* TC-A8: a claimed kong (一次杠, 续杠) breaks 门清; 暗杠 does not.
* TC-A11: 无花果 is not a cap on other hands.  TC-A13: any four called sets make 大吊车.
* §7: 抢杠 counts as a self-draw for the minimum (and for 无花果); the konger pays 3 shares.

Choices made here where the file is silent (each pinned by a test):

* 风暗刻 ("胡牌后手上有3张相同的风"): read as in Suzhou (SZ-A4): a wind triplet completed by the
  winning discard (or robbed tile) is a claimed pung (0).  A wildcard may be one of the three.
* 大吊车 counts 暗杠 among the four sets, as Suzhou SZ-A8 does.
* Of all the readings (wildcard faces included) the one with the highest settlement is scored,
  a legal one first.  A wildcard stands for any suit tile or wind (TC-A3), its own face included.
* 包: the file names only 抢杠 (the robbed konger, ``ctx.discarder``, pays).  ``ctx.liable``
  other than the discarder is a ValueError.

No non-win settlements: the file has no kong payments and 荒庄 pays nothing (TC-A9).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from .. import tiles as _t
from ..decomposition import Decomposition, decompose_counts, from_reading
from . import _shortcuts
from ._core import NotComplete, Score, WinContext, register
from .suzhou import _meld_counts  # the same meld classes count in both 花 systems

__all__ = ["score_taicang", "can_win_taicang", "DEFAULT_BASE", "DEFAULT_MAX_PAYMENT",
           "wild_kinds"]

#: Default silver per 花 (the file's worked example).
DEFAULT_BASE = 5
#: Default 无花果 payment per payer on a self-draw ("比如付100两银子").
DEFAULT_MAX_PAYMENT = 100

_NO_PAYMENT = (0, 0, 0, 0)


def wild_kinds(rule, flipped) -> tuple:
    """Tile ids of the 百搭 faces chosen by the flipped indicator (taicang.md §2).

    Examples
    --------
    >>> from mjfast import rules
    >>> r = rules.get("taicang")
    >>> [_t.CODES[t] for t in wild_kinds(r, "9m")], [_t.CODES[t] for t in wild_kinds(r, "F2")]
    (['1m'], ['F5', 'F6', 'F7', 'F8'])
    """
    code = _t.CODES[_t.parse_tile(flipped)]
    return tuple(_t.parse_tile(c) for c in rule.wildcard.successor(code))


def _check_hand(ctx: WinContext, rule) -> None:
    h = ctx.hand
    for m in h.melds:
        if m.kind == "chow" and m.source not in (None, "left"):
            raise ValueError(f"太仓 allows 吃 only from 上家 (left); meld {m} is not allowed")
        if m.tiles[0] >= 31:
            raise ValueError(f"the dragons are flowers in 太仓; meld {m} is not allowed")
    if ctx.flipped is None and not h.bonus:  # nothing below can fail
        if h.wilds > 4:
            raise ValueError(f"{h.wilds} wildcards; 太仓 has 4 百搭 tiles")
        if ctx.liable is not None and ctx.liable != ctx.discarder:
            raise ValueError("太仓 has no 包 except 抢杠, where the robbed konger (the discarder) "
                             f"pays; liable={ctx.liable} is not allowed")
        return
    wild = wild_kinds(rule, ctx.flipped) if ctx.flipped is not None else ()
    flowers = rule.tileset.bonus
    fl = _t.CODES[ctx.flipped] if ctx.flipped is not None else None
    for t, n in Counter(h.bonus).items():
        code = _t.CODES[t]
        if code not in flowers:
            raise ValueError(f"{code} ({_t.NAMES_ZH[t]}) is not a 太仓 flower; "
                             f"flowers: {', '.join(flowers)}")
        if t in wild:
            raise ValueError(f"{code} is this hand's 百搭 (flipped {fl}), a wildcard and not a "
                             "flower (TC-A2): count it in wilds=")
        if n + (code == fl) > flowers[code]:
            raise ValueError(f"{n} copies of flower {code} (and the flipped indicator {fl}); "
                             f"the 太仓 tile set has {flowers[code]}")
    seen = h.counts + h.meld_counts
    for t in wild:
        if t < _t.N_KINDS and seen[t]:
            raise ValueError(f"{_t.CODES[t]} is this hand's 百搭 (flipped {fl}): its tiles are "
                             "wildcards (count them in wilds=) and cannot be in melds (TC-A3)")
    if fl is not None and ctx.flipped < _t.N_KINDS and seen[ctx.flipped] > 3:
        raise ValueError(f"4 copies of {fl} in the hand, but one is the flipped indicator")
    if h.wilds > 4:
        raise ValueError(f"{h.wilds} wildcards; 太仓 has 4 百搭 tiles")
    if ctx.liable is not None and ctx.liable != ctx.discarder:
        raise ValueError("太仓 has no 包 except 抢杠, where the robbed konger (the discarder) "
                         f"pays; liable={ctx.liable} is not allowed")


_FACTOR_ROWS = (  # key, code, name_zh, name_en
    ("menqing", "concealed_hand", "门清", "Concealed hand"),
    ("hunyise", "half_flush", "混一色", "Half flush"),
    ("qingyise", "full_flush", "清一色", "Full flush"),
    ("duidui", "all_pungs", "对对胡", "All pungs"),
    ("gangkai", "kong_bloom", "杠开", "Win on a replacement tile"),
    ("dadiao", "big_hanging", "大吊车", "Big hanging"),
)


def _evaluate(ctx: WinContext, rule, d, melds_c, hard: int, faces, base: int,
              max_payment: int) -> dict:
    """Element counts, factors, 花, share and legality of one raw reading ``d``
    (``(form, concealed sets, pair, tiles, wild_tiles)``); ``faces`` = natural tiles with melds.
    """
    o = rule.options
    h = ctx.hand
    smk, sak, wp, wmk, wak = melds_c
    qidui = d[0] == "seven_pairs"
    wcp = 0
    for kind, first in d[1]:
        if kind == "pung" and first >= 27:
            if not ctx.self_draw and first == ctx.win_tile:
                wp += 1  # completed by the winning discard: a claimed pung (as SZ-A4), 0 花
            else:
                wcp += 1
    F = hard + smk + 2 * sak + wcp + 2 * wmk + 3 * wak
    if d[4]:
        faces = list(faces)
        for t in d[4]:
            faces[t] += 1
    suits = sum(any(faces[9 * s: 9 * s + 9]) for s in range(3))
    winds = any(faces[27:31])
    menqing = h.is_concealed
    factors = {}
    if menqing:
        factors["menqing"] = 2
    if suits == 1:
        if winds:
            factors["hunyise"] = o["fan2x"]
        else:
            factors["qingyise"] = 4
    if not qidui and all(k != "chow" for k, _f in d[1]):
        factors["duidui"] = o["fan2x"]
    if ctx.after_kong:
        factors["gangkai"] = 2
    dadiao = not qidui and h.n_melds == 4
    if dadiao:
        factors["dadiao"] = 2
    hua = 1 + F
    for v in factors.values():
        hua *= v
    counted = F if o["threshold_counts"] == "all" else hard
    selfdraw_like = ctx.self_draw or ctx.robbing_kong
    wuhuaguo = menqing and counted == 0
    if wuhuaguo:
        share = max_payment if selfdraw_like else max_payment // 2
    else:
        share = hua * base
    exempt = menqing
    if o["threshold_exempt"] == "suzhou_list":
        exempt = exempt or qidui or suits == 1 or "duidui" in factors or ctx.after_kong \
            or dadiao or ctx.heavenly or ctx.earthly
    need = 2 if selfdraw_like else 3
    legal = exempt or counted >= need
    reason = ""
    if not legal:
        what = "花" if o["threshold_counts"] == "all" else "hard 花"
        how = "抢杠 (as a self-draw)" if ctx.robbing_kong else (
            "self-draw" if ctx.self_draw else "discard win")
        exempt_what = "门清" if o["threshold_exempt"] == "menqing" else "门清 or an exempt pattern"
        reason = f"{counted} {what}, below the {need}-花 minimum for a {how}, and not {exempt_what}"
    e = {"hard": hard, "smk": smk, "sak": sak, "wp": wp, "wcp": wcp, "wmk": wmk, "wak": wak}
    return dict(e=e, factors=factors, hua=hua, share=share, wuhuaguo=wuhuaguo, legal=legal,
                reason=reason, d=d)


_ADD_ROWS = (  # key, code, name_zh, name_en, 花 each
    ("hard", "flower", "花", "Flower", 1),
    ("smk", "suit_exposed_kong", "明杠", "Suit exposed kong", 1),
    ("sak", "suit_concealed_kong", "暗杠", "Suit concealed kong", 2),
    ("wcp", "wind_concealed_pung", "风杠（风暗刻）", "Wind concealed pung", 1),
    ("wmk", "wind_exposed_kong", "风明杠", "Wind exposed kong", 2),
    ("wak", "wind_concealed_kong", "风暗杠", "Wind concealed kong", 3),
    ("wp", "wind_pung", "风碰", "Wind pung", 0),
)


def _rows(r) -> list:
    rows = [("base", "底花", "Base", 1, 1, "花", "add")]
    for key, code, zh, en, each in _ADD_ROWS:
        n = r["e"][key]
        if n:
            rows.append((code, zh, en, each * n, n, "花", "add"))
    for key, code, zh, en in _FACTOR_ROWS:
        if key in r["factors"]:
            rows.append((code, zh, en, r["factors"][key], 1, "倍", "multiply"))
    if r["wuhuaguo"]:
        rows.append(("no_flower_concealed", "无花果", "Concealed hand without flowers (fixed)",
                     r["share"], 1, "stake", "replace"))
    return rows


def _settle(ctx: WinContext, share: int) -> list:
    pay = [0, 0, 0, 0]
    if ctx.robbing_kong:  # "由杠的人一人付三份"
        pay[ctx.discarder] = -3 * share
    elif ctx.self_draw:
        for p in range(4):
            if p != ctx.winner:
                pay[p] = -share
    else:
        pay[ctx.discarder] = -share
    pay[ctx.winner] = -sum(pay)
    return pay


def _check_amounts(base, max_payment) -> None:
    if isinstance(base, bool) or not isinstance(base, int) or base <= 0:
        raise ValueError(f"base (silver per 花) must be a positive integer, got {base!r}")
    if isinstance(max_payment, bool) or not isinstance(max_payment, int) or max_payment <= 0 \
            or max_payment % 2:
        raise ValueError("max_payment (无花果 per payer) must be a positive even integer "
                         f"(a discard pays half), got {max_payment!r}")


def _decomposition(ctx: WinContext, d) -> Decomposition:
    """The :class:`~mjfast.Decomposition` of a raw reading (built when first asked for); a winning
    wildcard has no natural tile in hand, so its wait type is not given."""
    return from_reading(d, ctx.hand.melds, ctx.win_tile if ctx.hand.counts[ctx.win_tile] else None)


_PLAYABLE = np.zeros(_t.N_KINDS, np.uint8)
_PLAYABLE[:31] = 1  # a 百搭 stands for any suit tile or wind (TC-A3); the dragons are flowers
_PLAYABLE.setflags(write=False)


def _best(ctx: WinContext, rule, base: int, max_payment: int):
    _check_amounts(base, max_payment)
    _check_hand(ctx, rule)
    h = ctx.hand
    c = h.counts
    if c[31] or c[32] or c[33]:
        bad = next(t for t in (31, 32, 33) if c[t])
        raise ValueError(f"tile {_t.CODES[bad]} is not played under rule 'taicang' "
                         "(the dragons are flowers: pass them with bonus=)")
    forms = ("standard", "seven_pairs") if rule.options["qidui"] else ("standard",)
    reads = decompose_counts(c, h.n_melds, h.wilds, forms=forms, playable=_PLAYABLE)
    if ctx.wild_faces:
        want = Counter(ctx.wild_faces)
        reads = [d for d in reads if not want - Counter(d[4])]
    if not reads:
        extra = f" with wildcards as {', '.join(_t.CODES[t] for t in ctx.wild_faces)}" \
            if ctx.wild_faces else ""
        shapes = "4 sets + a pair" + (", or 七对" if rule.options["qidui"] else "")
        raise NotComplete(f"hand not complete: {h} does not form a winning hand under taicang"
                         f"{extra} ({shapes})")
    faces = (c + h.meld_counts).tolist() if h.n_melds else c.tolist()
    melds_c = _meld_counts(h.melds)
    hard = len(h.bonus)
    best = None
    for d in reads:
        r = _evaluate(ctx, rule, d, melds_c, hard, faces, base, max_payment)
        key = (r["legal"], r["share"])
        if best is None or key > best[0]:
            best = (key, r)
    return best[1]


def score_taicang(ctx: WinContext, rule, *, base: int = DEFAULT_BASE,
                  max_payment: int = DEFAULT_MAX_PAYMENT) -> Score:
    """Score a won hand under 太仓麻将 (the registered scorer of ``"taicang"``).

    Call it through :func:`mjfast.score` (``score(ctx, "taicang", **options)``).

    Parameters
    ----------
    ctx : WinContext
        The hand; flowers in ``ctx.hand.bonus``, 百搭 in ``ctx.hand.wilds``.  Flags used:
        ``self_draw``, ``discarder``, ``robbing_kong`` (``discarder`` = the robbed konger),
        ``after_kong`` (杠开), ``flipped`` (checks the flowers and naturals against the 百搭
        kind), ``wild_faces``; ``heavenly``/``earthly`` only with
        ``threshold_exempt="suzhou_list"``.
    rule : Rule
        The resolved ``taicang`` rule (options in the module docstring).
    base : int, default 5
        Silver per 花.
    max_payment : int, default 100
        无花果: what each payer pays on a self-draw; the discarder pays half.

    Returns
    -------
    Score
        ``total`` = 花; ``points`` = one share; ``legal`` False below the minimum (§5).

    Raises
    ------
    ValueError
        A hand that is not a winning hand (with ``wild_faces``, none with those faces), a chow
        not from 上家, a dragon meld, a flower the tile set lacks or that is this hand's 百搭,
        natural tiles of a playable 百搭 kind, a ``liable`` seat other than the discarder, or a
        bad ``base``/``max_payment``.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> h = Hand("123m456m789m234m55m", bonus="F1F2 5z 6z 7z")
    >>> s = score(WinContext(h, win_tile="5m", self_draw=True), "taicang")
    >>> s.total, s.points, s.payments.tolist()
    (48, 240, [720, -240, -240, -240])
    >>> s.elements[["name_zh", "total", "how"]].values.tolist()
    [['底花', 1, 'add'], ['花', 5, 'add'], ['门清', 2, 'multiply'], ['清一色', 4, 'multiply']]
    >>> h = Hand("123m99m1z456p", melds=["789s@left"], bonus="F3", wilds=2)
    >>> s = score(WinContext(h, win_tile="1z", discarder=3, flipped="1p"), "taicang")
    >>> s.legal, s.reason
    (False, '1 花, below the 3-花 minimum for a discard win, and not 门清')
    """
    fast = _fast_best(ctx, rule, base, max_payment)
    if fast is not None:
        total, share, legal = fast
        if legal:
            points = share
            pay = _settle(ctx, points)
        else:
            points, pay = 0, _NO_PAYMENT
        lazy = []  # the full evaluation, for the rows, the reason and the decomposition

        def full():
            if not lazy:
                lazy.append(_best(ctx, rule, base, max_payment))
            return lazy[0]
        return Score("taicang", total, points, pay, legal,
                     "" if legal else lambda: full()["reason"], "花", lambda: _rows(full()),
                     decomposition_fn=lambda: _decomposition(ctx, full()["d"]))
    r = _best(ctx, rule, base, max_payment)
    if r["legal"]:
        points = r["share"]
        pay = _settle(ctx, points)
    else:
        points, pay = 0, _NO_PAYMENT
    return Score("taicang", r["hua"], points, pay, r["legal"], r["reason"], "花",
                 lambda: _rows(r), decomposition_fn=lambda: _decomposition(ctx, r["d"]))


def can_win_taicang(ctx: WinContext, rule, *, base: int = DEFAULT_BASE,
                    max_payment: int = DEFAULT_MAX_PAYMENT) -> bool:
    """Whether ``ctx`` is a legal 太仓 win: a winning hand meeting the §5 minimum.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, can_win
    >>> h = Hand("456p789s123s11z", melds=["234m@left"], bonus="F1F2")
    >>> can_win(WinContext(h, win_tile="1z", self_draw=True), "taicang")
    True
    >>> can_win(WinContext(h, win_tile="1z", discarder=2), "taicang")
    False
    """
    h = ctx.hand
    if not ctx.wild_faces:
        _check_amounts(base, max_payment)
        _check_hand(ctx, rule)
        if h.counts.tobytes()[31:] == _NO_DRAGONS:
            forms = _shortcuts.STANDARD_PAIRS if rule.options["qidui"] else _shortcuts.STANDARD
            if not _shortcuts.complete(h, forms, _PLAYABLE):  # (_check_hand allows <= 4 wilds)
                return False
            if _surely_legal(ctx, rule):
                return True
            if not h.wilds:
                return _legal_natural(ctx, rule)
    try:
        return bool(_best(ctx, rule, base, max_payment)["legal"])
    except NotComplete:
        return False


_NO_DRAGONS = bytes(3)


def _surely_legal(ctx: WinContext, rule) -> bool:
    """A sufficient condition, for a complete hand, of some reading being legal (§5): 门清, an
    exempt pattern of every reading, or a lower bound of the counted 花 (flowers and the called
    melds' 花, without the concealed wind pungs) that meets the minimum.  False: not sure."""
    h = ctx.hand
    o = rule.options
    if h.is_concealed:
        return True
    if o["threshold_exempt"] == "suzhou_list" and (
            ctx.after_kong or ctx.heavenly or ctx.earthly or h.n_melds == 4):
        return True
    counted = len(h.bonus)
    if o["threshold_counts"] == "all":
        smk, sak, _wp, wmk, wak = _meld_counts(h.melds)
        counted += smk + 2 * sak + 2 * wmk + 3 * wak
    return counted >= (2 if ctx.self_draw or ctx.robbing_kong else 3)


def _legal_natural(ctx: WinContext, rule) -> bool:
    """Whether some reading of a complete hand without wildcards that is not 门清 (and not
    exempt by :func:`_surely_legal`) is legal, as :func:`_best` decides it.

    Such a hand has called melds, so every reading is 4 sets + a pair with the same concealed
    wind pungs (a wind held three times is a pung in every reading): F, the suits and so the
    minimum are the same for all readings; of the exemptions only 对对胡 (concealed sets all
    pungs) depends on the reading.
    """
    h = ctx.hand
    o = rule.options
    c = h.counts.tobytes()
    counted = len(h.bonus)
    if o["threshold_counts"] == "all":
        smk, sak, _wp, wmk, wak = _meld_counts(h.melds)
        counted += smk + 2 * sak + 2 * wmk + 3 * wak
        counted += sum(1 for t in range(27, 31)
                       if c[t] == 3 and (ctx.self_draw or t != ctx.win_tile))
    if counted >= (2 if ctx.self_draw or ctx.robbing_kong else 3):
        return True
    if o["threshold_exempt"] != "suzhou_list":
        return False
    if _shortcuts.all_pungs(h.counts):  # 对对胡 looks at the concealed sets only
        return True
    suits = {s for s in range(3) if c[9 * s: 9 * s + 9] != _EMPTY_SUIT}
    suits |= {m.tiles[0] // 9 for m in h.melds if m.tiles[0] < 27}
    return len(suits) == 1


_EMPTY_SUIT = bytes(9)
_NO_WINDS = bytes(4)
_OPTS: dict = {}


def _options(rule) -> tuple:
    """The options :func:`_fast_best` reads, cached by the rule's identity (the entry holds the
    rule, so its id cannot be reused while it is cached)."""
    hit = _OPTS.get(id(rule))
    if hit is not None and hit[0] is rule:
        return hit[1]
    o = rule.options
    opts = (bool(o["qidui"]), o["fan2x"], o["threshold_counts"] == "all",
            o["threshold_exempt"] == "suzhou_list")
    if len(_OPTS) > 64:
        _OPTS.clear()
    _OPTS[id(rule)] = (rule, opts)
    return opts


def _fast_best(ctx: WinContext, rule, base: int, max_payment: int):
    """``(total, share, legal)`` of the reading :func:`_best` picks, without listing the
    readings, or None when the hand is not a plain complete hand (wildcards, ``wild_faces``,
    dragons in hand, incomplete) or the pick depends on the readings' order (:func:`_best`
    decides, and raises, then).

    Every standard reading has the same called melds and concealed wind pungs (a wind held three
    times is a pung), hence the same F; they differ only in 对对胡, which some reading has exactly
    when the concealed tiles are pungs and a pair, and which then pays more, except under 无花果
    (a fixed share: the first reading would win the tie, so that case is left to :func:`_best`).
    A 七对 reading (option ``qidui``) exists when there are no melds and every count is even;
    of equal keys :func:`_best` keeps the standard reading.
    """
    _check_amounts(base, max_payment)
    _check_hand(ctx, rule)
    h = ctx.hand
    if h.wilds or ctx.wild_faces:
        return None
    c = h.counts.tobytes()
    if c[31:] != _NO_DRAGONS:
        return None
    melds = h.melds
    qidui_ok, fan2x, counts_all, suzhou_list = _options(rule)
    qd = qidui_ok and not melds and c.count(1) == 0 and c.count(3) == 0
    std = _shortcuts.complete(h, _shortcuts.STANDARD)
    if not (std or qd):
        return None
    hard = len(h.bonus)
    menqing = h.is_concealed
    duidui = std and _shortcuts.all_pungs(h.counts)
    smk, sak, _wp, wmk, wak = _meld_counts(melds) if melds else (0, 0, 0, 0, 0)
    F0 = hard + smk + 2 * sak + 2 * wmk + 3 * wak
    self_draw = ctx.self_draw
    win = ctx.win_tile
    wcp = 0
    for t in range(27, 31):
        if c[t] == 3 and (self_draw or t != win):
            wcp += 1
    counted_std = (F0 + wcp) if counts_all else hard
    counted_qd = F0 if counts_all else hard  # no concealed sets
    if menqing and duidui and counted_std == 0:
        return None  # 无花果 ties the readings: the first one wins
    suits = {s for s in range(3) if c[9 * s: 9 * s + 9] != _EMPTY_SUIT}
    winds = c[27:31] != _NO_WINDS
    for m in melds:
        t = m.tiles[0]
        if t < 27:
            suits.add(t // 9)
        else:
            winds = True
    one_suit = len(suits) == 1
    factor = 2 if menqing else 1
    if one_suit:
        factor *= fan2x if winds else 4
    if ctx.after_kong:
        factor *= 2
    selfdraw_like = self_draw or ctx.robbing_kong
    need = 2 if selfdraw_like else 3
    exempt0 = menqing or (suzhou_list and (one_suit or ctx.after_kong or ctx.heavenly
                                           or ctx.earthly))
    best = None
    if std:
        dadiao = len(melds) == 4
        f = factor
        if duidui:
            f *= fan2x
        if dadiao:
            f *= 2
        hua = (1 + F0 + wcp) * f
        if menqing and counted_std == 0:
            share = max_payment if selfdraw_like else max_payment // 2
        else:
            share = hua * base
        legal = exempt0 or (suzhou_list and (duidui or dadiao)) or counted_std >= need
        best = (legal, share, hua)
    if qd:  # no melds: 门清, exempt
        hua = (1 + F0) * factor
        if counted_qd == 0:
            share = max_payment if selfdraw_like else max_payment // 2
        else:
            share = hua * base
        if best is None or (True, share) > best[:2]:
            best = (True, share, hua)
    return best[2], best[1], best[0]


register("taicang", score_taicang, can_win_taicang)


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins: (1 + F) 花 on a hand with a chow called (not 门清, so not exempt):
#: minimum 2 / 3 花.
MINIMAL_WINS = tuple(("123m456m789s55s", ("123p@left",), ("F1", "F2", "F3", "F4")[:f], "1m", sd)
                     for f in (1, 2, 3, 4) for sd in (True, False))


def next_deal(outcome) -> int:
    """§8: the winner deals (the dealer keeps the deal when he wins); after a robbed kong the robbed
    konger deals ("由杠的人一人付三份", and he "becomes the next dealer"); a draw keeps the dealer
    (TC-A9)."""
    if not outcome.events:
        return outcome.dealer
    first = outcome.events[0]
    return first.discarder if first.how == "robbing_kong" else first.winners[0]
