"""Next, Back and a jump in the Lesson tab run a heavy step as a job (issue 27 item 2): off the GUI thread with
progress and Cancel, and a cancelled step leaves the lesson at the previous one, its state exactly as it was."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("PySide6")

from bloomviz import lessons  # noqa: E402
from bloomviz.gui.lesson_tab import stepping  # noqa: E402
from bloomviz.gui.lesson_tab.view import LessonView  # noqa: E402
from window_helpers import FakeDialogs  # noqa: E402

HELD = """# Held

## One

```bloomviz
filter m=1000 k=3
insert a
```

## Two

```bloomviz
insert b
insert c
```

## Three

```bloomviz
insert d
```
"""


@pytest.fixture
def view(qtbot):
    v = LessonView(FakeDialogs())
    qtbot.addWidget(v)
    v.show()
    return v


def opened(view, qtbot, path) -> None:
    with qtbot.waitSignal(view.opening.finished, timeout=60000) as done:
        assert view.open_path(str(path))
    assert done.args == [True]


def test_a_cancelled_step_leaves_the_lesson_at_the_previous_one(view, qtbot, tmp_path, monkeypatch):
    path = tmp_path / "held.md"
    path.write_text(HELD)
    opened(view, qtbot, path)
    monkeypatch.setattr(stepping, "INLINE_SECONDS", -1.0)     # every move a job, however light
    assert view.next()
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    assert view.runner.position == 1
    before = view.runner.state.filter.copy()
    # held on the worker before the step's second action (its first insert made) until the test pressed Cancel
    release, reached = threading.Event(), threading.Event()
    report = view.opening.report

    def held(done, total):
        if (done, total) == (1, 2) and not release.is_set():
            reached.set()
            release.wait(30)
        return report(done, total)
    monkeypatch.setattr(view.opening, "report", held)
    assert view.next()
    qtbot.waitUntil(reached.is_set, timeout=20000)
    assert view.opening.running and view.opening.row.isVisible() and view.moving
    assert not view.next() and not view.back()      # one move at a time
    qtbot.waitUntil(lambda: "Step 2 of 3" in view.opening.label.text(), timeout=20000)   # the event loop turns
    view.opening.cancel_button.click()
    release.set()
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    assert view.runner.position == 1 and "stays at step 1 of 3" in view.message.text()
    assert view.runner.state.filter.bits == before.bits and len(view.runner.state.filter) == len(before)
    assert not view.moving and not view.opening.row.isVisible() and view.progress.text() == "step 1 of 3"
    # taken again, uncancelled, it ends where a run of the whole lesson does
    assert view.next()
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    whole = lessons.LessonRunner(view.lesson)
    whole.next(), whole.next()
    assert view.runner.position == 2 and view.runner.state.filter.bits == whole.state.filter.bits


def test_a_jump_back_and_forth_as_jobs_ends_where_the_steps_do(view, qtbot, tmp_path, monkeypatch):
    path = tmp_path / "held.md"
    path.write_text(HELD)
    opened(view, qtbot, path)
    monkeypatch.setattr(stepping, "INLINE_SECONDS", -1.0)
    view.go_to(3)
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    assert view.runner.position == 3 and view.progress.text() == "step 3 of 3"
    assert view.back()
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    two = lessons.LessonRunner(view.lesson)
    two.next(), two.next()
    assert view.runner.position == 2 and view.runner.state.filter.bits == two.state.filter.bits
    view.go_to(0)
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    assert view.runner.position == 0 and view.progress.text() == "3 steps"


def test_a_step_the_dry_run_measured_heavy_runs_off_the_gui_thread(view, qtbot, tmp_path):
    path = tmp_path / "heavy.md"
    path.write_text("# Heavy\n\n## Filter\n\n```bloomviz\nfilter m=1048576 k=7\n```\n\n"
                    "## Many\n\n```bloomviz\ninsert-random 1000000 seed=1\n```\n")
    opened(view, qtbot, path)
    lesson, seconds = view.opening.seconds
    assert lesson is view.lesson and seconds[1] > stepping.INLINE_SECONDS > seconds[0]
    assert view.next() and view.runner.position == 1          # light: at once, as before
    assert view.next()
    assert view.opening.running and view.runner.position == 1  # heavy: a job (the window's loop turns)
    qtbot.waitUntil(lambda: not view.opening.running, timeout=60000)
    assert view.runner.position == 2 and len(view.runner.state.filter) == 1_000_000


@pytest.mark.parametrize("target", [2, 1])      # Back, and a jump back over two steps
def test_a_cancelled_back_mid_replay_keeps_the_current_step(view, qtbot, tmp_path, monkeypatch, target):
    from bloomviz.lessons import runner as runner_module
    monkeypatch.setattr(runner_module, "CHECKPOINT_BYTES", 0)    # no copy kept: going back replays from step 0
    path = tmp_path / "held.md"
    path.write_text(HELD)
    opened(view, qtbot, path)
    monkeypatch.setattr(stepping, "INLINE_SECONDS", -1.0)
    view.go_to(3)
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    assert view.runner.position == 3
    state, reports = view.runner.state, list(view.runner.reports)
    bits, count = state.filter.bits.copy(), len(state.filter)
    # held on the worker before the replay's second call (the first action replayed) until Cancel was pressed
    release, reached, calls = threading.Event(), threading.Event(), []
    report = view.opening.report

    def held(done, total):
        calls.append((done, total))
        if len(calls) == 2 and not release.is_set():
            reached.set()
            release.wait(30)
        return report(done, total)
    monkeypatch.setattr(view.opening, "report", held)
    assert view.back() if target == 2 else view.go_to(target) is None
    qtbot.waitUntil(reached.is_set, timeout=20000)
    assert view.opening.running and view.moving
    qtbot.waitUntil(lambda: f"Back to step {target}" in view.opening.label.text(), timeout=20000)
    view.opening.cancel_button.click()
    release.set()
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    assert view.runner.position == 3 and "stays at step 3 of 3" in view.message.text()
    assert view.runner.state is state and view.runner.reports == reports
    assert view.runner.state.filter.bits == bits and len(view.runner.state.filter) == count
    assert view.progress.text() == "step 3 of 3" and not view.moving
    # taken again, uncancelled, it ends where the steps do
    monkeypatch.setattr(view.opening, "report", report)
    view.go_to(target)
    qtbot.waitUntil(lambda: not view.opening.running, timeout=20000)
    fresh = lessons.LessonRunner(view.lesson)
    for _ in range(target):
        fresh.next()
    assert view.runner.position == target and view.runner.state.filter.bits == fresh.state.filter.bits
