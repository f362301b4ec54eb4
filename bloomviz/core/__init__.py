"""The pure core: filters, hash schemes, theory, live measurement, storage. Never imports Qt."""

from bloomviz.core import hashing, items
from bloomviz.core.filters import BloomFilter, Insertion, Lookup
from bloomviz.core.variants import (BlockedBloomFilter, CountingBloomFilter, PartitionedBloomFilter,
                                    ScalableBloomFilter)

try:  # theory is written alongside; keep the core importable while it lands
    from bloomviz.core import theory
except ImportError:  # pragma: no cover
    theory = None

__all__ = ["BloomFilter", "BlockedBloomFilter", "CountingBloomFilter", "Insertion", "Lookup",
           "PartitionedBloomFilter", "ScalableBloomFilter", "hashing", "items", "theory"]
