"""A small, bounded reader of Apache Thrift's compact protocol (what Parquet footers are written in).

Encoding (thrift/doc/specs/thrift-compact-protocol.md)::

    struct      fields, then a 0x00 stop byte
    field       one byte: high nibble = field-id delta (1..15) from the previous field, low nibble = type;
                delta 0 means a zigzag varint i16 field id follows
    types       1 true, 2 false (booleans live in the type nibble), 3 i8 (one byte), 4 i16, 5 i32, 6 i64
                (zigzag varints), 7 double (8 bytes LE), 8 binary/string (varint length + bytes),
                9 list, 10 set (one byte: size << 4 | element type; size nibble 15 means a varint size
                follows), 11 map (varint size; if > 0 one byte key type << 4 | value type), 12 struct
    varint      ULEB128, at most 10 bytes; zigzag: (n >> 1) ^ -(n & 1)

A struct decodes to ``{field_id: value}``; lists to Python lists. Nothing is looked up by name, so unknown
fields (newer writers) decode and are ignored by the caller. Every length is checked against the bytes left
before anything is allocated, nesting is capped, and the element count of all containers together is capped,
so a hostile footer costs time and memory proportional to its own size.
"""

from __future__ import annotations

import struct

MAX_DEPTH = 32


class ThriftError(ValueError):
    """The bytes are not a well-formed compact-protocol struct; the message says where and why."""


class CompactReader:
    def __init__(self, data: bytes, max_items: int | None = None):
        self.data, self.pos = memoryview(data), 0
        # every container element costs at least one byte, so the input's length bounds honest counts
        self.budget = len(data) if max_items is None else max_items

    def _fail(self, reason: str) -> ThriftError:
        return ThriftError(f"{reason} at byte {self.pos} of {len(self.data)}")

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise self._fail("ran out of bytes")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        result = shift = 0
        for _ in range(10):
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7
        raise self._fail("varint longer than 10 bytes")

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def take(self, n: int) -> bytes:
        if n < 0 or n > len(self.data) - self.pos:
            raise self._fail(f"length {n:,} runs past the end")
        out = bytes(self.data[self.pos:self.pos + n])
        self.pos += n
        return out

    def _count(self, n: int) -> int:
        if n > len(self.data) - self.pos + 1 or n > self.budget:
            raise self._fail(f"container of {n:,} elements cannot fit in the bytes left")
        self.budget -= n
        return n

    def value(self, ttype: int, depth: int):
        if depth > MAX_DEPTH:
            raise self._fail(f"nesting deeper than {MAX_DEPTH}")
        if ttype == 1:
            return True
        if ttype == 2:
            return False
        if ttype == 3:
            b = self.byte()
            return b - 256 if b > 127 else b
        if ttype in (4, 5, 6):
            return self.zigzag()
        if ttype == 7:
            return struct.unpack("<d", self.take(8))[0]
        if ttype == 8:
            return self.take(self.varint())
        if ttype in (9, 10):
            head = self.byte()
            size, etype = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            self._count(size)
            if etype in (1, 2):  # booleans inside containers take one byte each
                return [self.byte() == 1 for _ in range(size)]
            return [self.value(etype, depth + 1) for _ in range(size)]
        if ttype == 11:
            size = self._count(self.varint())
            if size == 0:
                return {}
            kv = self.byte()
            out = {}
            for _ in range(size):
                key = self.value(kv >> 4, depth + 1)
                if isinstance(key, (list, dict)):
                    raise self._fail("a map key is a container")
                out[key] = self.value(kv & 0x0F, depth + 1)
            return out
        if ttype == 12:
            return self.struct(depth + 1)
        raise self._fail(f"unknown field type {ttype}")

    def struct(self, depth: int = 0) -> dict:
        fields: dict = {}
        last = 0
        while True:
            head = self.byte()
            if head == 0:
                return fields
            delta, ttype = head >> 4, head & 0x0F
            fid = last + delta if delta else self.zigzag()
            fields[fid] = self.value(ttype, depth)
            last = fid


def read_struct(data: bytes) -> tuple[dict, int]:
    """(fields, bytes consumed) of the struct at the start of ``data``; ThriftError if it is malformed."""
    reader = CompactReader(data)
    return reader.struct(), reader.pos
