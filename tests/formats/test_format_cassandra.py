"""Cassandra ``-Filter.db`` on SSTables Cassandra 3.x wrote (public test fixtures, read in place): every
partition key of the table's own ``Index.db`` answers "probably present", with Cassandra's signed-tail
MurmurHash3 (the reference hash loses ~40 % of them), and the configured ``bloom_filter_fp_chance`` is read
from ``Statistics.db``."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import mmh3
import pytest

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats import cassandra, cassandra_sstable
from bloomviz.formats.cassandra_murmur import hash3_x64_128, python_hash
from world_fixtures import fixture

IOT = ("cassandra-3.11-iot", "md-2-big-Filter.db")
TINY = [("cassandra-3.x-tiny", f"{v}-big-Filter.db") for v in ("ma-1", "ma-2", "ma-3", "ma-4", "mb-1", "mc-1")]


def _keys(path):
    return cassandra_sstable.index_keys(cassandra_sstable.sibling(path, "Index.db"), cassandra_sstable.version_of(path))


@pytest.mark.parametrize("parts", [IOT, *TINY])
def test_every_partition_key_is_present(parts):
    path = fixture(*parts)
    assert formats.detect(path) == "cassandra"
    [flt] = formats.open_filters(path)
    keys = _keys(path)
    assert keys and flt.fields["partitions"] == len(keys)
    assert [k for k in keys if not flt.lookup(k).maybe_present] == []
    assert all(flt.lookup("0x" + k.hex()).maybe_present for k in keys)


def test_the_iot_table_reports_its_configured_rate_and_signed_tails_matter(monkeypatch):
    path = fixture(*IOT)
    [flt] = formats.open_filters(path)
    assert (flt.m, flt.k, flt.fields["sstable_version"]) == (157 * 64, 5, "md")
    assert flt.design_fp == 0.01 and flt.fields["fp_chance_from"] == "Statistics.db"
    assert "Murmur3Partitioner" in flt.fields["partitioner"] and "CompositeType" in flt.fields["key_type"]
    assert abs(flt.estimated_count - 1000) < 30 and flt.expected_fp < 0.01
    keys = _keys(path)
    signed = [k for k in keys if any(b >= 0x80 for b in k[len(k) & ~15:])]
    assert len(signed) > 300
    # with the reference MurmurHash3 those keys land elsewhere: members go missing
    monkeypatch.setattr(cassandra, "hash3_x64_128", lambda d, seed=0: mmh3.hash64(d, seed, signed=False))
    assert sum(not flt.lookup(k).maybe_present for k in signed) > 200
    [other] = formats.open_filters(path, fp_chance=0.001)
    assert other.design_fp == 0.001 and other.fields["fp_chance_from"] == "--fp-chance"


def test_hash_equals_the_cassandra_driver_token_and_mmh3_where_tails_are_ascii():
    rng = random.Random(24)
    samples = [bytes(rng.randrange(256) for _ in range(n)) for n in range(0, 70) for _ in range(6)]
    for data in samples:
        assert python_hash(data, 0, signed_tail=False) == mmh3.hash64(data, 0, signed=False)
        if not any(b >= 0x80 for b in data[len(data) & ~15:]):
            assert hash3_x64_128(data) == mmh3.hash64(data, 0, signed=False)
    murmur3 = pytest.importorskip("cassandra.murmur3", reason="cassandra-driver (test extra) computes tokens")
    for data in samples:   # the driver's token is Cassandra's h1 as a signed long
        h1 = hash3_x64_128(data)[0]
        assert (h1 - (1 << 64) if h1 >> 63 else h1) == murmur3.murmur3(data)


def test_the_4_0_layout_is_raw_bytes(tmp_path):
    """From format na on the bits are the off-heap bytes as they are: rewrite the 3.x words that way, name the
    file as a 4.0 SSTable, and the same keys answer present (and not when the name claims 3.x)."""
    path = fixture(*IOT)
    raw = path.read_bytes()
    words = [raw[8 + 8 * i:16 + 8 * i] for i in range((len(raw) - 8) // 8)]
    shutil.copy(cassandra_sstable.sibling(path, "Index.db"), tmp_path / "nb-2-big-Index.db")
    new = tmp_path / "nb-2-big-Filter.db"
    new.write_bytes(raw[:8] + b"".join(w[::-1] for w in words))
    [flt] = formats.open_filters(new)
    assert flt.fields["sstable_version"] == "nb"
    assert all(flt.lookup(k).maybe_present for k in _keys(path))
    [wrong] = formats.open_filters(new, sstable_version="md")
    assert sum(not wrong.lookup(k).maybe_present for k in _keys(path)) > 100


def test_cli_inspect_and_check(capsys, tmp_path):
    path = fixture(*IOT)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    for text in ("bloom_filter_fp_chance 0.01", "partitions            1,000", "design FP             0.01"):
        assert text in out, text
    keys = _keys(path)
    listing = tmp_path / "keys.txt"
    listing.write_text("\n".join("0x" + k.hex() for k in keys) + "\n", encoding="utf-8")
    assert main(["check", "--json", "--items", str(listing), str(path)]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    assert len(items) == 1000 and {i["verdict"] for i in items} == {"probably present"}
    [flt] = formats.open_filters(path)
    absent = next(f"0x{i:08x}" for i in range(10_000) if not flt.lookup(f"0x{i:08x}").maybe_present)
    assert main(["check", str(path), absent, "0xzz"]) == 3           # one item refused, the others answered
    out = capsys.readouterr().out
    assert "refused\t0xzz" in out and f"definitely absent\t{absent}" in out
    assert main(["check", str(path), absent]) == 1
    zero = flt.lookup(absent).zero_positions[0]
    assert capsys.readouterr().out == f"definitely absent\t{absent}\t(bit {zero:,} is 0)\n"


def test_damaged_components_beside_the_filter_are_named_not_fatal(tmp_path):
    path = fixture(*IOT)
    shutil.copy(path, tmp_path / "md-2-big-Filter.db")
    (tmp_path / "md-2-big-Index.db").write_bytes(Path(cassandra_sstable.sibling(path, "Index.db")).read_bytes()[:100])
    (tmp_path / "md-2-big-Statistics.db").write_bytes(b"\x00\x00\x00\x09" + b"\x00" * 10)
    [flt] = formats.open_filters(tmp_path / "md-2-big-Filter.db")
    notes = " ".join(flt.notes)
    assert "Index.db" in notes and "offset" in notes and "Statistics.db" in notes and flt.design_fp is None
    with pytest.raises(formats.ForeignFormatError, match="at offset 4: word count"):
        bad = tmp_path / "x-Filter.db"
        bad.write_bytes(b"\x00\x00\x00\x05\x00\x00\x10\x00" + bytes(64))
        formats.open_filters(bad, "cassandra")


@pytest.mark.parametrize("parts", [IOT, *TINY])
def test_keys_given_as_column_values_serialize_as_cassandra_did(parts):
    from bloomviz.formats import cassandra_keys
    path = fixture(*parts)
    [flt] = formats.open_filters(path)
    key_type = flt.fields["key_type"]
    for key in _keys(path):
        values = cassandra_keys.values_from_key(key_type, key)
        item = json.dumps(values) if key_type.startswith("org.apache.cassandra.db.marshal.CompositeType") \
            else values[0]
        assert cassandra_keys.key_from_values(key_type, item) == key     # the bytes Index.db holds
        assert flt.lookup(item).maybe_present


def test_column_value_refusals_name_the_key_s_columns():
    path = fixture(*IOT)
    [flt] = formats.open_filters(path)
    with pytest.raises(ValueError, match=r"2 columns \(UUIDType, UTF8Type\)"):
        flt.lookup("dispersion")
    with pytest.raises(ValueError, match="is not a UUIDType value"):
        flt.lookup('["not-a-uuid", "x"]')


def test_value_encodings_of_other_key_types():
    from bloomviz.formats.cassandra_keys import value_bytes
    assert [value_bytes("IntegerType", v).hex() for v in ("0", "127", "128", "-1", "-129")] == [
        "00", "7f", "0080", "ff", "ff7f"]                 # BigInteger.toByteArray: shortest two's complement
    assert value_bytes("SimpleDateType", "0").hex() == "80000000"            # the epoch is 2^31
    assert value_bytes("ReversedType(org.apache.cassandra.db.marshal.LongType)", "-2").hex() == "f" * 15 + "e"
    assert value_bytes("InetAddressType", "10.0.0.1") == bytes([10, 0, 0, 1])
    with pytest.raises(ValueError, match="not serialized here"):
        value_bytes("DecimalType", "1.5")


def test_the_readme_figures_of_the_iot_table(monkeypatch):
    # README, "Cassandra / ScyllaDB": the table's numbers and how many keys the reference hash would lose
    import re
    readme = re.sub(r"\s+", " ", (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8"))
    path = fixture(*IOT)
    [flt] = formats.open_filters(path)
    keys = _keys(path)
    signed = [k for k in keys if any(b >= 0x80 for b in k[len(k) & ~15:])]
    monkeypatch.setattr(cassandra, "hash3_x64_128", lambda d, seed=0: mmh3.hash64(d, seed, signed=False))
    lost = sum(not flt.lookup(k).maybe_present for k in keys)
    assert (f"{len(signed)} of its {len(keys):,} partition keys have such a tail, and with the reference hash "
            f"{lost} of them would go missing") in readme
    assert (f"That table: m = {flt.m:,}, k = {flt.k}, fill {flt.bits_set / flt.m:.1%}, "
            f"{flt.estimated_count:,.0f} entries estimated for {len(keys):,} partitions, "
            f"{flt.expected_fp:.2%} predicted from its fill against its `bloom_filter_fp_chance` of "
            f"{flt.design_fp}").replace("%", " %") in readme
