"""Every step of a lesson as presenter mode shows it, one PNG each: handouts and slides for a teacher, and the
way to look at a lesson at the hall's resolution before the class does (``bloomviz lesson NAME --shots DIR``).

The window is the real one (``MainWindow`` with its parts, presenter mode entered as F5 enters it), drawn
offscreen unless a platform is chosen, with preferences in a throwaway file so a person's settings are neither
read nor changed. A predict step gives two pictures: the question as the class sees it, then the revealed
answer (no votes recorded).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile

MIN_SIZE, MAX_SIZE = (640, 400), (7680, 4320)


def parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` as (1920, 1080), within what a projector or a monitor shows; ValueError otherwise."""
    match = re.fullmatch(r"\s*(\d{1,5})\s*[x×]\s*(\d{1,5})\s*", text)
    if not match:
        raise ValueError(f"a size is WIDTHxHEIGHT, e.g. 1920x1080, got {text!r}")
    w, h = int(match.group(1)), int(match.group(2))
    if not (MIN_SIZE[0] <= w <= MAX_SIZE[0] and MIN_SIZE[1] <= h <= MAX_SIZE[1]):
        raise ValueError(f"size {w}x{h} is outside {MIN_SIZE[0]}x{MIN_SIZE[1]}…{MAX_SIZE[0]}x{MAX_SIZE[1]}")
    return w, h


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40] or "step"


def write_shots(lesson, out_dir: str, size: tuple[int, int] = (1920, 1080)) -> list[str]:
    """Write the lesson's title page and each step (and each revealed answer) to ``out_dir``; the paths."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import QtCore, QtWidgets

    from bloomviz.gui import theme
    from bloomviz.gui.main_window import MainWindow

    def quiet(mode, context, message: str) -> None:
        # the offscreen platform warns on every dock it lays out; a teacher making handouts needs none of that
        if "does not support propagateSizeHints" not in message:
            sys.stderr.write(message + "\n")
    previous = QtCore.qInstallMessageHandler(quiet)
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([sys.argv[0] if sys.argv else "bloomviz"])
    theme.apply_theme(app, False)
    theme.apply_font_scale(app, theme.DEFAULT_FONT_SCALE)
    settings = QtCore.QSettings(os.path.join(tempfile.mkdtemp(prefix="bloomviz-shots-"), "settings.ini"),
                                QtCore.QSettings.Format.IniFormat)
    window = MainWindow(settings=settings)
    window.install_parts()
    view = window.lesson_view
    view.load(lesson)
    window.resize(*size)
    window.show()
    window.presenter.enter()
    screen = window.screen()
    if screen is None or (screen.geometry().width(), screen.geometry().height()) != size:
        # full screen is this screen's size; a picture for another hall is that hall's size, so the window
        # leaves the full-screen state (everything else presenter mode does stays)
        window.setWindowState(window.windowState() & ~QtCore.Qt.WindowState.WindowFullScreen)
        window.setGeometry(0, 0, *size)
    os.makedirs(out_dir, exist_ok=True)
    written: list[str] = []

    def shoot(name: str) -> None:
        for _ in range(5):
            app.processEvents()
        image = window.grab()
        path = os.path.join(out_dir, name)
        from bloomviz.gui.widgets.plot_export import save_png
        save_png(image, path, "the picture")   # atomic: a FIFO or read-only file there is refused
        written.append(path)

    try:
        shoot("00-title.png")
        for number, step in enumerate(lesson.steps, start=1):
            view.go_to(number)
            if view.runner.position != number:          # the view said why (a LessonError) in its message
                raise RuntimeError(view.message.text())
            name = f"{number:02d}-{_slug(step.title)}"
            shoot(f"{name}.png")
            if view.asking():
                view.reveal()
                shoot(f"{number:02d}b-{_slug(step.title)}-answer.png")     # sorts after the question
    finally:
        window.presenter.leave()
        if window.file_actions is not None:
            window.file_actions.discard_changes()     # pictures, not a session: closing asks nothing
        window.close()
        QtCore.qInstallMessageHandler(previous)
    return written
