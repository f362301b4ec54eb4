"""The window's timing plumbing, written once: a throttle, a chunk runner, and a job runner built on it.

- ``Throttle(interval_ms, callback, parent)`` calls ``callback`` once, ``interval_ms`` after it is asked.
  ``request()`` leaves a call already pending as it is, so a flood of requests redraws at most once per
  interval (a progress bar, the status line); ``restart()`` pushes the pending call back, so it comes once the
  requests stop for a whole interval (typing in a field). ``cancel()`` drops it: the owner calls that when it
  has just done the work itself. A due call waits for a turn that has not yet spent ``turn_budget_ms`` (below;
  None: never waits).
- ``ChunkRunner(step, parent)`` calls ``step()`` from a zero-delay timer, one call per turn of the event loop,
  until ``step`` returns False (or ``stop()``); the window stays responsive between two calls. ``start``,
  ``stop`` and ``is_running``. A ``step`` that ends its work and starts the next (a slot of its "finished"
  signal calling ``start``) keeps the runner going whatever it returns. ``interval_ms`` makes it a metronome
  instead (auto-play at a chosen rate). If ``step`` raises, the runner stops before the exception propagates,
  so a failing step is not retried for ever.
- ``AfterFirstPaint(watched, callback, hidden=None)`` calls ``callback`` from the event loop once ``watched`` (a
  window, or the application: any of its widgets) has painted for the first time: work the first screen does
  not need (the other tabs' parts, the warm-up thread) waits for it instead of delaying it. ``hidden``, if
  given, is called (from the event loop too) each time ``watched`` is hidden before that paint: a window hidden
  before it painted paints only when shown again, which may be never.
- ``turn_cpu()``: the CPU this thread has spent in the current turn of its event loop. A ``ChunkRunner`` made
  with ``turn_budget_ms`` skips its step in a turn that has already spent that much (at most ``MAX_SKIPS`` turns
  in a row, so a step is never starved): Qt's glib loop dispatches the posted events, the painting among them,
  before the timers of the same turn, so a chunk or an idle slice that followed a paint added to it (auto-play
  of 10^7 items: turns of a chunk and a paint, 20-25 ms of CPU).
- ``claim_paint(widget)``: work that makes a large part of the window paint again (the plot, the grid, the
  history table: 5-9 ms each at 10^7 items) says so; the window's next paint, which Qt makes at least 5 ms after
  it is asked (``QPlatformWindow::requestUpdate``), holds it. The claim holds until ``widget`` (the part that
  paints again) has painted, at most ``CLAIM_MAX_S`` (a hidden part never paints); without a widget, for
  ``CLAIM_S``. Meanwhile a budgeted step or a throttled call tries again ``CLAIM_RETRY_MS`` later (for at most
  ``CLAIM_WAIT_S`` in a row), so that two large repaints do not fall in one
  paint: a plot redraw and a history flush a turn apart painted together for 13-15 ms of CPU at 10^7 items, and
  22-25 ms on a loaded machine, when the claim was a fixed 30 ms that two skips outlasted.
- ``JobRunner`` drives a steppable job (``step() -> finished``, ``done``, ``total``, ``finished``) on a
  ``ChunkRunner``, as many steps per turn as fit in ``SLICE_MS``, and reports progress, the end, a
  cancellation or a failure (a ``ValueError`` or ``MemoryError`` from the job) as signals.
"""

from __future__ import annotations

import time
from typing import Callable

from PySide6 import QtCore
from shiboken6 import isValid

SLICE_MS = 30   # a job's steps per turn of the event loop: short enough that typing and painting stay fluid
TURN_BUDGET_MS = 5   # a budgeted step is left to the next turn once its turn has spent this much CPU
MAX_SKIPS = 2        # ... but never more than this many turns in a row

