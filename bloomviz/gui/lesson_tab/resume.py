"""Where each lesson was left, so that the next lecture resumes there: the step is kept in the window's settings
under the lesson's path (``builtin:01-…`` or its file), and the Lesson tab's title page offers "Resume at step N"
(presenter mode: the key C)."""

from __future__ import annotations
from bloomviz.i18n import tr


class Place:
    """The Lesson view's memory of the step each lesson was left at (none until ``settings`` is given)."""

    KEY = "lessons/left_at/"

    def __init__(self, view, settings=None):
        self.view, self.settings = view, settings

    def left_at(self) -> int:
        view = self.view
        if self.settings is None or view.lesson is None:
            return 0
        try:
            step = int(self.settings.value(self.KEY + view.lesson.path, 0))
        except (TypeError, ValueError):        # a hand-edited settings file
            return 0
        return max(0, min(step, len(view.lesson.steps)))

    def remember(self, taken: int) -> None:
        if taken:
            if self.settings is not None and self.view.lesson is not None:
                self.settings.setValue(self.KEY + self.view.lesson.path, taken)
            self.view.resume_button.hide()

    def offer(self) -> None:
        """On a lesson's title page, when it was left at a later step: a "Resume at step N" button."""
        left, view = self.left_at(), self.view
        view.resume_button.setText(tr("Resume at step {step}").format(step=left))
        view.resume_button.setToolTip(tr("The step this lesson was left at the last time it was shown (key C in "
                                         "presenter mode)"))
        view.resume_button.setVisible(left > 0 and view.runner is not None and view.runner.position == 0)

    def resume(self) -> bool:
        left = self.left_at()
        if not left or self.view.runner is None:
            return False
        self.view.go_to(left)
        return True
