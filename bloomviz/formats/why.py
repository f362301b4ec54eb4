"""Why a system's filter passes more non-members than the rate its users configured: the causes that system's
own code has, with the numbers read from the file.

The field's most asked question about a real filter is "why is my false-positive rate higher than I
configured?". The answer differs per system and is in its code, not in the textbook formula:

- git takes no rate at all: 10 bits per key and k = 7 are fixed in ``bloom.c``, and a commit with more than
  512 paths and leading directories gets a one-byte filter of all ones;
- LevelDB truncates k to ⌊0.69 × bits_per_key⌋ and draws all positions from one 32-bit hash; RocksDB takes k
  from a table and keeps a key's probes in one 512-bit cache line (its legacy Bloom rounds bits per key to a
  whole number); a lookup meets one filter per table whose key range holds the key;
- Cassandra picks bits per key and k from ``BloomCalculations``' table for ``bloom_filter_fp_chance``, for the
  partitions it expected, and the chance is per SSTable;
- Ethereum's logsBloom is 2,048 bits and k = 3 whatever it holds, so busy blocks saturate;
- a Parquet writer sizes each column chunk's split-block filter from the distinct values it is told to expect
  (ndv), which the file does not keep; Hudi sizes each row for a fixed number of record keys.

``why(fmt, filters)`` returns these for the chosen filters of one file (``inspect`` prints them, ``--json``
gives them as ``why``, the window's Other libraries' filter tab lists them); a format without such knowledge
returns none. Every rate named is either read or computed from the file (the fill's prediction, the system's
own sizing rule) or a formula named as such; the per-format rules live in ``why_rules`` beside the LSM ones in
``why_lsm``.

Each reason is a ``Reason``: a ``str`` holding its English text (what ``inspect`` prints, unchanged), made of
``Part``s that keep their template and values (``formats.reasons``), so that the window writes it in its own
language (``render(reason, tr, number, marks)``).
"""

from __future__ import annotations

from typing import Callable

from bloomviz.formats.common import ForeignFilter
from bloomviz.formats.reasons import Reason


Rule = Callable[[list[ForeignFilter]], list[Reason]]


def _rules() -> dict[str, Rule]:
    from bloomviz.formats import why_lsm, why_rules
    return {"git": why_rules.git, "ethereum": why_rules.ethereum, "cassandra": why_rules.cassandra,
            "parquet": why_rules.parquet, "hudi": why_rules.hudi, "leveldb": why_lsm.leveldb,
            "rocksdb": why_lsm.rocksdb}


def why(fmt: str, filters: list[ForeignFilter]) -> list[Reason]:
    """The reasons, for ``filters`` read as ``fmt``, that its rate can be above what was configured."""
    rule = _rules().get(fmt)
    return [] if rule is None or not filters else rule(list(filters))
