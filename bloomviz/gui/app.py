"""Start the window: ``main(argv) -> exit code``.

Options (the command line passes its arguments through unchanged when no subcommand is given):

- ``--screenshot FILE``  build the window offscreen at its default size, insert the demo items, make one
  lookup, write a PNG of the window to FILE and exit 0;
- ``--demo N``           insert N demo items (and make one lookup) before showing the window;
- ``--m M --k K --scheme S``  start with this filter instead of the default design;
- ``--dark``             start in the dark theme (not remembered);
- ``--tab NAME``         start on that view: filter, start, explorer, compare, setops;
- ``--open FILE``        open a session (.bloomviz) or a saved filter (.bloom);
- ``--scenario NAME``    run a scenario at start (spell, passwords, contacts, ssh, urls);
- ``--lesson NAME``      open on the Lesson tab with this lesson (a file, or a built-in's name or number:
  ``bloomviz lesson 1`` passes it), ``--step N`` at its step N, ``--present`` in presenter mode.

Without --demo, --screenshot, --tab, --open, --scenario or --lesson the window opens on the Start page.

Environment: ``BLOOMVIZ_SETTINGS=FILE`` keeps preferences in that INI file instead of the user's settings
(tests and screenshots use it so they neither read nor change a person's preferences);
``BLOOMVIZ_QUIT_AFTER_PAINT=1`` closes the window right after it is first painted and prints
``first-paint <seconds>`` (seconds since ``BLOOMVIZ_T0``, a ``time.time()`` value, when that is set).
``QT_NO_GUI_THREADPOOL`` is set to 1 unless it is set already (``paint_on_gui_thread``).

A bad option prints one line on stderr naming it and returns 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Sequence

SCREENSHOT_SIZE = (1440, 900)
TABS = ("filter", "start", "explorer", "compare", "setops", "foreign", "lesson")
DEFAULT_DEMO = 200
# The filter a new user starts with (no --m/--k/--open/--scenario/--demo/--lesson): m = 32 bits and k = 3, made
# for 8 items. Typed words collide within a minute: after 5 words a word never typed passes with probability
# 5.6 % (the exact rate, theory.rates.fp_exact), after 8 with 15.6 %, so 20 lookups by hand find one with 68 %
# and 97 %; the default design (1,918 bits, k = 7) needed 5.3·10^13 tries at n = 3. Its 32 cells show their
# indices. ``--demo N`` (and --screenshot) sizes the filter for its N words instead.
FIRST_FILTER = {"m": 32, "k": 3, "capacity": 8}


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump, no SystemExit from inside main()
        raise _ArgError(message)


def _non_negative(name: str):
    def parse(text: str) -> int:
        from bloomviz.theory import units
        try:
            value = units.parse_whole(text, name)
        except units.NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"{name} must not be negative, got {value}")
        return value
    return parse


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="bloomviz", add_help=True, description="Bloom filters made visible (the window).")
    p.add_argument("--screenshot", metavar="FILE", help="write a PNG of the window to FILE and exit")
    p.add_argument("--demo", metavar="N", type=_non_negative("--demo"),
                   help="insert N demo items and make one lookup")
    p.add_argument("--m", type=_non_negative("--m"), help="bits in the starting filter")
    p.add_argument("--k", type=_non_negative("--k"), help="hash functions of the starting filter")
    p.add_argument("--scheme", help="hash scheme id of the starting filter")
    p.add_argument("--dark", action="store_true", help="start in the dark theme")
    p.add_argument("--tab", choices=TABS, help="start on this view")
    p.add_argument("--open", metavar="FILE", help="open a session (.bloomviz) or a filter (.bloom)")
    p.add_argument("--scenario", metavar="NAME", help="run a scenario at start")
    p.add_argument("--lesson", metavar="NAME", help="open this lesson (a file, or a built-in's name or number)")
    p.add_argument("--step", metavar="N", type=_non_negative("--step"), help="the lesson's step to show")
    p.add_argument("--present", action="store_true", help="show the lesson in presenter mode")
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    args = build_parser().parse_args(list(argv))
    if args.screenshot is not None and not args.screenshot.strip():
        raise _ArgError("--screenshot needs a file name")
    from bloomviz.gui.workbench import QtWorkbench# noqa: F401 - fails early if the GUI stack is missing
    if args.m is not None or args.k is not None or args.scheme is not None:
        from bloomviz.hashing import schemes as hashing
        from bloomviz.workbench.limits import design_params
        m_default, k_default = design_params(200, 0.01)
        problem = QtWorkbench.validate_config(args.m if args.m is not None else m_default,
                                            args.k if args.k is not None else k_default,
                                            args.scheme or hashing.DEFAULT_SCHEME)
        if problem:
            raise _ArgError(problem)
    if args.scenario is not None:
        from bloomviz.scenarios.stories import SCENARIOS
        if args.scenario not in SCENARIOS:
            raise _ArgError(f"--scenario: unknown scenario {args.scenario!r}; known: {', '.join(SCENARIOS)}")
    args.lesson_loaded = None
    if args.lesson is not None:
        from bloomviz import lessons
        try:
            args.lesson_loaded = lessons.find(args.lesson)
        except lessons.LessonError as exc:
            raise _ArgError(f"--lesson: {exc}") from None
        steps = len(args.lesson_loaded.steps)
        if args.step is not None and args.step > steps:
            raise _ArgError(f"--step: the lesson “{args.lesson_loaded.title}” has {steps} steps, got {args.step}")
    elif args.step is not None or args.present:
        raise _ArgError(f"{'--step' if args.step is not None else '--present'} goes with --lesson "
                        f"(or: bloomviz lesson 1 --present)")
    if args.open is not None and not (os.path.isdir(args.open) and _foreign_directory(args.open)):
        # Refused by its kind before the window opens it: a FIFO would block the window for ever. A directory
        # passes only when a format reads it whole (a git repository, a LevelDB or RocksDB database).
        from bloomviz.disk.safe_files import check_regular
        try:
            check_regular(args.open, "a session (.bloomviz) or a filter (.bloom)")
        except FileNotFoundError:
            raise _ArgError(f"--open: no such file: {args.open}") from None
        except OSError as exc:
            raise _ArgError(f"--open: {args.open}: {exc.strerror or exc}") from None
    return args


def _foreign_directory(path: str) -> bool:
    from bloomviz import formats
    try:
        return formats.detect(path) is not None
    except (OSError, ValueError):
        return False


def _settings(screenshot: bool):
    path = os.environ.get("BLOOMVIZ_SETTINGS")
    if screenshot and not path:
        # A screenshot shows the defaults, whatever the person's preferences.
        path = os.path.join(tempfile.mkdtemp(prefix="bloomviz-shot-"), "settings.ini")
    from bloomviz.gui.settings_file import open_settings
    return open_settings(path)


def _no_display() -> bool:
    """On Linux without X or Wayland and no platform chosen, Qt would abort the interpreter: say so instead."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class _FirstPaint:
    """Quit (and report the time) after the window's first paint."""

    def __init__(self, window, app):
        from PySide6 import QtCore

        class Filter(QtCore.QObject):
            def eventFilter(inner, obj, event):  # noqa: N805 - Qt's signature
                if event.type() == QtCore.QEvent.Type.Paint and not self.seen:
                    self.seen = True
                    t0 = os.environ.get("BLOOMVIZ_T0")
                    elapsed = time.time() - float(t0) if t0 else time.perf_counter()
                    print(f"first-paint {elapsed:.3f}", flush=True)
                    if window.file_actions is not None:
                        window.file_actions.discard_changes()
                    QtCore.QTimer.singleShot(0, window.close)
                    QtCore.QTimer.singleShot(0, app.quit)
                return False

        self.seen = False
        self.filter = Filter()
        window.installEventFilter(self.filter)


