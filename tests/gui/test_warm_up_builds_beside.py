"""On a first launch (no native kernel file for this install and machine) the window's warm-up has the file built
by a process of its own and loads it when that ends (gui/warm_up.py ``_built_beside``); built in the window's
process, numba's compiles held its interpreter's lock beside a first auto-play (4.3x a warm one)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from bloomviz.gui import warm_up
from bloomviz.hashing import cold_paths, native_build, native_kernels


@pytest.fixture
def first_launch(monkeypatch, tmp_path):
    """No file found yet, a cache directory of this test's own, loads recorded instead of done."""
    monkeypatch.setitem(native_kernels.state, "status", "absent")
    monkeypatch.setenv("BLOOMVIZ_KERNEL_CACHE", str(tmp_path))
    monkeypatch.setattr(cold_paths, "_wanted", threading.Event())
    monkeypatch.setattr(warm_up, "_builders", [])
    loads = []
    monkeypatch.setattr(native_kernels, "load", lambda directory=None, again=False: loads.append(again) or True)
    return loads


def _builder(monkeypatch, code: str) -> None:
    """The build's command: ``code`` run by this interpreter, given the directory as its argument."""
    monkeypatch.setattr(warm_up, "BUILD", ("-c", code))


def test_a_build_that_writes_the_file_is_loaded_from_it(first_launch, monkeypatch, tmp_path):
    _builder(monkeypatch, "import pathlib, sys; pathlib.Path(sys.argv[1], 'built').write_text('by the builder')")
    assert warm_up._built_beside() is True
    assert (tmp_path / "built").read_text() == "by the builder", "the build was given the cache directory"
    assert first_launch == [True], "loaded once more after the first try found no file"
    assert warm_up._builders, "this process then writes no file of its own"


def test_a_failed_build_is_not_loaded(first_launch, monkeypatch):
    _builder(monkeypatch, "raise SystemExit(1)")
    assert warm_up._built_beside() is False
    assert first_launch == []


def test_while_the_file_is_built_every_batch_takes_the_numpy_paths(first_launch, monkeypatch, tmp_path):
    """Whatever its size: a batch past the cold paths' limit took the compiled paths and compiled numba's code
    inside itself (a first auto-play of 10^6 items: 20 s of CPU against 0.3-0.4 s warm)."""
    # the build ends only once the batch was asked about (no race between a timer and a fixed sleep: on a loaded
    # machine either could come first)
    _builder(monkeypatch, "import pathlib, sys, time\n"
                          "go, ends = pathlib.Path(sys.argv[1], 'asked'), time.monotonic() + 60\n"
                          "while not go.exists() and time.monotonic() < ends:\n"
                          "    time.sleep(0.01)")
    seen = []
    big = cold_paths.COLD_LIMIT * 10

    def ask():
        ends = time.monotonic() + 60
        while not cold_paths.native_pending() and time.monotonic() < ends:
            time.sleep(0.005)
        seen.append(cold_paths.use_cold_path(big))
        (tmp_path / "asked").write_text("")
    asking = threading.Thread(target=ask)
    asking.start()
    assert warm_up._built_beside() is True
    asking.join()
    assert seen == [True]
    assert not cold_paths.native_pending() and not cold_paths.use_cold_path(big)


@pytest.mark.parametrize("status", ["loaded", "off", "not used: stale: written for other sources"])
def test_only_a_missing_file_starts_a_build(first_launch, monkeypatch, status):
    monkeypatch.setitem(native_kernels.state, "status", status)
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    assert warm_up._built_beside() is False and started == []


def test_no_cache_directory_starts_no_build(first_launch, monkeypatch):
    monkeypatch.setenv("BLOOMVIZ_KERNEL_CACHE", "")
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    assert warm_up._built_beside() is False and started == []


def test_the_build_command_writes_the_file_or_says_why_not(tmp_path, monkeypatch):
    monkeypatch.setattr(native_build, "build", lambda: ({}, [], b"object code"))
    monkeypatch.setattr(native_build.os, "nice", lambda step: 0)
    assert native_build.main([str(tmp_path)]) == 0
    assert (tmp_path / native_kernels.file_name(native_kernels.cache_key())).exists()

    def fails():
        raise RuntimeError("no compiler today")
    monkeypatch.setattr(native_build, "build", fails)
    assert native_build.main([str(tmp_path / "other")]) == 1


def test_the_module_runs_as_a_command():
    """``python -m bloomviz.hashing.native_build`` with no directory configured: exit 1 and the reason, at once
    (nothing built)."""
    out = subprocess.run([sys.executable, "-m", "bloomviz.hashing.native_build"], capture_output=True, text=True,
                         timeout=60, env={**os.environ, "BLOOMVIZ_KERNEL_CACHE": ""})
    assert out.returncode == 1 and "not written" in out.stderr


def test_a_window_started_while_another_builds_waits_for_that_file(first_launch, monkeypatch, tmp_path):
    """Windows started one after another before the first build ended each started one (seconds of CPU each)."""
    name = native_kernels.file_name(native_kernels.cache_key())
    (tmp_path / f".building-{name}").write_text("")
    _builder(monkeypatch, f"raise SystemExit({native_build.ANOTHER_BUILD})")
    threading.Timer(0.3, lambda: (tmp_path / name).write_text("the other build's")).start()
    assert warm_up._built_beside() is True and first_launch == [True]


def test_another_build_that_ends_without_a_file_is_not_waited_for(first_launch, monkeypatch):
    _builder(monkeypatch, f"raise SystemExit({native_build.ANOTHER_BUILD})")
    assert warm_up._built_beside() is False and first_launch == []


def test_one_build_at_a_time_per_file_and_a_marker_left_long_ago_is_taken_over(tmp_path, monkeypatch):
    built = []
    monkeypatch.setattr(native_build, "build", lambda: built.append(1) or ({}, [], b"object code"))
    monkeypatch.setattr(native_build.os, "nice", lambda step: 0)
    marker = tmp_path / f".building-{native_kernels.file_name(native_kernels.cache_key())}"
    marker.write_text("")
    assert native_build.main([str(tmp_path)]) == native_build.ANOTHER_BUILD and built == []
    long_ago = marker.stat().st_mtime - 2 * native_build.ABANDONED_AFTER_S
    os.utime(marker, (long_ago, long_ago))
    assert native_build.main([str(tmp_path)]) == 0 and built == [1]
    assert not marker.exists(), "removed after the build"
