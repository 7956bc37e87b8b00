"""Type stubs for the value kernel (see ``_value.pyx``)."""

import numpy as np
import numpy.typing as npt

RETURNED: int
APPROX: int
EXACT: int
WILD_TOKEN: int
FLOWER_TOKEN: int
MAX_FLOWERS: int
FIGURES: tuple[str, ...]

class ValueProblem:
    def __init__(
        self,
        counts: npt.NDArray[np.uint8],
        n_melds: int,
        wilds: int,
        cap: npt.NDArray[np.uint8],
        playable: npt.NDArray[np.uint8],
        forms: int,
        options: int,
        unseen: npt.NDArray[np.int16],
        returned_max: npt.NDArray[np.int16],
        flowers: int,
        start14: bool,
        mode: int,
        depth: int,
        draws_left: int,
        discard_wins: bool,
        max_states: int,
        root_mask: npt.NDArray[np.uint8] | None = None,
        wins_final: bool = False,
    ) -> None: ...
    def build(self) -> int: ...
    @property
    def status(self) -> int: ...
    @property
    def n_states(self) -> tuple[int, int, int]: ...
    @property
    def n_queries(self) -> int: ...
    @property
    def start_shanten(self) -> int: ...
    @property
    def flowers(self) -> int: ...
    @property
    def draws_left(self) -> int: ...
    def roots(self) -> list[tuple[int, int, int]]: ...
    def queries(self) -> dict[str, np.ndarray]: ...
    def set_judgement(self, legal: npt.NDArray[np.uint8], values: npt.NDArray[np.float64]) -> None: ...
    def prepare_solve(self, hazard: npt.NDArray[np.float64], turns: npt.NDArray[np.int8], keep: bool) -> None: ...
    def solve(
        self, hazard: npt.NDArray[np.float64], turns: npt.NDArray[np.int8], keep: bool = False
    ) -> npt.NDArray[np.float64]: ...
    def results(self) -> npt.NDArray[np.float64]: ...
    def by_turn(self, root: int) -> npt.NDArray[np.float64]: ...
    def reachable(self) -> npt.NDArray[np.int64]: ...
    def simulate(
        self,
        bitgens: list[np.random.BitGenerator],
        games: npt.NDArray[np.int32],
        wall: npt.NDArray[np.int8],
        root: int,
        n_threads: int,
        ready_hist: npt.NDArray[np.int32],
        win_hist: npt.NDArray[np.int32],
        win_turn: npt.NDArray[np.int32],
        win_state: npt.NDArray[np.int32],
    ) -> None: ...

def build_many(problems: list[ValueProblem], n_threads: int = 1) -> list[int]: ...
def solve_many(
    problems: list[ValueProblem],
    hazards: list[npt.NDArray[np.float64]],
    turns: list[npt.NDArray[np.int8]],
    keep: bool = False,
    n_threads: int = 1,
) -> list[npt.NDArray[np.float64]]: ...
def _fused_discards(
    counts: npt.NDArray[np.uint8], n_melds: int, forms: int, options: int
) -> tuple[np.ndarray, np.ndarray]: ...
def _fused_accepts(
    counts: npt.NDArray[np.uint8], n_melds: int, forms: int, options: int
) -> tuple[np.ndarray, np.ndarray]: ...
def table_columns(
    fig: npt.NDArray[np.float64],
    kinds: npt.NDArray[np.int64],
    shanten: npt.NDArray[np.int64],
    reach: npt.NDArray[np.int64],
    n_graph: int,
    all_valued: bool,
    stake: float,
    exact_model: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
