"""RocksDB block-based tables (``.sst``) and database directories: full filters, partitioned filters, and what
the filter's own trailer says it is (FastLocalBloom, the legacy Bloom of format_version < 5, Ribbon).

Table (RocksDB table/format.cc, "Footer format"; the wiki's "Rocksdb BlockBasedTable Format")::

    data blocks | filter (partitions, then their index) | properties | metaindex | [index] | footer (53 bytes)
    footer = checksum type u8 | part 2 (40 bytes) | format_version u32 | magic u64 LE 0x88e241b785f4cff7
    part 2, format_version <= 5: metaindex handle, index handle (varints), zero padding
    part 2, format_version >= 6: 3e 00 7a 00 | footer checksum u32 | base context checksum u32 |
                                 metaindex size u32 (the metaindex ends 5 bytes before the footer) | 24 zeros

Block trailers carry the compression type and a checksum of the file's type (1 CRC-32C masked, 2 xxHash32,
3 xxHash64 low 32 bits, 4 XXH3 low 32 bits of all but the last byte, xor last byte * 0x6b9083d9; from
format_version 6 plus ``base ^ (offset low 32 + offset high 32)``); every block read here is checked.

The metaindex names the filter ``fullfilter.rocksdb.BuiltinBloomFilter`` (one filter for the file) or
``partitionedfilter.rocksdb.BuiltinBloomFilter`` (an index block whose entries map the last key of each
partition to the partition's handle; keys are internal keys unless the property
rocksdb.index.key.is.user.key says 1, handles delta-encoded when rocksdb.index.value.is.delta.encoded says 1).
A key is looked up in the first partition whose key is >= it (the last one if none is).

One filter (table/block_based/filter_policy.cc, GetBuiltinFilterBitsReader; util/bloom_impl.h)::

    bits (len bytes) | 5 bytes of metadata
    byte len = -1: new Bloom: byte len+1 sub-implementation (0 = FastLocalBloom), byte len+2 = block size
      (top 3 bits, 0 = 64 bytes) | probes (low 5 bits), two zero bytes.  h = Hash64(key) (XXPH3, see
      rocksdb_hash); the 64-byte line is (low32(h) * (len / 64)) >> 32; probe i sets bit (h2 >> 23) of that
      line, h2 = high32(h) * 0x9e3779b9**i mod 2**32.
    byte len = -2: Standard128Ribbon: byte len+1 seed, bytes len+2..len+4 number of 128-slot blocks.
    byte len in 1..127: legacy Bloom (format_version < 5): that many probes, then num_lines u32; h = the 32-bit
      Hash(key, 0xbc9f1d34) with sign-extended tail bytes, line = h mod num_lines, probe i at bit
      (h + i * rotr17(h)) mod line bits within the line.
    anything else: RocksDB answers "may match" for every key (reserved, or damaged), and so does this reader.
"""

from __future__ import annotations

import math
import os
import struct

import xxhash
from bitarray import bitarray

from bloomviz.formats import sstable
from bloomviz.formats.common import ForeignFilter, ForeignFormatError, ForeignLookup, Source, bits_at
from bloomviz.formats.leveldb import SIZED_FOR_ITS_KEYS, item_bytes
from bloomviz.formats.reasons import Reason, say
from bloomviz.formats.rocksdb_hash import M32, hash32, hash64
from bloomviz.formats.sstable import Corrupt

NAME = "rocksdb"
TITLE = "RocksDB table filters (FastLocalBloom, legacy Bloom, Ribbon; full or partitioned)"
FOOTER = 53
EXT_MAGIC = b"\x3e\x00\x7a\x00"
FULL, PARTITIONED, BLOCK_BASED = b"fullfilter.", b"partitionedfilter.", b"filter."
MAX_TABLES = 100_000
MAX_PARTITIONS = 1 << 20
BYTEWISE = "leveldb.BytewiseComparator"
CHECKSUMS = {0: "none", 1: "CRC-32C", 2: "xxHash32", 3: "xxHash64", 4: "XXH3"}
INT_PROPERTIES = (b"rocksdb.num.entries", b"rocksdb.num.filter_entries", b"rocksdb.filter.size",
                  b"rocksdb.index.key.is.user.key", b"rocksdb.index.value.is.delta.encoded",
                  b"rocksdb.num.data.blocks", b"rocksdb.format.version", b"rocksdb.index.partitions")


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    return size >= FOOTER and len(tail) >= 8 and struct.unpack("<Q", tail[-8:])[0] == sstable.ROCKSDB_MAGIC


