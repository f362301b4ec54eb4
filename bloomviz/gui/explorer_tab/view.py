"""The parameter explorer tab: a calculator beside three plots, with measurements overlaid on theory.

Left: the calculator (``explorer_calc.CalculatorPanel``). Right, one tab each: the rate against n for
several m, the rate against k with the optimum (and measured points per k), bits per item against p. Every
solved design redraws the plots; measured points belong to one (m, n, k) and are cleared when the design
changes. The explorer never touches the window's filter except through ``Workbench.configure`` ("Use these
parameters").

``install(window)`` adds the tab to a ``MainWindow`` and a "Parameter explorer" entry in its View menu.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.studies import explore
from bloomviz.gui.explorer_tab.calc import CalculatorPanel
from bloomviz.gui.explorer_tab.drawing import CurveJob
from bloomviz.gui.explorer_tab.ensemble import EnsemblePage
from bloomviz.gui.explorer_tab.measure import MeasurePanel
from bloomviz.gui.explorer_tab.plots import BitsPerItemPlot, FpVsKPlot, FpVsNPlot
from bloomviz.i18n import tr
from bloomviz.theory.limits import MAX_K

TAB_KEY = "explorer"
TAB_TITLE = "Parameter explorer"
TAB_TIP = ("Choose m, k, n and p: a calculator, the trade-off curves, and quick measurements against theory.")
N_FACTORS = (0.25, 0.5, 1.0, 1.5, 2.0)     # the n at which the FP-vs-n plot is measured, times the design n


class ExplorerWidget(QtWidgets.QWidget):
    def __init__(self, workbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self.calc = CalculatorPanel(workbench)
        self.n_plot = FpVsNPlot()
        self.k_plot = FpVsKPlot()
        self.bits_plot = BitsPerItemPlot()
        self.plots = {"fp_vs_n": self.n_plot, "fp_vs_k": self.k_plot, "bits_per_item": self.bits_plot}
        self.k_runs: list[dict] = []
        self.n_runs: list[dict] = []
        self._key: tuple | None = None

        self.k_from = QtWidgets.QSpinBox()
        self.k_to = QtWidgets.QSpinBox()
        for box in (self.k_from, self.k_to):
            box.setRange(1, MAX_K)
            box.setToolTip(tr("The k values to measure (both ends included)."))
        self.k_from.setValue(1)
        self.k_to.setValue(12)
        self.k_measure = MeasurePanel(self._make_k_job, "each k")
        self.k_measure.extra.addWidget(QtWidgets.QLabel(tr("k from")))
        self.k_measure.extra.addWidget(self.k_from)
        self.k_measure.extra.addWidget(QtWidgets.QLabel(tr("to")))
        self.k_measure.extra.addWidget(self.k_to)
        self.k_measure.measured.connect(self._on_k_measured)
        self.k_measure.clearRequested.connect(lambda: self._clear_runs(self.k_runs))
        self.n_measure = MeasurePanel(self._make_n_job, "n/4, n/2, n, 3n/2 and 2n items")
        self.n_measure.measured.connect(self._on_n_measured)
        self.n_measure.clearRequested.connect(lambda: self._clear_runs(self.n_runs))

        self.tabs = QtWidgets.QTabWidget()
        self.tabs.addTab(self._page(self.n_plot, self.n_measure), tr("Rate vs n"))
        self.tabs.addTab(self._page(self.k_plot, self.k_measure), tr("Rate vs k"))
        self.tabs.addTab(self._page(self.bits_plot, None), tr("Bits per item vs p"))
        self.ensemble = EnsemblePage()
        self.tabs.addTab(self.ensemble, tr("Ensemble: exact vs classic"))
        self.tabs.setTabToolTip(0, tr("How the rate grows as items arrive, for the current m and its neighbours."))
        self.tabs.setTabToolTip(1, tr("Why k = (m/n)·ln 2: too few hashes and one bit decides, too many and the "
                                      "filter fills."))
        self.tabs.setTabToolTip(2, tr("What a rate costs in space, against the information-theoretic minimum."))
        self.tabs.setTabToolTip(3, tr("The rate averaged over many random filters lands on the exact formula, not "
                                      "on Bloom's classic one: see the gap at small m."))
        self.tabs.setCurrentIndex(1)

        scroll = QtWidgets.QScrollArea()
        scroll.setWidget(self.calc)
        scroll.setWidgetResizable(True)
        # a value wider than the room it gets at large text scrolls into view rather than being cut for good
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        scroll.setMinimumWidth(340)
        splitter = QtWidgets.QSplitter()
        splitter.addWidget(scroll)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([360, 900])
        splitter.setChildrenCollapsible(False)
        self._splitter, self._calc_scroll = splitter, scroll
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self.curves = CurveJob(self, self._redraw)
        self.calc.wait_for_views = self.curves.wait
        self.calc.designChanged.connect(self.show_design)
        self.calc.zeroItems.connect(self._show_zero_items)
        self.start_from_filter()

    @staticmethod
    def _page(plot, panel) -> QtWidgets.QWidget:
        page = QtWidgets.QWidget()
        layout = QtWidgets.QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(plot, 1)
        if panel is not None:
            layout.addWidget(panel)
        return page

    # --- design ------------------------------------------------------------------------------------------
    def start_from_filter(self) -> None:
        """Fill the calculator with the window's filter: its m and k, and n = its capacity when known."""
        flt = self._wb.filter
        n = self._wb.capacity
        if n:
            self.calc.set_inputs(m=str(flt.m), n=str(n), k=str(flt.k))
        else:
            self.calc.set_inputs(n="1000", p="0.01")

    @property
    def design(self):
        return self.calc.design

    def _fit_calc(self) -> None:
        """The calculator as wide as its fields and values need at this text size, up to 55 % of the window: at
        250 % on 1440 x 900 its 360 px showed the labels and cut every value off."""
        need = self.calc.sizeHint().width() + self._calc_scroll.verticalScrollBar().sizeHint().width() + 4
        width = self.window().width() or 1280       # this view may be wider than the window (its tab scrolls)
        wanted = max(360, min(need, width * 55 // 100))
        self._calc_scroll.setMinimumWidth(max(340, min(wanted, width * 45 // 100)))
        sizes = self._splitter.sizes()
        if sum(sizes) > 0 and abs(sizes[0] - wanted) > 8:
            self._splitter.setSizes([wanted, max(1, sum(sizes) - wanted)])

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QtCore.QTimer.singleShot(0, self._fit_calc)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            QtCore.QTimer.singleShot(0, self._fit_calc)

    def show_design(self, d) -> None:
        key = (d.m, d.n, d.k)
        if key != self._key:
            self.k_runs.clear()
            self.n_runs.clear()
            self.k_measure.runner.cancel()
            self.n_measure.runner.cancel()
            self._key = key
            k_real = explore.k_optimum(d.m, d.n)[0]
            top = FpVsKPlot.k_span(d.m, d.n, d.k)[-1]
            self.k_to.setValue(min(top, MAX_K))
            self.k_from.setValue(1 if k_real is None else 1)
            self.ensemble.set_design(d.m, d.k, d.n)
        self.curves.start(d.m, d.k, d.n)        # computed on a worker thread, drawn when ready

    def _show_zero_items(self, m: int, k: int) -> None:
        self.k_measure.runner.cancel()
        self.k_runs.clear()
        self._key = None
        self.k_plot.show_design(m, k, 0)
        self.tabs.setCurrentWidget(self.tabs.widget(1))

    @property
    def drawing(self) -> bool:
        """The curves of the design in the table are still being computed (the plots show the last drawn)."""
        return self.curves.running

    def _redraw(self) -> None:
        d = self.calc.design
        if d is None or self.curves.running:
            return
        self.n_plot.show_design(d.m, d.k, d.n, d.p_target)
        self.n_plot.show_measured(self.n_runs)
        self.k_plot.show_design(d.m, d.k, d.n)
        self.k_plot.show_measured(self.k_runs)
        self.bits_plot.show_design(d.bits_per_item, d.fp)

    # --- measurement -------------------------------------------------------------------------------------
    def _need_design(self):
        if self.calc.design is None:
            raise ValueError("solve a design first")
        return self.calc.design

    def _make_k_job(self, probes: int, seed: int):
        d = self._need_design()
        lo, hi = self.k_from.value(), self.k_to.value()
        if lo > hi:
            raise ValueError(f"k from {lo} to {hi} is an empty range: the first k must not exceed the last")
        return explore.KMeasurement(d.m, d.n, range(lo, hi + 1), probes=probes, seed=seed,
                                    scheme=self.calc.scheme_combo.currentData())

    def _make_n_job(self, probes: int, seed: int):
        d = self._need_design()
        ns = sorted({int(round(d.n * f)) for f in N_FACTORS})
        return explore.NMeasurement(d.m, d.k, ns, probes=probes, seed=seed,
                                    scheme=self.calc.scheme_combo.currentData())

    def _on_k_measured(self, result: dict, seed: int) -> None:
        self.k_runs.append({"result": result, "seed": seed})
        self._redraw()

    def _on_n_measured(self, result: dict, seed: int) -> None:
        self.n_runs.append({"result": result, "seed": seed})
        self._redraw()

    def _clear_runs(self, runs: list) -> None:
        runs.clear()
        self._redraw()

    def export_all(self, folder, stem: str = "explorer") -> list[str]:
        """Every plot as PNG, SVG and CSV into ``folder``; returns the paths written."""
        from pathlib import Path
        paths = []
        for name, plot in self.plots.items():
            for suffix in (".png", ".svg", ".csv"):
                paths.append(plot.export(Path(folder) / f"{stem}_{name}{suffix}"))
        return paths


def install(window) -> None:
    """Add the explorer as a tab of ``window`` (a MainWindow), with a View-menu entry that shows it. The view
    itself is made when the tab is first shown (``window.tab_view("explorer")``)."""
    action = QtGui.QAction(tr(TAB_TITLE), window)
    action.setShortcut(QtGui.QKeySequence("Ctrl+E"))
    action.setToolTip(tr(TAB_TIP))
    action.triggered.connect(lambda: window.show_tab(TAB_KEY))
    window.menu("&View").addAction(action)

    def make() -> ExplorerWidget:
        widget = ExplorerWidget(window.wb)
        widget.show_action = action
        widget.calc.parametersUsed.connect(
            lambda m, k, scheme, n: window.statusBar().showMessage(
                f"Explorer: new filter m = {m:,}, k = {k}, designed for n = {n:,}", 5000))
        return widget

    window.add_tab(TAB_KEY, TAB_TITLE, make, TAB_TIP)
