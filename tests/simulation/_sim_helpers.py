"""Helpers shared by the simulation tests: the kernel records of seeded games."""
import mjfast as mj
from mjfast.simulation import _chunks
from mjfast.simulation import games as G


def raw(rule, n, seed, *, fei_policy=0, pung_policy=0, log=0, **options):
    """``(game, records)``: the kernel's records of the games ``simulate_games(rule, n, rng=seed)``
    plays (``log``: keep that many action-log entries per game)."""
    rule = rule if isinstance(rule, mj.rules.Rule) else mj.rules.get(rule, **options)
    game = G._Game(rule, fei_policy=fei_policy, pung_policy=pung_policy)
    sizes = _chunks.chunk_sizes(n)
    children = _chunks.seed_sequence(seed).spawn(len(sizes))
    return game, G._raw(game, _chunks.bit_generators(children), sizes, 1, log=log)


def scored(game, records, log=False):
    """The Outcomes of recorded games after scoring (each with its ``scores``), and the rows."""
    outcomes = []
    rows = G._rows(game, *records[:6], outcomes=outcomes)
    return outcomes, rows


def actions(lg):
    """The action log of one game as ``(action name, seat, tile)`` tuples."""
    names = {v: k for k, v in G._kg.ACTIONS.items()}
    return [(names[int(a)], int(s), int(t)) for a, s, t in lg if a >= 0]
