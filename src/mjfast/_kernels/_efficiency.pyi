"""Type stubs for the tile-efficiency kernel (see ``_efficiency.pyx``)."""

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

class Ukeire:
    """进张 of a 3k+1 hand: unpacks and compares like ``(shanten, tiles, count, wild_accept)``."""

    _fields: tuple[str, str, str, str]
    def __init__(self, shanten: int, tiles: dict[str, int], count: int, wild_accept: int = 0) -> None: ...
    @property
    def shanten(self) -> int: ...
    @property
    def tiles(self) -> dict[str, int]: ...
    @property
    def count(self) -> int: ...
    @property
    def wild_accept(self) -> int: ...
    def _astuple(self) -> tuple[int, dict[str, int], int, int]: ...
    def _asdict(self) -> dict[str, Any]: ...
    def _replace(self, **changes: Any) -> Ukeire: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> Any: ...

def ukeire_dict(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    visible: npt.NDArray[np.int16] | None,
    names: tuple[str, ...],
) -> tuple[int, dict[str, int], int]: ...
def ukeire_kernel(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    visible: npt.NDArray[np.int16],
    accept: npt.NDArray[np.uint8],
    rem: npt.NDArray[np.int16],
) -> int: ...
def yijinting_kernel(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    visible: npt.NDArray[np.int16],
    rem: npt.NDArray[np.int16],
    w_union: npt.NDArray[np.int32],
    w_max: npt.NDArray[np.int32],
    ting: npt.NDArray[np.uint8],
) -> int: ...
def discard_table(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    visible: npt.NDArray[np.int16],
    with_combos: bool,
) -> dict[str, np.ndarray]: ...
def ukeire_batch_kernel(
    counts: npt.NDArray[np.uint8],
    n_melds: npt.NDArray[np.int8],
    wilds: npt.NDArray[np.int8],
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    shanten: npt.NDArray[np.int8],
    ukeire: npt.NDArray[np.int16],
    kinds: npt.NDArray[np.int8],
    n_threads: int = 1,
    names: Sequence[str] | None = None,
) -> None: ...
