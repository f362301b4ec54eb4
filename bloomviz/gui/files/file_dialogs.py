"""The questions and messages of the File menu, behind one small object so tests can answer them.

``Dialogs`` shows real modal dialogs. Tests give the file actions an object with the same methods that records
the calls and returns canned answers, so no test ever waits on a modal dialog. The ``*_box`` builders return the
message boxes unshown, so a test can also show one, take its picture and close it.
"""

from __future__ import annotations

from PySide6 import QtWidgets

from bloomviz.gui.plain_text import PLAIN
from bloomviz.i18n import tr

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"

_Button = QtWidgets.QMessageBox.StandardButton
_Icon = QtWidgets.QMessageBox.Icon


def unsaved_box(parent, text: str) -> QtWidgets.QMessageBox:
    box = QtWidgets.QMessageBox(parent)
    box.setIcon(_Icon.Warning)
    box.setWindowTitle(tr("Unsaved changes"))
    box.setText(text)
    box.setInformativeText(tr("Discarding loses the inserts and lookups made since the last save."))
    box.setStandardButtons(_Button.Save | _Button.Discard | _Button.Cancel)
    box.setDefaultButton(_Button.Save)
    box.setEscapeButton(_Button.Cancel)
    return box


def message_box(parent, title: str, text: str, details: str = "", warning: bool = True) -> QtWidgets.QMessageBox:
    box = QtWidgets.QMessageBox(parent)
    box.setIcon(_Icon.Warning if warning else _Icon.Information)
    box.setWindowTitle(tr(title))     # the callers' titles are fixed English words ("Open a session")
    box.setTextFormat(PLAIN)          # the text quotes a file's name or a file's bytes: never markup (plain_text)
    box.setText(text)
    if details:
        box.setDetailedText(details)
    box.setStandardButtons(_Button.Ok)
    return box


class Dialogs:
    """Modal dialogs parented to ``parent``. Every method returns plain values."""

    def __init__(self, parent=None):
        self.parent = parent

    def open_path(self, title: str, filters: str, directory: str = "") -> str:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self.parent, tr(title), directory, filters)
        return path

    def open_directory(self, title: str, directory: str = "") -> str:
        return QtWidgets.QFileDialog.getExistingDirectory(self.parent, tr(title), directory)

    def save_path(self, title: str, filters: str, default: str = "") -> str:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self.parent, tr(title), default, filters)
        return path

    def ask_unsaved(self, text: str) -> str:
        """SAVE, DISCARD or CANCEL."""
        answer = unsaved_box(self.parent, text).exec()
        return {_Button.Save: SAVE, _Button.Discard: DISCARD}.get(_Button(answer), CANCEL)

    def error(self, title: str, text: str, details: str = "") -> None:
        message_box(self.parent, title, text, details, warning=True).exec()

    def info(self, title: str, text: str, details: str = "") -> None:
        message_box(self.parent, title, text, details, warning=False).exec()
