"""The one formatting policy for numbers a student reads (core.units)."""

from __future__ import annotations

import math

import pytest

from bloomviz.theory.units import bits_text, count_text, human_bytes, one_in, percent_text, power_of_ten, rate_text


@pytest.mark.parametrize("p, text", [(0.0, "0"), (-0.0, "0"), (1.0, "1"), (0.0517024885, "0.0517"),
                                     (0.00012345, "0.0001234"), (2.2357e-7, "2.24 × 10⁻⁷"),
                                     (9.9996e-5, "1 × 10⁻⁴"), (1e-108, "1 × 10⁻¹⁰⁸"), (math.nan, "—")])
def test_rates(p, text):
    assert rate_text(p) == text


def test_percent_and_one_in_stay_short():
    assert percent_text(0.0517) == "5.17 %" and percent_text(0) == "0 %"
    assert one_in(0.01) == "1 in 100" and one_in(0.0517) == "1 in 19" and one_in(0) == "never"
    assert one_in(1e-108) == "1 in 1 × 10¹⁰⁸"           # never a 108-digit integer
    assert len(one_in(1e-300)) < 20


@pytest.mark.parametrize("x, text", [(0.0, "0"), (-0.0, "0"), (12.345, "12.3"), (123456.7, "123,457"),
                                     (math.inf, "∞"), (7, "7")])
def test_counts(x, text):
    assert count_text(x) == text


def test_sizes():
    assert bits_text(192) == "192 bits (24 B)"       # not "0.0 KiB"
    assert bits_text(100) == "100 bits (13 B)"       # whole bytes, rounded up
    assert human_bytes(2048) == "2.00 KiB" and human_bytes(9_585_059 / 8) == "1.14 MiB"
    assert power_of_ten(123456.0) == "1.23 × 10⁵"


@pytest.mark.parametrize("p", [5e-324, 1e-310, 2.2e-308])
def test_subnormal_rates_are_written_not_raised(p):
    assert "× 10⁻³" in rate_text(p) and one_in(p).startswith("1 in ") and "× 10³" in one_in(p)


def test_count_axis_ticks_are_short_and_as_precise_as_their_spacing():
    from bloomviz.theory.units import axis_counts
    assert axis_counts([0, 500_000, 1e6, 1.5e6], 500_000) == ["0", "0.5M", "1.0M", "1.5M"]
    assert axis_counts([0, 50, 100, 150], 50) == ["0", "50", "100", "150"]
    assert axis_counts([0, 2500, 5000, 7500, 10_000], 2500) == ["0", "2.5k", "5.0k", "7.5k", "10.0k"]
    assert axis_counts([1_000_500, 1_001_000], 500) == ["1.0005M", "1.0010M"]    # zoomed in: still distinct
    assert axis_counts([0, 2e8, 4e8], 2e8) == ["0", "200M", "400M"]
    assert axis_counts([0.0, 0.5, 1.0], 0.5) == ["0", "0.5", "1.0"]
    assert axis_counts([], 1.0) == []
