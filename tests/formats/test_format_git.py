"""git changed-path filters read from repositories the real git wrote (git 2.39 writes hash version 1).

Every filter is rebuilt from ``git diff-tree`` (its changed paths and their leading directories, hashed by
bloomviz's git scheme) and must equal git's bytes; every changed path answers "probably present"; and the
answers for paths a commit did not change must equal git's own (trace2 "bloom"/"statistics" for ``git log --
PATH``). Split chains, the one-byte filters and damaged files are covered too.
"""

from __future__ import annotations

import hashlib
import os
import struct

import pytest

from bloomviz import formats
from bloomviz.core import BloomFilter
from bloomviz.formats import ForeignFormatError, git_commit_graph as gcg
from git_repos import commit_files, git, make_repo, needs_git, trace2_bloom, write_graph

pytestmark = needs_git


def first_parent_paths(repo, oid: str) -> list[bytes]:
    parents = git(repo, "rev-parse", f"{oid}^@").split()
    base = [parents[0]] if parents else ["--root"]
    out = git(repo, "diff-tree", "-r", "-z", "--no-renames", "--name-only", "--no-commit-id", *base, oid)
    return [p.encode("utf-8", "surrogateescape") for p in out.split("\0") if p]


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("git")
    repo, commits = make_repo(root)
    write_graph(repo)
    return repo, commits


def test_a_repository_is_detected_and_gives_one_filter_per_commit(repo):
    path, commits = repo
    assert formats.detect(path) == "git"
    assert formats.detect(path / ".git") == "git"
    assert formats.detect(path / ".git" / "objects" / "info" / "commit-graph") == "git"
    filters = formats.open_filters(path)
    assert sorted(f.label for f in filters) == sorted(commits)
    assert all(f.k == 7 and f.fields["hash_version"] == 1 for f in filters)


def test_every_filter_equals_the_one_rebuilt_from_diff_tree_with_the_git_scheme(repo):
    path, commits = repo
    for f in formats.open_filters(path):
        paths = first_parent_paths(path, f.label)
        if not paths:
            assert f.fields["kind"] == "no change" and f.m == 8 and f.bits_set == 0
            continue
        keys = {key for p in paths for key in gcg.path_keys(p)}
        assert f.fields["filter_bytes"] == (len(keys) * 10 + 7) // 8
        v1 = BloomFilter(f.m, 7, scheme="git-changed-paths-v1")
        for key in keys:
            v1.add(key)
        assert v1.bits.tobytes() == f.bits.tobytes(), f.label
        for p in paths:                                   # zero false negatives
            assert f.lookup(p).maybe_present and f.lookup(p.decode("utf-8")).maybe_present


def test_non_ascii_paths_need_version_1_hashing(repo):
    path, commits = repo
    cent = formats.open_filters(path, commit=commits[2])[0]   # adds "¢", "naïve/café.txt", "日本/語.md"
    keys = {key for p in first_parent_paths(path, commits[2]) for key in gcg.path_keys(p)}
    v2 = BloomFilter(cent.m, 7, scheme="git-changed-paths")
    for key in keys:
        v2.add(key)
    assert v2.bits.tobytes() != cent.bits.tobytes()   # git 2.39 hashed these bytes as signed char


def test_non_member_answers_equal_gits_trace2_counts(repo, tmp_path):
    path, commits = repo
    filters = {f.label: f for f in formats.open_filters(path)}
    probes = ["README", "src/main.c", "src/lib/util.c", "src/lib", "src", "¢", "another¢", "naïve/café.txt",
              "日本/語.md", "tests/deep/er/t2.sh", "docs/guide.md", "nothing/here.txt", "src/nope.c", "zz"]
    for probe in probes:
        ours = {"filter_not_present": 0, "maybe": 0, "definitely_not": 0, "false_positive": 0}
        for oid in commits[1:]:                        # git 2.39 consults no filter for the root commit
            hit = filters[oid].lookup(probe).maybe_present
            changed = any(p == probe.encode() or p.startswith(probe.encode() + b"/")
                          for p in first_parent_paths(path, oid))
            ours["maybe" if hit else "definitely_not"] += 1
            ours["false_positive"] += hit and not changed
        assert ours == trace2_bloom(path, probe, tmp_path), probe


