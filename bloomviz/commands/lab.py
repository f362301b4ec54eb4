"""``bloomviz lab``: a student's own Bloom filter measured against the exact rate for independent positions.

    bloomviz lab path/to/student.py:make_filter [--m 64,256,1024] [--k 1,3,6] [--n 8,32,128]
    bloomviz lab --example double_hashing       (the worked examples: good_filter, double_hashing, weak_hash)

THIS RUNS THE NAMED FILE'S CODE, as python would: only name files you trust. Nothing else in bloomviz runs a
student's code (lessons and session files are data, never code).

make_filter(m, k) is called once per (m, k) and returns either a function from an item (str) to its k
positions in [0, m), or an object with add(item) and `item in obj` (optionally its bit array as `bits` or
`bit_array`, and its positions(item)). At every grid point n fresh items are inserted and --probes strangers
looked up; the table gives the measured rate with its 95% Wilson interval, the exact rate for independent
positions E[(X/m)^k], and, when the bits are known, (X/m)^k for this filter's own X bits set (a stranger's
exact chance of passing).
What is wrong is named where it shows: false negatives, positions that coincide (more or less often than
independent ones), a biased position (chi-square over the positions), a fill or a rate outside what luck
explains. --svg writes a plot, --csv the rows.

Exit status: 0 when consistent with independent positions at every point, 1 when something was found, 2 for a
bad argument or a file that cannot be loaded.
"""

from __future__ import annotations

import argparse
import sys

from bloomviz.commands.common import (CliParser, Progress, add_command, fail, non_negative_int, output_path,
                                      parse_whole, positive_int)

NAME = "lab"
EXIT_CONSISTENT, EXIT_FOUND = 0, 1


def whole_list(name: str):
    def parse(text: str) -> tuple[int, ...]:
        parts = [p for p in text.replace(" ", "").split(",") if p]
        if not parts:
            raise argparse.ArgumentTypeError(f"{name} expects whole numbers separated by commas, got {text!r}")
        return tuple(parse_whole(p) for p in parts)
    return parse


def add_parser(subparsers) -> CliParser:
    from bloomviz.lab import grid
    parser = add_command(subparsers, NAME, __doc__,
                         help="run a student's own filter (FILE.py:NAME) over a grid of m, k, n against theory")
    from bloomviz.lab.examples import EXAMPLES
    parser.add_argument("spec", nargs="?", metavar="FILE.py:NAME", help="the student's file and its make_filter(m, k)")
    parser.add_argument("--example", choices=EXAMPLES, metavar="NAME",
                        help=f"run one of the worked examples instead: {', '.join(EXAMPLES)}")
    lists = (("--m", grid.DEFAULT_M, "filter sizes in bits"), ("--k", grid.DEFAULT_K, "numbers of positions"),
             ("--n", grid.DEFAULT_N, "numbers of items inserted"))
    for flag, default, what in lists:
        parser.add_argument(flag, type=whole_list(flag), default=default, metavar="A,B,...",
                            help=f"{what} (default {','.join(map(str, default))})")
    parser.add_argument("--probes", type=positive_int("--probes"), default=grid.DEFAULT_PROBES, metavar="P",
                        help=f"strangers looked up at each point (default {grid.DEFAULT_PROBES})")
    parser.add_argument("--seed", type=non_negative_int("--seed"), default=0, metavar="X",
                        help="chooses the items and strangers (default 0)")
    parser.add_argument("--svg", type=output_path, metavar="FILE", help="also write the plot as SVG")
    parser.add_argument("--csv", type=output_path, metavar="FILE", help="also write the rows as CSV (- for stdout)")
    return parser


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    from bloomviz.disk.atomic_write import AtomicWriter
    with AtomicWriter(path, what=f"the file {path!r}") as out:
        out.write(text.encode("utf-8"))


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    from bloomviz import lab
    from bloomviz.lab import report
    try:
        grid = lab.Grid(ms=args.m, ks=args.k, ns=args.n, probes=args.probes, seed=args.seed)
        if (args.spec is None) == (args.example is None):
            raise ValueError("give either FILE.py:NAME or --example NAME")
        from bloomviz.lab.examples import spec
        factory = lab.student.load(args.spec or spec(args.example))
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)
    progress = Progress("measuring")
    try:
        result = lab.run(factory, grid, progress)
    finally:
        progress.close()
    if args.csv != "-":
        sys.stdout.write(report.text(result))
    try:
        if args.svg:
            _write(args.svg, report.svg(result))
        if args.csv:
            _write(args.csv, report.csv_text(result))
    except OSError as exc:
        print(f"{prog}: error: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return EXIT_CONSISTENT if result.consistent else EXIT_FOUND
