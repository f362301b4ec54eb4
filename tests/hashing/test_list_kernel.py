"""The compiled loop that reads a list's str or bytes items in place hashes each exactly as mmh3 hashes the
item policy's bytes, on every length around the 8- and 16-byte boundaries, every str kind (ASCII, Latin-1,
UCS-2, UCS-4, lone surrogates) and NULs inside; an item of another type stops it, and the filter then takes its
checked path with the same bits."""

from __future__ import annotations

import mmh3
import numpy as np
import pytest

from bloomviz.hashing.list_kernel import _text_halves, list_halves
from bloomviz.hashing.str_layout import LAYOUT, text_layout


def digests(h1: np.ndarray, h2: np.ndarray) -> list[bytes]:
    return [int(a).to_bytes(8, "little") + int(b).to_bytes(8, "little") for a, b in zip(h1, h2)]


def policy_bytes(item) -> bytes:
    return item.encode("utf-8", "surrogatepass") if isinstance(item, str) else bytes(item)


TEXTS = [
    *("x" * n for n in range(41)),                  # ASCII: every tail length, 0 to 2 blocks and a half
    *("é" * n for n in range(1, 20)),               # Latin-1 (one byte a code point, two in UTF-8)
    *("ž" + "a" * n for n in range(20)),            # UCS-2
    *("😀" * n for n in range(1, 6)),               # UCS-4
    "\ud800", "a\udcffb", "\ud83d\ude00",           # lone surrogates, a pair of them: each encoded on its own
    "\0", "a\0b", "é\0ž", "\U0010ffff\0",           # NULs inside
    "日本語" * 40, "y" * 4096, "",
]


def test_str_items_of_every_kind_hash_as_their_utf8_surrogatepass_bytes():
    assert digests(*list_halves(TEXTS, of_bytes=False)) == [mmh3.hash_bytes(policy_bytes(t)) for t in TEXTS]


def test_bytes_items_of_every_length_hash_as_themselves():
    rng = np.random.default_rng(7)
    datas = [rng.integers(0, 256, n, dtype=np.uint8).tobytes() for n in [*range(70), 255, 4096, 65537]]
    datas += [b"\0" * 9, b"", b"a\0b"]
    assert digests(*list_halves(datas, of_bytes=True)) == [mmh3.hash_bytes(d) for d in datas]


class Text(str):
    pass


@pytest.mark.parametrize("items, of_bytes", [
    (["a", b"b"], False), (["a", Text("b")], False), (["a", 1], False),
    ([b"a", bytearray(b"b")], True), ([b"a", memoryview(b"b")], True), ([b"a", "b"], True),
])
def test_an_item_of_another_type_stops_the_loop(items, of_bytes):
    assert list_halves(items, of_bytes) is None


def test_a_list_shorter_than_the_slice_asked_for_is_not_read_past_its_end():
    items = ["a", "b"]
    h = np.zeros(4, np.uint64)
    assert _text_halves(id(items), 0, 4, id(str), h, h.copy(), np.empty(64, np.uint8), LAYOUT) == 0


@pytest.mark.parametrize("m", [4_099, 1 << 24])       # the plain loop, and the ring that prefetches
@pytest.mark.parametrize("items", [
    [f"élément-{i}-ž" for i in range(3_000)],
    [f"item-{i}".encode() for i in range(3_000)],
    [f"item-{i}" for i in range(3_000)] + [Text("subclass"), "é\0"],     # the checked path's list
    [b"x", bytearray(b"y"), memoryview(b"z")],
])
def test_a_filter_sets_and_finds_the_same_bits_as_one_insert_at_a_time(m, items):
    from bloomviz.core import BloomFilter
    batch, one_by_one = BloomFilter(m, 5), BloomFilter(m, 5)
    fresh = batch.update(items)
    for item in items:
        one_by_one.add(item)
    assert batch.bits == one_by_one.bits and fresh == batch.bits_set == one_by_one.bits_set
    assert batch.contains_many(items).all()
    absent = [f"absent-{i}" for i in range(2_000)]
    assert np.array_equal(batch.contains_many(absent), np.array([x in one_by_one for x in absent]))


