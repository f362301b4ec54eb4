"""``bloomviz measure-git``: its counts equal git's own trace2 bloom statistics for the same paths."""

from __future__ import annotations

import json
import random

import pytest

from bloomviz.cli import main
from git_repos import commit_files, git, make_repo, needs_git, trace2_bloom, write_graph

pytestmark = needs_git


def _history(commits: int = 24, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    names = [f"{d}/{f}" for d in ("src", "src/core", "docs", "tests", "café") for f in ("a.c", "b.c", "é.txt", "d")]
    names += ["README", "¢", "Makefile"]
    history = [{"README": "start\n"}]
    for i in range(commits):
        history.append({name: f"{i}\n" for name in rng.sample(names, rng.randint(1, 6))})
    history.append({})       # an empty commit: the one-byte "no change" filter
    return history


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("measure")
    path, _ = make_repo(root, _history())
    write_graph(path)
    return path


def run_json(capsys, *argv) -> dict:
    assert main(["measure-git", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_counts_equal_gits_trace2_for_the_same_paths(repo, capsys, tmp_path):
    r = run_json(capsys, str(repo))
    paths = sorted({name for changes in _history() for name in changes})
    assert r["paths"] == len(paths) and r["root_commits"] == 1 and r["commits_measured"] == len(_history()) - 1
    total = {"maybe": 0, "definitely_not": 0, "false_positive": 0}
    for p in paths:
        theirs = trace2_bloom(repo, p, tmp_path)
        assert theirs["filter_not_present"] == 0
        for key in total:
            total[key] += theirs[key]
    assert r["git_counts"] == total
    assert r["queries"]["false_negatives"] == 0 and r["keys_alone"]["member_keys_missed"] == 0
    assert r["queries"]["false_positives"] == total["false_positive"]
    assert r["queries"]["members"] + r["queries"]["nonmembers"] == r["paths"] * r["commits_measured"]


def test_one_path_and_the_text_report(repo, capsys, tmp_path):
    for p in ("src/core", "nowhere/at/all", "café/é.txt"):
        r = run_json(capsys, str(repo), "--path", p)
        theirs = trace2_bloom(repo, p, tmp_path)
        assert r["git_counts"] == {k: theirs[k] for k in ("maybe", "definitely_not", "false_positive")}, p
    assert main(["measure-git", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "false positives measured" in out and "predicted from each fill" in out and "textbook" in out
    assert "Coinciding positions" in out and "No false negatives" in out


def test_predictions_are_the_fill_and_textbook_formulas(repo, capsys):
    r = run_json(capsys, str(repo), "--path", "src/a.c")
    q = r["keys_alone"]
    assert 0 <= q["predicted_from_fill"] <= q["predicted_from_distinct_positions"] <= 1
    assert 0 <= q["textbook"] <= 1 and 0 <= q["coinciding_positions"] <= 1


def test_refusals_are_one_line(tmp_path, capsys):
    assert main(["measure-git", str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["measure-git", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a git repository" in err and len(err.strip().splitlines()) == 1
    assert main(["measure-git", "--paths", "0", str(tmp_path)]) == 2
    assert "--paths must be a positive whole number" in capsys.readouterr().err


def test_with_merges_the_counts_equal_git_log_full_history(tmp_path, capsys):
    # git log --full-history consults exactly one filter per commit with a parent (its first parent's diff),
    # merges included, which is what measure-git counts; plain git log's simplification skips side branches
    repo, _ = make_repo(tmp_path, _history(8, seed=3))
    git(repo, "checkout", "-q", "-b", "side", "HEAD~3")
    commit_files(repo, {"side/only.txt": "s", "side/deep/two.c": "s"}, "side 1")
    commit_files(repo, {"side/only.txt": "s2"}, "side 2")
    git(repo, "checkout", "-q", "main")
    commit_files(repo, {"main-only.txt": "main moves on"}, "main 1")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    write_graph(repo)
    paths = ["README", "src/a.c", "side/only.txt", "side/deep/two.c", "side", "main-only.txt", "src", "nowhere"]
    total = {"maybe": 0, "definitely_not": 0, "false_positive": 0}
    for p in paths:
        theirs = trace2_bloom(repo, p, tmp_path, "--full-history")
        for key in total:
            total[key] += theirs[key]
    r = run_json(capsys, str(repo), *[arg for p in paths for arg in ("--path", p)])
    assert r["git_counts"] == total
    assert r["queries"]["false_negatives"] == 0


def test_progress_is_reported_from_the_first_commit_to_the_last(repo):
    from bloomviz.formats import git_measure
    calls = []
    result = git_measure.measure(repo, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, result["filters"]) and calls[-1] == (result["filters"], result["filters"])


def test_git_logs_false_positives_follow_the_distinct_bits_its_keys_test(tmp_path, capsys):
    # positions that coincide (within a key, across a path and its directories) in filters of tens of bits:
    # git's own "maybe"s follow fill^d over the distinct bits tested, not fill^k per key
    repo, _ = make_repo(tmp_path, _history(36, seed=5))
    write_graph(repo)
    q = run_json(capsys, str(repo))["queries"]
    assert q["predicted_from_fill"] < q["predicted_from_distinct_positions"] <= 1
    assert abs(q["measured"] - q["predicted_from_distinct_positions"]) < abs(q["measured"] - q["predicted_from_fill"])
