"""Arguments are never silently fixed, resources are bounded.

Bad ``wilds`` (1.5, True, "1", 2**70 ...) and ``visible`` counts that would wrap are errors
naming the argument on every entry point; ``n_threads`` has a documented limit (an OpenMP
runtime asked for tens of thousands of threads kills the interpreter), and the default
follows ``OMP_NUM_THREADS`` and the CPU affinity mask; huge sample counts fail at once, and a
huge streamed run holds no per-chunk state up front; interrupted or abandoned executor work
is cancelled."""

import json
import os
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import mjfast as mj
from mjfast import _inputs
from mjfast.simulation import _chunks

C12 = mj.tiles.counts("112345678999m")  # 12 tiles: 13 with one wildcard
C13 = mj.tiles.counts("1112345678999m")
C14 = mj.tiles.counts("1112345678999m5p")
BAD_WILDS = [1.5, True, False, "1", np.float64(1.0), 2**70, -1, 9, [1]]


def _entries():
    return {
        "shanten": lambda w: mj.shanten(C12, wilds=w),
        "shanten(str)": lambda w: mj.shanten("112345678999m", wilds=w),
        "ukeire": lambda w: mj.ukeire(C12, wilds=w),
        "waits": lambda w: mj.waits(C12, wilds=w),
        "yijinting": lambda w: mj.yijinting(C12, wilds=w),
        "improvements": lambda w: mj.improvements(C12, wilds=w),
        "analyze_discards": lambda w: mj.analyze_discards(C13, wilds=w),
        "analyze_discards(raw)": lambda w: mj.analyze_discards(C13, wilds=w, as_frame=False),
        "decompose": lambda w: mj.decompose(C13, wilds=w),
        "simulate_draws": lambda w: mj.simulate_draws(C12, wilds=w, n=10, rng=0, draws_left=2, n_threads=1),
    }


@pytest.mark.parametrize("entry", list(_entries()))
@pytest.mark.parametrize("wilds", BAD_WILDS, ids=repr)
def test_bad_wilds_are_errors_naming_the_argument(entry, wilds):
    """Today's fast path computed ``wilds=1.5`` as 1 and ``True`` as 1 (and 2**70 was an
    OverflowError): every entry point now refuses them, naming ``wilds``."""
    with pytest.raises((ValueError, TypeError), match="wilds"):
        _entries()[entry](wilds)


def test_good_wilds_still_work():
    assert mj.shanten(C12, wilds=1) == mj.shanten(C12, wilds=np.int64(1)) == 0
    assert mj.ukeire(C12, wilds=np.uint8(1)).count == mj.ukeire(mj.Hand(C12, wilds=1, partial=True)).count
    assert mj.shanten(C13, wilds=None) == mj.shanten(C13, wilds=0) == mj.shanten(C13)


@pytest.mark.parametrize("value", [65536, 65535, 256, 5, -1])
def test_visible_counts_never_wrap(value):
    """``visible`` of 65536 used to wrap to 0 (int16): nothing seen."""
    vis = np.full(34, value)
    calls = [
        lambda: mj.ukeire(C13, visible=vis),
        lambda: mj.waits(C13, visible=vis),
        lambda: mj.analyze_discards(C14, visible=vis),
        lambda: mj.simulate_draws(C13, visible=vis, n=10, rng=0, n_threads=1),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="visible"):
            call()
    with pytest.raises(ValueError, match="visible counts must be integers"):
        mj.ukeire(C13, visible=np.full(34, 0.5))


@pytest.mark.parametrize("n_threads", [10**5, 2**40, 1.7, "2", True, -(10**6), 0])
def test_n_threads_outside_the_limit_are_errors(n_threads):
    calls = [
        lambda: mj.shanten_batch(np.stack([C13] * 4), n_threads=n_threads),
        lambda: mj.ukeire_batch(np.stack([C13] * 4), n_threads=n_threads),
        lambda: mj.simulate_games("sichuan", 10, rng=0, n_threads=n_threads),
        lambda: mj.iter_games("sichuan", 10, rng=0, n_threads=n_threads),
        lambda: mj.simulate_draws(C13, n=10, rng=0, n_threads=n_threads),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="n_threads"):
            call()
    if isinstance(n_threads, int) and n_threads > _inputs.thread_limit():
        with pytest.raises(ValueError, match=f"limit of {_inputs.thread_limit()}"):
            _inputs.default_threads(n_threads)


def test_thread_requests_that_crashed_the_interpreter_are_refused_in_a_child():
    """Subprocess-isolated: 10**5 threads was a SIGSEGV in libgomp and 4*10**4 an exit without
    an exception; now a ValueError, while the limit itself works."""
    code = (
        "import numpy as np, mjfast as mj\n"
        "from mjfast import _inputs\n"
        "h = np.stack([mj.Hand('1112345678999m').counts] * 4)\n"
        "out = {}\n"
        "for k in (40_000, 100_000):\n"
        "    try:\n"
        "        mj.shanten_batch(h, n_threads=k); out[k] = 'ran'\n"
        "    except ValueError as e:\n"
        "        out[k] = str(e)\n"
        "out['limit'] = mj.shanten_batch(h, n_threads=_inputs.thread_limit()).tolist()\n"
        "import json; print(json.dumps(out))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    assert "above the limit" in out["40000"] and "above the limit" in out["100000"]
    assert out["limit"] == [0, 0, 0, 0]


def test_default_threads_follow_omp_num_threads_and_affinity(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert _inputs.default_threads(None) == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "3,2")
    assert _inputs.default_threads(None) == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "not a number")
    assert _inputs.default_threads(None) == _inputs.usable_cpus()
    monkeypatch.delenv("OMP_NUM_THREADS")
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("no CPU affinity on this platform")
    code = "from mjfast import _inputs; print(_inputs.default_threads(None), _inputs.default_threads(-1))"
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "1"]


