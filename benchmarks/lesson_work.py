"""Lesson actions: measured CPU seconds against the budget's estimate (``bloomviz.lessons.costs``), as ratios.

The budget refuses a lesson action whose estimate is over ``budget.ACTION_SECONDS`` and a lesson whose estimates
add up past ``budget.LESSON_SECONDS``; that bounds the real work only if every estimate is at least the work. This
prints, per representative action, the CPU seconds it took (this process, after a warm-up) and the ratio
measured / estimated: a ratio above 1 is an estimate to raise (its coefficient in ``budget.py``).

    python benchmarks/lesson_work.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # the bloomviz beside it, not the installed one

from bloomviz.lessons import LessonRunner, parse_text  # noqa: E402
from bloomviz.lessons.actions import action_cost, apply  # noqa: E402
from bloomviz.lessons.costs import report_cost  # noqa: E402

CASES = {
    "insert-random 1e6, k=7": "filter m=16777216 k=7\ninsert-random 1000000",
    "insert-random 2e5, k=64": "filter m=16777216 k=64\ninsert-random 200000",
    "insert-random 5e4, sha256 k=8": "filter m=1000000 k=8 scheme=sha256-salted\ninsert-random 50000",
    "insert 2,000 named": "filter m=1000000 k=7\ninsert " + " ".join(f"w{i}" for i in range(2000)),
    "lookup 300, culprits of 1,000": ("filter m=1000000 k=7\ninsert " + " ".join(f"w{i}" for i in range(1000))
                                      + "\nlookup " + " ".join(f"x{i}" for i in range(300))),
    "measure 200,000 probes": "filter m=1000000 k=7\ninsert-random 1000\nmeasure probes=200000\nexpect k=7",
    "ensemble 20,000 x (4 + 32) at m=1e4": "filter m=10000 k=4\ninsert-random 4\nensemble filters=20000 n=4",
    "counting 2e5": "filter m=1000000 k=7 variant=counting\ninsert-random 200000",
    "scalable 2e5": "filter variant=scalable capacity=1000 p=0.01\ninsert-random 200000",
    "kedmi": "kedmi density=0.36",
}


def measure(body: str) -> tuple[float, float]:
    """(CPU seconds, estimated seconds) of the last action of a one-step lesson and its report."""
    lesson = parse_text(f"# B\n\n## S\n\n```bloomviz\n{body}\n```\n")
    runner = LessonRunner(lesson)
    state = runner.state
    *before, last = lesson.steps[0].actions
    for action in before:
        apply(state, action, [])
    estimate = action_cost(state, last)[0]
    started = time.process_time()
    apply(state, last, [])
    from bloomviz.lessons.state import snapshot
    estimate += report_cost(state)
    snapshot(state)
    return time.process_time() - started, estimate


def main() -> None:
    measure("filter m=1000 k=3\ninsert-random 1000")       # the hashing kernels' first call, not counted
    print(f"{'action':40s} {'measured s':>11s} {'estimate s':>11s} {'ratio':>7s}")
    for name, body in CASES.items():
        took, estimate = measure(body)
        print(f"{name:40s} {took:11.3f} {estimate:11.3f} {took / estimate:7.2f}")


if __name__ == "__main__":
    main()
