"""Scale: the exact tracker's cost, bit setting on big arrays, and runs of hundreds of millions of items.

    python benchmarks/bench_scale.py [--repeat R] [--skip-everyday] [--brainflayer] [--brainflayer-n N]

Every figure is a ratio against a baseline measured in this process, printed with the load average (other
work on the machine slows both sides of a ratio alike, not its absolute times):

1. tracker: 10^6 generated items into m = 9,585,059, k = 7 with the exact curve on 10^4 probes
   (FpTracker.insert_batch, chunks of 65,536) against a bare insert of the same items (positions into one
   BitSetter, as BloomFilter.update does), hashing included on both sides; and the same with 10^6 str items
   (hashed from their text): BloomFilter.update against Simulation-style tracked batches. Medians of R, alternating.
2. bit setting at m = 2^32 (a 512 MiB array), 2^24 random positions: bitstore.set_bits and
   numpy.bitwise_or.at against a plain numpy random scatter (``view[byte] = value``) on the same array, on
   this thread's CPU time.
3. the everyday run: 10^8 generated items into the 1 % design for 10^8 (m = 958,505,838, k = 7), exact curve
   on 10^4 probes, a row every 10^6: its CPU time against the random-access floor (n·k plain scatters at the
   rate measured in 2 on this filter's size), peak memory, and the final rate in standard errors from the
   exact theory.
4. --brainflayer: Kedmi's Brainflayer filter, m = 2^32, k = 20, filled with 440 million generated items:
   the README's command run in this process against the floor (bench_brainflayer.py --full; minutes on two
   cores). --brainflayer-sample N: its cost an item without the whole run, N items at each of 6 points of
   the run against the floor in rounds (bench_brainflayer.py --sample N; with --skip-tracker
   --skip-everyday, a minute or two).

Peak memory is the process's maximum resident size (ru_maxrss) after each run: it includes everything
before it. Last line: one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import resource
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import bench_brainflayer  # noqa: E402  (beside this script)

from bloomviz.filters import bitstore  # noqa: E402

from bloomviz.theory import rates as theory
from bloomviz.measure.experiment import Simulation  # noqa: E402
from bloomviz.measure.fp_tracker import FpTracker  # noqa: E402
from bloomviz.filters.standard import BloomFilter  # noqa: E402
from bloomviz.filters import bit_kernels  # noqa: E402
from bloomviz.filters.generated_positions import positions  # noqa: E402
from bloomviz.items.generated import GeneratedItems  # noqa: E402

CHUNK = 65_536


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def peak_rss_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20


# --- 1. the tracker against a bare insert ------------------------------------------------------------------
def tracker_ratio(repeat: int) -> dict:
    m, k, n, probes = 9_585_059, 7, 1_000_000, 10_000
    items = GeneratedItems(n, seed=1)
    probe_items = GeneratedItems(probes, seed=2, prefix="p").texts(0, probes)
    texts = items.texts(0, n)

    def bare_generated():
        flt = BloomFilter(m, k)
        setter = bitstore.BitSetter(flt.bits)
        for start in range(0, n, CHUNK):
            setter.add(positions(flt, items, start, start + CHUNK).ravel())
        return setter.fresh

    def tracked_generated():
        flt = BloomFilter(m, k)
        tracker = FpTracker(flt, probe_items)
        for start in range(0, n, CHUNK):
            tracker.insert_batch(positions(flt, items, start, start + CHUNK), flt)
        return flt.bits_set

    def bare_text():
        flt = BloomFilter(m, k)
        flt.update(texts)
        return flt.bits_set

    def tracked_text():
        flt = BloomFilter(m, k)
        tracker = FpTracker(flt, probe_items)
        for start in range(0, n, CHUNK):
            tracker.insert_batch(flt.positions_many(texts[start:start + CHUNK]), flt)
        return flt.bits_set

    runs = {"bare_generated": bare_generated, "tracked_generated": tracked_generated,
            "bare_text": bare_text, "tracked_text": tracked_text}
    times: dict = {name: [] for name in runs}
    results = {}
    for _ in range(repeat):
        for name, fn in runs.items():
            gc.collect()
            start = time.perf_counter()
            results[name] = fn()
            times[name].append(time.perf_counter() - start)
    best = {name: statistics.median(t) for name, t in times.items()}
    assert results["bare_generated"] == results["tracked_generated"], "tracked and bare filters differ"
    assert results["bare_text"] == results["tracked_text"], "tracked and bare filters differ"
    return {"tracker_generated_s": best["tracked_generated"], "bare_generated_s": best["bare_generated"],
            "tracker_vs_bare_generated": best["tracked_generated"] / best["bare_generated"],
            "tracker_text_s": best["tracked_text"], "bare_text_s": best["bare_text"],
            "tracker_vs_bare_text": best["tracked_text"] / best["bare_text"]}


# --- 2. bit setting on a big array -------------------------------------------------------------------------
def bit_setting(m: int, count: int, repeat: int) -> dict:
    # allocated as a filter's bits are (2 MiB pages where Linux gives them), whole bytes covering m bits
    view = bitstore.byte_view(bitstore.new_bits(m))
    view[::4096] = 1                          # touch every page first: time the accesses, not page faults
    rng = np.random.default_rng(3)
    pos = rng.integers(0, m, count, dtype=np.int64)
    byte = pos >> 3
    value = np.left_shift(np.uint8(1), (pos & 7).astype(np.uint8))
    bit_kernels.set_positions(view, pos[:16], m)      # untimed: the compiled pass's first call
    times: dict = {"scatter": [], "set_bits": [], "or_at": []}
    for _ in range(repeat):
        for name in times:
            start = time.thread_time()      # this thread's CPU: the load's time slices count on neither side
            for lo in range(0, count, 1 << 20):
                sl = slice(lo, lo + (1 << 20))
                if name == "scatter":         # the floor: one random write per position, nothing else
                    view[byte[sl]] = value[sl]
                elif name == "set_bits":      # what a filter does, from positions, exactly
                    bit_kernels.set_positions(view, pos[sl], m)   # what bitstore.set_bits runs
                else:
                    np.bitwise_or.at(view, byte[sl], value[sl])
            times[name].append(time.thread_time() - start)
    ns = {name: statistics.median(t) / count * 1e9 for name, t in times.items()}
    del view
    return {"m": m, "scatter_ns": ns["scatter"], "set_bits_ns": ns["set_bits"], "or_at_ns": ns["or_at"],
            "set_bits_vs_scatter": ns["set_bits"] / ns["scatter"], "or_at_vs_scatter": ns["or_at"] / ns["scatter"]}


# --- 3, 4. whole runs ------------------------------------------------------------------------------------
def full_run(label: str, m: int, k: int, n: int, probes: int, every: int, floor_ns: float) -> dict:
    gc.collect()
    start = time.perf_counter()
    cpu_start = time.thread_time()      # the floor is this thread's CPU time too
    sim = Simulation(m, k, n, probes=probes, seed=0)
    last_report = [start]
    loads = [os.getloadavg()[0]]

    def progress(done, total):
        now = time.perf_counter()
        if now - last_report[0] > 30:
            loads.append(os.getloadavg()[0])
            last_report[0] = now
            print(f"  {label}: {done:,} of {total:,} items, {now - start:.0f} s", file=sys.stderr, flush=True)

    series = sim.run(every=every, progress=progress)
    wall = time.perf_counter() - start
    seconds = time.thread_time() - cpu_start
    last = series.row(len(series) - 1)
    exact = theory.fp_exact(m, k, n)
    se = math.sqrt(exact * (1 - exact) / probes)
    floor_s = n * k * floor_ns / 1e9
    return {"label": label, "m": m, "k": k, "n": n, "probes": probes, "rows": len(series), "seconds": seconds,
            "wall_s": wall,
            "floor_s": floor_s, "vs_floor": seconds / floor_s, "ns_per_item": seconds / n * 1e9,
            "measured": last["fp_measured"], "exact": exact, "std_errors": (last["fp_measured"] - exact) / se,
            "bits_set_checked": sim.filter.bits_set == sim.filter.bits.count(),
            "peak_rss_gib": peak_rss_gib(), "load": os.getloadavg(),
            "load_during": [min(loads), statistics.mean(loads), max(loads)]}


def show_run(r: dict) -> None:
    print(f"{r['label']}: m = {r['m']:,}, k = {r['k']}, n = {r['n']:,}, {r['probes']:,} probes, "
          f"{r['rows']:,} rows: {r['seconds']:.1f} s of CPU ({r['ns_per_item']:.0f} ns/item; {r['wall_s']:.1f} s wall), "
          f"{r['vs_floor']:.2f}x the random-access floor ({r['floor_s']:.1f} s); measured rate "
          f"{r['measured']:.5f} vs exact {r['exact']:.5f} ({r['std_errors']:+.2f} standard errors); "
          f"bits set counted = recounted: {r['bits_set_checked']}; peak RSS {r['peak_rss_gib']:.2f} GiB; "
          f"1-minute load during the run min/mean/max {'/'.join(f'{x:.1f}' for x in r['load_during'])}; {load()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-everyday", action="store_true", help="skip the 10^8-item run")
    parser.add_argument("--skip-tracker", action="store_true", help="skip the tracker's ratio (part 1)")
    parser.add_argument("--brainflayer", action="store_true", help="also the 440-million-item run (minutes)")
    parser.add_argument("--brainflayer-n", type=int, default=440_000_000)
    parser.add_argument("--brainflayer-rounds", type=int, default=3)
    parser.add_argument("--brainflayer-sample", type=int, default=0, metavar="N",
                        help="Brainflayer's cost an item from N items at each of 6 points of the run (no full run)")
    args = parser.parse_args()
    figures: dict = {"load_start": os.getloadavg(), "cpus": os.cpu_count()}
    if args.brainflayer_sample:
        b = bench_brainflayer.sample(args.brainflayer_sample, 6, args.brainflayer_rounds)
        figures["brainflayer_sample"] = b
        print(f"Brainflayer (m = 2^32, k = 20, 440,000,000 items), sampled: {b['mean_ns']:.0f} ns an item "
              f"(points {', '.join(f'{x:.0f}' for x in b['per_point_ns'])}); the floor {b['floor_ns']:.2f} ns a "
              f"position: {b['vs_floor']:.2f}x (rounds {bench_brainflayer.spread(b['vs_floor_by_round'], 2)}; "
              f"goal <= 1.5); {load()}")

    tr = {} if args.skip_tracker else tracker_ratio(args.repeat)
    figures.update(tr)
    if tr:
        print(f"tracker, 10^6 generated items, m = 9,585,059, k = 7, 10^4 probes: {tr['tracker_generated_s']:.3f} s "
              f"vs bare insert {tr['bare_generated_s']:.3f} s = {tr['tracker_vs_bare_generated']:.2f}x (goal <= 2)")
        print(f"tracker, 10^6 str items (hashed from text): {tr['tracker_text_s']:.3f} s vs BloomFilter.update "
              f"{tr['bare_text_s']:.3f} s = {tr['tracker_vs_bare_text']:.2f}x; {load()}")

    bits = {}
    for m in (958_505_838, 2 ** 32):
        b = bit_setting(m, 1 << 24, args.repeat)
        bits[m] = b
        print(f"bit setting, m = {m:,}: plain scatter {b['scatter_ns']:.1f} ns/position; set_bits "
              f"{b['set_bits_ns']:.1f} ({b['set_bits_vs_scatter']:.2f}x, goal <= 2); bitwise_or.at "
              f"{b['or_at_ns']:.1f} ({b['or_at_vs_scatter']:.2f}x); {load()}")
    figures["bit_setting"] = list(bits.values())

    runs = []
    if not args.skip_everyday:
        runs.append(("everyday, 1 % design for 10^8", 958_505_838, 7, 100_000_000))
    figures["runs"] = []
    for label, m, k, n in runs:
        r = full_run(label, m, k, n, 10_000, 1_000_000, bits[m]["scatter_ns"])
        show_run(r)
        figures["runs"].append(r)
    if args.brainflayer:
        with tempfile.TemporaryDirectory() as tmp:
            b = bench_brainflayer.full(os.path.join(tmp, "brainflayer.csv"), args.brainflayer_n,
                                       args.brainflayer_rounds)
        figures["brainflayer"] = b
        print(f"Brainflayer, the README's command: wall {b['wall_s']:.0f} s, CPU {b['cpu_s']:.0f} s = "
              f"{b['vs_floor']:.2f}x the floor ({b['floor_ns']:.2f} ns a position); measured {b['measured']:.4f} "
              f"vs exact {b['exact']:.4f} ({b['std_errors']:+.2f} standard errors); {load()}")
    figures["load_end"] = os.getloadavg()
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
