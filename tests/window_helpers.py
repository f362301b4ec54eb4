"""What the window tests share: a window on throwaway settings, the File menu's dialogs answered by the test,
and a wait for a layout to settle.

The one window fixture, built from ``new_window``, is ``window`` in tests/conftest.py; nothing here is a
fixture itself, so no test gets a window it did not ask for.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.main_window import MainWindow
from bloomviz.gui.workbench import QtWorkbench


def new_window(qtbot, tmp_path, probes: int = 300) -> MainWindow:
    """A main window whose preferences go to a settings file in ``tmp_path`` (never the user's)."""
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    window = MainWindow(workbench=QtWorkbench(probes=probes), settings=settings)
    qtbot.addWidget(window)
    return window


class FakeDialogs:
    """Records every question and message; never shows a modal dialog. ``open_paths``/``save_paths``: the paths
    the next file dialogs return ("" = cancelled); ``unsaved_answer``: the answer to "discard your changes?"."""

    def __init__(self, unsaved_answer: str = "cancel"):
        self.errors, self.infos, self.asked = [], [], []
        self.open_paths, self.save_paths = [], []
        self.unsaved_answer = unsaved_answer

    def open_path(self, title, filters, directory=""):
        return self.open_paths.pop(0) if self.open_paths else ""

    def open_directory(self, title, directory=""):
        return self.open_paths.pop(0) if self.open_paths else ""

    def save_path(self, title, filters, default=""):
        return self.save_paths.pop(0) if self.save_paths else ""

    def ask_unsaved(self, text):
        self.asked.append(text)
        return self.unsaved_answer

    def error(self, title, text, details=""):
        self.errors.append((title, text, details))

    def info(self, title, text, details=""):
        self.infos.append((title, text, details))


def _geometry(widget: QtWidgets.QWidget) -> list:
    """Where ``widget`` and every visible widget in it lie, and for a graphics view (pyqtgraph's plots and the
    grid) where its scene's laid-out items lie."""
    shown = [widget, *(w for w in widget.findChildren(QtWidgets.QWidget) if w.isVisible())]
    seen = [(w.geometry(), w.isVisible()) for w in shown]
    for view in (w for w in shown if isinstance(w, QtWidgets.QGraphicsView) and w.scene() is not None):
        seen += [item.sceneBoundingRect() for item in view.scene().items()
                 if isinstance(item, QtWidgets.QGraphicsWidget) and item.isVisible()]
    return seen


def settle(qtbot, *widgets, state=None, turns: int = 3, timeout: int = 20_000) -> None:
    """Wait until the layout of ``widgets`` has settled: their geometry (and ``state()``, if given: what else the
    test reads, a grid's drawn window) the same over ``turns`` checks in a row, each after a turn of the event
    loop. Layout passes are posted events that post more (a resize, the legend placed for it, a dock's width),
    a few deep; this waits for them however long a loaded machine takes, where a fixed sleep guessed."""
    last, same = [None], [0]

    def settled() -> bool:
        QtWidgets.QApplication.sendPostedEvents()
        now = [_geometry(w) for w in widgets] + [state() if state is not None else None]
        same[0] = same[0] + 1 if now == last[0] else 0
        last[0] = now
        return same[0] >= turns

    qtbot.waitUntil(settled, timeout=timeout)
