"""The window's parts beyond the filter tab: other tabs, menus and panels, each installed by its module.

The window itself (grid, plot, panels) stands without them; ``install_all(window)`` (``MainWindow.install_parts``)
adds every one, in the order their tabs and menu entries should appear, and keeps what each made under the
window attribute ``MainWindow`` declares for it. Each part is imported here by name, so the import graph shows
what the window is made of; the parts the first screen does not need are imported when they are installed
(each by a function of its own below): the views, plots and readers behind them were ~0.3 s of imports before
a window opened on the Start page could show.
"""

from __future__ import annotations

from bloomviz.gui.files import session_io
from bloomviz.gui.scenarios_tab import controller as scenarios


def _explorer():
    from bloomviz.gui.explorer_tab import view as explorer_view
    return explorer_view


def _compare():
    from bloomviz.gui.compare_tab import view as compare_view
    return compare_view


def _setops():
    from bloomviz.gui.setops_tab import view as setops_view
    return setops_view


def _find_fp():
    from bloomviz.gui.filter_tab import find_fp
    return find_fp


def _foreign():
    from bloomviz.gui.files import foreign_view
    return foreign_view


def _slow_motion():
    from bloomviz.gui.filter_tab import slow_motion
    return slow_motion


def _predict():
    from bloomviz.gui.filter_tab import predict_tool
    return predict_tool


def _lesson():
    from bloomviz.gui.lesson_tab import view as lesson_view
    return lesson_view


def _relight():
    from bloomviz.gui.filter_tab import history_relight
    return history_relight


def _fill_gauge():
    from bloomviz.gui.widgets import fill_gauge
    return fill_gauge


def _projector():
    from bloomviz.gui.window import projector
    return projector


# (the part's module or the function importing it, its name, the window attribute that keeps what its
# install() made, or None), in the order of their tabs and menu entries
STEPS = (
    (session_io, "bloomviz.gui.files.session_io", "file_actions"),       # File: sessions, filters, import
    (scenarios, "bloomviz.gui.scenarios_tab.controller", "scenarios"),   # Scenarios menu, Start tab, dock
    (_explorer, "bloomviz.gui.explorer_tab.view", None),                 # the parameter explorer tab
    (_compare, "bloomviz.gui.compare_tab.view", None),                   # hash schemes and variants side by side
    (_setops, "bloomviz.gui.setops_tab.view", None),                     # union and intersection of two filters
    (_find_fp, "bloomviz.gui.filter_tab.find_fp", None),                 # Tools: find a false positive
    (_foreign, "bloomviz.gui.files.foreign_view", "foreign"),            # other libraries' filters, read-only
    (_slow_motion, "bloomviz.gui.filter_tab.slow_motion", "slow_motion"),  # Tools: one hash at a time
    (_predict, "bloomviz.gui.filter_tab.predict_tool", None),            # Tools: predict a lookup, then see
    (_lesson, "bloomviz.gui.lesson_tab.view", "lesson_view"),            # the Lesson tab, presenter mode (F5)
    (_relight, "bloomviz.gui.filter_tab.history_relight", None),         # click a History row: its bits again
    (_fill_gauge, "bloomviz.gui.widgets.fill_gauge", "fill_gauge"),      # the status bar's capacity gauge
    (_projector, "bloomviz.gui.window.projector", "projector_layout"),   # F8: the Filter tab for a projector
)
# The parts the Start page needs, the window's first screen when it opens with no file, demo or lesson: the
# others can be installed after the first paint (MainWindow.install_parts(first_screen=True)).
FIRST_SCREEN = 2
MODULES = tuple(name for _, name, _ in STEPS)


def install_step(window, step: int) -> object:
    """Install part ``step`` of ``STEPS``; returns what its install() made."""
    part, name, attribute = STEPS[step]
    module = part() if callable(part) else part
    assert module.__name__ == name, f"{name} is {module.__name__}"   # MODULES names what is installed
    made = module.install(window)
    if attribute is not None:
        setattr(window, attribute, made)
    return made


def install_all(window) -> dict:
    """Install every part into ``window``, in the order of their tabs and menu entries; returns what each
    install() returned, by module name."""
    return {MODULES[i]: install_step(window, i) for i in range(len(STEPS))}
