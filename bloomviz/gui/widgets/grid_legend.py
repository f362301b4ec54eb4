"""Old home of the grid's key, kept while importers move to ``bloomviz.gui.widgets.grid``."""

from bloomviz.gui.widgets.grid.legend import GridLegend  # noqa: F401
