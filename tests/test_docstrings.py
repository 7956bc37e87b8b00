"""Run the Examples sections of the public modules as doctests (against the installed package)."""
import doctest
import importlib

import matplotlib
import pytest

# the plotting examples draw without a screen; user-facing examples never set a backend
matplotlib.use("Agg")

MODULES = ["mjfast.shape", "mjfast.efficiency", "mjfast.tiles", "mjfast.hand", "mjfast.rules", "mjfast.decomposition",
           "mjfast.analysis.calls", "mjfast.analysis.payout", "mjfast.analysis.plotting",
           "mjfast.simulation.draws", "mjfast.scoring._core", "mjfast.scoring.guobiao",
           "mjfast.simulation.games", "mjfast.policies", "mjfast._display",
           "mjfast._config"]


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
