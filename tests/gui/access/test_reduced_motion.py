"""Reduced motion (issue 25, item 3): with it on, slow motion's Play, a lesson's autoplay and its slow reveals
become instant steps, no timer turning pages; the choice is a View menu entry kept in the settings."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz import lessons
from bloomviz.filters.capabilities import grid_values
from bloomviz.gui.access import motion
from bloomviz.gui.filter_tab import slow_motion
from bloomviz.gui.lesson_tab import view as lesson_view
from window_helpers import FakeDialogs, new_window

LESSON = """# Still pictures

## A filter

```bloomviz
filter m=200 k=4
insert a b
```

## Slow

```bloomviz
lookup zebra slow=0.02
```

## Grow

```bloomviz
autoplay 1000 speed=10 seed=3
```
"""


@pytest.fixture(autouse=True)
def motion_as_default():
    yield
    motion.set_reduced(False)       # the setting is the process's: no other test inherits it


def _with_slow_motion_and_lessons(window):
    slow_motion.install(window)
    lesson_view.install(window)


pytestmark = pytest.mark.window(probes=200, prepare=_with_slow_motion_and_lessons, shown=False)


def test_slow_motions_play_completes_at_once_without_a_timer(window):
    wb, panel = window.wb, window.slow_motion
    motion.set_reduced(True)
    assert panel.start("insert", "delta")
    panel.toggle_play()
    assert not panel.running and not panel._player.is_running       # done, and no metronome left behind
    assert len(wb.filter) == 1 and "delta" in wb.filter
    assert panel.progress.text() == f"step {len(panel.steps)} of {len(panel.steps)}"
    motion.set_reduced(False)                                         # as before: Play runs on a timer
    assert panel.start("lookup", "delta")
    panel.toggle_play()
    assert panel.running and panel._player.is_running
    panel.cancel()


def test_a_lessons_autoplay_shows_its_end_at_once_and_a_slow_reveal_waits_for_next(window):
    motion.set_reduced(True)
    view = window.lesson_view
    view.load(lessons.parse_text(LESSON, "still.md"))
    window.show_tab("lesson")
    window.show()
    view.next()
    view.next()                                       # lookup zebra slow=0.02
    assert view.animation.kind == "slow" and not view.animation._metronome.is_running
    shown = view.numbers.text()
    view.next()                                       # Next turns the page, nothing else does
    assert view.numbers.text() != shown
    while view.animation.running:
        view.next()
    view.next()                                       # autoplay 1000 speed=10: 100 s of motion otherwise
    assert not view.animation.running
    assert np.array_equal(view.grid.picture.ravel()[:view.grid.m], grid_values(view.runner.state.filter))


def test_the_view_menu_entry_is_saved_and_restored(qtbot, tmp_path):
    first = new_window(qtbot, tmp_path, probes=100)
    first.install_parts()
    first.file_actions.dialogs = FakeDialogs(unsaved_answer="discard")
    action = first.actions_["reduced_motion"]
    assert action in first.menu("&View").actions() and not action.isChecked() and not motion.reduced()
    action.trigger()
    assert motion.reduced() and first.settings.value(motion.SETTING) in (True, "true")
    first.settings.sync()
    motion.set_reduced(False)
    again = QtCore.QSettings(first.settings.fileName(), QtCore.QSettings.Format.IniFormat)
    assert motion.restore(again) and motion.reduced()


def test_presenter_mode_steps_without_motion_from_the_clickers_keys(window, qtbot):
    """Presenter mode's pages are the lesson's steps: with reduced motion the clicker's Next lands on a slow
    reveal's first step and on an autoplay's end state, and no metronome runs between key presses."""
    motion.set_reduced(True)
    view = window.lesson_view
    view.load(lessons.parse_text(LESSON, "still.md"))
    window.show()
    window.presenter.enter()
    assert window.presenter.active
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is view)     # full screen, the keys live
    target = window
    qtbot.keyClick(target, QtCore.Qt.Key.Key_PageDown)           # the filter
    qtbot.keyClick(target, QtCore.Qt.Key.Key_PageDown)           # lookup zebra slow=0.02
    assert view.animation.kind == "slow" and not view.animation._metronome.is_running
    while view.animation.running:
        qtbot.keyClick(target, QtCore.Qt.Key.Key_PageDown)
    qtbot.keyClick(target, QtCore.Qt.Key.Key_PageDown)           # autoplay 1000 speed=10
    assert view.runner.position == 3 and view.counter.text() == "3 / 3"
    assert not view.animation.running and not view.animation._metronome.is_running
    assert np.array_equal(view.grid.picture.ravel()[:view.grid.m], grid_values(view.runner.state.filter))
    window.presenter.leave()
