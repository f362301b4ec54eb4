"""The event loop's clock for bench_stalls.py: every turn of the GUI thread's loop (wall and thread CPU, stack
samples of long turns), the window's pieces of work timed per call, and a 5 ms heartbeat whose gaps are how long
input would wait. Imported by the benchmark before the window is made (CallTimes patches the classes it times)."""

from __future__ import annotations

import collections
import gc
import os
import resource
import signal
import statistics
import time

from PySide6 import QtCore

HEARTBEAT_MS = 5
SAMPLE_AFTER_S = 0.015
SAMPLE_EVERY_S = 0.002


class TurnClock(QtCore.QObject):
    """Every turn of the event loop (aboutToBlock -> awake): wall and thread CPU, and stack samples of long ones."""

    def __init__(self, sample: bool = True):
        super().__init__()
        self.turns: list[tuple[float, float, float]] = []     # (start, wall s, cpu s)
        self.samples: dict[float, collections.Counter] = collections.defaultdict(collections.Counter)
        self.steps: dict[float, list[str]] = collections.defaultdict(list)     # the job's steps in a turn
        # a turn's (voluntary, involuntary) context switches of the GUI thread: a long turn of little CPU with
        # involuntary ones was taken off its core by other processes; with voluntary ones it waited (a lock, I/O)
        self.switches: dict[float, tuple[int, int]] = {}
        self._start = self._cpu = None
        self._on = False
        dispatcher = QtCore.QAbstractEventDispatcher.instance()
        dispatcher.awake.connect(self._awake)
        dispatcher.aboutToBlock.connect(self._blocking)
        if sample:
            signal.signal(signal.SIGALRM, self._sample)
            signal.setitimer(signal.ITIMER_REAL, SAMPLE_EVERY_S, SAMPLE_EVERY_S)

    @property
    def turn_start(self) -> float | None:
        return self._start

    def watch_job_steps(self) -> None:
        """Note each step of the window's job (a chunk, a frame, a paint turn) in the turn it ran in."""
        from bloomviz.workbench import jobs
        advance = jobs.Job.advance

        def noted(job, insert_batch):
            cpu = time.thread_time()
            step = advance(job, insert_batch)
            if self._start is not None:
                self.steps[self._start].append((step.outcome, time.thread_time() - cpu))
            return step
        jobs.Job.advance = noted

    def kinds(self) -> dict[str, list[tuple[float, float, float]]]:
        """The turns by what the job did in them: "more" (a chunk), "frame", "paint", "more+frame" ..., "none";
        each turn's (wall, CPU, CPU outside the job's steps)."""
        out, self.seen = collections.defaultdict(list), collections.defaultdict(collections.Counter)
        for start, wall, cpu in self.turns:
            steps = self.steps.get(start, ())
            kind = "+".join(sorted({kind for kind, _ in steps})) or "none"
            out[kind].append((wall, cpu, cpu - sum(c for _, c in steps)))
            self.seen[kind].update(self.samples.get(start, {}))
        return dict(out)

    def begin(self) -> None:
        self.turns, self.samples = [], collections.defaultdict(collections.Counter)
        self.steps, self.switches = collections.defaultdict(list), {}
        self._start = None
        self._on = True

    def end(self) -> None:
        self._on = False
        self._start = None

    def close(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)

    # Qt's glib dispatcher emits aboutToBlock, then waits and dispatches what is due (timers, posted events,
    # painting) inside one g_main_context_iteration, then emits awake on the next iteration: a turn's work lies
    # between aboutToBlock and awake, with the wait for the next event (no CPU; at most the 5 ms heartbeat).
    def _blocking(self) -> None:
        if self._on and self._start is None:
            self._start, self._cpu, self._usage = time.perf_counter(), time.thread_time(), _thread_usage()

    def _awake(self) -> None:
        start = self._start
        if start is not None:
            self.turns.append((start, time.perf_counter() - start, time.thread_time() - self._cpu))
            self.switches[start] = tuple(b - a for a, b in zip(self._usage, _thread_usage()))
            self._start = None

    def _sample(self, _signum, frame) -> None:
        # A timer signal, handled in the GUI thread between two bytecodes: the frame is that thread's own. (A
        # sampling thread reading sys._current_frames() crashed PySide's paintEvent here, and held the lock.)
        start = self._start
        if start is not None and frame is not None and time.perf_counter() - start >= SAMPLE_AFTER_S:
            self.samples[start][where(frame)] += 1


def _thread_usage() -> tuple[int, int]:
    usage = resource.getrusage(getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF))
    return usage.ru_nvcsw, usage.ru_nivcsw


