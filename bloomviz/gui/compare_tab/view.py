"""The compare view: one item stream through two to four configurations, side by side.

Each configuration (a filter variant and a hash scheme) gets a small grid and a curve on one shared plot: its
false-positive rate measured after every insert with a Wilson band, and its own theory dashed. The default
preset is the lesson of the hash functions: at k = 10 the ``weak-shift`` scheme (one hash rotated by 16 bits
per function, so its positions repeat past k = 4) is measured several times above theory while the good
schemes stay inside their bands.

The computation is ``bloomviz.studies.compare.Comparison``; this view only collects the settings, calls its
``step`` from a zero-delay QTimer (a chunk sized to take about ``TICK_MS``), and draws. The comparison's filters
are its own: the main window's filter is never touched.
"""

from __future__ import annotations

import html
import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.studies.compare import (DEFAULT_PROBES, LESSON_P, MAX_CONFIGS, MAX_ITEMS, MAX_PROBES, Comparison,
                                   Config, lesson_configs, lesson_design)
from bloomviz.filters.registry import TITLES, VARIANTS, grid_values
from bloomviz.gui.widgets.grid import BitGridWidget
from bloomviz.gui.widgets.wilson_band import WilsonBand

TAB_KEY = "compare"
TAB_TITLE = "Compare"
TAB_TIP = ("The same items through several hash schemes or filter variants: see whether each one's measured "
           "false-positive rate follows its theory")

LANE_COLOURS = ("#0072B2", "#009E73", "#E69F00", "#D55E00")  # Okabe-Ito: safe for colour-vision deficiencies
OFF = "(off)"
TICK_MS = 25            # work per turn of the event loop
PLOT_INTERVAL_S = 0.15  # redraws while running
GRID_INTERVAL_S = 0.4
MAX_GRID_M = 10_000_000


class _Lane(QtWidgets.QFrame):
    """A configuration's title, grid and numbers."""

    def __init__(self, colour: str, parent=None):
        super().__init__(parent)
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.title = QtWidgets.QLabel()
        self.title.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.grid = BitGridWidget()
        self.grid.setMinimumSize(80, 80)
        self.stats = QtWidgets.QLabel()
        self.stats.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.stats.setWordWrap(True)
        self.colour = colour
        for label in (self.title, self.stats):
            # Labels must not widen the tab (four lanes share it beside the docks); a narrow lane clips them.
            label.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.grid, 1)
        layout.addWidget(self.stats)


class _ConfigRow(QtWidgets.QWidget):
    def __init__(self, index: int, optional: bool, parent=None):
        super().__init__(parent)
        self.variant = QtWidgets.QComboBox()
        if optional:
            self.variant.addItem(OFF, None)
        for vid in VARIANTS:
            self.variant.addItem(vid, vid)
            self.variant.setItemData(self.variant.count() - 1, TITLES[vid], QtCore.Qt.ItemDataRole.ToolTipRole)
        self.scheme = QtWidgets.QComboBox()
        for sid, s in hashing.SCHEMES.items():
            self.scheme.addItem(sid, sid)
            self.scheme.setItemData(self.scheme.count() - 1, f"{s.title}: {s.summary}",
                                    QtCore.Qt.ItemDataRole.ToolTipRole)
        self.variant.setToolTip("Filter variant of configuration %d" % (index + 1))
        self.scheme.setToolTip("Hash scheme of configuration %d" % (index + 1))
        for combo, chars in ((self.variant, 6), (self.scheme, 8)):
            # Narrow by default (the view shares the window with docks); the popup still shows whole names.
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(chars)
        swatch = QtWidgets.QLabel("■")
        swatch.setStyleSheet(f"color: {LANE_COLOURS[index]}; font-size: 16px;")
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(swatch)
        layout.addWidget(self.variant, 2)
        layout.addWidget(self.scheme, 3)
        self.variant.currentIndexChanged.connect(self._sync)
        self._sync()

    def _sync(self) -> None:
        self.scheme.setEnabled(self.variant.currentData() is not None)

    def config(self) -> Config | None:
        variant = self.variant.currentData()
        return None if variant is None else Config(variant, self.scheme.currentData())

    def set_config(self, config: Config | None) -> None:
        if config is None:
            self.variant.setCurrentIndex(self.variant.findData(None) if self.variant.findText(OFF) >= 0 else 0)
            return
        self.variant.setCurrentIndex(self.variant.findData(config.variant))
        self.scheme.setCurrentIndex(self.scheme.findData(config.scheme))


