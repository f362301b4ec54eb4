"""Opening a user's file without hanging or swallowing a device: the one gate every reader goes through.

A path a person types or picks can name anything: a FIFO (``open`` for reading blocks until a writer comes, which
may be never), a socket, a terminal, ``/dev/zero`` or ``/dev/urandom`` (endless: a reader that reads "the whole
file" fills memory), a directory. None of these is a file of items, a ``.bloom`` filter or a session, so they
are refused by *kind*, before a single byte is read, with a message naming the path and what it is.

``open_regular(path, limit)`` is the gate. It ``stat``s the path first (so a device is never even opened: opening
some devices has effects), then opens it with ``O_NONBLOCK`` (should the path be swapped for a FIFO between the
``stat`` and the ``open``, the open still returns at once) and checks the opened descriptor again with ``fstat``,
which is the check that counts. ``limit`` refuses a file larger than the caller can hold, from its size, before
reading. Then ``O_NONBLOCK`` is cleared: on a regular file it changes nothing, and the caller gets an ordinary
binary file object.

``check_writable_target(path)`` is the gate for writers: an existing target must be a regular file (or a link to
one) that we may write to. Writers replace a target by renaming a temporary file over it, so a read-only target
would otherwise be replaced without a word.

Errors are ``OSError`` subclasses whose ``filename`` is the path, so existing ``except OSError`` handlers (the
command line's one-line messages, the window's dialogs) report them unchanged. The window calls the same
functions (File → Open, Insert from file, ``--open``). Pure Python: no Qt.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

__all__ = ["NotARegularFileError", "FileTooLargeError", "describe_kind", "check_regular", "open_regular",
           "check_writable_target", "open_stream_for_writing"]


class NotARegularFileError(OSError):
    """The path names something other than a regular file (a FIFO, a socket, a device, ...)."""


class FileTooLargeError(OSError):
    """The file is larger than what the reader accepts; nothing was read."""


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def describe_kind(mode: int) -> str:
    """What a stat mode names, in words: 'a regular file', 'a FIFO (named pipe)', 'a character device', ..."""
    if stat.S_ISREG(mode):
        return "a regular file"
    for test, words in _KINDS:
        if test(mode):
            return words
    return "a special file"


def _refuse(path: str, mode: int, what: str):
    kind = describe_kind(mode)
    if stat.S_ISDIR(mode):
        # IsADirectoryError keeps the type callers already test for; the text says the same as for the rest.
        raise IsADirectoryError(errno.EISDIR, f"is a directory, not {what}", path)
    raise NotARegularFileError(errno.EINVAL, f"is {kind}, not a regular file (expected {what})", path)


def _path_text(path) -> str:
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    return os.fsdecode(path)


def check_regular(path, what: str = "a regular file") -> os.stat_result:
    """The stat of ``path`` (symlinks followed) if it is a regular file; else NotARegularFileError or
    IsADirectoryError saying what it is (FileNotFoundError etc. as ``os.stat`` raises them)."""
    text = _path_text(path)
    st = os.stat(text)
    if not stat.S_ISREG(st.st_mode):
        _refuse(text, st.st_mode, what)
    return st


def open_regular(path, limit: int | None = None, what: str = "a regular file", buffering: int = -1) -> BinaryIO:
    """``path`` opened for binary reading, only if it is a regular file of at most ``limit`` bytes.

    ``what`` names what the caller expected ("a file of items", "a .bloom file"), for the message. The size is
    checked from ``fstat``, before any read; a file that grows afterwards is the caller's to bound (read in
    pieces up to the limit)."""
    text = _path_text(path)
    check_regular(text, what)
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(text, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):   # swapped between the stat and the open
            _refuse(text, st.st_mode, what)
        if limit is not None and st.st_size > limit:
            raise FileTooLargeError(errno.EFBIG, f"is {st.st_size:,} bytes, more than the limit of {limit:,} "
                                                 f"bytes for {what}", text)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb", buffering=buffering)
    except BaseException:
        os.close(fd)
        raise


def check_writable_target(path, what: str = "the file") -> os.stat_result | None:
    """Refuse to write over anything but a writable regular file. Returns the target's stat (symlinks followed),
    or None when nothing exists there yet. A dangling symlink is refused (the write would land who knows where).
    """
    text = _path_text(path)
    if text == "":
        raise FileNotFoundError(errno.ENOENT, "an empty file name", text)
    try:
        st = os.stat(text)
    except FileNotFoundError:
        if os.path.islink(text):
            raise FileNotFoundError(errno.ENOENT, "is a symbolic link to a missing file", text) from None
        return None
    if not stat.S_ISREG(st.st_mode):
        _refuse(text, st.st_mode, what)
    # The mode bits as well as access(): root may write anything, but a file with no write bit was protected on
    # purpose, and a save would silently replace it.
    if not st.st_mode & 0o222 or not os.access(text, os.W_OK):
        raise PermissionError(errno.EACCES, f"is read-only: {what} was not replaced", text)
    return st


def open_stream_for_writing(path):
    """A binary, unbuffered-at-the-OS file opened for writing on an existing device or FIFO (``/dev/null``,
    ``/dev/stdout``, a pipe a reader holds open): output that is a stream rather than a file to replace.

    A FIFO that no process is reading is refused at once (``O_NONBLOCK`` makes the open fail with ENXIO instead
    of waiting for a reader forever); a socket or a directory is refused by its kind."""
    text = _path_text(path)
    st = os.stat(text)
    if stat.S_ISDIR(st.st_mode) or stat.S_ISSOCK(st.st_mode):
        _refuse(text, st.st_mode, "a file to write")
    try:
        fd = os.open(text, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO and stat.S_ISFIFO(st.st_mode):
            raise NotARegularFileError(errno.ENXIO, "is a FIFO (named pipe) that no process is reading: writing "
                                                    "to it would wait forever", text) from None
        raise
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise
