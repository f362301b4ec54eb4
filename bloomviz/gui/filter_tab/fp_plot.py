"""Old home of the live plot, kept while importers move to ``bloomviz.gui.filter_tab.plot``."""

from bloomviz.gui.filter_tab.plot import ESTIMATE_CURVES, FILL_CURVES, RATE_CURVES, FpPlotWidget  # noqa: F401
from bloomviz.gui.widgets.wilson_band import WilsonBand  # noqa: F401
