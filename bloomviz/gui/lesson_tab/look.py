"""How the Lesson tab's stage is sized: every cell of the grid in view, and presenter mode's type for a hall.

Projected text needs about 3 % of the picture's height to be read from the back row of a hall (12-15 m); the
numbers a step states (the numbers line, what a step computed), the lesson's title with its step counter, and
the grid's cell indices get at least ``HALL_TEXT`` of the window's height in presenter mode, at any resolution
(a class sees a projected 720-line picture as large as a 1080-line one). The narration is body text, a little
smaller (``NARRATION``), so that a step's words still fit beside the grid.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

HALL_TEXT = 0.032      # of the picture's height: the numbers, the title, the counter and the cell indices
NARRATION = 0.03       # of the picture's height: the step's words (its numbers too)
# presenter mode lays a lesson's grid out about this many times wider than tall: a projected stage is wide and
# short (a question takes half of it), and 64 bits as 16 x 4 get cells twice the side of 8 x 8's, room for
# indices a hall reads
PRESENTER_ASPECT = 4.0
PRESENTER_LABEL_FRACTION = 0.6   # of a cell's height: an index label in presenter mode
RESULT_TEXT = 0.05     # a theory-only step's result, drawn as the step's picture
STEP_LIST_CHARS = 24   # the step list's width in average characters of the text size (280 px at 100 %)


def hall_px(height: int, share: float = HALL_TEXT) -> int:
    """A font's pixel size that is ``share`` of a picture ``height`` lines high (at least the normal text's)."""
    normal = QtGui.QFontInfo(QtWidgets.QApplication.font()).pixelSize()
    return max(normal, math.ceil(share * height))


def font_px(px: int, bold: bool = False) -> QtGui.QFont:
    font = QtGui.QFont(QtWidgets.QApplication.font())
    font.setPixelSize(px)
    font.setBold(bold)
    return font


def refit_grid(grid) -> None:
    """Every cell in view. The grid's own fit() asks pyqtgraph for the cells' rectangle, and with the aspect
    locked pyqtgraph may keep the width and crop rows (a wide, short grid after a question takes room): so
    ask for a rectangle of the view's own shape that holds every cell."""
    vb = grid.view_box
    w, h, cols, rows = vb.width(), vb.height(), grid.cols, grid.rows
    if not (w > 0 and h > 0 and cols and rows):
        return
    per_px = max(cols / w, rows / h) * 1.04      # 2 % padding on each side
    half_x, half_y = w * per_px / 2, h * per_px / 2
    # the grid caps zooming out at 3x its size, less than a small grid needs in a wide, short view
    limits = vb.state["limits"]
    vb.setLimits(maxXRange=max(limits["xRange"][1] or 0, 2.01 * half_x),
                 maxYRange=max(limits["yRange"][1] or 0, 2.01 * half_y))
    vb.setRange(xRange=(cols / 2 - half_x, cols / 2 + half_x), yRange=(rows / 2 - half_y, rows / 2 + half_y),
                padding=0)


def short_title(name: str) -> str:
    """A built-in lesson's name in the lesson menu, from its file name: ``03-the-math`` -> "The math"."""
    words = name.split("-", 1)[1].replace("-", " ").replace("bloom", "Bloom")     # Bloom: a name
    return words[:1].upper() + words[1:]


class _TextSize(QtCore.QObject):
    """Sets the view's type again when the window's text size changes: the stage's labels have fonts of their own
    (presenter mode's type), so the application's new font did not reach them (at 250 % the title and the
    narration stayed at 100 %)."""

    def __init__(self, view):
        super().__init__(view)
        self._view = view
        view.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._view.retype(again=True)
        return False


def follow_text_size(view) -> QtCore.QObject:
    """The normal type now, and again at every change of the window's text size; the view keeps what this
    returns (the watcher's Python half must live as long as the view)."""
    apply_type(view, 0)
    return _TextSize(view)


def apply_type(view, height: int) -> None:
    """The Lesson view's type for a picture ``height`` lines high (presenter mode), or the normal type (0)."""
    app_font = QtWidgets.QApplication.font()
    words = font_px(hall_px(height, NARRATION)) if height else app_font
    numbers = font_px(hall_px(height)) if height else app_font
    title = font_px(hall_px(height), bold=True) if height else app_font
    view.narration.setFont(words)
    view.legend.setFont(words)
    for label in (view.numbers, view.computed):
        label.setFont(numbers)
    big = QtGui.QFont(app_font)
    big.setPixelSize(hall_px(height, RESULT_TEXT) if height else round(1.6 * QtGui.QFontInfo(app_font).pixelSize()))
    view.result.setFont(big)
    view.predict.set_scale(words.pixelSize() / max(1, QtGui.QFontInfo(app_font).pixelSize()) if height else 1.0)
    view.predict.set_compact(bool(height))
    heading = QtGui.QFont(title)
    heading.setBold(True)
    view.heading.setFont(heading)
    view.message.setFont(title)
    view.counter.setFont(title)
    view.counter.setVisible(bool(height))
    view.steps.setFixedWidth(max(280, STEP_LIST_CHARS * QtGui.QFontMetrics(app_font).averageCharWidth()))
    grid = type(view.grid)
    if height:      # indices a hall reads, or none: a smaller number is noise from the back row
        view.grid.set_label_size(hall_px(height), PRESENTER_LABEL_FRACTION, hall_px(height))
    else:
        view.grid.set_label_size(grid.label_px_cap, grid.label_fraction, grid.label_px_min)


def fit_stage(view) -> None:
    """The split between the grid and the words, fitted to the step: the lines of numbers, the narration and
    the question get the height they need (between 30 % and 60 % of the stage), the grid the rest."""
    total = sum(view.stage.sizes())
    top = view.grid if view.grid.isVisibleTo(view) else view.result if view.result.isVisibleTo(view) else None
    if total <= 0 or top is None:
        return
    width = max(view.width() // 2 if view.predict_box.isVisibleTo(view) else view.width(), 200)
    words = view.narration.document().size().height() + 2 * view.narration.frameWidth() + 6
    if view.predict_box.isVisibleTo(view):
        words = max(words, view.predict.height_needed(view.predict.width() if view.predict.width() > 50
                                                      else width))
    spacing = max(0, view.stage.widget(view.stage.count() - 1).layout().spacing())
    # the labels wrap at the stage's width, not the view's (the step list takes the rest): measured at the view's,
    # a long line of numbers (git's, in Croatian at 150 %) was given a line too few and shown cut in half
    lines = view.stage.width() if view.stage.width() > 50 else view.width()
    need = int(words) + 12 + sum(label.heightForWidth(lines) + spacing
                                 for label in (view.numbers, view.computed) if label.isVisibleTo(view) and label.text())
    if view.legend.isVisibleTo(view):   # the grid's key sits above them (left out, the lines ran over its second)
        need += view.legend.height() + spacing
    lower = min(max(need, total * 3 // 10), total * 6 // 10)
    if top is view.result:      # the result's lines need their height; the words get the rest
        lower = max(total - view.result.heightForWidth(lines) - 24, total * 3 // 10)
    if abs(view.stage.sizes()[-1] - lower) > 4:
        view.stage.setSizes([total - lower, 0, lower] if top is view.grid else [0, total - lower, lower])
        if top is view.grid:
            refit_grid(view.grid)
