"""What aiming harder at scoring patterns costs the value players: for each rule and each setting
of the pattern weights, the share of wins at the rule's cheapest hand and the draw rate
(``realism.py``'s measures) beside the strength of ``Value()`` against ``Efficiency()`` in a
duplicate match.

    PYTHONPATH=src python bench/pattern_tradeoff.py [--rules a,b] [--games N] [--walls W] [--seed S]
                                                    [--settings "JSON; JSON; ..."]

Each setting is a JSON object of value-player weights (``mjfast._kernels._game.VALUE_KNOBS``
names) laid over the rule's own (its module's ``VALUE_KNOBS``); ``{}`` is the shipped player.
``pattern_usual`` scales every pattern's usual 进张 (the higher, the likelier a pattern looks),
``pattern_margin`` divides a pattern's rating (the lower, the more it counts) and ``slack`` is how
many tiles behind the plain hand a pattern may be and still be aimed at.  The weights are
private tuning hooks (``mjfast.policies._KNOBS``), not part of the public API.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from realism import measure  # noqa: E402

import mjfast as mj  # noqa: E402
from mjfast import policies as _policies  # noqa: E402

DEFAULT_SETTINGS = '{}; {"pattern_usual": 2.0}; {"pattern_usual": 3.0, "pattern_margin": 0.5, "slack": 5}'


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="sichuan,guiyang,jinhua,guangdong")
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--walls", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=20261201)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--settings", default=DEFAULT_SETTINGS)
    args = p.parse_args(argv)
    settings = [json.loads(x) for x in args.settings.split(";") if x.strip()]
    print(
        f"{args.games:,} games per setting for the shares, {args.walls:,} duplicate walls for the strength, "
        f"rng {args.seed}"
    )
    print(
        "| rule | weights over the rule's own | cheapest % | draw % "
        "| Value() − Efficiency(), stakes per hand | SE | mean / SE |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    try:
        for rule in args.rules.split(","):
            for knobs in settings:
                _policies._KNOBS.clear()
                _policies._KNOBS.update(knobs)
                t = time.perf_counter()
                r = measure(rule, args.games, args.seed, mj.policies.Value(), args.threads)
                m = mj.duplicate_match(
                    rule,
                    [mj.policies.Efficiency(), mj.policies.Value()],
                    args.walls,
                    rng=args.seed,
                    n_threads=args.threads,
                ).set_index("policy")
                mean = float(m.loc["Value()", "mean_stakes"])
                se = float(m.loc["Value()", "se_stakes"])
                label = json.dumps(knobs, ensure_ascii=False) if knobs else "— (shipped)"
                print(
                    f"| {rule} | {label} | {100 * r['cheapest']:.2f} | {100 * r['draw']:.2f} | {mean:+.4f} | "
                    f"{se:.4f} | {mean / se:+.1f} |",
                    flush=True,
                )
                print(f"  ({time.perf_counter() - t:.0f} s)", file=sys.stderr, flush=True)
    finally:
        _policies._KNOBS.clear()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
