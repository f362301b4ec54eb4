"""pyprobables ``BloomFilter.export`` (``.blm``), ``export_hex``, and ``CountingBloomFilter.export``.

Binary layout (``export``; the footer is a native ``struct`` "QQf", little-endian on the machines that matter)::

    the array        BloomFilter: ceil(m/8) bytes, bit i = bit (i mod 8) of byte (i div 8), LSB first
                     CountingBloomFilter: m little-endian u32 counters
    est_elements n   u64
    elements_added   u64
    fpr              f32

Hex export (``export_hex``): the array's bytes as lowercase hex, then the same footer packed big-endian
(">QQf") as hex. m and k are not stored: the library recomputes them from the footer, and so does this reader,
in the same float arithmetic (``BloomFilter._get_optimized_params``)::

    m = ceil(-n ln(fpr as f32) / 0.4804530139182)      k = round(0.6931471805599453 m / n)

A file is recognised when its size is exactly the array those m imply plus the 20-byte footer.

Hashing (``hashes.default_fnv_1a``): k FNV-1a 64-bit hashes, the i-th with offset basis
14695981039346656037 + 31 i, over the key's *code points* for a str (``ord`` of each character, not its
UTF-8 bytes) or its byte values for bytes; position = hash mod m. A filter built with a custom
``hash_function`` cannot be reproduced from the file.
"""

from __future__ import annotations

import math
import re
import struct

import numpy as np
from bitarray import bitarray

from bloomviz.formats.common import (ForeignFilter, ForeignLookup, Source, bits_from_words, check_k, check_m,
                                     bits_at)

NAME = "pyprobables"
TITLE = "pyprobables BloomFilter/CountingBloomFilter export and export_hex"
FOOTER = struct.Struct("<QQf")
FOOTER_BE = struct.Struct(">QQf")
KINDS = ("bloom", "counting", "hex")
_FNV_PRIME, _FNV_BASIS, _MASK64 = 1099511628211, 14695981039346656037, (1 << 64) - 1
_HEX = re.compile(rb"[0-9a-fA-F]*")
MAX_HEX_FILE = 1 << 31


def params(n: int, fpr: float) -> tuple[int, int]:
    """(m, k) as pyprobables derives them from the footer; ValueError where the library would refuse."""
    if n <= 0 or not 0.0 < fpr < 1.0:
        raise ValueError(f"est_elements {n} and fpr {fpr!r} are not a usable pair (n > 0, 0 < fpr < 1)")
    fpr = struct.unpack("f", struct.pack("f", fpr))[0]
    m = math.ceil((-n * math.log(fpr)) / 0.4804530139182)
    k = int(round(0.6931471805599453 * m / n))
    if k == 0 or m <= 0:
        raise ValueError(f"est_elements {n} and fpr {fpr!r} give k = 0, which the library refuses")
    return m, k


def fnv_1a(data, seed: int) -> int:
    h = (_FNV_BASIS + 31 * seed) & _MASK64
    for c in data:
        h = ((h ^ c) * _FNV_PRIME) & _MASK64
    return h


def positions(item: object, k: int, m: int) -> tuple[int, ...]:
    data = list(map(ord, item)) if isinstance(item, str) else bytes(item)
    return tuple(fnv_1a(data, i) % m for i in range(k))


def _footer_ok(footer: bytes, fmt: struct.Struct):
    try:
        n, added, fpr = fmt.unpack(footer)
        m, k = params(n, fpr)
    except (ValueError, OverflowError, struct.error):
        return None
    return n, added, fpr, m, k


