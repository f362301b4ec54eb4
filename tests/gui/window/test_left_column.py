"""The default layout's left column sized by its panels' needs (gui/window/left_column.py): in a 1280 x 720
window (a projector, or a 1920 x 1080 screen at 150 % scaling) at 100 %, 150 % and 250 % text, auto-play's Play
and Step and the item box's Insert, Look up and Remove are in view without scrolling (at 150 % Play lay below
auto-play's dock; at 250 % Play and Step were 13 px short and Remove was cut); the tabs docks make read whole
(gui/window/dock_tabs.py: at 250 % they read "A…", "S…", "Filter: m, …"); a window tall enough keeps the
history in its corner; a dock the user floated is left alone.

One window walks through the text sizes (each test of its own window took ~1.5 s to make; the file took 17 s)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.gui.window import left_column
from window_helpers import settle

pytestmark = pytest.mark.window(probes=200, parts=True, size=(1280, 720))


def in_view(widget) -> bool:
    """Drawn whole: not scrolled out of its dock, not cut by the dock's edge or the window's."""
    return widget.isVisible() and widget.visibleRegion().boundingRect() == widget.rect()


def primary(window) -> dict:
    """What a class must see; at 250 % Cancel and Reset wrap under Play and Step and may scroll."""
    item, play = window.item_panel, window.autoplay_panel
    shown = {"Insert": item.insert_button, "Look up": item.lookup_button, "Remove": item.remove_button,
             "Play": play.play_button, "Step": play.step_button, "item box": item.line}
    if window.font_scale < 2:
        shown.update({"Cancel": play.cancel_button, "Reset": play.reset_button})
    return shown


def tabbed(window) -> bool:
    return window.docks["filter"] in window.tabifiedDockWidgets(window.docks["autoplay"])


def dock_tab_titles(window) -> list[tuple[str, bool]]:
    """(title, drawn whole) of every tab the docks make: never elided, every tab within its bar."""
    direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly
    out = []
    for bar in window.findChildren(QtWidgets.QTabBar, options=direct):
        if bar.isVisible():
            whole = bar.elideMode() == QtCore.Qt.TextElideMode.ElideNone
            for i in range(bar.count()):
                out.append((bar.tabText(i), whole and bar.rect().contains(bar.tabRect(i))))
    return out


def fitted(window, qtbot, scale: float) -> None:
    if scale != window.font_scale:
        window.set_font_scale(scale)
    settle(qtbot, window, *window.docks.values())      # the fit runs in a later turn of the event loop
    qtbot.waitUntil(lambda: all(in_view(w) for w in primary(window).values()), timeout=10_000)


def test_each_text_size_shows_play_step_the_item_buttons_and_whole_tab_titles(window, qtbot):
    for scale in (1.0, 1.5, 2.5, 1.0):
        fitted(window, qtbot, scale)
        hidden = [name for name, widget in primary(window).items() if not in_view(widget)]
        assert not hidden, f"scrolled out of view at {scale:.0%}: {hidden}"
        # the parameters are either a whole dock through their Apply button, or a tab beside auto-play
        if tabbed(window):
            assert scale > 1.0, "at 100 % a 1280 x 720 window has room for the parameters' own dock"
        else:
            assert in_view(window.params_panel.apply_button)
        titles = dock_tab_titles(window)
        assert titles and all(whole for _title, whole in titles), (scale, titles)
        assert len({title for title, _ in titles}) == len(titles), titles     # tabs a class can tell apart
        if scale == 2.5:
            assert tabbed(window) and {"Auto-play", "Filter", "Explain"} <= {t for t, _ in titles}, titles
    # back at 100 % the parameters have their own dock, under their full title
    assert not tabbed(window) and window.docks["filter"].windowTitle() == "Filter: m, k, hashing"
    assert window.docks["filter"].toggleViewAction().text() == "Filter: m, k, hashing"


def test_the_verdicts_first_lines_are_in_view_at_150_percent_and_a_floated_dock_is_left_alone(window, qtbot):
    window.item_panel.line.setText("never inserted")
    window.item_panel.lookup()
    window.wb.flush()
    fitted(window, qtbot, 1.5)
    verdict = window.item_panel.verdict
    qtbot.waitUntil(lambda: verdict.isVisible() and bool(verdict.line_bottoms()), timeout=5_000)
    lines = verdict.line_bottoms()[:left_column.VERDICT_LINES]
    assert verdict.visibleRegion().boundingRect().height() >= lines[-1]

    fitted(window, qtbot, 1.0)
    autoplay = window.docks["autoplay"]
    autoplay.setFloating(True)
    where = autoplay.geometry()
    corner = window.corner(QtCore.Qt.Corner.BottomLeftCorner)
    assert left_column.fit(window) == "left"
    assert autoplay.isFloating() and autoplay.geometry() == where
    assert window.corner(QtCore.Qt.Corner.BottomLeftCorner) == corner
    assert window.docks["filter"] not in window.tabifiedDockWidgets(autoplay)


def test_every_variants_fields_keep_apply_and_play_in_view_and_a_tall_window_keeps_its_corner(window, qtbot):
    """A variant with more fields (scalable: growth and tightening) moved Apply below the parameters' edge; in a
    window tall enough the history keeps the bottom-left corner."""
    combo = window.params_panel.variant_combo
    for size in ((1280, 720), (1440, 900)):
        window.resize(*size)
        fitted(window, qtbot, 1.0)
        for index in range(combo.count()):
            combo.setCurrentIndex(index)
            settle(qtbot, window, *window.docks.values())
            shown = {"Apply": window.params_panel.apply_button, **primary(window)}
            hidden = [name for name, widget in shown.items() if not in_view(widget)]
            assert not hidden, f"{size}, {combo.itemText(index)}: {hidden} out of view"
    combo.setCurrentIndex(0)
    settle(qtbot, window, *window.docks.values())
    assert window.corner(QtCore.Qt.Corner.BottomLeftCorner) == QtCore.Qt.DockWidgetArea.BottomDockWidgetArea
    assert not tabbed(window) and in_view(window.params_panel.apply_button)
