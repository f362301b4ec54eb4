"""The "why higher than configured" causes of git, Ethereum, Cassandra, Parquet and Hudi (see ``formats.why``).

Each rule reads the numbers the reader recorded (m, k, the fill, the header's fields) and the system's own
sizing rule (``theory.engines``, which follows each system's code), and names what lifts the rate: the rule's
rounding, a fixed size, a size chosen for a count that was wrong, or a lookup that meets many filters. Each
reason is a ``why.Reason`` of templates and values (the window writes them in its language).
"""

from __future__ import annotations

import math
import statistics

import numpy as np

from bloomviz.formats.common import ForeignFilter
from bloomviz.formats.reasons import Percent, Reason, Word, rate_in_sentence, say
from bloomviz.formats.parquet import ndv_sized_for
from bloomviz.theory import engines

LN2 = math.log(2)


def pct(p: float) -> str:
    """A rate for a sentence (``reasons.rate_in_sentence``), as the reasons write it in English."""
    return rate_in_sentence(p)


def flat_rate(bits_per_key: float, k: float) -> float:
    """The textbook rate (1 − e^(−k/b))^k of a flat filter at b bits per key, independent positions."""
    return (-math.expm1(-k / bits_per_key)) ** k


def keys_at_rate(m: int, k: int, p: float) -> float:
    """Keys at which a flat m-bit filter with k positions reaches rate p (the textbook formula inverted)."""
    return -(m / k) * math.log1p(-p ** (1 / k))


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


# --- git ------------------------------------------------------------------------------------------------------
def _distinct_counts(m: int, k: int, samples: int = 20_000) -> np.ndarray:
    """How many distinct bits each of ``samples`` random keys tests in an m-bit filter: git's positions
    ((h0 + i·h1) mod 2^32) mod m over random 32-bit hashes (a fixed seed: the same file, the same numbers)."""
    rng = np.random.default_rng(0)
    h = rng.integers(0, 1 << 32, size=(samples, 2), dtype=np.uint64)
    i = np.arange(k, dtype=np.uint64)
    pos = ((h[:, :1] + i[None, :] * h[:, 1:]) & np.uint64(0xFFFFFFFF)) % np.uint64(m)
    pos.sort(axis=1)
    return 1 + (np.diff(pos, axis=1) != 0).sum(axis=1)


def _distinct_rate(filters: list[ForeignFilter], k: int) -> float:
    """The mean over filters of fill^d, d the distinct bits a random key tests in that filter's m (sampled)."""
    by_m: dict[int, np.ndarray] = {}
    total = 0.0
    for f in filters:
        if f.m not in by_m:
            by_m[f.m] = np.bincount(_distinct_counts(f.m, k), minlength=k + 1) / 20_000
        share = by_m[f.m]
        total += float(sum(share[d] * f.fill_ratio ** d for d in range(1, k + 1)))
    return total / len(filters)


