"""The model's half of one typed insert as a budget (issue 22: a typed insert <= 60 calls through <= 12 files,
``benchmarks/insert_trace.py`` measures the whole window's). The window adds two files of its own (the item
panel and the Qt adapter) and four calls, so the model's half gets 10 files and 56 calls: a new step on the
path shows up here, with the files it went through, before the benchmark is run."""

from __future__ import annotations

import sys
from pathlib import Path

import bloomviz
from bloomviz.workbench.model import Workbench

ROOT = str(Path(bloomviz.__file__).parent)
COMPREHENSIONS = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}
MODEL_FILES, MODEL_CALLS = 10, 56


def _traced_insert(wb: Workbench, item: str) -> list[str]:
    files: list[str] = []

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith(ROOT) and code.co_name not in COMPREHENSIONS:
            files.append(code.co_filename[len(ROOT) + 1:])

    sys.setprofile(profile)
    try:
        wb.insert(item)
    finally:
        sys.setprofile(None)
    return files


def test_a_typed_insert_goes_through_few_files_of_the_model():
    wb = Workbench(probes=1_000)
    wb.events.operated.connect(lambda rec: None)     # a listener, as the window's adapter
    for i in range(20):                              # first-use paths (the truth's rows, the tracker) taken
        wb.insert(f"warm {i}")
    files = _traced_insert(wb, "typed by a student")
    assert wb.is_member("typed by a student") and len(wb.series) == 21   # the insert and its plot row
    distinct = sorted(set(files))
    assert len(distinct) <= MODEL_FILES, f"{len(distinct)} files: {distinct}"
    assert len(files) <= MODEL_CALLS, f"{len(files)} calls through {distinct}"
