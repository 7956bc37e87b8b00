"""Hypothesis fuzz of mjfast's public entry points, run in a child process (a crash then ends
the child, not the test session): ``python _fuzz.py N entry [entry ...]`` prints one JSON line
per entry with the examples run and their outcomes by type.

Every call is classified:

* ``ok`` (returned) or ``ValueError`` / ``TypeError`` (refused): what a call may do;
* ``other:<Exception>``: any other exception (a failure), with the first few inputs;
* ``inconsistent``: a call that accepted what the canonical call (the same hand as a
  C-contiguous uint8 vector in a :class:`~mjfast.Hand`) refuses, or answered differently: an
  argument silently "fixed" (a failure);
* ``disagree``: ``can_win`` and ``score`` disagreeing on a context (``can_win`` must raise or
  return False exactly where ``score`` raises, and equal ``score().legal`` elsewhere).

Warnings raised by a call are counted apart (``warnings``).  The entries are the names of
:data:`ENTRIES`; ``all`` runs every one.
"""

import json
import os
import sys
import time
import traceback
import warnings
from concurrent.futures import ThreadPoolExecutor

import matplotlib
import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

matplotlib.use("Agg")  # the child draws no window (the plotting entries)

import mjfast as mj  # noqa: E402
from mjfast import rules as _rules  # noqa: E402
from mjfast.scoring import WIN_FLAGS  # noqa: E402
from mjfast.simulation.games import SUPPORTED  # noqa: E402

RULES = list(SUPPORTED)
DTYPES = [
    np.uint8,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
    np.bool_,
    object,
    np.complex64,
    "<U3",
]
ODD_VALUES = [-1, 5, 127, 255, 256, 2**31, 2**40, float("nan"), float("inf"), 0.5, -(2**63)]
TILE_CHARS = (
    "0123456789mpsz +-[]@,zZ一二三四五六七八九万筒条索饼东南西北中发白春夏秋冬梅兰竹菊\U0001f000\U0001f004\U0001f021"
)
MELDS = [
    "123m",
    "555z",
    "1111p",
    "+1111p",
    "[1111p]",
    "999s@left",
    "789p@opposite",
    "12m",
    "5555z",
    "11m",
    "",
    "123z",
    7,
    None,
    "一二三万",
]
FLAGS = list(WIN_FLAGS)


# -- strategies ---------------------------------------------------------------------------


