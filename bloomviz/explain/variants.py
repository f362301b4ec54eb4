"""What the window says and draws about a filter's variant, one function per fact.

Every function takes the filter (and, where it explains an operation, the core's record of it) and asks the
filter's class: the variant's own module holds its words (the "variant words" block of ``BloomFilter`` and of
each variant; ``ScalableFacts`` for the scalable filter). So nothing here, or in a view, compares a variant's
name, and a new variant is explained by answering the same methods in its own module.

The explanations of an operation are a courtesy: a function that explains one returns nothing rather than let
an explanation break the operation it explains.
"""

from __future__ import annotations

from typing import Sequence

Band = tuple[int, int, str]
Row = tuple[str, str]


def new_filter_text(flt, capacity: int | None = None) -> str:
    """The sentence announcing a new, empty filter ("A new empty counting filter (4-bit counters): …")."""
    return flt.describe_new(capacity)


def title(flt) -> str:
    """The variant's title with what sets it apart ("Partitioned (k slices, one position each)")."""
    return type(flt).title


def hover_where(flt, index: int) -> str:
    """Where a cell lies in the variant's layout, as the hover's parenthesis (" (slice 2)"), or ""."""
    where = flt.describe_bit(index)
    return f" ({where})" if where else ""


def cell_name(flt) -> str:
    """What one cell of the grid is, in the singular ("bit", "counter")."""
    return flt.unit[:-1] if flt.unit.endswith("s") else flt.unit


def insert_note(flt, insertion) -> str:
    """What the variant adds to an insert's sentence (a counter that saturated, a stage that opened), or ""."""
    try:
        return flt.insert_note(insertion)
    except Exception:  # a courtesy: never let it break an operation
        return ""


def operation_rows(flt, op: str, result) -> tuple[Row, ...]:
    """What the variant did with one item (op "insert" or "lookup"), as (name, value) rows."""
    try:
        return tuple(flt.operation_rows(op, result))
    except Exception:  # a courtesy: never let it break an operation
        return ()


def theory_rows(flt) -> tuple[Row, ...]:
    """The variant's own theory with the current numbers plugged in (empty for the standard filter)."""
    try:
        return tuple(flt.theory_rows())
    except Exception:  # a courtesy
        return ()


def grid_bands(flt, recent: Sequence[int] = ()) -> list[Band]:
    """Index ranges [start, stop) of the grid to outline, with labels: stages, slices, blocks (``recent``: the
    positions of the last insert or lookup, for a blocked filter with too many blocks to outline them all)."""
    return flt.grid_bands(recent)


def bands_text(flt) -> str:
    """The grid legend's line saying what the outlined bands are ("" when the variant outlines none)."""
    return flt.bands_text


def bound_line(flt) -> tuple[float, str] | None:
    """A horizontal reference for the rate plot (value, label): a scalable filter's compound bound."""
    return flt.bound_line()


def theory_label(flt) -> str | None:
    """The rate plot's name for the theory curve when it is the variant's own formula (None: the plot's)."""
    return flt.theory_label


def summary_text(flt, capacity: int | None = None) -> str:
    """The parameters panel's "Now: …" line: the filter's size, k and the n it was designed for."""
    return flt.summary_text(capacity)
