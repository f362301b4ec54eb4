"""What the window tests share: a window on throwaway settings, and the File menu's dialogs answered by the test.

A test module builds its own fixture from these (each wants its own probes, parts and answers); nothing here is
a fixture itself, so no test gets a window it did not ask for.
"""

from __future__ import annotations

from PySide6 import QtCore

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

    def save_path(self, title, filters, default=""):
        return self.save_paths.pop(0) if self.save_paths else ""

    def ask_unsaved(self, text):
        self.asked.append(text)
        return self.unsaved_answer

    def error(self, title, text, details=""):
        self.errors.append((title, text, details))

    def info(self, title, text, details=""):
        self.infos.append((title, text, details))
