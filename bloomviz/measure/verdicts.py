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
from typing import Sequence

from bloomviz.vocabulary import Verdict


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
