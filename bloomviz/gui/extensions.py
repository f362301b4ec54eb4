"""The views and menus that plug into the main window: each module's ``install(window)`` adds its own.

The window itself (grid, plot, panels) stands without them; ``install_all`` adds every one, in the order their
tabs and menu entries should appear. Modules still missing from an installation are a bug, not an option: an
import error propagates.
"""

from __future__ import annotations

import importlib

MODULES = (
    "bloomviz.gui.files.session_io",     # File: sessions, filters, import, history export
    "bloomviz.gui.scenarios_tab.controller",      # Scenarios menu, the Start tab, the scenario dock
    "bloomviz.gui.explorer_tab.view",       # the parameter explorer tab
    "bloomviz.gui.compare_tab.view",   # hash schemes and variants side by side
    "bloomviz.gui.setops_tab.view",    # union and intersection of two filters
    "bloomviz.gui.filter_tab.find_fp",        # Tools: find a false positive
    "bloomviz.gui.files.foreign_view",   # other libraries' filters (Parquet, Guava, ...), read-only
    "bloomviz.gui.filter_tab.slow_motion",    # Tools: an insert or a lookup one hash at a time
    "bloomviz.gui.lesson_tab.view",    # the Lesson tab, and presenter mode (F5)
    "bloomviz.gui.filter_tab.history_relight",  # click a History row to light its bits again
    "bloomviz.gui.widgets.fill_gauge",     # the status bar's gauge: items against the design capacity
)


def install_all(window) -> dict:
    """Install every extension into ``window``; returns what each install() returned, by module name."""
    installed = {}
    for name in MODULES:
        installed[name] = importlib.import_module(name).install(window)
    return installed
