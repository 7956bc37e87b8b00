"""Type stubs for the game kernel (see ``_game.pyx``)."""

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

N_RECORD: int
N_EVENT_FIELDS: int
MAX_WIN_EVENTS: int
MAX_KONG_LOG: int
KONG_FIELDS: int
N_SEAT_FIELDS: int
N_MELD_FIELDS: int
CHOW_WILD_SHIFT: int
N_LOG_FIELDS: int
WILD: int
FLOWER: int
ACTIONS: dict[str, int]
CHOW_TILES: dict[int, tuple[int, int, int]]

def chow_wild_tiles(code: int, wm: int) -> tuple[int, ...]: ...

FLAGS: dict[str, int]
WIND_SHIFT: int
WILD_HEADS: dict[str | None, int]
WIN_LOCKS: dict[str | None, int]
CALL_MODES: dict[str, int]
USER_BITS: dict[str, int]
ASKS: dict[str, int]
PATTERNS: tuple[str, ...]
VALUE_BITS: dict[str, int]
VALUE_KNOBS: dict[str, float]
FLOWER_ROWS: int

def policy_shanten(counts: npt.NDArray[np.uint8], n_melds: int, forms: int, options: int) -> int: ...
def value_ratings(
    counts: npt.NDArray[np.uint8],
    n_melds: int,
    forms: int,
    options: int,
    values: npt.ArrayLike,
    draws: float,
    *,
    last_boost: float = 3.0,
    wilds: int = 0,
    melded: int = 0,
    chowed: bool = False,
    open_: bool = False,
    meld_chows: int = 0,
    meld_gates: int = 0,
    visible: npt.ArrayLike | None = None,
) -> list[tuple[int, float | None] | None]: ...
def discard_table(
    counts: npt.NDArray[np.uint8], n_melds: int, forms: int, options: int
) -> list[tuple[int, list[int]] | None]: ...
def simulate_games_kernel(
    bitgens: list[np.random.BitGenerator],
    games: npt.NDArray[np.int32],
    wall: npt.NDArray[np.int8],
    faces: npt.NDArray[np.int8],
    copies: npt.NDArray[np.uint8],
    playable: npt.NDArray[np.uint8],
    forms: int,
    options: int,
    *,
    chow: bool,
    void_suit: bool,
    multi: bool,
    rob_multi: bool,
    play_on: bool,
    flip: bool,
    first_kind: int,
    call_locks: bool,
    wild_head: int,
    fei_policy: int,
    dice: bool,
    pung_policy: int = 0,
    win_lock: int = 0,
    pass_policy: int = 0,
    forced_win_left: int = 0,
    wild_chow: bool = False,
    flower_minimum: tuple[int, int, bool, bool, bool] | None,
    checker: Callable[[int, bytes, tuple, int, int, int, int, int, int, bytes, int], bool] | None,
    fan_search: tuple[int, bool, bool, tuple[float, float, float, float]] | None = ...,
    fan_minimum: bool = ...,
    dealers: npt.NDArray[np.int8],
    winds: npt.NDArray[np.int8],
    rec: npt.NDArray[np.int32],
    hands: npt.NDArray[np.uint8],
    melds: npt.NDArray[np.int8],
    kongs: npt.NDArray[np.int8],
    events: npt.NDArray[np.int32],
    seats: npt.NDArray[np.uint8],
    log: npt.NDArray[np.int16],
    n_threads: int = 1,
    seat_policies: tuple[tuple[int, bool, int, int], ...] | None = None,
    user: Callable[..., int] | None = None,
    pattern_values: npt.NDArray[np.float64] | None = None,
    flower_values: npt.NDArray[np.float64] | None = None,
    value_knobs: dict[str, float] | None = None,
) -> None: ...
