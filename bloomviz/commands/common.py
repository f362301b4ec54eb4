"""What every subcommand shares: a parser that fails in one line, number parsing, errors, a progress bar.

Error contract of the command line: a bad argument prints exactly one line on stderr,
``bloomviz <command>: error: <what was wrong, naming the value>``, and the process exits with code 2.
Parse-time problems go through ``CliParser.error``; problems found by the core while running (its
``ValueError``/``TypeError``) are turned into the same line by ``fail``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import stat
import sys
import time
from typing import Callable, TextIO

from bloomviz.theory import units

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit code 2 (argparse prints the whole usage)."""

    def error(self, message: str):  # noqa: D401 - argparse's signature
        self.exit(EXIT_USAGE, f"{self.prog}: error: {_one_line(message)}\n")


def add_command(subparsers, name: str, doc: str, help: str) -> CliParser:
    """A subcommand's parser: ``help`` is its line in ``bloomviz --help``; its own --help shows the module
    docstring ``doc`` from the second paragraph on, as written (the first is the docstring's title)."""
    return subparsers.add_parser(name, help=help, description=doc.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def fail(prog: str, error: BaseException | str, stream: TextIO | None = None) -> int:
    """Report a refused argument the way the parser does; return the exit code to use."""
    print(f"{prog}: error: {_one_line(error)}", file=stream or sys.stderr)
    return EXIT_USAGE


# --- argument types ----------------------------------------------------------------------------------------
# Each converts the text and checks its range with the core's validators, so argparse prefixes the message
# with the option's name ("argument --m: ...") and the core's message names the value.

def parse_whole(text: str) -> int:
    """A whole number as everywhere in bloomviz (``units.parse_whole``: 1000, 1,000, 1_000, 1e3, 10^6)."""
    try:
        return units.parse_whole(text, "the value")
    except units.NumberError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_bits(text: str) -> int:
    """A number of bits, also in units of memory (``units.parse_bits``: 8 KiB, 512 MiB)."""
    try:
        return units.parse_bits(text, "the value")
    except units.NumberError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_rate(text: str) -> float:
    """A rate as everywhere in bloomviz (``units.parse_rate``: 0.01, 1%, 1/1000, 1 in 1000); range by the caller."""
    try:
        return units.parse_rate(text, "the value", low=-math.inf, high=math.inf, open_low=False)
    except units.NumberError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_real(text: str) -> float:
    value = units.real_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a decimal number such as 0.5 or 1e-3, got {units.shown(text)}")
    return value


def _checked(check: Callable, convert: Callable = parse_whole, **kw) -> Callable[[str], object]:
    def parse(text: str):
        value = convert(text)
        try:
            return check(value, **kw)
        except (ValueError, TypeError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return parse


def m_arg(text: str) -> int:
    from bloomviz.theory.validate import check_m
    return _checked(check_m, parse_bits)(text)


def k_arg(text: str) -> int:
    from bloomviz.theory.validate import check_k
    return _checked(check_k)(text)


def n_arg(text: str) -> int:
    from bloomviz.theory.validate import check_n
    return _checked(check_n, allow_zero=False)(text)


def p_arg(text: str) -> float:
    from bloomviz.theory.validate import check_p
    return _checked(check_p, parse_rate)(text)


# The largest whole number an option takes unless it says otherwise: counts and strides become numpy int64
# (2**63 and above overflowed there, a traceback instead of a message).
MAX_WHOLE = 2**63 - 1


def _whole_at_least(name: str, low: int, must_be: str, high: int | None = MAX_WHOLE) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = parse_whole(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{name} must be {must_be}, got {units.shown(text)}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"{name} is {value:,}, more than the largest supported, "
                                             f"{high:,} (2**63 - 1)")
        return value
    parse.__name__ = name
    return parse


def positive_int(name: str, high: int | None = MAX_WHOLE) -> Callable[[str], int]:
    return _whole_at_least(name, 1, "a positive whole number", high)


def non_negative_int(name: str, high: int | None = MAX_WHOLE) -> Callable[[str], int]:
    return _whole_at_least(name, 0, "a whole number >= 0", high)


def output_path(text: str) -> str:
    """A file to write, or - for standard output. Checked when the command line is parsed, so a bad --csv is
    refused before the run, not after it."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file name (or - for standard output), got {text!r}")
    if text != "-" and os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a directory; give a file name inside it")
    return text


def input_path(text: str) -> str:
    """A file to read: not empty (whether it exists and is a regular file is checked when it is opened)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file name, got {text!r}")
    return text


def scheme_arg(text: str) -> str:
    from bloomviz.hashing.schemes import SCHEMES
    if text not in SCHEMES:
        raise argparse.ArgumentTypeError(f"unknown hash scheme {text!r}; known schemes: {', '.join(SCHEMES)}")
    return text


def design(n: int, p: float) -> tuple[int, int, list[str]]:
    """(m, k, notes) of the textbook design for n items at rate p, within what a filter can hold.

    k above 64 is capped (and said so in a note); an m above 2**34 bits is refused with a message saying why.
    The rule lives in the core (``calculator.textbook_design``), so the window says the same."""
    from bloomviz.theory.calculator import textbook_design
    return textbook_design(n, p)


def design_from_options(args, n: int, prog: str) -> tuple[int, int]:
    """(m, k) from --m and --k, or designed from n and --p (its notes printed on stderr under ``prog``)."""
    if args.p is not None:
        if args.m is not None or args.k is not None:
            raise ValueError("give either --p (to design the filter) or --m and --k, not both")
        m, k, notes = design(n, args.p)
        for note in notes:
            print(f"{prog}: note: {note}", file=sys.stderr)
        return m, k
    missing = [name for name in ("--m", "--k") if getattr(args, name[2:]) is None]
    if missing:
        raise ValueError(f"missing {' and '.join(missing)} (or give --p to design the filter for n items)")
    return args.m, args.k


def row_indices(total: int, every: int):
    """The rows a CSV keeps: n = every, 2*every, ... and the last insert (row i holds n = i + 1)."""
    import numpy as np   # here, so that commands writing no rows start without loading numpy
    idx = np.arange(every - 1, total, every, dtype=np.int64)
    if total and (idx.size == 0 or idx[-1] != total - 1):
        idx = np.append(idx, total - 1)
    return idx


# --- human units -------------------------------------------------------------------------------------------
human_bytes, one_in = units.human_bytes, units.one_in   # re-exported for the commands


def rate(p: float) -> str:
    return f"{p:.6g}" if p >= 1e-4 or p == 0 else f"{p:.4e}"


# --- progress ----------------------------------------------------------------------------------------------
#: Stops (Ctrl-C, SIGTERM) the command line's handler raised (cli._terminate_as_exception): raised again at the
#: next progress report, in case the first raise landed in a finaliser and was dropped.
stops: list[type[BaseException]] = []


class Progress:
    """A one-line progress bar on a terminal. When the stream is not one (a log file, a pipe, a job runner's
    capture), a long run still says how far it is: a plain line every ``line_interval`` seconds, the first
    after ``line_interval`` seconds, so a short run prints nothing. It goes to stderr: stdout keeps its format
    (a CSV on stdout stays a CSV)."""

    WIDTH = 30
    LINE_INTERVAL = 10.0

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 min_interval: float = 0.1, line_interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.label = label
        self._min_interval = min_interval
        self._last = -math.inf
        self._shown = False
        self._clock = clock
        self._line_interval = self.LINE_INTERVAL if line_interval is None else line_interval
        self._next_line = clock() + self._line_interval

    def __call__(self, done: int, total: int) -> None:
        if stops:
            raise stops[0]()
        if not self.enabled:
            self._line(done, total)
            return
        now = self._clock()
        if done < total and now - self._last < self._min_interval:
            return
        self._last = now
        frac = done / total if total else 1.0
        filled = int(round(frac * self.WIDTH))
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {frac:6.1%} {done:,}/{total:,}")
        self.stream.flush()
        self._shown = True

    def _line(self, done: int, total: int) -> None:
        now = self._clock()
        if now < self._next_line:
            return
        self._next_line = now + self._line_interval
        frac = done / total if total else 1.0
        try:
            self.stream.write(f"{self.label}: {done:,} of {total:,} ({frac:.1%})\n")
            self.stream.flush()
        except (OSError, ValueError):   # a closed log is no reason to stop the run
            pass

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


# --- the CSV a command writes ------------------------------------------------------------------------------
class AtomicText:
    """A text file written under a temporary name beside its target and renamed over it only when complete,
    so a failure or Ctrl-C never leaves a half-written CSV under the target's name (core.atomic_write: through
    a symlink to its target, a read-only target refused, stale temporaries of a killed run cleaned).

    An existing device or FIFO (``/dev/null``, ``/dev/stdout``, a pipe) is written directly: it cannot be
    renamed over. A FIFO nobody reads is refused at once instead of blocking (core.safe_files)."""

    def __init__(self, path: str):
        from bloomviz.disk.atomic_write import AtomicWriter
        from bloomviz.disk.safe_files import open_stream_for_writing
        self.path = path
        self.writer = None
        try:
            mode = os.stat(path).st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            self.fh = io.TextIOWrapper(open_stream_for_writing(path), encoding="utf-8", newline="")
            return
        self.writer = AtomicWriter(path, what="the CSV file")
        self.fh = io.TextIOWrapper(self.writer.file.file, encoding="utf-8", newline="")

    def commit(self) -> None:
        if self.writer is None:
            self.fh.close()
            return
        self.fh.flush()
        self.fh.detach()   # the writer closes the file itself, after its fsync
        self.writer.commit()

    def discard(self) -> None:
        if self.writer is None:
            with contextlib.suppress(OSError, ValueError):
                self.fh.close()
            return
        with contextlib.suppress(OSError, ValueError):
            self.fh.detach()
        self.writer.discard()


def open_csv(prog: str, path: str) -> tuple[AtomicText | None, int]:
    """(target, 0) for --csv PATH, opened now so that an unwritable path fails before any work; (None, 0) for
    "-" (stdout); (None, exit code) after reporting a path that cannot be written."""
    if path == "-":
        return None, 0
    try:
        return AtomicText(path), 0
    except OSError as exc:
        return None, fail(prog, f"argument --csv: cannot write {path!r}: {exc.strerror or exc}")


def write_csv(prog: str, path: str, target: AtomicText | None, write: Callable[[TextIO], None]) -> int:
    """Run ``write(out)`` into ``target`` (stdout when None) and commit it; 0, or 1 when writing failed.

    The one handling of a failed CSV: the temporary file is discarded (the target keeps what it held), a closed
    stdout (the reader went away) propagates so main() ends quietly, any other OSError is one line on stderr;
    any other exception discards the file and propagates."""
    try:
        write(sys.stdout if target is None else target.fh)
        if target is not None:
            target.commit()
    except OSError as exc:
        if target is not None:
            target.discard()
        if target is None and isinstance(exc, BrokenPipeError):
            raise
        print(f"{prog}: error: writing {path!r} failed: {exc.strerror or exc}; nothing was written",
              file=sys.stderr)
        return 1
    except BaseException:
        if target is not None:
            target.discard()
        raise
    return 0


def open_window(argv: list[str]) -> int:
    """Start the window with its own options ``argv`` (``bloomviz.gui.app.main``, imported here so that the
    commands never load Qt); one line on stderr when this installation cannot show it."""
    try:
        from bloomviz.gui.app import main as gui_main
    except ModuleNotFoundError as exc:
        if exc.name in ("bloomviz.gui", "bloomviz.gui.app"):
            print(f"bloomviz: the window is not available in this installation (bloomviz.gui.app is missing); "
                  f"the commands work: bloomviz --help", file=sys.stderr)
        else:
            print(f"bloomviz: cannot start the window: module {exc.name!r} is not installed", file=sys.stderr)
        return 1
    except ImportError as exc:  # e.g. a Qt system library missing on a bare server
        print(f"bloomviz: cannot start the window: {exc} (see the README for the system libraries Qt needs)",
              file=sys.stderr)
        return 1
    return int(gui_main(argv) or 0)
