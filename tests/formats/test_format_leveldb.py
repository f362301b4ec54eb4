"""LevelDB tables written by LevelDB itself (plyvel's bundled library), compressed with Snappy and not.

LevelDB exposes no filter answer: it has no KeyMayExist, and its properties (leveldb.stats, leveldb.sstables,
...) count files and compactions, not filter hits. So the comparison with LevelDB is on the bytes it wrote:
every filter of the table is rebuilt here from the keys of the data blocks it covers, by a port of
util/bloom.cc's CreateFilter, and must equal LevelDB's filter byte for byte. A filter is a function of the
keys and the hash alone, so equal bytes mean equal answers for every key, member or not; and every key the
database holds must answer "probably present" through the filter its data block's index entry leads to.
"""

from __future__ import annotations

import random
import struct

import pytest

from bloomviz import formats
from bloomviz.formats import ForeignFormatError, leveldb, sstable
from bloomviz.formats.rocksdb_hash import hash32

plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")


def random_keys(seed: int, n: int) -> list[bytes]:
    rng = random.Random(seed)
    keys = {bytes(rng.randrange(256) for _ in range(rng.randrange(1, 24))) for _ in range(n)}
    keys |= {f"user:{i:05d}:é".encode() for i in range(0, n, 7)}   # text keys, with a non-ASCII tail
    return sorted(keys)


def make_db(path, keys, compression, bits=10):
    db = plyvel.DB(str(path), create_if_missing=True, bloom_filter_bits=bits, compression=compression,
                   block_size=1024)
    with db.write_batch() as batch:
        for key in keys:
            batch.put(key, b"value-" + key[:4])
    db.compact_range()
    db.close()
    return path


@pytest.fixture(scope="module")
def dbs(tmp_path_factory):
    keys = random_keys(7, 6000)
    root = tmp_path_factory.mktemp("leveldb")
    return keys, {c or "none": make_db(root / (c or "none"), keys, c) for c in ("snappy", None)}


