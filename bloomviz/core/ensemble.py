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

from bloomviz.core import hashing
from bloomviz.core.validate import check_k, check_m, check_n

__all__ = ["EnsembleResult", "run_ensemble", "MAX_FILTERS", "MAX_ENSEMBLE_WORK"]

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


def run_ensemble(m: int, k: int, n: int, filters: int, scheme: str = hashing.DEFAULT_SCHEME,
                 probes: int = 32, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None,
                 cancel: Callable[[], bool] | None = None) -> EnsembleResult:
    """Measure ``filters`` independent standard filters of m bits and k hashes, each filled with n random
    items and probed with ``probes`` random non-members after every insert. ``cancel`` returning True stops
    the run with ``Cancelled`` (from core.experiment); ``progress(done, filters)`` is called per chunk."""
    from bloomviz.core.experiment import Cancelled
    from bloomviz.core.theory import fp_classic, fp_exact_curve
    m, k, n = check_m(m), check_k(k), check_n(n, allow_zero=False)
    sch = hashing.get_scheme(scheme)
    _check_sizes(m, k, n, filters, probes)
    rng = np.random.default_rng(seed)
    total = np.zeros(n)       # Σ_f r_f(n)
    total_sq = np.zeros(n)    # Σ_f r_f(n)²
    chunk = max(1, min(filters, _CHUNK_CELLS // max(m, 1), 65_536))
    done = 0
    while done < filters:
        if cancel is not None and cancel():
            raise Cancelled(f"cancelled after {done:,} of {filters:,} filters")
        f = min(chunk, filters - done)
        item_pos = sch.positions_many(_random_items(rng, f * n), m, k).reshape(f, n, k)
        probe_pos = sch.positions_many(_random_items(rng, f * probes), m, k).reshape(f, probes, k)
        first = np.full((f, m), n, dtype=np.int64)      # n = never set within the run
        rows = np.arange(f)[:, None]
        for i in range(n - 1, -1, -1):                  # reverse order: the earliest insert writes last
            first[rows, item_pos[:, i, :]] = i
        passes_at = first[np.arange(f)[:, None, None], probe_pos].max(axis=2)   # (f, probes)
        counts = np.zeros((f, n + 1), dtype=np.int64)
        np.add.at(counts, (np.repeat(np.arange(f), probes), passes_at.ravel()), 1)
        rates = np.cumsum(counts[:, :n], axis=1) / probes   # r_f after inserts 1…n (index i: i + 1 inserts)
        total += rates.sum(axis=0)
        total_sq += (rates * rates).sum(axis=0)
        done += f
        if progress is not None:
            progress(done, filters)
    mean = total / filters
    var = np.maximum(0.0, total_sq / filters - mean * mean) * (filters / max(filters - 1, 1))
    half = 1.96 * np.sqrt(var / filters)
    ns = np.arange(1, n + 1)
    return EnsembleResult(m=m, k=k, scheme=sch.id, filters=filters, probes=probes, n=ns, mean=mean,
                          low=np.maximum(0.0, mean - half), high=np.minimum(1.0, mean + half),
                          fp_exact=fp_exact_curve(m, k, n)[1:],
                          fp_classic=np.array([fp_classic(m, k, int(v)) for v in ns]))


def standard_error_ratio(result: EnsembleResult) -> float:
    """How many standard errors the final mean sits from the exact rate (for reports and tests)."""
    se = (result.high[-1] - result.low[-1]) / (2 * 1.96)
    return math.inf if se == 0 else float((result.mean[-1] - result.fp_exact[-1]) / se)
