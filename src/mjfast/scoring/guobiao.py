"""国标麻将 (Guobiao / MCR) scorer: the 81-fan table and the 8+番 settlement.

Fans, values, exclusions (不计) and the choice among readings follow ``rules/guobiao_fans.md``,
which records the behaviour of the reference calculator PyMahjongGB 1.4.0; this scorer gives
the same fans on every hand (tests: ``tests/test_guobiao.py``).  The settlement is
``rules/guobiao.md`` §2: on a discard the discarder pays 8 + F and each other player 8; on a
self-draw each player pays 8 + F.  A hand needs 8 番 without flowers to win (GB-A1).

Rule options (``mjfast.rules.get("guobiao", ...)``; defaults first):

``exclusions`` : ``"union"`` | ``"v2"``
    GB-C1.  ``"v2"`` drops the exclusions only the v3 seed adds: 大四喜, 小四喜 and 清幺九 keep
    their 幺九刻, and 清幺九 keeps 全带幺.
``selfdraw_buqiuren`` : False | True
    GB-C2.  True: a self-drawn 十三幺, 连七对 or 九莲宝灯 scores 不求人 (4) instead of 自摸 (1).
``qingyaojiu_tongke`` : False | True
    GB-C7.  True: 清幺九 keeps 双同刻 as well (三同刻 is always kept, as the reference does).
``sigang_angang`` : False | True
    四杠 with concealed kongs.  True reads v3's "4个杠，暗杠加计" literally: each concealed kong
    also scores 暗杠 (2 番) beside 四杠 (⚑ "加计" read as the 暗杠 fan once per concealed kong).
    By default, as the reference, 四杠 excludes every kong fan and the concealed kongs count
    only towards 双暗刻 / 三暗刻 / 四暗刻.
``lianzhong_extras`` : False | True
    The non-MCR 联众 hands of guobiao.md §4: 四方大发 168, 天和 168 (``heavenly``), 地和 158
    (``earthly``), 人和 108 (``human``); the highest one that applies *replaces* the fan total.
    (混杠 needs wildcards, which 国标 does not have.)

Scorer option: ``flowers=True`` counts the hand's bonus tiles as 花牌, 1 番 each (GB-A3: no
flowers by default).  Flowers count in the settlement but not towards the 8-番 minimum.

Deliberate differences from the reference calculator (guobiao_fans.md §3, §8 probes M4, M5,
M7, G9), all about inputs it accepts although no table can produce them, each pinned by a test:
a fifth copy of a tile and winds outside 0-3 are rejected (ValueError); a pung or chow meld is
always exposed (the reference scores a ``PENG``/``CHI`` passed with offer 0 as concealed); a
chow must be three consecutive tiles of one suit.  天和/地和/人和 are compiled out of the
reference and exist here only as the non-MCR ``lianzhong_extras`` option.  Every other
default is the reference's behaviour, including where it differs from the seed texts
(GB-C2 自摸 on special forms, GB-C7 清幺九 with 三同刻, 明暗杠 = 5).

The scorer is declared on the scorer framework (:data:`SCHEME`): its element table
(:data:`ELEMENTS`) holds every fan's code, names and value, built from the fan table
:mod:`mjfast.scoring._fans` (which the kernel and the twin read too); the rows and the total
of a Score are built from it.  What really differs from the regional rules is the rule's
``search`` hook: the fan search finds which fans a hand holds, applying the MCR 不计 principles
and choosing among the readings by the table's values.  It runs in the Cython kernel
:mod:`mjfast._kernels._mcr`; its pure-Python twin :mod:`mjfast._reference.mcr` (which takes its
splits from :func:`mjfast.decomposition.decompose_counts`) runs instead when
``MJFAST_PUREPYTHON=1``; it is imported only then.  A :func:`mjfast.rules.variant` of 国标
reprices the fans found (``values``) or switches some off (``elements={code: None}``); the
8-番 minimum is then taken on the variant's total without flowers, so a fan switched off counts
nothing towards it (and no other fan, 无番和 included, takes its place).
"""

from __future__ import annotations

import os

from .. import tiles as _t
from .._kernels import _mcr as _K
from ..decomposition import Decomposition, _waits
from ..hand import Meld
from . import _fans as M
from ._core import Score, WinContext
from ._framework import Element, Scheme

