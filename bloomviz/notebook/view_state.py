"""What the notebook widget shows, as plain JSON-able values built from the window's model and its records.

The model (``bloomviz.workbench.Workbench``) makes every operation and its frozen record; the words are the
window's own (``bloomviz.explain.operations``: the verdict's headline and sentence, the cells' kinds); this module
only lays them out for the browser: the grid's cells, the lit cells with their kinds, the rate line and the
plot's points. No Qt, no anywidget: the widget (``widget.py``) copies these values into its synced traits.
"""

from __future__ import annotations

import math

import numpy as np

from bloomviz.explain.operations import KIND_WORDS, explain
from bloomviz.items.encoding import describe
from bloomviz.measure.series import columns_at
from bloomviz.theory.units import percent_text, rate_text

MAX_CELLS = 4096      # cells drawn one by one; a larger filter is drawn in bins of several bits (their fill)
MAX_PLOT_POINTS = 200


def bits_per_cell(m: int) -> int:
    return max(1, math.ceil(m / MAX_CELLS))


def grid_cells(workbench) -> list[int]:
    """One value per cell: the bit (0/1), a counting filter's counter, or, in bins, the percent of bits set."""
    values = np.asarray(workbench.grid_values())
    per = bits_per_cell(values.size)
    if per == 1:
        return values.astype(int).tolist()
    pad = (-values.size) % per
    binned = np.concatenate([values != 0, np.zeros(pad, dtype=bool)]).reshape(-1, per)
    real = np.full(binned.shape[0], per)
    real[-1] = per - pad
    return np.round(100 * binned.sum(axis=1) / real).astype(int).tolist()


def columns(cells: int) -> int:
    """About a square, 8 to 64 cells wide."""
    return int(min(64, max(8, math.ceil(math.sqrt(cells)))))


def lit_cells(record, m: int) -> list[list]:
    """[[cell, kind, words], ...] of the last operation's highlighted positions (cells of bins when binned)."""
    if record is None or not getattr(record, "highlight", ()):
        return []
    per = bits_per_cell(m)
    return [[int(p) // per, kind, KIND_WORDS.get(kind, kind)] for p, kind in zip(record.highlight, record.kinds)]


def rate_line(nums) -> str:
    measured = (f"measured {rate_text(nums.fp_measured)} ({nums.fp_count:,} of {nums.probes:,} non-members pass; "
                f"95 % interval {rate_text(nums.fp_low)} – {rate_text(nums.fp_high)})")
    if nums.after_removals:
        # a counting filter after a forced removal: n inserts no longer describe it; its counters do
        return (f"{measured} · for n inserts, no removals {rate_text(nums.fp_exact)}; its counters give "
                f"{rate_text(nums.fp_now)}")
    if nums.own_theory:   # slices, blocks, stages: the standard formula would describe another filter
        return f"{measured} · exact {rate_text(nums.fp_own)} for this filter's own layout" \
            if nums.fp_own == nums.fp_own else measured
    return f"{measured} · exact {rate_text(nums.fp_exact)} for independent positions"


def fill_line(nums) -> str:
    return (f"m = {nums.m:,} bits, k = {nums.k}, n = {nums.n:,} inserts; {nums.bits_set:,} bits set "
            f"(fill {percent_text(nums.fill)})")


def plot_points(workbench) -> list[list[float]]:
    """[[n, measured, exact], ...], at most MAX_PLOT_POINTS rows spread over the series."""
    series = workbench.series
    rows = len(series)
    if not rows:
        return []
    idx = np.unique(np.linspace(0, rows - 1, min(rows, MAX_PLOT_POINTS)).round().astype(int))
    cols = columns_at(series, idx, ("n", "fp_measured", "fp_exact"), points=True)
    n, measured, exact = (np.asarray(cols[c]) for c in ("n", "fp_measured", "fp_exact"))
    return [[float(a), float(b), float(c)] for a, b, c in zip(n, measured, exact)]


def plot_line(points: list[list[float]]) -> str:
    if len(points) < 2:
        return ""
    top = max(max(p[1], p[2]) for p in points)
    return (f"the rate against n = 0 … {points[-1][0]:,.0f}: measured (blue) and exact (grey, dashed); "
            f"the plot's top is {rate_text(top)}")


def verdict_part(record, state) -> dict:
    """The verdict of the last operation in the window's words (``explain``), and its culprits."""
    expl = explain(record, state)
    if expl is None or not expl.verdict:
        return {"verdict": "", "headline": "", "verdict_text": expl.verdict_text if expl else "",
                "label": "", "culprits": []}
    culprits = [{"bit": int(p), "items": [describe(x, 40) for x in names], "total": int(total)}
                for p, (names, total) in expl.culprits.items()]
    return {"verdict": expl.verdict, "headline": expl.headline or expl.verdict.upper(),
            "verdict_text": expl.verdict_text, "label": expl.label, "culprits": culprits}


def view_state(workbench) -> dict:
    """Every value the widget syncs, from the model as it is now."""
    nums = workbench.numbers()
    record = workbench.last_record
    cells = grid_cells(workbench)
    return {"m": nums.m, "k": nums.k, "n": nums.n, "cells": cells, "cols": columns(len(cells)),
            "bits_per_cell": bits_per_cell(nums.m), "lit": lit_cells(record, nums.m),
            "fill_line": fill_line(nums), "rate_line": rate_line(nums),
            "rates": {"measured": nums.fp_measured, "low": nums.fp_low, "high": nums.fp_high,
                      "exact": nums.fp_exact, "fill": nums.fill},
            "plot": (points := plot_points(workbench)), "plot_line": plot_line(points),
            **verdict_part(record, workbench.state)}
