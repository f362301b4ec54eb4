"""The window's preferences: theme, text size, layout and auto-play rate, kept in QSettings.

Saved values are read back as untrusted text (a hand-edited or damaged settings file): a value that is not
usable is the default, never a window that fails to start. The theme itself is owned by ``gui.theme``; the
window only remembers the choice.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui import theme, theme_views
from bloomviz.gui.access import scheme
from bloomviz.gui.filter_tab.autoplay import RATES
from bloomviz.gui.window.actions import set_checked_quietly
from bloomviz.gui.window_limits import font_scale
from bloomviz.gui.window import docks, left_column
from bloomviz.i18n import tr

TABBED_KEY = "window/parameters_tabbed_to_fit"


def set_dark(window, dark: bool, remember: bool = True) -> None:
    dark = bool(dark)
    theme.set_dark(dark)
    # The views that draw their own colours and do not follow the theme themselves.
    window.grid.set_theme(dark)
    window.grid_legend.refresh()
    window.plot.set_theme(dark)
    theme_views.apply(window, dark, skip=(window.grid,))   # the other tabs' plots and grids
    set_checked_quietly(window.actions_["dark"], dark)
    if remember:
        window.settings.setValue("view/dark", dark)


def set_font_scale(window, scale: float) -> float:
    scale = float(min(max(scale, theme.FONT_SCALES[0]), theme.FONT_SCALES[-1]))
    app = QtWidgets.QApplication.instance()
    if app is not None:
        theme.apply_font_scale(app, scale)
        for dock in window.docks.values():
            dock.setFont(theme.dock_font(app))
        window.history_panel.verticalHeader().setDefaultSectionSize(QtGui.QFontMetrics(app.font()).height() + 6)
        window.history_panel.fit_columns()
    window.plot.set_font_scale(scale)
    docks.fit_text_size(window, window.docks, scale)
    window.left_column.schedule()
    window.settings.setValue("view/font_scale", scale)
    window.statusBar().showMessage(tr("Text size {percent}%").format(percent=f"{scale * 100:.0f}"), 3_000)
    return scale


def restore(window) -> bool:
    """Apply the saved preferences to ``window``; True when a saved layout of the docks was restored."""
    s = window.settings
    geometry = s.value("window/geometry")
    if isinstance(geometry, (QtCore.QByteArray, bytes)) and geometry:
        window.restoreGeometry(geometry)
    state = s.value("window/state")
    restored = False
    if isinstance(state, (QtCore.QByteArray, bytes)) and state:
        restored = bool(window.restoreState(state))
    if restored and str(s.value(TABBED_KEY, "false")).lower() == "true":
        # the parameters' tab beside auto-play was the left column's fit, not the user's: without this mark the
        # fit took the restored tab for a layout the user made and never gave the parameters their dock back
        window.docks["filter"].setProperty(left_column.TABBED, True)
    dark = scheme.wanted_dark(s)     # the user's pick, else the system's light or dark
    if dark:
        window.set_dark(True, remember=False)
    elif theme.is_dark():
        window.set_dark(False, remember=False)   # another window of this process had switched it
    scale = font_scale(s.value("view/font_scale", theme.DEFAULT_FONT_SCALE), theme.FONT_SCALES,
                       theme.DEFAULT_FONT_SCALE)
    if scale != theme.DEFAULT_FONT_SCALE:
        window.set_font_scale(scale)
    try:
        rate = int(s.value("autoplay/rate", window.autoplay.rate))
    except (TypeError, ValueError):
        rate = window.autoplay.rate
    if rate in RATES:
        window.autoplay_panel.rate_combo.setCurrentIndex(RATES.index(rate))
    return restored


def save(window) -> None:
    window.settings.setValue("window/geometry", window.saveGeometry())
    window.settings.setValue("window/state", window.saveState())
    window.settings.setValue(TABBED_KEY, bool(window.docks["filter"].property(left_column.TABBED)))
    window.settings.sync()
