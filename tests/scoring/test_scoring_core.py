"""The scoring framework: WinContext validation, Score, the registry and dispatch."""

import contextlib

import numpy as np
import pytest

from mjfast import Hand, rules
from mjfast.scoring import (
    ELEMENT_COLUMNS,
    HOW,
    ROW_FIELDS,
    NotComplete,
    Score,
    WinContext,
    _core,
    can_win,
    register,
    score,
    scorers,
)

H = "123m456p789s234s55p"


# ---------------------------------------------------------------------------------------------
# WinContext
def test_context_defaults_and_normalisation():
    ctx = WinContext(
        H, win_tile="5p", discarder=np.int64(3), winner=1, dealer=3, prevalent_wind="南", rule_state={"chicken": "1s"}
    )
    assert isinstance(ctx.hand, Hand) and ctx.win_tile == 13
    assert (ctx.seat_wind, ctx.prevalent_wind, ctx.discarder) == (2, 1, 3)
    assert ctx.payers == (0, 2, 3) and ctx.kongs == () and ctx.n_flowers == 0
    assert ctx.rule_state["chicken"] == "1s"
    hash(ctx)  # frozen and hashable
    with pytest.raises(AttributeError):
        ctx.winner = 2
    assert WinContext(H, win_tile=13, self_draw=True, seat_wind="W").seat_wind == 2
    k = WinContext(
        Hand("55p", melds=["[1111m]", "+2222p@left", "333s@right", "456s@left"]),
        win_tile="5p",
        self_draw=True,
        after_kong=True,
    )
    assert [m.kind for m in k.kongs] == ["concealed_kong", "added_kong"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hand="123m456p789s234s5p", win_tile="5p", discarder=1), "hand not complete"),
        (dict(hand=H, win_tile="1z", discarder=1), "not in the hand"),
        (dict(hand=H, win_tile="F1", discarder=1), "bonus tile"),
        (dict(hand=H, win_tile=40, discarder=1), "tile id"),
        (dict(hand=H, win_tile="5p", discarder=0), "discarder cannot be the winner"),
        (dict(hand=H, win_tile="5p", self_draw=True, discarder=1), "self-draw has no discarder"),
        (dict(hand=H, win_tile="5p"), "needs the discarder"),
        (dict(hand=H, win_tile="5p", discarder=4), "seat number"),
        (dict(hand=H, win_tile="5p", discarder=1, winner=True), "seat number"),
        (dict(hand=H, win_tile="5p", discarder=1, seat_wind="up"), "wind name"),
        (dict(hand=H, win_tile="5p", discarder=1, after_kong=True), "after_kong"),
        (dict(hand=H, win_tile="5p", self_draw=True, robbing_kong=True), "robbing_kong"),
        (dict(hand=H, win_tile="5p", self_draw=True, kong_discard=True), "kong_discard"),
        (dict(hand=H, win_tile="5p", self_draw=True, winner=1, heavenly=True), "heavenly"),
        (dict(hand=H, win_tile="5p", discarder=1, liable=0), "liable seat cannot be the winner"),
        (dict(hand=H, win_tile="5p", discarder=1, last_copy="yes"), "True or False"),
        (dict(hand=H, win_tile="5p", discarder=1, wild_faces=("1m",)), "wild_faces"),
        (dict(hand=H, win_tile="5p", discarder=1, rule_state=3), "mapping"),
        # flags that exclude each other (every rule scored them, stacking the bonuses)
        (dict(hand=H, win_tile="5p", self_draw=True, heavenly=True, last_tile=True), "last_tile"),
        (dict(hand=H, win_tile="5p", self_draw=True, heavenly=True, after_kong=True), "after_kong"),
        (dict(hand=H, win_tile="5p", discarder=1, robbing_kong=True, kong_discard=True), "kong_discard"),
        (dict(hand=H, win_tile="5p", discarder=1, robbing_kong=True, last_tile=True), "last tile"),
        (dict(hand=H, win_tile="5p", self_draw=True, heavenly=True, earthly=True), "exclude each other"),
        (dict(hand=H, win_tile="5p", discarder=0, winner=1, earthly=True, human=True), "exclude each other"),
        (dict(hand=H, win_tile="5p", self_draw=True, winner=1, earthly=True, last_tile=True), "last_tile"),
        (dict(hand=H, win_tile="5p", discarder=0, winner=1, earthly=True, robbing_kong=True), "robbing_kong"),
        (dict(hand=H, win_tile="5p", self_draw=True, earthly=True), "non-dealer"),
    ],
)
def test_context_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        WinContext(**kwargs)


def test_context_flags_that_may_stack():
    """豹子 and 滴零 stack (SZ-A5); 杠上开花 on the last tile and 海底 with 和绝张 are real."""
    assert WinContext(H, win_tile="5p", discarder=1, baozi=True, diling=True).diling
    assert WinContext(H, win_tile="5p", self_draw=True, after_kong=True, last_tile=True).last_tile
    assert WinContext(H, win_tile="5p", discarder=1, last_tile=True, last_copy=True).last_copy
    assert WinContext(H, win_tile="5p", discarder=0, winner=1, human=True).human
    # 联众 人和 (GB-C6) is any win in the first go-around: a self-draw, or the dealer's discard win
    assert WinContext(H, win_tile="5p", self_draw=True, winner=2, human=True).human
    assert WinContext(H, win_tile="5p", discarder=1, human=True).human


