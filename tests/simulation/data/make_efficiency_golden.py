"""Write ``efficiency_golden.csv.gz``: seeded games of the built-in efficiency players, per rule.

The file was first written before the players became configurable (``mjfast.policies``), so
``test_policies.py`` can check that ``Efficiency()`` still plays exactly those games.  Re-run
this script (``python tests/simulation/data/make_efficiency_golden.py``) only when the engine
is meant to play differently, and say so in the commit message.
"""
import pathlib

import pandas as pd

import mjfast as mj

#: (label, rule, options, games, seed) of every recorded case.
CASES = tuple((name, name, {}, 300, 20261201 + i) for i, name in enumerate(mj.rules.names())) + (
    ("sichuan_xuezhan", "sichuan", {"xuezhan": True}, 300, 7),)
#: Matches recorded per rule: (matches, hands, seed).
MATCHES = (2, 4, 11)
PATH = pathlib.Path(__file__).with_name("efficiency_golden.csv.gz")


def frames(**policy):
    """The recorded frames, as strings, one table (``case`` and ``kind`` columns in front)."""
    parts = []
    for label, rule, options, n, seed in CASES:
        df = mj.simulate_games(rule, n, rng=seed, n_threads=1, **policy, **options)
        parts.append(df.astype(str).assign(case=label, kind="games"))
        m = mj.simulate_matches(rule, MATCHES[0], hands=MATCHES[1], rng=MATCHES[2], n_threads=1, **policy,
                                **options)
        parts.append(m.astype(str).assign(case=label, kind="matches"))
    out = pd.concat(parts, ignore_index=True)
    front = ["case", "kind"]
    return out[front + [c for c in out.columns if c not in front]].fillna("")


if __name__ == "__main__":
    frames().to_csv(PATH, index=False)
    print(PATH, PATH.stat().st_size, "bytes")
