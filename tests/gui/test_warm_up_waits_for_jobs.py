"""With the auto-play's kernels served from the native kernel cache, the warm-up loads numba (~0.5 s of CPU,
mostly holding the interpreter's lock) only once no window's model has run a job for a moment: beside an
auto-play started at once, that load made the auto-play 2-3x a warm one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import weakref

import numpy as np
import pytest

from bloomviz.gui import warm_up
from bloomviz.hashing import cold_paths


class _Model:
    busy = True


@pytest.fixture(autouse=True)
def _no_cold_batch_yet(monkeypatch):
    """A window test run earlier in this process may have run a numpy path while its warm-up loaded numba,
    which marks numba wanted for the rest of the process (cold_paths.note_cold_batch)."""
    monkeypatch.setattr(cold_paths, "_wanted", threading.Event())


def _waits_while_busy(model, wait, why: str) -> None:
    """``wait()`` in a thread does not return while ``model`` is busy, and returns True once it is not."""
    answer, done = [], threading.Event()
    waiter = threading.Thread(target=lambda: (answer.append(wait()), done.set()))
    waiter.start()
    assert not done.wait(0.5), why
    model.busy = False
    assert done.wait(30)
    waiter.join()
    assert answer == [True]


def test_numba_waits_until_no_model_has_been_busy_for_a_moment(monkeypatch):
    model = _Model()
    models = weakref.WeakSet([model])
    monkeypatch.setattr(warm_up, "models", models)
    monkeypatch.setattr(warm_up, "QUIET_BEFORE_NUMBA_S", 0.1)
    _waits_while_busy(model, warm_up.quiet_for_numba, "went ahead while a job was running")


def test_with_no_job_running_it_goes_ahead(monkeypatch):
    monkeypatch.setattr(warm_up, "models", weakref.WeakSet())
    monkeypatch.setattr(warm_up, "QUIET_BEFORE_NUMBA_S", 0.05)
    assert warm_up.quiet_for_numba()


def test_a_batch_that_needed_numbas_own_code_ends_the_wait(monkeypatch):
    """A job whose batches the cache does not serve (they ran numpy paths meanwhile) wants numba now."""
    model = _Model()
    monkeypatch.setattr(warm_up, "models", weakref.WeakSet([model]))
    monkeypatch.setattr(warm_up, "QUIET_BEFORE_NUMBA_S", 3_600)
    monkeypatch.setattr(cold_paths, "_warming", threading.Event())
    cold_paths.note_cold_batch()                 # before the warm-up was scheduled: not counted
    assert not cold_paths.compiled_wanted()
    cold_paths._warming.set()
    cold_paths.mixed_rows(np.array([1], dtype=np.uint64), np.array([3], dtype=np.uint64), 1_000, 3)
    assert cold_paths.compiled_wanted()
    assert warm_up.quiet_for_numba()                 # at once, though a job runs and the quiet time is an hour


def test_the_caches_build_waits_for_quiet_even_when_numba_was_wanted(monkeypatch):
    model = _Model()
    monkeypatch.setattr(warm_up, "models", weakref.WeakSet([model]))
    monkeypatch.setattr(warm_up, "QUIET_BEFORE_NUMBA_S", 0.1)
    wanted = threading.Event()
    wanted.set()
    monkeypatch.setattr(cold_paths, "_wanted", wanted)
    _waits_while_busy(model, lambda: warm_up.quiet_for_numba(wanted_ends=False), "built beside a running job")


IMPORT_IN_STEPS = textwrap.dedent("""
    import json, sys, threading, time, weakref
    from bloomviz.gui import warm_up

    class Model:
        busy = True

    model = Model()
    warm_up.models = weakref.WeakSet([model])
    done = threading.Event()
    loader = threading.Thread(target=lambda: (warm_up._import_numba(warm_up._pause_for_jobs), done.set()))
    loader.start()
    finished_while_busy = done.wait(0.5)
    import colorsys     # a first import on the GUI thread while the load is paused holding the import lock
    model.busy = False
    print(json.dumps([finished_while_busy, "colorsys" in sys.modules, done.wait(60), "numba.core" in sys.modules]))
""")


def test_numbas_import_waits_between_its_modules_while_a_job_runs_and_never_blocks_an_import():
    """The warm-up's ``import numba`` pauses before each of numba's modules while a model is busy (a job started
    during the import runs beside one module's import, not ~0.25 s of CPU); a first import on the GUI thread
    meanwhile, which waits for the lock the paused step holds, ends the pause instead of hanging."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    run = subprocess.run([sys.executable, "-c", IMPORT_IN_STEPS], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=root), cwd=root)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == [False, True, True, True]
