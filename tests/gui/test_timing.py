"""The window's one throttle, one chunk runner and one job runner (gui/timing.py)."""

from __future__ import annotations

import time

import pytest
from PySide6 import QtCore

from bloomviz.gui import timing
from bloomviz.gui.timing import ChunkRunner, JobRunner, Throttle


@pytest.fixture
def owner(qtbot):
    obj = QtCore.QObject()
    yield obj
    obj.deleteLater()


def test_throttle_request_calls_once_per_interval(qtbot, owner):
    calls = []
    throttle = Throttle(30, lambda: calls.append(1), owner)
    for _ in range(50):
        throttle.request()
    assert throttle.pending and calls == []
    qtbot.waitUntil(lambda: calls == [1], timeout=2_000)
    assert not throttle.pending
    qtbot.wait(80)     # a fixed wait on purpose: what is checked is that no second call comes in over two intervals
    assert calls == [1]


def test_throttle_restart_waits_for_quiet_and_cancel_drops_the_call(qtbot, owner):
    calls, restarts = [], []
    throttle = Throttle(60, lambda: calls.append(time.monotonic()), owner)
    for _ in range(5):
        restarts.append(time.monotonic())
        throttle.restart()    # each restart pushes the call back by the whole interval
        qtbot.wait(25)        # a fixed wait on purpose: restarts spaced in time, less than the interval apart
    qtbot.waitUntil(lambda: len(calls) >= 1 and not throttle.pending, timeout=2_000)
    # a loaded machine may sleep longer than asked between restarts, and then a call in between is right; what
    # a throttle must never do is call within its interval of a restart (Qt's coarse timers may fire 5 % early)
    for call in calls:
        assert call - max(r for r in restarts if r <= call) >= 0.060 * 0.95 - 0.001
    made = len(calls)
    throttle.request()
    throttle.cancel()
    qtbot.wait(120)    # a fixed wait on purpose: the cancelled call must not come in two intervals
    assert len(calls) == made and not throttle.pending
    throttle.set_interval(5)
    assert throttle.interval == 5


def test_chunk_runner_steps_until_false_and_lets_the_loop_turn(qtbot, owner):
    steps, other = [], []
    runner = ChunkRunner(lambda: steps.append(1) or len(steps) < 5, owner)
    QtCore.QTimer.singleShot(0, lambda: other.append(len(steps)))
    runner.start()
    assert runner.is_running
    qtbot.waitUntil(lambda: not runner.is_running, timeout=2_000)
    assert len(steps) == 5
    assert other and other[0] < 5    # another event ran between two steps


def test_chunk_runner_stop_and_a_restart_from_inside_a_step(qtbot, owner):
    steps = []
    restarted = []

    def step():
        steps.append(1)
        if len(steps) == 3 and not restarted:
            restarted.append(1)
            runner.start()       # the next run begins in this step: returning False must not end it
            return False
        return len(steps) < 6

    runner = ChunkRunner(step, owner)
    runner.start()
    qtbot.waitUntil(lambda: not runner.is_running, timeout=2_000)
    assert len(steps) == 6
    runner.start()
    runner.stop()
    qtbot.wait(30)     # a fixed wait on purpose: a stopped runner takes no step while the loop turns
    assert len(steps) == 6


def test_chunk_runner_stops_when_a_step_raises(qtbot, owner):
    calls = []

    def step():
        calls.append(1)
        raise ValueError("broken step")

    runner = ChunkRunner(step, owner)
    runner.start()
    with qtbot.captureExceptions() as exceptions:
        qtbot.waitUntil(lambda: bool(calls), timeout=2_000)
        qtbot.wait(30)   # a fixed wait on purpose: the loop turns, and a runner whose step raised takes no other
    assert len(calls) == 1 and not runner.is_running
    assert "broken step" in str(exceptions[0][1])


def test_chunk_runner_as_a_metronome(qtbot, owner):
    ticks = []
    runner = ChunkRunner(lambda: ticks.append(time.monotonic()) or True, owner, interval_ms=40)
    started = time.monotonic()
    runner.start()
    qtbot.waitUntil(lambda: len(ticks) >= 4, timeout=5_000)
    runner.stop()
    # a metronome, not a busy loop: its j-th step comes no earlier than j beats after the start (Qt's coarse
    # timers may fire 5 % early). Counted from the start, not from the first step: a late first step is followed
    # by steps on the beat, closer to it than one interval, which a loaded machine made look early
    assert ticks[-1] - started >= len(ticks) * (0.040 * 0.95) - 0.001, (started, ticks)


def test_turn_cpu_counts_this_turns_work(qtbot):
    timing.watch_turns()
    seen = []

    def busy_callback():
        began = time.thread_time()
        while time.thread_time() - began < 0.02:      # 20 ms of this thread's CPU, in one turn
            pass
        seen.append(timing.turn_cpu())
    QtCore.QTimer.singleShot(0, busy_callback)
    qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
    assert seen[0] >= 0.02


