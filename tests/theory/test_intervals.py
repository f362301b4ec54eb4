"""The one Wilson interval: the array form and the checked scalar form are the same numbers."""

import numpy as np
import pytest

from bloomviz.theory.intervals import wilson_interval, wilson_many


@pytest.mark.parametrize("trials", [1, 7, 1000, 10 ** 7, 10 ** 12])
def test_the_array_form_equals_the_scalar_form_bit_for_bit(trials):
    hits = np.unique(np.linspace(0, trials, 41).round().astype(np.int64))
    low, high = wilson_many(hits, trials)
    for h, lo, hi in zip(hits, low, high):
        assert (lo, hi) == wilson_interval(int(h), trials)


def test_the_edges_are_exact():
    low, high = wilson_many(np.array([0, 5, 5]), 5)
    assert low[0] == 0.0 and high[1] == 1.0 and high[2] == 1.0
    assert wilson_many(np.array([0, 0]), 0)[1].tolist() == [1.0, 1.0]


def test_a_few_hits_keep_a_positive_low_end():
    low, _ = wilson_many(np.array([1]), 10 ** 12)
    assert 0 < low[0] < 1e-12


def test_bad_counts_are_refused_naming_them():
    with pytest.raises(ValueError, match="hits must lie in \\[0, trials = 10\\], got 11"):
        wilson_many(np.array([3, 11]), 10)
    with pytest.raises(ValueError, match="got -1"):
        wilson_many(np.array([-1]), 10)
    with pytest.raises(ValueError, match="z must be"):
        wilson_many(np.array([1]), 10, z=0)
