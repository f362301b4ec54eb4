"""The shared fuzz cases (tests/formats/test_formats_fuzz.py) over LevelDB and RocksDB tables, plus footers and blocks
that claim absurd sizes. The tables are written here by the real libraries (small ones: a few KiB, so every
truncation is tried quickly) rather than committed; the FIFO/device/directory cases run for these formats in
test_formats_fuzz.py like for every registered format.
"""

from __future__ import annotations

import random
import struct

import pytest

from bloomviz import formats
from bloomviz.formats import ForeignFormatError, sstable
from test_formats_fuzz import read_or_refuse, refused_without_allocating


def _leveldb(tmp, compression):
    plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")
    db = plyvel.DB(str(tmp / f"ldb-{compression}"), create_if_missing=True, bloom_filter_bits=10,
                   compression=compression, block_size=256)
    for i in range(300):
        db.put(b"k%05d" % (i * 3), b"v" * 8)
    db.compact_range()
    db.close()
    return next((tmp / f"ldb-{compression}").glob("*.ldb"))


def _rocksdb(tmp, partitioned, fv=None):
    rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")
    opts = rd.Options(raw_mode=True)
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    if fv:
        table.set_format_version(fv)
    if partitioned:
        table.set_partition_filters(True)
        table.set_index_type(rd.BlockBasedIndexType.two_level_index_search())
        table.set_metadata_block_size(256)
    opts.set_block_based_table_factory(table)
    path = tmp / f"r-{partitioned}-{fv}.sst"
    writer = rd.SstFileWriter(opts)
    writer.open(str(path))
    for i in range(300):
        writer[b"k%05d" % (i * 3)] = b"v" * 8
    writer.finish()
    return path


CASES = {"leveldb-snappy": ("leveldb", lambda t: _leveldb(t, "snappy")),
         "leveldb-plain": ("leveldb", lambda t: _leveldb(t, None)),
         "rocksdb-full": ("rocksdb", lambda t: _rocksdb(t, False)),
         "rocksdb-legacy": ("rocksdb", lambda t: _rocksdb(t, False, fv=4)),
         "rocksdb-partitioned": ("rocksdb", lambda t: _rocksdb(t, True))}


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lsm-fuzz")
    return {name: (fmt, make(tmp).read_bytes()) for name, (fmt, make) in CASES.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_truncations_refused(samples, tmp_path, name):
    fmt, raw = samples[name]
    path = tmp_path / "cut"
    assert formats.open_filters(_write(path, raw), fmt)
    for n in sorted({0, 1, 8, 47, 48, 52, 53, len(raw) - 1} | set(range(0, len(raw), max(1, len(raw) // 60)))):
        with pytest.raises(ForeignFormatError):
            formats.open_filters(_write(path, raw[:n]), fmt)


@pytest.mark.parametrize("name", list(CASES))
def test_bit_flips_and_overwrites(samples, tmp_path, name):
    fmt, raw = samples[name]
    rng = random.Random(name)
    path = tmp_path / "flipped"
    hot = list(range(max(0, len(raw) - 700), len(raw)))   # footer, metaindex, index, filter
    for _ in range(250):
        data = bytearray(raw)
        for _ in range(rng.choice((1, 1, 2, 4))):
            i = rng.choice(hot) if rng.random() < 0.8 else rng.randrange(len(data))
            data[i] = rng.randrange(256) if rng.random() < 0.3 else data[i] ^ (1 << rng.randrange(8))
        read_or_refuse(_write(path, bytes(data)), fmt)


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def _leveldb_footer(meta: tuple[int, int], index: tuple[int, int]) -> bytes:
    def varint(n):
        out = bytearray()
        while True:
            out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
            n >>= 7
            if not n:
                return bytes(out)
    handles = varint(meta[0]) + varint(meta[1]) + varint(index[0]) + varint(index[1])
    return handles.ljust(40, b"\0") + struct.pack("<Q", sstable.LEVELDB_MAGIC)


def _absurd():
    """(format, file bytes, the refusal expected)."""
    snappy_bomb = b"\xff\xff\xff\xff\x07" + b"\0" * 10        # declares 2**31 - 1 bytes uncompressed
    block = snappy_bomb + b"\x01" + struct.pack("<I", sstable.masked_crc32c(snappy_bomb + b"\x01"))
    rocks_v6 = (b"\x00" + b"\x3e\x00\x7a\x00" + struct.pack("<III", 0, 1, 0xFFFFFFF0) + b"\0" * 24 +
                struct.pack("<IQ", 6, sstable.ROCKSDB_MAGIC))
    return [("leveldb", b"\0" * 64 + _leveldb_footer((0, 1 << 40), (0, 10)), "runs past the footer"),
            ("leveldb", b"\0" * 64 + _leveldb_footer((1 << 62, 10), (0, 10)), "runs past the footer"),
            ("leveldb", block + _leveldb_footer((0, len(snappy_bomb)), (0, 1)), "declares 2,147,483,647 bytes"),
            ("rocksdb", b"\0" * 64 + rocks_v6, "metaindex of 4,294,967,280 bytes"),
            ("rocksdb", b"\0" * 64 + rocks_v6[:-12] + struct.pack("<IQ", 1 << 30, sstable.ROCKSDB_MAGIC),
             "format_version 1,073,741,824")]


def test_absurd_sizes_are_refused_without_allocating(tmp_path):
    path = tmp_path / "absurd"
    for i, (fmt, raw, reason) in enumerate(_absurd()):
        refused_without_allocating(path, fmt, raw, reason, i)


def test_filter_block_with_a_wild_offset_array_is_refused(samples, tmp_path):
    _, raw = samples["leveldb-plain"]
    f = formats.open_filters(_write(tmp_path / "t.ldb", raw))[0]
    start, size = f.fields["filter_block_offset"], f.fields["filter_block_bytes"]
    data = bytearray(raw[start:start + size])
    data[-5:-1] = struct.pack("<I", 0xFFFFFF00)              # the offset array "starts" past the block
    patched = bytearray(raw)
    patched[start:start + size] = data
    patched[start + size + 1:start + size + 5] = struct.pack("<I", sstable.masked_crc32c(bytes(data) + b"\0"))
    with pytest.raises(ForeignFormatError, match=f"filter block at offset {start:,}: offset array"):
        formats.open_filters(_write(tmp_path / "wild.ldb", bytes(patched)))


@pytest.mark.parametrize("fmt,name", [("leveldb", "000005.ldb"), ("rocksdb", "000005.sst")])
def test_a_fifo_named_like_a_table_is_named_not_opened(tmp_path, fmt, name):
    import os

    (tmp_path / "CURRENT").write_text("MANIFEST-000001\n")
    os.mkfifo(tmp_path / name)          # opening it for reading would wait for a writer
    # a database folder all the same (without RocksDB's OPTIONS file, LevelDB's): reading it names the FIFO
    # rather than skipping it, which would show the filters without that table's and say nothing
    assert formats.detect(tmp_path) == "leveldb"
    with pytest.raises(ForeignFormatError, match=f"{name} in the directory is a FIFO \\(named pipe\\)"):
        formats.open_filters(tmp_path, fmt)
