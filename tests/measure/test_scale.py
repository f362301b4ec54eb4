"""Simulations of generated items: rows kept every E inserts equal the full series there, the measurement stays
exact against brute force, and the command line's limits are checked before anything is allocated."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from bloomviz.commands.simulate import MAX_ROWS, build_simulation
from bloomviz.measure.experiment import Simulation
from bloomviz.items.generated import GeneratedItems


def test_rows_every_e_are_the_full_series_at_those_inserts():
    full = Simulation(20_000, 5, 3_001, probes=3_000, seed=4).run(chunk=700)
    kept = Simulation(20_000, 5, 3_001, probes=3_000, seed=4).run(every=250, chunk=700)
    idx = np.append(np.arange(249, 3_001, 250), 3_000)
    assert len(kept) == idx.size
    for column in ("n", "fp_measured", "fp_low", "fp_high", "fill", "n_estimated"):   # measured: identical
        assert np.array_equal(kept.column(column), full.column(column)[idx]), column
    for column in full.COLUMNS:   # theory computed at fewer n (the exact curve's cache) agrees to rounding
        assert np.allclose(kept.column(column), full.column(column)[idx], rtol=1e-9, atol=0), column


def test_generated_simulation_is_exact_against_brute_force():
    sim = Simulation(6_000, 4, 1_500, probes=2_000, seed=9)
    sim.run(chunk=333)
    items = list(sim.items)
    assert isinstance(sim.items, GeneratedItems) and len(set(items)) == 1_500
    assert not set(items) & set(sim.tracker.probes)            # non-members by construction
    assert sim.tracker.fp_count == int(sim.filter.contains_many(sim.tracker.probes).sum()) > 0
    assert sim.filter.bits_set == sim.filter.bits.count() == sim.series.column("fill")[-1] * 6_000
    assert all(item in sim.filter for item in items[::50])


def _args(**given):
    base = dict(m=1000, k=3, p=None, n=None, items=None, probes=None, seed=0, every=1, variant="standard",
                scheme="murmur3-mix", counter_bits=None, initial_capacity=None, growth=None, tightening=None,
                block_bits=None)
    base.update(given)
    return argparse.Namespace(**base)


def test_simulate_limits_rows_not_generated_items():
    with pytest.raises(ValueError, match=f"at most {MAX_ROWS:,}"):
        build_simulation(_args(n=440_000_000, every=1))
    sim = build_simulation(_args(n=440_000_000, every=1_000_000))     # nothing per item is allocated
    assert len(sim.items) == 440_000_000


def test_every_must_be_positive():
    with pytest.raises(ValueError, match="every"):
        Simulation(100, 2, 10, probes=10).run(every=0)

