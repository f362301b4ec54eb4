"""The measurement pipeline's seeded items hashed from numpy words, against the string path each replaced;
prints ratios measured in one process (the median of R runs, the two paths alternating: on a shared machine
the median moves less than the best).

1. Items: ``random_items(n)`` then ``positions_many`` of the strings (what compare and explore did) against
   ``streams.drawn_items(n)`` (the same strings, as numbers) hashed by ``filters.generated_positions.positions``; checked equal.
2. A Compare run (the lesson preset's four schemes at m = 14.4 n, k = 10, 20,000 probes): the old lane loop
   (random_items, positions_many per lane, FpTracker.insert_batch) against ``Comparison.run``; the final
   counts are checked equal.
3. The explorer's k sweep (KMeasurement, k = 1..12): the old loop (random_items, positions_many per k,
   insert_positions, probes tested at the end) against today's, which steps a Measurement per k; the hits
   are checked equal.
   Both are mostly the exact tracker's work, the same in both; two of the preset's schemes have no numpy path
   and are hashed from text, made once per step for all lanes.
4. Memory held by the items of a run: a list of random_items strings against DrawnItems (tracemalloc).
5. The live exact curve end to end against a bare insert of the same items (issue 23: goal <= 2x), each per
   item in this thread's CPU time (time.thread_time), the runs of a round in rotating order, R rounds, the
   median and range of each round's ratio: ``Simulation.run(every=1)`` of N generated items and the window's
   model (``workbench.model.Workbench``, no Qt, made before the timing as the window's is; its new filter and
   probes timed) auto-playing the same items as its job does (``GeneratedRun`` chunks sized by ``step_job``),
   against those items hashed from their numbers and set in a plain ``BloomFilter`` (what both do before
   measuring); and ``Simulation`` given N str items (probes drawn to
   avoid them) against ``BloomFilter.update`` of the list. m = 9,585,059, k = 7 (the 1 % design for 10^6).

Run: python benchmarks/bench_pipeline.py [--n 1000000] [--repeat 5] [--live-only]. The last line is one JSON
object.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bloomviz.filters.rows import insert_rows, test_rows  # noqa: E402
from bloomviz.filters.standard import BloomFilter  # noqa: E402
from bloomviz.items.encoding import random_items  # noqa: E402
from bloomviz.filters.generated_positions import positions  # noqa: E402
from bloomviz.measure.fp_tracker import FpTracker  # noqa: E402
from bloomviz.measure.streams import PROBE_SEED_OFFSET, drawn_items  # noqa: E402
from bloomviz.studies import compare, explore  # noqa: E402
from bloomviz.items.generated import GeneratedItems, GeneratedRun  # noqa: E402
from bloomviz.measure.experiment import Simulation  # noqa: E402
from bloomviz.workbench.model import Workbench  # noqa: E402

LIVE_M, LIVE_K = 9_585_059, 7
CHUNK = 65_536


def median_pair(old, new, repeat: int) -> tuple[float, float]:
    """Median time of each, the two alternating so that neither gets a quieter machine."""
    t_old, t_new = [], []
    for _ in range(repeat):
        for fn, times in ((old, t_old), (new, t_new)):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
    return float(np.median(t_old)), float(np.median(t_new))


def items_and_positions(n: int, repeat: int) -> dict:
    flt = BloomFilter(14 * n, 10)
    old = lambda: flt.positions_many(random_items(n, seed=1, prefix="i"))  # noqa: E731
    new = lambda: positions(flt, drawn_items(n, 1), 0, n)                  # noqa: E731
    assert np.array_equal(old(), new())
    t_old, t_new = median_pair(old, new, repeat)
    return {"n": n, "strings_s": t_old, "numpy_s": t_new, "speedup": t_old / t_new}


def _old_compare(configs, m, k, n, probes, seed, chunk=65_536) -> list[int]:
    items = random_items(n, seed=seed, prefix="i")
    probe_list = random_items(probes, seed=seed + PROBE_SEED_OFFSET, prefix="p")
    filters = [compare.build_filter(c, m, k, n) for c in configs]
    trackers = [FpTracker(f, probe_list) for f in filters]
    for start in range(0, n, chunk):
        batch = items[start:start + chunk]
        for f, tr in zip(filters, trackers):
            tr.insert_batch(f.positions_many(batch), f)
    return [tr.fp_count for tr in trackers]


def comparison(n: int, repeat: int) -> dict:
    configs = compare.lesson_configs()
    k, m = 10, int(14.4 * n)
    old = lambda: _old_compare(configs, m, k, n, 20_000, 0)                                    # noqa: E731
    new = lambda: [s.fp_count for s in compare.Comparison(configs, m, k, n, probes=20_000, seed=0)  # noqa: E731
                   .run().summaries()]
    assert old() == new()
    t_old, t_new = median_pair(old, new, repeat)
    return {"n": n, "lanes": len(configs), "old_s": t_old, "pipeline_s": t_new, "speedup": t_old / t_new}


def _old_k_sweep(m, n, ks, probes, seed, step=32_768) -> list[int]:
    items = random_items(n, seed=seed, prefix="i")
    probe_list = random_items(probes, seed=seed + PROBE_SEED_OFFSET, prefix="p")
    hits = []
    for k in ks:
        flt = BloomFilter(m, k)
        for start in range(0, n, step):
            insert_rows(flt, flt.positions_many(items[start:start + step]))
        hits.append(int(np.count_nonzero(test_rows(flt, flt.positions_many(probe_list)))))
    return hits


def k_sweep(n: int, repeat: int) -> dict:
    m, ks = 10 * n, range(1, 13)
    old = lambda: _old_k_sweep(m, n, ks, 10_000, 0)                                            # noqa: E731
    new = lambda: list(explore.KMeasurement(m, n, ks, probes=10_000, seed=0).run()["hits"])   # noqa: E731
    assert old() == new()
    t_old, t_new = median_pair(old, new, repeat)
    return {"n": n, "ks": len(ks), "old_s": t_old, "pipeline_s": t_new, "speedup": t_old / t_new}


def memory(n: int) -> dict:
    out = {}
    for name, make in (("strings", lambda: random_items(n, seed=2, prefix="i")),
                       ("drawn", lambda: drawn_items(n, 2))):
        tracemalloc.start()
        held = make()
        size, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out[f"{name}_bytes_per_item"] = size / n
        del held
    out["ratio"] = out["strings_bytes_per_item"] / out["drawn_bytes_per_item"]
    return out


def _bare_generated(n: int, seed: int) -> None:
    flt, items = BloomFilter(LIVE_M, LIVE_K), GeneratedItems(n, seed=seed, prefix="i")
    for start in range(0, n, CHUNK):
        insert_rows(flt, positions(flt, items, start, min(n, start + CHUNK)))


def _simulation(n: int, seed: int) -> None:
    Simulation(flt=BloomFilter(LIVE_M, LIVE_K), n=n, seed=seed).run(every=1)


def _autoplay(n: int, seed: int, wb: Workbench | None = None) -> None:
    """``wb``: the model, made before the timing as the window's is before any auto-play (a new one makes a
    default filter and draws its probes, ~5 ms, only to replace them); the new filter and its probes are timed,
    as the bare insert and ``Simulation`` make theirs."""
    wb = Workbench() if wb is None else wb
    wb.configure(LIVE_M, LIVE_K, capacity=n)
    endless, at = GeneratedItems(2 ** 63 - 1, seed=seed, prefix="i"), [0]   # as the window's random stream

    def take_run(count: int) -> GeneratedRun:
        run = GeneratedRun(endless, at[0], at[0] + count)
        at[0] = run.stop
        return run

    wb.run_job(take_run, n, "auto-play items")
    wb.run_to_end()
    assert len(wb.filter) == n and wb.series.column("n")[-1] == n


def spread(values: list[float]) -> dict:
    return {"median": statistics.median(values), "low": min(values), "high": max(values)}


def live_curve(n: int, repeat: int, seed: int = 1) -> dict:
    texts = GeneratedItems(n, seed=seed, prefix="i").texts(0, n)
    runs = {"bare": lambda: _bare_generated(n, seed), "simulate": lambda: _simulation(n, seed),
            "autoplay": lambda wb=None: _autoplay(n, seed, wb), "bare_str": lambda: BloomFilter(LIVE_M, LIVE_K).update(texts),
            "simulate_str": lambda: Simulation(flt=BloomFilter(LIVE_M, LIVE_K), items=texts, seed=seed).run()}
    for run in runs.values():      # compiled paths loaded and the theory's curve cached before any timing
        run()
    times: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            made = {"autoplay": (Workbench(),)}.get(name, ())     # (made before its timing: see _autoplay)
            gc.collect()
            t = time.thread_time()
            runs[name](*made)
            times[name].append(time.thread_time() - t)
    ratios = {"simulate": [a / b for a, b in zip(times["simulate"], times["bare"])],
              "autoplay": [a / b for a, b in zip(times["autoplay"], times["bare"])],
              "simulate_str": [a / b for a, b in zip(times["simulate_str"], times["bare_str"])]}
    return {"n": n, "m": LIVE_M, "k": LIVE_K, "rounds": repeat,
            "ns_per_item": {name: spread([t / n * 1e9 for t in ts]) for name, ts in times.items()},
            "ratio": {name: spread(values) for name, values in ratios.items()}}


def print_live(live: dict) -> None:
    ns, ratio = live["ns_per_item"], live["ratio"]

    def show(key: str) -> str:
        return f"{ratio[key]['median']:.2f}x (range {ratio[key]['low']:.2f}-{ratio[key]['high']:.2f})"

    print(f"5. live exact curve end to end, {live['n']:,} items, m = {live['m']:,}, k = {live['k']}, "
          f"{live['rounds']} rounds (thread CPU, median ns an item):")
    print(f"   bare insert of generated items {ns['bare']['median']:.0f} ns; Simulation.run(every=1) "
          f"{ns['simulate']['median']:.0f} ns: {show('simulate')}; the model's auto-play "
          f"{ns['autoplay']['median']:.0f} ns: {show('autoplay')} (goal <= 2x)")
    print(f"   BloomFilter.update of str items {ns['bare_str']['median']:.0f} ns; Simulation given them "
          f"{ns['simulate_str']['median']:.0f} ns: {show('simulate_str')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--live-only", action="store_true", help="only part 5, the live curve end to end")
    args = parser.parse_args()
    if args.live_only:
        live = live_curve(args.n, args.repeat)
        print_live(live)
        print(json.dumps({"live": live}))
        return
    figures = {"items": items_and_positions(args.n, args.repeat),
               "compare": comparison(min(args.n, compare.MAX_ITEMS), args.repeat),
               "k_sweep": k_sweep(max(1, args.n // 4), args.repeat),
               "memory": memory(args.n),
               "live": live_curve(args.n, args.repeat)}
    print(f"1. {args.n:,} items made and hashed (murmur3-mix, k = 10): strings "
          f"{figures['items']['strings_s']:.3f} s, numpy {figures['items']['numpy_s']:.3f} s: "
          f"{figures['items']['speedup']:.2f}x")
    c = figures["compare"]
    print(f"2. Compare, {c['lanes']} lanes of {c['n']:,} items: old loop {c['old_s']:.3f} s, "
          f"pipeline {c['pipeline_s']:.3f} s: {c['speedup']:.2f}x")
    s = figures["k_sweep"]
    print(f"3. k sweep, k = 1..{s['ks']} at n = {s['n']:,}: old loop {s['old_s']:.3f} s, "
          f"pipeline {s['pipeline_s']:.3f} s: {s['speedup']:.2f}x")
    mem = figures["memory"]
    print(f"4. items held: strings {mem['strings_bytes_per_item']:.1f} B/item, drawn "
          f"{mem['drawn_bytes_per_item']:.1f} B/item: {mem['ratio']:.1f}x less")
    print_live(figures["live"])
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
