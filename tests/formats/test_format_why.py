""""Why is the rate higher than configured?" on files the real software wrote: each system's reasons name its
own rule with the file's numbers, and where the software answers lookups its answers back the reasons
(RocksDB's ``key_may_exist``); LevelDB's and pyarrow's settings are the ones the test gave. git's: the sibling
test_format_why_git.py."""

from __future__ import annotations

import json
import math
import random
import re

import pytest

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats.why import why
from world_fixtures import fixture


def _why(path) -> list[str]:
    return why(formats.detect(path), formats.open_filters(path))


def _rocks_table(rd, path, keys, legacy: bool):
    opts = rd.Options(raw_mode=True)
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    table.disable_cache()
    if legacy:
        table.set_format_version(4)
    opts.set_block_based_table_factory(table)
    opts.create_if_missing(True)
    writer = rd.SstFileWriter(opts)
    writer.open(str(path))
    for key in keys:
        writer[key] = b"v"
    writer.finish()
    return opts


@pytest.mark.parametrize("legacy", [False, True], ids=["fastlocalbloom", "legacy"])
def test_rocksdb_reasons_match_rocksdbs_own_answers(tmp_path, legacy):
    rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")
    keys = [f"user:{i:07d}".encode() for i in range(30_000)]
    sst = tmp_path / "t.sst"
    opts = _rocks_table(rd, sst, keys, legacy)
    db = rd.Rdict(str(tmp_path / "db"), opts)
    try:
        db.ingest_external_file([str(sst)])
        rng = random.Random(3)
        probes = [f"user:{rng.randrange(30_000):07d}x".encode() for _ in range(30_000)]
        passed = sum(db.key_may_exist(p) for p in probes) / len(probes)   # RocksDB's own filter answers
    finally:
        db.close()
    (flt,) = formats.open_filters(sst)
    (reason,) = _why(sst)
    per_key = float(re.search(r"([\d.]+) bits per key \(m / rocksdb.num.filter_entries\)", reason).group(1))
    assert 9.99 <= per_key < 10.1 and re.search(rf"k = (⌊0.69 × that⌋ = )?{flt.k}\b", reason)
    rates = [float(x) / 100 for x in re.findall(r"([\d.]+) %", reason)]
    sd = math.sqrt(passed * (1 - passed) / len(probes))
    if legacy:
        # the shared 32-bit hash: RocksDB's answers sit above the lines' fill and near RocksDB's own model
        fill_rate, model = rates[-2], rates[-1]
        assert "legacy Bloom" in reason and passed > fill_rate + 2 * sd and abs(passed - model) < abs(passed - fill_rate)
    else:
        textbook, from_lines, flat = rates[0], rates[1], rates[2]
        # what a user configured (the flat textbook at 10 bits per key) is below what RocksDB answers; the
        # lines' fill predicts RocksDB's answers, and is above the flat formula at the same fill
        assert abs(passed - from_lines) < 3 * sd and from_lines > flat and passed > textbook


def test_leveldb_reasons_name_the_bits_per_key_leveldb_was_given(tmp_path):
    plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")
    db = plyvel.DB(str(tmp_path / "db"), create_if_missing=True, bloom_filter_bits=10)
    for i in range(30_000):
        db.put(f"user:{i:07d}".encode(), b"x" * 20)
    db.compact_range()
    db.close()
    reasons = _why(tmp_path / "db")
    assert "k = 6 fits bits_per_key 9, 10" in reasons[0]
    per_key = float(re.search(r"about ([\d.]+) bits per key", reasons[0]).group(1))
    assert 9.5 < per_key < 11.5          # an estimate from the fill, around the 10 LevelDB was given
    assert any("one 32-bit hash" in r for r in reasons)