def test_a_bad_item_late_in_a_long_list_changes_nothing():
    from bloomviz.core import BloomFilter
    flt = BloomFilter(1 << 20, 7)
    with pytest.raises(TypeError, match="int"):
        flt.update([f"item-{i}" for i in range(100_000)] + [5])
    assert len(flt) == 0 and flt.bits_set == 0 and not flt.bits.any()


LONG = ["ž" * 300, "😀" * 700, "a" + "é" * 2000]        # each more than the first scratch holds


@pytest.mark.parametrize("items", [
    [t for pair in zip(TEXTS, reversed(TEXTS)) for t in pair],                  # kinds and lengths interleaved
    ["é", "a", *LONG, "ž", *LONG[::-1], "b", "\ud800"],                          # the scratch grows mid-list
    [f"é{i}" if i % 3 else f"a{i}" for i in range(50)],                           # runs of non-ASCII items
])
def test_each_non_ascii_item_hashed_a_step_later_keeps_its_own_digest(items, monkeypatch):
    import bloomviz.hashing.list_kernel as kernel
    expected = [mmh3.hash_bytes(policy_bytes(t)) for t in items]
    assert digests(*list_halves(items, of_bytes=False)) == expected
    monkeypatch.setattr(kernel, "SLICE", 7)           # an item left to hash at the end of every slice
    assert digests(*list_halves(items, of_bytes=False)) == expected


def test_str_fields_read_directly_where_the_layout_is_known_and_through_the_c_api_otherwise(monkeypatch):
    import sys

    import bloomviz.hashing.list_kernel as kernel
    if sys.implementation.name == "cpython" and sys.byteorder == "little":
        assert LAYOUT[0] >= 0, "the layout check failed on CPython: every str goes through the C API"
    assert np.array_equal(text_layout(), LAYOUT)
    items = [t for pair in zip(TEXTS, LONG * 30) for t in pair]
    expected = [mmh3.hash_bytes(policy_bytes(t)) for t in items]
    assert digests(*list_halves(items, of_bytes=False)) == expected
    monkeypatch.setattr(kernel, "LAYOUT", np.full(4, -1, dtype=np.int64))
    assert digests(*list_halves(items, of_bytes=False)) == expected


def test_halves_reused_only_when_asked_and_only_from_reuse_min_items():
    import bloomviz.hashing.list_kernel as kernel
    size = kernel.REUSE_MIN
    first, second = [f"a{i}" for i in range(size)], [f"é{i}" for i in range(size + 5)]
    assert not np.shares_memory(list_halves(first, False)[0], list_halves(first, False)[0])
    kept = list_halves(first, False, reuse=True)
    again = list_halves(second, False, reuse=True)     # a longer batch: the buffer grown, then kept
    assert digests(*again) == [mmh3.hash_bytes(policy_bytes(t)) for t in second]
    shorter = list_halves(first, False, reuse=True)
    assert np.shares_memory(shorter[0], again[0]) and digests(*shorter) == digests(*kept)
    assert not np.shares_memory(shorter[0], shorter[1])
    assert shorter[0].ctypes.data % (1 << 21) == 0      # starts on a huge page's boundary
    small = list_halves(second[:7], False, reuse=True)
    assert not np.shares_memory(small[0], again[0]) and small[0].size == 7


def test_batches_of_one_length_through_the_fused_loops_keep_their_own_bits():
    from bloomviz.core import BloomFilter
    batches = [[f"item-{b}-{i}" for i in range(2_000)] for b in range(3)] + [[f"{i}".encode() for i in range(2_000)]]
    for batch in batches:
        fast, slow = BloomFilter(30_011, 4), BloomFilter(30_011, 4)
        assert fast.update(batch) == slow.update(iter(batch))    # an iterator takes the general path
        assert fast.bits == slow.bits and fast.contains_many(batch).all()
        other = batches[(batches.index(batch) + 1) % len(batches)]
        assert np.array_equal(fast.contains_many(other), slow.contains_many(iter(other)))
