"""Text and verdict colours against their backgrounds reach WCAG AA in both themes (issue 25, item 3): 4.5:1 for
text (the palettes' text roles, every verdict and message colour on the panels' window and base colours, the
plot's text) and 3:1 for the plot's curves, read from the modules the colours live in."""

from __future__ import annotations

import pytest

from bloomviz.gui import theme
from bloomviz.gui.access import contrast


def test_the_ratio_is_wcags():
    assert contrast.ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast.ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast.ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)   # the classic just-fails grey
    assert contrast.ratio("#888888", "#efefef") < contrast.TEXT_AA                 # the muted grey this replaced


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_text_and_verdict_colour_reaches_aa(qapp, dark):
    checked = contrast.pairs(dark)
    verdicts = {what for what, *_ in checked if what.startswith("verdict")}
    assert len(verdicts) == 2 * len(set(theme.VERDICT_COLOURS[False]) | set(theme.VERDICT_COLOURS[True]))
    assert not contrast.failures(dark), "\n".join(contrast.failures(dark))


def test_every_verdict_has_its_own_colour_in_both_themes():
    assert set(theme.VERDICT_COLOURS[True]) == set(theme.VERDICT_COLOURS[False])
