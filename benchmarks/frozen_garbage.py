"""What the window's frozen start-up objects keep after they die in a cycle (gui/gui_thread_gc.py).

    python benchmarks/frozen_garbage.py [--args "--m 100000000"] [--work all]

``collect_on_gui_thread`` calls ``gc.freeze()`` as the event loop starts: everything alive then is left out of
every collection until the loop ends, so whatever of it later becomes garbage *in a cycle* stays. This runs the
window as ``gui.app.main`` does (with ARGS), does a person's work inside the loop (every tab shown, a new filter,
a bulk insert, a saved filter opened, a scenario run to its end and one cancelled, the theme and text size
changed, undo), then collects what is collectable (``gc.collect()``), unfreezes and collects again with
``gc.DEBUG_SAVEALL``: the second collection's objects are exactly those the freeze kept. Prints their count, an
estimate of their bytes (``sys.getsizeof`` plus numpy and bitarray buffers) and the largest kinds, and ONE JSON
line. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import os
import shlex
import sys
import tempfile
import weakref

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def size_of(obj) -> int:
    size = sys.getsizeof(obj, 0)
    nbytes = getattr(obj, "nbytes", None)     # numpy arrays, bitarrays: their buffers (a view's is not its size)
    if isinstance(nbytes, int) and size < nbytes:
        size += nbytes
    return size


def kept_by_freeze() -> dict:
    gc.collect()                     # what any collection finds: not the freeze's doing
    frozen = gc.get_freeze_count()
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.unfreeze()
    gc.collect()
    garbage, gc.garbage[:] = list(gc.garbage), []
    gc.set_debug(0)
    kinds: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    seen: set[int] = set()
    # what the collector tracks (containers), and what they alone hold that it does not track (numpy arrays,
    # bytes, strings: freed with their holder, never listed themselves)
    for obj in garbage + [r for g in garbage for r in gc.get_referents(g) if not gc.is_tracked(r)]:
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        kind = kinds[f"{type(obj).__module__}.{type(obj).__qualname__}"]
        kind[0] += 1
        kind[1] += size_of(obj)
    top = sorted(kinds.items(), key=lambda kv: -kv[1][1])[:12]
    return {"frozen_objects": frozen, "kept_objects": len(seen), "kept_bytes": sum(v[1] for v in kinds.values()),
            "largest_kinds": [(name, count, size) for name, (count, size) in top]}


class Answers:
    """The File menu's dialogs answered here (never a modal dialog): no file chosen, changes discarded."""

    def __init__(self):
        self.errors: list = []

    def open_path(self, *args):
        return ""

    save_path = open_path

    def ask_unsaved(self, text):
        return "discard"

    def error(self, title, text, details=""):
        self.errors.append(text)

    def info(self, title, text, details=""):
        pass


def work(window, app, saved_path: str, steps: list) -> None:
    """A person's session, one step per turn of the loop (each step waits for the job it started)."""
    from PySide6 import QtCore

    wb = window.wb

    def settle(ms: int = 10) -> None:
        QtCore.QThread.msleep(ms)
        app.processEvents()

    def until_idle() -> None:
        while wb.busy:
            settle()

    for key in list(window._tab_keys):      # every tab made and shown, then back to the filter
        window.show_tab(key)
        settle()
    window.show_tab("filter")
    steps.append("tabs")
    print("tabs shown", file=sys.stderr, flush=True)
    wb.design(20_000, 0.01)
    wb.insert_many([f"item {i}" for i in range(20_000)])
    until_idle()
    steps.append("bulk insert")
    window.file_actions.open_path(saved_path, ask=False)
    until_idle()
    settle()
    steps.append("open file")
    if window.scenarios.run("contacts"):
        until_idle()
        steps.append("scenario")
    if window.scenarios.run("passwords"):
        settle()
        wb.cancel()
        until_idle()
        steps.append("scenario cancelled")
    window.set_dark(True, remember=False)
    settle()
    window.set_dark(False, remember=False)
    settle()
    steps.append("theme")
    while wb.undo():
        settle(0)
    steps.append("undo to the start")
    wb.configure(64, 3)
    wb.undo_stack.cut(0)        # no undo step holds an earlier state any more
    settle()
    steps.append("new filter, undo steps forgotten")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--args", default="", help="the window's command line (as a person gives it)")
    parser.add_argument("--work", choices=("all", "none"), default="all")
    parser.add_argument("--plant", action="store_true",
                        help="check the measure: a 10 MB cycle made before the loop and let go inside it must show")
    opts = parser.parse_args()

    from PySide6 import QtCore, QtWidgets

    from bloomviz.core import BloomFilter
    from bloomviz.files import storage
    from bloomviz.gui import app as gui_app

    qapp = QtWidgets.QApplication.instance() or QtWidgets.QApplication(["bloomviz"])
    folder = tempfile.mkdtemp(prefix="frozen-garbage-")
    saved = os.path.join(folder, "saved.bloom")
    flt = BloomFilter(1 << 20, 5)
    flt.update(f"saved {i}" for i in range(50_000))
    storage.save(flt, saved)
    os.environ["XDG_CONFIG_HOME"] = folder            # the window's settings go to the temporary folder
    result: dict = {}
    steps: list = []
    planted = []
    if opts.plant:
        import numpy as np
        cycle = {"buffer": np.ones(10_000_000, dtype=np.uint8)}
        cycle["self"] = cycle
        planted.append(cycle)
        del cycle

    def in_loop() -> None:
        window = next(w for w in qapp.topLevelWidgets() if hasattr(w, "wb"))
        window.file_actions.dialogs = Answers()
        try:
            planted.clear()
            start = weakref.ref(window.wb.state)      # the state built before the loop: frozen with it
            if opts.work == "all":
                work(window, qapp, saved, steps)
            result["start_state_freed_before_unfreeze"] = start() is None
            result.update(kept_by_freeze())
        finally:
            gc.freeze()          # as it was: the context's exit unfreezes
            window.close()
            qapp.quit()

    QtCore.QTimer.singleShot(500, in_loop)   # inside the loop, after the first paint and the tabs' parts
    gui_app.main(shlex.split(opts.args))
    result.update(args=opts.args, steps=steps)
    for name, count, size in result.get("largest_kinds", []):
        print(f"  {name:60s} {count:8,d} objects {size / 1e6:9.3f} MB")
    print(f"kept by the freeze: {result.get('kept_objects', 0):,} objects, "
          f"{result.get('kept_bytes', 0) / 1e6:.2f} MB (of {result.get('frozen_objects', 0):,} frozen)")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
