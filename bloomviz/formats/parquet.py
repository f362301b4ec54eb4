"""Apache Parquet split-block Bloom filters, read straight from a ``.parquet`` file.

File (parquet-format README and parquet.thrift)::

    "PAR1" | column chunks, Bloom filters, indexes ... | FileMetaData | u32 LE footer length | "PAR1"

(an encrypted footer ends in "PARE": refused, as its metadata cannot be read without keys). FileMetaData is
a Thrift compact struct (``thrift_compact``); the fields used, by id::

    FileMetaData  2 schema: list<SchemaElement>   4 row_groups: list<RowGroup>   6 created_by: string
    RowGroup      1 columns: list<ColumnChunk>    3 num_rows: i64
    ColumnChunk   3 meta_data: ColumnMetaData
    ColumnMetaData 1 type (physical: 0 BOOLEAN 1 INT32 2 INT64 3 INT96 4 FLOAT 5 DOUBLE 6 BYTE_ARRAY
                   7 FIXED_LEN_BYTE_ARRAY)   3 path_in_schema: list<string>   5 num_values
                   14 bloom_filter_offset: i64   15 bloom_filter_length: i32 (header + bitset; optional)
    SchemaElement 2 type_length   4 name

At ``bloom_filter_offset``: a BloomFilterHeader (compact struct: 1 numBytes i32, 2 algorithm {1: BLOCK},
3 hash {1: XXHASH}, 4 compression {1: UNCOMPRESSED}), then numBytes of bitset (BloomFilter.md).

The bitset is an array of 256-bit blocks, each eight little-endian u32 words. A value is hashed with XXH64
(seed 0) of its PLAIN encoding — INT32/INT64/FLOAT/DOUBLE as 4/8 bytes little-endian, BYTE_ARRAY as its
bytes without the length prefix, FIXED_LEN_BYTE_ARRAY as its bytes. With h that hash, the block is
``((h >> 32) * blocks) >> 32``, and in word i of that block the bit ``((h & 0xffffffff) * SALT[i]
mod 2**32) >> 27`` is set: exactly one bit per word, k = 8.
"""

from __future__ import annotations

import math

import struct

import xxhash

from bloomviz.formats.common import (ForeignFilter, ForeignLookup, Option, Source, bits_from_words,
                                     bits_at)
from bloomviz.formats.reasons import Reason, Word, say
from bloomviz.formats.thrift_compact import ThriftError, read_struct

NAME = "parquet"
TITLE = "Apache Parquet split-block Bloom filters"
MAGIC = b"PAR1"
SALT = (0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D, 0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31)
MAX_FOOTER = 64 << 20
MAX_FILTER_BYTES = 128 << 20       # parquet-mr's and Arrow's cap on one bitset
MAX_HEADER = 64                    # a BloomFilterHeader is about 15 bytes; room for extra fields
TYPES = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE", 6: "BYTE_ARRAY",
         7: "FIXED_LEN_BYTE_ARRAY"}


def _fpp(text: str) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = math.nan
    if not 0.0 < value < 1.0:
        raise ValueError(f"fpp must be between 0 and 1, got {text!r}")
    return value


CLI_OPTIONS = (
    Option("--fpp", "the fpp its writer was given, which the file does not store (default: the writer's own "
           "default, named by the file's created_by: 0.05 for Arrow, 0.01 for parquet-java and DuckDB)", "P", _fpp),
)


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    return size >= 12 and head[:4] == MAGIC and tail[-4:] in (MAGIC, b"PARE")


def plain_encoding(value: object, ptype: int, type_length: int | None = None) -> bytes:
    """The PLAIN encoding of ``value`` for a column of physical type ``ptype``; text is parsed for numbers."""
    name = TYPES.get(ptype, str(ptype))
    if ptype in (1, 2):
        try:
            number = int(value.strip()) if isinstance(value, str) else int(value)
        except (TypeError, ValueError):
            raise ValueError(f"an {name} column holds integers; {value!r} is not one") from None
        lo, hi = (-(1 << 31), (1 << 31) - 1) if ptype == 1 else (-(1 << 63), (1 << 63) - 1)
        if not lo <= number <= hi:
            raise ValueError(f"{number} does not fit a {name} column")
        return struct.pack("<i" if ptype == 1 else "<q", number)
    if ptype in (4, 5):
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"a {name} column holds numbers; {value!r} is not one") from None
        return struct.pack("<f" if ptype == 4 else "<d", number)
    if ptype in (6, 7):
        data = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else bytes(value)
        if ptype == 7 and type_length is not None and len(data) != type_length:
            raise ValueError(f"a FIXED_LEN_BYTE_ARRAY({type_length}) column holds {type_length}-byte values; "
                             f"{value!r} has {len(data)}")
        return data
    raise ValueError(f"membership of {name} values is not supported")


def block_positions(h: int, blocks: int) -> tuple[int, ...]:
    """The eight bit indices (into the normalised bits) that the 64-bit hash ``h`` names."""
    block = ((h >> 32) * blocks) >> 32
    x = h & 0xFFFFFFFF
    base = block * 256
    return tuple(base + 32 * i + (((x * salt) & 0xFFFFFFFF) >> 27) for i, salt in enumerate(SALT))


