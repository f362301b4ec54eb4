"""``bloomviz explore``: the false-positive rate against k for a given m and n, as CSV (one row per k).

Columns: k, fp_exact, fp_approx, fp_bound (theory) and, with --measure, fp_measured, fp_low, fp_high: the rate
measured on a fresh filter per k after inserting n seeded random items, over P probes that are not members,
with its 95% Wilson interval. --k-range A:B includes both ends (1 <= A <= B <= 64).
"""

from __future__ import annotations

import argparse

from bloomviz.commands.common import (add_command, CliParser, Progress, fail, m_arg, n_arg, non_negative_int,
                                      open_csv, output_path, positive_int, rate, scheme_arg, write_csv)

NAME = "explore"
THEORY_COLUMNS = ("k", "fp_exact", "fp_approx", "fp_bound")
MEASURED_COLUMNS = ("fp_measured", "fp_low", "fp_high")
FLOAT_FORMAT = "{:.9g}"


def k_range_arg(text: str) -> list[int]:
    from bloomviz.studies.explore import parse_k_range
    try:
        return parse_k_range(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(subparsers) -> CliParser:
    from bloomviz.hashing.schemes import DEFAULT_SCHEME, SCHEMES
    parser = add_command(
        subparsers, NAME, __doc__,
        help="false-positive rate against k for given m and n (theory, optionally measured), as CSV")
    parser.add_argument("--m", type=m_arg, required=True, metavar="M", help="number of bits")
    parser.add_argument("--n", type=n_arg, required=True, metavar="N", help="number of items inserted")
    parser.add_argument("--k-range", type=k_range_arg, required=True, metavar="A:B", dest="k_range",
                        help="the k values, both ends included, e.g. 1:12")
    parser.add_argument("--measure", action="store_true", help="also measure each k on a simulated filter")
    parser.add_argument("--probes", type=positive_int("--probes"), default=10_000, metavar="P",
                        help="non-member items whose lookups measure the rate (default 10000)")
    parser.add_argument("--seed", type=non_negative_int("--seed"), default=0, metavar="X",
                        help="seed of the random items and probes (default 0)")
    parser.add_argument("--scheme", type=scheme_arg, default=DEFAULT_SCHEME, metavar="S",
                        help=f"hash scheme for --measure: {', '.join(SCHEMES)} (default {DEFAULT_SCHEME})")
    parser.add_argument("--csv", required=True, type=output_path, metavar="FILE",
                        help="where to write the rows; - for stdout")
    return parser


def compute(args, progress=None) -> dict:
    """The columns of the CSV as arrays; ValueError names a refused argument."""
    from bloomviz.studies import explore
    if args.measure:
        job = explore.KMeasurement(args.m, args.n, args.k_range, probes=args.probes, seed=args.seed,
                                   scheme=args.scheme)
        return job.run(progress=progress)
    return explore.k_sweep(args.m, args.n, args.k_range)


def csv_text(columns: dict, measured: bool) -> str:
    names = THEORY_COLUMNS + (MEASURED_COLUMNS if measured else ())
    lines = [",".join(names)]
    for i in range(len(columns["k"])):
        cells = [str(int(columns["k"][i]))] + [FLOAT_FORMAT.format(float(columns[c][i])) for c in names[1:]]
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    from bloomviz.studies.explore import k_optimum
    target, refused = open_csv(prog, args.csv)   # opened first, so an unwritable path fails before any work
    if refused:
        return refused
    columns = None

    def compute_and_write(out) -> None:
        nonlocal columns
        progress = Progress("measuring") if args.measure else None
        try:
            columns = compute(args, progress)
        finally:
            if progress is not None:
                progress.close()
        out.write(csv_text(columns, args.measure))

    try:
        failed = write_csv(prog, args.csv, target, compute_and_write)
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)
    if failed:
        return failed
    if target is not None:
        k_real, k_best = k_optimum(args.m, args.n)
        ks = list(columns["k"])
        where = (f"; exact rate {rate(float(columns['fp_exact'][ks.index(k_best)]))} there"
                 if k_best in ks else " (outside the range written)")
        print(f"wrote {len(ks)} rows to {args.csv} (m = {args.m:,}, n = {args.n:,}); "
              f"optimal k = {k_best} ((m/n) ln 2 = {k_real:.3f}){where}")
    return 0
