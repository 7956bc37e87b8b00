"""Type stubs for the 国标 MCR fan-search kernel (see ``_mcr.pyx``)."""
import numpy as np
import numpy.typing as npt

READING_WIDTH: int
READING_FORMS: tuple[str, ...]

def mcr_calculate(
    counts: npt.NDArray[np.uint8],
    melds: tuple[tuple[int, int, bool], ...],
    win: int,
    flag: int,
    seat: int,
    prevalent: int,
    opts: int,
) -> tuple[int, bytes, bytes] | None: ...
