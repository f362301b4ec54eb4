"""Small git repositories built by the real ``git`` binary, and git's own verdicts (trace2 bloom statistics)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="the git binary is not installed (Debian: apt-get install git)")


def git_env(home: Path) -> dict:
    return {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
            "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z", "LC_ALL": "C"}


def git(repo: Path, *args: str, env_extra: dict | None = None) -> str:
    env = {**git_env(repo.parent), **(env_extra or {})}
    proc = subprocess.run([GIT, "-C", str(repo), *args], capture_output=True, env=env, check=True)
    return proc.stdout.decode("utf-8", "surrogateescape")


def commit_files(repo: Path, changes: dict[str, str | None], message: str) -> str:
    """Write (or delete, for None) the files, commit everything, return the commit id."""
    for name, text in changes.items():
        path = repo / name
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


# a history with non-ASCII names, nested directories, a deletion, a rename, an empty commit
HISTORY = [
    {"README": "hello\n"},
    {"src/main.c": "int main;\n", "src/lib/util.c": "u\n", "docs/guide.md": "g\n"},
    {"¢": "cent\n", "naïve/café.txt": "c\n", "日本/語.md": "j\n"},
    {},
    {"src/lib/util.c": "u2\n", "docs/guide.md": None},
    {"src/lib/helpers.c": "h\n", "naïve/café.txt": None, "naïve/cafe.txt": "c\n"},
    {"README": "hello again\n", "tests/t1.sh": "t\n", "tests/deep/er/t2.sh": "t\n"},
    {"another¢": "x\n", "src/main.c": "int main(void);\n"},
]


def make_repo(root: Path, history=HISTORY, name: str = "repo") -> tuple[Path, list[str]]:
    repo = root / name
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commits = [commit_files(repo, changes, f"c{i}") for i, changes in enumerate(history)]
    return repo, commits


def write_graph(repo: Path, *extra: str) -> None:
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", *extra)


def trace2_bloom(repo: Path, path: str, tmp: Path, *log_options: str) -> dict:
    """git's own counts for ``git log [OPTIONS] -- PATH``: the trace2 event "bloom"/"statistics"."""
    out = tmp / "trace2.json"
    if out.exists():
        out.unlink()
    git(repo, "log", *log_options, "--format=%H", "--", path, env_extra={"GIT_TRACE2_EVENT": str(out)})
    found = [json.loads(line)["value"] for line in out.read_text().splitlines()
             if '"category":"bloom"' in line and '"key":"statistics"' in line]
    assert len(found) == 1, f"git printed {len(found)} bloom statistics for {path!r}"
    return found[0]
