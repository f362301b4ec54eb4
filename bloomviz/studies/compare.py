"""Compare configurations: one item stream through two to four filters, measured against their own theory.

A configuration is a filter variant and a hash scheme. Every configuration gets the same m and k (or, for a
scalable filter, the same design n and p) and sees the same items in the same order; its false-positive rate
is measured on the same probes (items never inserted). The lesson it makes visible: the formulas assume k
independent, uniform hash positions, and a scheme that breaks that assumption (``weak-shift``: one hash rotated
by 16 bits per function, so past k = 4 the positions repeat) is measured above theory, while good schemes stay
inside their binomial spread. Which of the two a lane shows is judged in ``scheme_verdict``: a scheme against
what its own bits explain, a filter's luck against the formula, separately.

The items are a seeded run's (streams.drawn_items: the strings ``random_items`` gives, kept as one number each
and hashed from numpy words, so a seed measures what it always did).
Every lane is one ``measure.pipeline.Measurement``: exact after every insert, for a scalable filter too (stage
by stage), with the probe seed and tracker policy every other measurement uses.

The work is split into steps (``Comparison.step``) so that a window can run it from its event loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from bloomviz.hashing import schemes as hashing

from bloomviz.explain.variants import variant_title
from bloomviz.filters.registry import VARIANTS, check_variant, make_filter
from bloomviz.filters.standard import BloomFilter
from bloomviz.measure.experiment import Cancelled
from bloomviz.measure.pipeline import Measurement
from bloomviz.measure.streams import drawn_items, drawn_probes
from bloomviz.theory import rates as theory
from bloomviz.theory.intervals import wilson_many
from bloomviz.theory.validate import check_k, check_m
from bloomviz.theory.limits import MAX_PROBES

MIN_CONFIGS = 2
MAX_CONFIGS = 4
MAX_ITEMS = 2_000_000
DEFAULT_PROBES = 20_000
CURVE_POINTS = 400   # points per plotted curve: enough for a smooth line, cheap to redraw every step
SCALABLE_START_FRACTION = 4   # a scalable filter starts at n/4 items and grows through the stream

# The lesson preset: the design for n = 2,000 items at p = 0.001 (k = 10, m/n ≈ 14.4); the default scheme, plain
# double hashing, k seeded hashes and the weak one. weak-shift's ten positions are four (they repeat every 4), so
# it is expected at the rate of k = 4: 3.5x theory (0.00348 against 0.00100). At this m double hashing matches
# the default; its excess at small m is a property of the average over many small filters, which one filter's
# luck would hide: the explorer's Ensemble page shows it, and scheme_verdict tells the two apart.
LESSON_N = 2_000
LESSON_P = 0.001
LESSON_SCHEMES = (hashing.DEFAULT_SCHEME, "murmur3-km", "murmur3-seeded", "weak-shift")


@dataclass(frozen=True)
class Config:
    """One configuration to compare: a filter variant and a hash scheme (both by their stable ids)."""

    variant: str = "standard"
    scheme: str = hashing.DEFAULT_SCHEME

    def __post_init__(self):
        check_variant(self.variant)
        hashing.get_scheme(self.scheme)

    @property
    def label(self) -> str:
        return self.scheme if VARIANTS[self.variant] is BloomFilter else f"{self.variant} · {self.scheme}"

    @property
    def title(self) -> str:
        return f"{variant_title(self.variant)}, {hashing.SCHEMES[self.scheme].title}"


def lesson_configs() -> list[Config]:
    return [Config("standard", s) for s in LESSON_SCHEMES]


def lesson_design() -> tuple[int, int, int]:
    """(m, k, n) of the lesson preset."""
    k, m = theory.optimal_params(LESSON_N, LESSON_P)
    return m, k, LESSON_N


def build_filter(config: Config, m: int, k: int, n: int, p: float | None = None):
    """The configuration's filter at m and k (partitioned and blocked filters round m as they do).

    A filter that grows from a capacity (not ``sized``: the scalable filter) is sized by capacity and rate
    instead: it gets rate p (default: the standard filter's exact rate for m, k, n) and an initial capacity of
    n/4, so that it opens new stages during the stream — the situation it exists for, where n was not known in
    advance."""
    if not VARIANTS[config.variant].capabilities.sized:
        if p is None:
            p = min(max(theory.fp_exact(m, k, n), 1e-12), 0.5)
        return make_filter(config.variant, initial_capacity=max(1, n // SCALABLE_START_FRACTION), p=p,
                           scheme=config.scheme)
    return make_filter(config.variant, m=m, k=k, scheme=config.scheme)


CURVE_SAMPLES = 200   # a blocked filter's curve: exact at this many n, interpolated between


@dataclass(frozen=True)
class LaneSummary:
    """Where one configuration stands after ``n`` inserts."""

    label: str
    n: int
    m: int
    k: int
    fp_count: int
    probes: int
    measured: float
    low: float
    high: float
    theory: float
    bits_set: int

    @property
    def ratio(self) -> float:
        """measured / theory (inf when theory is 0 and something was measured, nan when both are 0)."""
        if self.theory > 0:
            return self.measured / self.theory
        return math.inf if self.measured > 0 else math.nan

    @property
    def sd(self) -> float:
        """The binomial standard deviation of the measured rate if theory were true."""
        t = min(max(self.theory, 0.0), 1.0)
        return math.sqrt(t * (1.0 - t) / self.probes) if self.probes else math.nan

    @property
    def z(self) -> float:
        """(measured − theory) in standard deviations of Binomial(probes, theory)."""
        sd = self.sd
        if sd > 0:
            return (self.measured - self.theory) / sd
        return 0.0 if self.measured == self.theory else math.inf


class Lane:
    """One configuration's filter and its measurement so far (a ``Measurement`` keeping every row)."""

    def __init__(self, config: Config, flt, probes: Sequence[str], total: int,
                 items: Sequence[object] | None = None):
        self.config = config
        self.filter = flt
        self._probes = probes
        self._items = items            # the shared stream ``advance`` takes from (each lane keeps its place)
        self.measurement: Measurement | None = None
        self._curve_n = np.unique(np.round(np.linspace(0, total, CURVE_POINTS + 1))).astype(np.int64)
        self._curve_theory: np.ndarray | None = None

    @property
    def prepared(self) -> bool:
        return self.measurement is not None

    def prepare(self) -> None:
        """Hash the probes (the slow part for a slow scheme) and the theory curve."""
        if self.measurement is not None:
            return
        self._curve_theory = self.filter.theory_fp(self._curve_n, samples=CURVE_SAMPLES)
        self.measurement = Measurement(self.filter, self._probes, self._items, every=1, initial=True)

    def advance(self, count: int) -> None:
        """Insert the next ``count`` items of the stream and record the measurement."""
        self.prepare()
        self.measurement.step(count)

    def insert(self, chunk: Sequence[str], start: int) -> None:
        """Insert ``chunk`` (items start+1 … start+len, given as items) and record the measurement."""
        self.prepare()
        self.measurement.step(chunk)

    def rows(self) -> dict[str, np.ndarray]:
        """Every measured row: n, fp count, bits set (row 0 is the empty filter)."""
        if self.measurement is None:
            zero = np.zeros(1, np.int64)
            return {"n": zero, "fp": zero, "bits_set": zero}
        return self.measurement.checkpoints

    @property
    def exact(self) -> bool:
        """Measured after every insert (True) or only at the end of every step (False)."""
        return self.measurement is not None and self.measurement.exact

    def curve(self, max_points: int = CURVE_POINTS) -> dict[str, np.ndarray]:
        """What a plot draws, thinned to about ``max_points`` rows: n, measured rate, Wilson low/high, and
        the theory at the same n."""
        rows = self.rows()
        n, fp = rows["n"], rows["fp"]
        if n.size > max_points:
            pick = np.unique(np.round(np.linspace(0, n.size - 1, max_points)).astype(np.int64))
            n, fp = n[pick], fp[pick]
        probes = len(self._probes)
        low, high = wilson_many(fp, probes)
        return {"n": n, "measured": fp / probes, "low": low, "high": high, "theory": self.theory_fp(n)}

    def theory_fp(self, n: np.ndarray) -> np.ndarray:
        """The lane's filter's theoretical rate at each n of the array."""
        if self._curve_theory is None or self.filter.capabilities.standard_formulas:
            return self.filter.theory_fp(np.asarray(n, dtype=np.float64), samples=CURVE_SAMPLES)
        # Slow formulas (blocked, scalable) were tabulated once; between table points the curve is smooth.
        return np.interp(np.asarray(n, np.float64), self._curve_n, self._curve_theory)

    def summary(self) -> LaneSummary:
        rows = self.rows()
        n, fp = int(rows["n"][-1]), int(rows["fp"][-1])
        probes = len(self._probes)
        low, high = wilson_many(np.array([fp]), probes)
        th = self.filter.theory_fp(n) if n else 0.0
        return LaneSummary(self.config.label, n, int(self.filter.m), int(self.filter.k), fp, probes,
                           fp / probes if probes else 0.0, float(low[0]), float(high[0]), th,
                           int(rows["bits_set"][-1]))


def check_configs(configs: Sequence[Config]) -> list[Config]:
    configs = list(configs)
    if not MIN_CONFIGS <= len(configs) <= MAX_CONFIGS:
        raise ValueError(f"compare {MIN_CONFIGS} to {MAX_CONFIGS} configurations, got {len(configs)}")
    for i, c in enumerate(configs):
        if not isinstance(c, Config):
            raise TypeError(f"configuration {i + 1} must be a Config, got {type(c).__name__}")
        if c in configs[:i]:
            raise ValueError(f"configuration {i + 1} ({c.label}) repeats configuration {configs.index(c) + 1}")
    return configs


def _check_int(value: object, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= int(value) <= hi:
        raise ValueError(f"{name} must be a whole number from {lo:,} to {hi:,}, got {value!r}")
    return int(value)


class Comparison:
    """The same ``n`` seeded random items through every configuration, measured on the same probes.

    ``step(chunk)`` does the next piece of work (hash one lane's probes, or insert the next ``chunk`` items
    into every lane) and returns False once everything is done; ``run()`` does it all.
    """

    def __init__(self, configs: Sequence[Config], m: int, k: int, n: int, probes: int = DEFAULT_PROBES,
                 seed: int = 0, p: float | None = None):
        self.configs = check_configs(configs)
        self.m, self.k = check_m(m), check_k(k)
        self.n = _check_int(n, "the item count", 1, MAX_ITEMS)
        probe_count = _check_int(probes, "the probe count", 100, MAX_PROBES)
        self.seed = _check_int(seed, "the seed", 0, 2 ** 63 - 1)
        self.p = p
        filters = [build_filter(c, m, k, self.n, p) for c in self.configs]  # raises, naming a bad m or k
        self.items = drawn_items(self.n, self.seed)      # random_items' strings, hashed from numpy words
        self.probes = drawn_probes(probe_count, self.seed)
        self.lanes = [Lane(c, f, self.probes, self.n, self.items) for c, f in zip(self.configs, filters)]
        self.done = 0

    @property
    def total(self) -> int:
        return self.n

    @property
    def finished(self) -> bool:
        return self.done >= self.n and all(lane.prepared for lane in self.lanes)

    def step(self, chunk: int = 4096) -> bool:
        """One piece of work; True while more remains."""
        for lane in self.lanes:
            if not lane.prepared:
                lane.prepare()
                return not self.finished
        if self.done < self.n:
            count = min(max(1, int(chunk)), self.n - self.done)
            for lane in self.lanes:
                lane.advance(count)
            self.done += count
        return not self.finished

    def run(self, chunk: int = 65_536, progress: Callable[[int, int], None] | None = None,
            cancel: Callable[[], bool] | None = None) -> "Comparison":
        while True:
            if cancel is not None and cancel():
                raise Cancelled(f"cancelled after {self.done} of {self.n} items")
            more = self.step(chunk)
            if progress is not None:
                progress(self.done, self.n)
            if not more:
                return self

    def summaries(self) -> list[LaneSummary]:
        return [lane.summary() for lane in self.lanes]

    def verdicts(self) -> list:
        """Each lane's ``scheme_verdict.SchemeVerdict``: its scheme judged against what its own bits explain,
        and its luck against the formula, separately."""
        from bloomviz.studies import scheme_verdict
        return [scheme_verdict.judge(lane.summary(), lane.filter) for lane in self.lanes]
