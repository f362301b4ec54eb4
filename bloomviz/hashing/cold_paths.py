"""Small batches hashed without numba while the window builds itself: its first paint.

The compiled batch paths (murmur_kernel, mixed_kernel) cost numba's import and a load of the cached machine code
on first use, ~1.0-1.3 s, which the window paid inside its constructor to hash the default filter's 10^4 probes
before anything was shown. For a batch this small, mmh3 per item and a numpy mixing pass take a few
milliseconds. So inside ``before_first_paint()`` (the window's constructor and the installing of its parts), as
long as nothing has imported numba yet, batches of at most ``COLD_LIMIT`` items take these paths; the window's
warm-up thread loads numba after the first paint. Everywhere else the compiled paths run: per item these paths
are 10-100x slower. Bit for bit the same positions (tests/hashing/test_cold_paths.py checks them against the compiled
paths and the scalar reference).

The same paths serve while the window's warm-up thread loads the compiled code after the first paint
(``warm_up_scheduled`` .. ``warm_up_thread``): a batch of at most ``COLD_LIMIT`` items made meanwhile in any other
thread (the first auto-play's chunks) takes them instead of waiting for the load (the import lock of numba's
modules, numba's compiler lock): a first auto-play started at once used to stand still for that second. The
exact tracker's flip pass has a numpy twin for these batches too (``measure/cold_flips.py``).
"""

from __future__ import annotations

import contextlib
import sys
import threading

import numpy as np

from bloomviz.hashing import native_kernels

COLD_LIMIT = 50_000        # items; larger batches pay numba's load once and then run ~3x faster

_C1 = np.uint64(0xFF51AFD7ED558CCD)
_C2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)


_building = threading.local()     # per thread: the warm-up thread never takes these paths
_warming = threading.Event()      # set from the warm-up's scheduling until its thread has loaded everything
_wanted = threading.Event()       # a batch took a numpy path meanwhile: numba's code is wanted now
_native_pending = threading.Event()     # another process builds the native kernel file (a first launch)


@contextlib.contextmanager
def before_first_paint():
    """Small batches made inside this block (in this thread) do not load numba."""
    depth = getattr(_building, "depth", 0)
    _building.depth = depth + 1
    try:
        yield
    finally:
        _building.depth = depth


def warm_up_scheduled() -> None:
    """The compiled code is about to be loaded by a thread of its own (``warm_up_thread``): until it is done,
    small batches in other threads take the numpy paths."""
    _warming.set()


@contextlib.contextmanager
def warm_up_thread():
    """Around the warm-up thread's work: its own batches load the compiled paths; when it ends (or fails),
    every thread takes the compiled paths again."""
    _building.loader = True
    try:
        yield
    finally:
        _building.loader = False
        _warming.clear()


def use_cold_path(count: int, *kernels: str) -> bool:
    """True when a batch of ``count`` items should not be the one that loads numba (or wait for its load):
    inside ``before_first_paint`` in this thread before anything imported numba, or in any thread but the
    warm-up's while it loads the compiled code, or, whatever its size, while another process builds the native
    kernel file (``native_build_pending``). False when the compiled ``kernels`` the batch needs (names in
    native_kernels) are loaded from the native cache: they run without numba."""
    if kernels and native_kernels.ready(*kernels):
        return False
    if native_pending():
        return True
    if count > COLD_LIMIT:
        return False
    if _warming.is_set() and not getattr(_building, "loader", False):
        return True
    return getattr(_building, "depth", 0) > 0 and "numba" not in sys.modules


@contextlib.contextmanager
def native_build_pending():
    """Around the warm-up's wait for the native kernel file another process builds (gui/warm_up.py, a first
    launch, no numba cache either): every batch of another thread takes the numpy paths, whatever its size. A
    batch past ``COLD_LIMIT`` took the compiled paths and compiled numba's code inside itself: a first auto-play
    of 10^6 items started at once took 65-69 s (20 s of CPU) against 1.1-1.6 s warm, at load 10."""
    _native_pending.set()
    try:
        yield
    finally:
        _native_pending.clear()


def native_pending() -> bool:
    """Whether the native kernel file is being built beside this process (not in the warm-up thread itself)."""
    return _native_pending.is_set() and not getattr(_building, "loader", False)


def note_cold_batch() -> None:
    """Called by the numpy paths: a batch (of another thread than the warm-up's, after the first paint) ran here
    because its compiled code is not loaded. With the native kernel cache serving the auto-play's kernels, the
    warm-up waits for a quiet moment to load numba; a batch that needs numba's own code ends that wait (one whose
    kernels the cache does not hold: a sequence other than a list hashed joined, a crc32c scheme, a variant's own
    passes)."""
    if _warming.is_set() and not getattr(_building, "loader", False) and not getattr(_building, "depth", 0):
        _wanted.set()


def compiled_wanted() -> bool:
    """Whether a batch took a numpy path since the warm-up was scheduled (``note_cold_batch``)."""
    return _wanted.is_set()


def mixed_rows(h1: np.ndarray, h2: np.ndarray, m: int, k: int) -> np.ndarray:
    """murmur3-mix's n x k positions in numpy: fmix64(h1 + i·h2) reduced as mixed_kernel reduces it."""
    note_cold_batch()
    h1 = np.asarray(h1, dtype=np.uint64)
    h2 = np.asarray(h2, dtype=np.uint64)
    out = np.empty((h1.size, k), dtype=np.int64)
    z = h1.copy()
    mm = np.uint64(m)
    with np.errstate(over="ignore"):
        for i in range(k):
            x = z ^ (z >> _S33)
            x *= _C1
            x ^= x >> _S33
            x *= _C2
            x ^= x >> _S33
            if m < (1 << 32):
                x = ((x >> _S32) * mm + (((x & _LOW32) * mm) >> _S32)) >> _S32
            else:
                x %= mm
            out[:, i] = x.astype(np.int64)
            z += h2
    return out
