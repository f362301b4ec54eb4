"""numba's decorators, deferred: a kernel module imports without numba, and each kernel is served from the
native cache (``native_kernels``: machine code numba wrote on an earlier run, loaded with llvmlite alone) or
compiled by numba when first called with arguments the cache does not take.

Why: ``import numba`` and its first kernel cost ~0.5 s of CPU, mostly holding the interpreter's lock. A window
loading it after its first paint slowed an auto-play started at once to 2-3x a warm one (the auto-play waited
for the lock, then ran numpy paths ~2x slower an item). The cached machine code loads in ~0.1 s.

``njit(...)``, ``intrinsic`` and ``numba_value(...)`` stand in for numba's objects at module level. Called from
Python, a kernel first asks the native cache; otherwise (and whenever numba compiles code that uses one) it is
made real: numba's own dispatcher, built from a copy of the function whose module globals are the real objects
too (the module keeps its stand-ins, so Python callers still reach the cache first). numba's on-disk cache
(``cache=True``) finds the same entries: same code, same file, same qualified name.
"""

from __future__ import annotations

import importlib
import sys
import threading
import types

_lock = threading.RLock()          # one thread makes numba's objects; the others wait for the same ones
_globals: dict[str, dict] = {}     # module name -> its globals with every stand-in made real


class Deferred:
    """A numba object made on first need: ``real()``; called from Python, a kernel tries the native cache first."""

    def __init__(self, make, fn=None, key: str = ""):
        self._make = make
        self._real = None
        self.fn = fn
        self.key = key                     # module.qualname: the native cache's name for a kernel
        if fn is not None:
            self.__name__, self.__qualname__, self.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
            self.__module__ = fn.__module__

    def real(self):
        if self._real is None:
            with _lock:
                if self._real is None:
                    self._real = self._make()
        return self._real

    def __call__(self, *args):
        from bloomviz.hashing import native_kernels
        entry = native_kernels.entry(self.key)
        if entry is not None:
            done, value = entry(args)
            if done:
                return value
        return self.real()(*args)

    def __getattr__(self, name):        # py_func, signatures, ...: numba's own
        if name.startswith("__") or name in ("_make", "_real", "fn", "key"):
            raise AttributeError(name)
        return getattr(self.real(), name)


def real_globals(module: str) -> dict:
    """A copy of ``module``'s globals with each stand-in replaced by its real object (what numba compiles
    against: it reads a kernel's globals when it types it)."""
    with _lock:
        found = _globals.get(module)
        if found is None:
            found = _globals[module] = dict(vars(sys.modules[module]))
            for name, value in list(found.items()):
                if isinstance(value, Deferred):
                    found[name] = value.real()
        return found


def _copy(fn):
    copy = types.FunctionType(fn.__code__, real_globals(fn.__module__), fn.__name__, fn.__defaults__,
                              fn.__closure__)
    copy.__qualname__, copy.__doc__, copy.__module__ = fn.__qualname__, fn.__doc__, fn.__module__
    copy.__kwdefaults__ = fn.__kwdefaults__
    return copy


def njit(**options):
    """``numba.njit(**options)``, made when first needed."""
    def wrap(fn):
        def make():
            import numba
            return numba.njit(**options)(_copy(fn))
        return Deferred(make, fn, f"{fn.__module__}.{fn.__qualname__}")
    return wrap


def intrinsic(fn):
    """``numba.extending.intrinsic``, made when first needed (only compiled code calls one)."""
    def make():
        from numba.extending import intrinsic as real
        return real(_copy(fn))
    return Deferred(make, fn)


def numba_value(module: str, name: str | None = None) -> Deferred:
    """A numba module (or one of its names), imported when first needed."""
    def make():
        found = importlib.import_module(module)
        return found if name is None else getattr(found, name)
    return Deferred(make)
