"""bloomviz as a library: the public API, a facade over the packages that hold the code.

    from bloomviz.core import BloomFilter, hashing, theory, storage
    from bloomviz.core import CountingBloomFilter, ScalableBloomFilter, PartitionedBloomFilter, BlockedBloomFilter

The code lives in one folder per concept (``bloomviz.theory``, ``bloomviz.hashing``, ``bloomviz.items``,
``bloomviz.filters``, ``bloomviz.measure``, ``bloomviz.files``, ...); the modules programs have imported by
their old names (``bloomviz.core.theory``, ``bloomviz.core.storage``, ...) are the same module objects under
both names, so ``import bloomviz.core.theory`` and ``from bloomviz.core.storage import load`` keep working.
Nothing here imports Qt.
"""

import sys

from bloomviz.files import session, storage
from bloomviz.filters import bitstore
from bloomviz.filters import standard as filters
from bloomviz.filters import variants
from bloomviz.filters.standard import BloomFilter, Insertion, Lookup
from bloomviz.filters.variants import (BlockedBloomFilter, CountingBloomFilter, PartitionedBloomFilter,
                                       ScalableBloomFilter)
from bloomviz.hashing import schemes as hashing
from bloomviz.items import encoding as items
from bloomviz.theory import rates as theory
from bloomviz.theory import units

for _name, _module in {"bitstore": bitstore, "filters": filters, "hashing": hashing, "items": items,
                       "session": session, "storage": storage, "theory": theory, "units": units,
                       "variants": variants}.items():
    sys.modules.setdefault(f"{__name__}.{_name}", _module)

__all__ = ["BloomFilter", "BlockedBloomFilter", "CountingBloomFilter", "Insertion", "Lookup",
           "PartitionedBloomFilter", "ScalableBloomFilter", "bitstore", "filters", "hashing", "items",
           "session", "storage", "theory", "units", "variants"]
