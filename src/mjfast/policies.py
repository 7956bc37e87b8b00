"""Players of the game engine: the built-in value and efficiency players and user-written policies.

A *policy* decides what one seat does in :func:`mjfast.simulate_games`,
:func:`mjfast.simulate_matches`, :func:`mjfast.compare_rules` and :func:`mjfast.duplicate_match`.
Whatever the policy, the engine enforces every rule mechanic: a policy only chooses among the
legal actions the engine offers it.

* :class:`Value` — the engine's default player, compiled into the game kernel: it rates its
  hands by the scoring patterns it can still reach, their chance and their value under the
  rule (:func:`pattern_values`, from the rule's scorer), calls when that rating rises, waits on
  a lone wildcard where the rule pays for it, and weighs the danger of its discards.
* :class:`Efficiency` — the speed player, compiled into the game kernel too: it discards to the
  least shanten and the most 进张; its two parameters change which calls it makes.
* A *user policy* — any object with some of the methods ``discard(view) -> tile``,
  ``claim(view, options) -> option`` and ``declare_win(view) -> bool``.  The engine calls them
  (from its compiled loop, holding the GIL) only for the seats that play that policy, and only
  for the methods the object has: the decisions whose method it lacks are ``Value()``'s.
  ``view`` is a :class:`View`: a read-only snapshot of what that seat may see, never another
  player's concealed tiles.

  - ``discard(view)`` returns a tile of its concealed hand (a kind 0..33 or a name such as
    ``"5m"``), or :data:`WILD` (34) to discard one of its wildcards where the rule allows it
    (``Rule.wildcard.discardable``; a discarded wildcard is dead: nobody claims or wins on it),
    but not the lone wildcard of a declared 飞 / 宝吊头 wait.  A hand of wildcards alone discards
    one without asking.
  - ``claim(view, options)`` returns one of ``options`` — ``("pung", tile)``, ``("kong", tile)``,
    ``("chow", lowest tile)`` when another seat's discard (``view.tile``) may be claimed (under
    a rule with honour chows, 瑞金, also ``("chow", code)`` for a wind or dragon discard: code
    27-30 the three winds but that one, 31 中发白; :data:`CHOW_TILES` gives the tiles; where the
    rule's wildcard may stand in a called chow, 瑞金 "如果含有宝，算吃成功，但宝不能拿起来了", also
    ``("chow", code, wilds)`` with ``wilds`` the tiles its wildcards would stand for, one or two
    kinds: the wildcards stay in the meld), or
    ``("concealed_kong", tile)`` / ``("added_kong", tile)`` on its own turn — or None, the last
    option, to pass.  It is asked only when some call is legal; a 碰 / 杠 is offered to the seat
    holding two (three) of the discard, a 吃 to the next seat where the rule has chows, and only
    when no seat wins on the discard (胡 before 杠 / 碰 before 吃; the seat next to the
    discarder holding a pair is offered its 吃 with its 碰).  Nobody claims the discard made
    after the last wall tile.
  - ``declare_win(view)`` returns True to take a potential win the rule accepts (a self-draw,
    a discard or a robbed kong: ``view.tile``), False to pass; a passed win locks as the rule
    says (苏州 漏胡, 广东 过水).  A win the rule does not let a player pass is taken without asking
    (四川 "最后四张自动胡": among the wall's last four tiles; ``EngineFacts.forced_win_left``).
  - The 飞 / 宝吊头 wait (瑞金, 上饶: complete sets, or six pairs, plus one lone wildcard; any
    tile completes it): a policy declares it by declining a complete self-drawn hand and then
    discarding a tile that leaves that wait.  From then on the engine holds the seat in the
    wait as the rule says: it is offered no call and no discard win, and every tile it draws
    completes the hand (``declare_win`` is asked; the win scores as 飞 / 宝吊头 while the
    rule's conditions hold, e.g. 瑞金's go-around).

A user policy that answers something illegal makes the simulation raise a ``ValueError`` naming
the seat, the turn and the action; no game is returned from a failed call.  Deterministic user
policies (their answers depend only on the view) give the same games for any number of threads
and any executor; a policy travels to process pools and Dask workers by pickling, so it must be
picklable (a class defined at module level).  A user policy costs a Python call per decision
(measured in ``bench/RESULTS.md``); seats playing built-in policies keep the kernel's speed.

Examples
--------
>>> import mjfast as mj
>>> from mjfast.policies import Efficiency
>>> Efficiency(), Efficiency(call="never", keep_concealed=True)
(Efficiency(), Efficiency(call='never', keep_concealed=True))
>>> class LowestTile:                      # a user policy: always discard its lowest tile
...     def discard(self, view):
...         return min(view.tiles())
>>> df = mj.simulate_games("sichuan", 20, rng=0, n_threads=1, policy=[LowestTile(), Efficiency(),
...                                                                    Efficiency(), Efficiency()])
>>> df.attrs["policy"]
'[LowestTile(), Efficiency(), Efficiency(), Efficiency()]'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._kernels import _game as _kg
from .tiles import CODES

if TYPE_CHECKING:
    from .rules import Rule

__all__ = [
    "Efficiency",
    "Value",
    "View",
    "CALLS",
    "ACTIONS",
    "METHODS",
    "CHOW_TILES",
    "PATTERNS",
    "CHOW_PATTERNS",
    "RULE_PATTERNS",
    "DEFAULT",
    "describe",
    "pattern_values",
]

#: Values of :class:`Efficiency`'s ``call``.
CALLS = ("faster", "always", "never")
#: Names of the actions in a user policy's ``options`` (``(action, tile)`` pairs).
ACTIONS = ("pung", "kong", "chow", "concealed_kong", "added_kong")
#: The methods a user policy may have.
METHODS = ("discard", "claim", "declare_win")
#: The tiles of a chow by the tile of its option or :class:`Meld`: a suit chow by its lowest
#: tile, an honour chow by its code (27-30: the three winds but that one; 31: 中发白).
CHOW_TILES: dict[int, tuple[int, int, int]] = dict(_kg.CHOW_TILES)


@dataclass(frozen=True)
class Efficiency:
    """The built-in efficiency player (compiled into the game kernel).

    **Discards**: to the least shanten over the rule's forms, then to the most 进张 (unseen
    copies of the accepting kinds: copies in play minus its own tiles, the discards and the
    melds), remaining ties to the lowest kind; under 定缺 (四川) the tiles of its void suit
    first, lowest first; wildcards only when nothing else is left.  **Wins**: every potential
    win the rule accepts.  **Own turn**: a concealed or added kong when the shanten after it is
    no worse than after the best discard.

    Parameters
    ----------
    call : {"faster", "always", "never"}, default "faster"
        Which calls it makes on another seat's discard (胡 is never affected: every accepted
        win is taken).  ``"faster"``: 杠 when it holds three and the shanten does not rise,
        else 碰 when the best discard afterwards lowers the shanten or keeps it with more 进张,
        else (the seat after the discarder, where the rule has 吃) the best 吃 by that test.
        ``"always"``: every legal call — 杠 when it holds three, else 碰 when it holds two,
        else the best 吃 by the efficiency order (least shanten, then most 进张, then the
        lowest chow); and on its own turn every concealed or added kong as soon as it holds it
        (the lowest kind first).  ``"never"``: no 吃, 碰 or 杠 on a discard (so no added kong
        either); its own concealed kongs are as under ``"faster"`` (they do not open the hand).
        The engine's order between seats is kept: 胡 before 杠 / 碰 before 吃, and only the
        seat holding two or three of the discard may 碰 / 杠 it.
    keep_concealed : bool, default False
        While the hand is concealed (no call made; a concealed kong keeps it concealed), decline
        every call on a discard that ``call`` would make unless the hand is ready (shanten 0)
        after it: after a 碰 / 吃 and the best discard that follows, or after a 杠 (before its
        replacement draw).  Once the hand is open, ``call`` alone decides.

    Examples
    --------
    >>> import mjfast as mj
    >>> df = mj.simulate_games("guangdong", 30, rng=1, n_threads=1, policy=Efficiency(call="never"))
    >>> df.attrs["policy"]
    "Efficiency(call='never')"
    >>> # a winning hand shows its melds after spaces, a concealed kong in brackets: none is open
    >>> bool(df["winning_hand"].str.contains(r" [^[]").any())
    False
    """

    call: str = "faster"
    keep_concealed: bool = False

    def __post_init__(self):
        if not isinstance(self.call, str) or self.call not in CALLS:
            raise ValueError(f"call must be one of {', '.join(map(repr, CALLS))}, got {self.call!r}")
        if not isinstance(self.keep_concealed, bool):
            raise ValueError(f"keep_concealed must be True or False, got {self.keep_concealed!r}")

    def __repr__(self) -> str:
        args = []
        if self.call != "faster":
            args.append(f"call={self.call!r}")
        if self.keep_concealed:
            args.append("keep_concealed=True")
        return f"Efficiency({', '.join(args)})"


#: The scoring patterns :class:`Value` rates a hand by (the rows of :func:`pattern_values`).
PATTERNS = _kg.PATTERNS
#: The patterns of three fixed chows and any set and pair (花龙, 三色三同顺, 清龙, 三色三步高,
#: 一色三步高): targets only under a rule whose module names them in ``VALUE_PATTERNS`` (国标's
#: fans); their values are 0 elsewhere.
CHOW_PATTERNS = ("mixed_straight", "mixed_triple_chow", "pure_straight", "mixed_shifted_chows", "pure_shifted_chows")
#: The patterns that are targets only under a rule whose module names them in ``VALUE_PATTERNS``:
#: the chow patterns and 五门齐 (``five_gates``: a set or the pair in each suit, the winds and the
#: dragons), 国标's fans.
RULE_PATTERNS = (*CHOW_PATTERNS, "five_gates")


@dataclass(frozen=True)
class Value:
    """The value player (compiled into the game kernel): it plays for the expected result under
    the rule, not for speed alone.

    **How it rates a hand.**  A 13-tile (3k+1) hand is rated by the best of its *targets*: the
    plain hand (the rule's shanten over every form it has) and each scoring pattern it may still
    reach — 清一色 and 混一色 in each suit, 对对胡, 七对 and, where the rule has them, 全不靠 and
    组合龙; under 国标 also its patterns of three fixed chows (:data:`CHOW_PATTERNS`: 花龙 and
    三色三同顺, 8 番 alone, 清龙 and 一色三步高, 16, and 三色三步高, 6), the 8-番 routes that need no
    one suit, and 五门齐 (``five_gates``, 6 番: a set or the pair in each suit, the winds and the
    dragons).  For each target it counts the tiles still missing (the restricted shanten + 1:
    the hand held to that pattern, every tile outside it counted as missing, each wildcard
    filling one; for a chow pattern, the least over the ways to lay its chows of their tiles
    not held, a melded chow counting, plus what the other tiles miss for a set and a pair) and
    the unseen copies of the kinds whose draw brings
    the target closer (its 进张), and takes the chance of drawing that many useful tiles within
    the seat's share of the wall left (the next useful tile comes with chance 进张 / unseen per
    draw, each later one with the usual 进张 of that stage, 0.6 of it for a pattern; the last
    tile three times as often, as it may also be won on a discard) times the pattern's value
    under the rule (:func:`pattern_values`: the mean result of a win of that pattern, in
    one-unit stakes, measured with the rule's scorer; a rule's 门清 bonuses make the concealed
    value higher than the open one, and a hand below the rule's minimum — 国标's 8 番, 苏州's 花 —
    is worth nothing).  Patterns ruled out by the melds (a chow for 对对胡, a meld of another suit
    for 清一色 …) are not targets.  Under 苏州 the values are those of a winner holding the
    flowers the seat holds now (:func:`pattern_values` with ``flowers=``; 7 and more alike), so
    that its 花 minimum enters at the count the seat has drawn, the flowers it may still draw not
    counted (counting each further copy with its chance of coming before the win played weaker
    in duplicate matches); under 太仓 (花 totals) the average over the flowers a winner holds,
    which played stronger there.  Not rated: the rules' adders outside these patterns (四川 根,
    广东 平胡 and honour pungs).

    **Discards**: among the discards that leave the least shanten (rated by every target) or
    one more (rated by their patterns alone: speed is given up only for a pattern), the one
    with the best rating less its danger when defending; ties to the tile that may still make
    the least (its *shape worth*: 0.3 for an honour, 0.6 for a terminal, 0.8 for a 2 or 8, 1 for
    a 3-7, plus 1 per other copy held, 1 per next rank held and 0.5 per rank two away held),
    then to the lower shanten, then the lowest kind; under 定缺 (四川) the void suit first;
    wildcards only when nothing else is left.
    **Calls**: a 碰 or 吃 on another seat's discard when the rating after it (and the best
    discard) is more than 10 % above the rating of passing, or when :class:`Efficiency` would
    make it (it lowers the shanten, or keeps it with more 进张) and the rating after it keeps
    at least half the rating of passing: the chance within the draws left says nothing of the
    other seats winning first, so it undervalues speed, and a call that costs a 门清 bonus or a
    pattern's hope pays less than its rating says only when it costs more than half.  A call
    that is not faster is made only for the rating.  A 杠 whenever it holds three and the
    shanten does not rise (a kong pays under most rules, which the rating does not count).
    **Wins**: every potential win the rule accepts, except that under 瑞金 (飞) and 上饶 (宝吊头)
    it declines a complete self-drawn hand that can be discarded down to a lone wildcard and
    waits there while eight or more tiles are left (the wait wins on any tile it draws and
    scores as 飞 / 宝吊头), and under 国标 it passes a legal win when waiting for more 番 with the
    same 13 tiles (a passed self-draw is discarded again) is worth more: each wait kind is scored
    by the compiled fan search as a self-draw and as a discard win, and the wait is worth, round
    by round over the seat's share of the wall, the chance that its draw or one of the three
    other seats' discards (each unseen copy thrown with the rule's calibrated discard hazard)
    completes it, in a round reached only if no win came before and no other seat won (a chance
    of 0.1 a round), times the waits' mean receipt under the rule's settlement (国标 has no
    过水: the passed tile may still be won later).  **Own turn**: concealed and added kongs as
    :class:`Efficiency`.

    The weights (0.6, three times, 10 %, half, and the defence's below) were chosen by duplicate
    matches against :class:`Efficiency`; ``bench/REALISM.md`` reports how both play.  Seven
    rules set some differently (their modules' ``VALUE_KNOBS``, with the matches that chose them):
    under 瑞金 a call is made only for the rating, under 贵阳 the player does not defend, under
    国标 a pattern's usual 进张 is 1.2 times a plain hand's and its rating is divided by 0.8, not 1
    (a plain hand seldom makes the 8-番 minimum) and it waits for more 番, under JJ ties go to
    the lowest kind (its 十三浪 and 九幺 are made of the honours and terminals that shape worth
    lets go first), and under 四川 and 广东 a pattern's usual 进张 is a plain hand's (1.0 of it),
    under 苏州 1.2 times it: there the flushes pay most.

    **Defence** (``defend=True``): the expected loss of each discard is subtracted from its
    rating.  Each opponent is ready with a chance set by what everyone can see: 0.05, 0.15,
    0.35, 0.7 or 1 for 0-4 exposed melds, plus 0.4 times the share of the wall already drawn
    (at most 1).  A ready opponent waits on a given tile with chance 0.01 times its danger:
    1 for a 3-7, 0.8 for a 2 or 8, 0.6 for a terminal, 0.5 for an honour (0.2 when at most one
    copy is unseen), a quarter of that for a kind that opponent discarded itself; dealing in
    costs 1.5 times a plain open hand's discard win.

    Parameters
    ----------
    defend : bool, default True
        Weigh the danger of each discard as above (under 贵阳 its weight is 0, so that there
        ``Value()`` and ``Value(defend=False)`` play the same games).

    Examples
    --------
    >>> import mjfast as mj
    >>> df = mj.simulate_games("guobiao", 20, rng=3, n_threads=1, policy=Value())
    >>> df.attrs["policy"]
    'Value()'
    """

    defend: bool = True

    def __post_init__(self):
        if not isinstance(self.defend, bool):
            raise ValueError(f"defend must be True or False, got {self.defend!r}")

    def __repr__(self) -> str:
        return "Value()" if self.defend else "Value(defend=False)"


#: A seat's share of the wall by a typical win (13 dealt and some ten draws of a 136-144 tile
#: wall): the chance that each flower copy is among a sampled winner's flowers.
_FLOWER_SHARE = 0.16
#: Hands sampled per pattern and meld state.
_SAMPLES = 160
#: The columns of :func:`pattern_values` (the kernel's order).
_VALUE_COLUMNS = ("concealed_self_draw", "concealed_discard", "open_self_draw", "open_discard")


def pattern_values(rule, *, flowers=None, **options):
    """What a win of each scoring pattern :class:`Value` aims at is worth under a rule.

    For every pattern of :data:`PATTERNS`, concealed and with one set exposed (a chow, or under
    rules without chows a pung, called from the left), 160 random complete hands of that
    pattern (fixed seeds, so the table is the same in every process) are scored by
    :func:`mjfast.score` as the non-dealer's win, self-drawn and on a discard of the seat
    opposite, with each flower copy of the rule's tile set held with chance 0.16, or with
    ``flowers`` copies held (drawn at random from the rule's flower copies).  A hand the
    rule does not accept (below its minimum, or not a form of the rule) counts 0: a pattern a
    rule never lets a player win on a discard (贵阳's 平胡) has a discard value of 0.  Under 定缺
    (四川) the hands of several suits use two.  The chow patterns and 五门齐
    (:data:`RULE_PATTERNS`) are measured only under a rule whose module names them in
    ``VALUE_PATTERNS`` (国标, whose fans they are) and are 0 elsewhere, where they are no target.

    Under a rule whose module sets ``VALUE_BY_FLOWERS`` (苏州) a value player uses the table of
    the flowers it holds, ``flowers=0 .. 7`` (the last for 7 or more), so that the rule's 花
    minimum enters its rating at the count it has drawn; elsewhere the table without
    ``flowers`` (under 太仓 the seat's own count played weaker: ``mjfast.rules.taicang``).

    Parameters
    ----------
    rule : str or Rule
    flowers : int, optional
        Flowers held by the winner (0 .. the rule's flower copies).  None: each copy with chance 0.16.
    **options
        Rule options, when ``rule`` is a name.

    Returns
    -------
    pandas.DataFrame
        Index ``pattern``; columns ``concealed_self_draw``, ``concealed_discard``,
        ``open_self_draw``, ``open_discard``: the winner's mean result, in one-unit stakes
        (:func:`mjfast.base_stake`); 0 where the pattern cannot be won so.

    Examples
    --------
    >>> t = pattern_values("guobiao")
    >>> bool(t.loc["flush", "concealed_discard"] > t.loc["plain", "concealed_discard"])
    True
    >>> float(t.loc["seven_pairs", "open_discard"])
    0.0

    苏州 needs 4 花 beyond the base to win an open plain hand on a discard (a concealed one is
    exempt): a seat holding 4 flowers has them, one holding 2 needs two more from its wind sets,
    and one holding none wins as 大门清 (no 花 at all, 10 花).

    >>> sz = {f: pattern_values("suzhou", flowers=f).loc["plain", "open_discard"] for f in (0, 2, 4)}
    >>> bool(sz[4] > 2 * sz[2] and sz[0] > sz[2])
    True
    """
    import numpy as np
    import pandas as pd

    from .rules import get

    rule_obj = get(rule, **options) if isinstance(rule, str) else rule
    if flowers is None:
        values = _pattern_values(rule_obj)
    else:
        copies = len(_flower_codes(rule_obj))
        if isinstance(flowers, bool) or not isinstance(flowers, (int, np.integer)) or not 0 <= flowers <= copies:
            raise ValueError(
                f"flowers must be a whole number of flowers from 0 to {copies} (the flower copies of "
                f"{rule_obj.name}), got {flowers!r}"
            )
        values = _measure_values(rule_obj, int(flowers))
    table = pd.DataFrame(values, index=pd.Index(PATTERNS, name="pattern"), columns=list(_VALUE_COLUMNS))
    table.attrs["unit"] = "stakes"
    table.attrs["rule"] = rule_obj.name
    table.attrs["flowers"] = flowers
    return table


def _pattern_values(rule_obj):
    """:func:`pattern_values` as a (patterns, 4) float array, memoised per rule."""
    hit = _VALUES.get(rule_obj)
    if hit is None:
        hit = _VALUES[rule_obj] = _measure_values(rule_obj)
    return hit


def _flower_values(rule_obj):
    """:func:`pattern_values` of a seat holding 0, 1 .. ``FLOWER_ROWS - 1`` flowers as a
    (rows, patterns, 4) float array, memoised per rule; None unless the rule's module sets
    ``VALUE_BY_FLOWERS`` (and the rule has flowers)."""
    if not getattr(_rule_module(rule_obj), "VALUE_BY_FLOWERS", False) or not _flower_codes(rule_obj):
        return None
    hit = _FLOWER_VALUES.get(rule_obj)
    if hit is None:
        import numpy as np

        hit = _FLOWER_VALUES[rule_obj] = np.stack([_measure_values(rule_obj, f) for f in range(_kg.FLOWER_ROWS)])
    return hit


_VALUES: dict = {}
_FLOWER_VALUES: dict = {}
#: Overrides of the value players' weights (``_game.VALUE_KNOBS``) for tuning runs; empty otherwise.
_KNOBS: dict = {}


def _rule_module(rule_obj):
    """The module of a rule (a variant's: its base rule's)."""
    from . import rules as _rules

    return _rules._REGISTRY.get(rule_obj.name)


def _rule_knobs(rule_obj) -> dict:
    """The value players' weights that differ from ``_game.VALUE_KNOBS`` under a rule: its rule
    module's ``VALUE_KNOBS``, then the tuning overrides."""
    return {**getattr(_rule_module(rule_obj), "VALUE_KNOBS", {}), **_KNOBS}


def _flower_codes(rule_obj) -> list:
    """The flower copies of a rule's tile set, one code per copy (wildcard faces left out)."""
    from .hand import Hand

    flowers = []
    for code, n in dict(rule_obj.tileset.bonus).items():
        try:
            Hand("123m456m789m123p5p", bonus=(code,))
        except ValueError:
            continue  # not a flower (a wildcard face)
        flowers += [code] * int(n)
    return flowers


def _measure_values(rule_obj, n_flowers=None):
    """:func:`_pattern_values`, or with ``n_flowers``: the values of a seat holding that many flowers."""
    import numpy as np

    from .analysis.payout import base_stake
    from .hand import Hand
    from .scoring import WinContext, score

    stake = float(base_stake(rule_obj))
    copies = np.asarray(rule_obj.tileset.copies)
    chows = rule_obj.calls.chow == "left"
    flowers = _flower_codes(rule_obj)
    two_suits = bool(rule_obj.engine.void_suit)
    aimed = getattr(_rule_module(rule_obj), "VALUE_PATTERNS", ())
    out = np.zeros((len(PATTERNS), 4))
    for i, pattern in enumerate(PATTERNS):
        if pattern in RULE_PATTERNS and pattern not in aimed:
            continue  # worth nothing here: not a target
        for op in (0, 1):
            if op and pattern in ("seven_pairs", "honours_knitted"):
                continue
            rng = np.random.default_rng([20261202, i, op] + ([] if n_flowers is None else [n_flowers]))
            total = np.zeros(2)
            done = 0
            for _ in range(4 * _SAMPLES):
                if done == _SAMPLES:
                    break
                drawn = _sample_hand(pattern, rng, copies, two_suits)
                if drawn is None:
                    break  # the pattern is not in this tile set
                counts, sets = drawn
                melds = []
                if op:
                    callable_sets = [x for x in sets if chows or x[0] == "pung"]
                    if not callable_sets:
                        continue  # an open hand of this pattern needs a set it can call
                    kind, k = callable_sets[0]
                    tiles = (k, k + 1, k + 2) if kind == "chow" else (k, k, k)
                    for t in tiles:
                        counts[t] -= 1
                    melds = ["".join(CODES[t][0] for t in tiles) + CODES[k][1] + "@left"]
                done += 1
                if n_flowers is None:
                    own = [f for f in flowers if rng.random() < _FLOWER_SHARE]
                else:
                    own = [flowers[x] for x in rng.choice(len(flowers), min(n_flowers, len(flowers)), replace=False)]
                held = np.flatnonzero(counts)
                win = int(held[rng.integers(len(held))])
                try:
                    hand = Hand(counts.astype(np.uint8), melds=melds, bonus=tuple(own))
                    for j, self_draw in enumerate((True, False)):
                        ctx = WinContext(
                            hand,
                            win_tile=win,
                            self_draw=self_draw,
                            winner=1,
                            dealer=0,
                            discarder=None if self_draw else 3,
                        )
                        s = score(ctx, rule_obj)
                        if s.legal:
                            total[j] += float(s.payments[1]) / stake
                except ValueError:
                    continue  # not a complete hand of this rule
            if done:
                out[i, 2 * op : 2 * op + 2] = total / done
    return out


_KNITS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def _sample_hand(pattern, rng, copies, two_suits):
    """A random complete hand of ``pattern``: (34 counts, its sets as ("chow" | "pung", lowest
    kind)), or None when none was drawn within the copies in play."""
    import numpy as np

    suits = [g for g in range(3) if copies[9 * g : 9 * g + 9].all()]
    honours = [k for k in range(27, 34) if copies[k]]
    for _attempt in range(20):
        c = np.zeros(34, np.int64)
        sets = []
        if pattern in ("plain", "flush", "half_flush", "pungs", "knitted_straight", *CHOW_PATTERNS):
            pool = list(suits)
            if pattern in ("flush", "half_flush"):
                pool = [int(rng.choice(suits))]
            elif two_suits:
                pool = [int(x) for x in rng.choice(suits, 2, replace=False)]
            n_sets = 4
            if pattern == "knitted_straight":
                order = rng.permutation(3)
                for g, knit in zip(order, _KNITS):
                    for r in knit:
                        c[9 * g + r] += 1
                n_sets = 1
            elif pattern in CHOW_PATTERNS:
                if len(suits) < 3:
                    return None
                if pattern == "mixed_straight":  # 123, 456, 789 in the three suits
                    lows = [9 * int(g) + 3 * j for j, g in enumerate(rng.permutation(3))]
                elif pattern == "mixed_triple_chow":  # one rank in each suit
                    rank = int(rng.integers(7))
                    lows = [9 * g + rank for g in range(3)]
                elif pattern == "pure_straight":  # 123456789 in one suit
                    g = int(rng.choice(suits))
                    lows = [9 * g, 9 * g + 3, 9 * g + 6]
                elif pattern == "mixed_shifted_chows":  # one chow in each suit, up by one
                    rank = int(rng.integers(5))
                    lows = [9 * int(g) + rank + j for j, g in enumerate(rng.permutation(3))]
                else:  # three chows of one suit, up by one or by two
                    g, step = int(rng.choice(suits)), int(rng.integers(1, 3))
                    rank = int(rng.integers(7 - 2 * step))
                    lows = [9 * g + rank + step * j for j in range(3)]
                sets = [("chow", k) for k in lows]
                n_sets = 1
            for j in range(n_sets):
                honour = (
                    honours
                    and pattern != "flush"
                    and (
                        rng.random() < (0.35 if pattern == "half_flush" else 0.12)
                        or (pattern == "half_flush" and j == 3 and not c[27:].any())
                    )
                )
                if honour:
                    sets.append(("pung", int(rng.choice(honours))))
                elif pattern == "pungs" or rng.random() < 0.25:
                    g = int(rng.choice(pool))
                    sets.append(("pung", 9 * g + int(rng.integers(9))))
                else:
                    g = int(rng.choice(pool))
                    sets.append(("chow", 9 * g + int(rng.integers(7))))
            if pattern == "pungs" and honours and rng.random() < 0.3:
                sets[-1] = ("pung", int(rng.choice(honours)))
            for kind, k in sets:
                if kind == "chow":
                    c[k : k + 3] += 1
                else:
                    c[k] += 3
            if honours and pattern in ("half_flush", "plain", "pungs", *CHOW_PATTERNS) and rng.random() < 0.3:
                pair = int(rng.choice(honours))
            else:
                g = int(rng.choice(pool))
                pair = 9 * g + int(rng.integers(9))
            c[pair] += 2
        elif pattern == "seven_pairs":
            pool = [int(x) for x in rng.choice(suits, 2, replace=False)] if two_suits else suits
            kinds = [k for k in range(34) if copies[k] >= 2 and (k >= 27 or k // 9 in pool)]
            for k in rng.choice(kinds, 7, replace=False):
                c[k] += 2
        elif pattern == "five_gates":  # a set or the pair in each suit, the winds and the dragons
            groups = [list(range(9 * g, 9 * g + 9)) for g in suits] + [
                [k for k in range(27, 31) if copies[k]],
                [k for k in range(31, 34) if copies[k]],
            ]
            if len(suits) < 3 or not groups[3] or not groups[4]:
                return None
            pair_group = int(rng.integers(5))
            for g in rng.permutation(5):  # the called set of an open hand: any group's
                kinds = groups[g]
                if g == pair_group:
                    pair = int(rng.choice(kinds))
                    c[pair] += 2
                elif g < 3 and rng.random() >= 0.25:
                    low = kinds[0] + int(rng.integers(7))
                    sets.append(("chow", low))
                    c[low : low + 3] += 1
                else:
                    k = int(rng.choice(kinds))
                    sets.append(("pung", k))
                    c[k] += 3
        else:  # honours_knitted: 14 of the 16 tiles of a knitted arrangement and the 7 honours
            if len(honours) < 7 or len(suits) < 3:
                return None
            order = rng.permutation(3)
            tiles = [9 * g + r for g, knit in zip(order, _KNITS) for r in knit] + honours
            for k in rng.choice(tiles, 14, replace=False):
                c[k] += 1
        if (c <= copies).all():
            return c, sets
    return None


_MELD_NAMES = {0: "chow", 1: "pung", 2: "kong", 3: "added_kong", 4: "concealed_kong"}
_WILD = 34


@dataclass(frozen=True)
class Meld:
    """A meld on the table: ``kind`` (``"chow"``, ``"pung"``, ``"kong"`` — exposed, on a
    discard —, ``"added_kong"``, ``"concealed_kong"``), ``tile`` (its lowest tile, a kind
    0..33; an honour chow's code, see :data:`CHOW_TILES`) and ``source`` (the seat the claimed
    tile came from; -1 for a concealed kong); ``wilds``, a chow's tiles a wildcard stands for
    (the wildcard stays in the meld).

    Examples
    --------
    >>> Meld("chow", 27, 3).tiles, Meld("chow", 31, 3).tiles, Meld("pung", 4, 1).tiles
    ((28, 29, 30), (31, 32, 33), (4, 4, 4))
    """

    kind: str
    tile: int
    source: int
    wilds: tuple[int, ...] = ()

    @property
    def tiles(self) -> tuple[int, ...]:
        """Its tiles, in order (kinds 0..33)."""
        if self.kind == "chow":
            return CHOW_TILES[self.tile]
        return (self.tile,) * (3 if self.kind == "pung" else 4)


class View:
    """What one seat may see when its policy is asked (read-only).

    Tiles are kinds 0..33 (``mjfast.tiles.CODES``: ``0`` = 1m … ``33`` = 7z); a wildcard discard
    is :data:`WILD` (34).  A user policy may answer a tile as a kind or as its name (``"5m"``).

    Attributes
    ----------
    decision : {"discard", "claim", "kong", "win"}
        What is asked: the discard of its 3k+2 hand; a claim of another seat's discard
        (``tile``); a kong on its own turn; whether to take a potential win on ``tile``.
    seat, dealer : int
        Its seat and the dealer's (0-3).
    turn : int
        Discards made so far in the hand.
    counts : tuple of 34 int
        Its concealed natural tiles by kind (wildcards apart).  On its own turn the drawn tile
        is included; for a claim or a win on another seat's discard it is not.
    wilds : int
        Wildcards it holds.
    tile : int or None
        The tile at stake: the tile just drawn on its own turn (None after a call), the
        discard it may claim or win on, or the tile of a kong it may rob.
    melds : tuple of 4 tuples of Meld
        Every seat's melds in the order made.
    discards : tuple of (seat, tile)
        Every discard of the hand in order (claimed ones included).
    flowers : tuple of 4 tuples of str
        Every seat's flowers laid aside (tile names).
    wall_left : int
        Tiles left in the wall.
    wild_tiles : tuple of str
        The tiles that are wildcards in this hand (empty when none).
    flipped : str or None
        The indicator turned up (the rules that flip one).
    scores : tuple of 4 int
        Every seat's result so far in the match, in the rule's unit (zeros outside
        :func:`mjfast.simulate_matches`).
    rule : mjfast.rules.Rule
        The rule being played.
    voids : tuple of 4 (str or None)
        Every seat's declared void suit (定缺: ``"m"``, ``"p"`` or ``"s"``; None under rules
        without it).  A seat wins only once it holds none of its void suit.
    waiting : bool
        Whether this seat has declared the 飞 / 宝吊头 wait (a lone wildcard beside complete
        sets; see the module docstring).
    """

    decision: str
    seat: int
    dealer: int
    turn: int
    counts: tuple[int, ...]
    wilds: int
    tile: int | None
    wall_left: int
    scores: tuple[int, ...]
    rule: Rule
    voids: tuple[str | None, ...]
    waiting: bool
    _melds: Any
    _discards: Any
    _flowers: Any
    _flipped: Any
    _tables: Any
    _cache: dict

    __slots__ = (
        "decision",
        "seat",
        "dealer",
        "turn",
        "counts",
        "wilds",
        "tile",
        "wall_left",
        "scores",
        "rule",
        "voids",
        "waiting",
        "_melds",
        "_discards",
        "_flowers",
        "_flipped",
        "_tables",
        "_cache",
    )

    def __init__(
        self,
        decision,
        seat,
        dealer,
        turn,
        counts,
        wilds,
        tile,
        melds,
        discards,
        flowers,
        wall_left,
        flipped,
        scores,
        rule,
        tables,
        voids=(None, None, None, None),
        waiting=False,
    ):
        set_ = object.__setattr__
        for name, value in (
            ("decision", decision),
            ("seat", seat),
            ("dealer", dealer),
            ("turn", turn),
            ("counts", counts),
            ("wilds", wilds),
            ("tile", tile),
            ("wall_left", wall_left),
            ("scores", scores),
            ("rule", rule),
            ("voids", voids),
            ("waiting", waiting),
            ("_melds", melds),
            ("_discards", discards),
            ("_flowers", flowers),
            ("_flipped", flipped),
            ("_tables", tables),
            ("_cache", {}),
        ):
            set_(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("a View is read-only")

    def __delattr__(self, name):
        raise AttributeError("a View is read-only")

    def __repr__(self) -> str:
        return (
            f"View(decision={self.decision!r}, seat={self.seat}, turn={self.turn}, "
            f"hand={[CODES[k] for k in self.tiles()]}, wilds={self.wilds}, tile={self.tile})"
        )

    def _get(self, name, build):
        cache = self._cache
        if name not in cache:
            cache[name] = build()
        return cache[name]

    @property
    def melds(self) -> tuple:
        return self._get(
            "melds",
            lambda: tuple(
                tuple(Meld(_MELD_NAMES[k], t, s, _kg.chow_wild_tiles(t, wm) if k == 0 else ()) for k, t, s, wm in row)
                for row in self._melds
            ),
        )

    @property
    def discards(self) -> tuple:
        d = self._discards
        return self._get("discards", lambda: tuple(zip(d[::2], d[1::2])))

    @property
    def flowers(self) -> tuple:
        return self._get(
            "flowers",
            lambda: tuple(
                tuple(CODES[c] for c in range(len(f)) for _ in range(f[c])) if any(f) else () for f in self._flowers
            ),
        )

    @property
    def flipped(self):
        return CODES[self._flipped] if self._flipped >= 0 else None

    @property
    def wild_tiles(self) -> tuple:
        t = self._tables
        row = self._flipped if t.flip and self._flipped >= 0 else 0
        return self._get("wild", lambda: tuple(CODES[c] for c in range(len(CODES)) if t.faces[row][c] == 34))

    def tiles(self) -> list:
        """Its concealed natural tiles as a sorted list of kinds (one entry per tile)."""
        return [k for k, n in enumerate(self.counts) for _ in range(n)]

    def hand(self):
        """Its hand as a :class:`mjfast.Hand` (concealed tiles, its melds, its wildcards): the
        input of :func:`mjfast.shanten`, :func:`mjfast.ukeire` or :func:`mjfast.analyze_discards`."""
        import numpy as np

        from .hand import Hand
        from .scoring._outcome import meld_objects

        return Hand(
            np.array(self.counts, np.uint8), melds=meld_objects(self.seat, self._melds[self.seat]), wilds=self.wilds
        )


_KINDS = {v: k for k, v in _MELD_NAMES.items()}
#: The tile code of a discarded wildcard in :attr:`View.discards`.
WILD = _WILD


def _has_methods(obj) -> int:
    """Bit mask of the user-policy methods ``obj`` has (``discard`` 1, ``claim`` 2, ``declare_win`` 4)."""
    mask = 0
    for bit, name in zip((1, 2, 4), METHODS):
        if callable(getattr(obj, name, None)):
            mask |= bit
    return mask


def describe(policy) -> str:
    """A readable name of a policy (``repr`` when its class defines one, else ``ClassName()``)."""
    if isinstance(policy, (Efficiency, Value)) or type(policy).__repr__ is not object.__repr__:
        return repr(policy)
    return f"{type(policy).__qualname__}()"


_VALID = (
    "'efficiency', 'value', an mjfast.policies.Efficiency or Value, an object with a discard, claim or "
    "declare_win method, or a list / tuple of four of these (one per seat)"
)


#: The players of a simulation whose ``policy`` argument is None.
DEFAULT = Value()


def one(policy, what: str = "policy"):
    """The policy object of one seat's ``policy`` argument (``None``: :data:`DEFAULT`;
    ``"value"`` / ``"efficiency"``: ``Value()`` / ``Efficiency()``); a ``ValueError`` naming
    ``what`` and the valid choices otherwise."""
    if policy is None:
        return DEFAULT
    if isinstance(policy, str) and policy == "efficiency":
        return Efficiency()
    if isinstance(policy, str) and policy == "value":
        return Value()
    if isinstance(policy, (Efficiency, Value)):
        return policy
    if isinstance(policy, (str, bytes, list, tuple, dict, int, float)) or not _has_methods(policy):
        raise ValueError(f"{what}: unknown policy {policy!r}; valid policies: {_VALID}")
    return policy


def resolve(policy, what: str = "policy") -> tuple:
    """The four seats' policies of a ``policy`` argument (one for all seats, or four).

    Raises
    ------
    ValueError
        Naming ``what`` and the valid choices, for anything else.
    """
    if isinstance(policy, (list, tuple)):
        if len(policy) != 4:
            raise ValueError(
                f"{what}: a list of policies needs one per seat (4), got {len(policy)}; valid policies: {_VALID}"
            )
        return tuple(one(p, f"{what}[{i}]") for i, p in enumerate(policy))
    p = one(policy, what)
    return (p, p, p, p)


def label(seats: tuple) -> str:
    """``df.attrs["policy"]`` of four seats' policies: one name when every seat plays the same."""
    names = [describe(p) for p in seats]
    if all(n == names[0] for n in names) and all(type(p) is type(seats[0]) for p in seats):
        return names[0]
    return "[" + ", ".join(names) + "]"


_CALL_CODES = {"faster": 0, "always": 1, "never": 2}


def kernel_seats(seats: tuple) -> tuple:
    """Per seat ``(call mode, keep concealed, user mask, value bits)`` for the game kernel."""
    out = []
    bits = _kg.VALUE_BITS
    for p in seats:
        if isinstance(p, Efficiency):
            out.append((_CALL_CODES[p.call], p.keep_concealed, 0, 0))
        elif isinstance(p, Value):
            out.append((0, False, 0, bits["value"] | (bits["defend"] if p.defend else 0)))
        else:  # a user policy: the decisions it has no method for are Value()'s
            out.append((0, False, _has_methods(p), bits["value"] | bits["defend"]))
    return tuple(out)


def any_value(seats: tuple) -> bool:
    """Whether some seat plays :class:`Value`, or a user policy that falls back to it (the
    kernel then needs :func:`pattern_values`)."""
    return not all(isinstance(p, Efficiency) for p in seats)


def any_user(seats: tuple) -> bool:
    """Whether some seat plays a user policy (the engine then builds :class:`View` objects)."""
    return not all(isinstance(p, (Efficiency, Value)) for p in seats)


def kernel_default(seats: tuple) -> bool:
    """Whether every seat plays ``Efficiency()``, the kernel's own players without
    per-seat settings."""
    return all(isinstance(p, Efficiency) and p == Efficiency() for p in seats)


_ASK = ("discard", "claim", "kong", "win")
_ACTION_OF = {3: "pung", 4: "kong", 5: "chow", 7: "concealed_kong", 6: "added_kong"}


def _option(action: int, tile: int) -> tuple:
    """A kernel option as the policy sees it: ``(name, tile)``, a chow with wildcards
    ``("chow", code, wilds)``."""
    name = _ACTION_OF[action]
    if name == "chow" and tile >> _kg.CHOW_WILD_SHIFT:
        code = tile & ((1 << _kg.CHOW_WILD_SHIFT) - 1)
        return (name, code, _kg.chow_wild_tiles(code, tile >> _kg.CHOW_WILD_SHIFT))
    return (name, tile)


def _tile_name(k) -> str:
    return "wildcard" if k == _WILD else CODES[k]


class Bridge:
    """The game kernel's ``user`` callback: builds the asked seat's :class:`View`, calls its
    policy and checks the answer (a ``ValueError`` naming the seat, the turn and the action)."""

    def __init__(self, rule, tables, seats: tuple):
        self.rule = rule
        self.seats = seats
        self.tables = tables
        self.scores = None  # per game row: the seats' results so far (None: zeros)

    def view(
        self,
        what,
        game,
        seat,
        counts,
        wilds,
        melds,
        flowers,
        discards,
        left,
        flipped,
        dealer,
        tile,
        turn,
        voids=(-1, -1, -1, -1),
        waiting=False,
    ) -> View:
        scores = (0, 0, 0, 0) if self.scores is None else tuple(int(x) for x in self.scores[game])
        return View(
            _ASK[what],
            seat,
            dealer,
            turn,
            tuple(counts),
            wilds,
            None if tile < 0 or tile >= 34 else tile,
            melds,
            discards,
            flowers,
            left,
            flipped,
            scores,
            self.rule,
            self.tables,
            tuple("mps"[x] if x >= 0 else None for x in voids),
            bool(waiting),
        )

    def __call__(
        self,
        what,
        game,
        seat,
        counts,
        wilds,
        melds,
        flowers,
        discards,
        left,
        flipped,
        dealer,
        tile,
        turn,
        options,
        voids=(-1, -1, -1, -1),
        waiting=False,
    ) -> int:
        policy = self.seats[seat]
        v = self.view(
            what, game, seat, counts, wilds, melds, flowers, discards, left, flipped, dealer, tile, turn, voids, waiting
        )
        where = f"seat {seat}, turn {turn} ({describe(policy)}"
        if what == 0:
            answer = policy.discard(v)
            if not isinstance(answer, (bool, str)) and _index(answer) == WILD:
                wild = self.rule.wildcard
                if wilds and wild is not None and wild.discardable and not waiting:
                    return WILD
                if not wilds or wild is None:
                    why = "it holds no wildcard"
                elif waiting:
                    why = f"it waits on its lone {wild.name} (飞 / 宝吊头)"
                else:
                    why = f"rule {self.rule.name!r} never discards its {wild.name}"
                raise ValueError(f"{where}.discard): discard WILD ({WILD}): {why}")
            k = _kind(answer)
            if k is None or counts[k] == 0:
                shown = f"{answer!r} ({CODES[k]})" if k is not None and not isinstance(answer, str) else repr(answer)
                raise ValueError(
                    f"{where}.discard): discard {shown} is not a tile of its concealed hand "
                    f"{[CODES[x] for x in v.tiles()]}"
                )
            return k
        if what == 3:
            answer = policy.declare_win(v)
            if not isinstance(answer, bool) and answer not in (0, 1):
                raise ValueError(f"{where}.declare_win): answer {answer!r} on {_tile_name(tile)} is not True or False")
            return 1 if answer else 0
        opts = tuple(_option(a, t) for a, t in options)
        answer = policy.claim(v, opts + (None,))
        if answer is None:
            return -1
        key: tuple | None = None
        if isinstance(answer, tuple) and len(answer) == 2:
            key = (answer[0], _kind(answer[1]))
        elif isinstance(answer, tuple) and len(answer) == 3 and isinstance(answer[2], (tuple, list)):
            faces = tuple(_kind(x) for x in answer[2])
            if None not in faces:
                key = (answer[0], _kind(answer[1]), tuple(sorted(faces)))
        if key not in opts:
            raise ValueError(f"{where}.claim): claim {answer!r} is not one of the legal options {list(opts) + [None]}")
        return opts.index(key)


def _index(x):
    """``x`` as an integer (``operator.index``), or None."""
    import operator

    try:
        return operator.index(x)
    except TypeError:
        return None


def _kind(tile):
    """A kind 0..33 from a kind or a tile name; None for anything else."""
    if isinstance(tile, bool):
        return None
    if isinstance(tile, str):
        return CODES.index(tile) if tile in CODES[:34] else None
    k = _index(tile)
    return k if k is not None and 0 <= k < 34 else None
