"""The explorer's ensemble page: average the measured rate over many random filters and set it against the
exact rate and Bloom's classic formula.

One filter's measurement wanders with its own luck; the mean over F independent filters of the same (m, k, n)
(core.ensemble) converges to the expected rate. At classroom sizes it lands on the exact rate E[(X/m)^k] and
visibly off the classic (1 − (1 − 1/m)^{kn})^k, which treats the bits as independent; with double hashing
(murmur3-km) it lands above both. The job runs in steps on a timer (timing.JobRunner), with
progress and Cancel; nothing here touches the window's filter.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from bloomviz.hashing import schemes as hashing
from bloomviz.measure.ensemble import EnsembleJob
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.timing import JobRunner
from bloomviz.gui.widgets.flow_layout import FlowLayout, keep_together
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.gui.explorer_tab.plots import CLASSIC, EXACT, MEASURED, CurvePlot, fmt
from bloomviz.i18n import marks, ntr, number, tr
from bloomviz.theory.limits import MAX_K

MAX_GUI_M = 4096            # the page is for small filters, where the formulas differ; the CLI takes more
MAX_GUI_FILTERS = 1_000_000


class EnsemblePage(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        refused = Msg("{problem}. Nothing was run.")
        failed = Msg("{problem}")           # the job's own words (JobRunner.failed)

    class Information(Messages.Information):
        intro = Msg("Average the measured rate over many random filters of the same m, k and n, and see which "
                    "formula it lands on.")
        measuring = Msg("Measuring {filters}…")           # "{count} filters" in the language's plural form
        cancelled = Msg("Cancelled; nothing was averaged.")
        result = Msg("At n = {n}: mean {mean} (95 %: {low}–{high}) over {filters} with {scheme}; exact "
                     "{exact} ({from_exact} standard errors away), classic {classic} ({from_classic}). {reading}")

    """Controls (m, k, n, filters, probes per filter, scheme), Run/Cancel, a plot and a verdict line."""

    finished = QtCore.Signal(object)   # the EnsembleResult

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = CurvePlot("Mean rate over many filters", "items inserted n", "false-positive rate")
        self.m = self._spin(1, MAX_GUI_M, 32, "Bits of every filter (up to 4,096 here: bloomviz simulate "
                                              "--filters takes more).")
        self.k = self._spin(1, MAX_K, 4, "Hash positions per item.")
        self.n = self._spin(1, 10_000, 5, "Items inserted into every filter; one point per n.")
        self.filters = self._spin(10, MAX_GUI_FILTERS, 100_000, "How many independent random filters to "
                                                              "average: 10^5 tells the formulas apart at m = 32.")
        self.filters.setSingleStep(10_000)
        self.probes = self._spin(1, 1000, 32, "Never-inserted probes looked up in each filter.")
        self.scheme = QtWidgets.QComboBox()
        for sid, scheme in hashing.SCHEMES.items():
            self.scheme.addItem(tr(scheme.title), sid)
        self.scheme.setCurrentIndex(self.scheme.findData(hashing.DEFAULT_SCHEME))
        self.scheme.setToolTip(tr("The hash scheme of every filter: try murmur3-km (double hashing) at m = 64."))
        self.run_button = QtWidgets.QPushButton(tr("Run ensemble"))
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.bar = QtWidgets.QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(10)
        self.bar.hide()
        self.message = MessageBar()
        self.bind_messages(self.message)
        self.Information.intro()
        self.runner = JobRunner(self)

        form = FlowLayout()     # one row at normal text; at 250 % one row made the Explorer 2,900 px wide
        for label, widget in (("m", self.m), ("k", self.k), ("n", self.n), (tr("filters"), self.filters),
                              (tr("probes each"), self.probes), (tr("scheme"), self.scheme)):
            form.addWidget(keep_together(QtWidgets.QLabel(label), widget))
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.bar, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.message)

        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.runner.cancel)
        self.runner.busyChanged.connect(self._on_busy)
        self.runner.progress.connect(lambda done, total: self.bar.setValue(int(1000 * done / max(total, 1))))
        self.runner.finished.connect(self._on_finished)
        self.runner.cancelled.connect(lambda: self.show_only(self.Information.cancelled))
        self.runner.failed.connect(lambda text: self.show_only(self.Error.failed, problem=tr(text)))

    @staticmethod
    def _spin(lo: int, hi: int, value: int, tip: str) -> QtWidgets.QSpinBox:
        box = QtWidgets.QSpinBox()
        box.setRange(lo, hi)
        box.setValue(value)
        box.setGroupSeparatorShown(True)
        box.setToolTip(tr(tip))
        return box

    def set_design(self, m: int, k: int, n: int) -> None:
        """Take the explorer's design when it is small enough to be worth an ensemble here."""
        if m <= MAX_GUI_M and n <= self.n.maximum() and not self.runner.busy:
            self.m.setValue(m)
            self.k.setValue(k)
            self.n.setValue(n)

    def run(self) -> bool:
        try:
            job = EnsembleJob(self.m.value(), self.k.value(), self.n.value(), self.filters.value(),
                              scheme=self.scheme.currentData(), probes=self.probes.value(), seed=0)
        except ValueError as exc:
            self.show_only(self.Error.refused, problem=exc)
            return False
        self.show_only(self.Information.measuring, filters=_filters(job.filters))
        self.runner.start(job)
        return True

    def _on_busy(self, busy: bool) -> None:
        self.run_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)
        self.bar.setVisible(busy)

    def _on_finished(self, job) -> None:
        result = job.result()
        self.show_result(result)
        self.finished.emit(result)

    def show_result(self, r) -> None:
        self.plot.clear_curves()
        n = r.n.astype(float)
        self.plot.curve("classic", "Bloom's formula (classic)", n, r.fp_classic,
                        pen=pg.mkPen(CLASSIC, width=2, style=QtCore.Qt.PenStyle.DashDotDotLine))
        self.plot.curve("exact", tr("exact E[(X/m)^k]"), n, r.fp_exact, pen=pg.mkPen(EXACT, width=2.5,
                                                                                    style=QtCore.Qt.PenStyle.DashLine))
        self.plot.curve("mean", ntr("mean of {count} filter", "mean of {count} filters", r.filters).format(
                            count=number(r.filters)), n, r.mean, pen=None, symbol="o",
                        symbol_brush=MEASURED, size=8)
        bars = pg.ErrorBarItem(x=n, y=r.mean, top=r.high - r.mean, bottom=r.mean - r.low, beam=0.2,
                               pen=pg.mkPen(MEASURED, width=1.5))
        self.plot.plot_item.addItem(bars)
        half = (r.high[-1] - r.low[-1]) / 2
        se = half / 1.96 if half > 0 else np.inf
        from_exact = (r.mean[-1] - r.fp_exact[-1]) / se
        from_classic = (r.mean[-1] - r.fp_classic[-1]) / se
        reading = (tr("The mean lands on the exact rate.") if abs(from_exact) < 3 else
                   tr("The mean is off the exact rate: this hash scheme's positions are not independent at this m.")
                   if r.mean[-1] > r.fp_exact[-1] else tr("The mean is below the exact rate."))
        self.show_only(self.Information.result, n=number(int(r.n[-1])), mean=marks(fmt(r.mean[-1])),
                       low=marks(fmt(r.low[-1])), high=marks(fmt(r.high[-1])), filters=_filters(r.filters),
                       scheme=r.scheme, exact=marks(fmt(r.fp_exact[-1])), from_exact=marks(f"{from_exact:+.1f}"),
                       classic=marks(fmt(r.fp_classic[-1])), from_classic=marks(f"{from_classic:+.1f}"),
                       reading=reading)


def _filters(count: int) -> str:
    """"{count} filters" in the language's plural form (Croatian has three: 1 filtar, 2 filtra, 5 filtara)."""
    return ntr("{count} filter", "{count} filters", count).format(count=number(count))
