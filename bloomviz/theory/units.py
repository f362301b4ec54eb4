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

And the one reading of numbers as people write them, for the command line, the panels, the lessons and the
window's options alike (three readers disagreed: "1,000" was a number for the panel and the lessons but not for
the command line, "1e3" the other way round):

- ``parse_whole(text, what)``: 1000, 1,000 (commas between groups of three), 1_000, 1e3, 10^6, 2^32, 2.0; a
  refusal is ``NumberError`` with one message for all ("what must be a whole number such as …, got '…'"), the
  text shown cut to 40 characters. ``whole_number(text)`` is the same reading, None instead of the refusal.
- ``parse_rate(text, what)``: 0.01, 1e-3, 1%, 1/1000, 1 in 1000.
- ``parse_bits(text, what)``: a size in bits, as a count or in units of memory: 8 KiB, 512 MiB, 1 GB, 4096 bits.

Only ASCII digits count (Python's ``int`` reads Arabic-Indic digits too, so "٣" was 3 in a lesson).
"""

from __future__ import annotations

import decimal
import math
import re

__all__ = ["rate_text", "percent_text", "one_in", "count_text", "human_bytes", "bits_text", "power_of_ten",
           "whole_number", "parse_whole", "parse_rate", "parse_bits", "real_number", "parse_setting", "NumberError"]

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


def too_full_text(bits_set: int, m: int) -> str:
    """Why an estimated number of entries is infinite: every bit is set, or (a blocked, sliced or linked
    layout, estimated part by part) some block, slice or link is, which no count of entries fits."""
    if bits_set >= m:
        return EVERY_BIT_SET
    return PART_SET


# The one wording of an estimate no count fits, for every view and command (the window, inspect, the atlas had
# three: "every bit set", "every bit is set", "a whole word, slice or array set")
EVERY_BIT_SET = "∞ (every bit is set)"
PART_SET = "∞ (too full to estimate: every bit of some block, slice or link is set)"
SATURATED = "too full to estimate n (every bit, or every bit of some block, slice or link, is set)"


def human_bytes(nbytes: float) -> str:
    """Binary units (KiB = 1024 B), two decimals; whole bytes (rounded up) below 1 KiB."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{math.ceil(nbytes):.0f} B"


def bits_text(m: int) -> str:
    """A filter's size: its bits, and the memory they take (whole bytes)."""
    return f"{m:,} bits ({human_bytes(math.ceil(m / 8))})"


class NumberError(ValueError):
    """Text that is not the kind of number asked for (the message names what, and shows the text)."""


_SHOWN = 40
_DECIMAL = r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]{1,4})?|\.[0-9]+(?:[eE][+-]?[0-9]{1,4})?"
_WHOLE = re.compile(r"([+-]?)([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:_[0-9]+)*(?:\.[0-9]*)?(?:[eE]\+?[0-9]{1,4})?"
                    r"|[0-9]+\^[0-9]{1,4})")
_LARGEST = 10 ** 30          # a count beyond any filter, file or lesson: refused rather than computed
WHOLE_FORMS = "1000, 1,000, 1_000, 1e3 or 10^6"
RATE_FORMS = "0.01, 1%, 1e-3, 1/1000 or 1 in 1000"


def shown(text: object) -> str:
    """The text as a refusal quotes it: repr, cut to a readable length (a lesson may hold a 5,000-digit 'number')."""
    text = str(text).strip()
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def _whole(text: str) -> int | None:
    text = text.strip()
    match = _WHOLE.fullmatch(text)
    if match is None:
        return None
    sign, body = match.groups()
    if "^" in body:
        base, power = (int(part) for part in body.split("^"))
        if base > 1 and power * math.log10(base) > 30:
            return None
        value = base ** power
    elif "," in body or "_" in body:
        value = int(body.replace(",", "").replace("_", ""))
    elif body.isdigit():
        value = int(body) if len(body) <= 31 else None
    else:
        number = decimal.Decimal(body)         # exact: 1e23 is 10^23, not the float nearest it
        if number > _LARGEST or number != number.to_integral_value():
            return None
        value = int(number)
    if value is None or value > _LARGEST:
        return None
    return -value if sign == "-" else value


