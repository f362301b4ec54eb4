"""The compiled MurmurHash3_x64_128 over joined items equals mmh3.hash_bytes bit for bit, at every tail
length, long items and seeds; str batches hash as their UTF-8 bytes whatever they hold."""

from __future__ import annotations

import mmh3
import numpy as np
import pytest

from bloomviz.hashing import schemes
from bloomviz.hashing.murmur_kernel import hash128_many, hash128_texts
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
    ["café", "naïve"],                                   # not ASCII: mmh3 per item
    ["lone \udcff surrogate", "fine"],                   # not UTF-8: the surrogatepass bytes
])
def test_text_batches_hash_as_their_bytes(texts):
    h1, h2 = schemes._murmur_halves_many_text(texts)
    assert digests(h1, h2) == [mmh3.hash_bytes(d) for d in encode_texts(texts)]


def test_ascii_texts_take_the_joined_path_and_others_do_not():
    assert hash128_texts(["ab", "c"]) is not None
    assert hash128_texts(["ab", "é"]) is None
