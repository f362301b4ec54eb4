"""The Lesson tab's moving pictures: a step's ``insert``/``lookup … slow=S`` and ``autoplay N speed=R`` played on
the lesson's grid, then the step's end state as the runner computed it.

The runner has already run the step; an animation only redraws. Each animated action starts from the state just
before it (``LessonRunner.state_within``: the step's earlier actions replayed on a copy), so a step that makes a
new filter and then auto-plays into it starts from that empty filter, not from the previous step's.

- A slow insert or lookup reveals each item one hash at a time (``widgets.step_reveal``, the plan the Filter
  tab's slow motion plays): the bytes, the scheme's values, position i's arithmetic and its cell, the verdict
  last, at S seconds a step. Next (Space) shows the next step at once.
- An autoplay inserts the same generated items into a copy, a chunk per tick of a ``ChunkRunner`` metronome,
  at R items a second (without speed=, in about two seconds). Next jumps to the end state.

A step whose question is not yet revealed and hides the lookup (a verdict question) plays no slow lookup or
insert: its hashes would show the answer. An autoplay shows nothing the end state does not.
"""

from __future__ import annotations

from PySide6 import QtCore

from bloomviz.filters.rows import positions_added
from bloomviz.filters.capabilities import grid_values
from bloomviz.gui.access import motion
from bloomviz.gui.timing import ChunkRunner
from bloomviz.gui.widgets.step_reveal import reveal_steps, scheme_of, verdict_line
from bloomviz.lessons.actions import REGISTRY
from bloomviz.lessons.state import lookup_verdict
from bloomviz.items.encoding import random_items, to_bytes
from bloomviz.i18n import marks, number, tr

TICK_MS = 40              # an autoplay's frame: 25 redraws a second
DEFAULT_SECONDS = 2.0     # an autoplay without speed= lasts about this long


class StepAnimation(QtCore.QObject):
    """Plays the current step's slow and autoplay actions on ``view``'s grid; ``view._show`` ends it."""

    finished = QtCore.Signal()

    def __init__(self, view):
        super().__init__(view)
        self._view = view
        self._frames = None           # a generator: draws one frame, yields the delay before the next (ms)
        self._kind = ""               # "slow" or "autoplay": what Next does while it runs
        self._report = None
        self._metronome = ChunkRunner(self._tick, self)

    @property
    def running(self) -> bool:
        return self._frames is not None

    @property
    def kind(self) -> str:
        return self._kind if self.running else ""

    def start(self, report: dict, hide_lookups: bool) -> bool:
        """Animate the step just taken (``report``); False when it has nothing to animate."""
        self.stop()
        runner = self._view.runner
        step = self._view.lesson.steps[report.step - 1]
        plan = []
        for index, action in enumerate(step.actions):
            kind = REGISTRY[action.name].animates(action)      # what the action's declaration plays
            if kind == "autoplay" or kind == "slow" and not hide_lookups:
                plan.append((index, kind, action))
        # a step about other filters, or a filter too large to draw, shows no grid: nothing to animate on
        if not plan or not self._view.grid.isVisibleTo(self._view):
            return False
        self._report = report
        self._frames = self._play(runner, plan)
        self._tick()
        return self.running

    def _play(self, runner, plan):
        for index, kind, action in plan:
            state = runner.state_within(index)
            self._kind = kind
            if kind == "autoplay":
                yield from self._autoplay(state.filter, action)
            else:
                yield from self._slow(state.filter, action, state)

    def _slow(self, flt, action, state=None):
        op, ms = action.name, int(action.options["slow"] * 1000)
        view = self._view
        view.draw_filter(flt)
        for item in action.args:
            positions = [int(p) for p in (positions_added(flt, item) if op == "insert" else flt.positions(item))]
            values = grid_values(flt)
            was_set = [bool(values[p]) for p in positions]
            verdict = lookup_verdict(state, item) if op == "lookup" and state is not None else ""
            steps = reveal_steps(op, item, to_bytes(item), scheme_of(flt), flt.m, flt.k, positions, was_set,
                                 verdict_line(op, positions, was_set, verdict))
            for number, shown in enumerate(steps, start=1):
                if number == len(steps) and op == "insert":
                    flt.add(item)          # the copy's bits, so the cells light as set and the next item sees them
                    view.draw_filter(flt)
                view.show_motion(f"{shown.text}<br><i>step {number} of {len(steps)} · Next (Space) goes on</i>")
                if shown.lit:
                    view.grid.highlight(list(shown.lit), list(shown.kinds))
                else:
                    view.grid.clear_highlight()
                yield ms

    def _autoplay(self, flt, action):
        count = action.args[0]
        speed = action.options.get("speed") or count / DEFAULT_SECONDS
        items = random_items(count, seed=action.options["seed"])
        view, done, owed = self._view, 0, 0.0
        view.grid.clear_highlight()
        while done < count:
            owed += speed * TICK_MS / 1000
            chunk = min(count - done, int(owed))
            if chunk:
                flt.update(items[done:done + chunk])
                done += chunk
                owed -= chunk
                view.draw_filter(flt)
            view.show_motion(tr("Auto-play: {done} of {count} items inserted at {speed} a second · Next shows the "
                                "end").format(done=number(done), count=number(count), speed=marks(f"{speed:,.4g}")))
            yield TICK_MS

    def _tick(self) -> bool:
        frames = self._frames
        if frames is None:
            return False
        try:
            delay = next(frames)
        except StopIteration:
            self.finish()
            return False
        if frames is self._frames and motion.reduced():
            if self._kind == "autoplay":
                self.finish()        # reduced motion: the end state at once
            return False             # a slow reveal's next step waits for Next
        if frames is self._frames:
            self._metronome.start(delay)     # restart: the next frame a whole delay after this one
        return False

    def advance(self) -> None:
        """Next while playing: a slow reveal's next step now; an autoplay's end state."""
        if self.kind == "slow":
            self._tick()
        elif self.running:
            self.finish()

    def finish(self) -> None:
        """The end state the runner computed, drawn as the step shows it without animation."""
        report = self._report
        self.stop()
        if report is not None:
            self._view.show_report(report)
            self.finished.emit()

    def stop(self) -> None:
        """Stop where it is, drawing nothing (Back, another lesson; the caller draws what comes next)."""
        self._metronome.stop()
        self._frames, self._kind, self._report = None, "", None
