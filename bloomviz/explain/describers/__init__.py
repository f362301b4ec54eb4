"""The window's words for each filter class, in one table keyed by class (napari's ``layer_to_controls``).

A filter speaks numbers (its bits, counters, stages, slices and theory); a describer here turns them into what
the window says: the sentence announcing a new filter, the parameters panel's "Now: …" line, the grid's bands
and hover words, the rows and notes that explain an operation, the variant's own theory with its numbers
plugged in. ``describer(flt)`` picks the describer of the nearest class along the filter's MRO, so a subclass
with no words of its own speaks as its parent; a new variant adds its describer here beside its registry line.
"""

from __future__ import annotations

from bloomviz.explain.describers.blocked import BlockedWords
from bloomviz.explain.describers.counting import CountingWords
from bloomviz.explain.describers.partitioned import PartitionedWords
from bloomviz.explain.describers.scalable import ScalableWords
from bloomviz.explain.describers.standard import StandardWords
from bloomviz.filters.blocked import BlockedBloomFilter
from bloomviz.filters.counting import CountingBloomFilter
from bloomviz.filters.partitioned import PartitionedBloomFilter
from bloomviz.filters.scalable import ScalableBloomFilter
from bloomviz.filters.standard import BloomFilter

_FOUND: dict[type, type[StandardWords]] = {}   # words_class's answers, per filter class (asked on every insert)


class _Table(dict):
    """The table by class; adding, replacing or deleting an entry forgets the answers found along the MROs."""

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        _FOUND.clear()

    def __delitem__(self, key) -> None:
        super().__delitem__(key)
        _FOUND.clear()


DESCRIBERS: dict[type, type[StandardWords]] = _Table({
    BloomFilter: StandardWords,
    CountingBloomFilter: CountingWords,
    ScalableBloomFilter: ScalableWords,
    PartitionedBloomFilter: PartitionedWords,
    BlockedBloomFilter: BlockedWords,
})


def words_class(cls: type) -> type[StandardWords]:
    """The describer class of a filter class: its own, or its nearest ancestor's."""
    found = _FOUND.get(cls)
    if found is not None:
        return found
    for klass in cls.__mro__:
        if klass in DESCRIBERS:
            found = _FOUND[cls] = DESCRIBERS[klass]
            return found
    raise LookupError(f"no describer for {cls.__name__}: add one to bloomviz.explain.describers.DESCRIBERS")


def describer(flt) -> StandardWords:
    """The words for one filter."""
    return (_FOUND.get(type(flt)) or words_class(type(flt)))(flt)
