"""国标 and JJ on the scorer framework: the element table is the one home of the fans' names and
values (the compiled fan search and its twin read the same table), the rows a Score shows are
the table's rows of the fans the search found and replay to its total, and a variant's values
and switched-off fans change exactly their rows, the total and the minimum."""

import random
import re

import pytest
from _hands import check_invariants, replay
from test_scoring_guobiao import random_win

from mjfast import rules
from mjfast._reference import mcr as twin
from mjfast.scoring import _fans as M
from mjfast.scoring import can_win, guobiao, jj, score
from mjfast.scoring._framework import Scheme

RULES = {"guobiao": guobiao, "jj": jj}


#: The variants this module registers are taken out of the registries afterwards.
pytestmark = pytest.mark.usefixtures("forget_variants")


def test_the_table_is_the_fan_table():
    """Every fan of the MCR table is an element of both schemes, with its code, names and value;
    the 国标 table adds the 联众 hands (replacing the fans), JJ its 混杠."""
    by_id = {M.FAN_CODE[i]: i for i in range(1, M.N_FANS)}
    for name, mod in RULES.items():
        assert isinstance(mod.SCHEME, Scheme) and mod.SCHEME.name == name
        els = {e.code: e for e in mod.SCHEME.elements}
        assert set(by_id) <= set(els)
        for code, i in by_id.items():
            e = els[code]
            assert (e.zh, e.en, e.value, e.how) == (M.FAN_NAME_ZH[i], M.FAN_NAME_EN[i], M.FAN_VALUE[i], "add")
        extra = [c for c in els if c not in by_id]
        assert extra == (
            ["four_winds_and_green", "heavenly_hand", "earthly_hand", "human_hand"]
            if name == "guobiao"
            else ["hun_gang"]
        )
    t = guobiao.fan_table()
    assert t.code.tolist() == list(M.FAN_CODE[1:]) and t.value.tolist() == list(M.FAN_VALUE[1:])


def _twin_rows(ctx, rule, flowers):
    """The fans the pure-Python twin finds, as {code: count}, the flowers added."""
    found = guobiao._compute(ctx, guobiao._options(rule), pure_python=True)
    if found is None:
        return None
    fans = bytearray(found[1])
    if rule.options["sigang_angang"] and fans[M.FOUR_KONGS]:
        fans[M.CONCEALED_KONG] += sum(m.kind == "concealed_kong" for m in ctx.hand.melds)
    got = {M.FAN_CODE[i]: fans[i] for i in range(1, M.N_FANS) if fans[i] and i != M.FLOWER_TILES}
    if flowers and ctx.hand.bonus:
        got["flower_tiles"] = len(ctx.hand.bonus)
    assert twin.fan_total(found[1]) == found[0]
    return got


def test_rows_are_the_twins_fans_and_replay_to_the_total(seed):
    """On random wins under random options, the Score's rows (their codes, counts and the
    table's values) are the fans the pure-Python twin finds, and they replay to the total."""
    rng = random.Random(seed + 40)
    choices = {k: v for k, v in rules.get("guobiao").option_choices.items() if k not in ("tileset", "lianzhong_extras")}
    for _ in range(1500):
        ctx, flowers, _args = random_win(rng)
        rule = rules.get("guobiao", **{k: rng.choice(v) for k, v in choices.items()})
        s = check_invariants(score(ctx, rule, flowers=flowers))
        expected = _twin_rows(ctx, rule, flowers)
        assert {r[0]: r[4] for r in s.rows} == expected
        for code, _zh, _en, value, n, unit, how in s.rows:
            i = M.FAN_CODE.index(code)
            assert (value, unit, how) == (M.FAN_VALUE[i] * n, "番", "add")
        assert (
            s.legal
            == (s.total - expected.get("flower_tiles", 0) >= guobiao.MIN_FAN)
            == can_win(ctx, rule, flowers=flowers)
        )


@pytest.mark.parametrize("name", ["guobiao", "jj"])
def test_random_variant_values_reprice_exactly_their_rows(name, seed):
    """A variant with random values for a dozen fans (and a few switched off) scores every hand
    with the base's fans: the changed rows at the new values, the switched-off ones gone, every
    other row as it was; the total is the rows replayed and the minimum is taken on it."""
    rng = random.Random(seed + 41 + len(name))
    codes = [e.code for e in RULES[name].SCHEME.elements if e.how == "add"]
    for k in range(3):
        changed = {c: rng.randrange(0, 40) for c in rng.sample(codes, 12)}
        off = [c for c in rng.sample(codes, 3) if c not in changed]
        v = rules.variant(name, f"{name}_fuzz_{seed % 1000}_{k}", values=changed, elements=dict.fromkeys(off))
        minimum = guobiao.MIN_FAN if name == "guobiao" else jj.MIN_FAN
        for _ in range(300):
            ctx, flowers, _args = random_win(rng)
            try:
                b = score(ctx, name, flowers=flowers)
            except ValueError as e:  # (JJ: a chow called from another seat than 上家)
                with pytest.raises(type(e), match="^" + re.escape(str(e)) + "$"):
                    score(ctx, v, flowers=flowers)
                continue
            s = check_invariants(score(ctx, v, flowers=flowers))
            want = []
            for code, zh, en, value, n, unit, how in b.rows:
                if code in off:
                    continue
                if code in changed:
                    value = changed[code] * n
                want.append((code, zh, en, value, n, unit, how))
            assert s.rows == want
            assert s.total == replay(want)
            plain = s.total - sum(r[3] for r in s.rows if r[0] == "flower_tiles")
            assert s.legal == (plain >= minimum) == can_win(ctx, v, flowers=flowers)
            if s.legal:  # (JJ: 番 × 10 × 1.5 on a self-draw, × 1 on a discard)
                assert s.points == (8 + s.total if name == "guobiao" else s.total * (15 if ctx.self_draw else 10))


@pytest.mark.parametrize("name", rules.names())
def test_scores_of_every_rule_pickle(name):
    """A Score pickles with what its lazy parts read (rows, decomposition), for every rule on the
    framework (a process pool or a Dask worker may return one)."""
    import pickle

    import numpy as np
    from _hands import random_contexts, rule_kinds

    done = 0
    for ctx in random_contexts(np.random.default_rng(7), rule_kinds(name), 30):
        try:
            s = score(ctx, name)
        except ValueError:
            continue
        t = pickle.loads(pickle.dumps(s))
        assert (t.rule, t.total, t.points, t.legal, t.reason, t.rows, t.decomposition) == (
            s.rule,
            s.total,
            s.points,
            s.legal,
            s.reason,
            s.rows,
            s.decomposition,
        )
        assert t.payments.tolist() == s.payments.tolist()
        done += 1
    assert done
