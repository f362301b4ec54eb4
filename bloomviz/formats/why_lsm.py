"""The "why higher than configured" causes of LevelDB and RocksDB tables (see ``formats.why``).

Both take ``bits_per_key`` as their setting. LevelDB (``util/bloom.cc``) sets k = ⌊0.69 × bits_per_key⌋ and
derives every position from one 32-bit hash by double hashing; each filter holds the keys of the data blocks
that start in one 2 KiB stretch of the table. RocksDB's FastLocalBloom (format_version ≥ 5) takes k from a
table of millibits per key and puts a key's probes in one 512-bit cache line; its legacy Bloom (< 5) rounds
bits per key to a whole number and takes line and probes from one 32-bit hash. In both, a lookup of a missing
key meets one filter in every table whose key range holds it. Each reason is a ``why.Reason`` of templates and
values (the window writes them in its language).
"""

from __future__ import annotations

import math
import statistics

import numpy as np

from bloomviz.formats.common import ForeignFilter
from bloomviz.formats.reasons import Percent, Reason, Word, say
from bloomviz.formats.why_rules import flat_rate


def _tables_line(filters: list[ForeignFilter]) -> list[Reason]:
    tables = sorted({str(f.fields.get("table", "")) for f in filters} - {""})
    if len(tables) < 2:
        return []
    p = sum(f.expected_fp for f in filters) / len(filters)
    return [Reason(say("{n} tables: a Get of a missing key asks one filter in every table whose key range holds it "
                       "(each level-0 table, one table per deeper level), so with all {n} in range it passes at least "
                       "one about 1 − (1 − p)^{n_plain} = {rate} of the time (p = {p}, the mean rate from the fill), "
                       "not p.", n=len(tables), n_plain=str(len(tables)), rate=Percent(1 - (1 - p) ** len(tables)),
                       p=Percent(p)))]


