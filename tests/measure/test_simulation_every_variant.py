"""A Simulation's rows equal one insert at a time looked up on every probe, for every variant it accepts and
every path its steps take: given str or bytes items by their hash halves (repeated items, items a probe draw
would give), generated items, tiny filters and powers of two, k from 1 to 20, steps small enough that the exact
count crosses many batch borders."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters.registry import make_filter
from bloomviz.measure.experiment import Simulation

N, PROBES = 150, 40


def _items(kind: str, seed: int) -> list | None:
    if kind == "generated":
        return None
    rng = np.random.default_rng(seed)
    items = [f"x{v}" for v in rng.integers(0, N // 2, N)]          # about half of them repeats
    drawn = Simulation(m=64, k=1, n=1, probes=PROBES, seed=seed).measurement.probes
    items[::17] = drawn[: len(items[::17])]                         # what the probe draw gives first
    return [t.encode() for t in items] if kind == "bytes" else items


def _one_at_a_time(make, items, probes) -> tuple[list[int], list[int]]:
    flt, fps, bits = make(), [], []
    for item in items:
        flt.add(item)
        fps.append(int(np.count_nonzero(flt.contains_many(probes))))
        bits.append(flt.bits_set)
    return fps, bits


PLAIN = [dict(m=1, k=1), dict(m=2, k=20), dict(m=64, k=7), dict(m=256, k=3), dict(m=1000, k=20), dict(m=128, k=1)]
OTHERS = [("standard", dict(m=300, k=5, scheme="murmur3-km")), ("counting", dict(m=512, k=4, counter_bits=2)),
          ("partitioned", dict(m=600, k=6)), ("blocked", dict(m=320, k=5, block_bits=64)),
          ("scalable", dict(initial_capacity=8, p=0.2))]
# the plain murmur3-mix filter's steps go by hash halves (given str or bytes, and generated items); the others'
# by rows of positions or their own inserts
CASES = ([("standard", params, kind) for params in PLAIN for kind in ("str", "bytes", "generated")]
         + [(variant, params, kind) for variant, params in OTHERS for kind in ("str", "generated")])


@pytest.mark.parametrize("variant, params, kind", CASES, ids=lambda c: str(c))
def test_each_row_is_one_insert_at_a_times_count(variant, params, kind):
    make = lambda: make_filter(variant, **params)       # noqa: E731
    items = _items(kind, seed=len(variant) + params.get("k", 0))
    sim = Simulation(flt=make(), items=items, n=None if items else N, probes=PROBES, seed=3)
    series = sim.run(every=1, chunk=23)
    probes = sim.measurement.probes
    given = items if items is not None else sim.items.texts(0, N)
    assert items is None or not set(probes) & set(items)
    fps, bits = _one_at_a_time(make, given, probes)
    np.testing.assert_array_equal(series.column("n"), np.arange(1, N + 1))
    np.testing.assert_array_equal(np.rint(series.column("fp_measured") * len(probes)), fps)
    if variant != "scalable":          # (its m grows: its fill is per stage)
        np.testing.assert_array_equal(np.rint(series.column("fill") * sim.filter.m), bits)
    assert 0 < fps[-1] or variant == "scalable"      # the case reaches false positives
