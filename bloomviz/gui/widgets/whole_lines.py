"""A word-wrapped label that never shows a line cut in half.

A long text (the item panel's verdict, the live plot's readout) sits in a scroll area so that large text never
squeezes it; but the area's edge fell wherever the dock ended, and at 150-250 % text a class read the top half
of a line ("“pundits” is probably in the" over the bottom of its letters). ``WholeLinesLabel`` shows only the
lines whose whole height is in view (a mask ends it below the last of them), the scroll bar says there is more,
and the tooltip holds the whole text while part of it is out of view.

The lines are found by laying the label's text out as Qt's label does (a ``QTextDocument`` in the label's font,
at its contents' width, no document margin), so a headline in bold or a line of another height counts right.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets


class WholeLinesLabel(QtWidgets.QLabel):
    """A QLabel (word wrap on) that hides a line it cannot show whole, and says the hidden text in its tooltip."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(text, parent)
        self.setWordWrap(True)
        self._layout_key = None
        self._bottoms: tuple[int, ...] = ()
        self._plain = ""
        self._shown: tuple | None = None
        self._own_tip = ""

    def setToolTip(self, tip: str) -> None:  # noqa: N802 - Qt's name
        """The label's own tip; while text is out of view, that text follows it."""
        self._own_tip = tip
        self._shown = None
        super().setToolTip(tip)

    def line_bottoms(self) -> tuple[int, ...]:
        """Where each line of the wrapped text ends, in the label's own coordinates."""
        area = self.contentsRect()
        key = (self.text(), area.width(), area.top(), self.font().key(), self.textFormat())
        if key != self._layout_key:
            doc = QtGui.QTextDocument()
            doc.setDefaultFont(self.font())
            doc.setDocumentMargin(0)       # as QLabel lays rich text out
            if self.textFormat() == QtCore.Qt.TextFormat.PlainText:
                doc.setPlainText(self.text())
            else:
                doc.setHtml(self.text())
            doc.setTextWidth(max(1, area.width()))
            doc.size()                     # lays it out
            bottoms = []
            block = doc.begin()
            while block.isValid():
                layout = block.layout()
                top = layout.position().y()
                for i in range(layout.lineCount()):
                    line = layout.lineAt(i)
                    bottoms.append(int(area.top() + top + line.y() + line.height() + 0.5))
                block = block.next()
            self._layout_key, self._bottoms, self._plain = key, tuple(bottoms), doc.toPlainText()
        return self._bottoms

    def shown_bottom(self) -> int:
        """The height down to which the label paints its text: the end of the last line wholly in view (its
        full height when every line is)."""
        seen = self.visibleRegion().boundingRect()
        if seen.isEmpty():
            return self.height()
        bottoms = self.line_bottoms()
        if not bottoms or bottoms[-1] <= seen.bottom() + 1:
            return self.height()
        return max((b for b in bottoms if b <= seen.bottom() + 1), default=0)

    def hides_text(self) -> bool:
        return self.shown_bottom() < self.height()

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:  # noqa: N802 - Qt's name
        cut = self.shown_bottom()
        shown = (cut, self.width(), self._plain)
        if shown != self._shown:
            # A mask, not a band painted over: what lies behind the label (a white plot page, the theme's
            # window) shows below its last whole line. Qt repaints only what newly came into view (a scroll
            # moves the pixels already drawn), so the mask follows the view at every paint.
            self._shown = shown
            if cut < self.height():
                self.setMask(QtGui.QRegion(0, 0, self.width(), max(1, cut)))
            else:
                self.clearMask()
            hidden = self._plain if cut < self.height() else ""
            super().setToolTip("\n\n".join(tip for tip in (self._own_tip, hidden) if tip))
            self.update()
        super().paintEvent(event)
