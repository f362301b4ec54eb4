"""After an auto-play the window makes the truth's deferred rows in idle turns of its event loop
(gui/workbench.py ``_fill_rows``): the first hover then finds them made. Undo or clear mid-fill stays true."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.filters.generated_positions import positions as generated_positions
from bloomviz.gui import workbench as adapter
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.workbench.truth import PositionRows

TOTAL = 12_000


class _Stream:
    """Auto-play's source: the next ``count`` generated items as a run."""

    def __init__(self, items: GeneratedItems):
        self.items, self.at = items, 0

    def __call__(self, count: int) -> GeneratedRun:
        run = GeneratedRun(self.items, self.at, min(TOTAL, self.at + count))
        self.at = run.stop
        return run


@pytest.fixture
def wb(qtbot, monkeypatch):
    monkeypatch.setattr(adapter, "FILL_ROWS", 1_000)     # several idle turns for a small run
    bench = QtWorkbench(probes=300)
    bench.configure(40_000, 5, capacity=20_000)
    yield bench
    bench.cancel()


def _auto_play(qtbot, wb, source: GeneratedItems) -> list[int]:
    """Run the job to its end; the deferred rows seen when it ended."""
    at_end = []
    wb.busyChanged.connect(lambda busy: at_end.append(wb.state.truth.rows.deferred_rows) if not busy else None)
    assert wb.run_job(_Stream(source), TOTAL, "auto-play items")
    qtbot.waitUntil(lambda: bool(at_end), timeout=20_000)
    return at_end


def test_the_rows_are_made_in_idle_turns_after_an_auto_play(qtbot, wb, monkeypatch):
    source = GeneratedItems(10 ** 6, seed=11)
    slices = []
    make = PositionRows.make_some
    monkeypatch.setattr(PositionRows, "make_some", lambda self, rows=1 << 16: slices.append(rows) or make(self, rows))
    assert _auto_play(qtbot, wb, source) == [TOTAL], "the job left every row to be made"
    rows = wb.state.truth.rows
    qtbot.waitUntil(lambda: rows.deferred_rows == 0, timeout=20_000)
    assert len(slices) >= TOTAL // 1_000 and set(slices) == {1_000}, "a slice a turn, not the whole at once"
    assert np.array_equal(rows.view(), generated_positions(wb.filter, source, 0, TOTAL))
    cell = int(rows.view()[7_777, 2])
    names, total = wb.items_at_bit(cell, limit=10 ** 6)
    assert source[7_777] in names and total == int((rows.view() == cell).any(axis=1).sum())


def test_a_hover_mid_fill_makes_a_bounded_share_and_says_the_rest_is_coming(qtbot, wb, monkeypatch):
    from bloomviz.explain.operations import hover_text
    monkeypatch.setattr(adapter, "HOVER_ROWS", 2_500)
    source = GeneratedItems(10 ** 6, seed=13)
    cell, early = int(wb.filter.positions(source[9_000])[0]), []
    wb.busyChanged.connect(lambda busy: early.append(wb.hover_text(cell)) if not busy else None)
    told = []
    wb.rowsMade.connect(lambda: told.append(wb.state.truth.rows.deferred_rows))
    assert wb.run_job(_Stream(source), TOTAL, "auto-play items")
    qtbot.waitUntil(lambda: bool(early), timeout=20_000)
    assert "9,500 auto-played inserts" in early[0] and "set by" not in early[0], early[0]
    qtbot.waitUntil(lambda: bool(told), timeout=20_000)   # the hover is told to ask again, once all are made
    assert told == [0]
    text = wb.hover_text(cell)
    assert text == hover_text(wb.state, cell, int(wb.cell_values([cell])[0])) and source[9_000] in text


@pytest.mark.parametrize("going_back", ["undo", "reset"])
def test_undo_or_clear_mid_fill_leaves_true_rows(qtbot, wb, monkeypatch, going_back):
    source = GeneratedItems(10 ** 6, seed=12)
    wb.insert("typed first")
    make, calls = PositionRows.make_some, []

    def make_some(self, rows=1 << 16):
        calls.append(rows)
        if len(calls) == 3:      # mid-fill: the next turn goes back
            QtCore.QTimer.singleShot(0, getattr(wb, going_back))
        return make(self, rows)

    monkeypatch.setattr(PositionRows, "make_some", make_some)
    _auto_play(qtbot, wb, source)
    qtbot.waitUntil(lambda: len(calls) >= 3 and len(wb.items) < TOTAL, timeout=20_000)
    rows = wb.state.truth.rows
    qtbot.waitUntil(lambda: rows.deferred_rows == 0, timeout=20_000)
    expected = [wb.filter.positions("typed first")] if going_back == "undo" else []
    assert len(wb.items) == len(expected)
    assert np.array_equal(rows.view().reshape(-1, 5), np.array(expected).reshape(-1, 5))
    assert not wb.is_member(source[5])


def test_the_grid_asks_its_provider_again_when_told(qtbot):
    from bloomviz.gui.widgets.grid.widget import BitGridWidget
    grid = BitGridWidget()
    qtbot.addWidget(grid)
    grid.reset(1000)
    answers = iter(["in a moment", "set by: x"])
    grid.set_hover_text_provider(lambda i: next(answers))
    assert grid.hover_at_view(3.5, 2.5) >= 0 and grid.hover_label.text() == "in a moment"
    grid.refresh_hover()
    assert grid.hover_label.text() == "set by: x"
