"""The banned-passwords data set is fit for a classroom: no entry holds a blocked substring, ordinary words
stay, and the filter that made it is the one in the build script."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bloomviz.scenarios import datasets

ROOT = Path(__file__).resolve().parents[2] / "assets" / "datasets"


def _build_module():
    spec = importlib.util.spec_from_file_location("build_datasets", ROOT / "build_datasets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_shipped_password_holds_a_blocked_substring():
    build = _build_module()
    shipped = datasets.read_lines("common-passwords")
    assert build.fit_for_a_classroom(shipped) == shipped and len(shipped) == 29_292
    assert shipped[:3] == ["123456", "password", "12345678"]


def test_the_filter_folds_case_and_leetspeak_and_keeps_ordinary_words():
    build = _build_module()
    assert build.fit_for_a_classroom(["password", "document", "P0RN", "5h1t", "grape", "Sussex1"]) == \
        ["password", "document", "grape"]
