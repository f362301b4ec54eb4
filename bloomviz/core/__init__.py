"""bloomviz as a library: the public API, a facade over the packages that hold the code.

    from bloomviz.core import BloomFilter, hashing, theory, storage
    from bloomviz.core import CountingBloomFilter, ScalableBloomFilter, PartitionedBloomFilter, BlockedBloomFilter

The code lives in one folder per concept (``bloomviz.theory``, ``bloomviz.hashing``, ``bloomviz.items``,
``bloomviz.filters``, ``bloomviz.measure``, ``bloomviz.files``, ...); the names here are those modules and
classes, so ``bloomviz.core.storage.save`` is ``bloomviz.files.storage.save``. Nothing here imports Qt.
Importing it also installs the filters' HTML view for Jupyter (bloomviz.explain.notebook_table).
"""

from bloomviz.explain import notebook_table  # noqa: F401 - installs the filters' _repr_html_ view

from bloomviz.files import session, storage
from bloomviz.filters import bitstore
from bloomviz.filters import standard as filters
from bloomviz.filters.blocked import BlockedBloomFilter
from bloomviz.filters.counting import CountingBloomFilter
from bloomviz.filters.partitioned import PartitionedBloomFilter
from bloomviz.filters.scalable import ScalableBloomFilter
from bloomviz.filters.standard import BloomFilter, Insertion, Lookup
from bloomviz.hashing import schemes as hashing
from bloomviz.items import encoding as items
from bloomviz.theory import rates as theory
from bloomviz.theory import units

__all__ = ["BloomFilter", "BlockedBloomFilter", "CountingBloomFilter", "Insertion", "Lookup",
           "PartitionedBloomFilter", "ScalableBloomFilter", "bitstore", "filters", "hashing", "items",
           "session", "storage", "theory", "units"]
