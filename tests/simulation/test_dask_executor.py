"""Reproducibility through a Dask cluster: ``client.get_executor()`` is just another executor, so
the same ``rng`` gives the same games and the same draw curves as a local run."""

import pandas as pd
import pytest
from _dask import local_client

import mjfast as mj
from mjfast.simulation.games import simulate_games

distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed")


@pytest.fixture(scope="module")
def dask_executor():
    with local_client() as client:
        yield client.get_executor()


@pytest.mark.parametrize("rule, options", [("sichuan", {"xuezhan": True}), ("taicang", {})])
def test_games_through_dask_equal_local(dask_executor, rule, options):
    local = simulate_games(rule, 2100, rng=11, n_threads=2, **options)
    remote = simulate_games(rule, 2100, rng=11, executor=dask_executor, **options)
    pd.testing.assert_frame_equal(local, remote)


def test_draws_through_dask_equal_local(dask_executor):
    hand = mj.Hand("11p34567m45s9p", melds=["444z"])  # 苏州: 中发白 are flowers, 北 is not
    local = mj.simulate_draws(hand, n=3000, rng=5, n_threads=2, rule="suzhou")
    remote = mj.simulate_draws(hand, n=3000, rng=5, executor=dask_executor, rule="suzhou")
    pd.testing.assert_frame_equal(local, remote)


def test_matches_through_dask_equal_local(dask_executor):
    """Whole matches (hands played in a row per chunk) come back the same from Dask workers; the
    Rule travels as itself."""
    rule = mj.rules.get("guangdong", draw="pass")
    local = mj.simulate_matches(rule, 130, hands=3, rng=12, n_threads=2)
    remote = mj.simulate_matches(rule, 130, hands=3, rng=12, executor=dask_executor)
    pd.testing.assert_frame_equal(local, remote)