__all__ = ["score_guobiao", "can_win_guobiao", "FANS", "MIN_FAN", "fan_table", "ELEMENTS", "SCHEME"]

#: Minimum fan total (flowers excluded) for a legal win (GB-A1).
MIN_FAN = 8


#: ``(id, code, name_zh, name_en, value)`` for the 81 fans plus 明暗杠 (No. 82), in table order.
FANS = M.FANS
_CODE = M.FAN_CODE

_EXTRAS = (  # lianzhong_extras: (code, name_zh, name_en, value)
    ("four_winds_and_green", "四方大发", "Four Winds and Green Pair", 168),
    ("heavenly_hand", "天和", "Heavenly Hand", 168),
    ("earthly_hand", "地和", "Earthly Hand", 158),
    ("human_hand", "人和", "Human Hand", 108),
)

_MELD_TYPE = {"chow": M.CHOW, "pung": M.PUNG, "kong": M.KONG, "added_kong": M.KONG, "concealed_kong": M.KONG}
_FLOWER_KINDS = frozenset(range(34, 42))  # 春夏秋冬梅兰竹菊


def fan_table(table: str = "mcr"):
    """The 81-fan table (plus the reference's 明暗杠) as a DataFrame.

    Parameters
    ----------
    table : {"mcr"}
        Only the MCR table exists.

    Returns
    -------
    pandas.DataFrame
        Columns ``no``, ``code``, ``name_zh``, ``name_en``, ``value``; one row per fan.

    Examples
    --------
    >>> t = fan_table()
    >>> len(t), t.loc[0, "name_zh"], int(t["value"].iloc[-1])
    (82, '大四喜', 5)
    """
    import pandas as pd

    if table != "mcr":
        raise ValueError(f"unknown fan table {table!r}; only 'mcr' exists")
    return pd.DataFrame([dict(no=i, code=c, name_zh=z, name_en=e, value=v) for i, c, z, e, v in FANS])


def _options(rule) -> int:
    return _rule_info(rule)[1]


def _rule_info(rule) -> tuple:
    """``(rule, kernel option bits, lianzhong_extras, sigang_angang)``, cached by the rule's
    identity (the entry holds the rule, so its id cannot be reused while it is cached)."""
    hit = _OPTS.get(id(rule))
    if hit is not None and hit[0] is rule:
        return hit
    hit = (rule, _option_bits(rule), bool(rule.options["lianzhong_extras"]), bool(rule.options["sigang_angang"]))
    if len(_OPTS) > 64:
        _OPTS.clear()
    _OPTS[id(rule)] = hit
    return hit


_OPTS: dict = {}


def _option_bits(rule) -> int:
    o = rule.options
    opts = 0
    if o["exclusions"] == "v2":
        opts |= M.OPT_V2
    if o["qingyaojiu_tongke"]:
        opts |= M.OPT_TONGKE
    if o["selfdraw_buqiuren"]:
        opts |= M.OPT_BUQIUREN
    return opts


def _flowers(ctx: WinContext, flowers, name: str = "guobiao") -> int:
    bonus = ctx.hand._bonus  # the slot, not the property (ctx.hand is exactly a Hand)
    if flowers is True:
        bad = [t for t in bonus if t not in _FLOWER_KINDS] if bonus and not _FLOWER_KINDS.issuperset(bonus) else None
        if bad:
            raise ValueError(
                f"{name} flowers are 春夏秋冬梅兰竹菊 (F1-F8); the hand has " + ", ".join(_t.CODES[t] for t in bad)
            )
        return len(bonus)
    if flowers is False:
        if bonus:
            why = " (GB-A3)" if name == "guobiao" else ""
            raise ValueError(
                f"the hand has {len(bonus)} bonus tile(s) but {name} is played "
                f"without flowers by default{why}; pass flowers=True to score them"
            )
        return 0
    raise ValueError(f"flowers must be True or False, got {flowers!r}")


def _meld_spec(melds) -> tuple:
    # keyed by identity (a Hand keeps its melds tuple); the entry holds the tuple, so the id
    # cannot be reused while it is cached
    hit = _MELD_CACHE.get(id(melds))
    if hit is not None and hit[0] is melds:
        return hit[1]
    spec = tuple((_MELD_TYPE[m.kind], m.tiles[0], m.kind != "concealed_kong") for m in melds)
    if len(_MELD_CACHE) > 4096:
        _MELD_CACHE.clear()
    _MELD_CACHE[id(melds)] = (melds, spec)
    return spec


