"""The one whole-number reading, and the two callers that word its refusals (the CLI and the panel)."""

import argparse

import pytest

from bloomviz.commands.common import non_negative_int, parse_whole, positive_int
from bloomviz.theory.units import whole_number


@pytest.mark.parametrize("text, value", [("1000000", 1_000_000), ("1_000_000", 1_000_000), ("1e6", 1_000_000),
                                         ("2.0", 2), ("-3", -3), ("0", 0)])
def test_whole_number_reads_the_forms_people_write(text, value):
    assert whole_number(text) == value


@pytest.mark.parametrize("text", ["1.5", "inf", "nan", "x", "", "1,000"])
def test_whole_number_refuses_what_is_not_whole(text):
    assert whole_number(text) is None


def test_cli_words_a_refusal_with_the_text_as_given():
    assert parse_whole(" 1e3 ") == 1000
    with pytest.raises(argparse.ArgumentTypeError, match=r"expected a whole number, got '1\.5'"):
        parse_whole("1.5")
    with pytest.raises(argparse.ArgumentTypeError, match=r"--probes must be a positive whole number, got '0'"):
        positive_int("--probes")("0")
    with pytest.raises(argparse.ArgumentTypeError, match=r"--seed must be a whole number >= 0, got '-1'"):
        non_negative_int("--seed")("-1")
    assert non_negative_int("--seed")("0") == 0


def test_panel_also_takes_commas_and_spaces():
    pytest.importorskip("PySide6")
    from bloomviz.gui.filter_tab.params_panel import parse_int
    assert parse_int(" 1,000 000 ", "n") == 1_000_000
    with pytest.raises(ValueError, match="n is empty"):
        parse_int("  ", "n")
    with pytest.raises(ValueError, match=r"m must be a whole number, got '2\.5'"):
        parse_int("2.5", "m")
