"""No widget of the window hides a Qt method under an attribute of its own. Qt calls its virtual methods from
C++ (QPaintDevice::metric for a font's DPI, sizeHint, event ...): the Foreign view's ``self.metric = QComboBox()``
made every text-size change call a combo box as ``metric()`` and crash the window at start with 150 % text."""

from __future__ import annotations

from PySide6 import QtWidgets

from bloomviz.gui.extensions import install_all
from window_helpers import new_window


def test_no_widget_attribute_shadows_a_qt_method(qtbot, tmp_path):
    window = new_window(qtbot, tmp_path, probes=100)
    install_all(window)
    for key in ("filter", "start", "lesson", "explorer", "compare", "setops", "foreign"):
        window.tab_view(key)                  # views made on their first showing are made now
    qt_methods = {name for name in dir(QtWidgets.QWidget) if callable(getattr(QtWidgets.QWidget, name, None))}
    offences = []
    widgets = [w for w in [window, *window.findChildren(QtWidgets.QWidget)]
               if type(w).__module__.startswith("bloomviz.")]
    assert len(widgets) > 50
    for obj in widgets:
        for name, value in vars(obj).items():
            if name in qt_methods and not callable(value):
                offences.append(f"{type(obj).__module__}.{type(obj).__name__}.{name}")
    assert not offences, f"attributes that hide Qt methods: {sorted(set(offences))}"
