"""Old home of the bit grid, kept while importers move to ``bloomviz.gui.widgets.grid``."""

from bloomviz.gui.widgets.grid.widget import BitGridWidget  # noqa: F401
