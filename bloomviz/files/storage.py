"""The ``.bloom`` file format: ``save(filter, path)``, ``load(path)``, ``read_header(path)``.

Version 1 layout (every integer little-endian; docs/file-format.md has the byte table)::

    magic          8 bytes   b"BLOOMVZ\\0"
    version        u16       1
    variant id     u8 length (1..32) + ASCII           "standard", "counting", ...
    scheme id      u8 length (1..32) + ASCII           a key of hashing.SCHEMES
    m              u64       1 .. 2^34
    k              u16       1 .. 64
    count          u64       inserts, 0 .. 2^53 (validate.MAX_N: one limit for files, filters and formulas)
    param count P  u16       0 .. 16; exactly the names the variant stores (persist.stored_params of its class)
    P params       u8 length (1..32) + ASCII name, u8 type (b"i" int64 | b"f" float64), 8-byte value
    payload length u64       must equal what the variant, m and params imply, and the bytes left in the file
    crc32          u32       zlib.crc32 over every header byte before this field, continued over the payload
    payload        payload length bytes, ``persist.payload_of(flt)``

Loading reads the header field by field and checks all of it before it reads the payload, so a damaged or
hostile file costs no more memory than its own size, whatever m it claims. Only then is the payload read, its
CRC compared, and the filter built by ``persist.from_state``. ``load`` is pure: it returns a new filter
and touches nothing else.

Problems with the file's contents raise ``FilterFormatError`` (a ``ValueError``) whose message starts with the
path and says what was wrong. Problems reaching the file (missing, a directory, no permission) raise the usual
``OSError`` subclass, whose ``filename`` is the path: a caller can tell "cannot open" from "not a valid file".

Only regular files are read: a FIFO, a socket or a device is refused by its kind before any read
(``safe_files``). Saving writes a temporary file in the target's directory, flushes and fsyncs it, then renames
it over the target (``atomic_write``), so an interrupted save leaves the old file whole. Nothing is pickled or
evaluated.
"""

from __future__ import annotations

import contextlib
import io
import math
import numbers
import os
import struct
import zlib
from dataclasses import dataclass, field

from bloomviz.filters import persist
from bloomviz.hashing import schemes as hashing
from bloomviz.disk.atomic_write import AtomicWriter
from bloomviz.disk.safe_files import NotARegularFileError, open_regular
from bloomviz.theory.validate import MAX_K, MAX_M, MAX_N
from bloomviz.filters.registry import VARIANTS

MAGIC = b"BLOOMVZ\x00"
VERSION = 1
MAX_ID_LENGTH = 32  # variant ids, scheme ids and parameter names
MAX_PARAMS = 16
# One rule for an insert count everywhere (load, save, inspect, check, the window): 0 .. 2^53, the range the
# formulas hold exactly as floats (validate.MAX_N). A count the theory cannot use is refused when read.
MAX_COUNT = MAX_N
INT, FLOAT = b"i", b"f"

_ID_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
_U16, _U32, _U64 = struct.Struct("<H"), struct.Struct("<I"), struct.Struct("<Q")
_VALUE = {INT: struct.Struct("<q"), FLOAT: struct.Struct("<d")}


class FilterFormatError(ValueError):
    """A file is not a valid ``.bloom`` file. ``reason`` says what was wrong; ``path`` names the file."""

    def __init__(self, reason: str, path: object = None):
        self.reason = reason
        self.path = None if path is None else os.fsdecode(path)
        super().__init__(reason if path is None else f"{self.path}: {reason}")


@dataclass(frozen=True)
class Header:
    """A file's header as stored. ``crc`` is the stored CRC32 (``load`` checks it against the payload)."""

    version: int
    variant: str
    scheme: str
    m: int
    k: int
    count: int
    params: dict = field(default_factory=dict)
    payload_length: int = 0
    crc: int = 0

    @property
    def size(self) -> int:
        """Bytes from the start of the file to the start of the payload."""
        names = sum(1 + len(name) + 1 + 8 for name in self.params)
        return len(MAGIC) + 2 + 1 + len(self.variant) + 1 + len(self.scheme) + 8 + 2 + 8 + 2 + names + 8 + 4


# --- what each variant stores --------------------------------------------------------------------------------
# Each filter class declares it (``_stored_params``: name -> int or float; ``_payload_size(m, params)``: the
# payload's lowest and highest size in bytes), so a registered variant can be saved and loaded with no line here.
_TAGS = {int: INT, float: FLOAT}