@pytest.mark.parametrize("spent, steps_per_check", [(1.0, timing.MAX_SKIPS), (0.0, 1)])
def test_a_budgeted_chunk_runner_leaves_a_spent_turn_but_is_never_starved(qtbot, owner, monkeypatch, spent,
                                                                           steps_per_check):
    checks, steps = [], []
    monkeypatch.setattr(timing, "turn_cpu", lambda: checks.append(1) or spent)   # every turn: `spent` s so far
    runner = ChunkRunner(lambda: steps.append(1) or len(steps) < 3, owner, turn_budget_ms=timing.TURN_BUDGET_MS)
    runner.start()
    qtbot.waitUntil(lambda: not runner.is_running, timeout=5_000)
    # over the budget: each step waits MAX_SKIPS turns (one check each), then steps unchecked; under it, each turn
    # is checked once and steps
    assert len(steps) == 3 and len(checks) == 3 * steps_per_check


@pytest.mark.parametrize("budget, checks_expected", [(timing.TURN_BUDGET_MS, timing.MAX_SKIPS), (None, 0)])
def test_a_throttled_call_waits_for_a_turn_not_spent_yet(qtbot, owner, monkeypatch, budget, checks_expected):
    checks, calls = [], []
    monkeypatch.setattr(timing, "turn_cpu", lambda: checks.append(1) or 1.0)    # every turn: 1 s spent so far
    throttle = Throttle(5, lambda: calls.append(1), owner, turn_budget_ms=budget)
    throttle.request()
    qtbot.waitUntil(lambda: calls == [1], timeout=5_000)
    # over the budget the call waits MAX_SKIPS turns (one check each), then comes; without one it is not checked
    assert len(checks) == checks_expected and not throttle.pending
    assert throttle.interval == 5       # the waiting turns left its interval as it was


class _Ticks:
    """The time module, its perf_counter advanced ``step`` seconds by each ``tick()`` (the other clocks real)."""

    def __init__(self, step: float):
        self.now, self.step = 1_000.0, step

    def tick(self) -> None:
        self.now += self.step

    def perf_counter(self) -> float:
        return self.now

    def __getattr__(self, name):
        return getattr(time, name)


# each retry CLAIM_RETRY_MS + 1 ms later on the module's clock: the waits while claimed, up to CLAIM_WAIT_S
_RETRY_S = (timing.CLAIM_RETRY_MS + 1) / 1000
_WAITS = sum(1 for i in range(100) if i * _RETRY_S < timing.CLAIM_WAIT_S)


@pytest.mark.parametrize("claimed", [True, False])
def test_a_throttled_call_waits_while_a_large_repaint_is_due(qtbot, owner, monkeypatch, claimed):
    monkeypatch.setattr(timing, "turn_cpu", lambda: 0.0)        # no turn over its budget: only the claim counts
    monkeypatch.setattr(timing, "paint_claimed", lambda: claimed)
    clock = _Ticks(_RETRY_S)
    monkeypatch.setattr(timing, "time", clock)
    calls, starts = [], []
    throttle = Throttle(1, lambda: calls.append(1), owner)
    start = throttle._timer.start
    throttle._timer.start = lambda ms: (starts.append(ms), clock.tick(), start(ms))
    throttle.request()
    qtbot.waitUntil(lambda: bool(calls), timeout=5_000)
    # claimed: the call tries again CLAIM_RETRY_MS later until CLAIM_WAIT_S has passed, then comes; else when due
    assert starts == [1] + [timing.CLAIM_RETRY_MS] * (_WAITS if claimed else 0)
    assert not claimed or _WAITS > timing.MAX_SKIPS


@pytest.mark.parametrize("wait_for_paints", [True, False])
def test_a_budgeted_step_leaves_a_claimed_turn_unless_it_paints_nothing(qtbot, owner, monkeypatch, wait_for_paints):
    monkeypatch.setattr(timing, "turn_cpu", lambda: 0.0)
    monkeypatch.setattr(timing, "paint_claimed", lambda: True)
    clock = _Ticks(_RETRY_S)
    monkeypatch.setattr(timing, "time", clock)
    checks, steps, intervals = [], [], []
    runner = ChunkRunner(lambda: steps.append(1) or len(steps) < 3, owner, turn_budget_ms=timing.TURN_BUDGET_MS,
                         wait_for_paints=wait_for_paints)
    fire = runner._fire
    runner._timer.timeout.disconnect()
    runner._timer.timeout.connect(lambda: (checks.append(1), intervals.append(runner._timer.interval()),
                                           clock.tick(), fire()))
    runner.start()
    qtbot.waitUntil(lambda: not runner.is_running, timeout=5_000)
    # waiting for paints: each step waits out CLAIM_WAIT_S, a try every CLAIM_RETRY_MS (not a spin of empty
    # turns); a job's chunk steps at once
    assert len(steps) == 3 and len(checks) == 3 * (_WAITS + 1 if wait_for_paints else 1)
    assert set(intervals[1:]) == ({0, timing.CLAIM_RETRY_MS} if wait_for_paints else {0})


