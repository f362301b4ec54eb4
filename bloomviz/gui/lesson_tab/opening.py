"""Opening a lesson file as a job: read, parsed and every step dry-run on a worker thread, with progress and
Cancel under the tab's title; the lesson shown stays until the file has passed.

A lesson is a file someone sent. Opening one ran every step on the GUI thread in one go (907 s frozen at
m = 2^28 with five ``insert-random`` lines); now its work is bounded (``lessons.budget``) and done off the GUI
thread: the runner calls back before each action, which moves the bar and raises ``CheckCancelled`` once Cancel is
pressed, so a cancel takes effect at the next action (one action is at most ``budget.ACTION_SECONDS``). The
core runs on its own lesson state, never on the window's filter, so the thread shares nothing with the widgets;
the GUI thread only polls it.

The same row runs any other lesson work that may be long (``run``): a step the dry run measured heavy, taken
with Next, Back or a jump (``stepping.py``). The dry run measures each step's CPU seconds (``seconds``) so that
the view knows which steps those are before it takes them.
"""

from __future__ import annotations

import threading
import time

from PySide6 import QtCore, QtWidgets

from bloomviz import lessons
from bloomviz.i18n import number, tr

POLL_MS = 40


class CheckCancelled(Exception):
    """Cancel was pressed while the lesson was being checked."""


class LessonOpening(QtCore.QObject):
    """One lesson file being opened at a time; ``finished(bool)`` says whether it was loaded."""

    finished = QtCore.Signal(bool)

    def __init__(self, view, load, refuse, say):
        """``load(lesson)`` shows a checked lesson, ``refuse(error)`` says why a file was not opened, ``say(text)``
        any other outcome; the row of progress goes under the view's first row."""
        super().__init__(view)
        self._load, self._refuse, self._say = load, refuse, say
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._progress = (0, 0)
        self._outcome: tuple | None = None
        self._path = ""
        self.seconds: tuple = (None, [])    # (lesson, CPU seconds of each step in its dry run)
        self.row = QtWidgets.QWidget()
        self.label = QtWidgets.QLabel()
        self.bar = QtWidgets.QProgressBar()
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.cancel_button.setToolTip(tr("Stop checking this lesson; the lesson shown stays"))
        row = QtWidgets.QHBoxLayout(self.row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        self.row.hide()
        view.layout().insertWidget(1, self.row)
        self.cancel_button.clicked.connect(self.cancel)
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, path: str) -> bool:
        """Start opening ``path``; False when another lesson is still being opened."""
        if self.running:
            return False
        self._path, self.seconds = path, (None, [])
        return self.run(tr("Checking {path} before showing it…").format(path=path), self._check,
                        lambda step, total: tr("Checking step {step} of {total} of {path}…").format(
                            step=number(step + 1), total=number(total), path=path), self._opened)

    def run(self, text: str, work, progress_text, done, path: str | None = None) -> bool:
        """Run ``work(report)`` on the worker thread under this row: ``report(done, total)`` moves the bar and
        raises ``CheckCancelled`` once Cancel is pressed; ``progress_text(done, total)`` is the row's words;
        ``done(kind, value)`` ends it on the GUI thread (kind "ok" with work's value, "cancelled", or "refused"
        with the LessonError or OSError) and returns what ``wait`` returns. False when a job runs already.
        ``path``: the lesson file a fault of the code is reported against."""
        if self.running:
            return False
        self._path = self._path if path is None else path
        self._outcome, self._progress = None, (0, 0)
        self._job, self._progress_text, self._done = work, progress_text, done
        self._cancel.clear()
        self.label.setText(text)
        self.bar.setRange(0, 0)
        self.row.show()
        self._thread = threading.Thread(target=self._work, name="bloomviz-lesson-job", daemon=True)
        self._thread.start()
        self._timer.start()
        return True

    def report(self, done: int, total: int) -> None:
        """The worker's progress; raises ``CheckCancelled`` once Cancel was pressed."""
        self._progress = (done, total)
        if self._cancel.is_set():
            raise CheckCancelled

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool | None:
        """Block until the job ends (tests, scripted use); what ``finished`` says, or None if still running."""
        if self._thread is not None:
            self._thread.join(timeout)
            if not self._thread.is_alive():
                return self._finish()
            return None
        return None

    # --- the worker thread -------------------------------------------------------------------------------------
    def _work(self) -> None:
        try:
            self._outcome = ("ok", self._job(self.report))
        except CheckCancelled:
            self._outcome = ("cancelled", None)
        except (lessons.LessonError, OSError) as exc:
            self._outcome = ("refused", exc)
        except Exception as exc:      # a fault of the code, not the file: said, never a dead job
            self._outcome = ("refused", lessons.LessonError(self._path, 0, "could not be run: {error}",
                                                            error=repr(exc)))

    def _check(self, report):
        lesson = lessons.parse_file(self._path)
        total = len(lesson.steps)
        seconds = [0.0] * total
        at = [None, time.thread_time()]     # the step being run, and this thread's CPU clock when it began

        def before_action(step: int, _action: int) -> None:
            now = time.thread_time()
            if at[0] is not None:
                seconds[at[0]] += now - at[1]
            at[:] = [step, now]
            report(step, total)
        lessons.check(lesson, before_action)     # nothing runs half-way in front of a class
        if at[0] is not None:
            seconds[at[0]] += time.thread_time() - at[1]
        self.seconds = (lesson, seconds)
        return lesson

    # --- the GUI thread ------------------------------------------------------------------------------------------
    def _poll(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            done, total = self._progress
            if total:
                self.bar.setRange(0, total)
                self.bar.setValue(done)
                self.label.setText(self._progress_text(done, total))
            return
        self._finish()

    def _finish(self) -> bool | None:
        if self._thread is None:
            return None
        self._thread.join()
        self._thread = None
        self._timer.stop()
        self.row.hide()
        kind, value = self._outcome or ("cancelled", None)
        return self._done(kind, value)

    def _opened(self, kind: str, value) -> bool:
        if kind == "ok":
            ok = self._load(value)
        else:
            ok = False
            if kind == "refused":
                self._refuse(value)
            else:
                self._say(tr("Opening {path} was cancelled. The lesson shown is unchanged.").format(path=self._path))
        self.finished.emit(ok)
        return ok
