"""Speed of the window, offscreen: grid updates, full redraws, cold start, responsiveness during bulk work.

    python benchmarks/bench_gui.py [--n N] [--quick]

Measured here, in one process with the full main window shown offscreen at 1440 x 900 (startup in a fresh
subprocess each time):

- grid_update_ms: after one insert into a filter of m = 10,000,000 bits, the window's handlers that update the
  grid's cells and highlights from the workbench's signals, plus a repaint of the grid view (median of 101
  inserts; the other panels' repaints are held back while this is timed, and reported separately as the
  whole insert's round trip). Target <= 5 ms.
- grid_redraw_ms: a full redraw of that grid: every bit read from the filter, the picture rebuilt, the view
  repainted (median). Target <= 30 ms.
- startup_s: a cold `python -c "from bloomviz.gui.app import main; main([])"` to the window's first paint
  (median of 3). Target <= 2 s.
- max_stall_ms: the longest the event loop was away while N (default 1,000,000) items were inserted as fast as
  possible: a 5 ms QTimer heartbeat, its largest gap minus 5 ms. Target <= 100 ms.
- bulk_vs_core: the window's time for that bulk insert (insert_many: chunks from the event loop, with the grid,
  plot, history, status and progress all live) divided by the core doing the same work on the same items in a
  plain loop: positions_many, the exact tracker's insert_batch and series_rows per 65,536-item chunk (what
  `Simulation.run` does). Target <= 3. For reference the table also gives the ratio against a bare
  BloomFilter.update, which measures nothing, and the auto-play path (items generated on the fly).

Prints a table, then ONE JSON line with the keys grid_update_ms, grid_redraw_ms, startup_s, max_stall_ms,
bulk_vs_core.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from PySide6 import QtCore, QtWidgets  # noqa: E402

from bloomviz.measure.experiment import FpTracker, Series, series_rows  # noqa: E402
from bloomviz.filters.standard import BloomFilter  # noqa: E402
from bloomviz.gui.filter_tab.autoplay import MAX_RATE, ItemStream  # noqa: E402
from bloomviz.workbench.limits import design_params# noqa: E402

GRID_M = 10_000_000
GRID_K = 7
HEARTBEAT_MS = 5
SCRATCH = tempfile.mkdtemp(prefix="bloomviz-bench-gui-")   # settings files: never the user's own


def wait_for(app, signal, timeout_s: float = 120.0) -> None:
    loop = QtCore.QEventLoop()
    signal.connect(loop.quit)
    QtCore.QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    signal.disconnect(loop.quit)


def repaint_grid(win) -> None:
    win.grid.graphics_widget.viewport().repaint()


def bench_grid(app, win) -> tuple[float, float, float]:
    wb = win.wb
    wb.configure(GRID_M, GRID_K)
    wb.insert_batch(ItemStream("random", 99).take(300_000))   # a grid with texture, 19% full
    app.processEvents()
    # The grid's share of one insert: the window's handlers for the workbench's bitsChanged and highlighted
    # signals (cells and markers), then the grid view repainted. The other panels' repaints are held back
    # meanwhile (a repaint flushes every dirty widget of the window); the round trip below includes them.
    others = [d.widget() for d in win.docks.values()] + [win.statusBar(), win.grid_legend]
    for w in others:
        w.setUpdatesEnabled(False)
    handler_times: list[float] = []

    def timed(handler):
        def run(*args):
            t = time.perf_counter()
            handler(*args)
            handler_times.append(time.perf_counter() - t)
        return run

    on_bits, on_highlight = timed(win._on_bits_changed), timed(win._on_highlighted)
    wb.bitsChanged.disconnect(win._on_bits_changed)
    wb.highlighted.disconnect(win._on_highlighted)
    wb.bitsChanged.connect(on_bits)
    wb.highlighted.connect(on_highlight)
    updates = []
    for item in ItemStream("random", 5).take(101):
        handler_times.clear()
        wb.insert(item)
        t = time.perf_counter()
        repaint_grid(win)
        updates.append(sum(handler_times) + time.perf_counter() - t)
        app.processEvents()
    wb.bitsChanged.disconnect(on_bits)
    wb.highlighted.disconnect(on_highlight)
    wb.bitsChanged.connect(win._on_bits_changed)
    wb.highlighted.connect(win._on_highlighted)
    redraws = []
    for _ in range(11):
        t = time.perf_counter()
        win.grid.set_all(wb.grid_values())
        repaint_grid(win)
        redraws.append(time.perf_counter() - t)
        app.processEvents()
    for w in others:
        w.setUpdatesEnabled(True)
    app.processEvents()
    round_trip = []
    for item in ItemStream("random", 6).take(21):
        # the whole visible response: filter, tracker, plot row, history row, explanation, every repaint
        t = time.perf_counter()
        wb.insert(item)
        repaint_grid(win)
        round_trip.append(time.perf_counter() - t)
        app.processEvents()
    return (statistics.median(updates) * 1e3, statistics.median(redraws) * 1e3,
            statistics.median(round_trip) * 1e3)


def bench_startup(repeat: int = 3) -> float:
    times = []
    env = dict(os.environ, BLOOMVIZ_QUIT_AFTER_PAINT="1", QT_QPA_PLATFORM="offscreen",
               BLOOMVIZ_SETTINGS=os.path.join(SCRATCH, "startup.ini"))
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    for _ in range(repeat):
        env["BLOOMVIZ_T0"] = repr(time.time())
        out = subprocess.run([sys.executable, "-c", "from bloomviz.gui.app import main; raise SystemExit(main([]))"],
                             env=env, capture_output=True, text=True, timeout=60)
        line = next((ln for ln in out.stdout.splitlines() if ln.startswith("first-paint")), None)
        if out.returncode != 0 or line is None:
            raise RuntimeError(f"the window did not start: {out.stderr.strip()[-500:]}")
        times.append(float(line.split()[1]))
    return statistics.median(times)


def core_time(items: list[str], m: int, k: int, probes: list[str]) -> tuple[float, float]:
    """(the core's tracked batch path, a bare update) on the same items."""
    gc.collect()
    flt = BloomFilter(m, k)
    t = time.perf_counter()
    tracker = FpTracker(flt, probes)
    series = Series(capacity=len(items))
    for start in range(0, len(items), 65_536):
        chunk = items[start:start + 65_536]
        fp, bits = tracker.insert_batch(flt.positions_many(chunk), flt)
        n = np.arange(start + 1, start + len(chunk) + 1)
        series.extend(**series_rows(m, k, n, fp, len(probes), bits))
    tracked = time.perf_counter() - t
    gc.collect()
    bare = BloomFilter(m, k)
    t = time.perf_counter()
    bare.update(items)
    return tracked, time.perf_counter() - t


class Heartbeat:
    def __init__(self):
        self.last = None
        self.max_gap = 0.0
        self.timer = QtCore.QTimer()
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.setInterval(HEARTBEAT_MS)
        self.timer.timeout.connect(self.beat)

    def beat(self):
        now = time.perf_counter()
        if self.last is not None:
            self.max_gap = max(self.max_gap, now - self.last)
        self.last = now

    def start(self):
        self.last = None
        self.max_gap = 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return max(0.0, self.max_gap * 1e3 - HEARTBEAT_MS)


def window_bulk(app, win, items, m, k) -> tuple[float, float]:
    win.wb.configure(m, k, capacity=len(items))
    app.processEvents()
    gc.collect()
    beat = Heartbeat()
    beat.start()
    t = time.perf_counter()
    win.wb.insert_many(items, label="items")
    wait_for(app, win.wb.jobFinished)
    elapsed = time.perf_counter() - t
    stall = beat.stop()
    assert len(win.wb.filter) == len(items), "the bulk insert did not finish"
    return elapsed, stall


def autoplay_bulk(app, win, n, m, k) -> tuple[float, float]:
    win.wb.configure(m, k, capacity=n)
    app.processEvents()
    gc.collect()
    ap = win.autoplay
    ap.set_source("random", 1)
    ap.set_rate(MAX_RATE)
    ap.set_count(n)
    beat = Heartbeat()
    beat.start()
    t = time.perf_counter()
    ap.start()
    wait_for(app, win.wb.jobFinished)
    elapsed = time.perf_counter() - t
    stall = beat.stop()
    assert len(win.wb.filter) == n
    return elapsed, stall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="items in the bulk insert (default 1,000,000)")
    parser.add_argument("--quick", action="store_true", help="100,000 items, one repeat (a smoke run)")
    args = parser.parse_args()
    n = 100_000 if args.quick else args.n
    repeat = 1 if args.quick else 2

    from PySide6.QtCore import QSettings

    from bloomviz.gui.main_window import MainWindow
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    settings = QSettings(os.path.join(SCRATCH, "window.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings)
    win.resize(1440, 900)
    win.show()
    app.processEvents()

    grid_update, grid_redraw, round_trip = bench_grid(app, win)
    startup = bench_startup(1 if args.quick else 3)

    m, k = design_params(n, 0.01)
    items = ItemStream("random", 0).take(n)
    probes = win.wb.probes
    core_tracked, core_bare = min(core_time(items, m, k, probes) for _ in range(repeat + 1))
    runs = [window_bulk(app, win, items, m, k) for _ in range(repeat)]
    bulk = min(r[0] for r in runs)
    stall = max(r[1] for r in runs)
    auto_time, auto_stall = autoplay_bulk(app, win, n, m, k)
    stall_all = max(stall, auto_stall)
    win.close()

    rows = [
        ("grid update after one insert, m = 10^7 (median)", f"{grid_update:.2f} ms", "<= 5 ms"),
        ("  whole insert, every panel repainted (median)", f"{round_trip:.2f} ms", ""),
        ("full grid redraw, m = 10^7 (median)", f"{grid_redraw:.2f} ms", "<= 30 ms"),
        ("cold start to first paint (median)", f"{startup:.2f} s", "<= 2 s"),
        (f"window bulk insert of {n:,} items (best of {repeat})", f"{bulk:.2f} s", ""),
        (f"core tracked batch path, same items (best of {repeat + 1})", f"{core_tracked:.2f} s", ""),
        ("bulk_vs_core (window / core tracked)", f"{bulk / core_tracked:.2f}x", "<= 3x"),
        ("  window / bare BloomFilter.update (reference)", f"{bulk / core_bare:.2f}x", ""),
        (f"auto-play as fast as possible, {n:,} generated items", f"{auto_time:.2f} s", ""),
        ("max event-loop stall during bulk work", f"{stall_all:.1f} ms", "<= 100 ms"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>10}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>10}  {target}")
    print(json.dumps({"grid_update_ms": round(grid_update, 3), "grid_redraw_ms": round(grid_redraw, 3),
                      "startup_s": round(startup, 3), "max_stall_ms": round(stall_all, 1),
                      "bulk_vs_core": round(bulk / core_tracked, 3)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