def test_a_claim_on_a_widget_holds_until_it_paints(qtbot, monkeypatch):
    from PySide6 import QtWidgets
    monkeypatch.setattr(timing, "_claimed_at", [float("-inf")])
    widget = QtWidgets.QWidget()
    qtbot.addWidget(widget)
    widget.resize(60, 40)
    widget.show()
    qtbot.waitExposed(widget)
    clock = _Ticks(0.0)
    monkeypatch.setattr(timing, "time", clock)
    timing.claim_paint(widget)
    clock.now += 0.9 * timing.CLAIM_MAX_S     # longer than a claim without a widget lasts
    assert timing.paint_claimed()
    widget.update()
    qtbot.waitUntil(lambda: not timing.paint_claimed(), timeout=5_000)     # painted: the claim is over
    timing.claim_paint(widget)      # claimed again, never painted (hidden): over after CLAIM_MAX_S
    widget.hide()
    clock.now += 1.1 * timing.CLAIM_MAX_S
    assert not timing.paint_claimed()


class _Clock:
    """The time module, its perf_counter reading ``now[0]`` (the other clocks, read by the turn budget, real)."""

    def __init__(self, now: list[float]):
        self._now = now

    def perf_counter(self) -> float:
        return self._now[0]

    def __getattr__(self, name):
        return getattr(time, name)


def test_a_claimed_paint_is_due_for_claim_s(monkeypatch):
    # on the module's own clock, set by the test: read from the real one, a test thread the loaded machine left
    # waiting for more than CLAIM_S (30 ms) between the claim and the question saw the claim over
    now = [1_000.0]
    monkeypatch.setattr(timing, "time", _Clock(now))
    monkeypatch.setattr(timing, "_claimed_at", [float("-inf")])
    assert not timing.paint_claimed()
    timing.claim_paint()
    now[0] += 0.9 * timing.CLAIM_S
    assert timing.paint_claimed()
    now[0] += 0.2 * timing.CLAIM_S
    assert not timing.paint_claimed()


class _Job:
    def __init__(self, total: int, fail_at: int | None = None):
        self.total, self.done, self.fail_at = total, 0, fail_at

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def step(self) -> bool:
        if self.done == self.fail_at:
            raise ValueError("no room for that")
        self.done += 1
        return self.finished


def test_job_runner_reports_progress_and_the_finished_job(qtbot, owner):
    runner = JobRunner(owner)
    busy, progress = [], []
    runner.busyChanged.connect(busy.append)
    runner.progress.connect(lambda done, total: progress.append((done, total)))
    job = _Job(1000)
    with qtbot.waitSignal(runner.finished, timeout=5_000) as blocker:
        runner.start(job)
    assert blocker.args == [job] and job.finished and not runner.busy
    assert progress[0] == (0, 1000) and progress[-1] == (1000, 1000)
    assert busy == [True, False]


def test_job_runner_failure_and_cancel(qtbot, owner):
    runner = JobRunner(owner)
    with qtbot.waitSignal(runner.failed, timeout=5_000) as blocker:
        runner.start(_Job(10, fail_at=3))
    assert blocker.args == ["no room for that"] and not runner.busy
    cancelled = []
    runner.cancelled.connect(lambda: cancelled.append(1))
    runner.start(_Job(10 ** 9))
    runner.cancel()
    assert cancelled == [1] and not runner.busy


def test_job_runner_next_job_started_from_finished_runs(qtbot, owner):
    runner = JobRunner(owner)
    jobs = [_Job(5), _Job(7)]
    done = []

    def next_job(job):
        done.append(job)
        if len(done) == 1:
            runner.start(jobs[1])

    runner.finished.connect(next_job)
    runner.start(jobs[0])
    qtbot.waitUntil(lambda: len(done) == 2, timeout=5_000)
    assert jobs[1].finished


def test_after_paint_waits_for_the_widgets_paint_or_for_claim_max_s(qtbot):
    from PySide6 import QtWidgets
    widget = QtWidgets.QWidget()
    qtbot.addWidget(widget)
    widget.resize(60, 40)
    widget.show()
    qtbot.waitExposed(widget)
    calls = []
    timing.after_paint(widget, lambda: calls.append("painted"))
    assert calls == []
    widget.update()
    qtbot.waitUntil(lambda: calls == ["painted"], timeout=5_000)
    widget.hide()        # hidden, it never paints: the call comes all the same
    timing.after_paint(widget, lambda: calls.append("hidden"))
    qtbot.waitUntil(lambda: calls == ["painted", "hidden"], timeout=5_000)