_turn_began = [None]     # this thread's CPU time when its event loop's current turn began (the main thread's loop)
_claimed_at = [float("-inf")]    # when work last claimed the window's next paint without a widget (perf_counter)
CLAIM_S = 0.030          # a claimed paint is taken as due this long: Qt's 5 ms, and a loaded machine's delay
CLAIM_MAX_S = 0.150      # a claim on a widget ends when it paints, or after this long (hidden, it never paints)
CLAIM_RETRY_MS = 15      # a throttled call in a claimed stretch tries again this much later
CLAIM_WAIT_S = 0.090     # ... for at most this long in a row: claims that keep coming cannot starve it


def _turn_begins() -> None:
    _turn_began[0] = time.thread_time()


def watch_turns() -> None:
    """Note the start of every turn of the application's event loop (once; from the thread that runs it). Qt's
    glib loop emits ``aboutToBlock`` before a turn that may wait (``exec``: the wait costs no CPU) and ``awake``
    after it, or ``awake`` before a turn that may not (``processEvents()``): a turn begins at either."""
    dispatcher = QtCore.QAbstractEventDispatcher.instance()
    if dispatcher is not None and not dispatcher.property("bloomvizTurns"):
        dispatcher.setProperty("bloomvizTurns", True)
        dispatcher.aboutToBlock.connect(_turn_begins, QtCore.Qt.ConnectionType.DirectConnection)
        dispatcher.awake.connect(_turn_begins, QtCore.Qt.ConnectionType.DirectConnection)


def turn_cpu() -> float:
    """Seconds of this thread's CPU spent in the current turn of its event loop (0 before any turn was watched)."""
    began = _turn_began[0]
    return 0.0 if began is None else max(0.0, time.thread_time() - began)


class _PaintWatch(QtCore.QObject):
    """The widgets that paint again (``claim_paint``, each claim until its next Paint event) and the calls due
    after a widget's paint (``after_paint``). One event filter on each widget ever named, installed once (Qt
    drops it with the widget); a widget gone is forgotten."""

    def __init__(self):
        super().__init__()
        self._widgets: dict[int, QtCore.QObject] = {}
        self.pending: dict[int, float] = {}             # claims: widget key -> when (perf_counter)
        self._after: dict[int, list[list]] = {}         # widget key -> calls due after its paint, each [callback]

    def _watched(self, widget: QtCore.QObject) -> int:
        key = id(widget)
        if self._widgets.get(key) is not widget:
            for gone in [k for k, w in self._widgets.items() if not isValid(w)]:
                self._forget(gone)
            self._widgets[key] = widget
            widget.installEventFilter(self)
        return key

    def _forget(self, key: int) -> None:
        self._widgets.pop(key, None)
        self.pending.pop(key, None)
        self._after.pop(key, None)

    def claim(self, widget: QtCore.QObject) -> None:
        self.pending[self._watched(widget)] = time.perf_counter()

    def claimed(self) -> bool:
        now = time.perf_counter()
        for key, at in list(self.pending.items()):
            widget = self._widgets.get(key)
            if now - at < CLAIM_MAX_S and widget is not None and isValid(widget):
                return True
            self.pending.pop(key, None)
        return False

    def call_after(self, widget: QtCore.QObject, callback: Callable[[], object]) -> None:
        entry = [callback]
        self._after.setdefault(self._watched(widget), []).append(entry)
        # a hidden widget never paints: the call comes after CLAIM_MAX_S all the same (none once it is gone)
        QtCore.QTimer.singleShot(int(CLAIM_MAX_S * 1000), widget, lambda: self._run([entry]))

    @staticmethod
    def _run(entries: list[list]) -> None:
        for entry in entries:
            callback = entry.pop() if entry else None
            if callback is not None:
                callback()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Paint:
            key = id(obj)
            self.pending.pop(key, None)
            entries = self._after.pop(key, None)
            if entries:     # in a turn of their own, after this paint
                QtCore.QTimer.singleShot(0, obj, lambda: self._run(entries))
        return False


_watch: list[_PaintWatch] = []


