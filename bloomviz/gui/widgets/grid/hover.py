"""The hover readout: which cell is under the cursor, and a label beside it saying what the cell holds.

``GridHover`` is a part of ``BitGridWidget`` (``widget.py``), handed the grid it reads cells from; the text
comes from a provider the window sets (the workbench names the items that set a bit), else it is "bit i = v".

The provider's cost grows with the filter: naming the items behind a bit scans every insert's positions
(33-58 ms at 10^6 inserts here, ten times that at 10^7). A provider that took longer than ``SLOW_PROVIDER_S``
is asked only once the cursor rests on a cell for ``REST_MS``; until then the label says "bit i = v", so moving
the mouse across a large filter never waits for it.
"""

from __future__ import annotations

import time
from typing import Callable

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.plain_text import plain_label
from bloomviz.i18n import number, tr
from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.style import HOVER_MAX_WIDTH

_QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's QWIDGETSIZE_MAX, not exported by PySide6
SLOW_PROVIDER_S = 0.100   # well above a small filter's few ms even on a loaded machine
REST_MS = 150


class GridHover(QtCore.QObject):
    """The hovered cell and its label; watches the grid's viewport for the cursor leaving it."""

    def __init__(self, grid):   # the BitGridWidget it reads: m, rows, cols, value(), view box, cellHovered
        super().__init__(grid)
        self._grid = grid
        self.index = -1
        self._provider: Callable[[int], str] | None = None
        self._slow_provider = False
        self._rest_timer: QtCore.QTimer | None = None
        self.label = plain_label(QtWidgets.QLabel(grid))   # it names items: text, never markup
        self.label.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.label.hide()
        grid.graphics_widget.scene().sigMouseMoved.connect(self._on_mouse_moved)
        grid.graphics_widget.viewport().installEventFilter(self)

    def set_provider(self, fn: Callable[[int], str] | None) -> None:
        self._provider = fn
        self._slow_provider = False

    def default_text(self, index: int) -> str:
        word = tr("counter") if self._grid.max_value > 1 else tr("bit")
        return tr("{cell} {index} = {value}{where}").format(cell=word, index=number(index),
                                                           value=self._grid.value(index), where="")

    def at_view(self, x: float, y: float) -> int:
        g = self._grid
        index = gl.point_to_index(x, y, g.rows, g.cols, g.m) if g.m else -1
        self.set(index, g.view_box.mapViewToScene(QtCore.QPointF(x, y)))
        return index

    def refresh(self) -> None:
        """The cell under the cursor changed value: say so."""
        if self.index >= 0:
            self.set(self.index, None, refresh_only=True)

    def _on_mouse_moved(self, scene_pos) -> None:
        g = self._grid
        if not g.m:
            return
        view_pt = g.view_box.mapSceneToView(scene_pos)
        self.set(gl.point_to_index(view_pt.x(), view_pt.y(), g.rows, g.cols, g.m), scene_pos)

    def set(self, index: int, scene_pos, refresh_only: bool = False) -> None:
        changed = index != self.index
        self.index = index
        if index < 0:
            self.label.hide()
        elif changed or refresh_only:
            self._show(self._text_now(index))
        if index >= 0 and scene_pos is not None:
            self._place(scene_pos)
        if changed and not refresh_only:
            self._grid.cellHovered.emit(index)

    def _text_now(self, index: int) -> str:
        """The provider's text, or while the provider is slow the plain one, the provider's following at rest."""
        if self._provider is None:
            return self.default_text(index)
        if self._slow_provider:
            if self._rest_timer is None:
                self._rest_timer = QtCore.QTimer(self)
                self._rest_timer.setSingleShot(True)
                self._rest_timer.timeout.connect(self._rested)
            self._rest_timer.start(REST_MS)
            return self.default_text(index)
        return self._timed_provider(index)

    def _timed_provider(self, index: int) -> str:
        started = time.perf_counter()
        text = self._provider(index)
        self._slow_provider = time.perf_counter() - started > SLOW_PROVIDER_S
        return text

    def _rested(self) -> None:
        if 0 <= self.index < self._grid.m and self._provider is not None:
            self._show(self._timed_provider(self.index))

    def _show(self, text: str) -> None:
        label = self.label
        # QLabel's word wrap picks odd widths for short texts: wrap only what cannot fit on one line
        widest = max(label.fontMetrics().horizontalAdvance(line) for line in text.split("\n") or [""])
        label.setWordWrap(widest > HOVER_MAX_WIDTH - 16)
        label.setText(text)
        if label.wordWrap():
            label.setFixedWidth(HOVER_MAX_WIDTH)
            label.setFixedHeight(label.heightForWidth(HOVER_MAX_WIDTH))
        else:
            label.setMinimumSize(0, 0)
            label.setMaximumSize(_QWIDGETSIZE_MAX, _QWIDGETSIZE_MAX)
            label.adjustSize()
        label.show()
        label.raise_()

    def _place(self, scene_pos) -> None:
        g, label = self._grid, self.label
        glw = g.graphics_widget
        pt = glw.viewport().mapTo(g, glw.mapFromScene(scene_pos)) + QtCore.QPoint(16, 18)
        x = min(pt.x(), max(0, g.width() - label.width() - 4))
        y = pt.y()
        if y + label.height() > g.height():
            y = max(0, pt.y() - label.height() - 30)
        label.move(x, y)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Leave and self.index >= 0:
            self.set(-1, None)
        return False
