"""The File menu's files: sessions (``.bloomviz``), filters (``.bloom``), insert from file, history as CSV.

``install(window)`` adds the actions to the window's File menu and returns the ``FileActions`` controller (also
kept as ``window.file_actions``). The controller only talks to the workbench (``configure``, ``insert``,
``lookup``, ``insert_batch``, ``install_filter``, ``run_job``), never to a filter.

A session is saved as its recipe (``bloomviz.files.session``): the filter's parameters, the measurement's probe
count and seed, and every operation in order. Opening one checks the whole file first — a bad file is refused
with a message and the window is left exactly as it was — then makes the filter and replays the operations
through the workbench, so the grid, the live plot and the history come back as they were.

"Unsaved changes?" is asked (Save / Discard / Cancel) before New, Open, Load filter and closing the window,
whenever operations were made since the last save and there is something to lose. The close guard is an event
filter on the window. All questions and file choices go through ``self.dialogs`` (see ``file_dialogs``), which
tests replace.
"""

from __future__ import annotations

import contextlib
import os
import tempfile

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz import __version__
from bloomviz.files import session as sessions
from bloomviz.files import storage
from bloomviz.disk.safe_files import check_regular, open_regular
from bloomviz.filters.registry import VARIANTS
from bloomviz.gui.filter_tab import history_export
from bloomviz.gui.files import recent_files
from bloomviz.gui.files import session_replay
from bloomviz.gui.files.file_dialogs import CANCEL, DISCARD, SAVE, Dialogs
from bloomviz.gui.files.file_import import FileImport
from bloomviz.workbench.limits import MAX_M as WINDOW_MAX_M
from bloomviz.gui.workbench import Workbench

SESSION_FILTER = "bloomviz sessions (*.bloomviz)"
BLOOM_FILTER = "Bloom filters (*.bloom)"
OPEN_FILTER = (f"Sessions and filters (*.bloomviz *.bloom);;{SESSION_FILTER};;{BLOOM_FILTER};;"
               "Other libraries' filters (*.parquet *.guava *.blm *.hex *.bin *.json *.txt *.pybloom *.writeto);;"
               "All files (*)")
TEXT_FILTER = "Text files (*.txt *.lst *.csv *.tsv);;All files (*)"
CSV_FILTER = "CSV files (*.csv)"
APP_TITLE = "bloomviz"


def _with_suffix(path: str, suffix: str) -> str:
    return path if os.path.splitext(path)[1] else path + suffix


def _os_error(path: str, exc: OSError) -> str:
    return f"{path}: {exc.strerror or exc}"


def filter_from_bytes(data: bytes):
    """A filter from the bytes of a ``.bloom`` file, checked exactly as ``storage.load`` checks a file."""
    fd, tmp = tempfile.mkstemp(suffix=".bloom")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        try:
            return storage.load(tmp)
        except storage.FilterFormatError as exc:
            raise storage.FilterFormatError(exc.reason) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def filter_args(flt, variant: str) -> dict:
    """(m, k, params) of ``flt`` as ``Workbench.configure`` takes them."""
    params = {name: value for name, value in flt.state_params().items() if name != "stages"}
    sized = VARIANTS[variant].sized
    return {"m": flt.m if sized else None, "k": flt.k if sized else None, "params": params}