_MELD_CACHE: dict = {}
#: Set ``MJFAST_PUREPYTHON=1`` to run the pure-Python fan search instead of the kernel.
PURE_PYTHON = os.environ.get("MJFAST_PUREPYTHON", "0") == "1"


class _Found(_K.Found):
    """The best reading of a hand (kernel or pure-Python engine) plus what the rows read: the
    search's ``source`` (see :class:`~mjfast.scoring._framework.Scheme`)."""

    __slots__ = ("n_fl", "extra")
    n_fl: int  #: the flowers counted
    extra: str | None  #: the code of the 联众 hand replacing the fans, or None


def _search(ctx: WinContext, opts: int, pure_python: bool = PURE_PYTHON) -> _Found | None:
    """The best reading of ``ctx``'s hand, or None (not a win)."""
    # on the hot path: reads the Hand's slots directly (ctx.hand is always exactly a Hand)
    h = ctx.hand
    melds = h._melds
    if melds:
        spec = _MELD_CACHE.get(id(melds))
        spec = _meld_spec(melds) if spec is None or spec[0] is not melds else spec[1]
    else:
        spec = ()
    if not pure_python:
        assert ctx.seat_wind is not None  # WinContext derives it from the dealer when not given
        return _K.mcr_calculate(
            h._counts,
            spec,
            ctx.win_tile,
            ctx.self_draw,
            ctx.last_copy,
            ctx.after_kong or ctx.robbing_kong,
            ctx.last_tile,
            ctx.seat_wind,
            ctx.prevalent_wind,
            opts,
            _Found,
        )
    from .._reference import mcr as twin  # (only when asked for)

    flag = (
        ctx.self_draw * M.F_SELF_DRAWN
        | ctx.last_copy * M.F_LAST_TILE
        | (ctx.after_kong or ctx.robbing_kong) * M.F_KONG
        | ctx.last_tile * M.F_WALL_LAST
    )
    res = twin.calculate(h._counts.tolist(), spec, ctx.win_tile, flag, ctx.seat_wind, ctx.prevalent_wind, opts)
    return None if res is None else _Found(twin.fan_total(res[0]), res[0], res[1])


_FOUR_KONGS = _CODE.index("four_kongs")
_CONCEALED_KONG = _CODE.index("concealed_kong")


def _with_concealed_kongs(found: _Found, melds) -> _Found:
    """``sigang_angang``: a 四杠 hand also scores 暗杠 for each concealed kong ("暗杠加计").  All
    four sets are melds, so the hand has one reading and the search's choice stands."""
    n = sum(m.kind == "concealed_kong" for m in melds)
    if not n:
        return found
    fans = bytearray(found.fans)
    fans[_CONCEALED_KONG] += n
    return _Found(found.total + n * M.FAN_VALUE[_CONCEALED_KONG], bytes(fans), found.reading)


def _compute(ctx: WinContext, opts: int, pure_python: bool = PURE_PYTHON):
    """``(fan total without flowers, fan counts by id, reading)`` or None (not a win)."""
    f = _search(ctx, opts, pure_python)
    return None if f is None else (f.total, f.fans, f.reading)


def _reading(rd) -> tuple:
    """Kernel reading row -> ``(form, packs, knitted tiles)`` as the Python engine gives it."""
    if isinstance(rd, tuple):
        return rd
    r = list(rd)
    form = _K.READING_FORMS[r[0]]
    packs = tuple((r[1 + 3 * k], r[2 + 3 * k], bool(r[3 + 3 * k])) for k in range(5))
    if form == "standard":
        return form, packs, ()
    if form == "knitted_straight":
        return form, packs[3:], M.KNITTED[r[16] - 1]
    return form, (), ()


def _extras(ctx, rd) -> list:
    out = []
    reading = _reading(rd)
    if reading[0] == "standard":
        packs = reading[1]
        winds = {t for typ, t, _m in packs if typ in (M.PUNG, M.KONG) and M.is_wind(t)}
        if len(winds) == 4 and packs[4][1] == M.TILE_F:
            out.append(_EXTRAS[0])
    if ctx.heavenly:
        out.append(_EXTRAS[1])
    if ctx.earthly:
        out.append(_EXTRAS[2])
    if ctx.human:
        out.append(_EXTRAS[3])
    return out


