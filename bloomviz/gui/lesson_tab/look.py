"""How the Lesson tab's stage is sized: every cell of the grid in view, and presenter mode's type for a hall.

Projected text needs about 3 % of the picture's height to be read from the back row of a hall (12-15 m); the
numbers a step states (the numbers line, what a step computed), the lesson's title with its step counter, and
the grid's cell indices get at least ``HALL_TEXT`` of the window's height in presenter mode, at any resolution
(a class sees a projected 720-line picture as large as a 1080-line one). The narration is body text, a little
smaller (``NARRATION``), so that a step's words still fit beside the grid.
"""

from __future__ import annotations

import math

from PySide6 import QtGui, QtWidgets

HALL_TEXT = 0.032      # of the picture's height: the numbers, the title, the counter and the cell indices
NARRATION = 0.026      # of the picture's height: the step's words
RESULT_TEXT = 0.06     # a theory-only step's one result, drawn as the step's picture


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


def apply_type(view, height: int) -> None:
    """The Lesson view's type for a picture ``height`` lines high (presenter mode), or the normal type (0)."""
    app_font = QtWidgets.QApplication.font()
    words = font_px(hall_px(height, NARRATION)) if height else app_font
    numbers = font_px(hall_px(height)) if height else app_font
    title = font_px(hall_px(height), bold=True) if height else app_font
    view.narration.setFont(words)
    for label in (view.numbers, view.computed):
        label.setFont(numbers)
    view.predict.set_scale(words.pixelSize() / max(1, QtGui.QFontInfo(app_font).pixelSize()) if height else 1.0)
    view.predict.set_compact(bool(height))
    view.message.setFont(title)
    view.counter.setFont(title)
    view.counter.setVisible(bool(height))
    view.grid.set_label_cap(hall_px(height) if height else type(view.grid).label_px_cap)


def fit_stage(view) -> None:
    """The split between the grid and the words, fitted to the step: the lines of numbers, the narration and
    the question get the height they need (between 30 % and 60 % of the stage), the grid the rest."""
    total = sum(view.stage.sizes())
    if total <= 0 or not view.grid.isVisibleTo(view):
        return
    width = max(view.width() // 2 if view.predict_box.isVisibleTo(view) else view.width(), 200)
    words = view.narration.document().size().height() + 2 * view.narration.frameWidth() + 6
    if view.predict_box.isVisibleTo(view):
        words = max(words, view.predict.height_needed(view.predict.width() if view.predict.width() > 50
                                                      else width))
    spacing = max(0, view.stage.widget(1).layout().spacing())
    need = int(words) + 12 + sum(label.heightForWidth(view.width()) + spacing
                                 for label in (view.numbers, view.computed) if label.isVisibleTo(view) and label.text())
    lower = min(max(need, total * 3 // 10), total * 6 // 10)
    if abs(view.stage.sizes()[1] - lower) > 4:
        view.stage.setSizes([total - lower, lower])
        refit_grid(view.grid)
