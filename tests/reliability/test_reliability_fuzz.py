"""The hypothesis fuzz of every public entry point (:mod:`_fuzz`), in child processes so that a
crash is a failed test, not a dead session: no crash, no exception other than ``ValueError``
or ``TypeError``, no argument silently fixed (an accepted non-canonical input answers as the
canonical one), ``can_win`` agreeing with ``score``.

CI runs a modest number of examples per entry (derandomized: the same ones every run);
``MJFAST_ORACLE_SCALE=full`` runs 100,000 examples for every entry, unscaled -- many hours
(the plotting entries, ``style`` and ``compare_rules`` cost tens of milliseconds a call): run it
in the background, or run ``_fuzz.py 100000 --unscaled ENTRY ...`` per entry."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _util import FULL

FUZZ = Path(__file__).resolve().parent / "_fuzz.py"
sys.path.insert(0, str(FUZZ.parent))
from _fuzz import ENTRIES  # noqa: E402

N = 100_000 if FULL else 60
#: Entries whose calls cost the most: one of the two children takes them all, beside half the rest.
SLOW = {"compare_rules", "plot_payouts", "plot_elements", "plot_win_curve", "plot_discards", "simulate_matches"}


def _run(names, n):
    flags = ["--unscaled"] if FULL else []
    proc = subprocess.run(
        [sys.executable, str(FUZZ), str(n), *flags, *names],
        capture_output=True,
        text=True,
        timeout=None if FULL else 900,
    )
    stats = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            stats[d["entry"]] = d
    last = [line for line in proc.stderr.splitlines() if line.startswith("fuzzing ")]
    return proc.returncode, stats, (last[-1][8:] if last else None), proc.stderr[-2000:]


@pytest.fixture(scope="module")
def results():
    """Every entry's statistics; two children, each half the entries (one core each)."""
    from concurrent.futures import ThreadPoolExecutor

    names = list(ENTRIES)
    fast = [n for n in names if n not in SLOW]
    groups = [fast[0::2], fast[1::2] + sorted(SLOW)]
    with ThreadPoolExecutor(2) as pool:
        runs = (
            list(pool.map(lambda g: (g, _run(g, N if not FULL else None)), groups))
            if not FULL
            else list(pool.map(lambda g: (g, _run_full(g)), groups))
        )
    out = {}
    for group, (code, stats, last, err) in runs:
        for name in group:
            out[name] = stats.get(name) or {"entry": name, "crash": f"exit {code} while fuzzing {last}: {err}"}
    if FULL:
        Path("fuzz_full_results.json").write_text(json.dumps(out, indent=1))
    return out


def _run_full(group):
    stats, code, last, err = {}, 0, None, ""
    for name in group:  # one child per entry: a crash loses one entry's figures only
        code, s, last, err = _run([name], N)
        stats.update(s)
    return code, stats, last, err


@pytest.mark.parametrize("name", [n for n in ENTRIES if n != "can_win"])
def test_fuzz_entry(results, name):
    r = results[name]
    assert "crash" not in r, r["crash"]
    bad = {k: v for k, v in r["outcomes"].items() if k.startswith("other:") or k == "inconsistent"}
    assert not bad, (bad, r["failures"][:5])
    assert r["examples"] >= 1


def test_fuzz_can_win_agrees_with_score(results):
    r = results["can_win"]
    assert "crash" not in r, r["crash"]
    bad = {k: v for k, v in r["outcomes"].items() if k.startswith("other:") or k == "inconsistent"}
    assert not bad, (bad, r["failures"][:5])
    assert r["outcomes"].get("disagree", 0) == 0, [f["message"] for f in r["failures"][:8]]


def test_can_win_refuses_what_score_refuses():
    """The audit's example: 人和 on a self-draw under 广东 (score raises, can_win said True)."""
    import mjfast as mj

    ctx = mj.WinContext(mj.Hand("234m333p33555678s"), win_tile="2m", self_draw=True, winner=1, human=True)
    with pytest.raises(ValueError):
        mj.score(ctx, "guangdong")
    try:
        assert mj.can_win(ctx, "guangdong") is False
    except ValueError:
        pass


IMPOSSIBLE = [
    dict(self_draw=True, heavenly=True, last_tile=True),
    dict(self_draw=True, heavenly=True, after_kong=True),
    dict(discarder=2, robbing_kong=True, kong_discard=True),
    dict(discarder=2, robbing_kong=True, last_tile=True),
    dict(self_draw=True, heavenly=True, earthly=True),
    dict(discarder=2, earthly=True, human=True),
]


@pytest.mark.parametrize("flags", IMPOSSIBLE, ids=lambda f: "+".join(k for k in f if f[k] is True))
def test_impossible_flag_combinations_are_rejected(flags):
    """天胡 with 海底, 抢杠 with 杠上炮 ... cannot happen together: WinContext refuses them
    (today every rule scores them with the bonuses stacked)."""
    import mjfast as mj

    winner = 0 if flags.get("heavenly") else 1
    with pytest.raises(ValueError):
        mj.WinContext(mj.Hand("123m456p789s234s55p"), win_tile="5p", winner=winner, dealer=0, **flags)
