"""The efficiency discard policy (``_kernels/_policy.pxd``) as the wall kernel plays it, against
the pure-Python twin :func:`mjfast._reference.wall.replay_draws`, on random hands of both of the
policy's paths: the table path (every kind natural with 4 copies, no wildcards) and the path
through the shanten kernel (a called meld lowers a kind's cap; 四川's 缺一门).  Memo tables of
16 slots, cleared every few hands, must give the same games as the default ones."""

import numpy as np
import pytest
from _hands import random_hands

import mjfast as mj
from mjfast._kernels import _wall
from mjfast._reference.wall import replay_draws
from mjfast.simulation import _chunks
from mjfast.simulation import draws as sim


def _hands(seed):
    """Random 13- and 14-tile hands without a rule, with a called pung, and under 四川."""
    rng = np.random.default_rng(seed)
    counts, _ = random_hands(rng, 4, [13, 14])
    out = [(mj.Hand(c), None) for c in counts]
    # a called pung of a kind the hand lacks: its cap drops to 1, so the table path is off
    counts, _ = random_hands(rng, 2, [10, 11])
    for c in counts:
        k = int(rng.choice(np.flatnonzero(c == 0)))
        code = mj.tiles.CODES[k]
        out.append((mj.Hand(c, melds=[mj.Meld.parse(code[0] * 3 + code[1])]), None))
    sichuan = np.r_[np.full(27, 4), np.zeros(7, int)]
    counts, _ = random_hands(rng, 2, [13, 14], copies=sichuan)
    out += [(mj.Hand(c), "sichuan") for c in counts]
    return out


@pytest.mark.parametrize("tiny", [False, True], ids=["default_memo", "tiny_memo"])
def test_wall_policy_matches_python_twin(seed, tiny):
    draws_left = 8
    children = np.random.SeedSequence(seed).spawn(2)
    sizes = np.array([5, 4], np.int32)
    for hand, rule in _hands(seed):
        spec = sim._setup(hand, rule, None, (), None, None, None)
        cache = _wall.PolicyCache(2, 4, 4) if tiny else _wall.PolicyCache(2)
        _, ready, win, *_ = sim._run(spec, draws_left, _chunks.bit_generators(children), sizes, 2, cache)
        ready_ref, win_ref, _ = replay_draws(hand, rule, None, draws_left, children, sizes)
        np.testing.assert_array_equal(ready, ready_ref, err_msg=f"{hand} {rule}")
        np.testing.assert_array_equal(win, win_ref, err_msg=f"{hand} {rule}")


def test_wall_kernel_refuses_more_than_fourteen_tiles():
    spec = sim._setup("123456789m1234p", None, None, (), None, None, None)
    spec["wilds"] = 3  # 16 tiles: beyond every form
    with pytest.raises(ValueError, match="at most 14 tiles"):
        sim._run(spec, 4, [], np.zeros(0, np.int32), 1, _wall.PolicyCache(1))
