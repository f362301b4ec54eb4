"""RedisBloom ``BF.SCANDUMP`` chunks saved to a file (a scalable Bloom filter chain: one or more links).

Also read, as users really save them (``redisbloom_dumps``): the SCANDUMP pairs as JSON, the chunks
concatenated raw, a ``DUMP key`` payload and a ``dump.rdb`` holding ``MBbloom--`` values (one filter per key).

``BF.SCANDUMP key 0`` answers (1, header); ``BF.SCANDUMP key it`` answers the next (iterator, data) pair, and
(0, b"") when there is nothing left. ``BF.LOADCHUNK key it data`` takes the pairs back. RedisBloom has no file
of its own for them, so this reader defines one, easy to write from redis-py (suffix ``.bfdump``)::

    with open("users.bfdump", "wb") as out:
        out.write(b"BF.SCANDUMP\\n")                      # the magic (optional, but it makes detection certain)
        it = 0
        while True:
            it, data = r.execute_command("BF.SCANDUMP", "users", it)
            if it == 0:
                break
            out.write(struct.pack("<qQ", it, len(data)) + data)

That is: the 12-byte magic ``BF.SCANDUMP\\n`` (may be left out), then records ``iterator i64 | length u64 |
data``, little-endian; the first record is the header (iterator 1), the data records may follow in any order,
and a closing (0, empty) record may be written too. Every byte of every link must be in exactly one chunk.

Header (``dumpedChainHeader`` in src/sb.c, packed, in the machine's order: little-endian on x86-64 and arm64)::

    size u64 (items added) | nfilters u32 | options u32 | growth u32 | nfilters x link (53 bytes each):
    bytes u64 | bits u64 | size u64 | error f64 | bpe f64 | hashes u32 | entries u64 | n2 u8

A data record (it, data) of length L holds bytes it - L - 1 .. it - 2 of the links' bit arrays laid end to end
(``SBChain_LoadEncodedChunk`` subtracts L, ``getLinkPos`` 1); a chunk never crosses a link. Bit x of a link is
bit (x mod 8) of its byte x div 8. The header is checked as ``BF.LOADCHUNK`` checks it
(``bloom_validate_integrity``, ``SB_ValidateIntegrity``): bits = 8 bytes, hashes = ceil(ln 2 bpe), only the
known option bits, link sizes adding up to the chain's.

Hashing (deps/bloom/bloom.c, src/sb.c): with BLOOM_OPT_FORCE64 (4; ``BF.RESERVE``/``BF.ADD`` always set it,
with NOROUND) a = MurmurHash64A(item, seed 0xc6a4a7935bd1e995) and b = MurmurHash64A(item, seed a); without
it (chains from old releases) a = MurmurHash2(item, seed 0x9747b28c), b = MurmurHash2(item, seed a), 32-bit.
The item's hashes are the same for every link; position i < hashes in a link is (a + i b) mod 2^64 mod M,
with M = 2^n2 for a link whose n2 > 0 (power-of-two links: no NOROUND, or ENTS_IS_BITS) and M = bits for
n2 = 0 (NOROUND). An item is in the chain if some link has all its positions set. Redis keys its items by
bytes: a str is hashed as its UTF-8 (what redis-py sends), anything else as ``str(item)``.
"""

from __future__ import annotations

import math
import struct

from bitarray import bitarray

from bloomviz.formats import redisbloom_dumps as dumps
from bloomviz.formats.common import (MAX_M, ForeignFilter, ForeignLookup, Source, bits_from_words, bits_at,
                                     check_k, check_m)

NAME = "redisbloom"
TITLE = ("RedisBloom BF.SCANDUMP chunks (records, JSON pairs or concatenated), DUMP payloads and dump.rdb "
         "MBbloom-- values")
