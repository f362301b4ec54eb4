"""The window wired to its model: one insert typed into the window hashes its item once (the filter, the truth,
the grid, the plot and the explain panel all take the positions from that one hashing), and Edit → Undo."""

from __future__ import annotations

import os
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import mmh3
import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.hashing import schemes

pytestmark = pytest.mark.window(probes=500)


def test_an_insert_by_enter_runs_murmurhash_once(window, qtbot, monkeypatch):
    win = window
    for i in range(30):        # a filter with history, so that "inserted before?" has rows to scan
        win.wb.insert(f"earlier {i}")
    win.wb.flush()                  # the earlier inserts drawn and explained before the hashing is counted
    win.explain_panel.render_now()
    calls = []
    real = mmh3.hash_bytes
    # (the adapter's warm-up thread may still be hashing its own "warm-up" item: only the window's thread counts)
    monkeypatch.setattr(schemes.mmh3, "hash_bytes", lambda *a: (threading.current_thread() is threading.main_thread()
                                                               and calls.append(a[0])) or real(*a))
    schemes._murmur_halves_kept.cache_clear()
    win.item_panel.line.setText("typed by a student")
    qtbot.keyClick(win.item_panel.line, QtCore.Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "MurmurHash3-128 low 64 bits" in win.explain_panel.toPlainText()
                    and "typed by a student" in win.explain_panel.toPlainText())   # the arithmetic of this item
    assert win.wb.is_member("typed by a student")
    assert calls == [b"typed by a student"]
    win.wb.cancel()


def test_edit_undo_takes_back_the_last_insert(window, qtbot):
    win = window
    undo = win.actions_["undo"]
    win.wb.insert("kept")
    bits = win.wb.filter.bits.copy()
    win.item_panel.line.setText("taken back")
    qtbot.keyClick(win.item_panel.line, QtCore.Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: undo.text() == "Undo insert “taken back”")    # drawn in the next turn
    assert undo.isEnabled()
    win.item_panel.line.clearFocus()     # out of the item box, whose own Ctrl+Z undoes typing
    win.activateWindow()                 # a window's shortcuts reach it once it is the active window
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is win)
    qtbot.keyClick(win, QtCore.Qt.Key.Key_Z, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert win.wb.filter.bits == bits and not win.wb.is_member("taken back") and win.wb.is_member("kept")
    assert win.history_panel.model().rowCount() == 1     # the history table follows the undo
    assert undo.text() == "Undo insert “kept”"
    win.wb.cancel()
