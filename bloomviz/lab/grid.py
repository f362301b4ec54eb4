"""Running a student's filter over a grid of m, k, n and judging every point (``run``).

At each (m, k) the student's ``make_filter(m, k)`` is called once; n fresh items (``member_items``) are inserted,
for every n of the grid in ascending order, and P strangers (``stranger_items``, never inserted) are looked up.
A positions function is asked for every item's positions (and asked again for the members at lookup, as a
filter asks its hash again, so that positions that change between calls show up as false negatives); an object
is used through ``add`` and ``in``, and its ``positions(item)``, when it has one, is asked for the positions
checks (coinciding and biased positions).

Every judgement is a p-value against independent uniform positions (``bloomviz.lab.stats``); a point is flagged
when one falls below ``alpha`` divided by the number of judgements made over the whole grid (Bonferroni), so a
correct filter passes the whole grid with probability at least 1 − alpha (0.99 by default; every judgement is
exact or a bound that never overstates, except the chi-square's tail, an approximation that is close for the
many degrees of freedom a grid has). 85 default grids of a perfect hash (blake2b) raised no finding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from bloomviz.lab import stats, student
from bloomviz.lab.kinds import BIASED, BROKEN, COINCIDE, FALSE_NEGATIVES, FILL, RATE
from bloomviz.theory.intervals import wilson_interval
from bloomviz.theory.rates import fp_exact
from bloomviz.theory.units import percent_text, rate_text
from bloomviz.theory.validate import check_count, check_k, check_m
from bloomviz.theory.limits import MAX_PROBES

MAX_GRID_M = 1 << 20        # a student's filter in pure Python: larger m teach nothing more and take minutes
MAX_GRID_N = 1_000_000
MAX_POINTS = 1_000
ALPHA = 0.01
DEFAULT_M = (64, 256, 1024)
DEFAULT_K = (1, 3, 6)
DEFAULT_N = (8, 32, 128)
DEFAULT_PROBES = 20_000



@dataclass(frozen=True)
class Grid:
    ms: tuple[int, ...] = DEFAULT_M
    ks: tuple[int, ...] = DEFAULT_K
    ns: tuple[int, ...] = DEFAULT_N
    probes: int = DEFAULT_PROBES
    seed: int = 0
    alpha: float = ALPHA

    def __post_init__(self) -> None:
        object.__setattr__(self, "ms", _values(self.ms, "m", lambda v: check_m(v), MAX_GRID_M))
        object.__setattr__(self, "ks", _values(self.ks, "k", lambda v: check_k(v), None))
        object.__setattr__(self, "ns", _values(self.ns, "n", lambda v: check_count(v, "n"), MAX_GRID_N))
        check_count(self.probes, "probes", MAX_PROBES, f"{MAX_PROBES:,}")
        if self.probes < 1:
            raise ValueError(f"probes must be at least 1, got {self.probes}")
        check_count(self.seed, "seed")
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must lie strictly between 0 and 1, got {self.alpha!r}")
        if self.points > MAX_POINTS:
            raise ValueError(f"the grid has {self.points:,} points; at most {MAX_POINTS:,}")

    @property
    def points(self) -> int:
        return len(self.ms) * len(self.ks) * len(self.ns)


def _values(values, name: str, check: Callable, top: int | None) -> tuple[int, ...]:
    out = tuple(sorted({check(v) for v in values}))
    if not out:
        raise ValueError(f"the grid needs at least one {name}")
    if top is not None and out[-1] > top:
        raise ValueError(f"{name} = {out[-1]:,} is above the lab's limit of {top:,}")
    return out


@dataclass(frozen=True)
class Finding:
    kind: str       # one of kinds.KINDS
    text: str       # what was seen, with the numbers
    p: float = 0.0  # how often independent positions would look this far off (0 for a broken contract)


@dataclass(frozen=True)
class Point:
    """One grid point, measured and judged."""
    m: int
    k: int
    n: int
    probes: int
    false_positives: int
    exact: float                        # FP(m, k, n): the exact rate for independent positions
    low: float                          # 95 % Wilson interval of the measured rate
    high: float
    bits_set: int | None = None         # X, when the filter's bits are known
    given_fill: float | None = None     # (X/m)^k: the exact pass probability of a stranger given X
    p_given_fill: float | None = None   # exact binomial test of the count against it
    z_ensemble: float = 0.0             # the count against the formula, in ensemble standard deviations
    p_ensemble: float = 1.0             # the count's two-sided p against the formula's ensemble
    findings: tuple[Finding, ...] = ()

    @property
    def measured(self) -> float:
        return self.false_positives / self.probes if self.probes else math.nan

    @property
    def consistent(self) -> bool:
        return not self.findings


@dataclass(frozen=True)
class LabReport:
    grid: Grid
    points: tuple[Point, ...]
    form: str                             # "positions function", "filter object" or "filter object with positions"
    threshold: float                      # the per-judgement p below which a point is flagged
    notes: tuple[str, ...] = field(default=())

    @property
    def consistent(self) -> bool:
        return all(p.consistent for p in self.points)

    def where(self, kind: str) -> tuple[Point, ...]:
        return tuple(p for p in self.points if any(f.kind == kind for f in p.findings))

    def _repr_html_(self) -> str:   # a notebook shows the plot and the words
        from bloomviz.lab.report import html_text
        return html_text(self)

    def __str__(self) -> str:
        from bloomviz.lab.report import text
        return text(self)


def member_items(seed: int, count: int) -> list[str]:
    return [f"student{i}.s{seed}@uni.example" for i in range(count)]


def stranger_items(seed: int, count: int) -> list[str]:
    return [f"visitor{i}.s{seed}@elsewhere.example" for i in range(count)]


def judgements_per_point(positions_seen: bool, bits_seen: bool) -> int:
    """The rate against the formula; with the bits, the rate given the fill and the fill; with the positions,
    all k on one bit, repeats and the chi-square (made once per (m, k), counted at every n: on the safe side)."""
    return 1 + (3 if positions_seen else 0) + (2 if bits_seen else 0)


def run(factory: Callable, grid: Grid = Grid(), progress: Callable[[int, int], None] | None = None) -> LabReport:
    """Measure the filters ``factory(m, k)`` makes at every point of ``grid`` and judge them."""
    members = member_items(grid.seed, grid.ns[-1])
    strangers = stranger_items(grid.seed, grid.probes)
    per_mk: list[tuple[int, int, list]] = []
    forms = set()
    done = 0
    for m in grid.ms:
        for k in grid.ks:
            try:
                made = student.make(factory, m, k)
                if student.is_filter_object(made):
                    shown = callable(getattr(made, "positions", None))
                    forms.add("filter object with positions" if shown else "filter object")
                    raws = _object_points(made, m, k, grid, members, strangers, shown)
                else:
                    forms.add("positions function")
                    raws = _function_points(made, m, k, grid, members, strangers)
            except student.StudentError as exc:
                raws = [dict(n=n, broken=str(exc)) for n in grid.ns]
            per_mk.append((m, k, raws))
            done += 1
            if progress is not None:
                progress(done, len(grid.ms) * len(grid.ks))
    with_positions = any(r.get("counts") is not None for _, _, raws in per_mk for r in raws)
    with_bits = any(r.get("bits_set") is not None for _, _, raws in per_mk for r in raws)
    threshold = grid.alpha / (grid.points * judgements_per_point(with_positions, with_bits))
    points = tuple(_judge(m, k, raw, grid.probes, threshold) for m, k, raws in per_mk for raw in raws)
    notes = []
    if forms == {"filter object"}:
        notes.append("Its positions are not seen (an object without a positions method is used through add and "
                     "in only): coinciding and biased positions are judged only where positions are seen.")
        if not with_bits:
            notes.append("It shows no bit array (bits or bit_array): the rate is judged against the formula's "
                         "ensemble spread only, not against the filter's own fill.")
    return LabReport(grid=grid, points=points, form=" and ".join(sorted(forms)) or "none (every call failed)",
                     threshold=threshold, notes=tuple(notes))


def _function_points(fn, m: int, k: int, grid: Grid, members: list[str], strangers: list[str]) -> list[dict]:
    inserted = student.positions(fn, members, m, k)
    probed = student.positions(fn, strangers, m, k)
    asked_again = student.positions(fn, members, m, k)
    every = np.concatenate([inserted, probed])
    counts = np.bincount(every.reshape(-1), minlength=m)
    distinct = np.array([len(set(row)) for row in every.tolist()])
    raws = []
    bits = np.zeros(m, dtype=bool)
    done = 0
    for n in grid.ns:
        bits[inserted[done:n].reshape(-1)] = True
        done = n
        lost = np.flatnonzero(~bits[asked_again[:n]].all(axis=1))
        raws.append(dict(n=n, fp=int(bits[probed].all(axis=1).sum()), bits_set=int(bits.sum()),
                         lost=[members[i] for i in lost], counts=counts, distinct=distinct))
    return raws


def _object_points(obj, m: int, k: int, grid: Grid, members: list[str], strangers: list[str],
                   shown: bool) -> list[dict]:
    seen = {}
    if shown:
        every = student.positions(obj.positions, members + strangers, m, k)
        seen = dict(counts=np.bincount(every.reshape(-1), minlength=m),
                    distinct=np.array([len(set(row)) for row in every.tolist()]))
    raws = []
    done = 0
    for n in grid.ns:
        for item in members[done:n]:
            student.add(obj, item)
        done = n
        lost = [x for x in members[:n] if not student.contains(obj, x)]
        fp = sum(student.contains(obj, x) for x in strangers)
        bits = student.bit_array(obj, m)
        raws.append(dict(n=n, fp=fp, bits_set=None if bits is None else int(bits.sum()), lost=lost, **seen))
    return raws


def _judge(m: int, k: int, raw: dict, probes: int, threshold: float) -> Point:
    n = raw["n"]
    exact = fp_exact(m, k, n)
    if "broken" in raw:
        return Point(m, k, n, probes, 0, exact, 0.0, 1.0, findings=(Finding(BROKEN, raw["broken"]),))
    fp = raw["fp"]
    low, high = wilson_interval(fp, probes)
    findings: list[Finding] = []
    lost = raw["lost"]
    if lost:
        shown = ", ".join(f"“{x}”" for x in lost[:3])
        findings.append(Finding(FALSE_NEGATIVES, f"{len(lost):,} of {n:,} inserted items test negative ({shown}"
                                                 f"{' …' if len(lost) > 3 else ''}): a Bloom filter never forgets"))
    if "distinct" in raw:
        findings += _position_findings(m, k, raw["counts"], raw["distinct"], threshold)
    x = raw["bits_set"]
    given = p_given = None
    if x is not None:
        given = (x / m) ** k
        p_given = stats.binomial_p(fp, probes, given)
        if p_given < threshold:
            findings.append(Finding(RATE, f"{fp:,} of {probes:,} strangers passed ({rate_text(fp / probes)}); with "
                                          f"X = {x:,} of {m:,} bits set, independent positions pass with "
                                          f"(X/m)^k = {rate_text(given)} exactly ({_p(p_given)})", p_given))
        fill_p, how = stats.fill_p(x, m, k * n)
        if fill_p < threshold and n:
            mean, var = stats.fill_moments(m, k * n)
            findings.append(Finding(FILL, f"X = {x:,} bits set where {k}·{n:,} independent positions set "
                                          f"{mean:,.1f} ± {math.sqrt(var):,.1f} ({_p(fill_p)}, {how})", fill_p))
    z = stats.ensemble_z(fp, probes, m, k, n)
    ens_p, how = stats.ensemble_p(fp, probes, m, k, n)
    if ens_p < threshold and not any(f.kind == RATE for f in findings):
        findings.append(Finding(RATE, f"measured {rate_text(fp / probes)} (95 % {rate_text(low)} – "
                                      f"{rate_text(high)}) against the exact {rate_text(exact)}: {z:+.1f} "
                                      f"standard deviations of the spread between filters ({_p(ens_p)}, {how})",
                                ens_p))
    return Point(m, k, n, probes, fp, exact, low, high, bits_set=x, given_fill=given, p_given_fill=p_given,
                 z_ensemble=z, p_ensemble=ens_p, findings=tuple(findings))


def _position_findings(m: int, k: int, counts: np.ndarray, distinct: np.ndarray, threshold: float) -> list[Finding]:
    out = []
    parts, worst = [], 1.0
    if k > 1:
        # all k on one bit: independent positions do it with probability m^(1-k)
        same, items = int((distinct == 1).sum()), int(distinct.size)
        chance = math.exp((1 - k) * math.log(m))
        p_same = stats.binomial_p(same, items, chance)
        if p_same < threshold:
            parts.append(f"for {same:,} of {items:,} items all {k} positions are one bit, where independent "
                         f"positions would do that for {items * chance:.2g} ({_p(p_same)})")
            worst = min(worst, p_same)
    share, expected, p = stats.distinct_p(distinct, m, k)
    if p < threshold:
        more = "more" if share > expected else "less"
        parts.append(f"{percent_text(share)} of items have a repeated position, where independent positions "
                     f"repeat for {percent_text(expected)} ({_p(p)}): they coincide {more} often than chance")
        worst = min(worst, p)
    if parts:
        out.append(Finding(COINCIDE, "; ".join(parts), worst))
    stat, p = stats.chi_square_p(counts)
    if p < threshold:
        busiest = int(np.argmax(counts))
        share = counts[busiest] / (counts.sum() / m)
        unused = int((counts == 0).sum())
        out.append(Finding(BIASED, f"positions are not uniform: chi-square {stat:,.0f} over {m - 1:,} degrees of "
                                   f"freedom ({_p(p)}, Wilson–Hilferty); bit {busiest:,} got {share:.1f}× its share"
                                   + (f", {unused:,} bits were never chosen" if unused else ""), p))
    return out


def _p(p: float) -> str:
    return "p < 1e-300" if p < 1e-300 else f"p = {p:.2g}"

