"""The least room a plot is given, counted in lines and characters of the window's text, so that it follows the
text size.

A plot in a layout with its controls took what they left: at 250 % text on a 1280 x 720 projector the
Explorer's wrapped controls and readout under the plot left it 26 px of data and Compare's lanes and note ~40 px
(measured on their left axes), a strip no one could read. A plot kept at ``LINES`` lines high and ``CHARS``
characters wide keeps its title, its tick labels and a data area of several lines at any text size; the view
around it scrolls instead (each tab's view sits in a scroll area), and at 100 % the least is ~150 px, below
what the plots get anyway.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

LINES = 10     # a title, the x axis' ticks and label (~3 lines) and a data area of ~7
CHARS = 30     # the y axis' ticks and label (~8 characters) and a data area of ~22


def readable_size(font: QtGui.QFont) -> QtCore.QSize:
    metrics = QtGui.QFontMetrics(font)
    return QtCore.QSize(CHARS * metrics.averageCharWidth(), LINES * metrics.lineSpacing())


class _Keeper(QtCore.QObject):
    def __init__(self, plot: QtWidgets.QWidget):
        super().__init__(plot)
        self._plot = plot
        plot.installEventFilter(self)
        self.apply()

    def apply(self) -> None:
        # the window's text (the application's font): pyqtgraph's widgets keep their own font for their items
        self._plot.setMinimumSize(readable_size(QtWidgets.QApplication.font()))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self._plot and event.type() in (QtCore.QEvent.Type.FontChange,
                                                  QtCore.QEvent.Type.ApplicationFontChange):
            self.apply()
        return False


def keep_readable(plot: QtWidgets.QWidget) -> QtCore.QObject:
    """Keep ``plot`` at least ``LINES`` lines of the window's text high and ``CHARS`` characters wide, now and
    after every change of text size."""
    return _Keeper(plot)
