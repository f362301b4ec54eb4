"""LevelDB tables (``.ldb``, and ``.sst`` from LevelDB before 1.14) and database directories: the Bloom filters
of the filter block, one per 2 KiB of data-block offsets, and the index that sends a key to one of them.

Table (LevelDB doc/table_format.md, table/format.h)::

    data blocks | meta block "filter.leveldb.BuiltinBloomFilter2" | metaindex block | index block | footer
    footer (48 bytes) = metaindex handle, index handle (varints, zero-padded to 40 bytes), magic u64 LE
                        0xdb4775248b80fb57

Blocks are read by ``sstable`` (a 5-byte trailer: compression 0 none / 1 Snappy / 2 Zstandard, masked CRC-32C,
checked here for the blocks read). The index holds, per data block, a separator key >= its last key and the
block's handle; keys in a database's tables are internal keys (user key + 8 bytes of sequence and type).

Filter block (table/filter_block.cc)::

    filter 0 | ... | filter N-1 | offset of filter i: u32 LE, N times | offset of that array: u32 | base_lg: u8

Filter i holds the keys of the data blocks starting at file offsets [i << base_lg, (i+1) << base_lg) (base_lg
= 11: 2 KiB); slots no data block starts in are empty (start == limit). A lookup goes to the data block the
index names (the first whose separator's user key is >= the key) and asks filter ``offset >> base_lg``.

One filter (util/bloom.cc): m/8 bytes of bits (bit p is bit p % 8 of byte p / 8), then one byte k. h = LevelDB's
``Hash(key, 0xbc9f1d34)`` over the *user* key, delta = h rotated right by 17 bits, probe j = (h + j*delta mod
2**32) mod m. k > 30 is reserved: LevelDB then answers "may match" for every key, and so does this reader.
"""

from __future__ import annotations

import os
import struct

from bitarray import bitarray

from bloomviz.formats.common import ForeignFilter, ForeignFormatError, ForeignLookup, Source, bits_at, hex_prefixed
from bloomviz.formats.reasons import Reason, say
from bloomviz.formats.rocksdb_hash import M32, hash32
from bloomviz.formats import sstable
from bloomviz.formats.sstable import Corrupt

NAME = "leveldb"
TITLE = "LevelDB table filter blocks"
FOOTER = 48
POLICY = b"filter.leveldb.BuiltinBloomFilter2"
SUFFIXES = (".ldb", ".sst")
MAX_TABLES = 100_000


# a table's filter is built when the table is written, for the keys it holds: never past its design load (its rate
# is above the configured one for the reasons formats.why_lsm gives, not for keys added later)
SIZED_FOR_ITS_KEYS = "sized when its table was written, for exactly the keys it holds"


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    return size >= FOOTER and len(tail) >= 8 and struct.unpack("<Q", tail[-8:])[0] == sstable.LEVELDB_MAGIC


def sniff_dir(path) -> bool:
    """A LevelDB database: a CURRENT file and a table whose footer carries LevelDB's magic."""
    if not os.path.isfile(os.path.join(path, "CURRENT")):
        return False
    try:
        tables = sstable.table_files(path, SUFFIXES, NAME)
    except ForeignFormatError:
        # a table name that is not a regular file: reading says which; RocksDB, not LevelDB, writes OPTIONS-*
        return not any(n.startswith("OPTIONS-") for n in os.listdir(path))
    for table in tables[:1]:
        with Source(table, NAME) as src:
            return sniff(b"", src.tail(8), src.size)
    return False


def item_bytes(item: object) -> bytes:
    """A key's bytes: bytes as they are, text written ``0x…`` as the bytes its hex digits spell (keys are bytes,
    often binary), any other text as UTF-8."""
    if isinstance(item, (bytes, bytearray)):
        return bytes(item)
    text = str(item)
    raw = hex_prefixed(text)
    return raw if raw is not None else text.encode("utf-8", "surrogateescape")


def probe_positions(key: bytes, k: int, m: int) -> tuple[int, ...]:
    h = hash32(key, signed_tail=False)
    delta = ((h >> 17) | (h << 15)) & M32
    out = []
    for _ in range(k):
        out.append(h % m)
        h = (h + delta) & M32
    return tuple(out)


