r"""Items: the one encoding policy (item -> bytes) and the item sources.

Every item becomes bytes here and nowhere else: ``str`` is UTF-8 with ``surrogatepass``, ``bytes`` pass through.
Anything else is refused with a TypeError, because silently calling ``str()`` on it would make ``1`` and ``"1"``
the same member.

Decided (issue 13) and kept consistent across ``add``, ``update``, ``in``, ``lookup`` and the batch paths:

- **Lone surrogates are accepted.** ``"\ud800"`` is a valid Python ``str`` (it comes out of
  ``os.fsdecode``/``surrogateescape`` file names and of JSON ``"\ud800"``); ``surrogatepass`` gives it the
  bytes ``ED A0 80``, so it is a distinct, reproducible item, never an error and never equal to another string.
  Sessions store such text as ``{"text_base64": ...}`` and read it back as the same ``str``. (It is never
  handed to mmh3 as a ``str``: mmh3 5.3.1 crashes the interpreter on one.)
- **Bytes-like objects are accepted as bytes.** A ``bytearray`` or a ``memoryview`` is the item made of its
  current bytes (``bytes(x)``, taken at the call: changing the buffer afterwards changes nothing already
  inserted), the same member as the equal ``bytes``. Refusing them would break callers that read binary
  records into buffers; treating them as anything but their bytes would make equal data different members.
  A session saves them as ``bytes`` items (they come back as ``bytes``).

Files of items are read through ``safe_files.open_regular`` (a FIFO, a socket, a device or a directory is
refused by its kind before any read) in bounded pieces: a line longer than ``MAX_ITEM_BYTES`` is refused
without reading it whole.
"""

from __future__ import annotations

import codecs
import os
from itertools import repeat
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

import numpy as np

from bloomviz.disk.safe_files import NotARegularFileError, open_regular
from bloomviz.theory.limits import MAX_ITEM_BYTES   # a longer "line" is a file that is not one item per line

Item = str | bytes
# `bloomviz --demo N`: the demo's items are made and held in memory at once (about 100 bytes each with their
# hashes), so N is bounded before anything is allocated; the window checks the same number.
MAX_DEMO_ITEMS = 2_000_000


def to_bytes(item: object) -> bytes:
    if isinstance(item, str):
        return item.encode("utf-8", "surrogatepass")
    if isinstance(item, bytes):
        return item
    if isinstance(item, (bytearray, memoryview)):
        return bytes(item)
    raise TypeError(f"an item must be str or bytes (or a bytearray or memoryview, taken as its bytes), "
                    f"got {type(item).__name__}: {item!r:.60}")


class ItemError(ValueError):
    """An item the window refuses (empty, too large, not text)."""


def check_item(item: object) -> bytes:
    """The bytes of one item a person gave (typed, pasted, a lesson's), or ItemError naming what is wrong: not
    str or bytes, empty, or over ``MAX_ITEM_BYTES``. Lone surrogates are accepted (surrogatepass)."""
    try:
        data = item.encode("utf-8", "surrogatepass") if type(item) is str else to_bytes(item)   # (as to_bytes)
    except TypeError as exc:
        raise ItemError(str(exc)) from None
    if not data:
        raise ItemError("the item is empty: type a word, a number, anything, then insert or look it up")
    if len(data) > MAX_ITEM_BYTES:
        raise ItemError(f"the item is {len(data):,} bytes of UTF-8, over the limit of {MAX_ITEM_BYTES:,} bytes "
                        f"(64 KiB); an item is one word, key or line, not a whole document")
    return data


# A text of items, typed, pasted or in a file, holds one item a line, and a line ends at "\n" alone (the "\r" of a
# CRLF ending goes with it): the endings files of items and today's clipboards use (LF, and Windows' CRLF). Nothing
# else ends a line. ``str.splitlines`` also broke a paste at a lone "\r", "\v", "\f", "\x1c"-"\x1e", "\x85",
# U+2028 and U+2029, which a file's reading never did, so one text gave other items by paste than by file; those
# are characters an item may hold (a JSON key may hold U+2028, a record a form feed), and an item is its exact
# bytes, so they stay inside it. (A lone "\r" ended lines on Mac OS 9; no system or clipboard writes that now.)
LINE_END = "\n"


