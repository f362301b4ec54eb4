"""The seminar's bloom.txt (std::bitset text, most significant bit first): read, written, refused when malformed,
and checked against the seminar's own C++ program when g++ is present."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bloomviz import cli, formats
from bloomviz.filters.standard import BloomFilter
from bloomviz.formats import bitset_text
from bloomviz.formats.common import ForeignFormatError

SEMINAR = Path(__file__).parents[1] / "data" / "seminar"
# what tests/data/seminar/bloom.txt was made from: the program's menu, 1 (create) then 2 (insert) for each
INSERTED = ["roger@acme.com", "ana@foi.unizg.hr", "marko.horvat@example.hr", "ivana@example.com",
            "petar@example.org", "lovrencic@foi.hr"]


def _ours() -> BloomFilter:
    flt = BloomFilter(1000, 3, scheme="seminar-cpp")
    flt.update(INSERTED)
    return flt


def test_the_programs_file_reads_as_the_same_bits_and_members():
    ff = formats.open_filters(SEMINAR / "bloom.txt", "bitset-text")[0]
    assert (ff.m, ff.k, ff.bits_set) == (1000, 3, _ours().bits_set)
    assert ff.bits == _ours().bits
    assert all(item in ff for item in INSERTED) and "duffy@acme.com" not in ff
    assert formats.detect(SEMINAR / "bloom.txt") == "bitset-text"


def test_export_is_byte_for_byte_the_programs_file(tmp_path):
    bitset_text.write_filter(_ours(), tmp_path / "bloom.txt")
    assert (tmp_path / "bloom.txt").read_bytes() == (SEMINAR / "bloom.txt").read_bytes()
    loaded = bitset_text.load_filter(tmp_path / "bloom.txt")
    assert loaded.bits == _ours().bits and loaded.scheme == "seminar-cpp"


def test_character_one_is_the_most_significant_bit(tmp_path):
    (tmp_path / "b.txt").write_text("1000\n")
    assert list(formats.open_filters(tmp_path / "b.txt", "bitset-text")[0].bits) == [0, 0, 0, 1]
    assert bitset_text.to_text(formats.open_filters(tmp_path / "b.txt", "bitset-text")[0].bits) == "1000"


@pytest.mark.parametrize("text, reason", [
    (b"", "line 1: empty"), (b"\n", "line 1: empty"),
    (b"0101x01", "line 1, character 5: 'x' (byte 0x78), not 0 or 1"),
    (b"0101\n0101\n", "line 1, character 5: a line break"),
    (b"0110 1", "line 1, character 5: ' '"),
    (b"01\n\n", "line 1, character 3: a line break"),
])
def test_malformed_files_are_refused_naming_line_and_character(tmp_path, text, reason):
    path = tmp_path / "bad.txt"
    path.write_bytes(text)
    with pytest.raises(ForeignFormatError, match=re.escape(reason)) as info:
        formats.open_filters(path, "bitset-text")
    assert "bad.txt" in str(info.value)


def test_a_given_m_must_match_the_digits(tmp_path):
    (tmp_path / "b.txt").write_text("0101")
    with pytest.raises(ValueError, match="has 4 bits, not m = 8"):
        formats.open_filters(tmp_path / "b.txt", "bitset-text", m=8)


def test_cli_inspect_and_check_read_it(capsys):
    assert cli.main(["inspect", str(SEMINAR / "bloom.txt"), "--format", "bitset-text", "--json"]) == 0
    assert '"bits_set": 18' in capsys.readouterr().out.replace("\n", " ").replace("  ", " ")
    assert cli.main(["check", str(SEMINAR / "bloom.txt"), "roger@acme.com", "duffy@acme.com"]) == 1
    out = capsys.readouterr().out
    assert "probably present\troger@acme.com" in out and "definitely absent\tduffy@acme.com" in out


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_the_seminars_program_agrees_with_our_file_both_ways(tmp_path):
    exe = tmp_path / "bloom"
    subprocess.run(["g++", "-O1", "-I", str(SEMINAR), "-o", str(exe), str(SEMINAR / "bloom.cpp")], check=True,
                   timeout=120)
    menu = "1\n" + "".join(f"2\n{item}\n" for item in INSERTED) + "4\n"
    subprocess.run([str(exe)], input=menu.encode(), cwd=tmp_path, capture_output=True, check=True, timeout=30)
    assert (tmp_path / "bloom.txt").read_bytes() == bitset_text.to_text(_ours().bits).encode()
    # and the program reads a file we wrote: our members are "maybe in", an absent one is "not in"
    ours = BloomFilter(1000, 3, scheme="seminar-cpp")
    ours.update(["alpha@x.hr", "beta@x.hr"])
    bitset_text.write_filter(ours, tmp_path / "bloom.txt")
    queries = ["alpha@x.hr", "beta@x.hr", "gamma@x.hr"]
    out = subprocess.run([str(exe)], input=("".join(f"3\n{q}\n" for q in queries) + "4\n").encode(), cwd=tmp_path,
                         capture_output=True, check=True, timeout=30).stdout.decode()
    verdicts = [("mozda" in line) for line in out.splitlines() if "Bloom filtru." in line]
    assert verdicts == [q in ours for q in queries] == [True, True, False]
