"""A progress bar's new value painted with the window's next paint, not at once.

``QProgressBar.setValue`` repaints the bar synchronously (``repaint()``, whenever its text or a pixel of it
changes): the bar, the status bar under it and a flush of the window's backing store, in the middle of whatever
turn of the event loop set the value. During an auto-play of 10^7 items that was 3-13 ms of the GUI thread's
CPU in the turns of a plot redraw (the fill gauge follows the plot; benchmarks/bench_stalls.py), on top of the
redraw, and the same bar was painted again with the window shortly after. ``show_value`` sets the value with
the bar's updates off, so that ``repaint()`` does nothing, and asks for an ordinary ``update()``: the bar is
painted with everything else in the window's next paint.
"""

from __future__ import annotations

from PySide6 import QtWidgets


def show_value(bar: QtWidgets.QProgressBar, value: int) -> None:
    """``bar.setValue(value)``, painted in the window's next paint instead of at once."""
    if bar.value() == value:
        return
    if not bar.updatesEnabled():      # the owner holds them off: leave that to it
        bar.setValue(value)
        return
    bar.setUpdatesEnabled(False)
    try:
        bar.setValue(value)
    finally:
        bar.setUpdatesEnabled(True)   # (which asks for the update)
    bar.update()
