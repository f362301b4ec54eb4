"""Bit grid widget: the picture array, partial updates, fraction shading, highlights, hover, bands (its layout
helpers without Qt: test_grid_layout.py)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from bloomviz.gui.widgets.grid import layout as gl  # noqa: E402

from bloomviz.gui.widgets.grid.widget import BitGridWidget  # noqa: E402
from bloomviz.gui.widgets.grid.style import (  # noqa: E402
    BORDER_MIN_PX, HIGHLIGHT_STYLE, MAX_LABELS, MIN_MARKER_PX, build_lut, LIGHT,
)
from bloomviz.vocabulary import HIGHLIGHT_KINDS  # noqa: E402
from window_helpers import settle
from PySide6 import QtCore, QtGui  # noqa: E402
from pytestqt.qt_compat import qt_api  # noqa: E402


@pytest.fixture
def grid(qtbot):
    widget = BitGridWidget()
    qtbot.addWidget(widget)
    widget.resize(420, 420)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _settle(qtbot, grid):
    """The grid drawn for its view: its layout, drawn window, blocks and borders the same over a few turns."""
    settle(qtbot, grid, state=lambda: (grid.display_window, grid.block_factor, grid.decor_plan()))


def _expected_display(widget):
    return gl.window_levels(np.asarray(widget.picture), widget.display_window, widget.block_factor,
                            widget.max_value, widget.cols, widget.m)


@pytest.mark.parametrize("m", [8, 16, 1000, 10_000_000])
def test_reset_builds_padded_picture(grid, qtbot, m):
    rng = np.random.default_rng(m)
    values = (rng.random(m) < 0.5).astype(np.uint8)
    grid.reset(m, values)
    rows, cols = gl.grid_shape(m)
    assert (grid.m, grid.rows, grid.cols) == (m, rows, cols)
    pic = grid.picture
    assert pic.shape == (rows, cols) and pic.dtype == np.uint8
    assert np.array_equal(pic.reshape(-1)[:m], values)
    assert not pic.reshape(-1)[m:].any()
    assert not pic.flags.writeable
    pad = rows * cols - m
    rect = grid.padding_rect()
    assert (rect is not None) == (pad > 0)
    if pad:
        assert (rect.x(), rect.y(), rect.width(), rect.height()) == (cols - pad, rows - 1, pad, 1)
    _settle(qtbot, grid)
    # the image item shows the picture (at full resolution or as block means) of a window that contains the view
    assert np.array_equal(grid.image_item.image, _expected_display(grid))
    if m == 10_000_000:
        assert grid.block_factor > 1  # a 420 px view cannot show 3163 columns one per pixel


def test_reset_refuses_bad_input_and_keeps_the_grid(grid):
    grid.reset(16, np.ones(16, np.uint8))
    before = np.array(grid.picture)
    for args, match in [((0,), "m must be"), ((True,), "True"), ((16, np.zeros(15, np.uint8)), "length m"),
                        ((16, np.full(16, 2, np.uint8)), "0..1"), ((16, None, 0), "max_value"),
                        ((16, np.full(16, 1.5)), "integers")]:
        with pytest.raises((ValueError, TypeError), match=match):
            grid.reset(*args)
    assert grid.m == 16 and np.array_equal(grid.picture, before)


def test_update_cells_changes_exactly_those_cells(grid):
    m = 1000
    rng = np.random.default_rng(1)
    grid.reset(m, (rng.random(m) < 0.3).astype(np.uint8))
    before = np.array(grid.picture)
    positions = np.array([0, 17, 999, 500, 17])
    grid.update_cells(positions, 1)
    after = np.array(grid.picture)
    changed = np.flatnonzero((before != after).reshape(-1))
    expected = np.array(sorted(p for p in set(positions.tolist()) if before.reshape(-1)[p] == 0))
    assert np.array_equal(changed, expected)
    assert all(after.reshape(-1)[p] == 1 for p in positions)
    grid.update_cells(np.array([17, 500]), np.array([0, 0]))
    assert grid.value(17) == 0 and grid.value(500) == 0
    assert np.array_equal(grid.image_item.image, _expected_display(grid))


def test_update_cells_keeps_block_means_current_at_large_m(grid, qtbot):
    m = 2_000_000
    rng = np.random.default_rng(2)
    grid.reset(m, (rng.random(m) < 0.5).astype(np.uint8))
    _settle(qtbot, grid)
    assert grid.block_factor > 1
    for _ in range(5):
        grid.update_cells(rng.integers(0, m, 7), rng.integers(0, 2, 7))
    assert np.array_equal(grid.image_item.image, _expected_display(grid))
    grid.update_cells(rng.integers(0, m, 5000), 1)  # many blocks at once
    assert np.array_equal(grid.image_item.image, _expected_display(grid))


def test_update_cells_refuses_bad_positions_and_values(grid):
    grid.reset(100)
    for positions, values, match in [([100], 1, "100"), ([-1], 1, "-1"), ([1, 2], [1, 1, 1], "one value"),
                                     ([3], 2, "0 to 1"), ([1.5], 1, "integers")]:
        with pytest.raises(ValueError, match=match):
            grid.update_cells(np.array(positions), values)
    assert not np.asarray(grid.picture).any()


def test_set_all_replaces_every_cell(grid):
    m = 5000
    grid.reset(m)
    values = (np.arange(m) % 3 == 0).astype(np.uint8)
    grid.set_all(values)
    assert np.array_equal(grid.picture.reshape(-1)[:m], values)
    assert np.array_equal(grid.image_item.image, _expected_display(grid))
    with pytest.raises(ValueError, match="length m"):
        grid.set_all(values[:-1])


def test_image_item_uses_row_major_explicit_levels_and_a_lut(grid):
    grid.reset(1000, np.ones(1000, np.uint8))
    item = grid.image_item
    assert item.axisOrder == "row-major"
    assert list(item.getLevels()) == [0, 255]
    assert item.lut is not None and len(item.lut) == 256
    assert not item.autoDownsample


def _grid_pixels(widget, qtbot):
    """The rendered grid area as an (h, w, 3) array, a margin inside the grid's outline."""
    _settle(qtbot, widget)
    image = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
    arr = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    vb = widget.view_box
    view = widget.graphics_widget
    top_left = view.mapFromScene(vb.mapViewToScene(QtCore.QPointF(0, 0)))
    bottom_right = view.mapFromScene(vb.mapViewToScene(QtCore.QPointF(widget.cols, widget.rows - 1)))
    x0, y0, x1, y1 = top_left.x() + 6, top_left.y() + 6, bottom_right.x() - 6, bottom_right.y() - 6
    assert x1 - x0 > 50 and y1 - y0 > 50
    return arr[y0:y1, x0:x1, 2::-1].astype(int)  # BGRA in memory -> RGB