def test_parquet_reasons_tell_an_undersized_ndv_from_a_right_one(tmp_path):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra; not installed here")
    import pyarrow.parquet as pq
    table = pa.table({"id": [f"user:{i:06d}" for i in range(20_000)], "n": list(range(20_000))})
    path = tmp_path / "t.parquet"
    pq.write_table(table, path, bloom_filter_options={"id": {"ndv": 4_000, "fpp": 0.01},
                                                      "n": {"ndv": 20_000, "fpp": 0.01}})
    filters = formats.open_filters(path)
    reasons = why("parquet", filters)
    under = next(r for r in reasons if r.startswith("column id"))
    right = next(r for r in reasons if r.startswith("column n"))
    lo, hi = (float(x.replace(",", "")) for x in re.search(r"ndv ([\d,]+)\.\.([\d,]+) at fpp 0.01", under).groups())
    assert lo < 4_000 <= hi                           # the ndv pyarrow was given is in the range read back
    assert "more than it was sized for" in under and "within what it was sized for" in right
    by_column = {f.fields["column"]: f for f in filters}
    assert by_column["id"].expected_fp > 0.05 > by_column["n"].expected_fp
    assert by_column["id"].design_n < 20_000 < by_column["n"].design_n


def test_cassandra_reasons_follow_bloomcalculations_on_a_real_sstable():
    path = fixture("cassandra-3.11-iot", "md-2-big-Filter.db")
    (flt,) = formats.open_filters(path)
    reasons = _why(path)
    assert "fp_chance 0.01" in reasons[0] and "10, then the fewest hashes" in reasons[0] and "k = 5" in reasons[0]
    assert f"k = {flt.k}" in reasons[0] and "another chance" not in reasons[0]
    lo, hi = (int(x.replace(",", "")) for x in re.search(r"sized for ([\d,]+)\.\.([\d,]+) partitions",
                                                         reasons[1]).groups())
    assert lo <= flt.fields["partitions"] == 1000 <= hi


def test_ethereum_reasons_on_the_shipped_mainnet_block():
    from pathlib import Path
    import bloomviz
    path = Path(bloomviz.__file__).parent / "data" / "ethereum-block-2024-06-03.json"
    reasons = _why(path)
    (flt,) = formats.open_filters(path)
    assert flt.label == "block 0xb5f712d1c6eab970…"       # the file has no block number: named by its hash
    assert "2,048 bits and k = 3" in reasons[0] and "1 % at 166 keys" in reasons[0]
    assert "906 of 2,048 bits set" in reasons[1] and "8.66 %" in reasons[1]


def test_hudi_reasons_on_real_base_files():
    path = fixture("hudi-footer-bloom", "v8_nonpartitioned__2746610d-ad02-4adb-a038-5cbb99cbd455-0_0-54-79_"
                                        "20250713010535797.parquet")
    reasons = _why(path)
    assert "60,000 here" in reasons[0] and "1e-09" in reasons[0]


def test_inspect_prints_the_reasons_and_json_holds_them(capsys):
    path = fixture("cassandra-3.11-iot", "md-2-big-Filter.db")
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "why the rate can be higher than configured" in out and "BloomCalculations" in out
    assert main(["inspect", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["why"] == _why(path)


def test_ethereum_reasons_for_a_mainnet_receipt_count_its_logs_keys(tmp_path):
    from test_format_ethereum import RECEIPTS      # two mainnet receipts (ethers.js's test data)
    receipt = max(RECEIPTS, key=lambda r: len(r["logs"]))
    keys = {v.lower() for log in receipt["logs"] for v in [log["address"], *log["topics"]]}
    path = tmp_path / "receipt.json"
    path.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": receipt}))
    line = _why(path)[1]
    from bloomviz.formats.why_rules import pct
    textbook = (1 - math.exp(-3 * len(keys) / 2048)) ** 3
    assert f"{len(keys):,} distinct addresses and topics in its logs" in line and pct(textbook) in line


def test_hudi_reasons_count_the_keys_as_the_filter_and_the_file_do():
    pa_parquet = pytest.importorskip("pyarrow.parquet", reason="pyarrow is in the test extra; not installed here")
    from world_fixtures import FIXTURES
    fixture("hudi-footer-bloom")
    for path in sorted((FIXTURES / "hudi-footer-bloom").glob("*.parquet")):
        keys = set(pa_parquet.read_table(path, columns=["_hoodie_record_key"]).column(0).to_pylist())
        line = next(r for r in _why(path) if r.startswith("This filter"))
        assert f"{len(keys)} keys by its own count (the file holds {len(keys)} records)" in line
