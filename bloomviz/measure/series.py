"""The columns a plot draws and a CSV holds: one row per measured insert.

Two holders with one way to read them (``column``, ``columns_at``, ``row``, ``rows``, ``len``):

- ``MeasuredSeries``, what a measurement appends to (``Simulation``, the window's model): it holds what was
  measured at each row (n, the false-positive rate, the bits set: 24 bytes a row; the count is the rate times
  the probes, exactly, when an interval needs it) and computes the
  other columns (the Wilson interval, the standard filter's theory at that n, the fill and the estimated n)
  for the rows that are read: drawn, kept or written. Computing them for every insert cost 200-380 ns an
  insert, about 30 % of a measured run, although a plot draws a few rows per pixel. Each value is the one
  ``series_rows`` gives for that row (the same functions over the same numbers, element by element).
- ``Series``: columns given whole (a caller that computed its own rows).

``series_rows`` turns a measurement's counts (n, false positives, bits set) into the row columns.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from bloomviz.theory.curves import estimate_many, theory_many
from bloomviz.theory.intervals import wilson_many

COLUMNS = ("n", "fp_measured", "fp_low", "fp_high", "fp_exact", "fp_approx", "fp_bound",
           "fill", "fill_expected", "n_estimated", "fp_classic")
_STANDARD_RATES = ("fp_exact", "fp_classic", "fp_approx", "fp_bound")
# What the rows of a MeasuredSeries take their theory from: the standard filter's formulas at m and k; the
# filter's own exact rate, given per row, with the other standard rates nan; or none (every rate nan: a
# filter with no single m and k).
STANDARD, OWN, NONE = "standard", "own", "none"
ROWS_PER_BLOCK = 1 << 16     # rows(): computed a block at a time


class Series:
    """Columnar, growable numpy arrays: one row per insert."""

    COLUMNS = COLUMNS

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

    def columns_at(self, rows, names: Sequence[str] = COLUMNS, points: bool = False) -> dict[str, np.ndarray]:
        return {name: self.column(name)[rows] for name in names}

    def row(self, i: int) -> dict[str, float]:
        return {c: float(self._data[c][i]) for c in self.COLUMNS}

    def truncate(self, rows: int) -> None:
        self._len = max(0, min(rows, self._len))

    def clear(self) -> None:
        self._len = 0

    def rows(self, every: int = 1) -> Iterator[dict[str, float]]:
        for i in range(every - 1, self._len, every):
            yield self.row(i)


def columns_at(series, rows, names: Sequence[str], points: bool = False) -> dict[str, np.ndarray]:
    """``names`` at ``rows`` (indices; None: every row) of any series: one that computes its columns computes
    only those rows (``points``: see ``MeasuredSeries.columns_at``); one that holds only ``column`` (a plot's
    test double) is sliced."""
    own = getattr(series, "columns_at", None)
    if own is not None:
        return own(rows, names, points)
    return {name: series.column(name) if rows is None else series.column(name)[rows] for name in names}


class MeasuredSeries:
    """One row per measured insert: the measured numbers held, the rest computed for the rows read.

    ``add(n, fp, bits_set, m=, k=, probes=)`` appends rows; ``theory`` says what their rates come from
    (``STANDARD``, ``OWN`` with ``own`` the filter's exact rate at each row, or ``NONE``). Rows added with the
    same m, k, probe count and theory share one stretch, so a column is computed per stretch.
    """

    COLUMNS = COLUMNS
    _HELD = ("n", "fp_measured", "bits_set", "own")

    def __init__(self, capacity: int = 1024):
        self._len = 0
        self._cap = max(int(capacity), 1)
        self._held = {c: np.empty(self._cap, dtype=float) for c in self._HELD if c != "own"}
        self._starts: list[int] = []        # the first row of each stretch
        self._params: list[tuple] = []      # its (m, k, probes, theory)

    def __len__(self) -> int:
        return self._len

    @property
    def nbytes(self) -> int:
        """The bytes of the rows held."""
        return self._len * 8 * len(self._held)

    def reserve(self, extra: int) -> None:
        """Room for ``extra`` more rows, made now (one copy) rather than by doublings during a long run."""
        need = self._len + int(extra)
        if need > self._cap:
            self._grow(need)

    def _grow(self, capacity: int) -> None:
        for c, arr in self._held.items():
            grown = np.empty(capacity, dtype=float)
            grown[: self._len] = arr[: self._len]
            self._held[c] = grown
        self._cap = capacity

    def add(self, n, fp, bits_set, *, m: int, k: int, probes: int, theory: str = STANDARD, own=None) -> None:
        if theory not in (STANDARD, OWN, NONE):
            raise ValueError(f"theory must be {STANDARD!r}, {OWN!r} or {NONE!r}, got {theory!r}")
        if (theory == OWN) != (own is not None):
            raise ValueError("the filter's own rates are given exactly when theory is 'own'")
        n = np.asarray(n)
        size = n.size
        if size == 0:
            return
        if self._len + size > self._cap:
            self._grow(max(self._len + size, 2 * self._cap))
        if own is not None and "own" not in self._held:
            self._held["own"] = np.full(self._cap, np.nan)
        at = slice(self._len, self._len + size)
        held = self._held
        held["n"][at] = n
        # the count is not held: the rate times the probes gives it back exactly (_counts); a fourth column
        # written for every insert cost about 5 ns an insert of the model's auto-play (its pages faulted in)
        if probes:
            np.divide(fp, probes, out=held["fp_measured"][at], casting="unsafe")
        else:
            held["fp_measured"][at] = 0.0
        held["bits_set"][at] = bits_set
        if own is not None:
            held["own"][at] = own
        params = (int(m), int(k), int(probes), theory)
        if not self._params or self._params[-1] != params:
            self._starts.append(self._len)
            self._params.append(params)
        self._len += size

    # --- reading ------------------------------------------------------------------------------------------
    def column(self, name: str) -> np.ndarray:
        """A whole column (a view for the held ones, n and fp_measured; computed for every row otherwise)."""
        if name in ("n", "fp_measured"):
            return self._held[name][: self._len]
        return self.columns_at(None, (name,))[name]

    def columns_at(self, rows, names: Sequence[str] = COLUMNS, points: bool = False) -> dict[str, np.ndarray]:
        """The columns ``names`` at ``rows`` (indices into the series; None: every row). ``points``: the exact
        rate computed at these rows' n alone, never through a longer cached curve (a plot's few rows spread over
        10^7 inserts; theory.exact_rate.fp_exact_points), equal to the curve's within ~1e-13 relative."""
        for name in names:
            if name not in COLUMNS:
                raise KeyError(f"no column {name!r}; columns: {', '.join(COLUMNS)}")
        rows = np.arange(self._len) if rows is None else np.asarray(rows, dtype=np.int64).reshape(-1)
        if rows.size and (rows.min() < -self._len or rows.max() >= self._len):
            raise IndexError(f"row index out of range for a series of {self._len} rows")
        rows = np.where(rows < 0, rows + self._len, rows)
        out = {name: np.empty(rows.size) for name in names}
        if not rows.size:
            return out
        stretch = np.searchsorted(np.asarray(self._starts), rows, side="right") - 1
        for s in np.unique(stretch):
            pick = rows if len(self._starts) == 1 else rows[stretch == s]
            values = self._compute(self._params[s], pick, names, points)
            for name in names:
                if len(self._starts) == 1:
                    out[name] = values[name]
                else:
                    out[name][stretch == s] = values[name]
        return out

    def _counts(self, rows: np.ndarray, probes: int) -> np.ndarray:
        """The false-positive counts at ``rows``: each rate is count / probes rounded once, so rate * probes is
        within far less than 0.5 of the count for any probe count below 2^40."""
        if not probes:
            return np.zeros(rows.size)
        return np.rint(self._held["fp_measured"][rows] * probes)

    def _compute(self, params: tuple, rows: np.ndarray, names: Sequence[str], points: bool) -> dict[str, np.ndarray]:
        m, k, probes, theory = params
        held = self._held
        n = held["n"][rows]
        want = set(names)
        out: dict[str, np.ndarray] = {}
        if "n" in want:
            out["n"] = n
        if "fp_measured" in want:
            out["fp_measured"] = held["fp_measured"][rows]
        if want & {"fp_low", "fp_high"}:
            out["fp_low"], out["fp_high"] = wilson_many(self._counts(rows, probes), probes)
        bits = held["bits_set"][rows]
        if "fill" in want:
            out["fill"] = bits / m
        if "n_estimated" in want:
            out["n_estimated"] = estimate_many(m, k, bits)
        if want & {"fill_expected", *_STANDARD_RATES}:
            th = theory_many(m, k, n, points)
            out["fill_expected"] = th["fill_expected"]
            for key in _STANDARD_RATES:
                out[key] = th[key] if theory == STANDARD else np.full(n.size, np.nan)
            if theory == OWN:
                out["fp_exact"] = held["own"][rows]
        return out

    def row(self, i: int) -> dict[str, float]:
        values = self.columns_at([i])
        return {c: float(values[c][0]) for c in COLUMNS}

    def rows(self, every: int = 1) -> Iterator[dict[str, float]]:
        for start in range(every - 1, self._len, ROWS_PER_BLOCK * every):
            idx = np.arange(start, min(self._len, start + ROWS_PER_BLOCK * every), every)
            values = self.columns_at(idx)
            for j in range(idx.size):
                yield {c: float(values[c][j]) for c in COLUMNS}

    def truncate(self, rows: int) -> None:
        self._len = max(0, min(rows, self._len))
        while self._starts and self._starts[-1] >= self._len:
            self._starts.pop()
            self._params.pop()

    def clear(self) -> None:
        self.truncate(0)


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
