"""``bloomviz calc``: size a filter, or give the false-positive rates of a given one.

Two questions, chosen by the options given:
  --n N --p P          design: k = ceil(log2(1/p)), m = ceil(-n ln p / (ln 2)^2) (the textbook design), its
                       exact rate, and beside it the smallest m that meets p exactly and its k
  --m M --k K --n N    analysis: the false-positive rates after n inserts (--k may be left out: the integer k
                       with the lowest exact rate for m and n is used)

The rates: exact = E[(X/m)^k] over the number X of bits set (what a filter really gives on average, with
independent positions); Bloom's formula (classic) = (1 - (1 - 1/m)^{kn})^k, which treats the bits as
independent and is below the exact rate for k >= 2 (by several per cent on small filters); the approximation
(1 - e^{-kn/m})^k; and the bound (1 - e^{-k(n+1/2)/(m-1)})^k, above the exact rate at every point checked.
"""

from __future__ import annotations

import json
import sys

from bloomviz.commands.common import (add_command, CliParser, design, fail, human_bytes, k_arg, m_arg, n_arg,
                                      one_in, p_arg, rate)

NAME = "calc"


def add_parser(subparsers) -> CliParser:
    parser = add_command(
        subparsers, NAME, __doc__,
        help="size a filter (--n --p) or compute its false-positive rates (--m --k --n)")
    parser.add_argument("--n", type=n_arg, metavar="N", help="number of items (1e6 and 1_000_000 are accepted)")
    parser.add_argument("--p", type=p_arg, metavar="P", help="target false-positive rate, 0 < P < 1")
    parser.add_argument("--m", type=m_arg, metavar="M", help="number of bits, 1 ... 2**34")
    parser.add_argument("--k", type=k_arg, metavar="K", help="number of hash positions per item, 1 ... 64")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return parser


def _mode(args) -> str:
    """'design' or 'analysis', or raise ValueError saying which options are missing or conflicting."""
    if args.n is None:
        raise ValueError("--n is required (with --p to design a filter, or with --m [--k] to analyse one)")
    if args.p is not None and (args.m is not None or args.k is not None):
        raise ValueError("give either --p (to design a filter) or --m and --k (to analyse one), not both")
    if args.p is not None:
        return "design"
    if args.m is not None:
        return "analysis"
    if args.k is not None:
        raise ValueError("--k needs --m (or give --p instead to design a filter)")
    raise ValueError("give --p (to design a filter for n items) or --m and --k (to analyse one)")


def compute(args) -> dict:
    """All the figures of one calc run, as plain numbers."""
    from bloomviz.theory import rates as theory

    mode = _mode(args)
    n = args.n
    if mode == "design":
        m, k, notes = design(n, args.p)
        k_given = True
    else:
        m, notes = args.m, []
        k_given = args.k is not None
        k = args.k if k_given else theory.optimal_k_int(m, n)
    fp_exact = theory.fp_exact(m, k, n)
    k_opt = theory.optimal_k_int(m, n)
    m_min = k_min = None
    if mode == "design":
        from bloomviz.theory.calculator import CalcError, smallest_exact_design
        try:
            m_min, k_min = smallest_exact_design(n, args.p)
        except CalcError as exc:
            notes.append(str(exc))
    return {
        "mode": mode, "n": n, "p": args.p if mode == "design" else fp_exact, "m": m, "k": k,
        "k_given": k_given, "fp_exact": fp_exact, "fp_classic": theory.fp_classic(m, k, n),
        "m_min": m_min, "k_min": k_min, "fp_approx": theory.fp_approx(m, k, n),
        "fp_bound": theory.fp_bound(m, k, n), "bits_per_element": theory.bits_per_element(m, n),
        "k_optimal": k_opt, "k_optimal_real": theory.optimal_k(m, n),
        "fp_at_k_optimal": theory.fp_exact(m, k_opt, n), "memory_bytes": (m + 7) // 8, "notes": notes,
    }


JSON_KEYS = ("n", "p", "m", "k", "fp_exact", "fp_approx", "fp_bound", "bits_per_element", "fp_classic",
             "m_min", "k_min")


def render_text(r: dict) -> str:
    def line(label: str, value: str) -> str:
        return f"  {label:<28}{value}"

    memory = f"{human_bytes(r['memory_bytes'])} ({r['memory_bytes']:,} bytes)"
    if r["mode"] == "design":
        out = [f"Filter for n = {r['n']:,} items at a false-positive rate of {r['p']:g}:",
               line("k (hash positions)", f"{r['k']}"),
               line("m (bits)", f"{r['m']:,}"),
               line("bits per element", f"{r['bits_per_element']:.2f}"),
               line("memory", memory),
               line("expected FP (exact)", f"{rate(r['fp_exact'])}  ({one_in(r['fp_exact'])})"
                                            + ("" if r["fp_exact"] <= r["p"] else "  — above p")),
               line("Bloom's formula (classic)", rate(r["fp_classic"])),
               line("FP approximation", rate(r["fp_approx"])),
               line("FP bound", rate(r["fp_bound"]))]
        if r["m_min"] is not None:
            out.append(line("smallest m with exact ≤ p", f"{r['m_min']:,} bits with k = {r['k_min']}"))
    else:
        how = "" if r["k_given"] else "  (optimal for this m, n)"
        out = [f"Filter with m = {r['m']:,} bits and k = {r['k']}{how}, after n = {r['n']:,} inserts:",
               line("FP exact", f"{rate(r['fp_exact'])}  ({one_in(r['fp_exact'])})"),
               line("Bloom's formula (classic)", rate(r["fp_classic"])),
               line("FP approximation", rate(r["fp_approx"])),
               line("FP bound", rate(r["fp_bound"])),
               line("optimal k for this m, n", f"{r['k_optimal']}  ((m/n) ln 2 = {r['k_optimal_real']:.2f}; "
                                               f"FP {rate(r['fp_at_k_optimal'])})"),
               line("bits per element", f"{r['bits_per_element']:.2f}"),
               line("memory", memory)]
    out += [f"  note: {note}" for note in r["notes"]]
    return "\n".join(out)


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    try:
        result = compute(args)
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)
    if args.json:
        print(json.dumps({key: result[key] for key in JSON_KEYS}))
    else:
        print(render_text(result))
    for note in result["notes"]:
        if args.json:
            print(f"{prog}: note: {note}", file=sys.stderr)
    return 0
