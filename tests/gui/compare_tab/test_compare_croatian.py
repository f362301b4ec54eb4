"""Compare in Croatian: each lane's numbers (fill, measured rate, its interval, the ratio to the formula and what
the fill explains) and the theory curve's name in the legend were English under hr, and the rates had a decimal
point; now they read as the rest of the window (popunjenost 50,3%, LP 0,0007 [0,00042; 0,0012])."""

from __future__ import annotations

from bloomviz import i18n
from bloomviz.gui.compare_tab.view import CompareView
from bloomviz.studies.compare import Config


def test_a_lanes_numbers_and_the_theory_curve_are_croatian(qtbot):
    i18n.use("hr")
    try:
        view = CompareView()
        qtbot.addWidget(view)
        view.set_sizing(m=3000, k=3)
        view.set_configs([Config("standard", "murmur3-km"), Config("partitioned", "murmur3-km")])
        view.settings.items_spin.setValue(400)
        view.settings.probes_spin.setValue(500)
        assert view.start()
        view.run_to_end()
        stats = [frame.stats.text() for frame in view.lanes[:2]]
        tips = [frame.stats.toolTip() for frame in view.lanes[:2]]
        legend = [label.text for _sample, label in view.pictures.plot.getPlotItem().legend.items]
    finally:
        i18n.use("en")
    for text in stats:
        assert "popunjenost " in text and "LP <b>" in text and "formule" in text and "popunjenost objašnjava" in text
        assert "fill" not in text and "formula" not in text
        rate = text.split("LP <b>", 1)[1].split("</b>", 1)[0]
        assert "." not in rate, rate                       # 0,0007: the decimal comma
    assert all(tip.startswith("nakon n = 400 elemenata") for tip in tips)
    assert "teorija" in legend and "teorija (particionirani)" in legend and "theory" not in legend
