"""Text boxes refuse a paste past their limit whole, with a message naming the limit, and keep their text: the
item box took 10 MB and Qt laid it out at every paint; other line edits cut a paste silently at 32,767; a
scenario's paragraph wrapped one long line in quadratic time (21 s to paint 256 Ki digits)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets.bounded_text import BoundedLine, BoundedPlainText
from bloomviz.i18n import number
from bloomviz.theory.limits import ITEM_BOX_CHARS, ITEM_LINE_CHARS, PARAGRAPH_CHARS, SET_BOX_CHARS


@pytest.fixture
def clipboard():
    board = QtWidgets.QApplication.clipboard()
    yield board
    board.clear()


def paste_by_keys(qtbot, widget) -> None:
    """Ctrl+V, as a user pastes (the line edit's own key handling, not a call of ``paste()``)."""
    widget.setFocus()
    qtbot.keyClick(widget, QtCore.Qt.Key.Key_V, QtCore.Qt.KeyboardModifier.ControlModifier)


def test_ten_megabytes_pasted_into_the_item_box_are_refused_whole(window, qtbot, clipboard):
    wb, panel = window.wb, window.item_panel
    wb.insert("keep")
    before = (wb.filter.bits.copy(), len(wb.filter), len(wb.history))
    panel.line.setText("mine")
    panel.line.setCursorPosition(2)
    huge = "0123456789\n" * ((10 << 20) // 11)
    clipboard.setText(huge)
    paste_by_keys(qtbot, panel.line)
    assert panel.line.text() == "mine"                      # not cut, not replaced: kept as it was
    assert number(ITEM_BOX_CHARS) in panel.verdict_text and "Insert from file" in panel.verdict_text
    assert panel.Error.too_long.is_shown()
    assert len(clipboard.text()) == len(huge)               # the paste is still there to use elsewhere
    panel.line.undo()                                       # nothing of the paste in the undo history either
    assert len(panel.line.text()) <= len("mine")
    after = (wb.filter.bits.copy(), len(wb.filter), len(wb.history))
    assert after[1:] == before[1:] and after[0] == before[0]


def test_the_item_box_takes_a_paste_up_to_its_limit_and_refuses_one_character_more(window, qtbot, clipboard):
    panel = window.item_panel
    clipboard.setText("x" * ITEM_BOX_CHARS)
    paste_by_keys(qtbot, panel.line)
    assert len(panel.line.text()) == ITEM_BOX_CHARS and not panel.Error.too_long.is_shown()
    qtbot.keyClick(panel.line, QtCore.Qt.Key.Key_Y)
    assert len(panel.line.text()) == ITEM_BOX_CHARS and panel.Error.too_long.is_shown()
    qtbot.keyClick(panel.line, QtCore.Qt.Key.Key_Backspace)   # shortening it is an edit like any other
    assert len(panel.line.text()) == ITEM_BOX_CHARS - 1


def test_the_context_menus_paste_and_a_drop_are_measured_too(window, qtbot, clipboard):
    panel = window.item_panel
    line = panel.line
    line.setText("mine")
    clipboard.setText("x" * (ITEM_BOX_CHARS + 1))
    at = QtCore.QPoint(5, 5)
    QtWidgets.QApplication.sendEvent(line, QtGui.QContextMenuEvent(QtGui.QContextMenuEvent.Reason.Mouse, at,
                                                                   line.mapToGlobal(at)))
    menu = line.findChildren(QtWidgets.QMenu)[-1]
    paste = next(a for a in menu.actions() if a.objectName() == "edit-paste")
    paste.trigger()
    menu.close()
    assert line.text() == "mine" and panel.Error.too_long.is_shown()
    panel.clear_messages()
    mime = QtCore.QMimeData()
    mime.setText("y" * (ITEM_BOX_CHARS + 1))
    line.dropEvent(QtGui.QDropEvent(QtCore.QPointF(5, 5), QtCore.Qt.DropAction.CopyAction, mime,
                                    QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.KeyboardModifier.NoModifier))
    assert line.text() == "mine" and panel.Error.too_long.is_shown()


def test_a_pasted_list_within_the_box_is_still_offered_as_items(window, qtbot, clipboard):
    panel, wb = window.item_panel, window.wb
    asked = []
    panel.confirm_lines = lambda question: asked.append(question) or True
    clipboard.setText("\n".join(f"w{i}" for i in range(2000)))
    paste_by_keys(qtbot, panel.line)
    qtbot.keyClick(panel.line, QtCore.Qt.Key.Key_Return)
    assert asked and "2,000 lines" in asked[0]
    qtbot.waitUntil(lambda: not wb.busy, timeout=30000)
    assert len(wb.filter) == 2000 and wb.is_member("w1999")


def test_the_item_lines_of_the_other_tools_refuse_a_paste_past_one_item(window, qtbot, clipboard):
    from bloomviz.gui.filter_tab import predict_tool, slow_motion
    slow_motion.install(window)
    tool = predict_tool.install(window)
    clipboard.setText("z" * (ITEM_LINE_CHARS + 10))
    for owner, line in ((window.slow_motion, window.slow_motion.line), (tool, tool.line)):
        line.setText("mine")
        paste_by_keys(qtbot, line)
        assert line.text() == "mine"                        # Qt cut such a paste at 32,767 without a word
        assert number(ITEM_LINE_CHARS) in owner.message.text()


def test_a_plain_text_box_refuses_a_paste_past_its_limit_and_counts_a_replaced_selection(qtbot, clipboard):
    box = BoundedPlainText(10)
    qtbot.addWidget(box)
    refused = []
    box.refused.connect(refused.append)
    box.setPlainText("abcdef")
    clipboard.setText("12345")
    box.moveCursor(QtGui.QTextCursor.MoveOperation.End)
    box.paste()
    assert box.toPlainText() == "abcdef" and refused == [10]
    cursor = box.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(2, QtGui.QTextCursor.MoveMode.KeepAnchor)  # "ab" selected: the paste replaces it
    box.setTextCursor(cursor)
    box.paste()
    assert box.toPlainText() == "12345cdef" and refused == [10]


def test_the_set_boxes_and_a_scenarios_paragraph_are_bounded_and_say_so(window, qtbot, clipboard):
    from bloomviz.gui.scenarios_tab.controller import install as scenarios
    from bloomviz.gui.setops_tab.view import SetOpsView
    view = SetOpsView()
    qtbot.addWidget(view)
    paragraph = scenarios(window, ask=lambda title, question: False).panel.text
    assert (view.text_a.most, view.text_b.most, paragraph.most) == (SET_BOX_CHARS, SET_BOX_CHARS, PARAGRAPH_CHARS)
    # wrapping a long unbroken line anywhere is what took Qt quadratic time
    assert view.text_a.lineWrapMode() == QtWidgets.QPlainTextEdit.LineWrapMode.NoWrap
    assert paragraph.wordWrapMode() == QtGui.QTextOption.WrapMode.WordWrap
    kept = view.text_a.toPlainText()
    view.text_a.most = len(kept) + 3                        # the limit's wiring, without a 32 MiB clipboard
    clipboard.setText("more\nitems")
    view.text_a.moveCursor(QtGui.QTextCursor.MoveOperation.End)
    view.text_a.paste()
    assert view.text_a.toPlainText() == kept and number(len(kept) + 3) in view.message.text()


def test_characters_outside_the_basic_plane_count_once_and_a_paste_is_never_cut(qtbot, clipboard):
    # Qt counts an emoji as two UTF-16 units: a paste of 8 that fits a 10-character box was cut to 5 (the box
    # changed, and the refusal said it kept its text), and 2 letters after 6 emoji were refused as past 10
    line, box = BoundedLine(10), BoundedPlainText(10)
    qtbot.addWidget(line)
    qtbot.addWidget(box)
    refused = []
    line.refused.connect(refused.append)
    box.refused.connect(refused.append)
    clipboard.setText("\U0001F600" * 8)
    line.paste()
    assert line.text() == "\U0001F600" * 8 and refused == []
    clipboard.setText("\U0001F600" * 3)
    line.paste()
    assert line.text() == "\U0001F600" * 8 and refused == [10]     # 11 > 10: refused whole, not cut
    box.setPlainText("\U0001F600" * 6)
    box.moveCursor(QtGui.QTextCursor.MoveOperation.End)
    clipboard.setText("ab")
    box.paste()
    assert box.toPlainText() == "\U0001F600" * 6 + "ab" and refused == [10]
    clipboard.setText("abc")
    box.paste()
    assert box.toPlainText() == "\U0001F600" * 6 + "ab" and refused == [10, 10]
