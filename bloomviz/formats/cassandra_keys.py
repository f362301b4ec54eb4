"""A Cassandra partition key given as its column values, serialized as Cassandra does, using the key type the
SSTable's own ``Statistics.db`` states (its serialization header).

Types (``org.apache.cassandra.db.marshal``): ``UTF8Type``/``AsciiType`` their bytes; ``Int32Type``,
``LongType``, ``ShortType``, ``ByteType``, ``CounterColumnType`` big-endian two's complement of 4, 8, 2, 1,
8 bytes; ``BooleanType`` one byte; ``FloatType``/``DoubleType`` IEEE big-endian; ``UUIDType``,
``TimeUUIDType``, ``LexicalUUIDType`` the 16 bytes; ``TimestampType``/``DateType`` milliseconds since the
epoch as 8 bytes; ``SimpleDateType`` days since the epoch + 2^31 as 4 bytes; ``IntegerType`` the shortest
two's complement; ``BytesType`` hex; ``InetAddressType`` 4 or 16 bytes. A ``CompositeType(A, B, ...)`` key
(a partition key of several columns) is each component as ``u16`` length, bytes, then a 0 byte.

An item for a one-column key is the value as text; for a composite key a JSON array of the values, in the
key's order (``["0b1f…-uuid", "dispersion"]``).
"""

from __future__ import annotations

import ipaddress
import json
import re
import struct
import uuid

PREFIX = "org.apache.cassandra.db.marshal."
_INTS = {"Int32Type": ">i", "LongType": ">q", "ShortType": ">h", "ByteType": ">b", "CounterColumnType": ">q",
         "TimestampType": ">q", "DateType": ">q"}


def split_type(name: str) -> tuple[str, list[str]]:
    """("CompositeType", [component names]) or (simple name, []); the package prefix dropped."""
    name = name.strip().replace(PREFIX, "")
    m = re.fullmatch(r"(\w+)\((.*)\)", name, flags=re.S)
    if not m:
        return name, []
    outer, inner = m.group(1), m.group(2)
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    parts.append(inner[start:].strip())
    return outer, parts


def value_bytes(type_name: str, text: str) -> bytes:
    """One column value serialized for ``type_name``; ValueError naming the type and the value if it does not
    fit."""
    base, inner = split_type(type_name)
    if base in ("ReversedType", "FrozenType") and len(inner) == 1:
        return value_bytes(inner[0], text)
    text = str(text)
    try:
        if base in ("UTF8Type", "AsciiType"):
            return text.encode("utf-8" if base == "UTF8Type" else "ascii")
        if base in _INTS:
            return struct.pack(_INTS[base], int(text.strip()))
        if base == "BooleanType":
            return b"\x01" if text.strip().lower() in ("true", "1") else b"\x00"
        if base in ("FloatType", "DoubleType"):
            return struct.pack(">f" if base == "FloatType" else ">d", float(text))
        if base in ("UUIDType", "TimeUUIDType", "LexicalUUIDType"):
            return uuid.UUID(text.strip()).bytes
        if base == "SimpleDateType":
            return struct.pack(">I", int(text.strip()) + (1 << 31))
        if base == "IntegerType":
            n = int(text.strip())
            return n.to_bytes(max(1, (n + (n < 0)).bit_length() // 8 + 1), "big", signed=True)
        if base == "BytesType":
            return bytes.fromhex(text[2:] if text[:2] in ("0x", "0X") else text)
        if base == "InetAddressType":
            return ipaddress.ip_address(text.strip()).packed
    except (ValueError, struct.error, UnicodeEncodeError) as exc:
        raise ValueError(f"{text!r} is not a {base} value ({exc})") from None
    raise ValueError(f"key columns of type {base} are not serialized here; give the key as 0x… bytes")


def key_from_values(key_type: str, item: str) -> bytes:
    """The serialized partition key for ``item`` (one value, or a JSON array of values for a composite key)."""
    base, inner = split_type(key_type)
    if base != "CompositeType":
        return value_bytes(key_type, item)
    try:
        values = json.loads(item)
    except ValueError:
        values = None
    if not isinstance(values, list) or len(values) != len(inner):
        raise ValueError(f"the partition key has {len(inner)} columns ({', '.join(split_type(t)[0] for t in inner)}): "
                         f"give them as a JSON array, e.g. [\"a\", \"b\"], or the key as 0x… bytes")
    out = bytearray()
    for t, v in zip(inner, values):
        data = value_bytes(t, v if isinstance(v, str) else json.dumps(v))
        if len(data) > 0xFFFF:
            raise ValueError(f"a component of {len(data):,} bytes does not fit a composite key")
        out += struct.pack(">H", len(data)) + data + b"\x00"
    return bytes(out)


def values_from_key(key_type: str, key: bytes) -> list[str]:
    """The values of a serialized composite key of text and UUID columns (for tests and display)."""
    base, inner = split_type(key_type)
    types = inner if base == "CompositeType" else [key_type]
    if base != "CompositeType":
        parts = [key]
    else:
        parts, pos = [], 0
        while pos < len(key):
            n = struct.unpack_from(">H", key, pos)[0]
            parts.append(key[pos + 2:pos + 2 + n])
            pos += 3 + n
    out = []
    for t, part in zip(types, parts):
        name = split_type(t)[0]
        if name in ("UUIDType", "TimeUUIDType", "LexicalUUIDType"):
            out.append(str(uuid.UUID(bytes=part)))
        elif name in _INTS:
            out.append(str(struct.unpack(_INTS[name], part)[0]))
        else:
            out.append(part.decode("utf-8", "replace"))
    return out
