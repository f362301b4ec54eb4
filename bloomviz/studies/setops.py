"""Set operations on two Bloom filters: OR is the filter of the union, AND is not the filter of the intersection.

Two filters with the same m, k and hash scheme combine bit by bit:

- ``A | B`` (OR) has exactly the bits of the filter built from A ∪ B: an item's bits do not depend on what
  else was inserted, so the OR loses nothing.
- ``A & B`` (AND) keeps every bit of the filter built from A ∩ B, and more: a bit set in A by an item only in A
  and in B by another item only in B survives the AND although no item of the intersection set it. So the AND
  filter has more bits set, a higher false-positive rate, and its bit count overestimates |A ∩ B|. The better
  estimate is |A| + |B| − |A ∪ B| from the three count estimates (``theory.estimate_intersection_from_bits``).

``compare_sets`` builds everything from the two item lists and reports the true sizes, the estimates, the bit
counts and the measured false-positive rates of the AND filter against the filter of the true intersection:
on random items outside A ∪ B, and on the items that are in exactly one of A and B (the AND filter wrongly
accepts those far more often: each has all its bits set in one of the filters already).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import item_lines, random_items, to_bytes

DEFAULT_PROBES = 20_000
MAX_ITEMS = 1_000_000   # per side: the report is computed at once, in well under a second at this size


def parse_items(text: str) -> list[str]:
    """One item per line; surrounding whitespace (and a CR) is dropped, blank lines are skipped, and an item
    given twice counts once (inserting it again would change nothing)."""
    if not isinstance(text, str):
        raise TypeError(f"items text must be a str, got {type(text).__name__}")
    return list(dict.fromkeys(line.strip() for line in item_lines(text) if line.strip()))


def distinct(items: Iterable[object]) -> list:
    """The items in first-seen order, each once (compared by their bytes, as a filter sees them)."""
    seen: dict[bytes, object] = {}
    for item in items:
        seen.setdefault(to_bytes(item), item)
    return list(seen.values())


def sample_sets(count_a: int, count_b: int, overlap: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """Two seeded random item lists of the given sizes sharing exactly ``overlap`` items."""
    for name, value in (("count_a", count_a), ("count_b", count_b), ("overlap", overlap)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ITEMS:
            raise ValueError(f"{name} must be a whole number from 0 to {MAX_ITEMS:,}, got {value!r}")
    if overlap > min(count_a, count_b):
        raise ValueError(f"overlap must be at most min(count_a, count_b) = {min(count_a, count_b)}, got {overlap}")
    pool = random_items(count_a + count_b - overlap, seed=seed, prefix="s")
    shared = pool[:overlap]
    only_a = pool[overlap:count_a]
    only_b = pool[count_a:]
    return shared + only_a, shared + only_b


def build(items: Sequence[object], m: int, k: int, scheme: str = hashing.DEFAULT_SCHEME) -> BloomFilter:
    """A standard filter holding ``items`` (each once)."""
    flt = BloomFilter(m, k, scheme=scheme)
    flt.update(distinct(items))
    return flt


def combine(a: BloomFilter, b: BloomFilter) -> tuple[BloomFilter, BloomFilter]:
    """(A | B, A & B). Raises ValueError naming the difference when the filters differ in m, k or scheme."""
    return a | b, a & b


@dataclass(frozen=True)
class Sizes:
    a: float
    b: float
    union: float
    intersection: float


@dataclass(frozen=True)
class SetReport:
    """Everything the set-operations view shows. Filters are the core's, to read."""

    a: BloomFilter
    b: BloomFilter
    union: BloomFilter                # A | B
    intersection: BloomFilter         # A & B
    union_of_items: BloomFilter       # built from A ∪ B
    intersection_of_items: BloomFilter  # built from A ∩ B
    true: Sizes
    estimated: Sizes                  # intersection from |A| + |B| − |A ∪ B|
    estimated_from_and: float         # the count estimate of the AND filter's bits (biased upwards)
    outside_probes: int               # random items in neither A nor B
    fp_and_outside: int               # of those, accepted by A & B
    fp_true_outside: int              # accepted by the filter of A ∩ B
    one_sided: int                    # items in exactly one of A and B
    fp_and_one_sided: int
    fp_true_one_sided: int

    @property
    def union_matches(self) -> bool:
        """A | B has exactly the bits of the filter of A ∪ B (always true; shown as a check)."""
        return self.union.bits == self.union_of_items.bits

    @property
    def extra_and_bits(self) -> int:
        """Bits set in A & B that no item of A ∩ B set."""
        return self.intersection.bits_set - self.intersection_of_items.bits_set

    @property
    def and_contains_true(self) -> bool:
        """Every bit of the filter of A ∩ B is set in A & B (so the AND has no false negatives)."""
        return (self.intersection_of_items.bits & ~self.intersection.bits).count() == 0