# The window's pieces of work that may run in a turn, each timed in this thread's CPU per call (patched on the class
# before the window is made, so that the signal connections reach the timed method too).
TIMED = (("bloomviz.gui.window.redraw", "FilterRedraw", ("flush_grid", "_catch_up_step")),
         ("bloomviz.gui.filter_tab.plot.widget", "FpPlotWidget", ("refresh_now",)),
         ("bloomviz.workbench.truth", "PositionRows", ("make_some",)),
         ("bloomviz.gui.window.status", "StatusLine", ("update", "_show_progress")),
         ("bloomviz.gui.filter_tab.autoplay_panel", "AutoPlayPanel", ("_show_progress",)),
         ("bloomviz.gui.filter_tab.history_panel", "HistoryModel", ("flush",)),
         ("bloomviz.gui.widgets.fill_gauge", "FillGauge", ("refresh",)),
         ("bloomviz.gui.filter_tab.explain_panel", "ExplainPanel", ("render_now",)),
         ("pyqtgraph.widgets.GraphicsView", "GraphicsView", ("paintEvent",)))


class CallTimes:
    def __init__(self, clock):
        self.cpu: dict[str, list[float]] = collections.defaultdict(list)
        self.in_turn: dict[float, list[tuple[str, float]]] = collections.defaultdict(list)
        self.on, self._clock = False, clock
        for module, cls_name, names in TIMED:
            try:
                cls = getattr(__import__(module, fromlist=[cls_name]), cls_name)
            except (ImportError, AttributeError):
                continue        # a piece renamed or moved: the rest is still timed
            for name in names:
                if hasattr(cls, name):
                    setattr(cls, name, self._timed(f"{cls_name}.{name}", getattr(cls, name)))

    def _timed(self, key: str, method):
        def timed(*args, **kwargs):
            if not self.on:
                return method(*args, **kwargs)
            name = key if not key.startswith("GraphicsView.") else f"paint of {_owner(args[0])}"
            cpu = time.thread_time()
            try:
                return method(*args, **kwargs)
            finally:
                took = time.thread_time() - cpu
                self.cpu[name].append(took)
                if self._clock.turn_start is not None:
                    self.in_turn[self._clock.turn_start].append((name, took))
        return timed

    def _gc(self, phase: str, info: dict) -> None:
        """Cyclic garbage collections, timed as pieces of work too (the application collects on a timer)."""
        if phase == "start":
            self._gc_began = time.thread_time()
        elif self.on and getattr(self, "_gc_began", None) is not None:
            took, self._gc_began = time.thread_time() - self._gc_began, None
            key = f"gc generation {info.get('generation')}"
            if took > 0.01:
                print(f"  (a collection of generation {info.get('generation')}: {took * 1e3:.1f} ms of CPU, "
                      f"{info.get('collected')} objects collected; {len(gc.get_objects())} tracked)")
            self.cpu[key].append(took)
            if self._clock.turn_start is not None:
                self.in_turn[self._clock.turn_start].append((key, took))

    def begin(self) -> None:
        self.cpu, self.on = collections.defaultdict(list), True
        self.in_turn = collections.defaultdict(list)
        if self._gc not in gc.callbacks:
            gc.callbacks.append(self._gc)

    def end(self) -> dict:
        self.on = False
        return {key: {"calls": len(v), **spread_ms(v)} for key, v in sorted(self.cpu.items())}


def where(frame) -> str:
    """The innermost frames of the window's code (bloomviz/, up to three) and the innermost frame of all."""
    inner = f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_code.co_name}"
    ours = []
    while frame is not None and len(ours) < 3:
        path = frame.f_code.co_filename
        if f"{os.sep}bloomviz{os.sep}" in path:
            ours.append(f"{path.rsplit(os.sep + 'bloomviz' + os.sep, 1)[1]}:{frame.f_code.co_name}")
        frame = frame.f_back
    if not ours:
        return f"outside bloomviz [in {inner}]"
    return " < ".join(ours) + ("" if inner in ours[0] else f" [in {inner}]")


class Heartbeat:
    """A 5 ms timer: the gaps between its ticks (wall, minus the 5 ms) and this thread's CPU in each."""

    def __init__(self):
        self.gaps: list[tuple[float, float]] = []
        self._last = None
        self.timer = QtCore.QTimer()
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.setInterval(HEARTBEAT_MS)
        self.timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = (time.perf_counter(), time.thread_time())
        if self._last is not None:
            self.gaps.append((max(0.0, now[0] - self._last[0] - HEARTBEAT_MS / 1e3), now[1] - self._last[1]))
        self._last = now

    def start(self) -> None:
        self.gaps, self._last = [], None
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()


def spread_ms(values: list[float]) -> dict:
    if not values:
        return {"median": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered) * 1e3, 2),
            "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1e3, 2),
            "max": round(ordered[-1] * 1e3, 2)}


def _owner(view) -> str:
    """The window's widget a pyqtgraph view belongs to (the grid, the plot ...), by its class."""
    widget = view.parentWidget()
    while widget is not None and not type(widget).__module__.startswith("bloomviz"):
        widget = widget.parentWidget()
    return type(widget if widget is not None else view).__name__
