"""A student's filter, as the lab sees it: loaded from the file its author names, and adapted to one shape.

Running the student's code is explicit and local: ``load("path/to/student.py:make_filter")`` executes that file,
as ``python path/to/student.py`` would, and nothing else ever runs a student's code (a lesson or a session file
is data to bloomviz, never code). ``make_filter(m, k)`` is called once per (m, k) of the grid and returns either

- a **function** from an item (a ``str``) to its k positions (ints in [0, m)), or
- an **object** with ``add(item)`` and ``item in obj``, and optionally its bit array as ``bits`` or ``bit_array``
  (anything ``numpy.asarray`` reads as m values, 0 meaning unset: a list, a bytearray, a numpy array, a bitarray).
  With a ``positions(item)`` method too, its positions are checked as a positions function's are.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from typing import Callable

import numpy as np

BIT_ARRAY_NAMES = ("bits", "bit_array")
_loaded = itertools.count()


class StudentError(ValueError):
    """The student's code broke the contract (its message says how); the lab reports it at the grid point."""


def load(spec: str) -> Callable:
    """The callable named by ``"path/to/file.py:NAME"``: the file is executed (this runs its code)."""
    path_text, sep, name = str(spec).rpartition(":")
    if not sep or not path_text or not name.isidentifier():
        raise ValueError(f"expected FILE.py:NAME (e.g. student.py:make_filter), got {spec!r}")
    path = Path(path_text)
    if not path.is_file():
        raise ValueError(f"no such file: {path_text!r}")
    module_name = f"bloomviz_lab_student_{next(_loaded)}"
    spec_obj = importlib.util.spec_from_file_location(module_name, path)
    if spec_obj is None or spec_obj.loader is None:
        raise ValueError(f"cannot load {path_text!r} as Python (is it a .py file?)")
    module = importlib.util.module_from_spec(spec_obj)
    sys.modules[module_name] = module   # dataclasses and pickling look a module up by its name
    try:
        spec_obj.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise ValueError(f"{path_text} failed while it was loaded: {type(exc).__name__}: {exc}") from exc
    factory = getattr(module, name, None)
    if not callable(factory):
        found = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")]
        raise ValueError(f"{path_text} has no function {name!r} (it has: {', '.join(found) or 'none'})")
    return factory


def is_filter_object(made: object) -> bool:
    """An object with add and membership (the object form) rather than a positions function."""
    return callable(getattr(made, "add", None)) and callable(getattr(type(made), "__contains__", None))


def make(factory: Callable, m: int, k: int) -> object:
    try:
        made = factory(m, k)
    except Exception as exc:
        raise StudentError(f"make_filter({m}, {k}) raised {type(exc).__name__}: {exc}") from exc
    if not is_filter_object(made) and not callable(made):
        raise StudentError(f"make_filter({m}, {k}) returned {type(made).__name__}, neither a function of an item "
                           "nor an object with add and __contains__")
    return made


def positions(fn: Callable, items: list[str], m: int, k: int) -> np.ndarray:
    """The k positions of every item as an (items x k) int64 array, every one checked: k of them, whole, in
    [0, m)."""
    rows = []
    for item in items:
        try:
            got = list(fn(item))
        except Exception as exc:
            raise StudentError(f"the positions of {item!r} raised {type(exc).__name__}: {exc}") from exc
        if len(got) != k:
            raise StudentError(f"{item!r} got {len(got)} positions, expected k = {k}")
        rows.append(got)
    try:
        out = np.array(rows).reshape(len(items), k)
    except (OverflowError, ValueError, TypeError):
        out = None
    if out is None or out.dtype.kind not in "iu":
        _name_the_bad_one(rows, items)
    bad = np.flatnonzero(((out < 0) | (out >= m)).any(axis=1))
    if bad.size:
        row = int(bad[0])
        i = int(np.flatnonzero((out[row] < 0) | (out[row] >= m))[0])
        raise StudentError(f"position {i} of {items[row]!r} is {out[row, i]}, outside [0, m = {m})")
    return out.astype(np.int64, copy=False)


def _name_the_bad_one(rows: list, items: list[str]) -> None:
    for row, item in zip(rows, items):
        for i, p in enumerate(row):
            if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
                raise StudentError(f"position {i} of {item!r} is {p!r}, not a whole number")
            if not -(1 << 63) <= p < 1 << 63:
                raise StudentError(f"position {i} of {item!r} is {p}, far outside [0, m)")
    raise StudentError("the positions could not be read as whole numbers")


def bit_array(obj: object, m: int) -> np.ndarray | None:
    """The object's bit array as m booleans, or None when it shows none (or one of another length)."""
    for name in BIT_ARRAY_NAMES:
        raw = getattr(obj, name, None)
        if raw is None:
            continue
        try:
            if hasattr(raw, "tolist") and not isinstance(raw, np.ndarray):
                raw = raw.tolist()   # a bitarray
            arr = np.asarray(list(raw) if isinstance(raw, (bytes, bytearray)) else raw).reshape(-1)
        except Exception:
            return None
        if arr.size != m:
            raise StudentError(f"its {name} holds {arr.size} values, expected m = {m}")
        return arr != 0
    return None


def contains(obj: object, item: str) -> bool:
    try:
        return bool(item in obj)
    except Exception as exc:
        raise StudentError(f"looking up {item!r} raised {type(exc).__name__}: {exc}") from exc


def add(obj: object, item: str) -> None:
    try:
        obj.add(item)
    except Exception as exc:
        raise StudentError(f"adding {item!r} raised {type(exc).__name__}: {exc}") from exc
