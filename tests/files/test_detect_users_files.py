"""The files users really have are recognised: detection tries every format whose signature matches and takes
the one whose reader accepts the file; a file nothing recognises gets a message naming what bloomviz reads and
the raw reader (CLI and window); a session with a damaged "format" field is a damaged session, not a Go filter.

The seminar's ``bloom.txt`` with 50 or more items used to be taken for a pyprobables hex export (0s and 1s are
hex digits, and the last 40 of them made a "usable" footer) and refused with "m = 58,896,345,671,049,584 bits
is outside …". The files here come from ``bitset_text.write_filter``, a faithful port of the seminar's writer
(``os << std::bitset<1000>``: most significant bit first, no newline; tests/formats/test_bitset_text.py shows it is
byte for byte the file the seminar's own program writes), and, when g++ is present, from the seminar's program
itself (tests/data/seminar/bloom.cpp, compiled here).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import types
from pathlib import Path

import pytest

from bloomviz import cli, formats
from bloomviz.filters.standard import BloomFilter
from bloomviz.formats import bitset_text

SEMINAR = Path(__file__).parents[1] / "data" / "seminar"


def emails(n):
    return [f"student{i}@foi.unizg.hr" for i in range(n)]


def seminar_file(tmp_path, n) -> Path:
    flt = BloomFilter(1000, 3, scheme="seminar-cpp")
    flt.update(emails(n))
    path = tmp_path / "bloom.txt"
    bitset_text.write_filter(flt, path)
    return path


@pytest.mark.parametrize("n", [1, 40, 50, 60, 200, 1000])
def test_the_seminars_file_is_detected_at_any_fill(tmp_path, n):
    path = seminar_file(tmp_path, n)
    assert formats.detect(path) == "bitset-text"


def test_inspect_and_check_read_a_60_item_seminar_file(tmp_path, capsys):
    path = seminar_file(tmp_path, 60)
    assert cli.main(["inspect", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["format"] == "bitset-text" and report["filters"][0]["m"] == 1000
    assert cli.main(["check", str(path), "student7@foi.unizg.hr"]) == 0
    assert "probably present\tstudent7@foi.unizg.hr" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed (the seminar's program is C++)")
def test_the_seminars_own_program_with_60_items_is_detected(tmp_path, capsys):
    exe = tmp_path / "bloom"
    subprocess.run(["g++", "-O1", "-I", str(SEMINAR), "-o", str(exe), str(SEMINAR / "bloom.cpp")], check=True,
                   timeout=120)
    menu = "1\n" + "".join(f"2\n{item}\n" for item in emails(60)) + "4\n"
    subprocess.run([str(exe)], input=menu.encode(), cwd=tmp_path, capture_output=True, check=True, timeout=60)
    path = tmp_path / "bloom.txt"
    assert formats.detect(path) == "bitset-text"
    assert cli.main(["check", str(path), *emails(60)[:5]]) == 0
    assert capsys.readouterr().out.count("probably present") == 5


def test_detection_takes_the_candidate_whose_reader_accepts_the_file(tmp_path, monkeypatch):
    def fake(name, accepts):
        def read(path, **_):
            if not accepts:
                raise formats.ForeignFormatError(name, "the checks fail", path)
            return []
        return types.SimpleNamespace(NAME=name, TITLE=name, sniff=lambda head, tail, size: True, read=read)

    monkeypatch.setattr(formats, "FORMATS", {"first": fake("first", False), "second": fake("second", True)})
    path = tmp_path / "x.bin"
    path.write_bytes(b"anything")
    assert formats.detect(path) == "second"
    monkeypatch.setattr(formats, "FORMATS", {"first": fake("first", False), "second": fake("second", False)})
    assert formats.detect(path) == "first"   # none accepts it: the first's refusal is the one reported


@pytest.mark.parametrize("command", ["inspect", "check"])
def test_an_unsupported_file_names_the_formats_and_the_raw_reader(tmp_path, capsys, command):
    path = tmp_path / "notes.txt"
    path.write_text("shopping: milk, eggs\n")
    code = cli.main([command, str(path)] + (["milk"] if command == "check" else []))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "not a .bloom file" in err and "--format raw" in err
    for name in ("guava", "pyprobables", "bitset-text", "parquet", "redisbloom"):
        assert f"({name})" in err


def test_a_session_with_a_damaged_format_field_is_a_damaged_session(tmp_path):
    from bloomviz.files import session as sessions
    path = tmp_path / "class.bloomviz"
    path.write_text(json.dumps({"format": "bloomviz-sessiom", "schema_version": 1,
                                "filter": {"m": 64, "k": 3, "b": "x"}, "measurement": {},
                                "operations": [{"op": "insert", "item": "b"}]}))
    assert formats.detect(path) is None            # not sniffed as a Go JSON filter
    with pytest.raises(sessions.SessionFormatError, match="this session is damaged"):
        sessions.load(path)


pytestmark = pytest.mark.window(parts=True, shown=False)


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py), every part installed, its dialogs answered by the test."""
    from window_helpers import FakeDialogs
    window.file_actions.dialogs = FakeDialogs()
    return window


def test_the_window_opens_a_60_item_seminar_file(window, tmp_path):
    path = seminar_file(tmp_path, 60)
    assert window.file_actions.open_path(str(path), ask=False)
    assert window.file_actions.dialogs.errors == []
    assert window.foreign.filters[0].format == "bitset-text"


def test_the_window_names_the_formats_for_an_unsupported_file(window, tmp_path):
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8)
    assert not window.file_actions.open_path(str(path), ask=False)
    ((title, text, _),) = window.file_actions.dialogs.errors
    assert "not a file bloomviz recognises" in text and "raw" in text
    assert "(guava)" in text and "(bitset-text)" in text and ".bloomviz" in text


def test_the_window_calls_a_damaged_session_damaged(window, tmp_path):
    path = tmp_path / "class.bloomviz"
    path.write_text(json.dumps({"format": "bloomviz-sessiom", "schema_version": 1,
                                "filter": {"m": 64, "k": 3, "b": "x"}, "measurement": {},
                                "operations": [{"op": "insert", "item": "b"}]}))
    assert not window.file_actions.open_path(str(path), ask=False)
    ((title, text, _),) = window.file_actions.dialogs.errors
    assert "this session is damaged" in text
