"""Raw bit arrays with no header (rbloom, fastbloom-rs, bloom-filter2 and others save only the bits).

Layout: ``offset`` bytes skipped, then the bits as words of ``word_bytes`` bytes in ``byteorder``; bit i is
bit (i mod w) of word (i div w), least significant first (``common.bits_from_words``). With ``bitorder=
"msb"`` bit i is instead the (i mod 8)-th bit counted from the most significant of byte i div 8, the order
of ``bitarray(endian="big")`` and of some hand-written C arrays. m defaults to every bit of the payload; a
given m must fit in it, and the payload must be exactly the words that m needs (trailing bytes are refused,
so a wrong m is noticed rather than silently read).

Nothing identifies such a file, so it is never detected: ``--format raw`` with ``--m`` and ``--k``. The
hashing of these libraries is not reproduced (rbloom hashes with Python's per-process ``hash`` unless given a
function), so membership is not available.
"""

from __future__ import annotations

from bloomviz.formats.common import ForeignFilter, Source, bits_from_words, check_k, check_m

NAME = "raw"
TITLE = "raw bit array with a given m and k"


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    return False


def read(path, m: int | None = None, k: int | None = None, word_bytes: int = 1, byteorder: str = "little",
         bitorder: str = "lsb", offset: int = 0, **_options) -> list[ForeignFilter]:
    if k is None:
        raise ValueError("a raw bit array needs k (--k): the file does not say how many positions an item sets")
    if word_bytes not in (1, 2, 4, 8) or byteorder not in ("little", "big") or bitorder not in ("lsb", "msb"):
        raise ValueError(f"word size {word_bytes}, byte order {byteorder!r}, bit order {bitorder!r}: expected "
                         f"1/2/4/8, little/big, lsb/msb")
    if offset < 0:
        raise ValueError(f"offset must be >= 0, got {offset}")
    with Source(path, NAME) as src:
        payload = src.size - offset
        if payload <= 0:
            raise src.fail(f"no bits after skipping {offset:,} of {src.size:,} bytes")
        if m is None:
            m = 8 * payload
        check_m(NAME, m, path)
        check_k(NAME, k, path)
        need = -(-m // (8 * word_bytes)) * word_bytes
        if payload != need:
            raise src.fail(f"m = {m:,} bits in {word_bytes}-byte words needs {need:,} bytes; the file has "
                           f"{payload:,} after the offset")
        raw = src.read_at(offset, need, "the bits")
    bits = bits_from_words(raw, word_bytes, byteorder, 8 * len(raw))
    if bitorder == "msb":
        bits.bytereverse()   # each byte's bits counted from its most significant one
    del bits[m:]
    return [ForeignFilter(format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"}, positions=None,
                          hashing="unknown: a raw array does not say how items were hashed",
                          fields={"offset": offset, "word_bytes": word_bytes, "byteorder": byteorder,
                                  "bitorder": bitorder},
                          notes=["membership cannot be reproduced; fill and estimates assume k as given"])]

