"""The Other libraries' tab's table as a Croatian window shows it, on files Cassandra, RocksDB, LevelDB and git
wrote (and pyarrow's Parquet, Hudi's footer): every header field has Croatian words before its name, a value that is a word is Croatian, the layout,
the hashing description, the notes and the grid's band labels are Croatian with Croatian marks. The command line
keeps its English (the notes are ``formats.reasons.Reason``: their str is the English ``inspect`` prints).

Names stay as written: a field's own name (hash_count, in brackets after the words), a class, a file, a
checksum, a formula (|(h2 + i·h1) mod m|), another program's quoted words ('may match')."""

from __future__ import annotations

import re

import pytest

from bloomviz import formats, i18n
from bloomviz.gui.files import foreign_words
from git_repos import commit_files, git, make_repo, needs_git
from test_croatian_no_english import english_marks, english_words
from world_fixtures import fixture

# names a user reads elsewhere: a field's own name in brackets, dotted/underscored words, formulas, quotes
WRITERS_OWN = ("created_by",)       # the writer's own words ("parquet-cpp-arrow version 26.0.1"), as it wrote them
PHRASE = re.compile(r"[A-Za-z]{2,} \(?[A-Za-z0-9]")
VERSION = re.compile(r"git \d+\.\d+-\d+\.\d+")       # releases, written so in any language
NAME = re.compile(r"\([a-z0-9_.]+\)$|'[^']*'|\|[^|]*\||\S*[._=#/:(^*]\S*|0x[0-9a-f]+")


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def shown_fields(summary) -> list:
    """The fields the table shows (a Parquet filter's column and row group are its name, not rows)."""
    return [(k, v) for k, v in summary["fields"].items() if k not in ("column", "row_group")]


def croatian_table(flt) -> tuple[list[tuple[str, str]], list[str], str, str]:
    """(field rows, notes, hashing, layout) as the Croatian window writes them."""
    i18n.use("hr")
    s = flt.summary()
    rows = [(foreign_words.field_name(k), foreign_words.field_value(v)) for k, v in shown_fields(s)]
    notes = [foreign_words.said(n) for n in s["notes"]]
    return rows, notes, foreign_words.said(s["hashing"]), i18n.ptr("layout", s["layout"])


def check(filters) -> None:
    assert filters
    english = filters[0].summary()
    rows, notes, hashing, layout = croatian_table(filters[0])
    for (name, value), (key, raw) in zip(rows, shown_fields(english)):
        assert name != key and name.endswith(f"({key})"), f"field {key!r} has no Croatian words"
        assert not english_words(NAME.sub(" ", name)), name
        if isinstance(raw, str):
            assert not english_words(NAME.sub(" ", value)), (key, value)
            if PHRASE.search(raw) and key not in WRITERS_OWN:      # words, not a name: "changed paths"
                assert value != raw, f"value {raw!r} of {key!r} left in English"
        if isinstance(raw, float):
            assert not english_marks(value, repr(raw)), (key, value)
    assert layout != english["layout"]
    for hr, en in [(hashing, english["hashing"])] + list(zip(notes, english["notes"])):
        assert hr != en, f"left in English: {en}"
        assert not english_words(NAME.sub(" ", hr)), hr
        assert not english_marks(VERSION.sub("", hr), VERSION.sub("", en)), hr
    html = foreign_words.numbers_html(filters[0])
    assert english["hashing"] not in html and not [n for n in english["notes"] if n in html]


def test_cassandra():
    path = fixture("cassandra-3.x-tiny", "mc-1-big-Filter.db")
    found = formats.open_filters(path)
    assert found[0].summary()["fields"]["bloom_filter_fp_chance"] == 0.01
    check(found)
    assert str(found[0].hashing).startswith("Cassandra's MurmurHash3 x64-128")      # inspect's English


def test_cassandra_old_layout():
    check(formats.open_filters(fixture("cassandra-3.11-iot", "md-2-big-Filter.db")))


@needs_git
def test_git_commit_graph(tmp_path):
    repo, _ = make_repo(tmp_path, [{"a": "1"}, {"src/b.c": "2"}])
    git(repo, "commit-graph", "write", "--reachable", "--split")
    commit_files(repo, {"c": "3"}, "small")
    git(repo, "commit-graph", "write", "--reachable", "--split=no-merge", "--changed-paths")
    found = formats.open_filters(repo)
    assert any(" commits " in n for n in found[0].notes) and any("split chain" in n for n in found[0].notes)
    check(found)


def test_rocksdb(tmp_path):
    rd = pytest.importorskip("rocksdict", reason="rocksdict (RocksDB) is in the test extra; not installed here")
    opts = rd.Options(raw_mode=True)
    table = rd.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    opts.set_block_based_table_factory(table)
    opts.create_if_missing(True)
    db = rd.Rdict(str(tmp_path / "db"), opts)
    for i in range(3_000):
        db[f"user:{i:06d}".encode()] = b"v" * 20
    db.flush()
    db.close()
    found = formats.open_filters(tmp_path / "db")
    assert any("entries added" in n for n in found[0].notes)
    check(found)
    i18n.use("hr")
    from bloomviz.gui.files.foreign_view import _bands
    labels = [label for *_span, label in _bands(found[0].layout, found[0].m)]
    assert labels and not [x for x in labels if english_words(x) or x.startswith("block")], labels


def test_leveldb(tmp_path):
    plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")
    db = plyvel.DB(str(tmp_path / "db"), create_if_missing=True, bloom_filter_bits=10)
    for i in range(3_000):
        db.put(f"user:{i:07d}".encode(), b"x" * 20)
    db.compact_range()
    db.close()
    check(formats.open_filters(tmp_path / "db"))


@pytest.mark.parametrize("fpp", [None, 0.01])
def test_parquet_from_pyarrow(tmp_path, fpp):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra; not installed here")
    import pyarrow.parquet as pq
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [f"u{i}" for i in range(20_000)]}), path, row_group_size=10_000,
                   bloom_filter_options={"id": {"ndv": 2_000, "fpp": 0.01}})
    found = formats.open_filters(path, fpp=fpp)
    assert any(n.startswith("sized for at most") for n in found[0].notes)
    check(found)


def test_hudi():
    found = formats.open_filters(next(fixture("hudi-footer-bloom").glob("v8_*.parquet")))
    assert found[0].format == "hudi"
    check(found)
