"""Next, Back and a jump in the Lesson tab: at once on the GUI thread when light, as a job when heavy.

A lesson's action may do up to ``budget.ACTION_SECONDS`` of estimated work (more on a busy machine), and a
step several actions: taken on the GUI thread, a heavy step froze the window with no progress and no way out.
Opening a lesson file dry-runs every step on a worker and measures each step's CPU seconds
(``LessonOpening.seconds``); a move whose steps took more than ``INLINE_SECONDS`` there runs under the opening's
row instead (``LessonOpening.run``: progress and Cancel), the view drawing nothing of the lesson's state
meanwhile (``view.moving``: the runner changes that state in place on the worker). A move that ends within
``JOIN_SECONDS`` is finished at once, so a step that only looked heavy shows no row. Built-in lessons have no
dry run and are light: they step at once, as ``--shots`` and ``--step`` expect.

Cancel takes effect before the step's next action: the runner puts its state back as it was before the step,
so the lesson stays at the previous step (a jump: at the last step it completed). Back and a jump back replay the
lesson's actions from the nearest state the runner kept, on a copy (``LessonRunner.back_to``): Cancel stops the
replay before its next action and the lesson stays at the step it was on, its state untouched.
"""

from __future__ import annotations

from bloomviz import lessons
from bloomviz.i18n import tr

INLINE_SECONDS = 0.1   # CPU seconds the dry run measured: a move under this runs at once
JOIN_SECONDS = 0.1     # a job that ends within this is shown at once, without the row


def cost(seconds: list[float], position: int, taken: int) -> float:
    """The dry run's CPU seconds for going from ``position`` steps to ``taken``: the steps taken forward; back,
    the replay of the steps before ``taken`` (at worst from the lesson's start)."""
    if taken > position:
        return sum(seconds[position:taken])
    return sum(seconds[:taken]) if taken < position else 0.0


def measured(view) -> list[float]:
    """The dry run's seconds per step of the view's lesson ([] when it had none: a built-in lesson)."""
    lesson, seconds = view.opening.seconds
    return seconds if lesson is view.lesson else []


def move(view, taken: int) -> bool:
    """Bring the view's lesson to ``taken`` steps (clamped to the lesson); False when there is nothing to do."""
    runner, lesson = view.runner, view.lesson
    position, total = runner.position, len(lesson.steps)
    taken = max(0, min(taken, total))
    if taken == position:
        return False
    single = taken == position + 1
    actions = len(lesson.steps[position].actions) if single else 0

    def work(report):
        if taken < position:
            # one replay from the nearest kept state, stopped before any of its actions by Cancel
            start = runner.replay_start(taken)
            runner.back_to(taken, lambda step, _a: report(step - start, taken - start))
            return runner.reports[-1] if runner.reports else None
        start = runner.position
        while runner.position < taken:
            runner.next((lambda _s, action: report(action, actions)) if single else
                        (lambda step, _a: report(step - start, taken - start)))
        return runner.reports[-1] if runner.reports else None

    def done(kind: str, value) -> bool:
        view.moving = False
        if view.runner is not runner:     # another lesson was loaded meanwhile: this one's outcome is moot
            return False
        if kind == "ok":
            if single:
                view.stepped(value)
            elif value is None:
                view.load(lesson)
            else:
                view.show_report(value)
            return True
        if runner.reports:                # where the runner stays: Cancel or a refusal put its state back
            view.show_report(runner.reports[-1])
        if kind == "refused":
            view._say_error(value)
        else:
            view.show_only(view.Information.stays, position=runner.position, total=total)
        return False

    if cost(measured(view), position, taken) < INLINE_SECONDS:
        try:
            return done("ok", work(lambda _done, _total: None))
        except lessons.LessonError as exc:
            return done("refused", exc)

    def words(done: int, of: int) -> str:
        # in the window's language: the lesson tab's message bar shows them (tr keeps the fields unfilled)
        if single:
            return tr("Step {taken} of {total}: action {action} of {actions}… (Cancel stays at step {position})"
                      ).format(taken=taken, total=total, action=done + 1, actions=of, position=position)
        if taken < position:
            return tr("Back to step {taken}: replaying step {step} of {steps}… (Cancel stays at step {position})"
                      ).format(taken=taken, step=done + 1, steps=of, position=position)
        return tr("Going to step {taken}: {done} of {steps} steps…").format(taken=taken, done=done, steps=of)
    view.moving = True
    if not view.opening.run(tr("Going to step {taken} of {total}…").format(taken=taken, total=total), work, words,
                            done, path=lesson.path):
        view.moving = False
        return False
    view.opening.wait(JOIN_SECONDS)
    return True
