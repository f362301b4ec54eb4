"""The live plot names its theory curve for what it is once a counting filter had a forced removal.

After a forced removal, n inserts into a fresh filter no longer describe the filter (its counters were taken
down by an item never inserted): the legend and the readout must not call that curve "exact"; the readout gives
the rate the counters give, (fill)^k, and the rows before the removal stay exact. Undo past the removal, or
Clear, makes it exact again. Driven through the model (the window's workbench) and read from the plot widget.
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.gui.filter_tab.plot.readout import fmt_value as fmt
from bloomviz.items.encoding import random_items


@pytest.fixture
def window(window):
    assert window.wb.configure(variant="counting", m=400, k=3)
    return window


def _stranger(wb):
    """An item never inserted that the filter passes (all its counters above 0): only a forced removal takes it."""
    return next(x for x in (f"s{i}" for i in range(100_000)) if x in wb.filter and not wb.is_member(x))


def _exact_entry(plot) -> str:
    return next(t for t in plot.entry_texts() if t.startswith("theory: exact") or "no removals" in t)


def test_exact_until_a_forced_removal_then_named_and_exact_again_after_undo_and_clear(window, qtbot, tmp_path):
    wb, plot = window.wb, window.plot
    items = random_items(60, seed=3)
    wb.insert_batch(items)
    qtbot.waitUntil(lambda: not wb.busy)
    wb.remove(items[0])            # a member's clean removal: still n fresh inserts, still exact
    wb.flush()
    plot.refresh_now()
    assert _exact_entry(plot).startswith("theory: exact")
    assert "exact " in plot.readout_text() and "counters give" not in plot.readout_text()
    assert wb.formula_break() is None

    before = len(wb.series)
    assert wb.remove(_stranger(wb), force=True) is not None
    wb.flush()
    plot.refresh_now()
    assert wb.formula_break() == before            # the row the forced removal added
    assert _exact_entry(plot) == "theory: n inserts, no removals"
    text = plot.readout_text()
    fill, k = wb.series.column("fill")[-1], wb.filter.k
    assert "exact " not in text
    assert "for n inserts, no removals" in text
    counters = plot.values_at(None)["fill"] ** k
    assert f"its counters give {fmt(counters)}" in text
    assert counters == pytest.approx(wb.status()["fp_now"]) and fill == wb.filter.bits_set / wb.filter.m

    # a row before the removal is still n fresh inserts: hovering it reads "exact"
    vb = plot.plot_item.getViewBox()
    n_early = float(wb.series.column("n")[before - 5])
    plot.graphics.scene().sigMouseMoved.emit(vb.mapViewToScene(QtCore.QPointF(n_early, 0.0)))
    assert f"at n = {n_early:,.0f}" in plot.readout_text()
    assert "exact " in plot.readout_text() and "counters give" not in plot.readout_text()
    plot.graphics.scene().sigMouseMoved.emit(QtCore.QPointF(-50, -50))   # away: the latest row again
    assert "counters give" in plot.readout_text()

    plot.export(tmp_path / "rates.csv")   # the file names the column as the legend does
    header = (tmp_path / "rates.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "theory: n inserts, no removals_y" in header and "theory: exact" not in header

    wb.insert("after")             # later inserts keep the name: the removal still distorts the counters
    wb.flush()
    plot.refresh_now()
    assert _exact_entry(plot) == "theory: n inserts, no removals" and "counters give" in plot.readout_text()

    wb.undo()                      # the insert
    wb.undo()                      # the forced removal
    plot.refresh_now()
    assert wb.formula_break() is None and _exact_entry(plot).startswith("theory: exact")
    assert "exact " in plot.readout_text() and "counters give" not in plot.readout_text()

    assert wb.remove(_stranger(wb), force=True) is not None
    wb.flush()
    assert _exact_entry(plot) == "theory: n inserts, no removals"
    wb.reset()                     # Clear
    wb.insert("again")
    wb.flush()
    plot.refresh_now()
    assert wb.formula_break() is None and _exact_entry(plot).startswith("theory: exact")
    assert "exact " in plot.readout_text()
