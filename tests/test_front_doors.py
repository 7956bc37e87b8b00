"""The compiled front doors (``mjfast._kernels._front``) against the general functions they front,
and the type stubs of every compiled module against the module.

A front door answers a count vector or a :class:`~mjfast.Hand` under the default rule in C and
sends every other call to the general function; both must agree on every input, with the same
signature, docstring and errors.
"""

import ast
import importlib
import importlib.machinery
import inspect
import pkgutil
import types
from pathlib import Path

import numpy as np
import pytest
from _hands import random_hands

import mjfast as mj
from mjfast import efficiency, shape
from mjfast._kernels import _front

FRONT_DOORS = [
    (mj.shanten, shape.shanten),
    (mj.ukeire, efficiency.ukeire),
    (mj.analyze_discards, efficiency.analyze_discards),
]
READINGS = (None, "chinese", "riichi")


def _bare(sig):
    """A signature without annotations (names, kinds and defaults: the type stub holds the types)."""
    empty = inspect.Parameter.empty
    return sig.replace(
        parameters=[p.replace(annotation=empty) for p in sig.parameters.values()], return_annotation=empty
    )


@pytest.mark.parametrize("front, general", FRONT_DOORS, ids=lambda f: f.__name__)
def test_front_door_has_the_signature_and_docstring_of_the_general_function(front, general):
    assert front.__module__ == "mjfast._kernels._front"
    assert getattr(_front, front.__name__) is front
    assert _bare(inspect.signature(front)) == _bare(inspect.signature(general))
    assert front.__doc__ == general.__doc__


# ---------------------------------------------------------------------------------------- stubs
def _compiled_modules():
    import mjfast._kernels as pkg

    out = []
    for info in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + "."):
        mod = importlib.import_module(info.name)
        if any(mod.__file__.endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES):
            out.append(mod)
    return out


def _public_names(mod) -> set[str]:
    """Names a compiled module defines for others: not private, not an imported module or an
    object defined elsewhere."""
    names = set()
    for k, v in vars(mod).items():
        if k.startswith("_") or isinstance(v, types.ModuleType):
            continue
        if (isinstance(v, type) or callable(v)) and getattr(v, "__module__", mod.__name__) != mod.__name__:
            continue
        names.add(k)
    return names


def _stub(mod) -> dict:
    """Top-level names of the module's ``.pyi`` stub: name -> its ``ast`` node."""
    path = Path(mod.__file__).with_name(mod.__name__.rpartition(".")[2] + ".pyi")
    assert path.exists(), f"{mod.__name__} has no type stub {path.name}"
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            out.update({t.id: node for t in node.targets})
    return out


def test_every_kernel_module_is_compiled_and_found():
    names = {m.__name__.rpartition(".")[2] for m in _compiled_modules()}
    sources = {p.stem for p in Path(mj._kernels.__file__).parent.glob("*.pyx")}
    assert not sources or names == sources  # an installed wheel ships no .pyx
    assert {"_shanten", "_efficiency", "_front"} <= names


@pytest.mark.parametrize("mod", _compiled_modules(), ids=lambda m: m.__name__.rpartition(".")[2])
def test_stub_names_and_parameters_match_the_compiled_module(mod):
    stub = _stub(mod)
    stub_public = {k for k in stub if not k.startswith("_")}
    assert stub_public == _public_names(mod)
    for name, node in stub.items():
        if not isinstance(node, ast.FunctionDef) or name.startswith("_"):
            continue
        a = node.args
        want = [(x.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD) for x in a.posonlyargs + a.args]
        want += [(a.vararg.arg, inspect.Parameter.VAR_POSITIONAL)] if a.vararg else []
        want += [(x.arg, inspect.Parameter.KEYWORD_ONLY) for x in a.kwonlyargs]
        want += [(a.kwarg.arg, inspect.Parameter.VAR_KEYWORD)] if a.kwarg else []
        got = [(p.name, p.kind) for p in inspect.signature(getattr(mod, name)).parameters.values()]
        assert got == want, f"{mod.__name__}.{name}: stub parameters differ from the module's"


