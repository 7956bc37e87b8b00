"""call_vs_pass: the 一进听 article's case and the call sets each rule allows."""

import numpy as np
import pandas as pd
import pytest

import mjfast as mj


def test_article_case_pung_then_9p_beats_pass():
    df = mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="opposite", melds=["555z"])
    assert list(df.columns) == ["option", "meld", "discard", "shanten", "ukeire", "ting", "combos"]
    top = df.iloc[0]
    assert (top.option, top.meld, top.discard, top.ukeire, top.ting, top.combos) == ("pung", "111p", "9p", 37, 37, 324)
    passed = df[df.option == "pass"].iloc[0]
    assert (passed.ukeire, passed.ting, passed.combos) == (19, 19, 176)
    assert df.index[df.option == "pass"][0] == 1  # pung→9p is ranked first, pass second
    # every pung row is one discard of the 11 tiles left after the call
    pungs = df[df.option == "pung"]
    assert set(pungs.discard) == {"3m", "4m", "5m", "6m", "7m", "4s", "5s", "9p"}
    assert not (df.option == "chow").any()  # 1p from the opposite seat cannot be chowed


def test_each_row_matches_the_efficiency_functions():
    df = mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="opposite", melds=["555z"])
    for row in df[df.option == "pung"].itertuples():
        left = mj.Hand("34567m45s9p", melds=["555z", "111p"], partial=True).without_tile(row.discard)
        u = mj.ukeire(left)
        assert (u.shanten, u.count) == (row.shanten, row.ukeire)


def test_chows_only_from_the_left_and_only_where_allowed():
    left = mj.call_vs_pass("11p34567m45s9p", "2m", from_seat="left", melds=["555z"])
    assert set(left.meld[left.option == "chow"]) == {"234m"}
    opposite = mj.call_vs_pass("11p34567m45s9p", "2m", from_seat="opposite", melds=["555z"])
    assert set(opposite.option) == {"pass"}
    # 6m from the left: 456m and 567m are in reach
    df = mj.call_vs_pass("11p34567m45s9p", "6m", from_seat="left", melds=["555z"])
    assert set(df.meld[df.option == "chow"]) == {"456m", "567m"}  # no 8m in hand for 678m
    # 苏州 and 四川 have no chows at all
    for rule, hand in [("suzhou", "11p34567m45s9p111s"), ("sichuan", "11p34567m45s9p111s")]:
        df = mj.call_vs_pass(hand, "6m", from_seat="left", rule=rule)
        assert "chow" not in set(df.option)
        assert "chow" in set(mj.call_vs_pass(hand, "6m", from_seat="left", rule="guangdong").option)


def test_kong_and_win_rows():
    df = mj.call_vs_pass("111p34567m455s99p", "1p", from_seat="right")
    assert {"kong", "pung", "pass"} <= set(df.option)
    kong = df[df.option == "kong"].iloc[0]
    assert kong.meld == "1111p" and kong.discard == ""
    win = mj.call_vs_pass("1112345678999m", "5m", from_seat="right")
    assert win.iloc[0].option == "win" and win.iloc[0].shanten == -1
    assert pd.isna(win.iloc[0].ting)


def test_bad_input():
    with pytest.raises(ValueError, match="from_seat"):
        mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="north", melds=["555z"])
    with pytest.raises(ValueError, match="13-tile"):
        mj.call_vs_pass("11p34567m45s9p1p", "1p", from_seat="left", melds=["555z"])
    with pytest.raises(ValueError, match="all four"):
        mj.call_vs_pass("1111p345m4s99p", "1p", from_seat="left", melds=["555z"])
    with pytest.raises(ValueError, match="n must be a non-negative integer"):
        mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="left", melds=["555z"], n=-1)


def test_monte_carlo_columns_are_reproducible_and_consistent():
    kw = dict(from_seat="opposite", melds=["555z"], n=300, draws_left=6, rng=7)
    a = mj.call_vs_pass("11p34567m45s9p", "1p", **kw)
    b = mj.call_vs_pass("11p34567m45s9p", "1p", **kw)
    pd.testing.assert_frame_equal(a, b)
    assert {"p_ready", "se_ready", "p_win", "se_win"} <= set(a.columns)
    assert ((a.p_win >= 0) & (a.p_win <= a.p_ready) & (a.p_ready <= 1)).all()
    # the pass row is exactly simulate_draws of the hand itself with the same seed
    curve = mj.simulate_draws(mj.Hand("11p34567m45s9p", melds=["555z"]), draws_left=6, n=300, rng=7)
    row = a[a.option == "pass"].iloc[0]
    assert (row.p_ready, row.p_win) == (curve.iloc[-1].p_ready, curve.iloc[-1].p_win)
    # ranking stays by the exact figures
    assert a.iloc[0].option == "pung" and a.iloc[0].discard == "9p"
    win = mj.call_vs_pass("1112345678999m", "5m", from_seat="right", n=50, rng=1)
    assert win.iloc[0].p_win == 1.0


