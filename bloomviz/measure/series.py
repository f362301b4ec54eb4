"""The columns a plot draws and a CSV holds: one row per measured insert.

The columns (``COLUMNS``) and the one rule that makes them from what a row measured (``row_columns``: n, the
false-positive rate and the bits set give the interval, the fill, the estimate and the theory's rates).
Two holders have one way to be read (``column``, ``columns_at``, ``row``, ``rows``, ``len``):

- ``pipeline.MeasuredSeries``, the rows a measurement writes (the window's curve, ``Simulation``'s rows): it
  holds what was measured and computes the other columns by ``row_columns`` for the rows read. It lives beside
  the ``Measurement`` that writes it;
- ``Series`` here: columns given whole (a caller that computed its own rows, e.g. by ``series_rows``).

``columns_at`` reads either (or a plot's test double that has only ``column``).
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from bloomviz.theory.curves import estimate_many, theory_many
from bloomviz.theory.intervals import wilson_many

COLUMNS = ("n", "fp_measured", "fp_low", "fp_high", "fp_exact", "fp_approx", "fp_bound",
           "fill", "fill_expected", "n_estimated", "fp_classic")
_STANDARD_RATES = ("fp_exact", "fp_classic", "fp_approx", "fp_bound")
# What rows take their theory from (row_columns): the standard filter's formulas at m and k; the
# filter's own exact rate, given per row, with the other standard rates nan; or none (every rate nan: a
# filter with no single m and k).
STANDARD, OWN, NONE = "standard", "own", "none"


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
    only those rows (``points``: see ``pipeline.MeasuredSeries.columns_at``); one that holds only ``column`` (a
    plot's test double) is sliced."""
    own = getattr(series, "columns_at", None)
    if own is not None:
        return own(rows, names, points)
    return {name: series.column(name) if rows is None else series.column(name)[rows] for name in names}


def row_columns(names: Sequence[str], *, m: int, k: int, probes: int, n, rates, bits_set,
                theory: str = STANDARD, own=None, points: bool = False) -> dict[str, np.ndarray]:
    """The columns ``names`` of rows measured on a filter of ``m`` bits and ``k`` hashes over ``probes`` probes,
    from what each row measured: n, the false-positive rate (count / probes) and the bits set. The one rule for
    every holder of rows (``series_rows``; ``pipeline.MeasuredSeries`` for the rows it reads): the Wilson
    interval of the count (the rate times the probes, rounded once: each rate is count / probes rounded once, so
    this is the count for any probe count below 2^40), the fill and the estimated n from the bits set, and the
    rates from ``theory``: the standard filter's formulas at m and k (``STANDARD``), ``own`` (the filter's own
    exact rate at each row) with the other standard rates nan (``OWN``), or none (``NONE``). ``points``: the
    exact rate at these n alone (``theory.curves.theory_many``)."""
    n = np.asarray(n, dtype=float)
    want = set(names)
    out: dict[str, np.ndarray] = {}
    if "n" in want:
        out["n"] = n
    if "fp_measured" in want:
        out["fp_measured"] = rates
    if want & {"fp_low", "fp_high"}:
        counts = np.rint(np.asarray(rates) * probes) if probes else np.zeros(n.size)
        out["fp_low"], out["fp_high"] = wilson_many(counts, probes)
    if "fill" in want:
        out["fill"] = np.asarray(bits_set, dtype=float) / m
    if "n_estimated" in want:
        out["n_estimated"] = estimate_many(m, k, bits_set)
    if want & {"fill_expected", *_STANDARD_RATES}:
        th = theory_many(m, k, n, points)
        out["fill_expected"] = th["fill_expected"]
        for key in _STANDARD_RATES:
            out[key] = th[key] if theory == STANDARD else np.full(n.size, np.nan)
        if theory == OWN:
            out["fp_exact"] = own
    return out


def series_rows(m: int, k: int, n: np.ndarray, fp_counts: np.ndarray, probes: int,
                bits_set: np.ndarray) -> dict[str, np.ndarray]:
    """Every column of rows given as counts (n, false positives, bits set), by the standard filter's theory."""
    rates = np.asarray(fp_counts, dtype=float) / probes if probes else np.zeros(np.size(n))
    return row_columns(COLUMNS, m=m, k=k, probes=probes, n=n, rates=rates, bits_set=bits_set)
