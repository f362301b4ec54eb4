"""What a screen reader is told: the grid's cells under a keyboard cursor, the verdict as it changes, the plots
as sentences (issue 25, item 3)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui

from bloomviz.filters.rows import positions_added
from bloomviz.gui.access import plot_words, speech

Key = QtCore.Qt.Key


pytestmark = pytest.mark.window(probes=200, parts=True, shown=False)


def test_arrow_keys_walk_the_cells_and_each_is_spoken(window, qtbot):
    window.wb.insert("ana@acme.com")
    positions = sorted(int(p) for p in positions_added(window.wb.filter, "ana@acme.com"))
    cursor, view, cols = window.cell_cursor, window.grid.graphics_widget, window.grid.cols
    assert view.focusPolicy() == QtCore.Qt.FocusPolicy.StrongFocus     # Tab reaches the grid
    cursor.move_to(positions[0] - 1 if positions[0] > 0 else positions[0] + 1)
    start = cursor.index
    qtbot.keyClick(view, Key.Key_Right if start < positions[0] else Key.Key_Left)
    assert cursor.index == positions[0]
    said = window.speaker.spoken[-1]
    assert said == f"bit {positions[0]}, set, by ana@acme.com"
    assert view.accessibleDescription() == said
    # shown to sighted users too: the grid's hover label beside the cell says which cell the cursor is on
    assert f"bit {positions[0]:,} = 1" in window.grid.hover_label.text()
    qtbot.keyClick(view, Key.Key_Down)
    below = positions[0] + cols
    assert cursor.index == (below if below < window.grid.m else positions[0])
    qtbot.keyClick(view, Key.Key_Home)
    assert cursor.index == 0
    qtbot.keyClick(view, Key.Key_Left)              # the edge holds the cursor
    assert cursor.index == 0
    qtbot.keyClick(view, Key.Key_End)
    assert cursor.index == window.grid.m - 1
    unset = next(i for i in range(window.grid.m) if i not in positions)
    assert speech.cell_words(window.wb, unset) == f"bit {unset}, not set, no inserted item maps here"


def test_a_changed_verdict_is_announced_once(window):
    window.wb.insert("apple")
    window.wb.lookup("apple")
    window.wb.flush()           # (said as the panel shows it, in the next turn of the event loop)
    said = window.speaker.spoken[-1]
    assert said == window.item_panel.verdict_text and "apple" in said
    assert window.item_panel.verdict.accessibleDescription() == said
    count = len(window.speaker.spoken)
    window.wb.notice.emit("nothing that changes the verdict")
    assert len(window.speaker.spoken) == count
    window.wb.lookup("never-inserted-zebra")
    window.wb.flush()
    assert "never-inserted-zebra" in window.speaker.spoken[-1]


def test_an_announcement_is_plain_words_and_goes_through_qt_with_accessibility_on(window):
    QtGui.QAccessible.setActive(True)
    try:
        speaker = speech.Speaker()
        speaker.say(window.item_panel.verdict, "<b>Probably in the set</b><br>apple &amp; pear")
        speaker.say(window.item_panel.verdict, "")          # nothing to say: nothing sent
    finally:
        QtGui.QAccessible.setActive(False)
    assert speaker.spoken == ["Probably in the set apple & pear"]


def test_the_rate_plot_is_described_by_its_latest_values(window, qtbot):
    for i in range(40):
        window.wb.insert(f"user{i}")
    qtbot.waitUntil(lambda: "n = 40" in window.plot.graphics.accessibleDescription())
    text = window.plot.graphics.accessibleDescription()
    assert text.startswith(window.plot.TITLE) and "measured" in text and "exact" in text and "■" not in text


def test_other_plots_are_described_by_their_curves(qtbot):
    import pyqtgraph as pg
    from PySide6 import QtWidgets
    box = QtWidgets.QWidget()
    qtbot.addWidget(box)
    plot = pg.PlotWidget(box, title="Rate against k")
    plot.plot([1, 2, 3, 4], [0.5, 0.1, 0.05, 0.08], name="exact")
    (describer,) = plot_words.describe_plots(box)
    assert describer.refresh() == "Rate against k. exact: 0.08 at x = 4 (4 points, x 1 to 4, y 0.05 to 0.5)"
    assert plot.accessibleDescription() == describer.refresh()
    assert plot_words.describe_plots(box) == []      # described once