def _paint_watch() -> _PaintWatch:
    if not _watch:
        _watch.append(_PaintWatch())
    return _watch[0]


def after_paint(widget: QtCore.QObject, callback: Callable[[], object]) -> None:
    """Call ``callback`` from the event loop once ``widget`` has painted: what the callback makes paint again then
    paints in a window paint of its own, not with ``widget`` (the plot's readout, the status line and the fill
    gauge with the plot: ~2 ms more in its paint's turn, ~1.5 ms in its redraw's). A hidden widget never paints:
    the call comes after ``CLAIM_MAX_S`` all the same; none once the widget is gone."""
    _paint_watch().call_after(widget, callback)


def claim_paint(widget: QtCore.QObject | None = None) -> None:
    """Note that work makes a large part of the window paint again: ``widget``, the part that paints (see the
    module docstring)."""
    if widget is None:
        _claimed_at[0] = time.perf_counter()
    else:
        _paint_watch().claim(widget)


def paint_claimed() -> bool:
    """Whether a large repaint claimed by ``claim_paint`` is still due."""
    return time.perf_counter() - _claimed_at[0] < CLAIM_S or (bool(_watch) and _watch[0].claimed())


NEXT_TURN, LATER = "next turn", "later"     # _TurnBudget.defer: where a deferred call goes


class _TurnBudget:
    """Whether a due call waits: ``LATER`` (``CLAIM_RETRY_MS``) while a large repaint is due (``claim_paint``),
    for at most ``CLAIM_WAIT_S`` in a row; ``NEXT_TURN`` when this turn has already spent ``budget_ms`` of CPU
    (it painted or worked), at most ``MAX_SKIPS`` turns in a row; None: now. Shared by Throttle and ChunkRunner."""

    def __init__(self, budget_ms: float, wait_for_paints: bool = True):
        self._budget = budget_ms / 1000
        self._skipped = 0
        self._waiting_since: float | None = None
        self._paints = wait_for_paints      # also wait while a large repaint is due (claim_paint)
        watch_turns()

    def defer(self) -> str | None:
        if self._paints and paint_claimed():
            now = time.perf_counter()
            if self._waiting_since is None:
                self._waiting_since = now
            if now - self._waiting_since < CLAIM_WAIT_S:
                return LATER
        if self._skipped < MAX_SKIPS and turn_cpu() > self._budget:
            self._skipped += 1
            return NEXT_TURN
        self.reset()
        return None

    def reset(self) -> None:
        self._skipped, self._waiting_since = 0, None


class AfterFirstPaint(QtCore.QObject):
    def __init__(self, watched: QtCore.QObject, callback: Callable[[], object],
                 hidden: Callable[[], object] | None = None):
        super().__init__(watched)
        self._watched, self._callback, self._hidden = watched, callback, hidden
        watched.installEventFilter(self)

    @property
    def waiting(self) -> bool:
        return self._callback is not None

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Paint and self._callback is not None:
            callback, self._callback = self._callback, None
            self._watched.removeEventFilter(self)
            QtCore.QTimer.singleShot(0, callback)    # after this paint, in a turn of its own
        elif event.type() == QtCore.QEvent.Type.Hide and self._callback is not None and self._hidden is not None:
            QtCore.QTimer.singleShot(0, self._hidden)
        return False


