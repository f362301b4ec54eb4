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

MODULES = tuple(module.__name__ for module in (
    session_io, scenarios, explorer_view, compare_view, setops_view, find_fp, foreign_view, slow_motion,
    predict_tool, lesson_view, history_relight, fill_gauge, projector))


def install_all(window) -> dict:
    """Install every part into ``window``, in the order of their tabs and menu entries; returns what each
    install() returned, by module name."""
    made = {}

    def install(module):
        made[module.__name__] = result = module.install(window)
        return result

    window.file_actions = install(session_io)   # File: sessions, filters, import, history export
    window.scenarios = install(scenarios)       # Scenarios menu, the Start tab, the scenario dock
    install(explorer_view)                      # the parameter explorer tab
    install(compare_view)                       # hash schemes and variants side by side
    install(setops_view)                        # union and intersection of two filters
    install(find_fp)                            # Tools: find a false positive
    window.foreign = install(foreign_view)      # other libraries' filters (Parquet, Guava, ...), read-only
    window.slow_motion = install(slow_motion)   # Tools: an insert or a lookup one hash at a time
    install(predict_tool)                       # Tools: the class predicts a lookup, then it is revealed
    window.lesson_view = install(lesson_view)   # the Lesson tab, and presenter mode (F5): window.presenter
    install(history_relight)                    # click a History row to light its bits again
    window.fill_gauge = install(fill_gauge)     # the status bar's gauge: items against the design capacity
    window.projector_layout = install(projector)   # F8: the Filter tab's layout for a projector
    return made
