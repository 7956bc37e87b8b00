"""Old-versus-new check for speed work on :func:`mjfast.expected_value`: the same answers.

Run it once on the tree before a change (``--save``) and once after (``--check``); every row of
a fixed set of random hands across the ten rules must come out identical (or, with
``--tol``, equal within it where a change alters the order of a summation)::

    PYTHONPATH=<old tree>/src python bench/value_identity.py --save /tmp/value-old.pkl
    PYTHONPATH=src python bench/value_identity.py --check /tmp/value-old.pkl

The set (seed 777): 1- and 2-shanten 14-tile hands without a rule at the default arguments
(40 each), on the returned wall (10 each), 13-tile hands on the exact depleting wall (3 draws,
10 each), 10 hands at depth 2; then for each rule 14 1-shanten and 6 2-shanten hands at 4–8
draws, every fourth on the returned wall (330 cases).  Compared: the row order, ``discard``,
``method``, ``exact``, every figure including ``n_states``, and the attrs.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time

import numpy as np

import mjfast as mj
from mjfast.analysis.value import COLUMNS

#: Every figure of the table (the discard and the labels are the rows' keys, compared as such).
FIGURES = [c for c in COLUMNS if c not in ("discard", "exact", "method")]
RULES = list(mj.rules.names())


def _near_ready(rng, n: int, k: int, target: int) -> list:
    """n random k-tile count vectors of the given shanten, drawn from shuffled 136-tile walls."""
    out: list = []
    while len(out) < n:
        ids = np.argsort(rng.random((20_000, 136)), axis=1)[:, :k] // 4
        counts = np.zeros((len(ids), 34), np.uint8)
        np.add.at(counts, (np.arange(len(ids))[:, None], ids), 1)
        s = mj.shanten_batch(counts, n_threads=1)
        out += [np.ascontiguousarray(c) for c in counts[s == target]]
    return out[:n]


def cases() -> list:
    rng = np.random.default_rng(777)
    out = []
    for s in (1, 2):
        out += [(h, {}) for h in _near_ready(rng, 40, 14, s)]
        out += [(h, {"wall": "returned"}) for h in _near_ready(rng, 10, 14, s)]
        out += [(h, {"draws_left": 3}) for h in _near_ready(rng, 10, 13, s)]
    out += [(h, {"depth": 2, "draws_left": 10}) for h in _near_ready(rng, 10, 14, 1)]
    for rule in RULES:
        copies = mj.rules.get(rule).tileset.copies
        for s, n in ((1, 14), (2, 6)):
            hs = [h for h in _near_ready(rng, 30 * n, 14, s) if copies[np.flatnonzero(h)].min() > 0][:n]
            for i, h in enumerate(hs):
                kw: dict = {"rule": rule, "draws_left": 4 + i % 5}
                if i % 4 == 3:
                    kw["wall"] = "returned"
                out.append((h, kw))
    return out


def run(cs: list) -> list:
    res = []
    for h, kw in cs:
        try:
            df = mj.expected_value(h, **kw)
        except ValueError as e:
            res.append(("error", str(e)))
            continue
        res.append(
            (
                "ok",
                {
                    "discard": df["discard"].astype(str).tolist(),
                    "method": df["method"].astype(str).tolist(),
                    "exact": df["exact"].to_numpy(bool),
                    "figures": df[FIGURES].to_numpy(float),
                    "attrs": {k: v for k, v in df.attrs.items() if k != "summary"},
                },
            )
        )
    return res


def _labels(xs) -> list:
    """The discards as text (a 13-tile hand's row has none: NaN, which equals nothing)."""
    return [str(x) for x in xs]


def compare(old: list, new: list, cs: list, tol: float) -> int:
    same = close = bad = 0
    worst = 0.0
    for (h, kw), a, b in zip(cs, old, new):
        if a[0] != b[0] or (a[0] == "error" and a[1] != b[1]):
            bad += 1
            print("differs:", kw, a[1] if a[0] == "error" else "ok", "|", b[1] if b[0] == "error" else "ok")
            continue
        if a[0] == "error":
            same += 1
            continue
        x, y = a[1], b[1]
        labels = (
            _labels(x["discard"]) == _labels(y["discard"])
            and x["method"] == y["method"]
            and np.array_equal(x["exact"], y["exact"])
        )
        if labels and x["attrs"] == y["attrs"] and np.array_equal(x["figures"], y["figures"], equal_nan=True):
            same += 1
            continue
        d = float(np.nanmax(np.abs(x["figures"] - y["figures"]))) if labels else float("inf")
        if labels and x["attrs"] == y["attrs"] and d <= tol:
            close += 1
            worst = max(worst, d)
        else:
            bad += 1
            print("differs:", kw, "largest difference", d, "labels equal" if labels else "labels differ")
    print(f"{len(cs)} cases: {same} identical, {close} within {tol:g} (largest {worst:.3g}), {bad} different")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", metavar="FILE", help="compute the answers of this tree and store them")
    g.add_argument("--check", metavar="FILE", help="compare this tree's answers with the stored ones")
    ap.add_argument("--tol", type=float, default=0.0, help="accept differences up to this (default: identical)")
    a = ap.parse_args(argv)
    cs = cases()
    t = time.perf_counter()
    res = run(cs)
    print(f"{len(cs)} cases in {time.perf_counter() - t:.0f} s ({mj.__file__})")
    if a.save:
        with open(a.save, "wb") as f:
            pickle.dump(res, f)
        return 0
    with open(a.check, "rb") as f:
        old = pickle.load(f)
    return 1 if compare(old, res, cs, a.tol) else 0


if __name__ == "__main__":
    sys.exit(main())