def _column_names(schema: list) -> dict:
    """type_length of each leaf by name (SchemaElement 4 name, 2 type_length, 5 num_children)."""
    if not isinstance(schema, list):
        return {}
    return {e[4].decode("utf-8", "replace"): e.get(2) for e in schema if isinstance(e, dict)
            and isinstance(e.get(4), bytes) and not e.get(5) and isinstance(e.get(2, 0), int)}


def _footer(src: Source) -> dict:
    if src.size < 12:
        raise src.fail(f"too short: {src.size} bytes, a Parquet file has at least 12")
    if src.head(4) != MAGIC:
        raise src.fail("not a Parquet file (no PAR1 at the start)")
    tail = src.tail(8)
    if tail[4:] == b"PARE":
        raise src.fail("the footer is encrypted; its Bloom filters cannot be located without the key")
    if tail[4:] != MAGIC:
        raise src.fail("truncated or not a Parquet file (no PAR1 at the end)")
    length = struct.unpack("<I", tail[:4])[0]
    if length > src.size - 12 or length > MAX_FOOTER:
        raise src.fail(f"footer length {length:,} does not fit a {src.size:,}-byte file")
    raw = src.read_at(src.size - 8 - length, length, "the footer")
    try:
        meta, _ = read_struct(raw)
    except ThriftError as exc:
        raise src.fail(f"malformed footer metadata: {exc}") from None
    if not isinstance(meta.get(4), list):
        raise src.fail("the footer metadata has no row groups list")
    return meta


def _int(value, what: str, src: Source) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise src.fail(f"{what} is missing or not an integer")
    return value


def _read_filter(src: Source, offset: int, length: int | None, what: str) -> tuple[bytes, int]:
    if not 4 <= offset < src.size - 8:
        raise src.fail(f"{what}: bloom_filter_offset {offset:,} lies outside the file")
    head = src.read_at(offset, min(MAX_HEADER, src.size - offset), f"{what} header")
    try:
        header, used = read_struct(head)
    except ThriftError as exc:
        raise src.fail(f"{what}: malformed BloomFilterHeader: {exc}") from None
    num_bytes = _int(header.get(1), f"{what}: numBytes", src)
    for fid, name, option in ((2, "algorithm", "BLOCK"), (3, "hash", "XXHASH"), (4, "compression", "UNCOMPRESSED")):
        if not isinstance(header.get(fid), dict) or list(header[fid]) != [1]:
            raise src.fail(f"{what}: {name} is not {option} (the only one the spec defines), got {header.get(fid)!r}")
    if num_bytes <= 0 or num_bytes % 32 or num_bytes > MAX_FILTER_BYTES:
        raise src.fail(f"{what}: numBytes {num_bytes:,} is not a positive multiple of 32 up to {MAX_FILTER_BYTES:,}")
    if length is not None and length != used + num_bytes:
        raise src.fail(f"{what}: bloom_filter_length {length:,} disagrees with header ({used}) + bitset "
                       f"({num_bytes:,})")
    return src.read_at(offset + used, num_bytes, f"{what} bitset"), used


def read(path, column: str | None = None, row_group: int | None = None, fpp: float | None = None,
         **_options) -> list[ForeignFilter]:
    """Every column chunk's Bloom filter (optionally one column and/or one row group), in file order; ``fpp``:
    the one its writer was given, if the user knows it (else the writer's default is assumed, and said)."""
    out: list[ForeignFilter] = []
    with Source(path, NAME) as src:
        meta = _footer(src)
        lengths = _column_names(meta.get(2) or [])
        created_by = meta.get(6, b"").decode("utf-8", "replace") if isinstance(meta.get(6), bytes) else ""
        columns_seen: set[str] = set()
        groups = meta[4]
        if row_group is not None and not 0 <= row_group < len(groups):
            raise src.fail(f"row group {row_group} does not exist (the file has {len(groups)}: 0..{len(groups) - 1})")
        for g, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get(1), list):
                raise src.fail(f"row group {g} has no columns list")
            for chunk in group[1]:
                cmeta = chunk.get(3) if isinstance(chunk, dict) else None
                if not isinstance(cmeta, dict):
                    continue  # metadata only in an encrypted block: nothing we can locate
                path_parts = cmeta.get(3)
                if not isinstance(path_parts, list) or not path_parts or \
                        not all(isinstance(p, bytes) for p in path_parts):
                    raise src.fail(f"row group {g}: a column's path_in_schema is not a list of names")
                name = ".".join(p.decode("utf-8", "replace") for p in path_parts)
                columns_seen.add(name)
                if 14 not in cmeta or (column is not None and name != column) or (
                        row_group is not None and g != row_group):
                    continue
                what = f"column {name!r}, row group {g}"
                offset = _int(cmeta.get(14), f"{what}: bloom_filter_offset", src)
                length = cmeta.get(15)
                if length is not None:
                    length = _int(length, f"{what}: bloom_filter_length", src)
                raw, header_bytes = _read_filter(src, offset, length, what)
                ptype = _int(cmeta.get(1), f"{what}: type", src)
                if ptype not in TYPES:
                    raise src.fail(f"{what}: unknown physical type {ptype}")
                rows = group.get(3) if isinstance(group.get(3), int) else None
                leaf = lengths.get(path_parts[-1].decode("utf-8", "replace"))
                out.append(_filter(raw, name, g, ptype, leaf, offset, header_bytes, rows, created_by, fpp))
        if column is not None and column not in columns_seen:
            raise src.fail(f"no column {column!r} (columns: {', '.join(sorted(columns_seen)) or 'none'})")
        without = sorted(columns_seen - {str(f.fields["column"]) for f in out}) if column is None else []
        for f in out:               # a lookup on these columns meets no filter: the reasons name them
            if without:
                f.fields["columns_without_filter"] = without
        if not out:
            where = "" if column is None and row_group is None else " for the column/row group chosen"
            raise src.fail(f"the file holds no Bloom filters{where}")
    return out


