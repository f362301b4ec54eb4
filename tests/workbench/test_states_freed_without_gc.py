"""A filter the window no longer shows is freed as soon as nothing holds it, without Python's cyclic collector.

While the window's event loop runs, cyclic garbage is collected by a timer on the GUI thread, and everything
alive when the loop started is frozen out of collection (gui/gui_thread_gc.py): a filter made before it (``--m``
on the command line) and later replaced was kept for the whole session when its state freed it only through a
cycle (the truth's rows held a bound method of the truth, which holds the filter)."""

from __future__ import annotations

import gc
import weakref

import pytest

from bloomviz.workbench.model import Workbench


@pytest.fixture
def no_cyclic_gc():
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("variant, params", [("standard", {}), ("counting", {"counter_bits": 4})])
def test_a_replaced_filter_and_its_truth_are_freed_by_reference_counting(no_cyclic_gc, variant, params):
    wb = Workbench(probes=100)
    assert wb.configure(m=1 << 12, k=3, variant=variant, **params)
    for i in range(20):
        wb.insert(f"item {i}")
    wb.insert_batch([f"batch {i}" for i in range(50)])
    old_filter, old_truth = weakref.ref(wb.filter), weakref.ref(wb.state.truth)
    assert wb.configure(m=1 << 10, k=3)
    wb.undo_stack.cut(0)        # no undo step holds the old state any more
    wb.numbers()                # (the last numbers' cache names the filter they were asked of)
    assert old_truth() is None and old_filter() is None
