"""RocksDB tables written by RocksDB itself (rocksdict's bundled library): a full FastLocalBloom filter
(format_version 6, the default), the legacy Bloom filter (format_version 4), partitioned filters, a Ribbon
filter, and a database directory.

The truth is RocksDB's own filter answer. For a full filter, ``Rdict.key_may_exist`` on a database holding
only the table (block cache off, so no data block can answer for it) is the filter's answer for keys inside
the table's key range. A partitioned filter's partitions are not read without I/O there, so for those the
answer is RocksDB's ticker ``rocksdb.bloom.filter.useful``, which counts the lookups a filter ruled out: one
``get`` per probe, and the count rises exactly when RocksDB's filter said "absent".
"""

from __future__ import annotations

import glob
import random
import re

import pytest

from bloomviz import formats
from bloomviz.formats import ForeignFormatError, rocksdb

rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")


def table_options(fv=None, partition=False, cache=False, stats=False):
    opts = rd.Options(raw_mode=True)
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    if not cache:
        table.disable_cache()
    if fv is not None:
        table.set_format_version(fv)
    if partition:
        table.set_partition_filters(True)
        table.set_index_type(rd.BlockBasedIndexType.two_level_index_search())
        table.set_metadata_block_size(512)
    opts.set_block_based_table_factory(table)
    opts.create_if_missing(True)
    if stats:
        opts.enable_statistics()
    return opts


def ribbon_options(tmp):
    """RocksDB's Ribbon policy is not in rocksdict's API; its OPTIONS file takes it (filter_policy=ribbonfilter)."""
    db = rd.Rdict(str(tmp / "ribbon-options"), table_options())
    db.close()
    options_file = sorted(glob.glob(str(tmp / "ribbon-options" / "OPTIONS-*")))[-1]
    text = open(options_file).read()
    assert "filter_policy=bloomfilter" in text
    with open(options_file, "w") as out:
        out.write(text.replace("filter_policy=bloomfilter", "filter_policy=ribbonfilter:10"))
    _, families = rd.Options.load_latest(str(tmp / "ribbon-options"))
    return families["default"]


KEYS = sorted({bytes(random.Random(11).randrange(256) for _ in range(n)) for n in range(1, 4)} |
              {bytes(r.randrange(256) for _ in range(r.randrange(1, 40))) for r in [random.Random(5)]
               for _ in range(5000)} | {f"row-{i:05d}-ü".encode() for i in range(400)})


def probes(n: int, seed: int) -> list[bytes]:
    rng, members = random.Random(seed), set(KEYS)
    out = (bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) for _ in range(n))
    return [p for p in out if p not in members and KEYS[0] < p < KEYS[-1]]


def write_sst(path, opts) -> None:
    writer = rd.SstFileWriter(opts)
    writer.open(str(path))
    for key in KEYS:
        writer[key] = b"v"
    writer.finish()


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rocksdb")
    made = {}
    for name, opts in (("fast", table_options()), ("legacy", table_options(fv=4)),
                       ("partitioned", table_options(partition=True)), ("ribbon", ribbon_options(tmp))):
        write_sst(tmp / f"{name}.sst", opts)
        made[name] = tmp / f"{name}.sst"
    return tmp, made


@pytest.mark.parametrize("name,implementation,version", [("fast", "FastLocalBloom", 6), ("legacy", "legacy Bloom", 4)])
def test_full_filter_answers_equal_rocksdbs(tables, name, implementation, version):
    tmp, made = tables
    assert formats.detect(made[name]) == "rocksdb"
    [f] = formats.open_filters(made[name])
    assert f.fields["implementation"] == implementation and f.fields["format_version"] == version
    assert f.fields["num.filter_entries"] == len(KEYS)
    assert all(key in f for key in KEYS)                           # 0 false negatives
    db = rd.Rdict(str(tmp / f"db-{name}"), table_options(fv=4 if name == "legacy" else None))
    try:
        db.ingest_external_file([str(made[name])])
        probe = probes(8000, 1)
        ours = [p in f for p in probe]
        theirs = [db.key_may_exist(p) for p in probe]
    finally:
        db.close()
    assert ours == theirs
    assert 15 < sum(ours) < 300   # the false positives are there, and they are RocksDB's own
    assert abs(f.estimated_count - len(KEYS)) < 0.03 * len(KEYS)
    assert 0.5 * f.expected_fp < sum(ours) / len(ours) < 2 * f.expected_fp
    assert 0.5 < f.fields["rocksdb_estimated_fp"] / f.expected_fp < 2   # RocksDB's own model, beside the fill's


def useful(opts) -> int:
    return int(re.search(r"rocksdb\.bloom\.filter\.useful COUNT : (\d+)", opts.get_statistics()).group(1))


