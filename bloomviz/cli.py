"""The ``bloomviz`` command line.

``bloomviz`` with no subcommand starts the window; ``bloomviz <command> ...`` runs one of the commands
registered in ``bloomviz.commands.COMMANDS`` (calc, simulate, ...).

Contract with the window: the options ``--screenshot FILE`` and ``--demo N`` belong to the window. This module
only checks them (so a bad one fails here, in one line, with exit code 2) and then calls
``bloomviz.gui.app.main(argv)`` with the ORIGINAL argument list, unchanged, so the window parses its own options
and may grow new ones without touching this file (add them to ``_add_window_options`` too, so they pass the
check). ``bloomviz.gui.app`` is imported inside the function: the command line never loads Qt.

Exit codes: 0 success; 1 the command or the window failed; 2 a bad argument (one line on stderr naming it,
never a traceback); 130 interrupted by Ctrl-C.
"""

from __future__ import annotations

import os
import sys
from typing import Sequence

from bloomviz import __version__
from bloomviz.commands import COMMANDS, load
from bloomviz.commands.common import EXIT_INTERRUPTED, CliParser, non_negative_int

PROG = "bloomviz"


def _add_window_options(parser: CliParser) -> None:
    parser.add_argument("--screenshot", metavar="FILE",
                        help="build the window offscreen, write a PNG of it to FILE and exit")
    parser.add_argument("--demo", metavar="N", type=non_negative_int("--demo"),
                        help="insert N demo items (and make one lookup) before showing the window")


def build_parser() -> CliParser:
    parser = CliParser(prog=PROG, description="Bloom filters made visible. With no command, open the window.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    _add_window_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CliParser)
    for name in COMMANDS:
        module = load(name)
        command_parser = module.add_parser(sub)
        command_parser.set_defaults(_run=module.run)
    return parser


def start_window(argv: list[str]) -> int:
    try:
        from bloomviz.gui.app import main as gui_main
    except ModuleNotFoundError as exc:
        if exc.name in ("bloomviz.gui", "bloomviz.gui.app"):
            print(f"{PROG}: the window is not available in this installation (bloomviz.gui.app is missing); "
                  f"the commands work: {PROG} --help", file=sys.stderr)
        else:
            print(f"{PROG}: cannot start the window: module {exc.name!r} is not installed", file=sys.stderr)
        return 1
    except ImportError as exc:  # e.g. a Qt system library missing on a bare server
        print(f"{PROG}: cannot start the window: {exc} (see the README for the system libraries Qt needs)",
              file=sys.stderr)
        return 1
    return int(gui_main(argv) or 0)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            return start_window(argv)
        if args.screenshot is not None or args.demo is not None:
            parser.error(f"--screenshot and --demo belong to the window; they cannot be used with "
                         f"'{args.command}'")
        return int(args._run(args) or 0)
    except SystemExit as exc:  # argparse's own exits (--help, --version, a refused argument)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our stdout went away (e.g. `| head`): stop quietly, and keep Python's exit-time flush
        # from raising again on the closed pipe.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
