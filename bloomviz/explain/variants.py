"""What the window says and draws about a filter's variant, one function per fact.

Every function takes the filter (and, where it explains an operation, the core's record of it) and asks its
describer (``bloomviz.explain.describers``: one per filter class, in a table keyed by class). The filters hold
the numbers; the words are there. So nothing here, or in a view, compares a variant's name, and a new variant
is explained by its describer.

An explanation that fails raises: a broken sentence is a bug for the tests to find, not something to hide.
"""

from __future__ import annotations

from typing import Sequence

from bloomviz.explain.describers import describer, words_class
from bloomviz.explain.describers.standard import Band, Row
from bloomviz.filters.registry import VARIANTS
from bloomviz.i18n import tr


def new_filter_text(flt, capacity: int | None = None) -> str:
    """The sentence announcing a new, empty filter ("A new empty counting filter (4-bit counters): …")."""
    return describer(flt).describe_new(capacity)


def title(flt) -> str:
    """The variant's title with what sets it apart ("Partitioned (k slices, one position each)")."""
    return words_class(type(flt)).title


def variant_title(variant: str) -> str:
    """The title of a registered variant, by its id."""
    return words_class(VARIANTS[variant]).title


def choice_label(cls: type) -> str:
    """A filter class's entry in the window's variant list."""
    return words_class(cls).choice_label


def theory_name(flt) -> str:
    """A plot legend's name for the filter's theory curve ("theory (blocked)")."""
    return words_class(type(flt)).theory_name


def variant_tip() -> str:
    """The variants in one paragraph, for a tooltip."""
    return "The kind of Bloom filter. " + " ".join(
        f"{words_class(cls).short_title}: {words_class(cls).description}" for cls in VARIANTS.values())


def hover_where(flt, index: int) -> str:
    """Where a cell lies in the variant's layout, as the hover's parenthesis (" (slice 2)"), or ""."""
    where = describer(flt).describe_bit(index)
    return f" ({where})" if where else ""


def cell_name(flt) -> str:
    """What one cell of the grid is, in the singular ("bit", "counter"), in English: a key, compared by callers
    (``cell_word`` is the word shown)."""
    unit = words_class(type(flt)).unit
    return unit[:-1] if unit.endswith("s") else unit


def cell_word(flt) -> str:
    """``cell_name`` in the window's language."""
    name = cell_name(flt)
    return {"bit": tr("bit"), "counter": tr("counter")}.get(name, name)


def insert_note(flt, insertion) -> str:
    """What the variant adds to an insert's sentence (a counter that saturated, a stage that opened), or ""."""
    return describer(flt).insert_note(insertion)


def operation_rows(flt, op: str, result) -> tuple[Row, ...]:
    """What the variant did with one item (op "insert" or "lookup"), as (name, value) rows."""
    return tuple(describer(flt).operation_rows(op, result))


def theory_rows(flt) -> tuple[Row, ...]:
    """The variant's own theory with the current numbers plugged in (empty for the standard filter)."""
    return tuple(describer(flt).theory_rows())


def hash_rows(flt, data: bytes) -> tuple[Row, ...]:
    """The arithmetic that turns ``data`` into the filter's positions (the scheme's, and the variant's own)."""
    return tuple((str(a), str(b)) for a, b in describer(flt).hash_rows(data))


def grid_bands(flt, recent: Sequence[int] = ()) -> list[Band]:
    """Index ranges [start, stop) of the grid to outline, with labels: stages, slices, blocks (``recent``: the
    positions of the last insert or lookup, for a blocked filter with too many blocks to outline them all)."""
    return describer(flt).grid_bands(recent)


def bands_text(flt) -> str:
    """The grid legend's line saying what the outlined bands are ("" when the variant outlines none)."""
    return describer(flt).bands_text


def bound_line(flt) -> tuple[float, str] | None:
    """A horizontal reference for the rate plot (value, label): a scalable filter's compound bound."""
    return describer(flt).bound_line()


def theory_label(flt) -> str | None:
    """The rate plot's name for the theory curve when it is the variant's own formula (None: the plot's)."""
    return words_class(type(flt)).theory_label


def summary_text(flt, capacity: int | None = None) -> str:
    """The parameters panel's "Now: …" line: the filter's size, k and the n it was designed for."""
    return describer(flt).summary_text(capacity)
