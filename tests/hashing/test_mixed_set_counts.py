"""murmur3-mix's set loop counts the bits a batch turns on either way: as it sets them (a large filter, a small
batch) or by counting the array before and after (a filter with no more bytes than the batch has positions);
both set the bits the reference positions name."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.hashing.mixed_kernel import _count_after, _count_bits, mixed_rows, set_from_halves


@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 4_099])
def test_the_bit_count_of_a_byte_array_of_any_length(size):
    view = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8)
    assert _count_bits(view) == int(np.unpackbits(view).sum())


@pytest.mark.parametrize("m, n", [(1_000, 500), (100_003, 50), (1 << 24, 20_000), (1 << 24, 10)])
def test_fresh_bits_counted_either_way_match_the_reference_positions(m, n):
    rng = np.random.default_rng(m + n)
    k = 5
    view = np.zeros((m + 7) // 8, dtype=np.uint8)
    for _ in range(2):            # the second batch lands on bits the first set
        h1 = rng.integers(0, 1 << 63, n, dtype=np.uint64)
        h2 = rng.integers(0, 1 << 63, n, dtype=np.uint64) | np.uint64(1)
        expected = view.copy()
        positions = mixed_rows(h1, h2, m, k).ravel()
        before = int(np.unpackbits(expected).sum())
        np.bitwise_or.at(expected, positions >> 3, (1 << (positions & 7)).astype(np.uint8))
        fresh = set_from_halves(h1, h2, m, k, view)
        assert np.array_equal(view, expected)
        assert fresh == int(np.unpackbits(expected).sum()) - before


def test_which_way_counts():
    assert _count_after(np.zeros(1_000, np.uint8), 8_000, positions=7_000)
    assert not _count_after(np.zeros(1_000, np.uint8), 8_000, positions=700)
    assert not _count_after(np.zeros(1_000, np.uint8), 1 << 32, positions=1 << 40)     # 2^32 bits: as it goes
