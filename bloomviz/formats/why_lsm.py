"""The "why higher than configured" causes of LevelDB and RocksDB tables (see ``formats.why``).

Both take ``bits_per_key`` as their setting. LevelDB (``util/bloom.cc``) sets k = ⌊0.69 × bits_per_key⌋ and
derives every position from one 32-bit hash by double hashing; each filter holds the keys of the data blocks
that start in one 2 KiB stretch of the table. RocksDB's FastLocalBloom (format_version ≥ 5) takes k from a
table of millibits per key and puts a key's probes in one 512-bit cache line; its legacy Bloom (< 5) rounds
bits per key to a whole number and takes line and probes from one 32-bit hash. In both, a lookup of a missing
key meets one filter in every table whose key range holds it.
"""

from __future__ import annotations

import math
import statistics

from bloomviz.formats.common import ForeignFilter
from bloomviz.formats.why_rules import flat_rate, pct


def _tables_line(filters: list[ForeignFilter]) -> list[str]:
    tables = sorted({str(f.fields.get("table", "")) for f in filters} - {""})
    if len(tables) < 2:
        return []
    p = sum(f.expected_fp for f in filters) / len(filters)
    return [f"{len(tables):,} tables: a Get of a missing key asks one filter in every table whose key range holds "
            f"it (each level-0 table, one table per deeper level), so with all {len(tables):,} in range it passes "
            f"at least one about 1 − (1 − p)^{len(tables)} = {pct(1 - (1 - p) ** len(tables))} of the time "
            f"(p = {pct(p)}, the mean rate from the fill), not p."]


def leveldb(filters: list[ForeignFilter]) -> list[str]:
    k = filters[0].k
    # bits_per_key 44 already gives LevelDB's largest k, 30; past it every value gives 30 again
    fits = [b for b in range(1, 45) if max(1, min(30, int(b * 0.69))) == k]
    per_key = [f.m / f.estimated_count for f in filters if 0 < f.estimated_count < math.inf]
    b_est = statistics.median(per_key) if per_key else float(fits[-1])
    b = min(fits, key=lambda x: abs(x - b_est)) if fits else round(b_est)
    counts = [f.estimated_count for f in filters if math.isfinite(f.estimated_count)]
    lines = [f"LevelDB's BloomFilterPolicy(bits_per_key) sets k = ⌊0.69 × bits_per_key⌋, rounded down rather than "
             f"to the best k = bits_per_key × ln 2: this file's k = {k} fits bits_per_key "
             f"{', '.join(map(str, fits))}, and its filters hold about {b_est:.1f} bits per key (the median of m "
             f"over the keys estimated from the fill; positions that coincide make it read high). At {b} bits per key the textbook rate is {pct(flat_rate(b, k))} with k = {k}, "
             f"{pct(flat_rate(b, b * math.log(2)))} with the best k."]
    if counts:
        lines.append(f"One filter per 2 KiB of data-block offsets: each holds only the keys of the blocks that start "
                     f"there (here {min(counts):,.0f} to {max(counts):,.0f} keys, estimated from the fill), sized "
                     f"n × bits_per_key bits but at least 64, so the small ones vary most.")
    lines.append("All k positions come from one 32-bit hash by double hashing (h, then h + rotr(h, 17) each "
                 "step), so they are not independent, and keys with equal hashes pass together: the rate a count of "
                 "bits set predicts is a floor. Measured with LevelDB's own tables (README: LevelDB and RocksDB "
                 "tables): 0.94 % passed against 0.81 % predicted from the filters' fill at 10 bits per key.")
    return lines + _tables_line(filters)


def _table_groups(filters: list[ForeignFilter]) -> dict[str, list[ForeignFilter]]:
    groups: dict[str, list[ForeignFilter]] = {}
    for f in filters:
        if f.layout["kind"] == "blocks":
            groups.setdefault(str(f.fields.get("table", f.label)), []).append(f)
    return groups


def rocksdb(filters: list[ForeignFilter]) -> list[str]:
    lines = []
    groups = _table_groups(filters)
    for table, group in list(groups.items())[:6]:
        f = group[0]
        m = sum(g.m for g in group)
        entries = f.fields.get("num.filter_entries")
        if isinstance(entries, int) and entries > 0:
            bpk, how = m / entries, "m / rocksdb.num.filter_entries"
        else:
            est = sum(g.estimated_count for g in group)
            bpk, how = (m / est if 0 < est < math.inf else float("nan")), "estimated from the fill"
        ks = sorted({g.k for g in group})
        # FastLocalBloom takes each filter's k from its own millibits per key, so partitions cut at uneven sizes
        # get different k (6, 7 and 8 in one partitioned table at 10 bits per key)
        k = f.k if len(ks) == 1 else f"{ks[0]} to {ks[-1]} (each partition's own)"
        rate = sum(g.expected_fp * g.m for g in group) / m
        flat = sum((g.bits_set / g.m) ** g.k * g.m for g in group) / m
        own = f.fields.get("rocksdb_estimated_fp")
        own_text = f"; RocksDB's own model says {pct(own)}" if isinstance(own, float) else ""
        parts = f" ({len(group):,} partitions)" if len(group) > 1 else ""
        if f.fields.get("implementation") == "legacy Bloom":
            lines.append(f"{table}{parts}: legacy Bloom (format_version {f.fields.get('format_version')} < 5) rounds "
                         f"bits_per_key to a whole number and sets k = ⌊0.69 × that⌋ = {k}; here {bpk:.2f} bits per "
                         f"key ({how}). The 512-bit line and every probe come from one 32-bit hash, so the probes are "
                         f"not independent: from each line's fill it passes {pct(rate)}{own_text} (which counts the "
                         f"shared hash). format_version 5 or later writes FastLocalBloom instead.")
        else:
            lines.append(f"{table}{parts}: {bpk:.2f} bits per key ({how}), k = {k} from FastLocalBloom's table of "
                         f"millibits per key, not bits × ln 2 = {bpk * math.log(2):.1f}: a flat filter at these "
                         f"bits per key would pass {pct(flat_rate(bpk, ks[0]))} (textbook formula{'' if len(ks) == 1 else f', k = {ks[0]}'}). All of a key's probes "
                         f"fall in one 512-bit cache line, and lines get unequal numbers of keys, so a crowded line "
                         f"passes more: from each line's fill it passes {pct(rate)}, against {pct(flat)} by the flat "
                         f"formula fill^k at the same fill{own_text}.")
        if str(f.fields.get("filter.policy", "")).startswith("ribbon") and f.layout["kind"] == "blocks":
            lines.append(f"{table}: its policy is ribbonfilter, but this table holds a Bloom filter: RocksDB's "
                         f"Ribbon policy writes Bloom below bloom_before_level (default 0: every flush, so new "
                         f"level-0 tables), at the Bloom bits per key it was given, and Ribbon only on compaction "
                         f"to the levels from there down.")
    if len(groups) > 6:
        lines.append(f"(the first 6 of {len(groups):,} tables; --filter N for another)")
    if any(f.layout["kind"] == "ribbon" for f in filters):
        lines.append("A Ribbon filter is not a Bloom filter: it passes about 2^−(bits per slot) whatever its load.")
    return lines + _tables_line([f for g in groups.values() for f in g])
