"""Child process of the reliability tests: import mjfast in the environment it is given and
print one JSON line with how the tables were obtained, the warnings raised on the way and the
answers of the kernels that read the tables (shanten with and without wildcards, 进张 through
the accept tables, discard tables) on fixed hands.

Run as ``python _probe.py [n_hands]``; the parent compares the answers between processes
(and, once, with the pure-Python twins)."""

import json
import sys
import warnings

import numpy as np


def hands(n: int):
    """Fixed 13-tile count vectors (with a wildcard count) and 14-tile vectors."""
    rng = np.random.default_rng(20261201)
    wall = np.repeat(np.arange(34), 4)
    thirteen, fourteen = [], []
    for i in range(n):
        wilds = int(rng.integers(0, 3)) if i % 3 == 0 else 0
        c = np.zeros(34, np.uint8)
        np.add.at(c, rng.choice(wall, 13 - wilds, replace=False), 1)
        thirteen.append((c, wilds))
        c = np.zeros(34, np.uint8)
        np.add.at(c, rng.choice(wall, 14, replace=False), 1)
        fourteen.append(c)
    return thirteen, fourteen


def answers(mj, n: int) -> list:
    thirteen, fourteen = hands(n)
    out = []
    for c, w in thirteen:
        u = mj.ukeire(mj.Hand(c, wilds=w, partial=True)) if w else mj.ukeire(c)
        out.append(["13", mj.to_mpsz(c), w, int(mj.shanten(c, wilds=w)), int(u.shanten), int(u.count), sorted(u.tiles)])
    for c in fourteen:
        t = mj.analyze_discards(c, as_frame=False)
        out.append(
            [
                "14",
                mj.to_mpsz(c),
                0,
                int(mj.shanten(c)),
                [int(x) for x in t["shanten"]],
                [int(x) for x in t["ukeire"]],
                [x.decode() if isinstance(x, bytes) else str(x) for x in t["discard"]],
            ]
        )
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import mjfast as mj
        from mjfast._kernels import _tables
    record = {
        "status": {k: v for k, v in _tables.STATUS.items() if k != "seconds"},
        "warnings": [f"{w.category.__name__}: {w.message}" for w in caught],
        "answers": answers(mj, n),
    }
    print(json.dumps(record))


if __name__ == "__main__":
    main()
