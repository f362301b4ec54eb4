"""The list of recently opened or saved files (sessions and filters), kept in QSettings, newest first.

A file that no longer exists is pruned: when the File → Open Recent menu is about to show (the caller is told
which, to say so), and when opening it fails.
"""

from __future__ import annotations

import os
from typing import Callable

from PySide6 import QtCore, QtWidgets

from bloomviz.i18n import tr

KEY = "files/recent"
LIMIT = 10


class RecentFiles(QtCore.QObject):
    changed = QtCore.Signal()

    def __init__(self, settings: QtCore.QSettings, key: str = KEY, limit: int = LIMIT, parent=None):
        super().__init__(parent)
        self._settings = settings
        self._key = key
        self._limit = limit

    def paths(self) -> list[str]:
        value = self._settings.value(self._key, [])
        # QSettings gives a str for a one-element list in some formats, None or "" for an empty one.
        if isinstance(value, str):
            value = [value] if value else []
        elif not isinstance(value, (list, tuple)):
            value = []
        out: list[str] = []
        for p in value:
            if isinstance(p, str) and p and p not in out:
                out.append(p)
        return out[: self._limit]

    def _store(self, paths: list[str]) -> None:
        self._settings.setValue(self._key, list(paths[: self._limit]))
        self._settings.sync()
        self.changed.emit()

    def add(self, path: str) -> None:
        path = os.path.abspath(os.fspath(path))
        self._store([path] + [p for p in self.paths() if p != path])

    def remove(self, path: str) -> None:
        self._store([p for p in self.paths() if p != path])

    def clear(self) -> None:
        self._store([])

    def prune(self) -> list[str]:
        """Drop the entries whose file is gone; return them."""
        paths = self.paths()
        gone = [p for p in paths if not os.path.isfile(p)]
        if gone:
            self._store([p for p in paths if p not in gone])
        return gone

    def fill_menu(self, menu: QtWidgets.QMenu, open_path: Callable[[str], None],
                  on_pruned: Callable[[list[str]], None] | None = None) -> None:
        """Rebuild ``menu``: one action per file (Alt+1 … for the first nine), then "Clear the list"."""
        gone = self.prune()
        if gone and on_pruned is not None:
            on_pruned(gone)
        menu.clear()
        paths = self.paths()
        if not paths:
            empty = menu.addAction(tr("(no recent files)"))
            empty.setEnabled(False)
            return
        for i, path in enumerate(paths, start=1):
            label = f"&{i}  {os.path.basename(path)}" if i < 10 else os.path.basename(path)
            act = menu.addAction(label.replace("&&", "&"))
            act.setToolTip(path)
            act.setStatusTip(path)
            act.setData(path)
            act.triggered.connect(lambda _checked=False, p=path: open_path(p))
        menu.addSeparator()
        clear = menu.addAction(tr("Clear the list"))
        clear.triggered.connect(self.clear)


def attach(menu: QtWidgets.QMenu, recent: RecentFiles, open_path: Callable[[str], None],
           on_pruned: Callable[[list[str]], None] | None = None) -> None:
    """Keep ``menu`` filled from ``recent``: rebuilt each time it is about to show (rebuilding it from a signal
    of one of its own actions would delete that action while it is still being triggered)."""
    menu.aboutToShow.connect(lambda: recent.fill_menu(menu, open_path, on_pruned))
    menu.setToolTipsVisible(True)
    recent.fill_menu(menu, open_path, None)


__all__ = ["RecentFiles", "attach", "KEY", "LIMIT"]
