"""The window up to 10^8 bits: the limit (checked before anything is allocated), the plot's series thinned past
a threshold with the exact rows kept, and the grid drawn from the packed bits' changes during bulk work."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters import bitstore
from bloomviz.workbench import limits
from bloomviz.workbench import model as model_mod
from bloomviz.workbench.model import Workbench

BIG_M, BIG_K = 95_850_584, 7     # the 1 % design for 10^7 items


def test_the_one_percent_design_for_ten_million_items_fits_the_window():
    assert limits.design_params(10_000_000, 0.01) == (BIG_M, BIG_K)
    wb = Workbench(probes=100)
    assert wb.design(10_000_000, 0.01) == (BIG_M, BIG_K)
    assert (wb.filter.m, wb.filter.k, wb.capacity) == (BIG_M, BIG_K, 10_000_000)
    wb.insert_batch([f"w{i}" for i in range(1000)])
    assert len(wb.filter) == 1000 and wb.series.column("n")[-1] == 1000


def test_above_the_limit_is_refused_naming_it_before_any_allocation(monkeypatch):
    wb = Workbench(probes=100)
    before = wb.filter
    errors = []
    wb.events.error.connect(errors.append)

    def no_allocation(m):
        raise AssertionError(f"{m:,} bits were allocated for a refused filter")

    monkeypatch.setattr(bitstore, "new_bits", no_allocation)
    assert not wb.configure(limits.MAX_M + 1, 7)
    assert wb.design(20_000_000, 0.01) is None
    assert wb.filter is before
    assert len(errors) == 2 and all(f"{limits.MAX_M:,}" in e for e in errors)
    assert "100,000,001" in errors[0] and "191,701,168" in errors[1]


def _job(wb: Workbench, items: list[str], chunk: int) -> None:
    wb.insert_many(items)
    wb._jobs.job.chunk = chunk
    wb._jobs.job.min_chunk = wb._jobs.job.chunk
    while wb.busy:
        wb._jobs.job.chunk = chunk       # fixed chunks, so that both runs cut their batches at the same n
        wb.step_job()


def test_series_thinning_keeps_exact_rows_and_the_last_one(monkeypatch):
    items = [f"t{i}" for i in range(6_000)]
    dense = Workbench(probes=500)
    dense.configure(20_000, 4)
    _job(dense, items, 700)
    assert len(dense.series) == 6_000

    monkeypatch.setattr(model_mod, "DENSE_ROWS", 1_000)
    monkeypatch.setattr(model_mod, "THIN_EVERY", 64)
    thin = Workbench(probes=500)
    thin.configure(20_000, 4)
    _job(thin, items, 700)
    n = thin.series.column("n").astype(np.int64)
    assert n[-1] == 6_000 == len(thin.filter)
    assert np.all(np.diff(n) > 0)
    assert np.array_equal(n[:1_000], np.arange(1, 1_001))
    later = n[1_000:]
    chunk_ends = set(range(700, 6_001, 700)) | {6_000}
    assert all(v % 64 == 0 or v in chunk_ends for v in later.tolist())
    assert len(n) == 1_000 + len([v for v in range(1_001, 6_001) if v % 64 == 0 or v in chunk_ends])
    for col in ("n", "fp_measured", "fp_low", "fp_high", "fill", "n_estimated"):    # measured: bit for bit
        np.testing.assert_array_equal(thin.series.column(col), dense.series.column(col)[n - 1], err_msg=col)
    for col in ("fp_exact", "fp_approx", "fp_bound", "fill_expected", "fp_classic"):
        # theory over a batch's n vector: the same formula, rounded alike to a few units in the last place
        np.testing.assert_allclose(thin.series.column(col), dense.series.column(col)[n - 1], rtol=1e-12,
                                   err_msg=col)
    # a single insert past the threshold keeps its row; undo cuts the thinned series back exactly
    thin.insert("one more")
    assert thin.series.column("n")[-1] == 6_001
    thin.undo()
    assert thin.series.column("n")[-1] == 6_000 and len(thin.series) == len(n)


def test_a_job_reserves_only_the_rows_it_keeps():
    assert model_mod.kept_rows(0, 10_000_000) < 1_200_000
    assert model_mod.kept_rows(0, 5_000) >= 5_000


def test_a_chunk_of_consecutive_inserts_keeps_the_rows_the_rule_names():
    # a job's chunk is thinned by arithmetic on its first n; the rule it must follow, row by row
    from bloomviz.workbench.model import DENSE_ROWS, THIN_EVERY, thin_mask
    for lo in [DENSE_ROWS - 150, DENSE_ROWS - 1, DENSE_ROWS, DENSE_ROWS + 1, DENSE_ROWS + 37, 7 * 10 ** 7 + 1]:
        for size in (1, 2, THIN_EVERY - 1, THIN_EVERY, THIN_EVERY + 1, 3_333):
            n = np.arange(lo, lo + size, dtype=np.int64)
            rule = (n <= DENSE_ROWS) | (n % THIN_EVERY == 0)
            rule[-1] = True
            got = thin_mask(n)
            assert (got is None) == bool(rule.all() and n[-1] <= DENSE_ROWS)
            if got is not None:
                assert np.array_equal(np.flatnonzero(rule), np.asarray(got)), (lo, size)
