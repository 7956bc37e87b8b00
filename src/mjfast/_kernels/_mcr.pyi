"""Type stubs for the 国标 MCR fan-search kernel (see ``_mcr.pyx``)."""

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

READING_WIDTH: int
READING_FORMS: tuple[str, ...]

class Found:
    @property
    def total(self) -> int: ...
    @property
    def fans(self) -> Any: ...
    @property
    def reading(self) -> Any: ...
    def __init__(self, total: int, fans: Any, reading: Any) -> None: ...

_F = TypeVar("_F", bound=Found)

def mcr_calculate(
    counts: npt.NDArray[np.uint8],
    melds: tuple[tuple[int, int, bool], ...],
    win: int,
    self_drawn: bool,
    last_copy: bool,
    kong: bool,
    wall_last: bool,
    seat: int,
    prevalent: int,
    opts: int,
    found: type[_F] = ...,
) -> _F | None: ...
