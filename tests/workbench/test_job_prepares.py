"""A long job's first step builds the measurement's probe-bit map and inserts nothing (inside the first chunk it
made that chunk's turn of the event loop 11-15 ms of CPU); what the job then measures is what a model that built
the map inside its first batch measures."""

from __future__ import annotations

import numpy as np

from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing import cold_paths
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.workbench.model import Workbench

M, K = 50_000, 4
ITEMS = [f"item-{i}" for i in range(6_000)]


def test_the_first_step_prepares_the_measurement_and_inserts_nothing(monkeypatch):
    # the compiled passes in use, as in a warm window (while the warm-up loads them, a batch takes the cold
    # path, which needs no map, and neither the step nor the chunks build it)
    monkeypatch.setattr(cold_paths, "use_cold_path", lambda *_: False)
    wb = Workbench(probes=1_000)
    assert wb.configure(M, K)
    assert not wb.tracker.prepared
    assert wb.insert_many(ITEMS)
    assert wb.step_job()
    assert wb.tracker.prepared and len(wb.filter) == 0 and wb.busy
    wb.run_to_end()
    assert len(wb.filter) == len(ITEMS) and not wb.busy


def test_a_prepared_job_measures_what_an_unprepared_batch_measures():
    jobbed, batched = Workbench(probes=1_000), Workbench(probes=1_000)
    for wb in (jobbed, batched):
        assert wb.configure(M, K)
    assert jobbed.insert_many(ITEMS)
    jobbed.run_to_end()
    assert batched.insert_batch(ITEMS) == len(ITEMS)
    assert jobbed.filter.bits == batched.filter.bits
    assert jobbed.state.measure.fp_count == batched.state.measure.fp_count > 0
    # the job's rows (several chunks) end where the one batch ends
    for column in ("n", "fp_measured"):
        assert jobbed.series.column(column)[-1] == batched.series.column(column)[-1]


def test_a_tracker_prepared_ahead_counts_as_one_that_was_not(monkeypatch):
    monkeypatch.setattr(cold_paths, "use_cold_path", lambda *_: False)
    probes = [f"probe-{i}" for i in range(2_000)]
    rows = np.random.default_rng(5).integers(0, M, (3_000, K))
    counts = []
    for prepare in (True, False):
        flt = BloomFilter(M, K)
        tracker = FpTracker(flt, probes)
        if prepare:
            tracker.prepare()
            assert tracker.prepared
        counts.append(tracker.insert_batch(rows, flt))
    for ahead, inside in zip(*counts):
        np.testing.assert_array_equal(ahead, inside)
    assert counts[0][0][-1] > 0
