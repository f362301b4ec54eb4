"""The block layer LevelDB and RocksDB tables share (LevelDB doc/table_format.md; RocksDB's
table/block_based/block.cc, table/format.cc), read with every size checked against the file first.

A block handle is two varint64s (offset, size). At ``offset`` lie ``size`` bytes of block contents, then a
5-byte trailer: one byte of compression type and a 32-bit checksum of contents + type byte. A block's contents
(after decompression) are entries, then ``restarts: u32[n]``, then ``n: u32``; an entry is ``shared: varint32,
non_shared: varint32, value_length: varint32, key[shared:] bytes, value`` (its key shares ``shared`` bytes
with the entry before). RocksDB's delta-encoded index blocks (format_version >= 4) drop value_length and store
a full handle where ``shared == 0`` and, after it, only the signed change in size (the offset follows the
previous block and its trailer).

Compressed blocks are decompressed with cramjam: one wheel carrying every codec these tables use (Snappy,
LZ4, Zstandard, zlib), where python-snappy covers Snappy alone (and itself now wraps cramjam). Snappy and the
others' length prefixes are read and capped before anything is decompressed.
"""

from __future__ import annotations

import stat
import struct
import zlib


from bloomviz.formats.common import ForeignFormatError, Source, file_kind

TRAILER = 5
MAX_BLOCK = 64 << 20             # a full filter of ~50 million keys; data and index blocks are KiBs
LEVELDB_MAGIC = 0xDB4775248B80FB57
ROCKSDB_MAGIC = 0x88E241B785F4CFF7
MAX_RESTARTS = (1 << 28) - 1     # RocksDB keeps the top bits of the count for block features


class Corrupt(ValueError):
    """A structural fault inside bytes already read; the caller names the block and the file offset."""


def varint(data: bytes, pos: int, limit_bits: int = 64) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise Corrupt("a varint runs past the end of its block")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            if result >> limit_bits:
                raise Corrupt(f"a varint{limit_bits} overflows")
            return result, pos
        shift += 7
        if shift >= limit_bits + 7:
            raise Corrupt(f"a varint{limit_bits} is longer than {limit_bits // 7 + 1} bytes")


def handle(data: bytes, pos: int = 0) -> tuple[int, int, int]:
    """(offset, size, position after) of the block handle at ``pos``."""
    offset, pos = varint(data, pos)
    size, pos = varint(data, pos)
    return offset, size, pos


# --- CRC-32C, masked as LevelDB stores it (util/crc32c.h) ----------------------------------------------------
def crc32c(data: bytes) -> int:
    # compiled (numba, crc32c_kernel.py), imported on the first check: every window and command imports this
    # package, and numba's import is ~1 s that the window's first paint must not pay
    from bloomviz.formats.crc32c_kernel import crc32c as compiled
    return compiled(data)


def masked_crc32c(data: bytes) -> int:
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


# --- reading one block ----------------------------------------------------------------------------------------
CODECS = {"leveldb": {0: "none", 1: "snappy", 2: "zstd"},
          "rocksdb": {0: "none", 1: "snappy", 2: "zlib", 4: "lz4", 5: "lz4", 7: "zstd"}}


def _decompress(codec: str, raw: bytes, prefixed: bool) -> bytes:
    import cramjam   # imported where needed: a file with no compressed block needs no codec

    if codec == "snappy":
        declared, _ = varint(raw, 0, 32)   # raw Snappy starts with the uncompressed length
        if declared > MAX_BLOCK:
            raise Corrupt(f"a Snappy block declares {declared:,} bytes uncompressed (more than {MAX_BLOCK:,})")
        return bytes(cramjam.snappy.decompress_raw(raw))
    declared, start = varint(raw, 0, 32) if prefixed else (None, 0)
    if declared is not None and declared > MAX_BLOCK:
        raise Corrupt(f"a {codec} block declares {declared:,} bytes uncompressed (more than {MAX_BLOCK:,})")
    body = raw[start:]
    if codec == "lz4":
        if declared is None:
            raise Corrupt("an LZ4 block without its length prefix (format_version < 2) is not read")
        out = bytes(cramjam.lz4.decompress_block(body, output_len=declared))
    elif codec == "zstd":
        buf = bytearray(declared if declared is not None else _zstd_content_size(body))
        out = bytes(buf[:cramjam.zstd.decompress_into(body, buf)])
    else:  # zlib: RocksDB writes raw deflate (negative window bits)
        d = zlib.decompressobj(-15)
        out = d.decompress(body, MAX_BLOCK + 1)
    if len(out) > MAX_BLOCK or (declared is not None and len(out) != declared):
        raise Corrupt(f"a {codec} block decompressed to {len(out):,} bytes, not the {declared:,} it declares")
    return out


def _zstd_content_size(frame: bytes) -> int:
    """The content size a Zstandard frame header declares (RFC 8878 3.1.1.1), capped, so that a frame
    without a length prefix (LevelDB's) is never decompressed into an unbounded buffer."""
    if len(frame) < 6 or frame[:4] != b"\x28\xb5\x2f\xfd":
        raise Corrupt("a Zstandard block without a frame header")
    desc = frame[4]
    fcs_flag, single, dict_flag = desc >> 6, desc >> 5 & 1, desc & 3
    at = 5 + (0 if single else 1) + (0, 1, 2, 4)[dict_flag]
    width = (1 if single else 0, 2, 4, 8)[fcs_flag]
    if not width:
        raise Corrupt("a Zstandard frame that does not declare its size")
    if at + width > len(frame):
        raise Corrupt("a truncated Zstandard frame header")
    size = int.from_bytes(frame[at:at + width], "little") + (256 if width == 2 else 0)
    if size > MAX_BLOCK:
        raise Corrupt(f"a Zstandard block declares {size:,} bytes uncompressed (more than {MAX_BLOCK:,})")
    return size


