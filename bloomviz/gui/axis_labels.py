"""Tick labels that never overlap: where two would, the one of the finer level (or the later one) is left out.

pyqtgraph decides whether to label a level of ticks from how much of the axis the level's text fills in total
(``AxisItem.generateDrawSpecs``, ``textFillLimits``), never from whether two labels meet. A log axis labels its
minor ticks 2-9 of a decade, which crowd towards the decade's top: at 150 % text the Explorer's "rate vs k" axis
drew 0.05, 0.06 ... 0.1 one over the other (6 pairs on a 274 px axis). The labels of an axis are laid out level
by level, the major ones first; ``apart`` keeps each label that keeps a small gap to every label kept before it.
The ticks and grid lines themselves stay. A log axis's minor level holds its decades too, in the order of their
values (0.009 before 0.01): ``install`` also puts a level's ticks in the order they deserve a label (decades, then
5, 2, 3 ... of a decade), which changes no tick or line, only which label a collision leaves out. Every plot of the window goes through that one method (the live plot's
axes, the explorer's, Compare's, the ensemble's and the atlas's), so ``install`` wraps it once, like
``axis_numbers``. The labels are measured only when pyqtgraph lays the axis out again (a new range or size), not
at every paint.
"""

from __future__ import annotations

import math

import pyqtgraph as pg

_PYQTGRAPH_SPECS = pg.AxisItem.generateDrawSpecs
_PYQTGRAPH_LOG_TICKS = pg.AxisItem.logTickValues
MANTISSA_ORDER = (1, 5, 2, 3, 4, 6, 7, 8, 9)   # which ticks of a decade a crowded log axis labels first
GAP_SHARE = 0.15     # of a label's height (across a vertical axis) or of a space's width (along a horizontal one)


def apart(texts: list, vertical: bool) -> list:
    """``texts`` (pyqtgraph's ``(QRectF, flags, text)`` label specs, coarser levels first) without a label that
    would touch one kept before it."""
    kept: list = []
    for spec in texts:
        rect = spec[0]
        gap = rect.height() * GAP_SHARE if vertical else rect.height() * GAP_SHARE * 2
        room = rect.adjusted(-gap, -gap, gap, gap) if not vertical else rect.adjusted(0, -gap, 0, gap)
        if not any(room.intersects(other[0]) for other in kept):
            kept.append(spec)
    return kept


def _labels_apart(self, p):
    specs = _PYQTGRAPH_SPECS(self, p)
    if specs is None:
        return None
    axis, ticks, texts = specs
    return axis, ticks, apart(texts, self.orientation in ("left", "right"))


def mantissa_rank(log_value: float) -> int:
    """Where the tick at 10**log_value comes in ``MANTISSA_ORDER`` (a decade first; a value between, last)."""
    digit = round(10 ** (log_value - math.floor(log_value + 1e-9)))
    digit = 1 if digit >= 10 else digit          # a decade a rounding below its own floor
    return MANTISSA_ORDER.index(digit) if digit in MANTISSA_ORDER else len(MANTISSA_ORDER)


def _decades_first(self, minVal, maxVal, size, stdTicks):  # noqa: N803 - pyqtgraph's names
    levels = _PYQTGRAPH_LOG_TICKS(self, minVal, maxVal, size, stdTicks)
    if levels and levels[-1][0] is None:     # pyqtgraph's minor level: 1-9 of every decade, by value
        levels[-1] = (None, sorted(levels[-1][1], key=mantissa_rank))
    return levels


def install() -> None:
    """Every axis leaves out a label that would overlap another, a log axis its minor ones first (idempotent)."""
    pg.AxisItem.generateDrawSpecs = _labels_apart
    pg.AxisItem.logTickValues = _decades_first


def installed() -> bool:
    return pg.AxisItem.generateDrawSpecs is _labels_apart and pg.AxisItem.logTickValues is _decades_first