def test_context_wildcards():
    h = Hand("123m456p789s234s5p", wilds=1)
    ctx = WinContext(h, win_tile="5p", discarder=1, wild_faces=("5p",), flipped="4p")
    assert ctx.wild_faces == (13,) and ctx.flipped == 12
    # a winning wildcard is given as the tile it stands for
    assert WinContext(h, win_tile="7z", discarder=1).win_tile == 33
    with pytest.raises(ValueError, match="without wildcards"):
        score(ctx, "guobiao")
    with pytest.raises(ValueError, match="without wildcards"):
        can_win(ctx, "guobiao")


# ---------------------------------------------------------------------------------------------
# Score
def test_score_plain_values_and_lazy_parts():
    s = score(WinContext(H, win_tile="5p", self_draw=True))
    assert isinstance(s, Score) and type(s.total) is int and type(s.points) is int
    assert s._elements is None and s.decomposition is not None
    assert s.payments.dtype == np.int64 and s.payments.shape == (4,) and s.payments.sum() == 0
    df = s.elements
    assert tuple(df.columns) == ELEMENT_COLUMNS and set(df["how"]) <= set(HOW)
    assert df["total"].sum() == s.total and (df["value"] * df["count"] == df["total"]).all()
    assert s.rows == [tuple(r) for r in df[list(ROW_FIELDS)].itertuples(index=False)]
    assert "legal" in repr(s) and "<table" in s._repr_html_()


def test_elements_value_is_per_element_total_per_row():
    # 苏州: five flowers are 5 硬花 of 1 花 each; 七对's flowers count double (5 more)
    h = Hand("11223355667788m", bonus="F1F2 5z 6z 7z")
    df = score(WinContext(h, win_tile="8m", self_draw=True), "suzhou").elements
    row = df.set_index("code").loc["hard_flower"]
    assert (row["value"], row["count"], row["total"]) == (1, 5, 5)
    assert (df["value"] * df["count"] == df["total"]).all()
    assert df["value"].dtype == np.int64 and df["total"].dtype == np.int64
    # 太仓: the multipliers are one row each, value = total = the factor
    h = Hand("123m456m789m234m55m", bonus="F1F2 5z 6z 7z")
    df = score(WinContext(h, win_tile="5m", self_draw=True), "taicang").elements
    mult = df[df["how"] == "multiply"]
    assert len(mult) and (mult["count"] == 1).all() and (mult["value"] == mult["total"]).all()


def test_score_lazy_parts_read_a_source():
    calls = []

    def part(name, value):
        return lambda src: calls.append((name, src)) or value

    src = object()
    s = Score(
        "x",
        1,
        0,
        (0, 0, 0, 0),
        False,
        part("reason", "why"),
        "番",
        part("rows", [("c", "z", "e", 1, 1, "番", "add")]),
        decomposition_fn=part("decomposition", "d"),
        source=src,
    )
    assert calls == []  # nothing is built before it is read
    got = (s.reason, s.reason, s.rows[0][0], s.decomposition, s.decomposition)
    assert got == ("why", "why", "c", "d", "d")
    assert calls == [("reason", src), ("rows", src), ("decomposition", src)]
    # without a source the callables take no argument
    plain = Score("x", 1, 0, (0, 0, 0, 0), False, lambda: "why", "番", lambda: [])
    assert (plain.reason, plain.rows) == ("why", [])


# ---------------------------------------------------------------------------------------------
# registry and dispatch
@contextlib.contextmanager
def _vacated(name):
    """Temporarily take a rule's scorer out of the registry (every rule may have one)."""
    saved = _core._SCORERS.pop(name, None)
    _core._RESOLVED.clear()
    try:
        yield
    finally:
        _core._SCORERS.pop(name, None)
        if saved is not None:
            _core._SCORERS[name] = saved
        _core._RESOLVED.clear()


def test_dispatch_errors():
    ctx = WinContext(H, win_tile="5p", self_draw=True)
    with _vacated("suzhou"):
        with pytest.raises(ValueError, match="no scorer for rule 'suzhou' yet; rules with a scorer: guobiao"):
            score(ctx, "suzhou")
    with pytest.raises(ValueError, match="unknown rule 'tokyo'"):
        score(ctx, "tokyo")
    with pytest.raises(ValueError, match="rule must be"):
        score(ctx, 3)
    with pytest.raises(ValueError, match="WinContext"):
        score(Hand(H), "guobiao")
    with pytest.raises(ValueError, match="invalid|unknown|valid"):
        score(ctx, "guobiao", exclusions="v9")
    with pytest.raises(ValueError, match="unknown option.*colour.*valid options: exclusions, flowers"):
        score(ctx, "guobiao", colour="red")  # not an option of the rule nor of its scorer


