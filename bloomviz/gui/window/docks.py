"""The filter tab's panels in docks: where each starts, the default sizes, Reset layout, and the docks
stepping aside while another tab is shown."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.widgets.shrink import keep_share, scrolling
from bloomviz.gui.window import dock_tabs
from bloomviz.i18n import tr

_AREA = QtCore.Qt.DockWidgetArea
# key, title, the window's attribute holding the panel, where it starts
PANELS = (
    ("filter", "Filter: m, k, hashing", "params_panel", _AREA.LeftDockWidgetArea),
    ("item", "Insert and look up", "item_panel", _AREA.LeftDockWidgetArea),
    ("autoplay", "Auto-play", "autoplay_panel", _AREA.LeftDockWidgetArea),
    ("plot", "False-positive rate, live", "plot", _AREA.RightDockWidgetArea),
    ("explain", "Explain the last operation", "explain_panel", _AREA.RightDockWidgetArea),
    ("history", "History", "history_panel", _AREA.BottomDockWidgetArea),
)


CENTRE_SHARE = (0.34, 0.5)   # of the window's width and height


def make_dock(window: QtWidgets.QMainWindow, key: str, title: str, widget: QtWidgets.QWidget,
              area) -> QtWidgets.QDockWidget:
    dock = QtWidgets.QDockWidget(tr(title), window)
    dock.setObjectName(f"dock_{key}")
    dock_tabs.remember_title(dock, title)
    dock.setWidget(scrolling(widget))   # at large text a panel scrolls; it no longer grows the window
    dock.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable
                     | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetFloatable
                     | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetClosable)
    window.addDockWidget(area, dock)
    return dock


def place_panels(window: QtWidgets.QMainWindow) -> dict[str, QtWidgets.QDockWidget]:
    """The panels of ``PANELS`` in their docks, by key."""
    window.setDockNestingEnabled(True)
    # The history takes the bottom-left corner: under the grid alone its thirteen columns did not fit, and
    # the left column has room to spare at its foot.
    window.setCorner(QtCore.Qt.Corner.BottomLeftCorner, _AREA.BottomDockWidgetArea)
    window.setCorner(QtCore.Qt.Corner.BottomRightCorner, _AREA.RightDockWidgetArea)
    # the grid (the central tabs) keeps this share of the window whatever the text size; the docks give way
    keep_share(window.centralWidget(), window, CENTRE_SHARE[0], CENTRE_SHARE[1])
    return {key: make_dock(window, key, title, getattr(window, attr), area) for key, title, attr, area in PANELS}


def default_layout(window: QtWidgets.QMainWindow, docks: dict) -> None:
    width = window.width()
    window.resizeDocks([docks["filter"], docks["plot"]], [max(300, width * 23 // 100), max(420, width * 34 // 100)],
                       QtCore.Qt.Orientation.Horizontal)
    height = window.height()
    window.resizeDocks([docks["filter"], docks["item"], docks["autoplay"]],
                       [height * 30 // 100, height * 33 // 100, height * 37 // 100], QtCore.Qt.Orientation.Vertical)
    window.resizeDocks([docks["plot"], docks["explain"]], [height * 52 // 100, height * 48 // 100],
                       QtCore.Qt.Orientation.Vertical)
    window.resizeDocks([docks["history"]], [height * 24 // 100], QtCore.Qt.Orientation.Vertical)


LARGE_TEXT = 1.75  # from this text size the explanation joins the history's tabs: the plot gets the column


def fit_text_size(window: QtWidgets.QMainWindow, docks: dict, scale: float) -> None:
    """At large text (a projector at 175-250 %) the right column cannot hold the plot and the explanation one
    above the other (under X at 1280 x 800: at 175 % the plot's labels overran its data, at 250 % it kept ~40 px;
    at 150 % they fit): the explanation becomes a tab beside the history and the plot takes the column. Back
    below that size it returns under the plot. Only a dock still where the layout put it is moved: a panel the
    user placed elsewhere stays there."""
    explain, plot, history = docks["explain"], docks["plot"], docks["history"]
    if explain.isFloating() or plot.isFloating():
        return
    beside_history = explain in window.tabifiedDockWidgets(history)
    if scale >= LARGE_TEXT and window.dockWidgetArea(explain) == _AREA.RightDockWidgetArea and not beside_history:
        window.tabifyDockWidget(history, explain)
        history.raise_()
    elif scale < LARGE_TEXT and beside_history:
        window.addDockWidget(_AREA.RightDockWidgetArea, explain)
        window.splitDockWidget(plot, explain, QtCore.Qt.Orientation.Vertical)
    if scale >= LARGE_TEXT:
        QtCore.QTimer.singleShot(0, lambda: widen_left_column(window, docks))


def dock_panel(dock: QtWidgets.QDockWidget) -> QtWidgets.QWidget:
    """The panel a dock shows (inside its scroll area, where it has one)."""
    return dock.widget().widget() if isinstance(dock.widget(), QtWidgets.QScrollArea) else dock.widget()


def needed_width(dock: QtWidgets.QDockWidget) -> int:
    """The width a dock's panel needs at the current text size, with the dock's and the scroll area's edges."""
    return dock_panel(dock).minimumSizeHint().width() + 24


