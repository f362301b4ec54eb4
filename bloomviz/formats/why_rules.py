"""The "why higher than configured" causes of git, Ethereum, Cassandra, Parquet and Hudi (see ``formats.why``).

Each rule reads the numbers the reader recorded (m, k, the fill, the header's fields) and the system's own
sizing rule (``theory.engines``, which follows each system's code), and names what lifts the rate: the rule's
rounding, a fixed size, a size chosen for a count that was wrong, or a lookup that meets many filters.
"""

from __future__ import annotations

import math
import statistics

import numpy as np

from bloomviz.formats.common import ForeignFilter
from bloomviz.formats.parquet import ndv_sized_for
from bloomviz.theory import engines
from bloomviz.theory.units import percent_text

LN2 = math.log(2)


def pct(p: float) -> str:
    """A rate for a sentence, always a percentage (``units.percent_text``: "1.25 %", "3.4 × 10⁻⁵ %"): the
    sentences say "passes {pct} of the time" and "(p = {pct})", where "1 in 830,000", as tiny rates were written,
    read "passes 1 in 830,000 of the time"."""
    return percent_text(max(p, 0.0))


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


def git(filters: list[ForeignFilter]) -> list[str]:
    first = filters[0]
    k, bpe = first.k, int(first.fields.get("bits_per_entry", 10))
    large = [f for f in filters if str(f.fields.get("kind", "")).startswith("too many")]
    normal = [f for f in filters if f.fields.get("kind") == "changed paths"]
    lines = [f"git takes no rate setting: every commit's filter gets {bpe} bits per key (each path the commit "
             f"changed and each of its leading directories) and k = {k}, fixed in git's bloom.c. A flat filter "
             f"at exactly {bpe} bits per key with k = {k} passes a never-inserted key {pct(flat_rate(bpe, k))} of "
             f"the time (textbook formula); rounding each filter up to whole bytes gives small filters more bits "
             f"per key, so less."]
    if large:
        with_large = _mean(f.expected_fp for f in filters)
        without = _mean(f.expected_fp for f in filters if f not in large)
        lines.append(f"{len(large):,} of {len(filters):,} commits changed more than 512 paths and leading "
                     f"directories: git stores one byte of eight 1s for each, which answers \"maybe\" to every path "
                     f"(a rate of 100 %). They lift the mean rate from the fill over these filters from "
                     f"{pct(without)} to {pct(with_large)}.")
    if normal:
        median_m = int(statistics.median(f.m for f in normal))
        small = sum(1 for f in normal if f.m < 64)
        share = float((_distinct_counts(median_m, k) < k).mean())
        lines.append(f"Small filters: the median filter has {median_m:,} bits ({small:,} of {len(normal):,} have "
                     f"fewer than 64). Positions are ((h0 + i·h1) mod 2^32) mod m with nothing forced odd, so in "
                     f"{median_m} bits {pct(share)} of keys light fewer than {k} distinct bits, and a key testing d "
                     f"bits passes with fill^d, not fill^k: over these filters the mean rate from the fill is "
                     f"{pct(_distinct_rate(normal, k))} counting distinct bits, {pct(_mean(f.expected_fp for f in normal))}"
                     f" by fill^k (fill^d averaged over random hashes for each m; measure-git counts real keys).")
    lines.append("git log -- PATH asks the path and each of its leading directories, and all must be set, so a "
                 "deep path passes less often than one key does. bloomviz measure-git REPO counts the false "
                 "positives against git's own answers.")
    return lines


