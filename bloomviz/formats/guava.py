"""Guava ``com.google.common.hash.BloomFilter.writeTo``.

Layout (``BloomFilter.writeTo`` through a ``DataOutputStream``: every number big-endian)::

    strategy ordinal   i8      0 MURMUR128_MITZ_32, 1 MURMUR128_MITZ_64 (the default since Guava 11)
    k                  u8      numHashFunctions
    word count W       i32     length of the long[] behind the bit array
    words              W x i64 big-endian; bit i of the filter is bit (i mod 64) of word (i div 64), LSB first

m = 64 W (Guava rounds the bit array up to whole longs and hashes modulo that). Nothing else is stored: not
the funnel, not the expected insertions or rate, not the insert count. The file is recognised by its exact
size, 6 + 8 W bytes, with a known ordinal and k >= 1.

Hashing (``BloomFilterStrategies``): MurmurHash3 x64_128 (seed 0) of the bytes the funnel writes; h1, h2 are
the little-endian halves of the 16-byte digest (``mmh3.hash64``).

- MITZ_64: for i in 0..k-1: bit ((h1 + i h2) mod 2^64 with the sign bit cleared) mod m.
- MITZ_32: with a = low 32 bits of h1, b = high 32 bits of h1, as signed Java ints: for i in 1..k:
  c = a + i b (mod 2^32, signed); if c < 0, c = ~c; bit c mod m.

Funnels: ``utf8`` (``Funnels.stringFunnel(UTF_8)``: the string's UTF-8, unpaired surrogates as "?", as
Java's encoder does), ``chars`` (``Funnels.unencodedCharsFunnel()``: UTF-16LE code units), ``int``/``long``
(``Funnels.integerFunnel()``/``longFunnel()``: 4 or 8 bytes little-endian), ``bytes``
(``Funnels.byteArrayFunnel()``). The file does not say which funnel was used; ``utf8`` is assumed.
"""

from __future__ import annotations

import struct

import mmh3

from bloomviz.formats.common import (ForeignFilter, ForeignLookup, Source, bits_from_words, check_k, check_m,
                                     bits_at)

NAME = "guava"
TITLE = "Guava BloomFilter.writeTo"
STRATEGIES = {0: "MURMUR128_MITZ_32", 1: "MURMUR128_MITZ_64"}
FUNNELS = ("utf8", "chars", "int", "long", "bytes")
HEADER = 6
_MASK64, _MASK32 = (1 << 64) - 1, (1 << 32) - 1


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    if size < HEADER + 8 or len(head) < HEADER:
        return False
    ordinal, k, words = struct.unpack(">bBi", head[:HEADER])
    return ordinal in STRATEGIES and k >= 1 and words >= 1 and size == HEADER + 8 * words


def funnel_bytes(item: object, funnel: str = "utf8") -> bytes:
    if funnel == "utf8":
        if isinstance(item, bytes):
            return item
        return str(item).encode("utf-8", "replace")
    if funnel == "chars":
        return str(item).encode("utf-16-le", "surrogatepass")
    if funnel in ("int", "long"):
        try:
            number = int(item.strip()) if isinstance(item, str) else int(item)
            return struct.pack("<i" if funnel == "int" else "<q", number)
        except (TypeError, ValueError, struct.error):
            raise ValueError(f"the {funnel} funnel takes a {'32' if funnel == 'int' else '64'}-bit integer, "
                             f"got {item!r}") from None
    if funnel == "bytes":
        return item if isinstance(item, bytes) else str(item).encode("utf-8", "surrogateescape")
    raise ValueError(f"unknown Guava funnel {funnel!r}; known: {', '.join(FUNNELS)}")


def positions(data: bytes, k: int, m: int, ordinal: int) -> tuple[int, ...]:
    h1, h2 = mmh3.hash64(data, 0, signed=False)
    if ordinal == 1:
        return tuple((((h1 + i * h2) & _MASK64) & 0x7FFFFFFFFFFFFFFF) % m for i in range(k))
    a, b = h1 & _MASK32, (h1 >> 32) & _MASK32
    out = []
    for i in range(1, k + 1):
        c = (a + i * b) & _MASK32
        if c & 0x80000000:
            c = ~c & _MASK32   # Java's ~ on a negative int: a non-negative int
        out.append(c % m)
    return tuple(out)


def read(path, funnel: str = "utf8", **_options) -> list[ForeignFilter]:
    if funnel not in FUNNELS:
        raise ValueError(f"unknown Guava funnel {funnel!r}; known: {', '.join(FUNNELS)}")
    with Source(path, NAME) as src:
        if src.size < HEADER:
            raise src.fail(f"too short: {src.size} bytes, the header alone is {HEADER}")
        ordinal, k, words = struct.unpack(">bBi", src.read_at(0, HEADER, "the header"))
        if ordinal not in STRATEGIES:
            raise src.fail(f"unknown strategy ordinal {ordinal} (known: 0 MURMUR128_MITZ_32, 1 MURMUR128_MITZ_64)")
        check_k(NAME, k, path)
        if words <= 0:
            raise src.fail(f"word count {words} is not positive")
        m = check_m(NAME, 64 * words, path)
        if src.size != HEADER + 8 * words:
            raise src.fail(f"the header announces {words:,} words ({HEADER + 8 * words:,} bytes in all) but the "
                           f"file has {src.size:,} bytes")
        raw = src.read_at(HEADER, 8 * words, "the bit array")
    bits = bits_from_words(raw, 8, "big", m)

    def lookup(item: object) -> ForeignLookup:
        pos = positions(funnel_bytes(item, funnel), k, m, ordinal)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    return [ForeignFilter(
        format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"}, positions=lookup,
        hashing=f"{STRATEGIES[ordinal]}: MurmurHash3 x64_128 of the {funnel} funnel's bytes",
        fields={"strategy": STRATEGIES[ordinal], "strategy_ordinal": ordinal, "words": words, "funnel": funnel},
        notes=["Guava stores no insert count and no funnel: membership assumes the funnel named above"])]
