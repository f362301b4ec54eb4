"""How the bit grid looks: the highlight kinds and their marker styles, the two colour themes, the lookup table.

Kept apart from the widget so a legend (``legend.py``) and other views can name the same colours and shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6 import QtGui

from bloomviz.vocabulary import Highlight


# Okabe-Ito colours (safe for the common colour-vision deficiencies), each with its own marker shape so
# colour is never the only cue.
HIGHLIGHT_STYLE = {
    Highlight.NEW: ("#D55E00", "s", "bit newly set by this insert"),
    Highlight.OLD: ("#56B4E9", "o", "bit was already 1 before this insert"),
    Highlight.ZERO: ("#009E73", "d", "lookup found this bit 0"),
    Highlight.ONE: ("#CC79A7", "t1", "lookup found this bit 1"),
    Highlight.CULPRIT: ("#F0E442", "star", "bit set by an item that causes the false positive"),
    Highlight.REMOVED: ("#0072B2", "t", "counter decremented by a removal"),
    Highlight.CLEARED: ("#E69F00", "x", "counter fell to 0 on a removal: the bit is clear"),
    Highlight.STUCK: ("#999999", "+", "counter saturated at 2^c − 1: a removal leaves it"),
    Highlight.LOST: ("#C00000", "star", "a cleared counter of an inserted item that now tests negative"),
}

BORDER_MIN_PX = 14.0  # cell size on screen from which borders are drawn
MAX_LABELS = 400  # index labels are drawn only when at most this many cells are visible
MIN_MARKER_PX = 16.0  # highlight markers never shrink below this, however small the cells
HOVER_MAX_WIDTH = 420  # px; longer hover texts wrap
CULPRIT_HALO = "#000000"   # the yellow culprit marker needs a dark halo on either theme
BAND_COLOURS = ("#E69F00", "#0072B2", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")


@dataclass(frozen=True)
class _GridLook:
    background: str
    zero: str
    one: str
    heat: tuple[str, ...]  # colours for counter value 1 .. max (spread evenly)
    padding: str
    hatch: str
    border: str
    halo: str
    text_dark: str
    text_light: str
    label_fill: tuple[int, int, int, int]


LIGHT = _GridLook(background="#FFFFFF", zero="#F2F2EE", one="#1A4F9C",
               heat=("#A1DAB4", "#41B6C4", "#2C7FB8", "#253494", "#081D58"),
               padding="#B4B4B4", hatch="#8C8C8C", border="#9A9A9A", halo="#FFFFFF",
               text_dark="#202020", text_light="#FFFFFF", label_fill=(255, 255, 255, 220))
DARK = _GridLook(background="#15171B", zero="#26292F", one="#FFB000",
              heat=("#3B528B", "#21918C", "#5EC962", "#B5DE2B", "#FDE725"),
              padding="#55585E", hatch="#6E7178", border="#5A5D63", halo="#000000",
              text_dark="#101010", text_light="#F0F0F0", label_fill=(20, 22, 26, 220))


def _rgb(colour: str) -> np.ndarray:
    c = QtGui.QColor(colour)
    return np.array([c.red(), c.green(), c.blue()], dtype=np.float64)


def build_lut(theme: _GridLook, max_value: int) -> np.ndarray:
    """256 x 3 uint8 lookup table for display levels 0..255 (level = mean value / max_value * 255).

    Bits: a straight blend from the "0" colour to the "1" colour, so a block mean of 0.5 is drawn half-way.
    Counters: the "0" colour at level 0, then the heat colours from value 1 up to max_value; block means
    between 0 and 1 blend from the "0" colour to the first heat colour.
    """
    levels = np.arange(256, dtype=np.float64) / 255.0
    if max_value <= 1:
        stops_pos = np.array([0.0, 1.0])
        stops_rgb = np.stack([_rgb(theme.zero), _rgb(theme.one)])
    else:
        first = 1.0 / max_value
        heat_pos = np.linspace(first, 1.0, len(theme.heat))
        stops_pos = np.concatenate([[0.0], heat_pos])
        stops_rgb = np.stack([_rgb(theme.zero)] + [_rgb(c) for c in theme.heat])
    lut = np.empty((256, 3), dtype=np.float64)
    for ch in range(3):
        lut[:, ch] = np.interp(levels, stops_pos, stops_rgb[:, ch])
    return np.clip(np.round(lut), 0, 255).astype(np.uint8)