def read(path, **_options) -> list[ForeignFilter]:
    """Every non-empty filter of a table, or of every table of a database directory, in file order."""
    if os.path.isdir(path):
        tables = sstable.table_files(path, SUFFIXES, NAME)
        if not tables:
            raise ForeignFormatError(NAME, "is a directory with no LevelDB table files (.ldb, .sst)", path)
        if len(tables) > MAX_TABLES:
            raise ForeignFormatError(NAME, f"the directory holds {len(tables):,} tables (at most "
                                     f"{MAX_TABLES:,} are read)", path)
        out = []
        for table in tables:
            out.extend(read_table(table))
        return out
    return read_table(path)


def _crc(data: bytes) -> int:
    return sstable.masked_crc32c(data)


def _footer(src: Source) -> tuple[tuple[int, int], tuple[int, int]]:
    if src.size < FOOTER:
        raise src.fail(f"too short: {src.size} bytes, a LevelDB table ends in a {FOOTER}-byte footer")
    at = src.size - FOOTER
    foot = src.read_at(at, FOOTER, "the footer")
    if struct.unpack("<Q", foot[-8:])[0] != sstable.LEVELDB_MAGIC:
        raise src.fail(f"not a LevelDB table: no table magic at offset {src.size - 8:,}")
    try:
        m_off, m_size, pos = sstable.handle(foot)
        i_off, i_size, pos = sstable.handle(foot, pos)
    except Corrupt as exc:
        raise src.fail(f"footer at offset {at:,}: {exc}") from None
    if pos > FOOTER - 8:
        raise src.fail(f"footer at offset {at:,}: the block handles run into the magic")
    for what, off, size in (("metaindex", m_off, m_size), ("index", i_off, i_size)):
        if off + size + sstable.TRAILER > at:
            raise src.fail(f"footer at offset {at:,}: the {what} handle (offset {off:,}, {size:,} bytes) runs "
                           "past the footer")
    return (m_off, m_size), (i_off, i_size)


def _user_key(src: Source, key: bytes, what: str) -> bytes:
    if len(key) < 8:
        raise src.fail(f"{what}: key of {len(key)} bytes is shorter than an internal key's 8-byte tag")
    return key[:-8]


def _filter_slots(src: Source, data: bytes, at: int) -> tuple[int, int, list[int]]:
    """(base_lg, start of the offset array, offsets including that start as the last limit)."""
    n = len(data)
    if n < 5:
        raise src.fail(f"filter block at offset {at:,}: {n} bytes, at least 5 are needed")
    base_lg = data[-1]
    array_at = struct.unpack_from("<I", data, n - 5)[0]
    if array_at > n - 5 or (n - 5 - array_at) % 4:
        raise src.fail(f"filter block at offset {at:,}: offset array at {array_at:,} does not fit its {n:,} bytes")
    if not 1 <= base_lg <= 40:
        raise src.fail(f"filter block at offset {at:,}: base_lg {base_lg} is outside 1..40 (LevelDB writes 11)")
    count = (n - 5 - array_at) // 4
    offsets = list(struct.unpack_from(f"<{count}I", data, array_at)) + [array_at]
    return base_lg, array_at, offsets


