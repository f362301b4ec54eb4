"""A database folder with a table that is not a regular file, and a damaged file of a known format: refused with
what is wrong, in that format's own words, never read past or waited on (a FIFO would block)."""

from __future__ import annotations

import os
import shutil

import pytest

from bloomviz.cli import main


def _leveldb(path):
    plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")
    db = plyvel.DB(str(path), create_if_missing=True, bloom_filter_bits=10)
    for i in range(3000):
        db.put(f"k{i:05d}".encode(), b"v" * 30)
    db.compact_range()
    db.close()
    return sorted(n for n in os.listdir(path) if n.endswith(".ldb"))


def test_a_fifo_among_a_databases_tables_is_named_not_skipped(tmp_path, capsys):
    tables = _leveldb(tmp_path / "db")
    assert main(["inspect", str(tmp_path / "db")]) == 0
    capsys.readouterr()
    victim = tmp_path / "db" / tables[0]
    victim.unlink()
    os.mkfifo(victim)
    assert main(["inspect", str(tmp_path / "db")]) == 2
    err = capsys.readouterr().err
    assert f"{tables[0]} in the directory is a FIFO (named pipe), not a regular table file" in err


def test_a_cut_table_is_refused_by_its_own_reader(tmp_path, capsys):
    tables = _leveldb(tmp_path / "db")
    whole = (tmp_path / "db" / tables[0]).read_bytes()
    cut = tmp_path / "cut.ldb"
    cut.write_bytes(whole[: len(whole) - 100])
    assert main(["inspect", str(cut)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "named like a LevelDB table" in err and "no table magic" in err
    assert "bloomviz reads a session" not in err          # not the list of every format


def test_a_rocksdb_folder_with_a_fifo_table_says_so(tmp_path, capsys):
    rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")
    db = rd.Rdict(str(tmp_path / "db"))
    for i in range(100):
        db[f"k{i}"] = "v"
    db.flush()
    db.close()
    sst = next(n for n in sorted(os.listdir(tmp_path / "db")) if n.endswith(".sst"))
    shutil.move(tmp_path / "db" / sst, tmp_path / sst)
    os.mkfifo(tmp_path / "db" / sst)
    assert main(["inspect", str(tmp_path / "db")]) == 2
    err = capsys.readouterr().err
    assert "rocksdb:" in err and f"{sst} in the directory is a FIFO" in err
