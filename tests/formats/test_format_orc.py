"""ORC bloom-filter streams in files Apache ORC's C++ writer wrote (through pyarrow): one filter per column per
row group; each filter rebuilt from its row group's values with the reader's hashing equals the stored bits
exactly, so every member answers present and every non-member answers as ORC would."""

from __future__ import annotations

import json

import pytest
from bitarray import bitarray

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats import orc
from orc_writer import write_orc


@pytest.mark.parametrize("compression", ["uncompressed", "zlib"])
def test_every_filter_is_its_row_groups_values_hashed_as_orc_does(tmp_path, compression):
    path = tmp_path / "t.orc"
    values = write_orc(path, compression=compression)
    assert formats.detect(path) == "orc"
    filters = formats.open_filters(path)
    assert len(filters) == 4 * 3 and {f.fields["column"] for f in filters} == set(values)
    for f in filters:
        g = f.fields["row_group"]
        rows = values[f.fields["column"]][g * 1000:(g + 1) * 1000]
        rebuilt = bitarray(f.m, endian="little")
        rebuilt.setall(0)
        for v in rows:
            for p in f.lookup(str(v)).positions:
                rebuilt[p] = 1
        assert rebuilt == f.bits, f.label
        assert f.design_fp == pytest.approx(0.05, rel=0.02) and f.design_n == 1000


def test_hash64_matches_orc_s_published_vector_and_the_index_rule():
    # ORC's own test (c++/test/TestMurmur3.cc, the same value as the Java TestMurmur3#testHashCodeM3_64)
    text = (b"It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of "
            b"foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the season of Light, "
            b"it was the season of Darkness, it was the spring of hope, it was the winter of despair, we had "
            b"everything before us, we had nothing before us, we were all going direct to Heaven, we were all "
            b"going direct the other way.")
    assert orc.murmur3_hash64(text) == 305830725663368540
    assert orc.positions(0x0000000100000002, 3, 64) == (3, 4, 5)          # h1 = 2, h2 = 1
    assert orc.positions(0xFFFFFFFFFFFFFFFE, 2, 1000) == (~-3 % 1000, ~-4 % 1000)   # negatives flipped: 2, 3


def test_cli_atlas_and_check_by_column(capsys, tmp_path):
    path = tmp_path / "t.orc"
    values = write_orc(path, rows=5000)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "filters               20" in out and "atlas" in out and "past design load" in out
    assert main(["check", str(path), "item-1"]) == 2
    assert "choose one with --column" in capsys.readouterr().err
    assert main(["check", "--json", "--column", "s", str(path), "item-1", "item-4999"]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    assert "column s, stripe 0, row group 0" in items[0]["present_in"]
    assert "column s, stripe 0, row group 4" in items[1]["present_in"]
    assert main(["check", "--column", "i", str(path), "2500", "x"]) == 3   # x refused, 2500 answered
    assert "refused\tx\t(a LONG column holds integers" in capsys.readouterr().out
    assert main(["check", "--filter", "7", str(path), str(values["i"][2500])]) == 0   # i's filters are 5..9
    assert capsys.readouterr().out == "probably present\t2500\t(column i, stripe 0, row group 2)\n"
