"""How big each stage of a scalable filter is, and the false-positive rate its stages add up to.

Stage i of a filter with initial capacity n₀, bound p, growth s and tightening r holds n₀·s^i items at error
p₀·r^i (p₀ = p·(1 − r)); ``stage_spec`` sizes it so that its exact rate at capacity is within that error, and
``scalable_fp`` is the rate of the whole filter after n inserts. Pure arithmetic: nothing here allocates a
stage, so a window can check a stage's size before a filter is built (see scalable.py for the filter).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bloomviz.theory.exact_rate import fp_exact_at, fp_exact_kernel
from bloomviz.theory.rates import optimal_params, smallest_m
from bloomviz.theory.validate import MAX_K, MAX_M

STAGE_RECORD = struct.Struct("<QBQ")  # a saved stage: m_i, k_i, inserts in stage i (17 bytes)


def _fp_classic(m: int, k: int, n) -> np.ndarray | float:
    """(1 − (1 − 1/m)^{kn})^k via expm1/log1p (vectorised over n): a lower bound of the exact rate."""
    return (-np.expm1(k * np.asarray(n, dtype=np.float64) * math.log1p(-1.0 / m))) ** k


@dataclass(frozen=True)
class StageSpec:
    index: int
    capacity: int
    error: float
    m: int
    k: int
    start: int  # the insert count at which the stage opens: the capacities of the stages before it


@lru_cache(maxsize=4096)
def stage_spec(initial_capacity: int, p: float, growth: int, tightening: float, index: int) -> StageSpec:
    """The size of stage ``index``: k = ceil(log2(1/error)) and the smallest m whose *exact* rate at the stage's
    capacity is within its budget error = p(1 - r)r^i, so the compound rate never exceeds p however small the
    first stage (sized by the classic formula, a stage of capacity 1 at p = 0.01 gave 1.03 p after 3 items).
    Raises ValueError when the stage would exceed m ≤ 2^34 or k ≤ 64."""
    capacity = initial_capacity * growth ** index
    error = p * (1 - tightening) * tightening ** index
    start = initial_capacity * (growth ** index - 1) // (growth - 1)
    k, m = optimal_params(capacity, error)
    if k > MAX_K:
        raise ValueError(f"the scalable filter cannot add stage {index}: its error {error:.3g} needs k={k} "
                         f"hash functions (the limit is {MAX_K})")
    if m <= MAX_M:
        root = error ** (1.0 / k)
        need = math.ceil(1.0 / -math.expm1(math.log1p(-root) / (k * capacity))) if root < 1 else 1
        m = max(m, need)
        while float(_fp_classic(m, k, capacity)) > error:  # guards the float rounding of the closed form
            m += 1
        if m <= MAX_M:   # the classic m is a lower bound of the exact one
            m = smallest_m(k, capacity, error, lowest=m) or MAX_M + 1
    if m > MAX_M:
        raise ValueError(f"the scalable filter cannot add stage {index}: capacity {capacity} at error "
                         f"{error:.3g} needs m={m} bits (the limit is 2^34 = {MAX_M})")
    return StageSpec(index, capacity, error, int(m), int(k), start)


def scalable_fp(initial_capacity: int, p: float, n, growth: int = 2, tightening: float = 0.9):
    """The expected false-positive rate after n inserts (scalar or array): 1 − Π_i (1 − FP_i(n_i)), where
    n_i is the load of stage i after n inserts and FP_i the exact standard-filter rate of that stage (stages are
    independent filters, so the product is exact too)."""
    n_arr = np.asarray(n, dtype=np.float64)
    miss = np.ones_like(n_arr)
    top = float(n_arr.max()) if n_arr.size else 0.0
    i = 0
    while True:
        # the stage's start before its size: a filter in its last possible stage has no next one to size
        # (stage_spec raises past k = 64 or m = 2^34), and no row reaches that stage's start
        if i > 0 and initial_capacity * (growth ** i - 1) // (growth - 1) >= top:
            break
        spec = stage_spec(initial_capacity, p, growth, tightening, i)
        load = np.clip(n_arr - spec.start, 0, spec.capacity)
        if load.size and float(load.min()) == spec.capacity:      # a full stage: one cached value
            miss *= 1.0 - fp_exact_kernel(spec.m, spec.k, spec.capacity)
        else:
            miss *= 1.0 - fp_exact_at(spec.m, spec.k, load)
        i += 1
    out = 1.0 - miss
    return float(out) if out.ndim == 0 else out
