"""Clicking a History row lights that operation's positions as the bits are now, and changes nothing."""

from __future__ import annotations

import pytest

from bloomviz.gui.filter_tab import history_relight


@pytest.fixture
def window(window):
    history_relight.install(window)
    return window


def test_a_lookup_row_lights_its_positions_again(window, qtbot):
    wb = window.wb
    wb.configure(64, 3)
    wb.insert("apple")
    wb.lookup("pear")
    wb.insert_batch(["x", "y"])
    window.history_panel.model().flush()
    bits = wb.filter.bits_set
    assert window.relight_history_row(1)
    x, y, kinds = window.grid.highlight_points()
    cells = sorted(int(r) * window.grid.cols + int(c) for c, r in zip(x, y))
    assert cells == sorted(wb.history[1].positions)
    values = [window.grid.value(p) for p in wb.history[1].positions]
    assert kinds == ["one" if v else "zero" for v in values]
    said = wb.last_explanation
    assert "pear" in said.op and wb.history[1].verdict in said.verdict_text
    assert wb.filter.bits_set == bits and len(wb.history) == 3          # nothing changed
    assert not window.relight_history_row(2)                            # a batch has no positions
    assert not window.relight_history_row(99)