def test_zoomed_out_grid_is_shaded_by_fraction_of_bits_set(grid, qtbot):
    m = 1_000_000
    rng = np.random.default_rng(3)
    grid.reset(m, (rng.random(m) < 0.5).astype(np.uint8))
    assert grid.block_factor >= 2
    pixels = _grid_pixels(grid, qtbot)
    lut = grid.lookup_table().astype(int)
    zero, one = lut[0], lut[255]
    is_zero = (np.abs(pixels - zero).sum(axis=2) <= 6)
    is_one = (np.abs(pixels - one).sum(axis=2) <= 6)
    # sampling single bits would paint every pixel either the 0 or the 1 colour
    assert (is_zero | is_one).mean() < 0.05
    mid = (zero + one) / 2
    assert np.abs(pixels.reshape(-1, 3).mean(axis=0) - mid).max() < 0.1 * np.abs(one - zero).max()


def test_full_and_empty_regions_render_in_the_extreme_colours(grid, qtbot):
    m = 1_000_000
    grid.reset(m, np.ones(m, np.uint8))
    lut = grid.lookup_table().astype(int)
    pixels = _grid_pixels(grid, qtbot)
    assert (np.abs(pixels - lut[255]).sum(axis=2) <= 6).mean() > 0.99
    grid.set_all(np.zeros(m, np.uint8))
    pixels = _grid_pixels(grid, qtbot)
    assert (np.abs(pixels - lut[0]).sum(axis=2) <= 6).mean() > 0.99


def test_counters_show_as_a_heat_map(grid):
    m = 400
    values = (np.arange(m) % 16).astype(np.uint8)
    grid.reset(m, values, max_value=15)
    assert grid.max_value == 15
    lut = grid.lookup_table()
    assert np.array_equal(lut, build_lut(LIGHT, 15))
    # each counter value gets its own colour and value 0 keeps the background colour of an unset bit
    colours = {tuple(lut[int(round(v * 255 / 15))]) for v in range(16)}
    assert len(colours) == 16
    assert tuple(lut[0]) == tuple(build_lut(LIGHT, 1)[0])
    assert np.array_equal(grid.image_item.image, _expected_display(grid))
    grid.update_cells(np.array([5]), 15)
    assert grid.value(5) == 15
    with pytest.raises(ValueError, match="0 to 15"):
        grid.update_cells(np.array([5]), 16)
    assert "counter 5 = 15" in grid.hover_text(5)


