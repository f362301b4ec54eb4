"""Apache Hudi's record-key Bloom filter, stored in a base file's Parquet footer.

Where: the footer's key-value metadata (FileMetaData field 5) holds ``org.apache.hudi.bloomfilter`` (the
filter, Base64) and ``hoodie_bloom_filter_type_code`` (``SIMPLE`` or ``DYNAMIC_V0``); the Parquet footer is
read by ``parquet._footer``. Hudi's index asks this filter whether a record key may be in the file before it
opens the file.

Layout (Hudi's ``InternalFilter``/``InternalBloomFilter``, after Hadoop's ``org.apache.hadoop.util.bloom``;
``DataOutput``, big-endian)::

    filter    version i32 (-1)   nbHash k i32   hashType i8 (0 Jenkins, 1 Murmur)   vectorSize m i32
              then ceil(m/8) bytes: bit i is bit (i mod 8) of byte (i div 8), LSB first
    DYNAMIC_V0: a filter header as above, then nr i32 (entries a row is sized for), currentNbRecord i32
              (entries in the last row), rows i32, and each row as a whole filter (header + bytes)

A key is present if any row answers present. Hashing (``HashFunction``, ``MurmurHash`` hashType 1): the
record key's UTF-8 bytes b; initval = 0; for i in 0..k-1: initval = murmur2_32(b, seed=initval), index =
|initval mod m| (Java's int remainder). The 32-bit MurmurHash2 combines the last 1-3 bytes as Java's signed
bytes. Jenkins-hashed filters (hashType 0, old Hadoop default) are read and drawn, not looked up.

The design: Hudi sizes a row with m = ceil(-nr ln p / (ln 2)^2) bits for nr entries at rate p
(``BloomFilterUtils``); p is not stored, so the rate the row was sized for is recovered from m and nr
(named "design FP (from m and nr)").
"""

from __future__ import annotations

import base64
import binascii
import math
import struct

from bitarray import bitarray

from bloomviz.formats import parquet
from bloomviz.formats.common import (ForeignFilter, ForeignLookup, Source, bits_at, check_k, check_m)
from bloomviz.formats.reasons import Reason, say

NAME = "hudi"
TITLE = "Apache Hudi record-key Bloom filter (Parquet footer)"
KEY, TYPE_KEY = b"org.apache.hudi.bloomfilter", b"hoodie_bloom_filter_type_code"
MAX_ROWS = 4096
HASH_TYPES = {0: "Jenkins", 1: "Murmur"}
_M32 = 0xFFFFFFFF


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    # every unencrypted Parquet file may be a Hudi base file: where the footer puts the hoodie_ keys depends on
    # the writer (an Arrow writer puts its schema after them), so detection asks the readers: Parquet's first
    # (registered before this one), then this one when Parquet finds no filters of its own
    return parquet.sniff(head, tail, size) and tail[-4:] == parquet.MAGIC


def _s32(x: int) -> int:
    x &= _M32
    return x - (1 << 32) if x >> 31 else x


def murmur2_32(data: bytes, seed: int) -> int:
    """Hudi's/Hadoop's ``MurmurHash.hash(data, 0, len, seed)`` as a signed Java int."""
    m, length = 0x5BD1E995, len(data)
    h = (seed ^ length) & _M32
    n4 = length >> 2
    for i in range(n4):
        k = int.from_bytes(data[4 * i:4 * i + 4], "little")
        k = (k * m) & _M32
        k ^= k >> 24
        k = (k * m) & _M32
        h = ((h * m) & _M32) ^ k
    left = length - 4 * n4
    if left:
        tail = [b - 256 if b >= 0x80 else b for b in data[4 * n4:]]   # Java bytes are signed
        if left >= 3:
            h ^= (tail[2] << 16) & _M32
        if left >= 2:
            h ^= (tail[1] << 8) & _M32
        h ^= tail[0] & _M32
        h = (h * m) & _M32
    h ^= h >> 13
    h = (h * m) & _M32
    h ^= h >> 15
    return _s32(h)


def positions(key: bytes, k: int, m: int) -> tuple[int, ...]:
    out, initval = [], 0
    for _ in range(k):
        initval = murmur2_32(key, initval)
        r = abs(initval) % m   # Java: initval % m keeps the sign; Math.abs drops it
        out.append(r)
    return tuple(out)