@dataclass(frozen=True)
class _Layout:
    params: dict  # name -> INT or FLOAT
    payload_bytes: object  # (m, params) -> (lowest, highest)


def _layout(variant: str) -> _Layout:
    cls = VARIANTS[variant]
    return _Layout({name: _TAGS[kind] for name, kind in persist.stored_params(cls).items()},
                   lambda m, params: persist.payload_size(cls, m, params))


def supported_variants() -> tuple[str, ...]:
    """Variant ids this version can save and load."""
    return tuple(VARIANTS)


# --- reading -------------------------------------------------------------------------------------------------
class _Reader:
    """Reads exact byte counts from an open file, refusing to go past the size measured at open, and keeps the
    running CRC32 of what it has read."""

    def __init__(self, f, size: int, path):
        self.f, self.size, self.path = f, size, path
        self.pos = 0
        self.crc = 0

    def fail(self, reason: str):
        raise FilterFormatError(reason, self.path)

    def take(self, n: int, what: str, crc: bool = True) -> bytes:
        left = self.size - self.pos
        if n > left:
            self.fail(f"truncated: {what} at byte offset {self.pos} needs {n} bytes, the file has {left} left "
                      f"(file size {self.size})")
        data = self.f.read(n)
        if len(data) < n:  # a short read from a raw file: keep going; the size was checked above
            parts = [data]
            got = len(data)
            while got < n:
                more = self.f.read(n - got)
                if not more:
                    self.fail(f"the file shrank while being read ({what} at byte offset {self.pos})")
                parts.append(more)
                got += len(more)
            data = b"".join(parts)
        self.pos += n
        if crc:
            self.crc = zlib.crc32(data, self.crc)
        return data

    def u8(self, what: str) -> int:
        return self.take(1, what)[0]

    def u16(self, what: str) -> int:
        return _U16.unpack(self.take(2, what))[0]

    def u64(self, what: str) -> int:
        return _U64.unpack(self.take(8, what))[0]

    def ident(self, what: str) -> str:
        at = self.pos
        length = self.u8(f"the length of the {what}")
        if not 1 <= length <= MAX_ID_LENGTH:
            self.fail(f"the {what} at byte offset {at} claims {length} bytes; it must be 1 to {MAX_ID_LENGTH}")
        raw = self.take(length, f"the {what}")
        if not set(raw) <= _ID_BYTES:
            self.fail(f"the {what} at byte offset {at + 1} is {raw!r}: only ASCII letters, digits, '.', '_' and "
                      "'-' are allowed")
        return raw.decode("ascii")


def _read_header(r: _Reader) -> Header:
    """Parse and check the whole header; leaves ``r`` at the start of the payload. Allocates nothing sized by
    the file."""
    if r.size < len(MAGIC):
        r.fail(f"the file is {r.size} bytes, too short to be a .bloom file")
    magic = r.take(len(MAGIC), "the magic")
    if magic != MAGIC:
        r.fail(f"not a .bloom file: it starts with {magic!r}, not {MAGIC!r}")
    version = r.u16("the format version")
    if version != VERSION:
        r.fail(f"unsupported format version {version} (this bloomviz reads version {VERSION})")

    variant = r.ident("variant id")
    if variant not in VARIANTS:
        r.fail(f"unknown filter variant {variant!r}; known variants: {', '.join(supported_variants())}")
    layout = _layout(variant)
    scheme = r.ident("hash scheme id")
    if scheme not in hashing.SCHEMES:
        r.fail(f"unknown hash scheme {scheme!r}; known schemes: {', '.join(hashing.SCHEMES)}")

    m = r.u64("m")
    if not 1 <= m <= MAX_M:
        r.fail(f"m={m} is out of range: a filter has 1 to 2^34 = {MAX_M} bits")
    k = r.u16("k")
    if not 1 <= k <= MAX_K:
        r.fail(f"k={k} is out of range 1..{MAX_K}")
    count = r.u64("the insert count")
    if count > MAX_COUNT:
        r.fail(f"insert count {count:,} is out of range 0..2^53 = {MAX_COUNT:,}")

    params = _read_params(r, variant, layout)
    try:
        low, high = layout.payload_bytes(m, params)
    except ValueError as exc:
        r.fail(f"bad {variant} parameter: {exc}")

    at = r.pos
    payload_length = r.u64("the payload length")
    if not low <= payload_length <= high:
        expect = f"{low}" if low == high else f"{low} to {high}"
        r.fail(f"payload length {payload_length} (at byte offset {at}) does not match the header: a {variant} "
               f"filter with m={m} and these parameters stores {expect} bytes")
    crc = _U32.unpack(r.take(4, "the CRC32", crc=False))[0]
    left = r.size - r.pos
    if payload_length > left:
        r.fail(f"truncated: the header promises a {payload_length}-byte payload, the file has {left} bytes left")
    if payload_length < left:
        r.fail(f"{left - payload_length} unexpected bytes after the {payload_length}-byte payload")
    return Header(version, variant, scheme, m, k, count, params, payload_length, crc)


