#!/usr/bin/env python
"""Benchmark mjfast against the installed peer libraries on the same seeded random hands.

Usage (from the repository root)::

    PYTHONPATH=src python bench/run.py [--quick] [--n N] [--repeat R] [--seed S] [--markdown FILE]

Every section times the libraries round-robin: each repeat runs every library once (the order
rotates from one repeat to the next), and the reported figure is the median over the repeats.
Inputs are converted to each library's native format before timing, so only the calls are timed.
See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

import mjfast as mj  # noqa: E402

perf = time.perf_counter

# ----------------------------------------------------------------------------- peers
PEERS: dict[str, object] = {}
SKIPPED: dict[str, str] = {}


def _try_import(name):
    try:
        mod = __import__(name)
        PEERS[name] = mod
    except Exception as e:  # noqa: BLE001
        SKIPPED[name] = f"import failed: {type(e).__name__}: {e}"


for _name in ("riichienv", "xiangting", "MahjongGB", "mahjong"):
    _try_import(_name)
if "mahjong" in PEERS:
    try:
        from mahjong.shanten import Shanten as _MahjongShanten
    except Exception as e:  # noqa: BLE001
        SKIPPED["mahjong"] = f"mahjong.shanten unavailable: {e}"
        del PEERS["mahjong"]

DIST = {
    "riichienv": "riichienv",
    "xiangting": "xiangting",
    "MahjongGB": "PyMahjongGB",
    "mahjong": "mahjong",
    "numpy": "numpy",
    "pandas": "pandas",
}

GB_NAMES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)


def version(dist):
    try:
        return metadata.version(dist)
    except Exception:  # noqa: BLE001
        return "?"


# ----------------------------------------------------------------------------- hands
def random_ids(rng, n, k):
    """n hands of k distinct tile ids (0..135, kind = id // 4) drawn from a shuffled wall."""
    out = np.empty((n, k), np.int64)
    chunk = 20_000
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        out[s : s + m] = np.argsort(rng.random((m, 136), dtype=np.float32), axis=1)[:, :k]
    return out


def counts_of(ids):
    n = ids.shape[0]
    c = np.zeros((n, 34), np.uint8)
    np.add.at(c, (np.repeat(np.arange(n), ids.shape[1]), (ids // 4).ravel()), 1)
    return c


class HandSet:
    """The same hands in every library's input format."""

    def __init__(self, ids):
        ids = np.sort(ids, axis=1)
        self.ids = ids
        self.counts2d = counts_of(ids)
        self.counts = [np.ascontiguousarray(r) for r in self.counts2d]  # mjfast
        self.hands = [mj.Hand(r) for r in self.counts2d]  # mjfast Hand
        self.ids136 = [r.tolist() for r in ids]  # riichienv
        self.list34 = [r.tolist() for r in self.counts2d]  # xiangting, mahjong
        self.gb = [tuple(GB_NAMES[k] for k in range(34) for _ in range(r[k])) for r in self.list34]

    def __len__(self):
        return len(self.counts)


def near_ready(rng, n, k, target):
    """n random k-tile hands whose (min-form) shanten equals target, filtered from wall draws."""
    got = []
    total = 0
    while total < n:
        ids = random_ids(rng, 40_000, k)
        s = mj.shanten_batch(counts_of(ids), n_threads=1)
        sel = ids[s == target]
        got.append(sel)
        total += len(sel)
    return np.concatenate(got)[:n]


# ----------------------------------------------------------------------------- timing
def round_robin(fns: dict, repeat: int):
    """fns: name -> zero-arg callable returning (elapsed_seconds, n_ops).  Median seconds/op."""
    names = list(fns)
    samples = {k: [] for k in names}
    for r in range(repeat):
        order = names[r % len(names) :] + names[: r % len(names)]
        for k in order:
            el, n = fns[k]()
            samples[k].append(el / n)
    return {k: statistics.median(v) for k, v in samples.items()}


def loop1(f, xs):
    def run():
        t = perf()
        for x in xs:
            f(x)
        return perf() - t, len(xs)

    return run


def fmt_t(s):
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.2f} µs"


def fmt_rate(s):
    r = 1 / s
    if r >= 1e6:
        return f"{r / 1e6:.2f} M/s"
    if r >= 1e3:
        return f"{r / 1e3:.1f} k/s"
    return f"{r:.1f} /s"


ROWS: list[dict] = []  # for the markdown summary


def report(section, med, base, note=""):
    print(f"\n## {section}")
    if note:
        print(f"   {note}")
    b = med.get(base)
    for k, s in med.items():
        ratio = ""
        if b is not None and k != base:
            r = s / b
            ratio = (
                f"   {base} is {r:.2f}x {'faster' if r >= 1 else 'slower'}"
                if r >= 1
                else f"   {base} is {1 / r:.2f}x slower"
            )
        print(f"   {k:<52} {fmt_t(s):>11}/call {fmt_rate(s):>11}{ratio}")
        ROWS.append({"section": section, "impl": k, "sec": s, "ratio": None if b is None or k == base else s / b})


# ----------------------------------------------------------------------------- sections
def peer_shanten_fns(hs: HandSet, tiles: int):
    fns = {}
    if "riichienv" in PEERS:
        fns["riichienv.calculate_shanten"] = loop1(PEERS["riichienv"].calculate_shanten, hs.ids136)
    if "xiangting" in PEERS:
        x = PEERS["xiangting"]
        crn, four, xs = x.calculate_replacement_number, x.PlayerCount.FOUR, hs.list34

        def run_x():
            t = perf()
            for h in xs:
                crn(h, four) - 1
            return perf() - t, len(xs)

        fns["xiangting.calculate_replacement_number-1"] = run_x
    if "MahjongGB" in PEERS and tiles == 13:
        ms, gs = PEERS["MahjongGB"].MahjongShanten, hs.gb

        def run_gb():
            t = perf()
            for h in gs:
                ms(pack=(), hand=h)
            return perf() - t, len(gs)

        fns["MahjongGB.MahjongShanten"] = run_gb
    if "mahjong" in PEERS:
        fns["mahjong.Shanten().calculate_shanten"] = loop1(_MahjongShanten().calculate_shanten, hs.list34)
    return fns


def check_agreement(hs: HandSet, tiles: int):
    """Values of every library on the same hands; riichi peers vs seven_pairs='riichi'."""
    ref_r = np.array([mj.shanten(c, seven_pairs="riichi") for c in hs.counts])
    ref_c = np.array([mj.shanten(c) for c in hs.counts])
    lines = [f"mjfast default vs seven_pairs='riichi': {int((ref_r != ref_c).sum())} of {len(hs)} differ"]
    out = {}
    peers = []
    if "riichienv" in PEERS:
        peers.append(("riichienv", [PEERS["riichienv"].calculate_shanten(h) for h in hs.ids136], ref_r))
    if "xiangting" in PEERS:
        x = PEERS["xiangting"]
        peers.append(
            ("xiangting", [x.calculate_replacement_number(h, x.PlayerCount.FOUR) - 1 for h in hs.list34], ref_r)
        )
    if "mahjong" in PEERS:
        s = _MahjongShanten()
        peers.append(("mahjong", [s.calculate_shanten(h) for h in hs.list34], ref_r))
    if "MahjongGB" in PEERS and tiles == 13:
        ref_gb = mj.shanten_batch(hs.counts2d, rule="guobiao", n_threads=1)
        peers.append(
            (
                "MahjongGB (vs mjfast rule='guobiao')",
                [PEERS["MahjongGB"].MahjongShanten(pack=(), hand=h) for h in hs.gb],
                ref_gb,
            )
        )
    for name, vals, ref in peers:
        vals = np.asarray(vals)
        bad = np.flatnonzero(vals != ref)
        ex = ", ".join(f"{mj.to_mpsz(hs.counts2d[i])}: mjfast {int(ref[i])} vs {int(vals[i])}" for i in bad[:3])
        lines.append(f"{name}: {len(hs) - len(bad)}/{len(hs)} agree" + (f" (e.g. {ex})" if len(bad) else ""))
        out[name] = (len(hs) - len(bad), len(hs))
    return lines, out


def section_shanten(hs13, hs14, repeat):
    res = {}
    agree = {}
    for tiles, hs in ((13, hs13), (14, hs14)):
        fns = {
            "mjfast.shanten(counts)": loop1(mj.shanten, hs.counts),
            "mjfast.shanten(Hand)": loop1(mj.shanten, hs.hands),
        }
        sp = mj.shanten
        cs = hs.counts

        def run_riichi(cs=cs):
            t = perf()
            for c in cs:
                sp(c, seven_pairs="riichi")
            return perf() - t, len(cs)

        fns["mjfast.shanten(counts, seven_pairs='riichi')"] = run_riichi
        fns.update(peer_shanten_fns(hs, tiles))
        med = round_robin(fns, repeat)
        report(
            f"(1) shanten, {tiles}-tile concealed hands, one call at a time (n={len(hs)})",
            med,
            "mjfast.shanten(counts)",
        )
        lines, ag = check_agreement(hs, tiles)
        for ln in lines:
            print("   agreement: " + ln)
        res[tiles] = med
        agree[tiles] = (lines, ag)
    if "MahjongGB" in PEERS:
        print("   (MahjongGB.MahjongShanten accepts only 3k+1 hands: skipped for 14 tiles)")
    return res, agree


def section_batch(rng, n_batch, repeat):
    counts = counts_of(random_ids(rng, n_batch, 13))
    out = {}
    fns = {}
    for th in (1, 2):

        def run(th=th):
            t = perf()
            mj.shanten_batch(counts, n_threads=th)
            return perf() - t, n_batch

        fns[f"mjfast.shanten_batch n_threads={th}"] = run
    mj.shanten_batch(counts, n_threads=1)  # warm the table pages
    med = round_robin(fns, repeat)
    report(f"(2) shanten_batch, {n_batch:,} random 13-tile hands (per hand)", med, "mjfast.shanten_batch n_threads=1")
    out.update(med)
    return out


def section_wild(hs13, rng, n_batch, repeat):
    # the same hands: k of the 13 tiles are replaced by k wildcards
    c13 = hs13.counts2d
    drop = {}
    for k in (1, 2):
        c = c13.copy()
        for i in range(len(c)):
            kinds = np.flatnonzero(hs13.counts2d[i])
            for kind in rng.choice(np.repeat(kinds, hs13.counts2d[i][kinds]), k, replace=False):
                c[i, kind] -= 1
        drop[k] = c
    lists = {0: [np.ascontiguousarray(r) for r in c13]}
    for k in (1, 2):
        lists[k] = [np.ascontiguousarray(r) for r in drop[k]]
    sp = mj.shanten
    fns = {"mjfast.shanten(counts13) no wildcard": loop1(sp, lists[0])}
    for k in (1, 2):

        def run(k=k):
            xs = lists[k]
            t = perf()
            for c in xs:
                sp(c, wilds=k)
            return perf() - t, len(xs)

        fns[f"mjfast.shanten(counts{13 - k}, wilds={k})"] = run
    med = round_robin(fns, repeat)
    report(
        f"(3a) wildcard shanten, one call at a time (n={len(c13)}, same hands)",
        med,
        "mjfast.shanten(counts13) no wildcard",
    )
    # batch, kernel cost without the Python call overhead
    big = counts_of(random_ids(rng, n_batch, 13))
    bigw = {0: big}
    for k in (1, 2):
        c = big.copy()
        for j in range(k):
            # remove one tile: the first kind still held after a random offset
            nz = c > 0
            start = rng.integers(0, 34, len(c))
            order = (np.arange(34)[None, :] - start[:, None]) % 34
            key = np.where(nz, order, 99)
            kind = key.argmin(axis=1)
            c[np.arange(len(c)), kind] -= 1
        bigw[k] = c
    fnb = {}
    for k in (0, 1, 2):

        def runb(k=k):
            t = perf()
            mj.shanten_batch(bigw[k], wilds=k, n_threads=1)
            return perf() - t, n_batch

        fnb[f"mjfast.shanten_batch wilds={k} n_threads=1"] = runb
    medb = round_robin(fnb, repeat)
    report(
        f"(3b) wildcard shanten_batch, {n_batch:,} hands, one thread (per hand)",
        medb,
        "mjfast.shanten_batch wilds=0 n_threads=1",
    )
    return med, medb


def riichienv_ukeire(cs, ids, counts):
    """ukeire count of a 13-tile hand with riichienv: 34 draws x shanten."""
    base = cs(ids)
    total = 0
    for k in range(34):
        c = counts[k]
        if c < 4:
            if cs(ids + [4 * k + c]) < base:
                total += 4 - c
    return total


def xiangting_ukeire(cnt, four, l34):
    _, nt = cnt(l34, four)
    total = 0
    for k in range(34):
        if nt >> k & 1:
            total += 4 - l34[k]
    return total


def section_ukeire(sets, repeat):
    out = {}
    for label, hs in sets:
        uk = mj.ukeire
        fns = {"mjfast.ukeire(counts13).count": loop1(lambda c: uk(c, seven_pairs="riichi").count, hs.counts)}
        checks = {"mjfast": [uk(c, seven_pairs="riichi").count for c in hs.counts]}
        if "riichienv" in PEERS:
            cs = PEERS["riichienv"].calculate_shanten
            pairs = list(zip(hs.ids136, hs.list34))

            def run_r(pairs=pairs, cs=cs):
                t = perf()
                for ids, l34 in pairs:
                    riichienv_ukeire(cs, ids, l34)
                return perf() - t, len(pairs)

            fns["riichienv: 34 draws x calculate_shanten"] = run_r
            checks["riichienv"] = [riichienv_ukeire(cs, i, left) for i, left in pairs]
        if "xiangting" in PEERS:
            x = PEERS["xiangting"]
            cnt, four, ls = x.calculate_necessary_tiles, x.PlayerCount.FOUR, hs.list34

            def run_x(ls=ls):
                t = perf()
                for l34 in ls:
                    xiangting_ukeire(cnt, four, l34)
                return perf() - t, len(ls)

            fns["xiangting.calculate_necessary_tiles (+count)"] = run_x
            checks["xiangting"] = [xiangting_ukeire(cnt, four, left) for left in ls]
        med = round_robin(fns, repeat)
        report(
            f"(4) ukeire (进张 count) of a 13-tile hand, {label} (n={len(hs)})", med, "mjfast.ukeire(counts13).count"
        )
        ref = np.array(checks["mjfast"])
        for k, v in checks.items():
            if k != "mjfast":
                v = np.array(v)
                bad = np.flatnonzero(v != ref)
                ex = "; ".join(f"{mj.to_mpsz(hs.counts2d[i])}: mjfast {ref[i]} vs {v[i]}" for i in bad[:2])
                print(
                    f"   agreement: {k}: {len(ref) - len(bad)}/{len(ref)} equal ukeire counts"
                    + (f" (e.g. {ex})" if len(bad) else "")
                )
        out[label] = med
    return out


def riichienv_discard_table(cs, ids14, counts14):
    """Per distinct discard: (kind, shanten after discard, ukeire kinds, ukeire copies)."""
    rows = []
    seen = set()
    for j, tid in enumerate(ids14):
        d = tid // 4
        if d in seen:
            continue
        seen.add(d)
        h13 = ids14[:j] + ids14[j + 1 :]
        s = cs(h13)
        kinds = copies = 0
        for k in range(34):
            c = counts14[k]
            if c < 4 and cs(h13 + [4 * k + c]) < s:
                kinds += 1
                copies += 4 - c
        rows.append((d, s, kinds, copies))
    return rows


def section_discards(sets, repeat):
    out = {}
    for label, hs in sets:
        ad = mj.analyze_discards
        fns = {
            "mjfast.analyze_discards(as_frame=False, combos=False)": loop1(
                lambda c: ad(c, as_frame=False, combos=False, seven_pairs="riichi"), hs.counts
            ),
            "mjfast.analyze_discards(as_frame=False, combos=True)": loop1(
                lambda c: ad(c, as_frame=False, combos=True, seven_pairs="riichi"), hs.counts
            ),
        }
        if "riichienv" in PEERS:
            cs = PEERS["riichienv"].calculate_shanten
            pairs = list(zip(hs.ids136, hs.list34))

            def run_r(pairs=pairs, cs=cs):
                t = perf()
                for ids, l34 in pairs:
                    riichienv_discard_table(cs, ids, l34)
                return perf() - t, len(pairs)

            fns["riichienv: 14 discards x 34 draws x shanten"] = run_r
        med = round_robin(fns, repeat)
        report(
            f"(5) discard table of a 14-tile hand, {label} (n={len(hs)})",
            med,
            "mjfast.analyze_discards(as_frame=False, combos=False)",
        )
        if "riichienv" in PEERS:
            good = 0
            shown = False
            for c, ids, l34 in zip(hs.counts, hs.ids136, hs.list34):
                t = ad(c, as_frame=False, combos=False, seven_pairs="riichi")
                mine = {
                    d.decode(): (int(s), int(k), int(u))
                    for d, s, k, u in zip(t["discard"], t["shanten"], t["ukeire_kinds"], t["ukeire"])
                }
                theirs = {
                    mj.to_mpsz(np.eye(34, dtype=np.uint8)[d]): (s, k, u)
                    for d, s, k, u in riichienv_discard_table(cs, ids, l34)
                }
                good += mine == theirs
                if mine != theirs and not shown:
                    shown = True
                    diff = {
                        k: (mine.get(k), theirs.get(k)) for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)
                    }
                    print(f"   first mismatch {mj.to_mpsz(c)}: discard -> (mjfast, riichienv) {diff}")
            print(
                "   agreement: riichienv table (discard -> shanten, ukeire kinds, ukeire): "
                f"{good}/{len(hs)} hands identical"
            )
        n1 = sum(int((ad(c, as_frame=False, combos=True)["combos"] > 0).any()) for c in hs.counts)
        print(f"   hands with a non-zero 一进听 combos row: {n1}/{len(hs)}")
        out[label] = med
    return out


def section_hand_path(hs13, hs14, repeat):
    """The Hand path: ``mj.shanten/ukeire/analyze_discards(Hand)`` against the count-vector path
    on the same hands (target: at most 1.5x), and against riichienv (target: ``shanten(Hand)`` at
    least as fast as one ``calculate_shanten`` call, ``ukeire(Hand)`` at least 20x the 34-draw
    computation)."""
    sp, uk, ad = mj.shanten, mj.ukeire, mj.analyze_discards
    groups = {
        "shanten": (
            {"mjfast.shanten(counts)": loop1(sp, hs13.counts), "mjfast.shanten(Hand)": loop1(sp, hs13.hands)},
            "mjfast.shanten(Hand)",
        ),
        "ukeire": (
            {
                "mjfast.ukeire(counts)": loop1(lambda c: uk(c, seven_pairs="riichi"), hs13.counts),
                "mjfast.ukeire(Hand)": loop1(lambda h: uk(h, seven_pairs="riichi"), hs13.hands),
            },
            "mjfast.ukeire(Hand)",
        ),
        "discards": (
            {
                "mjfast.analyze_discards(counts, as_frame=False)": loop1(
                    lambda c: ad(c, as_frame=False, combos=False, seven_pairs="riichi"), hs14.counts
                ),
                "mjfast.analyze_discards(Hand, as_frame=False)": loop1(
                    lambda h: ad(h, as_frame=False, combos=False, seven_pairs="riichi"), hs14.hands
                ),
            },
            "mjfast.analyze_discards(Hand, as_frame=False)",
        ),
    }
    if "riichienv" in PEERS:
        cs = PEERS["riichienv"].calculate_shanten
        groups["shanten"][0]["riichienv.calculate_shanten"] = loop1(cs, hs13.ids136)
        pairs = list(zip(hs13.ids136, hs13.list34))

        def run_r(pairs=pairs, cs=cs):
            t = perf()
            for ids, l34 in pairs:
                riichienv_ukeire(cs, ids, l34)
            return perf() - t, len(pairs)

        groups["ukeire"][0]["riichienv: 34 draws x calculate_shanten"] = run_r
    meds = {}
    for name, (fns, base) in groups.items():
        meds[name] = med = round_robin(fns, repeat)
        n = len(hs14) if name == "discards" else len(hs13)
        report(f"(11) the Hand path: {name} of {'14' if name == 'discards' else '13'}-tile hands (n={n})", med, base)
    s, u, d = meds["shanten"], meds["ukeire"], meds["discards"]
    discards_counts = d["mjfast.analyze_discards(counts, as_frame=False)"]
    print(
        "   targets: Hand path / count path "
        f"shanten {s['mjfast.shanten(Hand)'] / s['mjfast.shanten(counts)']:.2f}x, "
        f"ukeire {u['mjfast.ukeire(Hand)'] / u['mjfast.ukeire(counts)']:.2f}x, "
        f"analyze_discards {d['mjfast.analyze_discards(Hand, as_frame=False)'] / discards_counts:.2f}x "
        "(target <= 1.5x)"
    )
    if "riichienv" in PEERS:
        print(
            "   targets: riichienv / Hand path "
            f"shanten {s['riichienv.calculate_shanten'] / s['mjfast.shanten(Hand)']:.2f}x (target >= 1), "
            f"ukeire {u['riichienv: 34 draws x calculate_shanten'] / u['mjfast.ukeire(Hand)']:.1f}x (target >= 20)"
        )
    return meds


IMPORT_SNIPPET = r"""
import sys, time, json
if sys.argv[1] in ("numpy", "pandas"):
    import numpy
if sys.argv[1] == "pandas":
    import pandas
t = time.perf_counter()
import mjfast
dt = time.perf_counter() - t
print(json.dumps({"t": dt}))
"""

RSS_SNIPPET = r"""
import json, numpy as np
def status():
    d = {}
    for line in open("/proc/self/status"):
        k, _, v = line.partition(":")
        if k in ("VmRSS", "RssAnon", "RssFile"):
            d[k] = int(v.split()[0]) * 1024
    return d
s0 = status()
import mjfast
s1 = status()
from mjfast._kernels import _tables
tabs = _tables.load_tables()   # the tables the kernels loaded at import (from the cache)
info = {k: {"type": type(v).__name__, "nbytes": int(v.nbytes), "shape": list(v.shape), "dtype": str(v.dtype)}
        for k, v in tabs.items()}
rng = np.random.default_rng(0)
ids = np.argsort(rng.random((100000, 136), dtype=np.float32), axis=1)[:, :13]
c = np.zeros((100000, 34), np.uint8)
np.add.at(c, (np.repeat(np.arange(100000), 13), (ids // 4).ravel()), 1)
del ids
s2a = status()
mjfast.shanten_batch(c, n_threads=1)
s2 = status()
for v in tabs.values():
    int(np.asarray(v).sum(dtype=np.uint64))
s3 = status()
print(json.dumps({"before": s0, "import": s1, "batch_pre": s2a, "batch": s2, "touched": s3, "tables": info}))
"""


def section_import(repeat):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    res = {}
    for mode in ("cold", "numpy", "pandas"):
        ts, walls = [], []
        for _ in range(repeat):
            t = perf()
            p = subprocess.run(
                [sys.executable, "-c", IMPORT_SNIPPET, mode], env=env, capture_output=True, text=True, check=True
            )
            walls.append(perf() - t)
            ts.append(json.loads(p.stdout)["t"])
        res[mode] = (statistics.median(ts), statistics.median(walls))
    base = []
    for _ in range(repeat):
        t = perf()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
        base.append(perf() - t)
    res["python_startup"] = statistics.median(base)
    p = subprocess.run([sys.executable, "-c", RSS_SNIPPET], env=env, capture_output=True, text=True, check=True)
    rss = json.loads(p.stdout)
    print("\n## (6) import and table memory")
    print(
        f"   `import mjfast` in a fresh interpreter (includes numpy, pandas): {res['cold'][0] * 1e3:.0f} ms "
        f"(whole subprocess {res['cold'][1] * 1e3:.0f} ms; bare `python -c pass` {res['python_startup'] * 1e3:.0f} ms)"
    )
    print(
        f"   `import mjfast` with numpy already imported: {res['numpy'][0] * 1e3:.0f} ms; "
        f"with numpy and pandas already imported: {res['pandas'][0] * 1e3:.0f} ms"
    )
    tot = sum(v["nbytes"] for v in rss["tables"].values())
    for k, v in rss["tables"].items():
        print(f"   table {k:<16} {v['type']:<7} {v['dtype']:<6} {str(v['shape']):<14} {v['nbytes'] / 2**20:7.2f} MiB")
    print(f"   tables total nbytes: {tot / 2**20:.2f} MiB ({tot / 1e6:.1f} MB)")
    mib = lambda a, b, k: (rss[b][k] - rss[a][k]) / 2**20  # noqa: E731
    print(
        f"   RSS delta of `import mjfast` (numpy imported first): {mib('before', 'import', 'VmRSS'):.1f} MiB "
        f"(file-backed {mib('before', 'import', 'RssFile'):.1f}, anon {mib('before', 'import', 'RssAnon'):.1f})"
    )
    print(
        f"   RSS delta of shanten_batch over 100k random hands: {mib('batch_pre', 'batch', 'VmRSS'):.1f} MiB "
        f"(file-backed {mib('batch_pre', 'batch', 'RssFile'):.1f})"
    )
    print(
        f"   RSS delta after touching every table page: {mib('batch', 'touched', 'VmRSS'):.1f} MiB more; "
        f"(file-backed {mib('batch', 'touched', 'RssFile'):.1f}); "
        f"total since before import {mib('before', 'touched', 'VmRSS'):.1f} MiB"
    )
    return res, rss, tot


# ----------------------------------------------------------------------------- scoring
#: Kinds each rule plays (苏州 / 太仓: the dragons are flowers), for random winning hands.
SCORING_KINDS = {
    "suzhou": range(31),
    "taicang": range(31),
    "guangdong": range(34),
    "sichuan": range(27),
    "guiyang": range(27),
    "ruijin": range(34),
    "shangrao": range(34),
    "jinhua": range(34),
    "jj": range(34),
    "guobiao": range(34),
}


def _test_helpers():
    """The tests' random winning hands (tests/_hands.py, tests/scoring/test_scoring_guobiao.py)."""
    for folder in (ROOT / "tests", ROOT / "tests" / "scoring"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    from _hands import random_contexts
    from test_scoring_guobiao import random_win

    return random_contexts, random_win


def section_scoring(n, repeat, seed):
    """国标 ``mj.score`` vs ``MahjongGB.MahjongFanCalculator`` on the same winning hands, and
    ``mj.can_win`` per rule on random complete hands (the call the game engine makes)."""
    import random

    from mjfast import rules

    random_contexts, random_win = _test_helpers()
    rng = random.Random(seed)
    wins = [random_win(rng) for _ in range(n)]  # (WinContext, flowers?, PyMahjongGB arguments)
    plain = [w for w in wins if not w[1]]
    score, can_win = mj.score, mj.can_win
    out = {}

    def mj_score(ws):
        def run():
            t = perf()
            for ctx, fl, _a in ws:
                if fl:
                    score(ctx, "guobiao", flowers=True)
                else:
                    score(ctx, "guobiao")
            return perf() - t, len(ws)

        return run

    def mj_can_win(ws):
        def run():
            t = perf()
            for ctx, fl, _a in ws:
                if fl:
                    can_win(ctx, "guobiao", flowers=True)
                else:
                    can_win(ctx, "guobiao")
            return perf() - t, len(ws)

        return run

    for label, ws in (("all hands, 4/7 with flowers", wins), ("hands without flowers", plain)):
        fns = {"mjfast.score(ctx, 'guobiao')": mj_score(ws), "mjfast.can_win(ctx, 'guobiao')": mj_can_win(ws)}
        if "MahjongGB" in PEERS:
            calc = PEERS["MahjongGB"].MahjongFanCalculator

            def run_gb(ws=ws):
                t = perf()
                for _c, _f, args in ws:
                    calc(*args)
                return perf() - t, len(ws)

            fns["MahjongGB.MahjongFanCalculator"] = run_gb
        med = round_robin(fns, max(repeat, 5))
        report(
            f"(7) 国标 fan calculation, {label} ({len(ws)} hands)",
            med,
            "mjfast.score(ctx, 'guobiao')",
            "the hands of tests/scoring/test_scoring_guobiao.py (identical fans); mjfast with a built WinContext, "
            "PyMahjongGB with its argument tuple",
        )
        out[label] = med

    # can_win per rule, as the engine calls it (a resolved Rule), on the same kind of hands
    # the tests use: random complete hands, half self-drawn
    nprng = np.random.default_rng(seed)
    fns = {}
    for name, kinds in SCORING_KINDS.items():
        rule = rules.get(name)
        ctxs = random_contexts(nprng, list(kinds), max(50, n // 4), chow_melds=rule.calls.chow != "none")

        def run_rule(ctxs=ctxs, rule=rule, fn=can_win):
            t = perf()
            for ctx in ctxs:
                fn(ctx, rule)
            return perf() - t, len(ctxs)

        fns[f"can_win {name}"] = run_rule
        fns[f"score {name}"] = functools.partial(run_rule, fn=score)
    med = round_robin(fns, max(repeat, 5))
    report(
        f"(8) mjfast.can_win(ctx, Rule) and mjfast.score(ctx, Rule) per rule ({max(50, n // 4)} random "
        "complete hands each)",
        med,
        None,
        "target: score at most 20 µs per call for every regional rule",
    )
    out["can_win"] = med
    return out


def section_games(n_games, repeat, seed):
    """``simulate_games`` per rule on one thread, scoring and settlement included (games/s), the
    default ``Value()`` players beside ``Efficiency()``, and ``simulate_draws`` (18 draws) on a
    ready and a 1-shanten hand."""
    from mjfast.policies import Efficiency, Value
    from mjfast.simulation.games import simulate_games

    fns = {}
    for name in mj.rules.names():
        for policy in (Value(), Efficiency()):
            simulate_games(name, 64, rng=seed, n_threads=1, policy=policy)  # warm-up: tables, pattern values

            def run(name=name, policy=policy):
                t = perf()
                simulate_games(name, n_games, rng=seed, n_threads=1, policy=policy)
                return perf() - t, n_games

            fns[f"simulate_games {name} {policy!r}"] = run
    med = round_robin(fns, repeat)
    report(
        f"(9) simulate_games, one thread, per game ({n_games} games per rule and policy)",
        med,
        None,
        "targets (Value(), the default): at least 4,000 games/s for sichuan, 2,000 for suzhou and 700 for every rule",
    )
    for name in mj.rules.names():
        v, e = med[f"simulate_games {name} Value()"], med[f"simulate_games {name} Efficiency()"]
        print(f"    {name:10s} Value() {1 / v:8.0f} games/s, Efficiency() {1 / e:8.0f} games/s, ratio {e / v:.2f}")
    n_draws = 20 * n_games
    fns = {
        "simulate_draws ready (1112345678999m)": lambda: _draws("1112345678999m", n_draws, seed),
        "simulate_draws 1-shanten (11p34567m45s9p+555z)": lambda: _draws(
            mj.Hand("11p34567m45s9p", melds=["555z"]), n_draws, seed
        ),
    }
    draws = round_robin(fns, repeat)
    report(
        f"(10) simulate_draws, 18 draws, one thread, per simulated hand (n={n_draws})",
        draws,
        None,
        "targets: 200,000 hands/s ready, 20,000 hands/s 1-shanten",
    )
    return med, draws


def _draws(hand, n, seed):
    t = perf()
    mj.simulate_draws(hand, n=n, rng=seed, n_threads=1)
    return perf() - t, n


# ----------------------------------------------------------------------------- main
def machine():
    cpu = "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    except Exception:  # noqa: BLE001
        pass
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} logical CPUs, {system}, Python {platform.python_version()}"


# ----------------------------------------------------------------------------- value (expected_value)
def _value_stages(hands, rule=None):
    """Median time of each stage of ``expected_value`` (default arguments) over ``hands``, with
    the graph sizes and the judging work: where the time of one call goes."""
    from mjfast._kernels import _value as kv
    from mjfast.analysis import value as V

    names = ("set-up", "row shanten", "build", "judge", "solve", "reachable", "columns", "table")
    t = {k: [] for k in names}
    sizes, queries, judged = [], [], []
    for h in hands:
        t0 = perf()
        st = V._setup(
            h,
            rule=rule,
            draws_left=None,
            visible=None,
            melds=(),
            wilds=None,
            wild_kind=None,
            wild_copies=None,
            discard_wins=True,
            hazard=None,
            first_turns=3,
            rule_options={},
        )
        t1 = perf()
        sh = V._row_shanten(st)
        t2 = perf()
        mode = V._pick_mode("depleting", st)
        p = V._new_problem(st, mode, 1, 2_000_000, list(sh))
        kv.build_many([p], 1)
        t3 = perf()
        before = sum(len(m) for m in V._MEMO.values())
        tabs = V._judge(p, st)
        t4 = perf()
        res = kv.solve_many([p], [st.hazard], [st.turns], False, 1)[0]
        t5 = perf()
        reach = p.reachable()
        t6 = perf()
        cols = V._columns(V._Solved(st, p, mode, p.roots(), res, {}, sh, reach, tabs))
        t7 = perf()
        V._frame(cols)
        t8 = perf()
        for k, a, b in zip(names, (t0, t1, t2, t3, t4, t5, t6, t7), (t1, t2, t3, t4, t5, t6, t7, t8)):
            t[k].append(b - a)
        sizes.append(sum(p.n_states[:2]))
        queries.append(p.n_queries)
        after = sum(len(m) for m in V._MEMO.values())
        judged.append(after - before if after >= before else after)
    med = statistics.median
    return (
        ", ".join(f"{k} {fmt_t(med(v))}" for k, v in t.items())
        + f"; states {med(sizes):,.0f}, wins to judge {med(queries):,.0f}, wins judged anew {med(judged):,.0f}"
        + f" (medians over {len(hands)} hands)"
    )


def section_value(n_hands, seed, rules=("guobiao", "sichuan", "suzhou"), n_rule=20, n_ratio=5, n_batch=40):
    """expected_value: all discards of random 14-tile hands at the default depth (rule-free, like the
    riichi calculators' shape-and-score EV, then per rule), the ratio to simulate_draws reaching a
    standard error of 0.002 on p_win, and the batch form on 1 and 2 threads.  One core unless stated.

    mahjong-cpp (nekobean) is not installable here (C++, no package on PyPI); its published figures
    for comparable hands at its default bound (18 ms 1-shanten, 213 ms 2-shanten, VALUE.md §1.2) are
    quoted, not measured."""
    rng = np.random.default_rng(seed)
    sets = {s: [np.ascontiguousarray(r, np.uint8) for r in counts_of(near_ready(rng, n_hands, 14, s))] for s in (1, 2)}
    out = {}
    print("\n## (V) expected_value, all discards of a 14-tile hand, default depth 1, 20 draws, discard wins on")
    print(f"  load average at start: {os.getloadavg()[0]:.2f}")
    for s, hands in sets.items():
        mj.expected_value(hands[0])  # warm-up
        ts = []
        for h in hands:
            t = perf()
            mj.expected_value(h)
            ts.append(perf() - t)
        out[f"none_{s}"] = statistics.median(ts)
        pub = 0.018 if s == 1 else 0.213
        print(
            f"  rule-free, {s}-shanten: median {fmt_t(out[f'none_{s}'])} over {len(hands)} hands "
            f"(mahjong-cpp published: {fmt_t(pub)}, {pub / out[f'none_{s}']:.1f}x that; load {os.getloadavg()[0]:.2f})"
        )
        print(f"    stages: {_value_stages(hands[: min(len(hands), 100)])}")
    for rule in rules:
        for s in (1, 2):
            hs = [
                h
                for h in counts_of(near_ready(rng, 4 * n_rule, 14, s))
                if mj.rules.get(rule).tileset.copies[np.flatnonzero(h)].min() > 0
            ][:n_rule]
            ts = []
            hs = [np.ascontiguousarray(h, np.uint8) for h in hs]
            for h in hs:
                t = perf()
                mj.expected_value(h, rule=rule)
                ts.append(perf() - t)
            out[f"{rule}_{s}"] = statistics.median(ts)
            print(
                f"  {rule}, {s}-shanten: median {fmt_t(out[f'{rule}_{s}'])} over {len(hs)} hands (judging memo "
                "shared across hands, as in one session)"
            )
            print(f"    stages, the same hands again (warm judging memo): {_value_stages(hs, rule)}")
    ratios = []
    for s, hands in sets.items():
        for h in hands[:n_ratio]:
            # each side the best of 3 runs, the two alternating: on a shared machine one run of
            # either can lose its core for a while
            t_ev = t_mc = float("inf")
            for _rep in range(3):
                t = perf()
                df = mj.expected_value(h, discard_wins=False)
                t_ev = min(t_ev, perf() - t)
                p = float(df["p_win"].iloc[0])
                n = max(1000, int(np.ceil(p * (1 - p) / 0.002**2)))
                t = perf()
                sim = mj.simulate_draws(h, draws_left=20, n=n, rng=1, n_threads=1)
                t_mc = min(t_mc, perf() - t)
            ratios.append(t_mc / t_ev)
            print(
                f"  {s}-shanten hand: expected_value {fmt_t(t_ev)} (all discards) vs simulate_draws n={n:,} "
                f"(se {float(sim['se_win'].iloc[-1]):.4f}, one line) {fmt_t(t_mc)}: {t_mc / t_ev:.0f}x (best of 3 each)"
            )
    out["ratio_median"] = statistics.median(ratios)
    out["ratio_min"] = min(ratios)
    print(f"  ratio to simulate_draws at se 0.002: median {out['ratio_median']:.0f}x, min {out['ratio_min']:.0f}x")
    batch = sets[2][:n_batch]
    for threads in (1, 2):
        out[f"batch_{threads}"] = float("inf")
    for _rep in range(3):  # alternating, best of 3 each
        for threads in (1, 2):
            t = perf()
            mj.expected_value(batch, n_threads=threads)
            out[f"batch_{threads}"] = min(out[f"batch_{threads}"], perf() - t)
    print(
        f"  batch of {len(batch)} 2-shanten hands: 1 thread {fmt_t(out['batch_1'])}, 2 threads "
        f"{fmt_t(out['batch_2'])}: {out['batch_1'] / out['batch_2']:.2f}x (load {os.getloadavg()[0]:.2f})"
    )
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes and 3 repeats (a smoke run of ~20 s)")
    ap.add_argument("--n", type=int, default=None, help="hands per per-call section (default 2000; quick 400)")
    ap.add_argument("--repeat", type=int, default=None, help="round-robin repeats (default 5; quick 3)")
    ap.add_argument("--seed", type=int, default=20261129, help="RNG seed for the hands")
    ap.add_argument("--batch-n", type=int, default=None, help="hands for shanten_batch (default 100000; quick 20000)")
    ap.add_argument("--markdown", type=str, default=None, help="also write the results table to this file")
    ap.add_argument(
        "--games", type=int, default=None, help="games per rule for simulate_games (default 2048; quick 256)"
    )
    ap.add_argument(
        "--games-only",
        action="store_true",
        help="run only the simulate_games / simulate_draws section (9, 10): Value() beside Efficiency()",
    )
    ap.add_argument(
        "--hand-path",
        action="store_true",
        help="run only the Hand-path section (11): Hand vs count vector vs riichienv",
    )
    ap.add_argument(
        "--value",
        type=int,
        default=None,
        metavar="N",
        help="run only the expected_value section, on N random 1- and N 2-shanten hands (e.g. 200)",
    )
    ap.add_argument(
        "--value-rules",
        type=int,
        default=20,
        metavar="M",
        help="with --value: hands per rule and shanten for the per-rule lines (default 20; 0 skips them)",
    )
    a = ap.parse_args(argv)
    if a.value:
        print(f"# mjfast value benchmark  {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M UTC}")
        print(f"machine: {machine()}")
        section_value(
            a.value, a.seed, n_rule=a.value_rules, rules=("guobiao", "sichuan", "suzhou") if a.value_rules else ()
        )
        return
    n = a.n or (400 if a.quick else 2000)
    repeat = a.repeat or (3 if a.quick else 5)
    if a.games_only:
        print(f"# mjfast games benchmark  {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M UTC}")
        print(f"machine: {machine()}")
        print(f"load average (1, 5, 15 min) {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        section_games(a.games or (256 if a.quick else 2048), min(repeat, 3), a.seed)
        return 0
    if a.hand_path:
        print(f"# mjfast Hand-path benchmark  {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M UTC}")
        print(f"machine: {machine()}")
        print(f"load average (1, 5, 15 min) {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"riichienv {version('riichienv') if 'riichienv' in PEERS else 'not installed'}; n={n}, repeat={repeat}")
        rng = np.random.default_rng(a.seed)
        ids14 = random_ids(rng, n, 14)
        mj.shanten_batch(counts_of(ids14), n_threads=1)
        section_hand_path(HandSet(ids14[:, :13]), HandSet(ids14[: max(10, n // 4)]), repeat)
        return
    n_batch = a.batch_n or (20_000 if a.quick else 100_000)
    n_uk = max(20, n // 4)
    n_ad = max(10, n // 10)
    t_start = perf()

    print(f"# mjfast benchmark  {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M UTC}")
    print(f"machine: {machine()}")
    vers = {"mjfast": mj.__version__}
    for k in ("numpy", "pandas", "riichienv", "xiangting", "MahjongGB", "mahjong"):
        vers[DIST[k]] = version(DIST[k]) if (k in PEERS or k in ("numpy", "pandas")) else "not installed"
    print("versions: " + ", ".join(f"{k} {v}" for k, v in vers.items()))
    for k, why in SKIPPED.items():
        print(f"SKIPPED peer {k}: {why}")
    print(
        f"n={n} (ukeire {n_uk}, discards {n_ad}), repeat={repeat}, seed={a.seed}, batch={n_batch:,}; "
        "figures are medians over the repeats, libraries interleaved round-robin"
    )

    rng = np.random.default_rng(a.seed)
    ids14 = random_ids(rng, n, 14)
    hs14 = HandSet(ids14)
    hs13 = HandSet(ids14[:, :13])  # the same draws, minus the 14th tile
    # warm-up: page in the tables, JIT-free peers still benefit from warm caches
    mj.shanten_batch(hs13.counts2d, n_threads=1)

    shan, agree = section_shanten(hs13, hs14, repeat)
    batch = section_batch(rng, n_batch, repeat)
    wild, wildb = section_wild(hs13, rng, n_batch, repeat)
    uk_sets = [("random hands", HandSet(ids14[:n_uk, :13])), ("1-shanten hands", HandSet(near_ready(rng, n_uk, 13, 1)))]
    uk = section_ukeire(uk_sets, repeat)
    ad_sets = [
        ("random hands", HandSet(ids14[:n_ad])),
        ("1-shanten hands (discards leave 1-shanten)", HandSet(near_ready(rng, n_ad, 14, 1))),
    ]
    ad = section_discards(ad_sets, repeat)
    section_hand_path(hs13, HandSet(ids14[:n_ad]), repeat)
    section_scoring(n, repeat, a.seed)
    section_games(a.games or (256 if a.quick else 2048), min(repeat, 3), a.seed)
    imp, rss, tot = section_import(repeat)
    elapsed = perf() - t_start
    print(f"\ntotal benchmark time {elapsed:.1f} s")

    if a.markdown:
        write_markdown(
            a.markdown,
            vers,
            n,
            repeat,
            a.seed,
            n_batch,
            shan,
            agree,
            batch,
            wild,
            wildb,
            uk,
            ad,
            imp,
            rss,
            tot,
            elapsed,
        )


def write_markdown(
    path, vers, n, repeat, seed, n_batch, shan, agree, batch, wild, wildb, uk, ad, imp, rss, tot, elapsed
):
    L = []
    L.append(
        f"Generated by `python bench/run.py --markdown {path}` on "
        f"{_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M UTC}.\n"
    )
    L.append(f"- machine: {machine()}")
    L.append("- versions: " + ", ".join(f"{k} {v}" for k, v in vers.items()))
    L.append(
        f"- n={n}, repeat={repeat}, seed={seed}, batch={n_batch:,}; median of repeats, round-robin; "
        f"total run {elapsed:.0f} s\n"
    )
    L.append("| section | implementation | time per call | calls/s | impl time ÷ baseline time (>1: baseline faster) |")
    L.append("|---|---|---:|---:|---:|")
    for r in ROWS:
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}"
        L.append(f"| {r['section']} | {r['impl']} | {fmt_t(r['sec'])} | {fmt_rate(r['sec'])} | {ratio} |")
    L.append("")
    for tiles in (13, 14):
        for ln in agree[tiles][0]:
            L.append(f"- agreement ({tiles} tiles): {ln}")
    L.append("")
    L.append(
        f"- import mjfast, fresh interpreter: {imp['cold'][0] * 1e3:.0f} ms "
        f"(numpy preloaded: {imp['numpy'][0] * 1e3:.0f} ms; numpy+pandas preloaded: {imp['pandas'][0] * 1e3:.0f} ms)"
    )
    mib = lambda a, b, k: (rss[b][k] - rss[a][k]) / 2**20  # noqa: E731
    L.append(
        f"- tables: {tot / 2**20:.2f} MiB nbytes; RSS delta import {mib('before', 'import', 'VmRSS'):.1f} MiB, "
        f"(file-backed {mib('before', 'import', 'RssFile'):.1f}), +batch {mib('batch_pre', 'batch', 'VmRSS'):.1f} MiB, "
        f"+touch all {mib('batch', 'touched', 'VmRSS'):.1f} MiB (file-backed {mib('batch', 'touched', 'RssFile'):.1f})"
    )
    Path(path).write_text("\n".join(L) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
