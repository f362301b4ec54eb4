"""The compare view: one item stream through two to four configurations, side by side.

Each configuration (a filter variant and a hash scheme) gets a small grid and a curve on one shared plot: its
false-positive rate measured after every insert with a Wilson band, and its own theory dashed. The default
preset is the lesson of the hash functions: at k = 10 the ``weak-shift`` scheme (one hash rotated by 16 bits
per function, so its positions repeat past k = 4) is measured several times above theory. When a run ends each
lane is judged by ``studies.scheme_verdict``: its scheme against what its own bits explain, and a good scheme
whose one filter set more or fewer bits than average is called lucky, not dependent.

The computation is ``bloomviz.studies.compare.Comparison``; this view only collects the settings, calls its
``step`` from a ``timing.ChunkRunner`` (a chunk sized to take about ``TICK_MS``), and draws. The comparison's
filters are its own: the main window's filter is never touched.
"""

from __future__ import annotations

import time

import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from bloomviz.gui.compare_tab.drawing import ComparePictures
from bloomviz.gui.compare_tab.lanes import LaneBox, LaneFrame, lane_area
from bloomviz.gui.compare_tab.settings import LANE_COLOURS, CompareSettings
from bloomviz.gui import theme
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.grid_axis import beneath_the_view, opaque_grid_axes
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.gui.widgets.legend_place import LegendPlacer
from bloomviz.gui.widgets.plot_room import keep_readable
from bloomviz.gui.widgets.shrink import hold_wrapped_height
from bloomviz.gui.widgets.side_column import side_column
from bloomviz.gui.timing import ChunkRunner
from bloomviz.studies import scheme_verdict
from bloomviz.studies.compare import Comparison
from bloomviz.i18n import number, tr

TAB_KEY = "compare"
TAB_TITLE = "Compare"
TAB_TIP = ("The same items through several hash schemes or filter variants: see whether each one's measured "
           "false-positive rate follows its theory")
TICK_MS = 25            # work per turn of the event loop
PLOT_INTERVAL_S = 0.15  # redraws while running
GRID_INTERVAL_S = 0.4


