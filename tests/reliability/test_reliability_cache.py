"""The table cache is verified, never trusted.

Every damaged, incomplete, foreign or unwritable cache the audit used (and more) is tried in a
child process: ``import mjfast`` always succeeds, with one ``CacheWarning`` where the cache was
not usable as found, every answer afterwards equals the answers of a good cache (which the
pure-Python twins confirm), and the cache is repaired where it can be written.  The
corruption sweep runs every corruption of every file (and >= 100 random bit flips) end to end
under ``MJFAST_ORACLE_SCALE=full``; CI runs the detection of all of them in process and a few
end to end."""

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import _util
import numpy as np
import pytest
from _util import FILE_KINDS, FULL, MANIFEST_KINDS, corrupt, leftovers, restore, run_probe

from mjfast._kernels import _efficiency, _shanten, _tables

TABLES = tuple(_tables.TABLE_SHAPES)
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A valid cache folder (written from this process's verified tables); never modified."""
    return _util.write_good_cache(tmp_path_factory.mktemp("good"))


@pytest.fixture(scope="module")
def expected(good):
    """The probe's answers with the good cache (the reference for every other probe)."""
    rec = run_probe(good.parent)
    assert rec["status"]["source"] == "cache", rec["status"]
    assert rec["warnings"] == []
    return rec["answers"]


def copy_of(good, root) -> Path:
    dst = Path(root) / good.name
    shutil.copytree(good, dst)
    return dst


def test_probe_answers_are_the_twins(expected):
    """The reference answers agree with the pure-Python twins (shanten with wildcards, 进张)."""
    from mjfast import _reference as R
    from mjfast.tiles import counts

    checked = 0
    for row in expected[:9]:
        kind, mpsz, wilds, s = row[:4]
        c = counts(mpsz) if mpsz else np.zeros(34, np.uint8)
        assert R.shanten(c, wilds=wilds) == s, row
        if kind == "13":
            uk = R.ukeire(c, wilds=wilds)
            assert sorted(_kinds(uk)) == row[6] and sum(uk.values()) == row[5], row
        checked += 1
    assert checked == 9


def _kinds(uk: dict) -> list:
    from mjfast.tiles import CODES

    return [CODES[k] for k in uk]


def test_good_cache_is_used_silently(good, expected, tmp_path):
    folder = copy_of(good, tmp_path)
    rec = run_probe(tmp_path)
    assert rec["status"]["source"] == "cache" and rec["warnings"] == []
    assert rec["answers"] == expected
    assert leftovers(folder) == []


def _assert_safe_modes(folder):
    assert not folder.stat().st_mode & stat.S_IWOTH
    for p in folder.iterdir():
        mode = p.stat().st_mode
        assert not mode & stat.S_IWOTH and mode & stat.S_IRGRP, (p.name, oct(mode))


def _run_umask(umask, root, n_hands):
    proc = subprocess.run(
        ["sh", "-c", f'umask {umask:03o} && exec "$0" "$@"', sys.executable, str(_util.PROBE), str(n_hands)],
        env=_util.child_env(root),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


def test_missing_cache_is_built_silently_with_safe_modes(expected, tmp_path):
    """First use: built without a warning; under a permissive umask nothing is world-writable
    (and the files are group-readable: a cache shared by a team)."""
    rec = _run_umask(0o000, tmp_path, 5)
    assert rec["status"]["source"] == "built" and rec["warnings"] == []
    assert rec["answers"] == expected[:5] + expected[30:35]
    folder = tmp_path / _tables.table_folder().name
    _assert_safe_modes(folder)
    assert leftovers(folder) == []


@pytest.mark.parametrize(
    "umask, file_mode, dir_mode",
    [(0o000, 0o664, 0o775), (0o022, 0o644, 0o755), (0o077, 0o640, 0o750), (0o002, 0o664, 0o775)],
)
def test_cache_modes(umask, file_mode, dir_mode, monkeypatch):
    monkeypatch.setattr(_tables, "_umask", lambda: umask)
    assert (_tables._file_mode(), _tables._dir_mode()) == (file_mode, dir_mode)


def test_every_corruption_is_detected(good, tmp_path):
    """Each corruption of each file, and random bit flips anywhere in the files: the loader
    refuses the cache (then rebuilds it, see the end-to-end tests); the restored cache loads."""
    folder = copy_of(good, tmp_path)
    rng = np.random.default_rng(17)
    tables = TABLES if FULL else ("suit_natural", "honor_accept")
    cases = [(k, t) for t in tables for k in FILE_KINDS] + [(k, "suit_accept") for k in MANIFEST_KINDS]
    cases += [("flip_bits", TABLES[int(rng.integers(len(TABLES)))]) for _ in range(200 if FULL else 20)]
    for kind, table in cases:
        corrupt(folder, kind, table, rng)
        with pytest.raises(_tables._Invalid):
            _tables._load_verified(folder)
        restore(good, folder, table)
    _tables._load_verified(folder)


@pytest.mark.parametrize(
    "name, bad",
    [
        ("honor_accept", "random"),
        ("suit_accept", "ones"),
        ("suit_natural", "random"),
        ("honor_unlimited", "ones"),
        ("suit_natural", "int64"),
        ("suit_accept", "fortran"),
        ("honor_natural", "shape"),
        ("suit_unlimited", "missing"),
    ],
)
def test_kernel_validation_rejects_unsafe_tables(name, bad, monkeypatch):
    """Tables that would make a kernel index out of bounds never reach it: ``check_tables``
    (called by both kernels' installers) rejects the audit's random and 0xFF accept tables and
    every wrong dtype, order or shape; the kernels keep their good tables."""
    good_arrays = _tables.load_tables()
    a = good_arrays[name]
    rng = np.random.default_rng(3)
    if bad == "random":
        x = rng.integers(0, np.iinfo(a.dtype).max + 1, a.shape, dtype=a.dtype)
    elif bad == "ones":
        x = np.full(a.shape, np.iinfo(a.dtype).max, a.dtype)
    elif bad == "int64":
        x = a.astype(np.int64)
    elif bad == "fortran":
        x = np.asfortranarray(a)
    elif bad == "shape":
        x = a[:-1]
    else:
        x = None
    arrays = dict(good_arrays)
    if x is None:
        del arrays[name]
    else:
        arrays[name] = x
    with pytest.raises(ValueError, match=name):
        _tables.check_tables(arrays)
    monkeypatch.setattr(_tables, "load_tables", lambda: arrays)
    installer = _efficiency._install_tables if "accept" in name else _shanten._install_tables
    with pytest.raises(ValueError, match=name):
        installer()
    monkeypatch.undo()
    import mjfast as mj

    assert mj.ukeire(mj.Hand("123456789m1122z").counts).count == 4  # still the good tables


def _end_to_end(good, expected, root, kind, table, seed):
    """Corrupt a copy, import in a child: one warning naming the damage, right answers, the
    cache repaired (the next import is silent and reads it), no temporary files left."""
    root.mkdir()
    folder = copy_of(good, root)
    rng = np.random.default_rng(seed)
    for k, t in MULTI if kind == "multi" else [(kind, table)]:
        corrupt(folder, k, t, rng)
    first = run_probe(root)
    second = run_probe(root)
    return kind, table, first, second, leftovers(folder)


def _check_end_to_end(result, expected):
    kind, table, first, second, left = result
    where = f"{kind} {table}"
    assert first["answers"] == expected, where
    assert first["status"]["source"] == "built", (where, first["status"])
    assert len(first["warnings"]) == 1 and first["warnings"][0].startswith("CacheWarning"), (where, first["warnings"])
    names = (
        [t for _, t in MULTI]
        if kind == "multi"
        else ["manifest" if kind.startswith("manifest") and kind != "manifest_hash" else table]
    )
    assert any(n in first["warnings"][0] for n in names) or "incomplete" in first["warnings"][0], (
        where,
        first["warnings"],
    )
    assert second["status"]["source"] == "cache" and second["warnings"] == [], (where, second)
    assert second["answers"] == expected, where
    assert left == [], where


#: Six corruption kinds at once, one per file: one rebuild covers them end to end.
MULTI = [
    ("zero_data", "suit_natural"),
    ("random_data", "honor_accept"),
    ("fifo", "suit_unlimited"),
    ("folder", "honor_natural"),
    ("symlink_zero", "honor_unlimited"),
    ("empty", "suit_accept"),
]


def _cases():
    if not FULL:
        return [("multi", "all")]
    rng = np.random.default_rng(99)
    cases = [(k, t) for t in TABLES for k in FILE_KINDS] + [(k, "suit_accept") for k in MANIFEST_KINDS]
    return [("multi", "all")] + cases + [("flip_bits", TABLES[int(rng.integers(len(TABLES)))]) for _ in range(100)]


def test_corruption_sweep_end_to_end(good, expected, tmp_path):
    """CI: the audit's worst cases at once (zeroed natural table, random accept table, a FIFO, a
    folder, a symbolic link to /dev/zero, a 0-byte file); full: also every corruption of every
    file alone and 100 random bit flips.  Two children at a time: a rebuild costs a few seconds
    of one core."""
    cases = _cases()
    with ThreadPoolExecutor(2) as pool:
        results = list(
            pool.map(lambda ic: _end_to_end(good, expected, tmp_path / f"c{ic[0]}", *ic[1], ic[0]), enumerate(cases))
        )
    failures = []
    for r in results:
        try:
            _check_end_to_end(r, expected)
        except AssertionError as exc:
            failures.append(str(exc)[:300])
    assert not failures, f"{len(failures)} of {len(cases)} corruptions mishandled:\n" + "\n".join(failures[:10])


def _read_only(folder):
    """Command prefix that runs the child with ``folder`` read-only, or None (then skip)."""
    if _util.have_ro_mount():
        return _util.read_only_prefix(folder)
    if not IS_ROOT:
        return []  # permissions bind a normal user: the caller chmods the folder
    return None


def test_read_only_caches(good, expected, tmp_path):
    """A valid read-only cache is used as it is; a damaged one is not repaired but built in
    memory, with one warning for the process."""
    valid = tmp_path / "valid"
    damaged = tmp_path / "damaged"
    for root in (valid, damaged):
        root.mkdir()
        copy_of(good, root)
    corrupt(damaged / good.name, "random_data", "suit_accept", np.random.default_rng(5))
    prefixes = [_read_only(root / good.name) for root in (valid, damaged)]
    if prefixes[0] is None:
        pytest.skip("running as root without `unshare -m` to mount a folder read-only")
    if prefixes[0] == []:
        for root in (valid, damaged):
            os.chmod(root / good.name, 0o555)
    try:
        ok = run_probe(valid, prefix=prefixes[0])
        bad = run_probe(damaged, prefix=prefixes[1])
    finally:
        for root in (valid, damaged):
            os.chmod(root / good.name, 0o755)
    assert ok["status"]["source"] == "cache" and ok["warnings"] == [] and ok["answers"] == expected
    assert bad["status"]["source"] == "memory" and bad["answers"] == expected
    assert len(bad["warnings"]) == 1 and "cannot be written" in bad["warnings"][0], bad["warnings"]


@pytest.mark.skipif(not IS_ROOT, reason="needs root to give the cache folder to another user")
def test_foreign_and_shared_folders(good, expected, tmp_path):
    """A cache folder of another user, directly or behind a symbolic link, or writable by
    every user, is neither read nor written (built in memory with a warning); one shared with
    a group of ours is used.  CI runs the symbolic link case end to end, full all of them."""
    roots = {name: tmp_path / name for name in ("foreign", "shared", "linked", "open")}
    for name in ("foreign", "shared", "open"):
        roots[name].mkdir()
        f = copy_of(good, roots[name])
        for p in [f, *f.iterdir()]:
            if name == "open":
                os.chmod(f, 0o777)
            else:
                os.chown(p, 12345, 12345 if name == "foreign" else os.getgid())
    roots["linked"].mkdir()
    os.symlink(roots["foreign"] / good.name, roots["linked"] / good.name)
    why = {"foreign": "belongs to user 12345", "linked": "symbolic link", "open": "writable by every user"}
    for name, text in why.items():
        with pytest.raises(_tables._Invalid, match=text):
            _tables._load_verified(roots[name] / good.name)
    for name in ["linked", "shared"] + (["foreign", "open"] if FULL else []):
        rec = run_probe(roots[name])
        assert rec["answers"] == expected, name
        if name == "shared":
            assert rec["status"]["source"] == "cache" and rec["warnings"] == []
        else:
            assert rec["status"]["source"] == "memory", name
            assert len(rec["warnings"]) == 1 and why[name] in rec["warnings"][0], rec["warnings"]
    assert sorted(p.name for p in (roots["foreign"] / good.name).iterdir()) == sorted(p.name for p in good.iterdir())


def test_symlinked_own_folder_is_used(good, expected, tmp_path):
    """A symbolic link to a folder of our own is fine (a cache moved to another disk)."""
    (tmp_path / "real").mkdir()
    (tmp_path / "root").mkdir()
    target = copy_of(good, tmp_path / "real")
    os.symlink(target, tmp_path / "root" / good.name)
    rec = run_probe(tmp_path / "root")
    assert rec["status"]["source"] == "cache" and rec["warnings"] == [] and rec["answers"] == expected


def test_concurrent_builders_build_once(expected, tmp_path):
    """Four processes importing at once on an empty cache (umask 077): one builds, the others
    wait for it and read its cache; every answer is right, nothing is left behind, the files
    are group-readable."""
    env = _util.child_env(tmp_path)
    procs = [
        subprocess.Popen(
            ["sh", "-c", 'umask 077 && exec "$0" "$@"', sys.executable, str(_util.PROBE), "10"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    recs = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-2000:]
        recs.append(json.loads(out.splitlines()[-1]))
    assert sorted(r["status"]["source"] for r in recs) == ["built", "cache", "cache", "cache"]
    for r in recs:
        assert r["warnings"] == [] and r["answers"] == expected[:10] + expected[30:40]
    folder = tmp_path / _tables.table_folder().name
    assert leftovers(folder) == []
    _assert_safe_modes(folder)  # group-readable even under umask 077
    _tables._load_verified(folder)


def test_kill_during_write_leaves_nothing_behind(expected, tmp_path):
    """SIGKILL at random moments of the write (while a temporary file exists): the next import
    rebuilds a valid cache and removes the dead writer's temporary files."""
    rng = np.random.default_rng(11)
    folder = tmp_path / _tables.table_folder().name
    caught = 0
    for attempt in range(6 if FULL else 1):
        shutil.rmtree(tmp_path, ignore_errors=True)
        tmp_path.mkdir(exist_ok=True)
        p = subprocess.Popen(
            [sys.executable, str(_util.PROBE), "1"],
            env=_util.child_env(tmp_path),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        delay = float(rng.uniform(0, 0.03))
        seen = None
        deadline = time.monotonic() + 300
        while p.poll() is None and time.monotonic() < deadline:
            try:
                seen = leftovers(folder)
            except FileNotFoundError:
                seen = []
            if seen:
                time.sleep(delay)
                p.send_signal(signal.SIGKILL)
                break
            time.sleep(0.002)
        p.wait(timeout=60)
        if p.returncode != -signal.SIGKILL:
            continue  # finished before a temporary file was seen: try again
        caught += 1
        rec = run_probe(tmp_path, n_hands=10)
        assert rec["answers"] == expected[:10] + expected[30:40]
        assert len(rec["warnings"]) <= 1
        assert leftovers(folder) == []
        _tables._load_verified(folder)
    assert caught >= 1