def read_block(src: Source, project: str, offset: int, size: int, what: str, checksum=None) -> bytes:
    """The contents of the block at (offset, size), decompressed. ``checksum(contents_and_type) -> int`` or
    None (not verified); a mismatch is refused as damage."""
    if size > MAX_BLOCK:
        raise src.fail(f"{what} at offset {offset:,}: block size {size:,} is more than {MAX_BLOCK:,}")
    raw = src.read_at(offset, size + TRAILER, f"{what} (block at offset {offset:,})")
    kind = raw[size]
    if checksum is not None:
        stored = struct.unpack_from("<I", raw, size + 1)[0]
        if checksum(raw[:size + 1]) != stored:
            raise src.fail(f"{what} at offset {offset:,}: checksum mismatch (the block is damaged)")
    codec = CODECS[project].get(kind)
    if codec is None:
        raise src.fail(f"{what} at offset {offset:,}: unknown compression type {kind}")
    if codec == "none":
        return raw[:size]
    try:
        return _decompress(codec, raw[:size], prefixed=project == "rocksdb")
    except Corrupt as exc:
        raise src.fail(f"{what} at offset {offset:,}: {exc}") from None
    except Exception as exc:   # the codec's own complaint about damaged compressed bytes
        raise src.fail(f"{what} at offset {offset:,}: {codec} data does not decompress ({exc})") from None


def entries(data: bytes, delta_handles: bool = False) -> list[tuple[bytes, object]]:
    """Every (key, value) of a block's contents, in order. With ``delta_handles`` the values are decoded
    (offset, size) handles of a RocksDB delta-encoded index block. Raises Corrupt."""
    if len(data) < 4:
        raise Corrupt(f"a block of {len(data)} bytes has no restart count")
    packed = struct.unpack_from("<I", data, len(data) - 4)[0]
    if packed > MAX_RESTARTS:
        raise Corrupt(f"block flags 0x{packed >> 28:x} name a block layout this reader does not know")
    restarts_at = len(data) - 4 - 4 * packed
    if packed == 0 or restarts_at < 0:
        raise Corrupt(f"{packed:,} restart points do not fit a {len(data):,}-byte block")
    out: list[tuple[bytes, object]] = []
    pos, key, prev = 0, b"", None
    while pos < restarts_at:
        shared, pos = varint(data, pos, 32)
        non_shared, pos = varint(data, pos, 32)
        value_len = 0
        if not delta_handles:
            value_len, pos = varint(data, pos, 32)
        if shared > len(key) or pos + non_shared > restarts_at:
            raise Corrupt(f"entry {len(out)} shares {shared} bytes of a {len(key)}-byte key or runs past the "
                          "entries")
        key = key[:shared] + data[pos:pos + non_shared]
        pos += non_shared
        if delta_handles:
            if shared == 0 or prev is None:
                off, size, pos = handle(data, pos)
            else:
                raw, pos = varint(data, pos)
                delta = (raw >> 1) ^ -(raw & 1)
                off, size = prev[0] + prev[1] + TRAILER, prev[1] + delta
            if size < 0 or pos > restarts_at:
                raise Corrupt(f"entry {len(out)} has a malformed block handle")
            prev = (off, size)
            out.append((key, prev))
            continue
        if pos + value_len > restarts_at:
            raise Corrupt(f"entry {len(out)}'s value runs past the entries")
        out.append((key, data[pos:pos + value_len]))
        pos += value_len
    return out


def block(src: Source, project: str, offset: int, size: int, what: str, checksum=None,
          delta_handles: bool = False) -> list[tuple[bytes, object]]:
    data = read_block(src, project, offset, size, what, checksum)
    try:
        return entries(data, delta_handles)
    except Corrupt as exc:
        raise src.fail(f"{what} at offset {offset:,}: {exc}") from None


def handle_value(src: Source, value: bytes, what: str) -> tuple[int, int]:
    try:
        off, size, end = handle(value)
    except Corrupt as exc:
        raise src.fail(f"{what}: {exc}") from None
    if off + size + TRAILER > src.size:
        raise src.fail(f"{what}: block at offset {off:,} of {size:,} bytes lies outside the {src.size:,}-byte file")
    return off, size


def table_files(path, suffixes: tuple[str, ...], fmt: str) -> list[str]:
    """The table files of a database directory, in name order (their names are file numbers). A table name
    that is not a regular file (a FIFO, a device, a directory) is refused by name: skipped without a word,
    the filters shown would silently miss a table's."""
    import os

    names = sorted(n for n in os.listdir(path) if n.endswith(suffixes))
    for n in names:
        full = os.path.join(path, n)
        mode = os.stat(full).st_mode
        if not stat.S_ISREG(mode):
            raise ForeignFormatError(fmt, f"{n} in the directory is {file_kind(mode)}, not a regular table file",
                                     path)
    return [os.path.join(path, n) for n in names]
