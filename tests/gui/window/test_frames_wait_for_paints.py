"""A bulk job's redraw frame leaves its turn once to another view's claimed large repaint (the history table's), so
that the plot or the grid does not paint with it in one turn; the next frame redraws what is due."""

from __future__ import annotations

from PySide6 import QtWidgets

from bloomviz.gui.window import redraw as redraw_module
from bloomviz.gui.window.redraw import FilterRedraw


class _Plot:
    def __init__(self):
        self.redraws = 0

    def refresh_now(self, **_how) -> None:
        self.redraws += 1

    def refresh(self) -> None:
        self.redraws += 1


class _Bench:
    busy = True


def test_a_frame_waits_once_for_a_claimed_repaint(qtbot, monkeypatch):
    grid = QtWidgets.QWidget()
    qtbot.addWidget(grid)
    plot = _Plot()
    frames = FilterRedraw(_Bench(), grid, legend=None, plot=plot, numbers_changed=lambda: None)
    claimed = [True]
    monkeypatch.setattr(redraw_module, "paint_claimed", lambda: claimed[0])
    frames.series_changed(busy=True)      # rows arrived during the job: the plot is due at the next frame
    frames.busy_frame()
    assert plot.redraws == 0              # left to the claimed repaint
    frames.busy_frame()
    assert plot.redraws == 1              # once only: a claim that lasts cannot starve the plot
    frames.series_changed(busy=True)
    claimed[0] = False
    frames.busy_frame()
    assert plot.redraws == 2              # nothing claimed: at once