def test_suzhou_scores_show_the_cost_of_calling():
    # 苏州: passing keeps 门清 (exempt from the flower minimum, 门清 bonus); a pung loses both
    kw = dict(from_seat="opposite", rule="suzhou", n=400, draws_left=8, rng=3)
    df = mj.call_vs_pass("11p34567m45s9p111s", "1p", **kw)
    cols = ["mean_score", "score_q50", "score_q90"]
    assert list(df.columns[-3:]) == cols
    assert {"pung", "pass"} <= set(df.option)
    won = df[df.p_win > 0]
    assert len(won) == len(df)
    assert np.isfinite(won[cols].to_numpy()).all()
    assert (won.score_q50 <= won.score_q90).all()
    # each row is the last turn of simulate_draws on the hand the option leaves (same seed)
    passed = df[df.option == "pass"].iloc[0]
    curve = mj.simulate_draws(mj.Hand("11p34567m45s9p111s"), rule="suzhou", draws_left=8, n=400, rng=3)
    assert [passed[c] for c in cols] == [curve[c].iloc[-1] for c in cols]
    pung = df[(df.option == "pung") & (df.discard == "9p")].iloc[0]
    curve = mj.simulate_draws(
        mj.Hand("34567m45s111s", melds=["111p@opposite"]), rule="suzhou", draws_left=8, n=400, rng=3
    )
    assert [pung[c] for c in cols] == [curve[c].iloc[-1] for c in cols]
    # the called hand never scores 门清: every pung win is worth less than the pass's best
    assert pung.score_q90 < passed.score_q90


def test_score_of_a_single_wait_matches_the_scorer():
    # after 碰 1p and discarding 9p the hand waits on 5p only (单钓); with one draw every win
    # is the same hand, so the score columns equal mj.score of that hand exactly
    df = mj.call_vs_pass("11p123m456m789m5p9p", "1p", from_seat="right", rule="guobiao", n=3000, draws_left=1, rng=4)
    row = df[(df.option == "pung") & (df.discard == "9p")].iloc[0]
    won = mj.WinContext(mj.Hand("123m456m789m55p", melds=["111p@right"]), win_tile="5p", self_draw=True)
    s = mj.score(won, "guobiao")
    assert s.legal and row.p_win > 0
    assert row.mean_score == row.score_q50 == row.score_q90 == s.points


def test_win_row_needs_a_legal_win_under_the_rule():
    # 234m567m345p678s + 1z, 1z discarded: complete, but 国标 needs 8 番
    shape = mj.call_vs_pass("234m567m345p678s1z", "1z", from_seat="left")
    assert shape.iloc[0].option == "win"
    legal = mj.call_vs_pass("234m567m345p678s1z", "1z", from_seat="left", rule="guobiao")
    assert "win" not in set(legal.option)
    # a legal discard win: its score is the scorer's, paid by the discarder (对家 = seat 2)
    df = mj.call_vs_pass("123m456p789s234s5p", "5p", from_seat="opposite", rule="guobiao", n=50, draws_left=2, rng=1)
    ctx = mj.WinContext(mj.Hand("123m456p789s234s55p"), win_tile="5p", discarder=2)
    top = df.iloc[0]
    assert top.option == "win" and top.p_win == 1.0
    assert top.mean_score == top.score_q50 == top.score_q90 == mj.score(ctx, "guobiao").points


def test_monte_carlo_keywords_like_every_other_simulation():
    from concurrent.futures import ThreadPoolExecutor

    kw = dict(from_seat="opposite", melds=["555z"], n=2100, draws_left=4, rng=9)
    base = mj.call_vs_pass("11p34567m45s9p", "1p", n_threads=1, **kw)
    pd.testing.assert_frame_equal(base, mj.call_vs_pass("11p34567m45s9p", "1p", n_threads=2, **kw))
    with ThreadPoolExecutor(2) as ex:
        pd.testing.assert_frame_equal(base, mj.call_vs_pass("11p34567m45s9p", "1p", executor=ex, **kw))
    with pytest.raises(ValueError, match="n_threads must not be 0"):
        mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="left", melds=["555z"], n_threads=0)
    with pytest.raises(ValueError, match="executor must be"):
        mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="left", melds=["555z"], executor=object())


def test_progress_counts_runs_over_all_options(capsys):
    kw = dict(from_seat="opposite", melds=["555z"], n=300, draws_left=3, rng=9)
    quiet = mj.call_vs_pass("11p34567m45s9p", "1p", **kw)
    assert capsys.readouterr().err == ""
    shown = mj.call_vs_pass("11p34567m45s9p", "1p", progress=True, **kw)
    pd.testing.assert_frame_equal(quiet, shown)
    err = capsys.readouterr().err
    total = 300 * len(shown)  # no win row here: every option is played
    assert f"{total}/{total}" in err and "run" in err and err.count("call_vs_pass") >= 1


def test_old_sample_size_name_is_deprecated():
    kw = dict(from_seat="opposite", melds=["555z"], draws_left=3, rng=9)
    with pytest.warns(DeprecationWarning, match=r"call_vs_pass\(mc_games=...\) is deprecated.*n="):
        old = mj.call_vs_pass("11p34567m45s9p", "1p", mc_games=200, **kw)
    pd.testing.assert_frame_equal(old, mj.call_vs_pass("11p34567m45s9p", "1p", n=200, **kw))
    with pytest.raises(ValueError, match="give the sample size once"):
        mj.call_vs_pass("11p34567m45s9p", "1p", mc_games=200, n=200, **kw)
