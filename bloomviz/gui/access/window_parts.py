"""The window's accessibility, applied once its parts are installed (``MainWindow.install_parts``).

The few controls that show no words of their own (a line beside its button, a list, a speed chooser) are named
here; every other control is named from its text, label or tooltip by ``names.name_tree``. Views made later
(a tab made on its first showing) are named as the window holds them.
"""

from __future__ import annotations

from bloomviz.gui.access import cell_cursor, keyboard, motion, names, plot_words, scheme, speech
from bloomviz.gui.widgets import shrink

# (window attribute, its widget's attribute, name): controls whose words are elsewhere or only implied.
SILENT_CONTROLS = (
    ("scenarios", ("panel", "line"), "Item to check against the scenario's filter"),
    ("slow_motion", ("speed",), "Slow motion speed"),
    ("lesson_view", ("steps",), "Lesson steps"),
    ("lesson_view", ("narration",), "Lesson text"),
)


def _reach(obj, path):
    for attr in path:
        obj = getattr(obj, attr, None)
        if obj is None:
            return None
    return obj


def install(window) -> speech.Speaker:
    """Name the window's silent controls, then every other unnamed control of the window from its words; let
    its combo boxes shrink and its forms wrap at large text (``shrink``); give
    the grid its keyboard cursor, the verdict its voice and the plots their words. Returns the window's speaker
    (also ``window.speaker``)."""
    for owner, path, name in SILENT_CONTROLS:
        widget = _reach(getattr(window, owner, None), path)
        if widget is not None and not widget.accessibleName():
            widget.setAccessibleName(name)
    motion.install(window)
    scheme.install(window)
    shrink.let_combos_shrink(window)
    shrink.let_forms_wrap(window)
    names.name_tree(window)
    window.speaker = speaker = speech.Speaker(window)
    window.cell_cursor = cell_cursor.attach(window, speaker)
    keyboard.install(window)          # after the grid's cursor: the grid takes Tab from here on
    speech.VerdictVoice(window.wb, window.item_panel, speaker)
    plot_words.describe_rate_plot(window.plot)
    plot_words.describe_plots(window)
    return speaker


def view_made(view) -> None:
    """A tab's view made on its first showing: named and its plots described like the rest."""
    shrink.let_combos_shrink(view)
    shrink.let_forms_wrap(view)
    names.name_tree(view)
    keyboard.install(view)
    plot_words.describe_plots(view)
