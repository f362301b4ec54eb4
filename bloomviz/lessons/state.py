"""A lesson's state between its actions, and what a report reads from it: the last lookup's record (its
verdict against the truth, decided by ``measure.verdicts.classify`` as in the window), the measured rate over
the lesson's probes and the snapshot of the filter's numbers.

The runner (``runner.py``) changes the state through the actions; a predict question (``predict.py``) reads
it to compute its answer; neither imports the other for it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from bloomviz.filters import capabilities
from bloomviz.items.encoding import random_items
from bloomviz.lessons.costs import CULPRIT_LIMIT
from bloomviz.measure.verdicts import classify, removal_that_cleared
from bloomviz.vocabulary import Verdict
from bloomviz.theory import rates as theory


@dataclass
class LessonState:
    filter: object = None
    named: list = field(default_factory=list)       # items inserted by name, in order (culprits, probe exclusion)
    randoms: int = 0                                # items inserted by insert-random
    hand_set: dict = field(default_factory=dict)    # item -> positions, for scheme=hand-set
    last: dict | None = None
    numbers: dict = field(default_factory=dict)
    probes: int = 2000
    probe_seed: int = 0
    touched: set = field(default_factory=set)       # numbers set by the step being run
    removed: dict = field(default_factory=dict)     # item -> inserts of it that removals took back
    forced: list = field(default_factory=list)      # ForcedRemoval records: what a false negative names
    distorted: bool = False                         # a removal left bits no fresh insert of the members sets
    kedmi_seeds: set = field(default_factory=set)   # Kedmi replays run (their random strings are cached)

    def put(self, numbers: dict) -> None:
        self.numbers.update(numbers)
        self.touched.update(numbers)

    def copy(self) -> "LessonState":
        out = copy.copy(self)
        out.filter = None if self.filter is None else self.filter.copy()
        out.named, out.hand_set, out.numbers = list(self.named), dict(self.hand_set), dict(self.numbers)
        out.removed, out.forced = dict(self.removed), list(self.forced)
        out.touched, out.kedmi_seeds = set(), set(self.kedmi_seeds)
        out.last = copy.deepcopy(self.last)
        return out


def need_filter(state: LessonState):
    if state.filter is None:
        raise ValueError("there is no filter yet: start with a filter action")
    return state.filter


def lookup_record(state: LessonState, name: str, item: str, look) -> dict:
    """The lookup as the report keeps it: the filter's answer (``verdict``: maybe/no, what ``predict`` asks) and
    the four-way verdict against the truth (``class``, decided by ``measure.verdicts.classify``, as in the
    window), with what explains it: who set a false positive's bits, a false negative's zero counters and the
    forced removal that cleared them, the counts of an item inserted and removed."""
    rec = {"action": name, "item": item, "positions": list(look.positions), "bits": [int(b) for b in look.bits],
           "verdict": "maybe" if look.maybe_present else "no"}
    removed = state.removed.get(item, 0)
    inserted = state.named.count(item) + removed
    # generated items are not named: an item not among the named ones may be one of them
    verdict = classify(look.maybe_present, inserted, removed, known=not state.randoms)
    rec["class"] = str(verdict)
    if inserted:
        rec["inserted"], rec["removed"] = inserted, removed
    if verdict == Verdict.FALSE_NEGATIVE:
        zeros = [int(p) for p, b in zip(look.positions, look.bits) if not b]
        rec["zeros"] = zeros
        cause = removal_that_cleared(zeros, state.forced)
        if cause is not None:
            rec["caused_by"] = {"item": cause.item, "line": cause.index}
    if verdict == Verdict.FALSE_POSITIVE and inserted and capabilities.of(state.filter).counting:
        top = state.filter.max_counter
        rec["stuck"] = [int(p) for p, c in zip(look.positions, look.counters) if c == top]
    if look.maybe_present and len(state.named) <= CULPRIT_LIMIT and not state.randoms:
        rec["member"] = item in state.named
        positions_of = state.filter.positions   # a scalable filter's: one set per stage
        # who set each of the item's bits: the other named members whose own positions include it
        setters: dict[int, list] = {p: [] for p in look.positions}
        for member in dict.fromkeys(state.named):
            if member != item:
                for p in set(positions_of(member)) & set(setters):
                    setters[p].append(member)
        rec["culprits"] = {str(p): who for p, who in setters.items()}
    return rec


def lookup_verdict(state: LessonState, item: str) -> str:
    """The four-way verdict a lookup of ``item`` would get now ("false negative", …), without recording it."""
    return lookup_record(state, "lookup", item, need_filter(state).lookup(item))["class"]


def measured_rate(state: LessonState) -> float | None:
    """The share of the lesson's non-member probes the filter calls present; None when nothing can be measured
    (no filter, or hand-set positions, which exist only for the items typed in)."""
    flt = state.filter
    if flt is None or flt.scheme == "hand-set":
        return None
    if flt.bits_set == 0:
        return 0.0
    probes = random_items(state.probes, seed=state.probe_seed, exclude=state.named, prefix="probe:")
    return float(flt.contains_many(probes).mean())


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
            **({"counters_rate": float(flt.expected_fp)} if state.distorted else {})}


