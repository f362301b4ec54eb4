"""Apache Cassandra / ScyllaDB ``-Filter.db``: the Bloom filter of one SSTable's partition keys.

Layout (``BloomFilterSerializer``, ``OffHeapBitSet``; every number big-endian)::

    hash count k   i32
    word count W   i32     m = 64 W bits
    bits           8 W bytes

Before format ``na`` (Cassandra 4.0) the bits are W big-endian longs and bit i is bit (i mod 64) of long
(i div 64), LSB first; from ``na`` on (and in the trie-indexed ``da``) they are the raw off-heap bytes, bit i
being bit (i mod 8) of byte (i div 8). The version is the file name's prefix (``md-2-big-Filter.db``);
without one the 3.x layout is assumed and said (``--sstable-version`` names it).

Hashing (``BloomFilter.indexes``, ``FBUtilities.abs``): (h1, h2) = Cassandra's MurmurHash3 x64-128, seed 0,
of the serialized partition key (``cassandra_murmur``: signed tail bytes), as Java signed longs; then
base = h2, inc = h1 (sstable versions before ``ka`` swap them) and for i in 0..k-1: index = |base mod m|
(Java's remainder keeps the sign of base), base += inc (wrapping). The filter keys on bytes: an item written
``0x…`` is those raw bytes (a key as ``Index.db`` stores it); other text is the key's column values when the
key type is known, else its UTF-8 (a text or varchar key).

What the table was configured for, ``bloom_filter_fp_chance``, is read from ``Statistics.db`` when it lies
beside the file (``--fp-chance`` gives it otherwise), and the partition count from ``Index.db``: the filter
was sized for that many keys at that rate, so its rate at this fill says whether it is past its design.
``Statistics.db`` also states the key's type, so a key can be given as its column values (``cassandra_keys``:
one value, or a JSON array for a key of several columns).
"""

from __future__ import annotations

import struct

from bloomviz.formats import cassandra_sstable as sstable
from bloomviz.formats.cassandra_keys import key_from_values
from bloomviz.formats.cassandra_murmur import hash3_x64_128
from bloomviz.formats.reasons import Reason, say
from bloomviz.formats.common import (ForeignFilter, ForeignFormatError, ForeignLookup, Option, Source,
                                     bits_at, bits_from_words, check_k, check_m, hex_prefixed)

NAME = "cassandra"
TITLE = "Apache Cassandra / ScyllaDB SSTable -Filter.db"
HEADER = 8
MAX_HASHES = 64   # Cassandra's BloomCalculations table tops out at k = 20; anything near this is not a filter
_M = (1 << 64) - 1


def _signed(x: int) -> int:
    return x - (1 << 64) if x >> 63 else x


def _fp_chance(text: str) -> float:
    value = float(text)
    if not 0.0 < value <= 1.0:
        raise ValueError(f"bloom_filter_fp_chance must be in (0, 1], got {text!r}")
    return value


CLI_OPTIONS = (
    Option("--fp-chance", "the table's bloom_filter_fp_chance, to compare the filter with (default: from "
           "Statistics.db beside the file)", "P", _fp_chance),
    Option("--sstable-version", "the SSTable format version (ma, md, nb, da...) when the file name does not "
           "say it; decides the bit layout", "VV", str),
)


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    if size < HEADER + 8 or len(head) < HEADER:
        return False
    k, words = struct.unpack(">ii", head[:HEADER])
    return 1 <= k <= MAX_HASHES and words >= 1 and size == HEADER + 8 * words


def key_bytes(item: object, key_type: str | None = None) -> bytes:
    """The serialized partition key an item stands for: ``0x…`` hex as raw bytes; other text as the key's
    column values when the SSTable states its key type (``cassandra_keys``), else as UTF-8."""
    if isinstance(item, (bytes, bytearray)):
        return bytes(item)
    text = str(item)
    raw = hex_prefixed(text)
    if raw is not None:
        return raw
    if key_type is not None:
        return key_from_values(key_type, text)
    return text.encode("utf-8", "surrogatepass")


def positions(key: bytes, k: int, m: int, old_order: bool = False) -> tuple[int, ...]:
    h1, h2 = hash3_x64_128(key, 0)
    base, inc = (h1, h2) if old_order else (h2, h1)
    out = []
    for _ in range(k):
        b = _signed(base)
        r = abs(b) % m   # Java: base % max keeps base's sign; FBUtilities.abs drops it
        out.append(r)
        base = (base + inc) & _M
    return tuple(out)


def read(path, fp_chance: float | None = None, sstable_version: str | None = None,
         **_options) -> list[ForeignFilter]:
    version = sstable_version or sstable.version_of(path)
    with Source(path, NAME) as src:
        if src.size < HEADER:
            raise src.fail(f"too short: {src.size} bytes, the header alone is {HEADER}")
        k, words = struct.unpack(">ii", src.read_at(0, HEADER, "the header"))
        if not 1 <= k <= MAX_HASHES:
            raise src.fail(f"at offset 0: hash count {k} is outside 1..{MAX_HASHES}")
        if words < 1 or HEADER + 8 * words != src.size:
            raise src.fail(f"at offset 4: word count {words:,} needs {HEADER + 8 * max(words, 0):,} bytes but the "
                           f"file has {src.size:,}")
        m = check_m(NAME, 64 * words, path)
        check_k(NAME, k, path)
        raw = src.read_at(HEADER, 8 * words, "the bits")
    new_layout = version is not None and version >= "na"
    bits = bits_from_words(raw, 1, "little", m) if new_layout else bits_from_words(raw, 8, "big", m)
    old_order = version is not None and version < "ka"
    notes, fields = [], {"hash_count": k, "words": words, "sstable_version": version or "unknown (3.x assumed)"}
    stats = _sibling_statistics(path, notes)
    fields.update({key: stats[key] for key in ("partitioner", "key_type") if key in stats})
    design = fp_chance if fp_chance is not None else stats.get("fp_chance")
    if design is not None:
        fields["bloom_filter_fp_chance"] = design
        fields["fp_chance_from"] = "--fp-chance" if fp_chance is not None else "Statistics.db"
    index = sstable.sibling(path, "Index.db")
    if index is not None:
        try:
            fields["partitions"] = len(sstable.index_keys(index, version))
        except (ForeignFormatError, OSError) as exc:
            notes.append(Reason(say("Index.db beside it was not read: {problem}", problem=str(exc))))
    if version is None:
        notes.append(Reason(say("the file name gives no SSTable version: the 3.x layout (big-endian longs) is assumed")))

    def lookup(item: object) -> ForeignLookup:
        pos = positions(key_bytes(item, stats.get("key_type")), k, m, old_order)
        return ForeignLookup(item, pos, bits_at(bits, pos))

    return [ForeignFilter(
        format=NAME, m=m, k=k, bits=bits, layout={"kind": "flat"},
        hashing=Reason(say("Cassandra's MurmurHash3 x64-128 (seed 0, signed tail bytes) of the serialized "
                           "partition key; index = {formula}",
                           formula=f"|(h{'1' if old_order else '2'} + i·h{'2' if old_order else '1'}) mod m|")),
        positions=lookup, label="", fields=fields, notes=notes, design_fp=design)]


def _sibling_statistics(path, notes: list) -> dict:
    stats_path = sstable.sibling(path, "Statistics.db")
    if stats_path is None:
        return {}
    try:
        return sstable.statistics(stats_path)
    except (ForeignFormatError, OSError) as exc:
        notes.append(Reason(say("Statistics.db beside it was not read: {problem}", problem=str(exc))))
        return {}
