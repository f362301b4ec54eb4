"""The one Qt adapter of the window's model (``bloomviz.workbench``): model events become Qt signals, and a
zero-delay timer steps the model's jobs.

Views hold this object and call the model through it: ``MODEL_API`` declares the model's members they may
reach (``insert``, ``lookup``, ``configure`` ...), each forwarded by a method or property of the same name
and docstring made from that list; any other name of the model is not reachable from a view (it was, through
``__getattr__``, so neither a reader nor a tool could see the view -> model step).

Each operation arrives as ONE model event carrying a frozen ``Operation`` record and leaves as ONE signal,
``operated(record)`` (napari's way: the model changes, the views listen to one event): each view reads what it
needs from the record in its slot (the grid ``changed``/``values`` and ``highlight``/``kinds``, the history
``history``, the status line and the explanation ``numbers``) and never asks the model what changed. (One
record fanned out into ``historyAppended``, ``bitsChanged`` and ``highlighted`` beside ``operated`` cost each
insert three more emissions and their slots; they are gone.)

Records are delivered to the views once per turn of the event loop, not inside the operation: the model's event
arrives synchronously, the record is queued, and one zero-delay timer (started once per batch of pending
records) emits ``operated`` for each, in order. A typed insert then returns after the model's work alone (the
views' slots, 58 of its 105 calls and 19 of its 36 files in ``benchmarks/insert_trace.py``, ran inside it)
and the views draw it one turn later, which no one sees. Order is kept by three rules. Every state signal
below first delivers what is pending (``flush()``), so a view sees the operations, then the reset, the job's
end or the refusal, as they happened. A call through this adapter that changes the model (``CHANGES``: an
operation, a new filter, undo, ``quiet`` ...) delivers what is pending first, so a record is delivered before
the model next changes, and a slot that reads the model's current state (the undo label, the history's
length, the filter the verdict is worded against) reads the state its record's call left. While a record is
delivered, ``busy`` answers as it was when the record was made (a job's last chunk is drawn as a job's chunk,
though the job has ended by the time its end delivers it). Whoever needs the views current before acting
(saving, the unsaved-changes question, closing, a test) calls ``flush()``.

Words about a record are built when a view shows them: ``explanation(record)`` (``bloomviz.explain``, kept
for the last record asked) — the Explain panel asks when it is visible and renders, the item panel for a
person's insert, lookup or removal; an auto-play chunk with the panel hidden is never explained.

State: ``aboutToReset()`` then ``filterReset()`` when the filter is replaced, cleared, restored or rolled back
(item models begin their reset on the first, so no repaint in between reads rows that no longer exist; the
restored state's last record, its highlight included, is ``last_record``); ``filterGrown()`` after the
``operated`` of an operation in which a scalable filter opened a stage (the same filter at a larger size);
``noted(note)`` a ``StateNote`` to show (a scenario's story, an import's report); jobs: ``busyChanged(bool)``,
``progress(done, total)``, ``jobFrame()``, ``jobFinished(done, total, cancelled)``; ``error(str)`` a refusal,
``notice(str)`` information.

Idle turns: an auto-play leaves its truth rows to be made (``workbench/truth.py``, ``PositionRows``); once no job runs,
``_fill_rows`` makes them one slice (``FILL_ROWS``) a turn of the event loop, so the first hover or culprit
search after a long auto-play finds them made instead of making them all in its own turn (~1.3 s at 10^7).
A hover before that makes at most ``HOVER_ROWS`` and says the items come in a moment; ``rowsMade()`` then tells
the grid to ask again.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections import deque

from PySide6 import QtCore, QtWidgets

from bloomviz.explain import operations as words
from bloomviz.explain import variants
from bloomviz.gui import idle_warm_up, warm_up
from bloomviz.gui.timing import TURN_BUDGET_MS, AfterFirstPaint, ChunkRunner
from bloomviz.hashing import cold_paths, native_kernels
from bloomviz.workbench.model import Workbench as Model

#: The model's members the views reach through the adapter: the door from a view to the model. A new one is
#: added here (tests/gui/test_adapter_api.py checks every name is the model's and every public member is either here
#: or in ``NOT_FORWARDED``).
MODEL_API = (
    # operations
    "insert", "lookup", "remove", "insert_batch", "insert_many", "run_job", "run_steps", "step_job",
    "run_to_end", "cancel", "busy",
    # the filter shown
    "configure", "design", "reset", "install_filter", "set_probe_count", "set_probe_seed", "probe_seed",
    "explain_note", "announce", "quiet",
    # going back
    "undo", "undo_what", "undo_stack", "checkpoint", "rollback", "snapshot", "restore",
    # reading
    "filter", "state", "series", "history", "items", "tracker", "probes", "capacity", "last_record",
    "truth_known", "variant", "is_member", "items_at_bit", "max_value", "grid_values", "cell_values",
    "numbers", "formula_break", "status", "can_remove",
)
#: Public members of the model the views do not reach through the adapter: answered by the adapter itself
#: (removal_needs_force in words, validate_config), its events (turned into signals), a lesson's knobs, and a
#: job's own steps (reserve, prepare_measurement: called by the job the model runs).
NOT_FORWARDED = ("removal_needs_force", "validate_config", "events", "for_grid", "reserve", "prepare_measurement")
#: The members of ``MODEL_API`` that change the model: the records still pending are delivered before each.
CHANGES = frozenset((
    "insert", "lookup", "remove", "insert_batch", "insert_many", "run_job", "run_steps", "step_job",
    "run_to_end", "cancel", "configure", "design", "reset", "install_filter", "set_probe_count",
    "set_probe_seed", "explain_note", "announce", "quiet", "undo", "rollback", "restore",
))
FILL_ROWS = 1 << 13     # deferred truth rows made per idle turn: 0.4-3 ms (45-360 ns a row, by the load)
HOVER_ROWS = 1 << 16    # at most this many made for one hover (3-25 ms); more waiting: the hover says so
_warmed = threading.Event()
WARM_UP_THREAD = "bloomviz-warm-up"


_after_paint: list = []     # the one-shot start of the warm-up the first paint calls, while it waits
# A window shown but never painted (minimised before it could be): the warm-up is a head start, not worth
# waiting for ever. A normal start paints within seconds (4.5 s the slowest measured, on a loaded machine).
WARM_UP_LATEST_MS = 30_000


def _watch_first_paint() -> None:
    """Starts the warm-up after the first paint of the windows shown. Started from the first turn of the event
    loop instead, it began 80-210 ms before the window's first paint, and its load of numba (~0.6 s, mostly
    holding the interpreter's lock) ran beside that paint and delayed it. The windows are watched, not the
    application: a Python filter on the application sees every event of every object, those being destroyed
    too, and PySide crashed in it (a test making a QtWorkbench in its body, then pytest-qt processing events).
    No window shown (the model used without one), or none left shown (hidden before it painted): nothing waits
    for a paint, the warm-up starts now; and at the latest ``WARM_UP_LATEST_MS`` after the watch began."""
    shown = _shown_windows()
    if not shown:
        _start_warm_up()
        return
    once = _Once(_start_warm_up)
    _after_paint[:] = [once]

    def after_hide() -> None:
        if not _shown_windows():
            once()
    for w in shown:     # (each watch is owned by its window) a window closed before it painted must not leave
        AfterFirstPaint(w, once, hidden=after_hide)           # the warm-up waiting for ever
        w.destroyed.connect(once)
    QtCore.QTimer.singleShot(WARM_UP_LATEST_MS, once)


def _shown_windows() -> list:
    app = QtWidgets.QApplication.instance()
    if not isinstance(app, QtWidgets.QApplication):
        return []
    # Qt's windows first (plain QWindow wrappers), and a widget asked for only behind one that is shown:
    # topLevelWidgets() made a Python wrapper for every window ever built and not yet deleted, closed ones too
    # (in a test process, hundreds, some of a Python class whose Python side may be gone), and a clean-clone
    # test run crashed once in it (a segmentation fault in this function, no other Python thread alive).
    # And no collection meanwhile: a cycle collected between the list and the questions to it (the wrappers
    # allocate) could delete a window the list still points at.
    was = gc.isenabled()
    gc.disable()
    try:
        shown = (QtWidgets.QWidget.find(window.winId()) for window in app.topLevelWindows() if window.isVisible())
        return [widget for widget in shown if widget is not None and widget.isWindow() and widget.isVisible()]
    finally:
        if was:
            gc.enable()


class _Once:
    """``callback`` on the first call only (several windows watched, the first to paint starts it)."""

    def __init__(self, callback):
        self._callback = callback

    @property
    def waiting(self) -> bool:
        return self._callback is not None

    def __call__(self, *_args) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            callback()


def warmed_up() -> bool:
    """Whether the warm-up has run to its end (False before the first paint started it, and while it runs)."""
    waiting = any(watch.waiting for watch in _after_paint)
    return _warmed.is_set() and not waiting and not cold_paths.use_cold_path(0) and not any(
        t.name == WARM_UP_THREAD for t in threading.enumerate())


def _start_warm_up() -> None:
    # The native kernel cache first, in this thread, right after the first paint (33 ms of CPU, 80-100 ms wall
    # at load 6, llvmlite's import most of it): an auto-play started at once runs compiled code from its first
    # chunk, with no load beside it. Loaded before the paint, the paint waited for it; in a thread of its own
    # beside the window's construction, an auto-play started at once ran numpy paths until it was done (2.34x a
    # warm one at load 10).
    native_kernels.load()
    cold_paths.warm_up_scheduled()
    idle_warm_up.start(warm_up.busy)      # the first auto-play's first-time work, in idle turns of this thread
    try:
        threading.Thread(target=warm_up.run, name=WARM_UP_THREAD).start()
    except RuntimeError:        # no thread to be had: no warm-up either, so nothing waits for one
        with cold_paths.warm_up_thread():
            pass


class QtWorkbench(QtCore.QObject):
    aboutToReset = QtCore.Signal()
    filterReset = QtCore.Signal()
    # A scalable filter opened a stage: same filter, same history, a larger grid. Not a reset: auto-play, the
    # history and the unsaved-changes state carry on (a reset here stopped auto-play at the first new stage).
    filterGrown = QtCore.Signal()
    operated = QtCore.Signal(object)      # the one signal of an operation: its frozen record
    noted = QtCore.Signal(object)
    busyChanged = QtCore.Signal(bool)
    # object, not int: Qt's int is 32 bits, and a job's bound (a file's size in bytes) may pass 2^31
    progress = QtCore.Signal(object, object)
    jobFinished = QtCore.Signal(object, object, bool)
    jobFrame = QtCore.Signal()            # bulk work pauses for this turn of the loop: redraw now
    rowsMade = QtCore.Signal()            # a hover was told the items come later: every insert's positions are made
    error = QtCore.Signal(str)
    notice = QtCore.Signal(str)

    validate_config = staticmethod(Model.validate_config)   # asked of the class, before any filter is made

    def __init__(self, parent=None, *, probes: int | None = None, seed: int | None = None, model: Model | None = None):
        super().__init__(parent)
        kwargs = {name: value for name, value in (("probes", probes), ("seed", seed)) if value is not None}
        self.model = model if model is not None else Model(**kwargs)
        warm_up.models.add(self.model)
        self._explained: tuple[object, object] = (None, None)   # (record, its Explanation), built once
        # the model's job, one step a turn of the loop; deferred truth rows, a slice per idle turn: each in a turn
        # of its own when the turn already painted (timing.TURN_BUDGET_MS)
        # (a chunk paints nothing: the job does not wait out another view's large repaint, timing.claim_paint)
        self._runner = ChunkRunner(self.model.step_job, self, turn_budget_ms=TURN_BUDGET_MS, wait_for_paints=False)
        self._filler = ChunkRunner(self._fill_rows, self, turn_budget_ms=TURN_BUDGET_MS)
        self._hover_waits = False                               # a hover said "in a moment": tell it when
        self._pending: deque = deque()                          # records made, not yet delivered to the views
        self._delivery = QtCore.QTimer(self)                    # the one delivery of the pending records
        self._delivery.setSingleShot(True)
        self._delivery.setInterval(0)
        self._delivery.timeout.connect(self.flush)
        self._delivering = False                                # a record is being delivered: busy as it was
        self._busy_told = self.model.busy                       # the busy state the views were told last
        ev = self.model.events
        ev.operated.connect(self._on_operated)
        ev.about_to_reset.connect(self._relay(self.aboutToReset))
        ev.reset.connect(self._on_reset)
        ev.noted.connect(self._relay(self.noted))
        ev.busy_changed.connect(self._on_busy)
        ev.progress.connect(self._relay(self.progress))
        ev.frame.connect(self._relay(self.jobFrame))
        ev.job_finished.connect(self._relay(self.jobFinished))
        ev.error.connect(self._relay(self.error))
        ev.notice.connect(self._relay(self.notice))
        if not _warmed.is_set():
            _warmed.set()
            # in a thread of its own (not a daemon: the interpreter waits for it rather than ending it midway),
            # started once the application has painted, so the window shows first; the watch begins with the
            # event loop (armed here, it saw the ~14,000 events of the window's construction, ~40 ms)
            QtCore.QTimer.singleShot(0, _watch_first_paint)

    # --- model -> signals ------------------------------------------------------------------------------------
    def explanation(self, record):
        """The ``Explanation`` of ``record`` (an Operation or a StateNote), built on the first asking."""
        if record is not self._explained[0]:
            numbers = None if getattr(record, "numbers", None) is not None else self.model.numbers()
            self._explained = (record, words.explain(record, self.model.state, numbers))
        return self._explained[1]

    def verdict_words(self, record) -> tuple[str, str]:
        """(headline, text) of an insert's, lookup's or removal's verdict, without building its whole
        explanation (the item panel's line after each of them; the Explain panel builds the rest when shown)."""
        if record is self._explained[0]:
            return self._explained[1].headline, self._explained[1].verdict_text
        return words.verdict_words(record, self.model.filter)

    def _on_operated(self, rec) -> None:
        if not self.signalsBlocked():     # (made while they are blocked, it is never delivered, as before)
            if not self._pending:
                self._delivery.start()    # one delivery for every record made before the loop's next turn
            self._pending.append(rec)
        if rec.op == "insert batch" and not self.model.busy and not self._filler.is_running:
            self._filler.start()      # a run inserted outside a job (auto-play at a set rate) defers rows too

    def flush(self) -> None:
        """Deliver the pending records now, in the order they were made: ``operated(record)`` for each (and
        ``filterGrown`` after one whose filter opened a stage). Records a slot's own call makes meanwhile are
        delivered in the same loop, after those already waiting."""
        pending = self._pending
        self._delivery.stop()
        while pending:
            rec = pending.popleft()
            outer, self._delivering = self._delivering, True    # (a slot's call may deliver the next one)
            try:
                self.operated.emit(rec)
            finally:
                self._delivering = outer
            if rec.grown:
                self.filterGrown.emit()   # a state signal: the filter itself is larger now

    def _relay(self, signal):
        """The slot that passes a model's state event on as ``signal``, after the records made before it."""
        def relay(*args) -> None:
            if self._pending:
                self.flush()
            signal.emit(*args)
        return relay

    @property
    def busy(self) -> bool:
        """Whether a job runs; while a record is delivered, whether one ran when the record was made."""
        return self._busy_told if self._delivering else self.model.busy

    def _on_reset(self, _last) -> None:
        if self._pending:
            self.flush()
        self._busy_told = self.model.busy
        self.filterReset.emit()       # the state to show: last_record
        self._filler.start()          # a restored state may hold rows to make

    def _on_busy(self, busy: bool) -> None:
        if self._pending:
            self.flush()
        self._busy_told = busy
        if busy:
            self._filler.stop()       # a job's turns are the job's: auto-play keeps its speed
            self._runner.start()
        else:
            self._runner.stop()
            self._filler.start()
        self.busyChanged.emit(busy)

    def _fill_rows(self) -> bool:
        """One slice of the truth's deferred rows; False (the filler stops) when none waits or a job runs.
        Making rows changes no answer (they are the rows the insert computed), so it reaches the truth directly."""
        rows = self.model.state.truth.rows
        more = rows is not None and not self.model.busy and rows.make_some(FILL_ROWS)
        if self._hover_waits and rows is not None and not rows.deferred_rows:
            self._hover_waits = False
            self.rowsMade.emit()
        return more

    # --- words and pictures of the model's state (bloomviz.explain), for the views ----------------------------
    @property
    def last_explanation(self):
        return self.explanation(self.model.last_record)

    def hover_text(self, index: int) -> str:
        if not 0 <= index < self.model.filter.m:
            return ""
        value = int(self.model.cell_values([index])[0])
        rows = self.model.state.truth.rows
        if rows is not None and rows.deferred_rows > HOVER_ROWS:   # the idle filling has not got there yet
            rows.make_some(HOVER_ROWS)                             # (a count, not a clock: the same on any load)
            self._hover_waits = True
            if not self._filler.is_running:
                self._filler.start()
            return words.hover_listing(self.model.state, index, value, rows.deferred_rows)
        return words.hover_text(self.model.state, index, value)

    def removal_question(self, item: object) -> str | None:
        """The question to ask before ``remove(item, force=True)``, or None when no question is needed."""
        return words.removal_question(self.model.filter, item) if self.model.removal_needs_force(item) else None

    def variant_title(self) -> str:
        return variants.title(self.model.filter)

    def grid_bands(self) -> list[tuple[int, int, str]]:
        """Index ranges of the grid to outline and label: stages, slices, blocks."""
        return variants.grid_bands(self.model.filter, self.model.state.last_positions)

    def bound_line(self) -> tuple[float, str] | None:
        return variants.bound_line(self.model.filter)


def _forward(name: str):
    """The adapter's member ``name``: the model's property read, or the model's method called."""
    target = getattr(Model, name, None)
    if target is None or isinstance(target, property):   # an attribute the model sets, or a property
        return property(lambda self: getattr(self.model, name),
                        doc=getattr(target, "__doc__", None) or f"The model's ``{name}``.")

    if name in CHANGES:
        @functools.wraps(target)
        def change(self, *args, **kwargs):
            if self._pending:       # the views see every record before the model changes again
                self.flush()
            return getattr(self.model, name)(*args, **kwargs)
        return change

    @functools.wraps(target)
    def method(self, *args, **kwargs):
        return getattr(self.model, name)(*args, **kwargs)
    return method


for _name in MODEL_API:
    if _name not in QtWorkbench.__dict__:     # (``busy`` is the adapter's own: see its docstring)
        setattr(QtWorkbench, _name, _forward(_name))
