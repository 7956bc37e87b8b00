"""Chunked, reproducible Monte-Carlo driving: seeds, streams, executors and progress.

Every stochastic public function splits its ``n`` samples into chunks of a fixed size
(:data:`CHUNK_SIZE`, independent of ``n_threads``) and gives chunk ``c`` its own random stream:
child ``c`` of one ``SeedSequence.spawn``, wrapped in an explicit
:class:`numpy.random.PCG64DXSM`.  Chunk ``c`` therefore sees the same numbers whether it runs
in this process on any number of OpenMP threads, or in a ``concurrent.futures`` executor
(a process pool, ``dask.distributed.Client.get_executor()``, ...), so results are identical.

Nothing here knows about mahjong; kernels are passed in as callables.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, as_completed

import numpy as np

#: Samples per chunk (one random stream each).  Changing it changes every seeded result.
CHUNK_SIZE = 1024
#: Chunks per task submitted to an executor.
TASK_CHUNKS = 8
#: Chunks per OpenMP thread in one in-process kernel call (progress ticks between calls).
BATCH_CHUNKS_PER_THREAD = 4


def seed_sequence(rng) -> np.random.SeedSequence:
    """Normalise ``rng`` (SPEC 7) to the root :class:`~numpy.random.SeedSequence` of one call.

    Parameters
    ----------
    rng : None, int, SeedSequence, BitGenerator or Generator
        ``None`` draws fresh OS entropy; an int or a SeedSequence is a seed (the same seed
        gives the same result every time; a SeedSequence is not modified); a Generator or a
        BitGenerator is a source of randomness that advances, so successive calls differ.

    Returns
    -------
    numpy.random.SeedSequence
    """
    if isinstance(rng, np.random.SeedSequence):
        return np.random.SeedSequence(
            rng.entropy, spawn_key=rng.spawn_key, pool_size=rng.pool_size, n_children_spawned=rng.n_children_spawned
        )
    if isinstance(rng, (np.random.Generator, np.random.BitGenerator)):
        bg = rng.bit_generator if isinstance(rng, np.random.Generator) else rng
        ss = getattr(bg, "seed_seq", None)
        if isinstance(ss, np.random.SeedSequence):
            return ss.spawn(1)[0]
        with bg.lock:  # seedless (legacy-seeded) generator: take entropy from its stream
            return np.random.SeedSequence(bg.random_raw(4).tolist())
    if rng is None:
        return np.random.SeedSequence()
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        if rng < 0:
            raise ValueError(f"an integer seed must be non-negative, got {rng}")
        return np.random.SeedSequence(int(rng))
    raise ValueError(
        f"rng must be None, a non-negative int, a SeedSequence, a BitGenerator or a Generator; got {type(rng).__name__}"
    )


def chunk_sizes(n: int, chunk_size: int = CHUNK_SIZE, start: int = 0, stop: int | None = None) -> np.ndarray:
    """Samples per chunk: ``chunk_size`` each, the last one taking the remainder (chunks
    ``start:stop`` of them only, so that a huge run never holds one entry per chunk)."""
    n_chunks = max(0, -(-n // chunk_size))
    stop = n_chunks if stop is None else min(stop, n_chunks)
    sizes = np.full(max(0, stop - start), chunk_size, np.int32)
    if sizes.size and stop == n_chunks:
        sizes[-1] = n - chunk_size * (n_chunks - 1)
    return sizes


def bit_generators(children: Sequence[np.random.SeedSequence]) -> list:
    """One explicit ``PCG64DXSM`` per child stream (never ``default_rng``, whose class may change)."""
    return [np.random.PCG64DXSM(child) for child in children]


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(enabled: bool, total: int, desc: str, unit: str = "sample"):
    """A ``tqdm.auto`` bar counting ``total`` samples (games, runs …), or a no-op when not enabled."""
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm  # a dependency of mjfast; imported only when a bar is asked for

    return tqdm(total=total, desc=desc, unit=unit, unit_scale=total >= 100_000)


def check_executor(executor) -> None:
    if executor is not None and not (isinstance(executor, Executor) or callable(getattr(executor, "submit", None))):
        raise ValueError(f"executor must be a concurrent.futures.Executor (or have .submit), got {executor!r}")


def run_chunks(
    n: int,
    rng,
    *,
    local: Callable[[list, np.ndarray, int], object],
    task: Callable[[list, np.ndarray], object],
    n_threads: int = 1,
    executor=None,
    progress: bool = False,
    desc: str = "mjfast",
    unit: str = "sample",
) -> list:
    """Run ``n`` samples chunk by chunk; return the per-group results in chunk order.

    The list of :func:`iter_chunks` (see there for the parameters).
    """
    return list(
        iter_chunks(
            n,
            rng,
            local=local,
            task=task,
            n_threads=n_threads,
            executor=executor,
            progress=progress,
            desc=desc,
            unit=unit,
        )
    )


def iter_chunks(
    n: int,
    rng,
    *,
    local: Callable[[list, np.ndarray, int], object],
    task: Callable[[list, np.ndarray], object],
    n_threads: int = 1,
    executor=None,
    progress: bool = False,
    desc: str = "mjfast",
    unit: str = "sample",
    in_flight: int | None = None,
    max_batch_chunks: int | None = None,
    chunk_size: int = CHUNK_SIZE,
):
    """Run ``n`` samples chunk by chunk, yielding the per-group results in chunk order.

    Results are handed back as soon as they and every earlier group are done, and at most
    ``in_flight`` executor tasks are pending at once, so a consumer that does not keep the
    results runs in bounded memory however large ``n`` is.  Closing the generator (or an
    interrupt between groups) stops cleanly: pending tasks are cancelled.

    Parameters
    ----------
    n : int
        Samples in total.
    rng
        Anything :func:`seed_sequence` accepts.
    local : callable ``(bitgens, sizes, n_threads) -> result``
        Runs a batch of chunks in this process (chunk ``i`` of the batch uses ``bitgens[i]``).
    task : callable ``(children, sizes) -> result``
        The same for an executor: must be picklable and build its own ``PCG64DXSM`` streams
        from the child ``SeedSequence``s (use :func:`bit_generators`).
    n_threads : int
        Threads for ``local`` (ignored with an executor: each task runs on one thread).
    executor : concurrent.futures.Executor, optional
        Submit one task per group of :data:`TASK_CHUNKS` chunks.
    progress : bool
        Show a ``tqdm.auto`` bar counting the samples of the completed chunks.
    desc, unit : str
        The bar's label and what it counts (``"game"``, ``"run"`` …).
    in_flight : int, optional
        Most executor tasks pending at once (default: 64).
    max_batch_chunks : int, optional
        Most chunks per in-process batch (default: :data:`BATCH_CHUNKS_PER_THREAD` per
        thread, never fewer than one per thread).
    chunk_size : int, default :data:`CHUNK_SIZE`
        Samples per chunk (a sample is what the caller counts: a game, a match ...).

    Yields
    ------
    object
        One result per batch or task, ordered by their first chunk.
    """
    n_chunks = -(-n // chunk_size)
    # children are spawned batch by batch, in chunk order: the same streams as one spawn of
    # them all (SeedSequence numbers its children), without holding one per chunk up front
    root = seed_sequence(rng)
    bar = progress_bar(progress, int(n), desc, unit)

    def samples(start: int, stop: int) -> int:  # samples in chunks start:stop, for the bar
        return min(stop * chunk_size, n) - start * chunk_size

    try:
        if executor is None:
            step = max(1, n_threads) * BATCH_CHUNKS_PER_THREAD
            if max_batch_chunks is not None:
                step = max(max(1, n_threads), min(step, max_batch_chunks))
            for start in range(0, n_chunks, step):
                stop = min(start + step, n_chunks)
                result = local(
                    bit_generators(root.spawn(stop - start)),
                    chunk_sizes(n, chunk_size, start=start, stop=stop),
                    n_threads,
                )
                bar.update(samples(start, stop))
                yield result
            return
        n_tasks = -(-n_chunks // TASK_CHUNKS)
        limit = max(1, in_flight or 64)
        pending: dict = {}
        done: dict = {}
        submitted = 0
        try:
            for i in range(n_tasks):
                while submitted < n_tasks and submitted < i + limit:
                    start = submitted * TASK_CHUNKS
                    stop = min(start + TASK_CHUNKS, n_chunks)
                    pending[submitted] = executor.submit(
                        task, root.spawn(stop - start), chunk_sizes(n, chunk_size, start=start, stop=stop)
                    )
                    submitted += 1
                while i not in done:
                    fut = next(as_completed(pending.values()))
                    j = next(k for k, f in pending.items() if f is fut)
                    done[j] = pending.pop(j).result()
                    bar.update(samples(j * TASK_CHUNKS, min((j + 1) * TASK_CHUNKS, n_chunks)))
                yield done.pop(i)
        except BaseException:
            # an interrupt, an error of a task, or the consumer closing the generator: nothing
            # still queued may run (dask cancels running tasks too; a process pool finishes the
            # ones its workers hold, and their results are dropped)
            for fut in pending.values():
                fut.cancel()
            raise
    finally:
        bar.close()
