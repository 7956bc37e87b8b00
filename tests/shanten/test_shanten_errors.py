"""Bad input to the shanten and efficiency APIs raises ValueError naming the problem."""

import numpy as np
import pytest

import mjfast as mj


def _row(text):
    return mj.tiles.counts(text)


@pytest.mark.parametrize(
    "counts, kwargs, match",
    [
        (np.zeros((3, 33), np.uint8), {}, "shape"),
        (np.zeros(34, np.uint8), {}, "shape"),
        (np.zeros((1, 34), np.float64), {}, "integer"),
        (np.full((1, 34), 5, np.int64), {}, "copies of 1m"),
        (np.full((1, 34), 5, np.uint8), {}, "copies of 1m"),
        (np.zeros((1, 34), np.uint8), {}, "not a 3k\\+1"),
        (np.stack([_row("111m")]), {}, "not a 3k\\+1"),
        (np.stack([_row("1112345678999m")]), {"wilds": -1}, "wilds"),
        (np.stack([_row("1112345678999m")]), {"melds": 2}, "at most 14"),
        (np.stack([_row("1112345678999m")]), {"melds": [0, 0]}, "one entry per row"),
        (np.stack([_row("1112345678999m")]), {"wilds": 1, "rule": "guobiao"}, "no wildcards"),
        (np.stack([_row("11123456789m12z")]), {"rule": "sichuan"}, "1z"),
    ],
)
def test_batch_errors(counts, kwargs, match):
    with pytest.raises(ValueError, match=match):
        mj.shanten_batch(counts, **kwargs)


def test_single_hand_errors():
    with pytest.raises(ValueError, match="unknown tile"):
        mj.shanten("123m456p789s1122x")
    with pytest.raises(ValueError, match="not played"):
        mj.shanten("123456789m1234z", rule="sichuan")
    with pytest.raises(ValueError, match="no wildcards"):
        mj.shanten("123456789m123p", wilds=1, rule="guobiao")
    with pytest.raises(ValueError, match="unknown form"):
        mj.shanten("1112345678999m", form="eight_pairs")
    with pytest.raises(ValueError, match="cannot apply"):
        mj.shanten("12345678999m", melds=["555z"], form="seven_pairs")
    with pytest.raises(ValueError, match="3k\\+1 or 3k\\+2"):
        mj.shanten(np.zeros(34, np.uint8))
    with pytest.raises(ValueError):
        mj.shanten(np.full(34, 5, np.uint8))
    with pytest.raises(ValueError, match="seven_pairs"):
        mj.shanten("1112345678999m", seven_pairs="japanese")
    with pytest.raises(ValueError, match="wild_kind"):
        mj.shanten("1112345678999m", wild_kind="9z")
    with pytest.raises(ValueError, match="three suits"):
        mj.shanten("11p45s", melds=["123m", "456p", "789s"], rule="sichuan")
