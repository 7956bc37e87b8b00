"""Cost of ``analyze_discards`` by number of wildcards under a rule with the knitted forms.

JJ plays 全不靠, 七星不靠 and 组合龙 beside the standard forms; with wildcards those forms are
exact choice programmes instead of table lookups, and a discard table evaluates thousands of
hands.  This prints the median and the largest time per call over random 14-tile hands with
0-4 wildcards, for ``legal="shape"`` and the default ``legal="self_draw"``:

    PYTHONPATH=src python bench/discard_cliff.py [--hands N] [--rule jj] [--seed S]

Run it against two trees (``PYTHONPATH=/path/to/other/src``) to compare them.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import mjfast as mj  # noqa: E402


def hands(rng, n, wilds):
    wall = np.repeat(np.arange(34), 4)
    out = []
    for _ in range(n):
        c = np.zeros(34, np.uint8)
        np.add.at(c, rng.choice(wall, 14 - wilds, replace=False), 1)
        out.append(mj.Hand(c, wilds=wilds, partial=True))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--rule", default="jj")
    ap.add_argument("--seed", type=int, default=20261201)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    mj.analyze_discards(hands(rng, 1, 2)[0], rule=args.rule)  # warm up (imports, memo)
    print(f"analyze_discards under {args.rule}, {args.hands} random hands per row (seconds per call)")
    print("wilds  legal      median     max")
    for w in range(5):
        sample = hands(rng, args.hands, w)
        for legal in ("shape", "self_draw"):
            times = []
            for h in sample:
                t = time.perf_counter()
                mj.analyze_discards(h, rule=args.rule, legal=legal)
                times.append(time.perf_counter() - t)
            print(f"{w:5d}  {legal:9s} {statistics.median(times):7.3f} {max(times):7.3f}")


if __name__ == "__main__":
    main()
