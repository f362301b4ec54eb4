"""What a lookup's answer is, held against the truth: the one place a verdict is decided (the window's model and
the lesson runner both call ``classify``).

The filter answers "probably present" or "definitely not". The truth knows how often the item was inserted and
how many of those inserts a counting filter's removals took back; an item is in the set while it was inserted
more often than removed. Four verdicts follow (and "probably present" when the truth is not known, a filter
loaded without its items):

    filter says present, in the set      true positive
    filter says present, not in the set  false positive (never inserted, or inserted and removed as often: a
                                         counting filter's saturated counters cannot come down, so the item stays)
    filter says absent, not in the set   true negative
    filter says absent, in the set       FALSE NEGATIVE: only a forced removal (an item never inserted, taken
                                         out anyway) can cause one, by taking a member's counter to 0

``ForcedRemoval`` keeps what the truth needs to say which removal caused a false negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence


class Verdict(str, Enum):
    """What an operation found. A ``str`` enum: ``Verdict.FALSE_POSITIVE == "false positive"``, so saved sessions
    and history exports keep their words."""
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


def classify(present: bool, inserted: int, removed: int = 0, known: bool = True) -> Verdict:
    """The verdict of a lookup: ``present`` is the filter's answer; ``inserted`` how often the item was inserted
    (as far as the truth knows), ``removed`` how many of those inserts removals took back; ``known``: the truth
    knows every item (not so for a filter loaded without its items, or one holding unnamed generated items)."""
    member = inserted > removed
    if not member and not known:
        # It may be one of the unknown items: a "present" cannot be told true from false; "absent" is what the
        # filter guarantees.
        return Verdict.MAYBE_PRESENT if present else Verdict.TRUE_NEGATIVE
    if present:
        return Verdict.TRUE_POSITIVE if member else Verdict.FALSE_POSITIVE
    return Verdict.FALSE_NEGATIVE if member else Verdict.TRUE_NEGATIVE


# A lesson's ``expect verdict=`` words for the four verdicts (an option value has no spaces).
LESSON_WORDS = {Verdict.TRUE_POSITIVE: "true-positive", Verdict.FALSE_POSITIVE: "false-positive",
                Verdict.TRUE_NEGATIVE: "true-negative", Verdict.FALSE_NEGATIVE: "false-negative"}


@dataclass(frozen=True)
class ForcedRemoval:
    """A forced removal: which operation (``index``: the window's operation number, a lesson's step), which item,
    and the counters it took to 0."""
    index: int
    item: object
    cleared: tuple[int, ...]


def removal_that_cleared(zeros: Sequence[int], forced: Sequence[ForcedRemoval]) -> ForcedRemoval | None:
    """The latest forced removal that took one of ``zeros`` (a false negative's counters now 0) to 0."""
    wanted = set(int(p) for p in zeros)
    for rem in reversed(forced):
        if wanted & set(rem.cleared):
            return rem
    return None