def _decomposition(ctx: WinContext, rd) -> Decomposition:
    form, packs, extra = _reading(rd)
    counts = ctx.hand.counts
    if form in ("standard", "knitted_straight"):
        sets = []
        pair = None
        melds = list(ctx.hand.melds)
        n_fixed = len(melds) if form == "standard" else (1 if len(packs) == 2 and melds else 0)
        for k, (typ, t, melded) in enumerate(packs):
            if typ == M.PAIR:
                pair = M.FROM_REF[t]
                continue
            if k < n_fixed:
                m: Meld = melds[k]
                kind = "kong" if m.is_kong else m.kind
                sets.append((kind, m.tiles[0], m.kind == "concealed_kong"))
            elif typ == M.CHOW:
                sets.append(("chow", M.FROM_REF[t - 1], True))
            else:
                sets.append(("pung", M.FROM_REF[t], True))
        conc = tuple((k, f) for k, f, c in sets if c and k != "kong")
        kinds = ("chow", "pung", "kong")
        sets.sort(key=lambda s: (s[1], kinds.index(s[0]), s[2]))
        tiles = tuple(sorted(M.FROM_REF[t] for t in extra))
        waits = _waits(form, conc, pair, tiles, ctx.win_tile)
        return Decomposition(form, tuple(sets), pair, tiles, (), waits)
    ids = _t.tiles_from_counts(counts)
    if form in ("seven_pairs", "seven_shifted_pairs"):
        pairs = tuple(ids[::2])
        return Decomposition(
            "seven_pairs", (), None, pairs, (), frozenset({"tanki"}) if ctx.win_tile in pairs else frozenset()
        )
    if form == "thirteen_orphans":
        d = next(i for i in range(34) if counts[i] == 2)
        return Decomposition(form, (), d, tuple(sorted(set(ids))), ())
    return Decomposition(form, (), None, tuple(ids), ())


#: Where the 8-番 minimum and the settlement read the flowers (the rows put them last).
_FLOWER_CODE = _CODE[M.FLOWER_TILES]


class _Extra:
    """The value of a 联众 hand: ``value`` under ``lianzhong_extras=True``, absent otherwise."""

    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = value

    def __call__(self, options, keywords):
        return self.value if options["lianzhong_extras"] else None

    def __eq__(self, other):
        return type(other) is _Extra and other.value == self.value

    def __hash__(self):
        return hash((_Extra, self.value))

    def __reduce__(self):
        return (_Extra, (self.value,))


def _fan_element(i: int) -> Element:
    scope = "hand" if i == M.FLOWER_TILES else "reading"
    what = "f.flowers" if i == M.FLOWER_TILES else f"f.fans[{i}]"
    return Element(_CODE[i], M.FAN_NAME_ZH[i], M.FAN_NAME_EN[i], M.FAN_VALUE[i], what, scope=scope)


def fan_elements(order) -> tuple:
    """The :class:`~mjfast.scoring._framework.Element` of each fan id in ``order`` (the
    table's names and values; the predicate names what the fan search counts)."""
    return tuple(_fan_element(i) for i in order)


#: 国标's element table, in row order: the 81 fans and 明暗杠 (the fan search's counts; 明暗杠
#: before the 联众 hands, which replace every fan), the 联众 hands (``lianzhong_extras``: the
#: highest one present replaces the fan total) and the 花牌 last (added to any total).
ELEMENTS = (
    fan_elements([*range(1, M.FLOWER_TILES), M.CONCEALED_KONG_AND_MELDED_KONG])
    + tuple(
        Element(code, zh, en, _Extra(v), f"f.extra == {code!r}", scope="reading", group="lianzhong", how="replace")
        for code, zh, en, v in _EXTRAS
    )
    + fan_elements([M.FLOWER_TILES])
)
_EXTRA_CODES = tuple(e[0] for e in _EXTRAS)


def _check_keywords(kw: dict, rule) -> dict:
    if type(kw["flowers"]) is not bool:
        raise ValueError(f"flowers must be True or False, got {kw['flowers']!r}")
    return kw


