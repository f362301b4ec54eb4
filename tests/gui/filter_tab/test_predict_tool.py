"""Tools → Predict, then reveal: the item's positions lit one by one, the class's votes (+1, keys 1 and 2),
Reveal performing one lookup through the workbench (one History row) and marking the right choice, a wrong
majority marked wrong, and the tally kept across questions until Reset."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.gui.filter_tab import predict_tool

NO, MAYBE = 0, 1


def _with_the_predict_tool(window):
    window.predict_tool = predict_tool.install(window)
    window.wb.configure(256, 4)
    window.wb.insert_batch(["alpha", "beta", "gamma"])


pytestmark = pytest.mark.window(probes=200, prepare=_with_the_predict_tool)


def _history_rows(window) -> int:
    return len(window.wb.history)


def test_positions_light_one_by_one_then_votes_reveal_one_lookup_and_mark_the_right_choice(window, qtbot):
    tool, wb = window.predict_tool, window.wb
    assert tool.ask("alpha")
    k, rows, bits = wb.filter.k, _history_rows(window), wb.filter.bits_set
    lit = [len(window.grid.highlighted()[0])]
    while tool.next_button.isEnabled():
        qtbot.mouseClick(tool.next_button, QtCore.Qt.MouseButton.LeftButton)
        lit.append(len(window.grid.highlighted()[0]))
    assert lit == [0, 0] + list(range(1, k + 1)) + [k]        # bytes, values, one more cell a step, the prompt
    assert "definitely" not in tool.narration.text()           # the class reads the bits; the words do not tell
    assert _history_rows(window) == rows                       # nothing looked up yet
    row = [tool.vote_panel.rows.itemAtPosition(MAYBE, column).widget() for column in (1, 3)]   # its words, its +1
    qtbot.mouseClick(row[1], QtCore.Qt.MouseButton.LeftButton)
    tool.vote_panel.setFocus()
    qtbot.keyClick(tool.vote_panel, QtCore.Qt.Key.Key_2)
    qtbot.keyClick(tool.vote_panel, QtCore.Qt.Key.Key_1)
    assert tool.vote_panel.tally.votes == [1, 2]
    qtbot.mouseClick(tool.vote_panel.reveal_button, QtCore.Qt.MouseButton.LeftButton)
    assert _history_rows(window) == rows + 1 and wb.filter.bits_set == bits    # one lookup, recorded
    assert tool.vote_panel.record["right"] == MAYBE and "✓" in row[0].text()
    assert tool.last_right is True and "✓ Right" in tool.verdict.text()
    assert not tool.vote_panel.reveal() and _history_rows(window) == rows + 1   # revealed once only


def test_a_wrong_prediction_is_marked_and_the_tally_runs_across_questions_until_reset(window):
    tool, wb = window.predict_tool, window.wb
    stranger = next(f"x{i}" for i in range(1000) if not wb.filter.lookup(f"x{i}").maybe_present)
    assert tool.ask(stranger)
    for _ in range(3):
        tool.vote_panel.vote(MAYBE)
    tool.vote_panel.vote(NO)
    assert tool.vote_panel.reveal()
    assert tool.vote_panel.record["right"] == NO
    assert tool.last_right is False and "✗ Wrong" in tool.verdict.text()
    assert tool.running.questions == 1 and (tool.running.votes, tool.running.right_votes) == (4, 1)
    assert tool.ask("beta")                         # a new question, the tally kept
    tool.vote_panel.vote(MAYBE)
    tool.vote_panel.reveal()
    assert (tool.running.questions, tool.running.votes, tool.running.right_votes) == (2, 5, 2)
    assert (tool.running.majority_right, tool.running.majority_wrong) == (1, 1)
    assert "2 questions: 2 of 5 votes right (40%)" in tool.summary.text()
    tool.reset_tally()
    assert tool.running.questions == 0 and "No question" in tool.summary.text()


def test_the_tools_action_takes_the_item_box_and_bad_input_is_refused(window):
    tool = window.predict_tool
    action = next(a for a in window.menu("Tools").actions() if a.text() == "Predict, then reveal…")
    window.item_panel.line.setText("gamma")
    action.trigger()
    assert tool.vote_panel.isVisibleTo(tool) and "gamma" in tool.vote_panel.question.text()
    assert not tool.ask("")
    window.item_panel.line.setText("")
    assert not tool.ask() and "Type an item" in tool.message.text()


def test_a_question_is_dropped_when_the_filter_is_replaced(window):
    tool = window.predict_tool
    assert tool.ask("alpha")
    tool.vote_panel.vote(MAYBE)
    window.wb.configure(128, 3)
    assert not tool.vote_panel.isVisibleTo(tool) and "Ask again" in tool.message.text()
    assert tool.running.questions == 0 and len(window.wb.history) == 0


def test_the_cells_lit_are_the_filters_after_an_insert_of_this_turn(window):
    # the grid draws an insert in the next turn of the event loop: the question read its cells before that, and
    # lit the bits the insert had just set as zeros
    wb, tool = window.wb, window.predict_tool
    wb.configure(256, 4)
    wb.insert("alpha")
    assert tool.ask("alpha")
    assert all(kind == "one" for step in tool._steps for kind in step.kinds)


def test_several_lines_are_refused_saying_so_and_a_line_with_its_ending_is_that_line(window):
    tool = window.predict_tool
    assert not tool.ask("alpha\nbeta") and "the box holds 2 lines, and Predict takes one item" in tool.message.text()
    assert tool.ask("gamma\r\n") and "“gamma”" in tool.vote_panel.question.text()