# The fpp each writer uses unless told otherwise, by the start of the created_by it writes: Arrow C++ (pyarrow) and
# arrow-rs 0.05, parquet-java 0.01 (parquet.bloom.filter.fpp), DuckDB 0.01 (its 4,000-value dictionary got 65,536
# bits, what 0.01 gives; 0.05 gives 32,768). The file stores neither fpp nor ndv.
WRITER_FPP = (("parquet-cpp-arrow", "Arrow's default", 0.05), ("parquet-rs", "arrow-rs's default", 0.05),
              ("parquet-mr", "parquet-java's default", 0.01), ("parquet-java", "parquet-java's default", 0.01),
              ("DuckDB", "DuckDB's default", 0.01))
# with no writer named, the largest default: the most values a filter of m bits can have been sized for unless its
# writer was given a larger fpp
DEFAULT_FPP = 0.05


def writer_fpp(created_by: str) -> tuple[float, str]:
    """(the fpp assumed for a file its created_by names, whose default it is)."""
    for start, who, fpp in WRITER_FPP:
        if created_by.startswith(start):
            return fpp, who
    return DEFAULT_FPP, "the largest writers' default (writer not known)"


def ndv_sized_for(m: int, fpp: float) -> tuple[float, float]:
    """The ndv values a writer turns into m bits at fpp (Arrow's and parquet-java's OptimalNumOfBits: bits =
    −8·ndv / ln(1 − fpp^(1/8)), rounded up to a power of two, so m/2 < bits ≤ m)."""
    per = -math.log1p(-fpp ** (1 / 8)) / 8
    return m / 2 * per, m * per


def _filter(raw: bytes, name: str, group: int, ptype: int, type_length, offset: int, header_bytes: int,
            rows, created_by: str, given_fpp: float | None = None) -> ForeignFilter:
    m = len(raw) * 8
    blocks = m // 256
    fpp, who = (given_fpp, "--fpp") if given_fpp is not None else writer_fpp(created_by)
    sized = ndv_sized_for(m, fpp)[1]
    bits = bits_from_words(raw, 4, "little", m)

    def lookup(item: object) -> ForeignLookup:
        h = xxhash.xxh64_intdigest(plain_encoding(item, ptype, type_length))
        pos = block_positions(h, blocks)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    fields = {"column": name, "row_group": group, "physical_type": TYPES.get(ptype, str(ptype)),
              "blocks": blocks, "bitset_bytes": len(raw), "bloom_filter_offset": offset,
              "header_bytes": header_bytes, "num_rows": rows, "created_by": created_by,
              "fpp": fpp, "fpp_from": Reason(say("given (--fpp)") if given_fpp is not None else
                                           say("assumed: {who}", who=Word(who)))}
    if type_length is not None:
        fields["type_length"] = type_length
    if given_fpp is not None:
        sized_note = Reason(say("sized for at most {ndv} distinct values at fpp {fpp} (given)", ndv=(sized, 0),
                                fpp=float(fpp)))
    else:
        sized_note = Reason(say("sized for at most {ndv} distinct values at fpp {fpp}, assumed: {who} (the file "
                                "does not store the ndv and fpp its writer was given; --fpp gives yours)",
                                ndv=(sized, 0), fpp=float(fpp), who=Word(who)))
    return ForeignFilter(
        format=NAME, m=m, k=8, bits=bits, label=f"column {name}, row group {group}",
        layout={"kind": "blocks", "block_bits": 256, "word_bits": 32},
        hashing="XXH64 (seed 0) of the PLAIN encoding; block = ((h >> 32) * blocks) >> 32; one bit per word",
        positions=lookup if ptype != 3 and ptype != 0 else None, fields=fields,
        notes=([] if rows is None else [Reason(say("{rows} rows in the row group (an upper bound on distinct "
                                                   "values)", rows=rows))])
        + [sized_note],
        design_n=sized, design_basis=(f"fpp {fpp:g} given" if given_fpp is not None else
                                      f"fpp {fpp:g} assumed: {who}; --fpp gives the writer's"))
