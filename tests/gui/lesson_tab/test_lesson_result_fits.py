"""A step that computes without a filter shows its result large where the grid would be, whole: the split gives
it the lines it needs at the width it wraps at (the stage's, beside the step list), in the window as in
presenter mode. Measured at the view's width, a long result (git's history line, in Croatian at 150 %) got a line
too few and showed its last line cut in half."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.lessons import step_numbers

pytestmark = pytest.mark.window(probes=200, parts=True)


@pytest.mark.parametrize("size", [(1100, 800)])
def test_a_computed_result_is_shown_whole_beside_the_step_list(window, qtbot, size):
    window.setGeometry(0, 0, *size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
    window.show_tab("lesson")
    view = window.lesson_view
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
