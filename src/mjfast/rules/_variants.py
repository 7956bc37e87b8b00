"""User-declared rule variants: a registered rule built from an existing one.

A variant is declared by its recipe, a :class:`VariantSpec` (base rule, option defaults, element
values, elements switched off or added).  Declaring it registers three things under its name,
each built from the base's own: a registry entry (what :func:`mjfast.rules.get` builds the
:class:`~mjfast.rules.Rule` with), a scorer (the base's :class:`~mjfast.scoring._framework.Scheme`
derived with the changes) and an engine-hook module (the base's hooks, less the kernel's own
minimum tests when the changes could alter legality).  A variant's Rule pickles as its recipe and
its options, so a process pool or a Dask worker that has never seen the variant declares it
before the Rule is used.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import sys
import types
from collections.abc import Mapping
from typing import Any

import numpy as np

from . import _base

__all__ = ["VariantSpec", "declare", "restore_rule", "entry", "spec_of", "ELEMENT_FIELDS"]

#: The fields of a new element, as :func:`mjfast.rules.variant` takes them (``zh``, ``en``,
#: ``value`` and ``predicate`` are required).
ELEMENT_FIELDS = ("zh", "en", "value", "predicate", "scope", "group", "how", "unit", "tag", "excludes")
_REQUIRED = ("zh", "en", "value", "predicate")
_DEFAULTS = {"scope": "reading", "group": None, "how": "add", "unit": None, "tag": None, "excludes": ()}


@dataclasses.dataclass(frozen=True)
class VariantSpec:
    """The recipe of a variant: everything needed to declare it again in another process.

    Attributes
    ----------
    name : str
        The variant's registry name.
    base : str or VariantSpec
        A built-in rule's name, or the recipe of the variant it is built from.
    options : tuple of (key, value)
        Option values the variant takes by default (validated against the base's choices).
    values : tuple of (code, int)
        Changed element values.
    elements : tuple of (code, fields or None)
        Elements switched off (None) or added / replaced (the :data:`ELEMENT_FIELDS` values).
    """

    name: str
    base: Any
    options: tuple = ()
    values: tuple = ()
    elements: tuple = ()

    @property
    def base_name(self) -> str:
        return self.base if isinstance(self.base, str) else self.base.name


# name -> _Entry of every declared variant of this process
_ENTRIES: dict[str, _Entry] = {}


class _Entry:
    """A variant's registry entry: the facts :func:`mjfast.rules.get` reads from a rule module
    (``NAME``, ``OPTIONS``, ``build``); any other attribute (``OPTION_DOCS``,
    ``DISCARD_HAZARD`` …) is the base's."""

    def __init__(self, spec: VariantSpec, base, hooks: str | None, scheme):
        self.spec = spec
        self.NAME = spec.name
        self.OPTIONS = base.OPTIONS
        self.DEFAULTS = dict(spec.options)
        self.base = base
        self.hooks = hooks
        self.scheme = scheme  # the derived Scheme (None: a rule not on the scorer framework)

    def __getattr__(self, attr):
        if attr.startswith("__") or attr in ("base", "spec"):
            raise AttributeError(attr)
        return getattr(self.base, attr)

    def build(self, resolved: dict) -> _base.Rule:
        rule = self.base.build(resolved)
        return dataclasses.replace(
            rule,
            name=self.NAME,
            name_zh=f"{rule.name_zh}·{self.NAME}",
            engine=dataclasses.replace(rule.engine, hooks=self.hooks),
        )


class _Hooks(types.ModuleType):
    """A variant's engine-hook module: the base's hooks (looked up on the base module, so a hook
    the base lacks is missing here too), less those in ``_absent``."""

    _base: Any
    _absent: frozenset

    def __getattr__(self, attr):
        d = self.__dict__
        if attr.startswith("__") or attr in d.get("_absent", ()) or d.get("_base") is None:
            raise AttributeError(attr)
        return getattr(d["_base"], attr)


def entry(name: str):
    """The registry entry of variant ``name``, or None."""
    return _ENTRIES.get(name)


def spec_of(name: str) -> VariantSpec | None:
    """The recipe of variant ``name``, or None."""
    e = _ENTRIES.get(name)
    return None if e is None else e.spec


def _base_entry(base, registry: Mapping):
    """``(module or entry, spec or name)`` of a ``base`` given by name or Rule."""
    if isinstance(base, _base.Rule):
        base = base.name
    if not isinstance(base, str) or base not in registry:
        valid = ", ".join(n for n in registry)
        raise ValueError(f"unknown base rule {base!r}; valid rules: {valid}")
    module = registry[base]
    return module, (module.spec if isinstance(module, _Entry) else base)


def _element_fields(code, given, scheme_codes) -> tuple | None:
    """The :data:`ELEMENT_FIELDS` tuple of a new element given as a mapping (or an Element), or
    None to switch ``code`` off."""
    if not isinstance(code, str) or not code.isidentifier():
        raise ValueError(f"elements: an element code is a snake-case identifier, got {code!r}")
    if given is None or given is False:
        if code not in scheme_codes:
            raise ValueError(
                f"elements: cannot switch off unknown element {code!r}; valid elements: {', '.join(scheme_codes)}"
            )
        return None
    from ..scoring._framework import Element

    if isinstance(given, Element):
        if given.code != code:
            raise ValueError(f"elements[{code!r}] is an Element coded {given.code!r}")
        return tuple(getattr(given, k) for k in ELEMENT_FIELDS)
    if not isinstance(given, Mapping):
        raise ValueError(
            f"elements[{code!r}] must be None (switch the element off) or a mapping of "
            f"{', '.join(ELEMENT_FIELDS)} (a new element), got {type(given).__name__}"
        )
    unknown = [k for k in given if k not in ELEMENT_FIELDS]
    if unknown:
        raise ValueError(
            f"elements[{code!r}]: unknown field(s) {', '.join(map(repr, unknown))}; valid "
            f"fields: {', '.join(ELEMENT_FIELDS)}"
        )
    missing = [k for k in _REQUIRED if k not in given]
    if missing:
        raise ValueError(
            f"elements[{code!r}]: a new element needs {', '.join(missing)} (required: {', '.join(_REQUIRED)})"
        )
    fields = {**_DEFAULTS, **given}
    fields["excludes"] = tuple(fields["excludes"])
    Element(code, *(fields[k] for k in _REQUIRED), **{k: fields[k] for k in _DEFAULTS})  # validates
    return tuple(fields[k] for k in ELEMENT_FIELDS)


def _make_element(code, fields):
    from ..scoring._framework import Element

    kw = dict(zip(ELEMENT_FIELDS, fields))
    return Element(code, kw.pop("zh"), kw.pop("en"), kw.pop("value"), kw.pop("predicate"), **kw)


def _legality_kept(scheme, spec: VariantSpec) -> bool:
    """Whether the changes leave every hand's legality as the base decides it: only values
    changed, of elements that no minimum sums (no tag) and no exclusion group ranks (no group).
    Then a test the kernel makes itself with the built-in values (苏州's 花 minimum) still holds."""
    if spec.elements:
        return False
    by_code = {e.code: e for e in scheme.elements}
    return all(by_code[c].tag is None and by_code[c].group is None for c, _v in spec.values)


def declare(base, name, *, values=None, options=None, elements=None, registry: dict) -> VariantSpec:
    """Validate a variant's arguments and register it (see :func:`mjfast.rules.variant`);
    return its recipe.  ``registry``: the rules registry (name -> module or entry)."""
    if not isinstance(name, str) or not name.isidentifier() or name != name.lower():
        raise ValueError(f"a variant's name is a lower-case identifier (like 'suzhou_20'), got {name!r}")
    if name in registry and not isinstance(registry[name], _Entry):
        raise ValueError(f"{name!r} is a built-in rule; give the variant another name")
    base_opts = {}
    if isinstance(base, _base.Rule):  # its options, all of them (a variant's defaults may differ)
        base_opts = dict(base.options)
    module, base_key = _base_entry(base, registry)
    if options is not None and not isinstance(options, Mapping):
        raise ValueError(f"options must be a mapping of option -> value, got {type(options).__name__}")
    if values is not None and not isinstance(values, Mapping):
        raise ValueError(f"values must be a mapping of element code -> value, got {type(values).__name__}")
    if elements is not None and not isinstance(elements, Mapping):
        raise ValueError(
            f"elements must be a mapping of element code -> None or a new element, got {type(elements).__name__}"
        )
    defaults = dict(getattr(module, "DEFAULTS", {}))
    defaults.update(base_opts)
    defaults.update(options or {})
    resolved = _base.resolve_options(name, module.OPTIONS, defaults)  # names the bad key or value
    first = {k: v[0] for k, v in module.OPTIONS.items()}
    opts = tuple((k, v) for k, v in resolved.items() if _base._token(v) != _base._token(first[k]))
    rule = module.build(resolved)
    base_scheme = _scheme_of(module, rule)
    vals = tuple((values or {}).items())
    if (vals or elements) and base_scheme is None:
        raise ValueError(
            f"rule {rule.name!r} is not declared with the scorer framework (its scorer is a "
            "function registered with mjfast.scoring.register, without an element table), so a "
            "variant of it can change options only, not values= or elements="
        )
    codes = base_scheme.codes() if base_scheme is not None else ()
    for code, v in vals:
        if code not in codes:
            raise ValueError(
                f"values: unknown element {code!r} of rule {rule.name!r}; valid elements: {', '.join(codes)}"
            )
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"values: the value of element {code!r} must be an integer, got {v!r}")
    vals = tuple((c, int(v)) for c, v in vals)
    els = tuple((code, _element_fields(code, e, codes)) for code, e in (elements or {}).items())
    spec = VariantSpec(name, base_key, opts, vals, els)
    if base_scheme is not None:  # values of elements the variant's options leave out
        bound = base_scheme.bound(rule, {})
        present = {x[0] for x in bound.elements}
        absent = [c for c, _v in vals if c not in present]
        if absent:
            given = ", ".join(f"{k}={v!r}" for k, v in resolved.items())
            raise ValueError(
                f"values: element(s) {', '.join(absent)} do not exist under the options {given} "
                f"of {name!r}, so their value would not count"
            )
    old = _ENTRIES.get(name)
    if old is not None:
        if old.spec == spec:
            return spec
        raise ValueError(
            f"variant {name!r} is already declared with another recipe ({_describe(old.spec)}); "
            "give the new one another name"
        )
    _register(spec, module, rule, base_scheme, registry, replace=False)
    return spec


