"""A tab's column of settings beside its pictures: it scrolls down on a short screen, never sideways.

The compare and set-operations tabs each put their controls in such a column; it is as wide as the controls'
minimum (plus the vertical scroll bar's room), so no control is clipped and no horizontal bar appears.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


def side_column(*parts, end_stretch: int = 0) -> QtWidgets.QScrollArea:
    """``parts`` (widgets or layouts, or (part, stretch) pairs) stacked top to bottom, with ``end_stretch``
    below them, in a scroll area at least as wide as they need and with no horizontal scroll bar."""
    controls = QtWidgets.QWidget()
    column = QtWidgets.QVBoxLayout(controls)
    for part in parts:
        part, stretch = part if isinstance(part, tuple) else (part, 0)
        if isinstance(part, QtWidgets.QLayout):
            column.addLayout(part, stretch)
        else:
            column.addWidget(part, stretch)
    if end_stretch:
        column.addStretch(end_stretch)
    scroll = QtWidgets.QScrollArea()
    scroll.setWidget(controls)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setMinimumWidth(controls.minimumSizeHint().width() + scroll.verticalScrollBar().sizeHint().width()
                           + 2 * scroll.frameWidth())
    return scroll
