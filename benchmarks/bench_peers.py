"""Insert and lookup against the Rust peers, per item kind and size, in interleaved rounds.

    python benchmarks/bench_peers.py [--sizes 100000 1000000 10000000] [--rounds 5] [--kinds str bytes text]

For every size n and kind of item — ``str`` (ASCII text, e.g. ``item-…``), ``bytes`` (the same, encoded) and
``text`` (non-ASCII str: ``élément-…-ž``) — each library builds a filter for n items at p = 0.01, inserts the n
items in one batch and looks them all up:

- bloomviz: ``BloomFilter.for_capacity(n, p)``, ``update``, ``contains_many`` (default scheme);
- rbloom, native: ``Bloom(n, p)`` with its default hash, Python's ``hash()`` (salted per process: such a filter
  cannot be saved and reloaded elsewhere; shown because it is what rbloom users run);
- fastbloom-rs: ``add_str_batch``/``contains_str_batch`` for str, the ``bytes`` batch calls for bytes.

Each library gets fresh item objects every run (a str caches its ``hash()``, which would flatter rbloom), and
the libraries take turns inside every round (the order rotates), so a machine busy for a while slows all of
them alike. Each library runs once on 1,000 items before the rounds, untimed: bloomviz's first batch loads its
compiled loops from numba's cache (about a second, once a process), which is not the per-item cost measured.
Each then runs once on n items, timed apart from the rounds and printed as "first call": a first batch of a
size maps its memory afresh (page faults), which the rounds' later batches of that size do not. Times are the
calling thread's CPU time (``time.thread_time``: every peer runs in the calling thread). Ratios are peer time / bloomviz time per round, so above 1 means bloomviz is faster; the table prints
the median ratio with its range over the rounds. Goal (issue: fast at every size): >= 1.0 at 10^6 for str,
bytes and text, >= 0.8 at 10^5, ahead of every peer at 10^7.

Prints a table, then ONE JSON line. Needs the ``bench`` extra and fastbloom-rs (pip install fastbloom-rs); a
missing peer is reported and skipped.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bloomviz.core import BloomFilter  # noqa: E402

P = 0.01


def make_items(n: int, kind: str) -> list:
    """New objects on every call (never cached hashes), the same values each time."""
    if kind == "text":
        return [f"élément-{i:x}-ž".encode().decode() for i in range(n)]
    items = [f"item-{i * 2654435761 % (1 << 40):x}".encode() for i in range(n)]
    return items if kind == "bytes" else [b.decode() for b in items]


def ours(n: int, kind: str):
    def run(items):
        bf = BloomFilter.for_capacity(n, P)
        t = time.thread_time()
        bf.update(items)
        t_ins = time.thread_time() - t
        t = time.thread_time()
        found = bf.contains_many(items)
        t_look = time.thread_time() - t
        assert found.all(), "bloomviz: false negative"
        return t_ins, t_look
    return run


def rbloom_native(n: int, kind: str):
    try:
        from rbloom import Bloom
    except ImportError:
        return None

    def run(items):
        bf = Bloom(n, P)
        t = time.thread_time()
        bf.update(items)
        t_ins = time.thread_time() - t
        t = time.thread_time()
        found = list(map(bf.__contains__, items))   # the fastest membership loop Python offers
        t_look = time.thread_time() - t
        assert all(found), "rbloom: false negative"
        return t_ins, t_look
    return run


def fastbloom(n: int, kind: str):
    try:
        from fastbloom_rs import FilterBuilder
    except ImportError:
        return None

    def run(items):
        bf = FilterBuilder(n, P).build_bloom_filter()
        add, contains = ((bf.add_bytes_batch, bf.contains_bytes_batch) if kind == "bytes"
                         else (bf.add_str_batch, bf.contains_str_batch))
        t = time.thread_time()
        add(items)
        t_ins = time.thread_time() - t
        t = time.thread_time()
        found = contains(items)
        t_look = time.thread_time() - t
        assert all(found), "fastbloom-rs: false negative"
        return t_ins, t_look
    return run


PEERS = {"rbloom": rbloom_native, "fastbloom-rs": fastbloom}


def measure(n: int, kind: str, rounds: int) -> dict:
    runners = {"bloomviz": ours(n, kind)}
    for name, make in PEERS.items():
        runner = make(n, kind)
        if runner is None:
            print(f"  {name}: not installed, skipped", flush=True)
        else:
            runners[name] = runner
    names = list(runners)
    times = {name: [] for name in names}
    makers = {"bloomviz": ours, **PEERS}
    for name in names:      # untimed: the first call loads compiled code (numba's cache, ~1 s), not per-item work
        runners[name](make_items(min(n, 1_000), kind))
        # and into a filter sized for them: a batch with more positions than its filter has bytes counts the bits
        # set before and after it, another compiled loop (loading it cost a timed first round ~9 ms)
        makers[name](min(n, 1_000), kind)(make_items(min(n, 1_000), kind))
    # The first call at this size, apart from the rounds: a library's first batch of n items maps its n-sized
    # memory afresh (bloomviz: the items' hash halves, 16 bytes an item, 390 page faults at 10^5: +20-45 ns an
    # item on a loaded machine), and later batches of that size reuse it. Counted among the rounds it was their
    # low end (0.40x at 10^5, non-ASCII text); it is reported as what it is, a first call.
    first = {}
    for name in names:
        items = make_items(n, kind)
        gc.collect()
        first[name] = runners[name](items)
        del items
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            items = make_items(n, kind)
            gc.collect()
            times[name].append(runners[name](items))
            del items
    result = {}
    for name in names[1:]:
        ins = [p[0] / o[0] for p, o in zip(times[name], times["bloomviz"])]
        look = [p[1] / o[1] for p, o in zip(times[name], times["bloomviz"])]
        result[name] = {"insert": ins, "lookup": look, "first_insert": first[name][0] / first["bloomviz"][0],
                        "first_lookup": first[name][1] / first["bloomviz"][1]}
    result["bloomviz_ns"] = {"insert": statistics.median(t[0] for t in times["bloomviz"]) / n * 1e9,
                             "lookup": statistics.median(t[1] for t in times["bloomviz"]) / n * 1e9}
    return result


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    ap.add_argument("--kinds", nargs="+", default=["str", "bytes", "text"], choices=["str", "bytes", "text"])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    figures: dict = {"load_start": os.getloadavg()[0], "rounds": args.rounds}
    print(f"ratios: peer CPU time / bloomviz CPU time (above 1: bloomviz faster), median (range) of "
          f"{args.rounds} interleaved rounds; load {os.getloadavg()[0]:.1f}")
    for n in args.sizes:
        for kind in args.kinds:
            res = measure(n, kind, args.rounds)
            ns = res.pop("bloomviz_ns")
            line = [f"n = {n:>10,} {kind:5}: bloomviz {ns['insert']:.0f} / {ns['lookup']:.0f} ns an item"]
            for peer, r in res.items():
                line.append(f"{peer} insert {spread(r['insert'])} lookup {spread(r['lookup'])} "
                            f"(first call {r['first_insert']:.2f}x / {r['first_lookup']:.2f}x)")
                figures[f"{peer}_{kind}_{n}"] = {"insert": statistics.median(r["insert"]),
                                                 "lookup": statistics.median(r["lookup"]),
                                                 "insert_range": [min(r["insert"]), max(r["insert"])],
                                                 "lookup_range": [min(r["lookup"]), max(r["lookup"])],
                                                 "first_insert": r["first_insert"], "first_lookup": r["first_lookup"]}
            print("; ".join(line), flush=True)
    figures["load_end"] = os.getloadavg()[0]
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