def sniff_dir(path) -> bool:
    """A RocksDB database: a CURRENT file and a table whose footer carries RocksDB's magic."""
    if not os.path.isfile(os.path.join(path, "CURRENT")):
        return False
    try:
        tables = sstable.table_files(path, (".sst",), NAME)
    except ForeignFormatError:
        return True           # a table name that is not a regular file: reading says which
    for table in tables[:1]:
        with Source(table, NAME) as src:
            return sniff(b"", src.tail(8), src.size)
    return False


def _checksum(kind: int, data: bytes) -> int:
    if kind == 1:
        return sstable.masked_crc32c(data)
    if kind == 2:
        return xxhash.xxh32_intdigest(data)
    if kind == 3:
        return xxhash.xxh64_intdigest(data) & M32
    if kind == 4:
        return (xxhash.xxh3_64_intdigest(data[:-1]) & M32) ^ ((data[-1] * 0x6B9083D9) & M32) if data else 0
    return 0


class _SstTable:
    """The footer, metaindex and properties of one table, and a checked block reader."""

    def __init__(self, src: Source):
        self.src = src
        if src.size < FOOTER:
            raise src.fail(f"too short: {src.size} bytes, a RocksDB table ends in a {FOOTER}-byte footer")
        at = self.footer_at = src.size - FOOTER
        foot = src.read_at(at, FOOTER, "the footer")
        magic = struct.unpack("<Q", foot[-8:])[0]
        if magic == sstable.LEVELDB_MAGIC:
            raise src.fail(f"the magic at offset {src.size - 8:,} is LevelDB's (a LevelDB table, or RocksDB "
                           "before format_version 2); read it with --format leveldb")
        if magic != sstable.ROCKSDB_MAGIC:
            raise src.fail(f"not a RocksDB block-based table: no table magic at offset {src.size - 8:,}")
        self.version = struct.unpack_from("<I", foot, FOOTER - 12)[0]
        self.checksum_type = foot[0]
        if not 2 <= self.version <= 7:
            raise src.fail(f"footer at offset {at:,}: format_version {self.version:,} is not one RocksDB reads (2..7)")
        if self.checksum_type not in CHECKSUMS:
            raise src.fail(f"footer at offset {at:,}: unknown checksum type {self.checksum_type}")
        self.base = 0
        if self.version >= 6:
            if foot[1:5] != EXT_MAGIC:
                raise src.fail(f"footer at offset {at:,}: no extended magic 3e 00 7a 00 (format_version "
                               f"{self.version})")
            stored, self.base, meta_size = struct.unpack_from("<III", foot, 5)
            if self.checksum_type:
                blank = foot[:5] + b"\0\0\0\0" + foot[9:]
                if (_checksum(self.checksum_type, blank) + self._modifier(at)) & M32 != stored:
                    raise src.fail(f"footer at offset {at:,}: checksum mismatch (the footer is damaged)")
            if meta_size + sstable.TRAILER > at:
                raise src.fail(f"footer at offset {at:,}: metaindex of {meta_size:,} bytes does not fit before it")
            self.meta = (at - sstable.TRAILER - meta_size, meta_size)
        else:
            try:
                m_off, m_size, _ = sstable.handle(foot, 1)
            except Corrupt as exc:
                raise src.fail(f"footer at offset {at:,}: {exc}") from None
            if m_off + m_size + sstable.TRAILER > at:
                raise src.fail(f"footer at offset {at:,}: the metaindex handle runs past the footer")
            self.meta = (m_off, m_size)
        self.metaindex = dict(self.block(*self.meta, "the metaindex block"))
        self.props = {}
        if b"rocksdb.properties" in self.metaindex:
            off, size = self.handle(self.metaindex[b"rocksdb.properties"], "the properties handle")
            self.props = dict(self.block(off, size, "the properties block"))

    def _modifier(self, offset: int) -> int:
        return (self.base ^ ((offset & M32) + (offset >> 32))) & M32 if self.base else 0

    def read(self, offset: int, size: int, what: str) -> bytes:
        kind = self.checksum_type

        def check(data: bytes) -> int:
            return (_checksum(kind, data) + self._modifier(offset)) & M32

        return sstable.read_block(self.src, "rocksdb", offset, size, what, check if kind else None)

    def block(self, offset: int, size: int, what: str, delta: bool = False):
        data = self.read(offset, size, what)
        try:
            return sstable.entries(data, delta)
        except Corrupt as exc:
            raise self.src.fail(f"{what} at offset {offset:,}: {exc}") from None

    def handle(self, value: bytes, what: str) -> tuple[int, int]:
        off, size = sstable.handle_value(self.src, value, what)
        if off + size + sstable.TRAILER > self.footer_at:
            raise self.src.fail(f"{what}: block at offset {off:,} runs into the footer")
        return off, size

    def prop_int(self, name: bytes) -> int | None:
        raw = self.props.get(name)
        if raw is None:
            return None
        try:
            return sstable.varint(raw, 0)[0]
        except Corrupt:
            raise self.src.fail(f"property {name.decode()} is not a varint") from None

    def prop_text(self, name: bytes) -> str | None:
        raw = self.props.get(name)
        return None if raw is None else raw.decode("utf-8", "replace")


