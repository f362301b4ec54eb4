"""``bloomviz.core.BloomFilter`` keeps a small, set-like public API (issue 22 item 2; rbloom's whole API fits on a
page): at most 20 public names. The window's words are the describers' (explain/), the batch rows, the saved
state and the scheme object are functions of filters/ (rows.py, persist.py), capabilities and parameters are one
declaration. A name added here is a decision: this list changes with it.

Each other variant ``bloomviz.core`` exports answers the same names (less what it cannot be), its declared
parameters (``capabilities.parameters``) and the few names of its own listed in ``OWN``: a scalable filter's
stages are one ``stages`` object (filters/stages.py), and what the exact measurement needs of its newest stage is
a helper object there, not members of the filter.
"""

from __future__ import annotations

import pytest

from bloomviz.core import (BlockedBloomFilter, BloomFilter, CountingBloomFilter, PartitionedBloomFilter,
                           ScalableBloomFilter)

PUBLIC = {
    "add", "update", "lookup", "contains_many", "positions", "positions_many", "copy", "clear",   # the set's work
    "m", "k", "scheme", "variant", "capabilities", "bits", "bits_set", "nbytes", "for_capacity",  # what it is
    "estimated_count", "expected_fp", "theory_fp",                                               # its numbers
}


def test_the_public_api_is_small_and_set_like():
    names = {name for name in dir(BloomFilter) if not name.startswith("_")}
    assert names == PUBLIC and len(names) <= 20
    # the set's own operators work as they do on a set
    a, b = BloomFilter(256, 3), BloomFilter(256, 3)
    a.update(["x", "y"])
    b.add("z")
    assert "x" in a and "z" in (a | b) and "z" not in (a & b) and len(a.copy()) == 2


# names of its own besides BloomFilter's and its declared parameters; and the set's names it lacks (a scalable
# filter has no single bit array, and is built from a capacity and a bound, not sized by them)
OWN = {
    CountingBloomFilter: ({"remove", "counters", "counter", "max_counter", "highest_counter", "saturated_count",
                           "values_for_grid"}, set()),
    ScalableBloomFilter: ({"stages", "values_for_grid"}, {"bits", "for_capacity"}),
    PartitionedBloomFilter: ({"slice_bits", "slice_fills", "slice_offsets", "values_for_grid"}, set()),
    BlockedBloomFilter: ({"blocks", "block_of", "block_counts", "values_for_grid"}, set()),
}


def _public(cls) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


@pytest.mark.parametrize("cls", list(OWN), ids=lambda cls: cls.__name__)
def test_each_variant_adds_only_its_parameters_and_a_few_names(cls):
    own, lacks = OWN[cls]
    declared = {param.name for param in cls.capabilities.parameters}
    names = _public(cls)
    assert names - PUBLIC - declared == own
    assert PUBLIC - names == lacks


def test_a_scalable_filters_stages_are_one_object():
    flt = ScalableBloomFilter(5, 0.01)
    flt.update([f"item{i}" for i in range(16)])     # 5 + 10 fill stages 0 and 1, the 16th opens stage 2
    stages = flt.stages
    assert len(stages) == 3 and [len(s) for s in stages] == [5, 10, 1]
    assert stages.offsets == (0, stages[0].m, stages[0].m + stages[1].m)
    assert stages.ks == tuple(s.k for s in stages) and stages.specs[-1].index == 2
    assert [stages.of_bit(off) for off in stages.offsets] == [0, 1, 2] and stages.of_bit(flt.m - 1) == 2
    with pytest.raises(ValueError, match="bit index"):
        stages.of_bit(flt.m)
