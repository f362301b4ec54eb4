"""bloomviz inspect and bloomviz check: output, exit codes, and one-line errors for bad files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bloomviz.cli import main
from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter
from bloomviz.filters.registry import make_filter

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "golden-v1.bloom")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_inspect_golden_file(capsys):
    code, out, err = run(capsys, "inspect", GOLDEN)
    assert code == 0 and err == ""
    flt = storage.load(GOLDEN)
    for text in ("BLOOMVZ\\0 (ok)", "format version        1", "standard", "murmur3-km", "m (bits)              64",
                 "k (hash positions)    3", "inserts (count)       3", "payload               8 bytes",
                 "0xfcdac3d7 OK", f"{flt.bits_set} of 64", f"{flt.estimated_count:,.1f}"):
        assert text in out, text


def test_inspect_json_matches_the_filter(capsys, tmp_path):
    flt = make_filter("counting", m=300, k=4, counter_bits=4)
    flt.update([f"w{i}" for i in range(40)])
    path = tmp_path / "c.bloom"
    storage.save(flt, path)
    code, out, _ = run(capsys, "inspect", "--json", str(path))
    r = json.loads(out)
    assert code == 0
    assert (r["variant"], r["m"], r["k"], r["count"], r["params"]) == ("counting", 300, 4, 40, {"counter_bits": 4})
    assert r["bits_set"] == flt.bits_set and r["fill"] == pytest.approx((flt.bits_set / flt.m))
    assert r["expected_fp"] == pytest.approx(flt.expected_fp)
    assert r["estimated_n"] == pytest.approx(flt.estimated_count)
    assert r["crc_ok"] is True and r["payload_bytes"] == (300 * 4 + 7) // 8


def test_check_verdicts_and_exit_codes(capsys, tmp_path):
    flt = BloomFilter(4096, 3)
    members = ["alpha", "beta", "-dash", "é"]
    flt.update(members)
    path = tmp_path / "f.bloom"
    storage.save(flt, path)
    code, out, err = run(capsys, "check", str(path), "alpha", "beta", "--", "-dash", "é")
    assert code == 0 and err == ""
    assert out.splitlines() == [f"probably present\t{x}" for x in members]
    absent = next(f"z{i}" for i in range(1000) if f"z{i}" not in flt)
    code, out, _ = run(capsys, "check", str(path), "alpha", absent)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "probably present\talpha"
    zero = flt.lookup(absent).zero_positions[0]
    assert lines[1] == f"definitely absent\t{absent}\t(bit {zero:,} is 0)"


def test_check_items_from_a_file(capsys, tmp_path):
    flt = BloomFilter(4096, 3)
    flt.update(["one", "two"])
    storage.save(flt, tmp_path / "f.bloom")
    (tmp_path / "list.txt").write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n\xff\xfe\r\n")
    code, out, err = run(capsys, "check", str(tmp_path / "f.bloom"), "--items", str(tmp_path / "list.txt"))
    assert code == 0
    assert out.splitlines() == ["probably present\tone", "probably present\ttwo"]
    assert "1 line(s) not valid UTF-8" in err and ": 3" in err


@pytest.mark.parametrize("command", ["inspect", "check"])
@pytest.mark.parametrize("damage,reason", [
    (lambda raw: raw[:30], "truncated"),
    (lambda raw: b"NOTBLOOM" + raw[8:], "not a .bloom file"),
    (lambda raw: raw[:-1] + bytes([raw[-1] ^ 1]), "CRC32 mismatch"),
    (lambda raw: b"", "too short"),
])
def test_bad_files_give_one_line_and_exit_2(capsys, tmp_path, command, damage, reason):
    raw = open(GOLDEN, "rb").read()
    path = tmp_path / "bad.bloom"
    path.write_bytes(damage(raw))
    argv = [command, str(path)] + (["a"] if command == "check" else [])
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"bloomviz {command}: error: {path}: ")
    assert reason in err


@pytest.mark.parametrize("command", ["inspect", "check"])
def test_missing_file_and_directory(capsys, tmp_path, command):
    extra = ["a"] if command == "check" else []
    code, _, err = run(capsys, command, str(tmp_path / "nope.bloom"), *extra)
    assert code == 2 and err == f"bloomviz {command}: error: {tmp_path / 'nope.bloom'}: No such file or directory\n"
    code, _, err = run(capsys, command, str(tmp_path), *extra)
    assert code == 2 and err.startswith(f"bloomviz {command}: error: {tmp_path}: ") and err.count("\n") == 1


def test_check_without_items_is_a_usage_error(capsys):
    code, out, err = run(capsys, "check", GOLDEN)
    assert code == 2 and out == "" and "give at least one ITEM" in err


def test_check_non_utf8_argument_uses_the_original_bytes(tmp_path):
    # argv arrives with undecodable bytes escaped (surrogateescape); the item looked up must be those bytes.
    flt = BloomFilter(4096, 3)
    flt.add(b"\xff\xfe")
    path = tmp_path / "f.bloom"
    storage.save(flt, path)
    env = dict(os.environ, PYTHONUTF8="1")
    proc = subprocess.run([os.fsencode(sys.executable), b"-m", b"bloomviz", b"check", os.fsencode(path), b"\xff\xfe"],
                          capture_output=True, env=env, cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"probably present\tb'\\xff\\xfe'\n"


def test_help_documents_exit_codes(capsys):
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0 and "Exit status: 0" in out and "1 when at least one is definitely absent" in out
