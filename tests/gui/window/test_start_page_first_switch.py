"""A window opened on the Start page (``bloomviz`` with no options) paints before the Filter tab's plot is
built, builds it right after, and its first switch to the Filter tab shows that tab as a window opened on it
does: the same panels at the same places. (That switch once showed none of the filter's panels, only the
Slow motion and Predict docks: the panels' states were taken while the window was not yet shown.)"""

from PySide6 import QtCore

from bloomviz.gui.access import names
from window_helpers import new_window, settle

FILTER_PANELS = {"filter", "item", "autoplay", "plot", "explain", "history"}


class _FirstPaint(QtCore.QObject):
    def __init__(self, window):
        super().__init__()
        self.window, self.plot_built = window, None
        window.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Paint and self.plot_built is None:
            self.plot_built = self.window.plot.built
        return False


def _docks(window) -> dict:
    return {key: dock.geometry() for key, dock in window.docks.items() if dock.isVisible()}


def test_the_first_switch_from_the_start_page_shows_the_filter_tab_as_a_window_opened_on_it(qtbot, tmp_path):
    started = new_window(qtbot, tmp_path / "start", probes=100)
    started.install_parts(first_screen=True)
    started.show_tab("start")                      # as gui.app.main does, before the window shows
    paint = _FirstPaint(started)
    with qtbot.waitSignal(started.partsInstalled, timeout=60_000):
        started.show()
    assert paint.plot_built is False, "the hidden plot was built before the first paint"
    assert started.plot.built, "the plot is built after the paint, before anyone switches to it"
    assert not _docks(started), "the Start page shows none of the filter's panels"
    unnamed = [w for w in names.unnamed(started) if started.plot.isAncestorOf(w)]
    assert not unnamed, "the plot built after the paint has its controls named with the others'"

    opened = new_window(qtbot, tmp_path / "filter", probes=100)
    opened.install_parts()
    opened.show()
    qtbot.waitExposed(opened)
    started.show_tab("filter")
    settle(qtbot, started, opened)
    assert FILTER_PANELS <= set(_docks(opened))
    assert set(_docks(started)) == set(_docks(opened))
    assert _docks(started) == _docks(opened), "the panels' sizes differ from a window opened on the Filter tab"
    assert started.plot.entry_texts() == opened.plot.entry_texts()
    assert started.plot.graphics.isVisible() and started.plot.capacity_line.isVisible()
    for window in (started, opened):
        window.file_actions.discard_changes()
