"""Ensemble measurement: the false-positive rate averaged over many independent random filters.

One filter's measured rate wanders around the theory (its bits are one random draw); the average over F
filters of the same (m, k, n) converges to the expected rate, which is what the exact formula
E[(X/m)^k] predicts and what Bloom's classic formula does not (it is below it for k >= 2). At m = 32 an
ensemble of 10^5 filters separates the two.

Each filter gets its own seeded random items (16 random bytes each) and its own ``probes`` never-inserted
probes, all hashed by the chosen scheme, so the ensemble measures the scheme as well as the theory: double
hashing at small m lands above the exact rate. For every filter and bit the insert that first set it is
recorded (inserts written in reverse order, so the earliest wins); a probe passes from the insert that set the
last of its bits. Filter f's rate after n inserts is the share of its probes passing by then, r_f(n); the
ensemble mean is the average of r_f(n) over the filters, and its 95 % interval is mean ± 1.96·s/√F from the
sample standard deviation s of the r_f(n) (the filters are independent; a probe's outcomes within one filter are
not, which is why the interval is not a binomial one over all probes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from bloomviz.hashing import schemes as hashing
from bloomviz.theory.validate import check_k, check_m, check_n

__all__ = ["EnsembleResult", "EnsembleJob", "run_ensemble", "MAX_FILTERS", "MAX_ENSEMBLE_WORK"]

MAX_FILTERS = 10_000_000
MAX_ENSEMBLE_WORK = 2_000_000_000   # hashed items (filters × (n + probes)): about 10 minutes of hashing
_CHUNK_CELLS = 1 << 22              # filters × m first-set times held at once (32 MiB of int64)
ITEM_BYTES = 16


@dataclass(frozen=True)
class EnsembleResult:
    """Per n = 1…n: the mean rate over the filters, its 95 % interval, and the theory at the same n."""
    m: int
    k: int
    scheme: str
    filters: int
    probes: int
    n: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    fp_exact: np.ndarray
    fp_classic: np.ndarray


def _check_sizes(m: int, k: int, n: int, filters: int, probes: int) -> None:
    if not 1 <= filters <= MAX_FILTERS:
        raise ValueError(f"filters must be 1 to {MAX_FILTERS:,}, got {filters:,}")
    if not 1 <= probes <= 100_000:
        raise ValueError(f"probes per filter must be 1 to 100,000, got {probes:,}")
    work = filters * (n + probes)
    if work > MAX_ENSEMBLE_WORK:
        raise ValueError(f"an ensemble of {filters:,} filters × ({n:,} items + {probes:,} probes) hashes "
                         f"{work:,} items; the limit is {MAX_ENSEMBLE_WORK:,}")


def _random_items(rng: np.random.Generator, count: int) -> list[bytes]:
    raw = rng.integers(0, 256, size=count * ITEM_BYTES, dtype=np.uint8).tobytes()
    return [raw[i:i + ITEM_BYTES] for i in range(0, len(raw), ITEM_BYTES)]


class EnsembleJob:
    """The ensemble as a steppable job: each ``step()`` measures one chunk of filters (about ``STEP_ITEMS``
    hashed items, a fraction of a second) and returns True once all are done; ``result()`` then gives the
    EnsembleResult. The window drives it from a timer, the command line in a loop."""

    STEP_ITEMS = 250_000

    def __init__(self, m: int, k: int, n: int, filters: int, scheme: str = hashing.DEFAULT_SCHEME,
                 probes: int = 32, seed: int = 0):
        self.m, self.k, self.n = check_m(m), check_k(k), check_n(n, allow_zero=False)
        self.scheme = hashing.get_scheme(scheme)
        _check_sizes(self.m, self.k, self.n, filters, probes)
        self.filters, self.probes = filters, probes
        self._rng = np.random.default_rng(seed)
        self._total = np.zeros(self.n)       # Σ_f r_f(n)
        self._total_sq = np.zeros(self.n)    # Σ_f r_f(n)²
        self._chunk = max(1, min(filters, _CHUNK_CELLS // self.m, self.STEP_ITEMS // (self.n + probes)))
        self.done = 0

    @property
    def total(self) -> int:
        return self.filters

    @property
    def finished(self) -> bool:
        return self.done >= self.filters

    def step(self) -> bool:
        if self.finished:
            return True
        m, k, n, probes = self.m, self.k, self.n, self.probes
        f = min(self._chunk, self.filters - self.done)
        item_pos = self.scheme.positions_many(_random_items(self._rng, f * n), m, k).reshape(f, n, k)
        probe_pos = self.scheme.positions_many(_random_items(self._rng, f * probes), m, k).reshape(f, probes, k)
        first = np.full((f, m), n, dtype=np.int64)      # n = never set within the run
        rows = np.arange(f)[:, None]
        for i in range(n - 1, -1, -1):                  # reverse order: the earliest insert writes last
            first[rows, item_pos[:, i, :]] = i
        passes_at = first[np.arange(f)[:, None, None], probe_pos].max(axis=2)   # (f, probes)
        counts = np.zeros((f, n + 1), dtype=np.int64)
        np.add.at(counts, (np.repeat(np.arange(f), probes), passes_at.ravel()), 1)
        rates = np.cumsum(counts[:, :n], axis=1) / probes   # r_f after inserts 1…n (index i: i + 1 inserts)
        self._total += rates.sum(axis=0)
        self._total_sq += (rates * rates).sum(axis=0)
        self.done += f
        return self.finished

    def result(self) -> EnsembleResult:
        from bloomviz.theory.rates import fp_classic, fp_exact_curve
        if not self.finished:
            raise ValueError(f"the ensemble has measured {self.done:,} of {self.filters:,} filters")
        count = self.filters
        mean = self._total / count
        var = np.maximum(0.0, self._total_sq / count - mean * mean) * (count / max(count - 1, 1))
        half = 1.96 * np.sqrt(var / count)
        ns = np.arange(1, self.n + 1)
        return EnsembleResult(m=self.m, k=self.k, scheme=self.scheme.id, filters=count, probes=self.probes,
                              n=ns, mean=mean, low=np.maximum(0.0, mean - half),
                              high=np.minimum(1.0, mean + half), fp_exact=fp_exact_curve(self.m, self.k, self.n)[1:],
                              fp_classic=np.array([fp_classic(self.m, self.k, int(v)) for v in ns]))


def run_ensemble(m: int, k: int, n: int, filters: int, scheme: str = hashing.DEFAULT_SCHEME,
                 probes: int = 32, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None,
                 cancel: Callable[[], bool] | None = None) -> EnsembleResult:
    """Measure ``filters`` independent standard filters of m bits and k hashes, each filled with n random
    items and probed with ``probes`` random non-members after every insert. ``cancel`` returning True stops
    the run with ``Cancelled`` (from core.experiment); ``progress(done, filters)`` is called per step."""
    from bloomviz.measure.experiment import Cancelled
    job = EnsembleJob(m, k, n, filters, scheme, probes, seed)
    while not job.finished:
        if cancel is not None and cancel():
            raise Cancelled(f"cancelled after {job.done:,} of {filters:,} filters")
        job.step()
        if progress is not None:
            progress(job.done, filters)
    return job.result()


def standard_error_ratio(result: EnsembleResult) -> float:
    """How many standard errors the final mean sits from the exact rate (for reports and tests)."""
    se = (result.high[-1] - result.low[-1]) / (2 * 1.96)
    return math.inf if se == 0 else float((result.mean[-1] - result.fp_exact[-1]) / se)
