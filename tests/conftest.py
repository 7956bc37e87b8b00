"""Shared fixtures: a seed fixture (fixed by default, ``MJFAST_TESTS_SEED=all`` sweeps 0-99) and
the scorer registry kept whole between tests.

Shared helpers (random hands and winning contexts, the Score invariants, a rule's kinds) live in
``tests/_hands.py``, importable from every test folder and from ``bench/``."""

import os

import pytest

from mjfast.scoring import _core

# every registration made on import, restored before each test in case a test dropped one
_REGISTERED = dict(_core._SCORERS)


def _seeds():
    env = os.environ.get("MJFAST_TESTS_SEED", "42")
    if env == "all":
        return list(range(100))
    return [int(x) for x in env.split(",")]


@pytest.fixture(params=_seeds())
def seed(request):
    return request.param


@pytest.fixture(autouse=True)
def _registered_scorers():
    """Put back any built-in scorer another test took out of the registry."""
    if any(_core._SCORERS.get(k) is not v for k, v in _REGISTERED.items()):
        for k, v in _REGISTERED.items():
            _core.register(k, *v[:2], bind=v[2], replace=True)
    yield


@pytest.fixture(scope="module")
def forget_variants():
    """Take the rule variants a test module registers out of every registry when it is done
    (``pytestmark = pytest.mark.usefixtures("forget_variants")``)."""
    from mjfast import rules
    from mjfast.rules import _variants

    before = set(rules._REGISTRY)
    yield
    for name in set(rules._REGISTRY) - before:
        rules._REGISTRY.pop(name)
        _variants._ENTRIES.pop(name, None)
        _core._SCORERS.pop(name, None)
        rules._base._VARIANT_SPECS.pop(name, None)
    _core._RESOLVED.clear()
    _core._RESOLVED_ID.clear()
