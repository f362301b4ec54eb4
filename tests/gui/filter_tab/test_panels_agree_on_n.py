"""The panels that show "n now" (the plot's readout, the status line, the fill gauge) agree on n at every
redraw of the plot, during auto-play at every speed (issue 13: each had its own timer and showed its own n)."""

from __future__ import annotations

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


def _n(text: str) -> int:
    found = re.search(r"n = ([\d,]+)", text) or re.search(r"([\d,]+) of [\d,]+ items", text)
    return int(found.group(1).replace(",", "")) if found else 0   # the plot says "No data yet" at n = 0


pytestmark = pytest.mark.window(probes=2_000, parts=True, size=(1280, 800))


def test_the_plot_says_which_n_it_drew(qtbot, window):
    seen = []
    window.plot.redrawn.connect(seen.append)
    window.wb.insert_batch([f"item{i}" for i in range(37)])
    qtbot.waitUntil(lambda: bool(seen) and seen[-1] == 37, timeout=3000)
    assert window.plot.drawn_n == 37
    assert not window.plot.redraw_pending


@pytest.mark.parametrize("rate", [10, 1_000, 0])
def test_plot_status_line_and_gauge_show_one_n_at_each_redraw(qtbot, window, rate):
    shown = []

    def sample(drawn):
        # connected after the window's own slots, so Qt calls it once the status line and the gauge have redrawn
        shown.append((drawn, _n(window.plot.readout_text()), _n(window.status_label.text()),
                      _n(window.fill_gauge.format())))

    window.plot.redrawn.connect(sample)
    window.autoplay.set_rate(rate)
    window.autoplay.set_count(300_000)   # enough for several redraws while the run goes on, at any speed
    window.autoplay.start()
    # three redraws into the run, or its end and the redraw after it (at full speed a run of generated items
    # can be over before its first frame: the plot is then drawn once, just after the run)
    qtbot.waitUntil(lambda: len([s for s in shown if s[0] > 0]) >= 3
                    or (window.autoplay.state == "idle" and any(s[0] > 0 for s in shown)), timeout=20_000)
    assert any(drawn > 0 for drawn, *_ in shown)
    window.plot.redrawn.disconnect(sample)
    window.autoplay.cancel()
    for drawn, readout, status, gauge in shown:
        assert readout == status == gauge, (drawn, readout, status, gauge)
