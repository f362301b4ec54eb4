"""Argument checks shared by the filters, the theory functions and the command line.

Each ``check_*`` returns the normalised value (a plain ``int`` or ``float``) or raises:
  TypeError   the value is of the wrong kind (``bool``, ``str``, ``None``, a float where an integer is required)
  ValueError  the kind is right but the value is not (out of range, NaN, infinite, a fractional item count)
and the message names the parameter, the accepted range and the bad value as given (``got 0``, ``got 'x'``).

``bool`` is refused everywhere although it is an ``int`` subclass: ``BloomFilter(True, 3)`` is a bug, not a
one-bit filter. numpy integer scalars are accepted (they come out of arrays); numpy floats count as floats.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from bloomviz.theory.limits import MAX_K, MAX_M, MAX_N

__all__ = ["MAX_M", "MAX_K", "MAX_N", "check_m", "check_k", "check_n", "check_p", "check_count", "check_real"]


def _is_bool(value: object) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_integer(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not _is_bool(value)


def _is_real(value: object) -> bool:
    return isinstance(value, numbers.Real) and not _is_bool(value)


def _integer_in_range(value: object, name: str, lo: int, hi: int, hi_text: str) -> int:
    expected = f"{name} must be an integer in [{lo}, {hi_text}]"
    if _is_integer(value):
        if lo <= int(value) <= hi:
            return int(value)
        raise ValueError(f"{expected}, got {int(value)}")
    if _is_real(value) and not _is_integer(value):
        raise TypeError(f"{expected} (floats are not accepted, write a whole number), got {value!r}")
    raise TypeError(f"{expected}, got {value!r} of type {type(value).__name__}")


def check_m(m: object) -> int:
    """Number of bits: an integer in [1, 2**34]."""
    return _integer_in_range(m, "m", 1, MAX_M, "2**34")


def check_k(k: object) -> int:
    """Number of hash functions: an integer in [1, 64]."""
    return _integer_in_range(k, "k", 1, MAX_K, "64")


def check_n(n: object, allow_zero: bool = True) -> int:
    """Number of items: a whole number in [0 or 1, 2**53]; an integral float such as 4.4e8 is accepted."""
    lo = 0 if allow_zero else 1
    expected = f"n must be a whole number in [{lo}, 2**53]"
    if _is_integer(n):
        value = int(n)
    elif _is_real(n):
        as_float = float(n)
        if not math.isfinite(as_float) or not as_float.is_integer():
            raise ValueError(f"{expected}, got {n!r}")
        value = int(as_float)
    else:
        raise TypeError(f"{expected}, got {n!r} of type {type(n).__name__}")
    if not lo <= value <= MAX_N:
        raise ValueError(f"{expected}, got {value if _is_integer(n) else repr(n)}")
    return value


def check_p(p: object) -> float:
    """A target false-positive rate: a finite real number with 0 < p < 1."""
    expected = "p must be a number with 0 < p < 1"
    if not _is_real(p):
        raise TypeError(f"{expected}, got {p!r} of type {type(p).__name__}")
    value = float(p)
    if not (math.isfinite(value) and 0.0 < value < 1.0):
        raise ValueError(f"{expected}, got {p!r}")
    return value


def check_count(value: object, name: str, upper: int | None = None, upper_text: str | None = None) -> int:
    """A count such as bits set, hits or trials: an integer in [0, upper] (no upper limit when None)."""
    expected = f"{name} must be an integer >= 0" if upper is None else \
        f"{name} must be an integer in [0, {upper_text or upper}]"
    if not _is_integer(value):
        if _is_real(value):
            raise TypeError(f"{expected} (floats are not accepted), got {value!r}")
        raise TypeError(f"{expected}, got {value!r} of type {type(value).__name__}")
    if int(value) < 0 or (upper is not None and int(value) > upper):
        raise ValueError(f"{expected}, got {int(value)}")
    return int(value)


def check_real(value: object, name: str, lo: float = -math.inf, hi: float = math.inf, *,
               lo_open: bool = False, hi_open: bool = False, allow_inf: bool = False) -> float:
    """A real number in a range; open ends with ``lo_open``/``hi_open``; infinities only with ``allow_inf``."""
    left, right = ("(" if lo_open else "["), (")" if hi_open else "]")
    expected = f"{name} must be a number in {left}{lo:g}, {hi:g}{right}"
    if not _is_real(value):
        raise TypeError(f"{expected}, got {value!r} of type {type(value).__name__}")
    x = float(value)
    if math.isnan(x) or (math.isinf(x) and not allow_inf):
        raise ValueError(f"{expected}, got {value!r}")
    too_low = x <= lo if lo_open else x < lo
    too_high = x >= hi if hi_open else x > hi
    if too_low or too_high:
        raise ValueError(f"{expected}, got {value!r}")
    return x
