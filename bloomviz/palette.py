"""Colours for pictures drawn without Qt: the Jupyter grid image (filters/notebook.py) and the lab's SVG report
(lab/report.py). Kept at the bottom of the house so those layers read them from here; the window's colours are
in ``bloomviz.gui.theme`` (with the grid's and the rate plot's own styles). tests/architecture/test_colour_owners.py keeps
every colour literal in these modules.
"""

from __future__ import annotations

# The notebook's grid picture (RGB): an unset cell, a set one (a counter's shade runs between them), padding.
NOTEBOOK_UNSET, NOTEBOOK_SET, NOTEBOOK_PAD = (236, 239, 244), (41, 98, 255), (255, 255, 255)

# The lab report's plot: a measured rate consistent with theory, one flagged, the exact rate, the background and
# its grid lines (the y grid, the separators between (m, k) groups).
REPORT = {"good": "#2962ff", "bad": "#c62828", "theory": "#222222", "background": "white",
          "grid": "#ddd", "separator": "#eee"}
