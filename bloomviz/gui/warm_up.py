"""The window's warm-up thread: numba's compiled code loaded (or numba's cache of it, and the native kernel
cache written) after the first paint, so that a user's first bulk operation does not pay for it inside a turn
of the event loop (gui/workbench.py starts it; hashing/cold_paths.py says what runs meanwhile)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

import numpy as np

from bloomviz.hashing import cold_paths, native_kernels
from bloomviz.workbench.model import Workbench as Model

models: weakref.WeakSet = weakref.WeakSet()     # the windows' models, whose jobs the warm-up lets run first


def run() -> None:
    """A tiny filter through the model's insert paths, once per process: code compiled or loaded on its first
    call (the bit kernels' JIT cache took 150-250 ms) is then ready before the user's first bulk insert, whose
    first chunk it made the longest turn of an auto-play. Meanwhile the window's own small batches take the
    numpy paths instead of waiting for this load (hashing/cold_paths.py)."""
    # the auto-play's kernels are served from the native cache if it loaded (_start_warm_up); on a first launch a
    # process of its own builds the file meanwhile, and this one loads it
    cached = native_kernels.load() or _built_beside()
    with cold_paths.warm_up_thread():
        if not cached or quiet_for_numba():
            _load_compiled(_pause_for_jobs if cached else _no_pause)
    # the cache's build (~3 s of CPU, numba compiling) waits for a quiet moment too: on a first launch it ran
    # beside an auto-play started at once and made it 5.5x a warm one
    if not cached and not _builders and quiet_for_numba(wanted_ends=False):
        _write_native_cache()


# With the auto-play's kernels served from the native cache, numba's load (~0.5 s of CPU, mostly holding the
# interpreter's lock) waits for a moment when no window's model has run a job for this long: beside an auto-play
# started at once it made that auto-play 2-3x a warm one (its process's CPU 0.98 against 0.54 s; waiting, 0.38
# against 0.34). It is then ready before most users' first operation that needs it.
QUIET_BEFORE_NUMBA_S = 2.0


def quiet_for_numba(wanted_ends: bool = True) -> bool:
    """Wait until no model has been busy for ``QUIET_BEFORE_NUMBA_S`` (or, ``wanted_ends``, a batch wanted
    numba's code: ``cold_paths.compiled_wanted``); False (nothing to load) if the process is ending."""
    quiet_since = time.monotonic()
    while threading.main_thread().is_alive():
        running = busy()
        if wanted_ends and cold_paths.compiled_wanted():   # a batch ran a numpy path: numba's code is needed now
            return True
        now = time.monotonic()
        if running:
            quiet_since = now
        elif now - quiet_since >= QUIET_BEFORE_NUMBA_S:
            return True
        time.sleep(0.05)
    return False


def busy() -> bool:
    """Whether a window's model runs a job."""
    try:
        return any(model.busy for model in list(models))
    except RuntimeError:        # a window made meanwhile (the set changed size): busy, to be safe
        return True


def _pause_for_jobs() -> None:
    """Between the steps of numba's load: a job started during the load runs on its own until it ends, unless
    one of its batches needs numba's code. A person pressing Play just as the load began (2 s after the
    window's last job, or its paint) met the whole load (~0.6 s of CPU, the auto-play 1.50x a warm one started
    2.5 s after the paint); now at most the step under way. Inside numba's import (``_import_numba``) a step
    holds the import lock: a GUI thread that starts an import meanwhile ends the pause (within ``POLL_S``)."""
    while threading.main_thread().is_alive() and not cold_paths.compiled_wanted() and busy() \
            and not _main_thread_importing():
        time.sleep(POLL_S)


POLL_S = 0.01


def _main_thread_importing() -> bool:
    """Whether the GUI thread is inside the import system (it may be waiting for the lock a paused step of
    numba's import holds: a module imported for the first time, crc32c's kernel needing numba now)."""
    frame = sys._current_frames().get(threading.main_thread().ident)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


class _PausingFinder:
    """First on ``sys.meta_path`` during the warm-up's ``import numba``; finds nothing, but pauses the warm-up
    thread before each of numba's modules (~130 of them) is imported."""

    def __init__(self, pause, package: str = "numba"):
        self._pause = pause
        self._package = package
        self._thread = threading.get_ident()

    def find_spec(self, name, path=None, target=None):
        if threading.get_ident() == self._thread and name.partition(".")[0] == self._package:
            self._pause()
        return None


def _import_numba(pause) -> None:
    """``import numba`` (~0.25 s of CPU, most of it holding the interpreter's lock) a module at a time,
    ``pause()`` before each: a job started meanwhile runs beside one module's import, not all of them."""
    _import_pausing(pause, "numba")


def _import_pausing(pause, module: str) -> None:
    finder = _PausingFinder(pause, module.partition(".")[0])
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module(module)
    finally:
        sys.meta_path.remove(finder)


def _no_pause() -> None:
    pass


BUILD_LIMIT_S = 600      # a build that has not ended by then is left to itself; this process goes on without it
BUILD = ("-m", "bloomviz.hashing.native_build")     # the build's command after the interpreter, then the directory
_builders: list = []        # the build started beside this process, if any


def _built_beside() -> bool:
    """On a first launch (no file for this install and machine yet): the file built by a process of its own,
    then loaded here. Built in this process, numba's import and its compiles (~3 s of CPU, mostly holding the
    interpreter's lock) ran beside the window: a first auto-play started at once took 4.3x a warm one. Built
    beside it, the window's process only waits (its small batches take the numpy paths meanwhile,
    hashing/cold_paths.py, whatever their size) and the build takes the other core, at a lower priority. False
    (numba loaded here as before) if the build cannot start, fails or takes longer than ``BUILD_LIMIT_S``."""
    directory = native_kernels.cache_dir()
    if directory is None or native_kernels.state["status"] != "absent" or getattr(sys, "frozen", False):
        return False
    import bloomviz
    from bloomviz.hashing import native_build as native_build_status     # (its exit statuses; nothing built here)
    root = str(Path(bloomviz.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]))
    try:
        child = subprocess.Popen([sys.executable, *BUILD, str(directory)], env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, ValueError):
        return False
    _builders.append(child)     # (this process then writes no file of its own)
    ends = time.monotonic() + BUILD_LIMIT_S
    with cold_paths.native_build_pending():      # every batch meanwhile in numpy: none compiles numba's code
        while child.poll() is None:     # (the build goes on if this process ends: the next launch has the file)
            if not threading.main_thread().is_alive() or time.monotonic() > ends:
                return False
            time.sleep(POLL_S)
        if child.returncode == native_build_status.ANOTHER_BUILD:     # another window's build: its file
            name = native_kernels.file_name(native_kernels.cache_key())
            target, marker = directory / name, directory / f".building-{name}"
            while not target.exists():
                if not target.exists() and (not marker.exists() or not native_build_status.builder_alive(marker)):
                    return False        # that build ended without a file, or was killed part way
                if not threading.main_thread().is_alive() or time.monotonic() > ends:
                    return False
                time.sleep(POLL_S)
    if child.returncode not in (0, native_build_status.ANOTHER_BUILD):
        return False
    # loaded at once, beside a job if one runs (llvmlite's import, ~60-140 ms of CPU, once): the job's numpy
    # paths were ~12x the compiled ones an item (10^6 generated items: 1.21 s against ~0.1 s of CPU), so the
    # rest of a long auto-play gains far more than this costs it
    return native_kernels.load(again=True)


def _write_native_cache() -> None:
    """For the next launch (hashing/native_build.py): seconds of CPU, once per install and machine."""
    if native_kernels.cache_dir() is None or not threading.main_thread().is_alive():    # (not at exit)
        return
    try:
        from bloomviz.hashing import native_build
        native_build.write()
    except Exception:       # a cache only saves time: without one the next launch loads numba as this one did
        pass


def _load_compiled(pause=_no_pause) -> None:
    # In steps, ``pause()`` between them. (The kernel modules import without numba: hashing/lazy_jit.py; in the
    # warm-up thread the batches below take the compiled paths, so numba's machine code for them is loaded.)
    from bloomviz.items.generated import GeneratedItems, GeneratedRun
    from bloomviz.measure import first_flips
    pause()
    _import_numba(pause)        # (its import alone: ~0.25 s of CPU)
    pause()
    # numpy.ma: np.unique imports it on its first call (~31 ms of CPU). The auto-play's paths avoid np.unique
    # (unique_ints); taken here, at the start, it ran beside an auto-play started at once, holding the lock
    import numpy.ma  # noqa: F401
    pause()
    model = Model(probes=64)
    if model.configure(4_096, 3, capacity=100):
        model.insert_batch(GeneratedRun(GeneratedItems(100, seed=0), 0, 100))
        model.insert("warm-up")
        model.lookup("warm-up")
    pause()
    # A filter past the exact probe map's size (the 1 % design for 10^7 items) finds its flips in a second
    # pass: loaded here too, or the first chunk of such an auto-play loaded it inside a turn of the loop.
    big = first_flips.EXACT_MAX_M + 8
    probe_bits = first_flips.ProbeBits(np.array([1, 5], dtype=np.int64), big)
    view = np.zeros((big + 7) // 8, dtype=np.uint8)
    probe_bits.flip_rows(view, np.array([[1, 2]], dtype=np.int64), big)
    pause()
    # generated items into such a filter go in by their hash halves (FpTracker.insert_halves): its passes too
    probe_bits.flip_halves(view, np.array([7], dtype=np.uint64), np.array([3], dtype=np.uint64), big, 2)
    pause()
    from bloomviz.hashing.generated_kernel import hash128_generated, hash128_values   # which hash those halves
    hash128_generated(GeneratedItems(1, seed=0), 0, 1)
    hash128_values(np.zeros(1, dtype=np.uint64), "i")
