"""The other systems' reasons ("why the rate can be higher than configured") as a Croatian window shows them: on
files git, RocksDB, LevelDB, pyarrow, DuckDB, Cassandra, Hudi and Ethereum wrote, every reason is written in
Croatian words with Croatian marks, and every part of it has its translation (a fallback fails the test).

The rules write numbers and English templates (``formats.why.Reason``); the window writes them through gettext
(``why.render`` with ``i18n.tr``/``number``/``marks``), as the engines' notes are. Names a user types or reads
elsewhere stay as they are: options (--fpp), settings (bloom_filter_fp_chance, hoodie.index.bloom.fpp), formulas
(fill^k) and another program's own labels, quoted („Bloom filter false ratio”)."""

from __future__ import annotations

import glob
import json
import re
from pathlib import Path

import pytest

import bloomviz
from bloomviz import formats, i18n
from bloomviz.formats.reasons import Word, render
from bloomviz.formats.why import why
from git_repos import commit_files, git, make_repo, needs_git
from test_croatian_no_english import english_marks, english_words
from world_fixtures import fixture

IDENTIFIER = re.compile(r"„[^”]*”|\S*[._=#/:(]\S*|--\S+")


def croatian(reasons) -> list[str]:
    i18n.use("hr")
    try:
        return [render(r, i18n.tr, i18n.number, i18n.marks) for r in reasons]
    finally:
        i18n.use("en")


def untranslated(reasons) -> list[str]:
    """Templates and chosen words with letters that the Croatian catalogue lacks."""
    i18n.use("hr")
    try:
        missing = []
        for reason in reasons:
            for part in reason.parts:
                texts = [part.template] + [v for v in part.values.values() if isinstance(v, Word)]
                missing += [t for t in texts if re.search(r"[A-Za-z]{3}", re.sub(r"\{\w+\}", "", t))
                            and i18n.tr(t) == t and t not in ("m / rocksdb.num.filter_entries",)]
        return missing
    finally:
        i18n.use("en")


def check(reasons) -> None:
    assert reasons
    assert not untranslated(reasons)
    for hr, en in zip(croatian(reasons), reasons):
        assert hr != en
        assert not english_words(IDENTIFIER.sub(" ", hr)), hr
        quoted = "".join(re.findall(r"„[^”]*”", hr))        # another program's words, as it writes them
        assert not [n for n in english_marks(hr, en) if n not in quoted], hr


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


@needs_git
def test_git(tmp_path):
    # an older layer without filters, then commits with them, one of more than 512 paths
    repo, _ = make_repo(tmp_path, [{"a": "1"}, {"src/b.c": "2"}])
    git(repo, "commit-graph", "write", "--reachable", "--split")
    commit_files(repo, {f"d{d}/f{j}": "x" for d in range(20) for j in range(25)}, "big")
    commit_files(repo, {"c": "3"}, "small")
    git(repo, "commit-graph", "write", "--reachable", "--split=no-merge", "--changed-paths")
    reasons = why("git", formats.open_filters(repo))
    assert any("have no filter" in r for r in reasons) and any("more than 512" in r for r in reasons)
    check(reasons)


def _rocks(rd, path, fv=None, partition=False, ribbon=False):
    opts = rd.Options(raw_mode=True)
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    if fv is not None:
        table.set_format_version(fv)
    if partition:
        table.set_partition_filters(True)
        table.set_index_type(rd.BlockBasedIndexType.two_level_index_search())
        table.set_metadata_block_size(1024)
    opts.set_block_based_table_factory(table)
    opts.create_if_missing(True)
    if ribbon:          # the Ribbon policy is not in rocksdict's API; the OPTIONS file takes it
        rd.Rdict(str(path), opts).close()
        options_file = sorted(glob.glob(str(path / "OPTIONS-*")))[-1]
        text = open(options_file).read()
        open(options_file, "w").write(text.replace("filter_policy=bloomfilter", "filter_policy=ribbonfilter:10"))
        opts = rd.Options.load_latest(str(path))[1]["default"]
        opts.create_if_missing(True)
    db = rd.Rdict(str(path), opts)
    for i in range(4_000):
        db[f"user:{i:06d}".encode()] = b"v" * 20
    db.flush()
    db.close()
    return path


@pytest.mark.parametrize("kind", ["fast", "legacy", "partitioned", "ribbon-policy"])
def test_rocksdb(tmp_path, kind):
    rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")
    path = _rocks(rd, tmp_path / "db", fv=4 if kind == "legacy" else None, partition=kind == "partitioned",
                  ribbon=kind == "ribbon-policy")
    check(why("rocksdb", formats.open_filters(path)))


def test_leveldb(tmp_path):
    plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")
    db = plyvel.DB(str(tmp_path / "db"), create_if_missing=True, bloom_filter_bits=16)
    for i in range(6_000):
        db.put(f"user:{i:07d}".encode(), b"x" * 20)
    db.compact_range()
    db.close()
    reasons = why("leveldb", formats.open_filters(tmp_path / "db"))
    assert "fit bits_per_key 16 only" in reasons[0]
    check(reasons)


@pytest.mark.parametrize("fpp", [None, 0.01])
def test_parquet_from_pyarrow(tmp_path, fpp):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra; not installed here")
    import pyarrow.parquet as pq
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [f"u{i}" for i in range(20_000)], "n": list(range(20_000)),
                             "x": [i % 3 for i in range(20_000)]}), path,
                   row_group_size=10_000, bloom_filter_options={"id": {"ndv": 2_000, "fpp": 0.01}, "n": True})
    reasons = why("parquet", formats.open_filters(path, fpp=fpp))
    assert any(r.startswith("Columns with no filter in this file: x.") for r in reasons)
    check(reasons)


def test_parquet_from_duckdb(tmp_path):
    duckdb = pytest.importorskip("duckdb", reason="duckdb is in the test extra; not installed here")
    path = tmp_path / "d.parquet"
    duckdb.connect().execute(f"COPY (SELECT 'v' || (i % 4000) AS s FROM range(40000) t(i)) TO '{path}' "
                             "(FORMAT parquet)")
    check(why("parquet", formats.open_filters(path)))


def test_cassandra_without_its_statistics(tmp_path):
    import shutil
    for name in ("md-2-big-Filter.db", "md-2-big-Index.db"):
        shutil.copy(fixture("cassandra-3.11-iot", name), tmp_path / name)
    reasons = why("cassandra", formats.open_filters(tmp_path / "md-2-big-Filter.db"))
    assert any(r.startswith("What the filter implies") for r in reasons)
    check(reasons)


def test_cassandra_and_hudi():
    for path in (fixture("cassandra-3.11-iot", "md-2-big-Filter.db"), fixture("cassandra-3.x-tiny", "ma-1-big-Filter.db"),
                 fixture("hudi-footer-bloom", "v8_nonpartitioned__2746610d-ad02-4adb-a038-5cbb99cbd455-0_0-54-79_"
                                              "20250713010535797.parquet")):
        check(why(formats.detect(path), formats.open_filters(path)))


def test_ethereum_block_and_receipt(tmp_path):
    block = Path(bloomviz.__file__).parent / "data" / "ethereum-block-2024-06-03.json"
    check(why("ethereum", formats.open_filters(block)))
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "ethereum_receipts", Path(__file__).resolve().parents[1] / "formats" / "test_format_ethereum.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    RECEIPTS = module.RECEIPTS      # two mainnet receipts (ethers.js's test data)
    path = tmp_path / "receipt.json"
    path.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": max(RECEIPTS, key=lambda r: len(r["logs"]))}))
    check(why("ethereum", formats.open_filters(path)))