def line_item(line: str) -> str:
    """One line's item: the line (without its "\n") less the "\r" of a CRLF ending; a line is blank when this
    holds only whitespace."""
    return line[:-1] if line.endswith("\r") else line


def item_lines(text: str, report: LineReport | None = None) -> list[str]:
    """The items of ``text`` held one a line, by the rule ``read_item_lines`` reads a file by: split at
    ``LINE_END``, each line's ``line_item``, blank lines skipped (counted in ``report.blank``)."""
    lines = text.split(LINE_END)
    if lines[-1] == "":        # the ending of the last line, not a line after it
        lines.pop()
    found = [item for item in map(line_item, lines) if item.strip()]
    if report is not None:
        report.lines_read, report.items = len(lines), len(found)
        report.blank = len(lines) - len(found)
    return found


def typed_lines(text: str) -> list[str] | None:
    """The items of a text a person typed or pasted when it holds a line ending (``item_lines``: a list, maybe of
    one line or none); None when it holds none: one item, as typed (``check_item`` then checks it whole). The
    window's item box asks this before an insert."""
    return item_lines(text) if LINE_END in text else None


def typed_item(text: str, action: str = "look up") -> str:
    """The one item a text typed into a box that takes one item stands for: the text as typed, or its one line
    when it holds a line ending (a line copied with its ending is that line, as a file holding it gives it).
    Several lines are a list, not an item: ItemError saying so, rather than ``action`` on one string made of
    all of them (the item box's Insert offers a list as items, one a line)."""
    lines = typed_lines(text)
    if lines is None:
        return text
    if len(lines) > 1:
        raise ItemError(f"the box holds {len(lines):,} lines, and {action} takes one item: keep one line (Insert "
                        f"takes several lines as a list of items, one a line)")
    return lines[0] if lines else ""


def to_bytes_list(items: Iterable[object]) -> list[bytes]:
    if isinstance(items, (str, bytes)):
        raise TypeError("expected an iterable of items, got a single "
                        f"{type(items).__name__}; wrap it in a list")
    items = items if isinstance(items, (list, tuple)) else list(items)
    kinds = set(map(type, items))
    if kinds <= {str}:
        return encode_texts(items)
    if kinds <= {bytes}:
        return list(items)
    return [to_bytes(x) for x in items]


def encode_texts(texts: Sequence[str]) -> list[bytes]:
    """``[to_bytes(t) for t in texts]`` for a list of str, by C-level map.

    Strict UTF-8 first: it is a third faster than passing ``surrogatepass`` on every call and gives the same
    bytes whenever it succeeds; only a list holding a lone surrogate is encoded again with ``surrogatepass``.
    """
    try:
        return list(map(str.encode, texts))
    except UnicodeEncodeError:
        return list(map(str.encode, texts, repeat("utf-8"), repeat("surrogatepass")))


def prepare_items(items: Iterable[object]) -> tuple[list, bool]:
    """Check a batch of items once: ``(the str items, True)`` when every item is exactly a str, so hashing can
    encode them chunk by chunk as it goes (bytes are then never all held at once); otherwise
    ``(their bytes, False)``. Raises TypeError like ``to_bytes_list`` before anything is hashed."""
    if isinstance(items, (str, bytes)):
        raise TypeError("expected an iterable of items, got a single "
                        f"{type(items).__name__}; wrap it in a list")
    items = items if isinstance(items, list) else list(items)
    if set(map(type, items)) <= {str}:
        return items, True
    return to_bytes_list(items), False


