"""One wording for a number a user meets in several places: the estimate no count fits (the window's Other
libraries' tab, ``inspect``, the atlas and the notebook table said "every bit set", "every bit is set" and "a whole
word, slice or array set"), and a tiny rate inside a sentence ("passes 1 in 830,000 of the time")."""

from __future__ import annotations

import pathlib
import re

import pytest

from bloomviz.formats.why_rules import pct
from bloomviz.theory import units

ROOT = pathlib.Path(__file__).resolve().parents[2] / "bloomviz"


def test_the_too_full_estimate_is_spelled_in_one_place():
    """Every file that words a full filter's estimate takes it from ``theory.units`` (the catalogue translates
    that one text)."""
    spelled = re.compile(r"∞ \(|too full to estimate n|slice or (array|link)")
    found = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
                   if p.name != "units.py" and spelled.search(p.read_text(encoding="utf-8")))
    assert not found, f"word it through theory.units (EVERY_BIT_SET, PART_SET, SATURATED): {found}"
    assert units.too_full_text(64, 64) == units.EVERY_BIT_SET == "∞ (every bit is set)"
    assert units.too_full_text(60, 64) == units.PART_SET and "every bit" in units.SATURATED


@pytest.mark.parametrize("rate, said", [(0.0123, "1.23 %"), (1.2e-6, "1.2 × 10⁻⁴ %"), (3e-9, "3 × 10⁻⁷ %"),
                                        (0.0, "0 %")])
def test_a_rate_inside_a_sentence_is_always_a_percentage(rate, said):
    """The "why" sentences put it in "passes {rate} of the time" and "(p = {rate})"."""
    assert pct(rate) == said and "in" not in pct(rate)
