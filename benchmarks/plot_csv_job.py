"""File → Export plot as CSV of a long series in the window: the export as the window's job (a slice of rows per
turn of the event loop, progress and Cancel) against the same export at once, in the same process.

    python benchmarks/plot_csv_job.py [N]      (default 1,000,000 inserts: one row each)

Prints the job's start (the call that starts it: the GUI thread is busy that long), its longest turn of the
event loop and 99th percentile, its CPU seconds; the export at once (what the window froze for before), the
ratio at once / longest turn, and whether the two files are the same bytes. Not part of the test suite.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.main_window import MainWindow
from bloomviz.gui.window import exports
from bloomviz.gui.workbench import QtWorkbench


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    win = MainWindow(workbench=QtWorkbench(probes=1_000))
    win.resize(1200, 800)
    win.show()
    win.wb.insert_many([f"item {i}" for i in range(n)])
    win.wb.run_to_end()
    win.plot.refresh_now()
    app.processEvents()
    with tempfile.TemporaryDirectory() as folder:
        job_path, once_path = os.path.join(folder, "job.csv"), os.path.join(folder, "once.csv")
        exports._save_path = lambda *a, **k: job_path      # the save dialog's answer
        turns, last = [], [0.0]

        def tick() -> None:
            now = time.perf_counter()
            turns.append(now - last[0])
            last[0] = now
        timer = QtCore.QTimer()
        timer.timeout.connect(tick)
        timer.start(0)
        cpu, wall = time.process_time(), time.perf_counter()
        exports.export_plot(win)
        start = time.perf_counter() - wall
        last[0] = time.perf_counter()
        while win.wb.busy:
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
        job_cpu, job_wall = time.process_time() - cpu, time.perf_counter() - wall
        timer.stop()
        cpu, wall = time.process_time(), time.perf_counter()
        win.plot.export(once_path)
        once_cpu, once_wall = time.process_time() - cpu, time.perf_counter() - wall
        same = open(job_path, "rb").read() == open(once_path, "rb").read()
    turns.sort()
    longest, p99 = turns[-1], turns[int(0.99 * (len(turns) - 1))]
    print(f"{n:,} rows: job start {start:.2f} s, {len(turns):,} turns, longest {1000 * longest:.0f} ms, 99th percentile "
          f"{1000 * p99:.0f} ms, {job_cpu:.1f} s CPU ({job_wall:.1f} s wall); at once {once_cpu:.1f} s CPU "
          f"({once_wall:.1f} s wall, frozen); at once / longest turn {once_wall / max(longest, 1e-9):.0f}x; "
          f"same bytes: {same}")
    win.wb.cancel()
    app.quit()


if __name__ == "__main__":
    main()
