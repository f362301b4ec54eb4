"""Sweeps for the parameter explorer: theory over k, n, m and p, and quick measured points.

Pure numbers (numpy arrays in dicts), no Qt; the window's explorer and ``bloomviz explore`` both draw on it.

Theory:
  k_sweep(m, n, ks)             fp_exact / fp_approx / fp_bound for each k (n = 0: every rate is 0)
  k_optimum(m, n)               (k_real, k_int), or (None, None) when n = 0 (every k gives rate 0: no optimum)
  n_sweep(m, k, ns)             the three rates against n for one (m, k)
  m_family(m)                   the m values the FP-vs-n plot compares: m/4, m/2, m, 2m, 4m (within 1 ... 2**34)
  bits_per_item_sweep(ps)       bits per item against p: the lower bound log2(1/p), an optimal Bloom filter
                                with real k (log2(e)·log2(1/p)), and the best integer k

Measurement (measure.pipeline.Measurement, exact over a fixed probe set; theory.intervals.wilson_many):
  KMeasurement(m, n, ks, ...)   the measured rate after n random inserts for each k, run in small steps
  NMeasurement(m, k, ns, ...)   the measured rate at each n of a set, one filter filled up to max(ns)
Items and probes are a seeded run's (streams.drawn_items and drawn_probes: the strings ``random_items`` gives,
kept as one number each and hashed from numpy words).
Both are advanced by ``step()`` (a bounded amount of work, so a window can run them from a timer between
events) or at once by ``run(progress, cancel)``; ``result()`` gives the columns with Wilson intervals.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Sequence

import numpy as np

from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing.schemes import DEFAULT_SCHEME, get_scheme
from bloomviz.measure.experiment import Cancelled
from bloomviz.measure.pipeline import Measurement
from bloomviz.measure.streams import PROBE_SEED_OFFSET, drawn_items, drawn_probes
from bloomviz.theory import rates as theory
from bloomviz.theory.curves import theory_many
from bloomviz.theory.intervals import wilson_many
from bloomviz.theory.validate import MAX_K, MAX_M, check_k, check_m, check_n

__all__ = ["k_sweep", "k_optimum", "n_sweep", "m_family", "bits_per_item_sweep", "best_integer_k_bits",
           "parse_k_range", "KMeasurement", "NMeasurement", "MAX_MEASURE_N", "MAX_MEASURE_M",
           "MAX_MEASURE_PROBES", "PROBE_SEED_OFFSET"]

MAX_MEASURE_N = 10_000_000       # items are held, 8 bytes each (streams.DrawnItems), for a quick measurement
MAX_MEASURE_M = 2 ** 32          # 512 MiB of bits: a quick measurement, not a production filter
MAX_MEASURE_PROBES = 1_000_000
STEP_ITEMS = 32_768              # items hashed and inserted per step: a few tens of milliseconds


# --- theory ---------------------------------------------------------------------------------------------
def k_sweep(m: int, n: int, ks: Iterable[int]) -> dict[str, np.ndarray]:
    """Columns k, fp_exact, fp_classic, fp_approx, fp_bound for each k at fixed m and n."""
    return theory.fp_for_k_range(m, n, ks)


def k_optimum(m: int, n: int) -> tuple[float | None, int | None]:
    """((m/n) ln 2, the integer k with the lowest exact rate); (None, None) for n = 0, where every k gives 0."""
    m, n = check_m(m), check_n(n)
    if n == 0:
        return None, None
    return theory.optimal_k(m, n), theory.optimal_k_int(m, n)


def n_sweep(m: int, k: int, ns: Sequence[float]) -> dict[str, np.ndarray]:
    """Columns n, fp_exact, fp_classic, fp_approx, fp_bound, fill_expected for one (m, k)."""
    m, k = check_m(m), check_k(k)
    ns = np.asarray(ns, dtype=float)
    if ns.size and (not np.all(np.isfinite(ns)) or ns.min() < 0):
        raise ValueError("n values must be finite and >= 0")
    if m == 1:   # theory_many takes log1p(-1/m): m = 1 (one bit, set by the first item) goes the scalar way
        ints = [int(v) for v in ns]
        return {"n": ns, "fp_exact": np.array([theory.fp_exact(1, k, v) for v in ints]),
                "fp_classic": np.array([theory.fp_classic(1, k, v) for v in ints]),
                "fp_approx": np.array([theory.fp_approx(1, k, v) for v in ints]),
                "fp_bound": np.array([theory.fp_bound(1, k, v) for v in ints]),
                "fill_expected": np.array([theory.fill_expected(1, k, v) for v in ints])}
    out = theory_many(m, k, ns)
    out["n"] = ns
    return out


_SWEEPS: dict = {}      # (kind, m, k or n, points) -> columns, the few most recent designs
_SWEEPS_KEPT = 48


def _cached(key: tuple, compute) -> dict[str, np.ndarray]:
    """A sweep computed once per design: the explorer computes its curves on a worker thread, then draws them on
    the GUI thread from here (copies: the caller may do what it likes with them)."""
    found = _SWEEPS.get(key)
    if found is None:
        found = compute()
        if len(_SWEEPS) >= _SWEEPS_KEPT:
            _SWEEPS.pop(next(iter(_SWEEPS)), None)
        _SWEEPS[key] = found
    return {name: np.array(column, copy=True) for name, column in found.items()}


def n_sweep_cached(m: int, k: int, ns: Sequence[float]) -> dict[str, np.ndarray]:
    points = np.asarray(ns, dtype=float)
    return _cached(("n", int(m), int(k), points.tobytes()), lambda: n_sweep(m, k, points))


def k_sweep_cached(m: int, n: int, ks: Sequence[int]) -> dict[str, np.ndarray]:
    return _cached(("k", int(m), int(n), tuple(int(k) for k in ks)), lambda: k_sweep(m, n, ks))


def m_family(m: int, factors: Sequence[float] = (0.25, 0.5, 1.0, 2.0, 4.0)) -> list[int]:
    """The m values to compare with the current m, within 1 ... 2**34, without repeats, ascending."""
    m = check_m(m)
    values = sorted({min(MAX_M, max(1, round(m * f))) for f in factors})
    return values


def best_integer_k_bits(p: float) -> tuple[float, int]:
    """(bits per item, k) of the cheapest integer-k Bloom filter reaching rate p (approximate form, m large).

    From (1 - e^{-k/b})^k = p: b = -k / ln(1 - p^{1/k}); the minimum over integer k sits at floor or ceil of
    log2(1/p) but every k in [1, 64] is tried (cheap, and no assumption to get wrong).
    """
    p = float(p)
    ks = np.arange(1, MAX_K + 1, dtype=float)
    root = -np.expm1(np.log(p) / ks)          # 1 - p^{1/k}, accurate for p near 1 too
    with np.errstate(divide="ignore"):
        bits = -ks / np.log(root)
    i = int(np.argmin(bits))
    return float(bits[i]), int(ks[i])


def bits_per_item_sweep(ps: Sequence[float]) -> dict[str, np.ndarray]:
    """Columns p, lower_bound (log2 1/p), bloom_optimal (1.44 log2 1/p), bloom_integer_k, k_integer."""
    ps = np.asarray(ps, dtype=float)
    if ps.size and not (np.all(ps > 0) and np.all(ps < 1)):
        raise ValueError("p values must lie strictly between 0 and 1")
    lower = -np.log2(ps)
    best = [best_integer_k_bits(p) for p in ps]
    return {"p": ps, "lower_bound": lower, "bloom_optimal": lower / math.log(2),
            "bloom_integer_k": np.array([b for b, _ in best], dtype=float),
            "k_integer": np.array([k for _, k in best], dtype=np.int64)}


def parse_k_range(text: str) -> list[int]:
    """'A:B' (both ends included, 1 <= A <= B <= 64) or a single 'K' -> the list of k."""
    raw = str(text).strip()
    parts = raw.split(":")
    try:
        if len(parts) == 1:
            lo = hi = int(parts[0])
        elif len(parts) == 2:
            lo, hi = int(parts[0]), int(parts[1])
        else:
            raise ValueError
    except ValueError:
        raise ValueError(f"k range must look like A:B with whole numbers, e.g. 1:12, got {raw!r}") from None
    if not 1 <= lo <= hi <= MAX_K:
        raise ValueError(f"k range must satisfy 1 <= A <= B <= {MAX_K}, got {raw!r}")
    return list(range(lo, hi + 1))


# --- measurement ---------------------------------------------------------------------------------------
def _check_measure(m: int, n_max: int, probes: int, seed: int) -> None:
    if m > MAX_MEASURE_M:
        raise ValueError(f"m = {m:,} is too large to measure quickly; at most {MAX_MEASURE_M:,} bits")
    if n_max > MAX_MEASURE_N:
        raise ValueError(f"n = {n_max:,} is too many items to measure quickly; at most {MAX_MEASURE_N:,}")
    if isinstance(probes, bool) or not isinstance(probes, (int, np.integer)) \
            or not 1 <= probes <= MAX_MEASURE_PROBES:
        raise ValueError(f"probes must be a whole number from 1 to {MAX_MEASURE_PROBES:,}, got {probes!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")


class _Measurement:
    """Shared machinery: seeded items and probes, a work counter, step/run, cancel."""

    def __init__(self, m: int, n_max: int, probes: int, seed: int, scheme: str):
        self.m = check_m(m)
        self.probes = probes
        self.seed = seed
        _check_measure(self.m, n_max, probes, seed)
        self.scheme = get_scheme(scheme).id
        self._n_max = n_max
        self._items: Sequence[str] | None = None
        self._probe_items: list[str] | None = None
        self.done = 0
        self.total = 1

    def _ensure_items(self) -> None:
        # Made on the first step rather than in __init__, so that creating a measurement is instant.
        if self._items is None:
            self._items = drawn_items(self._n_max, self.seed)
            self._probe_items = drawn_probes(self.probes, self.seed)

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def step(self) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def run(self, progress: Callable[[int, int], None] | None = None,
            cancel: Callable[[], bool] | None = None) -> dict[str, np.ndarray]:
        while not self.finished:
            if cancel is not None and cancel():
                raise Cancelled(f"cancelled after {self.done:,} of {self.total:,} steps of work")
            self.step()
            if progress is not None:
                progress(self.done, self.total)
        return self.result()

    def result(self) -> dict[str, np.ndarray]:  # pragma: no cover - overridden
        raise NotImplementedError


class KMeasurement(_Measurement):
    """For each k: a fresh filter (m, k), the same n seeded random items, the rate over the same probes.

    Work is counted in items inserted (n per k); each ``step()`` inserts at most ``step_items`` of them.
    ``result()`` holds the k measured so far (all of them once ``finished``).
    """

    def __init__(self, m: int, n: int, ks: Iterable[int], probes: int = 10_000, seed: int = 0,
                 scheme: str = DEFAULT_SCHEME, step_items: int = STEP_ITEMS):
        self.ks = [check_k(k) for k in ks]
        if not self.ks:
            raise ValueError("give at least one k to measure")
        self.n = check_n(n)
        super().__init__(m, self.n, probes, seed, scheme)
        self.step_items = max(1, int(step_items))
        self.total = max(1, self.n) * len(self.ks)
        self._index = 0        # which k is being filled
        self._measurement: Measurement | None = None
        self._hits: list[int] = []

    def step(self) -> bool:
        """Insert one bounded chunk; True once every k is measured."""
        if self.finished:
            return True
        self._ensure_items()
        if self._measurement is None:
            flt = BloomFilter(self.m, self.ks[self._index], scheme=self.scheme)
            self._measurement = Measurement(flt, self._probe_items, self._items, every=None, per_insert=False)
        measurement = self._measurement
        before = measurement.taken
        measurement.step(self.step_items)
        self.done += measurement.taken - before if self.n else 1
        if measurement.remaining == 0:
            self._hits.append(measurement.fp_count)
            self._index += 1
            self._measurement = None
            self.done = self._index * max(1, self.n)
        return self.finished

    def result(self) -> dict[str, np.ndarray]:
        """Columns k, hits, fp_measured, fp_low, fp_high (95% Wilson) and theory fp_exact/approx/bound."""
        ks = self.ks[:len(self._hits)]
        hits = np.array(self._hits, dtype=np.int64)
        low, high = wilson_many(hits, self.probes)
        out = {"k": np.array(ks, dtype=np.int64), "hits": hits,
               "fp_measured": hits / self.probes, "fp_low": low, "fp_high": high}
        th = k_sweep(self.m, self.n, ks)
        out.update({c: th[c] for c in ("fp_exact", "fp_approx", "fp_bound")})
        return out


class NMeasurement(_Measurement):
    """One filter (m, k) filled with seeded random items up to max(ns); the exact rate at each n of ``ns``.

    The FpTracker's batch path gives the false-positive count after every insert of a chunk, so every n of
    the set is read off one pass.
    """

    def __init__(self, m: int, k: int, ns: Iterable[int], probes: int = 10_000, seed: int = 0,
                 scheme: str = DEFAULT_SCHEME, step_items: int = STEP_ITEMS):
        self.ns = sorted({check_n(n) for n in ns})
        if not self.ns:
            raise ValueError("give at least one n to measure")
        self.k = check_k(k)
        super().__init__(m, self.ns[-1], probes, seed, scheme)
        self.step_items = max(1, int(step_items))
        self.total = max(1, self.ns[-1])
        self._measurement: Measurement | None = None

    def step(self) -> bool:
        if self.finished:
            return True
        self._ensure_items()
        if self._measurement is None:
            flt = BloomFilter(self.m, self.k, scheme=self.scheme)
            self._measurement = Measurement(flt, self._probe_items, self._items, every=None, at=self.ns)
        self._measurement.step(self.step_items)
        self.done = max(self._measurement.taken, 1)
        return self.finished

    @property
    def _hits(self) -> np.ndarray:
        return self._measurement.checkpoints["fp"] if self._measurement is not None else np.zeros(0, np.int64)

    def result(self) -> dict[str, np.ndarray]:
        ns = np.array(self.ns[:len(self._hits)], dtype=float)
        hits = np.array(self._hits, dtype=np.int64)
        low, high = wilson_many(hits, self.probes)
        th = theory_many(self.m, self.k, ns)
        return {"n": ns, "hits": hits, "fp_measured": hits / self.probes, "fp_low": low, "fp_high": high,
                "fp_exact": th["fp_exact"], "fp_approx": th["fp_approx"], "fp_bound": th["fp_bound"]}
