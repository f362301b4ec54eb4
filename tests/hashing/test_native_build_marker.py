"""The marker a kernel-file build leaves while it runs (hashing/native_build.py ``_only_build``) names its
process: a build killed part way left its marker, and for an hour every window launched waited up to ten minutes
for a file no one was writing, its batches on the numpy paths meanwhile."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bloomviz.hashing import native_build, native_kernels


def _marker(tmp_path):
    return tmp_path / f".building-{native_kernels.file_name(native_kernels.cache_key())}"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_running_build_marks_its_process_and_keeps_others_out(tmp_path):
    with native_build._only_build(tmp_path):
        marker = _marker(tmp_path)
        assert marker.read_text() == str(os.getpid()) and native_build.builder_alive(marker)
        with pytest.raises(FileExistsError):
            with native_build._only_build(tmp_path):
                pass
    assert not _marker(tmp_path).exists()


def test_the_marker_of_a_build_killed_part_way_is_taken_over(tmp_path):
    marker = _marker(tmp_path)
    marker.write_text(str(_dead_pid()))
    assert not native_build.builder_alive(marker)
    with native_build._only_build(tmp_path):
        assert marker.read_text() == str(os.getpid())


def test_a_marker_being_written_counts_as_a_build_that_runs(tmp_path):
    marker = _marker(tmp_path)
    marker.write_text("")
    assert native_build.builder_alive(marker)
