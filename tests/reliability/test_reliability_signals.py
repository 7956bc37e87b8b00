"""Interrupts stop: a signal delivered while the game kernel runs a rule's Python legality
check (the seven rules with one, and 广东 with ``min_fan=1``) is not swallowed, and never
changes a seeded result.  Each run is a child process sent real signals (the runs asked for
would take hours: the timeout only catches a swallowed interrupt)."""

import json
import subprocess
import sys
from pathlib import Path

CHILD = Path(__file__).resolve().parent / "_signals_child.py"


def child(mode, timeout=300):
    proc = subprocess.run([sys.executable, str(CHILD), mode], capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.splitlines()[-1])


def test_ctrl_c_propagates_from_checkers():
    out = child("interrupt")
    for name in ("jj", "guobiao", "taicang", "guangdong", "draws"):
        assert out[name]["raised"] == "KeyboardInterrupt", (name, out[name])


def test_signals_that_return_change_nothing():
    out = child("handled")
    assert out["signals"] >= 1
    assert out["equal"] is True, out["equal"]


def test_exception_from_a_signal_handler_propagates():
    out = child("raising")
    assert out["games"]["raised"] == "RuntimeError" and "signal handler" in out["games"]["message"], out
