"""``bloomviz simulate --filters F``: the false-positive rate averaged over F independent random filters.

One CSV row per n = 1…N: n, fp_mean (the mean over the filters of each filter's measured rate), fp_low and
fp_high (its 95 % interval, mean ± 1.96 standard errors across the filters), fp_exact (the exact rate
E[(X/m)^k]), fp_classic (Bloom's formula), filters, probes (per filter). The mean lands on the exact rate
with a good hash scheme and off the classic formula at small m: at m = 32, k = 4, n = 5 with 10^5 filters the
interval is about ±0.5 % of the rate, while the two formulas differ by 6 %.
"""

from __future__ import annotations

from bloomviz.commands.common import Progress, design_from_options, fail, open_csv, rate, row_indices, write_csv
from bloomviz.filters.registry import DEFAULT_VARIANT

ENSEMBLE_DEFAULT_PROBES = 32
COLUMNS = ("n", "fp_mean", "fp_low", "fp_high", "fp_exact", "fp_classic", "filters", "probes")


def run_ensemble_command(args, prog: str) -> int:
    """Run the ensemble the options describe and write its CSV (through the commands' one CSV writer)."""
    from bloomviz.measure.ensemble import EnsembleJob
    variant = getattr(args, "variant", None)
    if args.items is not None or (variant is not None and variant != DEFAULT_VARIANT) or args.save is not None:
        return fail(prog, "--filters measures standard filters filled with random items: it does not take "
                          "--items, --variant or --save")
    if args.n is None:
        return fail(prog, "--filters needs --n (the items each filter receives)")
    try:
        if args.p is not None:
            m, k = design_from_options(args, args.n, prog)
        elif args.m is None or args.k is None:
            raise ValueError("--filters needs --m and --k (or --p to design them for n items)")
        else:
            m, k = args.m, args.k
        probes = args.probes if args.probes is not None else ENSEMBLE_DEFAULT_PROBES
        # made before the CSV is opened: its sizes are checked here, so a refusal costs no file and no work
        job = EnsembleJob(m, k, args.n, args.filters, scheme=args.scheme, probes=probes, seed=args.seed)
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)
    to_stdout = args.csv == "-"
    target, refused = open_csv(prog, args.csv)
    if refused:
        return refused
    result = None

    def measure_and_write(out) -> None:
        nonlocal result
        progress = Progress("filters")
        try:
            while not job.finished:
                job.step()
                progress(job.done, job.total)
        finally:
            progress.close()
        result = job.result()
        out.write(",".join(COLUMNS) + "\n")
        for i in row_indices(args.n, args.every):
            out.write(f"{result.n[i]},{result.mean[i]:.9g},{result.low[i]:.9g},{result.high[i]:.9g},"
                      f"{result.fp_exact[i]:.9g},{result.fp_classic[i]:.9g},{result.filters},{result.probes}\n")

    failed = write_csv(prog, args.csv, target, measure_and_write)
    if failed:
        return failed
    if not to_stdout:
        print(f"{args.filters:,} filters of m = {m:,} bits, k = {k}, {args.n:,} items each ({result.scheme}): "
              f"mean rate {rate(result.mean[-1])} [{rate(result.low[-1])}, {rate(result.high[-1])}], "
              f"exact {rate(result.fp_exact[-1])}, classic {rate(result.fp_classic[-1])}; wrote {args.csv}")
    return 0
