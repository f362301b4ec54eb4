"""bits-and-blooms/bloom (Go, formerly willf/bloom): ``WriteTo`` binary and ``json.Marshal``.

Binary (``BloomFilter.WriteTo``, then ``bitset.BitSet.WriteTo``; every number big-endian u64)::

    m | k | bitset length L (bits; max(1, m)) | ceil(L/64) words, bit i = bit (i mod 64) of word (i div 64)

JSON (``json.Marshal(filter)``): ``{"m": m, "k": k, "b": "<base64 of the bitset's WriteTo bytes>"}``,
URL-safe base64 by default (standard base64 when the program called ``bitset.Base64StdEncoding()``; both are
accepted). A bitset switched to ``bitset.LittleEndian()`` writes little-endian words and length: the length
field tells which, as it must equal m.

Hashing (``baseHashes``/``location``): h1, h2 = MurmurHash3 x64_128(data) and h3, h4 = MurmurHash3
x64_128(data + b"\\x01") (the library "virtually appends 1"), seed 0; position i = (h[i mod 2] + i
h[2 + ((i + i mod 2) mod 4) / 2]) mod 2^64 mod m. ``AddString``/``TestString`` hash the string's bytes
(Go strings are UTF-8).
"""

from __future__ import annotations

import base64
import binascii
import json
import struct

import mmh3

from bloomviz.formats.common import (MAX_M, ForeignFilter, ForeignLookup, Source, bits_from_words, check_k,
                                     check_m, bits_at)

NAME = "bits-and-blooms"
TITLE = "bits-and-blooms/bloom (Go) WriteTo and JSON"
HEADER = 24
MAX_JSON = 64 + (MAX_M // 8 + 32) * 4 // 3
_MASK64 = (1 << 64) - 1


def _layout(raw: bytes, size: int):
    """(m, k, length, word byte order) if the 24 bytes announce exactly ``size`` bytes, else None."""
    m, k = struct.unpack(">QQ", raw[:16])
    for order in ("big", "little"):   # bitset.LittleEndian() turns the bitset's part little-endian
        length = int.from_bytes(raw[16:24], order)
        if 1 <= k <= 255 and length == max(1, m) and size == HEADER + 8 * (-(-length // 64)):
            return m, k, length, order
    return None


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    if size >= HEADER + 8 and len(head) >= HEADER and _layout(head[:HEADER], size):
        return True
    stripped = head.lstrip()
    # a bloomviz session is JSON too, and its items may be "b", "m" and "k": it names itself, so exclude it,
    # and one whose name is damaged still has its "schema_version" (the session reader says it is damaged)
    return (stripped.startswith(b"{") and b'"b"' in head and b'"m"' in head and b'"k"' in head
            and b'"bloomviz-session"' not in head and b'"schema_version"' not in head)


def positions(data: bytes, k: int, m: int) -> tuple[int, ...]:
    h = mmh3.hash64(data, 0, signed=False) + mmh3.hash64(data + b"\x01", 0, signed=False)
    return tuple(((h[i % 2] + i * h[2 + ((i + i % 2) % 4) // 2]) & _MASK64) % m for i in range(k))


def _bitset(src: Source, blob: bytes, m: int, k: int, what: str) -> tuple[bytes, str]:
    """The words of a bitset's WriteTo bytes inside a JSON "b" field, checked against m."""
    if len(blob) < 8:
        raise src.fail(f"{what}: the bitset is {len(blob)} bytes, shorter than its length field")
    for order in ("big", "little"):
        length = int.from_bytes(blob[:8], order)
        if length == max(1, m):
            if len(blob) != 8 + 8 * (-(-length // 64)):
                raise src.fail(f"{what}: a {length:,}-bit bitset needs {8 * (-(-length // 64)):,} bytes of words, "
                               f"found {len(blob) - 8:,}")
            return blob[8:], order
    raise src.fail(f"{what}: the bitset's length field does not match m = {m:,}")


def read(path, **_options) -> list[ForeignFilter]:
    with Source(path, NAME) as src:
        if src.size < 2:
            raise src.fail(f"too short: {src.size} bytes")
        if src.head(64).lstrip().startswith(b"{"):
            m, k, words, order, kind = _read_json(src)
        else:
            if src.size < HEADER:
                raise src.fail(f"too short: {src.size} bytes, the header alone is {HEADER}")
            raw = src.read_at(0, HEADER, "the header")
            m, k, length = struct.unpack(">QQQ", raw)
            check_m(NAME, m, path)
            check_k(NAME, k, path)
            found = _layout(raw, src.size)
            if found is None:
                raise src.fail(f"m = {m:,}, k = {k}, bitset length {length:,}: the file should then have "
                               f"{HEADER + 8 * (-(-max(1, m) // 64)):,} bytes, it has {src.size:,}")
            m, k, length, order = found
            words = src.read_at(HEADER, src.size - HEADER, "the bitset words")
            kind = "WriteTo"
    bits = bits_from_words(words, 8, order, m)

    def lookup(item: object) -> ForeignLookup:
        data = item if isinstance(item, bytes) else str(item).encode("utf-8", "surrogateescape")
        pos = positions(data, k, m)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    return [ForeignFilter(format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"}, positions=lookup,
                          label=kind, hashing="MurmurHash3 x64_128 of the bytes and of the bytes + 0x01; "
                                              "h[i%2] + i*h[2+((i+i%2)%4)/2] mod m",
                          fields={"encoding": kind, "word_byte_order": order},
                          notes=["the file stores no insert count"])]


def _read_json(src: Source):
    if src.size > MAX_JSON:
        raise src.fail(f"a {src.size:,}-byte JSON file is larger than any filter of up to 2**34 bits")
    try:
        doc = json.loads(src.read_at(0, src.size, "the JSON text"))
    except (ValueError, RecursionError) as exc:
        raise src.fail(f"not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or not {"m", "k", "b"} <= set(doc):
        raise src.fail('the JSON is not an object with "m", "k" and "b"')
    m, k, b = doc["m"], doc["k"], doc["b"]
    if not (isinstance(m, int) and isinstance(k, int) and isinstance(b, str)) or isinstance(m, bool):
        raise src.fail('"m" and "k" must be integers and "b" a base64 string')
    check_m(NAME, m, src.path)
    check_k(NAME, k, src.path)
    try:
        blob = base64.b64decode(b, altchars=b"-_", validate=True) if ("-" in b or "_" in b) \
            else base64.b64decode(b, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise src.fail(f'"b" is not base64: {exc}') from None
    words, order = _bitset(src, blob, m, k, "JSON")
    return m, k, words, order, "JSON"
