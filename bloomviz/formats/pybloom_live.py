"""pybloom-live ``BloomFilter.tofile`` and ``ScalableBloomFilter.tofile``.

BloomFilter (``FILE_FMT = '<dQQQQ'``, 40 bytes, little-endian)::

    error_rate f64 | num_slices k u64 | bits_per_slice b u64 | capacity u64 | count u64 | bits

The bits are a little-endian ``bitarray`` of m = k b bits written with ``bitarray.tofile`` (ceil(m/8) bytes,
bit i = bit (i mod 8) of byte (i div 8)). The filter is partitioned: slice j owns bits j b .. (j+1) b - 1
and each item sets one bit in every slice.

ScalableBloomFilter (``'<idQd'`` = 28 bytes, then ``'<l'``)::

    mode (growth) i32 | ratio f64 | initial_capacity u64 | error_rate f64 | link count L i32 |
    L x u64 byte length of each link | the links, each a BloomFilter as above

Hashing (``make_hashfuncs``): a str key is UTF-8 encoded; any other key is hashed as ``str(key)`` encoded
(so ``b"ab"`` is hashed as the text ``"b'ab'"``). Chunks are 'H' (b < 2^15), 'I' (b < 2^31) or 'Q', in
native (here little-endian) order. The hash is chosen by 8 k chunk-size bits: > 384 SHA-512, > 256 SHA-384,
> 160 SHA-256, > 128 SHA-1, else a 128-bit hash that changed between releases: **xxh128** in 4.0 (the
current release; its canonical big-endian digest) and **MD5** in 3.x. The file does not say which; ``xxh128``
is the default, ``hashing="md5"`` chooses the older one. Salt s (s = 0, 1, ...) is H(H(pack('I', s))) and each
salted digest is cut into chunks; chunk j (in order over the salts) mod b is the position in slice j.
"""

from __future__ import annotations

import hashlib
import struct

from bloomviz.formats.common import (ForeignFilter, ForeignLookup, Source, bits_from_words, check_k, check_m,
                                     bits_at)
from bloomviz.theory.limits import MAX_M

NAME = "pybloom-live"
TITLE = "pybloom-live BloomFilter/ScalableBloomFilter.tofile"
FILTER = struct.Struct("<dQQQQ")
SCALABLE = struct.Struct("<idQdl")
HASHINGS = ("xxh128", "md5")
MAX_LINKS = 64


def _digest_fn(name: str):
    if name == "xxh128":
        import xxhash
        return xxhash.xxh128
    return getattr(hashlib, name)


