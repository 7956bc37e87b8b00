"""Type stubs for the shanten kernel (see ``_shanten.pyx``)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

#: Whether the kernels were built with OpenMP (``n_threads > 1`` runs serially otherwise).
OPENMP: bool
FORM_BITS: dict[str, int]
OPTION_BITS: dict[str, int]
NO_FORM: int

class RuleParams:
    """A rule's kernel parameters, prepared once, for the per-hand hot path."""

    def __init__(
        self, cap: npt.NDArray[np.uint8], playable: npt.NDArray[np.uint8], forms: int, options: int
    ) -> None: ...
    def shanten(self, counts: npt.NDArray[np.uint8], wilds: int = 0) -> int: ...

def shanten_fast(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
) -> int: ...
def shanten_after_discards(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
) -> list[tuple[int, int]]: ...
def shanten_counts_form(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    form: int,
    options: int,
) -> int: ...
def shanten_batch_kernel(
    counts: npt.NDArray[np.uint8],
    n_melds: npt.NDArray[np.int8],
    wilds: npt.NDArray[np.int8],
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    out: npt.NDArray[np.int8],
    n_threads: int = 1,
    names: Sequence[str] | None = None,
) -> None: ...
