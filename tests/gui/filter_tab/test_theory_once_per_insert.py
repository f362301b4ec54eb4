"""After an insert the window shows the theory at the new n twice, in the Explain panel's numbers and in the
plot's readout: it is computed once (theory.curves keeps the last single point)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest

from bloomviz.theory import curves

pytestmark = pytest.mark.window(probes=500, parts=True, shown=True, size=(1280, 800))


@pytest.mark.parametrize("inserts", [1, 3])
def test_the_theory_at_the_new_n_is_computed_once_for_both_panels(qtbot, window, monkeypatch, inserts):
    wb = window.wb
    for i in range(inserts - 1):
        wb.insert(f"before {i}")
    qtbot.waitUntil(lambda: window.plot.drawn_n == inserts - 1 and not window.plot.redraw_pending, timeout=30_000)
    asked = []
    real = curves.fp_exact_at

    def counted(m, k, ns, points=False):
        asked.append((int(m), int(k), tuple(float(v) for v in np.asarray(ns).reshape(-1)), points))
        return real(m, k, ns, points)

    monkeypatch.setattr(curves, "fp_exact_at", counted)
    wb.insert("the new one")
    qtbot.waitUntil(lambda: window.plot.drawn_n == inserts and not window.plot.redraw_pending
                    and f"n = {inserts}" in window.plot.readout_text(), timeout=30_000)
    qtbot.waitUntil(lambda: "the new one" in window.explain_panel.toPlainText(), timeout=30_000)
    flt = wb.filter
    assert "exact" in window.plot.readout_text()
    # (the plot's curve is read from the cached curve of every row, not at one point: points=False)
    at_new_n = [a for a in asked if a == (flt.m, flt.k, (float(inserts),), True)]
    assert len(at_new_n) == 1, asked
