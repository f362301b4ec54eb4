"""What the live plot's curves are called and how they look: column keys, legend labels, colours, dashes, sizes."""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore

# Curve keys are the series' column names; "n_true" is the n column drawn as y for comparison.
RATE_CURVES = ("fp_measured", "fp_low", "fp_high", "fp_exact", "fp_classic", "fp_approx", "fp_bound")
FILL_CURVES = ("fill", "fill_expected")
ESTIMATE_CURVES = ("n_estimated", "n_true")

LABELS = {
    "fp_measured": "measured",
    "fp_low": "measured, 95% interval low",
    "fp_high": "measured, 95% interval high",
    "fp_exact": "theory: exact",
    "fp_classic": "theory: classic (Bloom)",
    "fp_approx": "theory: approximation",
    "fp_bound": "theory: bound",
    "fill": "fill ratio (measured)",
    "fill_expected": "fill ratio (expected)",
    "n_estimated": "estimated n",
    "n_true": "true n",
}
# The exact curve's name once removals made the n-insert formula stop describing a counting filter
BROKEN_LABEL = "theory: n inserts, no removals"
# Short: the legend sits beside or under a panel-sized plot, in as many columns as fit.
BAND_LABEL = "95% interval"
BAND_BRUSH = (0, 0, 0, 40)   # the interval band when it is made (the theme then gives it its own)
LIMIT_LABEL = "measured 0: rate below this (95%)"

# Okabe–Ito colours: distinguishable with the common colour-vision deficiencies; lighter variants on dark.
THEMES = {
    False: {
        "background": "#ffffff", "foreground": "#1f1f1f", "legend_bg": (255, 255, 255, 215),
        "fp_measured": "#D55E00", "band": (213, 94, 0, 55), "band_edge": (213, 94, 0, 110),
        "fp_exact": "#0072B2", "fp_approx": "#009E73", "fp_bound": "#CC79A7", "fp_classic": "#5a5a5a",
        "fill": "#D55E00", "fill_expected": "#0072B2", "n_estimated": "#D55E00", "n_true": "#0072B2",
        "capacity": "#555555", "crosshair": "#777777", "reference": "#8B0000",
    },
    True: {
        "background": "#1c1d21", "foreground": "#e4e4e4", "legend_bg": (28, 29, 33, 215),
        "fp_measured": "#FF8C42", "band": (255, 140, 66, 60), "band_edge": (255, 140, 66, 120),
        "fp_exact": "#56B4E9", "fp_approx": "#3DDC97", "fp_bound": "#E69AC8", "fp_classic": "#c8c8c8",
        "fill": "#FF8C42", "fill_expected": "#56B4E9", "n_estimated": "#FF8C42", "n_true": "#56B4E9",
        "capacity": "#b8b8b8", "crosshair": "#9a9a9a", "reference": "#FF6B6B",
    },
}
STYLES = {  # (width, dash style): the dash tells the curves apart even without colour
    "fp_measured": (2.5, QtCore.Qt.PenStyle.SolidLine),
    "fp_exact": (2.0, QtCore.Qt.PenStyle.DashLine),
    "fp_approx": (2.0, QtCore.Qt.PenStyle.DotLine),
    "fp_bound": (2.0, QtCore.Qt.PenStyle.DashDotLine),
    "fp_classic": (1.5, QtCore.Qt.PenStyle.DashDotDotLine),
    "fill": (2.5, QtCore.Qt.PenStyle.SolidLine),
    "fill_expected": (2.0, QtCore.Qt.PenStyle.DashLine),
    "n_estimated": (2.5, QtCore.Qt.PenStyle.SolidLine),
    "n_true": (2.0, QtCore.Qt.PenStyle.DashLine),
}

BASE_TICK_PT = 10.0
BASE_LABEL_PT = 11.0
BASE_TITLE_PT = 13.0
BASE_LEGEND_PT = 10.0


def positive_number(name: str, value) -> float:
    """``value`` as a float, or a TypeError/ValueError naming ``name`` and the bad value."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {value!r}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, not {value!r}")
    return value


def checked_font_scale(factor) -> float:
    """A text scale for the plots (1.0 = normal), or a TypeError/ValueError naming the bad value."""
    factor = positive_number("font scale", factor)
    if not 0.25 <= factor <= 8:
        raise ValueError(f"font scale must be between 0.25 and 8, not {factor!r}")
    return factor