def _cast(values, dtype):
    """``values`` as an array of ``dtype``; object when the cast is impossible."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.array(values, dtype=object).astype(dtype)
        except (ValueError, TypeError, OverflowError):
            return np.array(values, dtype=object)


@st.composite
def counts_of(draw, sizes=(13, 14)):
    """A plain count vector (uint8[34]) of a hand of one of ``sizes`` tiles, at most 4 a kind."""
    n = draw(st.sampled_from(sizes))
    tiles = draw(st.lists(st.integers(0, 33), min_size=n, max_size=n))
    c = np.bincount(tiles, minlength=34)
    while c.max() > 4:  # move an excess copy to the first kind with room
        k = int(np.argmax(c))
        c[k] -= 1
        c[int(np.argmin(c))] += 1
    return c.astype(np.uint8)


@st.composite
def count_vector(draw, sizes=(13, 14)):
    """Count vectors of every dtype, shape, order and range: mostly a real hand in some
    dress, sometimes junk."""
    base = draw(counts_of(sizes))
    how = draw(st.sampled_from(["plain", "plain", "dtype", "dtype", "layout", "odd", "shape"]))
    if how == "plain":
        return base
    if how == "dtype":
        return _cast(base, draw(st.sampled_from(DTYPES)))
    if how == "layout":
        kind = draw(st.sampled_from(["strided", "reversed", "readonly", "fortran2d", "row"]))
        if kind == "strided":
            x = np.zeros(68, base.dtype)
            x[::2] = base
            return x[::2]
        if kind == "reversed":
            return base[::-1][::-1] if draw(st.booleans()) else base[::-1]
        if kind == "readonly":
            base.setflags(write=False)
            return base
        if kind == "fortran2d":
            return np.asfortranarray(np.stack([base, base]))[0]
        return base.reshape(1, 34)
    if how == "odd":
        values = base.astype(object)
        for _ in range(draw(st.integers(1, 3))):
            values[draw(st.integers(0, 33))] = draw(st.sampled_from(ODD_VALUES))
        return _cast(values, draw(st.sampled_from(DTYPES)))
    shape = draw(st.sampled_from([(33,), (35,), (34, 1), (2, 34), (), (0,), (17, 2)]))
    return np.resize(base, shape)


def _text():
    return st.one_of(
        st.text(alphabet=TILE_CHARS, max_size=30),
        st.text(alphabet=st.characters(blacklist_categories=()), max_size=20),  # surrogates, NULs ...
        st.lists(st.one_of(st.integers(-3, 50), st.sampled_from(["1m", "5z", "F1", "中", None, 1.5])), max_size=16),
        st.sampled_from(["1m" * 20_000, "123m456p789s1122z", "19m19p19s1234567z", "0m", "8z", "F1F2", {"1m": 4}]),
    )


@st.composite
def any_hand(draw, sizes=(13, 14)):
    """A hand as a count vector (any dress), an mpsz string, a tile list or a Hand."""
    kind = draw(st.sampled_from(["vector", "vector", "text", "hand", "junk"]))
    if kind == "vector":
        return draw(count_vector(sizes))
    c = draw(counts_of(sizes))
    if kind == "text":
        text = mj.to_mpsz(c)
        return text if draw(st.booleans()) else list(np.repeat(np.arange(34), c))
    if kind == "hand":
        return mj.Hand(c, partial=True)
    return draw(_text())


WILDS = st.one_of(
    st.none(), st.integers(-2, 10), st.sampled_from([1.5, True, False, "1", 2**70, np.float64(1.0), np.int64(2), [1]])
)
RULE = st.one_of(st.none(), st.sampled_from(RULES), st.sampled_from(["tokyo", "", 5, "SICHUAN"]))
MELD_LIST = st.lists(st.sampled_from(MELDS), max_size=3)
SEVEN = st.sampled_from([None, "chinese", "riichi", "x", 1])
FORM = st.sampled_from(
    [
        None,
        "standard",
        "seven_pairs",
        "thirteen_orphans",
        "thirteen_lan",
        "honors_and_knitted",
        "seven_stars",
        "knitted_straight",
        "nine_terminals",
        "bogus",
        ("standard", "seven_pairs"),
        3,
    ]
)
WILD_KIND = st.sampled_from([None, "5m", 4, "9z", -1, 34, "abc", 2**70])
VISIBLE = st.one_of(
    st.none(),
    count_vector((0, 3, 8)),
    st.sampled_from(["1m2m", "", "5z5z5z5z5z", 3]),
    st.lists(st.integers(0, 33), max_size=6),
)
LEGAL = st.sampled_from(["self_draw", "discard", "shape", "bogus", None, lambda h, t: True])
THREADS = st.sampled_from([None, 1, 2, -1, 0, 1.5, "2", 10**5, True, -(10**6), 2**40])
SEED = st.one_of(st.integers(0, 2**64), st.sampled_from([None, -1, 1.5, "abc", [1, 2, 3], 2**200]))
COUNT = st.one_of(st.integers(1, 40), st.sampled_from([0, -1, 1.5, True, "10", 10**12, 2**63, 2**70]))


# -- the entries --------------------------------------------------------------------------


def canonical(hand):
    """The hand as the canonical call takes it, or None when it is not a valid count vector."""
    if not isinstance(hand, np.ndarray) or hand.shape != (34,) or hand.dtype.kind not in "iu":
        return None
    if (hand < 0).any() or (hand > 4).any():
        return None
    return mj.Hand(np.ascontiguousarray(hand, np.uint8), partial=True)


def _same(a, b) -> bool:
    if hasattr(a, "equals"):
        return a.equals(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a == b


def with_canonical(fn):
    """An entry taking ``hand`` whose accepted non-canonical inputs must answer as the
    canonical call does (and which must refuse what the canonical call refuses)."""

    def call(hand, **kw):
        out = fn(hand, **kw)
        ref_hand = canonical(hand)
        if (
            ref_hand is not None
            and ref_hand is not hand
            and isinstance(hand, np.ndarray)
            and (hand.dtype != np.uint8 or not hand.flags.c_contiguous)
        ):
            try:
                ref = fn(ref_hand, **kw)
            except (ValueError, TypeError) as exc:
                raise Inconsistent(f"accepted, but the canonical call raises {type(exc).__name__}: {exc}")
            if not _same(out, ref):
                raise Inconsistent(f"answered {out!r:.80} where the canonical call answers {ref!r:.80}")
        return out

    return call


class Inconsistent(Exception):
    pass


class Disagree(Exception):
    pass


ENTRIES: dict = {}


def entry(name, strategy, scale=1.0):
    """Register ``fn(args)`` under ``name`` with the strategy of its arguments (``scale``: the
    share of the example count it runs; plotting and simulation entries cost more a call)."""

    def deco(fn):
        ENTRIES[name] = (strategy, fn, scale)
        return fn

    return deco


entry("parse_tiles", _text())(lambda x: mj.parse_tiles(x))
entry("to_mpsz", _text())(lambda x: mj.to_mpsz(x))
entry("to_chinese", _text())(lambda x: mj.to_chinese(x))
entry("to_glyphs", _text())(lambda x: mj.to_glyphs(x))
entry("tiles.counts", _text())(lambda x: mj.tiles.counts(x))
#: The one-tile helpers of :mod:`mjfast.tiles`: its predicates, and the tile's parts.
TILE_FUNCS = tuple(n for n in mj.tiles.__all__ if n.startswith("is_")) + ("parse_tile", "suit_of", "number_of")
entry(
    "tiles.tile",
    st.tuples(
        st.sampled_from(TILE_FUNCS),
        st.one_of(st.integers(-3, 45), _text(), st.sampled_from(ODD_VALUES + [None, True, 1.0, b"1m", [1]])),
    ),
)(lambda a: getattr(mj.tiles, a[0])(a[1]))
entry("tiles_from_counts", count_vector())(lambda c: mj.tiles.tiles_from_counts(c))


@entry(
    "Hand",
    st.tuples(
        any_hand(),
        MELD_LIST,
        st.lists(st.sampled_from(["F1", "F8", "中", "BD", 40, "1m", -1]), max_size=3),
        WILDS,
        st.booleans(),
    ),
)
def _hand(a):
    tiles, melds, bonus, wilds, partial = a
    return mj.Hand(tiles, melds=melds, bonus=bonus, wilds=wilds, partial=partial)


@entry(
    "Meld",
    st.one_of(
        st.tuples(
            st.sampled_from(["chow", "pung", "kong", "added_kong", "concealed_kong", "x", 3]),
            st.lists(st.integers(-1, 40), max_size=5),
            st.sampled_from([None, "left", "opposite", "right", "self", "up", 2]),
        ),
        st.sampled_from(MELDS),
    ),
)
def _meld(a):
    if isinstance(a, tuple):
        return mj.Meld(a[0], tuple(a[1]), source=a[2])
    return mj.Meld.parse(a)


SHAPE_KW = st.fixed_dictionaries(
    {},
    optional={
        "rule": RULE,
        "form": FORM,
        "melds": MELD_LIST,
        "wilds": WILDS,
        "wild_kind": WILD_KIND,
        "seven_pairs": SEVEN,
    },
)
entry("shanten", st.tuples(any_hand(), SHAPE_KW))(lambda a: with_canonical(mj.shanten)(a[0], **a[1]))


@st.composite
def batch(draw):
    rows = draw(st.lists(counts_of(), min_size=0, max_size=6))
    arr = np.array(rows, np.uint8).reshape(-1, 34)
    how = draw(st.sampled_from(["plain", "dtype", "fortran", "odd", "shape"]))
    if how == "dtype":
        arr = _cast(arr, draw(st.sampled_from(DTYPES)))
    elif how == "fortran":
        arr = np.asfortranarray(arr)
    elif how == "odd" and arr.size:
        arr = arr.astype(object)
        arr[draw(st.integers(0, arr.shape[0] - 1)), draw(st.integers(0, 33))] = draw(st.sampled_from(ODD_VALUES))
        arr = _cast(arr, draw(st.sampled_from(DTYPES)))
    elif how == "shape":
        arr = np.resize(arr, draw(st.sampled_from([(34,), (2, 33), (1, 35), (0, 34), (2, 17, 2)])))
    per_row = st.one_of(
        st.integers(-1, 9),
        st.sampled_from([1.5, True]),
        st.lists(
            st.integers(-1, 9), min_size=arr.shape[0] if arr.ndim else 0, max_size=arr.shape[0] if arr.ndim else 0
        ),
    )
    return arr, draw(per_row), draw(per_row)


BATCH_KW = st.fixed_dictionaries({}, optional={"rule": RULE, "seven_pairs": SEVEN, "n_threads": THREADS})


@entry("shanten_batch", st.tuples(batch(), BATCH_KW, FORM))
def _shanten_batch(a):
    (arr, melds, wilds), kw, form = a
    return mj.shanten_batch(arr, melds=melds, wilds=wilds, form=form, **kw)


@entry("ukeire_batch", st.tuples(batch(), BATCH_KW))
def _ukeire_batch(a):
    (arr, melds, wilds), kw = a
    return mj.ukeire_batch(arr, melds=melds, wilds=wilds, **kw)


EFF_KW = st.fixed_dictionaries(
    {},
    optional={
        "rule": RULE,
        "visible": VISIBLE,
        "melds": MELD_LIST,
        "wilds": WILDS,
        "wild_kind": WILD_KIND,
        "seven_pairs": SEVEN,
        "legal": LEGAL,
    },
)
FIXED = st.lists(st.sampled_from(["123m", "111z", "999p", "x", 3]), max_size=2)


def _eff(fn, sizes, keys):
    def strategy():
        return st.tuples(any_hand(sizes), EFF_KW, FIXED)

    def call(a):
        hand, kw, fixed = a
        kw = {k: v for k, v in kw.items() if k in keys}
        if "fixed_sets" in keys and fixed:
            kw["fixed_sets"] = fixed
        return with_canonical(fn)(hand, **kw)

    return strategy(), call


ALL_EFF = ("rule", "visible", "melds", "wilds", "wild_kind", "seven_pairs", "legal", "fixed_sets")
for _name, _fn, _sizes, _keys in [
    ("ukeire", mj.ukeire, (13,), ALL_EFF),
    ("waits", mj.waits, (13,), ("rule", "visible", "melds", "wilds", "wild_kind", "seven_pairs", "legal")),
    ("improvements", mj.improvements, (13,), ("rule", "visible", "melds", "wilds", "wild_kind")),
    ("yijinting", lambda h, **kw: mj.yijinting(h, **kw).combos, (13,), ALL_EFF),
    ("analyze_discards", mj.analyze_discards, (14,), ALL_EFF),
    ("analyze_discards(raw)", lambda h, **kw: mj.analyze_discards(h, as_frame=False, **kw), (14,), ALL_EFF),
]:
    _s, _c = _eff(_fn, _sizes, _keys)
    entry(_name, _s)(_c)


@entry(
    "decompose",
    st.tuples(
        any_hand((14,)),
        st.fixed_dictionaries(
            {},
            optional={
                "rule": RULE,
                "win_tile": st.sampled_from([None, "1m", 0, 33, 34, "F1", -1]),
                "melds": MELD_LIST,
                "wilds": WILDS,
                "strict": st.booleans(),
            },
        ),
    ),
)
def _decompose(a):
    return with_canonical(mj.decompose)(a[0], **a[1])


@entry(
    "decompose_counts",
    st.tuples(
        count_vector((14, 11, 8)), st.integers(-1, 5) | st.just(1.5), WILDS, st.one_of(st.none(), count_vector((34,)))
    ),
)
def _decompose_counts(a):
    counts, n_melds, wilds, playable = a
    return mj.decompose_counts(counts, n_melds, 0 if wilds is None else wilds, playable=playable)


@entry(
    "call_vs_pass",
    st.tuples(
        any_hand((13,)),
        st.sampled_from(["1p", "5z", 3, "F1", "x", None, 40]),
        st.sampled_from(["left", "opposite", "right", "self", 1, None]),
        RULE,
        st.sampled_from([0, 0, 0, 20, -1, 1.5]),
        st.sampled_from([18, 0, 3, -1, 10**6]),
    ),
    scale=0.5,
)
def _call_vs_pass(a):
    hand, offered, seat, rule, mc, dl = a
    return mj.call_vs_pass(hand, offered, from_seat=seat, rule=rule, n=mc, draws_left=dl, rng=0)


@entry(
    "rules.get",
    st.tuples(
        st.one_of(st.sampled_from(RULES), st.text(max_size=8)),
        st.dictionaries(
            st.sampled_from(["xuezhan", "min_fan", "threshold", "flowers", "x", "qianggang_exempt", "base"]),
            st.one_of(
                st.booleans(), st.integers(-3, 200), st.text(max_size=5), st.just(np.True_), st.floats(allow_nan=True)
            ),
            max_size=2,
        ),
    ),
)
def _rules_get(a):
    rule = _rules.get(a[0], **a[1])
    return _rules.describe(rule)


@entry("rules.describe", st.one_of(st.sampled_from(RULES), st.text(max_size=8), st.integers()))
def _rules_describe(a):
    return _rules.describe(a)


entry("rules.canonical_name", st.one_of(st.sampled_from(RULES + ["苏州", "MCR", "国标麻将"]), _text(), st.integers()))(
    lambda a: _rules.canonical_name(a)
)
#: Element codes of the variant entry: real ones of several rules, and junk.
VARIANT_CODES = ["full_flush", "half_flush", "all_pungs", "flower", "seven_pairs", "self_draw", "nope", "", 3]
#: Predicates of added elements: expressions over the facts, and malformed ones (never arbitrary text).
PREDICATES = ["f.one_suit", "f.n_kongs", "f.ctx.self_draw", "len(f.pungs) >= 3", "f.nope", "1 +", "", 3, None]


@entry(
    "rules.variant",
    st.tuples(
        st.one_of(st.sampled_from(RULES), st.sampled_from(["tokyo", 3, None])),
        st.sampled_from(["fz_a", "fz_b", "fz_c", "sichuan", "Bad Name", "", "1x", 3]),
        st.one_of(
            st.none(),
            st.dictionaries(
                st.sampled_from(VARIANT_CODES), st.sampled_from([0, 1, 20, -5, 1.5, "2", 2**70]), max_size=2
            ),
        ),
        st.one_of(
            st.none(),
            st.dictionaries(
                st.sampled_from(["threshold", "min_fan", "xuezhan", "x"]),
                st.one_of(st.booleans(), st.integers(-1, 10), st.sampled_from(["2_3", "3_4", "bogus"])),
                max_size=1,
            ),
        ),
        st.one_of(
            st.none(),
            st.dictionaries(
                st.sampled_from(VARIANT_CODES + ["fz_new"]),
                st.one_of(
                    st.none(),
                    st.fixed_dictionaries(
                        {},
                        optional={
                            "zh": st.sampled_from(["新", "", 3]),
                            "en": st.sampled_from(["New", None]),
                            "value": st.sampled_from([1, 0, -1, 1.5, "x"]),
                            "predicate": st.sampled_from(PREDICATES),
                            "scope": st.sampled_from(["reading", "hand", "context", "bogus"]),
                            "how": st.sampled_from(["add", "multiply", "cap", "replace", "bogus"]),
                        },
                    ),
                    st.sampled_from([3, "x"]),
                ),
                max_size=2,
            ),
        ),
    ),
    scale=0.3,
)
def _rules_variant(a):
    base, name, values, options, elements = a
    return _rules.variant(base, name, values=values, options=options, elements=elements)


def _toy_scorer(ctx, rule=None, **options):
    return mj.score(ctx, "sichuan")


_REGISTERED = []


@entry(
    "register",
    st.tuples(
        st.sampled_from(["fz_reg", "fz_unknown", "sichuan", "", 3, None]),
        st.sampled_from([_toy_scorer, None, 3, "score"]),
        st.sampled_from([None, lambda ctx, rule=None, **o: True, 3]),
        st.booleans(),
        st.sampled_from([None, lambda rule: rule, 3]),
    ),
)
def _register(a):
    """Registration on a variant of this process only (a built-in rule's scorer is never
    replaced: the other entries of a child process score with it)."""
    if not _REGISTERED:
        _REGISTERED.append(_rules.variant("sichuan", "fz_reg"))
    name, scorer, can, replace, bind = a
    return mj.register(name, scorer, can, bind=bind, replace=replace and name == "fz_reg")


def _show_config(mode):
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()) as out:
        got = mj.show_config(mode)
    return got if got is not None else out.getvalue()


entry("show_config", st.one_of(st.sampled_from(["stdout", "dicts", "dict", "json", ""]), st.integers(), st.none()))(
    _show_config
)
entry(
    "use_cjk_font", st.one_of(st.none(), st.sampled_from(["WenQuanYi Micro Hei", "No Such Font", ""]), st.integers())
)(lambda n: mj.plotting.use_cjk_font(n))


# -- winning contexts: flags, seats, score versus can_win --------------------------------


def _hands_pool(rule):
    """Random complete hands of the rule's tiles (chows called where the rule allows them)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from _hands import random_hand

    from mjfast import _bridge

    kr = _bridge.kernel_rule(_bridge.resolve_rule(rule))
    kinds = [int(k) for k in np.flatnonzero(kr.copies)]
    rng = np.random.default_rng(2026)
    chow = _rules.get(rule).calls.chow != "none"
    hands = [random_hand(rng, kinds, chow_melds=chow) for _ in range(60)]
    extra = {
        "guobiao": ["123m456p789s234s55p"],
        "guangdong": ["234m333p33555678s"],
        "sichuan": ["11223344556677m"],
        "jj": ["19m19p19s1234567z1m"],
    }.get(rule, [])
    return hands + [mj.Hand(t) for t in extra]


