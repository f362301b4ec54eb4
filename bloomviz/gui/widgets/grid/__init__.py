"""The bit grid: a filter's bits (or counters) as a zoomable grid of cells, and the line under it that says how
to read it.

One idea a file: ``widget.py`` (the widget and its data API, documented there), ``drawing.py`` (the image of
block means, borders, labels, padding), ``marks.py`` (highlight markers, bands), ``hover.py`` (the hover
readout), ``style.py`` (themes, highlight styles, lookup table), ``layout.py`` (pure geometry, no Qt) and
``legend.py`` (the key under the grid).
"""

import importlib

# Names resolved on first use, so that ``grid.layout`` (numpy only) can be imported without loading Qt.
_HOMES = {"BitGridWidget": "widget", "GridLegend": "legend", "HIGHLIGHT_STYLE": "style"}
__all__ = list(_HOMES)


def __getattr__(name: str):
    if name in _HOMES:
        return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
