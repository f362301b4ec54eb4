"""Apache Spark ``org.apache.spark.util.sketch.BloomFilter.writeTo`` (V1 and V2).

Layout (``BloomFilterImpl``/``BloomFilterImplV2.writeTo``, ``BitArray.writeTo``; ``DataOutputStream``,
big-endian)::

    V1: version i32 = 1 | k i32 |            words W i32 | W x i64
    V2: version i32 = 2 | k i32 | seed i32 | words W i32 | W x i64

m = 64 W; bit i is bit (i mod 64) of long (i div 64), LSB first. Nothing says what was inserted: text
(``putString``: its UTF-8, hashed as bytes), bytes (``putBinary``; an item written ``0x…``) or integers
(``putLong``); ``--spark-items long`` looks items up as 64-bit integers.

Hashing: Spark's Murmur3_x86_32 (``hashUnsafeBytes``: 4-byte little-endian words, then every leftover byte
mixed in on its own as a sign-extended int, unlike the reference MurmurHash3; ``hashLong``: the low and the
high 32 bits as two words). h1 = hash(x, seed), h2 = hash(x, h1), seed 0 in V1.

- V1: for i in 1..k: c = h1 + i h2 (32-bit wrap), c = ~c if negative, bit c mod m.
- V2: c = h1 * (2^31 - 1) as a 64-bit long; for each of k: c += h2 (64-bit wrap), bit (~c if c < 0 else c)
  mod m, c itself left unflipped (as the 4.x bytecode does; an earlier source flipped c in place). The
  64-bit index reaches every bit of a filter past 2^31 bits.
"""

from __future__ import annotations

import struct

from bloomviz.formats.common import (ForeignFilter, ForeignLookup, Option, Source, bits_at, bits_from_words,
                                     check_k, check_m, hex_prefixed)

NAME = "spark"
TITLE = "Apache Spark BloomFilter.writeTo (util.sketch)"
HEADERS = {1: 12, 2: 16}
_M32, _M64 = (1 << 32) - 1, (1 << 64) - 1
C1, C2 = 0xCC9E2D51, 0x1B873593

CLI_OPTIONS = (
    Option("--spark-items", "how items were put: text (putString, default) or long (putLong); 0x… is "
           "putBinary", "KIND", str),
)


def _s32(x: int) -> int:
    x &= _M32
    return x - (1 << 32) if x >> 31 else x


def _s64(x: int) -> int:
    x &= _M64
    return x - (1 << 64) if x >> 63 else x


def _rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def _mix_k1(k: int) -> int:
    return (_rotl32((k * C1) & _M32, 15) * C2) & _M32


def _mix_h1(h: int, k: int) -> int:
    return (_rotl32(h ^ k, 13) * 5 + 0xE6546B64) & _M32


def _fmix(h: int, length: int) -> int:
    h ^= length
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M32
    return _s32(h ^ (h >> 16))


def hash_bytes(data: bytes, seed: int) -> int:
    """``Murmur3_x86_32.hashUnsafeBytes`` as a signed Java int."""
    h = seed & _M32
    aligned = len(data) - len(data) % 4
    for i in range(0, aligned, 4):
        h = _mix_h1(h, _mix_k1(int.from_bytes(data[i:i + 4], "little")))
    for b in data[aligned:]:
        h = _mix_h1(h, _mix_k1((b - 256 if b >= 0x80 else b) & _M32))
    return _fmix(h, len(data))


def hash_long(value: int, seed: int) -> int:
    """``Murmur3_x86_32.hashLong`` as a signed Java int."""
    value &= _M64
    h = _mix_h1(seed & _M32, _mix_k1(value & _M32))
    h = _mix_h1(h, _mix_k1(value >> 32))
    return _fmix(h, 8)


def positions(h1: int, h2: int, k: int, m: int, version: int) -> tuple[int, ...]:
    out = []
    if version == 1:
        for i in range(1, k + 1):
            c = _s32(h1 + i * h2)
            out.append((~c if c < 0 else c) % m)
        return tuple(out)
    c = _s64(h1 * 0x7FFFFFFF)
    for _ in range(k):
        c = _s64(c + h2)
        out.append((~c if c < 0 else c) % m)   # the flip is the index's only: c itself runs on unflipped
    return tuple(out)


def item_hashes(item: object, seed: int, kind: str = "text") -> tuple[int, int]:
    if isinstance(item, bytes):
        data = item
    elif (raw := hex_prefixed(str(item))) is not None:
        data = raw
    elif kind == "long":
        try:
            value = int(str(item).strip())
        except ValueError:
            raise ValueError(f"items put with putLong are integers; {item!r} is not one") from None
        if not -(1 << 63) <= value < (1 << 63):
            raise ValueError(f"{value} does not fit a Java long")
        h1 = hash_long(value, seed)
        return h1, hash_long(value, h1)
    else:
        data = str(item).encode("utf-8", "surrogatepass")
    h1 = hash_bytes(data, seed)
    return h1, hash_bytes(data, h1)


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    if len(head) < 16:
        return False
    version, k = struct.unpack(">ii", head[:8])
    if version not in HEADERS or not 1 <= k <= 255:
        return False
    words = struct.unpack(">i", head[HEADERS[version] - 4:HEADERS[version]])[0]
    return words >= 1 and size == HEADERS[version] + 8 * words


def read(path, spark_items: str | None = None, **_options) -> list[ForeignFilter]:
    kind = spark_items or "text"
    if kind not in ("text", "long"):
        raise ValueError(f"--spark-items must be text or long, got {kind!r}")
    with Source(path, NAME) as src:
        if src.size < 12:
            raise src.fail(f"too short: {src.size} bytes, a V1 header alone is 12")
        version, k = struct.unpack(">ii", src.read_at(0, 8, "the header"))
        if version not in HEADERS:
            raise src.fail(f"at offset 0: version {version} is not 1 or 2")
        header = HEADERS[version]
        if not 1 <= k <= 255:
            raise src.fail(f"at offset 4: k = {k} hash functions is outside 1..255")
        seed = struct.unpack(">i", src.read_at(8, 4, "the seed"))[0] if version == 2 else 0
        words = struct.unpack(">i", src.read_at(header - 4, 4, "the word count"))[0]
        if words < 1 or header + 8 * words != src.size:
            raise src.fail(f"at offset {header - 4}: word count {words:,} needs {header + 8 * max(words, 0):,} "
                           f"bytes but the file has {src.size:,}")
        m = check_m(NAME, 64 * words, path)
        check_k(NAME, k, path)
        bits = bits_from_words(src.read_at(header, 8 * words, "the bits"), 8, "big", m)

    def lookup(item: object) -> ForeignLookup:
        h1, h2 = item_hashes(item, seed, kind)
        pos = positions(h1, h2, k, m, version)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    rule = ("(h1 + i·h2) as a 32-bit int" if version == 1 else
            "h1·(2^31 - 1) + i·h2 as a 64-bit long")
    return [ForeignFilter(
        format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"},
        hashing=f"Spark Murmur3_x86_32 ({'putLong' if kind == 'long' else 'putString/putBinary'}), "
                f"h2 seeded with h1; bit {rule}, negatives flipped, mod m",
        positions=lookup, label="", fields={"version": version, "seed": seed, "words": words, "items_as": kind})]
