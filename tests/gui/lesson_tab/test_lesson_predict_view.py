"""The class's vote in the Lesson tab: the question and its choices, +1 and typed counts, the tally's bars,
Reveal marking the right choice with the filter's answer (nothing shown before it), Back bringing a step's votes
back, and presenter mode's keys 1–9, R and Next-reveals-first."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.gui.lesson_tab import view as lesson_view

BITS_STEP, PHANTOM_STEP = 4, 6        # lesson 1: "how many bits after k2, k3, k4?" and "is k1 in?"


pytestmark = pytest.mark.window(probes=200, size=(1280, 800), prepare=lesson_view.install)


def _lit(view) -> list[int]:
    return sorted(int(p) for p in view.grid.highlighted()[0])


LABEL, BAR, PLUS, COUNT = 1, 2, 3, 4    # the columns of a choice's row in the panel's grid


def _cell(panel, choice: int, column: int):
    """What the panel shows in a choice's row, found in its layout as a user sees it."""
    return panel.rows.itemAtPosition(choice, column).widget()


def _bar_values(panel) -> list[int]:
    return [_cell(panel, i, BAR).value() for i in range(panel.rows.rowCount()) if panel.rows.itemAtPosition(i, BAR)]


def test_votes_make_a_tally_and_reveal_marks_the_right_choice_with_the_filters_answer(window, qtbot):
    view, panel = window.lesson_view, window.lesson_view.predict
    view.go_to(BITS_STEP)
    assert panel.isVisibleTo(view) and "how many bits will be set" in panel.question.text()
    assert [panel.rows.itemAtPosition(i, 1).widget().text() for i in range(3)] == \
        ["1.  6 or fewer", "2.  7 or 8", "3.  9"]
    assert not panel.answer.isVisibleTo(panel) and "Answer" not in panel.answer.text()
    for _ in range(3):
        qtbot.mouseClick(_cell(panel, 1, PLUS), QtCore.Qt.MouseButton.LeftButton)
    _cell(panel, 2, COUNT).setValue(5)                                    # a typed count of raised hands
    assert panel.tally.votes == [0, 3, 5] and panel.total.text() == "8 votes"
    assert _bar_values(panel) == [0, 3, 5] and _cell(panel, 2, BAR).maximum() == 8
    assert _cell(panel, 1, BAR).text().startswith("3  (38%)")
    assert _lit(view) == []                                          # the empty filter: nothing lit yet
    qtbot.mouseClick(panel.reveal_button, QtCore.Qt.MouseButton.LeftButton)
    assert panel.answer.isVisibleTo(panel) and "9 bits set" in panel.answer.text() and "choice 3 is right" in \
        panel.answer.text() and "5 of 8 votes (62%)" in panel.answer.text()
    assert _cell(panel, 2, LABEL).text().startswith("✓") and not _cell(panel, 1, LABEL).text().startswith("✓")
    assert not panel.vote(0) and panel.tally.votes == [0, 3, 5]     # the vote is closed once revealed
    assert _lit(view) == [2, 5, 8, 11, 17, 23, 31, 40, 50]          # the bits k2, k3 and k4 would set
    assert view.runner.state.filter.bits_set == 0                   # ... but the question inserted nothing


def test_nothing_gives_the_verdict_away_before_reveal(window):
    view = window.lesson_view
    view.go_to(PHANTOM_STEP)
    assert view.asking() and _lit(view) == [] and "last:" not in view.numbers.text()
    assert "probably" not in view.numbers.text()
    assert view.reveal()
    assert _lit(view) == [5, 17, 23] and "last: predict “k1” → probably in the set" in view.numbers.text()


def test_a_rate_question_hides_the_rates_until_reveal(window):
    view = window.lesson_view
    assert view.load_builtin("04-choosing-m-and-k")
    view.go_to(4)
    assert view.asking() and "measured" not in view.numbers.text() and "exact" not in view.numbers.text()
    view.reveal()
    assert "measured 0.157" in view.numbers.text() and "15.7 %" in view.predict.answer.text()


def test_back_brings_a_steps_votes_and_reveal_back_and_clear_starts_it_again(window):
    view, panel = window.lesson_view, window.lesson_view.predict
    view.go_to(BITS_STEP)
    panel.vote(0), panel.vote(2), panel.vote(2)
    assert view.next() and view.runner.position == BITS_STEP      # Next reveals first ...
    assert panel.tally.revealed
    assert view.next() and view.runner.position == BITS_STEP + 1  # ... then moves on
    assert not panel.isVisibleTo(view)
    assert view.back() and view.runner.position == BITS_STEP
    assert panel.isVisibleTo(view) and panel.tally.votes == [1, 0, 2] and panel.answer.isVisibleTo(panel)
    assert _bar_values(panel) == [1, 0, 2]
    assert view.back() and not panel.isVisibleTo(view)                  # the step before asks nothing
    view.next()
    assert panel.tally.revealed and panel.tally.votes == [1, 0, 2]
    panel.clear()
    assert panel.tally.votes == [0, 0, 0] and view.asking() and not panel.answer.isVisibleTo(panel)
    assert _lit(view) == []


def test_presenter_keys_vote_and_reveal(window, qtbot):
    view, panel = window.lesson_view, window.lesson_view.predict
    view.go_to(PHANTOM_STEP - 1)
    window.presenter.enter()
    qtbot.keyClick(window, QtCore.Qt.Key.Key_PageDown)
    assert view.runner.position == PHANTOM_STEP and view.asking()
    for key in (QtCore.Qt.Key.Key_1, QtCore.Qt.Key.Key_2, QtCore.Qt.Key.Key_2, QtCore.Qt.Key.Key_9):
        qtbot.keyClick(window, key)
    assert panel.tally.votes == [1, 2]                              # 9 names no choice: ignored
    assert panel.question.font().pointSizeF() > window.font().pointSizeF() * 1.5
    qtbot.keyClick(window, QtCore.Qt.Key.Key_R)
    assert panel.tally.revealed and _cell(panel, 1, LABEL).text().startswith("✓")
    window.presenter.leave()
    assert view.top_bar.isVisibleTo(view)
    assert panel.question.font().pointSizeF() < window.font().pointSizeF() * 1.5
    qtbot.keyClick(window, QtCore.Qt.Key.Key_1)                    # the keys are off outside presenter mode
    assert panel.tally.votes == [1, 2]
