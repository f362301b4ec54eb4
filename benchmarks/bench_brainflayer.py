"""Brainflayer (Kedmi's filter: m = 2^32, k = 20, 440 million items, the exact rate on 10^4 probes after every
insert) against the memory floor measured in the same process.

    python benchmarks/bench_brainflayer.py [--sample N] [--rounds R] [--points P]
    python benchmarks/bench_brainflayer.py --full [--csv PATH] [--n N]

The floor is random single-bit sets into a 512 MiB array allocated as a filter's bits are (bitstore.new_bits:
2 MiB pages where Linux gives them), every page touched first, done as cheaply as numpy can: one fancy
assignment ``view[byte] = 1 << bit`` from precomputed positions, a write a position and nothing else (it even
drops the byte's other bits, which a filter may not). Times are this thread's CPU time, so other work on the
machine does not count on either side (its memory traffic still does, on both sides alike).

--sample N (the default, N = 2^20): the run's cost an item without the whole run. At P points of the run
(n_i = (i + 1/2)·n/P) the filter is filled at random to the run's fill there, 1 - e^(-k·n_i/m), and N items
go in through Simulation's own steps with the exact curve (the allocator tuned as the command tunes it); the
floor sets N·k positions. R rounds at each point, floor and items alternating; medians with their ranges. The
run's cost an item is the mean of the points' medians (the points are evenly spaced in n), its ratio that over
k floors.

--full: the README's command itself, ``bloomviz simulate --m 4294967296 --k 20 --n 440000000 --every 1000000
--csv PATH``, run in this process (cli.main): its wall and CPU time (all threads, getrusage), its peak resident
memory (VmHWM, reset before it, less the floor's arrays, resident throughout), and its last row's measured
rate against the exact one in standard errors (sqrt(p(1 - p)/probes)). The floor is sampled between the run's
steps, every 2 s of its CPU (4M positions a sample; their CPU and wall time are taken off the run's), so a load
that rises or falls during the run weighs on both alike; the ratio to the floor measured before and after
the run is printed too. Minutes on two cores.

Last line: one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import csv
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

from bloomviz.filters import bitstore  # noqa: E402
from bloomviz.filters import rows as filter_rows  # noqa: E402
from bloomviz.measure.experiment import Simulation  # noqa: E402
from bloomviz.theory import rates as theory  # noqa: E402

M, K, N, PROBES, EVERY = 2 ** 32, 20, 440_000_000, 10_000, 1_000_000
BLOCK = 1 << 22          # positions a numpy call of the floor


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def spread(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}-{max(values):.{digits}f}]"


class Floor:
    """Random single-bit sets into a 512 MiB array: ``count`` positions (drawn once), timed on this thread."""

    def __init__(self, count: int, seed: int = 3):
        self._bits = bitstore.new_bits(M)
        self._view = bitstore.byte_view(self._bits)
        self._view[::4096] = 1                 # every page in: time the accesses, not the page faults
        rng = np.random.default_rng(seed)
        pos = rng.integers(0, M, count, dtype=np.int64)
        self._byte = pos >> 3
        self._value = np.left_shift(np.uint8(1), (pos & 7).astype(np.uint8))
        self.count = count

    def ns(self) -> float:
        """CPU ns a position, one pass over the positions."""
        view, byte, value = self._view, self._byte, self._value
        start = time.thread_time()
        for lo in range(0, self.count, BLOCK):
            view[byte[lo:lo + BLOCK]] = value[lo:lo + BLOCK]
        return (time.thread_time() - start) / self.count * 1e9


def filled_bytes(size: int, fill: float, rng, digits: int = 6) -> np.ndarray:
    """``size`` random bytes whose bits are each 1 with probability ``fill`` (to 1/2^digits): the binary
    digits of fill, last first, each an OR (digit 1) or AND (digit 0) with fresh random bytes."""
    acc = np.zeros(size, dtype=np.uint8)
    for d in reversed(range(1, digits + 1)):
        r = np.frombuffer(rng.bytes(size), dtype=np.uint8)
        if int(fill * 2 ** d) % 2:
            acc |= r
        else:
            acc &= r
    return acc


def sample(n_sample: int, points: int, rounds: int) -> dict:
    # the process set up as the README's command sets up its own (cli.main): glibc keeps the tracker's freed
    # work arrays for reuse instead of faulting in new pages at every step (cumsum alone 8 -> 3 ns an item)
    bitstore.keep_freed_memory_for_big_filters()
    rng = np.random.default_rng(9)
    sim = Simulation(M, K, N, probes=PROBES, seed=0)
    sim.measurement.every = EVERY                   # the README's command keeps a row every 10^6 inserts
    step = sim.step_size() if hasattr(sim, "step_size") else 65_536
    steps = max(1, -(-n_sample // step))
    floor = Floor(steps * step * K)
    flt = sim.filter
    view = bitstore.byte_view(flt.bits)
    floors, ours, ratios = [], [], []
    for i in range(points):
        n_i = (i + 0.5) * N / points
        fill = -math.expm1(-K * n_i / M)
        for lo in range(0, view.size, 1 << 26):
            view[lo:lo + (1 << 26)] = filled_bytes(min(1 << 26, view.size - lo), fill, rng)
        filter_rows.count_fresh(flt, int(flt.bits.count()) - flt.bits_set, 0)
        sim.tracker.rebuild(flt)
        sim.measurement.step(step)                   # untimed: the compiled code's first call, the map built
        point_floor, point_ours = [], []
        for _ in range(rounds):
            point_floor.append(floor.ns())
            start = time.thread_time()
            for _ in range(steps):
                sim.measurement.step(step)
            point_ours.append((time.thread_time() - start) / (steps * step) * 1e9)
        floors.append(point_floor)
        ours.append(point_ours)
        ratios.append([o / (K * f) for o, f in zip(point_ours, point_floor)])
        print(f"  n = {n_i:,.0f} (fill {flt.bits_set / M:.3f}): {spread(point_ours)} ns an item, floor "
              f"{spread(point_floor, 2)} ns a position; {spread(ratios[-1], 2)}x; {load()}", file=sys.stderr,
              flush=True)
    all_floors = [f for point in floors for f in point]
    floor_ns = statistics.median(all_floors)
    mean_ns = statistics.mean(statistics.median(p) for p in ours)
    by_round = [statistics.mean(ours[p][r] for p in range(points)) /
                (K * statistics.median(floors[p][r] for p in range(points))) for r in range(rounds)]
    return {"items_a_point": steps * step, "step": step, "points": points, "rounds": rounds,
            "floor_ns": floor_ns, "floor_range": [min(all_floors), max(all_floors)],
            "per_point_ns": [statistics.median(p) for p in ours], "per_point_ratio": [statistics.median(r) for r in ratios],
            "mean_ns": mean_ns, "vs_floor": mean_ns / (K * floor_ns), "vs_floor_by_round": by_round,
            "estimated_cpu_s": mean_ns * N / 1e9, "floor_s": floor_ns * K * N / 1e9}


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:      # "5": reset the peak resident size (Linux >= 4.0)
            f.write("5")
        return True
    except OSError:
        return False


def _peak_rss_gib() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 2 ** 20
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _resident_gib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 2 ** 20
    return 0.0


class _Interleaved:
    """Floor samples taken between the run's steps (each ``every_s`` seconds of the run's CPU), so that the floor
    sees the machine the run saw: a load that rises during the run slows both. Their CPU is kept apart from
    the run's."""

    def __init__(self, floor: Floor, every_s: float):
        self.floor, self.every_s = floor, every_s
        self.samples: list[float] = []
        self.spent = 0.0                 # the samples' own CPU (all of it, as the run's is counted)
        self.wall = 0.0
        self._next = _cpu_s() + every_s

    def after_step(self) -> None:
        now = _cpu_s()
        if now < self._next:
            return
        wall = time.perf_counter()
        self.samples.append(self.floor.ns())
        self.wall += time.perf_counter() - wall
        self.spent += _cpu_s() - now
        self._next = _cpu_s() + self.every_s