class _ByteCursor:
    def __init__(self, raw: bytes, src: Source):
        self.raw, self.pos, self.src = raw, 0, src

    def take(self, fmt: str, what: str):
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.raw):
            raise self.src.fail(f"{KEY.decode()}: truncated at byte {self.pos:,} of the decoded filter ({what})")
        values = struct.unpack_from(fmt, self.raw, self.pos)
        self.pos += size
        return values

    def filter_header(self, what: str) -> tuple[int, int, int]:
        at = self.pos
        version, k, hash_type, m = self.take(">iibi", f"{what} header")
        if version != -1:
            raise self.src.fail(f"{KEY.decode()}: byte {at:,}: {what} has version {version}, not -1 (the only "
                                "versioned layout)")
        if hash_type not in HASH_TYPES:
            raise self.src.fail(f"{KEY.decode()}: byte {at + 8:,}: {what} has hash type {hash_type}")
        check_m(NAME, m, self.src.path)
        check_k(NAME, k, self.src.path)
        return k, hash_type, m

    def bits(self, m: int, what: str) -> bitarray:
        n = (m + 7) // 8
        if self.pos + n > len(self.raw):
            raise self.src.fail(f"{KEY.decode()}: {what} needs {n:,} bytes at byte {self.pos:,} but the decoded "
                                f"filter has {len(self.raw):,}")
        bits = bitarray(endian="little")
        bits.frombytes(self.raw[self.pos:self.pos + n])
        del bits[m:]
        self.pos += n
        return bits


def read(path, **_options) -> list[ForeignFilter]:
    with Source(path, NAME) as src:
        meta = parquet._footer(src)
        pairs = meta.get(5) if isinstance(meta.get(5), list) else []
        kv = {e.get(1): e.get(2) for e in pairs if isinstance(e, dict) and isinstance(e.get(1), bytes)}
        value = kv.get(KEY)
        if not isinstance(value, bytes):
            raise src.fail(f"the Parquet footer has no {KEY.decode()} entry (not a Hudi base file with a filter)")
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise src.fail(f"{KEY.decode()} is not valid Base64") from None
        type_code = kv.get(TYPE_KEY, b"SIMPLE")
        type_code = type_code.decode("ascii", "replace") if isinstance(type_code, bytes) else "SIMPLE"
        r = _ByteCursor(raw, src)
        k, hash_type, m = r.filter_header("the filter")
        fields = {"type_code": type_code, "hash_type": HASH_TYPES[hash_type], "decoded_bytes": len(raw)}
        if isinstance(meta.get(3), int):        # FileMetaData num_rows: the records the file holds
            fields["file_rows"] = meta[3]
        for key in (b"hoodie_min_record_key", b"hoodie_max_record_key"):
            if isinstance(kv.get(key), bytes):
                fields[key.decode()[7:]] = kv[key].decode("utf-8", "replace")
        if type_code.startswith("DYNAMIC"):
            nr, current, rows = r.take(">iii", "the dynamic filter's counts")
            if not 1 <= rows <= MAX_ROWS or nr < 1 or current < 0:
                raise src.fail(f"{KEY.decode()}: dynamic filter claims {rows:,} rows of {nr:,} entries")
            if rows * ((m + 7) // 8 + 13) > len(raw) - r.pos:
                raise src.fail(f"{KEY.decode()}: {rows:,} rows of {m:,} bits do not fit the "
                               f"{len(raw):,}-byte filter")
            parts = []
            for i in range(rows):
                rk, rh, rm = r.filter_header(f"row {i}")
                if (rk, rh, rm) != (k, hash_type, m):
                    raise src.fail(f"{KEY.decode()}: row {i} has k = {rk}, m = {rm:,}; the filter says k = {k}, "
                                   f"m = {m:,}")
                parts.append(r.bits(m, f"row {i}"))
            fields.update({"rows": rows, "entries_per_row": nr, "entries_in_last_row": current})
        else:
            nr, parts = None, [r.bits(m, "the bits")]
        if r.pos != len(raw):
            raise src.fail(f"{KEY.decode()}: {len(raw) - r.pos:,} bytes left over after the filter")
    return [_filter(parts, m, k, hash_type, nr, fields)]


def _filter(parts: list, m: int, k: int, hash_type: int, nr: int | None, fields: dict) -> ForeignFilter:
    bits = bitarray(endian="little")
    for part in parts:
        bits.extend(part)
    links = [(i * m, m, k, 0) for i in range(len(parts))]
    design_fp = math.exp(-m * math.log(2) ** 2 / nr) if nr else None
    if design_fp is not None:
        fields["design_fp_from_m_and_nr"] = design_fp

    def lookup(item: object) -> ForeignLookup:
        key = item if isinstance(item, bytes) else str(item).encode("utf-8", "surrogatepass")
        if not key:
            raise ValueError("Hudi refuses an empty record key (key length must be > 0)")
        row = positions(key, k, m)
        pos = tuple(off + p for off, *_ in links for p in row)
        return ForeignLookup(item, pos, bits_at(bits, pos), groups=(k,) * len(links))

    notes = [Reason(say("{rows} row(s) of {m} bits; a key is present if any row has all its {k} bits set",
                        rows=len(parts), m=m, k=k))]
    return ForeignFilter(
        format=NAME, m=len(bits), k=k, bits=bits,
        layout={"kind": "links", "links": links} if len(parts) > 1 else {"kind": "flat"},
        hashing=("Hadoop MurmurHash2 (32-bit, signed tail bytes) of the record key's UTF-8, seeds chained: "
                 "index = |h_i mod m|"),
        positions=lookup if hash_type == 1 else None, label="record keys", fields=fields, notes=notes,
        design_fp=design_fp, design_n=float(nr * len(parts)) if nr else None)
