"""The words every layer shares: what an operation found (``Verdict``) and what a lit grid cell shows
(``Highlight``). Kept at the bottom of the house (no imports of bloomviz), so the model, the explanations, the
lessons, the files and the views compare against one enum instead of spelling the words as string literals.

Both are ``str`` enums: ``Verdict.FALSE_POSITIVE == "false positive"``, so saved sessions, history exports and
lesson reports keep their words.
"""

from __future__ import annotations

from enum import Enum


class Verdict(str, Enum):
    """What an operation found."""
    INSERTED = "inserted"
    TRUE_POSITIVE = "true positive"
    TRUE_NEGATIVE = "true negative"
    FALSE_POSITIVE = "false positive"
    MAYBE_PRESENT = "probably present"   # a loaded filter whose items are unknown
    REMOVED = "removed"                  # a counting filter's removal of an inserted item
    FORCED_REMOVAL = "forced removal"    # the removal of an item never inserted, insisted on
    FALSE_NEGATIVE = "false negative"    # an item in the set that the filter calls absent (after a forced removal)

    def __str__(self) -> str:
        return self.value


# The lookup verdicts, in the order the history counts them.
LOOKUP_VERDICTS = (Verdict.TRUE_POSITIVE, Verdict.TRUE_NEGATIVE, Verdict.FALSE_POSITIVE, Verdict.FALSE_NEGATIVE,
                   Verdict.MAYBE_PRESENT)


class Highlight(str, Enum):
    """What a lit cell of the grid shows about the last operation."""
    NEW = "new"              # bit newly set by this insert
    OLD = "old"              # bit was already 1 before this insert
    ZERO = "zero"            # lookup found this bit 0
    ONE = "one"              # lookup found this bit 1
    CULPRIT = "culprit"      # bit set by an item that causes the false positive
    REMOVED = "removed"      # counter decremented by a removal
    CLEARED = "cleared"      # counter fell to 0 on a removal: the bit is clear
    STUCK = "stuck"          # counter saturated at 2^c − 1: a removal leaves it
    LOST = "lost"            # a cleared counter of an inserted item that now tests negative

    def __str__(self) -> str:
        return self.value


HIGHLIGHT_KINDS = tuple(Highlight)
# Kinds only a counting filter's removal produces (a legend lists them only for counters).
REMOVAL_KINDS = (Highlight.REMOVED, Highlight.CLEARED, Highlight.STUCK, Highlight.LOST)
