"""The dark theme for every plot and grid of a view, not only the filter tab's.

The application palette themes Qt's own widgets, but pyqtgraph draws its plots with colours of its own: the
explorer's, Compare's and Set operations' plots and grids stayed white in the dark theme. ``apply(root, dark)``
finds them under ``root`` and gives them the theme's background and axis colours; a bit grid gets its own
``set_theme``. Widgets with a theme of their own (the filter tab's live plot) answer ``set_theme`` and are
left to it. The window calls this when the theme changes and when a tab is added.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.widgets.grid import BitGridWidget
from bloomviz.gui.widgets.grid_axis import GridAxis

COLOURS = theme.VIEW_COLOURS


def _theme_plot(widget: pg.PlotWidget, dark: bool) -> None:
    colours = COLOURS[bool(dark)]
    widget.setBackground(colours["background"])
    item = widget.getPlotItem()
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen(colours["foreground"]))
        axis.setTextPen(pg.mkPen(colours["foreground"]))
        if isinstance(axis, GridAxis):       # its opaque grid lines mixed with the new background
            axis.set_background(colours["background"])
    title = getattr(item, "titleLabel", None)
    if title is not None and title.text:
        title.setText(title.text, color=colours["foreground"])


def apply(root: QtWidgets.QWidget, dark: bool, skip: tuple = ()) -> None:
    """Theme every bit grid and pyqtgraph plot under ``root`` except those in ``skip``."""
    for grid in root.findChildren(BitGridWidget):
        if grid not in skip:
            grid.set_theme(dark)
    for plot in root.findChildren(pg.PlotWidget):
        if plot not in skip:
            _theme_plot(plot, dark)