def test_rule_object_and_options():
    ctx = WinContext("111m111p999m999p99s", win_tile="9s", discarder=1)
    r = rules.get("guobiao", qingyaojiu_tongke=True)
    assert score(ctx, r).total == score(ctx, "guobiao", qingyaojiu_tongke=True).total
    assert score(ctx, r).total != score(ctx).total
    with pytest.raises(ValueError, match="cannot be applied to an existing Rule"):
        score(ctx, r, exclusions="v2")


def test_register_plugs_in_a_scorer():
    calls = []

    def fake(ctx, rule, *, bonus=0):
        calls.append((rule.name, bonus))
        return Score(
            rule.name,
            1 + bonus,
            1,
            np.zeros(4, np.int64),
            True,
            "",
            rule.unit,
            [("x", "x", "x", 1, 1, rule.unit, "add")],
        )

    with _vacated("sichuan"):
        assert "sichuan" not in scorers()
        register("sichuan", fake)
        ctx = WinContext(H, win_tile="5p", self_draw=True)
        assert score(ctx, "sichuan", bonus=2).total == 3
        assert can_win(ctx, "sichuan")
        assert calls == [("sichuan", 2), ("sichuan", 0)]
        with pytest.raises(ValueError, match="already has a scorer"):
            register("sichuan", fake)
        register("sichuan", fake, replace=True)
    with pytest.raises(ValueError, match="unknown rule"):
        register("tokyo", fake)
    with pytest.raises(ValueError, match="callable"):
        register("jj", 3)


def test_bind_specialises_once_per_rule_and_options():
    binds, calls = [], []

    def fake(ctx, rule, *, bonus=0):
        calls.append(("general", bonus))
        return Score(rule.name, bonus, 1, np.zeros(4, np.int64), True, "", rule.unit, [])

    def bind(rule, *, bonus=0):
        binds.append((rule.name, bonus))
        if bonus < 0:
            return None  # the general call
        s = Score(rule.name, 10 + bonus, 1, np.zeros(4, np.int64), True, "", rule.unit, [])
        return (
            lambda ctx: calls.append(("bound", bonus)) or s,
            lambda ctx: calls.append(("bound can_win", bonus)) or bonus > 0,
        )

    ctx = WinContext(H, win_tile="5p", self_draw=True)
    with _vacated("sichuan"):
        register("sichuan", fake, bind=bind)
        assert [score(ctx, "sichuan", bonus=2).total for _ in range(3)] == [12, 12, 12]
        assert score(ctx, "sichuan").total == 10
        assert can_win(ctx, "sichuan", bonus=2) and not can_win(ctx, "sichuan")
        assert score(ctx, "sichuan", bonus=-1).total == -1
        assert binds == [("sichuan", 2), ("sichuan", 0), ("sichuan", -1)]
        assert calls == [("bound", 2)] * 3 + [("bound", 0), ("bound can_win", 2), ("bound can_win", 0), ("general", -1)]
        # the context is still checked before a bound scorer runs
        with pytest.raises(ValueError, match="WinContext"):
            score(Hand(H), "sichuan", bonus=2)
        with pytest.raises(ValueError, match="callable"):
            register("sichuan", fake, bind=3, replace=True)


def test_default_can_win_uses_the_scorer():
    """can_win answers False for NotComplete alone, whatever another error's text says."""

    def picky(ctx, rule):
        raise NotComplete("nothing is")

    def wordy(ctx, rule):
        raise ValueError("hand not complete, says a message that is not a NotComplete")

    ctx = WinContext(H, win_tile="5p", self_draw=True)
    with _vacated("jj"):
        register("jj", picky)
        assert can_win(ctx, "jj") is False
        with pytest.raises(NotComplete):
            score(ctx, "jj")
        register("jj", wordy, replace=True)
        with pytest.raises(ValueError, match="says a message"):
            can_win(ctx, "jj")


@pytest.mark.parametrize("name", rules.names())
def test_incomplete_hand_is_not_complete_everywhere(name):
    """Every scorer raises NotComplete (a ValueError) for tiles that form no winning hand, and
    can_win answers False for it."""
    ctx = WinContext(Hand("123m456m789m13579p"), win_tile="7p", discarder=1)
    with pytest.raises(NotComplete):
        score(ctx, name)
    assert can_win(ctx, name) is False
    with pytest.raises(NotComplete, match="14 tiles"):
        WinContext("123m456m789m1355p", win_tile="5p", discarder=1)


def test_scorer_keywords_equal_but_of_another_type_are_not_confused():
    """A scorer keyword rejected for its type (国标 ``flowers=1``) does not leave a cached
    resolution that an equal valid value (``flowers=True``: ``True == 1``) then reuses."""
    ctx = WinContext(Hand("1112345678999m5m", bonus="F1F2"), win_tile="5m", discarder=2)
    with pytest.raises(ValueError, match="flowers must be True or False"):
        can_win(ctx, "guobiao", flowers=1)
    assert score(ctx, "guobiao", flowers=True).total == 93
