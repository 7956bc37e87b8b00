"""Type stubs for the decomposition kernel (see ``_decompose.pyx``)."""

import numpy as np
import numpy.typing as npt

FORM_STANDARD: int
FORM_KNITTED_STRAIGHT: int
FORM_HONOUR_CHOWS: int
HONOUR_CHOW_OFFSET: int
ROW_WIDTH: int
MAX_WILDS: int
PUNG_OFFSET: int
KNITTED_LAYOUTS: tuple[tuple[int, ...], ...]

def decompose_kernel(
    counts: npt.NDArray[np.uint8],
    n_sets: int,
    wilds: int,
    playable: npt.NDArray[np.uint8],
    forms: int,
    out: npt.NDArray[np.int8],
) -> int: ...
