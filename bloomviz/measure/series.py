"""The columns a plot draws and a CSV holds: one row per measured insert, grown in place.

``series_rows`` turns a measurement's counts (n, false positives, bits set) into the row columns: the measured
rate with its Wilson interval, the standard filter's theory at the same n, the fill and the estimated n.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from bloomviz.theory.curves import estimate_many, theory_many
from bloomviz.theory.intervals import wilson_many


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
