"""The Rate-vs-k plot names its (m/n)·ln 2 line in the legend, not beside the line: a label drawn on the line at
250 % text crossed the curves from k = 3 to k = 8 (m = 32, n = 8), and the legend goes where it hides the least."""

from __future__ import annotations

import math

import pyqtgraph as pg

from bloomviz.gui.explorer_tab.plots import FpVsKPlot


def test_the_optimum_line_is_named_in_the_legend_and_carries_no_label(qtbot):
    plot = FpVsKPlot()
    qtbot.addWidget(plot)
    plot.show_design(32, 3, 8)
    lines = [item for item in plot.plot_item.items if isinstance(item, pg.InfiniteLine)]
    optimum = [line for line in lines if math.isclose(line.value(), 4 * math.log(2))]
    assert len(optimum) == 1 and getattr(optimum[0], "label", None) is None     # nothing written over the curves
    names = [label.text for _sample, label in plot.legend.items]
    assert "(m/n)·ln 2 = 2.77" in names and "exact" in names
    sample = next(s for s, label in plot.legend.items if label.text.startswith("(m/n)"))
    assert sample.item.opts["pen"].style() == optimum[0].pen.style()    # the legend's sample is the dashed line
    plot.show_design(32, 3, 8)                                          # drawn again: one entry, not two
    assert [label.text for _s, label in plot.legend.items].count("(m/n)·ln 2 = 2.77") == 1
