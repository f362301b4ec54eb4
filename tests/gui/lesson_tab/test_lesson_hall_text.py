"""Numbers a hall can read (issue 26): in presenter mode at 1920 x 1080 and 1280 x 720, every number a step
states — the numbers line, what it computed, its result, the lesson's title and step counter, the grid's cell
indices when drawn, and the narration — is set in type at least 3 % of the picture's height (about what a back
row 12-15 m away reads), and a step that computes without a filter draws its result large where the grid would be.

The sizes are the fonts the widgets paint with (QFontInfo's pixel size, the em height) and the size the grid's
cell labels are drawn at (``decor_plan``), measured for every step of every built-in lesson."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui

from bloomviz.lessons import step_numbers

HALL = 0.03


pytestmark = pytest.mark.window(probes=200, parts=True)


def _present_at(window, qtbot, size):
    window.presenter.enter()
    # a picture for a hall of another size than this screen: presenter mode's look at that size (as --shots)
    window.setWindowState(window.windowState() & ~QtCore.Qt.WindowState.WindowFullScreen)
    window.setGeometry(0, 0, *size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
    qtbot.waitUntil(lambda: window.lesson_view._scale == size[1])


def _px(widget) -> int:
    return QtGui.QFontInfo(widget.font()).pixelSize()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_every_number_a_step_states_is_three_percent_of_the_picture(window, qtbot, size):
    _present_at(window, qtbot, size)
    view = window.lesson_view
    least = HALL * size[1]
    theory_steps = 0
    for i in range(view.choice.count()):
        assert view.load_builtin(view.choice.itemData(i))
        for number, step in enumerate(view.lesson.steps, start=1):
            view.go_to(number)
            assert view.runner.position == number
            where = f"{view.lesson.path} step {number} at {size}"
            for label in (view.message, view.counter, view.numbers, view.computed, view.result, view.narration):
                if label.isVisibleTo(view):
                    assert _px(label) >= least, f"{where}: {label.objectName() or type(label).__name__} " \
                                                f"{_px(label)} px < {least:.1f}"
            assert view.counter.isVisibleTo(view) and view.counter.text() == f"{number} / {len(view.lesson.steps)}"
            if view.grid.isVisibleTo(view):
                plan = view.grid.decor_plan()
                if plan is not None and plan[4]:           # cell indices drawn: a hall reads them
                    assert plan[5] >= least, f"{where}: cell indices {plan[5]} px"
            if step_numbers.theory_only(step) and step_numbers.computed_lines(view.runner.reports[-1]):
                theory_steps += 1
                assert view.result.isVisibleTo(view) and not view.grid.isVisibleTo(view), where
                assert _px(view.result) >= 0.045 * size[1], where
                assert view.result.height() >= view.result.heightForWidth(view.result.width()) - 2, where
    assert theory_steps >= 5        # lesson 3 steps 2-3, 4 steps 1-2, 5's, 8 step 1


def test_indices_of_a_small_lesson_grid_are_drawn_for_the_hall(window, qtbot):
    _present_at(window, qtbot, (1280, 720))
    view = window.lesson_view
    view.load_builtin("1")
    view.go_to(4)               # a question beside the grid: the least room the grid gets
    qtbot.waitUntil(lambda: view.grid.decor_plan() is not None and view.grid.decor_plan()[4])
    assert view.grid.decor_plan()[5] >= HALL * 720
    assert view.grid.cols > view.grid.rows          # laid out wide for the wide stage
    window.presenter.leave()
    view.go_to(3)
    assert view.grid.cols == view.grid.rows == 8    # square again at a desk
