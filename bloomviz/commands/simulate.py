"""``bloomviz simulate``: insert n items into a fresh filter and measure its false-positive rate after each.

The rate is exact for a fixed set of probes (seeded random items that are not members), measured after every
insert (bloomviz.measure.pipeline). A CSV row is written every E inserts, and always for the last insert.
Items are generated unless --items FILE gives them (one per line, UTF-8): seeded, distinct by construction,
made and hashed in numpy a chunk at a time and never held, so n is limited by time, not memory. The rows kept
for the CSV are held (32 bytes each, at most 50 million: --n / --every <= 50 million); --items holds its
items too (n <= 50 million). --save FILE.bloom also writes the filter as it is after the last insert (read it
back with inspect and check, or File → Open). Every variant, a scalable filter too, gets the same generated
items for the same seed (a scalable filter used to draw other random items, held in memory).

Columns: n, fp_measured, fp_low, fp_high (95% Wilson interval), fp_exact, fp_approx, fp_bound (theory),
fill (bits set / m), fill_expected, n_estimated (-(m/k) ln(1 - fill); inf once every bit is set).

--variant counting | scalable | partitioned | blocked measures that kind of filter instead (standard is the
default) and adds a last column, fp_variant: the variant's own theory. The classic columns keep the standard
formulas at the filter's m and k, for comparison (a scalable filter has no single m and k: they are nan).
A scalable filter takes --initial-capacity and --p (the rate bound) instead of --m and --k.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

import numpy as np

from bloomviz.commands.common import (add_command, CliParser, Progress, design_from_options, fail, input_path,
                                      k_arg, m_arg, n_arg, non_negative_int, open_csv, output_path, p_arg,
                                      parse_real, parse_whole, positive_int, rate, scheme_arg, write_csv)
from bloomviz.commands.common import AtomicText, row_indices  # noqa: F401 - simulate's names before they moved
from bloomviz.theory import limits
from bloomviz.theory.limits import SIMULATE_MAX_PROBES as MAX_PROBES

NAME = "simulate"
MAX_N = limits.SIMULATE_MAX_N
MAX_ROWS = 50_000_000     # rows kept for the CSV: 32 bytes each, 1.6 GB at most; generated items are not held
DEFAULT_PROBES = 10_000
CSV_BLOCK = 1 << 16       # rows formatted per step: bounds the temporary text
FLOAT_FORMAT = "%.9g"


def add_parser(subparsers) -> CliParser:
    from bloomviz.hashing.schemes import DEFAULT_SCHEME, SCHEMES
    parser = add_command(
        subparsers, NAME, __doc__,
        help="measure a filter's false-positive rate insert by insert, as CSV")
    size = parser.add_argument_group("the filter (give --m and --k, or --p to design it for n items)")
    size.add_argument("--m", type=m_arg, metavar="M", help="number of bits")
    size.add_argument("--k", type=k_arg, metavar="K", help="hash positions per item")
    size.add_argument("--p", type=p_arg, metavar="P", help="target false-positive rate: m and k for n items")
    size.add_argument("--scheme", type=scheme_arg, default=DEFAULT_SCHEME, metavar="S",
                      help=f"hash scheme: {', '.join(SCHEMES)} (default {DEFAULT_SCHEME})")
    variants = parser.add_argument_group("the variant (default: a standard filter)")
    variants.add_argument("--variant", default="standard", metavar="NAME",
                          help="standard, counting, scalable, partitioned or blocked")
    variants.add_argument("--counter-bits", type=parse_whole, metavar="C",
                          help="counting: bits per counter, 1 to 8 (default 4)")
    variants.add_argument("--initial-capacity", type=parse_whole, metavar="N0",
                          help="scalable: items the first stage holds")
    variants.add_argument("--growth", type=parse_whole, metavar="S", help="scalable: 2 or 4 (default 2)")
    variants.add_argument("--tightening", type=parse_real, metavar="R",
                          help="scalable: 0.5 to 0.95 (default 0.9)")
    variants.add_argument("--block-bits", type=parse_whole, metavar="B",
                          help="blocked: bits per block, a power of two (default 512)")
    parser.add_argument("--n", type=n_arg, metavar="N",
                        help="items to insert (with --items: the first N lines; default all of them)")
    parser.add_argument("--items", type=input_path, metavar="FILE",
                        help="insert the lines of this UTF-8 text file instead of random items")
    parser.add_argument("--probes", type=positive_int("--probes"), default=None, metavar="P",
                        help="non-member items whose lookups measure the rate (default 10000; with --filters: "
                             "per filter, default 32)")
    parser.add_argument("--filters", type=positive_int("--filters"), metavar="F",
                        help="average over F independent random filters instead: one row per n with the mean "
                             "rate, its 95%% interval, the exact rate and Bloom's classic formula")
    parser.add_argument("--seed", type=non_negative_int("--seed", high=None), default=0, metavar="X",
                        help="seed of the random items and probes (default 0)")
    parser.add_argument("--every", type=positive_int("--every"), default=1, metavar="E",
                        help="write a row every E inserts (default 1)")
    parser.add_argument("--csv", required=True, type=output_path, metavar="FILE",
                        help="where to write the rows; - for stdout")
    parser.add_argument("--save", type=input_path, metavar="FILE.bloom",
                        help="also save the filter after the last insert as a .bloom file")
    return parser


# --- building the run -----------------------------------------------------------------------------------
def _read_items(path: str, limit: int | None, stream: TextIO) -> list[str]:
    from bloomviz.items.encoding import LineReport, read_item_lines
    report = LineReport()
    items: list[str] = []
    for text, _ in read_item_lines(path, report):
        items.append(text)
        if limit is not None and len(items) >= limit:
            break
    if report.undecodable:
        shown = ", ".join(map(str, report.undecodable[:50]))
        more = f" and {len(report.undecodable) - 50} more" if len(report.undecodable) > 50 else ""
        print(f"bloomviz {NAME}: warning: {path}: {len(report.undecodable)} line(s) are not valid UTF-8 and "
              f"were skipped: line {shown}{more}", file=stream)
    if not items:
        raise ValueError(f"{path}: holds no items (every line is blank or undecodable)")
    if limit is not None and len(items) < limit:
        raise ValueError(f"--n is {limit:,} but {path} holds only {len(items):,} items")
    return items


def build_simulation(args, warnings: TextIO | None = None):
    """The Simulation the options describe; ValueError/TypeError/ItemFileError name what was refused."""
    from bloomviz.measure.experiment import Simulation
    if args.probes is None:
        args.probes = DEFAULT_PROBES
    if args.probes > MAX_PROBES:
        raise ValueError(f"--probes is {args.probes:,}; at most {MAX_PROBES:,} are supported")
    items = None
    if args.items is not None:
        items = _read_items(args.items, args.n, warnings or sys.stderr)
        n = len(items)
    elif args.n is None:
        raise ValueError("--n is required (how many random items to insert), or give --items FILE")
    else:
        n = args.n
    if n > MAX_N and items is not None:
        raise ValueError(f"--n is {n:,}; simulate holds items read from a file in memory and supports at most "
                         f"{MAX_N:,} of them")
    every = getattr(args, "every", 1)
    rows = -(-n // every) + 1
    if rows > MAX_ROWS:
        raise ValueError(f"--n {n:,} with --every {every:,} keeps {rows:,} rows; at most {MAX_ROWS:,} "
                         f"(32 bytes each) are kept: raise --every to at least {-(-n // (MAX_ROWS - 1)):,}")
    flt = _variant_filter(args, getattr(args, "variant", None) or "standard", n)
    return Simulation(flt=flt, n=n, probes=args.probes, seed=args.seed, items=items)


VARIANT_OPTIONS = {"counter_bits": "--counter-bits", "initial_capacity": "--initial-capacity",
                   "growth": "--growth", "tightening": "--tightening", "block_bits": "--block-bits"}


def _variant_filter(args, variant: str, n: int):
    """The variant's filter built from the options; a parameter the variant does not take, or a bad value, is
    refused naming the option. A filter built from m and k takes --m and --k (or --p to design them for n);
    one that grows from a capacity (not ``sized``) takes --initial-capacity and --p, its bound."""
    from bloomviz.filters.registry import PARAMETERS, VARIANTS, check_variant, make_filter
    check_variant(variant)
    given = {name: getattr(args, name, None) for name in VARIANT_OPTIONS}
    given = {name: value for name, value in given.items() if value is not None}
    for name in given:
        if name not in PARAMETERS[variant]:
            raise ValueError(f"{VARIANT_OPTIONS[name]} does not apply to a {variant} filter")
    if not VARIANTS[variant].capabilities.sized:
        if args.m is not None or args.k is not None:
            raise ValueError(f"a {variant} filter chooses m and k per stage: give --initial-capacity and --p, "
                             "not --m or --k")
        if args.p is None or given.get("initial_capacity") is None:
            raise ValueError(f"a {variant} filter needs --initial-capacity and --p (the bound on its rate)")
        return make_filter(variant, p=args.p, scheme=args.scheme, **given)
    m, k = design_from_options(args, n, f"bloomviz {NAME}")
    return make_filter(variant, m=m, k=k, scheme=args.scheme, **given)


# --- writing the rows -----------------------------------------------------------------------------------
def write_rows(series, indices: np.ndarray, out: TextIO, progress=None, extra: dict | None = None) -> None:
    """The CSV text, formatted a block of rows at a time (one % over a block: no per-row Python work).
    ``extra``: more columns (name -> array over every row of the series), written after the series' own."""
    from bloomviz.measure.series import columns_at
    columns = list(type(series).COLUMNS) + list(extra or {})
    out.write(",".join(columns) + "\n")
    row_format = ",".join(["%d"] + [FLOAT_FORMAT] * (len(columns) - 1)) + "\n"
    extra_data = list((extra or {}).values())
    total = indices.size
    for start in range(0, total, CSV_BLOCK):
        idx = indices[start:start + CSV_BLOCK]
        # a measured series computes its theory and intervals here, for the rows written, a block at a time
        values = columns_at(series, idx, type(series).COLUMNS)
        block = np.empty((idx.size, len(columns)), dtype=float)
        for j, col in enumerate([values[c] for c in type(series).COLUMNS] + [e[idx] for e in extra_data]):
            block[:, j] = col
        out.write((row_format * idx.size) % tuple(block.ravel().tolist()))
        if progress is not None:
            progress(start + idx.size, total)


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    # The window's kernel file, where one was written (hashing/native_kernels.py): the same machine code numba
    # would compile, loaded without importing numba (~0.5 s of CPU a run). Absent or stale: numba, as before.
    # Never built from here: a build is a numba compile of every kernel, more than a run saves.
    from bloomviz.hashing import native_kernels
    native_kernels.load()
    if args.filters is not None:
        from bloomviz.commands.simulate_ensemble import run_ensemble_command
        return run_ensemble_command(args, prog)
    from bloomviz.filters.standard import BloomFilter
    from bloomviz.items.encoding import ItemFileError
    try:
        simulation = build_simulation(args)
    except ItemFileError as exc:
        return fail(prog, f"argument --items: {exc}")
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)

    if args.save is not None:
        refused = _check_save_target(args.save)
        if refused:
            return fail(prog, f"argument --save: cannot write {args.save!r}: {refused}")
    to_stdout = args.csv == "-"
    target, refused = open_csv(prog, args.csv)
    if refused:
        return refused
    indices = None

    def simulate_and_write(out: TextIO) -> None:
        nonlocal indices
        progress = Progress("simulating")
        try:
            series = simulation.run(every=args.every, progress=progress)
        finally:
            progress.close()
        indices = np.arange(len(series))     # the simulation kept only the rows to write
        extra = None
        flt = simulation.filter
        if type(flt) is not BloomFilter:   # a variant: its own theory beside the standard formulas
            extra = {"fp_variant": flt.theory_fp(series.column("n"), samples=2000)}
        writing = Progress("writing CSV")
        try:
            write_rows(series, indices, out, writing, extra)
        finally:
            writing.close()

    failed = write_csv(prog, args.csv, target, simulate_and_write)
    if failed:
        return failed
    series = simulation.series
    if args.save is not None:
        from bloomviz.files import storage
        try:
            storage.save(simulation.filter, args.save)
        except (OSError, ValueError, TypeError) as exc:
            print(f"{prog}: error: saving the filter to {args.save!r} failed: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return 1
    if not to_stdout:
        last = series.row(len(series) - 1)
        flt = simulation.filter
        theory = f"exact {rate(last['fp_exact'])}"
        if np.isnan(last["fp_exact"]):      # (a filter the standard formulas do not describe: a scalable one)
            theory = f"the {flt.variant} filter's theory {rate(float(flt.theory_fp(int(last['n']))))}"
        print(f"wrote {indices.size:,} rows to {args.csv} (m = {flt.m:,}, k = {flt.k}, scheme {flt.scheme}); "
              f"after n = {int(last['n']):,}: measured FP {rate(last['fp_measured'])} "
              f"[{rate(last['fp_low'])}, {rate(last['fp_high'])}], {theory}")
    if args.save is not None:
        print(f"saved the filter to {args.save}", file=sys.stderr if to_stdout else sys.stdout)
    return 0


def _check_save_target(path: str) -> str:
    """Why ``path`` cannot take the filter, or "" (checked before the run, so a bad path costs no work)."""
    from bloomviz.disk.safe_files import check_writable_target
    try:
        check_writable_target(path, "a .bloom file")
    except OSError as exc:
        return exc.strerror or str(exc)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"no such directory: {folder}"
    return ""
