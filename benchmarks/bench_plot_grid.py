"""The Parameter explorer's and Compare's plots painted with pyqtgraph's see-through grid lines against the opaque
ones they draw now (widgets/grid_axis.py), interleaved in one process (issue 23: a paint that hands no work to
Qt's thread pool).

    python benchmarks/bench_plot_grid.py [--rounds 7] [--paints 10] [--size 900x600]

Each plot as its tab draws it (the explorer's rate against n and against k for the default design; a Compare
run of its default settings), once with its own axes (opaque grid) and once with pyqtgraph's stock axes and
the same ``showGrid``; each round paints both ``--paints`` times (``QWidget.grab``: a whole paint of the plot,
the same raster engine as on screen), alternating which goes first. Measured per paint: this thread's CPU,
wall time, and its voluntary context switches (Linux ``getrusage(RUSAGE_THREAD)``): Qt 6 splits a long run
of see-through line spans over its thread pool and the GUI thread waits for each part, so on a loaded machine
every hand-off waits for a core. Prints medians and ranges over the rounds and the ratios stock / opaque.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pyqtgraph as pg  # noqa: E402
from PySide6 import QtWidgets  # noqa: E402


@contextlib.contextmanager
def stock_axes(*modules):
    """Within: the plots these modules make get pyqtgraph's own axes (the see-through grid), as before."""
    saved = [(m, m.opaque_grid_axes, m.beneath_the_view) for m in modules]
    for m in modules:
        m.opaque_grid_axes = lambda: {side: pg.AxisItem(orientation=side) for side in ("left", "bottom")}
        m.beneath_the_view = lambda *_: None
    try:
        yield
    finally:
        for m, axes, beneath in saved:
            m.opaque_grid_axes, m.beneath_the_view = axes, beneath


def explorer_plots(size):
    from bloomviz.gui.explorer_tab import plots
    from bloomviz.gui.explorer_tab.plots import FpVsKPlot, FpVsNPlot
    made = []
    for cls, draw in ((FpVsNPlot, lambda p: p.show_design(95_850_584, 7, 10_000_000)),
                      (FpVsKPlot, lambda p: p.show_design(32, 3, 8))):
        pair = []
        for opaque in (True, False):
            with contextlib.nullcontext() if opaque else stock_axes(plots):
                plot = cls()
            plot.resize(*size)
            draw(plot)
            plot.show()
            pair.append(plot)
        made.append((cls.__name__, pair))
    return made


def compare_plots(size):
    from bloomviz.gui.compare_tab import view as compare_view
    pair = []
    for opaque in (True, False):
        with contextlib.nullcontext() if opaque else stock_axes(compare_view):
            view = compare_view.CompareView()
        view.resize(size[0] + 400, size[1] + 200)
        view.show()
        view.start()
        view.run_to_end()
        view.pictures.redraw()
        pair.append(view.plot)
    return [("Compare", pair)]


def paints(widget, count: int) -> tuple[float, float, int]:
    """(CPU ms, wall ms, voluntary context switches) a paint, over ``count`` paints."""
    switches = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw
    cpu, wall = time.thread_time(), time.perf_counter()
    for _ in range(count):
        widget.grab()
    return ((time.thread_time() - cpu) * 1e3 / count, (time.perf_counter() - wall) * 1e3 / count,
            (resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw - switches) / count)


def spread(values) -> str:
    values = sorted(values)
    return f"{statistics.median(values):7.2f} ({values[0]:.2f}-{values[-1]:.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--paints", type=int, default=10)
    parser.add_argument("--size", default="900x600")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    plots = explorer_plots(size) + compare_plots(size)
    app.processEvents()
    for _, pair in plots:
        for widget in pair:
            widget.grab()      # laid out and drawn once before timing
    print(f"a paint of each plot (QWidget.grab, {size[0]} x {size[1]}), {args.rounds} rounds of {args.paints} "
          f"paints each, interleaved; load {os.getloadavg()[0]:.1f}")
    print(f"{'plot':<10} {'grid':<12} {'CPU ms median (range)':>26} {'wall ms':>26} {'handoffs':>24}")
    for name, (opaque, stock) in plots:
        got = {"opaque": [], "see-through": []}
        for r in range(args.rounds):
            order = [("opaque", opaque), ("see-through", stock)]
            for key, widget in (order if r % 2 == 0 else order[::-1]):
                got[key].append(paints(widget, args.paints))
        for key, rows in got.items():
            cpu, wall, switches = zip(*rows)
            print(f"{name:<10} {key:<12} {spread(cpu):>26} {spread(wall):>26} {spread(switches):>24}")
        ratio = [s[1] / o[1] for s, o in zip(got["see-through"], got["opaque"])]
        print(f"{'':<10} wall see-through / opaque, per round: {spread(ratio)}")
    print(f"load after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
