"""Every control of the fully built window has an accessible name a screen reader can speak (issue 25, item 3):
the window with all its parts, every tab's view made, walked widget by widget."""

from __future__ import annotations

import re

import pytest
from PySide6 import QtWidgets

from bloomviz.gui.access import names

TABS = ("filter", "start", "lesson", "explorer", "compare", "setops", "foreign")


def _every_view_made(window):
    for key in TABS:
        window.tab_view(key)            # views made on their first showing are made now


pytestmark = pytest.mark.window(probes=100, parts=True, prepare=_every_view_made, shown=False)


def describe(widget):
    parent = widget.parentWidget()
    return f"{type(widget).__name__} in {type(parent).__module__}.{type(parent).__name__}"


def interactive(window):
    return [w for w in window.findChildren(QtWidgets.QWidget)
            if isinstance(w, names.INTERACTIVE) and not names.qt_internal(w)]


def test_every_interactive_widget_has_a_name(window):
    controls = interactive(window)
    kinds = {kind: sum(isinstance(w, kind) for w in controls) for kind in names.INTERACTIVE}
    # the walk reaches the window's real controls, not a handful
    assert len(controls) > 150 and kinds[QtWidgets.QComboBox] >= 10 and kinds[QtWidgets.QGraphicsView] >= 5
    missing = [describe(w) for w in names.unnamed(window)]
    assert not missing, f"controls without an accessible name: {missing}"


def test_names_are_words_not_object_names(window):
    identifier = re.compile(r"^[A-Za-z]+(_[A-Za-z0-9]+)+$|^[a-z]+[A-Z]\w*$")   # snake_case or camelCase
    bad = [(describe(w), w.accessibleName()) for w in interactive(window)
           if identifier.match(w.accessibleName()) or w.accessibleName() == w.objectName()]
    assert not bad, f"names that read as code: {bad}"


def test_grid_plot_and_tabs_are_named_for_what_they_show(window):
    assert window.grid.graphics_widget.accessibleName() == "Bit grid"
    assert "False-positive rate" in window.plot.graphics.accessibleName()
    bar = window.tabs.tabBar().accessibleName()
    assert "Filter" in bar and "Lesson" in bar


def test_a_field_takes_its_label_and_its_tooltip_becomes_the_description(qtbot):
    box = QtWidgets.QWidget()
    qtbot.addWidget(box)
    form = QtWidgets.QFormLayout(box)
    field = QtWidgets.QLineEdit()
    field.setToolTip("How many items the filter must hold. 1e6 is accepted.")
    form.addRow("Capacity n:", field)
    swatch_row = QtWidgets.QHBoxLayout()
    combo = QtWidgets.QComboBox()
    combo.setToolTip("Hash scheme of configuration 2: the scheme its filter uses")
    swatch_row.addWidget(QtWidgets.QLabel("■"))
    swatch_row.addWidget(combo)
    form.addRow(swatch_row)
    named_before = QtWidgets.QPushButton("&Insert")
    named_before.setAccessibleName("Insert the typed item")
    form.addRow(named_before)
    assert names.name_tree(box) == 2
    assert field.accessibleName() == "Capacity n"
    assert field.accessibleDescription() == "How many items the filter must hold. 1e6 is accepted."
    assert combo.accessibleName() == "Hash scheme of configuration 2"     # not the swatch '■'
    assert named_before.accessibleName() == "Insert the typed item"
