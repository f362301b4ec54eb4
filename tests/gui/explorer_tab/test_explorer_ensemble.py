"""The explorer's ensemble page: it runs in steps, lands on the exact rate, says so, and cancels cleanly."""

from __future__ import annotations

import pytest

from bloomviz.theory import rates as theory
from bloomviz.gui.explorer_tab.ensemble import EnsemblePage


@pytest.fixture
def page(qtbot):
    p = EnsemblePage()
    qtbot.addWidget(p)
    p.resize(1000, 600)
    p.show()
    return p


def test_an_ensemble_lands_on_the_exact_rate_and_says_so(page, qtbot):
    page.m.setValue(32)
    page.k.setValue(4)
    page.n.setValue(5)
    page.filters.setValue(20_000)
    page.probes.setValue(16)
    with qtbot.waitSignal(page.finished, timeout=60_000) as blocker:
        assert page.run()
        assert page.runner.busy and not page.run_button.isEnabled()
    result = blocker.args[0]
    assert result.filters == 20_000 and result.n.tolist() == [1, 2, 3, 4, 5]
    assert abs(result.mean[-1] / theory.fp_exact(32, 4, 5) - 1) < 0.05
    text = page.message.text()
    assert "exact 0.0517" in text and "classic 0.04882" in text
    assert page.run_button.isEnabled() and not page.bar.isVisible()


def test_cancel_stops_and_says_nothing_was_averaged(page, qtbot):
    page.filters.setValue(1_000_000)
    page.m.setValue(4096)
    page.n.setValue(200)
    page.run()
    page.runner.cancel()
    assert not page.runner.busy and "Cancelled" in page.message.text()


def test_a_refused_size_names_the_limit(page):
    page.m.setValue(4096)
    page.n.setValue(10_000)
    page.filters.setValue(1_000_000)
    page.probes.setValue(1000)
    assert not page.run()
    assert "limit" in page.message.text() and not page.runner.busy