def describe(item: object, limit: int = 60) -> str:
    """A short printable form of an item for messages and labels."""
    if isinstance(item, bytes):
        text = repr(item)
    else:
        text = str(item).encode("unicode_escape", "backslashreplace").decode("ascii") \
            if any(0xD800 <= ord(c) <= 0xDFFF or not c.isprintable() for c in str(item)) else str(item)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def random_items(count: int, seed: int = 0, exclude: Iterable[object] = (), prefix: str = "") -> list[str]:
    """``count`` distinct pseudo-random strings, reproducible from ``seed``, none of them in ``exclude``.

    16 hex digits (64 random bits) each, so collisions are rare; they are still checked and redrawn, which is
    what makes the guarantee hold rather than merely be likely. ``exclude`` may instead be an object that answers
    ``among(candidates)`` (the candidates that are excluded) and ``bool`` (whether any are), as ``_Members`` does
    (measure/given_items.py: a list of items checked by their hashes).
    """
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
        raise ValueError(f"count must be a non-negative integer, got {count!r}")
    count = int(count)
    rng = np.random.default_rng(seed)
    members = exclude if hasattr(exclude, "among") else _Members(exclude)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < count:
        need = count - len(out)
        raw = rng.bytes(8 * need)
        if "\n" not in prefix:
            fresh, distinct = _hex_items(raw, need, prefix)
        else:
            text = raw.hex()
            fresh, distinct = [prefix + text[i:i + 16] for i in range(0, 16 * need, 16)], False
        banned = members.among(fresh)
        if distinct and not seen and not banned:
            return fresh  # the usual case: no collision, none excluded, nothing to redraw
        for s in fresh:
            if s in seen or s in banned:
                continue
            seen.add(s)
            out.append(s)
    return out


class _Members:
    """The items a draw must avoid, asked which of a few candidates they hold.

    The candidates (a probe set: 10^4) are looked up among the items, not the items put in a set of their
    bytes: that cost ~850 ns an item for a simulation of a million given items, against ~30-70 here (a C-level
    set intersection). An item equals a candidate when their bytes are equal: a str item when the strings are
    equal (UTF-8 with surrogatepass is one-to-one), a bytes item when it is the candidate's bytes. Items of other
    types are taken as their bytes, or refused, as ``to_bytes`` does, before anything is drawn."""

    def __init__(self, items: Iterable[object]):
        items = items if isinstance(items, (list, tuple, set, frozenset)) else list(items)
        if not set(map(type, items)) <= {str, bytes}:
            items = [to_bytes(x) for x in items]
        self._items = items

    def __bool__(self) -> bool:
        return len(self._items) > 0

    def among(self, candidates: Sequence[str]) -> set[str]:
        """The candidates that are items."""
        if not self._items:
            return set()
        spelled = {s: s for s in candidates}
        spelled.update((s.encode("utf-8", "surrogatepass"), s) for s in candidates)
        return {spelled[hit] for hit in spelled.keys() & self._items}


_HEX_DIGITS = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)


def _hex_items(raw: bytes, need: int, prefix: str) -> tuple[list[str], bool]:
    """``[prefix + raw[8i:8i+8].hex() ...]`` and whether they are all distinct, built in numpy.

    Several times faster than slicing one long hex string item by item (a million items are made for every
    simulation). The prefix must not contain a newline: the items are cut apart with str.split.
    """
    pre = prefix.encode("utf-8", "surrogatepass")
    width = len(pre) + 17
    octets = np.frombuffer(raw, dtype=np.uint8).reshape(need, 8)
    buf = np.empty((need, width), dtype=np.uint8)
    if pre:
        buf[:, :len(pre)] = np.frombuffer(pre, dtype=np.uint8)
    buf[:, len(pre):len(pre) + 16:2] = _HEX_DIGITS[octets >> 4]
    buf[:, len(pre) + 1:len(pre) + 16:2] = _HEX_DIGITS[octets & 15]
    buf[:, -1] = ord("\n")
    fresh = buf.tobytes().decode("utf-8", "surrogatepass").split("\n")
    fresh.pop()  # after the last newline
    # Distinct 8-byte draws <=> distinct items. A sort, not numpy.unique: the latter is far slower here.
    keys = np.sort(np.frombuffer(raw, dtype="<u8"))
    return fresh, not bool(np.any(keys[1:] == keys[:-1]))


