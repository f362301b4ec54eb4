"""The checks a session file's values pass when it is read, and the one error that names what failed.

Each check names the place in the document (``where``), the value as written and what was expected, so a
damaged session is refused with one line a person can act on. JSON integers are unbounded and NaN/Infinity are
refused, so every number is range-checked here rather than trusted. Used by ``session.py`` (the schema).
"""

from __future__ import annotations

import json
import math
import os
from typing import Iterable, Sequence


class SessionFormatError(ValueError):
    """A session file (or object) that cannot be used. ``reason`` says what is wrong; ``path`` names the file."""

    def __init__(self, reason: str, path: object = None):
        self.reason = reason
        self.path = None if path is None else os.fsdecode(path)
        super().__init__(reason if path is None else f"{self.path}: {reason}")


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", int: "an integer",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, float) or math.isfinite(value) \
        else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _obj(value: object, where: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict:
    if not isinstance(value, dict):
        raise SessionFormatError(f"{where}: expected an object, got {_kind(value)}")
    required = tuple(required)
    known = set(required) | set(optional)
    for key in value:
        if key not in known:
            raise SessionFormatError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(known))})")
    for key in required:
        if key not in value:
            raise SessionFormatError(f"{where}: missing key {key!r}")
    return value


def _int(value: object, where: str, low: int, high: int, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer() and low <= value <= high:
            return int(value)
        raise SessionFormatError(f"{where}: expected a whole number{' or null' if allow_none else ''}, "
                                 f"got {_show(value)}")
    if not low <= value <= high:
        raise SessionFormatError(f"{where}: {_show(value)} is out of range {low:,} … {high:,}")
    return value


def _finite(value: object, where: str) -> float:
    # A JSON integer is unbounded: 1 followed by 400 zeros is a valid document whose float() overflows, so the
    # conversion is checked rather than trusted (math.isfinite itself raises OverflowError on such an int).
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SessionFormatError(f"{where}: expected a finite number, got {_show(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise SessionFormatError(f"{where}: expected a finite number, got {_show(value)}")
    return number


def _str(value: object, where: str, choices: Sequence[str] | None = None) -> str:
    if not isinstance(value, str):
        raise SessionFormatError(f"{where}: expected a string, got {_show(value)}")
    if choices is not None and value not in choices:
        raise SessionFormatError(f"{where}: unknown value {_show(value)} (known: {', '.join(choices)})")
    return value


def _reject_constant(name: str):
    raise SessionFormatError(f"{name} is not a number JSON allows")


def _no_duplicates(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise SessionFormatError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out