def _search_hook(bound):
    """The scheme's search for one binding: the compiled fan search (the MCR 不计 principles and
    the reading chosen by the table's values), the 四杠 暗杠 option, the 联众 hands and the
    flowers."""
    flowers = bound.kw["flowers"]
    _rule, opts, lianzhong, angang = _rule_info(bound.rule)
    extra_values = {code: bound.value(code) for code in _EXTRA_CODES}  # (None: switched off)
    flower_value = _FLOWER_VALUE

    def search(ctx: WinContext, first: bool):
        # the hot path of the Monte-Carlo engine and of batch scoring: kept flat on purpose
        bonus = ctx.hand._bonus  # sorted ids; the flowers 春夏秋冬梅兰竹菊 are ids 34-41
        if flowers is True and (not bonus or (bonus[0] >= 34 and bonus[-1] <= 41)):
            n_fl = len(bonus)
        else:
            n_fl = 0 if (flowers is False and not bonus) else _flowers(ctx, flowers)
        found = _search(ctx, opts)
        if found is None:
            return None
        if angang and found.fans[_FOUR_KONGS]:
            found = _with_concealed_kongs(found, ctx.hand.melds)
        found.n_fl = n_fl
        total = found.total
        extra = None
        if lianzhong:
            best: int | None = None
            for e in _extras(ctx, found.reading):
                v = extra_values[e[0]]
                if v is not None and (best is None or v > best):  # (the first highest; None: off)
                    extra, best = e[0], v
            if best is not None:
                total = best
        found.extra = extra
        # the 8-番 minimum on the fans (or the 联众 hand) without the flowers, GB-A1
        return found, total + n_fl * flower_value if n_fl else total, "" if total >= MIN_FAN else _below_minimum

    return search


_FLOWER_VALUE = M.FAN_VALUE[M.FLOWER_TILES]


def _found_hook(bound, found: _Found) -> dict:
    """The fans of a search result, the 联众 hand and the flowers: ``{code: count}``."""
    fans = found.fans
    got = {_CODE[i]: fans[i] for i in _FAN_IDS if fans[i]}
    if found.extra is not None:
        got[found.extra] = 1
    if found.n_fl:
        got[_FLOWER_CODE] = found.n_fl
    return got


_FAN_IDS = tuple(i for i in range(1, M.N_FANS) if i != M.FLOWER_TILES)


def _below_minimum(r) -> str:
    """The reason of a Score below the minimum (read when it is asked for)."""
    return _legality(r.bound, r.reading, r.total)


def _legality(bound, found: _Found, total: int) -> str:
    """The 8-番 minimum (GB-A1), on the total without the flowers (a variant's values: a fan it
    switches off counts nothing towards it)."""
    if found.n_fl:
        total -= found.n_fl * (bound.value(_FLOWER_CODE) or 0)
    if total >= MIN_FAN:
        return ""
    return f"{total} 番 without flowers, below the {MIN_FAN}-番 minimum"


def winner_receipt(total: int, self_draw: bool) -> int:
    """What the winner of a hand of ``total`` 番 receives (guobiao.md §2): 8 + F from each player
    on a self-draw; 8 + F from the discarder and 8 from each other player on a discard."""
    return 3 * (MIN_FAN + total) if self_draw else 3 * MIN_FAN + total


def _settle(bound, ctx: WinContext, r) -> tuple:
    """guobiao.md §2: on a self-draw each player pays 8 + F; on a discard the discarder pays
    8 + F and each other player 8."""
    total = r.total
    share = MIN_FAN + total
    if ctx.self_draw:
        pay = [-share] * 4
    else:
        assert ctx.discarder is not None  # a discard win names its discarder
        pay = [-MIN_FAN, -MIN_FAN, -MIN_FAN, -MIN_FAN]
        pay[ctx.discarder] = -share
    pay[ctx.winner] = winner_receipt(total, ctx.self_draw)
    return share, pay


def _decomposition_hook(bound, r) -> Decomposition:
    return _decomposition(r.ctx, r.reading.reading)


def _not_complete(ctx: WinContext, rule) -> str:
    return (
        f"hand not complete: {ctx.hand} does not form a winning hand "
        "under guobiao (standard, 七对, 十三幺, 全不靠, 组合龙 or 九莲宝灯)"
    )


