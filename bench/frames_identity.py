"""Old-versus-new check for work that must not change play: the same seeded games.

Run it once on the tree before a change (``--save``) and once after (``--check``): 400 seeded
games of every registered rule and of 四川 血战, every column both trees have compared as text
(columns one tree adds or lacks are listed, not compared).

    PYTHONPATH=src python bench/frames_identity.py --save /tmp/before.pkl     # on the old tree
    PYTHONPATH=src python bench/frames_identity.py --check /tmp/before.pkl    # on the new tree
"""

from __future__ import annotations

import argparse
import pickle
import sys

import mjfast as mj

N, SEED = 400, 20261201


def record() -> dict:
    cases = {name: (name, {}) for name in mj.rules.names()}
    cases["xuezhan"] = ("sichuan", {"xuezhan": True})
    return {case: mj.simulate_games(name, N, rng=SEED, **opts) for case, (name, opts) in cases.items()}


def compare(before: dict, after: dict) -> bool:
    same_all = True
    for case in sorted(set(before) | set(after)):
        if case not in before or case not in after:
            print(f"{case:10s} only in the {'old' if case in before else 'new'} tree")
            same_all = False
            continue
        a, b = before[case].reset_index(drop=True), after[case].reset_index(drop=True)
        common = [c for c in a.columns if c in b.columns]
        same = len(a) == len(b) and all(a[c].astype(str).equals(b[c].astype(str)) for c in common)
        extra = [c for c in b.columns if c not in a.columns]
        gone = [c for c in a.columns if c not in b.columns]
        differ = "" if same else f", {int((a[common].astype(str) != b[common].astype(str)).any(axis=1).sum())} differ"
        print(
            f"{case:10s} {len(a)}/{len(b)} games, {len(common)} columns compared: "
            f"{'identical' if same else 'DIFFERENT'}{differ}"
            f"{f'; added {extra}' if extra else ''}{f'; gone {gone}' if gone else ''}"
        )
        same_all &= same
    print("ALL IDENTICAL" if same_all else "DIFFERENCES")
    return same_all


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", metavar="FILE", help="record this tree's games")
    g.add_argument("--check", metavar="FILE", help="compare this tree's games with a recording")
    args = p.parse_args(argv)
    games = record()
    if args.save:
        with open(args.save, "wb") as f:
            pickle.dump(games, f)
        return 0
    with open(args.check, "rb") as f:
        return 0 if compare(pickle.load(f), games) else 1


if __name__ == "__main__":
    sys.exit(main())
