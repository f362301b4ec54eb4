"""The File menu's entries for sessions, filters, Open Recent, Insert from file and Export history.

``FileMenu`` is a part of ``session_io.FileActions``, handed the controller whose slots its entries call: it
declares the actions, places them at the top of the window's File menu (above the window's own exports), and
disables those that would replace the filter while bulk work runs.
"""

from __future__ import annotations

import os

from PySide6 import QtGui, QtWidgets

from bloomviz.gui.filter_tab import history_export
from bloomviz.gui.files import recent_files
from bloomviz.gui.files.file_paths import CSV_FILTER, TEXT_FILTER, os_error_text, with_suffix
from bloomviz.gui.files.open_file import refuse_busy
from bloomviz.i18n import number, tr


class FileMenu:
    """The File menu's entries of ``FileActions``."""

    def __init__(self, files):   # the FileActions whose slots, dialogs and status line the entries use
        self.files = files
        self.actions: dict[str, QtGui.QAction] = {}
        self.recent_menu: QtWidgets.QMenu | None = None

    # --- insert from file, history --------------------------------------------------------------------------
    def insert_from_file_dialog(self) -> bool:
        f = self.files
        if refuse_busy(f.wb, f.dialogs, "Insert from file"):
            return False
        path = f.dialogs.open_path("Insert the lines of a text file", TEXT_FILTER, "")
        return f.importer.start(path) if path else False

    def export_history_dialog(self) -> bool:
        f = self.files
        title = "Export the history"
        path = f.dialogs.save_path(title, CSV_FILTER, "bloom-history.csv")
        if not path:
            return False
        path = with_suffix(path, ".csv")
        try:
            count = history_export.write_csv(f.wb.history, path)
        except OSError as exc:
            f.dialogs.error(title, tr("Could not write the history:\n{reason}").format(reason=os_error_text(path, exc)))
            return False
        f.file.status(tr("Saved {count} operations to {path}").format(count=number(count), path=path))
        return True

    # --- menu -----------------------------------------------------------------------------------------------
    def build_menu(self) -> None:
        f = self.files
        w = f.window
        K = QtGui.QKeySequence.StandardKey

        def action(key, text, slot, shortcut=None, tip=""):
            act = QtGui.QAction(tr(text), w)
            if shortcut is not None:
                act.setShortcut(QtGui.QKeySequence(shortcut))
            act.setStatusTip(tr(tip))
            act.setToolTip(tr(tip))
            act.triggered.connect(lambda _checked=False: slot())
            w.addAction(act)
            self.actions[key] = act
            return act

        action("new", "&New session", f.new_session, K.New,
               "An empty filter with the same parameters, no file behind it.")
        action("open", "&Open…", f.open_dialog, K.Open,
               "Open a session (.bloomviz: parameters and every operation, replayed) or a filter (.bloom).")
        action("save", "&Save session", f.save, K.Save,
               "Save the session: the filter's parameters and every insert and lookup, as JSON.")
        action("save_as", "Save session &as…", f.save_as, K.SaveAs, "Save the session under a new name.")
        action("load_filter", "&Load filter (.bloom)…", f.load_filter_dialog, "Ctrl+Shift+O",
               "Load a filter's bits from a .bloom file (its items are not in the file).")
        action("save_filter", "Save filter as .&bloom…", f.save_filter_dialog, "Ctrl+Shift+B",
               "Save the filter's bits in the compact binary .bloom format (bloomviz inspect reads it).")
        action("import", "&Insert from file…", self.insert_from_file_dialog, "Ctrl+Shift+I",
               "Insert every line of a text file as an item (UTF-8; progress and Cancel; all or nothing).")
        action("export_history", "Export &history as CSV…", self.export_history_dialog, "Ctrl+Shift+H",
               "Write every operation with its verdict and the running counts to a CSV file.")

        menu = w.menu("&File")
        first = menu.actions()[0] if menu.actions() else None
        recent_menu = QtWidgets.QMenu(tr("Open &Recent"), menu)
        self.recent_menu = recent_menu

        def add(act):
            menu.insertAction(first, act) if first is not None else menu.addAction(act)

        def separator():
            menu.insertSeparator(first) if first is not None else menu.addSeparator()

        for key in ("new", "open"):
            add(self.actions[key])
        menu.insertMenu(first, recent_menu) if first is not None else menu.addMenu(recent_menu)
        for key in ("save", "save_as"):
            add(self.actions[key])
        separator()
        for key in ("load_filter", "save_filter"):
            add(self.actions[key])
        separator()
        add(self.actions["import"])
        add(self.actions["export_history"])
        separator()
        recent_files.attach(recent_menu, f.recent, lambda p: f.open_path(p), self._pruned)
        f.wb.busyChanged.connect(self._on_busy)

    def _pruned(self, gone: list[str]) -> None:
        f = self.files
        names = ", ".join(os.path.basename(p) for p in gone)
        f.file.status(tr("Removed from the recent files (no longer there): {names}").format(names=names), 10_000)

    def _on_busy(self, busy: bool) -> None:
        for key in ("new", "open", "save", "save_as", "load_filter", "save_filter", "import"):
            self.actions[key].setEnabled(not busy)
        self.recent_menu.setEnabled(not busy)
