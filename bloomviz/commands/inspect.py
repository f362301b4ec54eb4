"""``bloomviz inspect``: what a saved ``.bloom`` file holds.

Prints the header as stored (magic, format version, variant, hash scheme, m, k, the variant's parameters,
insert count, payload length, CRC32, which is verified against the whole file), then what the bits say: bits
set and fill ratio, the estimated number of items n ≈ -(m/k) ln(1 - X/m), the false-positive rate expected
from the bits set now, (X/m)^k, and the theory's rate for the stored insert count.

Other libraries' files (Parquet, Guava, pybloom-live, pyprobables, raw arrays; README: Opening other libraries'
filters) are recognised from their contents, or named with --format: the same numbers for each filter in the
file (every column chunk's filter of a Parquet file, or those chosen with --column/--row-group).

A file that cannot be read or is not a valid .bloom file: one line naming the file and what was wrong, exit 2.
"""

from __future__ import annotations

import json
import math
import os

from bloomviz.commands import foreign
from bloomviz.commands.common import add_command, CliParser, fail, human_bytes, one_in, rate
from bloomviz.theory.units import EVERY_BIT_SET
from bloomviz.filters.registry import VARIANTS

NAME = "inspect"


def add_parser(subparsers) -> CliParser:
    parser = add_command(
        subparsers, NAME, __doc__,
        help="print a saved filter's header, fill, estimated n and expected false-positive rate")
    parser.add_argument("file", metavar="FILE.bloom",
                        help="a filter saved by bloomviz (File → Save filter), or another library's filter file")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    foreign.add_options(parser)
    return parser


def open_filter(path: str):
    """(header, filter) of a .bloom file, or ValueError with one line naming the file and the problem."""
    from bloomviz.files import storage
    try:
        header = storage.read_header(path)
        flt = storage.load(path)
    except storage.FilterFormatError as exc:
        raise ValueError(str(exc)) from None
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror or exc}") from None
    except MemoryError:
        raise ValueError(f"{path}: not enough memory to hold this filter") from None
    return header, flt


def describe(path: str) -> dict:
    from bloomviz.files import storage
    from bloomviz.hashing.schemes import SCHEMES
    header, flt = open_filter(path)
    estimated = float(flt.estimated_count)
    return {
        "file": os.fspath(path), "file_bytes": os.path.getsize(path),
        "magic": storage.MAGIC.decode("ascii").replace("\x00", "\\0"), "version": header.version,
        "variant": header.variant, "scheme": header.scheme, "scheme_title": SCHEMES[header.scheme].title,
        "m": header.m, "k": header.k, "params": dict(header.params), "count": header.count,
        "payload_bytes": header.payload_length, "crc32": f"{header.crc:#010x}", "crc_ok": True,
        "bits_set": int(flt.bits_set), "fill": flt.bits_set / flt.m,
        "estimated_n": estimated if math.isfinite(estimated) else None,
        "expected_fp": float(flt.expected_fp), "theory_fp": flt.theory_fp(),
    }


def render_text(r: dict) -> str:
    def line(label: str, value: str) -> str:
        return f"  {label:<22}{value}"

    params = ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}" for k, v in r["params"].items())
    est = EVERY_BIT_SET if r["estimated_n"] is None else f"{r['estimated_n']:,.1f}"
    cells = "counters not 0" if VARIANTS[r["variant"]].capabilities.counting else "bits set"
    return "\n".join([
        f"{r['file']} ({r['file_bytes']:,} bytes)",
        line("magic", f"{r['magic']} (ok)"),
        line("format version", str(r["version"])),
        line("variant", r["variant"]),
        line("hash scheme", f"{r['scheme']} ({r['scheme_title']})"),
        line("m (bits)", f"{r['m']:,}"),
        line("k (hash positions)", str(r["k"])),
        line("parameters", params or "none"),
        line("inserts (count)", f"{r['count']:,}"),
        line("payload", f"{r['payload_bytes']:,} bytes ({human_bytes(r['payload_bytes'])})"),
        line("CRC32", f"{r['crc32']} OK (header and payload verified)"),
        line(cells, f"{r['bits_set']:,} of {r['m']:,} (fill {r['fill'] * 100:.2f}%)"),
        line("estimated n", f"{est}   (-(m/k) ln(1 - X/m); the header says {r['count']:,})"),
        line("expected FP now", f"{rate(r['expected_fp'])}  ({one_in(r['expected_fp'])}; (X/m)^k from the bits)"),
        line("theory FP at count", f"{rate(r['theory_fp'])}  ({one_in(r['theory_fp'])})"),
    ])


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    try:
        fmt = foreign.chosen_format(args)
        if fmt is None:
            result, text = describe(args.file), render_text
            foreign.refuse_foreign_options(args)   # after the file's own errors, which come first
        else:
            result, text = foreign.describe(args, fmt), foreign.render_text
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)
    print(json.dumps(result) if args.json else text(result))
    return 0
