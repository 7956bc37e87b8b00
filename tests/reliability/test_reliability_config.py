"""``mj.show_config()`` reports threads, OpenMP, the cache and the tables; a build without
OpenMP says so at import."""

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from _util import FULL

import mjfast as mj
from mjfast import _config, _inputs
from mjfast._kernels import _shanten, _tables


def test_show_config_reports_what_is_used():
    cfg = mj.show_config(mode="dicts")
    assert cfg["openmp"] is bool(_shanten.OPENMP)
    assert cfg["threads"] == {
        "default": _inputs.default_threads(None),
        "usable_cpus": _inputs.usable_cpus(),
        "limit": _inputs.thread_limit(),
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
    }
    assert cfg["cache"]["folder"] == str(_tables.table_folder())
    assert cfg["cache"]["tables_from"] in ("cache", "built", "memory")
    tables = _tables.load_tables()
    assert {k: v["shape"] for k, v in cfg["tables"].items()} == {k: list(a.shape) for k, a in tables.items()}
    assert abs(cfg["tables_MiB"] - sum(a.nbytes for a in tables.values()) / 2**20) < 0.1
    with pytest.raises(ValueError, match="mode"):
        mj.show_config(mode="json")


def test_show_config_in_a_child_follows_the_environment(tmp_path):
    code = "import json, mjfast as mj; print(json.dumps(mj.show_config(mode='dicts')))"
    env = dict(os.environ, OMP_NUM_THREADS="1", MJFAST_CACHE_DIR=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    cfg = json.loads(proc.stdout.splitlines()[-1])
    assert cfg["threads"]["default"] == 1 and cfg["threads"]["OMP_NUM_THREADS"] == "1"
    assert cfg["cache"]["folder"].startswith(str(tmp_path)) and cfg["cache"]["tables_from"] == "built"


def test_a_build_without_openmp_says_so():
    with pytest.warns(RuntimeWarning, match="without OpenMP"):
        _config.warn_without_openmp(False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _config.warn_without_openmp(True)


def test_import_warns_exactly_for_a_build_without_openmp(tmp_path):
    """This build imports without a warning when it has OpenMP (and with one when not); under
    ``MJFAST_ORACLE_SCALE=full`` also a copy whose shanten kernel is compiled with
    ``MJFAST_OPENMP=0`` (a compile of about a minute)."""
    code = "import mjfast as mj; print(mj.show_config(mode='dicts')['openmp'])"
    here = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert here.returncode == 0, here.stderr
    assert here.stdout.split()[-1] == str(bool(_shanten.OPENMP))
    assert ("built without OpenMP" in here.stderr) is (not _shanten.OPENMP)
    if not FULL:
        return
    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "src", tmp_path / "src")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(root / name, tmp_path / name)
    (tmp_path / "src" / "mjfast" / "_kernels" / _shanten.__file__.rsplit("/", 1)[-1]).unlink()
    build = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tmp_path,
        env=dict(os.environ, MJFAST_OPENMP="0"),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "src"), MJFAST_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-1] == "False" and "built without OpenMP" in proc.stderr