#: The 国标 scorer, declared: the element table above, found by the compiled fan search.
SCHEME = Scheme(
    "guobiao",
    ELEMENTS,
    keywords={"flowers": False},
    check_keywords=_check_keywords,
    search=_search_hook,
    found=_found_hook,
    legality=_legality,
    settle=_settle,
    decomposition=_decomposition_hook,
    not_complete=_not_complete,
    unit="番",
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_guobiao(ctx: WinContext, rule, *, flowers: bool = False) -> Score:
    """Score a won hand under 国标 MCR (the registered scorer of ``"guobiao"``).

    Call it through :func:`mjfast.score` (``score(ctx, "guobiao", **options)``).

    Parameters
    ----------
    ctx : WinContext
        The hand.  Flags used: ``self_draw``, ``last_copy`` (和绝张), ``after_kong`` (杠上开花),
        ``robbing_kong`` (抢杠和), ``last_tile`` (妙手回春 / 海底捞月), ``seat_wind``,
        ``prevalent_wind``; with ``lianzhong_extras`` also ``heavenly``/``earthly``/``human``.
        As in the reference, a flag that the tiles contradict is ignored: 和绝张 when the hand
        holds another copy of the winning tile (and forced when its melds show three),
        杠上开花 without a kong, 抢杠和 when the winner holds the tile elsewhere.
    rule : Rule
        The resolved ``guobiao`` rule (options in the module docstring).
    flowers : bool, default False
        Count the bonus tiles of ``ctx.hand`` as 花牌 (1 番 each).

    Returns
    -------
    Score
        ``total`` = 番 including flowers; ``legal`` needs 8 番 without flowers; ``points`` =
        8 + total (what a self-draw payer or the discarder owes); ``payments`` per §2 of
        guobiao.md.

    Raises
    ------
    ValueError
        A hand that does not form a winning hand, bonus tiles without ``flowers=True``, or
        bonus tiles that are not flowers.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> h = Hand("99m", melds=["123m@left", "456p@left", "777s@right", "111z@opposite"])
    >>> s = score(WinContext(h, win_tile="9m", discarder=3, seat_wind="S", prevalent_wind="S"))
    >>> s.total, s.legal, s.reason, s.payments.tolist()
    (7, False, '7 番 without flowers, below the 8-番 minimum', [0, 0, 0, 0])
    >>> s.elements[["name_zh", "value"]].values.tolist()
    [['全求人', 6], ['幺九刻', 1]]
    >>> h = Hand("1112345678999m5m", bonus="F1F2")
    >>> s = score(WinContext(h, win_tile="5m", discarder=2), flowers=True)
    >>> s.total, s.points, s.payments.tolist()
    (93, 101, [117, -8, -101, -8])
    >>> s.decomposition.form
    'nine_gates'

    """
    return _score(ctx, rule, flowers=flowers)


def can_win_guobiao(ctx: WinContext, rule, *, flowers: bool = False) -> bool:
    """Whether ``ctx`` is a legal 国标 win: a winning hand of at least 8 番 without flowers.

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, can_win
    >>> can_win(WinContext(Hand("1112345678999m5m"), win_tile="5m", discarder=1))
    True
    """
    return _can_win(ctx, rule, flowers=flowers)


SCHEME.register()

# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal win: 无番和 (chicken hand) = 8 番, the 8-番 minimum: the discarder pays 8 + 8.
MINIMAL_WINS = (("234s55z", ("123m@left", "789p@opposite", "678m@right"), (), "2s", False),)


def score_options(rule) -> dict:
    """A tile set with the 8 花牌 (``tileset=144``) is scored with ``flowers=True``."""
    return {"flowers": True} if rule.tileset.bonus else {}


def kernel_fan_minimum(rule) -> int | None:
    """The fan search's option bits when the game kernel may decide the 8-番 minimum itself
    (GB-A1: :func:`_legality` on the compiled search's total): the fans and their values are
    the declared ones and no 联众 hand replaces them.  None otherwise (the kernel asks
    :func:`can_win_guobiao`)."""
    if rule.options["lianzhong_extras"] or not SCHEME.bound(rule, score_options(rule)).as_declared:
        return None
    return _option_bits(rule)


def kernel_fan_receipts(rule) -> tuple:
    """What the winner receives (:func:`winner_receipt`) as a base and per 番, self-drawn, then on
    a discard: the game kernel's value players weigh a wait for more 番 with it."""
    out = []
    for self_draw in (True, False):
        base = winner_receipt(0, self_draw)
        out += [float(base), float(winner_receipt(1, self_draw) - base)]
    return tuple(out)
