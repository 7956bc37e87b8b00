"""What a whole match costs, counted in instructions: the noise-free twin of ``bench/matches.py``.

    PYTHONPATH=src python bench/match_instructions.py [--matches M] [--rules a,b]

For each rule, three child processes run under ``valgrind --tool=callgrind`` (which counts the
instructions executed): the warm-up alone (import, tables, one small call of each function), the
warm-up then ``simulate_games(rule, 16 * M)``, and the warm-up then ``simulate_matches(rule, M,
hands=16)``, one thread, the same seed.  Subtracting the warm-up gives each call's instructions;
their ratio is what the matches cost over the same number of independent hands.  Counts do not
vary with the machine's load as times do (they do not see cache misses either).  A child takes
about a minute per 512 hands.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _child(what: str, rule: str, n: int) -> None:
    sys.path.insert(0, SRC)
    import mjfast as mj

    mj.simulate_matches(rule, 2, hands=2, rng=0, n_threads=1)  # the warm-up every child runs
    mj.simulate_games(rule, 64, rng=0, n_threads=1)
    if what == "games":
        mj.simulate_games(rule, 16 * n, rng=1, n_threads=1)
    elif what == "matches":
        mj.simulate_matches(rule, n, hands=16, rng=1, n_threads=1)


def _count(what: str, rule: str, n: int) -> int:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
    cmd += ["--child", what, rule, str(n)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def main(argv=None) -> int:
    if argv is None and sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return 0
    sys.path.insert(0, SRC)
    import mjfast as mj

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=32, help="matches per rule (default 32: 512 hands)")
    p.add_argument("--rules", default=",".join(mj.rules.names()))
    p.add_argument("--jobs", type=int, default=3, help="children at once")
    args = p.parse_args(argv)
    n = args.matches
    with ThreadPoolExecutor(args.jobs) as pool:
        for rule in args.rules.split(","):
            base, games, matches = pool.map(lambda w: _count(w, rule, n), ("none", "games", "matches"))
            g, m = games - base, matches - base
            print(
                f"{rule:10s} {16 * n:6d} hands  games {g / 1e6:9.1f} M instr  matches {m / 1e6:9.1f} M instr  "
                f"ratio {m / g:5.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
