"""What a whole match costs: ``simulate_matches(rule, M, hands=16)`` against ``simulate_games(rule,
16 * M)`` — the same number of hands, one thread, round-robin repeats (each repeat runs both, the
starting one alternating), median wall time and median CPU time of this process, and the median
of the repeats' paired CPU ratios (each repeat's matches over its own games, so a slow spell of
the machine that spans one repeat cancels) with their range.

    PYTHONPATH=src python bench/matches.py [--matches M] [--repeat R] [--rules a,b] [--markdown FILE]

Target: a match of 16 hands costs no more than 16 hands of ``simulate_games`` + 10 %.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import mjfast as mj  # noqa: E402


def _time(fn):
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=128, help="matches per rule (default 128: 2048 hands)")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--rules", default=",".join(mj.rules.names()))
    p.add_argument("--markdown", default=None)
    args = p.parse_args(argv)
    rows = []
    for rule in args.rules.split(","):
        n = args.matches
        mj.simulate_matches(rule, 2, hands=2, rng=0, n_threads=1)  # warm the caches and tables
        mj.simulate_games(rule, 64, rng=0, n_threads=1)
        runs = {"games": [], "matches": []}
        for r in range(args.repeat):
            order = ("games", "matches") if r % 2 == 0 else ("matches", "games")
            for what in order:
                if what == "games":
                    runs[what].append(_time(lambda: mj.simulate_games(rule, 16 * n, rng=r, n_threads=1)))
                else:
                    runs[what].append(_time(lambda: mj.simulate_matches(rule, n, hands=16, rng=r, n_threads=1)))
        g_wall = statistics.median(x[0] for x in runs["games"])
        m_wall = statistics.median(x[0] for x in runs["matches"])
        g_cpu = statistics.median(x[1] for x in runs["games"])
        m_cpu = statistics.median(x[1] for x in runs["matches"])
        paired = sorted(m[1] / g[1] for g, m in zip(runs["games"], runs["matches"]))
        pair = statistics.median(paired)
        rows.append((rule, 16 * n, g_wall, m_wall, m_wall / g_wall, g_cpu, m_cpu, m_cpu / g_cpu, pair, paired))
        print(
            f"{rule:10s} {16 * n:6d} hands  games {g_wall:7.2f} s  matches {m_wall:7.2f} s  "
            f"ratio {m_wall / g_wall:5.3f}   cpu {g_cpu:7.2f} / {m_cpu:7.2f} s  ratio {m_cpu / g_cpu:5.3f}   "
            f"paired cpu ratio {pair:5.3f} ({paired[0]:5.3f}-{paired[-1]:5.3f})",
            flush=True,
        )
    if args.markdown:
        lines = [
            "| rule | hands | simulate_games (s) | simulate_matches (s) | ratio | CPU games (s) | "
            "CPU matches (s) | CPU ratio | paired CPU ratio (range) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {r} | {h} | {gw:.2f} | {mw:.2f} | {rw:.3f} | {gc:.2f} | {mc:.2f} | {rc:.3f} | "
            f"{pr:.3f} ({ps[0]:.3f}–{ps[-1]:.3f}) |"
            for r, h, gw, mw, rw, gc, mc, rc, pr, ps in rows
        ]
        Path(args.markdown).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