# ------------------------------------------------------------------------ front door = general
def _random_hand_objects(rng, n):
    """Hands of every shape the front doors take: 3k+1 and 3k+2 sizes, with melds and wildcards."""
    melds_pool = ["555z", "123m", "[1111p]", "+9999s", "777p", "234s"]
    out = []
    counts, _ = random_hands(rng, n, (13, 14, 10, 11, 7, 8, 4, 5, 1, 2))
    for c in counts:
        size = int(c.sum())
        n_melds = min(int(rng.integers(0, 3)), (14 - size) // 3)
        melds = list(rng.choice(melds_pool, n_melds, replace=False)) if n_melds else []
        wilds = int(rng.integers(0, 3)) if rng.random() < 0.3 else 0
        c = c.copy()
        while wilds and c.sum():  # the wildcards take the place of tiles
            c[rng.choice(np.flatnonzero(c))] -= 1
            wilds -= 1
            if rng.random() < 0.5:
                break
        wilds = size - int(c.sum())
        try:
            out.append(mj.Hand(c, melds=melds, wilds=wilds, partial=True))
        except ValueError:  # a meld tile over four copies: skip it
            continue
    return out


def _general_or_error(f, *args, **kw):
    try:
        return f(*args, **kw)
    except ValueError as e:
        return ("ValueError", str(e))


def _same_table(a, b):
    return (
        isinstance(a, dict)
        and isinstance(b, dict)
        and a.keys() == b.keys()
        and all(np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype for k in a)
    )


@pytest.mark.parametrize("reading", READINGS)
def test_hand_and_count_paths_equal_the_general_functions(seed, reading):
    rng = np.random.default_rng(seed)
    hands = _random_hand_objects(rng, 100)
    assert sum(h.n_melds > 0 for h in hands) > 20 and sum(h.wilds > 0 for h in hands) > 10
    n_ukeire = n_tables = 0
    for h in hands:
        inputs = [h] + ([np.array(h.counts)] if not h.n_melds and not h.wilds else [])
        for x in inputs:
            assert mj.shanten(x, seven_pairs=reading) == _general_or_error(shape.shanten, x, seven_pairs=reading)
            got = _general_or_error(mj.ukeire, x, seven_pairs=reading)
            want = _general_or_error(efficiency.ukeire, x, seven_pairs=reading)
            assert got == want and type(got) is type(want)
            n_ukeire += type(got) is not tuple
            for combos in (True, False):
                got = _general_or_error(mj.analyze_discards, x, seven_pairs=reading, as_frame=False, combos=combos)
                want = _general_or_error(
                    efficiency.analyze_discards, x, seven_pairs=reading, as_frame=False, combos=combos
                )
                assert got == want if isinstance(want, tuple) else _same_table(got, want)
                n_tables += isinstance(got, dict)
    assert n_ukeire > 30 and n_tables > 30


def test_front_doors_pass_every_other_call_on():
    h = mj.Hand("11p34567m45s9p", melds=["555z"])
    h14 = mj.Hand("11p34567m45s9p1p", melds=["555z"])
    assert mj.shanten(h, rule="guobiao") == shape.shanten(h, rule="guobiao")
    assert mj.shanten(h, form="standard") == shape.shanten(h, form="standard")
    assert mj.shanten(h.counts, melds=["555z"]) == shape.shanten(h.counts, melds=["555z"])
    assert mj.ukeire(h, visible="2m2m") == efficiency.ukeire(h, visible="2m2m")
    assert mj.ukeire(h, rule="guobiao") == efficiency.ukeire(h, rule="guobiao")
    df = mj.analyze_discards(h14)
    assert df.equals(efficiency.analyze_discards(h14))
    assert mj.analyze_discards(h14, value=True, draws_left=4, discard_wins=False).equals(
        efficiency.analyze_discards(h14, value=True, draws_left=4, discard_wins=False)
    )


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: mj.shanten(np.array([5] + [0] * 33, np.uint8)), "5 copies"),
        (lambda: mj.shanten(mj.Hand("1234m", partial=True), seven_pairs="bogus"), "seven_pairs"),
        (lambda: mj.ukeire(np.array([5] + [0] * 33, np.uint8)), "5 copies of 1m"),
        (lambda: mj.ukeire(np.zeros(34, np.int64)), "34 entries of the right type"),
        (lambda: mj.ukeire(mj.Hand("123m456p789s11z222z")), "3k\\+1"),
        (lambda: mj.ukeire(mj.Hand("123m456p789s1z", partial=True), legal="bogus"), "legal must be one of"),
        (lambda: mj.ukeire(mj.Hand("123m456p789s1z", partial=True), seven_pairs="bogus"), "seven_pairs"),
        (lambda: mj.analyze_discards(mj.Hand("123m456p789s1z", partial=True), as_frame=False), "3k\\+2"),
        (lambda: mj.analyze_discards(np.array([5] + [0] * 33, np.uint8), as_frame=False), "5 copies of 1m"),
        (
            lambda: mj.analyze_discards(mj.Hand("123m456p789s11z", partial=True), as_frame=False, legal="bogus"),
            "legal must be",
        ),
        (lambda: mj.analyze_discards(mj.Hand("123m456p789s11z", partial=True), draws_left=3), "pass value=True"),
        (
            lambda: mj.analyze_discards(mj.Hand("123m456p789s11z", partial=True), value="yes"),
            "value must be True or False",
        ),
    ],
)
def test_front_doors_reject_bad_input_with_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --------------------------------------------------------------------------- shared constants
def test_shared_kernel_constants_agree_with_the_python_side():
    from mjfast import _bridge
    from mjfast._kernels import _decompose, _shanten

    ref = importlib.import_module("mjfast._reference.shanten")  # the package exports a function of that name

    assert _bridge.FORM_BITS == _shanten.FORM_BITS and set(_shanten.FORM_BITS) >= set(ref.DEFAULT_FORMS)
    assert sorted(_shanten.FORM_BITS.values()) == [1 << i for i in range(8)]
    assert _decompose.FORM_STANDARD == _shanten.FORM_BITS["standard"]
    assert _decompose.FORM_KNITTED_STRAIGHT == _shanten.FORM_BITS["knitted_straight"]
    assert _bridge.OPT_NEED_VOID == _shanten.OPTION_BITS["need_void"] and _bridge.INF == _shanten.NO_FORM
    # the knitted layouts every kernel indexes (_common.pxd KNIT) are the twin's six patterns
    layouts = {tuple(sorted(x)) for x in _decompose.KNITTED_LAYOUTS}
    patterns = set(ref.KNITTED_PATTERNS)
    assert len(layouts) == 6 and layouts == patterns