def _rate(hits: int, trials: int) -> float:
    return hits / trials if trials else math.nan


def rates(report: SetReport) -> dict[str, float]:
    """Measured and expected false-positive rates of the AND filter and of the filter of A ∩ B."""
    return {
        "and_outside": _rate(report.fp_and_outside, report.outside_probes),
        "true_outside": _rate(report.fp_true_outside, report.outside_probes),
        "and_one_sided": _rate(report.fp_and_one_sided, report.one_sided),
        "true_one_sided": _rate(report.fp_true_one_sided, report.one_sided),
        "and_expected": report.intersection.expected_fp,
        "true_expected": report.intersection_of_items.expected_fp,
    }


def compare_sets(a_items: Sequence[object], b_items: Sequence[object], m: int, k: int,
                 scheme: str = hashing.DEFAULT_SCHEME, m_b: int | None = None, k_b: int | None = None,
                 scheme_b: str | None = None, probes: int = DEFAULT_PROBES, seed: int = 0) -> SetReport:
    """Build A and B (B's parameters default to A's), combine them and measure. Refused with ValueError
    (naming the difference) when the two filters differ in m, k or scheme; nothing is built half way."""
    a_items, b_items = distinct(a_items), distinct(b_items)
    for name, items in (("A", a_items), ("B", b_items)):
        if len(items) > MAX_ITEMS:
            raise ValueError(f"set {name} has {len(items):,} items; at most {MAX_ITEMS:,} are combined here")
    if isinstance(probes, bool) or not isinstance(probes, int) or not 0 <= probes <= MAX_ITEMS:
        raise ValueError(f"probes must be a whole number from 0 to {MAX_ITEMS:,}, got {probes!r}")
    fa = build(a_items, m, k, scheme)
    fb = build(b_items, m if m_b is None else m_b, k if k_b is None else k_b, scheme if scheme_b is None else scheme_b)
    union, inter = combine(fa, fb)

    a_keys = {to_bytes(x): x for x in a_items}
    b_keys = {to_bytes(x): x for x in b_items}
    both = [x for key, x in a_keys.items() if key in b_keys]
    either = distinct(list(a_items) + list(b_items))
    one_sided = [x for key, x in a_keys.items() if key not in b_keys] + \
                [x for key, x in b_keys.items() if key not in a_keys]
    fu = build(either, fa.m, fa.k, fa.scheme)
    fi = build(both, fa.m, fa.k, fa.scheme)

    est_a = theory.estimate_count(fa.m, fa.k, fa.bits_set)
    est_b = theory.estimate_count(fa.m, fa.k, fb.bits_set)
    est_u = theory.estimate_union(fa.m, fa.k, union.bits_set)
    est_i = theory.estimate_intersection(fa.m, fa.k, est_a, est_b, est_u)
    est_and = theory.estimate_count(fa.m, fa.k, inter.bits_set)

    outside = random_items(probes, seed=seed, prefix="q", exclude=either) if probes else []

    def hits(flt: BloomFilter, items: list) -> int:
        return int(np.count_nonzero(flt.contains_many(items))) if items else 0

    return SetReport(
        a=fa, b=fb, union=union, intersection=inter, union_of_items=fu, intersection_of_items=fi,
        true=Sizes(len(a_items), len(b_items), len(either), len(both)),
        estimated=Sizes(est_a, est_b, est_u, est_i), estimated_from_and=est_and,
        outside_probes=len(outside), fp_and_outside=hits(inter, outside), fp_true_outside=hits(fi, outside),
        one_sided=len(one_sided), fp_and_one_sided=hits(inter, one_sided), fp_true_one_sided=hits(fi, one_sided))
