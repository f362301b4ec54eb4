"""Memory a batch into a big filter holds so that a failure part way can be put back: a log of what the batch
changes (filters/rollback.py, what the window's model keeps now) against a copy of the filter (what it kept
before, ``undo.checkpoint``), both run in this process on the same filter and the same batch.

Run from the repository: ``PYTHONPATH=. python benchmarks/bench_rollback_memory.py [--bits 32] [--items 1000]``.
Prints, for a paste of ``--items`` items into an opened filter of 2^bits bits (past the 96 MiB undo budget, so
the batch keeps no undo step of its own: its rollback checkpoint is all it holds), the peak traced memory of the
paste above the memory before it, with the log and with the copy, and their ratio; and whether the failure
injected part way put the filter back exactly each time (it must).

Measured here (2^32 bits = 512 MiB, 1,000 items, k = 7, load ~4 on 2 cores): a paste taken whole peaked
0.93 MiB above the start with the log against 512.4 MiB with the copy (554x; 30 ms against 1.75 s); a paste that
failed part way 1.61 against 1,025 MiB (635x: the copy was copied again to be put back in place; 0.27 against
2.9 s), the filter put back exactly both ways. At 2^28 bits (32 MiB, within the budget, where the window copied
too): 0.93 against 32.4 MiB. Since a failed operation's own copy is taken over, not copied again: failing part
way at 2^28 bits, 1.62 against 33.2 MiB (20x).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from unittest import mock

from bloomviz.filters.standard import BloomFilter
from bloomviz.measure import pipeline as pipeline_module
from bloomviz.workbench import undo
from bloomviz.workbench.model import Workbench


def _bench(bits: int, k: int) -> Workbench:
    wb = Workbench(probes=1_000)
    flt = BloomFilter(1 << bits, k)
    flt.update([f"already in {i}" for i in range(10_000)])
    wb.install_filter(flt)
    return wb


def _paste(wb: Workbench, items: list[str], fail: bool) -> tuple[int, float, bool]:
    """(peak bytes above the start, seconds, put back exactly) for one paste; ``fail``: the curve's rows raise
    after the filter took the batch's bits, so the batch is put back."""
    flt = wb.filter
    before = (len(flt), flt.bits_set, hash(flt.bits.tobytes()) if fail else 0)
    real = pipeline_module.MeasuredSeries.add

    def failing(*args, **kwargs):
        real(*args, **kwargs)
        raise MemoryError

    tracemalloc.start()
    tracemalloc.reset_peak()
    start = tracemalloc.get_traced_memory()[0]
    t0 = time.perf_counter()
    if fail:
        with mock.patch.object(pipeline_module.MeasuredSeries, "add", failing):
            assert wb.insert_batch(items) == 0
    else:
        assert wb.insert_batch(items) == len(items)
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] - start
    tracemalloc.stop()
    back = not fail or (len(flt), flt.bits_set, hash(flt.bits.tobytes())) == before
    return peak, seconds, back


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bits", type=int, default=32, help="the filter has 2^bits bits (default 32: 512 MiB)")
    parser.add_argument("--items", type=int, default=1_000)
    parser.add_argument("--k", type=int, default=7)
    args = parser.parse_args()
    wb = _bench(args.bits, args.k)
    size = wb.filter.nbytes()
    print(f"filter: 2^{args.bits} bits = {size / 2**20:,.0f} MiB, k = {args.k}; undo budget "
          f"{undo.BUDGET / 2**20:,.0f} MiB; a paste of {args.items:,} items")
    copy_then = mock.patch.object(undo.Undo, "before_batch",
                                  lambda self, s, inserts: undo.checkpoint(s))
    rows = {}
    for fail in (True, False):
        for name in ("log", "copy"):
            items = [f"{name} {'failed' if fail else 'kept'} {i}" for i in range(args.items)]
            if name == "copy":
                with copy_then:
                    rows[name, fail] = _paste(wb, items, fail)
            else:
                rows[name, fail] = _paste(wb, items, fail)
    for fail in (True, False):
        what = "failing part way (put back)" if fail else "taken whole"
        (log_peak, log_s, log_back), (copy_peak, copy_s, copy_back) = rows["log", fail], rows["copy", fail]
        print(f"paste {what}:")
        print(f"  log : peak {log_peak / 2**20:9.2f} MiB above the start, {log_s * 1e3:7.1f} ms, put back: {log_back}")
        print(f"  copy: peak {copy_peak / 2**20:9.2f} MiB above the start, {copy_s * 1e3:7.1f} ms, put back: "
              f"{copy_back}")
        print(f"  ratio copy/log: memory {copy_peak / max(log_peak, 1):,.1f}x, time {copy_s / max(log_s, 1e-9):.1f}x")
    return 0 if all(back for _, _, back in rows.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
