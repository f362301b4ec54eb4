"""Lesson 9's ``git-history`` step: a small git repository made on the spot, its changed-path filters measured.

The repository is built in a temporary folder by the ``git`` binary (no network: ``init``, ``fast-import``,
``commit-graph write --changed-paths``), from a seeded list of edits with fixed dates and names, so the same
seed gives the same commits, the same filters and the same numbers on every machine with the same git. The
measurement is ``formats.git_measure`` (the one ``bloomviz measure-git`` prints); the folder is removed after.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile

MAX_COMMITS = 400
DIRS = ("src", "src/core", "src/net", "docs", "tests", "tools", "assets/icons")
FILES = ("main.c", "util.c", "io.c", "README.md", "notes.txt", "config.h", "logo.svg", "test_all.py")


def _git(repo: str, *args: str, stdin: bytes | None = None) -> None:
    env = {**os.environ, "HOME": repo, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "LC_ALL": "C"}
    proc = subprocess.run([shutil.which("git") or "git", "-C", repo, *args], capture_output=True, env=env,
                          input=stdin if stdin is not None else b"")
    if proc.returncode != 0:
        raise ValueError(f"git {args[0]} failed: {proc.stderr.decode('utf-8', 'replace').strip()[-200:]}")


def _data(text: str) -> bytes:
    raw = text.encode("utf-8")
    return b"data %d\n%s\n" % (len(raw), raw)


def history_stream(commits: int, seed: int) -> bytes:
    """``git fast-import`` input for ``commits`` commits, each rewriting 1-8 of a few dozen paths: one process
    writes the whole history (a ``git commit`` per commit costs a process and a lock each)."""
    rng = random.Random(seed)
    paths = [f"{d}/{f}" for d in DIRS for f in FILES]
    out = []
    for i in range(commits):
        out.append(b"commit refs/heads/main\nmark :%d\n" % (i + 1))
        out.append(b"committer lesson <lesson@example.org> %d +0000\n" % (1704067200 + 60 * i))
        out.append(_data(f"change {i}"))
        if i:
            out.append(b"from :%d\n" % i)
        for path in rng.sample(paths, rng.randint(1, 8)):
            out.append(b"M 100644 inline %s\n" % path.encode())
            out.append(_data(f"{i} {rng.random()}"))
    return b"".join(out)


def build_repo(folder: str, commits: int, seed: int) -> str:
    """A repository of ``commits`` commits with changed-path filters, in ``folder``/repo."""
    repo = os.path.join(folder, "repo")
    os.mkdir(repo)
    _git(repo, "init", "-q", "--bare")
    _git(repo, "fast-import", "--quiet", stdin=history_stream(commits, seed))
    _git(repo, "commit-graph", "write", "--reachable", "--changed-paths")
    return repo


def git_history(commits: int, seed: int) -> dict:
    """The numbers of a ``git-history`` step (keys ``git.*``)."""
    if shutil.which("git") is None:
        raise ValueError("this step builds a git repository and needs the git binary; install git")
    from bloomviz.formats import git_measure
    with tempfile.TemporaryDirectory(prefix="bloomviz-lesson-git-") as folder:
        r = git_measure.measure(build_repo(folder, commits, seed))
    key, q = r["keys_alone"], r["queries"]
    return {"git.commits": r["commits_measured"], "git.paths": r["paths"],
            "git.median_bits": r["filter_bits"]["median"], "git.lookups": key["nonmembers"],
            "git.false_positives": key["false_positives"], "git.measured": key["measured"],
            "git.predicted": key["predicted_from_fill"], "git.distinct": key["predicted_from_distinct_positions"],
            "git.textbook": key["textbook"], "git.coinciding": key["coinciding_positions"],
            "git.false_negatives": q["false_negatives"] + key["member_keys_missed"],
            "git.query_measured": q["measured"]}


BLOCK = "ethereum-block-2024-06-03.json"


def ethereum_block() -> dict:
    """The numbers of an ``ethereum-block`` step (keys ``eth.*``): the shipped mainnet block's logsBloom, read by
    the Ethereum reader (bloomviz/data/README.md says where the block comes from)."""
    from importlib import resources

    from bloomviz.formats import ethereum
    with resources.as_file(resources.files("bloomviz.data") / BLOCK) as path:
        [flt] = ethereum.read(path)
    return {"eth.bits_set": flt.bits_set, "eth.m": flt.m, "eth.k": flt.k, "eth.fill": flt.fill_ratio,
            "eth.estimated_n": flt.estimated_count, "eth.expected_fp": flt.expected_fp}
