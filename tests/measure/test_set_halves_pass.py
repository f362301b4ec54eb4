"""ProbeBits.set_halves's setting pass against a plain reference: the positions of mixed_rows set one at a
time in insertion order, each counted for its row when its bit was 0, for every way a position is scaled
(multiply-high below 2^32, a mask at a power of two from 2^32, a modulo past 2^32)."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz import small_pages
from bloomviz.hashing.mixed_kernel import mixed_rows
from bloomviz.measure.first_flips import ProbeBits


def _one_at_a_time(bytes_before: dict[int, int], rows: np.ndarray):
    """(each row's new bits, the positions whose bit turned in order, every touched byte after)."""
    after = dict(bytes_before)
    new_per_row, fresh = np.zeros(rows.shape[0], dtype=np.int64), []
    for r, row in enumerate(rows):
        for p in map(int, row):
            bit = 1 << (p & 7)
            if not after[p >> 3] & bit:
                after[p >> 3] |= bit
                new_per_row[r] += 1
                fresh.append(p)
    return new_per_row, fresh, after


def _zeros(size: int) -> np.ndarray:
    """A zeroed byte array whose pages never written stay unallocated: on small pages (numpy's np.zeros of 512 MiB
    takes transparent huge pages, and this test's few thousand random writes then zeroed every 2 MiB of it: 3 s)."""
    view = small_pages.empty(size, np.uint8)     # (a fresh mapping reads as zero from 4 MiB)
    if size < small_pages.HUGE_FROM:
        view[:] = 0
    return view


@pytest.mark.parametrize("m, k", [(9_585_059, 7), ((1 << 26) + 3, 20), (1 << 32, 20), (3 * (1 << 31) + 7, 5)])
def test_set_halves_sets_and_counts_as_one_position_at_a_time(m, k):
    rng = np.random.default_rng(k)
    n = 300
    h1 = rng.integers(0, 2 ** 63, n, dtype=np.int64).astype(np.uint64) * np.uint64(5)
    h2 = rng.integers(0, 2 ** 63, n, dtype=np.int64).astype(np.uint64) | np.uint64(1)
    h1[7], h2[7] = h1[3], h2[3]                  # an item again: its bits are all set by then
    rows = mixed_rows(h1, h2, m, k)
    view = _zeros((m + 7) // 8)
    before = rows[::5, 0]                          # bits set before the batch (positions of its own)
    view[before >> 3] |= np.left_shift(np.uint8(1), (before & 7).astype(np.uint8))
    touched = np.unique(rows >> 3)
    expected_counts, expected_fresh, expected_after = _one_at_a_time(dict(zip(touched.tolist(), view[touched].tolist())),
                                                                     rows)
    probe_bits = ProbeBits(np.array([rows[10, 1], rows[200, 2]]), m)
    new_per_row, _ = probe_bits.set_halves(view, h1, h2, m, k)
    assert np.array_equal(new_per_row, expected_counts) and new_per_row[7] == 0 and 0 < len(expected_fresh) < n * k
    assert probe_bits._fresh[:len(expected_fresh)].tolist() == expected_fresh
    assert view[touched].tolist() == [expected_after[b] for b in touched.tolist()]