def _read_params(r: _Reader, variant: str, layout: _Layout) -> dict:
    at = r.pos
    n = r.u16("the parameter count")
    if n > MAX_PARAMS:
        r.fail(f"the header claims {n} parameters (at byte offset {at}); at most {MAX_PARAMS} are allowed")
    params: dict[str, int | float] = {}
    for i in range(n):
        name = r.ident(f"name of parameter {i}")
        if name in params:
            r.fail(f"parameter {name!r} appears twice")
        tag_at = r.pos
        tag = r.take(1, f"the type of parameter {name!r}")
        if tag not in _VALUE:
            r.fail(f"parameter {name!r} has type byte {tag!r} at byte offset {tag_at}; expected b'i' or b'f'")
        value = _VALUE[tag].unpack(r.take(8, f"the value of parameter {name!r}"))[0]
        if tag == FLOAT and not math.isfinite(value):
            r.fail(f"parameter {name!r} is {value!r}; it must be a finite number")
        expected = layout.params.get(name)
        if expected is None:
            r.fail(f"unknown parameter {name!r} for a {variant} filter "
                   f"(it stores: {', '.join(layout.params) or 'none'})")
        if tag != expected:
            r.fail(f"parameter {name!r} is stored as {'an integer' if tag == INT else 'a float'}; "
                   f"a {variant} filter stores it as {'an integer' if expected == INT else 'a float'}")
        params[name] = value
    missing = [name for name in layout.params if name not in params]
    if missing:
        r.fail(f"a {variant} filter needs parameter(s) {', '.join(missing)}, missing from the header")
    return params


@contextlib.contextmanager
def _open(path):
    # safe_files refuses a FIFO, a socket or a device by its kind before reading (and opens with O_NONBLOCK, so a
    # FIFO swapped in after the check cannot hang the open either). A directory stays an IsADirectoryError.
    try:
        f = open_regular(path, what="a .bloom file", buffering=0)
    except NotARegularFileError as exc:
        raise FilterFormatError(exc.strerror, path) from None
    with f:
        yield _Reader(f, os.fstat(f.fileno()).st_size, os.fsdecode(path))


def read_header(path) -> Header:
    """The checked header of a ``.bloom`` file, without reading the payload (so the CRC is not verified)."""
    with _open(path) as r:
        return _read_header(r)


def _checked_payload(r: _Reader, path) -> tuple[Header, bytes]:
    header = _read_header(r)
    payload = r.take(header.payload_length, "the payload")  # no larger than the file: checked above
    if r.crc != header.crc:
        raise FilterFormatError(f"CRC32 mismatch: the file says {header.crc:#010x}, its contents give "
                                f"{r.crc:#010x}; the file is damaged", path)
    return header, payload


def verify_bytes(data: bytes, name: object = None) -> Header:
    """The header of ``.bloom`` bytes held in memory (a session's base filter), checked as ``load`` checks a
    file, CRC included, without building the filter. FilterFormatError (naming ``name``) when they are not
    valid."""
    data = bytes(data)
    _checked_payload(_Reader(io.BytesIO(data), len(data), name), name)
    return read_header_bytes(data, name)


def read_header_bytes(data: bytes, name: object = None) -> Header:
    """The checked header of ``.bloom`` bytes held in memory, without reading the payload."""
    return _read_header(_Reader(io.BytesIO(bytes(data)), len(data), name))


