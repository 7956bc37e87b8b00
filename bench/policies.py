"""What a user-written policy costs: ``simulate_games`` with a pure-Python user policy at every
seat against the built-in ``Value()`` (the default) and ``Efficiency()`` players — the same
seeds, one thread, scoring included, round-robin repeats (each repeat runs every line, the
starting one rotating), median wall time.

    PYTHONPATH=src python bench/policies.py [--games N] [--repeat R] [--rules a,b] [--markdown FILE]

The user policy is ``tests/simulation/toy_policies.py``'s ``Loner`` (void suit first, else the tile
with the fewest copies and neighbours; 碰 a pair of honours; every win), a cheap pure-Python rule
of thumb: what is timed is the engine's cost of asking Python (the view, the call, the check of
the answer) plus such a policy.  Target (issue 13): >= 50 games/s for 四川.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "simulation"))

from toy_policies import Loner  # noqa: E402

import mjfast as mj  # noqa: E402
from mjfast.policies import Efficiency, Value  # noqa: E402

LINES = (
    ("Value() x 4 (the default)", Value()),
    ("Efficiency() x 4", Efficiency()),
    ("Loner() x 4 (user policy)", Loner()),
    ("Loner() + 3 x Value()", [Loner(), Value(), Value(), Value()]),
    ("Loner() + 3 x Efficiency()", [Loner(), Efficiency(), Efficiency(), Efficiency()]),
)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--rules", default="sichuan,suzhou,guobiao")
    p.add_argument("--markdown", default=None)
    args = p.parse_args(argv)
    rows = []
    for rule in args.rules.split(","):
        for _label, pol in LINES:
            mj.simulate_games(rule, 32, rng=0, n_threads=1, policy=pol)  # warm the caches
        times = {label: [] for label, _p in LINES}
        asks = {}
        for r in range(args.repeat):
            for i in range(len(LINES)):
                label, pol = LINES[(i + r) % len(LINES)]
                t = time.perf_counter()
                df = mj.simulate_games(rule, args.games, rng=r, n_threads=1, policy=pol)
                times[label].append(time.perf_counter() - t)
                asks[label] = (df["how"] == "draw_game").mean()
        for label, _p in LINES:
            w = statistics.median(times[label])
            rows.append((rule, label, args.games, w, args.games / w, asks[label]))
            print(
                f"{rule:10s} {label:28s} {args.games:6d} games  {w:7.2f} s  {args.games / w:9.1f} games/s  "
                f"drawn {100 * asks[label]:5.1f} %",
                flush=True,
            )
    if args.markdown:
        lines = ["| rule | players | games | wall (s) | games/s | hands drawn |", "|---|---|---:|---:|---:|---:|"]
        lines += [f"| {r} | {lab} | {n} | {w:.2f} | {g:.0f} | {100 * d:.1f} % |" for r, lab, n, w, g, d in rows]
        Path(args.markdown).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
