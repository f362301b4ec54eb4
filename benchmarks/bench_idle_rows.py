"""The longest GUI-thread turn spent making an auto-play's truth rows, without and with the idle filling
(gui/workbench.py ``_fill_rows``), in one process.

    python benchmarks/bench_idle_rows.py [--n N]

Each side: a QtWorkbench (m = 9,585,059, k = 7), an auto-play job of N generated items run to its end, then
- without: the idle filler off (as before it existed): the first culprit search (``items_at_bit``, what a grid
  hover asks) makes every deferred row in its own turn;
- with: a grid hover at once (``hover_text``, before any idle turn: it makes at most HOVER_ROWS rows), then
  the event loop turns until the filler has made every row (each slice timed), then the same search.
Prints each side's longest turn (wall and thread CPU, ms) and their ratio; last, one JSON line with the load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtWidgets  # noqa: E402

from bloomviz.gui.workbench import QtWorkbench  # noqa: E402
from bloomviz.items.generated import GeneratedItems, GeneratedRun  # noqa: E402
from bloomviz.workbench.truth import PositionRows  # noqa: E402


def _timed(call):
    w, c = time.perf_counter(), time.thread_time()
    out = call()
    return out, (time.perf_counter() - w) * 1e3, (time.thread_time() - c) * 1e3


def _played(app, n: int, seed: int) -> QtWorkbench:
    wb = QtWorkbench(probes=2_000)
    wb.configure(9_585_059, 7, capacity=n)
    source, at = GeneratedItems(10 ** 8, seed=seed), [0]

    def take(count):
        run = GeneratedRun(source, at[0], min(n, at[0] + count))
        at[0] = run.stop
        return run
    assert wb.run_job(take, n, "auto-play items")
    wb.run_to_end()
    return wb


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10 ** 6)
    args = ap.parse_args()
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])

    before = _played(app, args.n, 1)
    before._filler.stop()
    before._fill_rows = lambda: False                      # the window as it was: nothing fills the rows
    app.processEvents()
    assert before.state.truth.rows.deferred_rows == args.n
    cell = 12_345
    _, hover_w0, hover_c0 = _timed(lambda: before.items_at_bit(cell))

    after = _played(app, args.n, 1)
    _, early_w, early_c = _timed(lambda: after.hover_text(cell))
    slices = []
    make = PositionRows.make_some

    def timed_make(self, rows=1 << 16):
        more, w, c = _timed(lambda: make(self, rows))
        slices.append((w, c))
        return more
    PositionRows.make_some = timed_make
    rows = after.state.truth.rows
    turns = 0
    while rows.deferred_rows:
        app.processEvents()
        turns += 1
    PositionRows.make_some = make
    _, hover_w1, hover_c1 = _timed(lambda: after.items_at_bit(cell))
    assert before.items_at_bit(cell, 10 ** 6) == after.items_at_bit(cell, 10 ** 6)
    slice_w, slice_c = max(w for w, _ in slices), max(c for _, c in slices)
    longest_w, longest_c = max(slice_w, hover_w1, early_w), max(slice_c, hover_c1, early_c)
    print(f"n = {args.n:,} auto-played, m = 9,585,059, k = 7")
    print(f"without the filler: first hover {hover_w0:8.1f} ms wall {hover_c0:8.1f} ms CPU (makes {args.n:,} rows)")
    print(f"with the filler:    {len(slices)} slices in {turns} loop passes, longest slice {slice_w:.1f} ms wall "
          f"{slice_c:.1f} ms CPU; first hover {hover_w1:.1f} ms wall {hover_c1:.1f} ms CPU")
    print(f"                    a hover before any idle turn {early_w:.1f} ms wall {early_c:.1f} ms CPU")
    print(f"longest turn on rows: {hover_w0:.1f} -> {longest_w:.1f} ms wall (ratio {longest_w / hover_w0:.3f}), "
          f"{hover_c0:.1f} -> {longest_c:.1f} ms CPU (ratio {longest_c / hover_c0:.3f})")
    print(json.dumps({"n": args.n, "before_ms": round(hover_w0, 2), "before_cpu_ms": round(hover_c0, 2),
                      "slice_ms": round(slice_w, 2), "early_hover_ms": round(early_w, 2), "hover_after_ms": round(hover_w1, 2),
                      "longest_after_ms": round(longest_w, 2), "slices": len(slices), "load": os.getloadavg()}))


if __name__ == "__main__":
    main()
