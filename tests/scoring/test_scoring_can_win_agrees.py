"""can_win agrees with score on every context: it raises where score raises (the same error),
answers False exactly where score raises NotComplete, and otherwise answers score's ``legal``.

The contexts are fuzzed, well beyond what a game produces: complete and broken hands, kinds the
rule lacks, wildcards and flowers where the rule has none, every win flag, liable seats, fixed
wildcard faces, flipped indicators, rule state, rule options and scorer keywords with valid and
invalid values.  ``MJFAST_ORACLE_SCALE=full`` runs 100,000 contexts per rule.
"""

import os

import numpy as np
import pytest
from _hands import random_hand, rule_kinds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjfast import Hand, rules
from mjfast.scoring import WIN_FLAGS, NotComplete, WinContext, can_win, score
from mjfast.tiles import CODES

FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"
N = 100_000 if FULL else 250

_FLAGS = WIN_FLAGS
#: Scorer keywords per rule, each with valid and invalid values.
_KEYWORDS = {
    "suzhou": {"base": (5, 1, 0, 2.5)},
    "taicang": {"base": (5, 3, -1), "max_payment": (100, 40, 3, 0)},
    "guangdong": {"base": (1, 4, 0), "winners": (1, 2, 3, 4)},
    "sichuan": {"base": (6, 1, 0), "won": ((), (1,), (2, 3), (0, 1, 2)), "kong_income": (0, 6, -1)},
    "guiyang": {"base": (1, 2, 0), "lianzhuang": (0, 1, 3, -1)},
    "ruijin": {"base": (1, 10, 0)},
    "shangrao": {"base": (1, 10, 0), "fei_mult": (2, 3, 0)},
    "jinhua": {"base": (1, 2, 0)},
    "guobiao": {"flowers": (False, True, 1)},
    "jj": {
        "mode": ("classic", "bloody", "other"),
        "base": (10, 1),
        "flowers": (False, True),
        "hun_kind": (None, "5z", "F1"),
        "out": ((), (1,)),
    },
}


def _concealed(h):
    return [t for t in range(34) for _ in range(int(h.counts[t]))]


def _context(r, name):
    """A fuzzed context and options for ``name`` from ``r`` (a random.Random), or None when
    WinContext itself rejects what was drawn (that is WinContext's business, tested elsewhere)."""
    rule = rules.get(name)
    kinds = rule_kinds(name)
    if r.random() < 0.1:
        kinds = list(range(34))  # kinds the rule may lack
    nprng = np.random.default_rng(r.getrandbits(32))
    h = random_hand(nprng, kinds, chow_melds=r.random() < 0.5)
    conc = _concealed(h)
    if r.random() < 0.15:  # seven pairs
        ks = r.sample(kinds, 7) if r.random() < 0.8 else r.sample(kinds, 6) + [kinds[0]]
        conc = sorted(k for k in ks for _ in range(2))
        if max(conc.count(k) for k in conc) > 4:
            return None
        h = Hand(" ".join(CODES[k] for k in conc))
    if r.random() < 0.25:  # break the hand: one tile swapped
        i = r.randrange(len(conc))
        conc[i] = r.choice(kinds)
    wilds = 0
    if r.random() < (0.35 if rule.wildcard is not None else 0.05):
        wilds = min(r.randint(1, 3), len(conc) - 1)
        r.shuffle(conc)
        conc = conc[wilds:]
    bonus = []
    if r.random() < 0.4:
        faces = [c for c, k in rule.tileset.bonus.items() for _ in range(k)]
        faces = faces if faces and r.random() < 0.8 else list(CODES[34:42])
        bonus = r.sample(faces, min(len(faces), r.randint(1, 4)))
    try:
        hand = Hand(" ".join(CODES[k] for k in sorted(conc)), melds=h.melds, wilds=wilds, bonus=" ".join(bonus))
    except ValueError:
        return None
    win = r.choice(_concealed(hand) or [0])
    winner, dealer = r.randrange(4), r.randrange(4)
    kw = {f: True for f in _FLAGS if r.random() < 0.08}
    self_draw = r.random() < 0.5
    if self_draw:
        kw["self_draw"] = True
    else:
        kw["discarder"] = (winner + r.randint(1, 3)) % 4
    if r.random() < 0.15:
        kw["liable"] = r.randrange(4)
    if wilds and r.random() < 0.3:
        kw["wild_faces"] = tuple(r.choice(kinds) for _ in range(r.randint(1, wilds)))
    if r.random() < 0.2:
        faces = (
            rule.wildcard.flippable
            if rule.wildcard is not None and rule.wildcard.selection != "per_game"
            else CODES[:42]
        )
        kw["flipped"] = r.choice(faces)
    if r.random() < 0.15:
        kw["rule_state"] = {r.choice(("fei", "win_is_wild", "other")): r.choice((None, True, False, 2))}
    kw["prevalent_wind"] = r.randrange(4)
    try:
        ctx = WinContext(hand, win_tile=win, winner=winner, dealer=dealer, **kw)
    except ValueError:
        return None
    options = {}
    for key, allowed in rule.option_choices.items():
        if r.random() < 0.3:
            options[key] = r.choice(allowed)
    for key, values in _KEYWORDS[name].items():
        if r.random() < 0.3:
            options[key] = r.choice(values)
    if r.random() < 0.03:
        options["no_such_option"] = 1
    return ctx, options


def _outcome(fn, ctx, name, options):
    try:
        return "value", fn(ctx, name, **options)
    except NotComplete as e:
        return "not complete", str(e)
    except ValueError as e:
        return "error", str(e)


@pytest.mark.parametrize("name", rules.names())
@settings(
    max_examples=N,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(r=st.randoms(use_true_random=False))
def test_can_win_agrees_with_score(name, r):
    drawn = _context(r, name)
    if drawn is None:
        return
    ctx, options = drawn
    how, s = _outcome(score, ctx, name, options)
    how_c, c = _outcome(can_win, ctx, name, options)
    assert how_c != "not complete", "can_win let NotComplete through"
    if how == "value":
        assert (how_c, c) == ("value", s.legal), (ctx, options)
    elif how == "not complete":
        assert (how_c, c) == ("value", False), (ctx, options, s)
    else:
        assert how_c == "error", (ctx, options, s)
