"""``inspect`` and ``check`` on other libraries' files (``bloomviz.formats``): options, choice, output.

A file goes down the ``.bloom`` path unless ``--format`` names another format or its contents are
recognised as one (``formats.detect``); so every ``.bloom`` file, and every file nothing recognises, gets
exactly the messages and exit codes it always did.
"""

from __future__ import annotations

import argparse
import os
import textwrap

from bloomviz.commands.common import human_bytes, non_negative_int, one_in, positive_int, rate

BLOOMVIZ = "bloomviz"
WRAP = 116


def add_options(parser: argparse.ArgumentParser) -> None:
    from bloomviz import formats
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
    group.add_argument("--filter", type=non_negative_int("filter"), metavar="N", dest="filter_index",
                       help="a file with many filters: only filter N (from 0, in file order; inspect lists them)")
    seen: dict[str, list[str]] = {}
    for fmt, opt in formats.format_options():
        seen.setdefault(opt.flag, []).append(fmt)
        if len(seen[opt.flag]) == 1:
            group.add_argument(opt.flag, dest=opt.dest, type=_typed(opt.type), metavar=opt.metavar,
                               help=f"{fmt}: {opt.help}")


def _typed(convert):
    """``convert`` whose ValueError argparse prints (it printed "invalid _fpp value: '2'", naming the function)."""
    def typed(text: str):
        try:
            return convert(text)
        except (ValueError, TypeError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    typed.__name__ = getattr(convert, "__name__", "value")
    return typed


_OPTION_NAMES = {"column": "column", "row_group": "row_group", "funnel": "funnel", "hashing": "hashing",
                 "known_member": "known_member", "m": "m", "k": "k", "word_bytes": "word_bytes",
                 "byteorder": "byteorder", "bitorder": "bitorder", "offset": "offset"}


def _declared() -> dict:
    """dest -> Option for every option a format declares (the first format to declare a flag owns it)."""
    from bloomviz import formats
    out: dict = {}
    for _fmt, opt in formats.format_options():
        out.setdefault(opt.dest, opt)
    return out


def _given(args) -> list[str]:
    names = [*_OPTION_NAMES, *_declared(), "filter_index"]
    return [name for name in names if getattr(args, name, None) is not None]


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
    if found is None:   # no format's signature: the .bloom reader's refusal, then what bloomviz reads
        from bloomviz.files import storage
        try:
            storage.read_header(args.file)
        except ValueError as exc:
            hint = formats.suspect(args.file)
            if hint is not None:   # a damaged file of a known format: its reader's words, not the whole list
                raise ValueError(f"{args.file}: not a file bloomviz can read: {hint}") from None
            raise ValueError(f"{exc}; nor any other file bloomviz recognises. "
                             f"{formats.unsupported_text('--format raw (with --m and --k if known)')}") from None
        except OSError:
            pass   # reported by the .bloom path as it always was
    return None if found in (None, "bloomviz") else found


def refuse_foreign_options(args) -> None:
    given = ["--filter" if name == "filter_index" else f"--{name.replace('_', '-')}" for name in _given(args)]
    if given:
        verb = "applies" if len(given) == 1 else "apply"
        raise ValueError(f"{', '.join(given)} {verb} to other libraries' files, not to a .bloom file")


def open_indexed(args, fmt: str) -> tuple[list, int]:
    """([(index in the file, filter)], filters in the file) of ``args.file`` read as ``fmt``, narrowed by
    ``--filter`` and the format's selectors; ValueError with one line on any refusal."""
    from bloomviz import formats
    declared = _declared()
    options = {key: getattr(args, name) for name, key in _OPTION_NAMES.items() if getattr(args, name, None) is not None}
    options.update({dest: getattr(args, dest) for dest, opt in declared.items()
                    if opt.select is None and getattr(args, dest, None) is not None})
    own = {opt.dest for opt in getattr(formats.FORMATS[fmt], "CLI_OPTIONS", ())}
    for dest, opt in declared.items():   # another format's option would be ignored without a word: refuse it
        if getattr(args, dest, None) is not None and dest not in own:
            raise ValueError(f"{opt.flag} does not apply to a {fmt} file")
    try:
        filters = formats.open_filters(args.file, fmt, **options)
    except OSError as exc:
        raise ValueError(f"{args.file}: {exc.strerror or exc}") from None
    except MemoryError:
        raise ValueError(f"{args.file}: not enough memory to hold this filter") from None
    total, chosen = len(filters), list(enumerate(filters))
    index = getattr(args, "filter_index", None)
    if index is not None:
        if index >= total:
            raise ValueError(f"{args.file}: --filter {index}: the file holds {total:,} filter"
                             f"{'s' if total != 1 else ''} (0..{total - 1:,})")
        chosen = [chosen[index]]
    for dest, opt in declared.items():
        value = getattr(args, dest, None)
        if value is None or opt.select is None:
            continue
        where = {id(f): i for i, f in chosen}
        chosen = [(where[id(f)], f) for f in opt.select([f for _, f in chosen], value)]
    return chosen, total


def open_filters(args, fmt: str) -> list:
    return [f for _, f in open_indexed(args, fmt)[0]]


def filter_name(flt, index: int) -> str:
    return flt.label or f"filter {index}"


def describe(args, fmt: str) -> dict:
    from bloomviz.formats import FORMATS, atlas
    from bloomviz.formats.why import why
    chosen, total = open_indexed(args, fmt)
    summaries = [{**f.summary(), "index": i, "layout_text": layout_text(f.m, f.k, f.layout)} for i, f in chosen]
    file_bytes = atlas.path_bytes(args.file, summaries)
    sources = atlas.source_files(args.file, summaries)
    out = {"file": os.fspath(args.file), "file_bytes": file_bytes, "format": fmt,
           "format_title": FORMATS[fmt].TITLE, "filters_read": total, "filters": summaries}
    if sources is not None:     # a folder: file_bytes is the sum of these files' sizes, not the folder's
        out["source_files"] = sources
    if len(chosen) > 1:
        out["atlas"] = atlas.summarise(summaries, file_bytes, None if sources is None else len(sources))
    out["why"] = why(fmt, [f for _, f in chosen])
    return out


def _link_text(m: int, k: int, slice_bits: int) -> str:
    if slice_bits:
        return f"m = {m:,}, k = {k}, partitioned: {k} slices of {slice_bits:,} bits"
    return f"m = {m:,}, k = {k}, one array"


def layout_text(m: int, k: int, layout: dict) -> str:
    """The filter's layout in words, read from the layout the reader recorded (not from the format's name): a
    scalable filter's links say themselves whether each is partitioned (slice bits > 0) or one array."""
    kind = layout["kind"]
    if kind == "blocks":
        block, word, per_word = layout["block_bits"], layout["word_bits"], layout.get("bits_per_word", 1)
        if word == block:   # RocksDB's cache lines: all of an item's probes in one block
            return f"{m // block:,} blocks of {block} bits (each item sets its {per_word} bits inside one block)"
        return (f"{m // block:,} blocks of {block} bits ({block // word} {word}-bit words; each item sets one bit "
                f"per word)")
    if kind == "ribbon":
        return (f"a Ribbon solution of {layout['slots']:,} slots, {m / layout['slots']:.2f} bits per slot (a linear "
                "system: an item has no bit positions of its own)")
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
    from bloomviz.commands.atlas_text import DETAIL_LIMIT, render_atlas
    from bloomviz.theory.units import too_full_text

    def line(label: str, value: str) -> str:
        return f"  {label:<22}{value}" if len(label) < 22 else f"  {label} {value}"

    size = "size unknown" if r["file_bytes"] is None else f"{r['file_bytes']:,} bytes"
    if "source_files" in r:
        size = source_text(r["source_files"], r["file_bytes"])
    out = [f"{r['file']} ({size})", line("format", f"{r['format']} ({r['format_title']})")]
    if len(r["filters"]) > 1:
        out.append(line("filters", str(len(r["filters"]))))
    if "atlas" in r:
        out += render_atlas(r["atlas"], r["filters"])
    if len(r["filters"]) > DETAIL_LIMIT:
        out.append(f"  (each filter's details: --filter N, or --json for all {len(r['filters']):,})")
        return "\n".join(out + why_text(r.get("why", [])))
    for s in r["filters"]:
        if len(r["filters"]) > 1 or s["label"]:
            out.append(f"  [{s['label'] or 'filter ' + str(s['index'])}]")
        est = f"{s['estimated_n']:,.1f}" if s["estimated_n"] is not None else (
            "not estimable (a Ribbon filter's bits are about half ones at any load)" if s["layout"] == "ribbon"
            else too_full_text(s["bits_set"], s["m"]))
        out += [line("m (bits)", f"{s['m']:,} ({human_bytes(s['m'] / 8)})"), line("k (hash positions)", str(s["k"]) if s["layout"] != "ribbon" else "none (a Ribbon filter)"),
                line("layout", s["layout_text"])]
        for key, value in s["fields"].items():
            if isinstance(value, list) and value and isinstance(value[0], dict):   # a scalable filter's links
                out += [line(f"{key[:-1] if key.endswith('s') else key} {i}",
                             ", ".join(f"{k} = {_value(v)}" for k, v in entry.items()))
                        for i, entry in enumerate(value)]
            elif key != "blocks":
                out.append(line(key, _value(value)))
        out += [line("bits set", f"{s['bits_set']:,} of {s['m']:,} (fill {s['fill'] * 100:.2f}%)"),
                line("estimated n", est + ("   (from the bits set, by the layout's occupancy)"
                                           if s["estimated_n"] is not None else "")),
                line("expected FP now", f"{rate(s['expected_fp'])}  ({one_in(s['expected_fp'])}; from the bits)")]
        if s.get("design_fp") is not None:
            out.append(line("design FP", f"{rate(s['design_fp'])}  ({one_in(s['design_fp'])}; what it was sized for)"))
        out.append(line("membership", ("reproduced: " if s["membership"] else "not reproducible: ") + s["hashing"]))
        out += [line("note", note) for note in s["notes"]]
    return "\n".join(out + why_text(r.get("why", [])))


def source_text(files: list[str], size: int | None) -> str:
    """A folder's size line: the files its filters came from and their bytes (a folder has no size of its own)."""
    named = files[0] if len(files) == 1 else f"{len(files):,} files"
    held = "size unknown" if size is None else f"{size:,} bytes"
    return f"a folder; its filters come from {named}: {held}"


def why_text(reasons: list[str]) -> list[str]:
    """The system's reasons its rate can be above the configured one (``formats.why``), one wrapped item each."""
    if not reasons:
        return []
    out = ["  why the rate can be higher than configured (this system's own rules, with this file's numbers):"]
    for reason in reasons:
        out += textwrap.wrap(reason, WRAP, initial_indent="  - ", subsequent_indent="    ")
    return out


def check_filters(args, fmt: str) -> tuple[list, int]:
    """([(index, filter)] ``check`` looks items up in, filters in the file): one column's (all its row groups,
    or the one chosen), or those ``--filter`` and the format's selectors chose."""
    chosen, total = open_indexed(args, fmt)
    columns = sorted({f.fields.get("column") for _, f in chosen if "column" in f.fields})
    if len(columns) > 1:
        raise ValueError(f"{args.file}: Bloom filters on {len(columns)} columns ({', '.join(columns)}); choose "
                         f"one with --column")
    for _, f in chosen:
        if f.positions is None:
            raise ValueError(f"{args.file}: {f.format}: membership cannot be reproduced ({f.hashing})")
    return chosen, total


NAMES_SHOWN = 5


def answer(fmt: str, chosen: list, total: int, item) -> dict:
    """One item's answer over the chosen filters (narrowed further by the format's own routing): the verdict,
    the filter used (when one was), the filters that answered present, the 0 bit that said absent."""
    from bloomviz import formats
    index = {id(f): i for i, f in chosen}
    routed = formats.route(fmt, [f for _, f in chosen], item)
    looks = [(index[id(f)], f, f.lookup(item)) for f in routed]
    hits = [(i, f) for i, f, look in looks if look.maybe_present]
    one = looks[0] if len(looks) == 1 else None
    return {"item": item, "present": bool(hits), "filters_read": total, "filters_consulted": len(looks),
            "filter": filter_name(one[1], one[0]) if one else None, "filter_index": one[0] if one else None,
            "present_in": [filter_name(f, i) for i, f in hits],
            "zero_bit": int(one[2].zero_positions[0]) if one and not hits else None}


def answer_tail(a: dict) -> str:
    """The tab-separated tail of the output line: as before for a file of one filter, else naming the filter."""
    if a["filters_consulted"] == 1:
        if a["filters_read"] == 1:
            return "" if a["present"] else f"\t(bit {a['zero_bit']:,} is 0)"
        return f"\t({a['filter']})" if a["present"] else f"\t({a['filter']}: bit {a['zero_bit']:,} is 0)"
    if a["present"]:
        names = a["present_in"]
        more = f" and {len(names) - NAMES_SHOWN:,} more" if len(names) > NAMES_SHOWN else ""
        return "\t(" + ", ".join(names[:NAMES_SHOWN]) + more + ")"
    if a["filters_consulted"] == 0:
        return "\t(no filter of the file covers it)"
    return f"\t(a 0 bit in each of the {a['filters_consulted']:,} filters)"
