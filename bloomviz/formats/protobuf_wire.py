"""Protocol Buffers wire format, read-only and schema-free: enough to walk ORC's file tail and indexes.

``fields(data)`` maps field number -> list of raw values: varints (wire type 0) and fixed 64/32-bit numbers
(types 1 and 5) as unsigned ints, length-delimited values (type 2) as bytes; a nested message is parsed
again from its bytes by the caller, so nothing recurses on its own. Every length is checked against the
bytes left; group wire types (3, 4) are refused, as no ORC message uses them.
"""

from __future__ import annotations


class WireError(ValueError):
    """The bytes are not a well-formed protobuf message; the message names the offset."""


def varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data):
            raise WireError(f"varint runs past the end at byte {pos:,}")
        if shift > 63:
            raise WireError(f"varint longer than 10 bytes at byte {pos:,}")
        b = data[pos]
        value |= (b & 0x7F) << shift
        pos += 1
        if b < 0x80:
            return value, pos
        shift += 7


def fields(data: bytes) -> dict[int, list]:
    out: dict[int, list] = {}
    pos = 0
    while pos < len(data):
        start = pos
        key, pos = varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise WireError(f"field number 0 at byte {start:,}")
        if wire == 0:
            value, pos = varint(data, pos)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            if pos + size > len(data):
                raise WireError(f"fixed{size * 8} field {number} at byte {start:,} runs past the end")
            value = int.from_bytes(data[pos:pos + size], "little")
            pos += size
        elif wire == 2:
            length, pos = varint(data, pos)
            if pos + length > len(data):
                raise WireError(f"field {number} at byte {start:,} claims {length:,} bytes; {len(data) - pos:,} "
                                "are left")
            value = data[pos:pos + length]
            pos += length
        else:
            raise WireError(f"wire type {wire} (field {number}) at byte {start:,} is not supported")
        out.setdefault(number, []).append(value)
    return out


def first(msg: dict, number: int, default=None, kind: type | None = None):
    """The first value of a field (``default`` if absent); WireError if it is not of ``kind`` (int or bytes)."""
    values = msg.get(number)
    value = values[0] if values else default
    if kind is not None and values and not isinstance(value, kind):
        raise WireError(f"field {number} has wire type for {type(value).__name__}, not {kind.__name__}")
    return value


def repeated(msg: dict, number: int, kind: type) -> list:
    values = msg.get(number, [])
    if any(not isinstance(v, kind) for v in values):
        raise WireError(f"field {number} has a value that is not {kind.__name__}")
    return values


def packed_varints(data: bytes) -> list[int]:
    out, pos = [], 0
    while pos < len(data):
        value, pos = varint(data, pos)
        out.append(value)
    return out
