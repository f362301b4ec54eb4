"""What the window accepts: items, m, k, schemes and designs, each refused with a message naming the limit.

Every size a user can type is checked here before anything is allocated.
"""

from __future__ import annotations

import math

import numpy as np

from bloomviz.hashing import schemes as hashing
# the check of one item is the encoding's, beside its size limit (64 KiB: an item is a word, a key, a URL, and a
# 10 MB paste a mistake, said so); the window's own checks take it from here
from bloomviz.items.encoding import MAX_ITEM_BYTES, ItemError, check_item  # noqa: F401
from bloomviz.filters.scalable import stage_spec
from bloomviz.theory import limits
from bloomviz.theory.rates import optimal_params
from bloomviz.theory.units import human_bytes

MIN_M = 8
MAX_M = limits.WINDOW_MAX_M     # the grid's range (theory/limits.py says why)
MAX_K = limits.MAX_K
DEFAULT_DESIGN = (200, 0.01)  # n, p: a grid of ~1,900 cells, large enough to see each bit
# The measurement's probes: each new filter draws and measures them, so their number is what every Apply
# costs. 10^6 probes froze each new filter for seconds; this keeps that under a few tenths of a second while
# the Wilson interval at that count is already far narrower than the plot's line.
MAX_PROBES = limits.WINDOW_MAX_PROBES


def check_m(m: object) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
        raise ValueError(f"m (bits) must be a whole number, got {m!r}")
    if not MIN_M <= int(m) <= MAX_M:
        raise ValueError(f"m (bits) must be between {MIN_M} and {MAX_M:,} in the window, got {int(m):,}")
    return int(m)


def check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"k (hash functions) must be a whole number, got {k!r}")
    if not 1 <= int(k) <= MAX_K:
        raise ValueError(f"k (hash functions) must be between 1 and {MAX_K}, got {int(k)}")
    return int(k)


def check_scheme(scheme: object) -> str:
    if not isinstance(scheme, str) or scheme not in hashing.SCHEMES:
        raise ValueError(f"unknown hash scheme {scheme!r}; known schemes: {', '.join(hashing.SCHEMES)}")
    return scheme


def design_params(n: object, p: object) -> tuple[int, int]:
    """(m, k) for n items at false-positive rate p: k = ceil(log2(1/p)), m = ceil(−n·ln p / (ln 2)²).

    Refused with a message when n or p is out of range or the design needs more bits than the grid shows.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < 1:
        raise ValueError(f"n (items to hold) must be a positive whole number, got {n!r}")
    if isinstance(p, bool) or not isinstance(p, (int, float, np.floating)) or not math.isfinite(p) \
            or not 0 < p < 1:
        raise ValueError(f"p (false-positive rate) must be a number strictly between 0 and 1, got {p!r}")
    k, m = optimal_params(int(n), float(p))
    k = min(int(k), MAX_K)
    m = int(m)
    if m > MAX_M:
        raise ValueError(f"{int(n):,} items at p = {p:g} need m = {m:,} bits, more than the window's "
                         f"{MAX_M:,}; ask for fewer items or a larger p")
    return max(m, MIN_M), k


def check_probes(probes: object, most: int = MAX_PROBES) -> int:
    """``most``: the window's limit, or a caller's own (a lesson's, whose budget counts its probes)."""
    if isinstance(probes, bool) or not isinstance(probes, int) or not 1 <= probes <= most:
        raise ValueError(f"probes must be a whole number from 1 to {most:,} (each new filter draws and "
                         f"measures them), got {probes!r}")
    return probes


# What an operation adds to what the window keeps (its budget: theory/limits.WINDOW_KEPT_BYTES): 4 bytes a
# position of each insert, and (operations.py counts them)
KEPT_PER_INSERT = 24        # an insert's row of the curve (n, rate, bits set) and its share of the grid's bookkeeping
KEPT_PER_TYPED_ITEM = 80    # a typed item kept as text (besides its bytes)
KEPT_PER_OPERATION = 200    # an operation's history entry


def memory_refusal(kept: int, inserts: int, budget: int) -> str:
    """Why ``inserts`` more inserts would take what the window keeps (``kept`` bytes now) past its ``budget``,
    and what to do instead."""
    budget = human_bytes(budget)
    return (f"the window keeps {human_bytes(kept)} for this filter (every insert's positions, the items, the "
            f"history and the curve), and {inserts:,} more inserts would take it past its budget of {budget}. "
            f"Save the session (File → Save: auto-played runs are kept as numbers), then start a new filter for "
            f"more (File → New session), or measure a run this large with 'bloomviz simulate', which keeps "
            f"nothing")


def check_growing(params: dict) -> None:
    """Refuse (ValueError) a growing (scalable) filter whose first stage alone is larger than the grid."""
    initial = params.get("initial_capacity")
    p = params.get("p")
    growth = params.get("growth", 2)
    tightening = params.get("tightening", 0.9)
    if isinstance(initial, bool) or not isinstance(initial, int) or initial < 1:
        raise ValueError(f"initial capacity must be a positive whole number, got {initial!r}")
    for name, value in (("p", p), ("tightening", tightening)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0 < value < 1:
            raise ValueError(f"{name} must be a number strictly between 0 and 1, got {value!r}")
    if isinstance(growth, bool) or not isinstance(growth, int) or growth < 2:
        raise ValueError(f"growth must be a whole number of at least 2, got {growth!r}")
    spec = stage_spec(initial, float(p), growth, float(tightening), 0)
    if spec.m > MAX_M:
        raise ValueError(f"a scalable filter with initial capacity {initial:,} at p = {p:g} starts with a stage "
                         f"of m = {spec.m:,} bits, more than the window's {MAX_M:,}; choose a smaller initial "
                         f"capacity or a larger p")


def scalable_m_after(flt, inserts: int) -> int:
    """The bits a scalable filter will have after ``inserts`` more items (stages it would open included)."""
    stages = flt.stages
    spec, held, m = stages.specs[-1], len(stages[-1]), flt.m
    while inserts > 0:
        room = spec.capacity - held
        if room <= 0:
            spec = stage_spec(flt.initial_capacity, flt.p, flt.growth, flt.tightening, spec.index + 1)
            m += spec.m
            held = 0
            if m > MAX_M:
                return m
            continue
        take = min(room, inserts)
        held += take
        inserts -= take
    return m


def growth_refusal(flt, inserts: int) -> str | None:
    """Why ``inserts`` more items cannot go into the scalable filter ``flt`` in the window, or None."""
    try:
        m = scalable_m_after(flt, inserts)
    except ValueError as exc:
        return str(exc)
    if m > MAX_M:
        return (f"the scalable filter would need a new stage and m = {m:,} bits in all, more than the window's "
                f"{MAX_M:,}")
    return None
