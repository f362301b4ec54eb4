"""Speed of the variants' batch paths, each against a peer measured in the same process; prints ratios.

1. Counting filter, batch insert of n items' positions: the sort-based count of positions
   (``counters.position_counts``) against ``np.unique(..., return_counts=True)``, the path it replaced
   (numpy 2.x answers np.unique through a hash table, far slower on millions of positions).
2. Counting, partitioned, blocked and scalable ``update`` against the standard filter's ``update`` on the same
   items.
3. The window's measurement of a scalable filter over a bulk insert: the exact stage-wise tracker
   (``variant_tracking.ScalableFpTracker``) against testing every probe after each chunk (the fallback it
   replaced).

Run: python benchmarks/bench_variants.py [--n 1000000]. The last line is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
import time

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bloomviz.core import BloomFilter

from bloomviz.filters import counters
from bloomviz.items.encoding import random_items, to_bytes_list
from bloomviz.filters.registry import make_filter


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def counting_counts(n: int, m: int, k: int) -> dict:
    rng = np.random.default_rng(1)
    flat = rng.integers(0, m, size=n * k, dtype=np.int64)
    t_unique = best_of(lambda: np.unique(flat, return_counts=True), 1)
    t_sort = best_of(lambda: counters.position_counts(flat, m))
    a, b = np.unique(flat, return_counts=True)
    c, d = counters.position_counts(flat, m)
    assert np.array_equal(a, c) and np.array_equal(b, d)
    return {"positions": flat.size, "unique_s": t_unique, "sort_s": t_sort, "speedup": t_unique / t_sort}


def updates(n: int, m: int, k: int) -> dict:
    items = random_items(n, seed=3)
    out = {}
    base = best_of(lambda: BloomFilter(m, k).update(items), 2)
    out["standard_s"] = base
    for variant, params in (("counting", {"m": m, "k": k}), ("partitioned", {"m": m, "k": k}),
                            ("blocked", {"m": m, "k": k}), ("scalable", {"initial_capacity": n // 8, "p": 0.01})):
        t = best_of(lambda: make_filter(variant, **params).update(items), 2)
        out[f"{variant}_s"] = t
        out[f"{variant}_vs_standard"] = t / base
    return out


def scalable_tracking(n: int, probes: int) -> dict:
    from bloomviz.measure.tracking import ScalableFpTracker
    items = random_items(n, seed=5)
    datas = to_bytes_list(items)
    probe_items = random_items(probes, seed=6, prefix="p")
    chunk = 8192

    def tracked():
        flt = make_filter("scalable", initial_capacity=max(1, n // 16), p=0.01)
        tr = ScalableFpTracker(flt, probe_items)
        for s in range(0, n, chunk):
            tr.insert_items(datas[s:s + chunk])
        return tr.fp_count

    def brute():
        flt = make_filter("scalable", initial_capacity=max(1, n // 16), p=0.01)
        fp = 0
        for s in range(0, n, chunk):
            flt.update(datas[s:s + chunk])
            fp = int(np.count_nonzero(flt.contains_many(probe_items)))
        return fp

    assert tracked() == brute()
    t_tr = best_of(tracked, 1)
    t_br = best_of(brute, 1)
    return {"items": n, "probes": probes, "tracker_s": t_tr, "per_chunk_probe_test_s": t_br,
            "speedup": t_br / t_tr}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    args = ap.parse_args()
    n = args.n
    m, k = int(n * 9.585), 7
    res = {"counting_counts": counting_counts(n, m, k), "update": updates(n, m, k),
           "scalable_tracking": scalable_tracking(min(n, 200_000), 10_000)}
    c = res["counting_counts"]
    print(f"counting: count {c['positions']:,} positions: np.unique {c['unique_s']:.3f} s, "
          f"sort {c['sort_s']:.3f} s -> {c['speedup']:.1f}x faster")
    u = res["update"]
    print(f"update of {n:,} items, standard {u['standard_s']:.3f} s; ratio to standard:")
    for v in ("counting", "partitioned", "blocked", "scalable"):
        print(f"  {v:12s} {u[v + '_s']:.3f} s  ({u[v + '_vs_standard']:.2f}x)")
    s = res["scalable_tracking"]
    print(f"scalable measurement over {s['items']:,} inserts in chunks, {s['probes']:,} probes: exact tracker "
          f"{s['tracker_s']:.3f} s, testing all probes per chunk {s['per_chunk_probe_test_s']:.3f} s "
          f"-> {s['speedup']:.1f}x")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