def _describe(spec: VariantSpec) -> str:
    parts = [f"base={spec.base_name}"]
    parts += [f"{k}={v!r}" for k, v in spec.options]
    parts += [f"{c}={v}" for c, v in spec.values]
    parts += [f"{c}={'off' if f is None else 'new'}" for c, f in spec.elements]
    return ", ".join(parts)


def _scheme_of(module, rule):
    """The base's Scheme: a variant's derived one, or the ``SCHEME`` of a built-in's hook module
    (None: not on the framework)."""
    if isinstance(module, _Entry):
        return module.scheme
    from ..scoring._framework import Scheme

    if rule.engine.hooks is None:
        return None
    scheme = getattr(importlib.import_module(rule.engine.hooks), "SCHEME", None)
    return scheme if isinstance(scheme, Scheme) and scheme.name == rule.name else None


def _register(spec: VariantSpec, module, rule, base_scheme, registry: dict, replace: bool) -> None:
    """Register a validated recipe: scorer, hooks, registry entry (in that order, so that a
    failure leaves nothing half registered)."""
    from ..scoring import _core

    name = spec.name
    if base_scheme is not None:
        scheme = base_scheme.derive(
            name,
            values=dict(spec.values),
            elements={c: None if f is None else _make_element(c, f) for c, f in spec.elements},
        )
        scorer, can_win, bind = scheme.score_fn(), scheme.can_win_fn(), scheme.bind_fn()
    else:
        scheme = None
        scorer, can_win, bind = _renamed(_core._SCORERS[rule.name], name)
    path = None
    if rule.engine.hooks is not None:
        path = f"{__name__}.{name}"
        mod = sys.modules.get(path)
        if not isinstance(mod, _Hooks):
            mod = _Hooks(path, f"Engine hooks of the rule variant {name!r} (those of its base).")
        mod._base = importlib.import_module(rule.engine.hooks)
        keep = base_scheme is None or _legality_kept(base_scheme, spec)
        # the kernel's own minimum tests use the built-in values: 苏州's 花 minimum those of the
        # tagged elements, 国标's 8-番 minimum (the compiled fan search) every fan's
        absent = set() if keep else {"kernel_minimum"}
        if spec.values or spec.elements:
            absent.add("kernel_fan_minimum")
        mod._absent = frozenset(absent)
        sys.modules[path] = mod
    new = _Entry(spec, module, path, scheme)
    _ENTRIES[name] = new
    registry[name] = new
    try:
        _core.register(name, scorer, can_win, bind=bind, replace=True)
    except BaseException:
        _ENTRIES.pop(name, None)
        registry.pop(name, None)
        raise
    _base._VARIANT_SPECS[name] = spec


