"""The Lesson tab's moving pictures: ``slow=`` reveals an item's hashes one at a time and ends on the verdict with
exactly the item's positions lit; ``autoplay`` animates its inserts and ends on the runner's state; Next during
an animation lands on the end state, Back restores the step before; a verdict question plays no slow lookup
before Reveal; ``show tab=`` switches the window's tab (not in presenter mode)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz import lessons
from bloomviz.filters.capabilities import grid_values
from bloomviz.gui.lesson_tab import view as lesson_view

LESSON = """# Moving pictures

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
autoplay 400 speed=4000 seed=2
```

## Slowly grow

```bloomviz
autoplay 1000 speed=10 seed=3
```

## Elsewhere

```bloomviz
show tab=filter
insert c
```

## Ask

```bloomviz
lookup a slow=0.5
predict verdict a
```
"""


def _with_the_moving_lesson(window):
    lesson_view.install(window)
    window.lesson_view.load(lessons.parse_text(LESSON, "moving.md"))


pytestmark = pytest.mark.window(probes=200, size=(1280, 800), prepare=_with_the_moving_lesson, tab="lesson")


def _lit(view) -> list[int]:
    return sorted(int(p) for p in view.grid.highlighted()[0])


def _picture(view) -> np.ndarray:
    return view.grid.picture.ravel()[:view.grid.m]


def test_a_slow_insert_steps_to_its_verdict_with_exactly_the_items_positions_lit(window, qtbot):
    view = window.lesson_view
    view.load_builtin("1")
    view.next()
    view.next()                                        # insert k1 slow=0.5 (hand-set: 23, 17, 5)
    assert view.animation.kind == "slow" and "as bytes" in view.numbers.text()
    assert view.grid.value(23) == 0                    # nothing set before its hash is shown
    texts = []
    while view.animation.kind == "slow":
        texts.append(view.numbers.text())
        lit = _lit(view)
        qtbot.keyClick(view, QtCore.Qt.Key.Key_Space)   # Space steps it, as Next does
    assert "Inserted" in texts[-1] and "3 bits turned from 0 to 1" in texts[-1]
    assert lit == [5, 17, 23]
    assert [t.startswith("position") for t in texts].count(True) == 3
    assert not view.animation.running and "Inserted" not in view.numbers.text()   # the step's numbers again


def test_a_slow_lookup_plays_on_its_own_and_ends_on_the_filters_verdict(window, qtbot):
    view = window.lesson_view
    view.next()
    view.next()
    flt = view.runner.state.filter
    seen = []
    view.animation.finished.connect(lambda: seen.append(True))
    qtbot.waitUntil(lambda: bool(seen), timeout=3000)  # 0.02 s a step, on the metronome
    assert sorted(set(_lit(view))) == sorted(set(flt.positions("zebra")))
    assert view.runner.reports[-1]["last"]["positions"] == list(flt.positions("zebra"))


def test_autoplay_animates_and_ends_at_the_runners_state(window, qtbot):
    view = window.lesson_view
    view.go_to(2)
    view.next()
    assert view.animation.kind == "autoplay"
    end = grid_values(view.runner.state.filter)
    frames = []
    qtbot.waitUntil(lambda: frames.append(int(_picture(view).sum())) or not view.animation.running, timeout=5000)
    assert len(frames) > 2 and frames[0] < int(end.sum())           # it grew on screen, frame by frame
    assert np.array_equal(_picture(view), end)
    assert "items inserted" not in view.numbers.text()


def test_next_during_an_autoplay_lands_on_the_end_state_and_back_restores(window):
    view = window.lesson_view
    view.go_to(3)
    before = _picture(view).copy()
    view.next()                                        # 1,000 items at 10 a second
    assert view.animation.kind == "autoplay"
    assert view.next() and not view.animation.running
    assert np.array_equal(_picture(view), grid_values(view.runner.state.filter))
    assert view.runner.position == 4
    view.back()
    assert np.array_equal(_picture(view), before) and view.runner.position == 3
    view.next()                                        # Back during the animation: the same exact restore
    assert view.animation.running and view.back()
    assert not view.animation.running and np.array_equal(_picture(view), before)


def test_show_switches_the_windows_tab_but_not_in_presenter_mode(window):
    view = window.lesson_view
    view.go_to(4)
    view.next()
    assert window.current_tab() == "filter"
    view.back()
    window.presenter.enter()
    view.next()
    assert window.current_tab() == "lesson" and "opens the Filter tab" in view.message.text()
    window.presenter.leave()


def test_a_verdict_question_plays_no_slow_lookup_before_reveal(window):
    view = window.lesson_view
    view.go_to(5)
    view.next()
    assert view.asking() and not view.animation.running and _lit(view) == []
