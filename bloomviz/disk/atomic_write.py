"""Writing a file so that a crash, a kill or a full disk never leaves the user's file half-written.

``AtomicWriter(path)`` writes to a hidden temporary file beside the target, and ``commit()`` flushes it to disk
and renames it over the target (``os.replace``): until then the old file is whole, after it the new one is.
Every saver uses it: ``.bloom`` filters (storage), sessions (session), the CSVs of ``simulate`` and ``explore``,
the window's pictures and plot exports (``write_bytes``: made in memory, then written) and the History CSV;
a producer that insists on writing by file name (pyqtgraph's CSV exporter) writes the temporary by name
(``write_by_name``). So a FIFO or device chosen in a save dialog is refused instead of freezing the window,
and a read-only or 0600 file is treated like any other save.

What it decides, and why:

- **Symbolic links are kept.** The target is the link's *target* (``os.path.realpath``): a rename over the link
  itself would replace the link with a regular file and leave the file it pointed to stale.
- **A read-only target is refused** (``PermissionError``) instead of being replaced: a rename needs only the
  directory's permission, so without this check a file the user protected would be overwritten silently.
  Anything but a regular file (a directory, a FIFO, a device) is refused too (``safe_files``).
- **Stale temporaries are removed.** A save killed between creating its temporary file and the rename leaves
  the temporary behind (as large as the file). Temporary names carry a fixed mark,
  ``.<target name>.bloomviz-<8 random characters>.tmp``, so the next save to the same directory deletes such
  files that are regular files owned by us and whose save is over: a writer holds an exclusive ``flock`` on its
  temporary while it writes (the kernel drops it when the process dies, however it dies, ``kill -9``
  included), so a temporary nobody holds and older than ``UNLOCKED_AFTER`` seconds (the instant between
  creating and locking it) belongs to a dead save. Where ``flock`` is missing, only age tells: older than
  ``STALE_AFTER``. Nothing else is ever deleted. (SIGTERM and Ctrl-C are turned into exceptions by the command
  line, so a terminated command discards its temporary itself.)
- **The new file keeps the old one's permission bits**, or gets what ``open()`` would give (0o666 minus the
  umask). The directory is fsynced after the rename where the platform allows, so the rename itself is durable.

Pure Python: no Qt.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import tempfile
import threading
import time

try:
    import fcntl
except ImportError:   # Windows: only age tells a dead save's temporary
    fcntl = None

from bloomviz.disk.safe_files import check_writable_target

__all__ = ["AtomicWriter", "TEMP_MARK", "STALE_AFTER", "is_our_temporary", "clean_stale_temporaries",
           "write_bytes", "write_by_name", "discard_unfinished"]

TEMP_MARK = ".bloomviz-"
TEMP_SUFFIX = ".tmp"
STALE_AFTER = 15 * 60   # seconds; a real save takes seconds, so a temporary this old belongs to a dead save
UNLOCKED_AFTER = 2.0    # seconds; a live writer locks its temporary microseconds after creating it
# tempfile's random part: 8 characters from a-z, 0-9 and '_' (tempfile._RandomNameSequence)
_OURS = re.compile(r"^\..+" + re.escape(TEMP_MARK) + r"[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX) + r"$", re.DOTALL)


def is_our_temporary(name: str) -> bool:
    """Whether a file name has the exact shape of an AtomicWriter temporary."""
    return bool(_OURS.match(name))


def clean_stale_temporaries(directory: str, now: float | None = None, older_than: float = STALE_AFTER) -> list[str]:
    """Delete our own temporaries in ``directory`` whose save is over (no writer holds its lock; without
    ``flock``, older than ``older_than`` seconds); return the paths deleted.
    Errors (a file vanished, no permission) are ignored: cleaning is a courtesy, never a reason to fail a save."""
    now = time.time() if now is None else now
    removed = []
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for name in names:
        if not is_our_temporary(name):
            continue
        path = os.path.join(directory, name)
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid):
                continue
            age = now - st.st_mtime
            # With locks a running save is known for sure, even one past older_than (a long simulate's CSV).
            dead = age >= UNLOCKED_AFTER and _nobody_holds(path) if fcntl is not None else age >= older_than
            if not dead:
                continue
            os.unlink(path)
            removed.append(path)
        except OSError:
            continue
    return removed


def _nobody_holds(path: str) -> bool:
    """Whether no process holds the writer's lock on this temporary (its save died); False when unsure."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    else:
        return True
    finally:
        os.close(fd)   # closing drops the lock we just took


