"""Scenarios in the window: a Scenarios menu, a start page, and the runner that plays a scenario.

``install(window)`` adds the menu (one action per scenario, and the start page), the "Start" tab and the
"Scenario" dock (``bloomviz.gui.scenarios_tab.panel``) to a ``MainWindow``, and returns the ``ScenarioController``
(the window keeps it as ``window.scenarios``: ``gui/extensions.py``). Running a scenario goes through the workbench only: ``configure`` with
the scenario's m and k, the items inserted (in chunks from the event loop when there are many, all or nothing),
then the scenario's story, numbers plugged in, in the explain panel (``explain_note``).
"""

from __future__ import annotations

import html
from typing import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.scenarios.datasets import DatasetError
from bloomviz.scenarios.base import Scenario
from bloomviz.scenarios.stories import SCENARIOS, get_scenario
from bloomviz.gui.scenarios_tab.panel import ScenarioPanel
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.gui.widgets.flow_layout import FlowLayout
from bloomviz.i18n import number, ptr, tr

SINGLES_LIMIT = 64   # up to this many items go in one by one
SYNC_LIMIT = 5_000     # up to this many items go in at once; more run as a chunked job with progress and cancel

INTRO = ("<h1 style='margin:0'>bloomviz</h1>"
         "<p style='font-size:large'>A Bloom filter answers “is this in the set?” with m bits and k hash "
         "functions: “definitely not” or “probably yes”.<br>"
         "Here every insert and lookup lights its k bits on the grid, and the false-positive rate is measured "
         "live against theory.<br>"
         "Start with a lesson or a story below, or type a word on the Filter tab and press Enter.</p>")
LESSONS = ("<h2 style='margin:0'>Lessons</h2>"
           "<p><b>A teacher</b>: nine lessons, step by step, with questions the class votes on. "
           "<b>Present</b> (F5) shows one full screen in type a hall can read: PageDown next, PageUp back, a "
           "number and Enter jump to a step, 1–9 vote, R reveals, B blanks, Esc leaves. From a terminal: "
           "<code>bloomviz lesson 1 --present</code>.<br>"
           "<b>A student</b>: on the Filter tab type a few words, then <b>Find a false positive</b> "
           "(Ctrl+Shift+F): a word you never typed that the filter says is probably there. Slow motion "
           "(Ctrl+Alt+I) shows an insert one hash at a time; Ctrl+E opens the Parameter explorer.</p>")
# the keys a newcomer looks for first, listed before the rest
FIRST_KEYS = ("Presenter mode", "Lessons", "Find a false positive", "Insert in slow motion", "Look up in slow motion",
              "Parameter explorer", "Bloom filters in one page")