def widen_left_column(window: QtWidgets.QMainWindow, docks: dict) -> None:
    """At large text the left column as wide as its panels need (at 250 % on 1440 x 900 it kept 331 px for
    panels of 411-457 px: they scrolled sideways, the variant's name and the Remove button half out of view),
    as far as the grid's share of the window lets it (``keep_share`` holds the centre)."""
    left = [dock for key, dock in docks.items() if key in ("filter", "item", "autoplay") and dock.isVisible()
            and not dock.isFloating() and window.dockWidgetArea(dock) == _AREA.LeftDockWidgetArea]
    if left:
        need = max(needed_width(dock) for dock in left)
        if left[0].width() < need:
            window.resizeDocks([left[0]], [need], QtCore.Qt.Orientation.Horizontal)


class DockKeeper:
    """Remembers the layout a new window has, and which docks were shown while another tab hides them all."""

    def __init__(self, window: QtWidgets.QMainWindow, docks: dict):
        self._window = window
        self._docks = docks
        self._default_state = window.saveState()   # the layout View → Reset layout goes back to
        self.default_docks = set(docks)
        self._shown: dict | None = None

    def reset(self) -> None:
        """The panels as a new window has them (the caller shows the Filter tab first)."""
        for dock in self._docks.values():
            dock.setFloating(False)
        # the history back in its corner (a short window's left column takes it: left_column.py)
        self._window.setCorner(QtCore.Qt.Corner.BottomLeftCorner, _AREA.BottomDockWidgetArea)
        self._window.restoreState(self._default_state)
        for key, dock in self._docks.items():
            dock.setVisible(key in self.default_docks)   # panels added later (slow motion) start hidden

    def follow_tab(self, on_filter: bool) -> None:
        # The docks belong to the filter's tab: the other views (explorer, compare ...) get the whole window,
        # and coming back puts each dock as it was.
        # In a window not shown yet (one opened on the Start page chooses it before it shows) no dock is
        # visible: what counts there is whether it was hidden, or a first switch to the Filter tab showed none
        # of its panels. A dock added meanwhile (slow motion, predict) stays as its installer left it.
        if not on_filter and self._shown is None:
            shown = self._window.isVisible()
            self._shown = {key: dock.isVisible() if shown else not dock.isHidden()
                           for key, dock in self._docks.items()}
            for dock in self._docks.values():
                dock.hide()
        elif on_filter and self._shown is not None:
            shown, self._shown = self._shown, None
            for key, dock in self._docks.items():
                if key in shown:
                    dock.setVisible(shown[key])
