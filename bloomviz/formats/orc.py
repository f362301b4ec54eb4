"""Apache ORC bloom-filter streams (``BLOOM_FILTER_UTF8``): one filter per column per row group.

File (ORC specification v1, orc_proto.proto)::

    "ORC" | stripes ... | Metadata | Footer | PostScript | u8 PostScript length

PostScript (never compressed): 1 footerLength, 2 compression (0 NONE, 1 ZLIB, ...), 3 compressionBlockSize,
8000 magic "ORC". Footer: 3 stripes, 4 types, 8 rowIndexStride. StripeInformation: 1 offset,
2 indexLength, 3 dataLength, 4 footerLength. A stripe's streams lie one after another from its offset, as its
StripeFooter (at offset + indexLength + dataLength) lists them: Stream 1 kind (8 = BLOOM_FILTER_UTF8),
2 column, 3 length. A compressed stream is chunks, each a 3-byte little-endian header (length << 1 | original)
then the bytes (raw DEFLATE for ZLIB). A BLOOM_FILTER_UTF8 stream is a BloomFilterIndex: 1 bloomFilter, one
per row group, each 1 numHashFunctions and 3 utf8bitset: little-endian 64-bit words, bit i = bit (i mod 64)
of word (i div 64).

Hashing (ORC's ``BloomFilter``, C++ and Java alike): strings and binary: h = ORC's Murmur3 hash64 (the
64-bit variant: 8-byte blocks, seed 104729) of the bytes; integers and dates: h = Thomas Wang's 64-bit
integer hash of the value; floating point: that hash of the double's IEEE bits. Then with h1 = low 32 bits,
h2 = high 32 bits (signed): for i in 1..k: c = h1 + i h2 (32-bit wrap), if c < 0 then c = ~c, bit c mod m.

The writer sizes each filter for rowIndexStride entries at its fpp (m = -n ln p / (ln 2)^2, rounded up to
whole 64-bit words; k = round(m/n ln 2)); fpp is not stored, so the rate is recovered from m and n.
"""

from __future__ import annotations

import math
import struct
import zlib

from bitarray import bitarray

from bloomviz.formats import protobuf_wire as pb
from bloomviz.formats.common import ForeignFilter, ForeignLookup, Source, bits_at, check_k, check_m

NAME = "orc"
TITLE = "Apache ORC bloom-filter streams (BLOOM_FILTER_UTF8)"
MAGIC = b"ORC"
COMPRESSION = {0: "NONE", 1: "ZLIB", 2: "SNAPPY", 3: "LZO", 4: "LZ4", 5: "ZSTD"}
KINDS = {0: "BOOLEAN", 1: "BYTE", 2: "SHORT", 3: "INT", 4: "LONG", 5: "FLOAT", 6: "DOUBLE", 7: "STRING",
         8: "BINARY", 9: "TIMESTAMP", 10: "LIST", 11: "MAP", 12: "STRUCT", 13: "UNION", 14: "DECIMAL",
         15: "DATE", 16: "VARCHAR", 17: "CHAR"}
INTEGER, FLOATING, BYTES = {1, 2, 3, 4, 15}, {5, 6}, {7, 8, 16}
BLOOM_FILTER, BLOOM_FILTER_UTF8 = 7, 8
SEED = 104729
MAX_TAIL = 64 << 20
MAX_STREAM = 256 << 20
_M64, _M32 = (1 << 64) - 1, (1 << 32) - 1


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    return size > 4 and head[:3] == MAGIC and tail[-1:] != b"" and 0 < tail[-1] < size and \
        tail[-1 - tail[-1]:-1].endswith(MAGIC)


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M64


def murmur3_hash64(data: bytes, seed: int = SEED) -> int:
    """ORC's ``Murmur3::hash64`` (unsigned 64-bit)."""
    c1, c2 = 0x87C37B91114253D5, 0x4CF5AD432745937F
    h = seed
    blocks = len(data) >> 3
    for i in range(blocks):
        k = int.from_bytes(data[8 * i:8 * i + 8], "little")
        h ^= (_rotl((k * c1) & _M64, 31) * c2) & _M64
        h = (_rotl(h, 27) * 5 + 0x52DCE729) & _M64
    rest = data[8 * blocks:]
    if rest:
        k = int.from_bytes(rest, "little")
        h ^= (_rotl((k * c1) & _M64, 31) * c2) & _M64
    h ^= len(data)
    for mult in (0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53):
        h ^= h >> 33
        h = (h * mult) & _M64
    return h ^ (h >> 33)