def read(path, **_options) -> list[ForeignFilter]:
    """Every filter of a table (one, or one per partition), or of every table of a database directory."""
    if os.path.isdir(path):
        tables = sstable.table_files(path, (".sst",), NAME)
        if not tables:
            raise ForeignFormatError(NAME, "is a directory with no RocksDB table files (.sst)", path)
        if len(tables) > MAX_TABLES:
            raise ForeignFormatError(NAME, f"the directory holds {len(tables):,} tables (at most {MAX_TABLES:,} "
                                     "are read)", path)
        return [f for table in tables for f in read_table(table)]
    return read_table(path)


def read_table(path) -> list[ForeignFilter]:
    name = os.path.basename(os.fsdecode(path))
    with Source(path, NAME) as src:
        t = _SstTable(src)
        found = {k: v for k, v in t.metaindex.items() if k.startswith((FULL, PARTITIONED, BLOCK_BASED))}
        if not found:
            raise src.fail("the metaindex names no filter (the table was written without a filter policy)")
        key, value = next(iter(found.items()))
        fields = {"table": name, "format_version": t.version, "checksum": CHECKSUMS[t.checksum_type],
                  "policy": key.decode("utf-8", "replace"), "file_bytes": src.size}
        for prop in INT_PROPERTIES:
            if t.prop_int(prop) is not None:
                fields[prop.decode()[len("rocksdb."):]] = t.prop_int(prop)
        for prop in (b"rocksdb.filter.policy", b"rocksdb.comparator", b"rocksdb.prefix.extractor.name"):
            if t.prop_text(prop) is not None:
                fields[prop.decode()[len("rocksdb."):]] = t.prop_text(prop)
        whole = t.props.get(b"rocksdb.block.based.table.whole.key.filtering", b"1") != b"0"
        if key.startswith(BLOCK_BASED):
            raise src.fail(f"{key.decode('utf-8', 'replace')}: a block-based filter (RocksDB before 7.0, one per "
                           "2 KiB like LevelDB's) is not read by this reader")
        off, size = t.handle(value, "the metaindex's filter handle")
        if key.startswith(FULL):
            contents = _nonempty(src, t.read(off, size, "the filter block"), off)
            return [describe(contents, f"{name} full filter", dict(fields, filter_offset=off), whole)]
        by_user_key = t.prop_int(b"rocksdb.index.key.is.user.key") == 1
        delta = t.prop_int(b"rocksdb.index.value.is.delta.encoded") == 1
        parts = t.block(off, size, "the partitioned filter's index block", delta=delta)
        if not parts or len(parts) > MAX_PARTITIONS:
            raise src.fail(f"the partitioned filter's index at offset {off:,} lists {len(parts):,} partitions")
        out = []
        for i, (sep, hv) in enumerate(parts):
            what = f"filter partition {i}"
            p_off, p_size = hv if delta else t.handle(hv, f"{what}'s handle")
            if p_off + p_size + sstable.TRAILER > t.footer_at:
                raise src.fail(f"{what}: block at offset {p_off:,} runs into the footer")
            if not by_user_key:
                if len(sep) < 8:
                    raise src.fail(f"{what}: index key of {len(sep)} bytes is shorter than an internal key's tag")
                sep = sep[:-8]
            contents = _nonempty(src, t.read(p_off, p_size, what), p_off)
            out.append(describe(contents, f"{name} partition {i}", dict(
                fields, partition=i, partitions=len(parts), filter_offset=p_off, last_key=sep.hex()), whole))
        if fields.get("comparator", BYTEWISE) != BYTEWISE:
            for f in out:
                f.notes.append(f"keys are ordered by the comparator {fields['comparator']}; the partition a key "
                               "goes to is found here in bytewise order, which may differ")
        return out


