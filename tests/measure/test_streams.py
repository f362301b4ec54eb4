"""The seeded run's streams: the numpy twin of random_items spells the same strings, collisions included."""

import mmh3
import numpy as np
import pytest

from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import random_items
from bloomviz.filters.generated_positions import hash128, positions
from bloomviz.measure.streams import PROBE_SEED_OFFSET, DrawnItems, drawn_items, drawn_probes


@pytest.mark.parametrize("seed", [0, 1, 7, 2 ** 40])
def test_drawn_items_are_random_items_item_for_item(seed):
    assert list(drawn_items(5000, seed)) == random_items(5000, seed=seed, prefix="i")
    assert drawn_probes(3000, seed) == random_items(3000, seed=seed + PROBE_SEED_OFFSET, prefix="p")


def test_they_hash_as_their_text_does():
    items = drawn_items(2000, 3)
    for scheme in ("murmur3-mix", "murmur3-km", "weak-shift"):
        flt = BloomFilter(10_007, 5, scheme=scheme)
        assert np.array_equal(positions(flt, items, 100, 1900), flt.positions_many(items[100:1900]))
    h1, _ = hash128(items, 0, 1)
    assert int(h1[0]) == mmh3.hash64(items[0].encode(), signed=False)[0]


class _RepeatingRng:
    """A generator whose first draws repeat a value, to follow the redraw that random_items does."""

    def __init__(self, seed):
        self._real = np.random.Generator(np.random.PCG64(seed))
        self._calls = 0

    def bytes(self, n):
        self._calls += 1
        raw = bytearray(self._real.bytes(n))
        if self._calls == 1 and n >= 24:
            raw[8:16] = raw[0:8]        # item 2 repeats item 1
            raw[16:24] = raw[0:8]       # and so does item 3
        return bytes(raw)


def test_a_repeated_draw_is_dropped_and_redrawn_as_random_items_does(monkeypatch):
    monkeypatch.setattr(np.random, "default_rng", _RepeatingRng)
    expected = random_items(50, seed=4, prefix="i")
    got = DrawnItems(50, seed=4, prefix="i")
    assert list(got) == expected and len(set(expected)) == 50



def test_one_drawn_item_is_the_text_of_the_batch():
    items = drawn_items(3000, 5)
    assert [items[i] for i in (0, 1, 1234, 2999)] == [items.texts(0, 3000)[i] for i in (0, 1, 1234, 2999)]
