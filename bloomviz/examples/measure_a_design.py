"""Design a filter for n items at a target rate, then build one and measure it: the exact expected rate
against what 10,000 strangers found in this one filter (the measurement is an estimate with an interval; the
exact rate is the mean over every filter the hash could have built)."""

import sys

from bloomviz.measure.experiment import Simulation
from bloomviz.theory.calculator import solve


def main(n: int = 10_000, p: float = 0.01) -> str:
    design = solve(n=n, p=p)
    run = Simulation(m=design.m, k=design.k, n=n, probes=10_000, seed=1)
    run.run(every=n)
    last = run.series.columns_at([len(run.series) - 1], ("n", "fp_measured", "fp_low", "fp_high"))
    low, high = float(last["fp_low"][0]), float(last["fp_high"][0])
    return (f"n = {n:,}, target {p:g}: m = {design.m:,} bits ({design.memory}), k = {design.k}\n"
            f"exact expected rate: {design.fp:.5f}\n"
            f"measured on one filter: {float(last['fp_measured'][0]):.5f} "
            f"(95 % interval of the probes {low:.5f} to {high:.5f})")


if __name__ == "__main__":
    print(main(*(float(a) if "." in a else int(a) for a in sys.argv[1:3])))
