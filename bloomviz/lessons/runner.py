"""Run a lesson on its own workbench (the window's model, no Qt): step by step with Back, or all at once for
``--check`` and ``--report``.

``LessonRunner(lesson)`` keeps the steps taken as operations: ``back()`` rebuilds the state before the current
step by replaying the lesson's actions from the nearest kept state (a copy is kept after a step only while the
copies, with the truth and the measured rows, stay small, ``CHECKPOINT_BYTES``), so a lesson at m = 2^28 with 100 steps holds one filter, not 100
(3.2 GB before). ``next()`` runs one step and returns its report. Every action's work is estimated and checked
before it starts, and the sum over the lesson (``budget.py``, ``costs.py``). A window drives the same object:
the step list is ``lesson.steps``, the progress ``runner.position`` of ``len(lesson.steps)``, the actions are
``LessonAction`` records it can also animate.

A step's report: the filter (m, k, scheme, variant, n = inserts, bits set), the last verdict with its positions,
the measured rate over the lesson's non-member probes (None for hand-set positions, which cannot hash a probe)
and the exact rate E[(X/m)^k] (the variant's own formula), plus the numbers the step computed.

Any failure while running is a ``LessonError`` naming the file and the action's line; ``check`` runs the whole
lesson first, so a lesson that would fail half-way is refused before a class sees step one. A failed or
cancelled step leaves the state as it was before the step.
"""

from __future__ import annotations

from typing import Callable

from bloomviz.formats.reasons import Reason, say
from bloomviz.lessons import budget as B
from bloomviz.lessons.actions import action_cost, apply
from bloomviz.lessons.costs import report_cost
from bloomviz.lessons.lesson import Lesson, LessonError
from bloomviz.lessons.report import StepReport
from bloomviz.lessons.state import LessonState, snapshot

CHECKPOINT_BYTES = 1 << 20     # a step's state is copied for Back only while it is this small
CHECKPOINTS_TOTAL = 32 << 20   # and all the copies together this small; past that, Back replays


class LessonRunner:
    def __init__(self, lesson: Lesson):
        self.lesson = lesson
        self.reports: list[StepReport] = []
        self.budget = B.Budget()
        self._state = LessonState()
        self._kept: dict[int, LessonState] = {0: LessonState()}   # steps taken -> a copy of the state then

    @property
    def position(self) -> int:
        """Steps taken so far (the window shows "step position of len(steps)")."""
        return len(self.reports)

    @property
    def state(self) -> LessonState:
        return self._state

    @property
    def finished(self) -> bool:
        return self.position >= len(self.lesson.steps)

    def next(self, before_action: Callable[[int, int], None] | None = None) -> StepReport:
        """Run the next step; ``before_action(step_index, action_index)`` is called before each action starts
        (a job's progress and cancel: whatever it raises leaves the state as it was before the step)."""
        if self.finished:
            raise IndexError("the lesson has no more steps")
        step = self.lesson.steps[self.position]
        state, window, line = self._state, [], step.line
        state.touched = set()
        try:
            for index, action in enumerate(step.actions):
                if before_action is not None:
                    before_action(self.position, index)
                line = action.line
                seconds, what = action_cost(state, action)
                self.budget.charge(seconds, what)
                apply(state, action, window)
            line = step.line
            self.budget.charge(B.ACTION_BASE + report_cost(state), Reason(say("this step's report (its measured rate)")))
            report = StepReport.of(self.position + 1, step.title, step.line, snapshot(state),
                                   {k: v for k, v in state.numbers.items() if k in state.touched}, window)
        except BaseException as exc:
            self.budget.abandon_step()
            self._state = self._rebuild(self.position)
            if isinstance(exc, (ValueError, TypeError, OverflowError, MemoryError)):
                name = action.name if line != step.line else "step"
                said = exc.args[0] if exc.args and getattr(exc.args[0], "parts", None) is not None else str(exc)
                raise LessonError(self.lesson.path, line, "{name}: {why}", name=name, why=said) from None
            raise
        self.budget.end_step()
        self.reports.append(report)
        self._keep(state)
        return report

    def _keep(self, state: LessonState) -> None:
        size = state.nbytes()
        held = sum(s.nbytes() for s in self._kept.values())
        if size <= CHECKPOINT_BYTES and held + size <= CHECKPOINTS_TOTAL:
            self._kept[self.position] = state.copy()

    def replay_start(self, position: int) -> int:
        """Where rebuilding the state after ``position`` steps starts: the nearest kept copy at or before it."""
        return max(p for p in self._kept if p <= position)

    def _rebuild(self, position: int, before_action: Callable[[int, int], None] | None = None) -> LessonState:
        """The state after ``position`` steps: the nearest kept copy, then the steps after it replayed (their
        work was checked when they were first taken). ``before_action(step_index, action_index)`` is called
        before each replayed action; what it raises leaves the runner untouched (the replay works on a copy)."""
        start = self.replay_start(position)
        state = self._kept[start].copy()
        for index, step in enumerate(self.lesson.steps[start:position], start):
            for number, action in enumerate(step.actions):
                if before_action is not None:
                    before_action(index, number)
                apply(state, action, [])
        return state

    def state_within(self, action_index: int) -> LessonState:
        """The current step's state just before its action ``action_index``: the state before the step
        rebuilt and the step's earlier actions replayed (what a window animates from: a slow insert, an
        autoplay)."""
        if self.position == 0:
            raise IndexError("no step taken yet")
        state = self._rebuild(self.position - 1)
        for action in self.lesson.steps[self.position - 1].actions[:action_index]:
            apply(state, action, [])
        return state

    def back(self, before_action: Callable[[int, int], None] | None = None) -> LessonState:
        """Undo the last step: the state before it, rebuilt exactly (``back_to``)."""
        if self.position == 0:
            raise IndexError("already at the start of the lesson")
        return self.back_to(self.position - 1, before_action)

    def back_to(self, taken: int, before_action: Callable[[int, int], None] | None = None) -> LessonState:
        """Go back to the state after ``taken`` steps (fewer than taken so far), rebuilt exactly in one replay
        from the nearest kept copy. ``before_action(step_index, action_index)`` is called before each replayed
        action (a job's progress and cancel): whatever it raises leaves the runner at its current step, its
        state, reports and budget untouched, because nothing is changed until the replay is over."""
        if not 0 <= taken < self.position:
            raise IndexError(f"cannot go back to step {taken} from step {self.position}")
        state = self._rebuild(taken, before_action)
        for _ in range(self.position - taken):
            self.reports.pop()
            self.budget.back()
        for position in [p for p in self._kept if p > taken]:
            del self._kept[position]
        self._state = state
        return self.state

    def run_all(self, before_action: Callable[[int, int], None] | None = None) -> list[StepReport]:
        while not self.finished:
            self.next(before_action)
        return self.reports


def check(lesson: Lesson, before_action: Callable[[int, int], None] | None = None) -> list[StepReport]:
    """Run every step on the core; the reports, or the first LessonError (file, line, reason)."""
    return LessonRunner(lesson).run_all(before_action)
