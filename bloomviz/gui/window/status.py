"""The status bar: one line of the filter's numbers, and a progress bar with Cancel while bulk work runs.

Both are redrawn from throttles: the workbench can report thousands of changes a second, and a label or a
progress bar repaints itself synchronously on every new value.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.timing import Throttle
from bloomviz.gui.widgets.progress import show_value
from bloomviz.i18n import marks, number, tr
from bloomviz.theory.units import percent_text

STATUS_INTERVAL_MS = 150
PROGRESS_INTERVAL_MS = 250  # a progress bar repaints synchronously (~6 ms): four times a second is plenty
STATUS_TIP = ("m: bits; k: hash functions; n: inserts; fill: fraction of bits set; FP now: the false-positive "
              "rate measured on the probes (its theory value in brackets).")


def _percent(p: float) -> str:
    """A rate as the one policy writes a percentage ("1.25 %", "8.59 × 10⁻⁵ %"): two fixed decimals wrote a
    theory of 8.59 × 10⁻⁷ as "0.00%", as if the filter could not err."""
    return marks(percent_text(p))


def status_text(status: dict) -> str:
    """The status line for the workbench's ``status()``."""
    s = status
    cap = tr(" of {capacity}").format(capacity=number(s["capacity"])) if s["capacity"] else ""
    line = tr("m = {m} · k = {k} · {scheme} · n = {n}{capacity} · fill {fill}% · FP now {measured} ").format(
        m=number(s["m"]), k=s["k"], scheme=s["scheme"], n=number(s["n"]), capacity=cap,
        fill=number(s["fill"] * 100, 1), measured=_percent(s["fp_measured"]))
    if s.get("after_removals"):
        return line + tr("(its counters give {rate})").format(rate=_percent(s["fp_now"]))
    return line + tr("(theory {rate})").format(rate=_percent(s["fp_exact"]))


class ElidedLabel(QtWidgets.QLabel):
    """A one-line label that draws its text ending in "…" when narrower than the text (``text()`` stays whole,
    and so does the tooltip), and never asks for the text's width: at 250 % the status line was cut under
    the gauge mid-number."""

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(1, super().minimumSizeHint().height())

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(1, super().sizeHint().height())

    def drawn_text(self) -> str:
        return self.fontMetrics().elidedText(self.text(), QtCore.Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())

    def paintEvent(self, event) -> None:
        painter = QtGui.QPainter(self)
        painter.setPen(self.palette().color(QtGui.QPalette.ColorRole.WindowText))
        painter.drawText(self.contentsRect(), int(self.alignment() | QtCore.Qt.AlignmentFlag.AlignVCenter),
                         self.drawn_text())


class StatusLine(QtCore.QObject):
    """The status bar's widgets for ``window`` (its ``statusBar()`` and its workbench ``wb``)."""

    def __init__(self, window: QtWidgets.QMainWindow, workbench):
        super().__init__(window)
        self._wb = workbench
        bar = window.statusBar()
        # at large text the whole line is wider than a projector: it ends in "…" where the gauge begins
        self.label = ElidedLabel()
        self.label.setToolTip(tr(STATUS_TIP))
        self.busy_bar = QtWidgets.QProgressBar()
        self.busy_bar.setMaximumWidth(220)
        self.busy_bar.setFormat("%p%")
        self.busy_cancel = QtWidgets.QPushButton(tr("Cancel"))
        self.busy_cancel.setToolTip(tr("Stop the bulk insert between two chunks; what was inserted stays (Esc)."))
        self.busy_cancel.clicked.connect(workbench.cancel)
        for w in (self.busy_bar, self.busy_cancel):
            w.setVisible(False)
            bar.addPermanentWidget(w)
        # A normal (not permanent) widget: a passing message replaces it for a few seconds instead of being
        # drawn over it when the window is narrow or the text is large.
        bar.addWidget(self.label, 1)
        # ... which Qt does not do for a message shown before the window is (the saved text size's "Text size
        # 250%" at start was drawn over the line): hide the line while a message stands, whenever it came
        bar.messageChanged.connect(lambda message: self.label.setVisible(not message))
        self._text = Throttle(STATUS_INTERVAL_MS, self.update, self)
        self._progress = Throttle(PROGRESS_INTERVAL_MS, self._show_progress, self)
        self._progress_value = (0, 1)

    @property
    def pending(self) -> bool:
        """A redraw of the line is due (the numbers changed since it was drawn)."""
        return self._text.pending

    def text(self) -> str:
        return status_text(self._wb.status())

    def update(self) -> None:
        self._text.cancel()
        text = self.text()
        self.label.setText(text)
        self.label.setToolTip(f"{text}\n\n{tr(STATUS_TIP)}")     # the whole line where it is drawn ending in "…"

    def mark(self) -> None:
        """The numbers changed: redraw the line soon."""
        self._text.request()

    def show_busy(self, busy: bool) -> None:
        self.busy_bar.setVisible(busy)
        self.busy_cancel.setVisible(busy)

    def show_progress(self, done: int, total: int) -> None:
        self._progress_value = (done, total)
        self._progress.request()

    def _show_progress(self) -> None:
        done, total = self._progress_value
        self.busy_bar.setRange(0, max(total, 1))
        self.busy_bar.setFormat(tr("{done} of {total}").format(done=number(done), total=number(total)))
        show_value(self.busy_bar, done)
