"""The rules registry: the one place rule facts live.

One module per variant (``suzhou``, ``taicang``, …) holds that variant's facts as an ``OPTIONS``
mapping (key -> allowed values, default first) and a ``build(options)`` function. Use
:func:`get` to obtain a frozen :class:`Rule`, :func:`describe` for a table of one rule and
:func:`summary` for one line per rule. Rule texts: ``rules/RULES.md`` and the variant files.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported when a table is asked for, keeping `import mjfast` light
    import pandas as pd


from . import _variants, guangdong, guiyang, guobiao, jinhua, jj, ruijin, shangrao, sichuan, suzhou, taicang
from ._base import (
    FORMS,
    Calls,
    Rule,
    TileSet,
    WildcardScheme,
    resolve_options,
)

__all__ = [
    "get",
    "names",
    "variant",
    "variants",
    "canonical_name",
    "describe",
    "summary",
    "Rule",
    "TileSet",
    "Calls",
    "WildcardScheme",
    "FORMS",
]

_MODULES: tuple[ModuleType, ...] = (
    suzhou,
    taicang,
    guangdong,
    sichuan,
    guiyang,
    ruijin,
    shangrao,
    jinhua,
    guobiao,
    jj,
)
_REGISTRY: dict[str, ModuleType] = {module.NAME: module for module in _MODULES}
_CACHE: dict[tuple, Rule] = {}


def names() -> tuple[str, ...]:
    """Registry names of all rules, in the order of RULES.md §1.7 (declared variants are listed
    by :func:`variants`).

    Returns
    -------
    tuple of str
    """
    return tuple(name for name, module in _REGISTRY.items() if not isinstance(module, _variants._Entry))


def variants() -> tuple[str, ...]:
    """Registry names of the rule variants declared with :func:`variant`, in declaration order.

    Returns
    -------
    tuple of str
    """
    return tuple(name for name, module in _REGISTRY.items() if isinstance(module, _variants._Entry))


#: Other names users type for a rule (besides its registry name and its Chinese name with and
#: without 麻将): short Chinese names, traditional characters, common English names. Compared
#: case-insensitively.
_ALIASES: dict[str, tuple[str, ...]] = {
    "suzhou": ("苏州", "蘇州", "蘇州麻將"),
    "taicang": ("太仓", "太倉", "太倉麻將"),
    "guangdong": ("广东", "廣東", "鸡平胡", "雞平胡", "广东麻将", "canton", "cantonese"),
    "sichuan": ("四川", "川麻", "sichuan mahjong"),
    "guiyang": ("贵阳", "貴陽", "贵阳捉鸡", "捉鸡麻将"),
    "ruijin": ("瑞金",),
    "shangrao": ("上饶", "上饒"),
    "jinhua": ("金华", "金華"),
    "guobiao": ("国标", "國標", "国标麻将", "國標麻將", "mcr", "中国麻将", "中國麻將", "chinese official"),
    "jj": ("jj",),
}


def _alias_table() -> dict[str, str]:
    """Every accepted spelling (lower case) -> registry name, for the rules registered now."""
    table: dict[str, str] = {}
    for name, module in _REGISTRY.items():
        zh = getattr(module, "NAME_ZH", "")
        spellings = (name, zh, zh.removesuffix("麻将"), *_ALIASES.get(name, ()))
        for text in spellings:
            if text:
                table.setdefault(text.strip().lower(), name)
    return table


def canonical_name(name: str) -> str:
    """The registry name of a rule as a user may type it.

    Accepted: the registry name (``"guobiao"``), in any letter case, the Chinese name with or
    without 麻将 (``"国标麻将"``, ``"国标"``, also in traditional characters), and common other
    names (``"mcr"`` for 国标, ``"鸡平胡"`` for 广东).

    Parameters
    ----------
    name : str
        What the user typed.

    Returns
    -------
    str
        The registry name (one of :func:`names`).

    Raises
    ------
    ValueError
        For a name no rule has; the message suggests the closest names and lists the valid ones.

    Examples
    --------
    >>> from mjfast import rules
    >>> rules.canonical_name("苏州"), rules.canonical_name("MCR"), rules.canonical_name("Sichuan")
    ('suzhou', 'guobiao', 'sichuan')
    >>> rules.canonical_name("suzhu")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown rule 'suzhu'; did you mean 'suzhou'? valid rules: suzhou, taicang, ...
    """
    if isinstance(name, str):
        if name in _REGISTRY:
            return name
        table = _alias_table()
        hit = table.get(name.strip().lower())
        if hit is not None:
            return hit
        import difflib

        typed = name.strip().lower()
        # a Chinese name is two to four characters: one wrong character is a ratio of 0.5
        close = difflib.get_close_matches(typed, list(table), n=6, cutoff=0.6 if typed.isascii() else 0.5)
        guesses = list(dict.fromkeys(table[c] for c in close))[:3]
        hint = f"did you mean {' or '.join(repr(g) for g in guesses)}? " if guesses else ""
        raise ValueError(f"unknown rule {name!r}; {hint}valid rules: {', '.join(names())}")
    raise ValueError(f"unknown rule {name!r}: a rule name must be a string; valid rules: {', '.join(names())}")


def get(name: str | Rule, **options: Any) -> Rule:
    """Return the frozen :class:`Rule` for a variant under the given options.

    Parameters
    ----------
    name : str or Rule
        A rule name (see :func:`names`; Chinese names, any letter case and aliases such as
        ``"mcr"`` are accepted, see :func:`canonical_name`), or a :class:`Rule`, which is
        returned unchanged (options are then not allowed).
    **options
        Named options of the variant (``variant.key=value`` in the rules files, without the
        ``variant.`` prefix). Omitted options take their default, the first listed value.
        Numbers may be given as int or str, booleans as bool or ``"true"``/``"false"``.

    Returns
    -------
    Rule
        An immutable, hashable rule. Equal arguments return the same object.

    Raises
    ------
    ValueError
        For an unknown rule name (with the closest names suggested), an unknown option key or an
        invalid option value; the message lists the valid names, keys or values.

    Examples
    --------
    >>> from mjfast import rules
    >>> r = rules.get("suzhou", threshold="2_3")
    >>> r
    Rule('suzhou', threshold='2_3')
    >>> r.tileset.total, r.tileset.playable_total, r.tileset.flower_total
    (152, 124, 28)
    >>> r.calls.chow
    'none'
    >>> rules.get("suzhou", tileset="144").options["tileset"]
    144
    >>> rules.get("taicang").wildcard.successor("9m")
    ('1m',)
    >>> rules.get(r) is r
    True
    >>> rules.get("国标") is rules.get("mcr") is rules.get("guobiao")
    True
    >>> rules.get("sichuan", xuezan=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown option(s) 'xuezan' for rule 'sichuan'; did you mean 'xuezhan' for 'xuezan'? valid options: ...
    >>> rules.get("tokyo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown rule 'tokyo'; valid rules: suzhou, taicang, guangdong, ..., jj
    """
    if isinstance(name, Rule):
        if options:
            raise ValueError(
                f"options {', '.join(sorted(options))} cannot be applied to an existing Rule; "
                f"call get({name.name!r}, ...) instead"
            )
        return name
    name = canonical_name(name)
    module = _REGISTRY[name]
    defaults = getattr(module, "DEFAULTS", None) if type(module) is _variants._Entry else None
    if defaults:  # a variant's own defaults, then the options given
        options = {**defaults, **options}
    unknown = [key for key in options if key not in module.OPTIONS]
    if unknown:
        import difflib

        guesses = {key: difflib.get_close_matches(key, list(module.OPTIONS), n=1, cutoff=0.6) for key in unknown}
        hint = "; ".join(f"did you mean {g[0]!r} for {key!r}?" for key, g in guesses.items() if g)
        valid = ", ".join(module.OPTIONS) if module.OPTIONS else "(none: this rule takes no options)"
        raise ValueError(
            f"unknown option(s) {', '.join(map(repr, unknown))} for rule {name!r}; "
            + (f"{hint} " if hint else "")
            + f"valid options: {valid}"
        )
    resolved = resolve_options(name, module.OPTIONS, options)
    key = (name, tuple((k, type(v).__name__, v) for k, v in resolved.items()))
    rule = _CACHE.get(key)
    if rule is None:
        rule = _CACHE.setdefault(key, module.build(resolved))
    return rule


def variant(
    base: str | Rule,
    name: str,
    *,
    values: Mapping[str, int] | None = None,
    options: Mapping[str, Any] | None = None,
    elements: Mapping[str, Any] | None = None,
) -> Rule:
    """Declare a rule variant: a new registered rule built from an existing one.

    The variant scores, simulates and compares exactly like a built-in rule: :func:`get`,
    :func:`mjfast.score`, :func:`mjfast.can_win`, :func:`mjfast.simulate_games`,
    :func:`mjfast.simulate_matches` and :func:`mjfast.compare_rules` take its name or the Rule
    returned, and its Rule pickles to process pools and Dask workers (it travels as its recipe;
    a worker that never saw the variant declares it).  It plays with the base's tiles, calls,
    engine facts and settlements; only what is given changes.

    Parameters
    ----------
    base : str or Rule
        The rule it is built from: a registry name (:func:`names`), a declared variant, or a
        :class:`Rule` (whose options become the variant's defaults).
    name : str
        The variant's registry name, a lower-case identifier that is not a built-in rule's.
        Declaring the same name again with the same arguments returns the same Rule.
    values : mapping of str to int, optional
        New values of scoring elements, keyed by the element codes that
        :attr:`mjfast.Score.rows` show (``{"full_flush": 20}``); the value per unit, in the
        rule's unit (the factor of a multiplier row).
    options : mapping, optional
        The variant's option defaults (as :func:`get` takes them, e.g. ``{"threshold":
        "2_3"}`` for 苏州's 花 minimum): the thresholds a rule has are options.  ``get(name,
        key=value)`` may still choose another value.
    elements : mapping of str to None or mapping, optional
        ``{code: None}`` switches an element off; ``{code: {...}}`` adds a new one (or replaces
        the element of that code), given by the fields ``zh``, ``en``, ``value`` and
        ``predicate`` (required) and ``scope`` (``"reading"``, ``"hand"`` or ``"context"``),
        ``group``, ``how`` (``"add"``, ``"multiply"``, ``"cap"``, ``"replace"``), ``unit``,
        ``tag`` (e.g. ``"hua"``: counts towards 苏州's 花 minimum) and ``excludes``.  The
        predicate is a Python expression over the hand's facts ``f`` (documented by
        :class:`mjfast.scoring._framework.Facts`: ``f.flowers``, ``f.one_suit``, ``f.pungs``,
        ``f.n_kongs``, ``f.ctx.self_draw`` …) giving the element's count (0 or False:
        absent); an added element comes after the base's adding rows, before its multipliers.
        Expressions pickle; a callable predicate works in this process, and in workers only
        if it pickles (a module-level function).

    Returns
    -------
    Rule
        The variant's Rule under its default options (``get(name)``).

    Raises
    ------
    ValueError
        A bad name (not an identifier, a built-in rule's, or a variant declared with other
        arguments), an unknown base rule, an unknown option or option value, an unknown element
        code (the message lists the valid ones), a value that is not an integer or belongs to an
        element the variant's options leave out, a malformed new element, or a new element for
        ``guobiao`` / ``jj`` (see the Notes).

    Notes
    -----
    The game kernel decides 苏州's 花 minimum itself, from the built-in values.  A variant that
    changes only values of elements that neither count towards a minimum nor rank against
    others in an exclusion group (清一色, 天胡 …) keeps that; any other change (a 花 value, an
    element switched off or added) has every candidate win checked by the variant's own
    :func:`mjfast.can_win`, so its games follow its rules either way.

    国标 and JJ: the compiled fan search decides which fans a hand holds (the MCR 不计
    principles, and the reading, chosen by the MCR table's values); a variant reprices those
    fans (``values``) or switches some off (``elements={code: None}``: the fan scores nothing,
    no other fan takes its place, so 无番和 is still counted only where the MCR table has no
    other fan).  The minimum (国标 8 番, JJ 1 番) is taken on the variant's total without
    flowers, so switching a fan off can take a hand below it.  Their elements carry no
    predicate to evaluate, so no element can be added to them.

    Examples
    --------
    What if 清一色 paid 20 花?

    >>> import mjfast as mj
    >>> v = mj.rules.variant("suzhou", "suzhou_ff20", values={"full_flush": 20})
    >>> ctx = mj.WinContext(mj.Hand("11223355667788m", bonus="F1F2 5z 6z 7z"), win_tile="8m", self_draw=True)
    >>> mj.score(ctx, "suzhou").total, mj.score(ctx, v).total
    (40, 50)
    >>> v, mj.score(ctx, "suzhou_ff20").rows[3]
    (Rule('suzhou_ff20'), ('full_flush', '清一色', 'Full flush', 20, 1, '花', 'add'))
    >>> mj.rules.variant("suzhou", "suzhou_x", values={"flush": 20})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: values: unknown element 'flush' of rule 'suzhou'; valid elements: base, hard_flower, ...
    """
    return get(
        _variants.declare(base, name, values=values, options=options, elements=elements, registry=_REGISTRY).name
    )


# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------
def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return ", ".join(_text(v) for v in items) if items else "—"
    return str(value)


def _successor_lines(scheme: WildcardScheme) -> list[str]:
    """Summarise a successor table as cycles (1m→2m→…→1m) and group entries (F1/F2 → F5+F6)."""
    table = scheme.table
    lines: list[str] = []
    seen: set[str] = set()
    groups: dict[tuple[str, ...], list[str]] = {}
    for start in table:
        if start in seen:
            continue
        if len(table[start]) > 1:
            groups.setdefault(table[start], []).append(start)
            seen.add(start)
            continue
        chain = [start]
        code = table[start][0]
        while code in table and len(table[code]) == 1 and code not in chain:
            chain.append(code)
            code = table[code][0]
        seen.update(chain)
        lines.append("→".join(chain + [code]))
    for wild, flipped in groups.items():
        lines.append(f"{'/'.join(flipped)} → {'+'.join(wild)}")
    return lines


def _copies_text(scheme: WildcardScheme) -> str:
    if scheme.selection == "per_game":
        return str(scheme.copies)
    counts: dict[int, list[str]] = {}
    for code in scheme.flippable:
        counts.setdefault(scheme.wild_copies(code), []).append(code)
    if len(counts) == 1:
        return str(next(iter(counts)))
    usual = max(counts, key=lambda n: len(counts[n]))
    rest = "; ".join(f"{n} when {'/'.join(codes)} is flipped" for n, codes in counts.items() if n != usual)
    return f"{usual}; {rest}"


#: What the fixed rows of :func:`describe` mean: (section, item) -> meaning.
_ITEM_MEANINGS: dict[tuple[str, str], str] = {
    ("rule", "name"): "registry name, as mjfast.rules.get takes it",
    ("rule", "name_zh"): "Chinese name",
    ("rule", "unit"): "unit of a hand's score (Score.total)",
    ("rule", "flowers"): "whether bonus (flower) tiles are in play and scored",
    ("tiles", "total"): "tiles in the set, flowers included",
    ("tiles", "playable"): "tiles that form hands (suits and honours in play)",
    ("tiles", "flower"): "flower (bonus) tiles, laid aside when drawn",
    ("tiles", "suits (playable)"): "万/筒/条 tiles in play",
    ("tiles", "winds (playable)"): "东南西北 tiles in play",
    ("tiles", "dragons (playable)"): "中发白 tiles in play (0 where they are flowers)",
    ("tiles", "bonus faces"): "flower faces × copies",
    ("deal", "dealer / others"): "tiles dealt to the dealer / to each other player",
    ("calls", "chow"): "吃: none, or only the discard of the player on your left (上家)",
    ("calls", "honour chows"): "groups of honours from which three different tiles form a chow",
    ("calls", "pung"): "whether 碰 is allowed",
    ("calls", "kongs"): "kong kinds allowed: exposed (on a discard), added (to a pung), concealed",
    ("calls", "multiple winners"): "whether several players may win on one discard (一炮多响)",
    ("calls", "priority"): "claim priority, highest first (= for equal rank)",
    ("wildcard", "scheme"): "no wildcard in this rule",
    ("wildcard", "name"): "the wildcard's name",
    ("wildcard", "selection"): "how the wildcard kind is chosen each hand",
    ("wildcard", "copies"): "how many tiles are wild",
    ("wildcard", "substitute"): "a kind that plays as the wildcard's natural face",
    ("wildcard", "usable in calls"): "whether a wildcard may be used in 吃/碰/杠",
    ("wildcard", "successor"): "flipped tile → wildcard kind",
    ("forms", "accepted"): "winning shapes the rule accepts",
    ("forms", "seven_pairs_quad_as_two"): "whether four identical tiles count as two pairs in 七对",
    ("forms", "thirteen_lan_strict"): "whether 十三浪/烂胡 needs exactly 3 tiles per suit and 5 honours",
}


def _option_meaning(doc: dict | None, allowed: tuple, default: Any) -> str:
    """One line: what the option means, what each value does (the default marked) and its spec id."""
    if not doc:
        return ""
    values = "; ".join(
        f"{_text(v)}{' (default)' if v == default and type(v) is type(default) else ''}: {doc['values'][v]}"
        for v in allowed
    )
    spec = f" [{doc['spec']}]" if doc.get("spec") else ""
    return f"{doc['meaning']} — {values}{spec}"


def describe(rule: str | Rule, **options: Any) -> pd.DataFrame:
    """Describe one rule as a table (printed by ``mjfast rules NAME``).

    Parameters
    ----------
    rule : str or Rule
        A registry name or a :class:`Rule`.
    **options
        Options, when ``rule`` is a name (as in :func:`get`).

    Returns
    -------
    pandas.DataFrame
        Columns ``section``, ``item``, ``value`` and ``meaning`` (all text). Sections: rule,
        tiles, deal, calls, wildcard, forms, variant (a declared variant only: its base and
        changes), options. An option row's ``value`` is its current
        value and the allowed ones; its ``meaning`` says what the option decides, what each
        value does (the default marked) and the option's id in the rule specification.

    Examples
    --------
    >>> from mjfast import rules
    >>> t = rules.describe("suzhou", threshold="2_3")
    >>> row = t[(t.section == "options") & (t.item == "threshold")].iloc[0]
    >>> row.value
    '2_3  (allowed: 3_4, 2_3)'
    >>> print(row.meaning)  # doctest: +NORMALIZE_WHITESPACE
    flower minimum (F: 花 beyond the base) to win without an exempt pattern: self-draw / discard —
    3_4 (default): 3 花 to self-draw, 4 花 to win on a discard; 2_3: 2 花 to self-draw, 3 花 on a
    discard (the newer fashion) [SZ-C6]
    """
    rule = get(rule, **options)
    rows: list[tuple[str, str, str, str]] = []

    def add(section: str, item: str, value: Any, meaning: str | None = None) -> None:
        if meaning is None:
            meaning = _ITEM_MEANINGS.get((section, item), "")
        rows.append((section, item, _text(value), meaning))

    add("rule", "name", rule.name)
    add("rule", "name_zh", rule.name_zh)
    add("rule", "unit", rule.unit)
    add("rule", "flowers", rule.flowers)

    ts = rule.tileset
    add("tiles", "total", ts.total)
    add("tiles", "playable", ts.playable_total)
    add("tiles", "flower", ts.flower_total)
    for label, lo, hi in (("suits", 0, 27), ("winds", 27, 31), ("dragons", 31, 34)):
        add("tiles", f"{label} (playable)", int(ts.copies[lo:hi].sum()))
    add("tiles", "bonus faces", [f"{code}×{n}" for code, n in ts.bonus.items()])

    add("deal", "dealer / others", f"{rule.deal[0]} / {rule.deal[1]}")

    calls = rule.calls
    add("calls", "chow", calls.chow)
    add("calls", "honour chows", ["+".join(group) for group in calls.chow_honours])
    add("calls", "pung", calls.pung)
    add("calls", "kongs", calls.kongs)
    add("calls", "multiple winners", calls.multiple_winners)
    add("calls", "priority", " > ".join(" = ".join(level) for level in calls.priority))

    wc = rule.wildcard
    if wc is None:
        add("wildcard", "scheme", None)
    else:
        add("wildcard", "name", wc.name)
        add("wildcard", "selection", wc.selection)
        add("wildcard", "copies", _copies_text(wc))
        add("wildcard", "substitute", wc.substitute)
        add("wildcard", "usable in calls", wc.usable_in_calls)
        for form, kinds in wc.restrictions.items():
            add("wildcard", f"may not represent in {form}", kinds)
        if wc.selection == "flip_successor":
            for line in _successor_lines(wc):
                add("wildcard", "successor", line)
        elif wc.selection == "flip_self":
            add("wildcard", "successor", "the flipped kind itself")
        else:
            add("wildcard", "successor", "chosen per sub-game")

    add("forms", "accepted", [form for form in FORMS if form in rule.forms])
    add("forms", "seven_pairs_quad_as_two", rule.seven_pairs_quad_as_two)
    add("forms", "thirteen_lan_strict", rule.thirteen_lan_strict)

    spec = _variants.spec_of(rule.name)
    if spec is not None:
        add("variant", "base", spec.base_name, "the rule this variant is built from (mjfast.rules.variant)")
        add("variant", "values", [f"{c}={v}" for c, v in spec.values], "element values changed (code=value)")
        add("variant", "elements off", [c for c, f in spec.elements if f is None], "elements switched off")
        add(
            "variant",
            "elements added",
            [f"{c} ({f[0]})" for c, f in spec.elements if f is not None],
            "elements added or replaced",
        )
    docs = getattr(_REGISTRY[rule.name], "OPTION_DOCS", {})
    for key, allowed in rule.option_choices.items():
        add(
            "options",
            key,
            f"{_text(rule.options[key])}  (allowed: {_text(allowed)})",
            _option_meaning(docs.get(key), allowed, allowed[0]),
        )

    import pandas as pd

    return pd.DataFrame(rows, columns=["section", "item", "value", "meaning"])


def summary() -> pd.DataFrame:
    """One row per rule (default options), printed by ``mjfast rules``.

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``name_zh``, ``total``, ``playable``, ``flowers``, ``chow``,
        ``wildcard``, ``unit``.
    """
    rows = []
    for name in names():
        rule = get(name)
        rows.append(
            {
                "name": rule.name,
                "name_zh": rule.name_zh,
                "total": rule.tileset.total,
                "playable": rule.tileset.playable_total,
                "flowers": rule.tileset.flower_total,
                "chow": rule.calls.chow,
                "wildcard": rule.wildcard.name if rule.wildcard else "—",
                "unit": rule.unit,
            }
        )
    import pandas as pd

    return pd.DataFrame(rows)
