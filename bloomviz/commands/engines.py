"""``bloomviz engines``: what Cassandra, RocksDB, Parquet writers, ClickHouse, Redis, git, Ethereum, Spark, ORC
and Hudi actually build for n entries from their settings, and the rate that gives.

Each engine's sizing rule is its code's (``bloomviz.theory.engines`` names the source): the bits it allocates
(rounded to words, cache lines or powers of two), its k, its layout, and the false-positive rate of that
filter at n entries (exact for independent positions; per block for Parquet's and RocksDB's blocked layouts).
Settings are the engine's own (``--set fp_chance=0.001``, ``--set bits_per_key=12``); without ``--engine``
every engine is listed with its defaults, so one n compares them all.
"""

from __future__ import annotations

import inspect as pyinspect
import json

from bloomviz.commands.common import add_command, CliParser, fail, n_arg, one_in, rate
from bloomviz.theory.units import real_number

NAME = "engines"


def add_parser(subparsers) -> CliParser:
    parser = add_command(subparsers, NAME, __doc__,
                         help="what real engines (Cassandra, RocksDB, Parquet, ClickHouse, Redis, git ...) build for n "
                              "entries, and its rate")
    parser.add_argument("--n", type=n_arg, required=True, metavar="N", help="entries in one filter")
    parser.add_argument("--engine", metavar="NAME", help="one engine (default: all, with their default settings)")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                        help="an engine setting, e.g. fp_chance=0.001 (repeatable; needs --engine)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def _settings(build, pairs: list[str]) -> dict:
    params = pyinspect.signature(build).parameters
    out = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or key not in params or key == "n":
            known = ", ".join(p for p in params if p != "n") or "none"
            raise ValueError(f"--set {pair!r}: settings of this engine are {known} (as KEY=VALUE)")
        default = params[key].default
        if isinstance(default, bool):
            if text.strip().lower() not in ("true", "false", "1", "0"):
                raise ValueError(f"--set {key}: expected true or false, got {text!r}")
            out[key] = text.strip().lower() in ("true", "1")
        elif isinstance(default, int) or (default is None and key == "capacity"):
            out[key] = n_arg(text)
        elif isinstance(default, float):
            value = real_number(text)         # (the one decimal reader: inf, nan or 0,01 are no settings)
            if value is None:
                raise ValueError(f"--set {key}: expected a number, got {text!r}")
            out[key] = value
        else:
            out[key] = text.strip()
    return out


def run(args) -> int:
    try:
        return _run(args)
    except (ValueError, TypeError) as exc:
        return fail(f"bloomviz {NAME}", exc)


def _run(args) -> int:
    from bloomviz.theory.engines import ENGINES
    if args.engine is not None and args.engine not in ENGINES:
        raise ValueError(f"unknown engine {args.engine!r}; known: {', '.join(ENGINES)}")
    if args.settings and args.engine is None:
        raise ValueError("--set needs --engine NAME (settings differ between engines)")
    names = [args.engine] if args.engine else list(ENGINES)
    built = [ENGINES[name](args.n, **_settings(ENGINES[name], args.settings)) for name in names]
    if args.json:
        print(json.dumps([b.__dict__ for b in built]))
        return 0
    print(f"{'engine':<11}{'settings':<46}{'m (bits)':>13}{'k':>4}  {'layout':<11}{'bits/entry':>11}  rate at n")
    for b in built:
        settings = ", ".join(f"{k}={v}" for k, v in b.settings.items()) or "-"
        per = f"{b.m / b.n:.2f}" if b.n else "-"
        print(f"{b.engine:<11}{settings:<46}{b.m:>13,}{b.k:>4}  {b.layout:<11}{per:>11}  {rate(b.rate)} "
              f"({one_in(b.rate)})")
    if len(built) == 1:
        for note in built[0].notes:
            print(f"  note: {note}")
        print(f"  from: {built[0].source}")
    return 0
