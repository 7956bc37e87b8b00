"""The scorers' shortcuts agree with their full evaluations on random hands.

The regional scorers answer ``score()`` without listing a hand's readings when the
framework's reading classes decide (:mod:`mjfast.scoring._framework`: all pungs, all chows,
mixed, seven pairs); the readings are listed only for the decomposition, when asked for, or when
the classes cannot decide.  Here the classes are compared with the reading-by-reading evaluation
on random complete hands built to have several readings (narrow kind ranges: 111222333m read as
pungs or chows, seven pairs that are also standard, …), under every rule option value, and
``score()`` is checked to give consistent rows, payments and decompositions.
"""

import importlib
from fractions import Fraction

import numpy as np
import pytest
from _hands import random_contexts, random_hand, rule_kinds

from mjfast import Hand, rules
from mjfast.scoring import WinContext, _framework, jj, ruijin, score
from mjfast.tiles import CODES

KINDS = {name: rule_kinds(name) for name in rules.names() if name != "guobiao"}
_FLAGS = ("after_kong", "last_tile", "last_copy", "heavenly", "earthly", "human", "kong_discard", "baozi", "diling")


def _kinds(rng, kinds):
    """A kind set for one hand: all of them, a narrow window of a suit (plus some honours),
    terminals-ish, or 2-5-8 tiles."""
    x = rng.random()
    if x < 0.3:
        return kinds
    if x < 0.7:
        s = int(rng.integers(3))
        lo = int(rng.integers(0, 6))
        ks = [9 * s + i for i in range(lo, lo + int(rng.integers(3, 5)))]
        hon = [t for t in kinds if t >= 27]
        if hon and rng.random() < 0.6:
            ks += [int(t) for t in rng.choice(hon, min(len(hon), int(rng.integers(1, 4))), replace=False)]
        return sorted(set(ks))
    if x < 0.85:
        return [t for t in kinds if t < 27 and t % 9 in (0, 1, 2, 6, 7, 8)] + [t for t in kinds if t >= 27][:2]
    return [t for t in kinds if t < 27 and t % 9 in (1, 4, 7)]


def _contexts(rng, name, n):
    """``n`` WinContexts of random complete hands (some seven pairs, wildcards where the rule has
    them, flowers, random winds and flags); invalid flag combinations are skipped."""
    rule = rules.get(name)
    kinds = list(KINDS[name])
    bonus = [c for c, k in (rule.tileset.bonus or {}).items() for _ in range(k)]
    out = []
    while len(out) < n:
        h = random_hand(rng, _kinds(rng, kinds), rule.calls.chow != "none")
        if rng.random() < 0.15:
            cnt = np.zeros(34, int)
            for k in rng.choice(kinds, 7):
                cnt[k] += 2
            if cnt.max() > 4:
                continue
            h = Hand(" ".join(CODES[i] for i in range(34) for _ in range(cnt[i])))
        conc = [i for i in range(34) for _ in range(int(h.counts[i]))]
        wilds = 0
        if rule.wildcard is not None and rng.random() < 0.3:
            wilds = min(int(rng.integers(1, 4)), len(conc) - 1)
            rng.shuffle(conc)
            conc = conc[wilds:]
        fl = []
        if bonus and rng.random() < 0.6:
            fl = list(rng.choice(bonus, min(len(bonus), int(rng.integers(0, 6))), replace=False))
        h2 = Hand(" ".join(CODES[x] for x in conc), melds=h.melds, bonus=" ".join(fl), wilds=wilds)
        win = conc[rng.integers(len(conc))]
        winner, dealer = int(rng.integers(4)), int(rng.integers(4))
        kw = {f: True for f in _FLAGS if rng.random() < 0.06}
        kw["prevalent_wind"] = int(rng.integers(4))
        try:
            if rng.random() < 0.5:
                kw.pop("kong_discard", None)
                ctx = WinContext(h2, win_tile=win, self_draw=True, winner=winner, dealer=dealer, **kw)
            else:
                kw.pop("after_kong", None)
                d = int((winner + 1 + rng.integers(3)) % 4)
                ctx = WinContext(
                    h2,
                    win_tile=win,
                    discarder=d,
                    winner=winner,
                    dealer=dealer,
                    robbing_kong=bool(rng.random() < 0.2),
                    **kw,
                )
        except ValueError:
            continue
        out.append(ctx)
    return out


def _variants(name):
    """The default rule and one rule per other value of each option."""
    base = rules.get(name)
    out = [base]
    for k, choices in base.option_choices.items():
        for v in choices[1:]:
            out.append(rules.get(name, **{k: v}))
    return out


def _both(fast, full):
    """(fast answer, full answer), or None when both raise the same ValueError."""
    try:
        a = fast()
    except ValueError as e:
        with pytest.raises(ValueError, match=None) as info:
            full()
        assert str(info.value) == str(e)
        return None
    if a is None:
        return None
    return a, full()


