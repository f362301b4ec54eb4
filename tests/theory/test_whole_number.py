"""The one whole-number reading and the one rate reading (``theory.units``), used alike by the CLI, the panel,
the lessons and the window's options: the same forms accepted everywhere, the rest refused with one message."""

import argparse

import pytest

from bloomviz.commands.common import non_negative_int, parse_whole, positive_int
from bloomviz.theory.units import whole_number


@pytest.mark.parametrize("text, value", [("1000000", 1_000_000), ("1_000_000", 1_000_000), ("1e6", 1_000_000),
                                         ("2.0", 2), ("-3", -3), ("0", 0), ("1,000", 1000), ("10^6", 10 ** 6),
                                         ("1e23", 10 ** 23), ("2^32", 1 << 32), ("1,000,000", 10 ** 6)])
def test_whole_number_reads_the_forms_people_write(text, value):
    assert whole_number(text) == value


@pytest.mark.parametrize("text", ["1.5", "inf", "nan", "x", "", "1,0", "1,00,000", "٣", "0x10", "1e999",
                                  "9" * 5000, "10^400"])
def test_whole_number_refuses_what_is_not_whole(text):
    assert whole_number(text) is None


FORMS = ["1000", "1,000", "1e3", "10^3", "1_000", " 1000 "]
REFUSED = ["1.5", "1,0", "٣", "0x10", "x", "9" * 5000]
SAME = r"must be a whole number such as 1000, 1,000, 1_000, 1e3 or 10\^6, got '"


def _readers():
    """Every place a person types a whole number, as (name, read(text) -> int)."""
    from bloomviz.lessons.spec import whole
    pytest.importorskip("PySide6")
    from bloomviz.gui.app import _non_negative
    from bloomviz.gui.filter_tab.params_panel import parse_int
    return [("cli", parse_whole), ("lesson", lambda t: whole(t, "n")), ("panel", lambda t: parse_int(t, "n")),
            ("window option", _non_negative("--demo"))]


def test_every_reader_takes_the_same_forms_and_refuses_the_rest_with_one_message():
    for name, read in _readers():
        assert [read(t) for t in FORMS] == [1000] * len(FORMS), name
        for text in REFUSED:
            with pytest.raises((ValueError, argparse.ArgumentTypeError), match=SAME) as info:
                read(text)
            assert len(str(info.value)) < 200, (name, "a refusal quotes the text cut short")


def test_every_rate_reader_takes_the_same_forms():
    from bloomviz.commands.common import p_arg
    from bloomviz.lessons.spec import fraction
    pytest.importorskip("PySide6")
    from bloomviz.gui.filter_tab.params_panel import parse_rate
    for read in (p_arg, lambda t: fraction(t, "p", 0.0, 0.5), parse_rate):
        assert [read(t) for t in ("0.001", "0.1%", "1/1000", "1 in 1000", "1e-3")] == [0.001] * 5
        with pytest.raises((ValueError, argparse.ArgumentTypeError), match="a rate such as 0.01, 1%, 1e-3"):
            read("one percent")


def test_bit_sizes_in_units_of_memory():
    from bloomviz.commands.common import m_arg
    from bloomviz.theory.units import parse_bits
    assert parse_bits("512 MiB") == m_arg("512 MiB") == 1 << 32
    assert parse_bits("8 KiB") == 65536 and parse_bits("1,024") == 1024 and parse_bits("4096 bits") == 4096
    with pytest.raises(argparse.ArgumentTypeError, match="8 KiB or 512 MiB"):
        m_arg("lots MiB")


def test_cli_names_its_bounds():
    with pytest.raises(argparse.ArgumentTypeError, match=r"--probes must be a positive whole number, got '0'"):
        positive_int("--probes")("0")
    with pytest.raises(argparse.ArgumentTypeError, match=r"--seed must be a whole number >= 0, got '-1'"):
        non_negative_int("--seed")("-1")
    assert non_negative_int("--seed")("0") == 0


def test_panel_says_an_empty_field_is_empty():
    pytest.importorskip("PySide6")
    from bloomviz.gui.filter_tab.params_panel import parse_int
    with pytest.raises(ValueError, match="n is empty"):
        parse_int("  ", "n")