# --- Ethereum -------------------------------------------------------------------------------------------------
def ethereum(filters: list[ForeignFilter]) -> list[str]:
    m, k = filters[0].m, filters[0].k
    at = {p: keys_at_rate(m, k, p) for p in (0.01, 0.1, 0.5)}
    lines = [f"Ethereum fixes every logsBloom at {m:,} bits and k = {k} (three 11-bit slices of one Keccak-256), "
             f"whatever it holds: there is no rate to configure. Each log's contract address and each of its "
             f"topics is a key, and a block's bloom is the OR of its receipts' logs, so a busy block saturates: "
             f"by the textbook formula the rate reaches 1 % at {at[0.01]:.0f} keys, 10 % at {at[0.1]:.0f} and "
             f"50 % at {at[0.5]:.0f}."]
    est = [f.estimated_count for f in filters]
    finite = [e for e in est if math.isfinite(e)]
    if len(filters) == 1:
        f = filters[0]
        keys = f"about {est[0]:.0f} keys (estimated from the fill)" if finite else "too many keys to estimate"
        exact = f.fields.get("distinct_log_entries")
        if isinstance(exact, int):     # a receipt lists its logs: the keys are known, not estimated
            keys = (f"{exact:,} distinct addresses and topics in its logs (the textbook rate for that many: "
                    f"{pct(flat_rate(m / exact, k))})")
        lines.append(f"This bloom: {f.bits_set:,} of {m:,} bits set, {keys}, so the chance that an address or "
                     f"topic never logged here passes is {pct(f.expected_fp)} (from the fill): a log query "
                     f"(eth_getLogs) reads about that share of such blocks for nothing.")
    else:
        over = sum(1 for f in filters if f.expected_fp > 0.01)
        lines.append(f"These {len(filters):,} blooms: median {statistics.median(f.bits_set for f in filters):,.0f} "
                     f"bits set; {over:,} pass a never-logged key more than 1 % of the time (from the fill).")
    return lines


# --- Cassandra ------------------------------------------------------------------------------------------------
def cassandra(filters: list[ForeignFilter]) -> list[str]:
    f = filters[0]
    chance = f.fields.get("bloom_filter_fp_chance")
    partitions = f.fields.get("partitions")
    lines = []
    if chance is None:
        lines.append("The table's bloom_filter_fp_chance is not known (no Statistics.db beside the file; "
                     "--fp-chance gives it): Cassandra sizes the filter from it and the partitions it expects.")
    elif chance >= 1:
        lines.append("bloom_filter_fp_chance 1.0 means no filter at all: every read consults the SSTable.")
    elif not engines.CASSANDRA_MIN_FP < chance:
        lines.append(f"bloom_filter_fp_chance {chance:g} is below the {engines.CASSANDRA_MIN_FP:g} Cassandra's "
                     f"table reaches (20 bits per key).")
    else:
        b = _buckets(chance)
        k = engines.cassandra(1, chance).k
        best = engines.PROBS[b][engines.OPT_K[b]]
        lines.append(f"bloom_filter_fp_chance {chance:g}: Cassandra's BloomCalculations takes the fewest bits per "
                     f"key (at most 20) whose table rate meets it, {b}, then the fewest hashes that still meet it, "
                     f"k = {k}: its table's rate for that is {pct(engines.PROBS[b][k])}, close under the chance and "
                     f"above the {pct(best)} the best k for {b} bits gives."
                     + ("" if k == f.k else f" This file has k = {f.k}: it was written with another chance."))
        lo, hi = max(0, math.ceil((f.m - 64 - 20 + 1) / b)), (f.m - 20) // b
        sized = f"{lo:,}..{hi:,}" if lo < hi else f"{hi:,}"
        text = (f"m = {b} × the partitions Cassandra expected + 20 bits, in whole 64-bit words: these {f.m:,} bits "
                f"were sized for {sized} partitions")
        if partitions is not None:
            text += f"; Index.db holds {partitions:,}"
            if partitions > hi:
                text += (f", more than it was sized for (Cassandra sizes for an estimate of the keys), so its rate "
                         f"from the fill, {pct(f.expected_fp)}, can pass the chance")
            elif partitions < lo:
                text += (". It was sized for more than it holds (a compaction sizes for its inputs' merged "
                         "HyperLogLog estimate, before merging drops shadowed or expired partitions), which lowers "
                         "the rate")
        lines.append(text + ".")
    lines.append("The chance is per SSTable: a read consults the filter of every SSTable that may hold the "
                 "partition, so false-positive reads per read grow with the SSTable count (nodetool tablestats: "
                 "Bloom filter false ratio).")
    lines.append("ALTER TABLE … WITH bloom_filter_fp_chance changes only SSTables written afterwards; nodetool "
                 "upgradesstables -a rewrites the old ones. Statistics.db keeps the chance this one was written with.")
    return lines


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


