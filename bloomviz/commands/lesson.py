"""``bloomviz lesson``: open a lesson in the window, check it, run it headless and write a report, or list the
built-in lessons.

A lesson is a Markdown file with ```bloomviz action blocks (README: Teaching with bloomviz). FILE may also name a
built-in lesson by its name or number (``bloomviz lesson 1``); ``--list`` prints them.

  (nothing else)     open the window on the lesson's Lesson tab (what a teacher types first); with --present in
                     presenter mode, with --step N at that step, with --dark in the dark theme

  --check            parse the lesson and run every step on the core (no window); print one line per step
  --report OUT.json  the same, and write per step: m, k, scheme, variant, n, bits set, the last verdict (the
                     filter's answer and, against what was inserted and removed, true/false positive/negative), its
                     positions, the measured and the exact rate, and the numbers the step computed
  --shots DIR        check it, then draw every step as presenter mode shows it to DIR as PNG (title page, each
                     step, and each predict step's revealed answer), at --size WxH (default 1920x1080)

A malformed lesson, or one that fails while running, is refused with one line naming the file, the line and
the reason (exit 2); nothing is written then.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
import os
import sys

from bloomviz.commands.common import add_command, CliParser, fail
from bloomviz.lessons.step_numbers import verdict_class_text

NAME = "lesson"


def add_parser(subparsers) -> CliParser:
    parser = add_command(
        subparsers, NAME, __doc__,
        help="open a lesson in the window (bloomviz lesson 1 --present), or check it, report on it headless, "
             "draw its steps to PNG (--list: the built-in lessons)")
    parser.add_argument("file", metavar="FILE", nargs="?", help="a lesson (.md), or a built-in lesson's name or number")
    parser.add_argument("--check", action="store_true", help="run every step headless and print a summary")
    parser.add_argument("--report", metavar="OUT.json", help="run every step headless and write a JSON report")
    parser.add_argument("--shots", metavar="DIR",
                        help="draw every step in presenter mode to DIR as PNG (for handouts; needs PySide6)")
    parser.add_argument("--size", metavar="WxH", default="1920x1080",
                        help="the size of the --shots pictures (default 1920x1080)")
    parser.add_argument("--list", action="store_true", help="list the built-in lessons")
    parser.add_argument("--language", metavar="CODE", default=None,
                        help="a built-in lesson in this language where it has one, e.g. hr (default: English)")
    parser.add_argument("--present", action="store_true",
                        help="open the window on the lesson in presenter mode (full screen, F5 leaves with Esc)")
    parser.add_argument("--step", metavar="N", help="open the window on the lesson at step N")
    parser.add_argument("--dark", action="store_true", help="open the window in the dark theme")
    return parser


def _rate(value) -> str:
    return "—" if value is None else f"{value:.4g}"


def _summary(report, total: int) -> str:
    """One line for a step (``report``: a ``lessons.report.StepReport``)."""
    if report.m is None:
        return f"step {report.step} of {total}: {report.title} (no filter yet)"
    last = report.last
    verdict = "" if not last or "verdict" not in last else \
        f"; {last['item']}: {'probably in' if last['verdict'] == 'maybe' else 'definitely not in'}" \
        + verdict_class_text(last)
    exact = f"exact {_rate(report.exact_rate)}"
    if report.counters_rate is not None:   # a counting filter after removals: its counters' rate
        exact = f"exact for n inserts without removals {_rate(report.exact_rate)}, its counters give " \
                f"{_rate(report.counters_rate)}"
    asked = "".join(f"; predict: {w['answer_text']} (choice {w['right'] + 1}, “{w['choices'][w['right']]}”)"
                    for w in [report.asked] if w is not None)
    return (f"step {report.step} of {total}: {report.title} — m={report.m:,} k={report.k} "
            f"{report.scheme} {report.variant}, n={report.n:,}, bits set {report.bits_set:,}, "
            f"measured {_rate(report.measured_rate)}, {exact}{verdict}{asked}")


def _plain(value):
    """JSON without NaN or infinities (a rate of an empty filter is 0, never NaN; be safe anyway)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):      # a dict, or a step's report (lessons.report.StepReport)
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _refused_images(lesson) -> list[str]:
    """``file:line: image 'ref' is not shown: why`` for every Markdown image the lesson file names that the
    Lesson tab and --shots would not load (lessons.images)."""
    from bloomviz.lessons import images
    from bloomviz.lessons.format import MAX_LESSON_BYTES
    folder = images.folder_of(lesson.path)
    if folder is None:
        return []
    from bloomviz.disk.safe_files import open_regular
    with open_regular(lesson.path, MAX_LESSON_BYTES, "a lesson file") as fh:
        text = fh.read(MAX_LESSON_BYTES + 1).decode("utf-8", "replace")
    return [f"{lesson.path}:{line}: image {ref!r} is not shown: {why}"
            for line, ref, why in images.problems(text, lesson.path)]


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    from bloomviz import lessons
    if args.list:
        for name in lessons.builtin_lessons():
            print(f"{name}\t{lessons.load_builtin(name).title}")
        return 0
    if not args.file:
        return fail(prog, "give a lesson FILE (or --list)")
    if not args.check and not args.report and not args.shots:
        return _window(prog, args)
    if args.present or args.step is not None or args.dark:
        return fail(prog, "--present, --step and --dark open the window; they do not go with --check, --report "
                          "or --shots")
    size = None
    if args.shots:
        from bloomviz.gui.lesson_tab.shots import parse_size
        try:
            size = parse_size(args.size)
        except ValueError as exc:
            return fail(prog, f"--size: {exc}")
        if os.path.exists(args.shots) and not os.path.isdir(args.shots):
            return fail(prog, f"--shots: {args.shots} exists and is not a folder")
    try:
        lesson = lessons.find(args.file, args.language)
        refused = _refused_images(lesson)
        if refused:   # the window would show these steps without their pictures: the author hears it first
            for line in refused:
                print(f"{prog}: error: {line}", file=sys.stderr)
            return 2
        writer = None
        if args.report:
            from bloomviz.disk.atomic_write import AtomicWriter
            writer = AtomicWriter(args.report, what="the report")   # refuses a bad target before the run
        try:
            reports = lessons.check(lesson)
        except BaseException:
            if writer is not None:
                writer.discard()
            raise
    except lessons.LessonError as exc:
        return fail(prog, exc)
    except OSError as exc:
        return fail(prog, f"{getattr(exc, 'filename', None) or args.report}: {exc.strerror or exc}")
    for report in reports:
        print(_summary(report, len(reports)))
    if writer is not None:
        doc = {"lesson": lesson.title, "file": lesson.path, "steps": _plain(reports)}
        writer.write(json.dumps(doc, indent=1, ensure_ascii=False).encode("utf-8") + b"\n")
        writer.commit()
        print(f"report: {args.report}")
    if args.shots:
        return _shots(prog, lesson, args.shots, size)
    return 0


def _shots(prog: str, lesson, folder: str, size: tuple[int, int]) -> int:
    try:
        from bloomviz.gui.lesson_tab.shots import write_shots
        paths = write_shots(lesson, folder, size)
    except ImportError as exc:
        return fail(prog, f"--shots draws the window and needs PySide6 and pyqtgraph: {exc}")
    except (OSError, RuntimeError) as exc:
        return fail(prog, f"--shots: {exc}")
    print(f"shots: {len(paths)} pictures at {size[0]}x{size[1]} in {folder}")
    return 0


def _window(prog: str, args) -> int:
    """The window, opened on the lesson (the window checks the lesson and the step again, and says why not)."""
    argv = ["--lesson", args.file]
    if args.present:
        argv.append("--present")
    if args.step is not None:
        argv += ["--step", args.step]
    if args.dark:
        argv.append("--dark")
    from bloomviz.commands.common import open_window
    return open_window(argv)
