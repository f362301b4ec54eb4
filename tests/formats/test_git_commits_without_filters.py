"""A commit-graph chain whose older layer was written without --changed-paths: git 2.39 reads the trees of those
commits for every path (its trace2 counts them as filter_not_present), and the reasons say how many there are and
how to give them filters; after a full rewrite with --changed-paths, git and the reasons agree that none is left."""

from __future__ import annotations

from bloomviz import formats
from bloomviz.formats.why import why
from git_repos import git, make_repo, needs_git, trace2_bloom

pytestmark = needs_git


def test_commits_in_a_layer_without_filters_are_named(tmp_path):
    repo, commits = make_repo(tmp_path, [{f"f{i}": str(i)} for i in range(3)])
    git(repo, "commit-graph", "write", "--reachable", "--split")
    for i in range(3, 6):
        (repo / f"f{i}").write_text(str(i))
        git(repo, "add", ".")
        git(repo, "commit", "-qm", f"c{i}")
    git(repo, "commit-graph", "write", "--reachable", "--split=no-merge", "--changed-paths")
    filters = formats.open_filters(repo)
    assert len(filters) == 3 and filters[0].fields["commits_without_filter"] == 3
    counts = trace2_bloom(repo, "nowhere", tmp_path)
    # git consults no filter for the root commit, which is one of the three
    assert counts["filter_not_present"] == 3 - 1
    (line,) = [r for r in why("git", filters) if "have no filter" in r]
    assert line.startswith("3 of 6 commits in the graph have no filter")
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", "--split=replace")
    filters = formats.open_filters(repo)
    assert len(filters) == 6 and "commits_without_filter" not in filters[0].fields
    assert trace2_bloom(repo, "nowhere", tmp_path)["filter_not_present"] == 0
    assert not [r for r in why("git", filters) if "have no filter" in r]
