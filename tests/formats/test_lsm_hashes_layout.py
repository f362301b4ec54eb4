"""The hashes LevelDB's and RocksDB's filters are defined by, against the projects' own test vectors, and the
summary numbers of a cache-line-blocked filter (k probes inside one 512-bit block) against simulation.

Vectors: LevelDB util/hash_test.cc (SignedUnsignedIssue); RocksDB util/hash_test.cc (HashTest.Values for the
32-bit Hash, Hash64SmallValueSchema and Hash64LargeValueSchema for XXPH3), copied here with their origin.
"""

from __future__ import annotations

import math
import random

import numpy as np
import xxhash
from bitarray import bitarray

from bloomviz.formats.common import ForeignFilter
from bloomviz.formats.rocksdb_hash import hash32, hash64

LEVELDB_VECTORS = [(b"", 0xBC9F1D34, 0xBC9F1D34), (b"\x62", 0xBC9F1D34, 0xEF1345C4),
                   (b"\xc3\x97", 0xBC9F1D34, 0x5B663814), (b"\xe2\x99\xa5", 0xBC9F1D34, 0x323C078F),
                   (b"\xe1\x80\xb9\x32", 0xBC9F1D34, 0xED21633A),
                   (bytes.fromhex("01c000000000000000000000000000001400000000000400000000140000001828000000"
                                  "000000000200000000000000"), 0x12345678, 0xF333DABB)]
ROCKSDB_HASH32 = [(b"", 3164544308), (b"\x08", 422599524), (b"\x9a", 3195034349), (b"\x91\xf7", 31066776),
                  (b"\xd6\x27", 1806091603), (b"\x56\xdc\xd6", 2157698265), (b"\x6a\xb5\xf4", 2469105222),
                  (b"\x67\x53\x81\x1c", 118283265)]
ROCKSDB_HASH64 = [(b"", 5999572062939766020), (b"\x9a", 16322991629225003903),
                  (b"\x91\xf7", 14199427467559720719), (b"\x6a\xb5\xf4", 16863488758399383382),
                  (b"\x46\xdc\x54\xbe", 7063754590279313623), (b"\x6c\xa8\xbc\xe5\x99", 1249038833153141148)]
# Hash64TestDescriptor("Rocks", 430): the hash of every prefix of "RocksRocks..." up to 430 bytes, mod 61
ROCKS_430 = ("c1EeRkrzgOYWLA8PuhJrwTePJewoB44WdXYDfhbk3ZxTqqg25WlPExDl7IKIQLJvnA6gJxxn"
             "9TCSLkFGfJeXehaSS1GBqWSzfhEH4VXiXIUCuxJXxtKXcSC6FrNIQGTZbYDiUOLD6Y5inzrF"
             "9etwQhXUBanw55xAUdNMFQAm2GjJ6UDWp2mISLiMMkLjANWMKLaZMqaFLX37qB4MRO1ooVRv"
             "zSvaNRSCLxlggQCasQq8icWjzf3HjBlZtU6pd4rkaUxSzHqmo9oM5MghbU5Rtxg8wEfO7lVN"
             "5wdMONYecslQTwjZUpO1K3LDf3K3XK6sUXM6ShQQ3RHmMn2acB4YtTZ3QQcHYJSOHn2DuWpa"
             "Q8RqzX5lab92YmOLaCdOHq1BPsM7SIBzMdLgePNsJ1vvMALxAaoDUHPxoFLO2wx18IXnyX")


def test_leveldb_hash_is_unsigned_and_rocksdbs_is_sign_extended():
    for data, seed, want in LEVELDB_VECTORS:
        assert hash32(data, seed, signed_tail=False) == want
    for data, want in ROCKSDB_HASH32:
        assert hash32(data, signed_tail=True) == want
    # the two differ only where a tail byte is >= 0x80
    assert hash32(b"\x62", signed_tail=True) == hash32(b"\x62", signed_tail=False)
    assert hash32(b"\xc3\x97", signed_tail=True) != hash32(b"\xc3\x97", signed_tail=False)


def test_rocksdb_hash64_is_the_xxh3_preview_not_released_xxh3():
    for data, want in ROCKSDB_HASH64:
        assert hash64(data) == want
        assert xxhash.xxh3_64_intdigest(data) != want     # why the preview is ported
    alphabet = "abcdefghijklmnopqrstuvwxyz123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    text = (b"Rocks" * 90)[:430]
    assert "".join(alphabet[hash64(text[:i]) % 61] for i in range(430)) == ROCKS_430


def blocked_filter(blocks: int, k: int, n: int, seed: int) -> tuple[ForeignFilter, bitarray]:
    """A filter filled the way FastLocalBloom fills one: each insert picks a 512-bit block and sets k bits
    (with repetition possible) inside it."""
    rng = np.random.default_rng(seed)
    bits = bitarray(blocks * 512, endian="little")
    bits.setall(0)
    where = rng.integers(0, blocks, n) * 512
    for base, offs in zip(where, rng.integers(0, 512, (n, k))):
        for o in offs:
            bits[int(base + o)] = 1
    layout = {"kind": "blocks", "block_bits": 512, "word_bits": 512, "bits_per_word": k}
    return ForeignFilter(format="test", m=len(bits), k=k, bits=bits, layout=layout, hashing="test"), bits


def test_cache_line_blocks_estimate_n_and_predict_fp_from_fill():
    f, bits = blocked_filter(blocks=200, k=6, n=14000, seed=1)
    assert abs(f.estimated_count - 14000) < 0.03 * 14000
    # the rate a non-member meets: a random block, k random bits in it, all set
    rng = random.Random(2)
    trials, hits = 40000, 0
    for _ in range(trials):
        base = rng.randrange(200) * 512
        hits += all(bits[base + rng.randrange(512)] for _ in range(6))
    measured = hits / trials
    assert abs(measured - f.expected_fp) < 4 * math.sqrt(f.expected_fp / trials) + 0.002
    # an unblocked reading of the same bits would undercount: blocks fill unevenly
    flat = ForeignFilter(format="t", m=f.m, k=6, bits=bits, layout={"kind": "flat"}, hashing="t")
    assert flat.expected_fp < f.expected_fp


def test_one_bit_per_word_layout_unchanged():
    # Parquet's layout (8 words of 32 bits, one bit each): bits_per_word defaults to 1, as before
    rng = np.random.default_rng(3)
    bits = bitarray(64 * 256, endian="little")
    bits.setall(0)
    for block in rng.integers(0, 64, 900):
        for word in range(8):
            bits[int(block) * 256 + word * 32 + int(rng.integers(0, 32))] = 1
    f = ForeignFilter(format="t", m=len(bits), k=8, bits=bits, hashing="t",
                      layout={"kind": "blocks", "block_bits": 256, "word_bits": 32})
    assert abs(f.estimated_count - 900) < 0.05 * 900


def test_ribbon_rate_from_its_columns():
    bits = bitarray(7 * 1280, endian="little")
    bits.setall(0)
    f = ForeignFilter(format="t", m=len(bits), k=1, bits=bits, hashing="t", layout={"kind": "ribbon", "slots": 1280})
    assert f.expected_fp == 2.0 ** -7 and f.summary()["estimated_n"] is None
    half = ForeignFilter(format="t", m=int(6.5 * 1280), k=1, bits=bitarray(int(6.5 * 1280)), hashing="t",
                         layout={"kind": "ribbon", "slots": 1280})
    assert half.expected_fp == 0.5 * 2.0 ** -7 + 0.5 * 2.0 ** -6
