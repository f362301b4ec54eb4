"""``bloomviz check``: look items up in a saved ``.bloom`` file.

Prints one line per item: "probably present" (all k bits set: it was inserted, or it is a false positive —
a file holds bits, not items, so the two cannot be told apart) or "definitely absent" (naming a 0 bit).
Items come from the command line (UTF-8 text; put -- before items that start with a dash) and/or from
--items LIST (one per line, as File → Insert from file reads it).

Other libraries' files (see inspect) answer with the library's own hashing; put options before FILE
(bloomviz check --column C FILE ITEM...). A Parquet column's filters in several row groups answer "probably
present" when any does, naming which.

A file with many filters (one per column chunk, data block or commit) answers from the filter chosen with
--filter N or a format's own selector, from the filter its own index sends the item to, or else from all of
them; the line names the filter. --json prints one object: per item "verdict", "filter" and the filters that
answered "probably present".

An item that cannot be looked up (an empty one; a value a Parquet column's type cannot hold) does not stop the
others: its line says "refused" and why, stderr names it, and the exit status says so.

Exit status: 0 when every item is probably present, 1 when at least one is definitely absent, 2 when the file
or an argument is bad (one line on stderr naming the file and what was wrong), 3 when at least one item was
refused (every other item is answered).
"""

from __future__ import annotations

import json
import os
import sys

from bloomviz.commands import foreign
from bloomviz.commands.common import add_command, CliParser, fail
from bloomviz.commands.inspect import open_filter

NAME = "check"
EXIT_ALL_PRESENT, EXIT_SOME_ABSENT, EXIT_SOME_REFUSED = 0, 1, 3
PRESENT, ABSENT, REFUSED = "probably present", "definitely absent", "refused"


def _refused(prog: str, label: str, reason: str, as_json: bool) -> dict:
    print(f"{prog}: error: item {label!r} not looked up: {reason}", file=sys.stderr)
    if not as_json:
        print(f"{REFUSED}\t{label}\t({reason})")
    return {"item": label, "verdict": REFUSED, "reason": reason}


def add_parser(subparsers) -> CliParser:
    parser = add_command(
        subparsers, NAME, __doc__,
        help="print each item's verdict against a saved filter (exit 1 if any is definitely absent)")
    parser.add_argument("file", metavar="FILE.bloom",
                        help="a filter saved by bloomviz, or another library's filter file (see --format)")
    parser.add_argument("items", nargs="*", metavar="ITEM", help="items to look up")
    parser.add_argument("--items", dest="items_file", metavar="LIST",
                        help="also look up every line of this UTF-8 text file")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: per item its verdict and the filter that answered")
    foreign.add_options(parser)
    return parser


def arg_bytes(text: str) -> bytes:
    """A command-line item's bytes: its UTF-8, or the original bytes of an argument that was not UTF-8."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text)


def _file_items(prog: str, path: str, encode) -> list[tuple[str, object]]:
    """(label, encode(line)) for each line of the --items file; undecodable lines are skipped with one note on
    stderr. ValueError naming the file if it cannot be read."""
    from bloomviz.items.encoding import LineReport, describe, read_item_lines
    report = LineReport()
    try:
        items = [(describe(t, 200), encode(t)) for t, _ in read_item_lines(path, report)]
    except OSError as exc:
        raise ValueError(str(exc) if str(exc).startswith(path) else f"{path}: {exc}") from None
    if report.undecodable:
        shown = ", ".join(map(str, report.undecodable[:20]))
        print(f"{prog}: note: {path}: {len(report.undecodable)} line(s) not valid UTF-8 were skipped: {shown}",
              file=sys.stderr)
    return items


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    from bloomviz.items.encoding import describe
    if not args.items and not args.items_file:
        return fail(prog, "give at least one ITEM to look up (or --items LIST)")
    try:
        fmt = foreign.chosen_format(args)
        if fmt is None:
            _header, flt = open_filter(args.file)
            foreign.refuse_foreign_options(args)   # after the file's own errors, which come first
        else:
            chosen, total = foreign.check_filters(args, fmt)
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)
    if fmt is not None:
        return _check_foreign(prog, args, fmt, chosen, total)
    queries: list[tuple[str, bytes]] = []
    for a in args.items:
        data = arg_bytes(a)
        queries.append((describe(a if data == a.encode('utf-8', 'surrogatepass') else data, 200), data))
    if args.items_file:
        try:
            queries += _file_items(prog, args.items_file, lambda t: t.encode("utf-8"))
        except ValueError as exc:
            return fail(prog, exc)
    absent, refused, answers = 0, 0, []
    for label, data in queries:
        if not data:
            refused += 1
            answers.append(_refused(prog, label, "an empty item cannot be looked up", args.json))
            continue
        look = flt.lookup(data)
        zero = None if look.maybe_present else int(look.zero_positions[0])
        absent += zero is not None
        answers.append({"item": label, "verdict": PRESENT if zero is None else ABSENT, "filter": args.file,
                        "zero_bit": zero})
        if not args.json:
            print(f"{PRESENT}\t{label}" if zero is None else f"{ABSENT}\t{label}\t(bit {zero:,} is 0)")
    if args.json:
        print(json.dumps({"file": args.file, "format": "bloomviz", "items": answers}))
    return EXIT_SOME_REFUSED if refused else EXIT_SOME_ABSENT if absent else EXIT_ALL_PRESENT


def _check_foreign(prog: str, args, fmt: str, chosen: list, total: int) -> int:
    """The same lines for another library's filter: items go to it as text, hashed as that library does
    (UTF-8, code points, a Parquet column's typed PLAIN encoding, or raw bytes written 0x… where the format
    keys on bytes); several filters answer "probably present" when any of them does, naming which."""
    from bloomviz.items.encoding import describe
    queries = [(describe(a, 200), a) for a in args.items]
    if args.items_file:
        try:
            queries += _file_items(prog, args.items_file, lambda t: t)
        except ValueError as exc:
            return fail(prog, exc)
    answers, items = [], []
    for label, item in queries:   # a bad item is reported and the others answered
        try:
            a = foreign.answer(fmt, chosen, total, item)
        except (ValueError, TypeError) as exc:
            items.append(_refused(prog, label, str(exc), args.json))
            continue
        answers.append(a)
        items.append({"item": label, "verdict": PRESENT if a["present"] else ABSENT,
                      **{k: v for k, v in a.items() if k not in ("item", "present")}})
        if not args.json:
            print(f"{PRESENT if a['present'] else ABSENT}\t{label}{foreign.answer_tail(a)}")
    if args.json:
        print(json.dumps({"file": args.file, "format": fmt, "items": items}))
    if len(answers) < len(items):
        return EXIT_SOME_REFUSED
    return EXIT_SOME_ABSENT if any(not a["present"] for a in answers) else EXIT_ALL_PRESENT