class Throttle(QtCore.QObject):
    def __init__(self, interval_ms: int, callback: Callable[[], object], parent: QtCore.QObject | None = None,
                 turn_budget_ms: float | None = TURN_BUDGET_MS):
        super().__init__(parent)
        self._callback = callback
        self._interval = int(interval_ms)
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self._interval)
        self._timer.timeout.connect(self._fire)
        # a due call in a turn that already painted or worked waits for the next turn (at most MAX_SKIPS): the
        # progress bars' first values (a synchronous repaint, 8-19 ms) came in the auto-play's first painted turn
        self._budget = None if turn_budget_ms is None else _TurnBudget(turn_budget_ms)

    @property
    def pending(self) -> bool:
        return self._timer.isActive()

    @property
    def interval(self) -> int:
        return self._interval

    def set_interval(self, interval_ms: int) -> None:
        self._interval = int(interval_ms)
        self._timer.setInterval(self._interval)

    def request(self) -> None:
        if not self._timer.isActive():
            self._timer.start(self._interval)

    def restart(self) -> None:
        self._timer.start(self._interval)

    def cancel(self) -> None:
        self._timer.stop()
        if self._budget is not None:
            self._budget.reset()

    def _fire(self) -> None:
        wait = self._budget.defer() if self._budget is not None else None
        if wait is not None:
            # the next turn, or a moment later while a large repaint is due
            self._timer.start(CLAIM_RETRY_MS if wait == LATER else 0)
            return
        self._callback()


class ChunkRunner(QtCore.QObject):
    def __init__(self, step: Callable[[], bool], parent: QtCore.QObject | None = None, interval_ms: int = 0,
                 turn_budget_ms: float | None = None, wait_for_paints: bool = True):
        super().__init__(parent)
        self._step = step
        self._timer = QtCore.QTimer(self)
        self._interval = int(interval_ms)
        self._timer.setInterval(self._interval)
        self._timer.timeout.connect(self._fire)
        self._starts = 0
        self._budget = None if turn_budget_ms is None else _TurnBudget(turn_budget_ms, wait_for_paints)

    @property
    def is_running(self) -> bool:
        return self._timer.isActive()

    def start(self, interval_ms: int | None = None) -> None:
        """Start (or restart) calling ``step``; ``interval_ms`` replaces the delay between two calls."""
        if interval_ms is not None:
            self._interval = int(interval_ms)
        self._timer.setInterval(self._interval)
        self._starts += 1
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _fire(self) -> None:
        wait = self._budget.defer() if self._budget is not None else None
        if wait is not None:
            # this turn already painted or worked: the step goes to the next one; while a large repaint is due,
            # a moment later (not a spin of empty turns)
            if wait == LATER and self._timer.interval() < CLAIM_RETRY_MS:
                self._timer.setInterval(CLAIM_RETRY_MS)
            return
        if self._timer.interval() != self._interval:
            self._timer.setInterval(self._interval)
        starts = self._starts
        try:
            more = self._step()
        except BaseException:
            if starts == self._starts:
                self._timer.stop()
            raise
        if not more and starts == self._starts:
            self._timer.stop()


class JobRunner(QtCore.QObject):
    progress = QtCore.Signal(object, object)   # done, total (object: Qt's int is 32 bits)
    finished = QtCore.Signal(object)           # the job, finished
    cancelled = QtCore.Signal()
    failed = QtCore.Signal(str)
    busyChanged = QtCore.Signal(bool)

    def __init__(self, parent: QtCore.QObject | None = None, slice_ms: int = SLICE_MS):
        super().__init__(parent)
        self._job = None
        self._slice = slice_ms / 1000
        self._chunks = ChunkRunner(self._tick, self)

    @property
    def busy(self) -> bool:
        return self._job is not None

    def start(self, job) -> None:
        self.cancel()
        self._job = job
        self.busyChanged.emit(True)
        self.progress.emit(0, job.total)
        self._chunks.start()

    def cancel(self) -> None:
        if self._job is None:
            return
        self._stop()
        self.cancelled.emit()

    def _stop(self) -> None:
        self._chunks.stop()
        self._job = None
        self.busyChanged.emit(False)

    def _tick(self) -> bool:
        job = self._job
        if job is None:
            return False
        deadline = time.monotonic() + self._slice
        try:
            while not job.step() and time.monotonic() < deadline:
                pass
        except (ValueError, MemoryError) as exc:
            self._stop()
            self.failed.emit(str(exc))
            return False
        self.progress.emit(job.done, job.total)
        if job.finished:
            self._stop()
            self.finished.emit(job)
            return False
        return True