MAGIC = b"BF.SCANDUMP\n"
RECORD = struct.Struct("<qQ")
CHAIN = struct.Struct("<QIII")                 # dumpedChainHeader without its links: 20 bytes
LINK = struct.Struct("<QQQddIQB")              # dumpedChainLink: 53 bytes
LINK_FIELDS = ("bytes", "bits", "size", "error", "bpe", "hashes", "entries", "n2")
OPTIONS = {1: "NOROUND", 2: "ENTS_IS_BITS", 4: "FORCE64", 8: "NO_SCALING"}
LN2 = 0.693147180559945                        # bloom.c's constant, so hashes = ceil(LN2 * bpe) matches it
SEED64, SEED32 = 0xC6A4A7935BD1E995, 0x9747B28C
_M64, _M32 = 0xC6A4A7935BD1E995, 0x5BD1E995
_MASK64, _MASK32 = (1 << 64) - 1, (1 << 32) - 1


def murmur64a(data: bytes, seed: int) -> int:
    """MurmurHash64A as deps/murmur2/MurmurHash2.c's ``MurmurHash64A_Bloom`` (little-endian 8-byte blocks)."""
    n = len(data)
    h = (seed ^ (n * _M64)) & _MASK64
    end = n - n % 8
    for (k,) in struct.iter_unpack("<Q", data[:end]):
        k = (k * _M64) & _MASK64
        k ^= k >> 47
        h ^= (k * _M64) & _MASK64
        h = (h * _M64) & _MASK64
    if n % 8:
        h = ((h ^ int.from_bytes(data[end:], "little")) * _M64) & _MASK64
    h ^= h >> 47
    h = (h * _M64) & _MASK64
    return h ^ (h >> 47)


def murmur2(data: bytes, seed: int) -> int:
    """MurmurHash2 (32-bit) as deps/murmur2/MurmurHash2.c's ``MurmurHash2`` (little-endian 4-byte blocks)."""
    n = len(data)
    h = (seed ^ n) & _MASK32
    end = n - n % 4
    for (k,) in struct.iter_unpack("<I", data[:end]):
        k = (k * _M32) & _MASK32
        k ^= k >> 24
        h = ((h * _M32) & _MASK32) ^ ((k * _M32) & _MASK32)
    if n % 4:
        h = ((h ^ int.from_bytes(data[end:], "little")) * _M32) & _MASK32
    h ^= h >> 13
    h = (h * _M32) & _MASK32
    return h ^ (h >> 15)


def chain_hash(data: bytes, force64: bool) -> tuple[int, int]:
    """(a, b) as ``SBChain_GetHash``: bloom_calc_hash64 with FORCE64, bloom_calc_hash without."""
    if force64:
        a = murmur64a(data, SEED64)
        return a, murmur64a(data, a)
    a = murmur2(data, SEED32)
    return a, murmur2(data, a)


def link_positions(a: int, b: int, hashes: int, modulus: int) -> tuple[int, ...]:
    return tuple(((a + i * b) & _MASK64) % modulus for i in range(hashes))


def item_bytes(item: object) -> bytes:
    return item if isinstance(item, bytes) else str(item).encode("utf-8", "surrogateescape")


def _header_length_ok(length: int) -> bool:
    return length >= CHAIN.size + LINK.size and (length - CHAIN.size) % LINK.size == 0


def _concatenated_header(head: bytes, size: int) -> int:
    """The header's length when the file is SCANDUMP's chunks concatenated raw (header, then the links' bytes
    in order: the exact size relation), else 0."""
    if len(head) < CHAIN.size + LINK.size:
        return 0
    nfilters = CHAIN.unpack_from(head)[1]
    length = CHAIN.size + nfilters * LINK.size
    if not 1 <= nfilters <= 64 or len(head) < length:
        return 0
    links = [LINK.unpack_from(head, CHAIN.size + i * LINK.size) for i in range(nfilters)]
    if any(bits != 8 * nbytes or not nbytes for nbytes, bits, *_ in links):
        return 0
    return length if size == length + sum(link[0] for link in links) else 0


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    if head.startswith(MAGIC) or head.startswith(b"REDIS00") or dumps.looks_like_pairs(head) or \
            _concatenated_header(head, size):
        return True
    if head[:1] == bytes([dumps.TYPE_MODULE2]):
        try:
            return dumps.module_name(dumps.Reader(head, 1).plain_length("id"))[0] == dumps.MODULE_NAME
        except ValueError:
            return False
    if len(head) < RECORD.size + CHAIN.size:
        return False
    it, length = RECORD.unpack_from(head)
    if it != 1 or not _header_length_ok(length) or size < RECORD.size + length:
        return False
    nfilters = CHAIN.unpack_from(head, RECORD.size)[1]
    return nfilters == (length - CHAIN.size) // LINK.size


