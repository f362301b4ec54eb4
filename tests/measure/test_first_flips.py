"""The compiled bit passes against one insert at a time: ProbeBits.flip_rows names the same new bits per row
and the same flip row for every probe bit, and leaves the same bits; set, AND and all-set agree with plain numpy;
positions outside [0, m) are refused before any write."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters import bit_kernels
from bloomviz.measure import first_flips
from bloomviz.measure.first_flips import ProbeBits


def _case(rng, m: int, preset: int, n: int, k: int):
    bits = np.zeros(m, dtype=np.uint8)
    bits[rng.integers(0, m, preset)] = 1
    view = np.packbits(np.append(bits, np.zeros(-m % 8, np.uint8)), bitorder="little")
    return bits, view, rng.integers(0, m, (n, k))


def _unpacked(view, m):
    return np.unpackbits(view, bitorder="little")[:m]


@pytest.mark.parametrize("bitmap", ["exact", "hashed"])
@pytest.mark.parametrize("m, k, n", [(8, 1, 50), (64, 3, 40), (5_000, 7, 3_000), (200_000, 4, 40_000),
                                     (40_000_000, 20, 5_000)])
def test_flip_rows_is_one_insert_at_a_time(m, k, n, bitmap, monkeypatch):
    # small filters get a bitmap of their own size, large ones a hashed one: both on every size here
    monkeypatch.setattr(first_flips, "EXACT_MAX_M", 1 << 40 if bitmap == "exact" else 0)
    rng = np.random.default_rng(m + k)
    bits, view, rows = _case(rng, m, m // 3, n, k)
    probe_bits = np.sort(np.concatenate([rng.integers(0, m, 300), rows[rng.integers(0, n, 50), 0],
                                         rows[:5, 1 % k]]))          # repeats, and bits of the batch
    before = bits.copy()
    new_per_row = []
    turned_at = {}
    for r, row in enumerate(rows.tolist()):
        fresh = 0
        for p in row:
            if not bits[p]:
                bits[p] = 1
                fresh += 1
                turned_at[p] = r
        new_per_row.append(fresh)
    lookup = ProbeBits(probe_bits, m)
    got_new, got_time = lookup.flip_rows(view, rows, m)
    assert got_new.tolist() == new_per_row
    assert lookup.distinct[lookup.slot].tolist() == probe_bits.tolist()
    was_zero = before[probe_bits] == 0           # the bits a tracker follows
    assert got_time[lookup.slot][was_zero].tolist() == [turned_at.get(p, -1) for p in probe_bits[was_zero].tolist()]
    assert np.array_equal(_unpacked(view, m), bits)


def test_a_position_out_of_range_is_refused_before_any_write():
    m = 100
    view = np.zeros(13, dtype=np.uint8)
    rows = np.array([[1, 2], [3, 100]])
    with pytest.raises(ValueError, match=r"\[0, 100\); position 100"):
        ProbeBits(np.zeros(0, np.int64), m).flip_rows(view, rows, m)
    with pytest.raises(ValueError, match="cannot hold 200 bits"):
        bit_kernels.set_positions(view, np.array([1]), 200)
    with pytest.raises(ValueError, match="bool array"):
        bit_kernels.and_bits(view, np.array([1, 2]), m, np.ones(1, dtype=bool))
    with pytest.raises(ValueError, match="mapped for m = 50"):
        ProbeBits(np.zeros(0, np.int64), 50).flip_rows(view, rows[:1], m)
    with pytest.raises(ValueError, match="position -1"):
        bit_kernels.set_positions(view, np.array([5, -1]), m)
    assert not view.any()


@pytest.mark.parametrize("m, count", [(13, 40), (1_000, 5_000), (3_000_000, 200_000)])
def test_set_and_and_and_all_set_agree_with_numpy(m, count):
    rng = np.random.default_rng(count)
    bits, view, rows = _case(rng, m, m // 4, count, 1)
    flat = rows.ravel()
    expected_fresh = np.unique(flat[bits[flat] == 0]).size
    found = np.ones(flat.size, dtype=bool)
    found[::3] = False
    bit_kernels.and_bits(view, flat, m, found)
    expected_found = bits[flat].astype(bool)
    expected_found[::3] = False
    assert np.array_equal(found, expected_found)
    assert bit_kernels.set_positions(view, flat, m) == expected_fresh
    bits[flat] = 1
    assert np.array_equal(_unpacked(view, m), bits)
    queries = rng.integers(0, m, (500, 3))
    assert np.array_equal(bit_kernels.all_set(view, queries, m), bits[queries].all(axis=1))
