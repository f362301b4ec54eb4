"""The bit grid's layout, without Qt: a near-square shape, cell lookup, range rectangles, block levels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.gui.widgets.grid import layout as gl


@pytest.mark.parametrize("m", [1, 2, 8, 16, 17, 1000, 10_000_000])
def test_grid_shape_is_near_square_with_less_than_one_row_of_padding(m):
    rows, cols = gl.grid_shape(m)
    assert rows * cols >= m
    assert rows * cols - m < cols  # padding only in the last row
    assert (cols - 1) ** 2 < m <= cols * cols  # cols = ceil(sqrt(m))
    assert rows <= cols


@pytest.mark.parametrize("bad", [0, -1, gl.MAX_CELLS + 1, True, 2.0, "8", None])
def test_grid_shape_refuses_bad_m(bad):
    with pytest.raises((ValueError, TypeError), match=repr(bad) if not isinstance(bad, int) else "m"):
        gl.grid_shape(bad)


def test_point_to_index_maps_cells_and_rejects_padding_and_outside():
    rows, cols = gl.grid_shape(8)  # 3 x 3, one padding cell at (2, 2)
    assert gl.point_to_index(0.5, 0.5, rows, cols, 8) == 0
    assert gl.point_to_index(1.99, 2.0, rows, cols, 8) == 7
    assert gl.point_to_index(2.5, 2.5, rows, cols, 8) == -1  # padding
    assert gl.point_to_index(-0.01, 0.5, rows, cols, 8) == -1
    assert gl.point_to_index(0.5, 3.0, rows, cols, 8) == -1
    assert gl.point_to_index(float("nan"), 0.5, rows, cols, 8) == -1


@settings(max_examples=60, deadline=None)
@given(cols=st.integers(1, 12), data=st.data())
def test_range_rects_cover_exactly_the_range(cols, data):
    total = cols * data.draw(st.integers(1, 8))
    start = data.draw(st.integers(0, total - 1))
    end = data.draw(st.integers(start + 1, total))
    covered = np.zeros(total, int)
    rects = gl.range_rects(start, end, cols)
    assert len(rects) <= 3
    for x, y, w, h in rects:
        for r in range(y, y + h):
            for c in range(x, x + w):
                covered[r * cols + c] += 1
    expected = np.zeros(total, int)
    expected[start:end] = 1
    assert np.array_equal(covered, expected)


@settings(max_examples=40, deadline=None)
@given(m=st.integers(1, 400), f=st.integers(1, 7), max_value=st.sampled_from([1, 15]), seed=st.integers(0, 99),
       data=st.data())
def test_window_levels_are_rounded_block_means_of_real_cells(m, f, max_value, seed, data):
    rows, cols = gl.grid_shape(m)
    rng = np.random.default_rng(seed)
    cells = np.zeros((rows, cols), np.uint8)
    cells.reshape(-1)[:m] = rng.integers(0, max_value + 1, m)
    r0 = f * data.draw(st.integers(0, (rows - 1) // f))
    c0 = f * data.draw(st.integers(0, (cols - 1) // f))
    r1 = data.draw(st.integers(r0 + 1, rows))
    c1 = data.draw(st.integers(c0 + 1, cols))
    got = gl.window_levels(cells, (r0, r1, c0, c1), f, max_value, cols, m)
    assert got.shape == (-(-(r1 - r0) // f), -(-(c1 - c0) // f))
    index = np.arange(rows * cols).reshape(rows, cols)
    for i in range(got.shape[0]):
        for j in range(got.shape[1]):
            rs = slice(r0 + i * f, min(r0 + (i + 1) * f, r1))
            cs = slice(c0 + j * f, min(c0 + (j + 1) * f, c1))
            real = index[rs, cs] < m
            if not real.any():
                assert got[i, j] == 0
                continue
            mean = cells[rs, cs][real].mean() / max_value
            assert abs(int(got[i, j]) - mean * 255) <= 0.5 + 1e-3


def test_block_factor_never_samples():
    assert gl.block_factor(0.01) == 1
    assert gl.block_factor(1.0) == 1
    assert gl.block_factor(1.01) == 2
    assert gl.block_factor(4.0) == 4
    assert gl.block_factor(4.2) == 5
