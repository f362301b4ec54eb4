"""A lesson's Markdown images: only files beside the lesson, in its own folder, bounded in size.

A lesson is a file someone sent. Qt's Markdown view loads an image from whatever a lesson names:
``![x](/dev/zero)`` read /dev/zero until the window was killed, ``../../`` or ``file://`` reached any file,
a FIFO blocked for ever. So an image is shown only when its reference is a relative path without ``..``
and without a scheme (no ``file:``, ``http:``, ``data:``), it resolves (symbolic links followed) inside the
lesson's folder, and it is a regular file of at most ``MAX_IMAGE_BYTES``; otherwise it is not loaded.
``bloomviz lesson --check`` names every image that would not be shown, with its line (``problems``), so an
author sees it before a class does. A built-in lesson has no folder of its own: it shows no images.

Pure Python: the Lesson tab's text view (``gui/lesson_tab/images.py``) asks ``load`` for the bytes.
"""

from __future__ import annotations

import os
import re
import stat
from urllib.parse import unquote

MAX_IMAGE_BYTES = 4 * 1024 * 1024
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_INLINE = re.compile(r"!\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)")
_USE = re.compile(r"!\[([^\]]*)\](?:\[([^\]]*)\])?")
_DEFINITION = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)")


def folder_of(lesson_path: str | None) -> str | None:
    """The folder a lesson's images may come from, or None (a built-in lesson, text with no file)."""
    if not lesson_path or lesson_path.startswith(("builtin:", "<")):
        return None
    return os.path.dirname(os.path.abspath(lesson_path))


def refusal(folder: str | None, reference: str) -> str | None:
    """Why the image ``reference`` is not shown for a lesson in ``folder``, or None when it is."""
    target = unquote(reference.strip().strip("<>"))
    if folder is None:
        return "only a lesson file's own folder holds its images (this lesson has none)"
    if _SCHEME.match(target) or target.startswith("//"):
        return "a URL (file:, http:, data: …): a lesson shows only images in its own folder"
    if not target or os.path.isabs(target) or target.startswith(("/", "\\")):
        return "an absolute path: a lesson shows only images in its own folder"
    if ".." in re.split(r"[/\\]", target):
        return "'..' leaves the lesson's folder"
    root = os.path.realpath(folder)
    real = os.path.realpath(os.path.join(root, target))
    if os.path.commonpath([root, real]) != root:
        return "a symbolic link out of the lesson's folder"
    try:
        st = os.stat(real)
    except OSError as exc:
        return exc.strerror or "cannot be read"
    if not stat.S_ISREG(st.st_mode):
        from bloomviz.disk.safe_files import describe_kind
        return f"{describe_kind(st.st_mode)}, not an image file"
    if st.st_size > MAX_IMAGE_BYTES:
        return f"{st.st_size:,} bytes, more than the {MAX_IMAGE_BYTES:,} an image may have"
    return None


def load(folder: str | None, reference: str) -> bytes | None:
    """The image's bytes when ``refusal`` allows it (read through the regular-file gate), else None."""
    if refusal(folder, reference) is not None:
        return None
    from bloomviz.disk.safe_files import open_regular
    path = os.path.realpath(os.path.join(folder, unquote(reference.strip().strip("<>"))))
    try:
        with open_regular(path, MAX_IMAGE_BYTES, "an image") as fh:
            data = fh.read(MAX_IMAGE_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= MAX_IMAGE_BYTES else None


def references(text: str) -> list[tuple[int, str]]:
    """(line, reference) of every Markdown image in ``text``: inline ``![x](ref)`` and reference style
    ``![x][id]`` / ``![id]`` with ``[id]: ref`` anywhere."""
    lines = text.splitlines()
    defined = {}
    for number, line in enumerate(lines, start=1):
        got = _DEFINITION.match(line)
        if got:
            defined[got.group(1).strip().lower()] = (number, got.group(2))
    found = []
    for number, line in enumerate(lines, start=1):
        found += [(number, m.group(1)) for m in _INLINE.finditer(line)]
        for m in _USE.finditer(line):
            if line[m.end():m.end() + 1] == "(":
                continue   # inline, counted above
            key = (m.group(2) or m.group(1)).strip().lower()
            if key in defined:
                found.append((defined[key][0], defined[key][1]))
    return found


def problems(text: str, lesson_path: str | None) -> list[tuple[int, str, str]]:
    """(line, reference, why) of every image the lesson names that would not be shown."""
    folder = folder_of(lesson_path)
    return [(line, ref, why) for line, ref in references(text) if (why := refusal(folder, ref)) is not None]
