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


def test_a_big_filter_on_its_own_mapping_copies_pickles_saves_and_combines_as_any_other(tmp_path):
    import mmap
    import pickle

    from bloomviz.core import BloomFilter, storage

    m = 8 * bitstore._HUGE_MIN_BYTES                      # whole bytes: the mapped path where Linux has it
    a, b = BloomFilter(m, 3), BloomFilter(m, 3)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        info = a._bits.buffer_info()
        assert info.imported and info.address % bitstore._HUGE == 0
    a.add("x"), b.add("y")
    copy = a.copy()
    copy.add("z")
    assert "z" not in a and "z" in copy and a._bits.count() == 3
    back = pickle.loads(pickle.dumps(a))
    assert back == a and "x" in back
    storage.save(a, tmp_path / "a.bloom")
    assert storage.load(tmp_path / "a.bloom") == a
    union = a | b
    assert "x" in union and "y" in union and "y" not in a
    a.clear()
    assert a._bits.count() == 0 and len(a._bits) == m