def test_too_many_changes_is_one_byte_of_ones(tmp_path):
    repo, commits = make_repo(tmp_path, [{"a": "1"}, {f"big/{i}": str(i) for i in range(513)}])
    write_graph(repo)
    big = formats.open_filters(repo, commit=commits[1])[0]
    assert (big.m, big.bits_set) == (8, 8) and big.fields["kind"].startswith("too many changes")
    assert big.lookup("anything/at/all").maybe_present
    assert trace2_bloom(repo, "anything", tmp_path)["false_positive"] == 1   # git answers "maybe" too


def test_a_split_chain_is_read_layer_by_layer(tmp_path):
    repo, commits = make_repo(tmp_path)
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge")
    commits.append(commit_files(repo, {"later/file.txt": "l"}, "later"))
    commits.append(commit_files(repo, {"later/file.txt": "l2", "¢": "c2"}, "later2"))
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge")
    info = repo / ".git" / "objects" / "info"
    assert not (info / "commit-graph").exists()
    assert len((info / "commit-graphs" / "commit-graph-chain").read_text().split()) == 2
    assert formats.detect(repo) == "git"
    filters = formats.open_filters(repo)
    assert sorted(f.label for f in filters) == sorted(commits)
    assert any("split chain of 2 layers" in n for n in filters[0].notes)
    by = {f.label: f for f in filters}
    for probe in ("later/file.txt", "¢", "src/main.c", "later/nope"):
        hits = sum(by[c].lookup(probe).maybe_present for c in commits[1:])
        assert hits == trace2_bloom(repo, probe, tmp_path)["maybe"], probe


def test_a_worktree_and_a_bare_clone_are_repositories(repo, tmp_path):
    path, commits = repo
    bare = tmp_path / "bare.git"
    git(path, "clone", "-q", "--bare", "--no-local", str(path), str(bare))
    git(bare, "commit-graph", "write", "--reachable", "--changed-paths")
    wt = tmp_path / "wt"
    git(path, "worktree", "add", "-q", str(wt))
    try:
        assert formats.detect(bare) == "git" and formats.detect(wt) == "git"
        assert len(formats.open_filters(bare)) == len(formats.open_filters(wt)) == len(commits)
    finally:
        git(path, "worktree", "remove", "--force", str(wt))


def test_commit_selector(repo):
    path, commits = repo
    assert [f.label for f in formats.open_filters(path, commit=commits[3][:10].upper())] == [commits[3]]
    with pytest.raises(ValueError, match="at least 4"):
        formats.open_filters(path, commit="ab")
    with pytest.raises(ValueError, match="no commit"):
        formats.open_filters(path, commit="0000000")


def test_a_repository_without_a_graph_or_filters_is_refused(tmp_path):
    repo, _ = make_repo(tmp_path, [{"a": "1"}, {"b": "2"}])
    assert formats.detect(repo) is None
    with pytest.raises(ForeignFormatError, match="no commit-graph"):
        formats.open_filters(repo, "git")
    git(repo, "commit-graph", "write", "--reachable")
    with pytest.raises(ForeignFormatError, match="no changed-path filters"):
        formats.open_filters(repo, "git")
    with pytest.raises(ForeignFormatError, match="not a git repository"):
        formats.open_filters(tmp_path, "git")


def _rechecksum(raw: bytes) -> bytes:
    return raw[:-20] + hashlib.sha1(raw[:-20]).digest()


def _chunk(raw: bytes, cid: bytes) -> int:
    for i in range(raw[6]):
        got, offset = struct.unpack_from(">4sQ", raw, 8 + 12 * i)
        if got == cid:
            return offset
    raise AssertionError(cid)