def whole_number(text: str) -> int | None:
    """The integer ``text`` spells (1000, 1,000, 1_000, 1e3, 10^6, 2.0), or None when it spells none (1.5, inf,
    x, 1,0)."""
    return _whole(text) if isinstance(text, str) else None


def parse_whole(text: str, what: str = "the number", low: int | None = None, high: int | None = None) -> int:
    """``whole_number``, or NumberError naming ``what``; ``low``/``high`` bound it (said in the message)."""
    value = whole_number(text)
    if value is None:
        raise NumberError(f"{what} must be a whole number such as {WHOLE_FORMS}, got {shown(text)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low:,} to {high:,}" if low is not None and high is not None else \
            f"at least {low:,}" if low is not None else f"at most {high:,}"
        raise NumberError(f"{what} must be {bounds}, got {shown(text)}")
    return value


def real_number(text: str) -> float | None:
    """A finite decimal number as written (1.5, -2e-3, .5), or None: the reading under the rate parser."""
    return _real(text) if isinstance(text, str) else None


def parse_setting(text: str, what: str) -> float:
    """An engine's decimal setting (a rate such as Cassandra's 0.01, RocksDB's 9.9 bits per key) written as a
    finite decimal number (``real_number``'s forms), or NumberError naming ``what``: the CLI's ``--set`` and the
    explorer's engine preset read it here (the preset first turns its window's decimal comma into a point)."""
    value = real_number(text)
    if value is None:
        raise NumberError(f"{what} must be a number such as 0.01 or 9.9, got {shown(text)}")
    return value


def _real(text: str) -> float | None:
    text = text.strip().replace("_", "")
    if not re.fullmatch(r"[+-]?(?:" + _DECIMAL + ")", text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def parse_rate(text: str, what: str = "the rate", low: float = 0.0, high: float = 1.0, open_low: bool = True,
               open_high: bool = False) -> float:
    """A rate written 0.01, 1e-3, 1%, 1/1000 or 1 in 1000, within low…high (open ends as asked), or NumberError."""
    raw = text.strip() if isinstance(text, str) else ""
    value: float | None = None
    per = re.fullmatch(r"(.+?)\s*(?:/|\s+in\s+)\s*(.+)", raw)
    if raw.endswith("%"):
        value = _real(raw[:-1])
        value = None if value is None else value / 100
    elif per:
        top, bottom = _real(per.group(1)), _real(per.group(2))
        value = None if top is None or not bottom else top / bottom
    else:
        value = _real(raw)
    if value is None:
        raise NumberError(f"{what} must be a rate such as {RATE_FORMS}, got {shown(text)}")
    if value < low or value > high or (open_low and value == low) or (open_high and value == high):
        left, right = "(" if open_low else "[", ")" if open_high else "]"
        raise NumberError(f"{what} must be in {left}{low:g}, {high:g}{right}, got {shown(text)}")
    return value


_BITS_PER = {"bit": 1, "bits": 1, "b": 1, "B": 8, "byte": 8, "bytes": 8,
             "KiB": 8 << 10, "MiB": 8 << 20, "GiB": 8 << 30, "TiB": 8 << 40,
             "kB": 8 * 10 ** 3, "KB": 8 * 10 ** 3, "MB": 8 * 10 ** 6, "GB": 8 * 10 ** 9, "TB": 8 * 10 ** 12}


def parse_bits(text: str, what: str = "m") -> int:
    """A size in bits: a whole number, or a number with a unit of memory (8 KiB, 512 MiB, 1.5 GB, 4096 bits)."""
    raw = text.strip() if isinstance(text, str) else ""
    match = re.fullmatch(r"(.+?)\s*([A-Za-z]+)", raw)
    if match and match.group(2) in _BITS_PER:
        number = _real(match.group(1).replace(",", "")) if "^" not in match.group(1) else whole_number(match.group(1))
        if number is not None and number >= 0:
            bits = number * _BITS_PER[match.group(2)]
            if float(bits).is_integer() and bits <= _LARGEST:
                return int(bits)
        raise NumberError(f"{what} must be a whole number of bits such as 4096, 8 KiB or 512 MiB, got {shown(text)}")
    return parse_whole(text, what)
