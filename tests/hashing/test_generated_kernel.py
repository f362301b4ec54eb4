"""The compiled hash of generated items (from their 64-bit values) is the numpy words' hash and mmh3's digest of
their text, bit for bit; the big filter's exact tracker takes it, and a simulation's larger steps there leave
every row and bit as steps of the usual size do."""

from __future__ import annotations

import mmh3
import numpy as np
import pytest

from bloomviz.filters.generated_positions import halves, hash128, positions
from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing.generated_kernel import hash128_generated, hash128_values
from bloomviz.items.generated import GeneratedItems
from bloomviz.measure.experiment import BIG_STEP, HALVES_STEP, STEP, Simulation
from bloomviz.measure.streams import DrawnItems


@pytest.mark.parametrize("items", [GeneratedItems(3_000, seed=11), GeneratedItems(500, seed=2, prefix="p"),
                                   DrawnItems(2_000, seed=4), GeneratedItems(40, seed=2 ** 63 + 5, prefix="~")])
def test_values_hash_as_the_numpy_words_and_mmh3_on_the_text(items):
    h1, h2 = hash128_values(items.values(0, len(items)), items.prefix)
    n1, n2 = hash128(items, 0, len(items))
    assert np.array_equal(h1, n1) and np.array_equal(h2, n2)
    texts = items.texts(0, len(items))
    for i in (0, 1, len(items) // 2, len(items) - 1):
        assert mmh3.hash_bytes(texts[i].encode()) == int(h1[i]).to_bytes(8, "little") + int(h2[i]).to_bytes(8, "little")


@pytest.mark.parametrize("items, start, stop", [(GeneratedItems(5_000, seed=3), 0, 5_000),
                                                (GeneratedItems(5_000, seed=3, prefix="p"), 1_234, 4_321),
                                                (GeneratedItems(100, seed=1), 90, 200),       # clamped at the count
                                                (DrawnItems(300, seed=5), 7, 300)])
def test_items_hash_from_their_counter_as_from_their_values(items, start, stop):
    got = hash128_generated(items, start, stop)
    expected = hash128(items, start, stop)
    assert got[0].size == min(stop, len(items)) - start
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])


def test_the_counter_wraps_as_the_values_do():
    items = next(g for g in (GeneratedItems(2 ** 63 - 1, seed=s) for s in range(20)) if g.key > 2 ** 63)
    start = 2 ** 64 - items.key - 20             # i + key passes 2^64 twenty items in
    assert np.array_equal(hash128_generated(items, start, start + 50)[0], hash128(items, start, start + 50)[0])


def test_extreme_values_every_hex_digit_and_letter():
    values = np.array([0, 2 ** 64 - 1, 0x0123456789ABCDEF, 0xFEDCBA9876543210, 0xA0A0A0A09F9F9F9F], dtype=np.uint64)
    h1, h2 = hash128_values(values, "i")
    for v, a, b in zip(values.tolist(), h1.tolist(), h2.tolist()):
        text = f"i{v:016x}".encode()
        assert mmh3.hash_bytes(text) == a.to_bytes(8, "little") + b.to_bytes(8, "little"), text


def test_a_prefix_must_be_one_ascii_character():
    with pytest.raises(ValueError, match="one ASCII character"):
        hash128_values(np.zeros(2, np.uint64), "ab")


def test_halves_place_items_where_the_filter_places_their_text():
    flt, items = BloomFilter((1 << 26) + 3, 6), GeneratedItems(700, seed=8)
    h1, h2 = halves(flt, items, 100, 700)
    from bloomviz.hashing.mixed_kernel import mixed_rows
    assert np.array_equal(mixed_rows(h1, h2, flt.m, flt.k), flt.positions_many(items.texts(100, 700)))
    assert np.array_equal(positions(flt, items, 100, 700), flt.positions_many(items.texts(100, 700)))


def test_big_steps_only_for_generated_items_into_a_big_plain_filter():
    assert Simulation((1 << 26) + 1, 20, 10).step_size() == BIG_STEP
    assert Simulation(1 << 20, 3, 10).step_size() == HALVES_STEP       # by halves into a small plain filter
    assert Simulation(1 << 20, 3, items=["a", "b"]).step_size() == HALVES_STEP
    assert Simulation((1 << 27), 3, items=["a", "b"]).step_size() == STEP
    assert Simulation(m=1 << 27, k=3, n=10, variant="counting").step_size() == STEP
    assert Simulation(1 << 27, 3, 10, scheme="murmur3-km").step_size() == STEP


@pytest.mark.parametrize("k", [1, 5])
def test_big_steps_give_the_rows_and_bits_of_small_ones(k):
    m, n = (1 << 26) + 40_000, 300_000
    big, small = Simulation(m, k, n, probes=3_000, seed=6), Simulation(m, k, n, probes=3_000, seed=6)
    zeros_before = big.tracker.probe_zero_counts().sum()
    assert big.step_size() == BIG_STEP
    rows_big = big.run(every=7_001)
    rows_small = small.run(every=7_001, chunk=STEP)
    assert big.filter.bits == small.filter.bits and big.filter.bits_set == small.filter.bits.count()
    assert list(rows_big.rows()) == list(rows_small.rows())
    assert np.array_equal(big.tracker.probe_zero_counts(), small.tracker.probe_zero_counts())
    assert big.tracker.probe_zero_counts().sum() < zeros_before          # probe bits did turn
    if k == 1:                                  # 0.45 % of the bits set: ~13 of the probes pass
        assert rows_big.row(len(rows_big) - 1)["fp_measured"] > 0



def test_the_window_loading_numba_without_the_cache_hashes_generated_items_in_numpy(monkeypatch):
    """While the warm-up loads numba and no native kernel cache serves the compiled hash, a batch of any size
    takes the numpy words (it would wait for numba's load); otherwise the compiled hash, with the same values."""
    import threading

    from bloomviz.filters import generated_positions
    from bloomviz.hashing import cold_paths, generated_kernel, native_kernels
    compiled = []
    monkeypatch.setattr(generated_kernel, "hash128_generated", lambda *args: compiled.append(args) or "compiled")
    monkeypatch.setattr(native_kernels, "ready", lambda *kernels: False)
    warming = threading.Event()
    monkeypatch.setattr(cold_paths, "_warming", warming)
    items = GeneratedItems(cold_paths.COLD_LIMIT + 10, seed=6)
    warming.set()
    h1, h2 = generated_positions._hashed(items, 0, len(items))      # past the small-batch limit too
    assert not compiled
    expected = hash128_generated(items, 0, len(items))      # (this module's name: the real compiled hash)
    assert np.array_equal(h1, expected[0]) and np.array_equal(h2, expected[1])
    warming.clear()
    assert generated_positions._hashed(items, 5, 9) == "compiled" and compiled == [(items, 5, 9)]
    monkeypatch.setattr(native_kernels, "ready", lambda *kernels: True)
    warming.set()       # served by the cache: compiled while numba loads
    assert generated_positions._hashed(items, 0, 3) == "compiled"
