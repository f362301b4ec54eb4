"""A session saved in the middle of a lesson keeps the lesson, its step and its votes; opening it puts the
Lesson tab back there (``files/session_lesson.py`` holds the format). A lesson on its title page with no votes
is not under way: such a session is written exactly as before."""

from __future__ import annotations

from bloomviz.files.session_lesson import LessonPlace
from bloomviz.gui.widgets.predict_vote import Tally


def place_of(view) -> LessonPlace | None:
    """Where the Lesson tab's lesson is, or None when no lesson is under way."""
    if view is None or view.lesson is None or view.runner is None:
        return None
    votes = {step: (tuple(t.votes), bool(t.revealed)) for step, t in view.tallies.items() if t.total or t.revealed}
    if view.runner.position == 0 and not votes:
        return None
    return LessonPlace(view.lesson.path, int(view.runner.position), votes)


def restore(view, place: LessonPlace | None) -> str:
    """Open the lesson at its step with its votes; a sentence for the status line ("" when there is none). A
    lesson file is opened as the Lesson tab opens one (checked on a worker first): the step and votes are put
    back when that ends."""
    if view is None or place is None:
        return ""
    source = place.source
    if source.startswith("builtin:"):
        if not view.load_builtin(source.split(":", 1)[1]):
            return f" Its lesson ({source}) could not be opened; the Lesson tab says why."
        return _put_back(view, place)
    if not view.open_path(source):
        return f" Its lesson ({source}) was not opened: another lesson is being opened."

    def opened(ok: bool) -> None:
        view.opening.finished.disconnect(opened)
        if ok:
            _put_back(view, place)
    view.opening.finished.connect(opened)
    return f" Its lesson {source} is being opened, to step {place.step}."


def _put_back(view, place: LessonPlace) -> str:
    view.tallies = {step: Tally(list(counts), revealed) for step, (counts, revealed) in place.votes.items()}
    step, total = min(place.step, len(view.lesson.steps)), len(view.lesson.steps)
    view.go_to(step)
    if view.moving:     # heavy steps on the way: a job, with progress and Cancel
        return f" The lesson “{view.lesson.title}” is being taken to step {step} of {total}."
    return f" The lesson “{view.lesson.title}” is back at step {view.runner.position} of {total}."
