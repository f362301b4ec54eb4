"""The live false-positive plot of the Filter tab, one idea a file: ``widget.py`` (the widget: its state, API
and toggles, composing the others), ``items.py`` (its plots, items and check boxes), ``drawing.py`` (the
curves' data from the series), ``legend.py`` (where the legend goes), ``looks.py`` (theme, font scale),
``readout.py`` (values under the mouse) and ``style.py`` (curve keys, labels, colours)."""

from bloomviz.gui.filter_tab.plot.style import ESTIMATE_CURVES, FILL_CURVES, RATE_CURVES
from bloomviz.gui.filter_tab.plot.widget import FpPlotWidget

__all__ = ["FpPlotWidget", "RATE_CURVES", "FILL_CURVES", "ESTIMATE_CURVES"]
