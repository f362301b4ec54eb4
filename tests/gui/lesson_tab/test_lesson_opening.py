"""Opening a lesson file is a job: checked off the GUI thread with progress and Cancel; a refusal names the
file, the line and the reason; the lesson shown stays until the new one has passed."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("PySide6")

from bloomviz import lessons  # noqa: E402
from bloomviz.gui.lesson_tab.view import LessonView  # noqa: E402
from window_helpers import FakeDialogs  # noqa: E402

SLOW = "# Slow\n\n" + "".join(f"## S{i}\n\n```bloomviz\n{body}\n```\n\n" for i, body in enumerate(
    ["filter m=1048576 k=7"] + ["insert-random 1000000 seed=%d" % i for i in range(3)]))


@pytest.fixture
def view(qtbot):
    v = LessonView(FakeDialogs())
    qtbot.addWidget(v)
    v.show()
    return v


def test_a_lesson_is_checked_off_the_gui_thread_with_progress_and_can_be_cancelled(view, qtbot, tmp_path,
                                                                                    monkeypatch):
    # the dry run, held at its steps until Cancel: the window must show progress and take the cancel meanwhile
    # (the runner's own cancel, the state left as before the step, is tested in test_lesson_budget.py)
    def held_check(lesson, before_action):
        for step in range(10_000):
            before_action(step % len(lesson.steps), 0)
            time.sleep(0.01)
    monkeypatch.setattr(lessons, "check", held_check)
    shown = view.lesson.title
    path = tmp_path / "slow.md"
    path.write_text(SLOW)
    assert view.open_path(str(path))
    assert view.opening.running and view.opening.row.isVisible()
    qtbot.waitUntil(lambda: view.opening.bar.value() >= 1, timeout=20000)    # the event loop turns meanwhile
    assert view.opening.running and "Checking step" in view.opening.label.text()
    with qtbot.waitSignal(view.opening.finished, timeout=20000) as done:
        view.opening.cancel_button.click()
    assert done.args == [False] and "cancelled" in view.message.text()
    assert view.lesson.title == shown and not view.opening.row.isVisible()


def test_a_good_lesson_opens_and_a_refused_one_names_its_line(view, qtbot, tmp_path):
    good = tmp_path / "good.md"
    good.write_text("# Good\n\n## One\n\n```bloomviz\nfilter m=64 k=3\ninsert a\n```\n")
    with qtbot.waitSignal(view.opening.finished, timeout=20000) as done:
        assert view.open_path(str(good))
    assert done.args == [True] and view.lesson.title == "Good"
    bad = tmp_path / "bad.md"
    bad.write_text("# Bad\n\n## One\n\n```bloomviz\nfilter m=64 k=3\ninsert-random 2e6\nensemble filters=1e5 n=2e6\n```\n")
    with qtbot.waitSignal(view.opening.finished, timeout=20000) as done:
        assert view.open_path(str(bad))
    assert done.args == [False] and view.lesson.title == "Good"
    assert "bad.md:8: ensemble:" in view.message.text() and "estimated" in view.message.text()
