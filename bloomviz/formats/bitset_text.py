"""``std::bitset`` written as text: the seminar's ``bloom.txt`` (Pračić 2023, a C++ filter kept in a file).

Layout: ``os << bitset`` writes the N bits as N characters '0'/'1', the MOST significant first, with no
newline: character i of the file is bit N-1-i. ``is >> bitset`` reads them back the same way. So bloom.txt with
1,000 characters is a 1,000-bit filter, and a position p the program set is the character at index 999-p.

Reading accepts exactly that: one line of 0s and 1s, optionally ended by a newline (an editor may add one).
Anything else is refused naming the line and character (1-based) and what was found there. m is the number of
digits; k is not in the file: the seminar's program uses 3 hashes (``std::hash`` shifted by 0, 16 and 32), which
is the default, and membership is reproduced with that scheme (``seminar-cpp``).

``write_filter`` and ``to_text`` go the other way, so a filter built here can be handed to the seminar's program
(its m must equal the program's BLOOM, 1000 unless redefined).
"""

from __future__ import annotations

import os

from bitarray import bitarray

from bloomviz.filters import persist
from bloomviz.formats.common import MAX_M, ForeignFilter, ForeignLookup, Source, check_k, check_m, bits_at

NAME = "bitset-text"
TITLE = "std::bitset as text (0s and 1s, most significant bit first), e.g. the seminar's bloom.txt"
SEMINAR_K = 3
SEMINAR_SCHEME = "seminar-cpp"


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    body_head = head.rstrip(b"\r\n") if size <= len(head) else head
    body_tail = tail.rstrip(b"\r\n")
    return size > 0 and bool(body_head) and not body_head.strip(b"01") and not body_tail.strip(b"01")


def parse(text: bytes, path=None) -> bitarray:
    """The bits of a bitset text (bit i at index i), or ForeignFormatError naming the line and character."""
    from bloomviz.formats.common import ForeignFormatError
    body = text[:-2] if text.endswith(b"\r\n") else text[:-1] if text.endswith(b"\n") else text
    if not body:
        raise ForeignFormatError(NAME, "line 1: empty: expected the bits as 0s and 1s", path)
    bad = len(body) - len(body.lstrip(b"01"))       # index of the first character that is not 0 or 1
    if bad < len(body):
        line = body.count(b"\n", 0, bad) + 1
        column = bad - (body.rfind(b"\n", 0, bad) + 1) + 1
        found = body[bad:bad + 1]
        what = "a line break: the bits must be on one line" if found in (b"\n", b"\r") else \
            f"{found.decode('latin-1')!r} (byte 0x{found[0]:02x}), not 0 or 1"
        raise ForeignFormatError(NAME, f"line {line}, character {column}: {what}", path)
    bits = bitarray(body.decode("ascii"), endian="little")
    bits.reverse()                                   # the text is most significant (bit N-1) first
    return bits


def to_text(bits: bitarray) -> str:
    """The characters ``os << std::bitset<N>`` writes for these bits (bit N-1 first, no newline)."""
    out = bits.copy()
    out.reverse()
    return out.to01()


def read(path, m: int | None = None, k: int | None = None, **_options) -> list[ForeignFilter]:
    k = SEMINAR_K if k is None else k
    with Source(path, NAME) as src:
        if src.size == 0:
            raise src.fail("line 1: empty: expected the bits as 0s and 1s")
        if src.size > MAX_M + 2:
            raise src.fail(f"{src.size:,} characters is more than 2**34 bits")
        text = src.read_at(0, src.size, "the bits")
    bits = parse(text, path)
    check_m(NAME, len(bits), path)
    check_k(NAME, k, path)
    if m is not None and m != len(bits):
        raise ValueError(f"{os.fsdecode(path)}: {NAME}: the file has {len(bits):,} bits, not m = {m:,}")
    from bloomviz.hashing.schemes import SCHEMES
    from bloomviz.items.encoding import to_bytes
    scheme, size = SCHEMES[SEMINAR_SCHEME], len(bits)

    def lookup(item: object) -> ForeignLookup:
        pos = scheme.positions(to_bytes(item), size, k)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    return [ForeignFilter(format=NAME, m=size, k=k, bits=bits, layout={"kind": "flat"}, positions=lookup,
                          hashing=f"the seminar's C++: std::hash<std::string> (libstdc++, 64-bit), shifted by "
                                  f"0, 16, 32, … mod m (k = {k})",
                          fields={"bit order": "most significant first (character 1 is bit m-1)"},
                          notes=["k is not stored in the file; 3 is the seminar's program (change with --k)"])]


def load_filter(path, k: int = SEMINAR_K, scheme: str = SEMINAR_SCHEME):
    """The file as a core ``BloomFilter`` (insert count unknown: 0) to keep inserting into, as the program does."""
    from bloomviz.filters.standard import BloomFilter
    ff = read(path, k=k)[0]
    return persist.from_state(BloomFilter, ff.m, k, scheme, 0, {}, ff.bits.tobytes())


def write_filter(flt, path) -> None:
    """Write a filter's bits as the seminar's program would (atomically: the old file stays whole on failure)."""
    from bloomviz.disk.atomic_write import AtomicWriter
    bits = flt if isinstance(flt, bitarray) else flt.bits
    with AtomicWriter(path, what="a bitset text file") as out:
        out.write(to_text(bits).encode("ascii"))