def _renamed(registered: tuple, name: str) -> tuple:
    """``(scorer, can_win, bind)`` of a rule not on the framework, for its variant: the base's,
    with the Score named after the variant."""
    scorer, can_win, bind = registered

    def score(ctx, rule, **kw):
        s = scorer(ctx, rule, **kw)
        s.rule = name
        return s

    try:
        setattr(score, "__signature__", inspect.signature(scorer))  # what score() checks keywords against
    except (TypeError, ValueError):
        pass
    score.__name__ = f"score_{name}"
    if bind is None:
        return score, can_win, None

    def bound(rule, **kw):
        b = bind(rule, **kw)
        if b is None:
            return None
        bs, bc = b

        def s(ctx):
            out = bs(ctx)
            out.rule = name
            return out

        return s, bc

    return score, can_win, bound


def ensure(spec: VariantSpec, registry: dict) -> None:
    """Declare ``spec`` in this process unless it already is (a worker unpickling a variant's
    Rule); a different recipe under the same name is replaced: the Rule being unpickled is the
    one its sender plays."""
    if isinstance(spec.base, VariantSpec):
        ensure(spec.base, registry)
    old = _ENTRIES.get(spec.name)
    if old is not None and old.spec == spec:
        return
    module, _key = _base_entry(spec.base_name, registry)
    resolved = _base.resolve_options(spec.name, module.OPTIONS, dict(spec.options))
    rule = module.build(resolved)
    _register(spec, module, rule, _scheme_of(module, rule), registry, replace=True)


def restore_rule(spec: VariantSpec, options: tuple) -> _base.Rule:
    """Unpickle a variant's Rule: declare the variant if needed, then build the Rule."""
    from . import _REGISTRY, get

    ensure(spec, _REGISTRY)
    return get(spec.name, **dict(options))
