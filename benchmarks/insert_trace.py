"""The data flow of one insert typed into the window: how many Python calls of bloomviz's own code it makes,
through how many files, and how often the flow goes back into a file it had already left; how many times the
item was hashed and the theory computed. Each against its goal (issue 22: <= 60 calls, <= 12 files, hashed
once, theory computed once).

    python benchmarks/insert_trace.py            # prints the counts and the goals
    python benchmarks/insert_trace.py -v         # and the calls per file

The bloomviz traced is the one beside this script (its folder is put first on the path): run from another
checkout, the editable install's copy answered and no call fell under this folder, so it printed 0 calls.
A hashing is a run of a hash function over the item, from the moment it is typed (the item panel shows its
positions as it is typed) to the end of the insert: a call of ``mmh3``'s C functions, of ``hashlib``'s
SHA-256 or of ``fnv1a64`` (a kept result asked for again, as the explanation asks for the item's MurmurHash
halves, is not a run); a theory computation is an entry into ``theory/curves.py`` or ``theory/exact_rate.py``
from outside ``theory/``.

The insert is the item panel's (what Enter in the item box does), on a window that is already showing a
filter with 200 items, with every view connected. What the views leave to the event loop (the Explain panel
explains in the next turn, Qt repaints the grid and the history table, the throttled status line, plot and
scrolling) is counted too and printed beside it: everything the loop runs in the ``LATER_MS`` after the insert
(which turn takes a throttled redraw depends on the machine's speed; their sum is steadier). Counts, not times.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from PySide6 import QtCore, QtWidgets  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
ROOT = str(REPO / "bloomviz")
COMPREHENSIONS = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}
THEORY = ("theory/curves.py", "theory/exact_rate.py")
HASH_BUILTINS = {"openssl_sha256", "sha256"}
GOALS = {"calls": 60, "files": 12, "hashings": 1, "theories": 1}
LATER_MS = 400      # the event loop's work after the insert counted this long (the slowest throttle is 250 ms)


def trace_one_insert(win, item: str, entries: dict | None = None, after: dict | None = None) -> list[str]:
    """The files of every call of bloomviz code, in order; ``entries`` (if given) gets "hashings" and
    "theories", the counts of entries into hashing with the item's bytes and into the theory's curves.
    ``after`` (if given) gets "deferred": the files of the calls the insert left to the event loop, everything
    it runs in the ``LATER_MS`` after the insert (the refresh of its next turns: the explanation, repaints; and
    the throttled redraws: status line, plot, the history's scrolling; which of them falls in which turn depends
    on the machine's speed, their sum does not), and under "deferred entries" their hashings and theories."""
    files: list[str] = []
    counts = {"hashings": 0, "theories": 0}

    def inside(frame, folder: str) -> bool:
        name = frame.f_code.co_filename if frame is not None else ""
        return name.startswith(ROOT) and name[len(ROOT) + 1:].startswith(folder)

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "c_call":
            if getattr(arg, "__module__", None) == "mmh3" or getattr(arg, "__name__", "") in HASH_BUILTINS:
                counts["hashings"] += 1
            return
        # a generator's or comprehension's every step is a "call" event: count functions, not loop turns
        if event == "call" and code.co_filename.startswith(ROOT) and code.co_name not in COMPREHENSIONS:
            rel = code.co_filename[len(ROOT) + 1:]
            files.append(rel)
            if code.co_name == "fnv1a64":
                counts["hashings"] += 1
            elif rel in THEORY and not inside(frame.f_back, "theory/"):
                counts["theories"] += 1

    def typing(_frame, event, arg):   # the item panel shows the typed item's positions: it is hashed there
        profile(_frame, event, arg) if event == "c_call" else None

    sys.setprofile(typing)
    try:
        win.item_panel.line.setText(item)
    finally:
        sys.setprofile(None)
    sys.setprofile(profile)
    try:
        win.item_panel.insert()
    finally:
        sys.setprofile(None)
    if entries is not None:
        entries.update(counts)
    if after is None:
        return files
    sync = list(files)
    files.clear()
    counts.update(hashings=0, theories=0)
    sys.setprofile(profile)
    try:
        # a real event loop for LATER_MS, as the application runs it: it waits when nothing is due (polling with
        # processEvents() instead ran thousands of empty turns, and the turn watch's hook counted each of them)
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(LATER_MS, loop.quit)
        loop.exec()
    finally:
        sys.setprofile(None)
    after["deferred"] = list(files)
    after["deferred entries"] = dict(counts)
    return sync


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
    after: dict = {}
    trace_one_insert(win, "warm-up", after={})     # first calls import lazily: not the steady state
    entries: dict = {}
    files = trace_one_insert(win, "typed by a student", entries, after)
    calls, distinct, back = summary(files)
    print(f"one typed insert: {calls} calls of bloomviz code through {distinct} files, "
          f"{back} returns to a file already left")
    print(f"  the item hashed {entries['hashings']} times, the theory computed {entries['theories']} times")
    found = {"calls": calls, "files": distinct, **entries}
    print("  goal (issue 22): " + ", ".join(
        f"{name} <= {most} ({'met' if found[name] <= most else f'{found[name]}: not met'})"
        for name, most in GOALS.items()))
    d_calls, d_files, d_back = summary(after["deferred"])
    e = after["deferred entries"]
    print(f"  and left to the event loop (the next turns and the throttled redraws within {LATER_MS} ms: explanation, "
          f"repaints, status line, plot): {d_calls} calls through {d_files} files, {d_back} returns; hashed "
          f"{e['hashings']} times, the theory computed {e['theories']} times")
    if "-v" in sys.argv:
        from collections import Counter
        for title, calls_of in (("the insert", files), ("left to the event loop", after["deferred"])):
            print(f" {title}:")
            for f, n in Counter(calls_of).most_common():
                print(f"  {n:4d}  {f}")
    win.close()


if __name__ == "__main__":
    main()
