"""A first auto-play's first-time work, done in idle turns of the GUI thread after the first paint.

A first auto-play after launch met work that a warm one never does, and its first chunks, slower for it, made the
job size the next ones smaller (workbench/jobs.py), so it paid for more chunks too:

- the compiled kernels' modules, imported by its first steps: ~16 ms of CPU with their bytecode (~37 ms
  without), ``llvmlite.ir`` most of it (``hashing/intrinsics.py`` builds its IR with it);
- fresh memory for its work arrays: glibc returns a freed block of more than 128 KiB to the system, raising
  that threshold to the block's size as it goes, so every larger chunk's arrays were new pages to fault in.
  Measured on the model alone (10^6 generated items into 9,585,059 bits, k = 7, kernels from the native
  cache): the first auto-play faulted 10,000-10,800 pages against 5,000-7,700 for the next, and took
  103-148 ms of CPU in 30-41 steps against 85-97 ms in 24-25; with these steps done first, 86-93 ms in 24-27
  steps, as the next (5,900 faults each).

- fresh memory for the arrays a first job and the filter before it make, which later ones take from what the
  states before them freed: the first auto-play of 10^6 items into 9,585,059 bits faulted 4,900-6,100 pages
  (the series' three 8 MB columns, the probe-bit map, small work arrays) against 10-1,400 warm, and the
  filter's design before it ~26 MB more. With transparent huge pages (numpy asks for them from 4 MiB) a fresh
  24 MB cost 60-73 ms of CPU here (compaction), 19-24 ms on small pages, ~2 ms written again. So the heap's
  memory, 96 MiB, is faulted in 2 MiB a step (glibc keeps it once freed: its trim threshold is 128 MiB).

Each step is one piece (one module imported, the allocator told to keep freed blocks, 2 MiB of the heap
faulted in), at most a few ms, in a turn of its own; while a window's model runs a job the steps wait (that job does what it needs itself, and
a step beside it would only lengthen its turns). Nothing here changes what a window shows or holds.
"""

from __future__ import annotations

import ctypes
import importlib
from typing import Callable

from PySide6 import QtCore

from bloomviz.hashing import native_kernels

GAP_MS = 0              # the next step in the next turn: input and paints come between
BUSY_RETRY_MS = 50      # a job running: look again this much later
TOUCH_STEP = 2 << 20    # fresh memory faulted in a step: ~2 ms of CPU
HEAP_BLOCK = 30 << 20   # under glibc's largest mmap threshold (32 MiB), so a block of it is heap
HEAP_TOUCHED = 96 << 20     # the heap memory faulted in before a first auto-play (see the module's docstring)


def _kernel_modules() -> list[str]:
    """The modules of the native cache's kernels (what an auto-play's compiled steps import), the IR builder
    their module imports first (~10 ms, the largest piece: a step of its own)."""
    found = ["llvmlite.ir"]
    for kernel in native_kernels.KERNELS:
        module = kernel.rsplit(".", 1)[0]
        if module not in found:
            found.append(module)
    return found


def _import(name: str) -> Callable[[], None]:
    return lambda: importlib.import_module(name)


_kept: list[bool] = []     # whether the allocator keeps freed blocks (the first step's answer)


def _keep_freed_memory() -> None:
    from bloomviz.filters.bitstore import keep_freed_memory_now
    _kept.append(keep_freed_memory_now())


def _libc():
    libc = ctypes.CDLL(None)
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    libc.free.restype, libc.free.argtypes = None, [ctypes.c_void_p]
    return libc


_held: list[int] = []       # the heap blocks faulted in whole, held until the last heap step (or a job) frees them


def _heap_touched_to(size: int) -> None:
    """Fault in the heap's memory up to ``size`` bytes, ``TOUCH_STEP`` more than the step before: blocks of
    ``HEAP_BLOCK`` (under the allocator's 32 MiB mmap threshold, so they are heap) are held once whole; the block
    being made is taken and given back, its last ``TOUCH_STEP`` written (what earlier steps wrote is the same
    memory, taken again from the heap's top). Only where the allocator keeps freed blocks."""
    if not (_kept and _kept[0]):
        return
    libc = _libc()
    part = size - HEAP_BLOCK * len(_held)
    block = libc.malloc(part)
    if not block:
        return
    ctypes.memset(block + part - TOUCH_STEP, 0, TOUCH_STEP)
    if part == HEAP_BLOCK and size < HEAP_TOUCHED:
        _held.append(block)
    else:
        libc.free(block)
    if size >= HEAP_TOUCHED:
        give_back_heap()


def give_back_heap() -> None:
    """Free the held blocks: adjacent at the heap's top, they become one free stretch of faulted memory that the
    allocator keeps (its trim threshold, 128 MiB) and hands out again. Also before a job runs (``IdleSteps``)."""
    if _held:
        libc = _libc()
        while _held:
            libc.free(_held.pop())


def _heap_steps() -> list[Callable[[], None]]:
    return [lambda size=size: _heap_touched_to(size) for size in range(TOUCH_STEP, HEAP_TOUCHED + 1, TOUCH_STEP)]


def steps() -> list[Callable[[], None]]:
    """The steps, in order: the allocator first (a job started at once gains from it at once), the heap's memory
    faulted in, then the imports."""
    return [_keep_freed_memory, *_heap_steps(), *(_import(name) for name in _kernel_modules())]


class IdleSteps(QtCore.QObject):
    """Runs ``todo`` one step a turn of the event loop, waiting while ``busy()``; ``done`` once all ran. A step
    that raises is skipped (this is a head start: the work is done again where it is needed)."""

    def __init__(self, todo: list[Callable[[], None]], busy: Callable[[], bool], parent=None):
        super().__init__(parent)
        self._todo = list(todo)
        self._busy = busy
        self.done = not self._todo
        self.ran = 0

    def start(self) -> None:
        QtCore.QTimer.singleShot(GAP_MS, self, self._next)

    def _next(self) -> None:
        if not self._todo:
            self.done = True
            return
        if self._busy():
            give_back_heap()    # (memory held by a step is the job's to use)
            QtCore.QTimer.singleShot(BUSY_RETRY_MS, self, self._next)
            return
        step = self._todo.pop(0)
        try:
            step()
        except Exception:       # (an import that fails here fails again, with its message, where it is needed)
            pass
        self.ran += 1
        QtCore.QTimer.singleShot(GAP_MS, self, self._next)


_running: list[IdleSteps] = []      # the process's one run, kept alive (no parent: it outlives any window)


def start(busy: Callable[[], bool]) -> IdleSteps:
    """Start the steps (once per process; later calls return the first run)."""
    if not _running:
        _running.append(IdleSteps(steps(), busy))
        _running[0].start()
    return _running[0]
