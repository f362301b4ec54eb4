"""Live measurement of the false-positive rate, exact at every insert.

A fixed set of probes (items known not to be members) is kept. For each probe the tracker knows how many of its
distinct k positions are still 0, and an inverted index bit -> probes. When an insert turns a bit from 0 to 1,
the probes on that bit lose one zero; a probe with no zero left has become a false positive. The measured rate
after every insert is therefore exact for the probe set, at a total cost of O(k * (n + probes)).

The batch path gets the same numbers vectorised: for each bit, the insert at which it first turns 1; a probe
becomes a false positive at the latest such time among its positions; a cumulative count of those times gives
the false-positive count after every insert.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from bloomviz.filters import bitstore

from bloomviz.hashing import schemes as hashing
from bloomviz.theory.exact_rate import fp_exact_at
from bloomviz.filters.standard import BloomFilter
from bloomviz.measure.first_flips import FirstIndex, flip_pass, times_of
from bloomviz.items.generated import GeneratedItems
from bloomviz.items.generated import positions as generated_positions
from bloomviz.items.encoding import random_items



class FpTracker:
    def __init__(self, flt, probes: Sequence[object]):
        self._probes = list(probes)
        self._k = flt.k
        self._tables: dict = {}                             # first_flips tables, reused batch after batch
        self._positions = flt.positions_many(self._probes)  # (P, k), fixed for the filter's m, k, scheme
        self.rebuild(flt)

    # --- state ---------------------------------------------------------------------------------------------
    def rebuild(self, flt) -> None:
        """Recompute every probe's zero count from the filter's bits (after a load, a clear, a removal...)."""
        pos = np.sort(self._positions, axis=1)
        distinct = np.ones(pos.shape, dtype=bool)
        distinct[:, 1:] = pos[:, 1:] != pos[:, :-1]
        zero = bitstore.test_bits(flt.bits, pos) == 0 if pos.size else np.zeros(pos.shape, bool)
        keep = distinct & zero
        probe_ids = np.broadcast_to(np.arange(pos.shape[0])[:, None], pos.shape)[keep]
        entry_pos = pos[keep]
        order = np.argsort(entry_pos, kind="stable")
        self._entry_pos = entry_pos[order]          # sorted by bit: the inverted index bit -> probes
        self._entry_probe = probe_ids[order]
        self._zeros = np.bincount(self._entry_probe, minlength=len(self._probes)).astype(np.int64)
        self._fp = int(np.count_nonzero(self._zeros == 0))

    @property
    def probes(self) -> list:
        return self._probes

    @property
    def probe_count(self) -> int:
        return len(self._probes)

    @property
    def fp_count(self) -> int:
        return self._fp

    @property
    def rate(self) -> float:
        return self._fp / len(self._probes) if self._probes else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        return wilson(self._fp, len(self._probes), z)

    def false_positive_probes(self) -> list:
        return [self._probes[i] for i in np.flatnonzero(self._zeros == 0)]

    def probe_zero_counts(self) -> np.ndarray:
        return self._zeros.copy()

    # --- updates -------------------------------------------------------------------------------------------
    def on_insert(self, newly_set: Iterable[int]) -> int:
        """Account for bits that one insert turned from 0 to 1 (each such bit exactly once)."""
        for p in newly_set:
            lo = np.searchsorted(self._entry_pos, p, "left")
            hi = np.searchsorted(self._entry_pos, p, "right")
            if lo == hi:
                continue
            hit = self._entry_probe[lo:hi]
            self._zeros[hit] -= 1
            self._fp += int(np.count_nonzero(self._zeros[hit] == 0))
        return self._fp

    def insert_batch(self, positions: np.ndarray, flt) -> tuple[np.ndarray, np.ndarray]:
        """Insert the rows of ``positions`` into ``flt``; return (fp count, bits set) after every row.

        Exact: the same numbers ``on_insert`` would give one insert at a time. For a standard filter one pass
        over the positions in insertion order sets the bits and yields the flips, each bit once at the insert
        that turns it (first_flips.flip_pass: one random read per position, bits counted, not recounted);
        other variants are inserted as they insert, the flips found with a batch-sized table (FirstIndex).
        """
        positions = np.asarray(positions, dtype=np.int64)
        n = positions.shape[0]
        bits_before = flt.bits_set
        if n == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        k = positions.shape[1]
        flat = positions.ravel()
        # Entries whose bit a single insert set are stale (on_insert accounted for them): they leave first,
        # so every entry whose bit is 1 after the batch was flipped by it.
        if self._entry_pos.size:
            live = bitstore.test_bits(flt.bits, self._entry_pos) == 0
            if not live.all():
                self._entry_pos, self._entry_probe = self._entry_pos[live], self._entry_probe[live]
        if type(flt).insert_positions is BloomFilter.insert_positions:
            if positions.size and (positions.min() < 0 or positions.max() >= flt.m):
                raise ValueError(f"positions must lie in [0, {flt.m})")
            flip_at = flip_pass(bitstore.byte_view(flt.bits), flat, self._tables)
            flt.count_fresh_bits(flip_at.size, n)
        else:   # variants whose insert does more than set bits (counting) or that remap them
            fresh_at = np.flatnonzero(bitstore.test_bits(flt.bits, flat) == 0)
            flip_at = fresh_at[FirstIndex(flat[fresh_at], self._tables).first]
            flt.insert_positions(positions)
        flip_time = flip_at // k                       # the insert (row) that turns each flipped bit
        new_bits = np.bincount(flip_time, minlength=n).cumsum() + bits_before

        hit = np.flatnonzero(bitstore.test_bits(flt.bits, self._entry_pos)) if self._entry_pos.size else \
            np.zeros(0, np.int64)
        entry_time = times_of(self._entry_pos[hit], flat[flip_at], flip_time)
        hit_probe = self._entry_probe[hit]
        self._zeros -= np.bincount(hit_probe, minlength=len(self._probes))
        latest = np.full(len(self._probes), -1, dtype=np.int64)
        np.maximum.at(latest, hit_probe, entry_time)
        becomes_fp = (self._zeros == 0) & (latest >= 0)
        fp_after = np.bincount(latest[becomes_fp], minlength=n).cumsum() + self._fp
        if hit.size:
            keep = np.ones(self._entry_pos.size, dtype=bool)
            keep[hit] = False
            self._entry_pos = self._entry_pos[keep]
            self._entry_probe = self._entry_probe[keep]
        self._fp = int(fp_after[-1])
        return fp_after, new_bits


# --- vectorised theory and intervals (scalar forms live in theory.py) ------------------------------------
def wilson(hits: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    lo, hi = wilson_many(np.array([hits]), trials, z)
    return float(lo[0]), float(hi[0])


def wilson_many(hits: np.ndarray, trials: int, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
    hits = np.asarray(hits, dtype=float)
    if trials <= 0:
        return np.zeros_like(hits), np.ones_like(hits)
    p = hits / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * np.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def theory_many(m: int, k: int, n: np.ndarray) -> dict[str, np.ndarray]:
    """The exact rate, Bloom's classic formula, the approximation, the bound and the expected fill at each n."""
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore"):
        fill = -np.expm1(k * n * math.log1p(-1.0 / m)) if m > 1 else (n > 0).astype(float)
        classic = np.exp(k * np.log(fill)) if k else np.ones_like(n)
        approx = np.exp(k * np.log(-np.expm1(-k * n / m)))
        bound = np.exp(k * np.log(-np.expm1(-k * (n + 0.5) / (m - 1)))) if m > 1 else np.ones_like(n)
    exact = fp_exact_at(m, k, n) if n.size else np.zeros(0)
    return {"fp_exact": exact, "fp_classic": classic, "fp_approx": approx, "fp_bound": np.minimum(bound, 1.0),
            "fill_expected": fill}


