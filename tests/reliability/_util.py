"""Helpers of the reliability tests: child processes, private table caches, corruptions."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
PROBE = HERE / "_probe.py"
FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"


def child_env(cache_root, **extra) -> dict:
    env = dict(os.environ)
    env["MJFAST_CACHE_DIR"] = str(cache_root)
    env.pop("PYTHONWARNINGS", None)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def run_probe(cache_root, n_hands=30, timeout=300, prefix=(), **extra) -> dict:
    """Run :mod:`_probe` in a child process; its JSON record (asserts a clean exit)."""
    proc = subprocess.run(
        [*prefix, sys.executable, str(PROBE), str(n_hands)],
        env=child_env(cache_root, **extra),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, f"probe exited with {proc.returncode}:\n{proc.stderr[-3000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def write_good_cache(cache_root) -> Path:
    """A valid cache for this builder under ``cache_root`` (from this process's verified tables)."""
    from mjfast._kernels import _tables

    folder = Path(cache_root) / _tables.table_folder().name
    folder.mkdir(parents=True, exist_ok=True)
    _tables._write(folder, _tables.load_tables())
    return folder


def leftovers(folder) -> list:
    """Temporary files of a writer still in the folder."""
    return sorted(p.name for p in Path(folder).iterdir() if p.name.endswith(".tmp"))


# -- corruptions --------------------------------------------------------------------------


def _data_offset(path) -> int:
    with open(path, "rb") as fh:
        version = np.lib.format.read_magic(fh)
        (np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0)(fh)
        return fh.tell()


def _rewrite_data(path, make):
    """Keep the .npy header, replace the data by ``make(n_bytes)``."""
    start = _data_offset(path)
    size = os.path.getsize(path) - start
    with open(path, "r+b") as fh:
        fh.seek(start)
        fh.write(make(size))


def _replace(path, fn):
    os.unlink(path)
    fn(path)


def corrupt(folder, kind: str, table: str, rng) -> None:
    """Damage ``table`` (or the manifest) of the cache ``folder`` the way ``kind`` says."""
    from mjfast._kernels import _tables

    folder = Path(folder)
    path = folder / f"{table}.npy"
    good = _tables.load_tables()[table]
    if kind == "zero_data":
        _rewrite_data(path, lambda n: bytes(n))
    elif kind == "ff_data":
        _rewrite_data(path, lambda n: b"\xff" * n)
    elif kind == "random_data":
        _rewrite_data(path, lambda n: rng.integers(0, 256, n, dtype=np.uint8).tobytes())
    elif kind == "flip_bits":
        size = os.path.getsize(path)
        with open(path, "r+b") as fh:
            for _ in range(int(rng.integers(1, 4))):
                pos = int(rng.integers(0, size))
                fh.seek(pos)
                b = fh.read(1)[0]
                fh.seek(pos)
                fh.write(bytes([b ^ (1 << int(rng.integers(0, 8)))]))
    elif kind == "truncate_half":
        os.truncate(path, os.path.getsize(path) // 2)
    elif kind == "truncate_100":
        os.truncate(path, 100)
    elif kind == "empty":
        os.truncate(path, 0)
    elif kind == "zero_file":
        size = os.path.getsize(path)
        with open(path, "wb") as fh:
            fh.write(bytes(size))
    elif kind == "wrong_dtype":
        np.save(path, good.astype(np.int64))
    elif kind == "fortran":
        np.save(path, np.asfortranarray(good))
    elif kind == "wrong_shape":
        np.save(path, good[:-1])
    elif kind == "pickled":
        np.save(path, np.array([good], dtype=object), allow_pickle=True)
    elif kind == "delete":
        os.unlink(path)
    elif kind == "fifo":
        _replace(path, os.mkfifo)
    elif kind == "folder":
        _replace(path, lambda p: (os.mkdir(p), open(os.path.join(p, "x"), "w").close()))
    elif kind == "symlink_zero":
        _replace(path, lambda p: os.symlink("/dev/zero", p))
    elif kind == "symlink_sibling":
        # a valid table of the same shape and dtype, but not this one
        other = {
            "suit_natural": "suit_unlimited",
            "suit_unlimited": "suit_natural",
            "honor_natural": "honor_unlimited",
            "honor_unlimited": "honor_natural",
        }.get(table)
        target = folder / f"{other}.npy" if other else Path("/dev/urandom")
        _replace(path, lambda p: os.symlink(target, p))
    elif kind == "manifest_empty":
        os.truncate(folder / _tables.MANIFEST, 0)
    elif kind == "manifest_garbage":
        (folder / _tables.MANIFEST).write_bytes(rng.integers(0, 256, 300, dtype=np.uint8).tobytes())
    elif kind == "manifest_delete":
        os.unlink(folder / _tables.MANIFEST)
    elif kind in ("manifest_builder", "manifest_hash"):
        m = json.loads((folder / _tables.MANIFEST).read_text())
        if kind == "manifest_builder":
            m["builder"] = "0-000000000000"
        else:
            m["tables"][table]["sha256"] = "0" * 64
        (folder / _tables.MANIFEST).write_text(json.dumps(m))
    else:
        raise ValueError(kind)


#: Corruptions of one table file.
FILE_KINDS = (
    "zero_data",
    "ff_data",
    "random_data",
    "flip_bits",
    "truncate_half",
    "truncate_100",
    "empty",
    "zero_file",
    "wrong_dtype",
    "fortran",
    "wrong_shape",
    "pickled",
    "delete",
    "fifo",
    "folder",
    "symlink_zero",
    "symlink_sibling",
)
#: Corruptions of the manifest (the table argument names the entry edited by manifest_hash).
MANIFEST_KINDS = ("manifest_empty", "manifest_garbage", "manifest_delete", "manifest_builder", "manifest_hash")


def restore(good_folder, folder, table) -> None:
    """Put the good copy of ``table`` and of the manifest back in ``folder``."""
    from mjfast._kernels import _tables

    for name in (f"{table}.npy", _tables.MANIFEST):
        dst = Path(folder) / name
        if dst.is_dir() and not dst.is_symlink():
            shutil.rmtree(dst)
        elif dst.exists() or dst.is_symlink():
            dst.unlink()
        shutil.copy2(Path(good_folder) / name, dst)


def have_ro_mount() -> bool:
    """Whether ``unshare -m`` can bind-mount a folder read-only for a child (needs root)."""
    if not shutil.which("unshare") or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(
            read_only_prefix(d) + ["sh", "-c", 'touch "$0/x" 2>/dev/null && exit 1 || exit 0', d], capture_output=True
        )
        return r.returncode == 0 and not os.path.exists(os.path.join(d, "x"))


def read_only_prefix(folder) -> list:
    """A command prefix that runs the rest of the command with ``folder`` mounted read-only."""
    return ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"', str(folder)]