def hash_plan(k: int, b: int, small: str = "xxh128") -> tuple[str, str, int]:
    """(hash name, chunk format, salts) that ``make_hashfuncs`` picks for k slices of b bits."""
    code, size = ("Q", 8) if b >= 1 << 31 else ("I", 4) if b >= 1 << 15 else ("H", 2)
    total = 8 * k * size
    name = ("sha512" if total > 384 else "sha384" if total > 256 else "sha256" if total > 160
            else "sha1" if total > 128 else small)
    digest = {"sha512": 64, "sha384": 48, "sha256": 32, "sha1": 20}.get(name, 16)
    per = digest // size
    return name, "<" + code * per, -(-k // per)


def make_positions(k: int, b: int, small: str = "xxh128"):
    """A function item -> the k slice-local positions, as pybloom-live computes them."""
    name, fmt, salts_n = hash_plan(k, b, small)
    fn = _digest_fn(name)
    salts = [fn(fn(struct.pack("<I", s)).digest()) for s in range(salts_n)]

    def local(item: object) -> list[int]:
        key = item.encode("utf-8", "surrogatepass") if isinstance(item, str) else str(item).encode("utf-8")
        out: list[int] = []
        for salt in salts:
            h = salt.copy()
            h.update(key)
            out.extend(x % b for x in struct.unpack(fmt, h.digest()))
            if len(out) >= k:
                break
        return out[:k]
    return local, name


def _read_filter(src: Source, offset: int, length: int | None, what: str):
    """(header fields, m, raw bytes) of one BloomFilter record at ``offset``."""
    if length is not None and length < FILTER.size:
        raise src.fail(f"{what}: record length {length} is shorter than its {FILTER.size}-byte header")
    error_rate, k, b, capacity, count = FILTER.unpack(src.read_at(offset, FILTER.size, f"{what} header"))
    if not 0 < error_rate < 1:
        raise src.fail(f"{what}: error_rate {error_rate!r} is not between 0 and 1")
    check_k(NAME, k, src.path)
    if b < 1 or k * b > MAX_M:
        raise src.fail(f"{what}: {k} slices of {b:,} bits is outside 1..2**34 bits")
    m = check_m(NAME, k * b, src.path)
    nbytes = (m + 7) // 8
    available = (src.size - offset - FILTER.size) if length is None else length - FILTER.size
    if available != nbytes:
        raise src.fail(f"{what}: {k} x {b:,} bits need {nbytes:,} bytes of bits, found {available:,}")
    raw = src.read_at(offset + FILTER.size, nbytes, f"{what} bits")
    return {"error_rate": error_rate, "num_slices": k, "bits_per_slice": b, "capacity": capacity,
            "count": count}, m, raw


def _scalable_header_sane(head: bytes) -> bool:
    # a BloomFilter header read as a scalable one gives a denormal ratio (k's bytes in the exponent)
    if len(head) < SCALABLE.size:
        return False
    mode, ratio, _cap, e, _links = SCALABLE.unpack(head)
    return mode >= 1 and 0.01 <= ratio < 1 and 0 < e < 1


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    if len(head) >= FILTER.size:
        e, k, b, _cap, _n = FILTER.unpack(head[:FILTER.size])
        if 0 < e < 1 and 1 <= k <= 255 and 1 <= b and size == FILTER.size + (k * b + 7) // 8:
            return True
    if _scalable_header_sane(head[:SCALABLE.size]):
        links = SCALABLE.unpack(head[:SCALABLE.size])[4]
        return 1 <= links <= MAX_LINKS and size >= SCALABLE.size + (8 + FILTER.size) * links
    return False


def _lookup_for(bits, k: int, b: int, offset: int, small: str):
    local, _ = make_positions(k, b, small)

    def lookup(item: object) -> ForeignLookup:
        pos = tuple(offset + j * b + p for j, p in enumerate(local(item)))
        return ForeignLookup(item, pos, bits_at(bits, pos))
    return lookup


def read(path, hashing: str = "xxh128", known_member: object = None, **_options) -> list[ForeignFilter]:
    """The file's filter; with ``known_member``, the hashing release that finds it is chosen (said in notes)."""
    if hashing not in HASHINGS:
        raise ValueError(f"unknown pybloom-live hashing {hashing!r}; known: {', '.join(HASHINGS)}")
    with Source(path, NAME) as src:
        head = src.head(FILTER.size)
        e, k, b, _cap, _n = FILTER.unpack(head) if len(head) == FILTER.size else (0.0, 0, 0, 0, 0)
        exact = 0 < e < 1 and 1 <= k and src.size == FILTER.size + (k * b + 7) // 8
        if exact or not _scalable_header_sane(src.head(SCALABLE.size)):
            fields, m, raw = _read_filter(src, 0, None, "filter")
            links = [(fields, 0, m, raw)]
            kind = "BloomFilter"
        else:
            links, fields, kind = _read_scalable(src), None, "ScalableBloomFilter"
    chosen, notes = _choose(links, hashing, known_member)
    notes.append(f"pybloom-live {'4.0' if chosen == 'xxh128' else '3.x'} hashing ({chosen}) for filters whose "
                 f"hash needs 128 bits or fewer; the file does not record the release that wrote it")
    return [_build(links, kind, chosen, fields, notes)]


def _read_scalable(src: Source) -> list:
    if src.size < SCALABLE.size:
        raise src.fail(f"too short: {src.size} bytes, neither a BloomFilter nor a ScalableBloomFilter header fits")
    mode, ratio, initial, error_rate, count = SCALABLE.unpack(src.read_at(0, SCALABLE.size, "the header"))
    if not (0 < error_rate < 1 and 0 < ratio < 1 and mode > 0):
        raise src.fail("not a BloomFilter (size does not match its header) nor a ScalableBloomFilter "
                       f"(mode {mode}, ratio {ratio!r}, error_rate {error_rate!r})")
    if not 1 <= count <= MAX_LINKS:
        raise src.fail(f"link count {count} is outside 1..{MAX_LINKS}")
    lengths = struct.unpack(f"<{count}Q", src.read_at(SCALABLE.size, 8 * count, "the link table"))
    offset, links = SCALABLE.size + 8 * count, []
    if sum(lengths) != src.size - offset:
        raise src.fail(f"the link table announces {sum(lengths):,} bytes of links; the file has "
                       f"{src.size - offset:,} after it")
    total_m = 0
    for i, length in enumerate(lengths):
        fields, m, raw = _read_filter(src, offset, length, f"link {i}")
        total_m += m
        check_m(NAME, total_m, src.path)
        fields.update(mode=mode, ratio=ratio, initial_capacity=initial, sbf_error_rate=error_rate)
        links.append((fields, total_m - m, m, raw))
        offset += length
    return links


def _choose(links, hashing: str, known_member) -> tuple[str, list]:
    if known_member is None:
        return hashing, []
    for candidate in (hashing,) + tuple(h for h in HASHINGS if h != hashing):
        if any(_found(link, candidate, known_member) for link in links):
            return candidate, [f"chose {candidate} hashing: it finds the known member {known_member!r}"]
    return hashing, [f"neither hashing finds the known member {known_member!r}; {hashing} is used"]


def _found(link, small: str, item) -> bool:
    fields, _off, m, raw = link
    bits = bits_from_words(raw, 1, "little", m)
    k, b = fields["num_slices"], fields["bits_per_slice"]
    local, _ = make_positions(k, b, small)
    return all(bits[j * b + p] for j, p in enumerate(local(item)))


def _build(links, kind: str, small: str, fields, notes) -> ForeignFilter:
    from bitarray import bitarray
    bits = bitarray(endian="little")
    for _f, _off, m, raw in links:
        bits += bits_from_words(raw, 1, "little", m)
    lookups = [_lookup_for(bits, f["num_slices"], f["bits_per_slice"], off, small) for f, off, _m, _r in links]
    ks = [f["num_slices"] for f, *_ in links]
    names = sorted({hash_plan(f["num_slices"], f["bits_per_slice"], small)[0] for f, *_ in links})

    def lookup(item: object) -> ForeignLookup:
        parts = [fn(item) for fn in lookups]
        return ForeignLookup(item, sum((p.positions for p in parts), ()), sum((p.bits for p in parts), ()),
                             groups=tuple(ks))

    if kind == "BloomFilter":
        f = links[0][0]
        layout = {"kind": "slices", "slices": f["num_slices"], "slice_bits": f["bits_per_slice"]}
        stored = dict(f)
    else:
        layout = {"kind": "links", "links": [(off, m, f["num_slices"], f["bits_per_slice"])
                                             for f, off, m, _ in links]}
        first = links[0][0]
        stored = {key: first[key] for key in ("mode", "ratio", "initial_capacity", "sbf_error_rate")}
        stored["links"] = [{key: f[key] for key in ("error_rate", "num_slices", "bits_per_slice", "capacity",
                                                     "count")} for f, *_ in links]
        stored["count"] = sum(f["count"] for f, *_ in links)
    stored["kind"] = kind
    return ForeignFilter(
        format=NAME, m=len(bits), k=max(ks), bits=bits, layout=layout, positions=lookup, label=kind,
        hashing=f"{', '.join(names)} of the UTF-8 key, salted per slice group ({small} for 128-bit plans)",
        fields=stored, notes=notes)

