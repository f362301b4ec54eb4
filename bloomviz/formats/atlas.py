"""The atlas: one file holding many filters (a git commit-graph has one per commit, a table one per data
block, a Parquet file one per column chunk), summarised as distributions rather than one block per filter.

Per filter the numbers are the ones a single filter gets (``ForeignFilter.summary``): m, k, bits set, fill,
the estimated number of entries from the fill and the rate that fill predicts for a never-inserted item.
Over the file: how many filters, the spread of each number (min, 10th percentile, median, 90th percentile,
max), the filters past their design load and the bytes the filters take against the file.

"Past the design load" is what the file says when it says (``past_design_known``: git sizes every filter for
exactly the paths it holds, so only its all-ones filters are past it); else it uses what the writer aimed for when the file or the reader knows it (a filter's
``design_fp``: its rate at this fill is over 1.25 times it; or ``design_n``: over 1.25 times the entries it
was sized for, estimated; the margin keeps the noise of a fill from counting); a filter with neither is counted past its load when more than half its bits are set, the fill at which
its k stops being the best k for its m and n (k = (m/n) ln 2 gives a fill of exactly 1/2).

Qt-free: the CLI and the window's Foreign view both draw from ``summarise``.
"""

from __future__ import annotations

import math
import os

import numpy as np

QUANTILES = (("min", 0.0), ("p10", 0.10), ("median", 0.50), ("p90", 0.90), ("max", 1.0))
HALF_FILL = 0.5
# how far past its design a filter must be to be counted: the fill of a filter of m bits wanders by about
# sqrt(fill (1 - fill) / m), so its rate by k times that relatively (~3 % at m = 20,000, k = 4); a filter read
# as past its design should be clearly so, not by the noise of its own fill or the rounding of its size
PAST_MARGIN = 1.25
METRICS = {"fill": "fill (bits set / m)", "expected_fp": "rate predicted from the fill",
           "estimated_n": "estimated entries", "m": "bits per filter"}


def spread(values) -> dict | None:
    """min / p10 / median / p90 / max (and the mean) of the finite values, or None when there are none."""
    arr = np.asarray([v for v in values if v is not None and math.isfinite(v)], dtype=float)
    if arr.size == 0:
        return None
    out = {name: float(np.quantile(arr, q)) for name, q in QUANTILES}   # linear between order statistics
    out["mean"] = float(arr.mean())
    return out


def past_design(summary: dict) -> tuple[bool, str]:
    """(is this filter past its design load, the rule that said so)."""
    if summary.get("past_design_known") is not None:
        over, rule = summary["past_design_known"]
        return bool(over), str(rule)
    if summary.get("design_fp") is not None:
        return (summary["expected_fp"] > PAST_MARGIN * summary["design_fp"],
                "rate at this fill over 1.25x the rate it was sized for")
    if summary.get("design_n") is not None:
        est = summary["estimated_n"]
        return (est is None or est > PAST_MARGIN * summary["design_n"]), \
            "over 1.25x the entries it was sized for (estimated)"
    return summary["fill"] > HALF_FILL, "more than half its bits set (its k is past the best k for its load)"


def summarise(summaries: list[dict], file_bytes: int | None = None, files: int | None = None) -> dict:
    """The atlas of a file's filters, from their ``summary()`` dicts (in file order); ``files``: for a folder,
    how many files its filters came from (``file_bytes`` is then their sum)."""
    ms = [s["m"] for s in summaries]
    est = [s["estimated_n"] for s in summaries]
    rules: dict[str, int] = {}
    past = []
    for i, s in enumerate(summaries):
        over, rule = past_design(s)
        if over:
            past.append(i)
            rules[rule] = rules.get(rule, 0) + 1
    filter_bytes = sum((m + 7) // 8 for m in ms)
    saturated = sum(1 for e in est if e is None)
    return {
        "filters": len(summaries),
        "k_values": sorted({s["k"] for s in summaries}),
        "m": spread(ms), "bits_set": spread([s["bits_set"] for s in summaries]),
        "fill": spread([s["fill"] for s in summaries]),
        "estimated_n": spread(est), "saturated": saturated,
        "expected_fp": spread([s["expected_fp"] for s in summaries]),
        "total_estimated_n": float(sum(e for e in est if e is not None)),
        "past_design": len(past), "past_design_first": past[:20], "past_design_rules": rules,
        "filter_bytes": filter_bytes, "file_bytes": file_bytes,
        "filter_share": (filter_bytes / file_bytes) if file_bytes else None,
        **({"source_files": files} if files is not None else {}),
        # what "sized for" rests on where the file does not say (Parquet's fpp), once per distinct basis
        **({"design_basis": bases} if (bases := sorted({s["design_basis"] for s in summaries
                                                        if s.get("design_basis")})) else {}),
    }


def histogram(summaries: list[dict], metric: str = "fill", bins: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """(counts, edges) of one metric over the filters; rates on a log10 axis (they span decades)."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; known: {', '.join(METRICS)}")
    values = np.asarray([s[metric] for s in summaries if s[metric] is not None and math.isfinite(s[metric])],
                        dtype=float)
    if metric == "expected_fp":
        values = np.log10(np.clip(values, 1e-300, None))
    if values.size == 0:
        return np.zeros(bins, dtype=int), np.linspace(0.0, 1.0, bins + 1)
    lo, hi = float(values.min()), float(values.max())
    if hi - lo < 1e-9:
        pad = 0.05 if metric in ("fill", "expected_fp") else max(0.5, abs(lo) * 0.05)
        lo, hi = lo - pad, hi + pad
    return np.histogram(values, bins=bins, range=(lo, hi))


def bin_of(value: float, edges: np.ndarray, metric: str) -> int:
    """The histogram bin that ``value`` (in the metric's own units) falls in."""
    if metric == "expected_fp":
        value = math.log10(max(value, 1e-300))
    i = int(np.searchsorted(edges, value, side="right")) - 1
    return min(max(i, 0), len(edges) - 2)


def source_files(path, summaries: list[dict]) -> list[str] | None:
    """The files a folder's filters came from (git's commit-graph files, a database's tables), as the reader
    recorded them in ``fields["file"]`` or ``fields["table"]``; None when ``path`` is a file."""
    if not os.path.isdir(path):
        return None
    return sorted({name for s in summaries for name in [s.get("fields", {}).get("file", s.get("fields", {}).get("table"))]
                   if isinstance(name, str)})


def path_bytes(path, summaries: list[dict]) -> int | None:
    """The bytes the filters are set against: the file's size; for a directory (a repository, a database),
    the sizes of the files the filters came from when the reader recorded them in ``fields["file"]`` (or
    ``fields["table"]``)."""
    if not os.path.isdir(path):
        return os.path.getsize(path)
    # git records the file a filter came from as "file"; LevelDB and RocksDB name each filter's "table"
    files = source_files(path, summaries) or ()
    total = 0
    for name in files:
        full = name if os.path.isabs(name) else os.path.join(path, name)
        try:
            total += os.path.getsize(full)
        except OSError:
            return None
    return total or None
