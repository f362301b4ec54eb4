"""Saving never loses the user's file, and every size a user can type is refused before it is allocated
(issue 13, items 4, 5 and 7).

- writes go through a symlink to its target (the link stays a link), a read-only target is refused and left
  as it was, a killed save's temporary file is cleaned by the next save (only ours, only when old);
- ``--csv ""`` is refused before the run, with exit code 2;
- a 64 KiB+ line of an item file is refused without being read whole; ``--demo`` over its limit is refused
  with the limit in the message; a session whose ``p`` or ``tightening`` overflows a float is refused;
- one rule for an insert count (0 … 2^53): what ``load`` accepts ``inspect`` and ``check`` accept.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
import tracemalloc

import pytest

from bloomviz.commands.simulate import AtomicText
from bloomviz.disk import atomic_write
from bloomviz.files import session
from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import MAX_DEMO_ITEMS, MAX_ITEM_BYTES, ItemTooLongError, read_item_lines
from bloomviz.theory.validate import MAX_N

from bloom_layout import build, parse

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes and symlinks")


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "bloomviz", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def save_bloom(flt, path):
    storage.save(flt, path)


def save_session(flt, path):
    session.save(session.Session(m=flt.m, k=flt.k, operations=[session.SavedOperation("insert", item="apple")]), path)


def save_csv(flt, path):
    out = AtomicText(str(path))
    out.fh.write("n,fp\n1,0\n")
    out.commit()


SAVERS = {"bloom": save_bloom, "session": save_session, "csv": save_csv}


# --- symlinks, read-only targets -------------------------------------------------------------------------------
@posix_only
@pytest.mark.parametrize("saver", list(SAVERS))
def test_writing_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path, saver):
    target = tmp_path / "real" / "file.out"
    target.parent.mkdir()
    target.write_bytes(b"old")
    link = tmp_path / "link.out"
    link.symlink_to(target)
    SAVERS[saver](BloomFilter(64, 3), link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() != b"old"
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.out"]


@posix_only
@pytest.mark.parametrize("saver", list(SAVERS))
def test_a_read_only_target_is_refused_and_left_as_it_was(tmp_path, saver):
    target = tmp_path / "kept.out"
    target.write_bytes(b"precious")
    os.chmod(target, 0o444)
    with pytest.raises(PermissionError, match="read-only") as info:
        SAVERS[saver](BloomFilter(64, 3), target)
    assert info.value.filename == str(target)
    assert target.read_bytes() == b"precious" and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["kept.out"]


@posix_only
def test_the_cli_refuses_a_read_only_csv_through_a_symlink_before_the_run(tmp_path):
    (tmp_path / "t.csv").write_text("keep me\n")
    os.chmod(tmp_path / "t.csv", 0o444)
    (tmp_path / "l.csv").symlink_to("t.csv")
    result = cli("simulate", "--m", "100", "--k", "3", "--n", "10", "--csv", "l.csv", cwd=tmp_path)
    assert result.returncode == 2 and "read-only" in result.stderr and "l.csv" in result.stderr
    assert (tmp_path / "t.csv").read_text() == "keep me\n" and (tmp_path / "l.csv").is_symlink()


def test_a_dangling_symlink_is_refused(tmp_path):
    (tmp_path / "gone.bloom").symlink_to(tmp_path / "missing" / "x.bloom")
    with pytest.raises(FileNotFoundError, match="missing file"):
        storage.save(BloomFilter(64, 3), tmp_path / "gone.bloom")


# --- stale temporaries -----------------------------------------------------------------------------------------
def make_temporary(directory, name, age):
    path = directory / name
    path.write_bytes(b"half a save")
    then = time.time() - age
    os.utime(path, (then, then))
    return path


@pytest.mark.parametrize("saver", list(SAVERS))
def test_a_save_cleans_old_temporaries_of_ours_and_nothing_else(tmp_path, saver):
    fcntl = pytest.importorskip("fcntl")
    hour = 3600
    old_ours = make_temporary(tmp_path, ".f.out.bloomviz-abcd_123.tmp", hour)
    other_target = make_temporary(tmp_path, ".other.bloom.bloomviz-zz99zz99.tmp", hour)
    running = make_temporary(tmp_path, ".f.out.bloomviz-young123.tmp", hour)   # a save still running holds it
    dead_young = make_temporary(tmp_path, ".f.out.bloomviz-dead_123.tmp", 5)   # nobody holds it: its save died
    held = open(running, "rb")
    fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    lookalikes = [make_temporary(tmp_path, name, hour) for name in
                  (".f.out.abcdefgh.tmp", ".f.out.bloomviz-abc.tmp", "f.out.bloomviz-abcdefgh.tmp",
                   ".f.out.bloomviz-abcdefgh.tmp.keep", ".f.out.bloomviz-ABCDEFGH.tmp")]
    try:
        SAVERS[saver](BloomFilter(64, 3), tmp_path / "f.out")
    finally:
        held.close()
    names = {p.name for p in tmp_path.iterdir()}
    assert old_ours.name not in names and other_target.name not in names and dead_young.name not in names
    assert running.name in names and all(p.name in names for p in lookalikes)
    assert "f.out" in names and len(names) == 2 + len(lookalikes)


def test_the_temporary_name_pattern_is_the_one_the_writer_uses(tmp_path):
    writer = atomic_write.AtomicWriter(tmp_path / "x.bloom")
    try:
        assert atomic_write.is_our_temporary(os.path.basename(writer.temp))
    finally:
        writer.discard()
    assert list(tmp_path.iterdir()) == []


def test_a_killed_save_leaves_a_temporary_that_the_next_save_removes(tmp_path):
    # A real kill: the child stops itself between writing the temporary and the rename.
    code = ("import os, signal, sys\nfrom bloomviz.disk import atomic_write\n"
            "w = atomic_write.AtomicWriter(sys.argv[1])\nw.write(b'x' * 100000)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n")
    target = tmp_path / "f.bloom"
    subprocess.run([sys.executable, "-c", code, str(target)], timeout=60)
    left = [p for p in tmp_path.iterdir()]
    assert len(left) == 1 and atomic_write.is_our_temporary(left[0].name) and not target.exists()
    past = time.time() - atomic_write.UNLOCKED_AFTER - 1   # its writer is dead: its lock is gone at once
    os.utime(left[0], (past, past))
    storage.save(BloomFilter(64, 3), target)
    assert [p.name for p in tmp_path.iterdir()] == ["f.bloom"]


# --- sizes a user can type -------------------------------------------------------------------------------------
def test_an_empty_csv_name_is_refused_before_the_run_with_exit_2(tmp_path):
    for command in (["simulate", "--m", "100", "--k", "3", "--n", "10"],
                    ["explore", "--m", "100", "--n", "10", "--k-range", "1:3"]):
        result = cli(*command, "--csv", "", cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and "--csv" in result.stderr and "''" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_huge_single_line_is_refused_at_the_item_limit_without_reading_it_whole(tmp_path):
    path = tmp_path / "one-line.txt"
    size = 8 * 2**20
    with open(path, "wb") as fh:
        fh.write(b"short\n")
        fh.write(b"x" * size)
    tracemalloc.start()
    try:
        with pytest.raises(ItemTooLongError, match=f"line 2 is longer than the limit of {MAX_ITEM_BYTES:,}"):
            list(read_item_lines(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MAX_ITEM_BYTES, f"refusing the line read {peak:,} bytes"
    assert isinstance(ItemTooLongError("x"), ValueError)


def test_a_line_at_the_item_limit_is_accepted_and_one_byte_more_refused(tmp_path):
    path = tmp_path / "edge.txt"
    path.write_bytes(b"\xef\xbb\xbf" + b"a" * MAX_ITEM_BYTES + b"\r\n" + b"b\n")
    assert [len(t) for t, _ in read_item_lines(path)] == [MAX_ITEM_BYTES, 1]
    path.write_bytes(b"a" * (MAX_ITEM_BYTES + 1) + b"\n")
    with pytest.raises(ItemTooLongError, match=f"line 1 is {MAX_ITEM_BYTES + 1:,} bytes"):
        list(read_item_lines(path))


def test_simulate_refuses_a_long_line_naming_the_file_and_the_limit(tmp_path):
    (tmp_path / "items.txt").write_bytes(b"a\n" + b"y" * (MAX_ITEM_BYTES * 3) + b"\n")
    result = cli("simulate", "--m", "100", "--k", "3", "--items", "items.txt", "--csv", "-", cwd=tmp_path)
    assert result.returncode == 2 and "items.txt" in result.stderr and f"{MAX_ITEM_BYTES:,}" in result.stderr


@pytest.mark.parametrize("value", ["1000000000000", str(MAX_DEMO_ITEMS + 1), "-1", "1e300", "many"])
def test_demo_over_its_limit_is_refused_before_the_window_starts(tmp_path, value):
    result = cli("--demo", value, cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "--demo" in result.stderr
    if value not in ("many", "1e300"):
        assert f"{MAX_DEMO_ITEMS:,}" in result.stderr


def test_the_window_does_not_start_for_a_refused_demo():
    from bloomviz import cli as cli_module
    started = []
    real = cli_module.start_window
    cli_module.start_window = lambda argv: started.append(argv) or 0
    try:
        assert cli_module.main(["--demo", str(MAX_DEMO_ITEMS + 1)]) == 2
        assert cli_module.main(["--demo", str(MAX_DEMO_ITEMS)]) == 0
    finally:
        cli_module.start_window = real
    assert started == [["--demo", str(MAX_DEMO_ITEMS)]]


def scalable_session_text(**params):
    doc = {"format": "bloomviz-session", "schema_version": 1,
           "filter": {"variant": "scalable", "scheme": "murmur3-km", "m": None, "k": None,
                      "params": {"initial_capacity": 100, "p": 0.01, "growth": 2, "tightening": 0.9}},
           "measurement": {"probes": 100, "seed": 0}, "operations": []}
    text = json.dumps(doc)
    for name, literal in params.items():
        text = text.replace(f'"{name}": {doc["filter"]["params"][name]}', f'"{name}": {literal}')
    return text


@pytest.mark.parametrize("name", ["p", "tightening"])
@pytest.mark.parametrize("literal", ["1" + "0" * 400, "-1" + "0" * 400, "1e400"])
def test_a_session_parameter_beyond_a_float_is_refused_with_a_message(tmp_path, name, literal):
    path = tmp_path / "huge.bloomviz"
    path.write_text(scalable_session_text(**{name: literal}))
    assert literal in path.read_text()
    with pytest.raises(session.SessionFormatError, match=f"filter.params.{name}: expected a finite number"):
        session.load(path)


# --- one rule for the insert count -----------------------------------------------------------------------------
def write_with_count(path, count):
    head, payload = storage.encode(BloomFilter(64, 3))
    spec, _ = parse(head + payload)
    spec.count, spec.crc = count, None   # None: build() computes the correct CRC
    path.write_bytes(build(spec))


@pytest.mark.parametrize("count, accepted", [(MAX_N, True), (MAX_N + 1, False), (2**63 - 1, False)])
def test_load_inspect_and_check_apply_one_count_rule(tmp_path, count, accepted):
    path = tmp_path / "c.bloom"
    write_with_count(path, count)
    if accepted:
        assert len(storage.load(path)) == count
    else:
        with pytest.raises(storage.FilterFormatError, match="2\\^53"):
            storage.load(path)
    for args in (["inspect", "c.bloom"], ["check", "c.bloom", "apple"]):
        result = cli(*args, cwd=tmp_path)
        assert (result.returncode != 2) == accepted, (args, result.stderr)
        if not accepted:
            assert "2^53" in result.stderr and "c.bloom" in result.stderr


@pytest.mark.parametrize("variant", ["standard", "counting", "partitioned", "blocked"])
def test_simulate_with_one_bit_runs_instead_of_raising(tmp_path, variant):
    result = cli("simulate", "--m", "1", "--k", "1", "--n", "5", "--variant", variant, "--csv", "-", cwd=tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert len(result.stdout.splitlines()) == 6


def test_a_session_too_large_to_read_back_is_not_written(tmp_path, monkeypatch):
    path = tmp_path / "big.bloomviz"
    path.write_bytes(b"the old session")
    monkeypatch.setattr(session, "MAX_FILE_BYTES", 300)
    ops = [session.SavedOperation("insert", item=f"item-{i}") for i in range(50)]
    with pytest.raises(ValueError, match="more than the 300 bytes a session can be read back from"):
        session.save(session.Session(m=64, k=3, operations=ops), path)
    assert path.read_bytes() == b"the old session" and [p.name for p in tmp_path.iterdir()] == ["big.bloomviz"]
    session.save(session.Session(m=64, k=3), path)   # a small one still fits
    assert session.load(path).m == 64