class CompareView(Messages, QtWidgets.QWidget):
    """See the module docstring. ``finished(cancelled)`` is emitted when a run ends."""

    finished = QtCore.Signal(bool)

    class Error(Messages.Error):
        refused = Msg("Refused: {problem}")

    class Information(Messages.Information):
        running = Msg("running: {n} items through {lanes} configurations, measured on {probes} probes…")
        cancelled = Msg("cancelled after {done} of {n} items; the curves show the measurement up to there")
        done = Msg("{summary}")          # studies.scheme_verdict's words for the run

    def __init__(self, parent=None):
        super().__init__(parent)
        self._shown_once = False
        self.run_on_first_show = False   # in the window: the first visit runs the lesson
        self._cmp: Comparison | None = None
        self._chunks = ChunkRunner(self._tick, self)
        self._chunk = 256
        self._last_plot = self._last_grid = 0.0
        self._build()
        self.pictures = ComparePictures(self.lanes, self.lane_box, self.plot, self.log_check, self.right)
        self.load_lesson()

    def _build(self) -> None:
        self.settings = CompareSettings()

        self.run_button = QtWidgets.QPushButton(tr("Run"))
        self.run_button.setToolTip(tr("Insert the items into every configuration, measuring as it goes"))
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.lesson_button = QtWidgets.QPushButton(tr("Lesson preset"))
        self.lesson_button.setToolTip(tr("k = 10, m/n ≈ 14.4 (p = 0.001): the default scheme, double hashing, k "
                                         "seeded hashes and weak-shift. Double hashing's excess at small m shows in "
                                         "Parameter explorer → Ensemble."))
        self.lesson_button.clicked.connect(self.load_lesson)
        buttons = QtWidgets.QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.lesson_button):
            buttons.addWidget(b)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setFormat(tr("%v of %m items"))
        self.message = MessageBar()
        self.bind_messages(self.message)

        scroll = side_column(self.settings.form, self.settings.configs_layout, buttons, self.progress, self.message, end_stretch=1)
        scroll.setMaximumWidth(380)

        self.lanes = [LaneFrame(c) for c in LANE_COLOURS]
        self.lane_box = LaneBox(self.lanes)      # side by side while the titles fit, else in rows that scroll
        grid_box = lane_area(self.lane_box)

        self.plot = pg.PlotWidget(axisItems=opaque_grid_axes())   # opaque grid lines (widgets/grid_axis.py)
        keep_readable(self.plot)     # lines of text high at any text size: the lanes above give way, then scroll
        self.plot.setBackground("w")
        beneath_the_view(self.plot.getPlotItem(), "w")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setLabel("bottom", tr("items inserted, n"))
        self.plot.setLabel("left", tr("false-positive rate"))
        self.plot.setLogMode(y=True)
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # "1 (x0.001)" on a rate axis misleads
        # Top left: the curves rise from the bottom left to the right, so that corner stays empty.
        self.legend = self.plot.addLegend(offset=(8, 8), labelTextSize="9pt", labelTextColor=theme.COMPARE_LEGEND["text"],
                                          brush=pg.mkBrush(*theme.COMPARE_LEGEND["fill"]),
                                          pen=pg.mkPen(theme.COMPARE_LEGEND["edge"]))
        # where it hides the least of the curves once a run has drawn them (not while they grow: no legend jumping)
        self.legend_place = LegendPlacer(self.plot.getPlotItem(), self.legend, ((0, 0), (0, 0), (8, 8)),
                                         follow_range=False)
        self.finished.connect(lambda _cancelled: self.legend_place.schedule())
        self.log_check = QtWidgets.QCheckBox(tr("log y"))
        self.log_check.setChecked(True)
        self.log_check.toggled.connect(lambda on: self.pictures.set_log(on))
        self.log_check.toggled.connect(lambda _on: self.legend_place.schedule())
        self.plot_note = QtWidgets.QLabel(tr("solid: measured, shaded: its 95% Wilson interval (log y: from the "
                                             "first false positive on), dashed: theory"))
        self.plot_note.setWordWrap(True)
        hold_wrapped_height(self.plot_note)     # its lines never drawn over the plot (at 250 % text)
        plot_box = QtWidgets.QWidget()
        pl = QtWidgets.QVBoxLayout(plot_box)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addWidget(self.plot, 1)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.plot_note, 1)
        row.addWidget(self.log_check)
        pl.addLayout(row)

        self.right = right = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        right.addWidget(grid_box)
        right.addWidget(plot_box)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        layout = QtWidgets.QHBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(right, 1)

    # --- settings: held by ``self.settings``; a run in progress keeps them -----------------------------------
    def load_lesson(self) -> None:
        """The preset that shows the lesson: the p = 0.001 design, three good schemes and weak-shift."""
        if not self.running:
            self.settings.load_lesson()

    def set_configs(self, configs) -> None:
        self.settings.set_configs(configs)

    def configs(self) -> list:
        return self.settings.configs()

    def set_sizing(self, m: int | None = None, k: int | None = None, n: int | None = None,
                   p: float | None = None) -> None:
        """Either m and k, or a design n and p."""
        self.settings.set_sizing(m, k, n, p)

    @property
    def running(self) -> bool:
        return self._chunks.is_running

    @property
    def comparison(self) -> Comparison | None:
        return self._cmp

    def start(self) -> bool:
        """Build a comparison from the controls and run it from the event loop. False (and a message) when a
        setting is refused."""
        if self.running:
            return False
        settings = self.settings
        try:
            m, k, p = settings.design()
            self._cmp = Comparison(settings.configs(), m, k, settings.items_spin.value(),
                                   probes=settings.probes_spin.value(), seed=settings.seed_spin.value(), p=p)
        except (ValueError, TypeError) as exc:
            self.show_only(self.Error.refused, problem=exc)
            return False
        self._chunk = 256
        self.pictures.setup(self._cmp)
        self.progress.setRange(0, self._cmp.n)
        self.progress.setValue(0)
        self.show_only(self.Information.running, n=number(self._cmp.n), lanes=len(self._cmp.lanes),
                       probes=number(len(self._cmp.probes)))
        self._set_busy(True)
        self._chunks.start()
        return True

    def cancel(self) -> None:
        """Stop between two chunks; what was measured so far stays on screen."""
        if not self.running:
            return
        self._chunks.stop()
        self._set_busy(False)
        self.pictures.redraw()
        self.show_only(self.Information.cancelled, done=number(self._cmp.done), n=number(self._cmp.n))
        self.finished.emit(True)

    def run_to_end(self) -> None:
        """Finish the current run at once (for scripts and tests; the window uses the timer)."""
        while self.running:
            self._tick()

    def _set_busy(self, busy: bool) -> None:
        self.run_button.setEnabled(not busy)
        self.lesson_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)

    def _tick(self) -> bool:
        """One chunk of items through every configuration; False when the run is over."""
        cmp = self._cmp
        started = time.perf_counter()
        before = cmp.done
        more = cmp.step(self._chunk)
        spent = time.perf_counter() - started
        if cmp.done > before and spent > 0:
            # Aim each turn at TICK_MS of work, changing the chunk by at most 4x at a time.
            rate = (cmp.done - before) / spent
            self._chunk = int(min(max(rate * TICK_MS / 1000, self._chunk / 4, 16), self._chunk * 4, 1 << 18))
        self.progress.setValue(cmp.done)
        now = time.monotonic()
        if not more:
            self._chunks.stop()
            self._set_busy(False)
            self.pictures.redraw()
            self.show_only(self.Information.done, summary=self._verdict())
            self.finished.emit(False)
            return False
        if now - self._last_plot > PLOT_INTERVAL_S:
            self._last_plot = now
            self.pictures.draw_curves()
            self.pictures.draw_stats()
        if now - self._last_grid > GRID_INTERVAL_S:
            self._last_grid = now
            self.pictures.draw_grids()
        return True

    def showEvent(self, event) -> None:
        super().showEvent(event)
        # A grid laid out while its tab was hidden was fitted to a size it no longer has.
        QtCore.QTimer.singleShot(0, self.fit_grids)
        if self.run_on_first_show and not self._shown_once:
            # The first visit shows the lesson running rather than four empty frames (a second or two of work
            # in chunks; Cancel stops it).
            self._shown_once = True
            if self.comparison is None and not self.running:
                QtCore.QTimer.singleShot(0, self.start)

    def fit_grids(self) -> None:
        """Fit the lanes' grids to their frames (after a resize or a change of text size)."""
        self.pictures.fit_grids()

    def _verdict(self) -> str:
        return scheme_verdict.summary_text(self._cmp.verdicts())


def install(window) -> None:
    """Add the compare view as a tab of ``window`` (a MainWindow); the view is made on its first showing."""
    def make() -> CompareView:
        view = CompareView()
        view.run_on_first_show = True
        return view

    window.add_tab(TAB_KEY, TAB_TITLE, make, TAB_TIP)
