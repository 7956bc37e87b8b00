"""Tests for the command-line interface (mjfast.__main__)."""

import json
import os
import subprocess
import sys

import pytest

from mjfast.__main__ import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    assert out.startswith("mjfast ") and len(out.split()) == 2


def test_no_command_prints_help(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "hand" in out and "rules" in out


def test_help_returns_zero(capsys):
    code, out, _ = run(capsys, "hand", "--help")
    assert code == 0 and "--meld" in out


def test_hand(capsys):
    code, out, err = run(capsys, "hand", "11p34567m45s9p", "--meld", "555z")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "mpsz:    34567m119p45s 555z"
    assert lines[1] == "chinese: 三四五六七万 一一九筒 四五条 | 白白白"
    assert lines[2] == "glyphs:  🀉🀊🀋🀌🀍 🀙🀙🀡 🀓🀔 | 🀆🀆🀆"
    assert lines[3] == "tiles:   13 counting each meld as 3 (10 in hand, 1 meld)"


def test_hand_options(capsys):
    code, out, _ = run(
        capsys,
        "hand",
        "一一筒 三四五六七万",
        "--meld",
        "[1111s]",
        "555z@left",
        "--bonus",
        "春 梅",
        "--bonus",
        "BD",
        "--wilds",
        "1",
    )
    assert code == 0
    assert "mpsz:    34567m11p [1111s] 555z bonus=F1,F5,BD wilds=1" in out
    assert "tiles:   14 counting each meld as 3 (8 in hand, 2 melds)" in out


def test_hand_json(capsys):
    code, out, _ = run(capsys, "hand", "11p34567m45s9p", "--meld", "555z@left", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["mpsz"] == "34567m119p45s 555z"
    assert data["melds"] == [{"kind": "pung", "tiles": ["5z", "5z", "5z"], "source": "left", "claimed": None}]
    assert data["n_tiles"] == 10 and data["tiles_counting_melds_as_3"] == 13
    assert data["concealed"][:2] == ["3m", "4m"] and len(data["counts"]) == 34


@pytest.mark.parametrize(
    "argv, message",
    [
        (["hand", "11p34567m45s9x"], "mjfast: error: unknown tile 'x' at 13"),
        (["hand", "11p5"], "mjfast: error: digit '5' at 3 has no suit"),
        (["hand", ""], "mjfast: error: a hand holds 13 or 14 tiles"),
        (["hand", "11p34567m45s9p", "--meld", "124m"], "is not a legal set"),
        (["hand", "11p34567m45s9p123s", "--wilds", "-1"], "wilds must be a non-negative integer"),
        (["hand", "11p34567m45s9p123s", "--bonus", "1m"], "cannot be a bonus tile"),
        (["rules", "tokyo"], "mjfast: error: unknown rule 'tokyo'"),
        (["rules", "suzhou", "--option", "bogus=1"], "mjfast: error: unknown option(s) 'bogus'"),
        (["rules", "--option", "threshold=2_3"], "mjfast: error: --option needs a rule NAME"),
    ],
)
def test_errors_exit_2_without_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(message) or message in err
    assert err.startswith("mjfast: error: ") and "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    code, _, err = run(capsys, "rules", "suzhou", "--option", "novalue")
    assert code == 2 and "expected key=value" in err
    code, _, err = run(capsys, "hand")
    assert code == 2 and "required" in err
    code, _, err = run(capsys, "frobnicate")
    assert code == 2 and "invalid choice" in err


def test_rules_summary(capsys):
    rules = pytest.importorskip("mjfast.rules")
    code, out, err = run(capsys, "rules")
    assert code == 0 and err == ""
    for name in rules.names():
        assert name in out
    assert len(out.splitlines()) == len(rules.summary()) + 1  # header + one line per rule


def test_rules_describe(capsys):
    rules = pytest.importorskip("mjfast.rules")
    code, out, _ = run(capsys, "rules", "suzhou", "--option", "threshold=2_3")
    assert code == 0
    header = out.splitlines()[0].split()
    assert header == ["section", "item", "value", "meaning"]
    assert len(out.splitlines()) == len(rules.describe(rules.get("suzhou", threshold="2_3"))) + 1


def test_rules_json(capsys):
    rules = pytest.importorskip("mjfast.rules")
    code, out, _ = run(capsys, "rules", "taicang", "--json")
    assert code == 0
    records = json.loads(out)
    assert records == json.loads(rules.describe(rules.get("taicang")).to_json(orient="records"))
    assert set(records[0]) == {"section", "item", "value", "meaning"}
    code, out, _ = run(capsys, "rules", "--json")
    assert code == 0 and {r["name"] for r in json.loads(out)} == set(rules.names())


def test_python_dash_m():
    # The module entry point of the installed package works as a program, not just main().
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "mjfast", "hand", "123m456p789s1122x"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == "mjfast: error: unknown tile 'x' at 16"


def test_analyze_thirteen_tile_hand(capsys):
    code = main(["analyze", "11p34567m45s9p", "--meld", "555z", "--json"])
    rec = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (rec["shanten"], rec["ukeire"], rec["ting"], rec["combos"]) == (1, 19, 19, 176)
    assert {r["tile"] for r in rec["breakdown"]} == {"2m", "5m", "8m", "3s", "6s"}


def test_analyze_discard_table(capsys):
    code = main(["analyze", "34567m45s9p", "--meld", "111p", "555z", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0 and rows[0]["discard"] == "9p" and rows[0]["ukeire"] == 37 and rows[0]["combos"] == 324
    code = main(["analyze", "34567m45s9p", "--meld", "111p", "555z"])
    text = capsys.readouterr().out
    assert code == 0 and text.splitlines()[1].split()[:4] == ["discard", "shanten", "ukeire_kinds", "ukeire"]


def test_analyze_bad_hand(capsys):
    assert main(["analyze", "123m456p789s1122x"]) == 2
    assert "unknown tile 'x'" in capsys.readouterr().err


def test_calls_command(capsys):
    code = main(["calls", "11p34567m45s9p", "--meld", "555z", "--offer", "1p", "--from", "opposite", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0
    assert rows[0] == {
        "option": "pung",
        "meld": "111p",
        "discard": "9p",
        "shanten": 1,
        "ukeire": 37,
        "ting": 37,
        "combos": 324,
    }
    assert rows[1]["option"] == "pass" and rows[1]["combos"] == 176
    assert main(["calls", "11p34567m45s9p", "--meld", "555z", "--offer", "1p", "--from", "opposite"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["option", "meld", "discard", "shanten", "ukeire", "ting", "combos"]
    assert lines[2].split() == ["pung", "111p", "9p", "1", "37", "37", "324"]


def test_score_command(capsys):
    # the 苏州 worked example: 清一色七对, 5 flowers, self-draw → 40 花, 200 per payer at 5 per 花
    code = main(
        [
            "score",
            "11223344556677m",
            "--win",
            "7m",
            "--self-draw",
            "--rule",
            "suzhou",
            "--bonus",
            "F1",
            "F2",
            "F3",
            "F5",
            "F6",
            "--json",
        ]
    )
    rec = json.loads(capsys.readouterr().out)
    assert code == 0 and rec["legal"]
    assert (rec["total"], rec["points"], rec["payments"]) == (40, 200, [600, -200, -200, -200])
    # 国标 discard: the discarder pays 8 + 番, the others 8 each (RULES.md §1.6)
    code = main(["score", "123m456p789s234s55p", "--win", "5p", "--discarder", "2", "--json"])
    rec = json.loads(capsys.readouterr().out)
    f = rec["total"]
    assert code == 0 and rec["payments"] == [24 + f, -8, -8 - f, -8]
    assert main(["score", "123m456p789s234s55p", "--win", "5p"]) == 2
    assert "--self-draw or --discarder" in capsys.readouterr().err
    assert main(["score", "123m456p789s234s55p", "--win", "5p", "--self-draw"]) == 0
    assert "payments: seat 0: +" in capsys.readouterr().out


def test_simulate_command(tmp_path, capsys):
    out = tmp_path / "games.csv"
    code = main(["simulate", "--rule", "sichuan", "--games", "300", "--seed", "1", "--out", str(out), "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0
    games = __import__("pandas").read_csv(out)
    assert len(games) == 300 and (games[["pay_0", "pay_1", "pay_2", "pay_3"]].sum(axis=1) == 0).all()
    stats = {(r["role"], r["statistic"]): r["value"] for r in rows}
    assert abs(stats[("all", "mean")]) < 1e-12  # zero-sum
    assert 0 < stats[("all", "win_rate")] < 1
    assert {r["policy"] for r in rows} == {"Value()"}  # which players produced the numbers
    assert main(["simulate", "--rule", "sichuan", "--games", "40", "--seed", "1"]) == 0
    assert "players: Value() at every seat" in capsys.readouterr().out.splitlines()[2]
    # --policy seats the speed players instead: other games
    speed_args = ["--rule", "sichuan", "--games", "300", "--seed", "1", "--policy", "efficiency", "--json"]
    assert main(["simulate", *speed_args]) == 0
    speed = json.loads(capsys.readouterr().out)
    assert {r["policy"] for r in speed} == {"Efficiency()"}
    assert {(r["role"], r["statistic"]): r["value"] for r in speed} != stats
    assert main(["simulate", "--rule", "sichuan", "--games", "10", "--policy", "greedy"]) == 2
    assert "invalid choice: 'greedy'" in capsys.readouterr().err
    assert main(["simulate", "--rule", "sichuan", "--games", "10", "--out", "x.txt"]) == 2
    assert "--out must end in .csv or .parquet" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_simulate_streams_to_file(tmp_path, capsys, monkeypatch, suffix):
    """Several batches are written to one file: the same games simulate_games plays."""
    import pandas as pd

    import mjfast as mj
    import mjfast.__main__

    monkeypatch.setattr(mjfast.__main__, "_BATCH_GAMES", 1024)
    out = tmp_path / f"games.{suffix}"
    args = ["simulate", "--rule", "taicang", "--games", "2100", "--seed", "4", "--threads", "1", "--out", str(out)]
    assert main(args) == 0
    assert "2100 games of taicang" in capsys.readouterr().out
    games = pd.read_csv(out) if suffix == "csv" else pd.read_parquet(out)
    ref = mj.simulate_games("taicang", 2100, rng=4, n_threads=1)
    assert games["game"].tolist() == list(range(2100))
    for c in ("winning_hand", "elements", "flipped", "winners"):
        assert games[c].fillna("").astype(str).tolist() == ref[c].astype(str).tolist(), c
    assert (
        games[["pay_0", "pay_1", "pay_2", "pay_3"]].to_numpy() == ref[["pay_0", "pay_1", "pay_2", "pay_3"]].to_numpy()
    ).all()


def test_analyze_with_offer(capsys):
    """The README's main job: the article's hand, then call versus pass for the offered 1p."""
    assert main(["analyze", "11p34567m45s9p", "--meld", "555z", "--offer", "1p", "--from", "opposite"]) == 0
    out = capsys.readouterr().out
    assert "一进听:  进张 19, 听张 19, 组合 176" in out
    rows = [line.split() for line in out.split("call versus pass")[1].splitlines()[2:] if line.strip()]
    assert rows[0][:7] == ["pung", "111p", "9p", "1", "37", "37", "324"]
    assert rows[1][:5] == ["pass", "1", "19", "19", "176"]
    assert main(["analyze", "11p34567m45s9p", "--meld", "555z", "--offer", "1p", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert {r["option"] for r in record["calls"]} == {"pass", "pung"}  # no 2p3p: no chow from 上家
    assert main(["analyze", "11p34567m45s9p1p", "--meld", "555z", "--offer", "1p"]) == 2
    assert "--offer needs a 13-tile" in capsys.readouterr().err


def test_score_says_what_each_payer_owes(capsys):
    # 国标 discard win: the discarder owes 8 + 番, the two others 8 each (not "53 per payer")
    assert main(["score", "11123456789999m", "--win", "3m", "--rule", "guobiao", "--discarder", "1"]) == 0
    out = capsys.readouterr().out
    assert "owed:     53 by seat 1, 8 by seat 2, 8 by seat 3" in out and "per payer" not in out
    assert "payments: seat 0: +69  seat 1: -53  seat 2: -8  seat 3: -8" in out
    assert main(["score", "11123456789999m", "--win", "3m", "--rule", "国标", "--self-draw", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["owed"] == {"1": 55, "2": 55, "3": 55} and rec["payments"] == [165, -55, -55, -55]
    # the elements: value per element, total per row
    assert (
        main(
            [
                "score",
                "11223355667788m",
                "--win",
                "8m",
                "--self-draw",
                "--rule",
                "suzhou",
                "--bonus",
                "F1",
                "F2",
                "5z",
                "6z",
                "7z",
                "--json",
            ]
        )
        == 0
    )
    rows = {r["code"]: r for r in json.loads(capsys.readouterr().out)["elements"]}
    assert (rows["hard_flower"]["value"], rows["hard_flower"]["count"], rows["hard_flower"]["total"]) == (1, 5, 5)


def test_fixed_means_fixed_sets_in_analyze_and_calls(capsys):
    """--fixed names a set among the concealed tiles, in analyze (with or without --offer) and calls,
    exactly as the API's fixed_sets= does."""
    import mjfast as mj

    tiles = "555z11p34567m45s9p"
    api = mj.call_vs_pass(tiles, "1p", from_seat="opposite", fixed_sets=["555z"])
    api = api.astype(object).where(api.notna(), None).to_dict(orient="records")
    assert main(["calls", tiles, "--fixed", "555z", "--offer", "1p", "--from", "opposite", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == api
    assert main(["analyze", tiles, "--fixed", "555z", "--offer", "1p", "--from", "opposite", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["calls"] == api and rec["fixed"] == ["555z"]
    y = mj.yijinting(tiles, fixed_sets=["555z"])
    assert (rec["ukeire"], rec["ting"], rec["combos"]) == (y.ukeire, y.ting, y.combos)
    # a 14-tile hand: the discard table of analyze_discards(..., fixed_sets=)
    assert main(["analyze", "555z11p34567m45s9p1p", "--fixed", "555z", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ref = mj.analyze_discards("555z11p34567m45s9p1p", fixed_sets=["555z"])
    assert [r["discard"] for r in rows] == [str(d) for d in ref.discard]
    assert [r["combos"] for r in rows] == ref.combos.tolist()
    # a set that is not among the tiles is an error in both commands, said the same way
    for argv in (
        ["analyze", "11p34567m45s9p123s", "--fixed", "555z"],
        ["analyze", "11p34567m45s9p123s", "--fixed", "555z", "--offer", "1p"],
        ["calls", "11p34567m45s9p123s", "--fixed", "555z", "--offer", "1p", "--from", "left"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("mjfast: error: fixed set 555z is not among the concealed tiles")


def test_seats_and_winds_as_users_type_them(capsys):
    assert main(["calls", "11p34567m45s9p", "--meld", "555z", "--offer", "1p", "--from", "对家", "--json"]) == 0
    by_zh = json.loads(capsys.readouterr().out)
    assert main(["calls", "11p34567m45s9p", "--meld", "555z", "--offer", "1p", "--from", "opposite", "--json"]) == 0
    assert by_zh == json.loads(capsys.readouterr().out)
    assert main(["analyze", "11p34567m45s9p", "--meld", "555z", "--offer", "2m", "--from", "上家", "--json"]) == 0
    assert "chow" in {r["option"] for r in json.loads(capsys.readouterr().out)["calls"]}
    hand = ["score", "123m456p789s234s55p", "--win", "5p", "--self-draw", "--rule", "国标", "--json"]
    assert main(hand + ["--prevalent-wind", "S"]) == 0
    south = json.loads(capsys.readouterr().out)
    assert main(hand + ["--prevalent-wind", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == south


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["calls", "11p34567m45s9p", "--offer", "1p", "--from", "oposite"],
            "mjfast: error: calls: argument --from: unknown seat 'oposite'; did you mean 'opposite'?",
        ),
        (
            ["analyze", "11p34567m45s9p", "--rule", "suzhu"],
            "mjfast: error: unknown rule 'suzhu'; did you mean 'suzhou'?",
        ),
        (["simulate", "--rule", "sichuan", "--games", "0"], "mjfast: error: --games must be at least 1, got 0"),
        (
            ["simulate", "--rule", "sichuan", "--games", "5", "--unit", "fan"],
            "mjfast: error: simulate: argument --unit",
        ),
        (["simulate", "--rule", "sichuan", "-o", "xuezan=true", "--games", "5"], "did you mean 'xuezhan'"),
        (
            ["score", "123m456p789s234s55p", "--win", "5p", "--self-draw", "--prevalent-wind", "X"],
            "mjfast: error: prevalent_wind must be 0-3 or a wind name",
        ),
        (["analyze", "11p34567m45s9p", "--offer", "1p", "--wilds", "1"], "mjfast: error: "),
        (["rules", "suzhou", "-o", "novalue"], "mjfast: error: rules: argument --option/-o: expected key=value"),
        (["frobnicate"], "mjfast: error: argument COMMAND: invalid choice: 'frobnicate'"),
        (["calls", "11p34567m45s9p", "--offer", "1p"], "mjfast: error: calls: the following arguments are required"),
    ],
)
def test_every_error_is_one_mjfast_error_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("mjfast: error: ") and message in last


def test_file_and_unexpected_errors_have_no_traceback(capsys, monkeypatch):
    import mjfast.__main__ as cli

    def failing(error):
        def run_(args):
            raise error

        return [cli._COMMANDS[0]._replace(run=run_)] + cli._COMMANDS[1:]

    monkeypatch.delenv("MJFAST_TRACEBACK", raising=False)
    monkeypatch.setattr(cli, "_COMMANDS", failing(FileNotFoundError(2, "No such file or directory", "x/games.csv")))
    code, out, err = run(capsys, "hand", "11p34567m45s9p", "--meld", "555z")
    assert (code, out, err) == (1, "", "mjfast: error: x/games.csv: No such file or directory\n")
    monkeypatch.setattr(cli, "_COMMANDS", failing(TypeError("something went wrong")))
    code, out, err = run(capsys, "hand", "11p34567m45s9p", "--meld", "555z")
    assert code == 1 and "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("mjfast: error: unexpected TypeError: something went wrong (this is a bug")
    monkeypatch.setenv("MJFAST_TRACEBACK", "1")
    with pytest.raises(TypeError, match="something went wrong"):
        main(["hand", "11p34567m45s9p", "--meld", "555z"])


def test_progress_bar_counts_games_and_shows_on_a_terminal(capsys, monkeypatch):
    argv = ["simulate", "--rule", "sichuan", "--games", "1500", "--seed", "2", "--threads", "1", "--json"]
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "1500/1500" in err and "game/s" in err and "chunk" not in err
    assert main(argv + ["--no-progress"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert main(argv) == 0
    assert capsys.readouterr().err == ""
    assert main(argv + ["--progress"]) == 0
    assert "1500/1500" in capsys.readouterr().err
