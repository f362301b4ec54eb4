"""A step that computes without a filter shows its result large where the grid would be, whole: the split gives
it the lines it needs at the width it wraps at (the stage's, beside the step list), in the window as in
presenter mode. Measured at the view's width, a long result (git's history line, in Croatian at 150 %) got a line
too few and showed its last line cut in half.

The lesson view alone, at the size the Lesson tab gives it in a 1100 x 800 window: the whole window (its docks,
plots and other tabs) made the file take 18 s under load for what the view's own split decides."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.gui.lesson_tab.view import LessonView
from bloomviz.lessons import step_numbers
from window_helpers import FakeDialogs

TAB_AREA = (1090, 720)      # the Lesson tab's area in a 1100 x 800 window


@pytest.mark.parametrize("size", [TAB_AREA])
def test_a_computed_result_is_shown_whole_beside_the_step_list(qtbot, size):
    view = LessonView(FakeDialogs())
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitUntil(lambda: (view.width(), view.height()) == size)
    checked = 0
    for name, steps in (("04-choosing-m-and-k", (1, 2)), ("08-the-real-world", (4,)), ("05-hashing-matters", (1,))):
        assert view.load_builtin(name)
        for number in steps:
            view.go_to(number)
            if not (step_numbers.theory_only(view.lesson.steps[number - 1]) and view.result.isVisibleTo(view)):
                continue
            QtCore.QCoreApplication.processEvents()
            view._fit_stage()
            assert view.steps.isVisibleTo(view) and view.result.width() < view.width() - 50
            need = view.result.heightForWidth(view.result.width())
            assert view.result.height() >= need - 2, f"{name} step {number} at {size}: {view.result.height()} < {need}"
            checked += 1
    assert checked >= 3
