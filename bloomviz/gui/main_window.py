"""The main window: the grid in the middle, panels in docks, menus, status bar and preferences.

It owns no state of its own beyond the view: every operation goes to the workbench, and the window wires the
workbench's signals to the widgets (grid, plot, panels). Preferences (theme, font scale, window layout,
auto-play rate) live in QSettings.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz import __version__
from bloomviz.gui import theme
from bloomviz.gui.filter_tab.autoplay import RATES, AutoPlay
from bloomviz.gui.filter_tab.autoplay_panel import AutoPlayPanel
from bloomviz.gui.widgets.grid import BitGridWidget
from bloomviz.gui.filter_tab.explain_panel import ExplainPanel
from bloomviz.gui.filter_tab.plot import FpPlotWidget
from bloomviz.gui.widgets.grid import GridLegend
from bloomviz.gui.filter_tab.history_panel import HistoryPanel
from bloomviz.gui.filter_tab.item_panel import ItemPanel
from bloomviz.gui.filter_tab.params_panel import ParamsPanel
from bloomviz.gui.window_limits import MAX_PROBES, font_scale
from bloomviz.gui.workbench import Workbench

DEFAULT_SIZE = (1440, 900)
MIN_SIZE = (1280, 800)
STATUS_INTERVAL_MS = 150

FULL_REDRAW_CELLS = 4096

PRIMER = """
<h2>A Bloom filter in one page</h2>
<p>A <b>Bloom filter</b> answers "is this item in the set?" using only <b>m bits</b>, far fewer than the items
themselves. Its answers are <i>definitely not</i> or <i>probably yes</i>.</p>
<ul>
<li><b>Insert</b>: k <b>hash functions</b> turn the item into k positions; those k bits are set to 1.</li>
<li><b>Look up</b>: compute the same k positions. If any bit is 0 the item was <b>definitely never
inserted</b> (a true negative). If all are 1 it is <b>probably</b> in the set.</li>
<li>A <b>false positive</b> is an item never inserted whose k bits were all set by <i>other</i> items. There
are <b>no false negatives</b>: an inserted item's bits stay 1.</li>
<li>After n inserts a given bit is still 0 with probability (1 − 1/m)<sup>kn</sup> ≈ e<sup>−kn/m</sup>, so
the false-positive rate is about (1 − e<sup>−kn/m</sup>)<sup>k</sup> (the <i>approximation</i>).</li>
<li><b>Exact, classic, bound.</b> If X bits are set, a never-inserted item passes with probability
(X/m)<sup>k</sup>; the <b>exact</b> rate is its average over how many bits the n items happened to set,
E[(X/m)<sup>k</sup>]. <b>Bloom's formula</b> (1 − (1 − 1/m)<sup>kn</sup>)<sup>k</sup> (the <i>classic</i>
one) treats the bits as independent, which they are not, and is a little <i>below</i> the exact rate: 6 % at
m = 32, k = 4, n = 5, nothing visible at m in the millions. The <b>bound</b>
(1 − e<sup>−k(n+½)/(m−1)</sup>)<sup>k</sup> stays above it. Averaged over many random filters (Parameter
explorer → Ensemble) the measured rate lands on the exact one.</li>
<li>The best number of hash functions is k = (m/n)·ln 2; then half the bits are set and the rate is about
0.6185<sup>m/n</sup>. For a rate p you need about 1.44·log<sub>2</sub>(1/p) bits per item.</li>
<li>The <b>fill ratio</b> X/m (bits set over all bits) also estimates how many items went in:
n ≈ −(m/k)·ln(1 − X/m).</li>
</ul>
<p>In this window: type an item and press <b>Enter</b> to insert it, <b>Ctrl+L</b> to look it up. Orange
squares mark bits an insert set, blue circles bits that were already 1; a lookup marks 0 bits and 1 bits.
The plot measures the false-positive rate exactly after every insert on a fixed set of items that were never
inserted (the <i>probes</i>) and compares it with theory.</p>
"""

PROGRESS_INTERVAL_MS = 250  # a progress bar repaints synchronously (~6 ms): four times a second is plenty


class MainWindow(QtWidgets.QMainWindow):
    def __init__(self, workbench: Workbench | None = None, settings: QtCore.QSettings | None = None,
                 parent=None):
        super().__init__(parent)
        self.setWindowTitle("bloomviz — Bloom filters made visible")
        self.setObjectName("bloomvizMainWindow")
        self.settings = settings if settings is not None else QtCore.QSettings()
        self.wb = workbench if workbench is not None else Workbench(self)
        self._dark = False
        self._font_scale = theme.DEFAULT_FONT_SCALE
        self._status_dirty = False

        self.grid = BitGridWidget()
        self.grid.setToolTip("")
        self.grid.set_hover_text_provider(self.wb.hover_text)
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
        self.tabs.addTab(centre, "Filter")
        self.tabs.tabBar().setAutoHide(True)
        self._tab_keys = {"filter": centre}
        self.setCentralWidget(self.tabs)
        self.setDockNestingEnabled(True)
        # The history takes the bottom-left corner: under the grid alone its thirteen columns did not fit, and
        # the left column has room to spare at its foot.
        self.setCorner(QtCore.Qt.Corner.BottomLeftCorner, QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)
        self.setCorner(QtCore.Qt.Corner.BottomRightCorner, QtCore.Qt.DockWidgetArea.RightDockWidgetArea)
        left, right, bottom = (QtCore.Qt.DockWidgetArea.LeftDockWidgetArea,
                               QtCore.Qt.DockWidgetArea.RightDockWidgetArea,
                               QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)
        self.docks = {}
        self._add_dock("filter", "Filter: m, k, hashing", self.params_panel, left)
        self._add_dock("item", "Insert and look up", self.item_panel, left)
        self._add_dock("autoplay", "Auto-play", self.autoplay_panel, left)
        self._add_dock("plot", "False-positive rate, live", self.plot, right)
        self._add_dock("explain", "Explain the last operation", self.explain_panel, right)
        self._add_dock("history", "History", self.history_panel, bottom)
        self._sized = False

        self._build_status_bar()
        self._build_actions()
        self._build_menus()
        self._wire()
        # After _wire: Qt calls slots in connection order, so the variant's bands land after the grid's reset.
        from bloomviz.gui.filter_tab.variant_view import connect_variant_views
        self.variant_views = connect_variant_views(self)
        self._docks_shown: dict | None = None
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self._status_timer = QtCore.QTimer(self)
        self._status_timer.setSingleShot(True)
        self._status_timer.setInterval(STATUS_INTERVAL_MS)
        self._status_timer.timeout.connect(self.update_status)
        self._progress_value = (0, 1)
        self._pending_bits: list | None = []
        self._plot_stale = False
        # While bulk work runs, the workbench leaves a turn of the event loop free ten times a second
        # (jobFrame); the grid and the plot are redrawn in turn in those turns: each redraw is 10-40 ms at a
        # million items, and one added to a chunk of inserts, or to the other, would hold the loop too long.
        self._frame = 0
        self._progress_timer = QtCore.QTimer(self)
        self._progress_timer.setSingleShot(True)
        self._progress_timer.setInterval(PROGRESS_INTERVAL_MS)
        self._progress_timer.timeout.connect(self._show_progress)

        self.resize(*DEFAULT_SIZE)
        self._default_state = self.saveState()   # the layout View → Reset layout goes back to
        self._default_docks = set(self.docks)
        self._restore_settings()
        self._on_filter_reset()

    # --- construction ------------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._sized:
            # Dock sizes only take once the window has its size; a restored layout wins over these defaults.
            self._sized = True
            if not self._restored_state:
                self.default_layout()

    def default_layout(self) -> None:
        width = self.width()
        self.resizeDocks([self.docks["filter"], self.docks["plot"]], [max(300, width * 23 // 100),
                                                                     max(420, width * 34 // 100)],
                         QtCore.Qt.Orientation.Horizontal)
        height = self.height()
        self.resizeDocks([self.docks["filter"], self.docks["item"], self.docks["autoplay"]],
                         [height * 30 // 100, height * 33 // 100, height * 37 // 100], QtCore.Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["plot"], self.docks["explain"]], [height * 52 // 100, height * 48 // 100],
                         QtCore.Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["history"]], [height * 24 // 100], QtCore.Qt.Orientation.Vertical)

    def add_tab(self, key: str, title: str, widget: QtWidgets.QWidget, tip: str = "") -> int:
        """A view of its own beside the filter's grid (explorer, compare, set operations)."""
        # A tab's minimum size would become the whole window's: a scroll area lets a rich view sit in a window
        # of the default size and scroll when it must.
        holder = QtWidgets.QScrollArea()
        holder.setObjectName(f"tab_{key}")
        holder.setWidgetResizable(True)
        holder.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        holder.setWidget(widget)
        index = self.tabs.addTab(holder, title)
        if self._dark:
            from bloomviz.gui import theme_views
            theme_views.apply(widget, True)
        if tip:
            self.tabs.setTabToolTip(index, tip)
        self._tab_keys[key] = holder
        return index

    def show_tab(self, key: str) -> None:
        self.tabs.setCurrentWidget(self._tab_keys[key])

    def tab_view(self, key: str) -> QtWidgets.QWidget:
        """The view shown by tab ``key`` (inside its scroll area)."""
        holder = self._tab_keys[key]
        return holder.widget() if isinstance(holder, QtWidgets.QScrollArea) else holder

    def current_view(self) -> QtWidgets.QWidget | None:
        key = self.current_tab()
        return self.tab_view(key) if key else None

    def current_tab(self) -> str:
        widget = self.tabs.currentWidget()
        return next((key for key, w in self._tab_keys.items() if w is widget), "")

    def _on_tab_changed(self, _index: int) -> None:
        # The docks belong to the filter's tab: the other views (explorer, compare ...) get the whole window,
        # and coming back puts each dock as it was.
        on_filter = self.current_tab() == "filter"
        if not on_filter and self._docks_shown is None:
            self._docks_shown = {key: dock.isVisible() for key, dock in self.docks.items()}
            for dock in self.docks.values():
                dock.hide()
        elif on_filter and self._docks_shown is not None:
            shown, self._docks_shown = self._docks_shown, None
            for key, dock in self.docks.items():
                dock.setVisible(shown.get(key, True))

    def menu(self, title: str) -> QtWidgets.QMenu:
        """The top-level menu named ``title`` ("&File", "Tools" ...), made before Help when missing."""
        bar = self.menuBar()
        plain = title.replace("&", "")
        for action in bar.actions():
            if action.menu() is not None and action.text().replace("&", "") == plain:
                return action.menu()
        help_action = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
        menu = QtWidgets.QMenu(title, self)
        bar.insertMenu(help_action, menu) if help_action is not None else bar.addMenu(menu)
        return menu

    def add_dock(self, key: str, title: str, widget: QtWidgets.QWidget, area=None) -> QtWidgets.QDockWidget:
        area = area if area is not None else QtCore.Qt.DockWidgetArea.RightDockWidgetArea
        dock = self._add_dock(key, title, widget, area)
        self._panels_menu.addAction(dock.toggleViewAction())
        return dock

    def _add_dock(self, key: str, title: str, widget: QtWidgets.QWidget, area) -> QtWidgets.QDockWidget:
        dock = QtWidgets.QDockWidget(title, self)
        dock.setObjectName(f"dock_{key}")
        dock.setWidget(widget)
        dock.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        self.docks[key] = dock
        return dock

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.status_label = QtWidgets.QLabel()
        self.status_label.setToolTip(
            "m: bits; k: hash functions; n: inserts; fill: fraction of bits set; FP now: the false-positive "
            "rate measured on the probes (its theory value in brackets).")
        self.busy_bar = QtWidgets.QProgressBar()
        self.busy_bar.setMaximumWidth(220)
        self.busy_bar.setFormat("%p%")
        self.busy_cancel = QtWidgets.QPushButton("Cancel")
        self.busy_cancel.setToolTip("Stop the bulk insert between two chunks; what was inserted stays (Esc).")
        self.busy_cancel.clicked.connect(self.wb.cancel)
        for w in (self.busy_bar, self.busy_cancel):
            w.setVisible(False)
            bar.addPermanentWidget(w)
        # A normal (not permanent) widget: a passing message replaces it for a few seconds instead of being
        # drawn over it when the window is narrow or the text is large.
        bar.addWidget(self.status_label, 1)

    def _action(self, text: str, slot, shortcut=None, tip: str = "", checkable: bool = False) -> QtGui.QAction:
        act = QtGui.QAction(text, self)
        if shortcut:
            if isinstance(shortcut, (list, tuple)):
                act.setShortcuts([QtGui.QKeySequence(s) for s in shortcut])
            else:
                act.setShortcut(QtGui.QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        act.setCheckable(checkable)
        (act.toggled if checkable else act.triggered).connect(slot)
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        K = QtGui.QKeySequence.StandardKey
        a = self.actions_ = {}
        a["export_grid"] = self._action("Export grid as PNG…", self.export_grid, "Ctrl+Shift+G",
                                        "Save the grid as shown (zoom, highlights) to a PNG file.")
        a["export_plot"] = self._action("Export plot…", self.export_plot, "Ctrl+Shift+P",
                                        "Save the live plot as PNG, SVG or CSV.")
        a["save_window"] = self._action("Save window picture…", self.save_window_picture, "Ctrl+Alt+S",
                                        "Save a picture of the whole window (for slides).")
        a["quit"] = self._action("Quit", self.close, K.Quit if QtGui.QKeySequence(K.Quit).count() else "Ctrl+Q",
                                 "Close bloomviz.")
        a["insert"] = self._action("Insert item", self.item_panel.insert, "Ctrl+Return",
                                   "Insert the text of the item box (Enter in the box does the same).")
        a["lookup"] = self._action("Look up item", self.item_panel.lookup, "Ctrl+L",
                                   "Look the item box's text up: definitely not, or probably in the set.")
        a["remove"] = self._action("Remove item (counting filter)", self.item_panel.remove, None,
                                   "Remove the item box's text from a counting filter (Ctrl+R in the item box).")
        a["focus_item"] = self._action("Go to the item box", self._focus_item, "Ctrl+I",
                                       "Put the cursor in the item box.")
        a["apply"] = self._action("New filter with these parameters", self.params_panel.apply, "Ctrl+Shift+N",
                                  "Make a new empty filter from the parameters panel.")
        a["clear"] = self._action("Clear the filter", self.clear_filter, "Ctrl+Shift+Backspace",
                                  "Empty the filter: all bits 0, no items, new plot and history.")
        a["probes"] = self._action("Measurement probes…", self.ask_probe_count, None,
                                   "How many never-inserted items the false-positive rate is measured on "
                                   "(more probes: a narrower interval).")
        a["play"] = self._action("Auto-play: play / pause", self.autoplay.toggle, "F7",
                                 "Insert items automatically at the chosen rate; again to pause.")
        a["step"] = self._action("Auto-play: step", self.autoplay.step, "F6", "Insert just the next item.")
        a["cancel"] = self._action("Cancel bulk work", self.cancel_work, "Esc",
                                   "Stop auto-play or a bulk insert; what was inserted stays.")
        a["dark"] = self._action("Dark theme", self.set_dark, "Ctrl+Shift+D", "Switch light/dark colours.",
                                 checkable=True)
        a["bigger"] = self._action("Larger text", lambda: self.step_font(+1), ["Ctrl++", "Ctrl+="],
                                   "Enlarge every text for projection.")
        a["smaller"] = self._action("Smaller text", lambda: self.step_font(-1), "Ctrl+-", "Shrink every text.")
        a["normal"] = self._action("Normal text size", lambda: self.set_font_scale(1.0), "Ctrl+0",
                                   "Text at its normal size.")
        a["fit"] = self._action("Fit the grid", self.grid.fit, "Ctrl+F", "Zoom the grid out to show every bit.")
        a["log_y"] = self._action("Log scale for the rate", self.plot.set_log_y, "Ctrl+Shift+L",
                                  "Logarithmic y axis: small rates and the theory curves' differences show.",
                                  checkable=True)
        a["show_fill"] = self._action("Show fill ratio", self.plot.set_show_fill, None,
                                      "Plot X/m against the expected fill.", checkable=True)
        a["show_estimate"] = self._action("Show estimated n", self.plot.set_show_estimate, None,
                                          "Plot the count estimated from the bits against the true n.",
                                          checkable=True)
        a["primer"] = self._action("Bloom filters in one page", self.show_primer, "F1",
                                   "The terms this window uses, explained.")
        a["about"] = self._action("About bloomviz", self.show_about, None, "Version, licence, credits.")

    def _build_menus(self) -> None:
        a = self.actions_
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        for key in ("export_grid", "export_plot", "save_window"):
            file_menu.addAction(a[key])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        edit = bar.addMenu("&Edit")
        for key in ("insert", "lookup", "remove", "focus_item"):
            edit.addAction(a[key])
        edit.addSeparator()
        edit.addAction(a["apply"])
        edit.addAction(a["clear"])
        edit.addAction(a["probes"])
        edit.addSeparator()
        for key in ("play", "step", "cancel"):
            edit.addAction(a[key])
        view = bar.addMenu("&View")
        view.addAction(a["dark"])
        for key in ("bigger", "smaller", "normal"):
            view.addAction(a[key])
        view.addSeparator()
        view.addAction(a["fit"])
        for key in ("log_y", "show_fill", "show_estimate"):
            view.addAction(a[key])
        view.addSeparator()
        panels = self._panels_menu = view.addMenu("Panels")
        for dock in self.docks.values():
            panels.addAction(dock.toggleViewAction())
        reset = QtGui.QAction("Reset layout", self)
        reset.setStatusTip("Put every panel back where it started (a saved layout can be broken by a large font)")
        reset.triggered.connect(self.reset_layout)
        view.addAction(reset)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(a["primer"])
        help_menu.addAction(a["about"])

    def _wire(self) -> None:
        wb = self.wb
        wb.filterReset.connect(self._on_filter_reset)
        wb.filterGrown.connect(self._on_filter_grown)
        wb.bitsChanged.connect(self._on_bits_changed)
        wb.highlighted.connect(self._on_highlighted)
        wb.seriesChanged.connect(self._on_series_changed)
        wb.seriesReplaced.connect(lambda: self.plot.set_series(self.wb.series))
        wb.error.connect(lambda msg: self.statusBar().showMessage(msg, 8_000))
        wb.notice.connect(lambda msg: self.statusBar().showMessage(msg, 5_000))
        wb.busyChanged.connect(self._on_busy)
        wb.jobFrame.connect(self._busy_frame)
        wb.progress.connect(self._on_progress)
        wb.historyAppended.connect(lambda _e: self._mark_status())
        self.autoplay.message.connect(lambda msg: self.statusBar().showMessage(msg, 8_000))
        self.plot.logYChanged.connect(self._sync_check("log_y"))
        self.plot.showFillChanged.connect(self._sync_check("show_fill"))
        self.plot.showEstimateChanged.connect(self._sync_check("show_estimate"))
        self.autoplay_panel.rate_combo.currentIndexChanged.connect(
            lambda _i: self.settings.setValue("autoplay/rate", self.autoplay.rate))

    def _sync_check(self, key: str):
        def sync(on: bool) -> None:
            act = self.actions_[key]
            if act.isChecked() != on:
                act.blockSignals(True)
                act.setChecked(on)
                act.blockSignals(False)
        return sync

    # --- workbench -> widgets ----------------------------------------------------------------------------
    def _on_filter_reset(self) -> None:
        wb = self.wb
        self._pending_bits = []
        self._plot_stale = False
        self.grid.reset(wb.filter.m, wb.grid_values(), wb.max_value())
        self.grid_legend.refresh()
        self.plot.set_series(wb.series)
        self.plot.set_capacity(wb.capacity)
        self.plot.refresh_now()
        self.update_status()

    def _on_filter_grown(self) -> None:
        # A new stage of a scalable filter: the picture is redrawn at the new size; plot and history go on.
        self._pending_bits = []
        self.grid.reset(self.wb.filter.m, self.wb.grid_values(), self.wb.max_value())
        self.grid_legend.refresh()
        self._mark_status()

    def _on_bits_changed(self, positions) -> None:
        if not self.wb.busy:
            self._pending_bits = []
            if positions is None:
                self.grid.set_all(self.wb.grid_values())
            elif len(positions):
                self.grid.update_cells(positions, self.wb.cell_values(positions))
            return
        # Bulk work: gather the changes; the frame timer redraws the grid a few times a second.
        if positions is None or self._pending_bits is None:
            self._pending_bits = None
        elif len(positions):
            self._pending_bits.append(positions)

    def flush_grid(self) -> None:
        pending, self._pending_bits = self._pending_bits, []
        if pending is None or sum(len(p) for p in pending) > FULL_REDRAW_CELLS:
            # Past a few thousand cells one pass over the whole picture (~10 ms at 10^7 bits) is cheaper.
            self.grid.set_all(self.wb.grid_values())
        elif pending:
            positions = pending[0] if len(pending) == 1 else np.concatenate(pending)
            self.grid.update_cells(positions, self.wb.cell_values(positions))

    def _grid_pending(self) -> bool:
        return self._pending_bits is None or bool(self._pending_bits)

    def _on_highlighted(self, positions, kinds) -> None:
        if positions is None or not len(positions):
            self.grid.clear_highlight()
        else:
            self.grid.highlight(positions, list(kinds))

    def _on_series_changed(self) -> None:
        if self.wb.busy:
            self._plot_stale = True
        else:
            self.plot.refresh()
        self._mark_status()

    def _busy_frame(self) -> None:
        self._frame += 1
        if self._frame % 2 and self._grid_pending():
            self.flush_grid()
        elif self._plot_stale:
            self._plot_stale = False
            self.plot.refresh_now()
        elif self._grid_pending():
            self.flush_grid()

    def _on_busy(self, busy: bool) -> None:
        self.busy_bar.setVisible(busy)
        self.busy_cancel.setVisible(busy)
        if busy:
            return
        self.flush_grid()
        self._plot_stale = False
        # the last plot redraw in a turn of its own, after the grid's
        QtCore.QTimer.singleShot(1, self.plot.refresh_now)
        self._mark_status()

    def _on_progress(self, done: int, total: int) -> None:
        # QProgressBar repaints synchronously on each value: show the latest at most ten times a second.
        self._progress_value = (done, total)
        if not self._progress_timer.isActive():
            self._progress_timer.start()

    def _show_progress(self) -> None:
        done, total = self._progress_value
        self.busy_bar.setRange(0, max(total, 1))
        self.busy_bar.setFormat(f"{done:,} of {total:,}")
        self.busy_bar.setValue(done)

    def _mark_status(self) -> None:
        if not self._status_timer.isActive():
            self._status_timer.start()

    def status_text(self) -> str:
        s = self.wb.status()
        cap = f" of {s['capacity']:,}" if s["capacity"] else ""
        return (f"m = {s['m']:,} · k = {s['k']} · {s['scheme']} · n = {s['n']:,}{cap} · "
                f"fill {s['fill'] * 100:.1f}% · FP now {s['fp_measured'] * 100:.2f}% "
                f"(theory {s['fp_exact'] * 100:.2f}%)")

    def update_status(self) -> None:
        self._status_timer.stop()
        self.status_label.setText(self.status_text())

    # --- actions -------------------------------------------------------------------------------------------
    def _focus_item(self) -> None:
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
            "The false-positive rate is measured exactly on this many items that were never inserted.\n"
            "More probes give a narrower interval; the filter is re-measured from its bits.",
            current, 1, MAX_PROBES, 1000)
        if ok and value != current:
            self.wb.set_probe_count(value)
            self.update_status()

    def cancel_work(self) -> None:
        self.autoplay.cancel()
        self.wb.cancel()

    def _save_path(self, title: str, filters: str, default: str) -> str:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, title, default, filters)
        return path

    def export_grid(self) -> None:
        path = self._save_path("Export the grid", "PNG image (*.png)", "bloom-grid.png")
        if path:
            try:
                self.grid.export_png(path)
                self.statusBar().showMessage(f"Saved the grid to {path}", 6_000)
            except (OSError, RuntimeError, ValueError) as exc:
                QtWidgets.QMessageBox.warning(self, "Export failed", f"Could not save {path}: {exc}")

    def export_plot(self) -> None:
        from bloomviz.gui.widgets.plot_export import EXPORT_FILTER
        path = self._save_path("Export the plot", EXPORT_FILTER, "bloom-fp.png")
        if path:
            try:
                self.plot.export(path)
                self.statusBar().showMessage(f"Saved the plot to {path}", 6_000)
            except (OSError, RuntimeError, ValueError) as exc:
                QtWidgets.QMessageBox.warning(self, "Export failed", f"Could not save {path}: {exc}")

    def save_window_picture(self) -> None:
        path = self._save_path("Save a picture of the window", "PNG image (*.png)", "bloomviz.png")
        if path and not self.grab().save(path):
            QtWidgets.QMessageBox.warning(self, "Save failed", f"Could not write {path}.")

    def show_primer(self) -> None:
        box = QtWidgets.QMessageBox(self)
        box.setWindowTitle("Bloom filters in one page")
        box.setTextFormat(QtCore.Qt.TextFormat.RichText)
        box.setText(PRIMER)
        box.exec()

    def show_about(self) -> None:
        QtWidgets.QMessageBox.about(
            self, "About bloomviz",
            f"<h3>bloomviz {html.escape(__version__)}</h3>"
            "<p>Bloom filters made visible: every insert and lookup on the bit grid, explained in words and "
            "numbers, with the false-positive rate measured live against theory.</p>"
            "<p>The built-in word list is taken from SCOWL (Kevin Atkinson and contributors) as packaged by "
            "Debian (<i>wamerican</i>); its copyright notice ships with bloomviz.</p>"
            "<p>Built with Qt (PySide6), pyqtgraph, numpy, bitarray and mmh3.</p>")

    # --- theme and fonts -------------------------------------------------------------------------------------
    @property
    def dark(self) -> bool:
        return self._dark

    @property
    def font_scale(self) -> float:
        return self._font_scale

    def set_dark(self, dark: bool, remember: bool = True) -> None:
        """Switch the theme; ``remember=False`` (the --dark option) leaves the saved preference alone."""
        self._dark = bool(dark)
        app = QtWidgets.QApplication.instance()
        if app is not None:
            theme.apply_theme(app, self._dark)
        self.grid.set_theme(self._dark)
        self.grid_legend.refresh()
        self.plot.set_theme(self._dark)
        for panel in (self.item_panel, self.explain_panel, self.history_panel):
            panel.set_dark(self._dark)
        from bloomviz.gui import theme_views
        theme_views.apply(self, self._dark, skip=(self.grid,))   # the other tabs' plots and grids
        act = self.actions_["dark"]
        if act.isChecked() != self._dark:
            act.blockSignals(True)
            act.setChecked(self._dark)
            act.blockSignals(False)
        if remember:
            self.settings.setValue("view/dark", self._dark)

    def set_font_scale(self, scale: float) -> None:
        scale = float(min(max(scale, theme.FONT_SCALES[0]), theme.FONT_SCALES[-1]))
        self._font_scale = scale
        app = QtWidgets.QApplication.instance()
        if app is not None:
            theme.apply_font_scale(app, scale)
            for dock in self.docks.values():
                dock.setFont(theme.dock_font(app))
            self.history_panel.verticalHeader().setDefaultSectionSize(
                QtGui.QFontMetrics(app.font()).height() + 6)
            self.history_panel.fit_columns()
        self.plot.set_font_scale(scale)
        self.settings.setValue("view/font_scale", scale)
        self.statusBar().showMessage(f"Text size {scale * 100:.0f}%", 3_000)

    def reset_layout(self) -> None:
        """The panels as a new window has them, on the Filter tab; the saved layout is forgotten."""
        self.show_tab("filter")
        for dock in self.docks.values():
            dock.setFloating(False)
        self.restoreState(self._default_state)
        for key, dock in self.docks.items():
            dock.setVisible(key in self._default_docks)   # panels added later (slow motion) start hidden
        self.settings.remove("window/state")

    def step_font(self, step: int) -> None:
        self.set_font_scale(theme.step_scale(self._font_scale, step))

    # --- settings and life cycle -------------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("window/geometry")
        if isinstance(geometry, (QtCore.QByteArray, bytes)) and geometry:
            self.restoreGeometry(geometry)
        state = s.value("window/state")
        self._restored_state = False
        if isinstance(state, (QtCore.QByteArray, bytes)) and state:
            self._restored_state = bool(self.restoreState(state))
        dark = str(s.value("view/dark", "false")).lower() in ("true", "1")
        if dark:
            self.set_dark(True)
        # A damaged or hand-edited settings file (font_scale=nan) must not stop the window from starting.
        scale = font_scale(s.value("view/font_scale", theme.DEFAULT_FONT_SCALE), theme.FONT_SCALES,
                           theme.DEFAULT_FONT_SCALE)
        if scale != theme.DEFAULT_FONT_SCALE:
            self.set_font_scale(scale)
        try:
            rate = int(s.value("autoplay/rate", self.autoplay.rate))
        except (TypeError, ValueError):
            rate = self.autoplay.rate
        if rate in RATES:
            self.autoplay_panel.rate_combo.setCurrentIndex(RATES.index(rate))

    def closeEvent(self, event) -> None:
        if self.current_tab() != "filter":
            self.show_tab("filter")   # the saved layout is the filter tab's, docks included
        self.autoplay.cancel()
        self.wb.cancel()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        super().closeEvent(event)

    # --- demo ------------------------------------------------------------------------------------------------
    def demo(self, n: int, lookup: bool = True, singles: int = 5) -> None:
        """Insert n demo items (words, then seeded random items past the word list) and make one lookup.

        The last few go in one at a time so the history and the grid show individual inserts; the lookup is a
        word that was not inserted — a false positive if one of the remaining words is one, so the picture
        shows the filter's characteristic mistake and who caused it.
        """
        from bloomviz.gui.filter_tab.autoplay import ItemStream, load_words
        words = load_words()
        order = np.random.default_rng(7).permutation(len(words))
        words = [words[i] for i in order]
        items = words[:n]
        if n > len(words):
            items += ItemStream("random", 7).take(n - len(words))
        singles = min(singles, len(items))
        bulk, one_by_one = items[: len(items) - singles], items[len(items) - singles:]
        if len(bulk) > 200_000:
            self.wb.insert_many(bulk, label="demo items")
            loop = QtCore.QEventLoop()
            self.wb.jobFinished.connect(loop.quit)
            loop.exec()
        elif bulk:
            self.wb.insert_batch(bulk)
        for item in one_by_one:
            self.wb.insert(item)
        if lookup:
            rest = words[n:] or ["bloom"]
            found = self.wb.filter.contains_many(rest[:5000]) if rest else np.zeros(0, bool)
            hits = np.flatnonzero(found)
            probe = rest[int(hits[0])] if hits.size else rest[0]
            self.item_panel.line.setText(probe)
            self.wb.lookup(probe)
        self.plot.refresh_now()
        self.update_status()
