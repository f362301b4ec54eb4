"""The SSTable components beside a Cassandra ``-Filter.db`` that say what the filter holds and was sized for.

- ``Index.db``: one entry per partition, in token order: ``u16`` key length, the serialized partition key,
  then (format ``ma`` and later) an unsigned vint data position and an unsigned vint promoted-index size
  followed by that many bytes; before ``ma``, an ``i64`` position, an ``i32`` size and the bytes. The keys
  read here are exactly what Cassandra hashes into the filter.
- ``Statistics.db``: a table of contents (``i32`` count, then ``i32`` type, ``i32`` offset pairs); type 0,
  VALIDATION, holds the partitioner (Java ``writeUTF``) and ``bloom_filter_fp_chance`` (``f64``); type 3,
  HEADER, holds three vint encoding stats and then the partition key's type name (vint length + UTF-8), e.g.
  ``org.apache.cassandra.db.marshal.CompositeType(...UUIDType,...UTF8Type)``.

Unsigned vint (``VIntCoding``): the count of leading 1 bits of the first byte is the count of extra bytes;
the value is the first byte's remaining bits followed by the extra bytes, big-endian. Every length is checked
against the bytes left before anything is sliced.
"""

from __future__ import annotations

import os
import re
import struct

from bloomviz.formats.common import Source

SIBLING = re.compile(r"^(?P<stem>.*?)(?P<version>[a-z]{2})-(?P<gen>[0-9a-z_]+)(?P<fmt>-big|-bti)?-Filter\.db$")
MAX_COMPONENT = 64 << 20
MAX_KEYS = 5_000_000


def version_of(path) -> str | None:
    """The SSTable format version (``ma``, ``md``, ``nb``, ``da``...) named in a component's file name."""
    m = SIBLING.match(os.path.basename(os.fsdecode(path)))
    return m.group("version") if m else None


def sibling(path, component: str) -> str | None:
    """The path of another component of the same SSTable (``Index.db``, ``Statistics.db``), if it exists."""
    path = os.fsdecode(path)
    name = os.path.basename(path)
    if not name.endswith("-Filter.db"):
        return None
    other = os.path.join(os.path.dirname(path), name[: -len("Filter.db")] + component)
    return other if os.path.isfile(other) else None


def unsigned_vint(data: bytes, pos: int, src: Source, what: str) -> tuple[int, int]:
    if pos >= len(data):
        raise src.fail(f"truncated: {what} at offset {pos:,} is past the end")
    first = data[pos]
    extra = 8 - (~first & 0xFF).bit_length() if first != 0xFF else 8
    if pos + 1 + extra > len(data):
        raise src.fail(f"truncated: {what} at offset {pos:,} needs {1 + extra} bytes")
    value = first & (0xFF >> extra) if extra < 8 else 0
    for b in data[pos + 1:pos + 1 + extra]:
        value = (value << 8) | b
    return value, pos + 1 + extra


def _whole(src: Source, what: str) -> bytes:
    if src.size > MAX_COMPONENT:
        raise src.fail(f"{what} of {src.size:,} bytes is larger than the {MAX_COMPONENT:,} read here")
    return src.read_at(0, src.size, what)


def index_keys(path, version: str | None) -> list[bytes]:
    """Every partition key of an ``Index.db``, in file order; ForeignFormatError naming the offset if bad."""
    old = version is not None and version < "ma"
    with Source(path, "cassandra Index.db") as src:
        data = _whole(src, "the index")
        keys, pos = [], 0
        while pos < len(data):
            if len(keys) >= MAX_KEYS:
                raise src.fail(f"more than {MAX_KEYS:,} partitions; not read")
            if pos + 2 > len(data):
                raise src.fail(f"truncated: key length at offset {pos:,}")
            n = struct.unpack_from(">H", data, pos)[0]
            if pos + 2 + n > len(data):
                raise src.fail(f"key of {n:,} bytes at offset {pos:,} runs past the end ({len(data):,} bytes)")
            keys.append(data[pos + 2:pos + 2 + n])
            pos += 2 + n
            if old:
                if pos + 12 > len(data):
                    raise src.fail(f"truncated: position and index size at offset {pos:,}")
                size = struct.unpack_from(">i", data, pos + 8)[0]
                pos += 12
            else:
                _position, pos = unsigned_vint(data, pos, src, "data position")
                size, pos = unsigned_vint(data, pos, src, "promoted index size")
            if size < 0 or pos + size > len(data):
                raise src.fail(f"promoted index of {size:,} bytes at offset {pos:,} runs past the end")
            pos += size
    return keys


def statistics(path) -> dict:
    """{"partitioner", "fp_chance", "key_type"} from a ``Statistics.db`` (those it holds)."""
    out: dict = {}
    with Source(path, "cassandra Statistics.db") as src:
        data = _whole(src, "the statistics")
        if len(data) < 4:
            raise src.fail("truncated: no table of contents")
        count = struct.unpack_from(">i", data, 0)[0]
        if not 0 <= count <= 16 or 4 + 8 * count > len(data):
            raise src.fail(f"table of contents claims {count} components")
        toc = dict(struct.unpack_from(">ii", data, 4 + 8 * i) for i in range(count))
        for kind, offset in toc.items():
            if not 0 <= offset < len(data):
                raise src.fail(f"component {kind} at offset {offset:,} lies outside the file")
        if 0 in toc:
            pos = toc[0]
            if pos + 2 > len(data):
                raise src.fail(f"truncated: partitioner name at offset {pos:,}")
            n = struct.unpack_from(">H", data, pos)[0]
            if pos + 2 + n + 8 > len(data):
                raise src.fail(f"truncated: validation metadata at offset {pos:,}")
            out["partitioner"] = data[pos + 2:pos + 2 + n].decode("utf-8", "replace")
            out["fp_chance"] = struct.unpack_from(">d", data, pos + 2 + n)[0]
        if 3 in toc:
            pos = toc[3]
            for what in ("minimum timestamp", "minimum deletion time", "minimum TTL"):
                _value, pos = unsigned_vint(data, pos, src, what)
            n, pos = unsigned_vint(data, pos, src, "key type length")
            if pos + n > len(data):
                raise src.fail(f"key type of {n:,} bytes at offset {pos:,} runs past the end")
            out["key_type"] = data[pos:pos + n].decode("utf-8", "replace")
    return out
