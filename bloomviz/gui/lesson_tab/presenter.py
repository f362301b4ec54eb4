"""Presenter mode (F5, or View → Presenter mode) for a lecture hall: full screen, panels, menus and tabs hidden,
the Lesson tab's grid as large as the screen allows with its words in large type (``LessonView.set_presenting``).

A clicker's keys: PageDown, Right or Space next (on an unrevealed question, Next reveals first); PageUp or Left
back; B blanks the screen (again to show it); 1–9 add a vote to that choice of the step's question, R reveals;
with no question open, a number and Enter jump to that step (the counter shows "go to 4"), Home to the title
page, End to the last step, C to the step the lesson was left at last time; Esc leaves, putting every panel back
as it was. The keys are application shortcuts, enabled only while
presenting, so they work whatever has the focus and never clash with the window's own.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui import theme
from bloomviz import lessons
from bloomviz.i18n import ntr, tr


def lessons_tip() -> str:
    """View → Lessons' tip, with the number of built-in lessons there are (in the window's language)."""
    count = len(lessons.builtin_lessons())
    return ntr("The Lesson tab: {count} lesson, step by step, for a class or alone",
               "The Lesson tab: {count} lessons, step by step, for a class or alone", count).format(count=count)


class Presenter(QtCore.QObject):
    """Full screen for a lecture: the lesson's grid and narration only, a clicker's keys, B to blank."""

    def __init__(self, window, view, tab_key: str):
        super().__init__(window)
        self._window, self._view, self._tab_key = window, view, tab_key
        self._saved = None
        self._blank = QtWidgets.QWidget(window)
        self._blank.setStyleSheet(f"background: {theme.PRESENTER_BLANK};")
        self._blank.hide()
        self.typed = ""          # the digits of a step to jump to, until Enter
        keys = {self._view.next: ("PgDown", "Right", "Space"), self._view.back: ("PgUp", "Left"),
                self.toggle_blank: ("B",), self.leave: ("Esc",), self._view.reveal: ("R",),
                self.jump: ("Return", "Enter"), lambda: self._view.go_to(0): ("Home",),
                lambda: self._view.go_to(len(self._view.lesson.steps)): ("End",),
                self._view.place.resume: ("C",)}
        for n in range(0, 10):      # a vote for choice n as hands go up; else a digit of a step to jump to
            keys[lambda n=n: self.digit(n)] = (str(n),)
        self._shortcuts = []
        for slot, names in keys.items():
            for name in names:
                sc = QtGui.QShortcut(QtGui.QKeySequence(name), window, slot,
                                     context=QtCore.Qt.ShortcutContext.ApplicationShortcut)
                sc.setEnabled(False)
                self._shortcuts.append(sc)

    def add_actions(self, show_lessons) -> None:
        """View → Presenter mode (F5) and View → Lessons (Alt+L, ``show_lessons``), also with the menus hidden."""
        w = self._window
        for text, key, tip, slot in (
                ("Presenter mode", "F5", "Full screen: the lesson's grid and narration in large type; PageDown/"
                 "Right/Space next, PageUp/Left back, a number and Enter jump to that step, C resumes, 1–9 vote, "
                 "R reveals, B blanks, Esc leaves", self.toggle),
                ("Lessons", "Alt+L", lessons_tip(), show_lessons)):
            action = QtGui.QAction(tr(text), w)
            action.setShortcut(QtGui.QKeySequence(key))
            action.setStatusTip(tr(tip))
            action.triggered.connect(slot)
            w.addAction(action)
            w.menu("&View").addAction(action)

    def digit(self, n: int) -> None:
        """A vote for choice n while a question is open (1–9), else a digit of the step to jump to."""
        if self._view.asking():
            if n:
                self._view.vote(n - 1)
            return
        self.typed = (self.typed + str(n))[-3:]
        self._view.counter.setText(f"go to {self.typed}")

    def jump(self) -> bool:
        """Enter after a number: that step (0 the title page), if the lesson has it; the counter shows the step."""
        typed, self.typed = self.typed, ""
        if typed and self._view.lesson is not None and int(typed) <= len(self._view.lesson.steps):
            self._view.go_to(int(typed))
        self._view.refresh_counter()
        return bool(typed)

    @property
    def active(self) -> bool:
        return self._saved is not None

    def toggle(self) -> None:
        self.leave() if self.active else self.enter()

    def enter(self) -> None:
        if self.active:
            return
        w = self._window
        docks = [d for d in w.findChildren(QtWidgets.QDockWidget) if d.isVisible()]
        self._saved = {"state": w.saveState(), "geometry": w.saveGeometry(), "docks": docks,
                       "tab": w.tabs.currentIndex()}
        for dock in docks:
            dock.hide()
        w.menuBar().hide()
        w.statusBar().hide()
        w.tabs.tabBar().hide()
        self._view.set_presenting(True)
        w.show_tab(self._tab_key)
        w.showFullScreen()
        screen = w.screen()
        if screen is not None and w.geometry() != screen.geometry():
            # without a window manager (a bare X server) full screen only sets a flag: size it by hand
            w.setGeometry(screen.geometry())
            w.setWindowState(w.windowState() | QtCore.Qt.WindowState.WindowFullScreen)
        # Esc cancels bulk work elsewhere in the window: while presenting it means "leave" (two actions on one
        # key would make Qt run neither)
        self._saved["esc"] = [(a, a.shortcuts()) for a in w.findChildren(QtGui.QAction)
                              if QtGui.QKeySequence("Esc") in a.shortcuts()]
        for a, _keys in self._saved["esc"]:
            a.setShortcuts([])
        for sc in self._shortcuts:
            sc.setEnabled(True)
        self._view.setFocus()

    def leave(self) -> None:
        if not self.active:
            return
        w, saved = self._window, self._saved
        self._saved = None
        for sc in self._shortcuts:
            sc.setEnabled(False)
        for a, keys in saved["esc"]:
            a.setShortcuts(keys)
        self._blank.hide()
        w.showNormal()
        w.restoreGeometry(saved["geometry"])
        w.menuBar().show()
        w.statusBar().show()
        w.tabs.tabBar().show()
        self._view.set_presenting(False)
        w.tabs.setCurrentIndex(saved["tab"])   # first: the window shows or hides docks by tab
        w.restoreState(saved["state"])
        for dock in saved["docks"]:
            dock.show()

    def toggle_blank(self) -> None:
        if self._blank.isVisible():
            self._blank.hide()
        else:
            self._blank.setGeometry(self._window.rect())
            self._blank.raise_()
            self._blank.show()

    @property
    def blanked(self) -> bool:
        return self._blank.isVisible()
