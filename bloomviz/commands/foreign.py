"""``inspect`` and ``check`` on other libraries' files (``bloomviz.formats``): options, choice, output.

A file goes down the ``.bloom`` path unless ``--format`` names another format or its contents are
recognised as one (``formats.detect``); so every ``.bloom`` file, and every file nothing recognises, gets
exactly the messages and exit codes it always did.
"""

from __future__ import annotations

import argparse
import os

from bloomviz.commands.common import human_bytes, non_negative_int, one_in, positive_int, rate

BLOOMVIZ = "bloomviz"


def add_options(parser: argparse.ArgumentParser) -> None:
    from bloomviz.formats import FORMATS
    group = parser.add_argument_group("other libraries' files (see README: Opening other libraries' filters)")
    group.add_argument("--format", choices=[BLOOMVIZ, *FORMATS], metavar="F",
                       help=f"read FILE as this format instead of detecting it: {', '.join([BLOOMVIZ, *FORMATS])}")
    group.add_argument("--column", metavar="C", help="Parquet: only this column's filters (dotted path)")
    group.add_argument("--row-group", type=non_negative_int("row group"), metavar="G",
                       help="Parquet: only this row group's filters (from 0)")
    group.add_argument("--funnel", choices=["utf8", "chars", "int", "long", "bytes"],
                       help="Guava: how items were fed to the filter (default utf8, Funnels.stringFunnel(UTF_8))")
    group.add_argument("--hashing", choices=["xxh128", "md5"],
                       help="pybloom-live: hashing of small filters, xxh128 (4.0, default) or md5 (3.x)")
    group.add_argument("--known-member", metavar="ITEM",
                       help="pybloom-live: an item known to be in the filter; the hashing that finds it is used")
    group.add_argument("--m", type=positive_int("m"), metavar="M", help="raw: bits in the array (default: all)")
    group.add_argument("--k", type=positive_int("k"), metavar="K", help="raw: hash positions per item")
    group.add_argument("--word-bytes", type=int, choices=[1, 2, 4, 8], default=None,
                       help="raw: bytes per word (default 1)")
    group.add_argument("--byteorder", choices=["little", "big"], help="raw: byte order of the words")
    group.add_argument("--bitorder", choices=["lsb", "msb"], help="raw: bit 0 is each byte's lsb (default) or msb")
    group.add_argument("--offset", type=non_negative_int("offset"), help="raw: bytes to skip before the bits")


_OPTION_NAMES = {"column": "column", "row_group": "row_group", "funnel": "funnel", "hashing": "hashing",
                 "known_member": "known_member", "m": "m", "k": "k", "word_bytes": "word_bytes",
                 "byteorder": "byteorder", "bitorder": "bitorder", "offset": "offset"}


def chosen_format(args) -> str | None:
    """The foreign format to read ``args.file`` as, or None for the ``.bloom`` path."""
    from bloomviz import formats
    if args.format == BLOOMVIZ:
        return None
    if args.format:
        return args.format
    try:
        found = formats.detect(args.file)
    except (OSError, ValueError):
        return None   # the .bloom path reports missing files, directories and FIFOs as it always has
    return None if found in (None, "bloomviz") else found


def refuse_foreign_options(args) -> None:
    given = [f"--{name.replace('_', '-')}" for name in _OPTION_NAMES if getattr(args, name, None) is not None]
    if given:
        verb = "applies" if len(given) == 1 else "apply"
        raise ValueError(f"{', '.join(given)} {verb} to other libraries' files, not to a .bloom file")


def open_filters(args, fmt: str) -> list:
    """The filters of ``args.file`` read as ``fmt``; ValueError with one line on any refusal."""
    from bloomviz import formats
    options = {key: getattr(args, name) for name, key in _OPTION_NAMES.items() if getattr(args, name, None) is not None}
    try:
        return formats.open_filters(args.file, fmt, **options)
    except OSError as exc:
        raise ValueError(f"{args.file}: {exc.strerror or exc}") from None
    except MemoryError:
        raise ValueError(f"{args.file}: not enough memory to hold this filter") from None


def describe(args, fmt: str) -> dict:
    from bloomviz.formats import FORMATS
    filters = open_filters(args, fmt)
    return {"file": os.fspath(args.file), "file_bytes": os.path.getsize(args.file), "format": fmt,
            "format_title": FORMATS[fmt].TITLE,
            "filters": [{**f.summary(), "layout_text": layout_text(f.m, f.k, f.layout)} for f in filters]}


