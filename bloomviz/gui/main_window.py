"""The main window: the grid in the middle, panels in docks, menus, status bar and preferences.

It owns no state of its own beyond the view: every operation goes to the workbench, and the window wires the
workbench's signals to the widgets (grid, plot, panels). Its pieces live in ``gui/window/``: the declared
actions and menus (``actions``), the docks and their layout (``docks``), the status bar (``status``), the
grid and plot redraws (``redraw``), preferences kept in QSettings (``preferences``), exports, help and the
demo. The views and menus of the other tabs are installed by ``install_parts`` (``gui/extensions.py``).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz.gui import axis_labels, axis_numbers, extensions, theme
from bloomviz.gui.filter_tab.autoplay import AutoPlay
from bloomviz.gui.filter_tab.autoplay_panel import AutoPlayPanel
from bloomviz.gui.filter_tab.explain_panel import ExplainPanel
from bloomviz.gui.filter_tab.history_panel import HistoryPanel
from bloomviz.gui.filter_tab.item_panel import ItemPanel
from bloomviz.gui.filter_tab.params_panel import ParamsPanel
from bloomviz.gui.filter_tab.plot import FpPlotWidget
from bloomviz.gui.widgets.grid import BitGridWidget, GridLegend
from bloomviz.gui.window import actions, docks, language_menu, left_column, preferences, projector, undo
from bloomviz.gui.window.demo import run_demo
from bloomviz.gui.window.redraw import FilterRedraw
from bloomviz.gui.window.status import StatusLine
from bloomviz.gui.timing import AfterFirstPaint
from bloomviz.gui.window_limits import MAX_PROBES
from bloomviz.gui.workbench import QtWorkbench
from bloomviz import i18n

DEFAULT_SIZE = (1440, 900)


def fit_to_screen(window: QtWidgets.QWidget, size: tuple[int, int]) -> tuple[int, int]:
    """``size`` made no larger than the screen's free area: a 1280 x 800 projector gets the whole window, its
    status bar and right column included, instead of a window running off its edges."""
    screen = window.screen() or QtWidgets.QApplication.primaryScreen()
    if screen is None:
        return size
    free = screen.availableGeometry()
    return min(size[0], free.width()), min(size[1], free.height())


class MainWindow(QtWidgets.QMainWindow):
    partsInstalled = QtCore.Signal()     # every part of gui/extensions.py is in (install_parts)

    # Installed by ``install_parts`` (gui/extensions.py); None in a window built without them (tests).
    file_actions = None       # files.session_io.FileActions: the File menu's sessions, filters and imports
    scenarios = None          # scenarios_tab.controller.ScenarioController
    foreign = None            # files.foreign_view.ForeignView
    slow_motion = None        # filter_tab.slow_motion.SlowMotionPanel
    lesson_view = None        # lesson_tab.view.LessonView
    presenter = None          # lesson_tab.view's presenter mode
    fill_gauge = None         # widgets.fill_gauge.FillGauge
    projector_layout = None   # window.projector.ProjectorLayout: F8
    language_menu = None      # window.language_menu: View → Language (the language of the next start)

    def __init__(self, workbench: QtWorkbench | None = None, settings: QtCore.QSettings | None = None,
                 parent=None):
        super().__init__(parent)
        self.setObjectName("bloomvizMainWindow")
        self.settings = settings if settings is not None else QtCore.QSettings()
        i18n.use(i18n.choose(str(self.settings.value(i18n.SETTING, "") or "")))   # before any word is shown
        language_menu.use_qt_locale(i18n.language(), self)
        axis_numbers.install()       # the plots' ticks with the language's decimal mark
        axis_labels.install()        # and no two of their labels one over the other
        self.setWindowTitle(i18n.tr("bloomviz — Bloom filters made visible"))
        self.wb = workbench if workbench is not None else QtWorkbench(self)
        self._font_scale = theme.DEFAULT_FONT_SCALE

        self.grid = BitGridWidget()
        self.grid.setToolTip("")
        self.grid.set_hover_text_provider(self.wb.hover_text)
        self.wb.rowsMade.connect(self.grid.refresh_hover)   # a hover that said "in a moment" names the items
        self.plot = FpPlotWidget()
        self.params_panel = ParamsPanel(self.wb)
        self.item_panel = ItemPanel(self.wb)
        self.autoplay = AutoPlay(self.wb, self)
        self.autoplay_panel = AutoPlayPanel(self.autoplay)
        self.explain_panel = ExplainPanel(self.wb)
        self.history_panel = HistoryPanel(self.wb)

        self.grid_legend = GridLegend(self.grid)
        centre = QtWidgets.QWidget()
        centre_layout = QtWidgets.QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.setSpacing(0)
        centre_layout.addWidget(self.grid, 1)
        centre_layout.addWidget(self.grid_legend)
        # The filter's grid is the first tab; the explorer, the compare and set-operation views add theirs.
        self.tabs = QtWidgets.QTabWidget()
        self.tabs.setObjectName("centralTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(centre, i18n.tr("Filter"))
        self.tabs.tabBar().setAutoHide(True)
        self._tab_keys = {"filter": centre}
        self._view_makers: dict = {}   # key -> a callable making a tab's view on its first showing
        self.setCentralWidget(self.tabs)
        self.docks = docks.place_panels(self)
        self.left_column = left_column.Refit(self)   # the left column fitted to its panels' needs
        self._sized = False

        self.status_line = StatusLine(self, self.wb)
        self.status_label = self.status_line.label
        self.busy_bar = self.status_line.busy_bar
        self.busy_cancel = self.status_line.busy_cancel
        self.actions_, self._panels_menu = actions.build(self, self.docks.values())
        undo.install(self)
        language_menu.install(self)   # View → Language, for the next start
        self.redraw = FilterRedraw(self.wb, self.grid, self.grid_legend, self.plot, self.status_line.mark)
        self._wire()
        # After _wire: Qt calls slots in connection order, so the variant's bands land after the grid's reset.
        from bloomviz.gui.filter_tab.variant_view import connect_variant_views
        self.variant_views = connect_variant_views(self)
        self.tabs.currentChanged.connect(self._on_tab_changed)

        self.resize(*fit_to_screen(self, DEFAULT_SIZE))
        self.dock_keeper = docks.DockKeeper(self, self.docks)
        self._default_docks = self.dock_keeper.default_docks
        self.text_layout = projector.TextSizeLayout(self)
        self._restored_state = preferences.restore(self)
        self._on_filter_reset()

    def install_parts(self, first_screen: bool = False) -> dict:
        """Install the other tabs' views and menus (``gui/extensions.py``); returns what each install made.

        ``first_screen``: only the parts the Start page needs now; the others are installed after the window's
        first paint, one a turn of the event loop (``partsInstalled`` when the last is in), so the window shows
        before the ~1 s they take (a window opened on the Start page: ``gui.app.main``)."""
        if not first_screen:
            made = extensions.install_all(self)
            self.plot.build()                # its controls are named and described with the others'
            from bloomviz.gui.access import window_parts
            window_parts.install(self)   # accessible names, once every control is there
            self.partsInstalled.emit()
            return made
        first = range(extensions.FIRST_SCREEN)
        made = {extensions.MODULES[i]: extensions.install_step(self, i) for i in first}
        self._parts_left = list(range(extensions.FIRST_SCREEN, len(extensions.STEPS)))
        self._after_paint = AfterFirstPaint(self, self._install_next_part)
        return made

    def install_remaining_parts(self) -> None:
        """Every part the first screen left for later, now: an action that needs one before the idle turns made
        it (File > Open of another library's file wants the foreign view, a session its lesson, the Start page's
        lesson card the Lesson tab) is not answered as if bloomviz had no such part. The chain still ends with
        the accessible names and ``partsInstalled``."""
        while getattr(self, "_parts_left", None):
            extensions.install_step(self, self._parts_left.pop(0))

    def _install_next_part(self) -> None:
        if not self.plot.built:
            # the Filter tab's plot, which the Start page does not show, first: ready for a first switch to it
            self.plot.build()
        elif self._parts_left:
            extensions.install_step(self, self._parts_left.pop(0))
        else:
            from bloomviz.gui.access import window_parts   # (the accessible names: not before the first paint)
            window_parts.install(self)
            self.partsInstalled.emit()
            return
        QtCore.QTimer.singleShot(0, self, self._install_next_part)   # (dropped if the window is gone)

    # --- construction ------------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._size_docks_once()

    def _size_docks_once(self) -> None:
        # Dock sizes only take once the window has its size and the docks show (a window opened on the Start
        # page sizes them on the first switch to the Filter tab); a restored layout wins over these defaults.
        if not self._sized and self.isVisible() and self.current_tab() == "filter":
            self._sized = True
            if not self._restored_state:
                self.default_layout()

    def default_layout(self) -> None:
        docks.default_layout(self, self.docks)
        self.left_column.schedule()     # then each panel of the left column what it needs at this text size

    def add_tab(self, key: str, title: str, widget, tip: str = "") -> int:
        """A view of its own beside the filter's grid (explorer, compare, set operations).

        ``widget`` may be a callable that makes the view: it is then made when the tab is first shown or its
        view asked for (``tab_view``), so views the first screen does not show cost nothing before it."""
        # A tab's minimum size would become the whole window's: a scroll area lets a rich view sit in a window
        # of the default size and scroll when it must.
        holder = QtWidgets.QScrollArea()
        holder.setObjectName(f"tab_{key}")
        holder.setWidgetResizable(True)
        holder.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        if isinstance(widget, QtWidgets.QWidget):
            self._hold_view(holder, widget)
        else:
            self._view_makers[key] = widget
        index = self.tabs.addTab(holder, i18n.tr(title))
        if tip:
            self.tabs.setTabToolTip(index, i18n.tr(tip))
        self._tab_keys[key] = holder
        return index

    def tab_index(self, key: str) -> int:
        """The position of tab ``key`` in the tab bar, -1 when the window has no such tab."""
        return self.tabs.indexOf(self._tab_keys[key]) if key in self._tab_keys else -1

    def _hold_view(self, holder: QtWidgets.QScrollArea, widget: QtWidgets.QWidget) -> None:
        holder.setWidget(widget)
        from bloomviz.gui.access import window_parts
        window_parts.view_made(widget)
        if theme.is_dark():
            from bloomviz.gui import theme_views
            theme_views.apply(widget, True)

    def show_tab(self, key: str) -> None:
        self.tabs.setCurrentWidget(self._tab_keys[key])

    def tab_view(self, key: str) -> QtWidgets.QWidget:
        """The view shown by tab ``key`` (inside its scroll area), made now if it was not yet."""
        holder = self._tab_keys[key]
        maker = self._view_makers.pop(key, None)
        if maker is not None:
            self._hold_view(holder, maker())
        return holder.widget() if isinstance(holder, QtWidgets.QScrollArea) else holder

    def current_view(self) -> QtWidgets.QWidget | None:
        key = self.current_tab()
        return self.tab_view(key) if key else None

    def current_tab(self) -> str:
        widget = self.tabs.currentWidget()
        return next((key for key, w in self._tab_keys.items() if w is widget), "")

    def _on_tab_changed(self, _index: int) -> None:
        key = self.current_tab()
        if key in self._view_makers:
            self.tab_view(key)
        self.dock_keeper.follow_tab(self.current_tab() == "filter")
        self._size_docks_once()

    def menu(self, title: str) -> QtWidgets.QMenu:
        """The top-level menu named ``title`` ("&File", "Tools" ...), made before Help when missing."""
        return actions.top_menu(self, title)

    def add_dock(self, key: str, title: str, widget: QtWidgets.QWidget, area=None) -> QtWidgets.QDockWidget:
        area = area if area is not None else QtCore.Qt.DockWidgetArea.RightDockWidgetArea
        dock = self.docks[key] = docks.make_dock(self, key, title, widget, area)
        self._panels_menu.addAction(dock.toggleViewAction())
        return dock

    def _wire(self) -> None:
        wb, redraw, bar = self.wb, self.redraw, self.statusBar()
        wb.filterReset.connect(self._on_filter_reset)
        wb.operated.connect(redraw.operated)     # one record per operation: grid cells and marks, plot rows
        wb.error.connect(lambda msg: bar.showMessage(msg, 8_000))
        wb.notice.connect(lambda msg: bar.showMessage(msg, 5_000))
        wb.busyChanged.connect(self._on_busy)
        wb.jobFrame.connect(redraw.busy_frame)
        wb.progress.connect(self.status_line.show_progress)
        self.plot.redrawn.connect(lambda _n: self.status_line.update())   # one n in the plot and the line
        self.autoplay.message.connect(lambda msg: bar.showMessage(msg, 8_000))
        for signal, key in ((self.plot.logYChanged, "log_y"), (self.plot.showFillChanged, "show_fill"),
                            (self.plot.showEstimateChanged, "show_estimate")):
            signal.connect(lambda on, act=self.actions_[key]: actions.set_checked_quietly(act, on))
        self.autoplay_panel.rate_combo.currentIndexChanged.connect(
            lambda _i: self.settings.setValue("autoplay/rate", self.autoplay.rate))

    # --- workbench -> widgets ----------------------------------------------------------------------------
    def _on_filter_reset(self) -> None:
        self.redraw.filter_reset()
        self.update_status()

    def _on_busy(self, busy: bool) -> None:
        self.status_line.show_busy(busy)
        if not busy:
            self.redraw.work_ended()

    def flush_grid(self) -> None:
        self.redraw.flush_grid()

    def status_text(self) -> str:
        return self.status_line.text()

    def update_status(self) -> None:
        self.status_line.update()

    # --- actions -------------------------------------------------------------------------------------------
    def focus_item(self) -> None:
        self.docks["item"].show()
        self.docks["item"].raise_()
        self.item_panel.line.setFocus()
        self.item_panel.line.selectAll()

    def clear_filter(self) -> None:
        n = len(self.wb.filter)
        if n and not self.params_panel.confirm(f"Empty the filter? Its {n:,} inserted items are discarded."):
            return
        self.autoplay.cancel()
        self.wb.reset()

    def ask_probe_count(self) -> None:
        current = len(self.wb.probes)
        value, ok = QtWidgets.QInputDialog.getInt(
            self, "Measurement probes",
            "The false-positive rate is measured on this many items that were never inserted (a sample: its "
            "band is the 95% Wilson interval).\n"
            "More probes give a narrower interval; the filter is re-measured from its bits.",
            current, 1, MAX_PROBES, 1000)
        if ok and value != current:
            self.wb.set_probe_count(value)
            self.update_status()

    def cancel_work(self) -> None:
        self.autoplay.cancel()
        self.wb.cancel()

    def export_grid(self) -> None:
        from bloomviz.gui.window import exports
        exports.export_grid(self)

    def export_plot(self) -> None:
        from bloomviz.gui.window import exports
        exports.export_plot(self)

    def save_window_picture(self) -> None:
        from bloomviz.gui.window import exports
        exports.save_window_picture(self)

    def show_primer(self) -> None:
        from bloomviz.gui.window import help_pages
        help_pages.show_primer(self)

    def show_about(self) -> None:
        from bloomviz.gui.window import help_pages
        help_pages.show_about(self)

    def show_settings_place(self) -> None:
        from bloomviz.gui.window import help_pages
        help_pages.show_settings_place(self, self.settings.fileName())

    def demo(self, n: int, lookup: bool = True, singles: int = 5, fit: bool = False) -> None:
        """Insert n demo items and make one lookup (``window/demo.py``); ``fit``: first a filter made for them."""
        run_demo(self, n, lookup, singles, fit)

    # --- theme, fonts, layout ------------------------------------------------------------------------------
    @property
    def dark(self) -> bool:
        return theme.is_dark()

    @property
    def font_scale(self) -> float:
        return self._font_scale

    def set_dark(self, dark: bool, remember: bool = True) -> None:
        """Switch the theme; ``remember=False`` (the --dark option) leaves the saved preference alone."""
        preferences.set_dark(self, dark, remember)

    def set_font_scale(self, scale: float) -> None:
        old = self._font_scale
        self.text_layout.before(old, scale)
        self._font_scale = preferences.set_font_scale(self, scale)
        self.text_layout.after(self._font_scale)
        if self.projector_layout is not None:
            self.projector_layout.fit()

    def step_font(self, step: int) -> None:
        self.set_font_scale(theme.step_scale(self._font_scale, step))

    def reset_layout(self) -> None:
        """The panels as a new window has them, on the Filter tab; the saved layout is forgotten."""
        self.show_tab("filter")
        self.dock_keeper.reset()
        self.settings.remove("window/state")
        self.left_column.schedule()

    # --- life cycle ----------------------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        if self.current_tab() != "filter":
            self.show_tab("filter")   # the saved layout is the filter tab's, docks included
        self.autoplay.cancel()
        self.wb.cancel()
        preferences.save(self)
        super().closeEvent(event)
