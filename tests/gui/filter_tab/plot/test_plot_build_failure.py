"""A plot whose build fails part-way (a part that raises) is left as if never built: no half of its check
boxes, graphics view or readout stays in its layout, and the next build makes each part once and draws the
state set before (the lazy build runs on the first showing, where a second try used to double the parts)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6 import QtWidgets

from bloomviz.gui.filter_tab.plot import FpPlotWidget, parts
from bloomviz.gui.filter_tab.plot import readout
from test_fp_plot import FakeSeries


def _parts_in(plot: FpPlotWidget) -> tuple[int, int, int]:
    return (plot.layout().count(), len(plot.findChildren(QtWidgets.QGraphicsView)),
            len(plot.findChildren(QtWidgets.QCheckBox)))


class Broken(Exception):
    pass


@pytest.mark.parametrize("where", ["hover", "state"])
def test_a_build_that_fails_part_way_leaves_nothing_and_the_next_one_makes_each_part_once(qtbot, monkeypatch,
                                                                                         where):
    plot = FpPlotWidget()
    qtbot.addWidget(plot)
    plot.set_series(FakeSeries(300))
    plot.set_log_y(True)
    empty = _parts_in(plot)

    def fail(*args, **kwargs):
        raise Broken(where)
    if where == "hover":      # the last part made, after the others are laid out
        monkeypatch.setattr(readout, "HoverWatcher", fail)
    else:                     # drawing the state set before the build
        monkeypatch.setattr(parts, "apply_log_y", fail)
    with pytest.raises(Broken):
        plot.build()
    assert not plot.built
    assert _parts_in(plot) == empty
    assert not any(name in plot.__dict__ for name in parts.MADE)

    monkeypatch.undo()
    plot.build()
    plot.build()          # once built, a second call makes nothing
    assert plot.built
    assert _parts_in(plot) == (empty[0] + 3, 1, 3)   # the boxes' row, the graphics view, the readout
    assert plot.plot_item.getViewBox().state["logMode"][1]
    assert [box.isChecked() for box in plot.check_boxes] == [True, False, False]


def test_showing_a_plot_whose_build_failed_builds_it_whole(qtbot, monkeypatch):
    plot = FpPlotWidget()
    qtbot.addWidget(plot)
    monkeypatch.setattr(readout, "HoverWatcher", lambda *a: (_ for _ in ()).throw(Broken("hover")))
    with pytest.raises(Broken):
        plot.build()
    monkeypatch.undo()
    plot.resize(600, 400)
    plot.show()
    qtbot.waitUntil(lambda: plot.built)
    assert len(plot.findChildren(QtWidgets.QGraphicsView)) == 1
    assert len(plot.findChildren(QtWidgets.QCheckBox)) == 3
