"""Micro benchmark of the bit grid at large m (offscreen).

Measures, with the repaint included (events are processed until the grid's viewport has painted):
  - one insert: ``update_cells`` of 7 cells, median of 50;
  - one insert with its highlight markers (``update_cells`` + ``highlight``), median of 50;
  - full redraw: ``set_all`` of every cell, median of 10;
  - full redraw from packed bits: ``set_packed`` of every cell (what the window does for a plain bit array),
    median of 10;
and the same two operations done the plain pyqtgraph way in the same process (one ImageItem over the whole
array, ``autoDownsample=True``, ``updateImage`` after each change) as the peer.

``measure_grid(m) -> dict(grid_update_ms=..., grid_redraw_ms=...)`` is importable (it reuses a running
QApplication). Run ``python benchmarks/bench_grid.py [m]``: prints a table, then one JSON line.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# run from a checkout without installing: make the repository root importable
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from PySide6 import QtCore, QtWidgets  # noqa: E402

WIDGET_SIZE = (1000, 800)
INSERTS = 50
REDRAWS = 10
K = 7


class _PaintCounter(QtCore.QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.Paint:
            self.count += 1
        return False


def _app() -> QtWidgets.QApplication:
    return QtWidgets.QApplication.instance() or QtWidgets.QApplication([])


def _flush(app, viewport, counter) -> None:
    """Process events until the viewport has painted once (the scene schedules its repaint asynchronously)."""
    before = counter.count
    for _ in range(50):
        app.processEvents()
        if counter.count > before:
            return
    viewport.repaint()  # nothing was scheduled: paint now so the timing still includes a repaint


def _time(fn, repeat: int) -> list[float]:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def _setup_view(widget, app):
    widget.resize(*WIDGET_SIZE)
    widget.show()
    for _ in range(10):
        app.processEvents()


def measure_grid(m: int = 10_000_000, seed: int = 0) -> dict:
    """Median ms of a 7-cell update and of a full redraw of a BitGridWidget with m cells, repaint included."""
    from bloomviz.gui.widgets.grid import BitGridWidget

    app = _app()
    rng = np.random.default_rng(seed)
    values = (rng.random(m) < 0.5).astype(np.uint8)
    other = (rng.random(m) < 0.3).astype(np.uint8)
    widget = BitGridWidget()
    _setup_view(widget, app)
    widget.reset(m, values)
    for _ in range(10):
        app.processEvents()
    viewport = widget.graphics_widget.viewport()
    counter = _PaintCounter()
    viewport.installEventFilter(counter)
    _flush(app, viewport, counter)
    positions = rng.integers(0, m, size=(INSERTS, K))

    def one_insert(i):
        widget.update_cells(positions[i], 1)
        _flush(app, viewport, counter)

    def insert_and_highlight(i):
        widget.update_cells(positions[i], 1)
        widget.highlight(positions[i], ["new", "old"] * 3 + ["new"])
        _flush(app, viewport, counter)

    def redraw(i):
        widget.set_all(other if i % 2 == 0 else values)
        _flush(app, viewport, counter)

    packed = [np.packbits(v, bitorder="little") for v in (values, other)]

    def redraw_packed(i):
        widget.set_packed(packed[i % 2])
        _flush(app, viewport, counter)

    update = _time(one_insert, INSERTS)
    with_highlight = _time(insert_and_highlight, INSERTS)
    full = _time(redraw, REDRAWS)
    full_packed = _time(redraw_packed, REDRAWS)
    result = dict(grid_update_ms=statistics.median(update), grid_redraw_ms=statistics.median(full),
                  grid_update_highlight_ms=statistics.median(with_highlight),
                  grid_redraw_packed_ms=statistics.median(full_packed),
                  block_factor=widget.block_factor, paints=counter.count)
    viewport.removeEventFilter(counter)
    widget.close()
    widget.deleteLater()
    app.processEvents()
    return result


def measure_plain_pyqtgraph(m: int = 10_000_000, seed: int = 0) -> dict:
    """The peer: one ImageItem over the whole padded array with pyqtgraph's autoDownsample."""
    import pyqtgraph as pg

    from bloomviz.gui.widgets.grid.layout import grid_shape

    app = _app()
    rng = np.random.default_rng(seed)
    rows, cols = grid_shape(m)
    cells = np.zeros((rows, cols), np.uint8)
    flat = cells.reshape(-1)
    flat[:m] = rng.random(m) < 0.5
    other = (rng.random(m) < 0.3).astype(np.uint8)
    glw = pg.GraphicsLayoutWidget()
    vb = glw.addViewBox(lockAspect=True, invertY=True)
    lut = np.zeros((256, 3), np.uint8)
    lut[:, 2] = np.arange(256)
    image = pg.ImageItem(axisOrder="row-major")
    image.setImage(cells, levels=(0, 1), lut=lut, autoDownsample=True)
    vb.addItem(image)
    _setup_view(glw, app)
    vb.autoRange(padding=0.02)
    for _ in range(10):
        app.processEvents()
    viewport = glw.viewport()
    counter = _PaintCounter()
    viewport.installEventFilter(counter)
    _flush(app, viewport, counter)
    positions = rng.integers(0, m, size=(INSERTS, K))

    def one_insert(i):
        flat[positions[i]] = 1
        image.updateImage()
        _flush(app, viewport, counter)

    def redraw(i):
        flat[:m] = other if i % 2 == 0 else 1 - other
        image.updateImage()
        _flush(app, viewport, counter)

    update = _time(one_insert, 15)
    full = _time(redraw, 5)
    glw.close()
    glw.deleteLater()
    app.processEvents()
    return dict(update_ms=statistics.median(update), redraw_ms=statistics.median(full))


def main(argv: list[str]) -> int:
    m = int(argv[1]) if len(argv) > 1 else 10_000_000
    _app()
    ours = measure_grid(m)
    peer = measure_plain_pyqtgraph(m)
    rows = [
        ("one insert (7 cells) + repaint", ours["grid_update_ms"], peer["update_ms"], 5.0),
        ("full redraw + repaint", ours["grid_redraw_ms"], peer["redraw_ms"], 30.0),
    ]
    with_highlight = ours["grid_update_highlight_ms"]
    print(f"bit grid, m = {m:,}, view {WIDGET_SIZE[0]}x{WIDGET_SIZE[1]} px, block factor {ours['block_factor']}")
    print(f"load {os.getloadavg()[0]:.2f}")
    print(f"{'operation':34} {'BitGridWidget ms':>17} {'plain pyqtgraph ms':>19} {'speed-up':>9} {'goal ms':>8}")
    for name, mine, theirs, goal in rows:
        print(f"{name:34} {mine:17.2f} {theirs:19.2f} {theirs / mine:8.1f}x {goal:8.0f}")
    print(f"{'one insert + its 7 highlights':34} {with_highlight:17.2f} {'-':>19} {'-':>9} {'-':>8}")
    print(f"{'full redraw from packed bits':34} {ours['grid_redraw_packed_ms']:17.2f} {'-':>19} {'-':>9} {'-':>8}")
    print(json.dumps(dict(m=m, grid_update_ms=round(ours["grid_update_ms"], 3),
                          grid_redraw_ms=round(ours["grid_redraw_ms"], 3),
                          grid_update_highlight_ms=round(with_highlight, 3),
                          grid_redraw_packed_ms=round(ours["grid_redraw_packed_ms"], 3),
                          plain_update_ms=round(peer["update_ms"], 3),
                          plain_redraw_ms=round(peer["redraw_ms"], 3))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
