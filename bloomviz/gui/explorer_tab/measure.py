"""Quick measurements for the explorer, run in steps by ``timing.JobRunner`` so the window never freezes.

The jobs are the core's ``KMeasurement`` and ``NMeasurement``. ``MeasurePanel`` is the row of controls under a
plot: probes, seed, Measure, Measure with a new seed, Cancel, Clear, a progress bar and a message line. What is
measured is the business of the ``make_job(probes, seed)`` callback it is given (it may raise ValueError: the
message is shown beside the controls).
"""

from __future__ import annotations

from typing import Callable

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.timing import JobRunner
from bloomviz.gui.widgets.flow_layout import FlowLayout, keep_together
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.gui.widgets.shrink import hold_wrapped_height
from bloomviz.studies.explore import MAX_MEASURE_PROBES
from bloomviz.i18n import number, tr


class MeasurePanel(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        refused = Msg("{problem}. Nothing was measured.")
        failed = Msg("{problem}")           # the job's own words (JobRunner.failed)

    class Information(Messages.Information):
        measuring = Msg("Measuring…")
        cancelled = Msg("Cancelled; the plot keeps the earlier points.")
        measured = Msg("Measured with {probes} probes, seed {seed}: diamonds with 95% intervals. An interval "
                       "covers the probes' sampling for one filter; New seed builds other filters, and at small m "
                       "their own luck spreads the points further.")

    """Controls of one measurement; ``runs`` of earlier results are kept by the owner, not here."""

    measured = QtCore.Signal(object, object)  # result dict, seed
    clearRequested = QtCore.Signal()

    def __init__(self, make_job: Callable[[int, int], object], what: str, parent=None):
        super().__init__(parent)
        self._make_job = make_job
        self._seed_used = 0
        self.runner = JobRunner(self)
        self.probes = QtWidgets.QSpinBox()
        self.probes.setRange(100, MAX_MEASURE_PROBES)
        self.probes.setSingleStep(1000)
        self.probes.setValue(10_000)
        self.probes.setGroupSeparatorShown(True)
        self.probes.setToolTip(tr("How many items that were never inserted are looked up; the share that pass is "
                                  "the measured rate. More probes, narrower intervals."))
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, 1_000_000)
        self.seed.setToolTip(tr("Seed of the random items and probes. The same seed gives the same points."))
        self.measure_button = QtWidgets.QPushButton(tr("Measure"))
        self.measure_button.setToolTip(f"Simulate {what}: insert n random items into a fresh filter and look up "
                                       "the probes. Runs in the background; the window stays usable.")
        self.reseed_button = QtWidgets.QPushButton(tr("New seed"))
        self.reseed_button.setToolTip(tr("Measure again with the next seed: the spread of the points shows how "
                                         "much a single measurement varies."))
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.clear_button = QtWidgets.QPushButton(tr("Clear"))
        self.clear_button.setToolTip(tr("Remove the measured points from the plot."))
        self.bar = QtWidgets.QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(10)
        self.bar.hide()
        self.message = MessageBar()
        self.bind_messages(self.message)

        row = FlowLayout()           # one row at normal text; at large text it wraps instead of widening the tab
        extra = QtWidgets.QWidget()
        self.extra = QtWidgets.QHBoxLayout(extra)   # the owner may put its own fields here (a k range)
        self.extra.setContentsMargins(0, 0, 0, 0)
        row.addWidget(extra)
        row.addWidget(keep_together(QtWidgets.QLabel(tr("probes")), self.probes))
        row.addWidget(keep_together(QtWidgets.QLabel(tr("seed")), self.seed))
        for button in (self.measure_button, self.reseed_button, self.cancel_button, self.clear_button):
            row.addWidget(button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)
        layout.addLayout(row)
        layout.addWidget(self.bar)
        layout.addWidget(self.message)
        hold_wrapped_height(self)     # its wrapped rows never drawn over the plot above (at 250 % text)

        self.measure_button.clicked.connect(self.measure)
        self.reseed_button.clicked.connect(self.measure_new_seed)
        self.cancel_button.clicked.connect(self.runner.cancel)
        self.clear_button.clicked.connect(self.clearRequested.emit)
        self.runner.busyChanged.connect(self._on_busy)
        self.runner.progress.connect(self._on_progress)
        self.runner.finished.connect(self._on_finished)
        self.runner.cancelled.connect(lambda: self.show_only(self.Information.cancelled))
        self.runner.failed.connect(lambda text: self.show_only(self.Error.failed, problem=tr(text)))

    def measure(self) -> bool:
        seed = self.seed.value()
        try:
            job = self._make_job(self.probes.value(), seed)
        except ValueError as exc:
            self.show_only(self.Error.refused, problem=exc)
            return False
        self._seed_used = seed
        self.show_only(self.Information.measuring)
        self.runner.start(job)
        return True

    def measure_new_seed(self) -> bool:
        self.seed.setValue(self.seed.value() + 1)
        return self.measure()

    def _on_busy(self, busy: bool) -> None:
        self.cancel_button.setEnabled(busy)
        self.measure_button.setEnabled(not busy)
        self.reseed_button.setEnabled(not busy)
        self.bar.setVisible(busy)

    def _on_progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, 1000)
        self.bar.setValue(int(1000 * done / max(total, 1)))

    def _on_finished(self, job) -> None:
        result = job.result()
        self.show_only(self.Information.measured, probes=number(job.probes), seed=self._seed_used)
        self.measured.emit(result, self._seed_used)
