"""What real systems build from their Bloom filter settings, and the rate that gives.

Each engine turns its own settings and the number of entries n into the filter it actually allocates (m, k,
layout), following its code (named per engine in ``source``); the rate is then computed for that filter:
exact for a flat array with independent positions (``rates.fp_exact``), and for a blocked layout (Parquet's
256-bit blocks, RocksDB's 512-bit cache lines) averaged over how many entries land in each block (Poisson),
each block being a small filter of its own. Real hashing is not perfectly independent (double hashing, one
32-bit hash for line and probes): the readers of those files show the difference on real data.

Checked against real files: Cassandra's rule gives the m = 10,048 and k = 5 of the 1,000-key 3.11 table in the
tests, ORC's the m = 62,400 and k = 4 pyarrow writes for 10,000 rows at fpp 0.05, Spark's the m = 3,712 and k = 5
of its own 500-item samples, Hudi's the 2,587,966 bits and k = 30 of its base files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from bloomviz.theory import rates

LN2 = math.log(2)
LN2SQ = LN2 * LN2
# Cassandra's BloomCalculations.probs (= ClickHouse's probability_lookup_table): row b bits per entry,
# column k hashes: the classic rate (1 - e^{-k/b})^k to three figures, as the code holds it
PROBS = (
    (1.0,), (1.0, 1.0), (1.0, 0.393, 0.400), (1.0, 0.283, 0.237, 0.253), (1.0, 0.221, 0.155, 0.147, 0.160),
    (1.0, 0.181, 0.109, 0.092, 0.092, 0.101), (1.0, 0.154, 0.0804, 0.0609, 0.0561, 0.0578, 0.0638),
    (1.0, 0.133, 0.0618, 0.0423, 0.0359, 0.0347, 0.0364),
    (1.0, 0.118, 0.0489, 0.0306, 0.024, 0.0217, 0.0216, 0.0229),
    (1.0, 0.105, 0.0397, 0.0228, 0.0166, 0.0141, 0.0133, 0.0135, 0.0145),
    (1.0, 0.0952, 0.0329, 0.0174, 0.0118, 0.00943, 0.00844, 0.00819, 0.00846),
    (1.0, 0.0869, 0.0276, 0.0136, 0.00864, 0.0065, 0.00552, 0.00513, 0.00509),
    (1.0, 0.08, 0.0236, 0.0108, 0.00646, 0.00459, 0.00371, 0.00329, 0.00314),
    (1.0, 0.074, 0.0203, 0.00875, 0.00492, 0.00332, 0.00255, 0.00217, 0.00199, 0.00194),
    (1.0, 0.0689, 0.0177, 0.00718, 0.00381, 0.00244, 0.00179, 0.00146, 0.00129, 0.00121, 0.0012),
    (1.0, 0.0645, 0.0156, 0.00596, 0.003, 0.00183, 0.00128, 0.001, 0.000852, 0.000775, 0.000744),
    (1.0, 0.0606, 0.0138, 0.005, 0.00239, 0.00139, 0.000935, 0.000702, 0.000574, 0.000505, 0.00047, 0.000459),
    (1.0, 0.0571, 0.0123, 0.00423, 0.00193, 0.00107, 0.000692, 0.000499, 0.000394, 0.000335, 0.000302,
     0.000287, 0.000284),
    (1.0, 0.054, 0.0111, 0.00362, 0.00158, 0.000839, 0.000519, 0.00036, 0.000275, 0.000226, 0.000198,
     0.000183, 0.000176),
    (1.0, 0.0513, 0.00998, 0.00312, 0.0013, 0.000663, 0.000394, 0.000264, 0.000194, 0.000155, 0.000132,
     0.000118, 0.000111, 0.000109),
    (1.0, 0.0488, 0.00906, 0.0027, 0.00108, 0.00053, 0.000303, 0.000196, 0.00014, 0.000108, 8.89e-05,
     7.77e-05, 7.12e-05, 6.79e-05, 6.71e-05),
)
OPT_K = tuple(max(1, min(range(len(row)), key=lambda j: (row[j], j))) for row in PROBS)
CASSANDRA_MIN_FP = PROBS[20][-1]


class Note(str):
    """A note on what an engine built: its English text (what the command line prints), keeping its template and
    values so that the window writes it in its own language (``gui.explorer_tab.engine_preset.note_text``). Theory
    writes numbers, not translated words; a value is a number, a string shown as it is, or (number, decimals)."""

    template: str
    values: dict

    def __new__(cls, template: str, **values):
        note = super().__new__(cls, template.format(**{key: _english(v) for key, v in values.items()}))
        note.template, note.values = template, values
        return note


def _english(value) -> str:
    if isinstance(value, tuple):
        return f"{value[0]:,.{value[1]}f}"
    if isinstance(value, (str, bool)):
        return str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:,g}"


@dataclass(frozen=True)
class Built:
    """The filter an engine allocates for n entries: m bits, k probes, its layout, the rate it gives."""

    engine: str
    n: int
    m: int
    k: int
    layout: str            # "flat", "blocks-256" (Parquet), "lines-512" (RocksDB)
    rate: float
    settings: dict
    notes: list = field(default_factory=list)
    source: str = ""


def block_rate(n: int, blocks: int, per_block: Callable[[np.ndarray], np.ndarray]) -> float:
    """The mean over blocks of a block's rate when n entries fall into ``blocks`` blocks at random (Poisson)."""
    lam = n / blocks
    if lam <= 0:
        return 0.0
    j = np.arange(int(lam + 12 * math.sqrt(lam) + 30) + 1, dtype=float)
    log_pmf = j * math.log(lam) - lam - np.array([math.lgamma(x + 1) for x in j])
    return float(np.sum(np.exp(log_pmf) * per_block(j)))


