"""The window's parts beyond the filter tab: other tabs, menus and panels, each installed by its module.

The window itself (grid, plot, panels) stands without them; ``install_all(window)`` (``MainWindow.install_parts``)
adds every one, in the order their tabs and menu entries should appear, and keeps what each made under the
window attribute ``MainWindow`` declares for it. Each part is imported here by name, so the import graph shows
what the window is made of.
"""

from __future__ import annotations

from bloomviz.gui.compare_tab import view as compare_view
from bloomviz.gui.explorer_tab import view as explorer_view
from bloomviz.gui.files import foreign_view, session_io
from bloomviz.gui.filter_tab import find_fp, history_relight, predict_tool, slow_motion
from bloomviz.gui.lesson_tab import view as lesson_view
from bloomviz.gui.scenarios_tab import controller as scenarios
from bloomviz.gui.setops_tab import view as setops_view
from bloomviz.gui.widgets import fill_gauge
from bloomviz.gui.window import projector



# (module, the window attribute that keeps what its install() made, or None), in the order of their tabs and
# menu entries
STEPS = (
    (session_io, "file_actions"),        # File: sessions, filters, import, history export
    (scenarios, "scenarios"),            # Scenarios menu, the Start tab, the scenario dock
    (explorer_view, None),               # the parameter explorer tab
    (compare_view, None),                # hash schemes and variants side by side
    (setops_view, None),                 # union and intersection of two filters
    (find_fp, None),                     # Tools: find a false positive
    (foreign_view, "foreign"),           # other libraries' filters (Parquet, Guava, ...), read-only
    (slow_motion, "slow_motion"),        # Tools: an insert or a lookup one hash at a time
    (predict_tool, None),                # Tools: the class predicts a lookup, then it is revealed
    (lesson_view, "lesson_view"),        # the Lesson tab, and presenter mode (F5): window.presenter
    (history_relight, None),             # click a History row to light its bits again
    (fill_gauge, "fill_gauge"),          # the status bar's gauge: items against the design capacity
    (projector, "projector_layout"),     # F8: the Filter tab's layout for a projector
)
# The parts the Start page needs, the window's first screen when it opens with no file, demo or lesson: the
# others can be installed after the first paint (MainWindow.install_parts(first_screen=True)).
FIRST_SCREEN = 2
MODULES = tuple(module.__name__ for module, _ in STEPS)


def install_step(window, step: int) -> object:
    """Install part ``step`` of ``STEPS``; returns what its install() made."""
    module, attribute = STEPS[step]
    made = module.install(window)
    if attribute is not None:
        setattr(window, attribute, made)
    return made


def install_all(window) -> dict:
    """Install every part into ``window``, in the order of their tabs and menu entries; returns what each
    install() returned, by module name."""
    return {STEPS[i][0].__name__: install_step(window, i) for i in range(len(STEPS))}
