"""The File menu's files: sessions (``.bloomviz``), filters (``.bloom``), insert from file, history as CSV.

``install(window)`` adds the actions to the window's File menu and returns the ``FileActions`` controller (the
window keeps it as ``window.file_actions``: ``gui/extensions.py``). The controller only talks to the workbench
(``configure``, ``insert``, ``lookup``, ``insert_batch``, ``install_filter``, ``run_job``), never to a filter.
It holds its parts, one object and file each, handed what they act on (the workbench, the window, the dialogs,
the recent files, and ``open_file.OpenFile``: the file and title shown and whether something is unsaved):
``session_save`` (New, Save, Save as), ``session_open`` (Open, and a session's replay), ``filter_files``
(.bloom files), and ``file_menu`` (the menu, Insert from file, Export history). This file holds the question
asked before unsaved work is lost, the close guard, and the entry points the menu and scripts call.

A session is saved as its recipe (``bloomviz.files.session``): the filter's parameters, the measurement's probe
count and seed, and every operation in order.

"Unsaved changes?" is asked (Save / Discard / Cancel) before New, Open, Load filter and closing the window,
whenever operations were made since the last save and there is something to lose. The close guard is an event
filter on the window. All questions and file choices go through ``self.dialogs`` (see ``file_dialogs``), which
tests replace.
"""

from __future__ import annotations

import os

from PySide6 import QtCore, QtGui

from bloomviz.gui.files import recent_files
from bloomviz.gui.files.file_dialogs import CANCEL, DISCARD, SAVE, Dialogs
from bloomviz.gui.files.file_import import FileImport
from bloomviz.gui.files.file_menu import FileMenu
from bloomviz.gui.files.filter_files import FilterFiles, filter_args, filter_from_bytes
from bloomviz.gui.files.open_file import OpenFile
from bloomviz.gui.files.session_open import SessionOpening
from bloomviz.gui.files.session_save import SessionSaving
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.i18n import number, ntr, tr


class FileActions(QtCore.QObject):
    """Sessions, filters, imports and history export for one window."""

    def __init__(self, window, dialogs: Dialogs | None = None):
        super().__init__(window)
        self.window = window
        self.wb: QtWorkbench = window.wb
        self._dialogs = dialogs if dialogs is not None else Dialogs(window)
        self.recent = recent_files.RecentFiles(window.settings, parent=self)
        self.file = OpenFile(window, self.wb)
        self.importer = FileImport(self.wb, self.dialogs, parent=self, file=self.file)
        self.importer.message.connect(self.file.status)
        parts = (self.wb, window, self.dialogs, self.recent, self.file)
        self.saving = SessionSaving(*parts, self.maybe_discard)
        self.filters = FilterFiles(self.wb, self.dialogs, self.recent, self.file, self.maybe_discard)
        self.opening = SessionOpening(*parts, self.filters, self.maybe_discard)
        self.wb.operated.connect(self.file.on_history)
        self.wb.filterReset.connect(self.file.on_reset)
        self.wb.busyChanged.connect(self.file.on_busy)
        window.installEventFilter(self)
        self.menu = FileMenu(self)
        self.actions: dict[str, QtGui.QAction] = self.menu.actions   # by key: "new", "open", "save", …

    # --- what the parts do, as the menu, the window and scripts call it -------------------------------------
    def new_session(self) -> bool:
        return self.saving.new_session()

    def save(self) -> bool:
        return self.saving.save()

    def save_as(self) -> bool:
        return self.saving.save_as()

    def write_session(self, path: str) -> bool:
        return self.saving.write_session(path)

    def current_session(self):
        return self.saving.current_session()

    def open_dialog(self) -> bool:
        return self.opening.open_dialog()

    def open_path(self, path: str, ask: bool = True) -> bool:
        return self.opening.open_path(path, ask)

    def open_session_path(self, path: str, ask: bool = True) -> bool:
        return self.opening.open_session_path(path, ask)

    def load_filter_dialog(self) -> bool:
        return self.filters.load_filter_dialog()

    def load_filter_path(self, path: str, ask: bool = True) -> bool:
        return self.filters.load_filter_path(path, ask)

    def save_filter_dialog(self) -> bool:
        return self.filters.save_filter_dialog()

    @property
    def dialogs(self) -> Dialogs:
        """Where questions and file choices go; a script or test that gives another one gives it to every part."""
        return self._dialogs

    @dialogs.setter
    def dialogs(self, dialogs: Dialogs) -> None:
        self._dialogs = dialogs
        for part in (self.saving, self.filters, self.opening):
            part.dialogs = dialogs

    # --- state: the file shown, what is unsaved --------------------------------------------------------------
    @property
    def path(self) -> str | None:
        """The current session file (None: no file behind the window)."""
        return self.file.path

    @property
    def modified(self) -> bool:
        """True when there are operations or inserts that a save would keep and that were not saved (the
        operations made in this turn of the event loop included: they are delivered first)."""
        self.wb.flush()
        return self.file.modified

    def discard_changes(self) -> None:
        """Forget that there is anything unsaved (a scripted close: screenshots, timed starts)."""
        self.file.set_modified(False)

    # --- the unsaved-changes question ----------------------------------------------------------------------
    def maybe_discard(self, action: str) -> bool:
        """True when it is fine to replace the current state: nothing unsaved, saved now, or discarded."""
        if not self.modified:
            return True
        ops = len(self.wb.history)
        where = tr("“{item}”").format(item=os.path.basename(self.path)) if self.path else tr("This session")
        answer = self.dialogs.ask_unsaved(ntr("{where} has unsaved changes ({count} operation). Save before you "
                                              "{action}?", "{where} has unsaved changes ({count} operations). Save "
                                              "before you {action}?", ops).format(where=where, count=number(ops),
                                                                                 action=tr(action)))
        if answer == SAVE:
            return self.saving.save()
        return answer == DISCARD

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.window and event.type() == QtCore.QEvent.Type.Close:
            if not self.maybe_discard("close the window"):
                event.ignore()
                return True
        return False


def install(window, dialogs: Dialogs | None = None) -> FileActions:
    """Add the session and file actions to ``window``'s File menu and guard its closing; returns the controller."""
    actions = FileActions(window, dialogs)
    actions.menu.build_menu()
    return actions


__all__ = ["FileActions", "install", "filter_from_bytes", "filter_args", "CANCEL", "DISCARD", "SAVE"]