_POOLS: dict = {}


def pool(rule):
    if rule not in _POOLS:
        _POOLS[rule] = _hands_pool(rule)
    return _POOLS[rule]


@st.composite
def contexts(draw, rule="guobiao"):
    """Winning contexts: 70 % consistent (seats in range, the discarder another seat, at most
    one situation flag), 30 % noisy (seats out of range, up to three flags at once, liable
    seats, wildcard faces, an indicator, bonus tiles)."""
    hands = pool(rule)
    hand = hands[draw(st.integers(0, len(hands) - 1))]
    tiles = [i for i in range(34) if hand.counts[i]]
    winner = draw(st.integers(0, 3))
    kw = dict(
        win_tile=draw(st.sampled_from(tiles)),
        self_draw=draw(st.booleans()),
        winner=winner,
        dealer=draw(st.integers(0, 3)),
        prevalent_wind=draw(st.integers(0, 3)),
    )
    if not kw["self_draw"]:
        kw["discarder"] = draw(st.sampled_from([s for s in range(4) if s != winner]))
    if draw(st.integers(0, 9)) < 7:
        if draw(st.booleans()):
            kw[draw(st.sampled_from(FLAGS))] = True
        return hand, kw
    if draw(st.integers(0, 4)) == 0:
        hand = mj.Hand(hand, bonus=draw(st.lists(st.sampled_from([34, 35, 38, 41, 44]), max_size=2, unique=True)))
    if draw(st.integers(0, 4)) == 0:
        kw["win_tile"] = draw(st.sampled_from([0, 40, "x", 33]))
    if draw(st.integers(0, 4)) == 0:
        kw["winner"] = draw(st.integers(-1, 4))
    if not kw["self_draw"] and draw(st.integers(0, 4)) == 0:
        kw["discarder"] = draw(st.integers(-1, 4))
    for flag in draw(st.lists(st.sampled_from(FLAGS), max_size=3, unique=True)):
        kw[flag] = True
    extra = draw(st.sampled_from(["", "liable", "wild_faces", "flipped", "seat_wind"]))
    if extra == "liable":
        kw["liable"] = draw(st.integers(-1, 4))
    elif extra == "wild_faces":
        kw["wild_faces"] = tuple(draw(st.lists(st.integers(0, 33), max_size=2)))
    elif extra == "flipped":
        kw["flipped"] = draw(st.sampled_from(["5m", "1z", 40, "F1"]))
    elif extra == "seat_wind":
        kw["seat_wind"] = draw(st.integers(-1, 4))
    return hand, kw