def paint_on_gui_thread() -> None:
    """Keep Qt's raster painting on the GUI thread (before the QApplication; a value already set is kept).

    Qt's raster engine hands every fill of 96 or more spans (a translucent band, a scroll bar's or a progress
    bar's gradient, a large smooth-scaled image) to a thread pool of its own and waits for it. On 2 shared cores
    under load each hand-off waits for a core: turns of the auto-play at 10^7 items took 230-330 ms of wall time
    for ~8 ms of the GUI thread's CPU (benchmarks/bench_stalls.py), a repaint of the window handed off 5-20 times,
    the history table's scroll bar alone ~8 times. ``QT_NO_GUI_THREADPOOL`` (read by Qt when the pool is first
    asked for) makes no pool: the fills run where they are asked, the window's repaint took 2.5 ms of CPU and no
    hand-off against 3-4 ms and 5-20."""
    os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse_args(argv)
    except _ArgError as exc:
        print(f"bloomviz: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    screenshot = args.screenshot is not None
    if screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _quiet_offscreen()
    elif _no_display():
        print("bloomviz: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set); "
              "`bloomviz --screenshot FILE` draws the window offscreen", file=sys.stderr)
        return 1

    paint_on_gui_thread()
    from PySide6 import QtWidgets

    from bloomviz.gui import theme
    from bloomviz.gui.gui_thread_gc import collect_on_gui_thread
    from bloomviz.gui.main_window import MainWindow

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([sys.argv[0] if sys.argv else "bloomviz"])
    app.setOrganizationName("bloomviz")
    app.setApplicationName("bloomviz")
    theme.apply_theme(app, False)
    theme.apply_font_scale(app, theme.DEFAULT_FONT_SCALE)

    from bloomviz.filters.bitstore import keep_freed_memory_for_big_filters
    keep_freed_memory_for_big_filters()     # the process is the window's: its allocator may be tuned
    from bloomviz.hashing.cold_paths import before_first_paint
    with before_first_paint():   # its few small batches without loading numba (~1 s): hashing/cold_paths.py
        window = MainWindow(settings=_settings(screenshot))
        start_filter(window, args, screenshot)
        if args.dark:
            window.set_dark(True, remember=False)   # an option for this run, not a change of the preference
        # opening on the Start page, the other tabs' parts are installed after the first paint
        window.install_parts(first_screen=_opens_on_start_page(args, screenshot))

    if screenshot:
        return _screenshot(app, window, args)

    if args.tab or not (args.demo or args.open or args.scenario or args.lesson_loaded is not None):
        # the first view chosen before the window shows: the Filter tab's docks are then not laid out (the
        # plot's legend measured ~20 times) for a first screen that does not show them
        window.show_tab(args.tab or "start")
    window.show()
    _start(window, args)
    watcher = _FirstPaint(window, app) if os.environ.get("BLOOMVIZ_QUIT_AFTER_PAINT") else None
    with collect_on_gui_thread():   # other threads run Python beside Qt (gui_thread_gc.py says why)
        code = app.exec()
    del watcher
    return int(code)


def _opens_on_start_page(args, screenshot: bool) -> bool:
    """Whether the window's first screen is the Start page and nothing at start needs the other tabs."""
    return not (screenshot or args.demo or args.open or args.scenario or args.lesson_loaded is not None) and \
        args.tab in (None, "start")


def start_filter(window, args, screenshot: bool = False) -> None:
    """The filter the window starts with: --m/--k/--scheme, else ``FIRST_FILTER`` for a new user (not for a
    picture, a demo, a file or a scenario, which bring their own)."""
    if args.m is not None or args.k is not None or args.scheme is not None:
        flt = window.wb.filter
        window.wb.configure(args.m or flt.m, args.k or flt.k, args.scheme or flt.scheme)
    elif not (screenshot or args.demo or args.open or args.scenario):
        serial = window.wb.undo_stack.serial
        window.wb.configure(FIRST_FILTER["m"], FIRST_FILTER["k"], capacity=FIRST_FILTER["capacity"])
        window.wb.undo_stack.cut_from(serial)      # the first filter is where the user starts, not an undo step


def _start(window, args) -> None:
    """What the window does first: a demo, a file, a scenario, a chosen view, or else the Start page."""
    from PySide6 import QtCore
    if args.demo:
        QtCore.QTimer.singleShot(0, lambda: window.demo(args.demo, fit=_own_filter(args)))
    if args.open:
        QtCore.QTimer.singleShot(0, lambda: window.file_actions.open_path(args.open, ask=False))
    if args.scenario:
        QtCore.QTimer.singleShot(0, lambda: window.scenarios.run(args.scenario))
    if args.lesson_loaded is not None:
        _open_lesson(window, args)
    elif args.tab:
        window.show_tab(args.tab)
    elif not (args.demo or args.open or args.scenario):
        window.show_tab("start")


def _own_filter(args) -> bool:
    """No --m, --k or --scheme: the demo may size the filter for its items."""
    return args.m is None and args.k is None and args.scheme is None


def _open_lesson(window, args) -> None:
    """The Lesson tab on the lesson, at its step, presenting if asked (``bloomviz lesson 1 --present``)."""
    view, lesson = window.lesson_view, args.lesson_loaded
    if (lesson.path or "").startswith("builtin:"):
        # read before the window chose its language: a built-in lesson again, in that language where it exists
        from bloomviz import lessons
        lesson = lessons.find(args.lesson)
    view.load(lesson)
    window.show_tab("lesson")
    if args.step:
        view.go_to(args.step)
    if args.present:
        window.presenter.enter()


def _quiet_offscreen() -> None:
    """The offscreen platform warns on every dock it lays out ("does not support propagateSizeHints"): a
    picture's maker needs none of that; other messages still reach stderr."""
    from PySide6 import QtCore

    def quiet(mode, context, message: str) -> None:
        if "does not support propagateSizeHints" not in message:
            sys.stderr.write(message + "\n")
    QtCore.qInstallMessageHandler(quiet)


def _settle(app, window) -> None:
    """Let pending work, layouts and throttled redraws finish before a picture is taken."""
    from PySide6 import QtCore
    deadline = time.perf_counter() + 60

    def wait(working) -> None:
        while working() and time.perf_counter() < deadline:
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)

    wait(lambda: window.wb.busy)
    for _ in range(5):
        app.processEvents()
    # A view that runs on its first showing (Compare's lesson) is pictured with its run done, not half-way.
    view = window.current_view()
    wait(lambda: bool(getattr(view, "running", False)))
    window.plot.refresh_now()
    window.explain_panel.render_now()
    app.processEvents()