@dataclass
class LineReport:
    """What a line-by-line read found besides the items: the lines that could not be decoded."""
    lines_read: int = 0
    items: int = 0
    blank: int = 0
    undecodable: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.undecodable


class ItemFileError(OSError):
    """A file of items cannot be read at all (missing, a directory, a FIFO or device, no permission, binary)."""


class ItemTooLongError(ItemFileError, ValueError):
    """A line of a file of items is longer than ``MAX_ITEM_BYTES`` (also a ValueError: the file's contents, not
    its access, are at fault; the window's jobs report ValueErrors)."""


def _looks_binary(head: bytes) -> bool:
    return b"\x00" in head


def _open_items(p: str):
    try:
        return open_regular(p, what="a text file of items")
    except FileNotFoundError:
        raise ItemFileError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise ItemFileError(f"{p}: is a directory, not a file of items") from None
    except NotARegularFileError as exc:
        raise ItemFileError(f"{p}: {exc.strerror}") from None
    except PermissionError:
        raise ItemFileError(f"{p}: permission denied") from None
    except OSError as exc:
        raise ItemFileError(f"{p}: cannot be read ({exc.strerror or exc})") from None


def check_item_file(path: str | os.PathLike) -> int:
    """Raise ItemFileError naming the file if it cannot be read as text; return its size in bytes."""
    p = os.fspath(path)
    with _open_items(p) as fh:
        try:
            head = fh.read(8192)
        except OSError as exc:
            raise ItemFileError(f"{p}: cannot be read ({exc.strerror or exc})") from None
        size = os.fstat(fh.fileno()).st_size
    if _looks_binary(head):
        raise ItemFileError(f"{p}: looks like a binary file (it contains NUL bytes), not one item per line")
    return size


def read_item_lines(path: str | os.PathLike, report: LineReport | None = None,
                    skip_blank: bool = True, max_item_bytes: int = MAX_ITEM_BYTES) -> Iterator[tuple[str, int]]:
    """Stream ``(item, bytes_consumed_so_far)`` from a UTF-8 text file, one item per line.

    The file is read in binary lines of at most ``max_item_bytes`` (plus room for a BOM and a CRLF), so memory
    stays bounded whatever the file holds: a longer line raises ItemTooLongError naming the line and the limit,
    before the rest of it is read. A BOM at the start is stripped; lines end as ``item_lines`` says (the rule a
    pasted list is split by). A line that is
    not valid UTF-8 is skipped and its 1-based number is recorded in ``report.undecodable`` — never dropped
    silently.
    """
    check_item_file(path)
    report = report if report is not None else LineReport()
    consumed = 0
    p = os.fspath(path)
    piece = max_item_bytes + len(codecs.BOM_UTF8) + 3   # the longest line allowed, with a BOM and CR LF, and 1
    with _open_items(p) as fh:
        for lineno, raw in enumerate(iter(lambda: fh.readline(piece), b""), start=1):
            if len(raw) == piece and not raw.endswith(b"\n"):
                raise ItemTooLongError(f"{p}: line {lineno:,} is longer than the limit of {max_item_bytes:,} "
                                       "bytes for one item (is this a file of one item per line?)")
            consumed += len(raw)
            report.lines_read = lineno
            if lineno == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8):]
            raw = raw.removesuffix(LINE_END.encode())
            crlf = raw.endswith(b"\r")        # line_item takes it away (counted out of the item's size here)
            if len(raw) - crlf > max_item_bytes:
                raise ItemTooLongError(f"{p}: line {lineno:,} is {len(raw) - crlf:,} bytes, over the limit of "
                                       f"{max_item_bytes:,} bytes for one item")
            try:
                text = line_item(raw.decode("utf-8"))
            except UnicodeDecodeError:
                report.undecodable.append(lineno)
                continue
            if skip_blank and not text.strip():
                report.blank += 1
                continue
            report.items += 1
            yield text, consumed
