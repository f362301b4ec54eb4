"""Numbers as people read them: the one formatting policy for rates, counts and sizes.

Every view and command formats through these, so a number reads the same wherever it appears:

- ``rate_text(p)``: a probability. "0" for zero (never "-0.0" or "0.000e+00"); 4 significant digits in plain
  decimals down to 0.0001 ("0.0517", "0.0001234"); below that a power of ten a student can read
  ("2.24 × 10⁻⁷"); "1" for certainty; "—" for no value (NaN: the formula does not apply).
- ``percent_text(p)``: the same probability as a percentage ("5.17 %"), for sentences.
- ``one_in(p)``: "1 in 19", with digits up to a billion and a power of ten beyond ("1 in 3.4 × 10¹⁵"), never a
  hundred-digit integer; "never" for zero.
- ``count_text(x)``: a count or an estimate of one: thousands separators, one decimal for a non-integer
  estimate below 10,000, "∞" for infinity, and no negative zero.
- ``human_bytes(n)``: memory in binary units, whole bytes below 1 KiB ("24 B", never "0.0 KiB"), two decimals
  above ("63.50 KiB"); ``bits_text(m)`` says a filter's size both ways ("192 bits (24 B)").

And the one reading of a whole number as people write it, ``whole_number(text)``: 1000000, 1_000_000 and 1e6
all mean a million (the command line and the parameters panel both read counts through it).
"""

from __future__ import annotations

import math

__all__ = ["rate_text", "percent_text", "one_in", "count_text", "human_bytes", "bits_text", "power_of_ten",
           "whole_number"]

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power_of_ten_log(log10x: float, digits: int) -> str:
    """"m × 10ⁿ" for the number whose base-10 logarithm is ``log10x`` (works where the number itself would
    overflow or underflow: the reciprocal of a subnormal rate, say)."""
    exponent = math.floor(log10x)
    mantissa = 10 ** (log10x - exponent)
    if round(mantissa, digits - 1) >= 10:   # 9.996e-5 rounds up to the next power
        mantissa, exponent = mantissa / 10, exponent + 1
    text = f"{mantissa:.{digits - 1}f}".rstrip("0").rstrip(".")
    return f"{text} × 10{str(exponent).translate(_SUPERSCRIPT)}"


def power_of_ten(x: float, digits: int = 3) -> str:
    """x as "m × 10ⁿ" with ``digits`` significant digits (x > 0, finite)."""
    return _power_of_ten_log(math.log10(x), digits)


def rate_text(p: float | None) -> str:
    if p is None or math.isnan(p):
        return "—"
    if p == 0:
        return "0"
    if p >= 1:
        return "1"
    if p >= 1e-4:
        return f"{p:.4g}"
    return power_of_ten(p)


def percent_text(p: float | None) -> str:
    if p is None or math.isnan(p):
        return "—"
    if p == 0:
        return "0 %"
    if p * 100 >= 0.00995:   # what rounds to 0.01 % is written so
        return f"{p * 100:.3g} %"
    return f"{power_of_ten(p * 100)} %"


def one_in(p: float) -> str:
    if not p > 0:
        return "never"
    if p > 1e-9:
        return f"1 in {1 / p:,.0f}"
    return f"1 in {_power_of_ten_log(-math.log10(p), 2)}"   # 1/p overflows for a subnormal p


def count_text(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0:
        return "0"          # also for -0.0: an estimate of an empty filter
    if float(x).is_integer() or abs(x) >= 10_000:
        return f"{round(x):,}"
    return f"{x:,.1f}"


def axis_counts(values, spacing: float) -> list[str]:
    """Tick labels of a count axis: 0, 0.5M, 1M, 1.5M rather than 0, 500000, 1e+06, 1.5e+06 (which ran
    together at large text sizes). One unit for all the ticks (the largest's: k from 10,000, M from a
    million ...), and as many decimals as the spacing between ticks needs."""
    top = max((abs(v) for v in values), default=0.0)
    unit, suffix = next(((u, x) for u, x in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e4, "k")) if top >= u),
                        (1.0, ""))
    if suffix == "k":
        unit = 1e3
    step = f"{spacing / unit:.6g}" if spacing > 0 else "1"
    if "e" in step:                       # a spacing far below the unit: plain numbers say it
        return [f"{v:g}" for v in values]
    decimals = len(step.split(".")[1]) if "." in step else 0
    out = []
    for v in values:
        text = f"{v / unit:.{decimals}f}"
        out.append("0" if float(text) == 0 else text + suffix)
    return out


def human_bytes(nbytes: float) -> str:
    """Binary units (KiB = 1024 B), two decimals; whole bytes (rounded up) below 1 KiB."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{math.ceil(nbytes):.0f} B"


def bits_text(m: int) -> str:
    """A filter's size: its bits, and the memory they take (whole bytes)."""
    return f"{m:,} bits ({human_bytes(math.ceil(m / 8))})"


def whole_number(text: str) -> int | None:
    """The integer ``text`` spells (1000000, 1_000_000, 1e6, 2.0), or None when it spells none (1.5, inf, x).

    None rather than an exception: the callers word the refusal their own way (argparse's or the panel's).
    """
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value) or not value.is_integer():
        return None
    return int(value)
