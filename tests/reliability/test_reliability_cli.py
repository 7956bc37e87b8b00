"""``mjfast simulate --out`` under real signals: SIGINT, SIGTERM and SIGKILL sent to a real
``mjfast simulate`` process.  The previous output stays intact, the new one is valid or
absent, an interrupted run leaves a valid file marked incomplete, and ``--resume`` gives the
file an uninterrupted run writes.  (Batches of 1024 games instead of 16,384 keep the runs
short: the child is the CLI's ``main`` with ``_BATCH_GAMES`` set, nothing else changed.)"""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _util import FULL

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")

BATCH = 1024
CHILD = "import sys, mjfast.__main__ as m; m._BATCH_GAMES = int(sys.argv[1]); sys.exit(m.main(sys.argv[2:]))"


def cli(tmp_path, *args, batch=BATCH):
    cmd = [sys.executable, "-c", CHILD, str(batch), "simulate", *map(str, args)]
    return subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run(tmp_path, *args, timeout=600):
    p = cli(tmp_path, *args)
    out, err = p.communicate(timeout=timeout)
    return p.returncode, out, err


def temporaries(folder) -> list:
    return sorted(p.name for p in Path(folder).iterdir() if p.name.endswith(".tmp"))


def wait_for_batches(p, folder, name, k=1, timeout=300):
    """Wait until the running child has written ``k`` batches to its temporary file."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and p.poll() is None:
        for t in temporaries(folder):
            if t.startswith(f".{name}.") and _batches(Path(folder) / t, name) >= k:
                return True
        time.sleep(0.05)
    return False


def _batches(path, name) -> int:
    try:
        if name.endswith(".csv"):
            with open(path, "rb") as fh:
                return max(0, sum(1 for _ in fh) - 1) // BATCH
        return 1 if path.stat().st_size > 0 else 0  # row groups are only counted once closed
    except OSError:
        return 0


def read(path):
    return pd.read_parquet(path) if str(path).endswith(".parquet") else pd.read_csv(path, keep_default_na=False)


def meta(path) -> dict:
    path = str(path)
    if path.endswith(".parquet"):
        return json.loads(pq.read_metadata(path).metadata[b"mjfast"])
    with open(path + ".json") as fh:
        return json.load(fh)


GAMES = 12 * BATCH
ARGS = ("--rule", "sichuan", "--games", GAMES, "--seed", 7, "--threads", 1)


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """The uninterrupted run, in both formats."""
    d = tmp_path_factory.mktemp("full")
    files = {}
    for ext in ("parquet", "csv"):
        rc, out, err = run(d, *ARGS, "--out", f"full.{ext}")
        assert rc == 0, err
        files[ext] = read(d / f"full.{ext}")
        assert len(files[ext]) == GAMES
    assert meta(d / "full.parquet")["complete"] is True
    return files


CASES = [("parquet", signal.SIGINT, 130, 0.0), ("csv", signal.SIGTERM, 143, 0.0)]
if FULL:  # more formats x signals, at random moments after the first batch
    CASES += [
        (ext, sig, code, float(d))
        for ext in ("parquet", "csv")
        for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143))
        for d in np.random.default_rng(3).uniform(0, 3, 3)
    ]


@pytest.mark.parametrize("ext, sig, code, delay", CASES)
def test_interrupt_keeps_a_marked_partial_file_and_resume_equals_a_full_run(tmp_path, full, ext, sig, code, delay):
    name = f"g.{ext}"
    p = cli(tmp_path, *ARGS, "--out", name)
    assert wait_for_batches(p, tmp_path, name), "the run ended before a batch was written"
    time.sleep(delay)
    if p.poll() is not None:  # the run won the race: its output must then be complete
        assert p.returncode == 0
        pd.testing.assert_frame_equal(read(tmp_path / name), full[ext])
        return
    p.send_signal(sig)
    out, err = p.communicate(timeout=120)
    assert p.returncode == code, err
    assert "interrupted after" in err and "--resume" in err and "Traceback" not in err
    assert not (tmp_path / name).exists() and temporaries(tmp_path) == []
    partial = tmp_path / f"g.partial.{ext}"
    m = meta(partial)
    got = read(partial)
    assert m["complete"] is False and m["n_games_requested"] == GAMES and m["rule"] == "sichuan"
    assert m["seed"] == "7" and m["options"] == {} and m["mjfast"]
    assert m["n_games_written"] == len(got) and 0 < len(got) < GAMES and len(got) % BATCH == 0
    pd.testing.assert_frame_equal(got, full[ext].iloc[: len(got)])
    rc, out, err = run(tmp_path, *ARGS, "--out", name, "--resume")
    assert rc == 0, err
    pd.testing.assert_frame_equal(read(tmp_path / name), full[ext])
    assert not partial.exists() and not Path(str(partial) + ".json").exists() and temporaries(tmp_path) == []
    if ext == "parquet":
        assert meta(tmp_path / name)["complete"] is True


def test_previous_output_survives_kills_and_terms(tmp_path, full):
    """A complete file replaced with --force: SIGKILL or SIGTERM at random moments never
    touches it (the new run writes elsewhere until it is complete); a killed run's
    temporary file is removed by the next run."""
    rng = np.random.default_rng(5)
    small = ("--rule", "sichuan", "--games", BATCH, "--seed", 1, "--threads", 1)
    rc, _, err = run(tmp_path, *small, "--out", "keep.parquet")
    assert rc == 0, err
    before = (tmp_path / "keep.parquet").read_bytes()
    trials = [signal.SIGKILL, signal.SIGTERM] * (4 if FULL else 1)
    killed = 0
    for sig in trials:
        p = cli(tmp_path, *ARGS, "--out", "keep.parquet", "--force")
        deadline = time.monotonic() + 120
        while not temporaries(tmp_path) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)  # the new output is opened just before the first game
        time.sleep(float(rng.uniform(0.0, 0.5)))
        if p.poll() is not None:  # a fast machine finished the run: nothing to kill
            p.communicate()
            rc, _, err = run(tmp_path, *small, "--out", "keep.parquet", "--force")
            assert rc == 0, err
            before = (tmp_path / "keep.parquet").read_bytes()
            continue
        p.send_signal(sig)
        p.communicate(timeout=120)
        killed += 1
        assert (tmp_path / "keep.parquet").read_bytes() == before, sig
        partial = tmp_path / "keep.partial.parquet"
        if partial.exists():
            assert sig == signal.SIGTERM and meta(partial)["complete"] is False
            assert len(read(partial)) == meta(partial)["n_games_written"]
            partial.unlink()
    assert killed, "every run finished before its signal: make ARGS longer"
    rc, _, err = run(tmp_path, *small, "--out", "keep.parquet", "--force")
    assert rc == 0, err
    assert temporaries(tmp_path) == []
    assert len(read(tmp_path / "keep.parquet")) == BATCH and meta(tmp_path / "keep.parquet")["complete"] is True


def test_ctrl_c_stops_a_rule_with_a_python_checker(tmp_path):
    """国标's legality check runs in Python inside the game kernel: SIGINT used to be
    swallowed there (the run went on to the end, exit 0).  Now it stops the run: exit 130,
    and nothing but whole batches is kept.  (A million games would take about ten minutes:
    the timeout only catches a swallowed interrupt.)"""
    p = cli(tmp_path, "--rule", "guobiao", "--games", 10**6, "--seed", 1, "--threads", 1, "--out", "g.csv")
    deadline = time.monotonic() + 120
    while not temporaries(tmp_path) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # the output is opened just before the first game
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "interrupted after" in err and "Traceback" not in err
    assert temporaries(tmp_path) == [] and not (tmp_path / "g.csv").exists()
    partial = tmp_path / "g.partial.csv"
    if partial.exists():
        assert meta(partial)["n_games_written"] == len(read(partial)) > 0


def test_bad_out_is_refused_before_any_game(tmp_path, monkeypatch, capsys):
    """A missing folder, a folder, an existing file without --force, a --resume with nothing
    to resume or another run's file: an ``mjfast: error:`` line, and no game is played."""
    import mjfast.simulation.games as games
    from mjfast.__main__ import main

    def no_games(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(games, "_run", no_games)
    (tmp_path / "adir.csv").mkdir()
    (tmp_path / "done.parquet").write_bytes(b"previous")
    cases = [
        ([str(tmp_path / "no" / "such" / "g.parquet")], "does not exist"),
        ([str(tmp_path / "adir.csv")], "is a folder"),
        ([str(tmp_path / "done.parquet")], "pass --force"),
        ([str(tmp_path / "new.parquet"), "--resume"], "no interrupted run"),
    ]
    for extra, text in cases:
        code = main(["simulate", "--rule", "sichuan", "--games", "100", "--seed", "1", "--out", *extra])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("mjfast: error:") and text in err, (extra, err)
    assert (tmp_path / "done.parquet").read_bytes() == b"previous"
    assert temporaries(tmp_path) == []


def test_resume_refuses_another_run(tmp_path, capsys):
    from mjfast.__main__ import main

    monkey = tmp_path / "g.partial.csv"
    monkey.write_text("game\n0\n")
    Path(str(monkey) + ".json").write_text(
        json.dumps(
            {
                "complete": False,
                "rule": "sichuan",
                "options": {},
                "n_games_requested": 4096,
                "policy": "Value()",
                "seed": "3",
                "n_games_written": 1024,
                "mjfast": "0",
            }
        )
    )
    for args, text in [
        (["--rule", "guobiao", "--games", "4096"], "rule='sichuan'"),
        (["--rule", "sichuan", "--games", "5000"], "n_games_requested=4096"),
        (["--rule", "sichuan", "--games", "4096", "--seed", "4"], "seed 3"),
        (["--rule", "sichuan", "--games", "4096", "--policy", "efficiency"], "policy='Value()'"),
    ]:
        code = main(["simulate", *args, "--out", str(tmp_path / "g.csv"), "--resume"])
        err = capsys.readouterr().err
        assert code == 2 and text in err, err