def test_huge_counts_fail_at_once():
    """Today 10**12 games raised MemoryError after 35 s, 2**63 at once, 2**40 draws an
    OverflowError."""
    for call, text in [
        (lambda: mj.simulate_games("sichuan", 10**12, rng=0), "iter_games"),
        (lambda: mj.simulate_games("sichuan", 2**63, rng=0), "at most"),
        (lambda: mj.iter_games("sichuan", 2**41, rng=0), "at most"),
        (lambda: mj.simulate_draws(C13, n=2**41, rng=0), "at most"),
        (lambda: mj.simulate_draws(C13, n=10, draws_left=2**40, rng=0), "draws_left"),
        (lambda: mj.simulate_draws(C13, n=10, draws_left=10**6, rng=0), "draws_left"),
    ]:
        with pytest.raises(ValueError, match=text):
            call()


def test_seed_streams_are_spawned_lazily():
    """A run of 10**12 samples holds nothing per chunk before its first batch (10**9 games
    held 515 MiB of SeedSequences), and the lazily spawned streams are the same as one spawn
    of all of them, in process and through an executor."""
    tracemalloc.start()
    it = _chunks.iter_chunks(10**12, 0, local=lambda b, s, k: (len(b), int(s.sum())), task=None, n_threads=2)
    first = next(it)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    it.close()
    assert first == (8, 8 * _chunks.CHUNK_SIZE) and peak < 5 * 2**20
    n = 37 * _chunks.CHUNK_SIZE + 5
    eager = [np.random.PCG64DXSM(c).random_raw() for c in np.random.SeedSequence(9).spawn(38)]
    local = [
        x
        for part in _chunks.iter_chunks(n, 9, local=lambda b, s, k: [g.random_raw() for g in b], task=None, n_threads=3)
        for x in part
    ]
    with ThreadPoolExecutor(2) as pool:
        remote = [
            x
            for part in _chunks.iter_chunks(
                n, 9, local=None, executor=pool, task=lambda ch, s: [g.random_raw() for g in _chunks.bit_generators(ch)]
            )
            for x in part
        ]
    assert local == remote == eager
    sizes = np.concatenate([_chunks.chunk_sizes(n, start=a, stop=a + 5) for a in range(0, 38, 5)])
    assert sizes.tolist() == _chunks.chunk_sizes(n).tolist() and sizes.sum() == n


class _Recording:
    """An executor that records the futures it hands out."""

    def __init__(self, pool):
        self.pool, self.futures = pool, []

    def submit(self, fn, *args):
        fut = self.pool.submit(fn, *args)
        self.futures.append(fut)
        return fut


def test_abandoned_and_interrupted_executor_work_is_cancelled():
    ran = []

    def task(children, sizes):
        ran.append(len(children))
        time.sleep(0.02)
        return len(children)

    with ThreadPoolExecutor(1) as pool:
        ex = _Recording(pool)
        it = _chunks.iter_chunks(200 * _chunks.CHUNK_SIZE, 0, local=None, task=task, executor=ex, in_flight=10)
        next(it)
        it.close()  # the consumer stops early
    assert all(f.done() for f in ex.futures)
    assert sum(f.cancelled() for f in ex.futures) >= 5 and len(ran) < 10

    def interrupted(children, sizes):
        raise KeyboardInterrupt

    with ThreadPoolExecutor(1) as pool:
        ex = _Recording(pool)
        with pytest.raises(KeyboardInterrupt):
            list(
                _chunks.iter_chunks(
                    200 * _chunks.CHUNK_SIZE, 0, local=None, task=interrupted, executor=ex, in_flight=10
                )
            )
        assert sum(f.cancelled() for f in ex.futures) >= 5


def test_dask_tasks_are_cancelled_when_a_run_stops():
    pytest.importorskip("distributed", reason="dask[distributed] is not installed")
    from _dask import local_client

    with local_client(n_workers=1, processes=False) as client:
        ex = _Recording(client.get_executor())
        it = mj.iter_games("sichuan", 64 * _chunks.CHUNK_SIZE, rng=0, executor=ex, batch_games=1024)
        next(it)
        it.close()

        def waiting(dask_scheduler):  # tasks still to run (finished ones may be kept)
            return sorted(ts.state for ts in dask_scheduler.tasks.values() if ts.state != "memory")

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and client.run_on_scheduler(waiting):
            time.sleep(0.1)
        assert client.run_on_scheduler(waiting) == []
        assert sum(f.cancelled() for f in ex.futures) >= 1