def long_hash(key: int) -> int:
    """Thomas Wang's 64-bit integer hash as ORC writes it (signed shifts), as an unsigned 64-bit value."""
    def s(x: int) -> int:
        x &= _M64
        return x - (1 << 64) if x >> 63 else x
    key = s(key)
    key = s(~key + (key << 21))
    key = s(key ^ (key >> 24))
    key = s(key + (key << 3) + (key << 8))
    key = s(key ^ (key >> 14))
    key = s(key + (key << 2) + (key << 4))
    key = s(key ^ (key >> 28))
    return (key + (key << 31)) & _M64


def positions(h: int, k: int, m: int) -> tuple[int, ...]:
    def s32(x: int) -> int:
        x &= _M32
        return x - (1 << 32) if x >> 31 else x
    h1, h2 = s32(h), s32(h >> 32)
    out = []
    for i in range(1, k + 1):
        c = s32(h1 + i * h2)
        if c < 0:
            c = ~c
        out.append(c % m)
    return tuple(out)


def item_hash(item: object, kind: int) -> int:
    name = KINDS.get(kind, str(kind))
    if kind in BYTES:
        if isinstance(item, bytes):
            return murmur3_hash64(item)
        text = str(item)
        if kind == 8 and text[:2] in ("0x", "0X"):
            try:
                return murmur3_hash64(bytes.fromhex(text[2:]))
            except ValueError:
                raise ValueError(f"{text!r} starts with 0x but is not hex bytes") from None
        return murmur3_hash64(text.encode("utf-8", "surrogatepass"))
    if kind in INTEGER:
        try:
            return long_hash(int(str(item).strip()))
        except ValueError:
            raise ValueError(f"a {name} column holds integers; {item!r} is not one") from None
    if kind in FLOATING:
        try:
            bits = struct.unpack("<q", struct.pack("<d", float(str(item).strip())))[0]
        except ValueError:
            raise ValueError(f"a {name} column holds numbers; {item!r} is not one") from None
        return long_hash(bits)
    raise ValueError(f"membership of {name} values is not reproduced")


class _File:
    def __init__(self, src: Source):
        self.src = src
        if src.size < 4 or src.head(3) != MAGIC:
            raise src.fail("not an ORC file (no ORC at the start)")
        ps_len = src.tail(1)[0]
        if ps_len == 0 or ps_len + 1 > src.size - 3:
            raise src.fail(f"at offset {src.size - 1:,}: PostScript length {ps_len} does not fit the file")
        ps = self.message(src.read_at(src.size - 1 - ps_len, ps_len, "the PostScript"), "PostScript",
                          src.size - 1 - ps_len)
        if pb.first(ps, 8000, None, bytes) != MAGIC:
            raise src.fail("the PostScript does not end in the ORC magic")
        self.compression = pb.first(ps, 2, 0, int)
        if self.compression not in (0, 1):
            raise src.fail(f"{COMPRESSION.get(self.compression, self.compression)} compression is not read here "
                           "(NONE and ZLIB are)")
        footer_len = pb.first(ps, 1, 0, int)
        footer_at = src.size - 1 - ps_len - footer_len
        if footer_len > MAX_TAIL or footer_at < 3:
            raise src.fail(f"footer length {footer_len:,} does not fit the {src.size:,}-byte file")
        self.footer = self.message(self.stream(footer_at, footer_len, "the footer"), "footer", footer_at)

    def message(self, data: bytes, what: str, offset: int) -> dict:
        try:
            return pb.fields(data)
        except pb.WireError as exc:
            raise self.src.fail(f"{what} at offset {offset:,}: {exc}") from None

    def stream(self, offset: int, length: int, what: str) -> bytes:
        if length > MAX_STREAM:
            raise self.src.fail(f"{what} at offset {offset:,} claims {length:,} bytes")
        raw = self.src.read_at(offset, length, what)
        if self.compression == 0:
            return raw
        out, pos = [], 0
        while pos < len(raw):
            if pos + 3 > len(raw):
                raise self.src.fail(f"{what}: truncated chunk header at offset {offset + pos:,}")
            header = int.from_bytes(raw[pos:pos + 3], "little")
            size, original = header >> 1, header & 1
            chunk = raw[pos + 3:pos + 3 + size]
            if len(chunk) != size:
                raise self.src.fail(f"{what}: chunk at offset {offset + pos:,} claims {size:,} bytes")
            try:
                out.append(chunk if original else zlib.decompressobj(-15).decompress(chunk, MAX_STREAM))
            except zlib.error as exc:
                raise self.src.fail(f"{what}: chunk at offset {offset + pos:,} does not inflate: {exc}") from None
            pos += 3 + size
        return b"".join(out)


