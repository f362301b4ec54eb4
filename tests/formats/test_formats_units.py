"""The pieces the readers share: the bit normaliser, the Thrift compact decoder, Parquet's value encoding and
block positions, and layout-aware estimates in bounded memory."""

from __future__ import annotations

import math
import struct
import tracemalloc

import numpy as np
import pytest
import xxhash
from bitarray import bitarray

from bloomviz.formats import parquet
from bloomviz.formats.common import ForeignFilter, bits_from_words
from bloomviz.formats.thrift_compact import ThriftError, read_struct


def test_big_endian_words_are_read_lsb_first():
    # bit 0 of the first 64-bit word is the last byte's lowest bit; bit 63 the first byte's highest
    raw = bytes([0x80, 0, 0, 0, 0, 0, 0, 0x01]) + bytes([0, 0, 0, 0, 0, 0, 0x02, 0])
    bits = bits_from_words(raw, 8, "big", 128)
    assert [i for i in range(128) if bits[i]] == [0, 63, 64 + 9]
    assert list(bits_from_words(raw[:8], 8, "little", 64).search(1)) == [7, 56]
    with pytest.raises(ValueError, match="whole 8-byte words"):
        bits_from_words(raw[:12], 8, "big", 64)


def _zz(n: int) -> bytes:
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def test_thrift_compact_struct():
    # field 1 i32 -3; field 2 binary "hi"; field 20 (long form) list of 16 i64 (size escape 15);
    # field 21 bool true; field 22 nested struct {1: i16 7}; field 23 double
    data = (b"\x15" + _zz(-3) + b"\x18\x02hi" + b"\x09" + _zz(20) + b"\xf6\x10" + b"".join(_zz(i) for i in range(16))
            + b"\x11" + b"\x1c\x14" + _zz(7) + b"\x00" + b"\x17" + struct.pack("<d", 2.5) + b"\x00")
    fields, used = read_struct(data + b"trailing")
    assert used == len(data)
    assert fields == {1: -3, 2: b"hi", 20: list(range(16)), 21: True, 22: {1: 7}, 23: 2.5}


@pytest.mark.parametrize("bad,reason", [
    (b"\x15", "ran out of bytes"), (b"\x18\x7fab", "runs past the end"), (b"\x1d\x00", "unknown field type 13"),
    (b"\x19\xf6\xff\xff\xff\xff\x0f", "cannot fit"), (b"\x1c" * 40, "nesting deeper"),
    (b"\x15" + b"\xff" * 11, "longer than 10 bytes"),
])
def test_thrift_refusals(bad, reason):
    with pytest.raises(ThriftError, match=reason):
        read_struct(bad)


def test_parquet_plain_encoding_and_positions():
    assert parquet.plain_encoding("-2", 1) == struct.pack("<i", -2)
    assert parquet.plain_encoding(2**40, 2) == struct.pack("<q", 2**40)
    assert parquet.plain_encoding("1.5", 5) == struct.pack("<d", 1.5)
    assert parquet.plain_encoding("é", 6) == "é".encode()
    for bad, ptype in (("x", 1), (2**31, 1), ("abc", 7)):
        with pytest.raises(ValueError):
            parquet.plain_encoding(bad, ptype, 4)
    h = xxhash.xxh64_intdigest(b"hello")
    pos = parquet.block_positions(h, 1000)
    block = ((h >> 32) * 1000) >> 32
    # one bit in each of the block's eight words, at (x * salt) >> 27 with 32-bit wrap-around
    assert [p // 256 for p in pos] == [block] * 8
    assert [(p % 256) // 32 for p in pos] == list(range(8))
    assert [p % 32 for p in pos] == [(((h & 0xFFFFFFFF) * s) & 0xFFFFFFFF) >> 27 for s in parquet.SALT]


def _blocks_filter(m: int, fill_every: int) -> ForeignFilter:
    bits = bitarray(m, endian="little")
    bits.setall(0)
    bits[::fill_every] = 1
    return ForeignFilter(format="parquet", m=m, k=8, bits=bits, hashing="",
                         layout={"kind": "blocks", "block_bits": 256, "word_bits": 32})


def test_block_estimates_follow_each_blocks_occupancy():
    f = _blocks_filter(1 << 12, 4)   # 8 of 32 bits in every word: 64 of a block's 256
    per_block = math.log1p(-64 / 256) / math.log1p(-1 / 32)      # inserts that leave 64 bits set, expected
    assert f.estimated_count == pytest.approx(per_block * (f.m // 256))
    assert f.expected_fp == pytest.approx((8 / 32) ** 8)


def test_block_estimates_use_bounded_memory():
    f = _blocks_filter(1 << 27, 3)   # 16 MiB of bits
    tracemalloc.start()
    try:
        assert math.isfinite(f.estimated_count) and 0 < f.expected_fp < 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20, f"peak {peak:,} bytes for a {f.m // 8:,}-byte array"


def test_bit_array_and_counts_agree():
    f = _blocks_filter(1 << 12, 5)
    assert f.bits_set == int(np.count_nonzero(np.arange(f.m) % 5 == 0)) and f.fill_ratio == f.bits_set / f.m


def test_an_item_written_0x_is_the_bytes_its_hex_spells_for_every_format_that_keys_on_bytes():
    import pytest

    from bloomviz.formats import cassandra, leveldb, spark
    from bloomviz.formats.common import hex_prefixed
    assert hex_prefixed("0x00ff") == b"\x00\xff" and hex_prefixed("0XAB") == b"\xab"
    assert hex_prefixed("plain") is None and hex_prefixed("") is None
    for read in (cassandra.key_bytes, leveldb.item_bytes, lambda item: spark.item_hashes(item, 0)):
        with pytest.raises(ValueError, match="starts with 0x but is not hex bytes"):
            read("0xzz")
    assert cassandra.key_bytes("0x0102") == leveldb.item_bytes("0x0102") == b"\x01\x02"
    assert spark.item_hashes("0x0102", 0) == spark.item_hashes(b"\x01\x02", 0)


def test_one_full_word_leaves_a_block_estimate_finite():
    """Only a whole block set makes the estimate infinite: a Parquet block's one full 32-bit word is a likely
    sight in a well-filled filter (word by word, it made the whole filter's estimate infinite)."""
    f = _blocks_filter(1 << 12, 4)
    f.bits[:32] = 1                  # the first block's first word full: 32 + 7 x 8 = 88 of its 256 bits
    others = math.log1p(-64 / 256) / math.log1p(-1 / 32) * (f.m // 256 - 1)
    assert f.estimated_count == pytest.approx(others + math.log1p(-88 / 256) / math.log1p(-1 / 32))
    f.bits[:256] = 1
    assert f.estimated_count == math.inf