def _screenshot(app, window, args) -> int:
    from PySide6 import QtWidgets

    window.resize(*SCREENSHOT_SIZE)
    window.show()
    app.processEvents()
    if args.open:
        window.file_actions.open_path(args.open, ask=False)
    elif args.scenario:
        window.scenarios.run(args.scenario)
    else:
        window.demo(DEFAULT_DEMO if args.demo is None else args.demo, lookup=True, fit=_own_filter(args))
    _settle(app, window)
    if args.lesson_loaded is not None:
        _open_lesson(window, args)
        _settle(app, window)
    elif args.tab:
        window.show_tab(args.tab)
        _settle(app, window)
    image = window.grab()
    from bloomviz.gui.widgets.plot_export import save_png
    try:   # the one atomic writer: a FIFO or a read-only file is refused, not written into or replaced
        save_png(image, args.screenshot, "the screenshot")
        failed = ""
    except OSError as exc:
        failed = f": {exc.strerror or exc}"
    window.file_actions.discard_changes()   # a picture, not a session: closing asks nothing
    window.close()
    if failed:
        print(f"bloomviz: could not write the screenshot to {args.screenshot}{failed}", file=sys.stderr)
        return 1
    print(f"bloomviz: wrote {args.screenshot} ({image.width()}x{image.height()})")
    QtWidgets.QApplication.processEvents()
    return 0