def git(filters: list[ForeignFilter]) -> list[Reason]:
    first = filters[0]
    k, bpe = first.k, int(first.fields.get("bits_per_entry", 10))
    large = [f for f in filters if str(f.fields.get("kind", "")).startswith("too many")]
    normal = [f for f in filters if f.fields.get("kind") == "changed paths"]
    lines = [Reason(say("git takes no rate setting: every commit's filter gets {bpe} bits per key (each path the "
                        "commit changed and each of its leading directories) and k = {k}, fixed in git's bloom.c. A "
                        "flat filter at exactly {bpe} bits per key with k = {k} passes a never-inserted key {rate} of "
                        "the time (textbook formula); rounding each filter up to whole bytes gives small filters more "
                        "bits per key, so less.", bpe=bpe, k=k, rate=Percent(flat_rate(bpe, k))))]
    if large:
        with_large = _mean(f.expected_fp for f in filters)
        without = _mean(f.expected_fp for f in filters if f not in large)
        lines.append(Reason(say(
            "{large} of {total} commits changed more than 512 paths and leading directories: git stores one byte of "
            "eight 1s for each, which answers \"maybe\" to every path (a rate of 100 %). They lift the mean rate from "
            "the fill over these filters from {without} to {with_large}.", large=len(large), total=len(filters),
            without=Percent(without), with_large=Percent(with_large))))
    if normal:
        median_m = int(statistics.median(f.m for f in normal))
        small = sum(1 for f in normal if f.m < 64)
        share = float((_distinct_counts(median_m, k) < k).mean())
        lines.append(Reason(say(
            "Small filters: the median filter has {m} bits ({small} of {normal} have fewer than 64). Positions are "
            "((h0 + i·h1) mod 2^32) mod m with nothing forced odd, so in {m_plain} bits {share} of keys light fewer "
            "than {k} distinct bits, and a key testing d bits passes with fill^d, not fill^k: over these filters the "
            "mean rate from the fill is {distinct} counting distinct bits, {flat} by fill^k (fill^d averaged over "
            "random hashes for each m; measure-git counts real keys).", m=median_m, small=small, normal=len(normal),
            m_plain=str(median_m), share=Percent(share), k=k, distinct=Percent(_distinct_rate(normal, k)),
            flat=Percent(_mean(f.expected_fp for f in normal)))))
    without = first.fields.get("commits_without_filter")
    if without:
        lines.append(Reason(say(
            "{n} of {total} commits in the graph have no filter (a layer written without --changed-paths or with other "
            "settings, or a filter git did not compute): git log -- PATH compares their trees every time, as it does "
            "for a false positive (git's trace2 counts them as filter_not_present). git commit-graph write --reachable "
            "--changed-paths (without --split, or with --split=replace) gives them filters.", n=int(without), total=int(first.fields.get("graph_commits", 0)))))
    lines.append(Reason(say("git log -- PATH asks the path and each of its leading directories, and all must be set, "
                            "so a deep path passes less often than one key does. bloomviz measure-git REPO counts the "
                            "false positives against git's own answers.")))
    return lines


# --- Ethereum -------------------------------------------------------------------------------------------------
def ethereum(filters: list[ForeignFilter]) -> list[Reason]:
    m, k = filters[0].m, filters[0].k
    at = {p: (keys_at_rate(m, k, p), 0) for p in (0.01, 0.1, 0.5)}
    lines = [Reason(say("Ethereum fixes every logsBloom at {m} bits and k = {k} (three 11-bit slices of one "
                        "Keccak-256), whatever it holds: there is no rate to configure. Each log's contract address "
                        "and each of its topics is a key, and a block's bloom is the OR of its receipts' logs, so a "
                        "busy block saturates: by the textbook formula the rate reaches 1 % at {at1} keys, 10 % at "
                        "{at10} and 50 % at {at50}.", m=m, k=k, at1=at[0.01], at10=at[0.1], at50=at[0.5]))]
    est = [f.estimated_count for f in filters]
    finite = [e for e in est if math.isfinite(e)]
    if len(filters) == 1:
        f = filters[0]
        keys = (say("about {n} keys (estimated from the fill)", n=(est[0], 0)) if finite else
                say("too many keys to estimate"))
        exact = f.fields.get("distinct_log_entries")
        if isinstance(exact, int):     # a receipt lists its logs: the keys are known, not estimated
            keys = say("{n} distinct addresses and topics in its logs (the textbook rate for that many: {rate})",
                       n=exact, rate=Percent(flat_rate(m / exact, k)))
        lines.append(Reason(say("This bloom: {set} of {m} bits set, ", set=f.bits_set, m=m), keys,
                            say(", so the chance that an address or topic never logged here passes is {rate} (from "
                                "the fill): a log query (eth_getLogs) reads about that share of such blocks for "
                                "nothing.", rate=Percent(f.expected_fp))))
    else:
        over = sum(1 for f in filters if f.expected_fp > 0.01)
        lines.append(Reason(say("These {n} blooms: median {median} bits set; {over} pass a never-logged key more "
                                "than 1 % of the time (from the fill).", n=len(filters),
                                median=(statistics.median(f.bits_set for f in filters), 0), over=over)))
    return lines