def _nonempty(src: Source, contents: bytes, offset: int) -> bytes:
    if len(contents) <= 5:
        raise src.fail(f"the filter at offset {offset:,} is empty ({len(contents)} bytes: RocksDB answers "
                       "'absent' for every key)")
    return contents


def describe(contents: bytes, label: str, fields: dict, whole_keys: bool = True) -> ForeignFilter:
    """A ForeignFilter for one filter's bytes, as RocksDB's GetBuiltinFilterBitsReader reads them."""
    n = len(contents)
    size = n - 5
    bits = bitarray(endian="little")
    bits.frombytes(contents[:size])
    raw = struct.unpack_from("<b", contents, size)[0]
    fields = dict(fields, filter_bytes=n)
    if raw == -1:
        sub, bp = contents[size + 1], contents[size + 2]
        log2_block, probes = ((bp >> 5) & 7) + 6, bp & 31
        rest = struct.unpack_from("<H", contents, n - 2)[0]
        if sub == 0 and log2_block == 6 and 1 <= probes <= 30 and rest == 0 and size % 64 == 0:
            fields.update(implementation="FastLocalBloom", probes=probes, cache_lines=size // 64)
            return _bloom(bits, probes, label, fields, whole_keys, _fast_local(bits, probes, size // 64),
                          "FastLocalBloom: h = Hash64 (XXPH3); line = (low32(h) * lines) >> 32; probe i at bit "
                          "(high32(h) * 0x9e3779b9**i mod 2**32) >> 23 of the 512-bit line")
        return _always(bits, label, fields, f"a new-Bloom trailer RocksDB does not read (sub-implementation {sub}, "
                       f"{1 << log2_block}-byte blocks, {probes} probes, reserved bytes {rest})")
    if raw == -2:
        return _ribbon(bits, contents, label, fields)
    if raw < 1:
        return _always(bits, label, fields, f"metadata byte {raw} (0 probes or reserved)")
    lines = struct.unpack_from("<I", contents, n - 4)[0]
    log2_line = 6 if lines * 64 == size else None
    if log2_line is None and lines and size % lines == 0 and (size // lines) & (size // lines - 1) == 0:
        log2_line = (size // lines).bit_length() - 1
    if log2_line is None:
        return _always(bits, label, fields, f"{lines:,} cache lines do not divide {size:,} bytes")
    fields.update(implementation="legacy Bloom", probes=raw, cache_lines=lines, line_bytes=1 << log2_line)
    return _bloom(bits, raw, label, fields, whole_keys, _legacy(bits, raw, lines, log2_line + 3),
                  Reason(say("legacy Bloom: h = Hash(key, 0xbc9f1d34) (sign-extended tail); line = h mod {lines}; "
                             "probe i at (h + i * rotr17(h)) mod line bits", lines=lines)))


def _bloom(bits, k, label, fields, whole_keys, lookup, hashing) -> ForeignFilter:
    line_bits = fields.get("line_bytes", 64) * 8
    notes = [] if whole_keys else [Reason(say("the table filters key prefixes only (whole_key_filtering = 0): "
                                              "whole keys are not in the filter"))]
    entries = fields.get("num.filter_entries")
    if entries and "partition" not in fields:
        legacy = fields["implementation"] == "legacy Bloom"
        fields["rocksdb_estimated_fp"] = estimated_fp(len(bits) / entries, k, entries, line_bits, legacy)
        notes.append(Reason(say("{entries} entries added (the table's rocksdb.num.filter_entries); RocksDB's own "
                                "estimate for {bits} bits per entry and k = {k} is rocksdb_estimated_fp",
                                entries=entries, bits=(len(bits) / entries, 2), k=k)))
    return ForeignFilter(format=NAME, m=len(bits), k=k, bits=bits, label=label, fields=fields, notes=notes,
                         layout={"kind": "blocks", "block_bits": line_bits, "word_bits": line_bits,
                                 "bits_per_word": k},
                         hashing=hashing, positions=lookup if whole_keys else None,
                         past_design=(False, SIZED_FOR_ITS_KEYS))


def estimated_fp(bits_per_key: float, k: int, keys: int, line_bits: int, legacy: bool) -> float:
    """RocksDB's EstimatedFpRate for a built filter (util/bloom_impl.h: BloomMath, FastLocalBloomImpl,
    LegacyLocalityBloomImpl): the mean of the standard rates one standard deviation of keys per cache line
    either side, plus the chance of a 64-bit (32-bit legacy) hash collision."""
    def standard(bpk: float) -> float:
        return (1.0 - math.exp(-k / bpk)) ** k

    per_line = line_bits / bits_per_key
    sd = math.sqrt(per_line)
    # at one key per line or fewer (a filter of a handful of keys) the uncrowded side has no keys: RocksDB's
    # division gives infinite bits per key there, a rate of 0, and below it a negative count it never meant;
    # 0 is the rate of a line with no keys (this had written 1.0, and a 1-key table read "RocksDB says 50 %")
    rate = (standard(line_bits / (per_line + sd)) + (standard(line_bits / (per_line - sd)) if per_line > sd
                                                     else 0.0)) / 2
    if legacy:
        rate += 0.1 / (bits_per_key * 0.75 + 22)
    base = keys * 0.5 ** (32 if legacy else 64)
    collide = 1.0 - math.exp(-base) if base > 0.0001 else base - base * base * 0.5
    return rate + collide - rate * collide


def _always(bits, label, fields, why) -> ForeignFilter:
    fields = dict(fields, implementation="always 'may match'")
    return ForeignFilter(format=NAME, m=max(len(bits), 1), k=1, bits=bits if len(bits) else bitarray("0"),
                         label=label, fields=fields, layout={"kind": "flat"}, hashing="none: " + why,
                         notes=[f"RocksDB answers 'may match' for every key here: {why}"])


def _fast_local(bits: bitarray, k: int, lines: int):
    def lookup(item: object) -> ForeignLookup:
        h = hash64(item_bytes(item))
        base = (((h & M32) * lines) >> 32) * 512
        h2, pos = h >> 32, []
        for _ in range(k):
            pos.append(base + (h2 >> 23))
            h2 = (h2 * 0x9E3779B9) & M32
        return ForeignLookup(item, tuple(pos), bits_at(bits, pos))
    return lookup


def _legacy(bits: bitarray, k: int, lines: int, log2_bits: int):
    mask = (1 << log2_bits) - 1

    def lookup(item: object) -> ForeignLookup:
        h = hash32(item_bytes(item), signed_tail=True)
        base = (h % lines) << log2_bits
        delta = ((h >> 17) | (h << 15)) & M32
        pos = []
        for _ in range(k):
            pos.append(base + (h & mask))
            h = (h + delta) & M32
        return ForeignLookup(item, tuple(pos), bits_at(bits, pos))
    return lookup


def _ribbon(bits, contents: bytes, label: str, fields: dict) -> ForeignFilter:
    n = len(contents)
    seed = contents[n - 4]
    blocks = contents[n - 3] | contents[n - 2] << 8 | contents[n - 1] << 16
    if blocks < 2:
        return _always(bits, label, fields, f"a Ribbon trailer with {blocks} blocks (RocksDB needs 2 or more)")
    slots = blocks * 128
    fields = dict(fields, implementation="Standard128Ribbon", seed=seed, ribbon_blocks=blocks, slots=slots,
                  solution_bits_per_slot=round(len(bits) / slots, 4))
    return ForeignFilter(
        format=NAME, m=len(bits), k=1, bits=bits, label=label, fields=fields,
        layout={"kind": "ribbon", "slots": slots},
        hashing="Standard128Ribbon (a linear system over GF(2), not a Bloom filter): RocksDB answers a key by "
                "the parities of the solution bits its 128-bit coefficient row selects, one per column, against "
                "bits of its hash (util/ribbon_impl.h, InterleavedFilterQuery); bloomviz answers by bit "
                "positions that must all be 1, which a Ribbon filter does not have, so it does not answer",
        notes=["a Ribbon filter's bits are a solved system, about half of them 1 at any load: bits set say "
               "nothing about the entries, and the false-positive rate is 2**-(solution bits per slot)"],
        past_design=(False, SIZED_FOR_ITS_KEYS))      # half its bits are 1 at any load: the fill rule would guess


def route(filters: list[ForeignFilter], item: object) -> list[ForeignFilter]:
    """The filters RocksDB asks for ``item``: each table's full filter, or the first partition whose last key
    is >= the key (the last partition when none is)."""
    key = item_bytes(item)
    tables: dict[str, list[ForeignFilter]] = {}
    for f in filters:
        tables.setdefault(f.fields.get("table"), []).append(f)
    chosen = []
    for parts in tables.values():
        if "last_key" not in parts[0].fields:
            chosen.extend(parts)
        else:
            chosen.append(next((f for f in parts if key <= bytes.fromhex(f.fields["last_key"])), parts[-1]))
    return chosen