def parquet(filters: list[ForeignFilter]) -> list[str]:
    lines = ["A Parquet writer sizes each column chunk's filter from the distinct values it is told to expect "
             "(ndv) and fpp: m = −8·ndv / ln(1 − fpp^(1/8)) bits, rounded up to a power of two. The file keeps "
             "neither, and a column chunk with more distinct values than that ndv passes more than fpp."]
    for f in filters[:8]:
        est = f.estimated_count
        rows = f.fields.get("num_rows")
        ranges = " or ".join(f"ndv {lo:,.0f}..{hi:,.0f} at fpp {p:g} ({who})"
                             for (who, p), (lo, hi) in ((d, ndv_sized_for(f.m, d[1])) for d in PARQUET_DEFAULTS))
        held = (f"about {est:,.0f} distinct values went in (estimated from the fill" if math.isfinite(est) else
                "too many distinct values to estimate went in (a whole block is set")
        held += f"; the row group has {rows:,} rows)" if isinstance(rows, int) else ")"
        hi = ndv_sized_for(f.m, PARQUET_DEFAULTS[0][1])[1]
        verdict = (f": more than it was sized for at either rate, so it passes {pct(f.expected_fp)} (from the "
                   f"fill). Give the writer a larger ndv (pyarrow: bloom_filter_options={{column: {{'ndv': N}}}}; "
                   f"parquet-java: parquet.bloom.filter.expected.ndv#column) or write smaller row groups."
                   if not math.isfinite(est) or est > hi else
                   f": within what it was sized for; it passes {pct(f.expected_fp)} (from the fill).")
        lines.append(f"{f.label}: {f.m:,} bits, what a writer makes of {ranges}; {held}{verdict}")
    if len(filters) > 8:
        lines.append(f"(the first 8 of {len(filters):,} filters; --filter N or --column C for another)")
    if any("parquet-cpp-arrow" in str(f.fields.get("created_by", "")) for f in filters):
        lines.append("Arrow (pyarrow) also folds a filter to a smaller power of two after the values are in, while "
                     "its own estimate stays under fpp: a filter smaller than its ndv asked for held few values.")
    fills = [(f, f.fill_ratio ** f.k) for f in filters[:8]]
    f, flat = max(fills, key=lambda pair: pair[0].expected_fp - pair[1])
    lines.append(f"Split blocks: each value sets 8 bits, one in each 32-bit word of one 256-bit block, and blocks "
                 f"get unequal numbers of values, so a crowded block passes more: {f.label} passes "
                 f"{pct(f.expected_fp)} from each block's fill against {pct(flat)} by the flat formula fill^8 at "
                 f"the same fill.")
    return lines


# --- Hudi -----------------------------------------------------------------------------------------------------
def hudi(filters: list[ForeignFilter]) -> list[str]:
    f = filters[0]
    per_row = f.fields.get("entries_per_row")
    rows = f.fields.get("rows", 1)
    design = f.design_fp
    lines = []
    if per_row and design:
        lines.append(f"Hudi sizes each filter row for hoodie.index.bloom.num_entries keys ({per_row:,} here) at "
                     f"hoodie.index.bloom.fpp (recovered from m: {design:.3g}). A SIMPLE filter that gets more keys "
                     f"than that passes more than fpp; a DYNAMIC_V0 filter adds another row of the same size per "
                     f"num_entries keys (up to hoodie.bloom.index.filter.dynamic.max.entries), and a key passes if "
                     f"any row passes it.")
    est = f.estimated_count
    keys = f"about {est:,.0f} keys estimated from the fill" if math.isfinite(est) else "too full to estimate its keys"
    lines.append(f"This filter: {f.fields.get('type_code', 'a filter')} with {rows:,} row(s), {keys}, passing "
                 f"{pct(f.expected_fp)}. The Bloom "
                 f"index asks the filter of every base file whose key range holds the key, so a lookup's false "
                 f"positives add up over the files it asks.")
    return lines
