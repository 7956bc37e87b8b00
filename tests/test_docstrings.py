"""Run the Examples sections of every module as doctests (the one place they run)."""

import doctest
import importlib

import matplotlib
import pytest

# the plotting examples draw without a screen; user-facing examples never set a backend
matplotlib.use("Agg")


def _modules_with_examples() -> list:
    """Every module of the package whose source holds an example (``>>>``), found by walking the
    package, so that a new module's examples run without being listed here."""
    import pkgutil
    from pathlib import Path

    import mjfast

    names = []
    for info in pkgutil.walk_packages(mjfast.__path__, "mjfast."):
        spec = info.module_finder.find_spec(info.name, None)  # type: ignore[call-arg]
        origin = spec.origin if spec is not None else None
        if origin and origin.endswith(".py") and ">>>" in Path(origin).read_text(encoding="utf-8"):
            names.append(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


def test_every_module_with_examples_is_found():
    """The walk finds the modules (a broken walk would run no example at all)."""
    assert {"mjfast.tiles", "mjfast.scoring.suzhou", "mjfast.simulation.matches", "mjfast.__main__"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
