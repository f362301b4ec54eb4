"""The vectorised MurmurHash3_x64_128 equals mmh3.hash_bytes bit for bit, and generated items hash and place
exactly as their text does through the filters' own path."""

from __future__ import annotations

import mmh3
import numpy as np
import pytest

from bloomviz.filters.standard import BloomFilter
from bloomviz.filters.generated_positions import hash128, positions
from bloomviz.items.generated import GeneratedItems
from bloomviz.hashing.murmur_np import hash128_rows, hash_bytes_many

SEEDS = [0, 1, 42, 2 ** 31, 2 ** 32 - 1]
LONG = [127, 128, 129, 1000, 4095, 4096, 4097, 65535, 65536]


def reference(rows: np.ndarray, seed: int) -> list[bytes]:
    return [mmh3.hash_bytes(row.tobytes(), seed) for row in rows]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_length_to_80_bytes_so_every_tail_length(seed):
    rng = np.random.default_rng(seed % 1000)
    for length in range(81):
        rows = rng.integers(0, 256, (7, length), dtype=np.uint8)
        assert hash_bytes_many(rows, seed) == reference(rows, seed), length


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("length", LONG)
def test_long_rows_up_to_64_kib(seed, length):
    rows = np.random.default_rng(length).integers(0, 256, (3, length), dtype=np.uint8)
    assert hash_bytes_many(rows, seed) == reference(rows, seed)


def test_many_rows_and_extreme_bytes():
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 256, (20_000, 17), dtype=np.uint8)
    rows[:100] = 0xFF
    rows[100:200] = 0
    h1, h2 = hash128_rows(rows, 7)
    expected = np.frombuffer(b"".join(reference(rows, 7)), dtype="<u8").reshape(-1, 2)
    assert np.array_equal(h1, expected[:, 0]) and np.array_equal(h2, expected[:, 1])


def test_bad_arguments_are_refused():
    with pytest.raises(TypeError, match="uint8"):
        hash128_rows(np.zeros((2, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="seed"):
        hash128_rows(np.zeros((2, 3), dtype=np.uint8), seed=-1)
    with pytest.raises(ValueError, match="seed"):
        hash128_rows(np.zeros((2, 3), dtype=np.uint8), seed=2 ** 32)


# --- generated items --------------------------------------------------------------------------------------
def test_generated_items_are_their_text_and_hash_like_mmh3():
    items = GeneratedItems(5000, seed=9, prefix="i")
    texts = items.texts(0, 5000)
    assert texts == [f"i{int(v):016x}" for v in items.values(0, 5000)]
    assert len(set(texts)) == 5000 and items[17] == texts[17] and items[-1] == texts[-1]
    assert list(items[10:20]) == texts[10:20] and list(items)[:5] == texts[:5]
    h1, h2 = hash128(items, 0, 5000)
    expected = np.frombuffer(b"".join(mmh3.hash_bytes(t.encode()) for t in texts), dtype="<u8").reshape(-1, 2)
    assert np.array_equal(h1, expected[:, 0]) and np.array_equal(h2, expected[:, 1])


def test_generated_items_are_distinct_by_construction_and_seeded():
    a, b = GeneratedItems(100_000, seed=1), GeneratedItems(100_000, seed=1)
    assert a.texts(0, 100_000) == b.texts(0, 100_000)
    assert np.unique(a.values(0, 100_000)).size == 100_000         # a bijection of the index
    assert a.texts(0, 10) != GeneratedItems(10, seed=2).texts(0, 10)
    probes = GeneratedItems(1000, seed=1, prefix="p").texts(0, 1000)
    assert not set(probes) & set(a.texts(0, 100_000))
    assert a.texts(99_990, 100_010) == a.texts(99_990, 100_000)     # ranges stop at the count


@pytest.mark.parametrize("scheme", ["murmur3-mix", "murmur3-km", "murmur3-enhanced", "weak-shift"])
@pytest.mark.parametrize("m", [64, 9_585_059, 2 ** 32, 2 ** 32 + 15])   # the last: modulo above 2^32, 512 MiB not 2 GiB
def test_generated_positions_equal_the_filters_positions_of_the_text(scheme, m):
    flt = BloomFilter(m, 7, scheme=scheme)
    items = GeneratedItems(3000, seed=4)
    assert np.array_equal(positions(flt, items, 100, 3000), flt.positions_many(items.texts(100, 3000)))


def test_generated_items_refuse_bad_arguments():
    with pytest.raises(ValueError, match="count"):
        GeneratedItems(-1)
    with pytest.raises(ValueError, match="prefix"):
        GeneratedItems(3, prefix="ab")
