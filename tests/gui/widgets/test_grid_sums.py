"""The grid's block sums (numpy only): the fast paths give the exact sums."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.gui.widgets.grid import layout as gl


@pytest.mark.parametrize("max_value", [1, 15, 16, 255])
def test_block_sums_of_four_by_four_are_exact_at_every_width(max_value):
    # the 4 x 4 sums that fit a byte add 4 bytes as one word: no carry at the largest values, any width
    rng = np.random.default_rng(max_value)
    for rows, cols in ((9, 13), (8, 16), (5, 3), (1, 1)):
        for cells in (np.full((rows, cols), max_value, np.uint8),
                      rng.integers(0, max_value + 1, (rows, cols)).astype(np.uint8)):
            got = gl.block_sums(cells, 0, rows, 0, cols, 4, max_value)
            padded = np.zeros((-(-rows // 4) * 4, -(-cols // 4) * 4), np.int64)
            padded[:rows, :cols] = cells
            expected = padded.reshape(padded.shape[0] // 4, 4, -1, 4).sum(axis=(1, 3))
            np.testing.assert_array_equal(got, expected)