def create_filter(keys: list[bytes], bits_per_key: int = 10) -> bytes:
    """util/bloom.cc's CreateFilter, written out from its source for this comparison."""
    k = min(max(int(bits_per_key * 0.69), 1), 30)
    bits = max(len(keys) * bits_per_key, 64)
    nbytes = (bits + 7) // 8
    bits = nbytes * 8
    array = bytearray(nbytes)
    for key in keys:
        h = hash32(key, signed_tail=False)
        delta = ((h >> 17) | (h << 15)) & 0xFFFFFFFF
        for _ in range(k):
            pos = h % bits
            array[pos // 8] |= 1 << (pos % 8)
            h = (h + delta) & 0xFFFFFFFF
    return bytes(array) + bytes([k])


def table_blocks(path):
    """(data block offset, its user keys, its compression type byte) for every data block of the table."""
    with formats.Source(path, "leveldb") as src:
        (m_off, m_size), (i_off, i_size) = leveldb._footer(src)
        out = []
        for _, value in sstable.block(src, "leveldb", i_off, i_size, "index"):
            off, size, _ = sstable.handle(value)
            kind = src.read_at(off + size, 1, "trailer")[0]
            keys = [k[:-8] for k, _ in sstable.block(src, "leveldb", off, size, "data")]
            out.append((off, keys, kind))
        return out


@pytest.mark.parametrize("compression", ["snappy", "none"])
def test_filters_equal_leveldbs_bytes_and_hold_every_key(dbs, compression):
    keys, paths = dbs
    path = paths[compression]
    assert formats.detect(path) == "leveldb"
    filters = formats.open_filters(path)
    tables = sorted(p for p in path.iterdir() if p.suffix == ".ldb")
    assert tables and all(formats.detect(t) == "leveldb" for t in tables)
    by_slot = {(f.fields["table"], f.fields["filter_index"]): f for f in filters}
    seen_keys, kinds = [], set()
    for table in tables:
        groups: dict[int, list[bytes]] = {}
        for off, block_keys, kind in table_blocks(table):
            groups.setdefault(off >> 11, []).extend(block_keys)
            seen_keys.extend(block_keys)
            kinds.add(kind)
        for slot, slot_keys in groups.items():
            f = by_slot[(table.name, slot)]
            assert f.bits.tobytes() + bytes([f.k]) == create_filter(slot_keys), (table.name, slot)
    assert sorted(seen_keys) == keys          # the block parser read every key LevelDB holds, nothing else
    assert kinds == ({1} if compression == "snappy" else {0})
    for key in keys:                         # 0 false negatives through the index's routing
        chosen = leveldb.route(filters, key)
        assert len(chosen) == 1 and key in chosen[0]
        assert leveldb.route(filters, "0x" + key.hex()) == chosen and "0x" + key.hex() in chosen[0]


def test_non_members_route_to_one_filter_and_rate_matches_fill(dbs):
    keys, paths = dbs
    filters = formats.open_filters(paths["snappy"])
    members = set(keys)
    rng = random.Random(3)
    probes = [p for p in (bytes(rng.randrange(256) for _ in range(rng.randrange(1, 24))) for _ in range(8000))
              if p not in members and keys[0] < p < keys[-1]]
    hits = sum(any(p in f for f in leveldb.route(filters, p)) for p in probes)
    # every probe inside the key range goes to exactly one filter; out of range, LevelDB asks none
    assert all(len(leveldb.route(filters, p)) == 1 for p in probes[:500])
    assert leveldb.route(filters, keys[-1] + b"\xff") == []
    predicted = sum(f.expected_fp for f in filters) / len(filters)
    assert 0.3 * predicted < hits / len(probes) < 3 * predicted


def test_summary_numbers(dbs):
    keys, paths = dbs
    filters = formats.open_filters(paths["none"])
    assert sum(f.fields["data_blocks"] for f in filters[:1]) > 10
    estimated = sum(f.estimated_count for f in filters)
    assert abs(estimated - len(keys)) < 0.05 * len(keys)
    for f in filters:
        s = f.summary()
        assert s["m"] == f.m and s["k"] == 6 and 0 < s["bits_set"] < f.m and 0 < s["expected_fp"] < 0.1


def test_a_table_without_filter_is_refused_by_name(tmp_path):
    db = plyvel.DB(str(tmp_path / "plain"), create_if_missing=True)
    db.put(b"a", b"b")
    db.compact_range()
    db.close()
    with pytest.raises(ForeignFormatError, match="without a filter policy"):
        formats.open_filters(tmp_path / "plain", "leveldb")


def test_damaged_blocks_are_refused_with_offset(dbs, tmp_path):
    _, paths = dbs
    table = sorted(p for p in paths["snappy"].iterdir() if p.suffix == ".ldb")[0]
    raw = bytearray(table.read_bytes())
    f = formats.open_filters(table)[0]
    at = f.fields["filter_block_offset"] + 3
    raw[at] ^= 0x10
    (tmp_path / "t.ldb").write_bytes(raw)
    with pytest.raises(ForeignFormatError, match=f"filter block at offset {f.fields['filter_block_offset']:,}: "
                                                 "checksum mismatch"):
        formats.open_filters(tmp_path / "t.ldb")
    footer = bytes(raw[-48:])
    (tmp_path / "huge.ldb").write_bytes(b"\0" * 100 + b"\x00\xff\xff\xff\xff\x0f\x00\x01" + footer[8:])
    with pytest.raises(ForeignFormatError, match="runs past the footer"):
        formats.open_filters(tmp_path / "huge.ldb", "leveldb")
    (tmp_path / "magic.ldb").write_bytes(b"\0" * 40 + struct.pack("<Q", 12345))
    with pytest.raises(ForeignFormatError, match="no table magic at offset 40"):
        formats.open_filters(tmp_path / "magic.ldb", "leveldb")


def test_command_line_inspect_and_check_a_database_directory(dbs):
    import json
    import subprocess
    import sys

    keys, paths = dbs
    run = [sys.executable, "-m", "bloomviz"]
    out = subprocess.run(run + ["inspect", "--json", str(paths["snappy"])], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    report = json.loads(out)
    filters = formats.open_filters(paths["snappy"])
    assert report["format"] == "leveldb" and len(report["filters"]) == len(filters)
    for row, f in zip(report["filters"], filters):
        assert (row["m"], row["k"], row["bits_set"], row["label"]) == (f.m, f.k, f.bits_set, f.label)
    member, stranger = keys[100], keys[-1] + b"\x01"
    done = subprocess.run(run + ["check", "--json", str(paths["snappy"]), "0x" + member.hex(), "0x" + stranger.hex()],
                          capture_output=True, text=True, timeout=120)
    items = json.loads(done.stdout)["items"]
    assert items[0]["verdict"] == "probably present" and items[0]["filter"] == leveldb.route(filters, member)[0].label
    assert items[1]["verdict"] == "definitely absent" and items[1]["filters_consulted"] == 0
