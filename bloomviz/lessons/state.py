"""A lesson's state between its actions: a ``Workbench`` of its own (the window's model, Qt-free), and what a
report reads from it.

The lesson's filter, what was really inserted and removed (the truth), the verdict of every lookup, who set a
false positive's bits, the forced removal behind a false negative, the probes and the measured rate are the
window's own code: each insert, lookup and removal is the workbench's operation, and the report's record of it
is made from the workbench's ``Operation`` record. The lesson adds only what a lesson has and the window has
not: hand-set positions typed before the filter, the numbers its steps computed, the lesson line of each forced
removal (a false negative names it), and the report's plain record of the last operation (``last``).

The probes are the lesson's: ``probe:`` and 16 hex digits, 2,000 from seed 0 until a ``measure`` line says
otherwise (the rates the lessons state are theirs). A lesson goes back by whole steps (the runner's copies and
replays), so its workbench keeps no undo step per operation.
"""

from __future__ import annotations

import copy
import re

from bloomviz.filters import capabilities
from bloomviz.lessons.costs import CULPRIT_LIMIT
from bloomviz.vocabulary import Verdict
from bloomviz.theory import rates as theory
from bloomviz.workbench import state as workbench_state
from bloomviz.workbench.model import Workbench

PROBE_PREFIX = "probe:"
DEFAULT_PROBES = 2000
PROBE_BYTES = 100     # a probe's string and its place in the list


class LessonState:
    def __init__(self) -> None:
        self.wb: Workbench | None = None     # made with the lesson's first filter
        self._probes = (DEFAULT_PROBES, 0)   # (count, seed) a measure line set before there was a filter
        self.hand_set: dict = {}        # item -> positions, for scheme=hand-set
        self.last: dict | None = None   # the report's record of the last operation
        self.numbers: dict = {}
        self.touched: set = set()       # numbers set by the step being run
        self.kedmi_seeds: set = set()   # Kedmi replays run (their random strings are cached)
        self.removal_lines: dict = {}   # a forced removal's operation number (the workbench's) -> its lesson line
        self._refusal: str | None = None

    def _refused(self, message: str) -> None:
        self._refusal = message

    def refusal(self) -> ValueError:
        """The workbench's refusal of the last operation, as the lesson says it (file and line come later)."""
        message, self._refusal = self._refusal or "refused", None
        return ValueError(re.sub(r"^Refused:? ?|\s*Nothing was changed\.$", "", message).rstrip(". ") or message)

    @property
    def filter(self):
        return self.wb.filter if self.wb is not None else None

    @property
    def probes(self) -> int:
        return self.wb.state.measure.count if self.wb is not None else self._probes[0]

    def measure(self, probes: int, seed: int, most: int) -> None:
        """Measure over ``probes`` probes drawn from ``seed`` from now on (a ``measure`` line)."""
        if self.wb is None:
            self._probes = (probes, seed)
            return
        self.wb.set_probe_seed(seed)
        if not self.wb.set_probe_count(probes, most=most):
            raise self.refusal()

    @property
    def named(self) -> list:
        """The items inserted by name, in order (repeats twice; generated items are not named)."""
        return list(self.wb.state.truth.items.typed()) if self.wb is not None else []

    @property
    def randoms(self) -> int:
        """Items inserted without a name: generated, or a loaded filter's unknown ones (Kedmi's)."""
        if self.wb is None:
            return 0
        truth = self.wb.state.truth
        return len(self.wb.filter) if not truth.known else len(truth.items) - truth.items.typed_count

    def put(self, numbers: dict) -> None:
        self.numbers.update(numbers)
        self.touched.update(numbers)

    def install(self, flt, known: bool) -> None:
        """The lesson's new filter: empty with nothing inserted (``known``), or holding items no one named."""
        if self.wb is None:
            count, seed = self._probes
            self.wb = Workbench(probes=count, seed=seed, probe_prefix=PROBE_PREFIX, undo=False, grid=False,
                                 first=flt)
            self.wb.events.error.connect(self._refused)
            ok = known or self.wb.install_filter(flt, items=None)
        else:
            ok = self.wb.install_filter(flt, items=[] if known else None)
        if not ok:
            raise self.refusal()
        self.last, self.removal_lines = None, {}

    def nbytes(self) -> int:
        """About what the state holds: its workbench's filter, truth (the items too) and measured rows, and its
        probes (each a string and its k positions: 200,000 of them are 30 MB a copy)."""
        if self.wb is None:
            return 0
        return workbench_state.nbytes(self.wb.state) + len(self.wb.probes) * (PROBE_BYTES + 8 * self.wb.filter.k)

    def copy(self) -> "LessonState":
        """An independent copy (the runner keeps one per step while small; a window animates from one)."""
        out = copy.deepcopy(self)
        out.touched = set()
        return out


