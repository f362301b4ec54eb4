"""A wrapped label in a scroll area shows whole lines only: where the area's edge falls inside a line, that line
is not drawn (no ink below the last whole line), its text is in the tooltip, and scrolling it into view draws it."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets.whole_lines import WholeLinesLabel

TEXT = ("<b>Probably in the set</b><br>“pundits” is probably in the set: all its bits are set. It was inserted, "
        "so this is a true positive, and a few more words make it wrap over several lines.")


def _ink_rows(label: QtWidgets.QLabel) -> list[int]:
    """The rows of the label, in its own coordinates, where the window shows a dark pixel (its parent drawn with
    it, as on screen: the label's mask applies)."""
    parent = label.parentWidget() or label
    image = parent.grab().toImage()
    top = label.mapTo(parent, QtCore.QPoint(0, 0)).y()
    return [y - top for y in range(image.height())
            if any(image.pixelColor(x, y).lightness() < 128 for x in range(0, image.width(), 2))]


def _in_area(qtbot, height_lines: float):
    label = WholeLinesLabel()
    label.setTextFormat(QtCore.Qt.TextFormat.RichText)
    label.setText(TEXT)
    label.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
    area = QtWidgets.QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(label)
    qtbot.addWidget(area)
    area.resize(220, int(label.fontMetrics().lineSpacing() * height_lines))
    area.show()
    qtbot.waitExposed(area)
    return area, label


def test_a_line_the_edge_cuts_is_not_drawn_and_its_text_is_in_the_tooltip(qtbot):
    area, label = _in_area(qtbot, 2.5)
    qtbot.waitUntil(lambda: label.height() > area.viewport().height())      # the text is taller than the area
    bottoms = label.line_bottoms()
    seen = label.visibleRegion().boundingRect().bottom() + 1
    cut = label.shown_bottom()
    assert cut in bottoms and cut <= seen and not any(cut < b <= seen for b in bottoms)
    assert cut < seen          # the edge falls inside a line: that line is not drawn ...
    qtbot.waitUntil(lambda: "few more words" in label.toolTip())       # ... and its words are in the tooltip
    ink = [y for y in _ink_rows(label) if y < seen]
    assert ink and max(ink) < cut, (max(ink), cut)


def test_scrolled_into_view_the_line_is_drawn_and_all_in_view_needs_no_tooltip(qtbot):
    area, label = _in_area(qtbot, 2.5)
    qtbot.waitUntil(lambda: label.height() > area.viewport().height())
    bottoms = label.line_bottoms()
    hidden_end = bottoms[bottoms.index(label.shown_bottom()) + 1]       # the line the edge cut
    area.verticalScrollBar().setValue(hidden_end - area.viewport().height())
    qtbot.waitUntil(lambda: label.shown_bottom() >= hidden_end)
    hidden_top = bottoms[bottoms.index(hidden_end) - 1]
    assert any(hidden_top <= y < hidden_end for y in _ink_rows(label))   # now whole in view, it is drawn
    area.resize(area.width(), label.height() + 40)        # everything in view
    qtbot.waitUntil(lambda: not label.hides_text())
    qtbot.waitUntil(lambda: label.toolTip() == "")
    label.setToolTip("own tip")
    assert label.toolTip() == "own tip"


def test_the_lines_are_where_qt_draws_them(qtbot):
    """The layout the label reckons with is Qt's own: each reckoned line holds one run of ink."""
    label = WholeLinesLabel()
    label.setText(TEXT)
    label.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
    qtbot.addWidget(label)
    label.resize(220, 400)
    label.show()
    qtbot.waitExposed(label)
    bottoms = label.line_bottoms()
    assert len(bottoms) >= 4
    ink = _ink_rows(label)
    tops = (0,) + bottoms[:-1]
    for top, bottom in zip(tops, bottoms):
        assert any(top <= y < bottom for y in ink)
    # no ink crosses a reckoned line's end: the rows at each line's end are blank or the line's own descent
    assert max(ink) < bottoms[-1]
    assert QtGui.QFontMetrics(label.font()).lineSpacing() <= bottoms[1] - bottoms[0] + 1