def _sbbf_rate(n: int, m: int) -> float:
    return block_rate(n, m // 256, lambda j: (1 - (31 / 32) ** j) ** 8)


def _line_rate(n: int, m: int, k: int) -> float:
    return block_rate(n, m // 512, lambda j: (-np.expm1(k * j * math.log1p(-1 / 512))) ** k)


def _flat(engine: str, n: int, m: int, k: int, settings: dict, notes: list, source: str) -> Built:
    return Built(engine, n, m, k, "flat", rates.fp_exact(m, k, n) if n else 0.0, settings, notes, source)


def cassandra(n: int, fp_chance: float = 0.01) -> Built:
    if not CASSANDRA_MIN_FP < fp_chance <= 1:
        raise ValueError(f"bloom_filter_fp_chance must be larger than {CASSANDRA_MIN_FP} and less than or equal "
                         f"to 1.0 (got {fp_chance}): Cassandra refuses it")
    settings = {"fp_chance": fp_chance}
    source = "Cassandra BloomCalculations.computeBloomSpec, FilterFactory.createFilter (numElements·b + 20 bits)"
    if fp_chance >= PROBS[2][1]:
        k, b = 2, OPT_K[2]    # the code's trivial case passes (K=2, buckets=optK[2]=1), in that order
    else:
        b = 2
        while PROBS[b][OPT_K[b]] > fp_chance:
            b += 1
        k = OPT_K[b]
        while PROBS[b][k - 1] <= fp_chance:
            k -= 1
    m = 64 * math.ceil((n * b + 20) / 64)
    notes = [Note("{bits} bits per key from the table, k = {k}; 1.0 means no filter at all; LeveledCompactionStrategy "
                "tables default to 0.1, others to 0.01", bits=b, k=k)]
    return _flat("cassandra", n, m, k, settings, notes, source)


def rocksdb(n: int, bits_per_key: float = 10.0, legacy: bool = False) -> Built:
    if not 0 < bits_per_key <= 100:
        raise ValueError(f"bits_per_key must be in (0, 100], got {bits_per_key}")
    settings = {"bits_per_key": bits_per_key, "legacy": legacy}
    millibits = round(bits_per_key * 1000)
    if legacy:
        whole = (millibits + 500) // 1000
        k = min(max(int(whole * 0.69), 1), 30)
        lines = math.ceil(n * whole / 512)
        lines += lines % 2 == 0    # odd, so more hash bits decide the line
        m = 512 * lines
        return Built("rocksdb", n, m, k, "lines-512", _line_rate(n, m, k), settings,
                     [Note("whole bits per key {bits}, k = int(0.69 × that), an odd number of 512-bit lines; line and "
                         "probes come from one 32-bit hash, which lifts the real rate above this", bits=whole)],
                     "RocksDB LegacyBloomBitsBuilder (format_version < 5)")
    steps = ((2080, 1), (3580, 2), (5100, 3), (6640, 4), (8300, 5), (10070, 6), (11720, 7), (14001, 8),
             (16050, 9), (18300, 10), (22001, 11), (25501, 12))
    k = next((probes for limit, probes in steps if millibits <= limit), None)
    if k is None:
        k = 24 if millibits > 50000 else (millibits - 1) // 2000 - 1
    nbytes = (n * millibits + 7999) // 8000
    m = 8 * ((nbytes + 63) // 64 * 64)
    return Built("rocksdb", n, m, k, "lines-512", _line_rate(n, m, k) if m else 1.0, settings,
                 [Note("{millibits} millibits per key → k = {k} (FastLocalBloom's table); bytes rounded up to whole "
                     "64-byte cache lines; optimize_filters_for_memory off", millibits=str(millibits), k=k)],
                 "RocksDB FastLocalBloomBitsBuilder::CalculateSpace, FastLocalBloomImpl::ChooseNumProbes")


def parquet(n: int, fpp: float = 0.05, writer: str = "arrow", max_bytes: int = 128 << 20) -> Built:
    if not 0 < fpp < 1:
        raise ValueError(f"fpp must be in (0, 1), got {fpp}")
    if writer == "parquet-java":
        max_bytes = min(max_bytes, 1 << 20)
    bits = -8.0 * n / math.log(1 - fpp ** (1 / 8))
    bits = min(max(int(bits), 256), max_bytes * 8)
    m = min(1 << (bits - 1).bit_length(), max_bytes * 8)
    notes = [Note("m = -8 ndv / ln(1 - fpp^(1/8)), at least 32 bytes, rounded up to a power of two: the rate lands "
                "up to 2x below the target, never above (unless capped)")]
    if writer == "arrow":
        notes.append(Note("Arrow C++ 26 (pyarrow): fpp 0.05, ndv unset = the largest row group's rows; it may then "
                        "fold the filter smaller while its estimate stays under fpp"))
    else:
        notes.append(Note("parquet-java: parquet.bloom.filter.fpp 0.01 by default, at most "
                        "parquet.bloom.filter.max.bytes (1 MiB)"))
    return Built("parquet", n, m, 8, "blocks-256", _sbbf_rate(n, m), {"fpp": fpp, "writer": writer}, notes,
                 "Arrow parquet/bloom_filter.h OptimalNumOfBits; parquet-java BlockSplitBloomFilter.optimalNumOfBits")


def clickhouse(n: int, false_positive: float = 0.025, rows: int = 8192) -> Built:
    """``bloom_filter(false_positive)`` over a granule of ``rows`` rows holding n distinct values."""
    if not 0 < false_positive < 1:
        raise ValueError(f"false_positive must be in (0, 1), got {false_positive}")
    best = None
    min_index = (0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 13, 14)
    for b in range(1, 20):
        if PROBS[b][min_index[b]] <= false_positive:
            for size in range(min_index[b], 0, -1):
                if PROBS[b][size] > false_positive:
                    best = (b, size + 1)
                    break
            if best:
                break
    capped = best is None
    b, k = best or (19, min_index[19])
    m = 64 * math.ceil(math.ceil(b * rows / 8) / 8)
    notes = [Note("{bits} bits per row × {rows} rows per granule, k = {k} (the summary-cache table); the filter is "
                "sized for rows, not distinct values", bits=b, rows=rows, k=k)]
    if capped:
        notes.append(Note("below {rate} the table has no row: ClickHouse falls back to 19 bits per row and k = 13, "
                        "whatever rate was asked", rate=PROBS[19][13]))
    return _flat("clickhouse", n, m, k, {"false_positive": false_positive, "rows": rows}, notes,
                 "ClickHouse BloomFilterHash::calculationBestPractices, MergeTreeIndexGranuleBloomFilter")


def redis(n: int, error_rate: float = 0.01, capacity: int | None = None, noround: bool = False) -> Built:
    if not 0 < error_rate < 1:
        raise ValueError(f"error_rate must be in (0, 1), got {error_rate}")
    capacity = n if capacity is None else capacity
    bpe = -math.log(error_rate) / 0.480453013918201
    if noround:
        bits, entries = max(1, int(capacity * bpe)), capacity
    else:
        n2 = math.frexp(capacity * bpe)[1]    # logb + 1: the next power of two strictly above
        bits = 1 << n2
        entries = capacity + int((bits - capacity * bpe) / bpe)
    m = 64 * math.ceil(bits / 64)
    k = math.ceil(0.693147180559945 * bpe)
    notes = [Note("bits per entry {bits}, k = ceil(ln2 × that) = {k}", bits=(bpe, 3), k=k)]
    if not noround:
        notes.append(Note("bits rounded up to 2^{power}: the link's capacity grows to {entries} entries instead of its "
                        "rate falling (BF.RESERVE ... NOROUND keeps the bits asked)",
            power=(bits - 1).bit_length(), entries=entries))
    return _flat("redis", n, m, k, {"error_rate": error_rate, "capacity": capacity, "noround": noround}, notes,
                 "RedisBloom deps/bloom/bloom.c bloom_init_size")


def git(n: int) -> Built:
    if n > 512:
        # k stays git's 7: the byte of eight 1s answers "maybe" whatever positions a path gets
        return Built("git", n, 8, 7, "flat", 1.0, {}, [Note("more than 512 changed paths: git writes the 1-byte "
                     "'too many changes' filter of all ones, which answers maybe to everything")],
                     "git bloom.c get_or_compute_bloom_filter")
    m = 8 * max(1, math.ceil(n * 10 / 8))
    return _flat("git", n, m, 7, {}, [Note("10 bits per changed path (directories count too), k = 7, whole bytes; "
                                         "0 paths writes one zero byte")], "git bloom.c (bits_per_entry 10, num_hashes 7)")


def ethereum(n: int) -> Built:
    return _flat("ethereum", n, 2048, 3, {}, [Note("every block's and receipt's logsBloom is {m} bits with 3 bits per "
                                                 "address or topic, whatever n is", m=2048)],
                 "Ethereum Yellow Paper, M3:2048")


def spark(n: int, fpp: float = 0.03) -> Built:
    if not 0 < fpp < 1:
        raise ValueError(f"fpp must be in (0, 1), got {fpp}")
    bits = int(-n * math.log(fpp) / LN2SQ)
    k = max(1, round(bits / n * LN2))
    return _flat("spark", n, 64 * math.ceil(bits / 64), k, {"fpp": fpp}, [Note("optimalNumOfBits, whole 64-bit words; "
                 "k from the unrounded bits")], "Spark BloomFilter.create(expectedNumItems, fpp)")


def orc(n: int, fpp: float = 0.05) -> Built:
    if not 0 < fpp < 1:
        raise ValueError(f"fpp must be in (0, 1), got {fpp}")
    nb = int(-n * math.log(fpp) / LN2SQ)
    m = nb + (64 - nb % 64)    # the writer adds a whole word when nb is already a multiple of 64
    k = max(1, round(m / n * LN2))
    return _flat("orc", n, m, k, {"fpp": fpp}, [Note("n is the row index stride ({rows} rows by default) per "
                                                   "filter", rows=10_000)],
                 "ORC BloomFilter.cc BloomFilterImpl(expectedEntries, fpp)")


def hudi(n: int, fpp: float = 1e-9) -> Built:
    if not 0 < fpp < 1:
        raise ValueError(f"fpp must be in (0, 1), got {fpp}")
    m = math.ceil(n * (-math.log(fpp) / LN2SQ))
    k = math.ceil(LN2 * m / n)
    return _flat("hudi", n, m, k, {"fpp": fpp}, [Note("hoodie.index.bloom.num_entries {entries} and fpp 1e-9 by "
                                                    "default; a DYNAMIC_V0 filter adds a row of this size per "
                                                    "num_entries", entries=60_000)],
                 "Hudi BloomFilterUtils.getBitSize, getNumHashes")


ENGINES: dict[str, Callable[..., Built]] = {
    "cassandra": cassandra, "rocksdb": rocksdb, "parquet": parquet, "clickhouse": clickhouse, "redis": redis,
    "git": git, "ethereum": ethereum, "spark": spark, "orc": orc, "hudi": hudi}
