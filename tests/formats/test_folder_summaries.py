"""A folder's summary as ``inspect`` gives it, on folders the real software wrote (git, LevelDB): a folder has no
size of its own, so the size and the share spent on filters are of the files its filters came from, named; and
git's filters count as past their design only when git itself says so (its all-ones filter), since git sizes
every other filter for exactly the paths it holds."""

from __future__ import annotations

import json

import pytest

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats import atlas
from git_repos import make_repo, needs_git, write_graph


def _inspect(capsys, *args) -> str:
    assert main(["inspect", *map(str, args)]) == 0
    return capsys.readouterr().out


@needs_git
def test_a_repository_names_its_commit_graph_not_a_folder_size(tmp_path, capsys):
    big = {f"d{d}/f{j}": "x" for d in range(20) for j in range(25)}       # 520 keys: git's all-ones byte
    # 24-bit filters of two keys each (a directory and a file) whose estimate from the fill runs over 1.25x two
    small = [{f"d{i % 5}/f{i}": str(i)} for i in range(30)]
    repo, _ = make_repo(tmp_path, [{"a": "1"}, *small, big])
    write_graph(repo)
    graph = repo / ".git" / "objects" / "info" / "commit-graph"
    text = _inspect(capsys, repo)
    size = graph.stat().st_size
    assert text.splitlines()[0] == (f"{repo} (a folder; its filters come from .git/objects/info/commit-graph: "
                                    f"{size:,} bytes)")
    assert f"of the {size:,} bytes of the file they came from" in text and "-byte file" not in text
    r = json.loads(_inspect(capsys, repo, "--json"))
    assert r["source_files"] == [".git/objects/info/commit-graph"] and r["file_bytes"] == size
    assert r["atlas"]["source_files"] == 1
    filters = formats.open_filters(repo)
    summaries = [f.summary() for f in filters]
    large = [s for s in summaries if s["fields"]["kind"].startswith("too many")]
    assert len(large) == 1
    # the estimate alone would flag some of the tiny filters; git's own sizing says none of them is past it
    by_estimate = [s for s in summaries if s not in large and s["estimated_n"] > atlas.PAST_MARGIN * s["design_n"]]
    assert by_estimate, "the repository should hold filters whose estimate reads over their size"
    assert r["atlas"]["past_design"] == 1
    assert list(r["atlas"]["past_design_rules"]) == ["more than 512 paths and directories: git's all-ones filter"]


def test_a_leveldb_folder_names_its_table(tmp_path, capsys):
    plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")
    db = plyvel.DB(str(tmp_path / "db"), create_if_missing=True, bloom_filter_bits=10)
    for i in range(5_000):
        db.put(f"k{i:06d}".encode(), b"v" * 20)
    db.compact_range()
    db.close()
    tables = sorted(p.name for p in (tmp_path / "db").glob("*.ldb"))
    assert len(tables) == 1
    size = (tmp_path / "db" / tables[0]).stat().st_size
    text = _inspect(capsys, tmp_path / "db")
    assert text.splitlines()[0].endswith(f"(a folder; its filters come from {tables[0]}: {size:,} bytes)")
    assert f"of the {size:,} bytes of the file they came from" in text


def test_a_file_keeps_its_own_size_line(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra; not installed here")
    import pyarrow.parquet as pq
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [f"u{i}" for i in range(2_000)]}), path, row_group_size=1_000,
                   bloom_filter_options={"id": True})
    text = _inspect(capsys, path)
    assert text.splitlines()[0] == f"{path} ({path.stat().st_size:,} bytes)"
    assert f"of the {path.stat().st_size:,}-byte file" in text
    assert "source_files" not in json.loads(_inspect(capsys, path, "--json"))
