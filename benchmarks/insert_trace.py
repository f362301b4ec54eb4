"""The data flow of one insert typed into the window: how many Python calls of bloomviz's own code it makes,
through how many files, and how often the flow goes back into a file it had already left.

    python benchmarks/insert_trace.py            # prints: calls, files, returns to a file already left

The insert is the item panel's (what Enter in the item box does), on a window that is already showing a
filter with 200 items, with every view connected; timers that fire later (throttled redraws) are not part of
it. Counts, not times: the same on any machine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtWidgets  # noqa: E402

ROOT = str(Path(__file__).resolve().parent.parent / "bloomviz")
COMPREHENSIONS = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}


def trace_one_insert(win, item: str) -> list[str]:
    files: list[str] = []

    def profile(frame, event, _arg):
        code = frame.f_code
        # a generator's or comprehension's every step is a "call" event: count functions, not loop turns
        if event == "call" and code.co_filename.startswith(ROOT) and code.co_name not in COMPREHENSIONS:
            files.append(code.co_filename[len(ROOT) + 1:])

    win.item_panel.line.setText(item)
    sys.setprofile(profile)
    try:
        win.item_panel.insert()
    finally:
        sys.setprofile(None)
    return files


def summary(files: list[str]) -> tuple[int, int, int]:
    seen, back, last = set(), 0, None
    for f in files:
        if f != last and f in seen:
            back += 1
        seen.add(f)
        last = f
    return len(files), len(seen), back


def main() -> None:
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    from bloomviz.gui.main_window import MainWindow
    win = MainWindow()
    win.show()
    for i in range(200):
        win.wb.insert(f"warm {i}")
    app.processEvents()
    trace_one_insert(win, "warm-up")           # first calls import lazily: not the steady state
    files = trace_one_insert(win, "typed by a student")
    calls, distinct, back = summary(files)
    print(f"one typed insert: {calls} calls of bloomviz code through {distinct} files, "
          f"{back} returns to a file already left")
    if "-v" in sys.argv:
        from collections import Counter
        for f, n in Counter(files).most_common():
            print(f"  {n:4d}  {f}")
    win.close()


if __name__ == "__main__":
    main()
