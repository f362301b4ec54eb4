"""The default layout's left column sized by its panels' needs (gui/window/left_column.py): in a 1280 x 720
window (a projector, or a 1920 x 1080 screen at 150 % scaling) at 100 % and 150 % text, auto-play's Play and Step
and the item box's Insert and Look up are in view without scrolling (at 150 % Play lay below auto-play's dock);
a window tall enough keeps the history in its corner; a dock the user floated is left alone."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.gui.window import left_column
from window_helpers import settle

pytestmark = pytest.mark.window(probes=200, parts=True, size=(1280, 720))


def in_view(widget) -> bool:
    """Drawn whole: not scrolled out of its dock, not cut by the dock's edge or the window's."""
    return widget.isVisible() and widget.visibleRegion().boundingRect() == widget.rect()


def primary(window) -> dict:
    item, play = window.item_panel, window.autoplay_panel
    return {"Insert": item.insert_button, "Look up": item.lookup_button, "Play": play.play_button,
            "Step": play.step_button, "Cancel": play.cancel_button, "Reset": play.reset_button,
            "item box": item.line}


def fitted(window, qtbot, scale: float) -> None:
    if scale != window.font_scale:
        window.set_font_scale(scale)
    settle(qtbot, window, *window.docks.values())      # the fit runs in a later turn of the event loop
    qtbot.waitUntil(lambda: all(in_view(w) for w in primary(window).values()), timeout=10_000)


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_play_step_and_the_item_buttons_are_in_view(window, qtbot, scale):
    fitted(window, qtbot, scale)
    hidden = [name for name, widget in primary(window).items() if not in_view(widget)]
    assert not hidden, f"scrolled out of view at {scale:.0%}: {hidden}"
    # the parameters are either a whole dock through their Apply button, or a tab beside auto-play
    params, autoplay = window.docks["filter"], window.docks["autoplay"]
    if params in window.tabifiedDockWidgets(autoplay):
        assert scale > 1.0, "at 100 % a 1280 x 720 window has room for the parameters' own dock"
    else:
        assert in_view(window.params_panel.apply_button)


def test_the_verdicts_first_lines_are_in_view_at_150_percent(window, qtbot):
    window.item_panel.line.setText("never inserted")
    window.item_panel.lookup()
    window.wb.flush()
    fitted(window, qtbot, 1.5)
    verdict = window.item_panel.verdict
    qtbot.waitUntil(lambda: verdict.isVisible() and bool(verdict.line_bottoms()), timeout=5_000)
    lines = verdict.line_bottoms()[:left_column.VERDICT_LINES]
    assert verdict.visibleRegion().boundingRect().height() >= lines[-1]


@pytest.mark.window(size=(1440, 900))
def test_a_tall_window_keeps_the_history_in_its_corner(window, qtbot):
    fitted(window, qtbot, 1.0)
    assert window.corner(QtCore.Qt.Corner.BottomLeftCorner) == QtCore.Qt.DockWidgetArea.BottomDockWidgetArea
    assert window.docks["filter"] not in window.tabifiedDockWidgets(window.docks["autoplay"])
    assert in_view(window.params_panel.apply_button)


def test_back_at_100_percent_the_parameters_have_their_own_dock_again(window, qtbot):
    fitted(window, qtbot, 1.5)
    assert window.docks["filter"] in window.tabifiedDockWidgets(window.docks["autoplay"])
    window.set_font_scale(1.0)
    qtbot.waitUntil(lambda: window.docks["filter"] not in window.tabifiedDockWidgets(window.docks["autoplay"])
                    and in_view(window.params_panel.apply_button), timeout=10_000)
    fitted(window, qtbot, 1.0)


def test_a_floated_dock_is_left_where_the_user_put_it(window, qtbot):
    fitted(window, qtbot, 1.0)
    autoplay = window.docks["autoplay"]
    autoplay.setFloating(True)
    where = autoplay.geometry()
    corner = window.corner(QtCore.Qt.Corner.BottomLeftCorner)
    assert left_column.fit(window) == "left"
    assert autoplay.isFloating() and autoplay.geometry() == where
    assert window.corner(QtCore.Qt.Corner.BottomLeftCorner) == corner
    assert window.docks["filter"] not in window.tabifiedDockWidgets(autoplay)


@pytest.mark.parametrize("window", [dict(size=(1280, 720)), dict(size=(1440, 900))], indirect=True)
def test_every_variants_fields_keep_apply_and_play_in_view(window, qtbot):
    """A variant with more fields (scalable: growth and tightening) moved Apply below the parameters' edge."""
    fitted(window, qtbot, 1.0)
    combo = window.params_panel.variant_combo
    for index in range(combo.count()):
        combo.setCurrentIndex(index)
        settle(qtbot, window, *window.docks.values())
        shown = {"Apply": window.params_panel.apply_button, **primary(window)}
        hidden = [name for name, widget in shown.items() if not in_view(widget)]
        assert not hidden, f"{combo.itemText(index)}: {hidden} out of view"