def _kind_of(size: int, tail: bytes) -> str | None:
    got = _footer_ok(tail[-FOOTER.size:], FOOTER) if len(tail) >= FOOTER.size else None
    if got is None:
        return None
    m = got[3]
    if size == FOOTER.size + (m + 7) // 8:
        return "bloom"
    if size == FOOTER.size + 4 * m:
        return "counting"
    return None


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    if _kind_of(size, tail):
        return True
    # a hex export: only hex digits (and a final newline), its last 40 digits a usable big-endian footer
    # and the digits exactly as many as the array those m imply (a std::bitset text of 0s and 1s is hex
    # digits too, and its last 40 digits often make a "usable" footer: only the size relation tells them apart)
    text = tail.rstrip()
    if size <= MAX_HEX_FILE and len(text) >= 2 * FOOTER.size and _HEX.fullmatch(head.rstrip()) \
            and _HEX.fullmatch(text):
        got = _footer_ok(bytes.fromhex(text[-2 * FOOTER.size:].decode("ascii")), FOOTER_BE)
        if got is None:
            return False
        digits = 2 * ((got[3] + 7) // 8 + FOOTER.size)
        return size - (len(tail) - len(text)) == digits   # the whole file less its final newline
    return False


def read(path, kind: str | None = None, **_options) -> list[ForeignFilter]:
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown pyprobables kind {kind!r}; known: {', '.join(KINDS)}")
    with Source(path, NAME) as src:
        if src.size < FOOTER.size:
            raise src.fail(f"too short: {src.size} bytes, the footer alone is {FOOTER.size}")
        tail = src.tail(FOOTER.size)
        found = _kind_of(src.size, tail)
        if kind is None:   # nothing matched: report against the layout the file's first bytes suggest
            kind = found or ("hex" if _HEX.fullmatch(src.head(64).rstrip()) else "bloom")
        if kind == "hex":
            return [_read_hex(src)]
        got = _footer_ok(tail, FOOTER)
        if got is None:
            n, _added, fpr = FOOTER.unpack(tail)
            raise src.fail(f"footer est_elements {n:,} and fpr {fpr!r} do not give a usable m and k")
        n, added, fpr, m, k = got
        check_m(NAME, m, path)
        check_k(NAME, k, path)
        body = (m + 7) // 8 if kind == "bloom" else 4 * m
        if src.size != body + FOOTER.size:
            what = "bits" if kind == "bloom" else "counters"
            raise src.fail(f"the footer implies m = {m:,} ({body:,} bytes of {what} + {FOOTER.size}) but the file "
                           f"has {src.size:,} bytes")
        raw = src.read_at(0, body, "the array")
    fields = {"kind": kind, "est_elements": n, "elements_added": added, "fpr": fpr}
    if kind == "bloom":
        return [_build(bits_from_words(raw, 1, "little", m), m, k, fields)]
    counters = np.frombuffer(raw, dtype="<u4")
    bits = bitarray(endian="little")
    bits.frombytes(np.packbits(counters != 0, bitorder="little").tobytes())
    del bits[m:]
    fields["max_counter"] = int(counters.max())
    return [_build(bits, m, k, fields, counting=True)]


def _read_hex(src: Source) -> ForeignFilter:
    if src.size > MAX_HEX_FILE:
        raise src.fail(f"a {src.size:,}-byte file is too large for a hex export")
    text = src.read_at(0, src.size, "the hex text").strip()
    if not _HEX.fullmatch(text) or len(text) % 2:
        raise src.fail("not a hex export: the text must be an even number of hex digits")
    if len(text) < 2 * FOOTER.size:
        raise src.fail(f"hex export too short: {len(text)} digits, the footer alone is {2 * FOOTER.size}")
    raw = bytes.fromhex(text.decode("ascii"))
    got = _footer_ok(raw[-FOOTER.size:], FOOTER_BE)
    if got is None:
        raise src.fail("hex export: the footer does not give a usable m and k")
    n, added, fpr, m, k = got
    check_m(NAME, m, src.path)
    check_k(NAME, k, src.path)
    if len(raw) - FOOTER.size != (m + 7) // 8:
        raise src.fail(f"hex export: the footer implies {(m + 7) // 8:,} bytes of bits, found "
                       f"{len(raw) - FOOTER.size:,}")
    fields = {"kind": "hex", "est_elements": n, "elements_added": added, "fpr": fpr}
    return _build(bits_from_words(raw[:-FOOTER.size], 1, "little", m), m, k, fields)


def _build(bits: bitarray, m: int, k: int, fields: dict, counting: bool = False) -> ForeignFilter:
    def lookup(item: object) -> ForeignLookup:
        pos = positions(item, k, m)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    notes = ["m and k are recomputed from the footer's est_elements and fpr, as the library does"]
    if counting:
        notes.append("a counting filter: the grid shows which counters are not 0")
    return ForeignFilter(format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"}, positions=lookup,
                         label="CountingBloomFilter" if counting else "BloomFilter",
                         hashing="FNV-1a 64 with seed i (basis + 31 i) over the key's code points, mod m",
                         fields=fields, notes=notes)
