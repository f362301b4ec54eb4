"""The window's own actions, declared once in the order of their menus.

Each entry of ``MENUS`` is a top-level menu and the actions it shows (``None`` a separator, ``PANELS`` the
Panels submenu of dock toggles). An action says its text, what it calls on the window, its shortcut, its tip
and whether it is a check box; ``build(window)`` makes every QAction (each also added to the window, so its
shortcut works with the menu bar hidden, as in presenter mode) and the menus, and returns the actions by key.
Views installed later add their own entries through ``MainWindow.menu(title)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6 import QtGui, QtWidgets

from bloomviz.i18n import tr

PANELS = "panels"


@dataclass(frozen=True)
class MenuAction:
    key: str
    text: str
    slot: Callable[[object], Callable]    # window -> the callable the action triggers
    shortcut: object = None               # a key sequence, a list of them, or None
    tip: str = ""
    checkable: bool = False


def _quit_keys():
    quit_key = QtGui.QKeySequence.StandardKey.Quit
    return quit_key if QtGui.QKeySequence(quit_key).count() else "Ctrl+Q"


MENUS = (
    ("&File", (
        MenuAction("export_grid", "Export grid as PNG…", lambda w: w.export_grid, "Ctrl+Shift+G",
                   "Save the grid as shown (zoom, highlights) to a PNG file."),
        MenuAction("export_plot", "Export plot…", lambda w: w.export_plot, "Ctrl+Shift+P",
                   "Save the live plot as PNG, SVG or CSV."),
        MenuAction("save_window", "Save window picture…", lambda w: w.save_window_picture, "Ctrl+Alt+S",
                   "Save a picture of the whole window (for slides)."),
        None,
        MenuAction("quit", "Quit", lambda w: w.close, _quit_keys, "Close bloomviz."),
    )),
    ("&Edit", (
        MenuAction("undo", "Undo", lambda w: w.wb.undo, QtGui.QKeySequence.StandardKey.Undo,
                   "Take back the last insert, lookup, removal or batch, or bring back the filter a new one replaced."),
        None,
        MenuAction("insert", "Insert item", lambda w: w.item_panel.insert, "Ctrl+Return",
                   "Insert the text of the item box (Enter in the box does the same)."),
        MenuAction("lookup", "Look up item", lambda w: w.item_panel.lookup, "Ctrl+L",
                   "Look the item box's text up: definitely not, or probably in the set."),
        MenuAction("remove", "Remove item (counting filter)", lambda w: w.item_panel.remove, None,
                   "Remove the item box's text from a counting filter (Ctrl+R in the item box)."),
        MenuAction("focus_item", "Go to the item box", lambda w: w.focus_item, "Ctrl+I",
                   "Put the cursor in the item box."),
        None,
        MenuAction("apply", "New filter with these parameters", lambda w: w.params_panel.apply, "Ctrl+Shift+N",
                   "Make a new empty filter from the parameters panel."),
        MenuAction("clear", "Clear the filter", lambda w: w.clear_filter, "Ctrl+Shift+Backspace",
                   "Empty the filter: all bits 0, no items, new plot and history."),
        MenuAction("probes", "Measurement probes…", lambda w: w.ask_probe_count, None,
                   "How many never-inserted items the false-positive rate is measured on (more probes: a narrower "
                   "interval)."),
        None,
        MenuAction("play", "Auto-play: play / pause", lambda w: w.autoplay.toggle, "F7",
                   "Insert items automatically at the chosen rate; again to pause."),
        MenuAction("step", "Auto-play: step", lambda w: w.autoplay.step, "F6", "Insert just the next item."),
        MenuAction("cancel", "Cancel bulk work", lambda w: w.cancel_work, "Esc",
                   "Stop auto-play or a bulk insert; what was inserted stays."),
    )),
    ("&View", (
        MenuAction("dark", "Dark theme", lambda w: w.set_dark, "Ctrl+Shift+D", "Switch light/dark colours.",
                   checkable=True),
        MenuAction("bigger", "Larger text", lambda w: (lambda: w.step_font(+1)), ["Ctrl++", "Ctrl+="],
                   "Enlarge every text for projection."),
        MenuAction("smaller", "Smaller text", lambda w: (lambda: w.step_font(-1)), "Ctrl+-", "Shrink every text."),
        MenuAction("normal", "Normal text size", lambda w: (lambda: w.set_font_scale(1.0)), "Ctrl+0",
                   "Text at its normal size."),
        None,
        MenuAction("fit", "Fit the grid", lambda w: w.grid.fit, "Ctrl+F", "Zoom the grid out to show every bit."),
        MenuAction("log_y", "Log scale for the rate", lambda w: w.plot.set_log_y, "Ctrl+Shift+L",
                   "Logarithmic y axis: small rates and the theory curves' differences show.", checkable=True),
        MenuAction("show_fill", "Show fill ratio", lambda w: w.plot.set_show_fill, None,
                   "Plot X/m against the expected fill.", checkable=True),
        MenuAction("show_estimate", "Show estimated n", lambda w: w.plot.set_show_estimate, None,
                   "Plot the count estimated from the bits against the true n.", checkable=True),
        None,
        PANELS,
        MenuAction("reset_layout", "Reset layout", lambda w: w.reset_layout, None,
                   "Put every panel back where it started (a saved layout can be broken by a large font)"),
    )),
    ("&Help", (
        MenuAction("primer", "Bloom filters in one page", lambda w: w.show_primer, "F1",
                   "The terms this window uses, explained."),
        MenuAction("settings_place", "Where settings live", lambda w: w.show_settings_place, None,
                   "The file that keeps the preferences, and how to reset them."),
        MenuAction("about", "About bloomviz", lambda w: w.show_about, None, "Version, licence, credits."),
    )),
)


def make_action(window: QtWidgets.QWidget, spec: MenuAction) -> QtGui.QAction:
    act = QtGui.QAction(tr(spec.text), window)
    shortcut = spec.shortcut() if callable(spec.shortcut) else spec.shortcut
    if isinstance(shortcut, (list, tuple)):
        act.setShortcuts([QtGui.QKeySequence(s) for s in shortcut])
    elif shortcut:
        act.setShortcut(QtGui.QKeySequence(shortcut))
    if spec.tip:
        act.setStatusTip(tr(spec.tip))
        act.setToolTip(tr(spec.tip))
    act.setCheckable(spec.checkable)
    (act.toggled if spec.checkable else act.triggered).connect(spec.slot(window))
    window.addAction(act)
    return act


def build(window: QtWidgets.QMainWindow, docks) -> tuple[dict[str, QtGui.QAction], QtWidgets.QMenu]:
    """Every action of ``MENUS`` in its menu; returns the actions by key and the Panels submenu."""
    actions: dict[str, QtGui.QAction] = {}
    panels = None
    bar = window.menuBar()
    for title, entries in MENUS:
        menu = bar.addMenu(tr(title))
        for spec in entries:
            if spec is None:
                menu.addSeparator()
            elif spec == PANELS:
                panels = menu.addMenu(tr("Panels"))
                for dock in docks:
                    panels.addAction(dock.toggleViewAction())
            else:
                actions[spec.key] = make_action(window, spec)
                menu.addAction(actions[spec.key])
    return actions, panels


def set_checked_quietly(action: QtGui.QAction, on: bool) -> None:
    """Show a check box's state without triggering it (the state was changed elsewhere)."""
    if action.isChecked() != on:
        action.blockSignals(True)
        action.setChecked(on)
        action.blockSignals(False)


def top_menu(window: QtWidgets.QMainWindow, title: str) -> QtWidgets.QMenu:
    """The top-level menu named ``title`` ("&File", "Tools" ...; English, shown translated), made before Help
    when missing."""
    bar = window.menuBar()
    title = tr(title)
    plain = title.replace("&", "")
    for action in bar.actions():
        if action.menu() is not None and action.text().replace("&", "") == plain:
            return action.menu()
    help_action = next((a for a in bar.actions() if a.text().replace("&", "") == tr("&Help").replace("&", "")), None)
    menu = QtWidgets.QMenu(title, window)
    bar.insertMenu(help_action, menu) if help_action is not None else bar.addMenu(menu)
    return menu
