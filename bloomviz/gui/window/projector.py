"""The Filter tab for a projector: one key (F8, View → Projector layout) keeps what a class watches — the grid,
the item box with its verdict, auto-play and the live plot — and puts the rest (the filter's parameters, the
history, the explanation, a scenario, the menu bar: its keys still work) out of the way; F8 again brings back the
layout as it was.

At 150 % and 250 % text on a 1280 x 720 projector the default layout scrolled the Insert/Look up buttons, the
verdict and auto-play's controls out of their docks. Here the item panel and auto-play share the left column,
each given the height its controls need (its size hint at the current text size), and the plot the right
column; the grid keeps its share in the middle (``docks.CENTRE_SHARE``).

Also here: text size and the layout. Going back to 100 % (Ctrl+0) after larger text puts the docks back exactly
as they were at 100 % (``TextSizeLayout``): Qt's docks keep the sizes large text gave them otherwise.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.window.docks import dock_panel, needed_width
from bloomviz.i18n import tr

KEY = "F8"
SHOWN = ("item", "autoplay", "plot")          # the docks a class watches, beside the grid
_AREA = QtCore.Qt.DockWidgetArea


def _needed_height(dock: QtWidgets.QDockWidget) -> int:
    panel = dock_panel(dock)
    title = QtGui.QFontMetrics(dock.font()).height() + 10
    return panel.sizeHint().height() + title


class ProjectorLayout(QtCore.QObject):
    """F8: the projector's layout of the Filter tab, and back."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self._saved: tuple[QtCore.QByteArray, dict[str, bool]] | None = None
        self._fitted: tuple[int, int] | None = None       # the left column's width and auto-play's height fitted
        self._refit = QtCore.QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._fit_if_needs_changed)

    @property
    def active(self) -> bool:
        return self._saved is not None

    def toggle(self) -> None:
        self.leave() if self.active else self.enter()

    def enter(self) -> None:
        w = self.window
        if self.active:
            self.fit()
            return
        w.show_tab("filter")
        self._saved = (w.saveState(), {key: dock.isVisible() for key, dock in w.docks.items()})
        for key, dock in w.docks.items():
            dock.setFloating(False)
            dock.setVisible(key in SHOWN)
        item, autoplay, plot = (w.docks[key] for key in SHOWN)
        w.addDockWidget(_AREA.LeftDockWidgetArea, item)
        w.splitDockWidget(item, autoplay, QtCore.Qt.Orientation.Vertical)
        w.addDockWidget(_AREA.RightDockWidgetArea, plot)
        for dock in (item, autoplay, plot):
            dock.show()
        w.menuBar().hide()          # its shortcuts still work (every action is the window's too); F8 brings it
        self._watch_panels(True)
        self.fit()

    def fit(self) -> None:
        """Each dock of the left column the height its controls need at this text size, the column the width."""
        w = self.window
        if not self.active:
            return
        item, autoplay, plot = (w.docks[key] for key in SHOWN)
        QtWidgets.QApplication.processEvents()     # the panels' size hints at the new text size
        left, need = self._fitted = self._needs()
        w.resizeDocks([item, plot], [left, max(260, w.width() * 28 // 100)], QtCore.Qt.Orientation.Horizontal)
        w.layout().activate()
        short = left - item.width()
        if short > 0:   # the grid kept its minimum and the left column gave way: the plot gives way instead
            w.resizeDocks([item, plot], [left, max(200, plot.width() - short)], QtCore.Qt.Orientation.Horizontal)
        # auto-play's controls whole; the item panel the rest (its verdict, the one text that may be long,
        # scrolls when it must, its first lines in view)
        column = item.height() + autoplay.height()
        w.resizeDocks([item, autoplay], [max(column - need, column // 3), need], QtCore.Qt.Orientation.Vertical)

    def _needs(self) -> tuple[int, int]:
        w = self.window
        panel = w.item_panel      # its three buttons on one row, as a class sees them (they wrap when narrower)
        buttons = sum(b.sizeHint().width() + 6 for b in (panel.insert_button, panel.lookup_button,
                                                         panel.remove_button)) + 12 + 24
        item, autoplay = w.docks["item"], w.docks["autoplay"]
        # auto-play's form at the width its rows ask for: given only its minimum (rows that may wrap), the form
        # kept the widest label's column and drew the combo boxes narrower than their text at 250 %
        return (max(needed_width(item), needed_width(autoplay), dock_panel(autoplay).sizeHint().width() + 24, buttons),
                _needed_height(autoplay))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        # A panel's controls can learn their size at the new text size after the fit (a combo box keeps its size
        # hint until its font change reaches it): the column was fitted to the old hints. A panel asking for a
        # new layout refits, when what it needs changed.
        if event.type() == QtCore.QEvent.Type.LayoutRequest and self.active:
            self._refit.start()
        return False

    def _fit_if_needs_changed(self) -> None:
        if self.active and self._needs() != self._fitted:
            self.fit()

    def _watch_panels(self, on: bool) -> None:
        for key in ("item", "autoplay"):
            panel = dock_panel(self.window.docks[key])
            panel.installEventFilter(self) if on else panel.removeEventFilter(self)

    def leave(self) -> None:
        if not self.active:
            return
        self._watch_panels(False)
        self._refit.stop()
        state, shown = self._saved
        self._saved = None
        w = self.window
        w.show_tab("filter")
        w.menuBar().show()
        w.restoreState(state)
        for key, dock in w.docks.items():
            dock.setVisible(shown.get(key, False))


class TextSizeLayout:
    """The docks as they were at 100 % text, put back when the text returns to 100 %."""

    def __init__(self, window):
        self.window = window
        self._at_normal: QtCore.QByteArray | None = None

    def before(self, old: float, new: float) -> None:
        if old == 1.0 and new != 1.0:
            self._at_normal = self.window.saveState()

    def after(self, new: float) -> None:
        if new == 1.0 and self._at_normal is not None:
            state, self._at_normal = self._at_normal, None
            self.window.restoreState(state)


def install(window) -> ProjectorLayout:
    layout = ProjectorLayout(window)
    action = QtGui.QAction(tr("Projector layout"), window)
    action.setShortcut(QtGui.QKeySequence(KEY))
    action.setStatusTip(tr("The grid, the item box, auto-play and the live plot only, each sized for the text; "
                           "again to bring back the layout as it was"))
    action.triggered.connect(layout.toggle)
    window.addAction(action)
    window.menu("&View").addAction(action)
    return layout
