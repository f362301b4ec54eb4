"""Cyclic garbage is collected on the GUI thread only while the window's event loop runs (gui_thread_gc.py):
a thread allocating heavily (the warm-up compiling numba code) no longer runs a collection, so no Qt object of a
cycle is destroyed off the GUI thread; Python's default comes back after."""

from __future__ import annotations

import gc
import threading
import weakref

from bloomviz.gui.gui_thread_gc import collect_on_gui_thread


class _Cycle:
    def __init__(self):
        self.me = self


def test_cycles_are_collected_by_the_gui_threads_timer_and_not_by_a_busy_thread(qtbot):
    assert gc.isenabled()
    collected_on: list[int] = []
    stop = threading.Event()

    def allocate() -> None:          # as a compile does: many containers, past gen 0's threshold again and again
        while not stop.is_set():
            junk = [[i] for i in range(5_000)]
            for j in junk:
                j.append(j)

    with collect_on_gui_thread(interval_s=0.02):
        assert not gc.isenabled()
        cycle = _Cycle()
        weakref.finalize(cycle, lambda: collected_on.append(threading.get_ident()))
        del cycle
        worker = threading.Thread(target=allocate)
        worker.start()
        try:
            qtbot.waitUntil(lambda: bool(collected_on), timeout=10_000)
        finally:
            stop.set()
            worker.join()
    assert collected_on == [threading.get_ident()]      # by the timer, on this (the GUI) thread
    assert gc.isenabled()


def test_the_objects_alive_when_the_loop_starts_are_not_walked_by_its_collections(qtbot):
    held = [[i] for i in range(1_000)]           # alive before: the window as built stands for these
    assert gc.get_freeze_count() == 0
    with collect_on_gui_thread(interval_s=60):
        assert gc.get_freeze_count() >= len(held)
        young = [[i] for i in range(10)]
        tracked = {id(o) for o in gc.get_objects()}
        assert id(young[0]) in tracked and id(held[0]) not in tracked    # a full collection walks the new only
    assert gc.get_freeze_count() == 0 and id(held[0]) in {id(o) for o in gc.get_objects()}
