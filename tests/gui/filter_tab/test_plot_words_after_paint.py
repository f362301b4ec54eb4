"""During bulk work the plot's readout and the panels showing "n now" (status line, fill gauge) follow the curves'
paint in a turn of their own (their labels paint apart from the plot); they end showing the n the plot drew."""

from __future__ import annotations

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

pytestmark = pytest.mark.window(probes=2_000, parts=True, size=(1280, 800))


def _n(text: str) -> int:
    found = re.search(r"n = ([\d,]+)", text)
    return int(found.group(1).replace(",", "")) if found else 0


def test_the_readout_follows_the_curves_paint_and_ends_on_their_n(qtbot, window):
    plot, seen = window.plot, []
    plot.redrawn.connect(seen.append)
    window.wb.insert_batch([f"item{i}" for i in range(37)])
    qtbot.waitUntil(lambda: bool(seen) and seen[-1] == 37, timeout=3_000)
    seen.clear()
    window.wb.insert_batch([f"more{i}" for i in range(20)])
    window.wb.flush()       # its record delivered now: the plot's throttled redraw is asked for, then made here
    plot.refresh_now(words_after_paint=True)
    assert plot.drawn_n == 57 and seen == [] and _n(plot.readout_text()) == 37     # the curves first
    qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
    assert seen == [57]
    assert _n(plot.readout_text()) == _n(window.status_label.text()) == 57