def read(path, **_options) -> list[ForeignFilter]:
    with Source(path, NAME) as src:
        head = src.head(4096)
        if head.startswith(MAGIC) or not _other_kind(head, src.size):
            start = len(MAGIC) if head.startswith(MAGIC) else 0
            chain, links, after = _read_header(src, start)
            raw = _read_chunks(src, after, links)
            return [_build(chain, links, raw, with_magic=bool(start))]
        if src.size > dumps.MAX_DOC:
            raise src.fail(f"{src.size:,} bytes is more than bloomviz reads of a Redis dump")
        data = src.read_at(0, src.size, "the dump")
        kind = _other_kind(head, src.size)
        if kind == "rdb":
            return [_checked(src, *value, label=name, kind="dump.rdb") for name, value in dumps.read_rdb(src, data)]
        if kind == "dump":
            return [_checked(src, *dumps.read_dump_payload(src, data), kind="DUMP payload")]
        if kind == "pairs":
            header, chunks = dumps.read_pairs(src, data)
        else:
            length = _concatenated_header(head, src.size)
            header, chunks, first = data[:length], [], 0
            for nbytes, *_ in (LINK.unpack_from(data, CHAIN.size + i * LINK.size)
                               for i in range(CHAIN.unpack_from(data)[1])):
                chunks.append((first + nbytes + 1, data[length + first:length + first + nbytes]))
                first += nbytes
        records = RECORD.pack(1, len(header)) + header + b"".join(RECORD.pack(it, len(d)) + d for it, d in chunks)
        inner = dumps.BytesSource(records, src)
        chain, links, after = _read_header(inner, 0)
        flt = _build(chain, links, _read_chunks(inner, after, links), with_magic=False)
        flt.fields["kind"] = "SCANDUMP pairs (JSON)" if kind == "pairs" else "SCANDUMP chunks concatenated"
        return [flt]


def _other_kind(head: bytes, size: int) -> str | None:
    if head.startswith(b"REDIS00"):
        return "rdb"
    if dumps.looks_like_pairs(head):
        return "pairs"
    if _concatenated_header(head, size):
        return "concatenated"
    if head[:1] == bytes([dumps.TYPE_MODULE2]):
        return "dump"
    return None


def _checked(src, chain: dict, links: list[dict], raw: bytes, label: str = "", kind: str = "") -> ForeignFilter:
    """A chain read from BFRdbSave's fields, checked as BF.LOADCHUNK checks a header."""
    total = 0
    for i, link in enumerate(links):
        _check_link(src, i, link)
        total += link["bits"]
        if total > MAX_M:
            raise src.fail(f"links 0..{i} hold {total:,} bits, more than 2**34")
    if sum(link["size"] for link in links) != chain["size"]:
        raise src.fail(f"the links' item counts add up to {sum(link['size'] for link in links):,}, the chain's "
                       f"size is {chain['size']:,}")
    if chain["options"] & ~0xF:
        raise src.fail(f"options {chain['options']:#x} has bits no RedisBloom release defines")
    flt = _build(chain, links, raw, with_magic=False)
    flt.fields["kind"] = kind
    if label:
        flt.label = f"{label}: {flt.label}"
    return flt