class ScenarioRunner(QtCore.QObject):
    """Plays a scenario on the workbench. ``finished(key)`` once its data are in and its story is told."""

    started = QtCore.Signal(str)
    finished = QtCore.Signal(str)
    failed = QtCore.Signal(str, str)     # key, message

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self.wb = workbench
        self.scenario: Scenario | None = None
        self.story: list[str] = []
        self._cache: dict[str, Scenario] = {}
        self._pending: str | None = None
        self._before = None      # the user's state, put back exactly if the scenario is cancelled or fails
        workbench.jobFinished.connect(self._on_job_finished)

    def get(self, key: str) -> Scenario:
        if key not in self._cache:
            self._cache[key] = get_scenario(key)
        return self._cache[key]

    @property
    def running(self) -> bool:
        return self._pending is not None

    def run(self, key: str) -> bool:
        """Set the scenario's parameters and insert its data. False (and ``failed``) when it cannot start."""
        if self.wb.busy:
            self.failed.emit(key, "Another bulk insert is running; cancel it first (Esc).")
            return False
        try:
            scenario = self.get(key)
            items = scenario.items
            design = scenario.design()
        except (DatasetError, OSError, ValueError) as exc:
            self.failed.emit(key, f"The scenario could not load its data: {exc}")
            return False
        before = self.wb.snapshot()
        if not self.wb.configure(design.m, design.k, design.scheme, capacity=design.capacity):
            self.failed.emit(key, tr("The scenario's parameters were refused (see the status bar)."))
            return False
        self.scenario, self.story = scenario, []
        self.started.emit(key)
        if len(items) <= SINGLES_LIMIT:
            # A handful (the address book): one insert each, so the history lists every one.
            if sum(self.wb.insert(item) is not None for item in items) != len(items):
                self._put_back(key, before, tr("The scenario's items were refused (see the status bar)"))
                return False
            self._tell(key)
            return True
        if len(items) <= SYNC_LIMIT:
            if self.wb.insert_batch(items) != len(items):
                self._put_back(key, before, tr("The scenario's items were refused (see the status bar)"))
                return False
            self._tell(key)
            return True
        position = [0]

        def source(count: int) -> list:
            chunk = items[position[0]: position[0] + count]
            position[0] += len(chunk)
            return chunk

        self._pending, self._before = key, before
        if not self.wb.run_job(source, len(items), ptr("job", "items of “{title}”").format(
                title=tr(scenario.title)), atomic=True):
            self._pending = self._before = None
            self._put_back(key, before, tr("Another bulk insert is running; cancel it first (Esc)"))
            return False
        return True

    def _put_back(self, key: str, before, why: str) -> None:
        self.wb.restore(before)
        self.failed.emit(key, tr("{why}; the filter was put back as it was before the scenario started ({count} "
                                 "inserted items).").format(why=why, count=number(before.inserts)))

    def _on_job_finished(self, done: int, total: int, cancelled: bool) -> None:
        key, self._pending = self._pending, None
        before, self._before = self._before, None
        if key is None:
            return
        if cancelled:
            self._put_back(key, before, tr("Cancelled after {done} of {total} items").format(done=number(done),
                                                                                           total=number(total)))
            return
        self._tell(key)

    def _tell(self, key: str) -> None:
        scenario = self._cache[key]
        self.story = scenario.story(self.wb.filter)
        self.wb.explain_note(tr("Scenario: {title}").format(title=tr(scenario.title)), "\n\n".join(self.story))
        self.finished.emit(key)


