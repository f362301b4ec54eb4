"""The Explorer's and Compare's plots told in words (issue 25, item 3): each named curve's last value and where,
in the curves' own numbers even on a log axis, kept current as the plot's data change."""

from __future__ import annotations

import re

import pytest
from PySide6 import QtCore

from bloomviz.gui.access import plot_words, window_parts
from bloomviz.gui.compare_tab.view import CompareView
from bloomviz.studies.compare import Config
from bloomviz.gui.explorer_tab.view import install as install_explorer
from bloomviz.theory import rates as theory
from bloomviz.theory.units import rate_text
from window_helpers import new_window


@pytest.fixture
def explorer(qtbot, tmp_path):
    window = new_window(qtbot, tmp_path)
    install_explorer(window)
    window.show_tab("explorer")
    view = window.tab_view("explorer")
    window_parts.view_made(view)
    window.show()
    qtbot.waitExposed(window)
    yield view
    view.curves.cancel() if hasattr(view.curves, "cancel") else None


def _exact_at_last_k(description: str) -> tuple[int, str]:
    match = re.search(r"exact: (\S+(?: × 10\S+)?) at k = (\d+)", description)
    assert match, description
    return int(match.group(2)), match.group(1)


def test_the_explorers_plots_are_told_in_their_own_numbers_and_follow_the_design(explorer, qtbot):
    plot = explorer.k_plot.plot_widget
    explorer.calc.set_inputs(m="1000", n="100", k="5")
    qtbot.waitUntil(lambda: "exact:" in plot.accessibleDescription() and not explorer.drawing, timeout=10_000)
    qtbot.waitUntil(lambda: _exact_at_last_k(plot.accessibleDescription())[1]
                    == rate_text(theory.fp_exact(1000, _exact_at_last_k(plot.accessibleDescription())[0], 100)),
                    timeout=5_000)
    text = plot.accessibleDescription()
    assert text.startswith("False-positive rate against k")
    assert "k 1 to" in text and "best integer k = 7" in text       # log y: the rates, never their log10
    assert not re.search(r"(?<![\w×⁻])-\d", text), text            # no negative number (a log10 of a rate)
    explorer.calc.set_inputs(m="4000", n="100", k="5")             # a new design, its own numbers
    qtbot.waitUntil(lambda: _exact_at_last_k(plot.accessibleDescription())[1]
                    == rate_text(theory.fp_exact(4000, _exact_at_last_k(plot.accessibleDescription())[0], 100)),
                    timeout=10_000)
    # the rate against n: each m named, its rate at the last n
    plot = explorer.n_plot.plot_widget
    explorer.calc.set_inputs(m="2000", n="200", k="4")

    def m_2000_told_at_k_4() -> bool:
        match = re.search(r"m = 2,000: (\S+(?: × 10\S+)?) at n = ([\d,]+)", plot.accessibleDescription())
        return bool(match) and match.group(1) == rate_text(
            theory.fp_exact(2000, 4, int(match.group(2).replace(",", ""))))
    qtbot.waitUntil(m_2000_told_at_k_4, timeout=10_000)


def test_compares_plot_tells_each_lane_and_the_theory_at_the_last_n(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    view.set_sizing(n=300, p=0.01)          # a short race: the words, not the statistics, are tested here
    view.set_configs([Config("standard", "murmur3-km"), Config("standard", "weak-shift")])
    (describer,) = plot_words.describe_plots(view)
    assert "No data yet" in describer.refresh()
    view.start()
    view.run_to_end()
    qtbot.waitUntil(lambda: view.comparison is not None and view.comparison.finished, timeout=20_000)
    cmp = view.comparison
    text = describer.refresh()
    assert text.startswith("Plot of false-positive rate against items inserted, n.")
    for summary in cmp.summaries():
        assert f"{summary.label}: {rate_text(summary.measured)} at n = {cmp.n:,}" in text, (summary, text)
    assert f"theory: {rate_text(cmp.summaries()[0].theory)} at n = {cmp.n:,}" in text, text
    assert "curve:" not in text          # interval edges and fills have no name of their own
    qtbot.waitUntil(lambda: view.plot.accessibleDescription() == text)        # kept current on its own


def test_a_bar_chart_and_a_single_point_are_told_too(qtbot):
    import pyqtgraph as pg
    from PySide6 import QtWidgets
    box = QtWidgets.QWidget()
    qtbot.addWidget(box)
    plot = pg.PlotWidget(box, title="Filters by size")
    plot.setLabel("bottom", "bits, m")
    plot.addItem(pg.BarGraphItem(x0=[0, 10], x1=[10, 20], height=[3, 5], name="filters"))
    plot.plot([7], [0.25], name="this design", symbol="o")
    (describer,) = plot_words.describe_plots(box)
    assert describer.refresh() == ("Filters by size. filters: 5 at m = 10 (2 points, m 0 to 10, y 3 to 5); "
                                   "this design: 0.25 at m = 7 (1 point)")