def _read_header(src: Source, start: int) -> tuple[dict, list[dict], int]:
    if src.size < start + RECORD.size:
        raise src.fail(f"too short: {src.size} bytes, not even one (iterator, length) record")
    it, length = RECORD.unpack(src.read_at(start, RECORD.size, "the header record"))
    if it != 1 or not _header_length_ok(length):
        what = "after the magic " if start else f"without the magic {MAGIC!r} "
        raise src.fail(f"{what}the file must start with the header record (iterator 1, {CHAIN.size} + {LINK.size} n "
                       f"bytes); found iterator {it} with {length:,} bytes")
    if start + RECORD.size + length > src.size:
        raise src.fail(f"truncated: the header record announces {length:,} bytes, the file has "
                       f"{src.size - start - RECORD.size:,} after its record head")
    raw = src.read_at(start + RECORD.size, length, "the header")
    size, nfilters, options, growth = CHAIN.unpack_from(raw)
    if nfilters != (length - CHAIN.size) // LINK.size:
        raise src.fail(f"the header says {nfilters:,} links but its {length:,} bytes hold "
                       f"{(length - CHAIN.size) // LINK.size:,}")
    if options & ~0xF:
        raise src.fail(f"options {options:#x} has bits no RedisBloom release defines (known: 1, 2, 4, 8)")
    links, total_bits, total_bytes = [], 0, 0
    for i in range(nfilters):
        link = dict(zip(LINK_FIELDS, LINK.unpack_from(raw, CHAIN.size + i * LINK.size)))
        _check_link(src, i, link)
        total_bits += link["bits"]
        total_bytes += link["bytes"]
        if total_bits > MAX_M:
            raise src.fail(f"links 0..{i} hold {total_bits:,} bits, more than 2**34")
        if total_bytes > src.size:
            raise src.fail(f"links 0..{i} need {total_bytes:,} bytes of bits; the whole file has {src.size:,}")
        links.append(link)
    if sum(link["size"] for link in links) != size:
        raise src.fail(f"the links' item counts add up to {sum(link['size'] for link in links):,}, the chain's "
                       f"size is {size:,}")
    chain = {"size": size, "nfilters": nfilters, "options": options, "growth": growth}
    return chain, links, start + RECORD.size + length


def _check_link(src: Source, i: int, link: dict) -> None:
    nbytes, bits, error, bpe, hashes, n2 = (link[f] for f in ("bytes", "bits", "error", "bpe", "hashes", "n2"))
    if not 1 <= nbytes <= MAX_M // 8 or bits != nbytes * 8:
        raise src.fail(f"link {i}: {bits:,} bits in {nbytes:,} bytes (RedisBloom stores bits = 8 x bytes, "
                       f"1..2**34 bits)")
    check_m(NAME, bits, src.path)
    if not 0 < error < 1:
        raise src.fail(f"link {i}: error rate {error!r} is not between 0 and 1")
    check_k(NAME, hashes, src.path)
    if not (math.isfinite(bpe) and bpe > 0) or hashes != math.ceil(LN2 * bpe):
        raise src.fail(f"link {i}: {hashes} hashes but bits per entry {bpe!r} gives ceil(ln2 x bpe) = "
                       f"{math.ceil(LN2 * bpe) if math.isfinite(bpe) else bpe}")
    if n2 > 63 or (n2 and bits < 1 << n2):
        raise src.fail(f"link {i}: n2 = {n2} asks for 2**{n2} bits, the link has {bits:,}")


