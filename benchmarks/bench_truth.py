"""What the truth about the false-positive rate costs, measured in one process.

    python benchmarks/bench_truth.py [--n N] [--repeat R]

- the exact curve: theory.fp_exact_curve for every n up to 10^6 at m = 9,585,059, k = 7 (the goal: under
  0.5 s), beside Bloom's classic formula vectorised over the same n (the floor any curve costs);
- one exact value at the largest sizes (m = 2^34, k = 64, n = 10^10);
- batch insert with the default scheme (murmur3-mix) against murmur3-km, the scheme it replaced: the same
  N distinct str items, BloomFilter.update, best of R runs each, alternating so drift hits both alike.

Prints a table and, last, one JSON line with the figures and the machine's load average.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from bloomviz.core import BloomFilter  # noqa: E402

from bloomviz.theory import rates as theory
from bloomviz.theory.exact_rate import fp_exact_curve, log_fp_exact_kernel  # noqa: E402
from bloomviz.items.encoding import random_items  # noqa: E402


def best_of(repeat: int, fn) -> float:
    best = math.inf
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def classic_curve(m: int, k: int, n_max: int) -> np.ndarray:
    n = np.arange(n_max + 1, dtype=np.float64)
    return (-np.expm1(k * n * math.log1p(-1.0 / m))) ** k


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="items for the insert benchmark")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    m, k, n_max = 9_585_059, 7, 1_000_000
    exact_s = best_of(args.repeat, lambda: fp_exact_curve(m, k, n_max))
    classic_s = best_of(args.repeat, lambda: classic_curve(m, k, n_max))
    # the kernel keeps a cache of single values; time the uncached computation
    single_s = best_of(args.repeat, lambda: log_fp_exact_kernel(2 ** 34, 64, 10 ** 10))

    items = random_items(args.n, seed=7, prefix="item-")
    m_ins, k_ins = theory.optimal_params(args.n, 0.01)[1], theory.optimal_params(args.n, 0.01)[0]
    times: dict[str, float] = {"murmur3-mix": math.inf, "murmur3-km": math.inf}
    for _ in range(args.repeat):
        for scheme in times:
            flt = BloomFilter(m_ins, k_ins, scheme=scheme)
            gc.collect()
            start = time.perf_counter()
            flt.update(items)
            times[scheme] = min(times[scheme], time.perf_counter() - start)

    rows = [
        ("exact curve, n = 0…10^6 (m = 9,585,059, k = 7)", f"{exact_s * 1e3:8.1f} ms", "goal < 500 ms"),
        ("classic formula, same n (vectorised floor)", f"{classic_s * 1e3:8.1f} ms",
         f"exact / classic = {exact_s / classic_s:.1f}x"),
        ("one exact value, m = 2^34, k = 64, n = 10^10", f"{single_s * 1e3:8.2f} ms", ""),
        (f"update {args.n:,} items, murmur3-mix (default)", f"{times['murmur3-mix']:8.3f} s",
         f"{args.n / times['murmur3-mix'] / 1e6:.2f} M items/s"),
        (f"update {args.n:,} items, murmur3-km", f"{times['murmur3-km']:8.3f} s",
         f"mix / km time = {times['murmur3-mix'] / times['murmur3-km']:.3f}"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value}  {note}")
    print(json.dumps({"exact_curve_s": exact_s, "classic_curve_s": classic_s, "exact_single_s": single_s,
                      "update_mix_s": times["murmur3-mix"], "update_km_s": times["murmur3-km"],
                      "mix_over_km": times["murmur3-mix"] / times["murmur3-km"], "n": args.n,
                      "load_average": os.getloadavg()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
