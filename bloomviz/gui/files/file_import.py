"""Insert from file: every line of a text file becomes an item, streamed through the workbench's job.

The file is read line by line inside the job's source (``read_item_lines``), one chunk per turn of the event
loop, so a 100 MB file is never held at once *as text*; the progress bar and Cancel are the workbench's. The
job is atomic: a cancel, an unreadable line past the start, or an item the window refuses puts the filter,
plot and history back exactly as they were before the import.

Line policy (that of ``read_item_lines``): UTF-8, a BOM at the start is dropped, LF and CRLF endings both
work, a line is taken verbatim otherwise (spaces inside and around it are part of the item), lines holding
only white space are skipped and counted, and lines that are not valid UTF-8 are skipped and listed by number
(in the explain panel and a message) — never dropped silently. A missing file, a directory, a file that
cannot be read, or a binary file is refused with a message naming the file before anything changes.

Memory: the workbench keeps every inserted item (its ground truth, which tells false positives from true
ones) and k positions per insert, so importing N lines costs roughly N x (60 bytes + the line + 4k bytes)
while the file itself is only ever read a chunk at a time.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field

from PySide6 import QtCore

from bloomviz.items.encoding import ItemFileError, LineReport, check_item_file, read_item_lines
from bloomviz.disk.safe_files import check_regular
from bloomviz.gui.files.file_dialogs import Dialogs
from bloomviz.workbench.limits import MAX_ITEM_BYTES
from bloomviz.i18n import ntr, number, ptr, tr

LISTED_LINES = 30   # undecodable line numbers named in the message; the rest are counted


@dataclass
class ImportResult:
    path: str
    inserted: int = 0
    lines: int = 0
    blank: int = 0
    undecodable: list[int] = field(default_factory=list)
    cancelled: bool = False
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.cancelled and not self.error


def line_list(numbers: list[int], limit: int = LISTED_LINES) -> str:
    shown = ", ".join(number(n) for n in numbers[:limit])
    more = tr(" and {count} more").format(count=number(len(numbers) - limit))
    return shown + (more if len(numbers) > limit else "")


def summary(result: ImportResult) -> str:
    """The import's outcome in the window's language (Croatian says each count as a label's value)."""
    name = os.path.basename(result.path)
    parts = [ntr("Inserted {count} item from {name} ({lines} lines read).",
                 "Inserted {count} items from {name} ({lines} lines read).", result.inserted).format(
        count=number(result.inserted), name=name, lines=number(result.lines))]
    if result.blank:
        parts.append(ntr("{count} blank line skipped.", "{count} blank lines skipped.", result.blank).format(
            count=number(result.blank)))
    if result.undecodable:
        count = len(result.undecodable)
        parts.append(ntr("{count} line not valid UTF-8 and skipped: line {lines}.",
                         "{count} lines not valid UTF-8 and skipped: lines {lines}.", count).format(
            count=number(count), lines=line_list(result.undecodable)))
    return " ".join(parts)


class FileImport(QtCore.QObject):
    """Runs one import at a time through ``workbench.run_job(atomic=True)``; ``finished`` gives an ImportResult."""

    finished = QtCore.Signal(object)
    message = QtCore.Signal(str)      # for the status bar

    def __init__(self, workbench, dialogs: Dialogs | None = None, parent=None, file=None):
        """``file``: the window's ``OpenFile``, told when an import is taken back (not "unsaved" for it)."""
        super().__init__(parent)
        self.wb = workbench
        self.file = file
        self._file_kept = None
        self.dialogs = dialogs if dialogs is not None else Dialogs()
        self._running: ImportResult | None = None
        self._lines = None
        self._report: LineReport | None = None

    @property
    def running(self) -> bool:
        return self._running is not None

    def start(self, path) -> bool:
        """Begin importing ``path``. False (with a message naming the file) when it cannot start."""
        path = os.fspath(path)
        title = "Insert from file"
        if self._running is not None or self.wb.busy:
            self.dialogs.error(title, tr("Another bulk insert is running; cancel it first (Esc)."))
            return False
        try:
            # Refused by its kind before anything is opened (a FIFO would block the window forever). The lines
            # are not counted first (2.7 s frozen on a 1 GiB file): progress is estimated from the bytes read.
            size = check_regular(path, "a text file of items").st_size
            check_item_file(path)
        except ItemFileError as exc:
            self.dialogs.error(title, tr("Cannot insert from this file:\n{reason}").format(reason=exc))
            return False
        except FileNotFoundError:
            self.dialogs.error(title, tr("Cannot insert from this file:\n{reason}").format(
                reason=tr("{path}: no such file").format(path=path)))
            return False
        except OSError as exc:
            self.dialogs.error(title, tr("Cannot insert from this file:\n{reason}").format(
                reason=f"{path}: {exc.strerror or exc}"))
            return False
        if size == 0:
            self.dialogs.info(title, tr("{path} is empty: there is nothing to insert.").format(path=path))
            return False
        report = LineReport()
        lines_iter = read_item_lines(path, report)
        consumed = [0]

        def source(count: int) -> list:
            items = []
            for text, consumed[0] in itertools.islice(lines_iter, count):
                length = len(text.encode("utf-8", "surrogatepass"))
                if length > MAX_ITEM_BYTES:
                    raise ValueError(f"{path}: line {report.lines_read:,} is {length:,} bytes, over the limit of "
                                     f"{MAX_ITEM_BYTES:,} bytes for one item (is this a file of one item per "
                                     "line?)")
                items.append(text)
            return items

        def progress() -> tuple[int, int]:
            # Lines read so far, and the whole file's lines estimated from the bytes they took.
            read = report.lines_read
            if not consumed[0]:
                return read, max(1, size // 16)
            return read, max(read, round(read * size / consumed[0]))

        self._running = ImportResult(path=path)
        self._lines, self._report = lines_iter, report
        self._file_kept = self.file.keep() if self.file is not None else None
        self.wb.error.connect(self._on_error)
        self.wb.jobFinished.connect(self._on_finished)
        # A file of ``size`` bytes has at most size + 1 lines: the job's bound; the file's end ends the job.
        if not self.wb.run_job(source, size + 1, label=ptr("job", "lines of {name}").format(name=os.path.basename(path)), atomic=True,
                               progress_of=progress):
            self._disconnect()
            self._running = None
            lines_iter.close()
            return False
        return True

    def cancel(self) -> None:
        if self._running is not None:
            self.wb.cancel()

    def _disconnect(self) -> None:
        for signal, slot in ((self.wb.error, self._on_error), (self.wb.jobFinished, self._on_finished)):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass

    def _on_error(self, message: str) -> None:
        if self._running is not None and not self._running.error:
            self._running.error = message

    def _on_finished(self, done: int, total: int, cancelled: bool) -> None:
        result, report = self._running, self._report
        self._disconnect()
        self._running = None
        if self._lines is not None:
            self._lines.close()
            self._lines = None
        result.cancelled = cancelled
        if cancelled and self._file_kept is not None:    # (an import is all or nothing: taken back whole)
            self.file.put_back(self._file_kept)
        self._file_kept = None
        if not cancelled:
            result.error = ""   # something else refused while the import ran: not the import's failure
        result.inserted = 0 if cancelled else done
        result.lines = report.lines_read
        result.blank = report.blank
        result.undecodable = list(report.undecodable)
        title = "Insert from file"
        if result.error:
            self.dialogs.error(title, f"{result.error}\n\n" + tr("Nothing was inserted: the filter, plot and history "
                                                                  "are as they were before the import."))
        elif cancelled:
            self.message.emit(tr("Insert from {name} cancelled; the filter is as it was before.").format(
                name=os.path.basename(result.path)))
        else:
            text = summary(result)
            self.wb.explain_note("Insert from file", text)
            if result.undecodable:
                self.dialogs.info(title, text, details="Lines that are not valid UTF-8:\n"
                                  + ", ".join(str(n) for n in result.undecodable))
            else:
                self.message.emit(text)
        self.finished.emit(result)
