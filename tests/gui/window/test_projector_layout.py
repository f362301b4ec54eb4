"""The live Filter tab at projection sizes (issue 26, issue 27 item 12): F8 gives the projector's layout, in which
at 150 % and 250 % text on a 1280 x 720 projector every control of the item panel and of auto-play is visible and
drawn whole (not scrolled out of its dock, not narrower or lower than it needs), light and dark; F8 again brings
back the layout as it was; and Ctrl+0 after larger text puts the 100 % layout back exactly."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.extensions import install_all
from window_helpers import FakeDialogs, new_window, settle

SIZE = (1280, 720)


pytestmark = pytest.mark.window(probes=200, parts=True, size=SIZE)


def controls(window):
    item, play = window.item_panel, window.autoplay_panel
    return {"item box": item.line, "Insert": item.insert_button, "Look up": item.lookup_button,
            "Remove": item.remove_button, "items": play.source_combo,
            "how many": play.count_spin, "seed": play.seed_spin, "rate": play.rate_combo, "Play": play.play_button,
            "Step": play.step_button, "Cancel": play.cancel_button, "Reset": play.reset_button,
            "progress": play.progress_bar}


def whole(widget) -> bool:
    """Shown, not clipped by a scroll area or the window, and not smaller than it needs to draw itself."""
    need = widget.minimumSizeHint()
    return (widget.isVisible() and widget.visibleRegion().boundingRect() == widget.rect()
            and widget.width() >= need.width() and widget.height() >= need.height())


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("scale", [1.5, 2.5])
def test_the_projector_layout_shows_every_control_whole(window, qtbot, scale, dark):
    window.set_dark(dark, remember=False)
    window.wb.insert("apple")
    window.item_panel.line.setText("pundits")     # the typed item's positions take a line too
    window.item_panel.lookup()
    window.wb.flush()       # its verdict shown before the text grows, as a person's lookup would be
    window.set_font_scale(scale)
    qtbot.keyClick(window, QtCore.Qt.Key.Key_F8)
    assert window.projector_layout.active
    try:
        qtbot.waitUntil(lambda: all(whole(w) for w in controls(window).values()), timeout=3000)
    except Exception:
        _debug(window)
        raise
    assert (window.width(), window.height()) == SIZE
    grid = window.grid
    assert grid.isVisible() and grid.width() >= 0.3 * SIZE[0] and grid.height() >= 0.4 * SIZE[1]
    assert window.docks["plot"].isVisible() and not window.docks["history"].isVisible()
    # the status bar's gauge says its words whole, and the status line ends in … before it
    gauge = window.fill_gauge
    assert gauge.visibleRegion().boundingRect() == gauge.rect()
    assert gauge.width() >= gauge.fontMetrics().horizontalAdvance(gauge.format())
    line = window.status_label       # whole, or ending in "…" before the gauge: never cut mid-number under it
    window.statusBar().showMessage("a passing message")
    assert not line.isVisible()      # hidden while a message stands, not drawn over
    window.statusBar().clearMessage()
    qtbot.waitUntil(lambda: line.isVisible() and line.geometry().right() < gauge.geometry().left(), timeout=3000)
    assert line.drawn_text() == line.text() or line.drawn_text().endswith("…")
    verdict = window.item_panel.verdict     # a text that may be long: its headline in view, the rest scrolls
    lines = verdict.fontMetrics().lineSpacing()

    def shown() -> int:
        return verdict.visibleRegion().boundingRect().height()
    # at 250 % the item panel's empty message row (20 px) took the verdict's first line: it is hidden while empty
    qtbot.waitUntil(lambda: shown() >= min(verdict.height(), lines), timeout=3000)


def test_f8_again_brings_the_layout_back(window, qtbot):
    settle(qtbot, window, *window.docks.values())      # the left column fitted to its panels (left_column.py)
    before = {key: (dock.isVisible(), dock.geometry()) for key, dock in window.docks.items()}
    qtbot.keyClick(window, QtCore.Qt.Key.Key_F8)
    assert not window.docks["filter"].isVisible()
    qtbot.keyClick(window, QtCore.Qt.Key.Key_F8)
    assert not window.projector_layout.active
    qtbot.waitUntil(lambda: {key: (dock.isVisible(), dock.geometry())
                             for key, dock in window.docks.items()} == before, timeout=3000)


def test_ctrl_0_puts_the_100_percent_layout_back_exactly(window, qtbot):
    qtbot.waitUntil(lambda: window.docks["item"].width() > 0)
    settle(qtbot, window, *window.docks.values())      # the left column fitted to its panels (left_column.py)
    before = {key: dock.geometry() for key, dock in window.docks.items() if dock.isVisible()}
    window.set_font_scale(2.5)
    assert {key: dock.geometry() for key, dock in window.docks.items() if dock.isVisible()} != before
    qtbot.keyClick(window, QtCore.Qt.Key.Key_0, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert window.font_scale == 1.0
    qtbot.waitUntil(lambda: {key: dock.geometry() for key, dock in window.docks.items()
                             if dock.isVisible()} == before, timeout=3000)


def _debug(window):
    for name, w in controls(window).items():
        need = w.minimumSizeHint()
        print(name, w.isVisible(), w.visibleRegion().boundingRect(), w.rect(), need)
    for key, d in window.docks.items():
        print(key, d.isVisible(), d.geometry())


def test_the_explorers_values_have_room_at_250_percent(qtbot, tmp_path):
    window = new_window(qtbot, tmp_path, probes=100)
    install_all(window)
    window.file_actions.dialogs = FakeDialogs(unsaved_answer="discard")
    window.resize(1440, 900)
    window.show()
    window.set_font_scale(2.5)
    try:
        window.show_tab("explorer")
        view = window.tab_view("explorer")
        calc = view.calc
        # as wide as the calculator needs, up to 55 % of the window; what is still wider scrolls into view
        want = min(calc.sizeHint().width(), 0.45 * window.width())
        qtbot.waitUntil(lambda: calc.parentWidget().width() >= want - 24, timeout=3000)   # less its scroll bar
    finally:
        theme.apply_font_scale(QtWidgets.QApplication.instance(), theme.DEFAULT_FONT_SCALE)
