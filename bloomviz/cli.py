"""The ``bloomviz`` command line.

``bloomviz`` with no subcommand starts the window; ``bloomviz <command> ...`` runs one of the commands
registered in ``bloomviz.commands.COMMANDS`` (calc, simulate, ...).

Contract with the window: options given without a subcommand belong to the window (``--screenshot FILE``,
``--demo N``, ``--m``, ``--k``, ``--scheme``, ``--dark``; see ``bloomviz.gui.app``). This module declares them in
``WINDOW_OPTIONS`` only so that argparse knows which take a value (and can tell ``--demo 5`` from a command
named ``5``); it does not check their values. It calls ``bloomviz.gui.app.main(argv)`` with the ORIGINAL
argument list, unchanged; the window parses and validates its own options (a bad one: one line on stderr,
exit code 2). A new window option needs one entry in ``WINDOW_OPTIONS``. ``bloomviz.gui.app`` is imported
inside the function, so the commands never load Qt.

Two window values are also checked here, before Qt starts and before anything is allocated, because refusing
them later costs a frozen window or a hang: ``--demo N`` must be at most ``items.MAX_DEMO_ITEMS`` (the limit is
in the message), and ``--open FILE`` must be a regular file (a FIFO would block the window forever, a device
would be read without end; ``safe_files.check_regular`` says what it is instead). The window checks the same.

``bloomviz --version`` prints the version; ``bloomviz --reset-settings`` clears the window's preferences
(``bloomviz.gui.settings_file``); ``bloomviz --install-desktop-entry`` writes a desktop entry (and the
icon) for Linux menus under ``$XDG_DATA_HOME`` (default ``~/.local/share``), only when asked
(``bloomviz.desktop_entry``).

Exit codes: 0 success; 1 the command or the window failed; 2 a bad argument (one line on stderr naming it,
never a traceback); 130 interrupted by Ctrl-C; 143 terminated (SIGTERM). A command turns SIGTERM into an
exception like Ctrl-C, so a terminated run discards its half-written temporary file instead of leaving it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from typing import Sequence

from bloomviz import __version__
from bloomviz.commands import COMMANDS, common, load
from bloomviz.commands.common import EXIT_INTERRUPTED, CliParser, open_window

PROG = "bloomviz"


# the window's views (``bloomviz.gui.app.TABS``, which a test holds this to), named here without loading Qt
TAB_NAMES = ("filter", "start", "lesson", "explorer", "compare", "setops", "foreign")
# option -> metavar (None: a flag without a value). Values are the window's to check.
WINDOW_OPTIONS: dict[str, str | None] = {
    "--screenshot": "FILE", "--demo": "N", "--m": "M", "--k": "K", "--scheme": "S", "--dark": None,
    "--tab": "VIEW", "--open": "FILE", "--scenario": "NAME", "--lesson": "NAME", "--step": "N", "--present": None,
}
_WINDOW_HELP = {
    "--screenshot": "build the window offscreen, write a PNG of it to FILE and exit",
    "--demo": "insert N demo items (and make one lookup) in the window",
    "--m": "bits of the window's starting filter", "--k": "hash positions of the window's starting filter",
    "--scheme": "hash scheme of the window's starting filter", "--dark": "start the window in the dark theme",
    "--tab": "start on this view: " + ", ".join(TAB_NAMES[:-1]) + " or " + TAB_NAMES[-1],
    "--open": "open a session (.bloomviz), a saved filter (.bloom), or another system's filter file or folder (a "
              "git repository, a LevelDB or RocksDB database)",
    "--scenario": "run a scenario: spell, passwords, contacts, ssh or urls",
    "--lesson": "open a lesson (a file, or a built-in's number: 1-8; `bloomviz lesson --list` names them)",
    "--step": "with --lesson: start at this step", "--present": "with --lesson: start in presenter mode (F5)",
}


def _add_window_options(parser: CliParser) -> None:
    group = parser.add_argument_group("the window (no command)")
    for option, metavar in WINDOW_OPTIONS.items():
        dest = "window_" + option.lstrip("-")
        if metavar is None:
            group.add_argument(option, dest=dest, action="store_true", help=_WINDOW_HELP.get(option))
        else:
            group.add_argument(option, dest=dest, metavar=metavar, help=_WINDOW_HELP.get(option))


def _window_options_given(args) -> list[str]:
    return [option for option in WINDOW_OPTIONS
            if getattr(args, "window_" + option.lstrip("-")) not in (None, False)]


def build_parser() -> CliParser:
    parser = CliParser(prog=PROG, description="Bloom filters made visible. With no command, open the window.",
                       epilog="First steps: `bloomviz` opens the window on its Start page (type a word, press "
                              "Enter); `bloomviz lesson 1 --present` opens the first lesson full screen for a "
                              "class (PageDown next, Esc leaves).")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--install-desktop-entry", action="store_true",
                        help="add bloomviz to the applications menu (Linux: writes bloomviz.desktop and its icon "
                             "under $XDG_DATA_HOME, default ~/.local/share) and exit")
    parser.add_argument("--reset-settings", action="store_true",
                        help="put the window's preferences (theme, text size, layout, recent files) back to their "
                             "defaults and exit; Help → Where settings live names the file")
    _add_window_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CliParser)
    for name in COMMANDS:
        module = load(name)
        command_parser = module.add_parser(sub)
        command_parser.set_defaults(_run=module.run, _parser=command_parser)
    return parser


def check_window_values(parser: CliParser, args) -> None:
    """Refuse (one line, exit 2) a --demo over the limit or an --open that is not a regular file, before Qt."""
    from bloomviz.commands.common import parse_whole
    from bloomviz.items.encoding import MAX_DEMO_ITEMS
    if args.window_demo is not None:
        try:
            n = parse_whole(args.window_demo)
        except argparse.ArgumentTypeError as exc:
            parser.error(f"argument --demo: {exc}")
        if not 0 <= n <= MAX_DEMO_ITEMS:
            parser.error(f"argument --demo: {args.window_demo} is out of range: the window inserts 0 to "
                         f"{MAX_DEMO_ITEMS:,} demo items")
    if args.window_open is not None:
        from bloomviz.disk.safe_files import check_regular
        if os.path.isdir(args.window_open) and _foreign_directory(args.window_open):
            return      # a git repository or a LevelDB/RocksDB database: the Other libraries' filter tab reads it
        try:
            check_regular(args.window_open, "a session (.bloomviz) or a filter (.bloom)")
        except FileNotFoundError:
            parser.error(f"argument --open: no such file: {args.window_open}")
        except (OSError, TypeError) as exc:
            parser.error(f"argument --open: {args.window_open}: {getattr(exc, 'strerror', None) or exc}")


def _foreign_directory(path: str) -> bool:
    """A directory one of the formats reads as a whole (a git repository, a LevelDB or RocksDB database)."""
    from bloomviz import formats
    try:
        return formats.detect(path) is not None
    except (OSError, ValueError):
        return False


def start_window(argv: list[str]) -> int:
    return open_window(argv)


EXIT_TERMINATED = 128 + 15


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C, so every ``finally`` and writer's discard runs."""


