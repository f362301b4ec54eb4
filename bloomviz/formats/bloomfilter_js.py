"""Jason Davies' bloomfilter.js (npm ``bloomfilter``, 1.x): its ``toJSON`` and its buckets' typed-array bytes.

What users save::

    JSON.stringify(bloom)                      {"version": 1, "m": 1024, "k": 7, "buckets": [u32, ...]}
    JSON.stringify(Array.from(bloom.buckets))  [u32, ...]          k is not in the file: --k
    fs.writeFileSync(f, bloom.buckets)         the Uint32Array's bytes (little-endian), k not in it: --k

``new BloomFilter(m, k)`` rounds m up to whole 32-bit buckets; bit i is bit (i mod 32) of bucket i div 32. The
JSON object is recognised from its contents; a bare array or typed-array bytes say nothing of themselves, so
they are read with ``--format bloomfilter-js --k K``.

Hashing (``BloomFilter.locations``, 1.x): FNV-1a 64 over the string's UTF-16 code units (``charCodeAt``), then
a = its high 32 bits and b = its low 32 bits, each as a signed 32-bit integer taken mod m (made non-negative),
and enhanced double hashing: position 0 is a; then a = (a + b) mod m, b = (b + i) mod m for i = 1..k-1. A
``bytes`` item is read as a string of those byte values. (bloomfilter.js before 1.0 hashed with 32-bit FNV and
another step rule; its files read here with their bits right but their items' answers would not be.)
"""

from __future__ import annotations

import json
import struct

from bloomviz.formats.common import ForeignFilter, ForeignLookup, Source, bits_at, bits_from_words, check_k, check_m

NAME = "bloomfilter-js"
TITLE = "bloomfilter.js (npm bloomfilter) toJSON, buckets array or Uint32Array bytes"
MAX_JSON = 1 << 28
_FNV_BASIS, _FNV_PRIME, _MASK64 = 0xcbf29ce484222325, 0x100000001b3, (1 << 64) - 1


def _signed32(x: int) -> int:
    return x - (1 << 32) if x & 0x80000000 else x


def positions(item: object, k: int, m: int) -> tuple[int, ...]:
    text = item.decode("latin-1") if isinstance(item, (bytes, bytearray)) else str(item)
    units = text.encode("utf-16-le", "surrogatepass")
    h = _FNV_BASIS
    for (unit,) in struct.iter_unpack("<H", units):
        h = ((h ^ unit) * _FNV_PRIME) & _MASK64
    a, b = _signed32(h >> 32) % m, _signed32(h & 0xFFFFFFFF) % m
    out = [a]
    for i in range(1, k):
        a = (a + b) % m
        b = (b + i) % m
        out.append(a)
    return tuple(out)


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    text = head.lstrip()
    return (text.startswith(b"{") and b'"buckets"' in head and b'"k"' in head
            and b'"schema_version"' not in head and size <= MAX_JSON)


def _buckets(src: Source, values, where: str) -> bytes:
    if not isinstance(values, list) or not values:
        raise src.fail(f"{where}: expected a non-empty list of 32-bit buckets")
    if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 0xFFFFFFFF for v in values):
        raise src.fail(f"{where}: every bucket must be a whole number from 0 to 4294967295")
    return struct.pack(f"<{len(values)}I", *values)


def read(path, k: int | None = None, **_options) -> list[ForeignFilter]:
    fields = {}
    with Source(path, NAME) as src:
        if src.size == 0:
            raise src.fail("empty file")
        first = src.head(64).lstrip()[:1]
        if first in (b"{", b"["):
            if src.size > MAX_JSON:
                raise src.fail(f"{src.size:,} bytes of JSON is more than bloomviz reads ({MAX_JSON:,})")
            try:
                doc = json.loads(src.read_at(0, src.size, "the JSON").decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise src.fail(f"not valid JSON: {exc}") from None
            if isinstance(doc, dict):
                if doc.get("version", 1) != 1:
                    raise src.fail(f"serialisation version {doc.get('version')!r}; bloomfilter.js 1.x writes 1")
                stored_k = doc.get("k")
                if isinstance(stored_k, bool) or not isinstance(stored_k, int):
                    raise src.fail(f"k: expected a whole number, got {stored_k!r}"[:200])
                if k is not None and k != stored_k:
                    raise ValueError(f"{path}: {NAME}: the file says k = {stored_k}, not --k {k}")
                k = stored_k
                raw = _buckets(src, doc.get("buckets"), "buckets")
                if "m" in doc and doc["m"] != 8 * len(raw):
                    raise src.fail(f"m = {doc['m']!r} does not match {len(raw) // 4:,} buckets of 32 bits"[:200])
                fields = {"kind": "toJSON", "version": doc.get("version")}
            else:
                raw = _buckets(src, doc, "the array")
                fields = {"kind": "buckets array"}
        else:
            if src.size % 4:
                raise src.fail(f"{src.size:,} bytes are not whole 32-bit buckets")
            raw = src.read_at(0, src.size, "the buckets")
            fields = {"kind": "Uint32Array bytes"}
    if k is None:
        raise ValueError(f"{path}: {NAME}: a buckets array does not store k: give it with --k")
    m = 8 * len(raw)
    check_m(NAME, m, path)
    check_k(NAME, k, path)
    bits = bits_from_words(raw, 4, "little", m)

    def lookup(item: object) -> ForeignLookup:
        pos = positions(item, k, m)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    return [ForeignFilter(format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"}, positions=lookup,
                          label="BloomFilter", fields=fields,
                          hashing="FNV-1a 64 over UTF-16 code units; high and low halves, enhanced double hashing",
                          notes=["bit i is bit i mod 32 of bucket i div 32 (m is a whole number of buckets)"])]
