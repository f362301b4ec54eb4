"""A process that holds a big filter keeps freed work arrays for reuse (glibc's mallopt): its exact tracker's
per-step arrays no longer fault in new pages every step. A process-wide setting: the command line and the window
ask for it, a library call alone does not."""

from __future__ import annotations

import ctypes
import sys

import pytest

from bloomviz.filters import bitstore


GLIBC = pytest.mark.skipif(not sys.platform.startswith("linux") or not hasattr(ctypes.CDLL(None), "mallopt"),
                           reason="glibc's mallopt (Linux) keeps freed work arrays; elsewhere nothing changes")


def test_a_big_filter_keeps_freed_work_arrays_for_reuse_once_the_application_asks(monkeypatch):
    monkeypatch.setattr(bitstore, "_kept_freed", False)
    monkeypatch.setattr(bitstore, "_keep_freed_wanted", False)
    monkeypatch.setattr(bitstore, "_keep_freed_memory", lambda: setattr(bitstore, "_kept_freed", True) or True)
    bits = bitstore.new_bits(8 * (32 << 20))
    assert not bitstore._kept_freed, "a library call leaves the process's allocator alone"
    bitstore.keep_freed_memory_for_big_filters()
    bits = bitstore.new_bits(8 * (32 << 20))
    assert bitstore._kept_freed
    assert len(bits) == 8 * (32 << 20) and not bits.any()


@GLIBC
def test_glibc_takes_the_settings():
    assert bitstore._keep_freed_memory()


def test_a_command_asks_for_it(monkeypatch):
    from bloomviz import cli
    monkeypatch.setattr(bitstore, "_keep_freed_wanted", False)
    assert cli.main(["calc", "--n", "1000", "--p", "0.01"]) == 0
    assert bitstore._keep_freed_wanted
