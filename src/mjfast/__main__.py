"""Command-line interface: ``mjfast <command> ...`` or ``python -m mjfast <command> ...``.

The CLI is a thin shell over the public API. Each subcommand is a pair of
functions registered in :data:`_COMMANDS`:

* ``_args_<name>(parser)`` adds the subcommand's arguments;
* ``_cmd_<name>(args) -> int`` runs it and returns the exit status.

To add a subcommand (``analyze``, ``calls``, ``score``, ``simulate`` …) write
the two functions and append a :class:`_Command` to :data:`_COMMANDS`.
No error prints a traceback: a ``ValueError`` raised by any command (bad tiles,
an unknown rule or option) and every usage error are printed as
``mjfast: error: <message>`` on stderr with exit status 2, the status argparse
uses; a file that cannot be read or written (``OSError``) the same way with
status 1; Ctrl-C ends a command with status 130 (``simulate`` first saves what
it has, see ``_Output``); anything else is reported as an unexpected error (a
bug) on one line, status 1, and ``MJFAST_TRACEBACK=1`` shows its traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import signal
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pandas as pd  # at run time pandas is imported only by the commands that need it

__all__ = ["main"]

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse with mjfast's one error line: ``mjfast: error: <command>: <message>``."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        command = self.prog.split(" ", 1)[1] if " " in self.prog else ""
        self.exit(EXIT_USAGE, f"mjfast: error: {command + ': ' if command else ''}{message}\n")


def _rule_help(default: str) -> str:
    from mjfast import rules

    return f"rule: {', '.join(rules.names())}, or its Chinese name (苏州, 国标 …) (default: {default})"


def _seat_arg(text: str) -> str:
    """A seat relative to the player, for --from: left / opposite / right or 上家 / 对家 / 下家."""
    from mjfast.analysis.calls import seat_name

    try:
        return seat_name(text, "--from")
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("--from: ")) from None


def _wind_arg(text: str):
    """A wind as 0-3 or a name (E S W N, 东南西北); WinContext checks it."""
    return int(text) if text.strip().lstrip("-").isdigit() else text


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mjfast")
    except PackageNotFoundError:
        # Running from a source tree that was never installed.
        try:
            from mjfast import __version__
        except ImportError:
            return "unknown"
        return __version__


def _out(text: str) -> None:
    """Print to stdout, degrading glyphs on a console that cannot encode them
    (e.g. a legacy Windows code page) instead of failing with a traceback."""
    try:
        print(text)
    except UnicodeEncodeError:
        enc = getattr(sys.stdout, "encoding", None) or "ascii"
        print(text.encode(enc, errors="backslashreplace").decode(enc))


def _json(obj) -> None:
    # One line per document: easy to pipe into jq or read with json.loads.
    _out(json.dumps(obj, ensure_ascii=False))


def _width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _table(df) -> str:
    """``DataFrame.to_string(index=False)`` with text columns left-aligned and
    CJK-aware widths: pandas right-aligns text and counts 苏州 as two columns,
    which makes the rule tables hard to read."""
    import pandas as pd

    formatters = {}
    for col in df.columns:
        if not pd.api.types.is_numeric_dtype(df[col]):
            width = max([_width(str(v)) for v in df[col]] + [_width(str(col))])
            formatters[col] = lambda v, w=width: str(v) + " " * (w - _width(str(v)))
    with pd.option_context("display.unicode.east_asian_width", True):
        text = df.to_string(index=False, formatters=formatters, justify="left")
    return "\n".join(line.rstrip() for line in text.splitlines())


# ---------------------------------------------------------------------------
# hand
# ---------------------------------------------------------------------------


def _args_hand(p: argparse.ArgumentParser) -> None:
    p.add_argument("tiles", help="concealed tiles: mpsz ('11p34567m45s9p'), Chinese or glyphs")
    p.add_argument(
        "--meld",
        action="extend",
        nargs="+",
        default=[],
        metavar="M",
        help="a meld: '123m' chow, '555z' pung, '1111p' kong, '+1111p' added kong, "
        "'[1111p]' concealed kong; optional '@left|opposite|right' suffix",
    )
    p.add_argument(
        "--bonus",
        action="extend",
        nargs="+",
        default=[],
        metavar="B",
        help="bonus tiles laid aside, e.g. 'F1 F5 BD' or '春 梅'",
    )
    p.add_argument("--wilds", type=int, default=0, metavar="N", help="wildcards held")
    p.add_argument("--partial", action="store_true", help="accept fragments (3k+1 or 3k+2 tiles) instead of 13 or 14")
    p.add_argument("--json", action="store_true", help="print JSON")


def _cmd_hand(args: argparse.Namespace) -> int:
    from mjfast import tiles
    from mjfast.hand import Hand

    bonus: list[int] = []
    for b in args.bonus:
        bonus += tiles.parse_tiles(b)
    hand = Hand(args.tiles, melds=args.meld, bonus=bonus, wilds=args.wilds, partial=args.partial)
    slots = hand.n_tiles + 3 * hand.n_melds
    if args.json:
        _json(
            {
                "mpsz": str(hand),
                "chinese": hand.to_chinese(),
                "glyphs": hand.to_glyphs(),
                "concealed": [tiles.CODES[t] for t in hand.tiles],
                "melds": [
                    {
                        "kind": m.kind,
                        "tiles": [tiles.CODES[t] for t in m.tiles],
                        "source": m.source,
                        "claimed": None if m.claimed is None else tiles.CODES[m.claimed],
                    }
                    for m in hand.melds
                ],
                "bonus": [tiles.CODES[t] for t in hand.bonus],
                "wilds": hand.wilds,
                "n_tiles": hand.n_tiles,
                "n_melds": hand.n_melds,
                "tiles_counting_melds_as_3": slots,
                "is_concealed": hand.is_concealed,
                "counts": hand.counts.tolist(),
            }
        )
        return EXIT_OK
    melds = f", {hand.n_melds} meld{'' if hand.n_melds == 1 else 's'}" if hand.n_melds else ""
    _out(f"mpsz:    {hand}")
    _out(f"chinese: {hand.to_chinese()}")
    _out(f"glyphs:  {hand.to_glyphs()}")
    _out(f"tiles:   {slots} counting each meld as 3 ({hand.n_tiles} in hand{melds})")
    return EXIT_OK


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key.strip(), value.strip()


def _args_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?", help="rule name (omit for a summary of all rules)")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        type=_option,
        default=[],
        metavar="KEY=VALUE",
        help="a rule option, e.g. threshold=2_3 (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="print JSON records")


def _cmd_rules(args: argparse.Namespace) -> int:
    # Imported here: pandas and the registry are only needed by this command.
    from mjfast import rules

    if args.name is None:
        if args.option:
            raise ValueError("--option needs a rule NAME")
        df = rules.summary()
    else:
        # Values stay strings: rules.get() accepts "144" or "true" for typed options.
        df = rules.describe(rules.get(args.name, **dict(args.option)))
    if args.json:
        _out(df.to_json(orient="records", force_ascii=False))
    else:
        _out(_table(df))
    return EXIT_OK


# ---------------------------------------------------------------------------
# analyze
# ---------------------------------------------------------------------------


def _args_analyze(p: argparse.ArgumentParser) -> None:
    p.add_argument("tiles", help="a 13-tile hand (进张 and 一进听) or a 14-tile hand (discard table)")
    p.add_argument(
        "--meld", action="extend", nargs="+", default=[], metavar="M", help="a called meld, as for 'mjfast hand'"
    )
    p.add_argument(
        "--fixed",
        action="extend",
        nargs="+",
        default=[],
        metavar="SET",
        help="a set among the concealed tiles to treat as fixed, as fixed_sets= does "
        "(yijinting.md caveat 1): '555z11p34567m45s9p --fixed 555z'",
    )
    p.add_argument("--rule", default=None, help=_rule_help("no rule, 136 tiles"))
    p.add_argument("--visible", default=None, metavar="TILES", help="tiles seen on the table (discards, others' melds)")
    p.add_argument("--wilds", type=int, default=0, metavar="N", help="wildcards held")
    p.add_argument(
        "--offer", default=None, metavar="TILE", help="a discard offered to a 13-tile hand: also print call versus pass"
    )
    p.add_argument(
        "--from",
        dest="from_seat",
        default="left",
        type=_seat_arg,
        metavar="SEAT",
        help="who discarded the offered tile: left (上家), opposite (对家) or right (下家) (default: left)",
    )
    p.add_argument(
        "--value",
        action="store_true",
        help="add the exact value columns (win probability, expected payment: mjfast.expected_value)",
    )
    p.add_argument(
        "--draws", type=int, default=None, metavar="N", help="with --value: draws left (default: a fresh wall's)"
    )
    p.add_argument("--json", action="store_true", help="print JSON records")


def _cmd_analyze(args: argparse.Namespace) -> int:
    import mjfast as mj

    hand = mj.Hand(args.tiles, melds=args.meld, wilds=args.wilds, partial=True)
    # --fixed names sets among the concealed tiles, exactly as the API's fixed_sets= (and `calls`)
    kw = dict(rule=args.rule, visible=args.visible, fixed_sets=args.fixed)
    if args.offer is not None and hand.n_tiles % 3 != 1:
        raise ValueError(f"--offer needs a 13-tile (3k+1) hand; this one has {hand.n_tiles} tiles in hand")
    if args.offer is not None and args.wilds:
        raise ValueError("--offer cannot be combined with --wilds (call_vs_pass takes no wildcards)")
    if args.draws is not None and not args.value:
        raise ValueError("--draws needs --value")
    value = dict(value=True, draws_left=args.draws) if args.value else {}
    if hand.n_tiles % 3 == 2:
        df = mj.analyze_discards(hand, **kw, **value)
        fixed = f"   fixed: {' '.join(args.fixed)}" if args.fixed else ""
        if args.json:
            _out(df.to_json(orient="records", force_ascii=False))
        else:
            _out(f"hand: {hand}   ({args.rule or 'no rule'}){fixed}")
            if args.value:
                _out(_value_note(df.attrs))
                df = df.round(
                    {
                        c: 4
                        for c in ("p_ready", "p_win", "p_win_self_draw", "p_win_discard", "ev", "ev_stakes", "mean_win")
                    }
                )
            _out(_table(df))
        return EXIT_OK
    u = mj.ukeire(hand, **kw)
    record = {"hand": str(hand), "rule": args.rule, "shanten": u.shanten, "ukeire": u.count, "ukeire_tiles": u.tiles}
    table: pd.DataFrame | None = None
    if args.fixed:
        record["fixed"] = list(args.fixed)
    if u.shanten == 0:
        # waits() takes no fixed sets; with them, the waits are ukeire's accepting kinds
        record["waits"] = dict(u.tiles) if args.fixed else mj.waits(hand, rule=args.rule, visible=args.visible)
    elif u.shanten == 1:
        y = mj.yijinting(hand, **kw)
        record.update(ting=y.ting, combos=y.combos)
        table = y.breakdown
        record["breakdown"] = table.astype({"tile": str}).to_dict(orient="records")
    row = None
    if args.value:
        ev = mj.expected_value(hand, rule=args.rule, visible=args.visible, draws_left=args.draws)
        row = ev.drop(columns=["discard"]).iloc[0]
        record["value"] = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
        record["value_model"] = {k: ev.attrs[k] for k in ("draws_left", "model", "depth", "hazard", "unit")}
    calls = None
    if args.offer is not None:
        calls = _call_vs_pass(args, value=args.value, **({"draws_left": args.draws} if args.draws is not None else {}))
        calls = calls.astype(object).where(calls.notna(), None)
        record["calls"] = calls.to_dict(orient="records")
    if args.json:
        _json(record)
        return EXIT_OK
    _out(f"hand:    {hand}   ({args.rule or 'no rule'})" + (f"   fixed: {' '.join(args.fixed)}" if args.fixed else ""))
    _out(f"shanten: {u.shanten}")
    _out(f"进张:    {u.count} copies of {len(u.tiles)} kinds: " + " ".join(f"{t}x{n}" for t, n in u.tiles.items()))
    if "waits" in record:
        _out("waits:   " + " ".join(f"{t}x{n}" for t, n in record["waits"].items()))
    if table is not None:
        _out(f"一进听:  进张 {record['ukeire']}, 听张 {record['ting']}, 组合 {record['combos']}")
        _out(_table(table.astype({"tile": str})))
    if row is not None:
        _out(_value_note(ev.attrs))
        _out(
            f"value:   p_ready {row['p_ready']:.4f}, p_win {row['p_win']:.4f} (self-draw {row['p_win_self_draw']:.4f}, "
            f"discard {row['p_win_discard']:.4f}), ev {row['ev']:.4f} {ev.attrs['unit']}"
            f" ({row['ev_stakes']:.4f} stakes)"
        )
    if calls is not None:
        _out("")
        _out(f"call versus pass: {args.offer} from {args.from_seat} (best first)")
        shown = calls.copy()
        for c in ("p_ready", "p_win", "p_win_self_draw", "p_win_discard", "ev", "ev_stakes", "mean_win"):
            if c in shown.columns:
                shown[c] = shown[c].map(lambda x: None if x is None else round(float(x), 4))
        _out(_table(shown.where(shown.notna(), "")))
    return EXIT_OK


def _value_note(attrs) -> str:
    hz = attrs["hazard"]
    hz = f"{hz:.4f}" if isinstance(hz, float) else "per round"
    return (
        f"value:   {attrs['draws_left']} draws, {attrs['model']} wall, depth {attrs['depth']}, "
        f"discard hazard {hz}; ev = the winner's expected payment (Score.payments), mean_total in "
        f"{attrs['unit']}"
    )


# ---------------------------------------------------------------------------
# calls
# ---------------------------------------------------------------------------


def _args_calls(p: argparse.ArgumentParser) -> None:
    p.add_argument("tiles", help="the 13-tile hand before the offer")
    p.add_argument("--offer", required=True, metavar="TILE", help="the discarded tile, e.g. 1p")
    p.add_argument(
        "--from",
        dest="from_seat",
        required=True,
        type=_seat_arg,
        metavar="SEAT",
        help="who discarded it: left (上家), opposite (对家) or right (下家)",
    )
    p.add_argument("--meld", action="extend", nargs="+", default=[], metavar="M", help="a called meld")
    p.add_argument(
        "--fixed",
        action="extend",
        nargs="+",
        default=[],
        metavar="SET",
        help="a set among the concealed tiles to treat as fixed, as fixed_sets= does",
    )
    p.add_argument("--rule", default=None, help=_rule_help("no rule"))
    p.add_argument("--visible", default=None, metavar="TILES", help="tiles seen on the table")
    p.add_argument("--json", action="store_true", help="print JSON records")


def _call_vs_pass(args: argparse.Namespace, **extra):
    """``mj.call_vs_pass`` of the parsed tiles, offer, seat, rule, visible tiles and melds."""
    import mjfast as mj

    return mj.call_vs_pass(
        args.tiles,
        args.offer,
        from_seat=args.from_seat,
        rule=args.rule,
        visible=args.visible,
        melds=args.meld,
        fixed_sets=args.fixed,
        **extra,
    )


def _cmd_calls(args: argparse.Namespace) -> int:
    df = _call_vs_pass(args)
    if args.json:
        _out(df.astype(object).where(df.notna(), None).to_json(orient="records", force_ascii=False))
    else:
        _out(f"offer: {args.offer} from {args.from_seat}   ({args.rule or 'no rule'})")
        _out(_table(df.astype(object).where(df.notna(), "")))
    return EXIT_OK


# ---------------------------------------------------------------------------
# score
# ---------------------------------------------------------------------------


def _args_score(p: argparse.ArgumentParser) -> None:
    p.add_argument("tiles", help="the winning hand's concealed tiles, winning tile included")
    p.add_argument("--win", required=True, metavar="TILE", help="the winning tile")
    p.add_argument("--rule", default=None, help=_rule_help("mjfast.score's default rule, 国标"))
    p.add_argument(
        "--meld",
        action="extend",
        nargs="+",
        default=[],
        metavar="M",
        help="a called meld, e.g. '555z@left' or '[1111p]' (concealed kong)",
    )
    p.add_argument(
        "--bonus",
        action="extend",
        nargs="+",
        default=[],
        metavar="B",
        help="flowers laid aside (e.g. F1 F5, or 中 发 under 苏州/太仓)",
    )
    p.add_argument("--wilds", type=int, default=0, metavar="N", help="wildcards held")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--self-draw", action="store_true", help="won by self-draw (自摸)")
    how.add_argument(
        "--discarder", type=int, default=None, metavar="SEAT", help="seat 0-3 that discarded the winning tile"
    )
    p.add_argument("--winner", type=int, default=0, metavar="SEAT", help="winner's seat (default 0)")
    p.add_argument("--dealer", type=int, default=0, metavar="SEAT", help="dealer's seat (default 0)")
    p.add_argument(
        "--prevalent-wind",
        type=_wind_arg,
        default=0,
        metavar="W",
        help="the prevalent wind: 0-3, E S W N or 东南西北 (default: E)",
    )
    p.add_argument(
        "--flag",
        action="append",
        default=[],
        choices=[
            "after_kong",
            "robbing_kong",
            "last_tile",
            "last_copy",
            "heavenly",
            "earthly",
            "human",
            "kong_discard",
            "baozi",
            "diling",
        ],
        help="a situation flag of the win (repeatable)",
    )
    p.add_argument("--flipped", default=None, metavar="TILE", help="the flipped wildcard indicator")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        type=_option,
        default=[],
        metavar="KEY=VALUE",
        help="a rule or scorer option (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")


def _cmd_score(args: argparse.Namespace) -> int:
    import mjfast as mj
    from mjfast import tiles

    bonus: list[int] = []
    for b in args.bonus:
        bonus += tiles.parse_tiles(b)
    hand = mj.Hand(args.tiles, melds=args.meld, bonus=bonus, wilds=args.wilds)
    if not args.self_draw and args.discarder is None:
        raise ValueError("say how the hand was won: --self-draw or --discarder SEAT")
    ctx = mj.WinContext(
        hand,
        win_tile=args.win,
        self_draw=args.self_draw,
        discarder=args.discarder,
        winner=args.winner,
        dealer=args.dealer,
        prevalent_wind=args.prevalent_wind,
        flipped=args.flipped,
        **{flag: True for flag in args.flag},
    )
    options = {}
    for key, value in args.option:
        options[key] = {"true": True, "false": False}.get(value.lower(), value)
    if args.rule is None:  # mjfast.score's own default rule
        args.rule = inspect.signature(mj.score).parameters["rule"].default
    result = mj.score(ctx, rule=args.rule, **options)
    elements = result.elements
    owed = {seat: -int(v) for seat, v in enumerate(result.payments) if v < 0}
    if args.json:
        _json(
            {
                "rule": args.rule,
                "legal": result.legal,
                "reason": result.reason,
                "total": result.total,
                "unit": result.unit,
                "points": result.points,
                "payments": result.payments.tolist(),
                "owed": {str(seat): amount for seat, amount in owed.items()},
                "elements": elements.to_dict(orient="records"),
            }
        )
        return EXIT_OK
    _out(f"hand:     {hand}   ({args.rule})")
    _out(_table(elements))
    _out(f"total:    {result.total} {result.unit}" + ("" if result.legal else f"   NOT LEGAL: {result.reason}"))
    _out(f"owed:     {_owed_text(owed)}")
    _out("payments: " + "  ".join(f"seat {i}: {int(v):+d}" for i, v in enumerate(result.payments)))
    return EXIT_OK


def _owed_text(owed: dict) -> str:
    """What each payer owes: one amount when they all owe the same (a self-draw), else per seat
    (国标: the discarder owes 8 + 番, the others 8)."""
    if not owed:
        return "nothing (no payment)"
    amounts = set(owed.values())
    seats = ", ".join(map(str, owed))
    if len(amounts) == 1:
        amount = next(iter(amounts))
        return f"{amount} by seat {seats}" if len(owed) == 1 else f"{amount} by each of seats {seats}"
    return ", ".join(f"{amount} by seat {seat}" for seat, amount in owed.items())


# ---------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------

#: Games per batch written to ``--out``: an interrupt loses at most the batch being played.
_BATCH_GAMES = 16_384


def _args_simulate(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rule", required=True, help=_rule_help("none: required"))
    p.add_argument("--games", type=int, required=True, metavar="N", help="number of games")
    p.add_argument(
        "--unit",
        choices=["stakes", "points"],
        default="stakes",
        help="unit of the payout summary: one-unit stakes (the rule's cheapest legal win, comparable "
        "across rules; default) or the rule's own points",
    )
    p.add_argument("--seed", type=int, default=None, metavar="S", help="random seed (default: fresh entropy)")
    p.add_argument("--threads", type=int, default=None, metavar="T", help="OpenMP threads")
    p.add_argument(
        "--policy",
        choices=["value", "efficiency"],
        default="value",
        help="the players at every seat (mjfast.policies): 'value' plays for the result under the rule "
        "(Value(), the default), 'efficiency' for speed alone (Efficiency())",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="write the games table to a .csv or .parquet file (written to a temporary file and "
        "renamed into place when complete; an interrupted run leaves FILE's '.partial' file, "
        "marked incomplete)",
    )
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the interrupted run whose games are in the --out file's '.partial' file "
        "(same rule, options and --games; the result is the file an uninterrupted run writes)",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        type=_option,
        default=[],
        metavar="KEY=VALUE",
        help="a rule option (repeatable)",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar counting the games, on stderr (default: when stderr is a terminal; "
        "--no-progress turns it off)",
    )
    p.add_argument("--json", action="store_true", help="print the payout summary as JSON records")


class _Terminated(BaseException):
    """SIGTERM, raised where ``KeyboardInterrupt`` would be, so that a run stops the same way."""


class _Signals:
    """SIGINT and SIGTERM raise ``KeyboardInterrupt`` / :class:`_Terminated`, except inside
    :meth:`atomic` (a batch being written, a file being closed), where they take effect on
    leaving it: a signal never leaves a file half-written."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending = None
        self.saved: dict = {}

    def _raise(self, signum):
        raise KeyboardInterrupt if signum == signal.SIGINT else _Terminated()

    def _handler(self, signum, frame):
        if self.depth:
            self.pending = signum
        else:
            self._raise(signum)

    def __enter__(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self.saved[sig] = signal.signal(sig, self._handler)
            except ValueError:  # not the main thread: signals stay as they are
                pass
        return self

    def __exit__(self, *exc) -> None:
        for sig, old in self.saved.items():
            signal.signal(sig, old)

    @contextlib.contextmanager
    def atomic(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if not self.depth and self.pending is not None:
            signum, self.pending = self.pending, None
            self._raise(signum)


def _partial_path(out: str) -> str:
    stem, ext = os.path.splitext(out)
    return f"{stem}.partial{ext}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


class _Output:
    """The ``--out`` file of one run.

    Games go to a temporary file in the target folder (``.<name>.<pid>.<random>.tmp``) that
    is renamed to the target when the run completes, so the target is only ever absent, the
    previous file, or the new complete one.  An interrupted run's file is closed properly,
    marked incomplete and renamed to the partial file (``<stem>.partial<ext>``): parquet
    key-value metadata ``mjfast``, or a ``.json`` file beside a CSV, holds
    ``complete``, ``n_games_requested``, ``n_games_written``, ``seed``, ``rule``,
    ``options``, ``policy`` and the mjfast version."""

    def __init__(self, out: str, meta: dict, *, force: bool, resume: bool) -> None:
        self.out = out
        self.partial = _partial_path(out)
        self.parquet = out.endswith(".parquet")
        self.meta = dict(meta)
        folder = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(folder):
            raise ValueError(f"--out {out}: the folder {folder} does not exist")
        if os.path.isdir(out):
            raise ValueError(f"--out {out} is a folder")
        if os.path.lexists(out) and not force:
            raise ValueError(f"--out {out} exists; pass --force to replace it")
        if not resume and os.path.lexists(self.partial) and not force:
            raise ValueError(
                f"{self.partial} holds an interrupted run: continue it with --resume, or pass --force to start again"
            )
        if self.parquet:
            try:
                import pyarrow  # noqa: F401
                import pyarrow.parquet  # noqa: F401
            except ImportError as exc:
                raise ValueError(f"writing parquet needs pyarrow ({exc}); use a .csv file instead") from None
        base = os.path.basename(out)
        for name in os.listdir(folder):  # temporary files of runs that were killed
            parts = name.split(".")
            if (
                name.startswith(f".{base}.")
                and name.endswith(".tmp")
                and len(parts) >= 4
                and parts[-3].isdigit()
                and not _pid_alive(int(parts[-3]))
            ):
                try:
                    os.unlink(os.path.join(folder, name))
                except OSError:
                    pass
        fd, self.tmp = tempfile.mkstemp(dir=folder, prefix=f".{base}.{os.getpid()}.", suffix=".tmp")
        # parquet: pyarrow writes by path (it closes what it opens); CSV: one handle for the run
        self.fh = None if self.parquet else os.fdopen(fd, "wb")
        if self.parquet:
            os.close(fd)
        self.writer: Any = None  # the pyarrow.parquet.ParquetWriter, once parquet rows exist
        self.written = 0

    def write(self, batch) -> None:
        if self.parquet:
            import pyarrow as pa
            import pyarrow.parquet as pq

            # categories differ between batches: store the text, so every batch has one schema
            table = pa.Table.from_pandas(
                batch.astype({c: str for c in batch.columns if batch[c].dtype == "category"}), preserve_index=False
            )
            if self.writer is None:
                self.writer = pq.ParquetWriter(self.tmp, table.schema)
            self.writer.write_table(table)
        else:
            batch.to_csv(self.fh, index=False, header=self.written == 0, mode="wb")
        self.written += len(batch)

    def copy_from(self, path: str) -> None:
        """The games of an interrupted run, row group by row group (or line by line)."""
        if self.parquet:
            import pyarrow.parquet as pq

            src = pq.ParquetFile(path)
            for i in range(src.num_row_groups):
                table = src.read_row_group(i)
                if self.writer is None:
                    self.writer = pq.ParquetWriter(self.tmp, table.schema)
                self.writer.write_table(table)
                self.written += table.num_rows
        else:
            assert self.fh is not None  # a CSV output holds its handle until it closes
            with open(path, "rb") as src:
                for j, line in enumerate(src):
                    self.fh.write(line)
                    self.written += j > 0

    def _close(self, complete: bool) -> dict[str, Any]:
        meta = dict(self.meta, complete=complete, n_games_written=self.written)
        if self.writer is not None:
            self.writer.add_key_value_metadata({"mjfast": json.dumps(meta)})
            self.writer.close()
            self.writer = None
        if self.fh is not None:
            self.fh.flush()
            os.fsync(self.fh.fileno())
            self.fh.close()
            self.fh = None
        else:
            fd = os.open(self.tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        os.chmod(self.tmp, 0o666 & ~_umask())  # mkstemp makes it private
        return meta

    def finish(self) -> None:
        """Rename the complete file into place; an interrupted run it continued is gone."""
        self._close(True)
        os.replace(self.tmp, self.out)
        for path in (self.partial, self.partial + ".json"):
            if os.path.lexists(path):
                os.unlink(path)

    def interrupted(self) -> str | None:
        """Keep the games written as the partial file (None: nothing was written)."""
        if not self.written:
            self.discard()
            return None
        meta = self._close(False)
        if not self.parquet:
            fd, side = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(self.out)), suffix=".tmp")
            with os.fdopen(fd, "w") as fh:
                json.dump(meta, fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(side, 0o666 & ~_umask())
            os.replace(side, self.partial + ".json")
        os.replace(self.tmp, self.partial)
        return self.partial

    def discard(self) -> None:
        for closing in (self.writer, self.fh):
            try:
                if closing is not None:
                    closing.close()
            except Exception:
                pass
        self.writer = self.fh = None
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _partial_meta(partial: str) -> dict:
    """The metadata an interrupted run left with its games (ValueError if there is none)."""
    if not os.path.exists(partial):
        raise ValueError(f"--resume: there is no interrupted run to continue ({partial} does not exist)")
    try:
        if partial.endswith(".parquet"):
            import pyarrow.parquet as pq

            raw = (pq.read_metadata(partial).metadata or {}).get(b"mjfast")
            meta = json.loads(raw) if raw else None
        else:
            with open(partial + ".json", encoding="utf-8") as fh:
                meta = json.load(fh)
    except (OSError, ValueError) as exc:
        raise ValueError(f"--resume: {partial} is not the file of an interrupted mjfast run ({exc})") from None
    if not isinstance(meta, dict) or meta.get("complete") is not False:
        raise ValueError(f"--resume: {partial} is not the file of an interrupted mjfast run")
    return meta


def _cmd_simulate(args: argparse.Namespace) -> int:
    import numpy as np
    import pandas as pd

    import mjfast as mj
    from mjfast.simulation import _chunks
    from mjfast.simulation.games import iter_games

    if args.out and not args.out.endswith((".csv", ".parquet")):
        raise ValueError(f"--out must end in .csv or .parquet, got {args.out!r}")
    if (args.resume or args.force) and not args.out:
        raise ValueError("--resume and --force need --out")
    if args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    options = {k: {"true": True, "false": False}.get(v.lower(), v) for k, v in args.option}
    rule = mj.rules.get(args.rule, **options)  # the name as typed (苏州, mcr …) and the options, checked
    keep = ["dealer", "winners", "how", "discarder", "pay_0", "pay_1", "pay_2", "pay_3"]
    kept = []
    seats = mj.policies.resolve(args.policy, "--policy")
    played = mj.policies.label(seats)
    start = 0
    entropy: int | Sequence[int] | None
    if args.resume:
        meta = _partial_meta(_partial_path(args.out))
        mine = dict(
            rule=args.rule,
            options={k: str(v) for k, v in options.items()},
            n_games_requested=args.games,
            policy=played,
        )
        for key, value in mine.items():
            if meta.get(key) != value:
                raise ValueError(f"--resume: the interrupted run had {key}={meta.get(key)!r}, not {value!r}")
        if args.seed is not None and meta.get("seed") != str(args.seed):
            raise ValueError(f"--resume: the interrupted run had seed {meta.get('seed')}, not {args.seed}")
        entropy = int(meta["seed"])
        start = int(meta["n_games_written"])
        if start % _chunks.CHUNK_SIZE or not 0 < start < args.games:
            raise ValueError(
                f"--resume: {_partial_path(args.out)} holds {start} games, which no interrupted run of "
                f"{args.games} games writes"
            )
    else:
        entropy = args.seed if args.seed is not None else np.random.SeedSequence().entropy
    # chunk c of a run always plays with stream c: a resumed run starts at the first chunk not written
    rng = np.random.SeedSequence(entropy, n_children_spawned=start // _chunks.CHUNK_SIZE)
    batches = iter_games(
        args.rule,
        args.games - start,
        rng=rng,
        n_threads=args.threads,
        batch_games=_BATCH_GAMES,
        progress=sys.stderr.isatty() if args.progress is None else args.progress,
        policy=seats,
        **options,
    )
    output = None
    with _Signals() as signals:
        try:
            if args.out:
                with signals.atomic():
                    output = _Output(
                        args.out,
                        dict(
                            rule=args.rule,
                            options={k: str(v) for k, v in options.items()},
                            n_games_requested=args.games,
                            policy=played,
                            seed=str(entropy),
                            mjfast=mj.__version__,
                        ),
                        force=args.force,
                        resume=args.resume,
                    )
                    if start:
                        output.copy_from(_partial_path(args.out))
                        old = (
                            pd.read_parquet(_partial_path(args.out), columns=keep)
                            if output.parquet
                            else pd.read_csv(_partial_path(args.out), usecols=keep, keep_default_na=False)
                        )
                        kept.append(old.assign(winners=old["winners"].astype(str), how=old["how"].astype(str)))
            for batch in batches:
                if start:
                    batch["game"] += start
                # games stream to the file batch by batch; only the summary's columns stay in memory
                if output is not None:
                    with signals.atomic():
                        output.write(batch)
                kept.append(batch[keep].assign(winners=batch["winners"].astype(str), how=batch["how"].astype(str)))
            if output is not None:
                with signals.atomic():
                    output.finish()
        except (KeyboardInterrupt, _Terminated) as exc:
            code = 130 if isinstance(exc, KeyboardInterrupt) else 143
            with signals.atomic():
                where = output.interrupted() if output is not None else None
            done = output.written if output is not None else 0
            print(
                f"mjfast: interrupted after {done} of {args.games} games"
                + (
                    f"; they are in {where} (continue with --resume)"
                    if where
                    else ("; nothing was written" if args.out else "")
                ),
                file=sys.stderr,
            )
            return code
        except BaseException:
            if output is not None:
                output.discard()
            raise
    games = pd.concat(kept, ignore_index=True).assign(rule=rule.name)
    games.attrs = {"rule": rule.name, "options": dict(rule.non_default_options), "policy": played}
    summary = mj.payout_summary(games, unit=args.unit)
    if args.json:
        _out(summary.to_json(orient="records", force_ascii=False))
        return EXIT_OK
    from mjfast.analysis.payout import base_stake

    shown = (
        f"{rule.name}({', '.join(f'{k}={v}' for k, v in rule.non_default_options.items())})"
        if rule.non_default_options
        else rule.name
    )
    _out(f"{args.games} games of {shown}" + (f", written to {args.out}" if args.out else ""))
    stake = base_stake(rule)
    _out(
        f"payments in {args.unit}"
        + (
            f": one stake = {stake} points, the cheapest legal win"
            if args.unit == "stakes"
            else f" (one stake = {stake} points)"
        )
        + "; p_lose_gt_10x = P(losing more than 10 stakes in a game)"
    )
    _out(f"players: {played} at every seat (mjfast.policies)")
    keep = summary[
        summary.statistic.isin(
            [
                "mean",
                "std",
                "q05",
                "q50",
                "q95",
                "win_rate",
                "self_draw_share",
                "draw_game_rate",
                "dealer_edge",
                "p_lose_gt_10x",
            ]
        )
    ]
    _out(_table(keep.round({"value": 4, "se": 4, "ci_low": 4, "ci_high": 4})))
    return EXIT_OK


# ---------------------------------------------------------------------------
# registry and entry point
# ---------------------------------------------------------------------------


class _Command(NamedTuple):
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


_COMMANDS: list[_Command] = [
    _Command("hand", "parse a hand and print it in mpsz, Chinese and glyphs", _args_hand, _cmd_hand),
    _Command("rules", "list the rules, or describe one rule under options", _args_rules, _cmd_rules),
    _Command(
        "analyze",
        "shanten, 进张 and 一进听 of a 13-tile hand, or the discard table of a 14-tile hand "
        "(--value: with the exact win probability and expected payment)",
        _args_analyze,
        _cmd_analyze,
    ),
    _Command("calls", "call versus pass: every legal answer to an offered discard", _args_calls, _cmd_calls),
    _Command("score", "score a won hand under a rule: elements, total, payments", _args_score, _cmd_score),
    _Command("simulate", "play full games under a rule and print the payout summary", _args_simulate, _cmd_simulate),
]


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mjfast", description="Chinese mahjong analysis toolkit.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in _COMMANDS:
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.configure(p)
        p.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the exit status (0 success, 2 usage or input error).

    Examples
    --------
    >>> main(["hand", "11p34567m45s9p", "--meld", "555z"])  # doctest: +ELLIPSIS
    mpsz:    34567m119p45s 555z
    ...
    0
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        # argparse exits on --help and on usage errors; return the status so
        # main() can be called from Python and tests without catching SystemExit.
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    if args.version:
        _out(f"mjfast {_version()}")
        return EXIT_OK
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return run(args)
    except ValueError as e:
        print(f"mjfast: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a
        # traceback. Point stdout at devnull so the exit-time flush is quiet
        # (the recipe in the Python docs, "Note on SIGPIPE").
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as e:
        # a file that cannot be read or written: say which and why, without a traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"mjfast: error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_FAILURE
    except Exception as e:  # a bug: one line, not a traceback (MJFAST_TRACEBACK=1 shows it)
        if os.environ.get("MJFAST_TRACEBACK"):
            raise
        print(
            f"mjfast: error: unexpected {type(e).__name__}: {e} (this is a bug in mjfast; please report it, "
            "with MJFAST_TRACEBACK=1 set to show where it happened)",
            file=sys.stderr,
        )
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
