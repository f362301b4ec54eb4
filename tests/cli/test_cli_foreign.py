"""bloomviz inspect and check on other libraries' files: detection, the numbers, verdicts and exit codes."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from bloomviz import formats
from bloomviz.cli import main

DATA = Path(__file__).parents[1] / "data" / "foreign"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name,fmt", [
    ("guava-mitz64-utf8.guava", "guava"), ("pyprobables-bloom.blm", "pyprobables"),
    ("pybloom-live-xxh128.pybloom", "pybloom-live"), ("duckdb-dictionary.parquet", "parquet"),
    ("go-bloom.marshal.json", "bits-and-blooms")])
def test_inspect_json_gives_each_filters_numbers(capsys, name, fmt):
    code, out, err = run(capsys, "inspect", "--json", DATA / name)
    assert code == 0 and err == ""
    r = json.loads(out)
    filters = formats.open_filters(DATA / name)
    assert r["format"] == fmt and len(r["filters"]) == len(filters)
    for got, f in zip(r["filters"], filters):
        assert (got["format"], got["m"], got["k"], got["bits_set"]) == (fmt, f.m, f.k, f.bits_set)
        assert got["fill"] == pytest.approx(f.bits_set / f.m)
        assert got["expected_fp"] == pytest.approx(f.expected_fp) and 0 < got["expected_fp"] < 1
        assert math.isfinite(got["estimated_n"]) and got["estimated_n"] > 0


def test_inspect_text_of_a_parquet_column(capsys):
    code, out, _ = run(capsys, "inspect", "--column", "s", "--row-group", "1", DATA / "pyarrow-bloom.parquet")
    [f] = formats.open_filters(DATA / "pyarrow-bloom.parquet", column="s", row_group=1)
    assert code == 0
    for text in ("parquet (Apache Parquet split-block Bloom filters)", "[column s, row group 1]",
                 f"{f.bits_set:,} of {f.m:,}", "k (hash positions)    8", "BYTE_ARRAY", "reproduced: XXH64"):
        assert text in out, text
    assert "\n  filters " not in out   # one filter chosen: no count line


def test_check_verdicts_follow_the_librarys_hashing(capsys):
    lib = json.loads((DATA / "pyprobables-bloom.json").read_text(encoding="utf-8"))
    fp = lib["probes_present"][0]
    absent = next(f"probe-{i}" for i in range(2000) if f"probe-{i}" not in lib["probes_present"])
    code, out, err = run(capsys, "check", DATA / "pyprobables-bloom.blm", "日本語", fp, absent)
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[:2] == ["probably present\t日本語", f"probably present\t{fp}"]
    [f] = formats.open_filters(DATA / "pyprobables-bloom.blm")
    assert lines[2] == f"definitely absent\t{absent}\t(bit {f.lookup(absent).zero_positions[0]:,} is 0)"
    code, out, _ = run(capsys, "check", DATA / "pyprobables-bloom.blm", "item-1", "é")
    assert code == 0 and out.count("probably present") == 2


def test_check_parquet_column_over_row_groups(capsys, tmp_path):
    path = DATA / "pyarrow-bloom.parquet"
    code, _, err = run(capsys, "check", path, "item-1")
    assert code == 2 and "choose one with --column" in err and err.count("\n") == 1
    (tmp_path / "items.txt").write_text("item-3\nitem-250\n", encoding="utf-8")
    code, out, err = run(capsys, "check", "--column", "s", "--items", tmp_path / "items.txt", path)
    assert code == 0, err
    assert out.splitlines() == ["probably present\titem-3\t(column s, row group 0)",
                                "probably present\titem-250\t(column s, row group 1)"]
    code, out, _ = run(capsys, "check", "--column", "i64", path, "7", "8")
    assert code == 1
    assert out.splitlines() == ["probably present\t7\t(column i64, row group 0)",
                                "definitely absent\t8\t(a 0 bit in each of the 2 filters)"]
    code, out, err = run(capsys, "check", "--column", "i64", path, "7", "seven", "8")
    # the bad value is reported and the others still answered; exit 3 says an item was refused
    assert code == 3
    lines = out.splitlines()
    assert lines[0] == "probably present\t7\t(column i64, row group 0)"
    assert lines[1].startswith("refused\tseven\t(") and "an INT64 column holds integers" in lines[1]
    assert lines[2].startswith("definitely absent\t8")
    assert "'seven' not looked up: an INT64 column holds integers" in err and err.count("\n") == 1


def test_options_and_refusals(capsys, tmp_path):
    golden = Path(__file__).parents[1] / "data" / "golden-v1.bloom"
    code, _, err = run(capsys, "inspect", "--column", "s", golden)
    assert code == 2 and "--column applies to other libraries' files" in err
    code, out, _ = run(capsys, "inspect", "--format", "bloomviz", golden)
    assert code == 0 and "BLOOMVZ" in out
    code, out, err = run(capsys, "check", "--format", "guava", DATA / "pyprobables-bloom.blm", "a")
    assert code == 2 and out == "" and err.startswith("bloomviz check: error: ") and "guava: " in err
    raw = tmp_path / "bits.bin"
    raw.write_bytes(bytes([0b00000101, 0xFF]))
    code, out, _ = run(capsys, "inspect", "--json", "--format", "raw", "--k", "2", "--m", "16", raw)
    r = json.loads(out)["filters"][0]
    assert code == 0 and (r["m"], r["k"], r["bits_set"], r["membership"]) == (16, 2, 10, False)
    code, _, err = run(capsys, "check", "--format", "raw", "--k", "2", raw, "a")
    assert code == 2 and "membership cannot be reproduced" in err


def test_pybloom_known_member_and_hashing_options(capsys):
    path = DATA / "pybloom-live-3.1-md5.pybloom"
    code, out, _ = run(capsys, "check", path, "item-0", "item-1", "item-2")
    assert code == 1     # read with 4.0's hashing, a 3.1 file's members go missing
    code, out, _ = run(capsys, "check", "--hashing", "md5", path, "item-0", "item-1", "item-2")
    assert code == 0
    code, out, _ = run(capsys, "inspect", "--known-member", "item-5", path)
    assert code == 0 and "chose md5 hashing" in out


def test_guava_funnel_option(capsys):
    code, out, _ = run(capsys, "check", "--funnel", "long", DATA / "guava-mitz64-long.guava", "0", "7", "14")
    assert code == 0, out


@pytest.mark.parametrize("command", ["inspect", "check"])
def test_a_fifo_is_refused_without_blocking(capsys, tmp_path, command):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)   # reading it would wait forever for a writer
    extra = ["a"] if command == "check" else []
    for argv in ([command, fifo, *extra], [command, "--format", "guava", fifo, *extra]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and "FIFO" in err and err.count("\n") == 1


def test_inspect_lists_a_scalable_filters_links(capsys):
    code, out, _ = run(capsys, "inspect", DATA / "pybloom-live-scalable.pybloom")
    [f] = formats.open_filters(DATA / "pybloom-live-scalable.pybloom")
    assert code == 0
    for i, link in enumerate(f.fields["links"]):
        assert f"link {i}" in out and f"bits_per_slice = {link['bits_per_slice']:,}, " in out
    assert f"count                 {f.fields['count']:,}" in out
