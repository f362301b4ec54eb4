"""No source file of the product, its tests or its benchmarks is over 450 lines (the house's rule: a file holds
one thing, named for it). A class spread over files is checked along its MRO by test_class_size.py."""

from __future__ import annotations

from pathlib import Path

LIMIT = 450
REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("bloomviz", "tests", "benchmarks")


def long_files(root: Path, limit: int = LIMIT) -> dict[str, int]:
    found = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            with path.open("rb") as f:
                n = sum(1 for _ in f)
            if n > limit:
                found[str(path.relative_to(root))] = n
    return found


def test_no_python_file_is_over_the_limit():
    over = long_files(REPO)
    assert not over, f"files over {LIMIT} lines (split them by what they hold): {over}"


def test_the_count_finds_a_long_file(tmp_path):
    (tmp_path / "bloomviz").mkdir()
    (tmp_path / "bloomviz" / "long.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "bloomviz" / "short.py").write_text("x = 1\n" * LIMIT)
    assert long_files(tmp_path) == {"bloomviz/long.py": LIMIT + 1}
