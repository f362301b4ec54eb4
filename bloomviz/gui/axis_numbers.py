"""Plot tick labels in the window's language: 0,0003 and 1,5M in Croatian, as the rest of the window writes them.

pyqtgraph writes every tick with ``%g``/``%f`` (a decimal point whatever the locale) in ``AxisItem.tickStrings``
and has no setting for it. Every plot of the window goes through that method: the live plot's axes (``GridAxis``
and the items axis, which writes its own counts and marks them itself), and the axes pyqtgraph makes for the
explorer, Compare, the ensemble and the atlas plots. So ``install`` wraps that one method, once, to put the
language's marks (``i18n.marks``) on what it wrote; in English the marks are pyqtgraph's own and nothing changes.
The language is read at every call (it is chosen once, when the window starts).
"""

from __future__ import annotations

import pyqtgraph as pg

from bloomviz.i18n import marks

_PYQTGRAPH_TICKS = pg.AxisItem.tickStrings


def _ticks_in_language(self, values, scale, spacing):
    return [marks(text) for text in _PYQTGRAPH_TICKS(self, values, scale, spacing)]


def install() -> None:
    """Every axis writes its ticks with the window's decimal mark (idempotent)."""
    pg.AxisItem.tickStrings = _ticks_in_language


def installed() -> bool:
    return pg.AxisItem.tickStrings is _ticks_in_language
