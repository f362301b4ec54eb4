"""The Bloom filter variants beside the standard ``BloomFilter``, gathered in one place.

- ``CountingBloomFilter`` (counting.py): c-bit saturating counters; ``remove``.
- ``ScalableBloomFilter`` (scalable.py): stages that grow, compound error bound p.
- ``PartitionedBloomFilter`` (partitioned.py): k slices, one position per slice; ``partitioned_fp``.
- ``BlockedBloomFilter`` (blocked.py): all k positions in one 512-bit block; ``blocked_fp``.

``registry`` maps the variant ids to these classes and builds any of them from validated arguments.
"""

from bloomviz.filters.blocked import BlockedBloomFilter, blocked_fp, blocked_fp_curve
from bloomviz.filters.counting import CountingBloomFilter, CountingInsertion, CountingLookup, Removal
from bloomviz.filters.partitioned import PartitionedBloomFilter, partitioned_fp
from bloomviz.filters.scalable import ScalableBloomFilter, ScalableLookup, StageInsertion
from bloomviz.filters.scalable_stages import StageSpec, scalable_fp, stage_spec

__all__ = ["BlockedBloomFilter", "CountingBloomFilter", "CountingInsertion", "CountingLookup",
           "PartitionedBloomFilter", "Removal", "ScalableBloomFilter", "ScalableLookup", "StageInsertion",
           "StageSpec", "blocked_fp", "blocked_fp_curve", "partitioned_fp", "scalable_fp", "stage_spec"]