class FileActions(QtCore.QObject):
    """Sessions, filters, imports and history export for one window."""

    def __init__(self, window, dialogs: Dialogs | None = None):
        super().__init__(window)
        self.window = window
        self.wb: Workbench = window.wb
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
        self.wb.historyAppended.connect(self._on_history)
        self.wb.filterReset.connect(self._on_reset)
        window.installEventFilter(self)
        self.actions: dict[str, QtGui.QAction] = {}

    # --- state -------------------------------------------------------------------------------------------------
    def _current_seed(self) -> int:
        return int(self.wb.probe_seed)

    def _use_seed(self, seed: int) -> None:
        """Make the workbench draw its next probe set from ``seed``, so a replay measures on the same probes."""
        self.wb.set_probe_seed(seed)

    def _on_history(self, _entry) -> None:
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
            self.dialogs.error(what, "A bulk insert is running. Wait for it to finish or cancel it (Esc) first.")
            return True
        return False

    # --- the unsaved-changes question ----------------------------------------------------------------------
    def maybe_discard(self, action: str) -> bool:
        """True when it is fine to replace the current state: nothing unsaved, saved now, or discarded."""
        if not self.modified:
            return True
        ops = len(self.wb.history)
        where = f"“{os.path.basename(self.path)}”" if self.path else "This session"
        answer = self.dialogs.ask_unsaved(f"{where} has unsaved changes ({ops:,} operation"
                                          f"{'s' if ops != 1 else ''}). Save before you {action}?")
        if answer == SAVE:
            return self.save()
        return answer == DISCARD

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.window and event.type() == QtCore.QEvent.Type.Close:
            if not self.maybe_discard("close the window"):
                event.ignore()
                return True
        return False

    # --- sessions ------------------------------------------------------------------------------------------
    def current_session(self) -> tuple[sessions.Session, str]:
        """The session to save, and a warning ("" when none): what could not be kept."""
        wb, flt = self.wb, self.wb.filter
        args = filter_args(flt, wb.variant)
        ops: list[sessions.Operation] = []
        warning = ""
        start = 0    # wb.items holds every insert in order (a removal does not take its item out)
        for e in wb.history:
            if e.op == sessions.BATCH:
                ops.append(sessions.Operation(sessions.BATCH, items=tuple(wb.items[start:start + e.count])))
                start += e.count
            elif e.op in (sessions.INSERT, sessions.LOOKUP, sessions.REMOVE):
                ops.append(sessions.Operation(e.op, item=e.item, verdict=e.verdict))
                start += e.op == sessions.INSERT
            else:
                raise ValueError(f"the history holds a {e.op!r} operation, which a session cannot store yet")
        base = None
        if not wb.truth_known:
            inserted = sum(len(op.items) if op.op == sessions.BATCH else
                           {sessions.INSERT: 1, sessions.REMOVE: -1}.get(op.op, 0) for op in ops)
            if self._base is not None and self._base[1] + inserted == len(flt):
                base = self._base[0]
            else:
                head, payload = storage.encode(flt)
                base, ops = head + payload, []
                warning = ("The filter was loaded without its items and its operations since cannot be told "
                           "apart from it: the session keeps the filter as it is now, without its history.")
        s = sessions.Session(variant=wb.variant, scheme=flt.scheme, m=args["m"], k=args["k"], params=args["params"],
                             capacity=wb.capacity, probes=len(wb.probes), seed=self._initial_seed, operations=ops,
                             base=base, saved_by=f"bloomviz {__version__}")
        return s, warning

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self.write_session(self.path)

    def save_as(self) -> bool:
        default = self.path or "session.bloomviz"
        path = self.dialogs.save_path("Save the session", SESSION_FILTER, default)
        if not path:
            return False
        return self.write_session(_with_suffix(path, sessions.SUFFIX))

    def write_session(self, path: str) -> bool:
        title = "Save the session"
        if self._refuse_busy(title):
            return False
        try:
            s, warning = self.current_session()
            sessions.save(s, path)
        except OSError as exc:
            self.dialogs.error(title, f"Could not save the session:\n{_os_error(path, exc)}")
            return False
        except (ValueError, TypeError) as exc:
            self.dialogs.error(title, f"Could not save the session to {path}:\n{exc}")
            return False
        if warning:
            self.dialogs.info(title, warning)
        self.recent.add(path)
        self._set_modified(False)
        self._set_path(path)
        self._status(f"Saved the session ({len(s.operations):,} operations) to {path}")
        return True

    def new_session(self) -> bool:
        """An empty filter of the current kind, with no file behind it."""
        if self._refuse_busy("New session") or not self.maybe_discard("start a new session"):
            return False
        wb, flt = self.wb, self.wb.filter
        args = filter_args(flt, wb.variant)
        if not wb.configure(args["m"], args["k"], flt.scheme, variant=wb.variant, capacity=wb.capacity,
                            **args["params"]):
            return False
        self._set_modified(False)
        self._set_path(None)
        return True

    def open_dialog(self) -> bool:
        if self._refuse_busy("Open") or not self.maybe_discard("open another file"):
            return False
        directory = os.path.dirname(self.path) if self.path else ""
        path = self.dialogs.open_path("Open a session or a filter", OPEN_FILTER, directory)
        return self.open_path(path, ask=False) if path else False

    def open_path(self, path: str, ask: bool = True) -> bool:
        """Open a session or a ``.bloom`` filter (told apart by the file's first bytes)."""
        if self._refuse_busy("Open") or (ask and not self.maybe_discard("open another file")):
            return False
        try:
            # A FIFO would block the window forever and /dev/zero would be read to the session limit: anything
            # but a regular file is refused by its kind before a byte is read.
            with open_regular(path, what="a session (.bloomviz) or a filter (.bloom)") as fh:
                head = fh.read(len(storage.MAGIC))
        except OSError as exc:
            self._open_failed(path, "Open", f"Could not open the file:\n{_os_error(path, exc)}", exc)
            return False
        if head == storage.MAGIC:
            return self.load_filter_path(path, ask=False)
        foreign = self._foreign_format(path) if getattr(self.window, "foreign", None) is not None else None
        if foreign is not None:   # another library's filter: shown read-only in its own tab
            opened = self.window.foreign.open_path(path, foreign)
            self.window.show_tab("foreign")
            return opened
        return self.open_session_path(path, ask=False)

    @staticmethod
    def _foreign_format(path: str) -> str | None:
        from bloomviz import formats
        try:
            name = formats.detect(path)
        except (OSError, ValueError):
            return None
        return None if name in (None, "bloomviz", "raw") else name

    def _open_failed(self, path: str, title: str, text: str, exc: BaseException | None = None) -> None:
        if isinstance(exc, FileNotFoundError) and os.path.abspath(path) in self.recent.paths():
            self.recent.remove(os.path.abspath(path))
            text += "\n\nIt was removed from the recent files."
        self.dialogs.error(title, text)

    def open_session_path(self, path: str, ask: bool = True) -> bool:
        title = "Open a session"
        if self._refuse_busy(title) or (ask and not self.maybe_discard("open another session")):
            return False
        try:
            check_regular(path, "a session (.bloomviz)")
            s = sessions.load(path)
        except sessions.SessionFormatError as exc:
            self.dialogs.error(title, f"This is not a session bloomviz can open:\n{exc}")
            return False
        except OSError as exc:
            self._open_failed(path, title, f"Could not open the session:\n{_os_error(path, exc)}", exc)
            return False
        problem, base = self.check_session(s)
        if problem:
            self.dialogs.error(title, f"The session {path} cannot be opened:\n{problem}")
            return False
        if len(s.operations) > session_replay.SYNC_OPERATIONS:
            return self._replay_in_steps(path, s, base)
        self._opened(path, s, self.replay(s, base))
        return True

    def _opened(self, path: str, s: sessions.Session, mismatched: int) -> None:
        self.recent.add(path)
        self._set_modified(False)
        self._set_path(path)
        note = f"Opened {os.path.basename(path)}: {len(s.operations):,} operations replayed."
        if mismatched:
            note += (f" {mismatched:,} lookup verdict{'s' if mismatched != 1 else ''} came out differently "
                     "from when the session was saved.")
        self._status(note)

    def check_session(self, s: sessions.Session):
        """(problem or "", base filter or None): whether this window can replay ``s``; nothing is changed."""
        base = None
        if s.base is not None:
            try:
                base = filter_from_bytes(s.base)
            except storage.FilterFormatError as exc:
                return f"the filter stored in it is damaged: {exc.reason}", None
            sized = base.sized   # when the variants differ the first test already refuses
            if (base.variant, base.scheme) != (s.variant, s.scheme) or \
                    (sized and (base.m, base.k) != (s.m, s.k)):
                return (f"its stored filter is a {base.variant} filter (m = {base.m}, k = {base.k}, {base.scheme}) "
                        f"but the session describes a {s.variant} filter (m = {s.m}, k = {s.k}, {s.scheme})"), None
            if base.m > WINDOW_MAX_M:
                return f"its filter has m = {base.m:,} bits; the window shows at most {WINDOW_MAX_M:,}", None
        else:
            args = s.configure_args()
            args.pop("capacity")
            problem = Workbench.validate_config(**args)
            if problem:
                return problem, None
        return "", base

    def replay(self, s: sessions.Session, base=None) -> int:
        """Make the session's filter and replay its operations at once. Returns how many recorded verdicts differ."""
        self._replaying = True
        try:
            with self.wb.quiet():
                self._replay_prepare(s, base)
                return session_replay.Stepper(self.wb, s.operations).run_all()
        finally:
            self._replay_done()

    def _replay_prepare(self, s: sessions.Session, base) -> None:
        # Called with the model quiet: the views follow once, at the end (``announce``).
        wb = self.wb
        if len(wb.probes) != s.probes:
            wb.set_probe_count(s.probes)
        self._use_seed(s.seed)
        if base is not None:
            wb.install_filter(base, capacity=s.capacity, note=self._loaded_note(base, "this session", truth=False))
            head, payload = storage.encode(base)
            self._base = (head + payload, len(base))
        else:
            if not wb.configure(**s.configure_args()):
                raise ValueError("the workbench refused the session's filter")
            self._base = None
        self._initial_seed = s.seed

    def _replay_done(self) -> None:
        wb = self.wb
        try:
            wb.announce()   # every view redraws the replayed state, with the last operation explained
        finally:
            self._replaying = False

    def _replay_in_steps(self, path: str, s: sessions.Session, base) -> bool:
        """A long session: replayed a few operations per turn of the event loop, with progress and Cancel; a
        cancel puts the window back as it was before Open."""
        wb = self.wb
        before = wb.snapshot()
        kept = (self._base, self._initial_seed, self._modified)
        self._replaying = True
        try:
            with wb.quiet():
                self._replay_prepare(s, base)
        except Exception:
            self._replaying = False
            wb.restore(before)
            raise
        wb.announce()     # the views show the new, empty filter while the operations go in
        stepper = session_replay.Stepper(wb, s.operations)
        name = os.path.basename(path)

        def finished(done: int, total: int, cancelled: bool) -> None:
            wb.jobFinished.disconnect(finished)
            if cancelled:
                self._replaying = False
                wb.restore(before)
                self._base, self._initial_seed = kept[0], kept[1]
                self._set_modified(kept[2])
                self._status(f"Opening {name} cancelled after {done:,} of {total:,} operations; the window is "
                             "as it was before.")
                return
            self._replay_done()
            self._opened(path, s, stepper.mismatched)

        wb.jobFinished.connect(finished)
        if not wb.run_steps(stepper.step, len(s.operations), f"operations of {name}"):
            finished(0, len(s.operations), True)
            return False
        return True

    # --- filters (.bloom) ----------------------------------------------------------------------------------
    def load_filter_dialog(self) -> bool:
        if self._refuse_busy("Load a filter") or not self.maybe_discard("load a filter"):
            return False
        path = self.dialogs.open_path("Load a filter", f"{BLOOM_FILTER};;All files (*)", "")
        return self.load_filter_path(path, ask=False) if path else False

    @staticmethod
    def _loaded_note(flt, source: str, truth: bool) -> str:
        params = ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}"
                           for k, v in flt.state_params().items())
        text = (f"Loaded a {flt.variant} filter from {source}: m = {flt.m:,}, k = {flt.k}, scheme {flt.scheme}"
                + (f", {params}" if params else "") + f"; it holds n = {len(flt):,} inserts "
                f"and {flt.bits_set:,} bits are set (fill {flt.fill_ratio:.1%}).")
        if not truth:
            text += (" A .bloom file stores the bits, not the items: a lookup that passes is “probably in the "
                     "set”, and whether it is a true or a false positive cannot be told.")
        return text

    def load_filter_path(self, path: str, ask: bool = True) -> bool:
        """Load a ``.bloom`` file into the window; on any problem a message, and the current filter stays."""
        title = "Load a filter"
        if self._refuse_busy(title) or (ask and not self.maybe_discard("load a filter")):
            return False
        try:
            check_regular(path, "a filter (.bloom)")
            header = storage.read_header(path)
            if header.m > WINDOW_MAX_M:
                self.dialogs.error(title, f"{path}: the filter has m = {header.m:,} bits; the window shows at most "
                                          f"{WINDOW_MAX_M:,}. (bloomviz inspect and bloomviz check read it.)")
                return False
            flt = storage.load(path)
        except storage.FilterFormatError as exc:
            self.dialogs.error(title, f"This is not a filter bloomviz can load:\n{exc}")
            return False
        except OSError as exc:
            self._open_failed(path, title, f"Could not open the filter:\n{_os_error(path, exc)}", exc)
            return False
        head, payload = storage.encode(flt)
        self._replaying = True
        try:
            ok = self.wb.install_filter(flt, note=self._loaded_note(flt, os.path.basename(path), truth=False))
        finally:
            self._replaying = False
        if not ok:
            return False
        self._base = (head + payload, len(flt))
        self._initial_seed = self._current_seed()
        self.recent.add(path)
        self._set_modified(False)
        self._set_path(None, label=os.path.basename(path))
        self._status(f"Loaded {path}: {flt.variant}, m = {flt.m:,}, k = {flt.k}, n = {len(flt):,}")
        return True

    def save_filter_dialog(self) -> bool:
        title = "Save the filter"
        if self._refuse_busy(title):
            return False
        path = self.dialogs.save_path(title, BLOOM_FILTER, "filter.bloom")
        if not path:
            return False
        path = _with_suffix(path, ".bloom")
        try:
            storage.save(self.wb.filter, path)
        except OSError as exc:
            self.dialogs.error(title, f"Could not save the filter:\n{_os_error(path, exc)}")
            return False
        except (ValueError, TypeError) as exc:
            self.dialogs.error(title, f"Could not save the filter to {path}:\n{exc}")
            return False
        self.recent.add(path)
        self._status(f"Saved the filter's {self.wb.filter.m:,} bits to {path} (the items are not stored in a "
                     ".bloom file; save a session to keep them)")
        return True

    # --- insert from file, history -----------------------------------------------------------------------------
    def insert_from_file_dialog(self) -> bool:
        if self._refuse_busy("Insert from file"):
            return False
        path = self.dialogs.open_path("Insert the lines of a text file", TEXT_FILTER, "")
        return self.importer.start(path) if path else False

    def export_history_dialog(self) -> bool:
        title = "Export the history"
        path = self.dialogs.save_path(title, CSV_FILTER, "bloom-history.csv")
        if not path:
            return False
        path = _with_suffix(path, ".csv")
        try:
            count = history_export.write_csv(self.wb.history, path)
        except OSError as exc:
            self.dialogs.error(title, f"Could not write the history:\n{_os_error(path, exc)}")
            return False
        self._status(f"Saved {count:,} operations to {path}")
        return True

    # --- menu ------------------------------------------------------------------------------------------------
    def build_menu(self) -> None:
        w = self.window
        K = QtGui.QKeySequence.StandardKey

        def action(key, text, slot, shortcut=None, tip=""):
            act = QtGui.QAction(text, w)
            if shortcut is not None:
                act.setShortcut(QtGui.QKeySequence(shortcut))
            act.setStatusTip(tip)
            act.setToolTip(tip)
            act.triggered.connect(lambda _checked=False: slot())
            w.addAction(act)
            self.actions[key] = act
            return act

        action("new", "&New session", self.new_session, K.New,
               "An empty filter with the same parameters, no file behind it.")
        action("open", "&Open…", self.open_dialog, K.Open,
               "Open a session (.bloomviz: parameters and every operation, replayed) or a filter (.bloom).")
        action("save", "&Save session", self.save, K.Save,
               "Save the session: the filter's parameters and every insert and lookup, as JSON.")
        action("save_as", "Save session &as…", self.save_as, K.SaveAs, "Save the session under a new name.")
        action("load_filter", "&Load filter (.bloom)…", self.load_filter_dialog, "Ctrl+Shift+O",
               "Load a filter's bits from a .bloom file (its items are not in the file).")
        action("save_filter", "Save filter as .&bloom…", self.save_filter_dialog, "Ctrl+Shift+B",
               "Save the filter's bits in the compact binary .bloom format (bloomviz inspect reads it).")
        action("import", "&Insert from file…", self.insert_from_file_dialog, "Ctrl+Shift+I",
               "Insert every line of a text file as an item (UTF-8; progress and Cancel; all or nothing).")
        action("export_history", "Export &history as CSV…", self.export_history_dialog, "Ctrl+Shift+H",
               "Write every operation with its verdict and the running counts to a CSV file.")

        menu = w.menu("&File")
        first = menu.actions()[0] if menu.actions() else None
        recent_menu = QtWidgets.QMenu("Open &Recent", menu)
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
        recent_files.attach(recent_menu, self.recent, lambda p: self.open_path(p), self._pruned)
        self.wb.busyChanged.connect(self._on_busy)

    def _pruned(self, gone: list[str]) -> None:
        names = ", ".join(os.path.basename(p) for p in gone)
        self._status(f"Removed from the recent files (no longer there): {names}", 10_000)

    def _on_busy(self, busy: bool) -> None:
        for key in ("new", "open", "save", "save_as", "load_filter", "save_filter", "import"):
            self.actions[key].setEnabled(not busy)
        self.recent_menu.setEnabled(not busy)


def install(window, dialogs: Dialogs | None = None) -> FileActions:
    """Add the session and file actions to ``window``'s File menu and guard its closing; returns the controller."""
    actions = FileActions(window, dialogs)
    actions.build_menu()
    window.file_actions = actions
    return actions


__all__ = ["FileActions", "install", "filter_from_bytes", "filter_args", "CANCEL", "DISCARD", "SAVE"]
