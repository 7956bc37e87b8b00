"""Type stubs for the compiled front doors (see ``_front.pyx``): the signatures of the general
functions they front, :func:`mjfast.shape.shanten`, :func:`mjfast.efficiency.ukeire` and
:func:`mjfast.efficiency.analyze_discards`."""

from collections.abc import Callable, Iterable
from typing import Any

from mjfast.efficiency import Ukeire

def shanten(
    hand: Any,
    *,
    rule: Any = None,
    form: str | Iterable[str] | None = None,
    melds: Any = (),
    wilds: int | None = None,
    wild_kind: str | int | None = None,
    seven_pairs: str | None = None,
) -> int: ...
def ukeire(
    hand13: Any,
    *,
    rule: Any = None,
    visible: Any = None,
    melds: Any = (),
    wilds: int | None = None,
    fixed_sets: Any = (),
    wild_kind: str | int | None = None,
    wild_copies: int | None = None,
    seven_pairs: str | None = None,
    legal: str | Callable[[Any, int], bool] = "self_draw",
) -> Ukeire: ...
def analyze_discards(
    hand14: Any,
    *,
    rule: Any = None,
    visible: Any = None,
    melds: Any = (),
    wilds: int | None = None,
    fixed_sets: Any = (),
    combos: bool = True,
    wild_kind: str | int | None = None,
    seven_pairs: str | None = None,
    as_frame: bool = True,
    legal: str | Callable[[Any, int], bool] = "self_draw",
    value: bool = False,
    **value_options: Any,
) -> Any: ...
