"""Where the real files other systems wrote live for tests: ``<repo>/../shared/world-filters-fixtures`` (they are
other projects' data, so they are read in place and never copied into this repository)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "world-filters-fixtures"


def fixture(*parts: str) -> Path:
    """The fixture's path, or the test is skipped saying which file is absent."""
    path = FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (real files other software wrote are read from ../shared beside the repo)")
    return path
