"""A tab's column of settings beside its pictures: it scrolls down on a short screen, never sideways.

The compare and set-operations tabs each put their controls in such a column; it is as wide as the controls'
minimum (plus the vertical scroll bar's room), so no control is clipped and no horizontal bar appears.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


def side_column(controls: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    """``controls`` in a scroll area at least as wide as they need, with no horizontal scroll bar."""
    scroll = QtWidgets.QScrollArea()
    scroll.setWidget(controls)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setMinimumWidth(controls.minimumSizeHint().width() + scroll.verticalScrollBar().sizeHint().width()
                           + 2 * scroll.frameWidth())
    return scroll
