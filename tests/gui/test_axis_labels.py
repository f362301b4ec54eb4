"""No two tick labels of a plot's axis overlap (gui/axis_labels.py): at 150 % text a log axis over one decade
drew 0.05, 0.06 ... 0.1 one over the other; now the labels that would touch are left out, a decade's last."""

from __future__ import annotations

import math

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from bloomviz.gui import axis_labels


def _spec(x, y, w=40, h=16, text="t"):
    return (QtCore.QRectF(x, y, w, h), 0, text)


def test_a_label_touching_one_kept_before_it_is_left_out():
    texts = [_spec(0, 0, text="a"), _spec(0, 10, text="b"), _spec(0, 40, text="c"), _spec(0, 17, text="d")]
    assert [t[2] for t in axis_labels.apart(texts, vertical=True)] == ["a", "c"]


def test_labels_side_by_side_need_a_gap_along_a_horizontal_axis():
    texts = [_spec(0, 0, text="a"), _spec(41, 0, text="b"), _spec(60, 0, text="c")]
    kept = [t[2] for t in axis_labels.apart(texts, vertical=False)]
    assert kept == ["a", "c"]      # b starts 1 px after a ends: read as one number


def test_a_decade_comes_first_then_five_then_two():
    ranks = {j: axis_labels.mantissa_rank(-2 + math.log10(j)) for j in range(1, 10)}
    assert sorted(ranks, key=ranks.get)[:3] == [1, 5, 2]
    assert axis_labels.mantissa_rank(math.log10(1000)) == 0


def _overlapping(texts) -> list:
    return [(a[2], b[2]) for i, a in enumerate(texts) for b in texts[i + 1:] if a[0].intersects(b[0])]


@pytest.fixture
def crowded_log_axis(qtbot):
    """A log axis over one decade, 270 px tall, in 150 % of the window's tick font (as the Explorer's k plot)."""
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(320, 300)
    widget.setLogMode(y=True)
    widget.plot([1, 2, 3], [0.01, 0.05, 0.09])
    widget.setYRange(math.log10(0.009), math.log10(0.12), padding=0)
    axis = widget.getAxis("left")
    font = QtGui.QFont()
    font.setPointSizeF(15)
    axis.setTickFont(font)
    widget.show()
    qtbot.waitExposed(widget)
    qtbot.waitUntil(lambda: axis.height() > 200 and abs(axis.range[1] - math.log10(0.12)) < 0.01)   # laid out, the range taken
    width = axis.width()
    widget.grab()        # a first paint widens the axis to its labels (pyqtgraph's autoExpandTextSpace)
    qtbot.waitUntil(lambda: axis.width() > width)
    yield axis           # (the widget held until the test ends: its axis is its child)


def _specs(axis, make):
    image = QtGui.QImage(8, 8, QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(image)
    painter.setFont(axis.style["tickFont"])
    try:
        return make(axis, painter)
    finally:
        painter.end()


def test_a_crowded_log_axis_shows_its_decades_and_no_label_over_another(crowded_log_axis):
    axis = crowded_log_axis
    axis_labels.install()
    assert axis_labels.installed()
    texts = _specs(axis, lambda a, p: a.generateDrawSpecs(p))[2]
    shown = [t[2] for t in texts]
    assert not _overlapping(texts), shown
    assert {"0.01", "0.1"} <= set(shown) and len(shown) >= 4, shown


def test_pyqtgraph_alone_overlaps_them_there(crowded_log_axis):
    """The same axis as pyqtgraph lays it out: the check above would see the overlaps."""
    texts = _specs(crowded_log_axis, axis_labels._PYQTGRAPH_SPECS)[2]
    assert _overlapping(texts)
