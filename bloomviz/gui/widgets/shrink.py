"""Keeping a window usable at any text size: panels that scroll instead of growing, and a central view that
keeps its share of the window.

At 250 % text the panels' minimum sizes added up to more than a 1280 x 800 screen: the window grew past the
screen (its status bar below the bottom edge) and the grid, the one thing the lecture hall looks at, was
squeezed to 140 px. A panel inside ``scrolling(panel)`` asks for almost no room (it scrolls when it gets
less than it wants), and ``keep_share(view, window, w, h)`` gives ``view`` a minimum size of a fixed share of
the window, renewed on every resize, so the docks give way to it rather than the other way round.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


def scrolling(panel: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    """``panel`` in a frameless scroll area that fits it when it can and scrolls when it cannot."""
    area = QtWidgets.QScrollArea()
    area.setObjectName(f"scroll_{panel.objectName() or type(panel).__name__}")
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    area.setWidget(panel)
    area.setMinimumSize(1, 1)
    return area


class _ShareKeeper(QtCore.QObject):
    def __init__(self, view: QtWidgets.QWidget, window: QtWidgets.QWidget, width_share: float,
                 height_share: float):
        super().__init__(window)
        self._view, self._window = view, window
        self._shares = (width_share, height_share)
        window.installEventFilter(self)
        self.apply()

    def apply(self) -> None:
        w, h = self._shares
        self._view.setMinimumSize(int(self._window.width() * w), int(self._window.height() * h))

    def eventFilter(self, obj, event) -> bool:
        if obj is self._window and event.type() == QtCore.QEvent.Type.Resize:
            self.apply()
        return False


def keep_share(view: QtWidgets.QWidget, window: QtWidgets.QWidget, width_share: float,
               height_share: float) -> QtCore.QObject:
    """Keep ``view`` at least ``width_share`` x ``height_share`` of ``window``'s size (shares in 0..1)."""
    for name, share in (("width_share", width_share), ("height_share", height_share)):
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share < 1:
            raise ValueError(f"{name} must be a number from 0 to below 1, not {share!r}")
    return _ShareKeeper(view, window, float(width_share), float(height_share))
