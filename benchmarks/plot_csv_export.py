"""The live plot's CSV export: bloomviz's column-at-a-time writer against pyqtgraph's own CSVExporter (the
same file, byte for byte; tests/gui/widgets/test_plot_export.py), on a plot of the live plot's six columns of N points.

    python benchmarks/plot_csv_export.py [N]      (default 101,000: the window walk's grown filter)

Prints each one's CPU seconds and the ratio, measured in this process one after the other.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pyqtgraph as pg
from pyqtgraph.exporters import CSVExporter
from PySide6 import QtWidgets

from bloomviz.gui.widgets.plot_export import CSV_DECIMALS, export_plot


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 101_000
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    widget = pg.PlotWidget()
    x = np.arange(1, n + 1, dtype=float)
    rate = (1 - np.exp(-7 * x / 958_506)) ** 7
    for name, y in (("measured", rate * 1.01), ("low", rate * 0.9), ("high", rate * 1.1), ("exact", rate),
                    ("approx", rate * 1.0001), ("bound", rate * 1.2)):
        widget.plot(x, y, name=name)
    with tempfile.TemporaryDirectory() as folder:
        cpu = time.process_time()
        export_plot(widget, os.path.join(folder, "ours.csv"))
        ours = time.process_time() - cpu
        theirs_exporter = CSVExporter(widget.getPlotItem())
        theirs_exporter.parameters()["precision"] = CSV_DECIMALS
        cpu = time.process_time()
        theirs_exporter.export(fileName=os.path.join(folder, "theirs.csv"))
        theirs = time.process_time() - cpu
        same = open(os.path.join(folder, "ours.csv"), "rb").read() == open(os.path.join(folder, "theirs.csv"), "rb").read()
    print(f"{n:,} points x 6 curves: bloomviz {ours:.2f} s CPU, pyqtgraph {theirs:.2f} s CPU, "
          f"ratio {theirs / max(ours, 1e-9):.1f}x; same bytes: {same}")
    app.quit()


if __name__ == "__main__":
    main()
