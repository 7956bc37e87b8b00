"""How this mjfast was built and what it runs with: :func:`show_config`.

A build without OpenMP says so once, at import (:func:`warn_without_openmp`): every
``n_threads`` then runs on one thread.
"""
from __future__ import annotations

import os
import platform
import sys
import warnings
from typing import Any

import numpy as np


def config() -> dict:
    """The facts :func:`show_config` prints, as nested dicts."""
    from . import __version__, _inputs
    from ._kernels import _shanten, _tables

    tables = _tables.load_tables()
    status = dict(_tables.STATUS)
    sizes: dict[str, dict[str, Any]]
    sizes = {name: {"shape": list(a.shape), "dtype": str(a.dtype), "MiB": round(a.nbytes / 2**20, 2)}
             for name, a in tables.items()}
    return {
        "mjfast": __version__,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "platform": platform.platform(),
        "openmp": bool(_shanten.OPENMP),
        "threads": {
            "default": _inputs.default_threads(None),
            "usable_cpus": _inputs.usable_cpus(),
            "limit": _inputs.thread_limit(),
            "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
        },
        "cache": {
            "folder": status.get("folder"),
            # "cache": read from the verified cache; "built": built and cached by this process;
            # "memory": built in memory (the cache was not usable: see "problem")
            "tables_from": status.get("source"),
            "problem": status.get("problem"),
            "builder": status.get("builder"),
            "load_seconds": round(status.get("seconds", 0.0), 3),
        },
        "tables": sizes,
        "tables_MiB": round(sum(s["MiB"] for s in sizes.values()), 1),
    }


def show_config(mode: str = "stdout"):
    """Print (or return) how mjfast was built and what it runs with.

    Parameters
    ----------
    mode : {"stdout", "dicts"}
        Print a summary, or return the facts as a dict.

    Returns
    -------
    None or dict
        With ``mode="dicts"``: ``mjfast``, ``python``, ``numpy``, ``platform``; ``openmp``
        (whether the kernels were compiled with OpenMP; without it every ``n_threads`` runs on
        one thread); ``threads`` (``default``: what ``n_threads=None`` resolves to --
        ``OMP_NUM_THREADS`` if set, else the CPUs of the affinity mask --, ``usable_cpus``,
        ``limit``: the most ``n_threads`` accepted); ``cache`` (the table folder, whether the
        tables came from it, were built and cached, or were built in memory, and why);
        ``tables`` (shape, dtype and MiB of each table) and ``tables_MiB``.

    Examples
    --------
    >>> import mjfast as mj
    >>> cfg = mj.show_config(mode="dicts")
    >>> sorted(cfg)
    ['cache', 'mjfast', 'numpy', 'openmp', 'platform', 'python', 'tables', 'tables_MiB', 'threads']
    >>> cfg["threads"]["default"] <= cfg["threads"]["limit"], cfg["tables_MiB"]
    (True, 47.3)
    >>> mj.show_config()  # doctest: +ELLIPSIS
    mjfast ...
    OpenMP: ...
    threads: default ..., usable CPUs ..., limit ...
    table cache: ...
    tables: 47.3 MiB (suit_natural 18.63, ...)
    """
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"mode must be 'stdout' or 'dicts', got {mode!r}")
    cfg = config()
    if mode == "dicts":
        return cfg
    t, c = cfg["threads"], cfg["cache"]
    omp = "yes" if cfg["openmp"] else "NO (n_threads > 1 runs on one thread)"
    print(f"mjfast {cfg['mjfast']} (Python {cfg['python']}, NumPy {cfg['numpy']}, {cfg['platform']})")
    print(f"OpenMP: {omp}")
    print(f"threads: default {t['default']}"
          + (f" (OMP_NUM_THREADS={t['OMP_NUM_THREADS']})" if t["OMP_NUM_THREADS"] else "")
          + f", usable CPUs {t['usable_cpus']}, limit {t['limit']}")
    source = {"cache": "read from the cache", "built": "built and cached",
              "memory": "built in memory, not cached"}.get(c["tables_from"], c["tables_from"])
    print(f"table cache: {c['folder']} ({source}" + (f": {c['problem']}" if c["problem"] else "") + ")")
    print(f"tables: {cfg['tables_MiB']} MiB ("
          + ", ".join(f"{k} {v['MiB']:.2f}" for k, v in cfg["tables"].items()) + ")")
    return None


def warn_without_openmp(openmp: bool) -> None:
    """Warn (once, at import) that the kernels were built without OpenMP."""
    if not openmp:
        warnings.warn("mjfast was built without OpenMP: every n_threads runs on one thread (a compiler with "
                      "OpenMP, e.g. gcc, builds the parallel kernels; mjfast.show_config() shows the build)",
                      RuntimeWarning, stacklevel=3)
