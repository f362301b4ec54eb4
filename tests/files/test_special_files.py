"""Every path the command line and the core accept refuses what is not a regular file, before reading it
(issue 13, item 3): a FIFO, a socket, a character device (/dev/zero, /dev/urandom), a directory.

Before, ``simulate --items FIFO``, ``--csv FIFO``, ``inspect``/``check`` on a FIFO and ``--open FIFO`` blocked for
ever, and ``/dev/zero`` was read to a limit of a GiB. Command-line calls run in a subprocess with a timeout and
core calls under an alarm, so a regression (a hang) fails the test instead of blocking the suite.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from bloomviz.disk import safe_files

from bloomviz.files import session

from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import ItemFileError, check_item_file, read_item_lines
from guards import no_hang

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or sys.platform == "win32", reason="POSIX special files")

KIND_WORDS = {"fifo": "FIFO", "socket": "socket", "zero": "character device", "urandom": "character device",
              "directory": "directory"}


@pytest.fixture
def specials(tmp_path, monkeypatch):
    """kind -> a path (relative to tmp_path, the working directory: a unix socket's path must be short)."""
    monkeypatch.chdir(tmp_path)
    os.mkfifo("pipe")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind("sock")
    os.mkdir("folder")
    storage.save(BloomFilter(64, 3), "good.bloom")
    try:
        yield {"fifo": "pipe", "socket": "sock", "zero": "/dev/zero", "urandom": "/dev/urandom",
               "directory": "folder"}
    finally:
        sock.close()


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "bloomviz", *args], capture_output=True, text=True, timeout=60,
                          cwd=cwd, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def assert_refused(result, path, kind):
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert len(lines) == 1 and "error:" in lines[0], result.stderr
    assert path in lines[0] and KIND_WORDS[kind] in lines[0], lines[0]
    assert "Traceback" not in result.stderr


# --- the command line: every path it reads --------------------------------------------------------------------
READERS = {
    "inspect": lambda p: ["inspect", p],
    "check": lambda p: ["check", p, "apple"],
    "check --items": lambda p: ["check", "good.bloom", "--items", p],
    "simulate --items": lambda p: ["simulate", "--m", "100", "--k", "3", "--items", p, "--csv", "-"],
    "--open": lambda p: ["--open", p],
}


@pytest.mark.parametrize("kind", list(KIND_WORDS))
@pytest.mark.parametrize("reader", list(READERS))
def test_every_path_the_cli_reads_refuses_special_files(specials, kind, reader, tmp_path):
    path = specials[kind]
    assert_refused(cli(*READERS[reader](path), cwd=tmp_path), path, kind)


@pytest.mark.parametrize("command", ["simulate", "explore"])
@pytest.mark.parametrize("kind", ["fifo", "socket", "directory"])
def test_csv_targets_that_would_block_or_cannot_be_files_are_refused_before_the_run(specials, kind, command,
                                                                                      tmp_path):
    path = specials[kind]
    args = {"simulate": ["simulate", "--m", "100", "--k", "3", "--n", "10"],
            "explore": ["explore", "--m", "100", "--n", "10", "--k-range", "1:3"]}[command]
    result = cli(*args, "--csv", path, cwd=tmp_path)
    assert_refused(result, path, kind)
    assert os.listdir(tmp_path / "folder") == []


def test_a_fifo_with_a_reader_and_dev_null_still_take_the_csv(specials, tmp_path):
    # Streams are written directly (they cannot be renamed over): /dev/null, and a pipe someone reads.
    assert cli("simulate", "--m", "100", "--k", "3", "--n", "10", "--csv", "/dev/null", cwd=tmp_path).returncode == 0
    reader = subprocess.Popen(["cat", "pipe"], cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    try:
        result = cli("simulate", "--m", "100", "--k", "3", "--n", "10", "--csv", "pipe", cwd=tmp_path)
        out, _ = reader.communicate(timeout=60)
    finally:
        reader.kill()
    assert result.returncode == 0, result.stderr
    assert out.splitlines()[0].startswith("n,fp_measured") and len(out.splitlines()) == 11


# --- the core: the functions the window calls too --------------------------------------------------------------
CORE_READERS = {
    "storage.load": storage.load,
    "storage.read_header": storage.read_header,
    "session.load": session.load,
    "check_item_file": check_item_file,
    "read_item_lines": lambda p: list(read_item_lines(p)),
    "open_regular": safe_files.open_regular,
}


@pytest.mark.parametrize("kind", list(KIND_WORDS))
@pytest.mark.parametrize("reader", list(CORE_READERS))
def test_core_readers_refuse_special_files_by_kind(specials, kind, reader):
    path = specials[kind]
    with no_hang(), pytest.raises((OSError, storage.FilterFormatError, session.SessionFormatError)) as info:
        CORE_READERS[reader](path)
    text = str(info.value)
    assert path in text or getattr(info.value, "filename", None) == path
    assert KIND_WORDS[kind] in text


def test_item_file_errors_stay_item_file_errors(specials):
    for kind in KIND_WORDS:
        with no_hang(), pytest.raises(ItemFileError):
            check_item_file(specials[kind])


def test_describe_kind_names_each_kind(specials):
    for kind, words in KIND_WORDS.items():
        assert words in safe_files.describe_kind(os.stat(specials[kind]).st_mode)
    assert safe_files.describe_kind(os.stat("good.bloom").st_mode) == "a regular file"


def test_a_fifo_swapped_in_after_the_stat_is_still_refused_without_blocking(specials, monkeypatch):
    # The race the O_NONBLOCK open guards: the path checks as a regular file, then is a FIFO when opened.
    real_stat = os.stat
    monkeypatch.setattr(safe_files.os, "stat", lambda p, *a, **k: real_stat("good.bloom"))
    with no_hang(), pytest.raises(safe_files.NotARegularFileError, match="FIFO"):
        safe_files.open_regular("pipe")


def test_open_regular_refuses_a_file_over_the_limit_before_reading(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 1000)
    with pytest.raises(safe_files.FileTooLargeError, match="1,000 bytes, more than the limit of 999"):
        safe_files.open_regular(path, limit=999)
    with safe_files.open_regular(path, limit=1000) as fh:
        assert fh.read() == b"x" * 1000