@pytest.mark.parametrize("damage,expect", [
    (lambda r: r[:-1], "checksum"),
    (lambda r: r[:30], "truncated"),
    (lambda r: b"XGPH" + r[4:], "signature"),
    (lambda r: _rechecksum(r[:4] + b"\x02" + r[5:]), "version 2"),
    (lambda r: _rechecksum(r[:5] + b"\x07" + r[6:]), "hash version 7"),
    (lambda r: r[:100] + bytes([r[100] ^ 1]) + r[101:], "checksum"),
    (lambda r: _rechecksum(r[:6] + bytes([r[6] + 3]) + r[7:]), "chunk"),
    (lambda r: _rechecksum(r[:_chunk(r, b"BIDX")] + b"\xff\xff\xff\xff" + r[_chunk(r, b"BIDX") + 4:]),
     "Bloom index entry 0"),
    (lambda r: _rechecksum(r[:_chunk(r, b"BDAT") + 4] + b"\0\0\1\0" + r[_chunk(r, b"BDAT") + 8:]),
     "k = 256"),
    (lambda r: _rechecksum(r[:_chunk(r, b"OIDF")] + b"\xff\xff\xff\xff" + r[_chunk(r, b"OIDF") + 4:]),
     "fanout"),
])
def test_damaged_graphs_are_refused_naming_format_offset_and_fault(repo, tmp_path, damage, expect):
    path, _ = repo
    raw = (path / ".git" / "objects" / "info" / "commit-graph").read_bytes()
    bad = tmp_path / "commit-graph"
    bad.write_bytes(damage(raw))
    with pytest.raises(ForeignFormatError, match=expect) as err:
        formats.open_filters(bad, "git")
    assert str(err.value).startswith(f"{bad}: git: ")


def test_fuzzed_graphs_with_repaired_checksums_are_refused_or_consistent(repo, tmp_path):
    import random
    path, _ = repo
    raw = (path / ".git" / "objects" / "info" / "commit-graph").read_bytes()
    rng = random.Random(24)
    bad = tmp_path / "commit-graph"
    for _ in range(300):
        data = bytearray(raw)
        for _ in range(rng.choice((1, 2, 4))):
            i = rng.randrange(len(data) - 20)
            data[i] = rng.randrange(256)
        bad.write_bytes(_rechecksum(bytes(data)) if rng.random() < 0.8 else bytes(data))
        try:
            filters = formats.open_filters(bad, "git")
        except ForeignFormatError as exc:
            assert "git" in str(exc)
            continue
        for f in filters:
            assert len(f.bits) == f.m and 1 <= f.k <= 255


def test_a_fifo_in_place_of_the_graph_is_refused_without_blocking(tmp_path):
    repo, _ = make_repo(tmp_path, [{"a": "1"}])
    info = repo / ".git" / "objects" / "info"
    info.mkdir(parents=True, exist_ok=True)
    os.mkfifo(info / "commit-graph")
    with pytest.raises(ForeignFormatError, match="FIFO"):
        formats.open_filters(repo, "git")


def test_chain_lines_must_name_their_layers(tmp_path):
    repo, _ = make_repo(tmp_path, [{"a": "1"}, {"b": "2"}])
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", "--split")
    chain = repo / ".git" / "objects" / "info" / "commit-graphs" / "commit-graph-chain"
    chain.write_text("not-a-hash\n")
    with pytest.raises(ForeignFormatError, match="not a layer hash"):
        formats.open_filters(repo)


def test_a_version_2_graph_is_hashed_as_version_2(tmp_path):
    # git 2.45+ writes version 2 with commitGraph.changedPathsVersion=2; Debian's git 2.39 cannot. t4216's
    # "check value of version 2 changed-path" gives the filter git 2.45 writes for a root commit adding "¢":
    # c01f. That filter and the version number are patched into the graph git 2.39 wrote for the same commit.
    repo, (commit,) = make_repo(tmp_path, [{"¢": "cent\n"}])
    write_graph(repo)
    raw = bytearray((repo / ".git" / "objects" / "info" / "commit-graph").read_bytes())
    bdat = _chunk(bytes(raw), b"BDAT")
    assert struct.unpack_from(">III", raw, bdat) == (1, 7, 10)
    v1_filter = bytes(raw[bdat + 12:bdat + 14])
    raw[bdat:bdat + 4] = struct.pack(">I", 2)
    raw[bdat + 12:bdat + 14] = bytes.fromhex("c01f")
    v2_graph = tmp_path / "commit-graph"
    v2_graph.write_bytes(_rechecksum(bytes(raw)))
    [f] = formats.open_filters(v2_graph, "git")
    assert f.fields["hash_version"] == 2 and f.bits.tobytes().hex() == "c01f"
    assert f.lookup("¢").maybe_present
    assert v1_filter.hex() != "c01f"            # git 2.39's version 1 bytes for the same path differ
    [old] = formats.open_filters(repo)
    assert old.lookup("¢").maybe_present and old.bits.tobytes() == v1_filter
