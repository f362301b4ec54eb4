"""The Lesson tab: a lesson (``bloomviz.lessons``) played step by step, and presenter mode for a lecture hall.

The tab drives a ``LessonRunner``, as ``bloomviz lesson --report`` does: the lesson runs on a workbench of its
own (the window's model), so walking a class through it never touches the window's filter. Next runs one step; Back restores the
state before it exactly (the runner replays from a kept state); the step list jumps; a move over steps the
opening's dry run measured heavy runs as a job with progress and Cancel (``stepping.py``). The grid shows the lesson's
filter with the last operation's positions lit (1 or 0), the narration the step's text (Markdown), and the
lines of numbers the step's report carries (``lessons.step_numbers``): m, k, n, bits set, the measured rate and
the exact one beside Bloom's classic formula, and what a design, formulas or an ensemble computed. The split
between grid and words is fitted to each step.

Presenter mode (``presenter.py``, F5, or the Present button) hides the step list and the top bar, shows the step
counter ("3 / 6") beside the title and sets the words in type sized to the screen's height (``set_presenting``,
``look.py``); ``shots.py`` draws every step that way to PNG. The step a lesson was left at is remembered
(``resume.py``, in the window's settings): opening it again offers "Resume at step N".

A step's ``slow=`` inserts and lookups and its ``autoplay`` are animated on the grid after Next
(``animation.py``), ending on the state the runner computed; ``show tab=``/``scenario=`` switches the window.

A step with a ``predict`` question shows it beside the narration (``widgets.predict_vote``): the class votes
(+1 per choice, a typed count, or the keys 1–9 in presenter mode), and Reveal (R, or Next) shows the filter's answer. Until
then the view keeps back what would give it away: the lookup's lit positions and verdict, the bits set, the
rates (``lessons.predict.hidden_until_reveal``). Each step's votes are kept, so Back shows them as they were.
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz import lessons
from bloomviz.lessons import step_numbers
from bloomviz.lessons.actions import REGISTRY
from bloomviz.lessons.predict import hidden_until_reveal
from bloomviz.filters import capabilities
from bloomviz.filters.registry import standard_formulas_apply
from bloomviz.gui.widgets.grid import BitGridWidget, GridLegend
from bloomviz.gui.files.file_dialogs import Dialogs
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.flow_layout import FlowLayout
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.gui.widgets.predict_vote import PredictPanel, Tally
from bloomviz.gui.lesson_tab import images as lesson_images, look, marks, stepping
from bloomviz.gui.lesson_tab.animation import StepAnimation
from bloomviz.gui.lesson_tab.opening import LessonOpening
from bloomviz.gui.lesson_tab.presenter import Presenter
from bloomviz.gui.lesson_tab.resume import Place
from bloomviz.gui.lesson_tab.show_action import show_in_window
from bloomviz.workbench.limits import MAX_M
from bloomviz.i18n import ntr, tr

TAB_KEY = "lesson"


class LessonView(Messages, QtWidgets.QWidget):
    stepChanged = QtCore.Signal(int)      # the number of steps taken
    showRequested = QtCore.Signal(object)  # a step's ``show`` record (tab= or scenario=), taken with Next

    class Error(Messages.Error):
        not_opened = Msg("Not opened: {problem}. The lesson shown is unchanged.")

    class Information(Messages.Information):
        opening = Msg("{progress}")     # LessonOpening's progress and cancel words
        stays = Msg("Cancelled: the lesson stays at step {position} of {total}.")
        opens_elsewhere = Msg("outside presenter mode this step opens {what}")

    def __init__(self, dialogs: Dialogs | None = None, parent=None):
        super().__init__(parent)
        self.dialogs = dialogs if dialogs is not None else Dialogs(self)
        self.lesson = None
        self.runner = None
        self.moving = False     # a Next, Back or jump runs as a job (stepping.py)
        self.choice = QtWidgets.QComboBox()
        for name in lessons.builtin_lessons():
            self.choice.addItem(tr(look.short_title(name)), name)
        self.open_button = QtWidgets.QPushButton(tr("Open a lesson file…"))
        self.back_button = QtWidgets.QPushButton(tr("◀ Back"))
        self.next_button = QtWidgets.QPushButton(tr("Next ▶"))
        self.present_button = QtWidgets.QPushButton(tr("Present (F5)"))
        self.present_button.setToolTip(tr("Full screen for a class: the grid and the words in large type, a step "
                                          "counter; PageDown next, PageUp back, a number and Enter jump, Esc leaves"))
        self.resume_button = QtWidgets.QPushButton()
        self.resume_button.hide()
        self.place = Place(self)     # where each lesson was left (the window gives it its settings)
        self.progress = QtWidgets.QLabel()
        self.counter = QtWidgets.QLabel()           # "3 / 6", beside the title in presenter mode
        self.counter.hide()
        self.steps = QtWidgets.QListWidget()     # its width follows the text size (look.apply_type)
        self.steps.setWordWrap(True)
        self.grid = BitGridWidget()
        self.grid.label_values = True           # a counter's value in its cell
        self.legend = GridLegend(self.grid)    # the Filter tab's key: one set of marks for both
        self.numbers = QtWidgets.QLabel()
        self.numbers.setWordWrap(True)
        self.numbers.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.narration = lesson_images.LessonTextBrowser(lambda: getattr(self.lesson, "path", None))
        self.narration.setOpenExternalLinks(False)
        # the clicker's keys (Space, PageDown, arrows) must reach presenter mode, not scroll the text
        self.narration.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.heading = QtWidgets.QLabel()           # the lesson's title
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.message = MessageBar()                 # under the title: a refusal, a cancel, a note
        self.bind_messages(self.message)
        self.computed = QtWidgets.QLabel()          # the numbers the step computed (a design, formulas, …)
        self.computed.setWordWrap(True)
        self.computed.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.computed.hide()
        # a step that computes without a filter (a design, formulas, an ensemble) draws its result here, large,
        # where the grid would be
        self.result = QtWidgets.QLabel()
        self.result.setObjectName("lessonResult")
        self.result.setWordWrap(True)
        self.result.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.result.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.result.hide()
        self.predict = PredictPanel()
        self.tallies: dict[int, Tally] = {}      # step number -> the class's votes on its question
        self._presenting, self._scale = False, -1
        self.animation = StepAnimation(self)

        top = FlowLayout()      # at 250 % text one row was wider than the window: the row wraps
        top.addWidget(QtWidgets.QLabel(tr("Lesson")))
        top.addWidget(self.choice)
        top.addWidget(self.open_button)
        top.addWidget(self.back_button)
        top.addWidget(self.next_button)
        top.addWidget(self.progress)
        top.addWidget(self.resume_button)
        top.addWidget(self.present_button)
        self.stage = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        self.stage.addWidget(self.grid)
        self.stage.addWidget(self.result)
        lower = QtWidgets.QWidget()
        lower_layout = QtWidgets.QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.legend)
        lower_layout.addWidget(self.numbers)
        lower_layout.addWidget(self.computed)
        words = QtWidgets.QHBoxLayout()
        words.addWidget(self.narration, 1)
        # the panel scrolls inside itself rather than making the view taller than the screen (the view sits in
        # the tab's scroll area, and presenter mode must never show a scroll bar)
        self.predict_box = QtWidgets.QScrollArea()
        self.predict_box.setWidgetResizable(True)
        self.predict_box.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.predict_box.setWidget(self.predict)
        self.predict_box.hide()
        words.addWidget(self.predict_box, 1)
        lower_layout.addLayout(words, 1)
        self.stage.addWidget(lower)
        self.stage.setStretchFactor(0, 3)
        self.stage.setStretchFactor(1, 2)
        body = QtWidgets.QHBoxLayout()
        body.addWidget(self.steps)
        body.addWidget(self.stage, 1)
        self.top_bar = QtWidgets.QWidget()
        self.top_bar.setLayout(top)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.top_bar)
        title_row = QtWidgets.QHBoxLayout()
        title_column = QtWidgets.QVBoxLayout()
        title_column.addWidget(self.heading)
        title_column.addWidget(self.message)
        title_row.addLayout(title_column, 1)
        title_row.addWidget(self.counter, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        layout.addLayout(title_row)
        layout.addLayout(body, 1)

        self.choice.activated.connect(lambda _i: self.load_builtin(self.choice.currentData()))
        self.open_button.clicked.connect(self.open_dialog)
        self.back_button.clicked.connect(self.back)
        self.next_button.clicked.connect(self.next)
        self.resume_button.clicked.connect(self.place.resume)
        self.steps.itemClicked.connect(lambda item: self.go_to(self.steps.row(item) + 1))
        # the grid keeps its zoom through a resize, which crops rows when a question takes room under it or
        # presenter mode resizes the window: a lesson's grid shows every cell, so it fits again once resized
        self.grid.view_box.sigResized.connect(lambda *_: QtCore.QTimer.singleShot(0, lambda: look.refit_grid(self.grid)))
        self.predict.revealed.connect(self._redraw)
        self.predict.changed.connect(self._redraw)
        self._text_size = look.follow_text_size(self)
        self.opening = LessonOpening(self, self.load, self._say_error,
                                     lambda text: self.show_only(self.Information.opening, progress=text))
        if self.choice.count():
            self.load_builtin(self.choice.itemData(0))

    # --- loading ---------------------------------------------------------------------------------------------
    def load_builtin(self, name: str) -> bool:
        try:
            return self.load(lessons.load_builtin(name))
        except lessons.LessonError as exc:
            self._say_error(exc)
            return False

    def open_dialog(self) -> bool:
        path = self.dialogs.open_path("Open a lesson", "Lessons (*.md *.markdown *.txt);;All files (*)")
        return self.open_path(path) if path else False

    def open_path(self, path: str) -> bool:
        """Start opening a lesson file as a job (``opening.py``): a malformed one is refused with its file, line
        and reason, the current lesson kept; ``opening.finished(bool)`` says how it ended."""
        return self.opening.start(path)

    def _say_error(self, exc: BaseException) -> None:
        # a lesson's refusal in the window's language (its str is the command line's English)
        self.show_only(self.Error.not_opened, problem=exc.said() if isinstance(exc, lessons.LessonError) else exc)

    def load(self, lesson) -> bool:
        self.animation.stop()
        self.lesson, self.runner = lesson, lessons.LessonRunner(lesson)
        self.tallies = {}
        # the combo names the lesson shown (a built-in opened from the command line too); a file, none of them
        path = lesson.path or ""
        self.choice.setCurrentIndex(self.choice.findData(path[len("builtin:"):]) if path.startswith("builtin:")
                                    else -1)
        self.predict_box.hide()
        self.steps.clear()
        for i, step in enumerate(lesson.steps, start=1):
            self.steps.addItem(f"{i}. {step.title}")
        self.heading.setText(lesson.title)
        self.clear_messages()
        self._set_words(marks.step_markdown(lesson.title, lesson.intro, "*" + tr("Next (or PageDown) starts the first step.") + "*"))
        self.grid.reset(1)
        self.grid.hide()          # no filter yet: no empty one-cell grid on the title page
        self.numbers.setText("")
        self.computed.hide()
        self._refresh_controls()
        self.place.offer()
        return True

    # --- stepping --------------------------------------------------------------------------------------------
    def next(self) -> bool:
        """The next step; on a question not yet revealed, the reveal first (a clicker has only Next). While a
        step is animated: a slow reveal's next hash, or an autoplay's end state."""
        if self.animation.running:
            self.animation.advance()
            return True
        if self.asking():
            return self.predict.reveal()
        if self.runner is None or self.runner.finished or self.opening.running:
            return False
        return stepping.move(self, self.runner.position + 1)    # at once, or a job when heavy (stepping.py)

    def stepped(self, report: dict) -> None:
        """A step taken with Next: shown, its ``show`` requests made, its motion started."""
        self.clear_messages()    # an earlier refusal or note is over
        self._show(report)
        for shown in report.requests():
            self.showRequested.emit(shown)
        # a verdict question hides the lookup until Reveal: its hashes, revealed slowly, would give it away
        asked = self.question()
        self.animation.start(report, hide_lookups=self.asking() and "last" in hidden_until_reveal(
            asked["kind"], tuple(asked["items"])))

    def back(self) -> bool:
        if self.runner is None or self.runner.position == 0 or self.opening.running:
            return False
        self.animation.stop()
        return stepping.move(self, self.runner.position - 1)

    def go_to(self, taken: int) -> None:
        """Show the lesson after ``taken`` steps (Back and Next as many times as it takes; questions passed on
        the way keep their votes and stay unrevealed; nothing is animated: ``--shots`` draws end states)."""
        self.animation.stop()
        if self.runner is not None and not self.opening.running:
            stepping.move(self, taken)

    # --- predict, then reveal ----------------------------------------------------------------------------------
    def question(self) -> dict | None:
        """The current step's predict record, or None."""
        if self.runner is None or not self.runner.reports or self.moving:
            return None
        return self.runner.reports[-1].asked

    def asking(self) -> bool:
        """A question is on screen and its answer not yet revealed."""
        return self.question() is not None and not self.tallies[self.runner.position].revealed

    def vote(self, choice: int) -> bool:
        return self.question() is not None and self.predict.vote(choice)

    def reveal(self) -> bool:
        return self.question() is not None and self.predict.reveal()

    def _redraw(self) -> None:
        if self.moving:         # a step runs on the worker: its state is not for drawing yet
            return
        if self.animation.running:
            if not self.asking():       # revealed: the answer's picture is the end state
                self.animation.finish()
            return
        if self.runner is not None and self.runner.reports:
            self._show(self.runner.reports[-1])

    def show_report(self, report: dict) -> None:
        """A step's end state (an animation's last picture)."""
        self._show(report)

    def show_motion(self, text: str) -> None:
        """An animation's line under the grid (rich text), in place of the step's numbers until it ends."""
        self.numbers.setText(text)

    def draw_filter(self, flt):
        """The grid showing ``flt`` (bits, or counters; every stage of a scalable one); the values drawn."""
        return marks.draw_filter(self.grid, flt, self._presenting, self.animation.running)

    def _question(self, report: dict) -> tuple[dict | None, set, bool]:
        """The step's question shown beside the narration: (its record, the report's fields it keeps hidden
        until Reveal, whether it is revealed); (None, ∅, True) for a step that asks nothing."""
        asked = report.asked
        if asked is None:
            self.predict_box.hide()
            return None, set(), True
        tally = self.tallies.setdefault(report.step, Tally([0] * len(asked["choices"])))
        if self.predict.record is not asked or self.predict.tally is not tally:
            self.predict.show_question(asked, tally)
        self.predict_box.show()
        if tally.revealed:
            return asked, set(), True
        return asked, hidden_until_reveal(asked["kind"], tuple(asked["items"])), False

    def _draw_step(self, report: dict, flt, hidden: set, revealed: bool) -> dict:
        """The lesson's filter on the grid with the step's marks; the counters of a counting filter's lit cells."""
        values = self.draw_filter(flt)
        marks.show_bands(self.grid, self.legend, flt, (report.last or {}).get("positions", ()))
        last = {} if "last" in hidden else report.last or {}
        positions, kinds = marks.last_marks(last, values, flt.m)
        counters = {}
        if capabilities.max_value(flt) > 1:     # counters, which the grid shows only as shades
            counters = {p: int(values[p]) for p in dict.fromkeys(positions)}
        if positions:
            self.grid.highlight(positions, kinds)
        else:
            self.grid.clear_highlight()
        for shown in report.window:
            spec = REGISTRY.get(shown["action"])      # what the action's declaration lights
            lit, lit_kinds = spec.marks(shown, values, revealed) if spec is not None else ([], [])
            if lit:
                self.grid.highlight(lit, lit_kinds)
        return counters

    def _show(self, report: dict) -> None:
        step = self.lesson.steps[report.step - 1]
        flt = self.runner.state.filter
        asked, hidden, revealed = self._question(report)
        # the words written below a predict block explain the answer: they wait for Reveal too
        self._set_words(marks.step_markdown(step.title, step.narration, step.after_reveal if revealed else ""))
        # a step about other filters (a design, formulas, an ensemble) shows its numbers, not the filter left over
        theory = step_numbers.theory_only(step)
        shown_filter = flt is not None and flt.m <= MAX_M and not theory
        self.grid.setVisible(shown_filter)
        counters = self._draw_step(report, flt, hidden, revealed) if shown_filter else {}
        line = [] if theory else step_numbers.filter_line({k: (None if k in hidden else v) for k, v in report.items()},
                                                          standard_formulas_apply(flt), counters)
        banner = "" if theory or "last" in hidden else marks.verdict_banner(report.last or {})
        self.numbers.setText((banner + "<br>" if banner else "") + " · ".join(html.escape(str(p)) for p in line))
        self.legend.setVisible(shown_filter)
        if shown_filter:
            self.legend.refresh()
        computed = "<br>".join(html.escape(text) for text in step_numbers.computed_lines(report))
        picture = theory and bool(computed)       # the step's result as its picture, not a line of body text
        self.result.setText(computed if picture else "")
        self.result.setVisible(picture)
        self.computed.setText("" if picture else computed)
        self.computed.setVisible(bool(computed) and not picture)
        self._fit_stage()
        self._refresh_controls()
        self.stepChanged.emit(self.runner.position)

    def _set_words(self, markdown: str) -> None:
        self.narration.document().setMarkdown(
            markdown, QtGui.QTextDocument.MarkdownFeature.MarkdownDialectCommonMark |
            QtGui.QTextDocument.MarkdownFeature.MarkdownNoHTML)    # a lesson is text, never markup to run

    def _fit_stage(self) -> None:
        look.fit_stage(self)

    def keyPressEvent(self, event) -> None:
        # Space is Next outside presenter mode too (a key event, not a shortcut: slow motion's panel has Space,
        # and presenter mode its own); a focused button takes Space as a click before it reaches here
        if event.key() == QtCore.Qt.Key.Key_Space and not self._presenting:
            self.next()
            return
        super().keyPressEvent(event)

    def heightForWidth(self, width: int) -> int:
        # the tab's scroll area would make the view as tall as its wrapped labels' preferred heights (a scroll bar
        # in presenter mode); the stage fits itself to the height it gets instead
        return self.minimumSizeHint().height()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._presenting:
            self.retype()
        # a new window size (presenter mode, a projector) re-splits the stage by stretch: the question needs its room
        QtCore.QTimer.singleShot(0, self._fit_stage)

    def set_presenting(self, on: bool) -> None:
        """Presenter mode's look: no step list or top bar, the words in large type (the grid keeps its room)."""
        self.steps.setVisible(not on)
        self.top_bar.setVisible(not on)
        self._presenting = on
        self.retype(again=True)
        self._redraw()          # the grid's shape for the stage: wider in presenter mode

    def retype(self, again: bool = False) -> None:
        """The stage's type for presenter mode's height or the window's text size (``again``: even unchanged)."""
        height = self.window().height() if self._presenting else 0
        if height and not again and abs(height - self._scale) < 8:
            return
        self._scale = height
        look.apply_type(self, height)
        self._fit_stage()

    def refresh_counter(self) -> None:
        total = len(self.lesson.steps) if self.lesson else 0
        self.counter.setText(f"{self.runner.position if self.runner else 0} / {total}")

    def _refresh_controls(self) -> None:
        total = len(self.lesson.steps) if self.lesson else 0
        taken = self.runner.position if self.runner else 0
        self.progress.setText(tr("step {taken} of {total}").format(taken=taken, total=total) if taken
                              else ntr("{total} step", "{total} steps", total).format(total=total))
        self.refresh_counter()
        self.place.remember(taken)
        self.back_button.setEnabled(taken > 0)
        self.next_button.setEnabled(self.runner is not None and not self.runner.finished)
        if taken:
            self.steps.setCurrentRow(taken - 1)


def install(window) -> LessonView:
    view = LessonView()
    index = window.add_tab(TAB_KEY, "Lesson", view, "Step-by-step lessons from the seeds; F5 presents one full "
                                                     "screen")
    # beside the Start page, not past the tab bar's scroll arrow behind the other views
    window.tabs.tabBar().moveTab(index, max(window.tab_index("start"), 0) + 1)
    window.lesson_view = view
    view.place.settings = window.settings
    view.place.offer()
    presenter = Presenter(window, view, TAB_KEY)
    window.presenter = presenter
    presenter.add_actions(lambda: window.show_tab(TAB_KEY))
    view.present_button.clicked.connect(presenter.enter)
    view.showRequested.connect(lambda shown: show_in_window(window, view, shown))
    return view