class StartPage(QtWidgets.QScrollArea):
    """What bloomviz is, the scenarios as cards with a Run button each, and the key shortcuts."""

    runRequested = QtCore.Signal(str)
    lessonRequested = QtCore.Signal(bool)     # True: present it (F5)
    findRequested = QtCore.Signal()

    def __init__(self, shortcuts: list[tuple[str, str]] | Callable[[], list[tuple[str, str]]], parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        body = QtWidgets.QWidget()
        body.setObjectName("startPage")
        layout = QtWidgets.QVBoxLayout(body)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.setSpacing(14)
        intro = QtWidgets.QLabel(tr(INTRO))
        intro.setWordWrap(True)
        intro.setTextFormat(QtCore.Qt.TextFormat.RichText)
        layout.addWidget(intro)
        layout.addWidget(self._lessons())

        heading = QtWidgets.QLabel("<h2 style='margin:0'>" + tr("Scenarios") + "</h2>")
        layout.addWidget(heading)
        cards = QtWidgets.QGridLayout()
        cards.setSpacing(12)
        self.run_buttons: dict[str, QtWidgets.QPushButton] = {}
        for i, (key, cls) in enumerate(SCENARIOS.items()):
            cards.addWidget(self._card(key, cls), i // 2, i % 2)
        layout.addLayout(cards)

        keys = QtWidgets.QLabel()
        keys.setTextFormat(QtCore.Qt.TextFormat.RichText)
        keys.setWordWrap(True)      # a long key's words wrap in their cell instead of widening the page
        # the window's parts install their actions after this page exists: the keys are read when it is shown
        self._shortcuts = shortcuts if callable(shortcuts) else (lambda: shortcuts)
        self.shortcuts_label = keys
        self.refresh_keys()
        layout.addWidget(keys)
        layout.addStretch(1)
        self.setWidget(body)

    def _lessons(self) -> QtWidgets.QWidget:
        box = QtWidgets.QFrame()
        box.setObjectName("lessonsCard")
        box.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        inner = QtWidgets.QVBoxLayout(box)
        words = QtWidgets.QLabel(tr(LESSONS))
        words.setWordWrap(True)
        words.setTextFormat(QtCore.Qt.TextFormat.RichText)
        inner.addWidget(words)
        row = FlowLayout()      # at 250 % the three side by side were wider than the window: the page scrolled
        self.lesson_button = QtWidgets.QPushButton(tr("Open the first lesson"))
        self.present_button = QtWidgets.QPushButton(tr("Present it (F5)"))
        self.find_button = QtWidgets.QPushButton(tr("Find a false positive (Ctrl+Shift+F)"))
        self.lesson_button.clicked.connect(lambda: self.lessonRequested.emit(False))
        self.present_button.clicked.connect(lambda: self.lessonRequested.emit(True))
        self.find_button.clicked.connect(self.findRequested.emit)
        for button in (self.lesson_button, self.present_button, self.find_button):
            row.addWidget(button)
        inner.addLayout(row)
        return box

    def refresh_keys(self) -> None:
        pairs = sorted(self._shortcuts(), key=lambda p: next(
            (i for i, name in enumerate(FIRST_KEYS) if p[0].startswith(tr(name))), len(FIRST_KEYS)))
        rows = "".join(f"<tr><td style='padding:1px 16px 1px 0'><b>{html.escape(s)}</b></td>"
                       f"<td>{html.escape(t)}</td></tr>" for t, s in pairs)
        self.shortcuts_label.setText(f"<h2 style='margin:0'>{tr('Keys')}</h2><table cellspacing='0'>{rows}</table>")

    def showEvent(self, event) -> None:
        self.refresh_keys()
        super().showEvent(event)

    def _card(self, key: str, cls: type[Scenario]) -> QtWidgets.QFrame:
        card = QtWidgets.QFrame()
        card.setObjectName(f"card_{key}")
        card.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        box = QtWidgets.QVBoxLayout(card)
        title = QtWidgets.QLabel(f"<b style='font-size:large'>{html.escape(tr(cls.title))}</b>")
        title.setWordWrap(True)
        line = QtWidgets.QLabel(html.escape(tr(cls.tagline)))
        line.setWordWrap(True)
        button = QtWidgets.QPushButton(tr("Run “{title}”").format(title=tr(cls.title)))
        button.setToolTip(tr("Make the filter of this story, insert its data and explain it. Data: {data} "
                             "(assets/datasets).").format(data=", ".join(cls.datasets)))
        button.clicked.connect(lambda _=False, k=key: self.runRequested.emit(k))
        self.run_buttons[key] = button
        row = QtWidgets.QHBoxLayout()
        row.addStretch(1)
        row.addWidget(button)
        box.addWidget(title)
        box.addWidget(line, 1)
        box.addLayout(row)
        return card


def window_shortcuts(window: QtWidgets.QWidget) -> list[tuple[str, str]]:
    """(action text, shortcut) for every action of the window that has a shortcut, menus' order aside."""
    out: dict[str, str] = {}
    for act in window.findChildren(QtGui.QAction):
        seq = act.shortcut()
        if seq.isEmpty():
            continue
        text = act.text().replace("&", "")
        out.setdefault(text, seq.toString(QtGui.QKeySequence.SequenceFormat.NativeText))
    return list(out.items())


class ScenarioController(QtCore.QObject):
    """Glue between the window, the runner, the start page and the scenario panel."""

    def __init__(self, window, ask: Callable[[str, str], bool] | None = None):
        super().__init__(window)
        self.window = window
        self.runner = ScenarioRunner(window.wb, self)
        self.panel = ScenarioPanel(window.wb, self.runner, ask=ask)
        self.dock = window.add_dock("scenario", "Scenario", self.panel, QtCore.Qt.DockWidgetArea.LeftDockWidgetArea)
        # A tab beside auto-play rather than a fourth panel in the left column, which is full already.
        beside = window.docks.get("autoplay")
        if beside is not None:
            window.tabifyDockWidget(beside, self.dock)
            beside.raise_()
        self.menu = window.menu("&Scenarios")
        self.actions: dict[str, QtGui.QAction] = {}
        start = QtGui.QAction(tr("Start page"), window)
        start.setShortcut(QtGui.QKeySequence("Alt+0"))
        start.setStatusTip(tr("What bloomviz is, the scenarios and the keys."))
        start.triggered.connect(lambda: window.show_tab("start"))
        self.menu.addAction(start)
        self.menu.addSeparator()
        for i, (key, cls) in enumerate(SCENARIOS.items(), start=1):
            act = QtGui.QAction(f"&{i} {tr(cls.title)}", window)
            act.setShortcut(QtGui.QKeySequence(f"Alt+{i}"))
            act.setStatusTip(tr(cls.tagline))
            act.setToolTip(tr(cls.tagline))
            act.triggered.connect(lambda _=False, k=key: self.run(k))
            self.menu.addAction(act)
            self.actions[key] = act
        window.addActions(list(self.actions.values()) + [start])
        self.start_action = start
        self.start_page = StartPage(lambda: window_shortcuts(window))
        self.start_page.runRequested.connect(self.run)
        self.start_page.lessonRequested.connect(self._lesson)
        self.start_page.findRequested.connect(self._find)
        # the parts installed after the first paint bring keys of their own (F5, Ctrl+Shift+F ...)
        window.partsInstalled.connect(self.start_page.refresh_keys)
        window.add_tab("start", "Start", self.start_page, "What bloomviz is, stories to run, and the keys.")
        self.runner.failed.connect(self._on_failed)
        # what the File menu says of the window before a scenario: a scenario that fails or is cancelled puts the
        # filter back, and the window is then as unsaved (or saved) as it was, its loaded base and seed kept
        self._file_kept = None
        self.runner.finished.connect(self._forget_file_state)

    def _lesson(self, present: bool) -> None:
        if hasattr(self.window, "install_remaining_parts"):
            self.window.install_remaining_parts()    # a click before the Lesson tab's idle turn came
        view = getattr(self.window, "lesson_view", None)
        if view is None:
            return
        if view.lesson is None or view.lesson.path != f"builtin:{view.choice.itemData(0)}":
            view.load_builtin(view.choice.itemData(0))
        self.window.show_tab("lesson")
        if present:
            self.window.presenter.enter()

    def _find(self) -> None:
        self.window.show_tab("filter")
        action = next((a for a in self.window.findChildren(QtGui.QAction)
                       if a.text().replace("&", "") == tr("Find a &false positive").replace("&", "")), None)
        if action is not None:
            action.trigger()

    def run(self, key: str) -> bool:
        if not self.window.wb.busy and not self._may_replace(key):
            return False
        files = self.window.file_actions
        self._file_kept = files.file.keep() if files is not None else None
        self.window.show_tab("filter")
        self.dock.show()
        self.dock.raise_()
        return self.runner.run(key)

    def _may_replace(self, key: str) -> bool:
        """Ask before a scenario replaces the user's filter, as New and Open do (unsaved items: Save/Discard/Cancel)."""
        title = SCENARIOS[key].title if key in SCENARIOS else key
        files = self.window.file_actions
        if files is not None:
            return files.maybe_discard(tr("run the scenario “{title}”").format(title=tr(title)))
        n = len(self.window.wb.filter)
        return not n or self.window.params_panel.confirm(
            tr("Run the scenario “{title}”? The filter's {count} inserted items are discarded.").format(
                title=tr(title), count=number(n)))

    def _on_failed(self, key: str, message: str) -> None:
        if self._file_kept is not None:
            self.window.file_actions.file.put_back(self._file_kept)
        self._forget_file_state()
        self.window.statusBar().showMessage(message, 10_000)

    def _forget_file_state(self, *_args) -> None:
        self._file_kept = None


def install(window, ask: Callable[[str, str], bool] | None = None) -> ScenarioController:
    """Add the Scenarios menu, the Start tab and the Scenario dock to ``window`` (a MainWindow).

    ``ask(title, question) -> bool`` answers the scenarios' yes/no prompts ("Save contact?"); by default a
    QMessageBox asks. Tests pass their own so nothing blocks.
    """
    return ScenarioController(window, ask=ask)
