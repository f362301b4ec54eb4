"""bitstore for big filters: huge pages change nothing a filter can see, and set_bits is exact whichever path
(dense mask, scatter with read-back) it takes."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters import bitstore


def test_a_big_new_filter_is_all_zeros_of_length_m_and_takes_bits():
    m = 8 * bitstore._HUGE_MIN_BYTES + 13                 # past the huge-page threshold, not a whole byte
    bits = bitstore.new_bits(m)
    assert len(bits) == m and bits.count() == 0
    positions = np.array([0, 7, 8, m // 2, m - 1, m - 1], dtype=np.int64)
    bitstore.set_bits(bits, positions)
    assert bits.count() == 5
    assert bitstore.test_bits(bits, positions).tolist() == [1] * 6
    assert bitstore.test_bits(bits, np.array([1, m - 2])).tolist() == [0, 0]


def test_huge_pages_keep_a_zeroed_buffer_zero_and_skip_small_ones():
    zeroed = np.zeros(6 << 20, dtype=np.uint8)
    took = bitstore._huge_pages(zeroed)
    assert isinstance(took, bool)
    assert not zeroed.any()
    zeroed[::4096] = 1                                     # the refaulted pages are ordinary memory
    assert np.count_nonzero(zeroed) == zeroed.size // 4096
    assert bitstore._huge_pages(np.zeros(1 << 20, dtype=np.uint8)) is False   # no whole 2 MiB page inside


@pytest.mark.parametrize("m, count", [(1_000, 50), (1_000, 5_000), (3_000_000, 20_000), (3_000_000, 900_000)])
def test_set_bits_sets_exactly_the_positions_on_either_path(m, count):
    rng = np.random.default_rng(m + count)
    bits = bitstore.new_bits(m)
    positions = rng.integers(0, m, count)
    bitstore.set_bits(bits, positions)
    expected = np.zeros(m, dtype=np.uint8)
    expected[positions] = 1
    assert np.array_equal(bitstore.unpack(bits), expected)
