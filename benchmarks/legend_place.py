"""The live plot's legend placement (legend.py): one placement per plot size and text size, as the window asks for
one on every resize and text-size change, against the same placements with the legend's entries cleared first
(every label made again, as every arrangement tried used to do; a long window walk measured ~0.4 s a call).

    python benchmarks/legend_place.py [ROUNDS]       (default 3)

Prints the milliseconds per placement of each (median over the rounds), the ratio, and the placements chosen
(the same both ways). Not part of the test suite.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6 import QtWidgets

from bloomviz.gui.filter_tab.plot import FpPlotWidget
from bloomviz.measure.pipeline import MeasuredSeries

SCALES = (1.0, 1.5, 2.5)
SIZES = ((900, 600), (500, 400), (1200, 800), (400, 300), (700, 250), (300, 600), (1600, 300))


def sweep(app, widget, fresh: bool) -> tuple[float, list]:
    legend = widget.plot_item.legend
    spent, chosen = 0.0, []
    for scale in SCALES:
        widget.set_font_scale(scale)
        for size in SIZES:
            widget.resize(*size)
            app.processEvents()
            if fresh:
                legend.clear()
            started = time.perf_counter()
            widget._legend.invalidate()      # what a resize or a text-size change asks for
            spent += time.perf_counter() - started
            chosen.append((scale, size, widget.legend_placement, widget.legend_compact))
    return spent / (len(SCALES) * len(SIZES)), chosen


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    series = MeasuredSeries()
    m, k, probes = 958_506, 7, 10_000
    n = np.arange(1, 100_001, dtype=float)
    fill = -np.expm1(-k * n / m)
    series.add(n, np.floor(fill ** k * probes), np.round(fill * m), m=m, k=k, probes=probes)
    widget = FpPlotWidget()
    widget.show()
    widget.set_series(series)
    widget.set_capacity(100_000)
    widget.refresh_now()
    ours, fresh, same = [], [], True
    for _ in range(rounds):
        a, chosen_a = sweep(app, widget, fresh=False)
        b, chosen_b = sweep(app, widget, fresh=True)
        ours.append(a)
        fresh.append(b)
        same = same and chosen_a == chosen_b
    ours_ms, fresh_ms = 1000 * statistics.median(ours), 1000 * statistics.median(fresh)
    print(f"legend placement: {ours_ms:.1f} ms a call reusing the entries, {fresh_ms:.1f} ms with every label made "
          f"again, ratio {fresh_ms / max(ours_ms, 1e-9):.1f}x; same placements: {same}")
    app.quit()


if __name__ == "__main__":
    main()
