"""Do the simulated players play like people?  The realism measures of the players issue, per rule
and policy, beside the human / real-play figures they are judged against; writes REALISM.md.

    PYTHONPATH=src python bench/realism.py [--games N] [--seed S] [--rules a,b] [--policies "P; ..."]
                                           [--threads T] [--walls W] [--markdown FILE]

``--policies`` names policies of :mod:`mjfast.policies` by their ``repr`` (``Efficiency()``,
``Efficiency(call='never')`` …), comma-free within each, separated by ``;`` (default:
``Efficiency(); Value()``, the two built-in players).

Measures (each over ``--games`` seeded games of ``simulate_games``; the same seed for every
policy, so the walls are the same):

* ``draw %``: hands that end without a win (荒庄);
* ``self-draw %``: self-drawn wins among won hands;
* ``cheapest %``: won hands whose first winner's ``total`` is the smallest total seen in that
  rule's games (the rule's cheapest legal hand: 四川 1 番, 贵阳 1 个, 金华 平胡, 广东 鸡胡 …);
* ``flush %``: won hands holding 清一色 or 混一色 (广东's 清碰 / 混碰 counted with them);
* ``飞 / 宝吊头 %``: won hands holding a 飞 (瑞金) or 宝吊头 (上饶) element;
* ``checks / hand`` and ``accepted %`` (rules whose wins the engine asks the rule's Python checker
  about, and 国标, whose 8-番 minimum the kernel decides and this bench puts to the checker to count
  it): how often per hand the players reach a complete hand that needs the rule's judgement, and
  the share of those the rule accepts.

With ``--walls W`` the policies also meet in :func:`mjfast.duplicate_match` (``W`` walls per rule,
each played four times with the seats rotated): each policy's mean result per hand in one-unit
stakes and its standard error, the strength the players issue asks about.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import mjfast as mj  # noqa: E402
from mjfast.simulation import games as _games  # noqa: E402

#: Element names (name_zh) of the flush patterns, per the rules' own tables.
FLUSH = ("清一色", "混一色", "清碰", "混碰")
#: Element names of the lone-wildcard hands that need a declined win.
LONE_WILD = ("飞", "宝吊头")

#: The figures the players issue sets as real play, with their sources.
REFERENCE = [
    ("国标 draw (荒庄) rate", "2.3 %", "Botzone 2017 human 国标 games: 12,140 drawn of 530,458"),
    ("国标 self-draw share of wins", "25.7 %", "the same data: 132,994 self-draws, 385,324 discard wins"),
    (
        "wins at the cheapest hand",
        "15 %",
        "riichi humans, Tenhou 鳳凰卓, 300,000 games: 15.0 % of wins at 1 翻 (千草ウェブ)",
    ),
    (
        "清一色 / 混一色 share of wins",
        "0.52–0.55 % / 4.3–4.6 %",
        "riichi humans, Tenhou 鳳凰卓 2016 and 2018 (koba::blog, mahjong-lurker), where they are worth less",
    ),
    ("瑞金 飞, 上饶 宝吊头", "the rules' headline ×2 hands", "—"),
]


class _CountingChecker:
    """Counts the engine's legality questions and the rule's yes answers (the bench's own
    wrapper around the games helper's checker; restored on exit).  国标's 8-番 minimum, which the
    kernel decides itself, is put to the checker here so that it is counted: the games are the
    same (``test_guobiao_minimum_in_kernel_matches_can_win``), only slower."""

    def __enter__(self):
        self.asked = self.accepted = 0
        self._orig = _games._Game.checker
        orig = self._orig
        _games.FAN_MINIMUM_IN_KERNEL = False

        def checker(game, *args):
            ok = orig(game, *args)
            self.asked += 1
            self.accepted += bool(ok)
            return ok

        _games._Game.checker = checker
        return self

    def __exit__(self, *exc):
        _games._Game.checker = self._orig
        _games.FAN_MINIMUM_IN_KERNEL = True


def _policy(text: str):
    text = text.strip()
    ns = {name: getattr(mj.policies, name) for name in ("Efficiency", "Value") if hasattr(mj.policies, name)}
    try:
        return eval(text, {"__builtins__": {}}, ns)  # a repr of a built-in policy, nothing else
    except Exception as exc:
        raise SystemExit(f"--policies: cannot read {text!r} as a policy of mjfast.policies ({exc})") from None


def measure(rule: str, n: int, seed: int, policy, threads: int) -> dict:
    with _CountingChecker() as counter:
        t = time.perf_counter()
        df = mj.simulate_games(rule, n, rng=seed, n_threads=threads, policy=policy)
        seconds = time.perf_counter() - t
    won = df[df["how"] != "draw_game"]
    totals = won["total"].to_numpy(float)
    freq = mj.element_frequencies(df)

    def share(patterns):
        """Won hands holding any of the named elements."""
        codes = set(freq.loc[freq["name_zh"].str.startswith(patterns), "element"]) if len(freq) else set()
        if not codes or not len(won):
            return 0.0
        holds = won["elements"].map(lambda text: bool(codes & set(str(text).split(","))))
        return float(holds.mean())

    n_won = len(won)
    return {
        "rule": rule,
        "policy": df.attrs["policy"],
        "games": n,
        "seconds": seconds,
        "draw": float((df["how"] == "draw_game").mean()),
        "self_draw": float((won["how"] == "self_draw").mean()) if n_won else float("nan"),
        "cheapest": float((totals == totals.min()).mean()) if n_won else float("nan"),
        "flush": share(FLUSH),
        "lone_wild": share(LONE_WILD),
        "checks": counter.asked / n,
        "accepted": counter.accepted / counter.asked if counter.asked else float("nan"),
    }


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.2f} %"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=20261201)
    p.add_argument("--rules", default=",".join(mj.simulation.games.SUPPORTED))
    p.add_argument("--policies", default="Efficiency(); Value()")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument(
        "--walls",
        type=int,
        default=0,
        help="also play the policies against each other in a duplicate match of this many walls per rule",
    )
    p.add_argument("--markdown", default=None, help="write the tables to this file (e.g. bench/REALISM.md)")
    args = p.parse_args(argv)
    policies = [_policy(x) for x in args.policies.split(";") if x.strip()]
    rows = []
    for rule in args.rules.split(","):
        for policy in policies:
            r = measure(rule, args.games, args.seed, policy, args.threads)
            rows.append(r)
            print(
                f"{rule:10s} {r['policy']:28s} draw {_pct(r['draw']):>8s}  self-draw {_pct(r['self_draw']):>8s}  "
                f"cheapest {_pct(r['cheapest']):>8s}  flush {_pct(r['flush']):>7s}  "
                f"飞/宝吊头 {_pct(r['lone_wild']):>7s}  "
                f"checks/hand {r['checks']:5.2f}  accepted {_pct(r['accepted']):>8s}  ({r['seconds']:.1f} s)",
                flush=True,
            )
    strength = []
    if args.walls and len(policies) > 1:
        for rule in args.rules.split(","):
            t = time.perf_counter()
            df = mj.duplicate_match(rule, policies, args.walls, rng=args.seed, n_threads=args.threads)
            for _, r in df.iterrows():
                strength.append((rule, r["policy"], r["mean_stakes"], r["se_stakes"]))
                print(
                    f"{rule:10s} {r['policy']:28s} {r['mean_stakes']:+.4f} ± {r['se_stakes']:.4f} stakes per hand "
                    f"({r['mean_stakes'] / r['se_stakes']:+.1f} SE; {time.perf_counter() - t:.0f} s)",
                    flush=True,
                )
    if args.markdown:
        lines = [
            "# Realism of the simulated players",
            "",
            f"Generated by `bench/realism.py --games {args.games} --seed {args.seed}"
            + (f" --walls {args.walls}`" if strength else "`")
            + " "
            f"(mjfast {mj.__version__}); the measures are defined in that script's docstring.",
            "",
            "| rule | policy | draw % | self-draw % of wins | wins at the cheapest hand | 清一色 + 混一色 | "
            "飞 / 宝吊头 | legality checks / hand | accepted |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows:
            checks = f"{r['checks']:.2f}" if r["checks"] else "— (decided in the kernel)"
            lines.append(
                f"| {r['rule']} | `{r['policy']}` | {_pct(r['draw'])} | {_pct(r['self_draw'])} | "
                f"{_pct(r['cheapest'])} | {_pct(r['flush'])} | {_pct(r['lone_wild'])} | {checks} | "
                f"{_pct(r['accepted'])} |"
            )
        if strength:
            lines += [
                "",
                "## Strength",
                "",
                f"`mjfast.duplicate_match(rule, policies, {args.walls}, rng={args.seed})`: each wall played four "
                "times with the seats rotated; a policy's mean result per hand in one-unit stakes, its standard "
                "error over walls, and their ratio.",
                "",
                "| rule | policy | mean stakes per hand | standard error | mean / SE |",
                "|---|---|---:|---:|---:|",
            ]
            lines += [f"| {r} | `{p}` | {m:+.4f} | {se:.4f} | {m / se:+.1f} |" for r, p, m, se in strength]
        lines += ["", "## Real play", "", "| measure | real play | source |", "|---|---|---|"]
        lines += [f"| {m} | {v} | {s} |" for m, v, s in REFERENCE]
        Path(args.markdown).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