def load(path):
    """A new filter read from ``path``. Raises FilterFormatError naming the file and the problem; OSError if
    the file cannot be opened."""
    with _open(path) as r:
        header, payload = _checked_payload(r, path)
    cls = VARIANTS[header.variant]
    try:
        flt = persist.from_state(cls, header.m, header.k, header.scheme, header.count, dict(header.params), payload)
    except (ValueError, TypeError, ArithmeticError, LookupError, struct.error) as exc:
        raise FilterFormatError(f"the {header.variant} filter's state is inconsistent: {exc}", path) from exc
    rebuilt = (flt.m, flt.k, flt.scheme, len(flt))
    if rebuilt != (header.m, header.k, header.scheme, header.count):
        raise FilterFormatError(f"the header says m={header.m}, k={header.k}, scheme={header.scheme!r}, "
                                f"count={header.count} but the filter rebuilt from it has m={rebuilt[0]}, "
                                f"k={rebuilt[1]}, scheme={rebuilt[2]!r}, count={rebuilt[3]}", path)
    return flt


# --- writing -------------------------------------------------------------------------------------------------
def _variant_of(flt) -> str:
    if type(flt) not in VARIANTS.values():
        known = ", ".join(cls.__name__ for cls in VARIANTS.values())
        raise TypeError(f"save() needs a bloomviz filter ({known}), got {type(flt).__name__}")
    return type(flt).variant


def _ident(text: str, what: str) -> bytes:
    raw = text.encode("ascii", "replace") if isinstance(text, str) else b""
    if not 1 <= len(raw) <= MAX_ID_LENGTH or not set(raw) <= _ID_BYTES:
        raise ValueError(f"the {what} {text!r} cannot be stored: 1 to {MAX_ID_LENGTH} ASCII letters, digits, "
                         "'.', '_' or '-' are allowed")
    return bytes([len(raw)]) + raw


def _param_value(name: str, value: object, tag: bytes) -> bytes:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"parameter {name}={value!r} is not a number")
    if tag == INT:
        if not isinstance(value, numbers.Integral) and not float(value).is_integer():
            raise ValueError(f"parameter {name}={value!r} must be an integer")
        value = int(value)
        if not -(1 << 63) <= value < (1 << 63):
            raise ValueError(f"parameter {name}={value!r} does not fit in 64 bits")
    else:
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"parameter {name}={value!r} must be finite")
    return _VALUE[tag].pack(value)


def encode(flt) -> tuple[bytes, bytes]:
    """The header (CRC included) and payload ``save`` would write for ``flt``."""
    variant = _variant_of(flt)
    layout = _layout(variant)
    scheme, m, k, count = flt.scheme, flt.m, flt.k, len(flt)
    if scheme not in hashing.SCHEMES:
        raise ValueError(f"the filter's hash scheme {scheme!r} is not registered; it could not be read back")
    if not 1 <= m <= MAX_M or not 1 <= k <= MAX_K or not 0 <= count <= MAX_COUNT:
        raise ValueError(f"m={m}, k={k}, count={count} cannot be stored (limits: m up to 2^34, k up to {MAX_K}, "
                         "count up to 2^53)")
    params = persist.params_of(flt)
    if set(params) != set(layout.params):
        raise ValueError(f"a {variant} filter reported parameters {sorted(params)}; "
                         f"the file layout stores {sorted(layout.params)}")
    payload = bytes(persist.payload_of(flt))
    parts = [MAGIC, _U16.pack(VERSION), _ident(variant, "variant id"), _ident(scheme, "scheme id"),
             _U64.pack(m), _U16.pack(k), _U64.pack(count), _U16.pack(len(params))]
    for name in sorted(params):  # sorted: one filter, one byte string
        tag = layout.params[name]
        parts += [_ident(name, "parameter name"), tag, _param_value(name, params[name], tag)]
    parts.append(_U64.pack(len(payload)))
    head = b"".join(parts)
    crc = zlib.crc32(payload, zlib.crc32(head))
    return head + _U32.pack(crc), payload


def save(flt, path) -> None:
    """Write ``flt`` to ``path`` atomically: the old file (if any) stays whole until the new one is complete.

    Raises TypeError for an object that is not a bloomviz filter (nothing is written), OSError if the file
    cannot be written (the old file is left as it was and no temporary file remains): a read-only target, a
    directory or a special file is refused. Through a symlink, the link's target is written (see atomic_write).
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    head, payload = encode(flt)
    with AtomicWriter(path, what="a .bloom file") as out:
        out.write(head)
        out.write(payload)
