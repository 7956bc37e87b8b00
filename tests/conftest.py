"""Shared fixtures: a seed fixture (fixed by default, ``MJFAST_TESTS_SEED=all`` sweeps 0-99).

Shared helpers (random hands and winning contexts) live in ``tests/_hands.py``, importable from
every test folder and from ``bench/``."""
import os

import pytest


def _seeds():
    env = os.environ.get("MJFAST_TESTS_SEED", "42")
    if env == "all":
        return list(range(100))
    return [int(x) for x in env.split(",")]


@pytest.fixture(params=_seeds())
def seed(request):
    return request.param
