"""The hover readout: which cell is under the cursor, and a label beside it saying what the cell holds.

A mixin of ``BitGridWidget`` (``widget.py``); the text comes from a provider the window sets (the workbench
names the items that set a bit), else it is "bit i = v".

The provider's cost grows with the filter: naming the items behind a bit scans every insert's positions
(33-58 ms at 10^6 inserts here, ten times that at 10^7). A provider that took longer than ``SLOW_PROVIDER_S``
is asked only once the cursor rests on a cell for ``REST_MS``; until then the label says "bit i = v", so moving
the mouse across a large filter never waits for it.
"""

from __future__ import annotations

import time
from typing import Callable

from PySide6 import QtCore

from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.style import HOVER_MAX_WIDTH

_QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's QWIDGETSIZE_MAX, not exported by PySide6
SLOW_PROVIDER_S = 0.100   # well above a small filter's few ms even on a loaded machine
REST_MS = 150


class HoverMixin:
    """``set_hover_text_provider``, ``hover_at_view`` and the ``cellHovered`` signal's source."""

    def set_hover_text_provider(self, fn: Callable[[int], str] | None) -> None:
        self._hover_provider = fn
        self._slow_provider = False

    def _default_hover_text(self, index: int) -> str:
        word = "counter" if self._max_value > 1 else "bit"
        return f"{word} {index:,} = {self.value(index)}"

    def hover_at_view(self, x: float, y: float) -> int:
        """Hover the cell under view point (x, y) as if the cursor were there; returns its index or -1."""
        index = gl.point_to_index(x, y, self._rows, self._cols, self._m) if self._m else -1
        scene_pt = self._vb.mapViewToScene(QtCore.QPointF(x, y))
        self._set_hover(index, scene_pt)
        return index

    def _on_mouse_moved(self, scene_pos) -> None:
        if not self._m:
            return
        view_pt = self._vb.mapSceneToView(scene_pos)
        index = gl.point_to_index(view_pt.x(), view_pt.y(), self._rows, self._cols, self._m)
        self._set_hover(index, scene_pos)

    def _set_hover(self, index: int, scene_pos, refresh_only: bool = False) -> None:
        changed = index != self._hover_index
        self._hover_index = index
        if index < 0:
            self._hover_label.hide()
        elif changed or refresh_only:
            self._show_hover_text(self._hover_text_now(index))
        if index >= 0 and scene_pos is not None:
            self._place_hover_label(scene_pos)
        if changed and not refresh_only:
            self.cellHovered.emit(index)

    def _hover_text_now(self, index: int) -> str:
        """The provider's text, or while the provider is slow the plain one, the provider's following at rest."""
        if self._hover_provider is None:
            return self._default_hover_text(index)
        if self._slow_provider:
            if self._rest_timer is None:
                self._rest_timer = QtCore.QTimer(self)
                self._rest_timer.setSingleShot(True)
                self._rest_timer.timeout.connect(self._hover_rested)
            self._rest_timer.start(REST_MS)
            return self._default_hover_text(index)
        return self._timed_provider(index)

    def _timed_provider(self, index: int) -> str:
        started = time.perf_counter()
        text = self._hover_provider(index)
        self._slow_provider = time.perf_counter() - started > SLOW_PROVIDER_S
        return text

    def _hover_rested(self) -> None:
        index = self._hover_index
        if index >= 0 and self._hover_provider is not None and index < self._m:
            self._show_hover_text(self._timed_provider(index))

    def _show_hover_text(self, text: str) -> None:
        label = self._hover_label
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
        self._hover_label.show()
        self._hover_label.raise_()

    def _place_hover_label(self, scene_pos) -> None:
        view_pt = self._glw.mapFromScene(scene_pos)
        pt = self._glw.viewport().mapTo(self, view_pt) + QtCore.QPoint(16, 18)
        label = self._hover_label
        x = min(pt.x(), max(0, self.width() - label.width() - 4))
        y = pt.y()
        if y + label.height() > self.height():
            y = max(0, pt.y() - label.height() - 30)
        label.move(x, y)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Leave and self._hover_index >= 0:
            self._set_hover(-1, None)
        return False