SCORE_OPTS = st.sampled_from(
    [
        {},
        {},
        {},
        {"base": 2},
        {"base": 0},
        {"base": 2**62},
        {"base": 2**70},
        {"base": 0.5},
        {"base": "2"},
        {"flowers": True},
        {"bogus": 1},
    ]
)


RULE_CONTEXTS = st.sampled_from(RULES).flatmap(lambda r: st.tuples(st.just(r), contexts(r)))


@entry("WinContext", RULE_CONTEXTS)
def _ctx(a):
    rule, (hand, kw) = a
    return mj.WinContext(hand, **kw)


@entry("score", st.tuples(RULE_CONTEXTS, SCORE_OPTS))
def _score(a):
    (rule, (hand, kw)), opts = a
    ctx = mj.WinContext(hand, **kw)
    return mj.score(ctx, rule, **opts).total


@entry("can_win", st.tuples(RULE_CONTEXTS, SCORE_OPTS))
def _can_win(a):
    """can_win against score on the same context and options."""
    (rule, (hand, kw)), opts = a
    ctx = mj.WinContext(hand, **kw)
    try:
        s = mj.score(ctx, rule, **opts)
    except (ValueError, TypeError) as exc:
        s_err = exc
    else:
        s_err = None
    try:
        c = mj.can_win(ctx, rule, **opts)
    except (ValueError, TypeError) as exc:
        if s_err is None:
            raise Disagree(f"{rule}: can_win raises {type(exc).__name__} ({exc}) where score gives legal={s.legal}")
        raise
    if s_err is not None and c:
        raise Disagree(f"{rule}: can_win True where score raises {type(s_err).__name__}: {s_err}")
    if s_err is None and bool(c) != bool(s.legal):
        raise Disagree(f"{rule}: can_win {c} but score().legal {s.legal} ({s.reason})")
    return c


