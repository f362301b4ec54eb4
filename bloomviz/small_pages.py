"""Large arrays written while the window works, on the machine's small (4 KiB) pages.

numpy asks Linux for transparent huge pages for every array of 4 MiB or more (``madvise(MADV_HUGEPAGE)``), and
the memory comes on first write. The first write into each 2 MiB of such an array then has the kernel find and
zero a whole huge page at once, compacting memory when none is free: 6 ms of CPU a huge page on the two-core
machine these numbers come from, up to 22 ms under load, all of it in the one turn of the event loop that
first writes there. Writing 280 MB in slices of 229 KB took 0.01 ms a slice but 6-8 ms every ninth (562 ms in
all); on small pages 0.19 ms a slice, never over 0.8 ms (241 ms in all). The idle turns that make an auto-play's
truth rows (10^7 rows of k = 7: 280 MB, written in order) met it in a turn every ninth.

Only for memory that is new anyway and written in order: an array of a few MiB made again and again is served
from memory the process already has when it comes from numpy (a 6 MiB table rebuilt: 4 ms), but faults in
every page of a fresh mapping each time here (8-11 ms); and an array read at random keeps numpy's huge pages
for the TLB.

Linux only (``mmap.MADV_NOHUGEPAGE``); elsewhere, and under 4 MiB, these are numpy's own arrays.
"""

from __future__ import annotations

import mmap

import numpy as np

HUGE_FROM = 1 << 22     # numpy's threshold for asking for huge pages (numpy/_core/src/multiarray/alloc.c)


def _small_page_buffer(nbytes: int) -> mmap.mmap | None:
    if nbytes < HUGE_FROM or not hasattr(mmap, "MADV_NOHUGEPAGE"):
        return None
    try:
        buf = mmap.mmap(-1, nbytes)
    except OSError as exc:       # as numpy would say it
        raise MemoryError(f"cannot allocate {nbytes:,} bytes: {exc}") from None
    try:
        buf.madvise(mmap.MADV_NOHUGEPAGE)
    except OSError:
        pass                     # a kernel without transparent huge pages: small pages already
    return buf


def empty(shape, dtype) -> np.ndarray:
    """``np.empty(shape, dtype)``, on small pages from 4 MiB (its memory then reads as zero until written)."""
    dtype = np.dtype(dtype)
    shape = tuple(int(s) for s in np.atleast_1d(shape))
    count = int(np.prod(shape, dtype=np.int64))
    buf = _small_page_buffer(count * dtype.itemsize)
    if buf is None:
        return np.empty(shape, dtype)
    return np.frombuffer(buf, dtype, count).reshape(shape)
