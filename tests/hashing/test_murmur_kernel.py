"""The compiled MurmurHash3_x64_128 over joined items equals mmh3.hash_bytes bit for bit, at every tail
length, long items and seeds; str batches hash as their UTF-8 bytes whatever they hold."""

from __future__ import annotations

import mmh3
import numpy as np
import pytest

from bloomviz.hashing import schemes
from bloomviz.hashing.murmur_kernel import hash128_buffers, hash128_many, hash128_texts
from bloomviz.items.encoding import encode_texts

SEEDS = [0, 1, 42, 2 ** 31, 2 ** 32 - 1]


def digests(h1: np.ndarray, h2: np.ndarray) -> list[bytes]:
    return [int(a).to_bytes(8, "little") + int(b).to_bytes(8, "little") for a, b in zip(h1, h2)]


@pytest.mark.parametrize("seed", SEEDS)
def test_items_of_every_length_to_80_and_long_ones_in_one_batch(seed):
    rng = np.random.default_rng(seed % 1000)
    lengths = [*range(81), *range(80, -1, -1), 127, 128, 129, 4095, 4096, 65535, 65536]
    datas = [rng.integers(0, 256, n, dtype=np.uint8).tobytes() for n in lengths]
    datas[5] = b"\xff" * 5
    assert digests(*hash128_many(datas, seed)) == [mmh3.hash_bytes(d, seed) for d in datas]


@pytest.mark.parametrize("texts", [
    [],
    [""],
    ["a", "", "bc", "hello world, a longer item of 38 bytes"],
    ["has\0a NUL", "\0", "", "plain"],                  # NUL inside: the lengths are asked for
    ["café", "naïve"],                                   # not ASCII: encoded joined
    ["lone \udcff surrogate", "fine"],                   # not UTF-8: the surrogatepass bytes
    ["\ud83d\ude00 pair of lone surrogates", "\ud83d", "\ude00", "😀"],   # each surrogate on its own
    ["café\0NUL", "naïve", ""],                           # not ASCII and a NUL inside: item by item
    ["日本語" * 30, "ž", "", "x" * 17],
])
def test_text_batches_hash_as_their_bytes(texts):
    h1, h2 = schemes._murmur_halves_many_text(texts)
    assert digests(h1, h2) == [mmh3.hash_bytes(d) for d in encode_texts(texts)]


def test_texts_take_the_joined_path_unless_a_non_ascii_batch_holds_a_nul():
    assert hash128_texts(["ab", "c"]) is not None
    assert hash128_texts(["ab", "é"]) is not None
    assert hash128_texts(["a\0b", "c"]) is not None          # ASCII: the lengths are asked for
    assert hash128_texts(["a\0b", "é"]) is None              # the caller's per-item path
    with pytest.raises(TypeError):
        hash128_texts(["ab", b"c"])


@pytest.mark.parametrize("datas", [
    [b"abc", b"", b"de"],
    [b"has\0a NUL", b"\0", b"", b"plain"],                  # NULs inside: the items' sizes are asked for
    [b"x", bytearray(b"bytearray"), memoryview(b"memoryview")],   # as the policy takes them
    [bytes(range(256)) * 3, b"\xff" * 17],
])
def test_bytes_batches_hash_as_their_bytes_in_one_join(datas):
    h1, h2 = hash128_buffers(datas)
    assert digests(h1, h2) == [mmh3.hash_bytes(bytes(d)) for d in datas]
    assert digests(*schemes._murmur_halves_many_text(datas)) == digests(h1, h2)


@pytest.mark.parametrize("bad", [[b"a", "str"], [b"a", 5], [bytearray(b"a"), None]])
def test_a_bytes_batch_with_another_kind_of_item_is_refused_before_hashing(bad):
    with pytest.raises(TypeError, match="item 1"):
        hash128_buffers(bad)


def test_a_filter_takes_bytes_and_non_ascii_batches_on_the_joined_path_with_the_same_bits():
    from bloomviz.core import BloomFilter
    for items in ([f"élément-{i}-ž".encode() for i in range(3000)], [f"élément-{i}-ž" for i in range(3000)],
                  [b"a\0b", b"c", bytearray(b"d")], ["mixed", b"list"]):
        batch, one_by_one = BloomFilter(4_099, 5), BloomFilter(4_099, 5)
        batch.update(items)
        for item in items:
            one_by_one.add(item)
        assert batch.bits == one_by_one.bits and len(batch) == len(items)
        assert batch.contains_many(items).all()
        assert np.array_equal(batch.positions_many(items), np.array([batch.positions(x) for x in items]))


def test_a_bytes_like_kind_the_policy_refuses_takes_the_checked_path_and_is_named():
    import array

    from bloomviz.core import BloomFilter
    flt = BloomFilter(4_099, 5)
    with pytest.raises(TypeError, match="array"):
        flt.update([b"fine", array.array("b", [1])])
    assert len(flt) == 0 and flt.bits_set == 0


@pytest.mark.parametrize("m", [13, 1_000, 95_850_584, (1 << 32) + 15, 1 << 33])
def test_fused_set_and_test_equal_the_positions_then_the_bits(m):
    from bloomviz.filters import bit_kernels
    from bloomviz.hashing import mixed_kernel
    rng = np.random.default_rng(m % 997)
    h1 = rng.integers(0, 1 << 63, 2_000, dtype=np.uint64) * np.uint64(2)
    h2 = rng.integers(0, 1 << 63, 2_000, dtype=np.uint64) | np.uint64(1)
    small = m <= 1 << 27
    size = (m + 7) // 8 if small else 1 << 20       # a big m: only the positions are compared
    if small:
        fused, plain = np.zeros(size, np.uint8), np.zeros(size, np.uint8)
        fresh = mixed_kernel.set_from_halves(h1[:1_000], h2[:1_000], m, 7, fused)
        assert fresh == bit_kernels.set_positions(plain, mixed_kernel.mixed_rows(h1[:1_000], h2[:1_000], m, 7), m)
        assert np.array_equal(fused, plain)
        found = mixed_kernel.test_from_halves(h1, h2, m, 7, fused)
        assert np.array_equal(found, bit_kernels.all_set(plain, mixed_kernel.mixed_rows(h1, h2, m, 7), m))
        assert found[:1_000].all()
    with pytest.raises(ValueError, match="at least"):
        mixed_kernel.set_from_halves(h1, h2, m, 7, np.zeros((m + 7) // 8 - 1, np.uint8) if small
                                     else np.zeros(8, np.uint8))
