"""A scalable filter growing under the window: no exception, auto-play goes on (issue 13, item 4).

Before: hovering an empty scalable filter raised on every mouse move; auto-play at full speed raised in the
stage bands at the first new stage; at 100/s it stopped silently at the first new stage (stage growth was
announced as a filter reset, which stops auto-play) and said "cancelled after 0".
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest

from bloomviz.gui.filter_tab.autoplay import MAX_RATE


@pytest.fixture
def win(window):
    """The shared window (tests/conftest.py) on an empty scalable filter."""
    assert window.wb.configure(variant="scalable", initial_capacity=50, p=0.01)
    return window


def test_hovering_an_empty_scalable_filter_names_the_bit(win):
    for index in (0, 5, win.wb.filter.m - 1):
        text = win.wb.hover_text(index)
        assert f"bit {index:,} = 0" in text and "stage 0" in text


@pytest.mark.parametrize("rate", [1_000, MAX_RATE])
def test_auto_play_runs_through_new_stages_to_the_end(win, qtbot, rate):
    messages = []
    win.autoplay.message.connect(messages.append)
    win.wb.notice.connect(messages.append)
    win.autoplay.set_rate(rate)
    win.autoplay.set_count(400)
    win.autoplay.start()
    qtbot.waitUntil(lambda: win.autoplay.state == "idle", timeout=30_000)
    win.wb.flush()      # the last batch, drawn in the next turn of the event loop
    flt = win.wb.filter
    assert len(flt.stages) >= 3 and len(flt) == 400 == win.autoplay.done
    assert not any("cancelled" in m for m in messages), messages
    assert messages[-1] == "Auto-play inserted 400 items."
    # the grid and its bands follow the grown filter
    assert win.grid.m == flt.m
    assert np.array_equal(win.grid.picture.reshape(-1)[:flt.m], win.wb.grid_values())
    assert [b[:2] for b in win.grid.bands()] == [b[:2] for b in win.wb.grid_bands()]
    assert win.history_panel.model().rowCount() == len(win.wb.history)


def test_a_new_stage_is_growth_not_a_reset(win, qtbot):
    resets, grown = [], []
    win.wb.filterReset.connect(lambda: resets.append(1))
    win.wb.filterGrown.connect(lambda: grown.append(1))
    for i in range(60):
        win.wb.insert(f"x{i}")
    win.wb.flush()
    assert len(win.wb.filter.stages) == 2
    assert grown == [1] and resets == []
    assert len(win.wb.history) == 60 and win.grid.m == win.wb.filter.m
