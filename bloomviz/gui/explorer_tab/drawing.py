"""The explorer's exact curves computed off the GUI thread, then drawn on it.

At m = 2^32, k = 20, n = 4.4·10^8 the five exact curves of the n plot and the k sweep take seconds (the exact
rate's matrix powers; ~22 s on a busy machine, the window frozen meanwhile). A new design now starts a worker
thread that fills ``explore``'s sweep cache (``FpVsNPlot.sweeps``: pure numbers, no Qt), and the plots are
drawn from the cache once it is done; a newer design makes an older job's result stale, never shown. The
table of numbers (``calc.py``) is shown at once: ``solve`` takes milliseconds.
"""

from __future__ import annotations

import threading

from PySide6 import QtCore

from bloomviz.gui.explorer_tab.plots import FpVsNPlot

POLL_MS = 30


class CurveJob(QtCore.QObject):
    """Computes the sweeps of one design at a time; ``draw()`` is called on the GUI thread when they are ready."""

    def __init__(self, parent, draw):
        super().__init__(parent)
        self._draw = draw
        self._thread: threading.Thread | None = None
        self._pending: tuple | None = None     # the newest design asked for while a job ran
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def running(self) -> bool:
        return self._thread is not None or self._pending is not None

    def start(self, m: int, k: int, n: int) -> None:
        if self._thread is not None:
            self._pending = (m, k, n)         # computed after the current one (a thread cannot be stopped)
            return
        self._thread = threading.Thread(target=self._work, args=(m, k, n), name="bloomviz-explorer-curves",
                                        daemon=True)
        self._thread.start()
        self._timer.start()

    @staticmethod
    def _work(m: int, k: int, n: int) -> None:
        try:
            FpVsNPlot.sweeps(m, k, n)
        except Exception:    # drawing recomputes on the GUI thread, where the plots report it as before
            pass

    def _poll(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._settle()

    def _settle(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self.start(*pending)
            return
        self._timer.stop()
        self._draw()

    def wait(self) -> None:
        """Block until the newest design is drawn (scripted use and tests: ``set_inputs``)."""
        while self.running:
            if self._thread is not None:
                self._thread.join()
            self._settle()
