"""The first auto-play's first-time work done in idle turns after the first paint (gui/idle_warm_up.py): one
step a turn, in order, none while a job runs, a failing step skipped; the steps import the native cache's kernel
modules and keep the allocator's freed blocks (only in a process whose application asked for that)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from bloomviz.gui import idle_warm_up
from bloomviz.hashing import native_kernels


def test_the_steps_run_after_start_returns_in_order_and_then_report_done(qtbot):
    ran = []
    run = idle_warm_up.IdleSteps([lambda i=i: ran.append(i) for i in range(5)], busy=lambda: False)
    run.start()
    assert ran == [] and not run.done, "nothing inside the turn that started them"
    qtbot.waitUntil(lambda: run.done)
    assert ran == [0, 1, 2, 3, 4] and run.ran == 5


def test_no_step_runs_while_a_job_runs(qtbot, monkeypatch):
    monkeypatch.setattr(idle_warm_up, "BUSY_RETRY_MS", 1)
    asked, ran, busy = [], [], [True]
    run = idle_warm_up.IdleSteps([lambda: ran.append(1)], busy=lambda: asked.append(1) or busy[0])
    run.start()
    qtbot.waitUntil(lambda: len(asked) >= 5)
    assert ran == [] and not run.done
    busy[0] = False
    qtbot.waitUntil(lambda: run.done)
    assert ran == [1]


def test_a_step_that_raises_is_skipped_and_the_others_run(qtbot):
    ran = []

    def broken():
        raise ImportError("no such module")
    run = idle_warm_up.IdleSteps([broken, lambda: ran.append("after")], busy=lambda: False)
    run.start()
    qtbot.waitUntil(lambda: run.done)
    assert ran == ["after"] and run.ran == 2


def _fresh(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_steps_import_every_native_kernel_module_and_the_ir_builder():
    """In a fresh process (this one has imported them already): each step imports its own module."""
    found = _fresh("""
        import json, sys
        from bloomviz.gui import idle_warm_up
        from bloomviz.hashing import native_kernels
        modules = sorted({kernel.rsplit(".", 1)[0] for kernel in native_kernels.KERNELS}) + ["llvmlite.ir"]
        before = [name for name in modules if name in sys.modules]
        for step in idle_warm_up.steps():
            step()
        print(json.dumps({"before": before, "missing": [n for n in modules if n not in sys.modules]}))
    """)
    assert found["missing"] == []
    assert "llvmlite.ir" not in found["before"], "the first auto-play's largest import, left to the steps"
    assert len(native_kernels.KERNELS) > 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_the_allocator_keeps_freed_blocks_only_where_the_application_asked_for_it():
    """A program using bloomviz as a library keeps its allocator as it set it; the window (and the command line)
    ask for freed blocks to be kept."""
    found = _fresh("""
        import json
        from bloomviz.filters import bitstore
        library = bitstore.keep_freed_memory_now()
        bitstore.keep_freed_memory_for_big_filters()
        print(json.dumps({"library": library, "application": bitstore.keep_freed_memory_now()}))
    """)
    assert found == {"library": False, "application": True}



_WRITE_AFTER_STEPS = """
    import json, resource
    import numpy as np
    from bloomviz.filters import bitstore
    from bloomviz.gui import idle_warm_up
    bitstore.keep_freed_memory_for_big_filters()
    for step in idle_warm_up.steps()[:{count}]:
        step()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    columns = [np.empty(1_000_000) for _ in range(3)]
    for column in columns:
        column[:] = 1.0
    print(json.dumps({{"faults": resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before,
                      "held": len(idle_warm_up._held)}}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt and heap: Linux only")
def test_the_heap_steps_leave_faulted_memory_that_a_later_job_writes_without_faulting():
    """A job's 24 MB of new arrays (an auto-play's series columns): fresh pages after the allocator step alone
    (hundreds of faults with huge pages, thousands without), written without faulting after the heap steps."""
    fresh = _fresh(_WRITE_AFTER_STEPS.format(count=1))
    warmed = _fresh(_WRITE_AFTER_STEPS.format(count=1 + len(idle_warm_up._heap_steps())))
    assert fresh["faults"] > 100, fresh
    assert warmed["faults"] < fresh["faults"] // 10, (warmed, fresh)
    assert warmed["held"] == 0, "the last heap step gives every held block back"


def test_a_job_starting_gets_the_memory_a_heap_step_holds(qtbot, monkeypatch):
    monkeypatch.setattr(idle_warm_up, "BUSY_RETRY_MS", 1)
    given, busy = [], [True]
    monkeypatch.setattr(idle_warm_up, "give_back_heap", lambda: given.append(1))
    run = idle_warm_up.IdleSteps([lambda: None], busy=lambda: busy[0])
    run.start()
    qtbot.waitUntil(lambda: len(given) >= 1)
    busy[0] = False
    qtbot.waitUntil(lambda: run.done)
