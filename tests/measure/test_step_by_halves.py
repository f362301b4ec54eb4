"""A measurement's step given its items' hash halves: taken by a plain murmur3-mix filter, refused by any other
before anything changes (the bits it would set are not that filter's: its own items would then be missing)."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters.registry import make_filter
from bloomviz.measure.given_items import murmur_halves
from bloomviz.measure.pipeline import Measurement

ITEMS = [f"a{i}" for i in range(50)]
PROBES = [f"p{i}" for i in range(20)]


def _halves():
    h1, h2 = murmur_halves(ITEMS)
    return h1, h2 | np.uint64(1)


@pytest.mark.parametrize("variant, params", [("counting", dict(m=500, k=3)),
                                             ("standard", dict(m=500, k=3, scheme="murmur3-km")),
                                             ("partitioned", dict(m=500, k=3)),
                                             ("blocked", dict(m=512, k=3, block_bits=64)),
                                             ("scalable", dict(initial_capacity=20, p=0.01))])
def test_a_filter_placing_items_otherwise_refuses_hash_halves_and_stays_as_it_was(variant, params):
    flt = make_filter(variant, **params)
    measurement = Measurement(flt, PROBES, ITEMS)
    with pytest.raises(ValueError, match="murmur3-mix"):
        measurement.step(len(ITEMS), halves=_halves())
    assert len(flt) == 0 and flt.bits_set == 0 and measurement.taken == 0 and measurement.n == 0
    measurement.step(len(ITEMS))                 # the items themselves: all there
    assert flt.contains_many(ITEMS).all()


@pytest.mark.parametrize("per_insert", [True, False])
def test_a_plain_murmur3_mix_filter_takes_them(per_insert):
    flt = make_filter("standard", m=500, k=3)
    measurement = Measurement(flt, PROBES, ITEMS, per_insert=per_insert)
    measurement.step(len(ITEMS), halves=_halves())
    assert len(flt) == 50 and flt.contains_many(ITEMS).all()
