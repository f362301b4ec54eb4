"""The lesson fuzz corpus (``lesson_corpus.py``) run headless: ``bloomviz lesson FILE --check`` on every hostile
file, each in a forked child under RLIMIT_CPU = 5 s and RLIMIT_AS = 1 GiB (``lesson_fuzz_driver.py``): no
traceback, no child ended by a limit, no child over 1 GiB at its peak, and every refusal one line naming the
file, the line and the reason. And in the window (``lesson_fuzz_window.py``): the costly shapes and a quarter of
the rest opened in the Lesson tab, walked to the end and back, under the same limits per file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lesson_corpus import write_corpus

HERE = Path(__file__).resolve().parents[1]   # tests/, where the fuzz drivers and their corpus live
pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux",
                                reason="the driver forks and reads wait4's usage (Linux)")


def run_corpus(paths) -> list[dict]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([str(HERE.parent), str(HERE)]))
    out = subprocess.run([sys.executable, str(HERE / "lesson_fuzz_driver.py")], input="\n".join(map(str, paths)),
                         capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_corpus(write_corpus(tmp_path_factory.mktemp("corpus")))


def test_the_corpus_covers_every_action_and_the_costly_shapes(results):
    names = {Path(r["path"]).name for r in results}
    assert len(results) > 400
    assert {"ten-megabytes.md", "binary.md", "five-insert-random-2-28.md", "counting-8bit-20-steps.md",
            "text-steps-2-28.md", "ensemble-large-m.md", "scalable-giant-stage.md", "long-word.md"} <= names


def test_no_traceback_and_no_run_over_its_limits(results):
    bad = [(Path(r["path"]).name, r["signal"], round(r["cpu"], 2), r["max_rss"] >> 20, r["stderr"][-300:])
           for r in results
           if r["signal"] is not None or r["exit"] not in (0, 2) or "Traceback" in r["stderr"]
           or r["max_rss"] >= 1 << 30]
    assert not bad, f"{len(bad)} of {len(results)} runs: {bad[:8]}"


def test_every_refusal_names_the_file_the_line_and_the_reason(results):
    refused = [r for r in results if r["exit"] == 2]
    assert len(refused) > 200
    for r in refused:
        lines = r["stderr"].strip().splitlines()
        assert len(lines) == 1, r
        # path:LINE: reason, or path: reason for a fault of the whole file (too large, not text)
        m = re.match(r"bloomviz lesson: error: (.+?)(?::(\d+))?: (.+)$", lines[0])
        assert m and m.group(1) == r["path"] and m.group(3).strip(), lines[0]
        if m.group(2) is None:
            assert re.search(r"bytes|UTF-8|empty|no steps|title", m.group(3)), lines[0]


def test_memory_errors_are_not_how_a_lesson_is_refused(results):
    # a budget refuses before allocating: an allocation failing under the 1 GiB limit means it did not
    assert not [r["stderr"] for r in results if re.search(r"MemoryError|allocate|Cannot allocate", r["stderr"])]


def window_sample(paths) -> list:
    """The costly shapes, the whole-file faults and every fourth action file (the window run is slower)."""
    return [p for i, p in enumerate(sorted(paths)) if not p.name.startswith("action-") or i % 4 == 0]


def test_the_window_opens_the_corpus_within_its_limits(tmp_path):
    pytest.importorskip("PySide6")
    paths = window_sample(write_corpus(tmp_path / "corpus"))
    # each opening's worker thread gets a malloc arena of 64 MiB of address space (not memory): two arenas keep
    # the address-space limit about what the files take
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", QT_QPA_PLATFORM="offscreen",
               MALLOC_ARENA_MAX="2", PYTHONPATH=os.pathsep.join([str(HERE.parent), str(HERE)]))
    out = subprocess.run([sys.executable, str(HERE / "lesson_fuzz_window.py")], input="\n".join(map(str, paths)),
                         capture_output=True, text=True, env=env, timeout=900)
    results = [json.loads(line) for line in out.stdout.splitlines()]
    # a run killed by its CPU or memory limit ends the process early: the last file printed is before it
    assert out.returncode == 0 and len(results) == len(paths), \
        f"stopped after {len(results)} of {len(paths)} files: {out.stderr[-1500:]}"
    bad = [(Path(r["path"]).name, r["errors"], round(r["cpu"], 2), r["peak_growth"] >> 20) for r in results
           if r["errors"] or r["peak_growth"] >= 1 << 30]
    assert not bad, bad[:5]
    refused = [r for r in results if not r["opened"]]
    assert refused and all(re.search(r"Not opened: .+?(:\d+)?: ", r["message"]) for r in refused), \
        [r["message"] for r in refused if "Not opened" not in r["message"]][:3]
    assert sum(r["opened"] for r in results) >= 10
