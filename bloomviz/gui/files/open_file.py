"""The file behind the window, which the File menu's parts share: its path and the window's title, whether
something is unsaved, what a save must keep of a filter loaded without its items, and the refusals they word
alike (busy, unreadable file).

``OpenFile`` is handed the window and its workbench; the parts (``session_save``, ``session_open``,
``filter_files``) are each handed one, instead of reaching into a controller they are mixed into.
"""

from __future__ import annotations

import os

from bloomviz.gui.files.file_paths import APP_TITLE, os_error_text
from bloomviz.i18n import tr


class OpenFile:
    """The window's file and unsaved state; the title and status line show it."""

    def __init__(self, window, wb):
        self.window = window
        self.wb = wb
        self.path: str | None = None            # the current session file
        self.changed = False                    # operations made since the last save or open
        self.replaying = False                  # a replay's own operations are not changes
        self.base: tuple[bytes, int] | None = None   # a loaded filter whose items are unknown: (bytes, count)
        self.initial_seed = self.current_seed()
        self._plain_title = window.windowTitle()
        self._job_start: tuple | None = None     # while a job runs: (changed, _mark()) as it started

    def current_seed(self) -> int:
        return int(self.wb.probe_seed)

    def use_seed(self, seed: int) -> None:
        """Make the workbench draw its next probe set from ``seed``, so a replay measures on the same probes."""
        self.wb.set_probe_seed(seed)

    def on_history(self, _record) -> None:
        if not self.replaying:
            self.set_modified(True)

    def on_busy(self, busy: bool) -> None:
        self._job_start = (self.changed, self._mark()) if busy else None

    def _mark(self) -> tuple:
        """Where the window's state is: the state object (a rollback puts back the one it kept), its history's
        length and last entry, and the filter's insert count."""
        history = self.wb.history
        return self.wb.state, len(history), history[-1] if history else None, len(self.wb.filter)

    def _back_at(self, mark: tuple) -> bool:
        state, rows, last, inserts = self._mark()
        return state is mark[0] and rows == mark[1] and last is mark[2] and inserts == mark[3]

    def on_reset(self) -> None:
        if self.replaying:
            return
        if self._job_start is not None and self._back_at(self._job_start[1]):
            # a job that went back to where it started (a chunk failed, an import was cancelled): what it had
            # marked unsaved, by its chunks and by this reset, is as it was before it
            self.set_modified(self._job_start[0])
            return
        if not self.wb.history and not self.wb.items:
            # A fresh filter: the seed its probes were drawn from is the one a replay must start from.
            self.initial_seed = self.current_seed()
        if self.wb.truth_known:
            self.base = None
        self.set_modified(True)

    def keep(self) -> tuple:
        """What a change that may be taken back (a cancelled import, scenario or replay) alters here: the loaded
        filter without its items, the seed a replay starts from, whether something is unsaved."""
        return self.base, self.initial_seed, self.changed

    def put_back(self, kept: tuple) -> None:
        """The window's state was put back as it was when ``keep`` gave ``kept``: so is what it says of the file
        (the put-back's own reset marked the window changed, and a new filter's had forgotten the base)."""
        self.base, self.initial_seed = kept[0], kept[1]
        self.set_modified(kept[2])

    @property
    def modified(self) -> bool:
        """True when there are operations or inserts that a save would keep and that were not saved."""
        return self.changed and (bool(self.wb.history) or len(self.wb.filter) > 0)

    def set_modified(self, value: bool) -> None:
        self.changed = bool(value)
        self._show_modified()

    def _show_modified(self) -> None:
        # Qt marks a title's "[*]" placeholder; without one (no file yet) it only warns.
        if "[*]" in self.window.windowTitle():
            self.window.setWindowModified(self.modified)

    def set_path(self, path: str | None, label: str | None = None) -> None:
        self.path = path
        name = label or (os.path.basename(path) if path else None)
        self.window.setWindowTitle(f"{name}[*] — {APP_TITLE}" if name else self._plain_title)
        self._show_modified()

    def saved(self, path: str | None, label: str | None = None) -> None:
        """The window now shows ``path`` (or ``label``) with nothing unsaved."""
        self.set_modified(False)
        self.set_path(path, label)

    def status(self, text: str, ms: int = 6_000) -> None:
        self.window.statusBar().showMessage(text, ms)


def refuse_busy(wb, dialogs, what: str) -> bool:
    """True (and said) when bulk work runs: nothing may replace or save the filter under it."""
    if wb.busy:
        dialogs.error(what, tr("A bulk insert is running. Wait for it to finish or cancel it (Esc) first."))
        return True
    return False


def open_failed(dialogs, recent, path: str, title: str, text: str, exc: BaseException | None = None) -> None:
    """Say ``text``; a recent file that is gone leaves the recent files, and the message says so."""
    if isinstance(exc, FileNotFoundError) and os.path.abspath(path) in recent.paths():
        recent.remove(os.path.abspath(path))
        text += "\n\n" + tr("It was removed from the recent files.")
    dialogs.error(title, text)


def refused_file(dialogs, recent, path: str, title: str, kind: str, verb: str, exc: Exception) -> bool:
    """Say why ``path`` could not be read as a ``kind`` ("session"): the system's reason for an OSError, the
    format's for a file that is not one. False, for the caller to return."""
    if isinstance(exc, OSError):
        open_failed(dialogs, recent, path, title, tr("Could not open the {kind}:\n{reason}").format(
            kind=tr(kind), reason=os_error_text(path, exc)), exc)
    else:
        dialogs.error(title, tr("This is not a {kind} bloomviz can {verb}:\n{reason}").format(
            kind=tr(kind), verb=tr(verb), reason=exc))
    return False
