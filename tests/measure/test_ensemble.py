"""Ensembles of random filters: they land on the exact rate (not on Bloom's classic formula) with the default
scheme, and show double hashing's excess at small m."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.measure.ensemble import run_ensemble
from bloomviz.measure.experiment import Cancelled


@pytest.mark.parametrize("m, k, n", [(64, 8, 8), (100, 8, 12), (192, 16, 18)])
def test_the_default_scheme_measures_the_exact_rate(m, k, n):
    result = run_ensemble(m, k, n, filters=100_000, probes=16, seed=11)
    assert result.scheme == hashing.DEFAULT_SCHEME
    ratio = result.mean[-1] / theory.fp_exact(m, k, n)
    assert 0.95 <= ratio <= 1.05
    assert result.low[-1] <= theory.fp_exact(m, k, n) * 1.01 and result.high[-1] >= theory.fp_exact(m, k, n) * 0.99


def test_double_hashing_measures_above_the_exact_rate_at_small_m():
    result = run_ensemble(64, 8, 8, filters=20_000, probes=16, seed=3, scheme="murmur3-km")
    assert result.low[-1] > 1.3 * theory.fp_exact(64, 8, 8)   # about 1.58x, the figure


def test_an_ensemble_tells_the_exact_rate_from_the_classic_one_at_m_32():
    result = run_ensemble(32, 4, 5, filters=60_000, probes=16, seed=5)
    assert result.low[-1] > theory.fp_classic(32, 4, 5)
    assert abs(result.mean[-1] / theory.fp_exact(32, 4, 5) - 1) < 0.02
    assert result.n.tolist() == [1, 2, 3, 4, 5]
    assert np.all(np.diff(result.mean) >= 0) and np.all(result.low <= result.mean)


def test_same_seed_same_numbers_and_cancel():
    a = run_ensemble(16, 3, 2, filters=500, probes=4, seed=9)
    b = run_ensemble(16, 3, 2, filters=500, probes=4, seed=9)
    assert a.mean.tolist() == b.mean.tolist()
    with pytest.raises(Cancelled):
        run_ensemble(16, 3, 2, filters=500, probes=4, cancel=lambda: True)


@pytest.mark.parametrize("kwargs, word", [({"filters": 0}, "filters"), ({"probes": 0}, "probes"),
                                          ({"filters": 10 ** 7, "probes": 1000}, "limit")])
def test_sizes_are_checked_before_any_work(kwargs, word):
    args = {"filters": 10, "probes": 4} | kwargs
    with pytest.raises(ValueError, match=word):
        run_ensemble(16, 3, 2, **args)
