"""The File menu's files: sessions (``.bloomviz``), filters (``.bloom``), insert from file, history as CSV.

``install(window)`` adds the actions to the window's File menu and returns the ``FileActions`` controller (the
window keeps it as ``window.file_actions``: ``gui/extensions.py``). The controller only talks to the workbench
(``configure``, ``insert``, ``lookup``, ``insert_batch``, ``install_filter``, ``run_job``), never to a filter.
It is made of parts, one file each: ``session_save`` (New, Save, Save as), ``session_open`` (Open, and a
session's replay), ``filter_files`` (.bloom files), and ``file_menu`` (the menu, Insert from file, Export
history: an object handed this controller); this file holds what they share: the file and title shown, whether something is unsaved, and the
question asked before it is lost.

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
from bloomviz.gui.files.file_paths import APP_TITLE
from bloomviz.gui.files.filter_files import FilterFiles, filter_args, filter_from_bytes
from bloomviz.gui.files.session_open import SessionOpening
from bloomviz.gui.files.session_save import SessionSaving
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.i18n import number, ntr, tr


class FileActions(SessionSaving, SessionOpening, FilterFiles, QtCore.QObject):
    """Sessions, filters, imports and history export for one window."""

    def __init__(self, window, dialogs: Dialogs | None = None):
        super().__init__(window)
        self.window = window
        self.wb: QtWorkbench = window.wb
        self.dialogs = dialogs if dialogs is not None else Dialogs(window)
        self.recent = recent_files.RecentFiles(window.settings, parent=self)
        self.importer = FileImport(self.wb, self.dialogs, parent=self)
        self.importer.message.connect(self._status)
        self.path: str | None = None          # the current session file
        self._modified = False
        self._replaying = False
        self._base: tuple[bytes, int] | None = None   # a loaded filter whose items are unknown: (bytes, count)
        self._initial_seed = self._current_seed()
        self._plain_title = window.windowTitle()
        self.wb.operated.connect(self._on_history)
        self.wb.filterReset.connect(self._on_reset)
        window.installEventFilter(self)
        self.menu = FileMenu(self)
        self.actions: dict[str, QtGui.QAction] = self.menu.actions   # by key: "new", "open", "save", …

    # --- state: the file shown, what is unsaved --------------------------------------------------------------
    def _current_seed(self) -> int:
        return int(self.wb.probe_seed)

    def _use_seed(self, seed: int) -> None:
        """Make the workbench draw its next probe set from ``seed``, so a replay measures on the same probes."""
        self.wb.set_probe_seed(seed)

    def _on_history(self, _record) -> None:
        if not self._replaying:
            self._set_modified(True)

    def _on_reset(self) -> None:
        if self._replaying:
            return
        if not self.wb.history and not self.wb.items:
            # A fresh filter: the seed its probes were drawn from is the one a replay must start from.
            self._initial_seed = self._current_seed()
        if self.wb.truth_known:
            self._base = None
        self._set_modified(True)

    @property
    def modified(self) -> bool:
        """True when there are operations or inserts that a save would keep and that were not saved."""
        return self._modified and (bool(self.wb.history) or len(self.wb.filter) > 0)

    def discard_changes(self) -> None:
        """Forget that there is anything unsaved (a scripted close: screenshots, timed starts)."""
        self._set_modified(False)

    def _set_modified(self, value: bool) -> None:
        self._modified = bool(value)
        self._show_modified()

    def _show_modified(self) -> None:
        # Qt marks a title's "[*]" placeholder; without one (no file yet) it only warns.
        if "[*]" in self.window.windowTitle():
            self.window.setWindowModified(self.modified)

    def _set_path(self, path: str | None, label: str | None = None) -> None:
        self.path = path
        name = label or (os.path.basename(path) if path else None)
        self.window.setWindowTitle(f"{name}[*] — {APP_TITLE}" if name else self._plain_title)
        self._show_modified()

    def _status(self, text: str, ms: int = 6_000) -> None:
        self.window.statusBar().showMessage(text, ms)

    def _refuse_busy(self, what: str) -> bool:
        if self.wb.busy:
            self.dialogs.error(what, tr("A bulk insert is running. Wait for it to finish or cancel it (Esc) first."))
            return True
        return False

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
            return self.save()
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
