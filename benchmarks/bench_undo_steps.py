"""What a typed insert's undo step costs on a large filter: time and memory of 100 typed inserts (each) into a
10^8-bit standard filter (and a counting filter of 10^7 counters), how many of them can be undone, and the
undo of those (n and the bits set checked against their values then; tests/workbench/test_undo_inverse.py
checks the whole state).

    python benchmarks/bench_undo_steps.py

The time is of 100 inserts; the memory, of the next 100 (with tracemalloc on, which slows every allocation):
what tracemalloc sees allocated and still held after them (the undo steps' copies, when a step copies the
filter; a bitarray's buffer is counted, as numpy's are). Times are wall-clock on this machine: compare the lines
of one run, or of two versions run one after the other, not runs on different machines.
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bloomviz.workbench.model import Workbench  # noqa: E402

INSERTS = 100


def run(variant: str, m: int, k: int, **params) -> None:
    wb = Workbench()
    assert wb.configure(m, k, variant=variant, **params)
    for i in range(200):
        wb.insert(f"before {i}")
    t0 = time.perf_counter()       # timed without tracemalloc, which slows every allocation
    for i in range(INSERTS):
        wb.insert(f"timed {i}")
    took = time.perf_counter() - t0
    counts = [(len(wb.filter), wb.filter.bits_set)]    # after each typed insert (ints: nothing held)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(INSERTS):
        wb.insert(f"typed {i}")
        counts.append((len(wb.filter), wb.filter.bits_set))
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    t0 = time.perf_counter()
    undone = 0      # the newest steps first: as many of the typed inserts as the stack still holds
    while undone < INSERTS and wb.undo_what == ("insert", f"typed {INSERTS - 1 - undone}") and wb.undo():
        undone += 1
    back = time.perf_counter() - t0
    back_to = counts[INSERTS - undone] == (len(wb.filter), wb.filter.bits_set)
    print(f"{variant:9s} m={m:.0e}: {INSERTS} typed inserts {took * 1e3:8.1f} ms ({took / INSERTS * 1e3:.2f} ms "
          f"each), {held / 2**20:8.1f} MiB held after them; "
          f"{undone} of them undoable, undone in {back * 1e3:.1f} ms; n and bits set back to those after "
          f"insert {INSERTS - undone}: {back_to}")


if __name__ == "__main__":
    run("standard", 10**8, 7)
    run("counting", 10**7, 7, counter_bits=4)
