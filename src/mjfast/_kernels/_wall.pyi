"""Type stubs for the wall kernel (see ``_wall.pyx``)."""

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

WILD_TOKEN: int
FLOWER_TOKEN: int
MAX_WALL_TILES: int

class PolicyCache:
    def __init__(self, n_slots: int, log2_policy: int = 16, log2_shanten: int = 18) -> None: ...
    @property
    def n_slots(self) -> int: ...
    @property
    def sizes(self) -> list[tuple[int, int]]: ...

def simulate_draws_kernel(
    bitgens: list[np.random.BitGenerator],
    games: npt.NDArray[np.int32],
    wall: npt.NDArray[np.int8],
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    wilds: int,
    cap: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    visible: npt.NDArray[np.int16],
    draws_left: int,
    ready_hist: npt.NDArray[np.int32],
    win_hist: npt.NDArray[np.int32],
    cache: PolicyCache,
    n_threads: int = 1,
    checker: Callable[..., int] | None = None,
    win_turn: npt.NDArray[np.int32] | None = None,
    win_state: npt.NDArray[np.int32] | None = None,
) -> int: ...
def bounded_sample(bitgen: np.random.BitGenerator, n: int, out: npt.NDArray[np.uint64], wide: bool = False) -> None: ...