# -- simulations: every keyword ------------------------------------------------------------


def _executor(draw):
    kind = draw(st.sampled_from([None, None, None, "threads", "junk"]))
    if kind == "threads":
        return _POOL_EXECUTOR
    return object() if kind == "junk" else None


_POOL_EXECUTOR = ThreadPoolExecutor(2)
RULE_OPTIONS = st.dictionaries(
    st.sampled_from(["xuezhan", "min_fan", "threshold", "x", "flowers"]),
    st.one_of(st.booleans(), st.integers(-1, 10), st.text(max_size=3)),
    max_size=1,
)


@st.composite
def sim_kwargs(draw, draws=False):
    kw = {"rng": draw(SEED), "n_threads": draw(THREADS)}
    if draw(st.booleans()):
        kw["policy"] = draw(
            st.sampled_from(
                ["efficiency", None, "value", "bogus", 3] if not draws else ["efficiency", "bogus", None, 3]
            )
        )
    ex = _executor(draw)
    if ex is not None:
        kw["executor"] = ex
    if draw(st.integers(0, 9)) == 0:
        kw["progress"] = draw(st.sampled_from([False, "yes", 1]))
    return kw


def _small(n):
    """Counts above a few hundred are only tried where they must be refused at once."""
    return n if not isinstance(n, int) or isinstance(n, bool) or n <= 200 or n >= 10**12 else 200