def test_partitioned_filter_answers_equal_rocksdbs_counter(tables):
    tmp, made = tables
    filters = formats.open_filters(made["partitioned"])
    assert len(filters) == filters[0].fields["partitions"] > 5
    assert {f.fields["implementation"] for f in filters} == {"FastLocalBloom"}
    for key in KEYS:
        [part] = rocksdb.route(filters, key)
        assert key in part
    opts = table_options(partition=True, cache=True, stats=True)
    db = rd.Rdict(str(tmp / "db-partitioned"), opts)
    try:
        db.ingest_external_file([str(made["partitioned"])])
        ours, theirs = [], []
        for p in probes(700, 2):
            [part] = rocksdb.route(filters, p)
            ours.append(p in part)
            before = useful(opts)
            assert db.get(p) is None
            theirs.append(useful(opts) == before)
    finally:
        db.close()
    assert ours == theirs and 0 < sum(ours) < 40


def test_ribbon_is_described_and_membership_refused_with_reason(tables):
    _, made = tables
    [f] = formats.open_filters(made["ribbon"])
    assert f.fields["implementation"] == "Standard128Ribbon"
    assert f.fields["slots"] == 128 * f.fields["ribbon_blocks"] and f.fields["num.filter_entries"] == len(KEYS)
    assert f.m == 8 * (f.fields["filter_bytes"] - 5)
    assert 6 < f.m / f.fields["slots"] < 8 and 0.004 < f.expected_fp < 0.02
    assert f.summary()["estimated_n"] is None and f.summary()["membership"] is False
    with pytest.raises(ValueError, match="Ribbon"):
        f.lookup(KEYS[0])


def test_database_directory(tmp_path):
    db = rd.Rdict(str(tmp_path / "db"), table_options())
    for key in KEYS[:3000]:
        db[key] = b"x"
    db.flush()
    for key in KEYS[3000:]:
        db[key] = b"y"
    db.flush()
    db.close()
    assert formats.detect(tmp_path / "db") == "rocksdb"
    filters = formats.open_filters(tmp_path / "db")
    assert len(filters) == 2 and len({f.fields["table"] for f in filters}) == 2
    for key in KEYS:
        assert any(key in f for f in rocksdb.route(filters, key))


def test_leveldb_magic_and_damage_are_refused(tables, tmp_path):
    _, made = tables
    raw = bytearray(made["fast"].read_bytes())
    [f] = formats.open_filters(made["fast"])
    raw[f.fields["filter_offset"] + 10] ^= 1
    (tmp_path / "flip.sst").write_bytes(raw)
    with pytest.raises(ForeignFormatError, match=f"filter block at offset {f.fields['filter_offset']:,}: checksum"):
        formats.open_filters(tmp_path / "flip.sst")
    raw = bytearray(made["fast"].read_bytes())
    raw[-8:] = (0xDB4775248B80FB57).to_bytes(8, "little")
    (tmp_path / "old.sst").write_bytes(raw)
    with pytest.raises(ForeignFormatError, match="LevelDB's"):
        formats.open_filters(tmp_path / "old.sst", "rocksdb")
    raw = bytearray(made["fast"].read_bytes())
    raw[-12] = 99
    (tmp_path / "v99.sst").write_bytes(raw)
    with pytest.raises(ForeignFormatError, match="format_version 99"):
        formats.open_filters(tmp_path / "v99.sst")


def test_inspect_words_for_cache_lines_and_ribbon(tables):
    from bloomviz.commands.foreign import layout_text

    _, made = tables
    [fast] = formats.open_filters(made["fast"])
    assert layout_text(fast.m, fast.k, fast.layout) == (f"{fast.m // 512:,} blocks of 512 bits (each item sets its "
                                                        f"{fast.k} bits inside one block)")
    [ribbon] = formats.open_filters(made["ribbon"])
    assert layout_text(ribbon.m, ribbon.k, ribbon.layout).startswith(f"a Ribbon solution of {ribbon.fields['slots']:,} "
                                                                      "slots")


def test_partitions_under_a_custom_comparator_say_so(tmp_path):
    plain = rd.Options()                       # rocksdict's own mode: its own comparator, "rocksdict"
    plain.set_block_based_table_factory(_partitioned_table())
    writer = rd.SstFileWriter(plain)
    writer.open(str(tmp_path / "custom.sst"))
    for i in range(2000):
        writer[b"k%05d" % i] = b"v"
    writer.finish()
    filters = formats.open_filters(tmp_path / "custom.sst")
    assert filters[0].fields["comparator"] == "rocksdict"
    assert all(any("comparator rocksdict" in note for note in f.notes) for f in filters)


def _partitioned_table():
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    table.set_partition_filters(True)
    table.set_index_type(rd.BlockBasedIndexType.two_level_index_search())
    table.set_metadata_block_size(512)
    return table