class CompareView(QtWidgets.QWidget):
    """See the module docstring. ``finished(cancelled)`` is emitted when a run ends."""

    finished = QtCore.Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._shown_once = False
        self.run_on_first_show = False   # in the window: the first visit runs the lesson
        self._cmp: Comparison | None = None
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._tick)
        self._chunk = 256
        self._last_plot = self._last_grid = 0.0
        self._curves: list = []
        self._build()
        self.load_lesson()

    # --- construction --------------------------------------------------------------------------------
    def _build(self) -> None:
        self.by_design = QtWidgets.QRadioButton("design for n items at rate p")
        self.by_mk = QtWidgets.QRadioButton("m bits and k hashes")
        self.by_design.setToolTip("m and k chosen by the textbook formulas: k = ⌈log2(1/p)⌉, "
                                  "m = ⌈−n·ln p / (ln 2)²⌉")
        self.design_n = QtWidgets.QSpinBox()
        self.design_n.setRange(1, MAX_ITEMS)
        self.design_n.setGroupSeparatorShown(True)
        self.design_p = QtWidgets.QLineEdit()
        self.design_p.setToolTip("target false-positive rate, 0 < p < 1 (e.g. 0.001)")
        self.m_spin = QtWidgets.QSpinBox()
        self.m_spin.setRange(8, MAX_GRID_M)
        self.m_spin.setGroupSeparatorShown(True)
        self.k_spin = QtWidgets.QSpinBox()
        self.k_spin.setRange(1, 64)
        self.k_spin.setToolTip("hash functions per item; weak-shift repeats its positions past k = 4")
        self.items_spin = QtWidgets.QSpinBox()
        self.items_spin.setRange(1, MAX_ITEMS)
        self.items_spin.setGroupSeparatorShown(True)
        self.items_spin.setToolTip("seeded random items inserted into every configuration, in the same order")
        self.probes_spin = QtWidgets.QSpinBox()
        self.probes_spin.setRange(100, MAX_PROBES)
        self.probes_spin.setGroupSeparatorShown(True)
        self.probes_spin.setToolTip("items never inserted, tested after every insert: more probes, "
                                    "narrower bands")
        self.seed_spin = QtWidgets.QSpinBox()
        self.seed_spin.setRange(0, 2 ** 31 - 1)
        self.design_label = QtWidgets.QLabel()
        self.design_label.setWordWrap(True)
        for w in (self.by_design, self.by_mk):
            w.toggled.connect(self._sync_sizing)
        for w in (self.design_n, self.m_spin, self.k_spin):
            w.valueChanged.connect(self._sync_sizing)
        self.design_p.textChanged.connect(self._sync_sizing)

        form = QtWidgets.QFormLayout()
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.by_design)
        form.addRow("n", self.design_n)
        form.addRow("p", self.design_p)
        form.addRow(self.by_mk)
        form.addRow("m", self.m_spin)
        form.addRow("k", self.k_spin)
        form.addRow(self.design_label)
        form.addRow("items", self.items_spin)
        form.addRow("probes", self.probes_spin)
        form.addRow("seed", self.seed_spin)

        self.rows = [_ConfigRow(i, optional=i >= 2) for i in range(MAX_CONFIGS)]
        configs = QtWidgets.QVBoxLayout()
        configs.setSpacing(2)
        configs.addWidget(QtWidgets.QLabel("Configurations (variant, hash scheme):"))
        for row in self.rows:
            configs.addWidget(row)

        self.run_button = QtWidgets.QPushButton("Run")
        self.run_button.setToolTip("Insert the items into every configuration, measuring as it goes")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.lesson_button = QtWidgets.QPushButton("Lesson preset")
        self.lesson_button.setToolTip("k = 10, m/n ≈ 14.4 (p = 0.001): the default scheme, double hashing, k "
                                      "seeded hashes and weak-shift. Double hashing's excess at small m shows in "
                                      "Parameter explorer → Ensemble.")
        self.lesson_button.clicked.connect(self.load_lesson)
        buttons = QtWidgets.QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.lesson_button):
            buttons.addWidget(b)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setFormat("%v of %m items")
        self.message = QtWidgets.QLabel()
        self.message.setWordWrap(True)
        self.message.setTextFormat(QtCore.Qt.TextFormat.RichText)

        controls = QtWidgets.QWidget()
        side = QtWidgets.QVBoxLayout(controls)
        side.addLayout(form)
        side.addLayout(configs)
        side.addLayout(buttons)
        side.addWidget(self.progress)
        side.addWidget(self.message)
        side.addStretch(1)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(controls.minimumSizeHint().width()
                               + scroll.verticalScrollBar().sizeHint().width() + 2 * scroll.frameWidth())
        scroll.setMaximumWidth(380)

        self.lanes = [_Lane(c) for c in LANE_COLOURS]
        grids = QtWidgets.QGridLayout()
        grids.setSpacing(4)
        for i, lane in enumerate(self.lanes):
            grids.addWidget(lane, 0, i)  # one row: side by side, leaving the plot its height
        grid_box = QtWidgets.QWidget()
        grid_box.setLayout(grids)

        self.plot = pg.PlotWidget()
        self.plot.setBackground("w")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setLabel("bottom", "items inserted, n")
        self.plot.setLabel("left", "false-positive rate")
        self.plot.setLogMode(y=True)
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # "1 (x0.001)" on a rate axis misleads
        # Top left: the curves rise from the bottom left to the right, so that corner stays empty.
        self.legend = self.plot.addLegend(offset=(8, 8), labelTextSize="9pt", labelTextColor="#202020",
                                          brush=pg.mkBrush(255, 255, 255, 220), pen=pg.mkPen("#B0B0B0"))
        self.log_check = QtWidgets.QCheckBox("log y")
        self.log_check.setChecked(True)
        self.log_check.toggled.connect(self._set_log)
        self.plot_note = QtWidgets.QLabel("solid: measured, shaded: its 95% Wilson interval (log y: from the first false positive on), "
            "dashed: theory")
        self.plot_note.setWordWrap(True)
        plot_box = QtWidgets.QWidget()
        pl = QtWidgets.QVBoxLayout(plot_box)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addWidget(self.plot, 1)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.plot_note, 1)
        row.addWidget(self.log_check)
        pl.addLayout(row)

        right = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        right.addWidget(grid_box)
        right.addWidget(plot_box)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        layout = QtWidgets.QHBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(right, 1)

    # --- settings --------------------------------------------------------------------------------------
    def load_lesson(self) -> None:
        """The preset that shows the lesson: the p = 0.001 design, three good schemes and weak-shift."""
        if self.running:
            return
        _, _, n = lesson_design()
        self.design_n.setValue(n)
        self.design_p.setText(repr(LESSON_P))
        self.by_design.setChecked(True)
        self.items_spin.setValue(n)
        self.probes_spin.setValue(DEFAULT_PROBES)
        self.seed_spin.setValue(0)
        self.set_configs(lesson_configs())

    def set_configs(self, configs) -> None:
        configs = list(configs)
        for i, row in enumerate(self.rows):
            row.set_config(configs[i] if i < len(configs) else None)

    def configs(self) -> list[Config]:
        return [c for c in (row.config() for row in self.rows) if c is not None]

    def set_sizing(self, m: int | None = None, k: int | None = None, n: int | None = None,
                   p: float | None = None) -> None:
        """Either m and k, or a design n and p."""
        if n is not None and p is not None:
            self.design_n.setValue(n)
            self.design_p.setText(repr(p))
            self.by_design.setChecked(True)
        else:
            self.by_mk.setChecked(True)  # first: in design mode the spin boxes follow the design
            self.m_spin.setValue(m)
            self.k_spin.setValue(k)

    def _design(self) -> tuple[int, int, float | None]:
        """(m, k, p) from the sizing controls; raises ValueError naming a bad p."""
        if self.by_mk.isChecked():
            return self.m_spin.value(), self.k_spin.value(), None
        text = self.design_p.text().strip()
        try:
            p = float(text)
        except ValueError:
            raise ValueError(f"p must be a number between 0 and 1, got {text!r}") from None
        if not (0.0 < p < 1.0) or not math.isfinite(p):
            raise ValueError(f"p must lie strictly between 0 and 1, got {text!r}")
        k, m = theory.optimal_params(self.design_n.value(), p)
        # The same range as the m spin box: a loose p designs m = 1 or 2, which the m/k sizing never offers.
        if k > 64 or not self.m_spin.minimum() <= m <= MAX_GRID_M:
            raise ValueError(f"the design for n = {self.design_n.value():,} at p = {text} needs k = {k}, "
                             f"m = {m:,}; this view takes k ≤ 64 and {self.m_spin.minimum()} ≤ m ≤ "
                             f"{MAX_GRID_M:,}")
        return m, k, p

    def _sync_sizing(self) -> None:
        design = self.by_design.isChecked()
        for w in (self.design_n, self.design_p):
            w.setEnabled(design)
        for w in (self.m_spin, self.k_spin):
            w.setEnabled(not design)
        try:
            m, k, p = self._design()
        except ValueError as exc:
            self.design_label.setText(str(exc))
            return
        n = self.items_spin.value() if not design else self.design_n.value()
        self.design_label.setText(f"m = {m:,} bits, k = {k}; {m / max(n, 1):.1f} bits per item at n = {n:,}")
        if design:
            self.m_spin.blockSignals(True), self.k_spin.blockSignals(True)
            self.m_spin.setValue(m)
            self.k_spin.setValue(k)
            self.m_spin.blockSignals(False), self.k_spin.blockSignals(False)

    # --- running ---------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._timer.isActive()

    @property
    def comparison(self) -> Comparison | None:
        return self._cmp

    def start(self) -> bool:
        """Build a comparison from the controls and run it from the event loop. False (and a message) when a
        setting is refused."""
        if self.running:
            return False
        try:
            m, k, p = self._design()
            self._cmp = Comparison(self.configs(), m, k, self.items_spin.value(), probes=self.probes_spin.value(),
                                   seed=self.seed_spin.value(), p=p)
        except (ValueError, TypeError) as exc:
            self._say(f"<span style='color:#B00020'>Refused: {html.escape(str(exc), quote=False)}</span>")
            return False
        self._chunk = 256
        self._setup_lanes()
        self._setup_plot()
        self.progress.setRange(0, self._cmp.n)
        self.progress.setValue(0)
        self._say(f"running: {self._cmp.n:,} items through {len(self._cmp.lanes)} configurations, "
                  f"measured on {len(self._cmp.probes):,} probes…")
        self._set_busy(True)
        self._timer.start()
        return True

    def cancel(self) -> None:
        """Stop between two chunks; what was measured so far stays on screen."""
        if not self.running:
            return
        self._timer.stop()
        self._set_busy(False)
        self._redraw()
        self._say(f"cancelled after {self._cmp.done:,} of {self._cmp.n:,} items; the curves show the "
                  "measurement up to there")
        self.finished.emit(True)

    def run_to_end(self) -> None:
        """Finish the current run at once (for scripts and tests; the window uses the timer)."""
        while self.running:
            self._tick()

    def _set_busy(self, busy: bool) -> None:
        self.run_button.setEnabled(not busy)
        self.lesson_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)

    def _tick(self) -> None:
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
            self._timer.stop()
            self._set_busy(False)
            self._redraw()
            self._say(self._verdict())
            self.finished.emit(False)
            return
        if now - self._last_plot > PLOT_INTERVAL_S:
            self._last_plot = now
            self._draw_curves()
            self._draw_stats()
        if now - self._last_grid > GRID_INTERVAL_S:
            self._last_grid = now
            self._draw_grids()

    # --- drawing ---------------------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        self.message.setText(text)

    def _setup_lanes(self) -> None:
        for i, frame in enumerate(self.lanes):
            if i < len(self._cmp.lanes):
                lane = self._cmp.lanes[i]
                frame.setVisible(True)
                frame.title.setText(f"<b style='color:{frame.colour}'>■</b> <b>{html.escape(lane.config.label)}"
                                    "</b>")
                frame.title.setToolTip(f"{lane.config.title}: m = {lane.filter.m:,} bits, k = {lane.filter.k}")
                frame.grid.setToolTip("")
                frame.grid.reset(lane.filter.m, grid_values(lane.filter), self._max_value(lane.filter))
                frame.stats.setText("")
            else:
                frame.setVisible(False)

    @staticmethod
    def _max_value(flt) -> int:
        return int(getattr(flt, "max_counter", 1))

    def _setup_plot(self) -> None:
        self.plot.clear()
        self.legend.clear()
        self._curves = []
        seen_theory: dict[tuple, pg.PlotDataItem] = {}
        for lane, frame in zip(self._cmp.lanes, self.lanes):
            colour = QtGui.QColor(frame.colour)
            fill = QtGui.QColor(colour)
            fill.setAlpha(70)
            edge = QtGui.QColor(colour)
            edge.setAlpha(110)
            # The band is built from what its edge curves display, so they need a (faint) pen to be drawn.
            low = pg.PlotDataItem(pen=pg.mkPen(edge, width=1))
            high = pg.PlotDataItem(pen=pg.mkPen(edge, width=1))
            band = WilsonBand(low, high, brush=pg.mkBrush(fill))
            measured = pg.PlotDataItem(pen=pg.mkPen(colour, width=2), name=lane.config.label, connect="finite")
            key = (lane.filter.variant, lane.filter.m, lane.filter.k, tuple(sorted(lane.filter.state_params()
                                                                                   .items())))
            th = seen_theory.get(key)
            if th is None:
                name = lane.filter.theory_name
                th = pg.PlotDataItem(pen=pg.mkPen(colour.darker(140), width=2,
                                                  style=QtCore.Qt.PenStyle.DashLine), name=name)
                seen_theory[key] = th
                self.plot.addItem(th)
                owns_theory = True
            else:
                owns_theory = False
            for item in (low, high, measured):
                self.plot.addItem(item)
            self.plot.addItem(band, ignoreBounds=True)  # its off-view floor must not drag the range down
            measured.setZValue(10)
            self._curves.append((lane, low, high, measured, th if owns_theory else None))
        self._draw_curves()

    def _set_log(self, on: bool) -> None:
        self.plot.setLogMode(y=on)
        self._draw_curves()

    def _draw_curves(self) -> None:
        log = self.log_check.isChecked()
        top = 0.0
        for lane, low, high, measured, th in self._curves:
            c = lane.curve()
            n = c["n"].astype(float)
            y, lo, hi, t = c["measured"], c["low"], c["high"], c["theory"]
            if log:
                # A rate of 0 has no logarithm: leave those points out (the band's edge falls to the axis).
                # Before a curve's first false positive its band is [0, ~3/probes] for every configuration
                # alike; on a log axis those stacked boxes only hide the curves, so bands start at the first.
                y = np.where(y > 0, y, np.nan)
                lo = np.where(c["measured"] > 0, lo, np.nan)
                hi = np.where(c["measured"] > 0, hi, np.nan)
            top = max(top, float(np.nanmax(hi, initial=0.0)), float(np.nanmax(t, initial=0.0)))
            measured.setData(n, y, connect="finite")
            low.setData(n, lo, connect="finite")
            high.setData(n, hi, connect="finite")
            if th is not None:
                # Theory is drawn to the end of the run from the start, so the measured curves grow towards it.
                full = np.linspace(0, self._cmp.n, 300)
                tv = lane.theory_at(full)
                if log:
                    # Below a tenth of one probe the theory cannot be measured here; drawing it down to 1e-25
                    # would squash the part of the plot where the curves differ.
                    tv = np.where(tv >= 0.1 / len(self._cmp.probes), tv, np.nan)
                th.setData(full, tv, connect="finite")
        if self._cmp is not None:
            self._fit_y(top, log)

    def _fit_y(self, top: float, log: bool) -> None:
        # From a tenth of one probe (nothing below is measurable) to just above the highest band or theory.
        floor = 0.1 / len(self._cmp.probes)
        top = max(top * 1.5, floor * 100)
        if log:
            self.plot.setYRange(math.log10(floor), math.log10(min(top, 1.0)), padding=0.02)
        else:
            self.plot.setYRange(0.0, min(top, 1.0), padding=0.02)

    def _draw_grids(self) -> None:
        for lane, frame in zip(self._cmp.lanes, self.lanes):
            values = grid_values(lane.filter)
            if frame.grid.m != lane.filter.m:
                frame.grid.reset(lane.filter.m, values, self._max_value(lane.filter))
            else:
                frame.grid.set_all(values)
            if hasattr(lane.filter, "stage_offsets"):
                offsets = list(lane.filter.stage_offsets()) + [lane.filter.m]
                frame.grid.set_bands([(offsets[i], offsets[i + 1], f"stage {i}")
                                      for i in range(len(offsets) - 1)])

    def _draw_stats(self) -> None:
        for lane, frame in zip(self._cmp.lanes, self.lanes):
            s = lane.summary()
            ratio = "—" if math.isnan(s.ratio) else ("∞" if math.isinf(s.ratio) else f"{s.ratio:.2f}×")
            z = "" if not math.isfinite(s.z) else f", {s.z:+.1f} sd"
            outside = s.high < s.theory or s.low > s.theory
            side = "above" if s.low > s.theory else "below"
            flag = f"<br><b style='color:#B00020'>measured {side} theory</b>" if outside and s.n else ""
            frame.stats.setText(  # short words: four lanes share a narrow tab
                f"fill {s.bits_set / s.m:.1%}<br>FP <b>{s.measured:.3g}</b> [{s.low:.2g}, {s.high:.2g}]"
                f"<br><b>{ratio}</b> theory{z}{flag}")
            frame.stats.setToolTip(f"after n = {s.n:,} items, {s.fp_count:,} of {s.probes:,} probes (never "
                                   f"inserted) pass the filter: measured {s.measured:.4g}, theory {s.theory:.4g}; "
                                   "the interval is the 95% Wilson interval; sd = standard deviations of "
                                   "Binomial(probes, theory)")

    def _redraw(self) -> None:
        self._draw_curves()
        self._draw_grids()
        self._draw_stats()
        self.fit_grids()

    def fit_grids(self) -> None:
        for frame in self.lanes:
            if frame.isVisible() and frame.grid.m:
                frame.grid.fit()

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

    def _verdict(self) -> str:
        parts = []
        for s in self._cmp.summaries():
            if s.theory <= 0:
                continue
            if s.low > s.theory:
                parts.append(f"<b>{html.escape(s.label)}</b> is {s.ratio:.1f}× its theory: its hash positions "
                             "are not independent, so the formula does not hold for it")
            elif s.high < s.theory:
                parts.append(f"<b>{html.escape(s.label)}</b> is below its theory ({s.ratio:.2f}×)")
        if not parts:
            return "done: every configuration is within its interval of theory."
        return "done: " + "; ".join(parts) + ". The others stay within their intervals."


def install(window) -> CompareView:
    """Add the compare view as a tab of ``window`` (a MainWindow)."""
    view = CompareView()
    view.run_on_first_show = True
    window.add_tab(TAB_KEY, TAB_TITLE, view, TAB_TIP)
    return view