@pytest.mark.parametrize("name", sorted(KINDS))
def test_score_matches_full_evaluation(name, seed):
    """score() (shortcut) = the full evaluation, rows and decomposition included: the rows,
    reason and decomposition come from the full evaluation, the total, points, payments and
    legality from the shortcut, so the two must pick equivalent readings."""
    rng = np.random.default_rng(seed)
    ctxs = _contexts(rng, name, 150) + random_contexts(
        rng, list(KINDS[name]), 50, chow_melds=name in ("taicang", "guangdong", "ruijin", "shangrao", "jinhua", "jj")
    )
    for rule in _variants(name):
        for ctx in ctxs:
            try:
                s = score(ctx, rule)
            except ValueError:
                continue
            rows = s.rows
            assert s.legal == (s.reason == "")
            if name in ("suzhou", "taicang", "sichuan", "guiyang", "guangdong"):
                # the rows replay to the total
                t = 0
                for _c, _zh, _en, value, _n, _u, how in rows:
                    t = (
                        t + value
                        if how == "add"
                        else t * value
                        if how == "multiply"
                        else min(t, value)
                        if how == "cap"
                        else value
                    )
                if name != "taicang" or not any(r[0] == "no_flower_concealed" for r in rows):
                    assert t == s.total, (ctx, rows, s.total)
            assert s.payments.sum() == 0
            if s.legal:
                assert s.decomposition is not None or name in ("ruijin", "shangrao")


@pytest.mark.parametrize("name", ["suzhou", "taicang", "sichuan", "guiyang", "guangdong", "jinhua"])
def test_shortcut_matches_full(name, seed):
    """The framework's reading classes give what the reading-by-reading evaluation gives
    (total, points, payments, legality, reason, rows), under every option value; and they do
    answer most hands without listing the readings."""
    rng = np.random.default_rng(seed + 1000)
    ctxs = _contexts(rng, name, 400)
    scheme = importlib.import_module(f"mjfast.scoring.{name}").SCHEME
    n_fast = n = 0
    for rule in _variants(name):
        b = scheme.bound(rule, {})
        for ctx in ctxs:
            got = _both(lambda: b.summary(ctx), lambda: b.summary(ctx, full=True))
            if got:
                fast, full = got
                assert fast[1:] == full[1:], ctx
                n += 1
                n_fast += not fast[0]
    assert n_fast > 0.5 * n > 100  # the classes did answer


def test_guangdong_mixed_reading_beats_hunpeng():
    """111222333m111z55z: 混碰 (4) as pungs, but read as chows 混一色 + 自摸 + 门风 + 圈风 = 5
    under a cap above 4 (the shortcut leaves this to the full evaluation)."""
    ctx = WinContext("111222333m111z55z", win_tile="3m", self_draw=True)
    assert score(ctx, "guangdong").rows[0][0] == "hunpeng"
    for scheme in ("3-6", "2-5"):
        s = score(ctx, "guangdong", cap_scheme=scheme)
        assert (s.total, s.points) == (5, 32)
        assert [r[0] for r in s.rows] == ["hunyise", "zimo", "menfeng", "quanfeng"]
        assert str(s.decomposition).startswith("123m 123m 123m")


def test_jinhua_pengpenghu_and_quanqiuren():
    pung = Hand("222p55s", melds=["111m@left", "999m@right", "777s@opposite"])
    assert score(WinContext(pung, win_tile="2p", discarder=2), "jinhua").total == 4
    assert score(WinContext(pung, win_tile="5s", discarder=2), "jinhua").total == 2  # 单钓
    four = Hand("55s", melds=["111m@left", "999m@right", "777s@opposite", "234p@left"])
    s = score(WinContext(four, win_tile="5s", discarder=3), "jinhua")
    assert s.total == 4 and [r[0] for r in s.rows] == ["pinghu", "quanqiuren"]
    assert score(WinContext(four, win_tile="5s", self_draw=True), "jinhua").total == 2
    qd = WinContext("1133m5577p99s1122z", win_tile="1z", self_draw=True)
    s = score(qd, "jinhua")
    assert s.total == 4 and s.decomposition.form == "seven_pairs"


@pytest.mark.parametrize("mode", ["classic", "bloody"])
def test_jj_integer_payments_match_fractions(mode, seed):
    """The integer settlement of score_jj = :func:`jj.shares` rounded half up."""
    rng = np.random.default_rng(seed + 7)
    ctxs = random_contexts(rng, list(range(34)), 60, chow_melds=True)
    for ctx in ctxs:
        for base in (1, 3, 7, 10):
            try:
                s = score(ctx, "jj", mode=mode, base=base)
            except ValueError:
                continue
            owed = jj.shares(ctx, s.total, mode=mode, base=base)
            pts = [jj._round(x) for x in owed]
            pay = [-x for x in pts]
            pay[ctx.winner] = sum(pts)
            coef = jj.COEFFICIENTS[mode][0 if ctx.self_draw else 1]
            points = jj._round(s.total * Fraction(base) * coef)
            if s.legal:
                assert (s.payments.tolist(), s.points) == (pay, points)
            else:
                assert (s.payments.tolist(), s.points) == ([0, 0, 0, 0], 0)


@pytest.mark.parametrize("name", ["ruijin", "shangrao"])
def test_ruijin_lazy_decomposition(name, seed):
    """The decomposition (built when asked for) is the first reading, as before."""
    rng = np.random.default_rng(seed + 3)
    rule = rules.get(name)
    for ctx in _contexts(rng, name, 150):
        try:
            s = score(ctx, rule)
        except ValueError:
            continue
        readings = ruijin._readings(ctx, rule, name == "ruijin")
        assert s.decomposition == (readings[0] if readings else None)


def test_chows_and_pair(seed):
    """``chows_and_pair`` = some reading of the concealed tiles is all chows."""
    from mjfast.decomposition import decompose_counts

    rng = np.random.default_rng(seed + 11)
    n_true = 0
    for _ in range(400):
        h = random_hand(rng, _kinds(rng, list(range(34))), False)
        want = any(
            all(k == "chow" for k, _f in r[1]) for r in decompose_counts(h.counts, h.n_melds, forms=("standard",))
        )
        assert _framework.chows_and_pair(h.counts.tobytes()) == want, h
        n_true += want
    assert n_true > 10
