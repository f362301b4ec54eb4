"""The window's warm-up thread (numba's load, ~0.6 s mostly holding the interpreter's lock) starts only after the
application's first paint: started from the event loop's first turn, it ran beside that paint and delayed it."""

from PySide6 import QtCore, QtWidgets

from bloomviz.gui import workbench as adapter


class _Paints(QtCore.QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Paint:
            self.count += 1
        return False


def test_the_warm_up_starts_after_the_first_paint(qtbot, monkeypatch):
    app = QtWidgets.QApplication.instance()
    paints = _Paints()
    app.installEventFilter(paints)
    started = []
    monkeypatch.setattr(adapter, "_start_warm_up", lambda: started.append(paints.count))
    try:
        adapter._AfterFirstPaint.arm()
        for _ in range(5):
            app.processEvents()
        assert started == [] or paints.count, "nothing painted, nothing started"
        widget = QtWidgets.QLabel("painted")
        qtbot.addWidget(widget)
        widget.show()
        qtbot.waitUntil(lambda: bool(started))
        assert started[0] >= 1 and len(started) == 1
        widget.update()
        qtbot.waitUntil(lambda: paints.count > started[0])
        assert len(started) == 1, "armed once, started once"
    finally:
        app.removeEventFilter(paints)
        adapter._AfterFirstPaint.armed = None
