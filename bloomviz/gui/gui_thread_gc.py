"""Python's cyclic garbage collection only on the GUI thread, between two turns of the event loop.

CPython collects in whichever thread allocates past its threshold. The window runs Python on other threads (the
warm-up compiling numba code, the explorer's curves, a lesson's job), so a cycle holding a Qt object (a
pyqtgraph item's wrapper, a widget) could be collected there, its C++ destructor running off the GUI thread;
and on the GUI thread a collection can start inside Qt's own loops (a theme change re-polishes every widget,
calling Python on the way), deleting a widget Qt is walking. A segfault was seen once in ``theme.apply_theme``
while the warm-up thread compiled numba code; it was not reproduced (a stress of theme changes against a
thread allocating cycles, 6 runs of 15 s, did not crash), so this closes the door the traceback points at.

pyqtgraph ships the cure for exactly this (``pyqtgraph.util.garbage_collector.GarbageCollector``: "ensure
that garbage collection only happens in the GUI thread, as otherwise Qt can crash"): automatic collection
off, and a timer on the GUI thread collecting each generation whose count passed its threshold. Used around
the window's event loop only (``gui.app.main``), and undone after it: tests and scripts keep Python's default.
"""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator

INTERVAL_S = 1.0     # pyqtgraph's default: cycles wait at most this long, which only memory notices


@contextlib.contextmanager
def collect_on_gui_thread(interval_s: float = INTERVAL_S) -> Iterator[None]:
    """Within the block, cyclic garbage is collected by a timer of the calling (GUI) thread only."""
    from pyqtgraph.util.garbage_collector import GarbageCollector
    was_enabled = gc.isenabled()
    # The objects alive now (the window as built, the modules, compiled code: ~165,000) are never traversed
    # again: a collection of the oldest generation walked them all, 81 ms of the GUI thread in one turn
    # (benchmarks/bench_stalls.py), once every ten collections of the middle one here. The price: what was alive
    # then and later dies in a cycle stays until the loop ends, so the model's states (a filter made by --m before
    # the loop) are kept free of cycles and go by reference counting (tests/workbench/test_states_freed_without_gc.py).
    # Measured (benchmarks/frozen_garbage.py: unfreeze, then what a collection finds): after every tab shown, a
    # bulk insert, a file opened, a scenario run and one cancelled, theme changes and undo to the start, the
    # freeze kept 0 objects, for a window started plain, with --m 10^8, --demo, --scenario, --lesson or --tab.
    gc.freeze()
    collector = GarbageCollector(interval=interval_s)
    try:
        yield
    finally:
        collector.timer.stop()
        gc.unfreeze()
        if was_enabled:
            gc.enable()
