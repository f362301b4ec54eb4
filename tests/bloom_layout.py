"""An independent writer and field map of the .bloom version 1 layout, written from docs/file-format.md.

The tests use it to build files the library's own writer never would (unknown ids, wrong lengths, bad values
under a correct CRC) and to find every field's offset for corrupting it.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

MAGIC = b"BLOOMVZ\x00"


@dataclass
class Spec:
    variant: bytes = b"standard"
    scheme: bytes = b"murmur3-km"
    m: int = 64
    k: int = 3
    count: int = 0
    params: list = field(default_factory=list)  # (name bytes, tag bytes, 8 raw value bytes)
    payload: bytes = b""
    version: int = 1
    magic: bytes = MAGIC
    variant_len: int | None = None  # None: the true length
    scheme_len: int | None = None
    param_count: int | None = None
    payload_length: int | None = None
    crc: int | None = None  # None: the correct CRC


def build(s: Spec) -> bytes:
    def ident(raw: bytes, length: int | None) -> bytes:
        return bytes([len(raw) if length is None else length]) + raw

    parts = [s.magic, struct.pack("<H", s.version), ident(s.variant, s.variant_len), ident(s.scheme, s.scheme_len),
             struct.pack("<QHQ", s.m, s.k, s.count),
             struct.pack("<H", len(s.params) if s.param_count is None else s.param_count)]
    for name, tag, raw in s.params:
        parts += [bytes([len(name)]), name, tag, raw]
    parts.append(struct.pack("<Q", len(s.payload) if s.payload_length is None else s.payload_length))
    head = b"".join(parts)
    crc = zlib.crc32(s.payload, zlib.crc32(head)) if s.crc is None else s.crc
    return head + struct.pack("<I", crc) + s.payload


def parse(data: bytes) -> tuple[Spec, list[tuple[str, int, int]]]:
    """A well-formed file's fields, and (name, offset, width) of every numeric field in it."""
    fields = []
    pos = 8
    s = Spec(magic=data[:8])

    def num(name: str, fmt: str):
        nonlocal pos
        width = struct.calcsize(fmt)
        fields.append((name, pos, width))
        value = struct.unpack_from(fmt, data, pos)[0]
        pos += width
        return value

    def ident(name: str) -> bytes:
        nonlocal pos
        length = num(name + " length", "<B")
        raw = data[pos:pos + length]
        pos += length
        return raw

    s.version = num("version", "<H")
    s.variant = ident("variant")
    s.scheme = ident("scheme")
    s.m = num("m", "<Q")
    s.k = num("k", "<H")
    s.count = num("count", "<Q")
    n = num("param count", "<H")
    for i in range(n):
        name = ident(f"param {i} name")
        fields.append((f"param {i} type", pos, 1))
        tag = data[pos:pos + 1]
        pos += 1
        fields.append((f"param {i} value", pos, 8))
        s.params.append((name, tag, data[pos:pos + 8]))
        pos += 8
    length = num("payload length", "<Q")
    fields.append(("crc", pos, 4))
    s.crc = struct.unpack_from("<I", data, pos)[0]
    pos += 4
    s.payload = data[pos:pos + length]
    assert pos + length == len(data)
    return s, fields


def header_size(data: bytes) -> int:
    spec, fields = parse(data)
    return fields[-1][1] + 4


def fix_crc(data: bytes, size: int) -> bytes:
    """``data`` with the CRC field (the 4 bytes before offset ``size``) recomputed over header and payload."""
    crc = zlib.crc32(data[size:], zlib.crc32(data[:size - 4]))
    return data[:size - 4] + struct.pack("<I", crc) + data[size:]
