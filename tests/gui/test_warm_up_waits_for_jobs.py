"""With the auto-play's kernels served from the native kernel cache, the warm-up loads numba (~0.5 s of CPU,
mostly holding the interpreter's lock) only once no window's model has run a job for a moment: beside an
auto-play started at once, that load made the auto-play 2-3x a warm one."""

from __future__ import annotations

import threading
import weakref

from bloomviz.gui import workbench as gw


class _Model:
    busy = True


def test_numba_waits_until_no_model_has_been_busy_for_a_moment(monkeypatch):
    model = _Model()
    models = weakref.WeakSet([model])
    monkeypatch.setattr(gw, "_models", models)
    monkeypatch.setattr(gw, "QUIET_BEFORE_NUMBA_S", 0.1)
    answer, done = [], threading.Event()
    waiter = threading.Thread(target=lambda: (answer.append(gw._quiet_for_numba()), done.set()))
    waiter.start()
    assert not done.wait(0.5), "went ahead while a job was running"
    model.busy = False
    assert done.wait(30)
    waiter.join()
    assert answer == [True]


def test_with_no_job_running_it_goes_ahead(monkeypatch):
    monkeypatch.setattr(gw, "_models", weakref.WeakSet())
    monkeypatch.setattr(gw, "QUIET_BEFORE_NUMBA_S", 0.05)
    assert gw._quiet_for_numba()
