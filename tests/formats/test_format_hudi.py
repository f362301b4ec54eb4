"""Apache Hudi's record-key filter in base files Hudi wrote (public test fixtures, read in place): the
filter rebuilt from the files' own ``_hoodie_record_key`` column equals the stored bits exactly, every key
answers "probably present", and the rate Hudi sized it for (1e-9 by default) comes back from m and nr."""

from __future__ import annotations

import base64
import json

import pytest
from bitarray import bitarray

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats import hudi
from world_fixtures import fixture

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (test extra) reads the files' record keys")

FILES = ["v6_nonpartitioned__a079bdb3-731c-4894-b855-abfcd6921007-0_0-182-253_20240418173550988.parquet",
         "v8_nonpartitioned__2746610d-ad02-4adb-a038-5cbb99cbd455-0_0-75-100_20250713010536861.parquet"]


def _keys(path) -> list[str]:
    return pq.read_table(path, columns=["_hoodie_record_key"]).column(0).to_pylist()


@pytest.mark.parametrize("name", FILES)
def test_the_stored_bits_are_the_record_keys_hashed_as_hudi_does(name):
    path = fixture("hudi-footer-bloom", name)
    assert formats.detect(path) == "hudi"
    [flt] = formats.open_filters(path)
    keys = _keys(path)
    assert keys and all(flt.lookup(k).maybe_present for k in keys)
    rebuilt = bitarray(flt.m, endian="little")
    rebuilt.setall(0)
    for key in keys:
        for p in hudi.positions(key.encode(), flt.k, flt.m):
            rebuilt[p] = 1
    assert rebuilt == flt.bits    # bit for bit: layout, hash, seeds chaining and index rule all agree
    assert (flt.k, flt.fields["type_code"], flt.fields["entries_per_row"]) == (30, "DYNAMIC_V0", 60000)
    assert flt.fields["entries_in_last_row"] == len(keys)
    assert flt.design_fp == pytest.approx(1e-9, rel=1e-4)   # Hudi's default hoodie.index.bloom.fpp
    assert flt.estimated_count == pytest.approx(len(keys), abs=0.01)


def test_murmur2_signed_tail_and_chained_seeds():
    # the tail's byte >= 0x80 is sign-extended as a Java byte: it changes the hash against an unsigned tail
    assert hudi.murmur2_32(b"\xff", 0) != hudi.murmur2_32(b"\x7f", 0)
    a = hudi.positions(b"key-1", 5, 1000)
    assert len(set(a)) > 1 and a[1] == abs(hudi.murmur2_32(b"key-1", hudi.murmur2_32(b"key-1", 0))) % 1000


def test_cli_check_and_a_damaged_footer(capsys, tmp_path):
    path = fixture("hudi-footer-bloom", FILES[0])
    assert main(["check", "--json", str(path), "1", "2", "3", "never-a-key"]) == 1
    items = json.loads(capsys.readouterr().out)["items"]
    assert [i["verdict"] for i in items] == ["probably present"] * 3 + ["definitely absent"]
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "design FP" in out and "DYNAMIC_V0" in out and "entries_per_row" in out
    raw = bytearray(path.read_bytes())
    at = raw.find(base64.b64encode(b"\xff\xff\xff\xff")[:4])
    raw[at:at + 4] = base64.b64encode(b"\x00\x00\x00")   # the version -1 (ff ff ff ff) becomes 00 00 00 ff
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(bytes(raw))
    with pytest.raises(formats.ForeignFormatError, match="byte 0: the filter has version 255, not -1"):
        formats.open_filters(bad, "hudi")   # detection would name Parquet: as plain Parquet it holds no filters


def test_a_simple_filter_is_read_like_one_row(tmp_path):
    """Hudi's SIMPLE type is one filter with no row counts: its layout is a DYNAMIC_V0 row's. The row Hudi
    wrote is put alone in a footer (pyarrow writes the file; the bits are Hudi's) and read back as SIMPLE."""
    import struct
    path = fixture("hudi-footer-bloom", FILES[0])
    meta = pq.ParquetFile(path).metadata.metadata
    raw = base64.b64decode(meta[hudi.KEY])
    row = raw[13 + 12:]                                   # the header, nr/current/rows, then row 0 whole
    assert struct.unpack(">iibi", row[:13]) == struct.unpack(">iibi", raw[:13])
    keys = _keys(path)
    table = pq.read_table(path, columns=["_hoodie_record_key"]).replace_schema_metadata({
        hudi.KEY: base64.b64encode(row), hudi.TYPE_KEY: b"SIMPLE",
        b"hoodie_min_record_key": min(keys).encode(), b"hoodie_max_record_key": max(keys).encode()})
    simple = tmp_path / "simple.parquet"
    pq.write_table(table, simple)
    assert formats.detect(simple) == "hudi"
    [flt] = formats.open_filters(simple)   # detected although Arrow put its schema after the hoodie_ keys
    [dynamic] = formats.open_filters(path)
    assert flt.fields["type_code"] == "SIMPLE" and "rows" not in flt.fields and flt.design_fp is None
    assert flt.bits == dynamic.bits and all(flt.lookup(k).maybe_present for k in keys)


def test_the_readme_figures_of_the_base_files():
    import re
    from pathlib import Path
    readme = re.sub(r"\s+", " ", (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8"))
    filters = [formats.open_filters(fixture("hudi-footer-bloom", name))[0] for name in FILES]
    assert len({f.m for f in filters}) == 1 and len({f.fields["entries_per_row"] for f in filters}) == 1
    flt = filters[0]
    mantissa, exponent = f"{flt.design_fp:.1e}".split("e")
    power = "⁻" + str(int(exponent[1:])).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    assert (f"equals the stored {flt.m:,} bits; the rate recovered from m and the {flt.fields['entries_per_row']:,} "
            f"entries per row is {mantissa} × 10{power}") in readme
