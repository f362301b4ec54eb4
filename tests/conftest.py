"""The one main-window fixture the window tests share (the test-wide settings are in the repository's conftest.py).

``window`` is a ``MainWindow`` on a throwaway settings file, shown and exposed, and closed cleanly after the
test: its work cancelled, a presenter mode left, and the theme and text size, which live on the one
QApplication, put back for the next test. A test asks for a different window by indirect parametrization,
or a module (or test) by the ``window`` mark, which tests that take no window ignore::

    @pytest.mark.parametrize("window", [dict(dark=False), dict(dark=True)], indirect=True)
    def test_...(window): ...

    pytestmark = pytest.mark.window(probes=2_000, parts=True, size=(1280, 800))

(a parameter's options are laid over the mark's).

Options (``WindowOptions``): ``probes`` (the model's probe count), ``parts`` (install every tab and menu as the
app does, accessible names included), ``size``, ``dark``, ``font_scale``, ``tab`` (the tab in front), ``demo``
(that many demo items inserted), ``first_filter`` (the filter the app starts with, not the window's own
default), ``confirm`` (the panels' "are you sure?" answered yes), ``prepare`` (a function given the window
before it is shown: a part of its own installed, a filter configured), ``shown``.
"Save your changes?" at teardown is answered "discard" by the repository's conftest.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import pytest


@dataclasses.dataclass(frozen=True)
class WindowOptions:
    probes: int | None = 300     # None: the model's own default
    parts: bool = False
    size: tuple[int, int] | None = None
    dark: bool = False
    font_scale: float | None = None
    tab: str | None = None
    demo: int | None = None
    first_filter: bool = False
    confirm: bool = False
    prepare: Callable[[Any], Any] | None = None
    shown: bool = True


def pytest_configure(config):
    config.addinivalue_line("markers", "window(**options): the options of the window fixture (WindowOptions)")


@pytest.fixture
def window(request, qtbot, tmp_path, monkeypatch):
    from PySide6 import QtWidgets
    from bloomviz.gui import theme
    from bloomviz.gui.files.file_dialogs import DISCARD, Dialogs
    from window_helpers import new_window

    # the repository's conftest answers "discard" only where the dialogs were loaded before the test began; a
    # module that loads them through the window alone would meet a modal question no one answers at teardown
    monkeypatch.setattr(Dialogs, "ask_unsaved", lambda self, text: DISCARD)

    marked = {}
    for mark in reversed(list(request.node.iter_markers("window"))):   # the module's first, the test's over it
        marked.update(mark.kwargs)
    options = WindowOptions(**{**marked, **getattr(request, "param", {})})
    win = new_window(qtbot, tmp_path, probes=options.probes)
    if options.parts:
        win.install_parts()
    if options.first_filter:
        from bloomviz.gui import app
        app.start_filter(win, app.parse_args([]))
    if options.confirm:
        win.params_panel.confirm = lambda question: True
        win.item_panel.confirm = lambda question: True
    if options.size is not None:
        win.resize(*options.size)
    if options.dark:
        win.set_dark(True, remember=False)
    if options.font_scale is not None:
        win.set_font_scale(options.font_scale)
    if options.demo:
        win.demo(options.demo)
    if options.prepare is not None:
        options.prepare(win)
    if options.tab is not None:
        win.show_tab(options.tab)
    if options.shown:
        win.show()
        qtbot.waitExposed(win)
    yield win
    if win.presenter is not None and win.presenter.active:
        win.presenter.leave()
    win.autoplay.cancel()
    win.wb.cancel()
    if win.dark:
        win.set_dark(False, remember=False)
    if win.font_scale != theme.DEFAULT_FONT_SCALE:
        theme.apply_font_scale(QtWidgets.QApplication.instance(), theme.DEFAULT_FONT_SCALE)
