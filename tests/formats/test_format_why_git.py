""""Why is the rate higher than configured?" for git's changed-path filters, on repositories the git binary
built: the fixed settings, the all-ones byte git itself answers "maybe" with (trace2), and the distinct bits a
key tests, held to what the filters really pass."""

from __future__ import annotations

import json
import random
import re

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats.why import why
from git_repos import make_repo, needs_git, trace2_bloom, write_graph

pytestmark = needs_git


def _why(path) -> list[str]:
    return why(formats.detect(path), formats.open_filters(path))


def test_git_names_its_fixed_settings_and_the_512_key_limit_that_git_itself_applies(tmp_path):
    # 500 files in 20 directories: 520 keys (paths and leading directories), over git's 512 though the commit
    # changed fewer than 512 paths; git writes the all-ones byte and answers "maybe" to any path
    big = {f"d{d}/f{j}": "x" for d in range(20) for j in range(25)}
    repo, commits = make_repo(tmp_path, [{"a": "1"}, big, {"b": "2"}])
    write_graph(repo)
    flt = formats.open_filters(repo, commit=commits[1])[0]
    assert (flt.m, flt.bits_set) == (8, 8)
    assert "more than 512 paths and leading directories" in flt.fields["kind"]
    assert flt.fields["paths_more_than"] == 512 and "paths_at_most" not in flt.fields
    assert trace2_bloom(repo, "nowhere/else", tmp_path)["false_positive"] == 1    # git's own "maybe" there
    reasons = _why(repo)
    assert "10 bits per key" in reasons[0] and "k = 7" in reasons[0] and "0.819 %" in reasons[0]
    large = next(r for r in reasons if "more than 512 paths" in r)
    assert large.startswith("1 of 3 commits") and "100 %" in large


def test_measure_git_counts_the_false_positives_of_the_all_ones_filters(tmp_path, capsys):
    big = {f"big/f{j}": "x" for j in range(600)}
    repo, _ = make_repo(tmp_path, [{"a": "1"}, {"src/x.c": "1"}, big, {"src/y.c": "2"}])
    write_graph(repo)
    paths = ("a", "src/x.c", "src/y.c")
    assert main(["measure-git", str(repo), "--json", *[arg for p in paths for arg in ("--path", p)]]) == 0
    r = json.loads(capsys.readouterr().out)
    total = sum(trace2_bloom(repo, p, tmp_path)["false_positive"] for p in paths)
    assert r["git_counts"]["false_positive"] == total >= 3
    # the big commit answers maybe to each of the three paths it did not change: 3 of git's own false positives
    assert r["large_filters"] == {"commits": 1, "false_positives": 3}
    assert any(line.startswith("More than 512 paths") and f"3 of the {total} false positives" in line
               for line in r["why"])


def test_gits_distinct_bits_rate_is_nearer_what_its_filters_really_pass(tmp_path):
    from bloomviz.formats import git_measure
    rng = random.Random(4)
    names = [f"{d}/{f}" for d in ("src", "src/core", "docs", "tests") for f in ("a.c", "b.c", "c.h", "d")]
    history = [{"README": "0"}] + [{n: str(i) for n in rng.sample(names, rng.randint(1, 5))} for i in range(30)]
    repo, _ = make_repo(tmp_path, history)
    write_graph(repo)
    line = next(r for r in _why(repo) if r.startswith("Small filters"))
    distinct, by_fill = (float(x) / 100 for x in re.search(r"([\d.]+) % counting distinct bits, ([\d.]+) % by fill\^k",
                                                             line).groups())
    measured = git_measure.measure(repo)["keys_alone"]["measured"]      # every key against every filter
    assert by_fill < distinct and abs(measured - distinct) < abs(measured - by_fill)
