"""small_pages.empty: numpy's array of the shape and type asked, writable, on small pages from 4 MiB (Linux)."""

from __future__ import annotations

import mmap

import numpy as np
import pytest

from bloomviz import small_pages


def memory_of(array: np.ndarray):
    """What holds the array's memory (None: numpy's own)."""
    while isinstance(array, np.ndarray):
        array = array.base
    return array.obj if isinstance(array, memoryview) else array


def test_a_large_array_is_a_writable_array_of_the_shape_asked_on_a_mapping_of_its_own():
    out = small_pages.empty((small_pages.HUGE_FROM // 28 + 5, 7), np.uint32)
    assert out.shape == (small_pages.HUGE_FROM // 28 + 5, 7) and out.dtype == np.uint32
    assert out.flags.writeable and out.flags.c_contiguous
    out[-1] = np.arange(7)
    out[0] = 9
    assert out[-1].tolist() == list(range(7)) and out[0].tolist() == [9] * 7
    if hasattr(mmap, "MADV_NOHUGEPAGE"):
        assert isinstance(memory_of(out), mmap.mmap)
        assert not out[1:-1].any()      # a fresh anonymous mapping reads as zero


@pytest.mark.parametrize("shape", [0, (0, 7), (3, 7), 1000])
def test_a_small_or_empty_array_is_numpys_own(shape):
    out = small_pages.empty(shape, np.int64)
    assert out.shape == np.empty(shape, np.int64).shape and out.dtype == np.int64
    assert not isinstance(memory_of(out), mmap.mmap)


def test_a_mapping_refused_by_the_system_is_a_memory_error(monkeypatch):
    if not hasattr(mmap, "MADV_NOHUGEPAGE"):
        pytest.skip("small pages are asked for on Linux only")

    def refuse(*_args, **_kw):
        raise OSError(12, "Cannot allocate memory")
    monkeypatch.setattr(small_pages.mmap, "mmap", refuse)
    with pytest.raises(MemoryError, match="cannot allocate"):
        small_pages.empty((1 << 20, 8), np.int64)
