"""A process that holds a big filter keeps freed work arrays for reuse (glibc's mallopt): its exact tracker's
per-step arrays no longer fault in new pages every step."""

from __future__ import annotations

import ctypes
import sys

import pytest

from bloomviz.filters import bitstore


@pytest.mark.skipif(not sys.platform.startswith("linux") or not hasattr(ctypes.CDLL(None), "mallopt"),
                    reason="glibc's mallopt (Linux) keeps freed work arrays; elsewhere nothing changes")
def test_a_big_filter_keeps_freed_work_arrays_for_reuse():
    bits = bitstore.new_bits(8 * (32 << 20))
    assert bitstore._kept_freed
    assert len(bits) == 8 * (32 << 20) and not bits.any()
