"""The compare view's lanes: a configuration's title, grid and numbers each (``LaneFrame``), laid out by
``LaneBox`` side by side when their titles fit on one line, else in rows, inside a scroll area.

At 250 % text on 1440 x 900 four lanes side by side were 175 px each: "murmur3-mix" in bold needs ~200 px, so
titles were cut to "murmur3" (the hyphen past the edge) and the numbers under the grid to their first lines.
The columns are chosen from the widest piece of a title or of the numbers that a line cannot break (font
metrics at the current text size), and every lane is given the height its words need at its width; what the
tab cannot show scrolls, none of it is cut.
"""

from __future__ import annotations

import math
import re

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.access.names import plain
from bloomviz.gui.widgets.grid import BitGridWidget

SPACING = 4
MARGIN = 4
GRID_MIN = 80        # px: a lane's grid, however large the text


def _pieces(text: str) -> list[str]:
    """What a line of ``text`` cannot break: its words, a hyphenated word as its parts with their hyphens."""
    return [piece for word in text.split() for piece in re.findall(r"[^-]*-|[^-]+", word)]


class LaneFrame(QtWidgets.QFrame):
    """A configuration's title, grid and numbers."""

    def __init__(self, colour: str, parent=None):
        super().__init__(parent)
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.title = QtWidgets.QLabel()
        self.title.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.grid = BitGridWidget()
        self.grid.setMinimumSize(GRID_MIN, GRID_MIN)
        self.stats = QtWidgets.QLabel()
        self.stats.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.stats.setWordWrap(True)
        self.colour = colour
        for label in (self.title, self.stats):
            # the lane's width is the box's choice (``LaneBox``), not its labels' wish
            label.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(MARGIN, MARGIN, MARGIN, MARGIN)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.grid, 1)
        layout.addWidget(self.stats)

    def _edges(self) -> int:
        return 2 * (MARGIN + self.frameWidth())

    def least_width(self) -> int:
        """The widest piece of the title (in its bold type) or of the numbers that a line cannot break (lines
        break at spaces and after a hyphen: "murmur3-" over "seeded"), with the lane's edges."""
        bold = QtGui.QFont(self.title.font())
        bold.setBold(True)
        pieces = [(QtGui.QFontMetrics(bold), piece) for piece in _pieces(plain(self.title.text()))]
        pieces += [(self.stats.fontMetrics(), piece) for piece in _pieces(plain(self.stats.text()))]
        widest = max((metrics.horizontalAdvance(piece) for metrics, piece in pieces), default=0)
        return max(GRID_MIN, widest) + self._edges() + 2

    def title_and_grid_height(self, width: int) -> int:
        """The lane's height at ``width`` down to its smallest grid: what the strip must show of it (its numbers
        may scroll)."""
        inner = max(1, width - self._edges())
        return (self.title.heightForWidth(inner) if self.title.text() else 0) + GRID_MIN + 2 + self._edges()

    def needed_height(self, width: int) -> int:
        """The lane's height at ``width`` with its title and numbers whole and the smallest grid."""
        inner = max(1, width - self._edges())
        words = sum(label.heightForWidth(inner) if label.text() else 0 for label in (self.title, self.stats))
        return words + GRID_MIN + 2 * 2 + self._edges()


class LaneBox(QtWidgets.QWidget):
    """The visible lanes in as many columns as their titles allow on one line (at least one), each row as tall
    as its lanes' words need; placed by hand on every resize, text change and font change (``refit``)."""

    def __init__(self, lanes, parent=None):
        super().__init__(parent)
        self.lanes = list(lanes)
        for lane in self.lanes:
            lane.setParent(self)

    def shown(self) -> list[LaneFrame]:
        return [lane for lane in self.lanes if not lane.isHidden()]

    def columns(self, width: int) -> int:
        """As many as fit their lanes' unbreakable words, balanced over the rows (two and two, not three and
        one)."""
        shown = self.shown()
        if not shown:
            return 1
        need = max(lane.least_width() for lane in shown)
        most = max(1, min(len(shown), (width + SPACING) // (need + SPACING)))
        rows = math.ceil(len(shown) / most)
        return math.ceil(len(shown) / rows)

    def row_height(self) -> int:
        """One row of lanes whole at the current width: what the lanes ask of the space above the plot."""
        shown = self.shown()
        if not shown or self.width() <= 0:
            return 260
        cols = self.columns(self.width())
        lane_w = max(1, (self.width() - (cols - 1) * SPACING) // cols)
        return max(lane.needed_height(lane_w) for lane in shown)

    def least_shown(self) -> int:
        """The height the strip must show: its first row's titles and grids (at 250 % on 1280 x 720 the plot's
        least height left the strip 70 px, the titles cut in half and no grid)."""
        shown = self.shown()
        if not shown or self.width() <= 0:
            return 0
        cols = self.columns(self.width())
        lane_w = max(1, (self.width() - (cols - 1) * SPACING) // cols)
        return max(lane.title_and_grid_height(lane_w) for lane in shown[:cols])

    def refit(self) -> None:
        shown = self.shown()
        if not shown:
            return
        width = self.width()
        cols = self.columns(width)
        rows = math.ceil(len(shown) / cols)
        lane_w = max(1, (width - (cols - 1) * SPACING) // cols)
        need = max(lane.needed_height(lane_w) for lane in shown)
        least = rows * need + (rows - 1) * SPACING
        if self.minimumHeight() != least:
            self.setMinimumHeight(least)       # the scroll area scrolls what the tab cannot show
        area = self.parentWidget().parentWidget() if self.parentWidget() is not None else None
        if isinstance(area, LaneArea) and area.minimumSizeHint().height() != area.least:
            area.updateGeometry()              # the splitter above the plot asks again
        row_h = max(need, (self.height() - (rows - 1) * SPACING) // rows)
        for i, lane in enumerate(shown):
            row, col = divmod(i, cols)
            lane.setGeometry(col * (lane_w + SPACING), row * (row_h + SPACING), lane_w, row_h)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.refit()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            QtCore.QTimer.singleShot(0, self.refit)

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(4 * 160, self.row_height())


class LaneArea(QtWidgets.QScrollArea):
    """The lanes' scroll area, never lower than their first row's titles and grids (``LaneBox.least_shown``)."""

    least = 0

    def minimumSizeHint(self) -> QtCore.QSize:
        box = self.widget()
        self.least = box.least_shown() if isinstance(box, LaneBox) else 0
        return QtCore.QSize(super().minimumSizeHint().width(), self.least)


def lane_area(box: LaneBox) -> QtWidgets.QScrollArea:
    """``box`` in a scroll area that scrolls up and down only (its lanes choose their columns by its width)."""
    scroll = LaneArea()
    scroll.setWidget(box)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return scroll
