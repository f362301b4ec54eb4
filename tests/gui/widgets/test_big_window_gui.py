"""The grid at many cells: changes drawn from the packed bits during bulk work (no full unpack), the kept block
sums equal to a fresh summation, hover and highlights on a large filter."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters import bitstore
from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.widget import BitGridWidget
from bloomviz.gui.window import redraw as redraw_mod
from bloomviz.gui.window.bit_changes import PackedChanges
from window_helpers import settle


def shown_grid(qtbot, side: int) -> BitGridWidget:
    grid = BitGridWidget()
    qtbot.addWidget(grid)
    grid.resize(side, side)
    grid.show()
    qtbot.waitExposed(grid)
    return grid


def fresh_levels(grid: BitGridWidget) -> np.ndarray:
    return gl.window_levels(np.asarray(grid.picture), grid.display_window, grid.block_factor, grid.max_value,
                            grid.cols, grid.m)


def test_packed_changes_are_the_bits_that_differ():
    rng = np.random.default_rng(1)
    m = 100_003
    bits = bitstore.new_bits(m)
    bitstore.set_bits(bits, rng.integers(0, m, 5_000))
    changes = PackedChanges()
    assert changes.changes(bitstore.byte_view(bits)) is None       # nothing seen yet: cannot tell
    changes.reset(bitstore.byte_view(bits))
    before = bitstore.unpack(bits).copy()
    bitstore.set_bits(bits, rng.integers(0, m, 20_000))
    bits[17] = 0                                                     # a bit going back to 0 is a change too
    positions, values = changes.changes(bitstore.byte_view(bits))
    after = bitstore.unpack(bits)
    expected = np.flatnonzero(before != after)
    np.testing.assert_array_equal(positions, expected)
    np.testing.assert_array_equal(values, after[expected])
    assert changes.changes(bitstore.byte_view(bits))[0].size == 0    # the copy was brought up to date

    # a part at a time: every change is seen once the parts have gone round the array
    before = bitstore.unpack(bits).copy()
    bitstore.set_bits(bits, rng.integers(0, m, 20_000))
    span = 3_001
    found = [changes.changes(bitstore.byte_view(bits), span) for _ in range(-(-len(bits) // (8 * span)))]
    positions = np.concatenate([f[0] for f in found])
    np.testing.assert_array_equal(positions, np.flatnonzero(before != bitstore.unpack(bits)))
    assert all(f[0].size for f in found)


def test_many_changed_cells_update_the_kept_block_sums_exactly(qtbot):
    grid = shown_grid(qtbot, 300)
    m = 1_000_003
    grid.reset(m)
    assert grid.block_factor > 1
    rng = np.random.default_rng(2)
    for size in (7, 50_000, 300_000):          # the scattered add and the one-pass bincount
        positions = rng.integers(0, m, size)
        grid.update_cells(positions, rng.integers(0, 2, size).astype(np.uint8))
        np.testing.assert_array_equal(grid.display.levels, fresh_levels(grid))
    # a repeated position takes its last value, as repeated assignment would
    grid.update_cells(np.array([5, 5, 5]), np.array([1, 0, 1], np.uint8))
    assert grid.value(5) == 1
    grid.update_cells(np.array([5, 5]), np.array([1, 0], np.uint8))
    assert grid.value(5) == 0
    np.testing.assert_array_equal(grid.display.levels, fresh_levels(grid))


pytestmark = pytest.mark.window(probes=1_000, size=(1280, 800))


def test_a_bulk_job_on_a_large_filter_draws_only_the_changed_bits(window, qtbot, monkeypatch):
    # 2 M bits: blocks of several cells per pixel, as at 10^8, in a test of a few seconds
    wb, grid = window.wb, window.grid
    m = 2_000_000
    # as at 10^8 bits: the comparison starts in parts and finishes in parts after the job (250 KB > 64 KB)
    monkeypatch.setattr(redraw_mod, "WHOLE_BYTES", redraw_mod.MIN_SPAN)
    # as on a slow machine at 10^8 bits: every flush over budget, so each compares only a part of the bits
    monkeypatch.setattr(redraw_mod, "SCAN_TARGET_S", 1e-6)
    monkeypatch.setattr(redraw_mod, "DRAW_TARGET_S", 1e-6)
    monkeypatch.setattr(redraw_mod, "REWRITE_TARGET_S", 1e-6)
    from bloomviz.gui.widgets.grid import drawing
    monkeypatch.setattr(drawing, "BASE_MIN_CELLS", 1)       # the kept 4 x 4 sums too, as at 10^8 cells
    assert wb.configure(m, 7)
    assert grid.m == m and grid.block_factor > 1
    full = []
    monkeypatch.setattr(grid, "set_all", lambda values: full.append(1))
    parts = []              # bytes drawn whole from the packed bits: (start, stop)
    set_packed = grid.set_packed
    monkeypatch.setattr(grid, "set_packed", lambda packed, start=0, stop=None: (
        parts.append((start, stop)), set_packed(packed, start, stop)))
    with qtbot.waitSignal(wb.jobFinished, timeout=30_000):
        wb.insert_many([f"b{i}" for i in range(150_000)])
    assert not full                                   # never a whole unpacked picture during the job
    bits = bitstore.unpack(wb.filter.bits)
    # drawn in parts, a part a turn after the job: slow turns on a loaded machine, so a generous wait
    qtbot.waitUntil(lambda: np.array_equal(np.asarray(grid.picture).reshape(-1)[:m], bits), timeout=20_000)
    # during the job and after it, only parts: how many fell during the job depends on the machine's speed (a
    # quick machine finished the job before its first frame), so they are counted once the picture is whole
    assert not full
    assert parts and all(stop is not None and stop - start <= redraw_mod.MIN_SPAN for start, stop in parts)
    budget = window.redraw._budget
    assert budget.span == redraw_mod.MIN_SPAN and budget.limit in (redraw_mod.MIN_CHANGED, redraw_mod.FIRST_CHANGED)
    np.testing.assert_array_equal(grid.display.levels, fresh_levels(grid))
    np.testing.assert_array_equal(grid.display.base, gl.block_sums(np.asarray(grid.picture), 0, grid.rows, 0, grid.cols,
                                                            drawing.BASE, 1))
    assert 0 < grid.display.levels.mean() < 255              # shaded, not blank

    wb.insert("one more")
    wb.flush()          # (drawn in the next turn of the event loop)
    x, y, kinds = grid.highlight_points()
    assert len(kinds) == 7 and len(x) == 7
    index = int(wb.last_record.positions[0])
    assert grid.value(index) == 1
    row, col = divmod(index, grid.cols)
    assert grid.hover_at_view(col + 0.5, row + 0.5) == index
    assert grid.hover_label.isVisible() and f"bit {index:,} = 1" in grid.hover_label.text()
    assert "one more" in grid.hover_label.text()


def test_a_slow_hover_text_waits_for_the_cursor_to_rest(qtbot):
    import time as _time

    grid = shown_grid(qtbot, 300)
    grid.reset(10_000)
    asked = []

    def slow(index):    # as the truth's scan of 10^7 inserts' positions
        asked.append(index)
        _time.sleep(0.12)
        return f"bit {index:,} = 0; set by: nobody"

    grid.set_hover_text_provider(slow)
    assert grid.hover_at_view(3.5, 0.5) == 3 and asked == [3]         # measured slow on its first call
    assert grid.hover_at_view(4.5, 0.5) == 4 and asked == [3]         # moving on: the plain text at once
    assert grid.hover_label.text() == "bit 4 = 0"
    qtbot.waitUntil(lambda: grid.hover_label.text() == "bit 4 = 0; set by: nobody", timeout=2_000)
    assert asked == [3, 4]
    grid.set_hover_text_provider(lambda index: f"fast {index}")      # a new provider is asked at once again
    grid.hover_at_view(5.5, 0.5)
    assert grid.hover_label.text() == "fast 5"


def test_a_large_grid_zooms_from_its_kept_four_by_four_sums(qtbot, monkeypatch):
    from bloomviz.gui.widgets.grid import drawing

    monkeypatch.setattr(drawing, "BASE_MIN_CELLS", 1)       # as at 10^8 cells, on a grid of 10^6
    grid = shown_grid(qtbot, 160)
    m = 1_000_003
    rng = np.random.default_rng(3)
    grid.reset(m, rng.integers(0, 2, m).astype(np.uint8))
    assert grid.display.base is not None
    f = grid.block_factor
    assert f > drawing.BASE and f % drawing.BASE == 0        # blocks a multiple of the base's
    np.testing.assert_array_equal(grid.display.levels, fresh_levels(grid))
    grid.update_cells(rng.integers(0, m, 100), 1)            # a few cells: added to the base
    grid.update_cells(np.unique(rng.integers(0, m, 50_000)), 0, unique=True)   # many: the base summed anew
    for scale in (0.7, 0.7, 1.8, 1.3):
        grid.view_box.scaleBy((scale, scale))
        settle(qtbot, grid, state=lambda: (grid.display_window, grid.block_factor))   # drawn for the new view
        np.testing.assert_array_equal(grid.display.levels, fresh_levels(grid))
    np.testing.assert_array_equal(grid.display.base, gl.block_sums(np.asarray(grid.picture), 0, grid.rows, 0, grid.cols,
                                                            drawing.BASE, 1))


def test_dense_changes_are_drawn_whole_from_the_packed_bytes(qtbot, monkeypatch):
    from bloomviz.gui.widgets.grid import drawing

    monkeypatch.setattr(drawing, "BASE_MIN_CELLS", 1)
    monkeypatch.setattr(drawing, "PACKED_BAND_BITS", 40_000)     # several bands, none aligned to a row
    rng = np.random.default_rng(4)
    m = 1_000_003
    bits = bitstore.new_bits(m)
    bitstore.set_bits(bits, rng.integers(0, m, 100_000))
    packed = bitstore.byte_view(bits)
    changes = PackedChanges()
    changes.reset(packed)
    bitstore.set_bits(bits, rng.integers(0, m, 200_000))
    assert changes.changes(packed, 10_000, dense=1.0) is not None        # never dense past every byte
    rewrite = changes.changes(packed, 30_001, dense=1 / 64)
    assert rewrite == (10_000, 40_001) and changes.advanced == 30_001
    rest = changes.changes(packed)[0]                       # the copy of those bytes was brought up to date
    assert rest.size and rest.min() >= 40_001 * 8

    drawn, fresh = BitGridWidget(), BitGridWidget()
    for grid in (drawn, fresh):
        qtbot.addWidget(grid)
        grid.resize(200, 200)
        grid.show()
        qtbot.waitExposed(grid)
        grid.reset(m)
    drawn.set_packed(packed)
    drawn.update_cells(np.arange(0, m, 331), 0)        # cells made wrong all over, then a band drawn true
    drawn.set_packed(packed, 12_345, 98_765)
    expected = bitstore.unpack(bits).copy()
    expected[np.arange(0, m, 331)] = 0
    expected[12_345 * 8:98_765 * 8] = bitstore.unpack(bits)[12_345 * 8:98_765 * 8]
    fresh.set_all(expected)
    for grid in (drawn, fresh):
        np.testing.assert_array_equal(np.asarray(grid.picture).reshape(-1)[:m], expected)
        np.testing.assert_array_equal(grid.display.levels, fresh_levels(grid))
    np.testing.assert_array_equal(drawn.display.base, fresh.display.base)
    with pytest.raises(ValueError, match="bytes"):
        drawn.set_packed(packed[:-1])
    with pytest.raises(ValueError, match="outside"):
        drawn.set_packed(packed, 5, packed.size + 1)