def _read_chunks(src: Source, offset: int, links: list[dict]) -> bytes:
    """The links' bytes end to end, from the data records after the header (all checked before any copy)."""
    ends, total = [], 0
    for link in links:
        total += link["bytes"]
        ends.append(total)
    chunks, closed = [], False
    while offset < src.size:
        if closed:
            raise src.fail(f"data after the closing (0, empty) record, at byte {offset:,}")
        it, length = RECORD.unpack(src.read_at(offset, RECORD.size, f"the record head at byte {offset:,}"))
        body = offset + RECORD.size
        if length > src.size - body:
            raise src.fail(f"truncated: the record at byte {offset:,} announces {length:,} bytes, "
                           f"{src.size - body:,} are left")
        if it == 0:
            if length:
                raise src.fail(f"the closing record (iterator 0) at byte {offset:,} has {length:,} bytes")
            closed = True
        elif it == 1:
            raise src.fail(f"a second header record (iterator 1) at byte {offset:,}")
        elif it < 0 or it - length < 1:
            raise src.fail(f"the record at byte {offset:,}: iterator {it:,} cannot end a {length:,}-byte chunk "
                           f"(BF.LOADCHUNK refuses it)")
        elif length:
            first = it - length - 1
            i = next((j for j, end in enumerate(ends) if first < end), None)
            if i is None:
                raise src.fail(f"the chunk at byte {offset:,} starts at byte {first:,} of the links, beyond the "
                               f"last link (they hold {total:,} bytes)")
            if first + length > ends[i]:
                raise src.fail(f"the chunk at byte {offset:,} ({length:,} bytes from byte {first:,}) runs past "
                               f"the end of link {i} (byte {ends[i]:,})")
            chunks.append((first, length, body))
        offset = body + length
    covered = 0
    for first, length, _ in sorted(chunks):
        if first != covered:
            what = "overlap" if first < covered else f"bytes {covered:,}..{first:,} are in no chunk"
            raise src.fail(f"the chunks do not cover the links' {total:,} bytes exactly: {what}")
        covered += length
    if covered != total:
        raise src.fail(f"incomplete dump: the chunks cover {covered:,} of the links' {total:,} bytes")
    out = bytearray(total)
    for first, length, body in chunks:
        out[first:first + length] = src.read_at(body, length, f"the chunk at byte {body - RECORD.size:,}")
    return bytes(out)


def _build(chain: dict, links: list[dict], raw: bytes, with_magic: bool) -> ForeignFilter:
    options = chain["options"]
    force64 = bool(options & 4)
    bits, table, offset, byte = bitarray(endian="little"), [], 0, 0
    notes = []
    for i, link in enumerate(links):
        bits += bits_from_words(raw[byte:byte + link["bytes"]], 1, "little", link["bits"])
        modulus = 1 << link["n2"] if link["n2"] else link["bits"]
        table.append((offset, link["hashes"], modulus))
        if modulus < link["bits"]:
            notes.append(f"link {i} hashes into its first 2**{link['n2']} bits of {link['bits']}")
        offset += link["bits"]
        byte += link["bytes"]

    def lookup(item: object) -> ForeignLookup:
        a, b = chain_hash(item_bytes(item), force64)
        pos = tuple(off + p for off, k, mod in table for p in link_positions(a, b, k, mod))
        return ForeignLookup(item, pos, bits_at(bits, pos), groups=tuple(k for _, k, _ in table))

    names = [name for flag, name in OPTIONS.items() if options & flag]
    scaling = not options & 8
    label = (f"scaling chain of {len(links)} link{'s' * (len(links) != 1)}" if scaling else "non-scaling filter")
    fields = {"kind": "SBChain", "size": chain["size"], "nfilters": chain["nfilters"], "options": options,
              "option_names": names, "growth": chain["growth"], "hash_bits": 64 if force64 else 32,
              "capacity": sum(link["entries"] for link in links), "magic": with_magic,
              "links": [dict(link) for link in links]}
    notes.append("BF.INFO's capacity is the links' entries added up; each link's error rate is half the one "
                 "before (the first is half the rate asked for)" if scaling else
                 "NONSCALING: one link, with the rate asked for")
    hashing = (f"MurmurHash{'64A' if force64 else '2 (32-bit)'} of the bytes (seed "
               f"{SEED64 if force64 else SEED32:#x}, then seeded with the first hash): (a + i b) mod 2^64 mod "
               f"the link's bits (2^n2 for power-of-two links)")
    return ForeignFilter(format=NAME, m=len(bits), k=max(k for _, k, _ in table), bits=bits,
                         layout={"kind": "links", "links": [(off, link["bits"], k, 0) for (off, k, _), link
                                                            in zip(table, links)]},
                         hashing=hashing, positions=lookup, label=label, fields=fields, notes=notes)