def need_filter(state: LessonState):
    if state.filter is None:
        raise ValueError("there is no filter yet: start with a filter action")
    return state.filter


def lookup_record(state: LessonState, name: str, item: str) -> dict:
    """A lookup by the workbench, as the report keeps it: the filter's answer (``verdict``: maybe/no, what
    ``predict`` asks) and the four-way verdict against the truth (``class``, the window's), with what explains
    it: who set the bits of an item found present, a false negative's zero counters and the forced removal that
    cleared them, the counts of an item inserted and removed."""
    wb = state.wb
    need_filter(state)
    look = wb.lookup(item)
    if look is None:
        raise state.refusal()
    op = wb.last_record
    rec = {"action": name, "item": item, "positions": [int(p) for p in look.positions],
           "bits": [int(b) for b in look.bits], "verdict": "maybe" if look.maybe_present else "no",
           "class": str(op.verdict)}
    if op.inserted:
        rec["inserted"], rec["removed"] = op.inserted, op.removed
    if op.verdict == Verdict.FALSE_NEGATIVE:
        rec["zeros"] = [int(p) for p, b in zip(look.positions, look.bits) if not b]
        if op.caused_by is not None:
            rec["caused_by"] = {"item": op.caused_by.item, "line": state.removal_lines.get(op.caused_by.index)}
    if op.verdict == Verdict.FALSE_POSITIVE and op.inserted and capabilities.of(state.filter).counting:
        top = state.filter.max_counter
        rec["stuck"] = [int(p) for p, c in zip(look.positions, look.counters) if c == top]
    truth = wb.state.truth
    if look.maybe_present and truth.items.typed_count <= CULPRIT_LIMIT and not state.randoms:
        rec["member"] = op.verdict == Verdict.TRUE_POSITIVE
        # who set each of the item's bits: the other members whose own positions include it (the window's search)
        found = truth.culprits.items_at_bits([int(p) for p in look.positions], CULPRIT_LIMIT)
        rec["culprits"] = {str(p): [who for who in names if who != item] for p, (names, _total) in found.items()}
    return rec


def lookup_verdict(state: LessonState, item: str) -> str:
    """The four-way verdict a lookup of ``item`` gets now ("false negative", …); the report's ``last`` stays."""
    return lookup_record(state, "lookup", item)["class"]


def measured_rate(state: LessonState) -> float | None:
    """The share of the lesson's non-member probes the filter calls present (the workbench's measurement);
    None when nothing can be measured (no filter, or hand-set positions, which exist only for the items typed
    in)."""
    if state.filter is None or not len(state.wb.probes):
        return None
    return float(state.wb.state.measure.rate)


def snapshot(state: LessonState) -> dict:
    """The filter's state as plain numbers (the report's per-step record, without the step's title)."""
    from bloomviz.filters.registry import standard_formulas_apply
    flt = state.filter
    if flt is None:
        return {"m": None, "k": None, "scheme": None, "variant": None, "n": 0, "bits_set": 0,
                "last": state.last, "measured_rate": None, "exact_rate": None, "classic_rate": None}
    n = len(flt)
    return {"m": flt.m, "k": flt.k, "scheme": flt.scheme, "variant": flt.variant, "n": n,
            "bits_set": flt.bits_set, "last": state.last, "measured_rate": measured_rate(state),
            "exact_rate": flt.theory_fp(),
            # Bloom's formula describes a filter of one m and k (a scalable filter has stages of their own)
            "classic_rate": max(0.0, theory.fp_classic(flt.m, flt.k, n)) if standard_formulas_apply(flt) else None,
            # after a forced removal or one that left a saturated counter standing, the formula for n inserts no
            # longer describes a counting filter; its counters do
            **({"counters_rate": float(flt.expected_fp)} if state.wb.state.truth.distorting else {})}
