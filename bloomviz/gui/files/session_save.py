"""File → New session, Save, Save as: the session kept as its recipe (``bloomviz.files.session``).

``SessionSaving`` is a part ``session_io.FileActions`` holds, handed the workbench it saves, the window (for
the lesson's place), the dialogs, the recent files, the window's ``OpenFile`` and the question asked before
unsaved work is lost; ``current_session`` turns the window's history into the session's operations.
"""

from __future__ import annotations

from bloomviz import __version__
from bloomviz.files import session as sessions
from bloomviz.files import storage
from bloomviz.items.generated import GeneratedRun
from bloomviz.gui.files.file_paths import SESSION_FILTER, save_failure, with_suffix
from bloomviz.gui.files.filter_files import filter_args
from bloomviz.gui.files.open_file import refuse_busy
from bloomviz.i18n import number, tr


def _generated(run: GeneratedRun) -> sessions.SavedOperation:
    """A run of generated items kept as its numbers (a session after 10^7 auto-played items wrote 10^7 strings)."""
    return sessions.SavedOperation(sessions.GENERATED, run=(run.items.prefix, run.items.seed, run.start, run.stop))


class SessionSaving:
    """New, Save and Save as of ``FileActions``."""

    def __init__(self, wb, window, dialogs, recent, file, may_discard):
        self.wb, self.window, self.dialogs, self.recent = wb, window, dialogs, recent
        self.file = file                     # open_file.OpenFile: the path, unsaved state, loaded base
        self.may_discard = may_discard       # (action) -> bool: the unsaved-changes question

    # --- sessions: save -------------------------------------------------------------------------------------
    def current_session(self) -> tuple[sessions.Session, str]:
        """The session to save, and a warning ("" when none): what could not be kept."""
        wb, flt = self.wb, self.wb.filter
        args = filter_args(flt, wb.variant)
        ops: list[sessions.SavedOperation] = []
        warning = ""
        start = 0    # wb.items holds every insert in order (a removal does not take its item out)
        for e in wb.history:
            if e.op == sessions.BATCH:
                for piece in wb.items.pieces(start, start + e.count):
                    ops.append(_generated(piece) if isinstance(piece, GeneratedRun) else
                               sessions.SavedOperation(sessions.BATCH, items=tuple(piece)))
                start += e.count
            elif e.op in (sessions.INSERT, sessions.LOOKUP, sessions.REMOVE):
                ops.append(sessions.SavedOperation(e.op, item=e.item, verdict=e.verdict))
                start += e.op == sessions.INSERT
            else:
                raise ValueError(f"the history holds a {e.op!r} operation, which a session cannot store yet")
        base = None
        if not wb.truth_known:
            inserted = sum(len(op.items) if op.op == sessions.BATCH else op.run[3] - op.run[2]
                           if op.op == sessions.GENERATED else
                           {sessions.INSERT: 1, sessions.REMOVE: -1}.get(op.op, 0) for op in ops)
            if self.file.base is not None and self.file.base[1] + inserted == len(flt):
                base = self.file.base[0]
            else:
                head, payload = storage.encode(flt)
                base, ops = head + payload, []
                warning = ("The filter was loaded without its items and its operations since cannot be told "
                           "apart from it: the session keeps the filter as it is now, without its history.")
        from bloomviz.gui.lesson_tab.session_link import place_of   # (the lesson tab's, at saving only)
        s = sessions.Session(variant=wb.variant, scheme=flt.scheme, m=args["m"], k=args["k"], params=args["params"],
                             capacity=wb.capacity, probes=len(wb.probes), seed=self.file.initial_seed,
                             operations=ops, base=base, saved_by=f"bloomviz {__version__}",
                             lesson=place_of(getattr(self.window, "lesson_view", None)))
        return s, warning

    def save(self) -> bool:
        if self.file.path is None:
            return self.save_as()
        return self.write_session(self.file.path)

    def save_as(self) -> bool:
        default = self.file.path or "session.bloomviz"
        path = self.dialogs.save_path("Save the session", SESSION_FILTER, default)
        if not path:
            return False
        return self.write_session(with_suffix(path, sessions.SUFFIX))

    def write_session(self, path: str) -> bool:
        title = "Save the session"
        self.wb.flush()     # the operations not yet delivered would mark the saved session unsaved after it
        if refuse_busy(self.wb, self.dialogs, title):
            return False
        try:
            s, warning = self.current_session()
            sessions.save(s, path)
        except (OSError, ValueError, TypeError) as exc:
            self.dialogs.error(title, save_failure("the session", path, exc))
            return False
        if warning:
            self.dialogs.info(title, warning)
        self.recent.add(path)
        self.file.saved(path)
        lesson = "" if s.lesson is None else tr(" and the lesson at step {step} with its votes").format(
            step=s.lesson.step)
        self.file.status(tr("Saved the session ({count} operations{lesson}) to {path}").format(
            count=number(len(s.operations)), lesson=lesson, path=path))
        return True

    def new_session(self) -> bool:
        """An empty filter of the current kind, with no file behind it."""
        if refuse_busy(self.wb, self.dialogs, "New session") or not self.may_discard("start a new session"):
            return False
        wb, flt = self.wb, self.wb.filter
        args = filter_args(flt, wb.variant)
        if not wb.configure(args["m"], args["k"], flt.scheme, variant=wb.variant, capacity=wb.capacity,
                            **args["params"]):
            return False
        self.file.saved(None)
        return True
