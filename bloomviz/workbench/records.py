"""What the model hands out: frozen records of operations and of the state, and the verdicts.

A record holds facts (positions, counts, the verdict, the core's own result), not sentences (the one exception:
a history entry's ``note``, shown as it is in the history table, is written by ``bloomviz.explain``): the words are
built from records by ``bloomviz.explain.operations``. One operation makes one ``Operation`` record, carried by
the model's one event for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from bloomviz.i18n import ntr, number
from bloomviz.items.encoding import describe
from bloomviz.measure.verdicts import ForcedRemoval
from bloomviz.theory.curves import theory_many
from bloomviz.theory.intervals import Z_95, wilson_arrays
from bloomviz.vocabulary import Verdict


@dataclass(frozen=True)
class HistoryEntry:
    index: int                    # 1-based operation number since the filter was made
    op: str                       # "insert", "lookup", "remove", "insert batch"
    verdict: str                  # one of VERDICTS
    positions: tuple[int, ...]    # the item's k positions (empty for a batch)
    count: int                    # items in the operation
    n: int                        # inserts so far, after the operation
    lookups: int
    true_positives: int
    true_negatives: int
    false_positives: int
    fill: float
    fp_measured: float
    # The item itself (str or bytes) for a single operation, so a session can replay it; None for a batch,
    # whose items are ``Workbench.items[n - count:n]``.
    item: object = None
    # What else the operation did, in words (a removal's false negatives, a scalable filter's new stage).
    note: str = ""
    # Inserted items that test negative after this operation (a forced removal in a counting filter).
    false_negatives: tuple = ()
    # Lookups so far that found a member absent (after a forced removal): false negatives.
    false_negative_lookups: int = 0
    first: str = ""               # a batch's first item, printable; "" for a single item

    @cached_property
    def label(self) -> str:
        """The item, printable (lone surrogates escaped), or the batch in words ("1,000 items, from “…”", in the
        window's language): made when a view first shows it, not for every operation (most entries of a long
        session are never shown)."""
        if self.op != "insert batch":
            return describe(self.item, 60)
        return ntr("{count} item, from “{first}”", "{count} items, from “{first}”", self.count).format(
            count=number(self.count), first=self.first)


@dataclass(frozen=True)
class Numbers:
    """The filter's state as the formulas need it: the counts, taken when the record is made, and what the
    formulas make of them, computed when first read (an auto-play chunk's or a lesson's records are mostly never
    read for their theory or interval) and then kept: read twice, computed once. The fill and the measured rate,
    which every history entry holds, are given with the counts (``Workbench.numbers`` makes every one)."""
    m: int
    k: int
    n: int
    bits_set: int
    fp_count: int
    probes: int
    n_estimated: float     # −(m/k)·ln(1 − X/m)
    fill: float            # X/m
    fp_measured: float     # the share of the probes the filter passes: fp_count / probes
    # A filter the standard formulas do not describe (slices, blocks, stages): its own theory at n and the rate
    # its own bits give now (expected_fp); ``single_mk``: it has one m and one k (a scalable filter has not).
    own_theory: bool = False
    fp_own: float = float("nan")
    fp_own_now: float = float("nan")
    single_mk: bool = True
    # A counting filter after a forced removal or one that left a saturated counter standing: n inserts into a
    # fresh filter no longer describe it; its counters do.
    after_removals: bool = False

    @cached_property
    def _theory(self) -> tuple[float, float, float]:
        th = theory_many(self.m, self.k, np.array([self.n], dtype=float), points=True)   # at this n alone
        return float(1.0 - th["fill_expected"][0]), float(th["fp_exact"][0]), float(th["fp_classic"][0])

    @property
    def p_zero(self) -> float:
        """(1 − 1/m)^{kn}"""
        return self._theory[0]

    @property
    def fp_exact(self) -> float:
        """E[(X/m)^k]: the exact rate (theory.fp_exact)"""
        return self._theory[1]

    @property
    def fp_classic(self) -> float:
        """(1 − (1 − 1/m)^{kn})^k: Bloom's formula, below the exact rate for k ≥ 2"""
        return self._theory[2]

    @property
    def fp_now(self) -> float:
        """(X/m)^k from the bits actually set"""
        return (self.bits_set / self.m) ** self.k if self.m else 0.0

    @cached_property
    def _interval(self) -> tuple[float, float]:
        # the measurement's own counts (0 <= fp_count <= probes): no checks to repeat
        low, high = wilson_arrays(np.array([self.fp_count], dtype=float), self.probes, Z_95)
        return float(low[0]), float(high[0])

    @property
    def fp_low(self) -> float:
        """the low end of the measured rate's 95 % Wilson interval"""
        return self._interval[0]

    @property
    def fp_high(self) -> float:
        return self._interval[1]



@dataclass(frozen=True)
class Operation:
    """One operation on the filter, as it happened: the model's event carries exactly one of these.

    ``changed``: the grid cells whose value changed (None = all of them, for a job's chunks) and ``values``
    their values now, so that the grid redraws from the record alone; ``grown``: a
    scalable filter opened a stage, so the grid must be redrawn at its new size instead. ``highlight`` and
    ``kinds``: the cells to mark and what each one was (``new``/``old`` on insert, ``zero``/``one``/``culprit``
    on lookup, ``removed``/``cleared``/``stuck``/``lost`` on removal). ``result``: the core's own frozen record
    (``Insertion``, ``Lookup``, ``Removal``), for the words about what the variant did.
    """
    op: str                                   # "insert", "lookup", "remove", "insert batch"
    verdict: Verdict
    item: object                              # the item (None for a batch)
    data: bytes                               # its bytes (b"" for a batch)
    count: int                                # items in the operation
    positions: tuple[int, ...]
    highlight: tuple[int, ...]
    kinds: tuple[str, ...]
    changed: np.ndarray | None
    values: np.ndarray | None                 # the changed cells' values now (uint8), None with ``changed``
    grown: bool
    series_grew: bool                         # rows were appended to the series
    numbers: Numbers
    history: HistoryEntry
    result: object = None
    was_member: bool = False                  # insert: the item had been inserted before
    culprits: dict = field(default_factory=dict)   # false positive: position -> (items, total)
    false_negatives: tuple = ()               # forced removal: inserted items now testing negative
    truth_known: bool = True
    # lookup: how often the item was inserted and how many of those a removal took back (what the verdict saw)
    inserted: int = 0
    removed: int = 0
    caused_by: ForcedRemoval | None = None    # a false negative: the forced removal that cleared its counter


@dataclass(frozen=True)
class StateNote:
    """Not an operation: the filter was made, loaded, emptied; or a caller's text (a scenario's story)."""
    op: str                                   # "new filter", "loaded filter", or the caller's title
    text: str = ""                            # the caller's own text ("" = describe the filter)
    numbers: Numbers | None = None