@entry(
    "simulate_games",
    st.tuples(st.one_of(st.sampled_from(RULES), st.sampled_from(["tokyo", 3])), COUNT, sim_kwargs(), RULE_OPTIONS),
    scale=0.2,
)
def _simulate_games(a):
    rule, n, kw, opts = a
    return len(mj.simulate_games(rule, _small(n), **kw, **opts))


@entry(
    "iter_games",
    st.tuples(
        st.sampled_from(RULES),
        COUNT,
        sim_kwargs(),
        st.one_of(st.integers(-1, 3000), st.sampled_from([1.5, "1024", 10**12])),
    ),
    scale=0.2,
)
def _iter_games(a):
    rule, n, kw, batch_games = a
    it = mj.iter_games(rule, n, batch_games=batch_games, **kw)
    try:
        return len(next(it))
    finally:
        it.close()


@entry(
    "simulate_draws",
    st.tuples(
        any_hand((13, 14)),
        st.fixed_dictionaries(
            {},
            optional={
                "rule": RULE,
                "visible": VISIBLE,
                "melds": MELD_LIST,
                "wilds": WILDS,
                "wild_kind": WILD_KIND,
                "wild_copies": st.sampled_from([None, 0, 4, -1, 1.5, 10**9]),
                "draws_left": st.sampled_from([0, 1, 18, 60, 256, 257, -1, 1.5, 2**40, 10**6]),
            },
        ),
        COUNT,
        sim_kwargs(draws=True),
    ),
    scale=0.3,
)
def _simulate_draws(a):
    hand, kw, n, skw = a
    return len(mj.simulate_draws(hand, n=_small(n), **kw, **skw))


@entry(
    "expected_value",
    st.tuples(
        any_hand((13, 14)),
        st.fixed_dictionaries(
            {"draws_left": st.sampled_from([0, 1, 2, 3, 5, -1, 1.5, True, 2**40, 500])},
            optional={
                "rule": RULE,
                "visible": VISIBLE,
                "melds": MELD_LIST,
                "wilds": WILDS,
                "wall": st.sampled_from(["depleting", "returned", "bogus", 3]),
                "depth": st.sampled_from([0, 1, 2, -1, 1.5, None, "1"]),
                "discard_wins": st.sampled_from([True, False, "yes", 0]),
                "hazard": st.sampled_from([None, 0.0, 0.05, 1.0, -0.1, 2, "x", float("nan")]),
                "by_turn": st.sampled_from([False, True, "no"]),
            },
        ),
    ),
    scale=0.3,
)
def _expected_value(a):
    hand, kw = a
    return len(mj.expected_value(hand, **kw))


