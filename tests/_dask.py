"""A local Dask cluster for the tests that run simulations through ``client.get_executor()``."""

import contextlib
import warnings


@contextlib.contextmanager
def local_client(n_workers=2, processes=True):
    """A ``distributed.Client`` on a fresh local cluster of one-thread workers, closed on exit.

    The cluster's own start-up and shutdown chatter (ports, dashboards) is silenced: it is not
    what the tests check.  Callers skip first when ``distributed`` is not installed."""
    import distributed

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=processes, dashboard_address=None, silence_logs=40
        )
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()
