"""The standard filter's words, and the base every other describer overrides where its variant differs."""

from __future__ import annotations

import math
from typing import Sequence

from bloomviz.filters.rows import scheme_of
from bloomviz.theory.units import human_bytes
from bloomviz.i18n import marks, number, tr

Band = tuple[int, int, str]
Row = tuple[str, str]


class StandardWords:
    """What the window says about a filter. Class attributes describe the variant; methods read ``self.flt``."""

    title = "Standard"           # the variant's name with what sets it apart, for menus and titles
    short_title = "Standard"     # its name alone, for a sentence ("Standard: m bits.")
    choice_label = "Standard"    # its entry in the window's variant list
    description = "m bits."      # one sentence on what it is
    unit = "bits"                # what one cell of its grid is
    theory_name = "theory"       # a plot legend's name for its theory curve
    theory_label: str | None = None   # the rate plot's theory legend when its own formula is not the standard one

    def __init__(self, flt):
        self.flt = flt

    @property
    def bands_text(self) -> str:
        """What the grid's outlined bands are ("" when the variant outlines none)."""
        return ""

    def kind_phrase(self) -> str:
        """The filter's kind inside a sentence: "A new empty <kind>: …"."""
        return tr("filter")

    def describe_new(self, capacity: int | None = None) -> str:
        """The sentence that announces a new, empty filter (``capacity``: the n it was designed for)."""
        flt = self.flt
        cap = tr(", designed for n = {capacity}").format(capacity=number(capacity)) if capacity else ""
        size = (tr("m = {m} counters") if self.unit == "counters" else tr("m = {m} bits")).format(m=number(flt.m))
        return tr("A new empty {kind}: {size}, k = {k} hash functions, scheme {scheme}{capacity}.").format(
            kind=self.kind_phrase(), size=size, k=flt.k, scheme=tr(scheme_of(flt).title), capacity=cap)

    def size_text(self) -> str:
        """What its m is made of, for a one-line summary."""
        return tr("m = {m} bits").format(m=number(self.flt.m))

    def stored_bits(self) -> int:
        """The bits its cells take when saved (m here; m·c for c-bit counters)."""
        return self.flt.m

    def summary_text(self, capacity: int | None = None) -> str:
        """The parameters panel's "Now: …" line."""
        cap_text = tr(", designed for {capacity} items").format(capacity=number(capacity)) if capacity else ""
        return tr("Now: {size} ({bytes}), k = {k}{capacity}.").format(
            size=self.size_text(), bytes=marks(human_bytes(math.ceil(self.stored_bits() / 8))), k=self.flt.k,
            capacity=cap_text)

    def grid_bands(self, recent: Sequence[int] = ()) -> list[Band]:
        """Index ranges [start, stop) of the grid to outline, each with a label (``recent``: the positions of
        the last operation, for a variant that outlines only the part it touched)."""
        return []

    def describe_bit(self, index: int) -> str:
        """Where bit ``index`` lies in the variant's layout ("slice 2"); "" when the layout has no parts."""
        return ""

    def bound_line(self) -> tuple[float, str] | None:
        """A horizontal reference for the rate plot (value, label), or None."""
        return None

    def insert_note(self, insertion) -> str:
        """A sentence to append to an insert's explanation ("" when there is nothing the variant adds)."""
        return ""

    def operation_rows(self, op: str, result) -> tuple[Row, ...]:
        """What the variant did with one item (``op``: "insert" or "lookup"), as (name, value) rows."""
        return ()

    def theory_rows(self) -> tuple[Row, ...]:
        """The variant's own theory with the current numbers plugged in (none: the standard formulas are the
        window's own)."""
        return ()

    def hash_rows(self, data: bytes) -> list[Row]:
        """The arithmetic that turns ``data`` into its positions."""
        flt = self.flt
        return scheme_of(flt).explain(data, flt.m, flt.k)
