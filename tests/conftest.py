"""Shared fixtures: a seed fixture (fixed by default, ``MJFAST_TESTS_SEED=all`` sweeps 0-99)."""
import os

import numpy as np
import pytest


def _seeds():
    env = os.environ.get("MJFAST_TESTS_SEED", "42")
    if env == "all":
        return list(range(100))
    return [int(x) for x in env.split(",")]


@pytest.fixture(params=_seeds())
def seed(request):
    return request.param


def random_hands(rng, n, sizes, copies=None):
    """``n`` random concealed hands drawn from a wall (``copies`` per kind, default 4 each).

    ``sizes`` is a sequence of tile counts to pick from uniformly per hand.
    """
    copies = np.full(34, 4) if copies is None else np.asarray(copies)
    wall = np.repeat(np.arange(34), copies)
    out = np.zeros((n, 34), np.uint8)
    sz = rng.choice(np.asarray(sizes), n)
    for i in range(n):
        np.add.at(out[i], rng.choice(wall, sz[i], replace=False), 1)
    return out, sz