def full(path: str, n: int, rounds: int) -> dict:
    from bloomviz.cli import main as cli_main
    from bloomviz.measure.experiment import Simulation as Sim
    resident = _resident_gib()
    floor = Floor(1 << 22)          # ~35 ms a sample
    floor_gib = _resident_gib() - resident          # resident for the whole run: taken off its peak
    before = [floor.ns() for _ in range(rounds)]
    gc.collect()
    argv = ["simulate", "--m", str(M), "--k", str(K), "--n", str(n), "--every", str(EVERY), "--csv", path]
    print(f"  bloomviz {' '.join(argv)}", file=sys.stderr, flush=True)
    interleaved = _Interleaved(floor, every_s=2.0)
    step = Sim._step

    def step_then_floor(self, chunk):
        record = step(self, chunk)
        interleaved.after_step()
        return record

    Sim._step = step_then_floor
    try:
        reset = _reset_peak_rss()
        load_before = os.getloadavg()
        start_cpu = _cpu_s()
        wall = time.perf_counter()
        status = cli_main(argv)
        wall = time.perf_counter() - wall
        cpu = _cpu_s() - start_cpu - interleaved.spent
    finally:
        Sim._step = step
    peak = _peak_rss_gib() - floor_gib
    load_after = os.getloadavg()
    if status != 0:
        raise SystemExit(f"bloomviz simulate exited with {status}")
    with open(path, newline="") as f:
        last = list(csv.DictReader(f))[-1]
    after = [floor.ns() for _ in range(rounds)]
    during = interleaved.samples or before + after
    floor_ns = statistics.median(during)
    measured, exact = float(last["fp_measured"]), theory.fp_exact(M, K, n)
    se = math.sqrt(exact * (1 - exact) / PROBES)
    return {"n": n, "rows_last_n": int(float(last["n"])), "wall_s": wall - interleaved.wall, "cpu_s": cpu,
            "peak_rss_gib": peak if reset else None, "floor_ns": floor_ns, "floor_during": during,
            "floor_before": before, "floor_after": after, "floor_cpu_s": interleaved.spent,
            "floor_s": floor_ns * K * n / 1e9, "vs_floor": cpu / (floor_ns * K * n / 1e9),
            "vs_floor_before_after": cpu / (statistics.median(before + after) * K * n / 1e9),
            "ns_per_item": cpu / n * 1e9, "measured": measured, "exact": exact, "standard_error": se,
            "std_errors": (measured - exact) / se, "load_before": load_before, "load_after": load_after}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=1 << 20, metavar="N", help="items at each point")
    parser.add_argument("--points", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="the README's whole command (minutes)")
    parser.add_argument("--n", type=int, default=N, help="items of --full")
    parser.add_argument("--csv", default=None, help="where --full writes its CSV (default: a temporary file)")
    args = parser.parse_args()
    figures: dict = {"load_start": os.getloadavg(), "cpus": os.cpu_count()}
    if args.full:
        with tempfile.TemporaryDirectory() as tmp:
            r = full(args.csv or os.path.join(tmp, "brainflayer.csv"), args.n, args.rounds)
        figures["full"] = r
        peak = "n/a" if r["peak_rss_gib"] is None else f"{r['peak_rss_gib']:.2f} GiB"
        during = r["floor_during"]
        print(f"Brainflayer, the README's command (m = 2^32, k = 20, n = {r['n']:,}, 10^4 probes): wall "
              f"{r['wall_s']:.0f} s, CPU {r['cpu_s']:.0f} s ({r['ns_per_item']:.0f} ns an item); the floor "
              f"{r['floor_ns']:.2f} ns a position, the median of {len(during)} samples taken between the run's "
              f"steps [{min(during):.2f}-{max(during):.2f}] (before {', '.join(f'{x:.2f}' for x in r['floor_before'])}; "
              f"after {', '.join(f'{x:.2f}' for x in r['floor_after'])}), {r['floor_s']:.0f} s for n·k: "
              f"{r['vs_floor']:.2f}x the floor (goal <= 1.5; {r['vs_floor_before_after']:.2f}x the floor "
              f"before and after); measured rate {r['measured']:.4f} vs exact "
              f"{r['exact']:.4f}, {r['std_errors']:+.2f} standard errors (one is {r['standard_error']:.4f}); "
              f"peak RSS {peak} (the floor's arrays taken off); {load()}")
    else:
        b = sample(args.sample, args.points, args.rounds)
        figures["sample"] = b
        print(f"Brainflayer (m = 2^32, k = 20, 440,000,000 items), sampled ({b['items_a_point']:,} items at each "
              f"of {b['points']} points, {b['rounds']} rounds, steps of {b['step']:,}): {b['mean_ns']:.0f} ns an "
              f"item (points {', '.join(f'{x:.0f}' for x in b['per_point_ns'])}), about {b['estimated_cpu_s']:.0f} "
              f"s of CPU; the floor {b['floor_ns']:.2f} ns a position [{b['floor_range'][0]:.2f}-"
              f"{b['floor_range'][1]:.2f}] ({b['floor_s']:.0f} s for n·k): {b['vs_floor']:.2f}x the floor "
              f"(rounds {spread(b['vs_floor_by_round'], 2)}; goal <= 1.5); {load()}")
    figures["load_end"] = os.getloadavg()
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