@entry(
    "simulate_matches",
    st.tuples(
        st.sampled_from(RULES),
        st.one_of(st.integers(1, 3), st.sampled_from([0, -1, 1.5, True, 10**12, 2**70])),
        st.one_of(st.none(), st.integers(1, 3), st.sampled_from([0, -1, 1.5, 10**9])),
        sim_kwargs(),
    ),
    scale=0.1,
)
def _simulate_matches(a):
    rule, n, hands, kw = a
    return len(mj.simulate_matches(rule, n, hands=hands, **kw))


@entry(
    "iter_matches",
    st.tuples(
        st.sampled_from(RULES),
        st.one_of(st.integers(1, 3), st.sampled_from([10**12, 0])),
        st.one_of(st.none(), st.integers(1, 2), st.sampled_from([0, 10**9])),
        st.one_of(st.integers(-1, 100), st.sampled_from([1.5, 10**12])),
    ),
    scale=0.1,
)
def _iter_matches(a):
    rule, n, hands, batch = a
    it = mj.iter_matches(rule, n, hands=hands, batch_matches=batch, rng=0, n_threads=1)
    try:
        return len(next(it))
    finally:
        it.close()


@entry(
    "duplicate_match",
    st.tuples(
        st.one_of(st.sampled_from(RULES), st.sampled_from(["tokyo", 3])),
        st.one_of(
            st.lists(st.sampled_from(["efficiency", None, "value", "bogus", 3, "never"]), max_size=5),
            st.sampled_from(["efficiency", None, 3, ()]),
        ),
        st.one_of(st.integers(1, 3), st.sampled_from([0, -1, 1.5, True, "2", 10**12, 2**70])),
        sim_kwargs(),
    ),
    scale=0.1,
)
def _duplicate_match(a):
    rule, pols, n, kw = a
    kw.pop("policy", None)
    if isinstance(pols, list):  # "never": a configured built-in player
        pols = [mj.policies.Efficiency(call="never") if p == "never" else p for p in pols]
    return len(mj.duplicate_match(rule, pols, n, **kw))


entry(
    "Efficiency",
    st.tuples(
        st.sampled_from(["faster", "always", "never", "sometimes", "", 3, None, True]),
        st.sampled_from([False, True, 0, 1, "yes", None, 2.0]),
    ),
)(lambda a: mj.policies.Efficiency(call=a[0], keep_concealed=a[1]))


_MATCHES = None


@entry(
    "match_summary",
    st.sampled_from(["table", "rows", "drop", "junk", "type"]).flatmap(
        lambda how: st.tuples(
            st.just(how), st.integers(0, 40), st.sampled_from(["match", "cum_0", "winners", "dealer"])
        )
    ),
    scale=0.3,
)
def _match_summary(a):
    global _MATCHES
    if _MATCHES is None:
        _MATCHES = mj.simulate_matches("sichuan", 3, hands=4, rng=1, n_threads=1)
    how, k, col = a
    df = {
        "table": _MATCHES,
        "rows": _MATCHES.iloc[k:],
        "drop": _MATCHES.drop(columns=[col]),
        "junk": _MATCHES.assign(**{col: "x"}),
        "type": [1, 2],
    }[how]
    return mj.match_summary(df)


@entry(
    "style",
    st.tuples(
        st.sampled_from(["discards", "games", "junk", "empty"]),
        st.sampled_from([None, ["discard"], ["nope"], "discard", 3]),
    ),
    scale=0.3,
)
def _style(a):
    kind, columns = a
    table = {
        "discards": lambda: mj.analyze_discards("123m456p789s1122z5p"),
        "games": games,
        "junk": lambda: 42,
        "empty": lambda: games().iloc[:0],
    }[kind]()
    out = mj.style(table, columns=columns)
    return out.to_html() if hasattr(out, "to_html") else out


# -- payouts and plots: DataFrames in and out ---------------------------------------------

_GAMES = None


def games():
    global _GAMES
    if _GAMES is None:
        import pandas as pd

        _GAMES = pd.concat(
            [mj.simulate_games(r, 300, rng=1, n_threads=1).assign(rule=r) for r in ("sichuan", "guobiao", "jj")],
            ignore_index=True,
        )
    return _GAMES


@st.composite
def game_frames(draw):
    df = games()
    how = draw(st.sampled_from(["all", "rows", "drop", "junk", "empty", "type"]))
    if how == "rows":
        return df.iloc[draw(st.integers(0, len(df))) :].reset_index(drop=True)
    if how == "drop":
        return df.drop(columns=draw(st.lists(st.sampled_from(list(df.columns)), max_size=3, unique=True)))
    if how == "junk":
        out = df.copy()
        col = draw(st.sampled_from(list(df.columns)))
        out[col] = draw(st.sampled_from([np.nan, "x", -1, 10**18, None]))
        return out
    if how == "empty":
        return df.iloc[:0]
    if how == "type":
        return draw(st.sampled_from([None, 3, "games", [1, 2], {"a": 1}]))
    return df


BY = st.sampled_from([None, "rule", "dealer", ["rule", "how"], "nope", 3])
entry("payout_summary", st.tuples(game_frames(), BY), scale=0.3)(lambda a: mj.payout_summary(a[0], by=a[1]))
entry("element_frequencies", st.tuples(game_frames(), BY), scale=0.3)(lambda a: mj.element_frequencies(a[0], by=a[1]))


