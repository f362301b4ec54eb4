"""RocksDB's reasons on tables RocksDB wrote in the ways its users get them: a table of one key (RocksDB's own
model had read 50 %), partitions whose k differ (each from its own bits per key), and a Ribbon policy whose flush
wrote a Bloom filter (RocksDB's bloom_before_level)."""

from __future__ import annotations

import glob
import re

import pytest

from bloomviz import formats
from bloomviz.formats.why import why

rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")


def _options(partition: bool = False):
    opts = rd.Options(raw_mode=True)
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    table.disable_cache()
    if partition:
        table.set_partition_filters(True)
        table.set_index_type(rd.BlockBasedIndexType.two_level_index_search())
        table.set_metadata_block_size(4096)
    opts.set_block_based_table_factory(table)
    opts.create_if_missing(True)
    return opts


def test_a_one_key_table_is_not_given_a_50_percent_model(tmp_path):
    sst = tmp_path / "one.sst"
    writer = rd.SstFileWriter(_options())
    writer.open(str(sst))
    writer[b"only"] = b"v"
    writer.finish()
    (flt,) = formats.open_filters(sst)
    # RocksDB's EstimatedFpRate at 1 key in 512 bits: the crowded side's (1 - e^(-24/256))^24 / 2 and the
    # 2^-64 hash collision; no key is in range to ask RocksDB itself (its range is the one key)
    assert flt.fields["num.filter_entries"] == 1
    assert flt.fields["rocksdb_estimated_fp"] < 1e-6          # was 0.5: a keyless "uncrowded" line counted as 1
    (reason,) = why("rocksdb", [flt])
    assert "RocksDB's own model says 50 %" not in reason


def test_partitions_with_different_k_say_so(tmp_path):
    db = rd.Rdict(str(tmp_path / "db"), _options(partition=True))
    for i in range(50_000):
        db[f"user:{i:07d}".encode()] = b"v" * 20
    db.flush()
    db.close()
    filters = formats.open_filters(tmp_path / "db")
    ks = sorted({f.k for f in filters})
    assert len(filters) > 5 and all(f.fields.get("partitions") == len(filters) for f in filters)
    (reason,) = why("rocksdb", filters)
    if len(ks) == 1:
        assert re.search(rf"k = {ks[0]} from FastLocalBloom", reason)
    else:
        assert f"k = {ks[0]} to {ks[-1]} (each partition's own)" in reason


def test_a_ribbon_policy_flush_writes_bloom_and_the_reasons_say_why(tmp_path):
    path = tmp_path / "db"
    db = rd.Rdict(str(path), _options())
    db.close()
    options_file = sorted(glob.glob(str(path / "OPTIONS-*")))[-1]
    text = open(options_file).read()
    with open(options_file, "w") as out:
        out.write(text.replace("filter_policy=bloomfilter", "filter_policy=ribbonfilter:10"))
    _, families = rd.Options.load_latest(str(path))
    opts = families["default"]
    opts.create_if_missing(True)
    db = rd.Rdict(str(path), opts)
    keys = [f"user:{i:07d}".encode() for i in range(20_000)]
    for key in keys:
        db[key] = b"v"
    db.flush()
    db.compact_range(None, None)    # one file: RocksDB moves it to the last level as it is (a trivial move)
    passed = sum(db.key_may_exist(f"user:{i:07d}x".encode()) for i in range(0, 20_000, 2)) / 10_000
    db.close()
    log = (path / "LOG").read_text(errors="replace")
    assert '"event": "trivial_move"' in log
    filters = [f for f in formats.open_filters(path) if f.fields.get("num.filter_entries") == len(keys)]
    (flt,) = filters
    assert flt.fields["filter.policy"].startswith("ribbonfilter")
    assert flt.fields["implementation"] == "FastLocalBloom"       # written by the flush, kept by the move
    # RocksDB's own answers are a Bloom filter's at 10 bits per key (~0.95 %), not a Ribbon's
    assert abs(passed - flt.expected_fp) < 0.004
    reasons = why("rocksdb", filters)
    assert any("its policy is ribbonfilter, but this table holds a Bloom filter" in r and "trivial move" in r
               for r in reasons)