def _columns(footer: dict) -> dict[int, tuple[str, int]]:
    """column id -> (name, type kind) for the root struct's fields."""
    types = [pb.fields(t) for t in pb.repeated(footer, 4, bytes)]
    if not types:
        return {}
    root = types[0]
    names = [n.decode("utf-8", "replace") for n in pb.repeated(root, 3, bytes)]
    ids = [i for chunk in pb.repeated(root, 2, bytes) for i in pb.packed_varints(chunk)]
    return {cid: (name, pb.first(types[cid], 1, -1, int)) for cid, name in zip(ids, names) if 0 < cid < len(types)}


def read(path, column: str | None = None, **_options) -> list[ForeignFilter]:
    with Source(path, NAME) as src:
        try:
            return _read(src, column)
        except pb.WireError as exc:
            raise src.fail(f"malformed protobuf: {exc}") from None


def _read(src: Source, column: str | None) -> list[ForeignFilter]:
    out: list[ForeignFilter] = []
    f = _File(src)
    columns = _columns(f.footer)
    stride = pb.first(f.footer, 8, 10000, int)
    if column is not None and column not in {name for name, _ in columns.values()}:
        raise src.fail(f"no column {column!r} (columns: {', '.join(n for n, _ in columns.values()) or 'none'})")
    old_only = False
    for s, raw_info in enumerate(pb.repeated(f.footer, 3, bytes)):
        info = f.message(raw_info, f"stripe {s} information", 0)
        offset, index_len, data_len, footer_len = (pb.first(info, i, 0, int) for i in (1, 2, 3, 4))
        sfooter = f.message(f.stream(offset + index_len + data_len, footer_len, f"stripe {s} footer"),
                            f"stripe {s} footer", offset + index_len + data_len)
        at = offset
        for raw_stream in pb.repeated(sfooter, 1, bytes):
            stream = f.message(raw_stream, f"stripe {s} stream", at)
            kind, cid, length = (pb.first(stream, i, 0, int) for i in (1, 2, 3))
            start, at = at, at + length
            name, tkind = columns.get(cid, ("(root struct)", 12) if cid == 0 else (f"#{cid}", -1))
            old_only |= kind == BLOOM_FILTER
            if kind != BLOOM_FILTER_UTF8 or (column is not None and name != column):
                continue
            index = f.message(f.stream(start, length, f"stripe {s} column {name} bloom filters"),
                              f"stripe {s} column {name} bloom filters", start)
            for g, raw_bf in enumerate(pb.repeated(index, 1, bytes)):
                bf = f.message(raw_bf, f"stripe {s} column {name} row group {g}", start)
                out.append(_filter(src, bf, name, tkind, s, g, stride))
    if not out:
        why = " (only the old BLOOM_FILTER streams, whose string hashing is not reproduced)" if old_only else ""
        raise src.fail(f"the file holds no BLOOM_FILTER_UTF8 streams{why}")
    return out


def _filter(src: Source, bf: dict, name: str, kind: int, stripe: int, group: int, stride: int) -> ForeignFilter:
    k = pb.first(bf, 1, 0, int)
    raw = pb.first(bf, 3, b"", bytes)
    what = f"column {name}, stripe {stripe}, row group {group}"
    if not raw or len(raw) % 8:
        raise src.fail(f"{what}: utf8bitset of {len(raw)} bytes is not whole 64-bit words")
    check_m(NAME, len(raw) * 8, src.path)
    check_k(NAME, k, src.path)
    bits = bitarray(endian="little")
    bits.frombytes(raw)
    m = len(bits)
    design_fp = math.exp(-m * math.log(2) ** 2 / stride) if stride else None

    def lookup(item: object) -> ForeignLookup:
        pos = positions(item_hash(item, kind), k, m)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    reproducible = kind in INTEGER | FLOATING | BYTES
    return ForeignFilter(
        format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"},
        hashing=("ORC Murmur3 hash64 (seed 104729) of the bytes, or Thomas Wang's hash of a number; "
                 "bit ((h1 + i·h2), negative flipped) mod m for i = 1..k"),
        positions=lookup if reproducible else None, label=what,
        fields={"column": name, "type": KINDS.get(kind, str(kind)), "stripe": stripe, "row_group": group,
                "row_index_stride": stride, "design_fp_from_m_and_stride": design_fp},
        design_fp=design_fp, design_n=float(stride) if stride else None)