# --- Cassandra ------------------------------------------------------------------------------------------------
def cassandra(filters: list[ForeignFilter]) -> list[Reason]:
    f = filters[0]
    chance = f.fields.get("bloom_filter_fp_chance")
    partitions = f.fields.get("partitions")
    lines = []
    if chance is None:
        lines.append(Reason(say("The table's bloom_filter_fp_chance is not known (no Statistics.db beside the file; "
                                "--fp-chance gives it): Cassandra sizes the filter from it and the partitions it "
                                "expects.")))
        lines += _implied_chance(f, partitions)
    elif chance >= 1:
        lines.append(Reason(say("bloom_filter_fp_chance 1.0 means no filter at all: every read consults the "
                                "SSTable.")))
    elif not engines.CASSANDRA_MIN_FP < chance:
        lines.append(Reason(say("bloom_filter_fp_chance {chance} is below the {least} Cassandra's table reaches (20 "
                                "bits per key).", chance=float(chance), least=engines.CASSANDRA_MIN_FP)))
    else:
        b = _buckets(chance)
        k = engines.cassandra(1, chance).k
        best = engines.PROBS[b][engines.OPT_K[b]]
        parts = [say("bloom_filter_fp_chance {chance}: Cassandra's BloomCalculations takes the fewest bits per key "
                     "(at most 20) whose table rate meets it, {b}, then the fewest hashes that still meet it, k = {k}: "
                     "its table's rate for that is {table}, close under the chance and above the {best} the best k "
                     "for {b} bits gives.", chance=float(chance), b=b, k=k, table=Percent(engines.PROBS[b][k]),
                     best=Percent(best))]
        if k != f.k:
            parts.append(say(" This file has k = {k}: it was written with another chance.", k=f.k))
        lines.append(Reason(*parts))
        lo, hi = max(0, math.ceil((f.m - 64 - 20 + 1) / b)), (f.m - 20) // b
        parts = [say("m = {b} × the partitions Cassandra expected + 20 bits, in whole 64-bit words: these {m} bits "
                     "were sized for {lo}..{hi} partitions", b=b, m=f.m, lo=lo, hi=hi) if lo < hi else
                 say("m = {b} × the partitions Cassandra expected + 20 bits, in whole 64-bit words: these {m} bits "
                     "were sized for {hi} partitions", b=b, m=f.m, hi=hi)]
        if partitions is not None:
            parts.append(say("; Index.db holds {partitions}", partitions=partitions))
            if partitions > hi:
                parts.append(say(", more than it was sized for (Cassandra sizes for an estimate of the keys), so its "
                                 "rate from the fill, {rate}, can pass the chance", rate=Percent(f.expected_fp)))
            elif partitions < lo:
                parts.append(say(". It was sized for more than it holds (a compaction sizes for its inputs' merged "
                                 "HyperLogLog estimate, before merging drops shadowed or expired partitions), which "
                                 "lowers the rate"))
        lines.append(Reason(*parts, say(".")))
    lines.append(Reason(say("The chance is per SSTable: a read consults the filter of every SSTable that may hold the "
                            "partition, so false-positive reads per read grow with the SSTable count (nodetool "
                            "tablestats: Bloom filter false ratio).")))
    lines.append(Reason(say("ALTER TABLE … WITH bloom_filter_fp_chance changes only SSTables written afterwards; "
                            "nodetool upgradesstables -a rewrites the old ones. Statistics.db keeps the chance this one "
                            "was written with.")))
    return lines


def chance_ranges(k: int, bits_per_key: int | None = None) -> list[tuple[float, float]]:
    """The bloom_filter_fp_chance intervals [lo, hi) for which Cassandra's table picks k hashes (and
    ``bits_per_key``, when given). Its choice changes only at the table's rates, so one chance per step says it."""
    steps = sorted({v for row in engines.PROBS for v in row if engines.CASSANDRA_MIN_FP < v < 1.0})
    out: list[tuple[float, float]] = []
    for i, v in enumerate(steps):
        hi = steps[i + 1] if i + 1 < len(steps) else 1.0
        if engines.cassandra(1, v).k == k and (bits_per_key is None or _buckets(v) == bits_per_key):
            if out and out[-1][1] == v:
                out[-1] = (out[-1][0], hi)
            else:
                out.append((v, hi))
    return out