@entry(
    "compare_rules",
    st.tuples(
        st.one_of(st.none(), st.lists(st.sampled_from(RULES + ["tokyo", 3]), max_size=3)),
        # not None: the default sample (DEFAULT_N_GAMES a rule, seconds a call) is a count the
        # function sets itself, past the checks an explicit n gets
        st.sampled_from([0, 1, 50, -1, 1.5, 10**12, "50"]),
        SEED,
        st.sampled_from([1, None, 0, 10**5]),
    ),
    scale=0.05,
)
def _compare_rules(a):
    rules, n, rng, threads = a
    if rules is None and isinstance(n, int) and 1 < n < 10**12:
        n = 1  # every rule is simulated then: keep it short
    return mj.compare_rules(rules, n, rng=rng, n_threads=threads)


def _plot(fn):
    def call(*args, **kw):
        import matplotlib.pyplot as plt

        try:
            return fn(*args, **kw)
        finally:
            plt.close("all")

    return call


entry(
    "plot_payouts",
    st.tuples(
        game_frames(),
        st.sampled_from(["all", "winner", "dealer", "x"]),
        st.sampled_from(["ecdf", "hist", "box", "x"]),
        BY,
    ),
    scale=0.02,
)(lambda a: _plot(mj.plot_payouts)(a[0], seat_role=a[1], kind=a[2], by=a[3]))
entry("plot_elements", st.tuples(game_frames(), st.integers(-1, 30)), scale=0.02)(
    lambda a: _plot(mj.plot_elements)(
        a[0] if a[0] is None or isinstance(a[0], (int, str, list, dict)) else mj.element_frequencies(a[0]), top=a[1]
    )
)


@entry("plot_win_curve", st.tuples(st.sampled_from(["curve", "junk", "none"]), st.floats(-1, 5)), scale=0.02)
def _plot_win_curve(a):
    curve = {
        "curve": mj.simulate_draws("123m456p789s1122z", n=200, rng=0, n_threads=1, draws_left=6),
        "junk": games(),
        "none": None,
    }[a[0]]
    return _plot(mj.plot_win_curve)(curve, band=a[1])


@entry("plot_discards", st.tuples(any_hand((14,)), st.booleans()), scale=0.02)
def _plot_discards(a):
    try:
        table = mj.analyze_discards(a[0])
    except (ValueError, TypeError):
        table = a[0]
    return _plot(mj.plot_discards)(table if a[1] else games())


# -- the runner ---------------------------------------------------------------------------


def run(name: str, n: int, seed: int = 0, scaled: bool = True) -> dict:
    """Fuzz one entry with ``n`` examples (``scaled``: times the entry's ``scale``, as in CI;
    the full-scale run gives every entry all ``n``)."""
    strategy, fn, scale = ENTRIES[name]
    if not scaled:
        scale = 1.0
    stats = {"entry": name, "examples": 0, "outcomes": {}, "failures": [], "warnings": {}, "seconds": 0.0}
    t0 = time.perf_counter()

    @settings(
        max_examples=max(1, int(n * scale)),
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def body(args):
        stats["examples"] += 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                fn(args)
                kind = "ok"
            except (ValueError, TypeError) as exc:
                kind = (
                    type(exc).__name__
                    if type(exc) in (ValueError, TypeError)
                    else ("ValueError" if isinstance(exc, ValueError) else "TypeError")
                )
            except Inconsistent as exc:
                kind = "inconsistent"
                _record(stats, kind, args, exc)
            except Disagree as exc:
                kind = "disagree"
                _record(stats, kind, args, exc)
            except Exception as exc:  # noqa: BLE001 - the point: any other exception is reported
                kind = f"other:{type(exc).__name__}"
                _record(stats, kind, args, exc)
        for w in caught:
            key = f"{w.category.__name__}: {str(w.message)[:80]}"
            stats["warnings"][key] = stats["warnings"].get(key, 0) + 1
        stats["outcomes"][kind] = stats["outcomes"].get(kind, 0) + 1

    body()
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    return stats


def _record(stats, kind, args, exc):
    if len(stats["failures"]) < 12:
        where = traceback.extract_tb(exc.__traceback__)[-1]
        stats["failures"].append(
            {
                "kind": kind,
                "message": str(exc)[:300],
                "input": repr(args)[:400],
                "at": f"{os.path.basename(where.filename)}:{where.lineno}",
            }
        )


def main():
    """``_fuzz.py N [--unscaled] (all | ENTRY ...)``: one JSON line of statistics per entry."""
    args = sys.argv[1:]
    n = int(args.pop(0))
    scaled = "--unscaled" not in args
    args = [a for a in args if a != "--unscaled"]
    names = list(ENTRIES) if args == ["all"] else args
    for name in names:
        print(f"fuzzing {name}", file=sys.stderr, flush=True)  # the last line names a crash's entry
        print(json.dumps(run(name, n, scaled=scaled)), flush=True)
    _POOL_EXECUTOR.shutdown(wait=False, cancel_futures=True)


if __name__ == "__main__":
    main()