def _hold(fileno: int) -> None:
    if fcntl is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(fileno, fcntl.LOCK_EX | fcntl.LOCK_NB)


def new_file_mode() -> int:
    """The mode ``open()`` gives a new file: 0o666 minus the umask. Read from /proc where it exists, because
    reading it through os.umask would briefly change it for every thread."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o644


class AtomicWriter:
    """A binary file written under a temporary name and renamed over ``path`` by ``commit()``.

    Use as a context manager (commits when the block ends normally, discards on an exception), or call
    ``commit()``/``discard()``. The constructor refuses a bad target (``OSError`` naming it) before anything is
    written, so a caller can open it before long work and fail at once."""

    def __init__(self, path, what: str = "the file"):
        text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else path
        if not isinstance(text, str):
            raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
        existing = check_writable_target(text, what)
        self.path = text
        self.target = os.path.realpath(text)   # through a symlink: the link stays, its target gets the bytes
        self.directory, name = os.path.split(self.target)
        self.mode = stat.S_IMODE(existing.st_mode) if existing is not None else new_file_mode()
        clean_stale_temporaries(self.directory)
        with _stops_held():   # a Ctrl-C between making the temporary and knowing its name would leave it
            self.file = tempfile.NamedTemporaryFile(mode="wb", delete=False, dir=self.directory,
                                                    prefix=f".{name}{TEMP_MARK}", suffix=TEMP_SUFFIX)
            self.temp: str | None = self.file.name
            _unfinished.add(self)
        try:
            _hold(self.file.fileno())
        except BaseException:
            self.discard()
            raise

    def write(self, data) -> int:
        return self.file.write(data)

    def commit(self) -> None:
        if self.temp is None:
            raise ValueError("this AtomicWriter was already committed or discarded")
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            with contextlib.suppress(OSError):   # e.g. a file system without permission bits
                os.chmod(self.temp, self.mode)
            os.replace(self.temp, self.target)
        except BaseException:
            self.discard()
            raise
        self.temp = None
        _unfinished.discard(self)
        _fsync_directory(self.directory)

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None
        _unfinished.discard(self)

    def __enter__(self) -> "AtomicWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()


# Writers neither committed nor discarded. A command stopped by Ctrl-C or SIGTERM can be stopped before its
# writer is inside a ``with`` or ``try`` that would discard it (under load, between ``open_csv`` and the run);
# the command line's stop handler discards what is left here. Held strongly: a writer dropped by the unwinding
# is exactly the one whose temporary must still go.
_unfinished: "set[AtomicWriter]" = set()


def discard_unfinished() -> int:
    """Discard every writer not committed or discarded yet; returns how many there were."""
    writers = list(_unfinished)
    for writer in writers:
        writer.discard()
    return len(writers)


@contextlib.contextmanager
def _stops_held():
    """SIGINT and SIGTERM held back (delivered at the end) on the main thread, where Python runs handlers."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _fsync_directory(directory: str) -> None:
    try:
        fd = os.open(directory or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(path, data: bytes, what: str = "the file") -> None:
    """``data`` written to ``path`` through an AtomicWriter (the target's checks, mode and rename)."""
    with AtomicWriter(path, what) as writer:
        writer.write(data)


def write_by_name(path, produce, what: str = "the file") -> None:
    """``produce(temporary_path)`` writes the file by name; it then replaces ``path`` as any save does. For
    producers that take only a file name; the temporary's name ends in ``.tmp``, so a producer that picks the
    file type by suffix must be told the type."""
    writer = AtomicWriter(path, what)
    try:
        writer.file.close()
        produce(writer.temp)
        writer.file = open(writer.temp, "rb+")   # commit() fsyncs through it
        _hold(writer.file.fileno())
    except BaseException:
        writer.discard()
        raise
    writer.commit()