def _implied_chance(f: ForeignFilter, partitions) -> list[Reason]:
    """What the filter's own k and size say of the chance it was written with, when Statistics.db is absent."""
    fits = [] if partitions is None else [b for b in range(1, 21) if max(0, math.ceil((f.m - 64 - 20 + 1) / b))
                                          <= partitions <= (f.m - 20) // b]
    b = fits[0] if len(fits) == 1 else None
    ranges = chance_ranges(f.k, b)
    if not ranges:
        return [Reason(say("Cassandra's table gives k = {k} for no bloom_filter_fp_chance: another writer or an "
                           "older table made this filter.", k=f.k))]
    head = (say("What the filter implies: k = {k} and {b} bits per key (its {m} bits fit Index.db's {partitions} "
                "partitions at {b}) are what Cassandra's table picks for a bloom_filter_fp_chance in ", k=f.k, b=b,
                m=f.m, partitions=partitions) if b is not None else
            say("What the filter implies: k = {k} is what Cassandra's table picks for a bloom_filter_fp_chance in ",
                k=f.k))
    parts = [head]
    for i, (lo, hi) in enumerate(ranges):
        parts += ([say(" or ")] if i else []) + [say("[{lo}, {hi})", lo=lo, hi=hi)]
    default = any(lo <= 0.01 < hi for lo, hi in ranges)
    parts.append(say(" (the default 0.01 among them)." if default else " (not the default 0.01)."))
    return [Reason(*parts)]


def _buckets(fp_chance: float) -> int:
    """Bits per key Cassandra's computeBloomSpec picks for a chance (the first table row that meets it)."""
    if fp_chance >= engines.PROBS[2][1]:
        return engines.OPT_K[2]
    b = 2
    while engines.PROBS[b][engines.OPT_K[b]] > fp_chance:
        b += 1
    return b


# --- Parquet --------------------------------------------------------------------------------------------------
PARQUET_DEFAULTS = (("Arrow's default", 0.05), ("parquet-java's default", 0.01))


def _parquet_name(f: ForeignFilter) -> dict:
    return {"column": str(f.fields.get("column", "")), "group": int(f.fields.get("row_group", 0))}


def _parquet_filter(f: ForeignFilter) -> Reason:
    est, rows = f.estimated_count, f.fields.get("num_rows")
    given = str(f.fields.get("fpp_from", "")).startswith("given")
    fpp = float(f.fields.get("fpp", PARQUET_DEFAULTS[0][1]))
    parts = [say("column {column}, row group {group}: {m} bits, ", m=f.m, **_parquet_name(f))]
    if given:
        lo, hi = ndv_sized_for(f.m, fpp)
        parts.append(say("what a writer makes of ndv {lo}..{hi} at fpp {fpp} (given); ", lo=(lo, 0), hi=(hi, 0),
                         fpp=fpp))
    else:
        (w1, p1), (w2, p2) = PARQUET_DEFAULTS
        (lo1, hi1), (lo2, hi2) = ndv_sized_for(f.m, p1), ndv_sized_for(f.m, p2)
        parts.append(say("what a writer makes of ndv {lo1}..{hi1} at fpp {p1} ({w1}) or ndv {lo2}..{hi2} at fpp {p2} "
                         "({w2}); ", lo1=(lo1, 0), hi1=(hi1, 0), p1=p1, w1=Word(w1), lo2=(lo2, 0), hi2=(hi2, 0), p2=p2,
                         w2=Word(w2)))
        hi = ndv_sized_for(f.m, PARQUET_DEFAULTS[0][1])[1]
    finite = math.isfinite(est)
    parts.append(say("about {n} distinct values went in (estimated from the fill", n=(est, 0)) if finite else
                 say("too many distinct values to estimate went in (a whole block is set"))
    parts.append(say("; the row group has {rows} rows)", rows=rows) if isinstance(rows, int) else say(")"))
    rate = Percent(f.expected_fp)
    assumed_hi = ndv_sized_for(f.m, fpp)[1]
    if not finite or est > hi:
        parts.append(say(": more than it was sized for at fpp {fpp}, so it passes {rate} (from the fill).", fpp=fpp,
                         rate=rate) if given else
                     say(": more than it was sized for at either rate, so it passes {rate} (from the fill).",
                         rate=rate))
        parts.append(say(" Give the writer a larger ndv (pyarrow: bloom_filter_options={{column: {{'ndv': N}}}}; "
                         "parquet-java: parquet.bloom.filter.expected.ndv#column) or write smaller row groups."))
    elif est > assumed_hi:     # past what the writer's own default fits, within what 0.05 fits
        parts.append(say(": more than it fits at fpp {fpp} ({who}), so it passes {rate} (from the fill), unless its "
                         "writer was given a larger fpp.", fpp=fpp, who=Word(_parquet_who(f)), rate=rate))
    else:
        parts.append(say(": within what it was sized for; it passes {rate} (from the fill).", rate=rate))
    return Reason(*parts)


def _parquet_who(f: ForeignFilter) -> str:
    return str(f.fields.get("fpp_from", "")).removeprefix("assumed: ")


def parquet(filters: list[ForeignFilter]) -> list[Reason]:
    lines = [Reason(say("A Parquet writer sizes each column chunk's filter from the distinct values it is told to "
                        "expect (ndv) and fpp: m = −8·ndv / ln(1 − fpp^(1/8)) bits, rounded up to a power of two. The "
                        "file keeps neither, and a column chunk with more distinct values than that ndv passes more "
                        "than fpp."))]
    lines += [_parquet_filter(f) for f in filters[:8]]
    if len(filters) > 8:
        lines.append(Reason(say("(the first 8 of {n} filters; --filter N or --column C for another)", n=len(filters))))
    if any("parquet-cpp-arrow" in str(f.fields.get("created_by", "")) for f in filters):
        lines.append(Reason(say("Arrow (pyarrow) also folds a filter to a smaller power of two after the values are "
                                "in, while its own estimate stays under fpp: a filter smaller than its ndv asked for "
                                "held few values.")))
    without = filters[0].fields.get("columns_without_filter")
    if without:
        lines.append(Reason(say("Columns with no filter in this file: {columns}. A query on them cannot skip a row "
                                "group by a filter (pyarrow writes one only for the columns bloom_filter_options "
                                "names, DuckDB only for dictionary-encoded columns, parquet-java for those "
                                "parquet.bloom.filter.enabled names).", columns=", ".join(map(str, without)))))
    assumed = [f for f in filters if str(f.fields.get("fpp_from", "")).startswith("assumed")]
    if assumed:
        f = assumed[0]
        lines.append(Reason(say("Past its design load, in the summary, means more distinct values than its size fits "
                                "at fpp {fpp}: assumed, {who} (the file's created_by: {writer}). The writer may have "
                                "been given another; --fpp P says which.", fpp=float(f.fields["fpp"]),
                                who=Word(_parquet_who(f)), writer=str(f.fields.get("created_by") or "?"))))
    fills = [(f, f.fill_ratio ** f.k) for f in filters[:8]]
    f, flat = max(fills, key=lambda pair: pair[0].expected_fp - pair[1])
    if f.expected_fp <= 1.05 * flat:       # a saturated filter passes nearly all either way: the blocks are not why
        return lines
    lines.append(Reason(say("Split blocks: each value sets 8 bits, one in each 32-bit word of one 256-bit block, and "
                            "blocks get unequal numbers of values, so a crowded block passes more: column {column}, "
                            "row group {group} passes {rate} from each block's fill against {flat} by the flat formula "
                            "fill^8 at the same fill.", rate=Percent(f.expected_fp), flat=Percent(flat),
                            **_parquet_name(f))))
    return lines


# --- Hudi -----------------------------------------------------------------------------------------------------
def hudi(filters: list[ForeignFilter]) -> list[Reason]:
    f = filters[0]
    per_row = f.fields.get("entries_per_row")
    rows = f.fields.get("rows", 1)
    design = f.design_fp
    lines = []
    if per_row and design:
        lines.append(Reason(say(
            "Hudi sizes each filter row for hoodie.index.bloom.num_entries keys ({per_row} here) at "
            "hoodie.index.bloom.fpp (recovered from m: {design}). A SIMPLE filter that gets more keys than that passes "
            "more than fpp; a DYNAMIC_V0 filter adds another row of the same size per num_entries keys (up to "
            "hoodie.bloom.index.filter.dynamic.max.entries), and a key passes if any row passes it.",
            per_row=per_row, design=float(f"{design:.3g}"))))
    est = f.estimated_count
    keys = [say("about {n} keys estimated from the fill", n=(est, 0)) if math.isfinite(est) else
            say("too full to estimate its keys")]
    last = f.fields.get("entries_in_last_row")
    if per_row and isinstance(last, int):       # a dynamic filter counts its keys: no estimate needed
        keys = [say("{n} keys by its own count", n=(rows - 1) * per_row + last)]
    if isinstance(f.fields.get("file_rows"), int):
        keys.append(say(" (the file holds {records} records)", records=f.fields["file_rows"]))
    kind = f.fields.get("type_code")
    lines.append(Reason(say("This filter: {kind} with {rows} row(s), ", kind=str(kind) if kind else Word("a filter"),
                            rows=rows), *keys,
                        say(", passing {rate}. The Bloom index asks the filter of every base file whose key range "
                            "holds the key, so a lookup's false positives add up over the files it asks.",
                            rate=Percent(f.expected_fp))))
    return lines
