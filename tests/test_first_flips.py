"""first_flips' flip pass against one insert at a time: every path (the byte contest alone, further rounds,
the FirstIndex fallback, a failed write-order check) names the same flips and leaves the same bits."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.measure import first_flips


def _brute_force(bits: np.ndarray, flat: np.ndarray) -> list[int]:
    flips = []
    for i, p in enumerate(flat.tolist()):
        if not bits[p]:
            bits[p] = 1
            flips.append(i)
    return flips


def _case(rng, m: int, preset: int, n: int):
    bits = np.zeros(m, dtype=np.uint8)
    bits[rng.integers(0, m, preset)] = 1
    padded = np.append(bits, np.zeros(-m % 8, np.uint8))
    view = np.packbits(padded, bitorder="little")
    return bits, view, rng.integers(0, m, n)


def _check(view, bits, flat, m):
    expected = _brute_force(bits, flat)
    assert first_flips.flip_pass(view, flat, {}).tolist() == expected
    assert np.array_equal(np.unpackbits(view, bitorder="little")[:m], bits)


@pytest.mark.parametrize("m", [64, 5_000, 200_000, 40_000_000])   # the last one's blocks are 16,384
def test_the_contest_alone_answers_for_ordinary_positions(m, monkeypatch):
    monkeypatch.setattr(first_flips, "_block_flips_checked",
                        lambda *a: pytest.fail("the write-order check failed on ordinary positions"))
    rng = np.random.default_rng(m)
    bits, view, flat = _case(rng, m, m // 3, 70_000)
    _check(view, bits, flat, m)


def test_crowded_slots_take_further_rounds_and_the_fallback(monkeypatch):
    calls = []
    real = first_flips._slots

    def crowded(values, multiplier, bits):   # four slots in all: rounds shrink slowly, then FirstIndex
        calls.append(multiplier)
        return real(values, multiplier, bits) & 3

    monkeypatch.setattr(first_flips, "_slots", crowded)
    rng = np.random.default_rng(5)
    for m in (40, 3_000, 90_000):
        bits, view, flat = _case(rng, m, m // 4, 20_000)
        _check(view, bits, flat, m)
    assert len(set(calls)) > 1


def test_a_failed_write_order_check_falls_back_to_the_checked_pass(monkeypatch):
    fallbacks = []
    real = first_flips._block_flips_checked
    monkeypatch.setattr(first_flips, "_contest", lambda keys, workspace, round_no: (None, None))
    monkeypatch.setattr(first_flips, "_block_flips_checked",
                        lambda *a: (fallbacks.append(1), real(*a))[1])
    rng = np.random.default_rng(6)
    bits, view, flat = _case(rng, 10_000, 2_000, 30_000)
    _check(view, bits, flat, 10_000)
    assert fallbacks


def test_contest_names_each_loser_and_the_earliest_key_of_its_slot():
    rng = np.random.default_rng(7)
    for size in (1, 17, 5_000, 70_000):    # the last is longer than the cached descending index
        keys = rng.integers(0, size // 3 + 2, size)
        lose, winner = first_flips._contest(keys, {}, 0)
        bits = max(4, size.bit_length() + 2)
        slot = first_flips._slots(keys, first_flips._MULTIPLIERS[0], bits)
        earliest = {}
        for i, s in enumerate(slot.tolist()):
            earliest.setdefault(s, i)
        expected = [i for i, s in enumerate(slot.tolist()) if earliest[s] != i]
        assert lose.tolist() == expected
        assert winner.tolist() == [earliest[s] for s in slot[lose].tolist()]


def test_set_fresh_bits_handles_repeats_and_shared_bytes_across_blocks():
    rng = np.random.default_rng(8)
    m = 100_000
    view = np.zeros(m // 8, dtype=np.uint8)
    positions = rng.integers(0, m, 3 * first_flips.SET_BLOCK)
    first_flips.set_fresh_bits(view, positions)
    expected = np.zeros(m, dtype=np.uint8)
    expected[positions] = 1
    assert np.array_equal(np.unpackbits(view, bitorder="little"), expected)