def read_table(path) -> list[ForeignFilter]:
    name = os.path.basename(os.fsdecode(path))
    with Source(path, NAME) as src:
        (m_off, m_size), (i_off, i_size) = _footer(src)
        meta = dict(sstable.block(src, "leveldb", m_off, m_size, "the metaindex block", _crc))
        policies = [k for k in meta if b"filter." in k]
        if POLICY not in meta:
            named = ", ".join(p.decode("utf-8", "replace") for p in policies)
            if any(b"rocksdb" in k for k in meta):
                raise src.fail(f"a RocksDB table of format_version 0 or 1 (it shares LevelDB's magic; metaindex: "
                               f"{', '.join(k.decode('utf-8', 'replace') for k in meta)}): not read")
            raise src.fail(f"no {POLICY.decode()} block in the metaindex" + (
                f" (its filter is {named}, not LevelDB's Bloom filter)" if named else
                " (the table was written without a filter policy)"))
        f_off, f_size = sstable.handle_value(src, meta[POLICY], "the metaindex's filter handle")
        blocks = []
        for key, value in sstable.block(src, "leveldb", i_off, i_size, "the index block", _crc):
            off, size = sstable.handle_value(src, value, f"index entry {len(blocks)}")
            blocks.append((_user_key(src, key, f"index entry {len(blocks)}"), off, size))
        if not blocks:
            raise src.fail(f"the index block at offset {i_off:,} lists no data blocks")
        data = sstable.read_block(src, "leveldb", f_off, f_size, "the filter block", _crc)
        base_lg, array_at, offsets = _filter_slots(src, data, f_off)
        smallest = _edge_key(src, blocks[0], first=True)
        largest = _edge_key(src, blocks[-1], first=False)

    groups: dict[int, list[tuple[bytes, int, int]]] = {}
    for entry in blocks:
        groups.setdefault(entry[1] >> base_lg, []).append(entry)
    slots = len(offsets) - 1
    table_fields = {"table": name, "base_lg": base_lg, "filter_slots": slots,
                    "empty_slots": sum(1 for i in range(slots) if offsets[i] == offsets[i + 1]),
                    "data_blocks": len(blocks), "filter_block_offset": f_off, "filter_block_bytes": f_size,
                    "smallest_key": smallest.hex(), "largest_key": largest.hex(), "file_bytes": src.size}
    out = []
    for i, group in sorted(groups.items()):
        what = f"filter block at offset {f_off:,}, filter {i}"
        if i >= slots:
            raise ForeignFormatError(NAME, f"{what}: data block at offset {group[0][1]:,} has no filter slot (the "
                                     f"block holds {slots})", path)
        start, limit = offsets[i], offsets[i + 1]
        if not start <= limit <= array_at:
            raise ForeignFormatError(NAME, f"{what}: bytes {start:,}..{limit:,} lie outside the filters", path)
        raw = data[start:limit]
        if len(raw) < 2:
            raise ForeignFormatError(NAME, f"{what}: {len(raw)} bytes for data blocks that hold keys (LevelDB "
                                     "would answer 'absent' for every key in them)", path)
        out.append(_filter(raw, i, group, dict(table_fields), f_off + start))
    return out


def _edge_key(src: Source, block: tuple[bytes, int, int], first: bool) -> bytes:
    """The table's first or last user key, from its first or last data block."""
    _, off, size = block
    items = sstable.block(src, "leveldb", off, size, f"the data block at offset {off:,}")
    if not items:
        raise src.fail(f"the data block at offset {off:,} holds no entries")
    return _user_key(src, items[0 if first else -1][0], f"the data block at offset {off:,}")


def _filter(raw: bytes, index: int, group, fields: dict, offset: int) -> ForeignFilter:
    m, k = (len(raw) - 1) * 8, raw[-1]
    bits = bitarray(endian="little")
    bits.frombytes(raw[:-1])
    notes = []
    if k > 30 or k == 0:
        notes.append(Reason(say("k byte {k} is reserved (> 30): LevelDB answers 'may match' for every key", k=k)
                            if k else say("k byte 0: no probes, so LevelDB answers 'may match' for every key")))

    def lookup(item: object) -> ForeignLookup:
        pos = probe_positions(item_bytes(item), k, m)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    fields.update(filter_index=index, filter_offset=offset, filter_bytes=len(raw),
                  data_block_offsets=[off for _, off, _ in group], last_index_key=group[-1][0].hex())
    span = f"{group[0][1]:,}" if len(group) == 1 else f"{group[0][1]:,}..{group[-1][1]:,}"
    return ForeignFilter(
        format=NAME, m=m, k=max(k, 1), bits=bits, layout={"kind": "flat"},
        label=f"{fields['table']} filter {index} (data block{'s' if len(group) > 1 else ''} at {span})",
        hashing="LevelDB Hash(user key, seed 0xbc9f1d34) = h; probe j at (h + j * rotr17(h)) mod 2**32 mod m",
        positions=lookup if 1 <= k <= 30 else None, fields=fields, notes=notes,
        past_design=(False, SIZED_FOR_ITS_KEYS))



def route(filters: list[ForeignFilter], item: object) -> list[ForeignFilter]:
    """The filters LevelDB asks for ``item``: in each table whose key range holds it, the filter of the data
    block the index sends it to."""
    key = item_bytes(item)
    chosen, seen = [], set()
    for f in filters:
        table = f.fields.get("table")
        if table in seen or not bytes.fromhex(f.fields["smallest_key"]) <= key <= bytes.fromhex(
                f.fields["largest_key"]):
            continue
        if key <= bytes.fromhex(f.fields["last_index_key"]):
            chosen.append(f)
            seen.add(table)
    return chosen
