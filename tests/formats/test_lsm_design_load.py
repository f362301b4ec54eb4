"""An LSM table's filter is built when the table is written, for exactly the keys it holds, so the atlas never
counts one as past its design load. The rule for a filter with no stated design (more than half its bits set)
counted every filter of a LevelDB or RocksDB table written at 1 bit per key (k = 1: 63 % of the bits set), and
would count a Ribbon filter (about half its bits are 1 at any load) by chance. On tables the real software wrote."""

from __future__ import annotations

import json

import pytest

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats import atlas

SIZED = [False, "sized when its table was written, for exactly the keys it holds"]


def test_a_leveldb_database_at_one_bit_per_key_is_not_past_its_design(tmp_path, capsys):
    plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")
    db = plyvel.DB(str(tmp_path / "db"), create_if_missing=True, bloom_filter_bits=1)    # k = 1
    for i in range(4_000):
        db.put(f"k{i:06d}".encode(), b"x" * 20)
    db.compact_range()
    db.close()
    assert main(["inspect", str(tmp_path / "db"), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    big = [s for s in r["filters"] if s["m"] > 64]
    assert big and all(s["fill"] > atlas.HALF_FILL for s in big)      # what the fill rule had counted
    assert r["atlas"]["past_design"] == 0
    assert all(s["past_design_known"] == SIZED for s in r["filters"])


@pytest.mark.parametrize("version", [None, 4], ids=["fastlocalbloom", "legacy"])
def test_rocksdb_tables_at_one_bit_per_key_are_not_past_their_design(tmp_path, version):
    rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")
    opts = rd.Options(raw_mode=True)
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(1, False)
    table.set_partition_filters(True)
    table.set_index_type(rd.BlockBasedIndexType.two_level_index_search())
    table.set_metadata_block_size(256)
    if version is not None:
        table.set_format_version(version)
    opts.set_block_based_table_factory(table)
    writer = rd.SstFileWriter(opts)
    writer.open(str(tmp_path / "t.sst"))
    for i in range(20_000):
        writer[f"k{i:06d}".encode()] = b"v"
    writer.finish()
    summaries = [f.summary() for f in formats.open_filters(tmp_path / "t.sst")]
    assert len(summaries) > 1 and any(s["fill"] > atlas.HALF_FILL for s in summaries)
    assert atlas.summarise(summaries)["past_design"] == 0
    assert all(s["past_design_known"] == SIZED for s in summaries)