def test_highlight_markers_sit_on_cell_centres(grid):
    grid.reset(1000)
    positions = np.array([0, 31, 32, 999, 500])
    kinds = ["new", "old", "zero", "one", "culprit"]
    grid.highlight(positions, kinds)
    x, y, got_kinds = grid.highlight_points()
    assert np.allclose(x, positions % 32 + 0.5) and np.allclose(y, positions // 32 + 0.5)
    assert got_kinds == kinds
    assert grid.highlight_item.opts["pxMode"]
    grid.clear_highlight()
    assert len(grid.highlight_points()[0]) == 0
    with pytest.raises(ValueError, match="'sparkle'"):
        grid.highlight([1], ["sparkle"])
    with pytest.raises(ValueError, match="1000"):
        grid.highlight([1000], "new")
    assert set(HIGHLIGHT_KINDS) == set(HIGHLIGHT_STYLE)
    colours = [HIGHLIGHT_STYLE[k][0] for k in HIGHLIGHT_KINDS]
    assert len(set(colours)) == len(colours)


def test_highlight_markers_stay_visible_on_tiny_cells(grid, qtbot):
    grid.reset(10_000_000)
    grid.highlight([123_456, 9_999_999], "new")
    _settle(qtbot, grid)
    assert grid.cell_pixels() < 1
    assert grid.marker_size() >= MIN_MARKER_PX
    assert [p.size() for p in grid.highlight_item.points()] == [grid.marker_size()] * 2


def _viewport_point(widget, x, y):
    scene_pt = widget.view_box.mapViewToScene(QtCore.QPointF(x, y))
    return widget.graphics_widget.mapFromScene(scene_pt)


def test_hover_calls_provider_with_the_cell_under_the_cursor(grid, qtbot):
    grid.reset(1000)
    _settle(qtbot, grid)
    calls = []
    grid.set_hover_text_provider(lambda i: calls.append(i) or f"bit {i} = 0; set by: nobody")
    viewport = grid.graphics_widget.viewport()
    target = 7 * 32 + 20  # row 7, column 20
    with qtbot.waitSignal(grid.cellHovered, timeout=1000) as blocker:
        qtbot.mouseMove(viewport, _viewport_point(grid, 20.5, 7.5))
    assert blocker.args == [target]
    assert calls[-1] == target
    assert grid.hover_label.isVisible() and grid.hover_label.text() == f"bit {target} = 0; set by: nobody"
    # a fixed wait on purpose: pyqtgraph's scene drops mouse moves closer than 1/mouseRateLimit (10 ms) apart
    qtbot.wait(30)
    with qtbot.waitSignal(grid.cellHovered, timeout=1000) as blocker:
        qtbot.mouseMove(viewport, _viewport_point(grid, 31.5, 31.5))  # padding cell
    assert blocker.args == [-1]
    assert not grid.hover_label.isVisible()


def test_hover_text_follows_updates_of_the_hovered_cell(grid):
    grid.reset(64)
    assert grid.hover_at_view(3.5, 0.5) == 3
    assert grid.hover_label.text() == "bit 3 = 0"
    grid.update_cells(np.array([3]), 1)
    assert grid.hover_label.text() == "bit 3 = 1"
    long_text = "bit 3 = 1; set by: " + ", ".join(f"item-{i}" for i in range(20)) + " (+17 more)"
    grid.set_hover_text_provider(lambda i: long_text)
    grid.hover_at_view(4.5, 0.5)
    assert grid.hover_label.wordWrap() and grid.hover_label.width() <= 420
    assert grid.hover_at_view(-3, 0.5) == -1


def test_borders_and_labels_only_when_zoomed_in(grid, qtbot):
    grid.reset(10_000)
    _settle(qtbot, grid)
    assert grid.decor_plan() is None  # 100 columns in ~400 px: 4 px cells
    grid.view_box.setRange(QtCore.QRectF(40, 40, 12, 12), padding=0)
    _settle(qtbot, grid)
    assert grid.cell_pixels() >= BORDER_MIN_PX
    r0, r1, c0, c1, with_labels, font_px = grid.decor_plan()
    assert with_labels and font_px >= 7
    assert 0 < (r1 - r0) * (c1 - c0) <= MAX_LABELS
    assert r0 <= 40 and r1 >= 52 and c0 <= 40 and c1 >= 52
    grid.view_box.setRange(QtCore.QRectF(0, 0, 25, 25), padding=0)  # 16 px cells: borders, too many labels
    _settle(qtbot, grid)
    plan = grid.decor_plan()
    assert plan is not None and not plan[4]


def test_bands_outline_their_index_ranges(grid):
    m = 1000  # 32 columns
    grid.reset(m)
    grid.set_bands([(0, 100, "stage 1"), (100, 1000, "stage 2: 12% full")])
    assert grid.bands() == [(0, 100, "stage 1"), (100, 1000, "stage 2: 12% full")]
    paths = grid.band_paths()
    assert len(paths) == 2
    for (start, end, _), path in zip(grid.bands(), paths):
        for i in (start, end - 1, (start + end) // 2):
            assert path.contains(QtCore.QPointF(i % 32 + 0.5, i // 32 + 0.5)), i
        for i in (start - 1, end):
            if 0 <= i < m:
                assert not path.contains(QtCore.QPointF(i % 32 + 0.5, i // 32 + 0.5)), i
    with pytest.raises(ValueError, match="start < end"):
        grid.set_bands([(5, 5, "empty")])
    with pytest.raises(ValueError, match="1001"):
        grid.set_bands([(0, 1001, "too long")])
    assert len(grid.band_paths()) == 2  # a refused call keeps the bands
    grid.set_bands([])
    assert grid.band_paths() == []


def test_dark_theme_changes_colours_and_keeps_state(grid):
    grid.reset(100, np.ones(100, np.uint8))
    light = grid.lookup_table()
    grid.set_theme(True)
    dark = grid.lookup_table()
    assert grid.dark
    assert not np.array_equal(light, dark)
    # projector-friendly: the 1 colour stands far from the 0 colour in both themes
    for lut in (light, dark):
        assert np.abs(lut[255].astype(int) - lut[0].astype(int)).sum() > 250
    assert grid.value(0) == 1


def test_export_png_writes_a_picture_of_the_grid(grid, qtbot, tmp_path):
    grid.reset(1000, (np.arange(1000) % 2).astype(np.uint8))
    grid.highlight([5], "new")
    _settle(qtbot, grid)
    path = tmp_path / "grid.png"
    grid.export_png(path)
    image = QtGui.QImage(str(path))
    assert not image.isNull() and image.width() > 100
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 2


def test_widget_before_reset_refuses_cell_operations(qtbot):
    widget = BitGridWidget()
    qtbot.addWidget(widget)
    with pytest.raises(RuntimeError, match="reset"):
        widget.update_cells(np.array([0]), 1)
    assert widget.hover_at_view(0.5, 0.5) == -1
    assert qt_api.QtWidgets.QApplication.instance() is not None


def test_zoom_and_pan_keep_the_display_window_on_the_visible_cells(grid, qtbot):
    m = 1_000_000  # 1000 x 1000
    rng = np.random.default_rng(4)
    grid.reset(m, (rng.random(m) < 0.5).astype(np.uint8))
    _settle(qtbot, grid)
    coarse = grid.block_factor
    grid.view_box.setRange(QtCore.QRectF(100, 200, 150, 150), padding=0)
    _settle(qtbot, grid)
    assert grid.block_factor == 1 < coarse  # about 2.7 px per cell: full resolution
    grid.view_box.translateBy((600, 500))
    _settle(qtbot, grid)
    rect = grid.view_box.viewRect()
    r0, r1, c0, c1 = grid.display_window
    assert r0 <= rect.top() and r1 >= min(grid.rows, rect.bottom())
    assert c0 <= rect.left() and c1 >= min(grid.cols, rect.right())
    assert np.array_equal(grid.image_item.image, _expected_display(grid))
    image_rect = grid.image_item.mapRectToParent(grid.image_item.boundingRect())
    assert (image_rect.left(), image_rect.top()) == (c0, r0)
    grid.fit()
    _settle(qtbot, grid)
    assert grid.block_factor == coarse and grid.display_window == (0, grid.rows, 0, grid.cols)


def test_repeated_highlights_reuse_rendered_symbols(grid, qtbot):
    grid.reset(10_000)
    rng = np.random.default_rng(5)
    for _ in range(30):
        grid.highlight(rng.integers(0, 10_000, 7), list(rng.choice(HIGHLIGHT_KINDS, 7)))
        _settle(qtbot, grid)
    # one rendered symbol per kind at the current size, not one per call
    assert len(grid.highlight_item.fragmentAtlas) <= len(HIGHLIGHT_KINDS)


def test_clearing_a_clear_highlight_asks_for_no_paint(grid, monkeypatch):
    # every chunk of an auto-play clears the highlight (its record lights no cell): a scatter item's clear()
    # asked the grid's scene for a paint each time, a grid paint in every chunk's turn
    grid.reset(1024)
    item = grid.highlight_item
    asked = []
    update = item.update
    monkeypatch.setattr(item, "update", lambda *a: (asked.append(1), update(*a)))
    grid.highlight(np.array([3, 9]), "new")
    grid.clear_highlight()
    assert asked and len(grid.highlight_points()[0]) == 0
    before = len(asked)
    grid.clear_highlight()
    assert len(asked) == before and len(grid.highlight_points()[0]) == 0
