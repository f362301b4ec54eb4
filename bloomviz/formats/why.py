"""Why a system's filter passes more non-members than the rate its users configured: the causes that system's
own code has, with the numbers read from the file.

The field's most asked question about a real filter is "why is my false-positive rate higher than I
configured?". The answer differs per system and is in its code, not in the textbook formula:

- git takes no rate at all: 10 bits per key and k = 7 are fixed in ``bloom.c``, and a commit with more than
  512 paths and leading directories gets a one-byte filter of all ones;
- LevelDB truncates k to ⌊0.69 × bits_per_key⌋ and draws all positions from one 32-bit hash; RocksDB takes k
  from a table and keeps a key's probes in one 512-bit cache line (its legacy Bloom rounds bits per key to a
  whole number); a lookup meets one filter per table whose key range holds the key;
- Cassandra picks bits per key and k from ``BloomCalculations``' table for ``bloom_filter_fp_chance``, for the
  partitions it expected, and the chance is per SSTable;
- Ethereum's logsBloom is 2,048 bits and k = 3 whatever it holds, so busy blocks saturate;
- a Parquet writer sizes each column chunk's split-block filter from the distinct values it is told to expect
  (ndv), which the file does not keep; Hudi sizes each row for a fixed number of record keys.

``why(fmt, filters)`` returns these for the chosen filters of one file (``inspect`` prints them, ``--json``
gives them as ``why``, the window's Other libraries' filter tab lists them); a format without such knowledge
returns none. Every rate named is either read or computed from the file (the fill's prediction, the system's
own sizing rule) or a formula named as such; the per-format rules live in ``why_rules`` beside the LSM ones in
``why_lsm``.

Each reason is a ``Reason``: a ``str`` holding its English text (what ``inspect`` prints, unchanged), made of
``Part``s that keep their template and values, so that the window writes it in its own language
(``render(reason, tr, number, marks)`` with the window's gettext and number writers). The rules write numbers,
not translated words, as the theory's engine notes do; formats stay free of Qt and of the window's language.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from bloomviz.formats.common import ForeignFilter
from bloomviz.theory.units import percent_text


class Rate(float):
    """A rate inside a sentence, always a percentage (``units.percent_text``: "1.25 %", "3.4 × 10⁻⁵ %")."""


class Word(str):
    """Words a rule chooses as a value (a writer's name, how a number was had), translated where shown."""


class Part(NamedTuple):
    """One piece of a reason: its English template and the values it is filled with. A value is an int
    (thousands grouped), a float (%g), (number, decimals), a ``Rate``, a ``Word`` or a string shown as it is."""

    template: str
    values: dict


def say(template: str, **values) -> Part:
    return Part(template, values)


def _english(value) -> str:
    if isinstance(value, Rate):
        return percent_text(max(float(value), 0.0))
    if isinstance(value, tuple):
        return f"{value[0]:,.{value[1]}f}"
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return f"{value:g}"


def _fill(part: Part, words: Callable[[str], str], shown: Callable[[object], str]) -> str:
    return words(part.template).format(**{key: shown(v) for key, v in part.values.items()})


class Reason(str):
    """A reason's English text, keeping its parts (see the module's docstring)."""

    parts: tuple[Part, ...]

    def __new__(cls, *parts: Part):
        reason = super().__new__(cls, "".join(_fill(p, str, _english) for p in parts))
        reason.parts = parts
        return reason


def render(reason: str, tr: Callable[[str], str], number: Callable, marks: Callable[[str], str]) -> str:
    """``reason`` in a language: its templates and ``Word`` values through ``tr``, its numbers through
    ``number(value, decimals=None)``, its rates' marks through ``marks`` (a plain str is shown as it is)."""
    parts = getattr(reason, "parts", None)
    if parts is None:
        return str(reason)

    def shown(value) -> str:
        if isinstance(value, Rate):
            return marks(percent_text(max(float(value), 0.0)))
        if isinstance(value, Word):
            return tr(value)
        if isinstance(value, tuple):
            return number(value[0], value[1])
        if isinstance(value, str):
            return value
        return number(value)
    return "".join(_fill(p, tr, shown) for p in parts)


Rule = Callable[[list[ForeignFilter]], list[Reason]]


def _rules() -> dict[str, Rule]:
    from bloomviz.formats import why_lsm, why_rules
    return {"git": why_rules.git, "ethereum": why_rules.ethereum, "cassandra": why_rules.cassandra,
            "parquet": why_rules.parquet, "hudi": why_rules.hudi, "leveldb": why_lsm.leveldb,
            "rocksdb": why_lsm.rocksdb}


def why(fmt: str, filters: list[ForeignFilter]) -> list[Reason]:
    """The reasons, for ``filters`` read as ``fmt``, that its rate can be above what was configured."""
    rule = _rules().get(fmt)
    return [] if rule is None or not filters else rule(list(filters))
