"""A keyboard cursor on the bit grid: Tab reaches the grid, the arrow keys move from cell to cell, Home and End
go to the first and last cell, and each cell is shown (the grid's hover label beside it) and spoken
("bit 13, set, by ana@acme.com"). The mouse's hovered cell becomes the grid's description as well.

An event filter on the grid's view, so the grid widget itself stays a picture of cells that knows no keys.
"""

from __future__ import annotations

from PySide6 import QtCore

from bloomviz.gui.access.speech import Speaker, cell_words, describe_widget

Key = QtCore.Qt.Key


class CellCursor(QtCore.QObject):
    def __init__(self, grid, words, speaker: Speaker):
        """``grid``: a BitGridWidget; ``words(index) -> str``: what a cell is, spoken."""
        super().__init__(grid)
        self.grid, self._words, self._speaker = grid, words, speaker
        self.index = -1
        view = grid.graphics_widget
        view.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        view.installEventFilter(self)
        grid.cellHovered.connect(self._hovered)

    def moves(self, key: int) -> int:
        """The cell a key takes the cursor to (the cursor stays at an edge); -1 for a key that is not a move."""
        m, cols, at = self.grid.m, max(1, self.grid.cols), max(self.index, 0)
        if not m:
            return -1
        step = {Key.Key_Left: -1, Key.Key_Right: 1, Key.Key_Up: -cols, Key.Key_Down: cols}.get(key)
        if step is not None:
            target = at + step if self.index >= 0 else 0
            return target if 0 <= target < m else at
        return {Key.Key_Home: 0, Key.Key_End: m - 1}.get(key, -1)

    def move_to(self, index: int) -> str:
        """Put the cursor on cell ``index``: shown beside the cell, scrolled into view, spoken; returns the words."""
        self.index = index
        x, y = index % self.grid.cols + 0.5, index // self.grid.cols + 0.5
        vb = self.grid.view_box
        (x0, x1), (y0, y1) = vb.viewRange()
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            vb.translateBy(x=x - (x0 + x1) / 2 if not x0 <= x <= x1 else 0,
                           y=y - (y0 + y1) / 2 if not y0 <= y <= y1 else 0)
        self.grid.hover_at_view(x, y)
        text = self._words(index)
        describe_widget(self.grid.graphics_widget, text)
        self._speaker.say(self.grid.graphics_widget, text)
        return text

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind == QtCore.QEvent.Type.KeyPress:
            target = self.moves(event.key())
            if target >= 0:
                self.move_to(target)
                return True
        elif kind == QtCore.QEvent.Type.FocusIn and self.grid.m:
            self.move_to(min(max(self.index, 0), self.grid.m - 1))
        return False

    def _hovered(self, index: int) -> None:
        if index >= 0:
            describe_widget(self.grid.graphics_widget, self.grid.hover_label.text())


def attach(window, speaker: Speaker) -> CellCursor:
    """The cursor on the Filter tab's grid, its cells read from the window's workbench."""
    return CellCursor(window.grid, lambda index: cell_words(window.wb, index), speaker)