def estimate_many(m: int, k: int, bits_set: np.ndarray) -> np.ndarray:
    x = np.asarray(bits_set, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(x >= m, np.inf, -(m / k) * np.log1p(-np.minimum(x, m - 0.5) / m))


# --- the series a plot draws ---------------------------------------------------------------------------
class Series:
    """Columnar, growable numpy arrays: one row per insert."""

    COLUMNS = ("n", "fp_measured", "fp_low", "fp_high", "fp_exact", "fp_approx", "fp_bound",
               "fill", "fill_expected", "n_estimated", "fp_classic")

    def __init__(self, capacity: int = 1024):
        self._len = 0
        self._data = {c: np.empty(max(capacity, 1), dtype=float) for c in self.COLUMNS}

    def __len__(self) -> int:
        return self._len

    def _reserve(self, extra: int) -> None:
        need = self._len + extra
        cap = len(self._data["n"])
        if need <= cap:
            return
        new_cap = max(need, cap * 2)
        for c, arr in self._data.items():
            grown = np.empty(new_cap, dtype=float)
            grown[: self._len] = arr[: self._len]
            self._data[c] = grown

    def append(self, **row: float) -> None:
        self.extend(**{c: np.array([v], dtype=float) for c, v in row.items()})

    def extend(self, **cols: np.ndarray) -> None:
        missing = set(self.COLUMNS) - set(cols)
        if missing:
            raise ValueError(f"missing columns: {sorted(missing)}")
        size = len(cols["n"])
        self._reserve(size)
        for c in self.COLUMNS:
            self._data[c][self._len: self._len + size] = cols[c]
        self._len += size

    def column(self, name: str) -> np.ndarray:
        if name not in self._data:
            raise KeyError(f"no column {name!r}; columns: {', '.join(self.COLUMNS)}")
        return self._data[name][: self._len]

    def row(self, i: int) -> dict[str, float]:
        return {c: float(self._data[c][i]) for c in self.COLUMNS}

    def truncate(self, rows: int) -> None:
        self._len = max(0, min(rows, self._len))

    def clear(self) -> None:
        self._len = 0

    def rows(self, every: int = 1) -> Iterator[dict[str, float]]:
        for i in range(every - 1, self._len, every):
            yield self.row(i)


def series_rows(m: int, k: int, n: np.ndarray, fp_counts: np.ndarray, probes: int,
                bits_set: np.ndarray) -> dict[str, np.ndarray]:
    n = np.asarray(n, dtype=float)
    fp_counts = np.asarray(fp_counts, dtype=float)
    lo, hi = wilson_many(fp_counts, probes)
    th = theory_many(m, k, n)
    return {"n": n, "fp_measured": fp_counts / probes if probes else np.zeros_like(n),
            "fp_low": lo, "fp_high": hi, "fp_exact": th["fp_exact"], "fp_approx": th["fp_approx"],
            "fp_bound": th["fp_bound"], "fill": np.asarray(bits_set, float) / m,
            "fill_expected": th["fill_expected"], "n_estimated": estimate_many(m, k, bits_set),
            "fp_classic": th["fp_classic"]}


class Cancelled(Exception):
    """Raised inside a run when its cancel callback says stop."""


class Simulation:
    """Insert n items into a fresh filter, measuring the false-positive rate exactly after every insert.

    Items are generated (core.generated_items: seeded, prefix ``i``, distinct by construction, made and hashed
    in numpy chunk by chunk, never all held) unless given; probes are generated with prefix ``p``, so they can
    never equal a generated item. Given items are held as a list and excluded from the probes explicitly.
    ``run(every=E)`` keeps a row every E inserts and the last one (88 bytes a row), so the memory of a run
    does not grow with n beyond its rows.
    """

    def __init__(self, m: int | None = None, k: int | None = None, n: int | None = None,
                 scheme: str = hashing.DEFAULT_SCHEME, probes: int = 10_000, seed: int = 0,
                 items: Sequence[object] | None = None, variant: str | None = None, flt=None, **params):
        if flt is None:
            flt = _build(variant, m, k, scheme, params)
        self.filter = flt
        if items is None:
            if n is None:
                raise ValueError("give n (how many random items) or items")
            self.items = GeneratedItems(n, seed=seed, prefix="i")
            probe_items = GeneratedItems(probes, seed=seed + 1_000_003, prefix="p").texts(0, probes)
        else:
            self.items = list(items)
            probe_items = random_items(probes, seed=seed + 1_000_003, prefix="p", exclude=self.items)
        self.tracker = FpTracker(flt, probe_items)
        self.series = Series(capacity=min(len(self.items), 1 << 16) + 1)

    def _positions(self, start: int, stop: int) -> np.ndarray:
        if isinstance(self.items, GeneratedItems):
            return generated_positions(self.filter, self.items, start, stop)
        return self.filter.positions_many(self.items[start:stop])

    def run(self, every: int = 1, chunk: int = 65_536,
            progress: Callable[[int, int], None] | None = None,
            cancel: Callable[[], bool] | None = None) -> Series:
        """Insert every item; the series gets the rows at n = every, 2·every, … and the last n."""
        if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
            raise ValueError(f"every must be a positive integer, got {every!r}")
        flt, tr = self.filter, self.tracker
        total = len(self.items)
        for start in range(0, total, chunk):
            if cancel is not None and cancel():
                raise Cancelled(f"cancelled after {start} of {total} items")
            stop = min(start + chunk, total)
            fp, bits = tr.insert_batch(self._positions(start, stop), flt)
            n = np.arange(start + 1, stop + 1)
            if every > 1:     # only the kept rows get theory and intervals computed
                keep = np.flatnonzero((n % every == 0) | (n == total))
                n, fp, bits = n[keep], fp[keep], bits[keep]
            self.series.extend(**series_rows(flt.m, flt.k, n, fp, tr.probe_count, bits))
            if progress is not None:
                progress(stop, total)
        return self.series

    def __iter__(self) -> Iterator[dict[str, float]]:
        if len(self.series) < len(self.items):
            self.run()
        return self.series.rows()


def _build(variant, m, k, scheme, params):
    if variant in (None, "standard"):
        from bloomviz.filters.standard import BloomFilter
        return BloomFilter(m, k, scheme=scheme)
    from bloomviz.filters.registry import make_filter
    return make_filter(variant, m=m, k=k, scheme=scheme, **params)