def _in_finaliser(frame) -> bool:
    """Whether ``frame`` runs inside a ``__del__`` (llvmlite's objects close themselves in one: a SIGTERM landing
    there printed "Exception ignored in ... Traceback" on stderr before the noted stop was raised again)."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def _terminate_as_exception():
    """SIGTERM raises ``Terminated`` and Ctrl-C ``KeyboardInterrupt``, each also noted in ``common.stops``: a
    raise that lands in a finaliser is printed and dropped by Python ("Exception ignored in ..."), and the
    command would run on to its end; the next progress report raises the noted stop again. A SIGINT the parent
    ignores (a command started in the background by a shell) stays ignored, as Python itself leaves it."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        yield
        return

    def handler(kind):
        def raise_it(signum, frame):
            common.stops.append(kind)
            if not _in_finaliser(frame):    # (there Python prints a traceback and drops it: the note raises it)
                raise kind()
        return raise_it

    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    common.stops.clear()
    signal.signal(signal.SIGTERM, handler(Terminated))
    if previous[signal.SIGINT] is signal.default_int_handler:    # (a SIGINT ignored by the parent stays so)
        signal.signal(signal.SIGINT, handler(KeyboardInterrupt))
    try:
        yield
    finally:
        for signum, was in previous.items():
            signal.signal(signum, was)
        common.stops.clear()


def _discard_unfinished_writes() -> None:
    """A stopped command leaves no temporary, even one stopped before its writer's own discard was armed."""
    from bloomviz.disk import atomic_write
    atomic_write.discard_unfinished()


def _command_words(argv: list[str]) -> str:
    command = next((a for a in argv if not a.startswith("-")), None)
    return f"'{PROG} {command}'" if command else f"'{PROG}'"


def _peak_memory() -> str:
    """The process's peak resident memory, in words (what a MemoryError's message can say of sizes)."""
    from bloomviz.theory.units import human_bytes
    try:
        import resource
        return human_bytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)   # (KiB on Linux)
    except (ImportError, OSError, ValueError):
        return "an unknown amount"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if extra:  # reported by the command's own parser, so the message says which command refused them
            (args._parser if args.command else parser).error(f"unrecognized arguments: {' '.join(extra)}")
        if args.install_desktop_entry:
            if args.command is not None or _window_options_given(args):
                parser.error("--install-desktop-entry is used alone")
            from bloomviz.desktop_entry import install
            return install()
        if args.reset_settings:
            if args.command is not None or _window_options_given(args):
                parser.error("--reset-settings is used alone")
            from bloomviz.gui.settings_file import reset_command
            return reset_command()
        if args.command is None:
            check_window_values(parser, args)
            return start_window(argv)
        given = _window_options_given(args)
        if given:
            parser.error(f"{' and '.join(given)} belong{'s' if len(given) == 1 else ''} to the window "
                         f"and cannot be used with the '{args.command}' command")
        from bloomviz.filters.bitstore import keep_freed_memory_for_big_filters
        keep_freed_memory_for_big_filters()     # the process is the command's: its allocator may be tuned
        with _terminate_as_exception():
            return int(args._run(args) or 0)
    except Terminated:
        _discard_unfinished_writes()
        print(f"\n{PROG}: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except SystemExit as exc:  # argparse's own exits (--help, --version, a refused argument)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        _discard_unfinished_writes()
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError:
        # every size a user types is checked before it is allocated, but a run's arrays add up with what else the
        # machine holds: one line, no traceback, no half-written file
        _discard_unfinished_writes()
        print(f"{PROG}: not enough memory to finish {_command_words(argv)} (the process had used "
              f"{_peak_memory()} at most); ask for a smaller m, fewer items or fewer probes", file=sys.stderr)
        return 1
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
