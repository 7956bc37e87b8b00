"""The whole-game and whole-match invariant sweep of every rule.

Games: every row zero-sum, tiles conserved, every win accepted by ``mj.can_win`` with exactly the
context it was scored with, and wherever that context names a liable seat (包) that seat pays the
win alone.  Matches: zero-sum hands, running totals, and the dealer sequence and prevalent wind of
every match obeying the rule's rotation (``_sim_helpers``: written from the sources, independent of
the scorers' hooks).

CI sizes by default; ``MJFAST_ORACLE_SCALE=full`` plays 100,000 games and 10,000 matches per rule
and writes the counts (wins, liabilities paid alone, multi-winner events, ...) to
``$MJFAST_CACHE_DIR/sweep_<case>.json``."""

import json
import os
from pathlib import Path

import numpy as np
import pytest
from _sim_helpers import check_rotation, check_running_totals, check_tiles_conserved, check_winds_and_seating

import mjfast as mj
from mjfast.simulation import _chunks
from mjfast.simulation import games as G
from mjfast.simulation import matches as M

FULL = os.environ.get("MJFAST_ORACLE_SCALE", "") == "full"
N_GAMES = 100_000 if FULL else 300
N_MATCHES = 10_000 if FULL else 6
CASES = {name: (name, {}) for name in mj.rules.names()}
CASES["xuezhan"] = ("sichuan", {"xuezhan": True})
CASES["gd_small"] = ("guangdong", {"baozimo_small": True, "bao_scope": "per_discarder"})
CASES["sz_songgang"] = ("suzhou", {"songgang_scope": "any_later_selfdraw", "dealer": "dahu_keeps"})
CASES["gb_flowers"] = ("guobiao", {"tileset": 144, "lianzhong_extras": True, "yipao_duoxiang": True})
CASES["jj_hun"] = ("jj", {"hun": "flip_successor", "dealer": "winner"})
BATCH_CHUNKS = 8


def _record(kind, case, counts):
    if FULL:
        out = Path(os.environ.get("MJFAST_CACHE_DIR", ".")) / f"sweep_{kind}_{case}.json"
        out.write_text(json.dumps(counts, indent=1))


@pytest.mark.parametrize("case", list(CASES))
def test_game_sweep(case):
    name, options = CASES[case]
    rule = mj.rules.get(name, **options)
    game = G._Game(rule)
    sizes = _chunks.chunk_sizes(N_GAMES)
    children = _chunks.seed_sequence(20261203).spawn(len(sizes))
    counts = dict(
        games=0,
        wins=0,
        liable=0,
        multi_winner_events=0,
        robbing=0,
        kong_discard_wins=0,
        after_kong_wins=0,
        draw_games=0,
    )
    threads = mj._inputs.default_threads(None) if FULL else 1
    for start in range(0, len(sizes), BATCH_CHUNKS):
        part = slice(start, start + BATCH_CHUNKS)
        raw = G._raw(game, _chunks.bit_generators(children[part]), sizes[part], threads)
        check_tiles_conserved(game, raw)
        outcomes = []
        rows = G._rows(game, *raw, outcomes=outcomes)
        pays = np.array([rows[f"pay_{s}"] for s in range(4)]).T
        assert (pays.sum(axis=1) == 0).all()
        for o in outcomes:
            counts["games"] += 1
            counts["draw_games"] += not o.events
            for e in o.events:
                counts["multi_winner_events"] += len(e.winners) > 1
                counts["robbing"] += e.how == "robbing_kong"
            for (w, s), ctx in zip(o.scores, o.contexts):
                counts["wins"] += 1
                counts["kong_discard_wins"] += ctx.kong_discard
                counts["after_kong_wins"] += ctx.after_kong
                assert mj.can_win(ctx, rule, **game.score_options), (case, str(ctx.hand))
                if ctx.liable is not None:
                    p = s.payments
                    assert p[ctx.liable] == -p[w] and all(p[q] == 0 for q in range(4) if q not in (w, ctx.liable)), (
                        case,
                        p.tolist(),
                        ctx.liable,
                    )
                    counts["liable"] += 1
    assert counts["games"] == N_GAMES
    _record("games", case, counts)


@pytest.mark.parametrize("case", list(CASES))
def test_match_sweep(case):
    name, options = CASES[case]
    counts = dict(matches=0, hands=0, rotations_checked=0)
    threads = mj._inputs.default_threads(None) if FULL else 1
    for df in M.iter_matches(name, N_MATCHES, rng=20261204, n_threads=threads, batch_matches=512, **options):
        check_running_totals(df)
        counts["rotations_checked"] += check_rotation(name, options, df)
        check_winds_and_seating(name, df)
        counts["matches"] += df["match"].nunique()
        counts["hands"] += len(df)
    assert counts["matches"] == N_MATCHES
    _record("matches", case, counts)
