"""Turn a rule (or no rule) plus a hand into the flat arrays the kernels take.

This is the only bridge between :mod:`mjfast.rules` and :mod:`mjfast._kernels`; kernels never
see a rule object.  :func:`kernel_rule` serves the shape level (shanten, 进张, decomposition);
:func:`game_tables` the game engine (the wall and, per flipped indicator, each code's role).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import rules as _rules
from ._kernels import _game as _kg
from ._kernels import _shanten as _ks
from .rules import _base as _rules_base
from .tiles import CODES, N_KINDS, N_TILES_ALL

#: Form names understood by the shanten kernel, with their bit in the kernel's form mask.
FORM_BITS: dict[str, int] = dict(_ks.FORM_BITS)
#: Forms used when no rule is given.
DEFAULT_FORMS = ("standard", "seven_pairs", "thirteen_orphans")
OPT_PAIRS_DISTINCT = _ks.OPTION_BITS["pairs_distinct"]
OPT_LAN_STRICT = _ks.OPTION_BITS["lan_strict"]
OPT_VOID_M = _ks.OPTION_BITS["void_m"]  # << suit: that suit may be left empty (缺一门)
OPT_NEED_VOID = _ks.OPTION_BITS["need_void"]
OPT_HONOUR_CHOWS = _ks.OPTION_BITS[
    "honour_chows"
]  # any three different winds / dragons form a set (Calls.chow_honours)
ALL_VOIDABLE = OPT_NEED_VOID | (7 * OPT_VOID_M)
INF = _ks.NO_FORM  # the kernel's "no allowed form applies"

_FULL = np.full(N_KINDS, 4, np.uint8)
_FULL.setflags(write=False)
_ALL = np.ones(N_KINDS, np.uint8)
_ALL.setflags(write=False)


@dataclass(frozen=True)
class KernelRule:
    """What a kernel needs to know about a rule.

    Attributes
    ----------
    name : str or None
    copies : uint8[34]   natural copies of each kind in play (0 = absent)
    playable : uint8[34] kinds a target may contain (naturally or through a wildcard)
    forms : int          bit set of the forms the rule accepts
    options : int        option bits (seven-pairs reading, 烂胡 strictness)
    has_wildcards : bool
    """

    name: str | None
    copies: np.ndarray
    playable: np.ndarray
    forms: int
    options: int
    has_wildcards: bool


def resolve_rule(rule) -> _rules.Rule | None:
    """``None``, a registry name or a :class:`~mjfast.rules.Rule` → Rule or None."""
    if rule is None or isinstance(rule, _rules.Rule):
        return rule
    if isinstance(rule, str):
        return _rules.get(rule)
    raise ValueError(f"rule must be a rule name ({', '.join(_rules.names())}), a Rule or None; got {rule!r}")


def form_bits(form, rule_obj) -> int:
    """Bit set for ``form`` (a name, a collection of names, or None = the rule's forms)."""
    if form is None:
        names = DEFAULT_FORMS if rule_obj is None else tuple(f for f in rule_obj.forms if f in FORM_BITS)
        if rule_obj is not None and "honors_and_knitted" in rule_obj.forms:
            names = names + ("seven_stars",)
    elif isinstance(form, str):
        names = (form,)
    else:
        names = tuple(form)
    bits = 0
    for name in names:
        if name not in FORM_BITS:
            raise ValueError(f"unknown form {name!r}; valid forms: {', '.join(FORM_BITS)}")
        bits |= FORM_BITS[name]
    if not bits:
        raise ValueError("no form selected")
    return bits


@lru_cache(maxsize=256)
def kernel_rule(rule_obj, wild_kind: int | None = None, pairs_distinct: bool | None = None) -> KernelRule:
    """Kernel arrays for a rule (cached; rules are hashable and immutable).

    ``wild_kind``: the playable kind whose tiles are this hand's wildcards.  Its natural copies
    are then not drawable as naturals (they are wild), except for substitutes that play as that
    face (金华's 白板), whose copies take their place; a wildcard may still stand for its own
    face (RULES.md G-A6).
    """
    if rule_obj is None:
        copies = _FULL.copy()
        playable = _ALL.copy()
        forms = form_bits(None, None)
        options = 0
        has_wild = True  # rule-free analysis accepts wildcards
        name = None
    else:
        copies = np.array(rule_obj.tileset.copies, np.uint8)
        playable = (copies > 0).astype(np.uint8)
        forms = form_bits(None, rule_obj)
        options = OPT_LAN_STRICT if rule_obj.thirteen_lan_strict else 0
        if not rule_obj.seven_pairs_quad_as_two:
            options |= OPT_PAIRS_DISTINCT
        if rule_obj.max_suits < 3:
            options |= ALL_VOIDABLE  # a hand's melds may narrow this (see void_options)
        options |= honour_chow_option(rule_obj)
        has_wild = rule_obj.wildcard is not None
        name = rule_obj.name
    if pairs_distinct is not None:
        options = (options | OPT_PAIRS_DISTINCT) if pairs_distinct else (options & ~OPT_PAIRS_DISTINCT)
    if wild_kind is not None:
        if not 0 <= wild_kind < N_KINDS:
            raise ValueError(f"wild_kind must be a playable kind, got {wild_kind!r}")
        substitutes = 0
        if rule_obj is not None and rule_obj.wildcard is not None and rule_obj.wildcard.substitute:
            # substitutes play as the wild kind's natural face unless they are wild themselves
            for face in rule_obj.wildcard.substitute:
                if face != CODES[wild_kind]:
                    substitutes += rule_obj.tileset.face_copies(face)
                    if face in CODES[:N_KINDS]:
                        copies[CODES.index(face)] = 0  # those tiles now play as the wild face
        copies[wild_kind] = min(substitutes, 4)
        playable[wild_kind] = 1
    copies.setflags(write=False)
    playable.setflags(write=False)
    return KernelRule(name, copies, playable, forms, options, has_wild)


def honour_chow_option(rule_obj) -> int:
    """:data:`OPT_HONOUR_CHOWS` when the rule's calls declare honour chows (``Calls.chow_honours``),
    else 0.  The kernels know one shape of them: any three different winds and any three
    different dragons (瑞金); another grouping is refused rather than read wrongly."""
    groups = rule_obj.calls.chow_honours if rule_obj is not None else ()
    if not groups:
        return 0
    if sorted(map(tuple, groups)) != sorted((_rules_base.WINDS, _rules_base.DRAGONS)):
        raise ValueError(
            f"rule {rule_obj.name!r}: honour chows {groups!r} are not supported by the kernels "
            "(they know the four winds and the three dragons, each any three different)"
        )
    return OPT_HONOUR_CHOWS


def void_options(options: int, meld_suits) -> int:
    """Drop the 缺一门 "may be empty" bit of every suit a meld already uses."""
    if not options & OPT_NEED_VOID:
        return options
    for s in meld_suits:
        if s < 3:
            options &= ~(OPT_VOID_M << s)
    if not options & (7 * OPT_VOID_M):
        raise ValueError("the melds already hold all three suits: under a 缺一门 rule this hand can never win")
    return options


#: Roles of a tile code in a game besides the 34 kinds (the game kernel's own constants).
ROLE_WILD = _kg.WILD
ROLE_FLOWER = _kg.FLOWER


class GameTables:
    """The game kernel's view of a rule: its wall and, per flipped indicator, each code's role.

    Attributes
    ----------
    wall : int8[n]
        Every physical tile as a code of :mod:`mjfast.tiles` (bonus tiles included).
    flip : bool
        An indicator is turned up after the shuffle (the rule's wildcard is chosen that way).
    faces : int8[n_rows, 48]
        The role each code plays: a kind, :data:`ROLE_WILD` or :data:`ROLE_FLOWER`; one row per
        flippable code when ``flip`` (48 rows), else one.
    copies, playable : uint8[n_rows, 34]
        Natural copies of each kind in play, and the kinds a wildcard may stand for, per row.
    wild_kind : list
        Per flipped code, the playable kind its wildcards stand for naturally (None: none, or
        flower faces).
    forms, options : int
        The rule's form and option bits (:func:`kernel_rule`).
    """

    def __init__(self, rule: _rules.Rule):
        ts = rule.tileset
        kr = kernel_rule(rule)
        codes = [k for k in range(N_KINDS) for _ in range(int(ts.copies[k]))]
        codes += [CODES.index(code) for code, n in ts.bonus.items() for _ in range(int(n))]
        self.wall = np.ascontiguousarray(codes, np.int8)
        base = np.array([k if k < N_KINDS and ts.copies[k] > 0 else ROLE_FLOWER for k in range(N_TILES_ALL)], np.int8)
        scheme = rule.wildcard
        # a scheme chosen per sub-game (no indicator) plays without wildcards
        self.flip = scheme is not None and scheme.selection != "per_game"
        self.wild_kind: list[int | None] = [None] * N_TILES_ALL
        if not self.flip:
            self.faces = base[None, :].copy()
            self.copies = np.asarray(kr.copies, np.uint8)[None, :].copy()
            self.playable = np.ones((1, N_KINDS), np.uint8)
        else:
            assert scheme is not None  # self.flip implies a scheme
            self.faces = np.repeat(base[None, :], N_TILES_ALL, 0)
            self.copies = np.repeat(np.asarray(kr.copies, np.uint8)[None, :], N_TILES_ALL, 0)
            self.playable = np.repeat(np.asarray(kr.playable, np.uint8)[None, :], N_TILES_ALL, 0)
            for code in scheme.flippable:
                f = CODES.index(code)
                wild = [CODES.index(x) for x in scheme.successor(code)]
                kinds = [k for k in wild if k < N_KINDS and ts.copies[k] > 0]
                wk = kinds[0] if kinds else None  # wild faces that are flowers stand for no kind
                krf = kernel_rule(rule, wk)
                self.wild_kind[f] = wk
                self.faces[f, wild] = ROLE_WILD
                subs = scheme.substitute_for(code)
                if subs and wk is not None:
                    self.faces[f, [CODES.index(x) for x in subs]] = wk
                self.copies[f] = krf.copies
                self.playable[f] = krf.playable
        for a in (self.wall, self.faces, self.copies, self.playable):
            a.setflags(write=False)
        self.options = kr.options
        self.forms = kr.forms


@lru_cache(maxsize=64)
def game_tables(rule_obj) -> GameTables:
    """The :class:`GameTables` of a rule (cached; rules are hashable and immutable)."""
    return GameTables(rule_obj)