def _link_text(m: int, k: int, slice_bits: int) -> str:
    if slice_bits:
        return f"m = {m:,}, k = {k}, partitioned: {k} slices of {slice_bits:,} bits"
    return f"m = {m:,}, k = {k}, one array"


def layout_text(m: int, k: int, layout: dict) -> str:
    """The filter's layout in words, read from the layout the reader recorded (not from the format's name): a
    scalable filter's links say themselves whether each is partitioned (slice bits > 0) or one array."""
    kind = layout["kind"]
    if kind == "blocks":
        block, word = layout["block_bits"], layout["word_bits"]
        return (f"{m // block:,} blocks of {block} bits ({block // word} {word}-bit words; each item sets one bit "
                f"per word)")
    if kind == "slices":
        return f"{layout['slices']} slices of {layout['slice_bits']:,} bits (each item sets one bit per slice)"
    if kind == "links":
        # a chain of filters one after another; whether it grows is the format's business (its label says)
        links = layout["links"]
        head = f"{len(links)} links one after another, each" if len(links) > 1 else "1 link,"
        if all(sb for *_rest, sb in links):
            return f"{head} a partitioned filter with its own m and k (k slices, one bit per slice)"
        if not any(sb for *_rest, sb in links):
            return f"{head} one array with its own m and k (positions anywhere in that link's bits)"
        return f"{len(links)} links one after another: " + "; ".join(f"link {i}: {_link_text(lm, lk, sb)}"
                                       for i, (_off, lm, lk, sb) in enumerate(links))
    return "one array (positions anywhere in 0..m-1)"


def _value(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, list):
        return ", ".join(map(str, v))
    return str(v)


def render_text(r: dict) -> str:
    def line(label: str, value: str) -> str:
        return f"  {label:<22}{value}"

    out = [f"{r['file']} ({r['file_bytes']:,} bytes)", line("format", f"{r['format']} ({r['format_title']})")]
    if len(r["filters"]) > 1:
        out.append(line("filters", str(len(r["filters"]))))
    for s in r["filters"]:
        if len(r["filters"]) > 1 or s["label"]:
            out.append(f"  [{s['label']}]")
        est = "∞ (every bit is set)" if s["estimated_n"] is None else f"{s['estimated_n']:,.1f}"
        out += [line("m (bits)", f"{s['m']:,} ({human_bytes(s['m'] / 8)})"), line("k (hash positions)", str(s["k"])),
                line("layout", s["layout_text"])]
        for key, value in s["fields"].items():
            if isinstance(value, list) and value and isinstance(value[0], dict):   # a scalable filter's links
                out += [line(f"{key[:-1] if key.endswith('s') else key} {i}",
                             ", ".join(f"{k} = {_value(v)}" for k, v in entry.items()))
                        for i, entry in enumerate(value)]
            elif key != "blocks":
                out.append(line(key, _value(value)))
        out += [line("bits set", f"{s['bits_set']:,} of {s['m']:,} (fill {s['fill'] * 100:.2f}%)"),
                line("estimated n", f"{est}   (from the bits set, by the layout's occupancy)"),
                line("expected FP now", f"{rate(s['expected_fp'])}  ({one_in(s['expected_fp'])}; from the bits)"),
                line("membership", ("reproduced: " if s["membership"] else "not reproducible: ") + s["hashing"])]
        out += [line("note", note) for note in s["notes"]]
    return "\n".join(out)


def check_filters(args, fmt: str) -> list:
    """The filters ``check`` looks items up in: one column's (all its row groups, or the one chosen)."""
    filters = open_filters(args, fmt)
    columns = sorted({f.fields.get("column") for f in filters if "column" in f.fields})
    if len(columns) > 1:
        raise ValueError(f"{args.file}: Bloom filters on {len(columns)} columns ({', '.join(columns)}); choose "
                         f"one with --column")
    for f in filters:
        if f.positions is None:
            raise ValueError(f"{args.file}: {f.format}: membership cannot be reproduced ({f.hashing})")
    return filters


def verdict(filters: list, item: str) -> tuple[bool, str]:
    """(present, the tab-separated tail of the output line) for one item over one or more filters."""
    looks = [f.lookup(item) for f in filters]
    hits = [f for f, look in zip(filters, looks) if look.maybe_present]
    if len(filters) == 1:
        return bool(hits), "" if hits else f"\t(bit {looks[0].zero_positions[0]:,} is 0)"
    if hits:
        return True, "\t(" + ", ".join(f.label for f in hits) + ")"
    return False, f"\t(a 0 bit in each of the {len(filters)} filters)"
