"""The left column's fit after a restart: a layout the fit made (the parameters a tab beside auto-play) and saved
with the window is still the fit's to undo in the next session, not taken for one the user made."""

from __future__ import annotations

import pytest

from window_helpers import new_window, settle

pytestmark = pytest.mark.window(probes=200, parts=True, size=(1280, 720))


def tabbed(window) -> bool:
    return window.docks["filter"] in window.tabifiedDockWidgets(window.docks["autoplay"])


def test_a_tab_the_fit_made_comes_back_as_a_dock_after_a_restart(window, qtbot, tmp_path):
    window.set_font_scale(1.5)
    settle(qtbot, window, *window.docks.values())
    qtbot.waitUntil(lambda: tabbed(window), timeout=10_000)
    window.close()            # saves the layout, the tab with it
    again = new_window(qtbot, tmp_path, probes=200)
    again.install_parts()
    again.resize(1280, 720)
    again.show()
    qtbot.waitExposed(again)
    settle(qtbot, again, *again.docks.values())
    assert tabbed(again)      # as it was saved
    again.set_font_scale(1.0)
    qtbot.waitUntil(lambda: not tabbed(again), timeout=10_000)