def leveldb_keys(m: int, bits_per_key: int) -> range:
    """The key counts n for which LevelDB's CreateFilter makes an m-bit filter at ``bits_per_key``: n ×
    bits_per_key bits, at least 64, in whole bytes (util/bloom.cc)."""
    if m <= 64:
        return range(1, 64 // bits_per_key + 1) if m == 64 else range(0)
    first = (m - 8) // bits_per_key + 1           # n·b > m − 8, so its whole bytes make m
    return range(max(first, 1), m // bits_per_key + 1)


def _leveldb_distinct(m: int, k: int, samples: int = 20_000) -> np.ndarray:
    """Share of random keys whose k LevelDB positions are d distinct bits of an m-bit filter, for d = 0..k:
    bitpos = h mod m, then h += rotr(h, 17) in 32 bits (util/bloom.cc), over random 32-bit hashes (a fixed
    seed: the same file, the same numbers)."""
    h = np.random.default_rng(0).integers(0, 1 << 32, size=samples, dtype=np.uint64)
    delta = ((h >> np.uint64(17)) | (h << np.uint64(15))) & np.uint64(0xFFFFFFFF)
    pos = np.empty((samples, k), dtype=np.uint64)
    for j in range(k):
        pos[:, j] = h % np.uint64(m)
        h = (h + delta) & np.uint64(0xFFFFFFFF)
    pos.sort(axis=1)
    return np.bincount(1 + (np.diff(pos, axis=1) != 0).sum(axis=1), minlength=k + 1) / samples


def leveldb_distinct_rate(filters: list[ForeignFilter]) -> float:
    """The mean over filters of fill^d, d the distinct bits a random key tests in that filter (sampled)."""
    by_m: dict[int, np.ndarray] = {}
    total = 0.0
    for f in filters:
        share = by_m.setdefault(f.m, _leveldb_distinct(f.m, f.k))
        total += float(sum(share[d] * f.fill_ratio ** d for d in range(1, f.k + 1)))
    return total / len(filters)


def leveldb(filters: list[ForeignFilter]) -> list[Reason]:
    k = filters[0].k
    # bits_per_key 44 already gives LevelDB's largest k, 30; past it every value gives 30 again
    fits = [b for b in range(1, 45) if max(1, min(30, int(b * 0.69))) == k]
    # the sizes decide between them: at 16 bits per key every size is a multiple of 16 bits, and a 576-bit filter
    # fits 36 keys at 16 but no count at 17
    by_size = [b for b in fits if all(leveldb_keys(f.m, b) for f in filters)]
    per_key = [f.m / f.estimated_count for f in filters if 0 < f.estimated_count < math.inf]
    b_est = statistics.median(per_key) if per_key else float(fits[-1])
    b = min(by_size or fits, key=lambda x: abs(x - b_est)) if fits else round(b_est)
    counts = [f.estimated_count for f in filters if math.isfinite(f.estimated_count)]
    parts = [say("LevelDB's BloomFilterPolicy(bits_per_key) sets k = ⌊0.69 × bits_per_key⌋, rounded down rather than "
                 "to the best k = bits_per_key × ln 2: this file's k = {k} fits bits_per_key {fits}, and its filters "
                 "hold about {b_est} bits per key (the median of m over the keys estimated from the fill; positions "
                 "that coincide make it read high).", k=k, fits=", ".join(map(str, fits)), b_est=(b_est, 1))]
    if len(by_size) == 1 < len(fits):
        sized = sum(max(leveldb_keys(f.m, b)) for f in filters)
        parts.append(say(" Their sizes (n × bits_per_key bits in whole bytes, at least 64) fit bits_per_key {b} only, "
                         "and hold at most {sized} keys in all, where the fill estimates {est}.", b=str(b), sized=sized,
                         est=(sum(counts), 0)))
    parts.append(say(" At {b} bits per key the textbook rate is {rate} with k = {k}, {best} with the best k.",
                     b=str(b), rate=Percent(flat_rate(b, k)), k=k, best=Percent(flat_rate(b, b * math.log(2)))))
    lines = [Reason(*parts)]
    sized = sum(max(leveldb_keys(f.m, b)) for f in filters) if len(by_size) == 1 else None
    if counts:
        lines.append(Reason(say("One filter per 2 KiB of data-block offsets: each holds only the keys of the blocks "
                                "that start there (here {lo} to {hi} keys, estimated from the fill), sized n × "
                                "bits_per_key bits but at least 64, so the small ones vary most.",
                                lo=(min(counts), 0), hi=(max(counts), 0))))
    lines.append(Reason(say("All k positions come from one 32-bit hash by double hashing (h, then h + rotr(h, 17) each "
                            "step), so they are not independent, and keys with equal hashes pass together: the rate a "
                            "count of bits set predicts is a floor. Measured with LevelDB's own tables (README: "
                            "LevelDB and RocksDB tables): 0.94 % passed against 0.81 % predicted from the filters' "
                            "fill at 10 bits per key.")))
    # positions that coincide in a small filter: 0.084 % of 100,000 random keys passed LevelDB's filters at 16 bits
    # per key (k = 11), 0.074 % by fill^d, 0.045 % by fill^k
    parts = [say("Here a key's k positions can coincide (nothing keeps them apart), and a key testing d distinct bits "
                 "passes with fill^d, not fill^k: over these filters the mean rate from the fill is {distinct} "
                 "counting distinct bits, {flat} by fill^k (fill^d averaged over random hashes for each m).",
                 distinct=Percent(leveldb_distinct_rate(filters)),
                 flat=Percent(sum(f.expected_fp for f in filters) / len(filters)))]
    if sized and counts and sum(counts) < 0.95 * sized:
        parts.append(say(" Their sizes say {sized} keys went in, where their bits set fit {est} independent ones: keys "
                         "that differ in a few bytes got related positions from LevelDB's hash, so keys like them "
                         "pass more often still.", sized=sized, est=(sum(counts), 0)))
    lines.append(Reason(*parts))
    return lines + _tables_line(filters)


def _table_groups(filters: list[ForeignFilter]) -> dict[str, list[ForeignFilter]]:
    groups: dict[str, list[ForeignFilter]] = {}
    for f in filters:
        if f.layout["kind"] == "blocks":
            groups.setdefault(str(f.fields.get("table", f.label)), []).append(f)
    return groups


def _table_reason(table: str, group: list[ForeignFilter]) -> list[Reason]:
    f = group[0]
    m = sum(g.m for g in group)
    entries = f.fields.get("num.filter_entries")
    if isinstance(entries, int) and entries > 0:
        bpk, how = m / entries, Word("m / rocksdb.num.filter_entries")
    else:
        est = sum(g.estimated_count for g in group)
        bpk, how = (m / est if 0 < est < math.inf else float("nan")), Word("estimated from the fill")
    ks = sorted({g.k for g in group})
    rate = Percent(sum(g.expected_fp * g.m for g in group) / m)
    flat = Percent(sum((g.bits_set / g.m) ** g.k * g.m for g in group) / m)
    own = f.fields.get("rocksdb_estimated_fp")
    own_part = [say("; RocksDB's own model says {own}", own=Percent(own))] if isinstance(own, float) else []
    head = (say("{table} ({n} partitions): ", table=table, n=len(group)) if len(group) > 1 else
            say("{table}: ", table=table))
    per_key = say("{bpk} bits per key ({how})", bpk=(bpk, 2), how=how)
    if f.fields.get("implementation") == "legacy Bloom":
        out = [Reason(head, say("legacy Bloom (format_version {fv} < 5) rounds bits_per_key to a whole number and sets "
                                "k = ⌊0.69 × that⌋ = {k}; here ", fv=str(f.fields.get("format_version")), k=f.k),
                      per_key, say(". The 512-bit line and every probe come from one 32-bit hash, so the probes are "
                                   "not independent: from each line's fill it passes {rate}", rate=rate), *own_part,
                      say(" (which counts the shared hash). format_version 5 or later writes FastLocalBloom instead."))]
    else:
        # FastLocalBloom takes each filter's k from its own millibits per key, so partitions cut at uneven sizes
        # get different k (6, 7 and 8 in one partitioned table at 10 bits per key)
        k_part = (say(", k = {k}", k=ks[0]) if len(ks) == 1 else
                  say(", k = {lo} to {hi} (each partition's own)", lo=ks[0], hi=ks[-1]))
        textbook = (say(" from FastLocalBloom's table of millibits per key, not bits × ln 2 = {ln2}: a flat filter at "
                        "these bits per key would pass {tb} (textbook formula).", ln2=(bpk * math.log(2), 1),
                        tb=Percent(flat_rate(bpk, ks[0]))) if len(ks) == 1 else
                    say(" from FastLocalBloom's table of millibits per key, not bits × ln 2 = {ln2}: a flat filter at "
                        "these bits per key would pass {tb} (textbook formula, k = {k}).", ln2=(bpk * math.log(2), 1),
                        tb=Percent(flat_rate(bpk, ks[0])), k=ks[0]))
        out = [Reason(head, per_key, k_part, textbook,
                      say(" All of a key's probes fall in one 512-bit cache line, and lines get unequal numbers of "
                          "keys, so a crowded line passes more: from each line's fill it passes {rate}, against {flat} "
                          "by the flat formula fill^k at the same fill", rate=rate, flat=flat), *own_part, say("."))]
    if str(f.fields.get("filter.policy", "")).startswith("ribbon"):
        out.append(Reason(say("{table}: its policy is ribbonfilter, but this table holds a Bloom filter: RocksDB's "
                              "Ribbon policy writes Bloom, at the Bloom bits per key it was given, for a flush and "
                              "below bloom_before_level (default 0), and Ribbon only when a compaction rewrites a "
                              "table at that level or deeper; a trivial move to a deeper level keeps the file and its "
                              "Bloom filter.", table=table)))
    return out


def rocksdb(filters: list[ForeignFilter]) -> list[Reason]:
    lines = []
    groups = _table_groups(filters)
    for table, group in list(groups.items())[:6]:
        lines += _table_reason(table, group)
    if len(groups) > 6:
        lines.append(Reason(say("(the first 6 of {n} tables; --filter N for another)", n=len(groups))))
    if any(f.layout["kind"] == "ribbon" for f in filters):
        lines.append(Reason(say("A Ribbon filter is not a Bloom filter: it passes about 2^−(bits per slot) whatever its "
                                "load.")))
    return lines + _tables_line([f for g in groups.values() for f in g])
