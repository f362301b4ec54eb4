"""File → Open: a session replayed, a ``.bloom`` filter loaded, another library's filter shown in its tab.

``SessionOpening`` is a part ``session_io.FileActions`` holds, handed the workbench it replays into, the window
(its foreign-filter tab and lesson), the dialogs, the recent files, the window's ``OpenFile``, the ``.bloom``
part (``filter_files.FilterFiles``) and the unsaved-changes question. Opening a session checks the whole file
first — a bad file is refused with a message and the window is left exactly as it was — then makes the filter
and replays the operations through the workbench (``session_replay``), at once or, for a long session, a few
per turn of the event loop with progress and Cancel.
"""

from __future__ import annotations

import os

from bloomviz.disk.safe_files import check_regular, open_regular
from bloomviz.theory.limits import WINDOW_MAX_PROBES
from bloomviz.files import session as sessions
from bloomviz.files import storage
from bloomviz.gui.files.file_paths import OPEN_FILTER, os_error_text
from bloomviz.gui.files.filter_files import filter_from_bytes, loaded_note
from bloomviz.gui.files.open_file import open_failed, refuse_busy, refused_file
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.workbench.limits import MAX_M as WINDOW_MAX_M
from bloomviz.i18n import number, ptr, tr


class SessionOpening:
    """Open and a session's replay, of ``FileActions``."""

    def __init__(self, wb, window, dialogs, recent, file, filters, may_discard):
        self.wb, self.window, self.dialogs, self.recent = wb, window, dialogs, recent
        self.file = file                     # open_file.OpenFile: the path, unsaved state, loaded base
        self.filters = filters               # filter_files.FilterFiles: a .bloom file opened here is loaded there
        self.may_discard = may_discard       # (action) -> bool: the unsaved-changes question

    # --- sessions: open and replay --------------------------------------------------------------------------
    def open_dialog(self) -> bool:
        if refuse_busy(self.wb, self.dialogs, "Open") or not self.may_discard("open another file"):
            return False
        directory = os.path.dirname(self.file.path) if self.file.path else ""
        path = self.dialogs.open_path("Open a session or a filter", OPEN_FILTER, directory)
        return self.open_path(path, ask=False) if path else False

    def open_path(self, path: str, ask: bool = True) -> bool:
        """Open a session or a ``.bloom`` filter (told apart by the file's first bytes)."""
        if refuse_busy(self.wb, self.dialogs, "Open") or (ask and not self.may_discard("open another file")):
            return False
        if hasattr(self.window, "install_remaining_parts"):
            self.window.install_remaining_parts()    # the foreign view and the lesson tab a file may need
        if os.path.isdir(path) and self.window.foreign is not None:
            foreign = self._foreign_format(path)      # a git repository, a LevelDB or RocksDB database
            if foreign is not None:
                opened = self.window.foreign.open_path(path, foreign)
                self.window.show_tab("foreign")
                return opened
        try:
            # A FIFO would block the window forever and /dev/zero would be read to the session limit: anything
            # but a regular file is refused by its kind before a byte is read.
            with open_regular(path, what="a session (.bloomviz) or a filter (.bloom)") as fh:
                head = fh.read(len(storage.MAGIC))
        except OSError as exc:
            open_failed(self.dialogs, self.recent, path, "Open", tr("Could not open the file:\n{reason}").format(
                reason=os_error_text(path, exc)), exc)
            return False
        if head == storage.MAGIC:
            return self.filters.load_filter_path(path, ask=False)
        foreign = self._foreign_format(path) if self.window.foreign is not None else None
        if foreign is not None:   # another library's filter: shown read-only in its own tab
            opened = self.window.foreign.open_path(path, foreign)
            self.window.show_tab("foreign")
            return opened
        if not self._may_be_session(path):   # a session is JSON: say what bloomviz reads instead
            from bloomviz import formats
            hint = formats.suspect(path)
            if hint is not None:   # a damaged file of a known format: what its own reader found wrong
                self.dialogs.error("Open", tr("{path} cannot be read: {hint}.").format(path=path, hint=hint))
                return False
            try:
                sessions.load(path)
                why = ""
            except (sessions.SessionFormatError, OSError) as exc:
                why = tr(" (as a session: {reason})").format(reason=getattr(exc, 'reason', None) or exc)
            self.dialogs.error("Open", tr("{path} is not a file bloomviz recognises{why}.").format(
                path=path, why=why) + "\n\n" + formats.unsupported_text(
                "the “Other libraries' filter” tab: set “read as” to raw, give m and k, then Open…"))
            return False
        return self.open_session_path(path, ask=False)

    @staticmethod
    def _may_be_session(path: str) -> bool:
        try:
            with open_regular(path, what="a session (.bloomviz)") as fh:
                head = fh.read(64)
        except OSError:
            return True   # the session path reports it
        return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")

    @staticmethod
    def _foreign_format(path: str) -> str | None:
        from bloomviz import formats
        try:
            name = formats.detect(path)
        except (OSError, ValueError):
            return None
        return None if name in (None, "bloomviz", "raw") else name

    def open_session_path(self, path: str, ask: bool = True) -> bool:
        title = "Open a session"
        if refuse_busy(self.wb, self.dialogs, title) or (ask and not self.may_discard("open another session")):
            return False
        try:
            check_regular(path, "a session (.bloomviz)")
            s = sessions.load(path)
        except (sessions.SessionFormatError, OSError) as exc:
            return refused_file(self.dialogs, self.recent, path, title, "session", "open", exc)
        problem, base = self.check_session(s)
        if problem:
            self.dialogs.error(title, tr("The session {path} cannot be opened:\n{problem}").format(path=path,
                                                                                                    problem=problem))
            return False
        from bloomviz.workbench import replay as session_replay   # (imported when a session is opened)
        if not session_replay.at_once(s.operations):
            return self._replay_in_steps(path, s, base)
        self._opened(path, s, self.replay(s, base))
        return True

    def _opened(self, path: str, s: sessions.Session, mismatched: int) -> None:
        self.recent.add(path)
        self.file.saved(path)
        note = tr("Opened {name}: {count} operations replayed.").format(
            name=os.path.basename(path), count=number(len(s.operations))) + _probes_note(s)
        if s.lesson is not None:
            from bloomviz.gui.lesson_tab.session_link import restore
            note += restore(getattr(self.window, "lesson_view", None), s.lesson)
        if mismatched:
            note += (f" {mismatched:,} lookup verdict{'s' if mismatched != 1 else ''} came out differently "
                     "from when the session was saved.")
        self.file.status(note)

    def check_session(self, s: sessions.Session):
        """(problem or "", base filter or None): whether this window can replay ``s``; nothing is changed."""
        base = None
        if s.base is not None:
            try:
                base = filter_from_bytes(s.base)
            except storage.FilterFormatError as exc:
                return f"the filter stored in it is damaged: {exc.reason}", None
            sized = base.capabilities.sized   # when the variants differ the first test already refuses
            if (base.variant, base.scheme) != (s.variant, s.scheme) or \
                    (sized and (base.m, base.k) != (s.m, s.k)):
                return (f"its stored filter is a {base.variant} filter (m = {base.m}, k = {base.k}, {base.scheme}) "
                        f"but the session describes a {s.variant} filter (m = {s.m}, k = {s.k}, {s.scheme})"), None
            if base.m > WINDOW_MAX_M:
                return f"its filter has m = {base.m:,} bits; the window shows at most {WINDOW_MAX_M:,}", None
        else:
            args = s.configure_args()
            args.pop("capacity")
            problem = QtWorkbench.validate_config(**args)
            if problem:
                return problem, None
        return "", base

    def replay(self, s: sessions.Session, base=None) -> int:
        """Make the session's filter and replay its operations at once. Returns how many recorded verdicts differ."""
        self.file.replaying = True
        try:
            with self.wb.quiet():
                self._replay_prepare(s, base)
                from bloomviz.workbench.replay import Stepper
                return Stepper(self.wb, s.operations).run_all()
        finally:
            self._replay_done()

    def _replay_prepare(self, s: sessions.Session, base) -> None:
        # Called with the model quiet: the views follow once, at the end (``announce``).
        wb = self.wb
        probes = min(s.probes, WINDOW_MAX_PROBES)    # said when the session is opened (``_probes_note``)
        if len(wb.probes) != probes:
            wb.set_probe_count(probes)
        self.file.use_seed(s.seed)
        if base is not None:
            wb.install_filter(base, capacity=s.capacity, note=loaded_note(base, "this session", truth=False))
            head, payload = storage.encode(base)
            self.file.base = (head + payload, len(base))
        else:
            if not wb.configure(**s.configure_args()):
                raise ValueError("the workbench refused the session's filter")
            self.file.base = None
        self.file.initial_seed = s.seed

    def _replay_done(self) -> None:
        wb = self.wb
        try:
            wb.announce()   # every view redraws the replayed state, with the last operation explained
        finally:
            self.file.replaying = False

    def _replay_in_steps(self, path: str, s: sessions.Session, base) -> bool:
        """A long session: replayed a few operations per turn of the event loop, with progress and Cancel; a
        cancel puts the window back as it was before Open."""
        wb = self.wb
        before = wb.snapshot()
        kept = self.file.keep()
        self.file.replaying = True
        try:
            with wb.quiet():
                self._replay_prepare(s, base)
        except Exception:
            self.file.replaying = False
            wb.restore(before)
            raise
        wb.announce()     # the views show the new, empty filter while the operations go in
        from bloomviz.workbench.replay import Stepper
        stepper = Stepper(wb, s.operations)
        name = os.path.basename(path)

        def finished(done: int, total: int, cancelled: bool) -> None:
            wb.jobFinished.disconnect(finished)
            if cancelled:
                self.file.replaying = False
                wb.restore(before)
                self.file.put_back(kept)
                self.file.status(f"Opening {name} cancelled after {done:,} of {total:,} operations; the window is "
                             "as it was before.")
                return
            self._replay_done()
            self._opened(path, s, stepper.mismatched)

        wb.jobFinished.connect(finished)
        if not wb.run_steps(stepper.step, stepper.total, ptr("job", "operations of {name}").format(name=name)):
            finished(0, stepper.total, True)
            return False
        return True


def _probes_note(s: sessions.Session) -> str:
    """A session saved with more probes than the window measures with is measured with the window's most, said."""
    if s.probes <= WINDOW_MAX_PROBES:
        return ""
    return (f" It was measured with {s.probes:,} probes; the window measures with at most {WINDOW_MAX_PROBES:,}, "
            f"so its rates here are over {WINDOW_MAX_PROBES:,} probes.")
