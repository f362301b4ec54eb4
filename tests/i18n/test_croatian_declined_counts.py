"""A number Croatian declines the noun after (1 bit, 2-4 bita, 5+ bitova; 11-14 bitova) is not put before a
noun of one fixed form: the slow motion's closing verdict (k = 2, 3, 4 are the common k) and the blocked
filter's bands (a block of 64 to 65,536 bits)."""

from __future__ import annotations

import re

import pytest

from bloomviz import i18n
from bloomviz.explain import describers
from bloomviz.filters.registry import make_filter
from bloomviz.gui.widgets.step_reveal import verdict_line
from bloomviz.theory.limits import BLOCK_BITS

FORMS = ("bit", "bita", "bitova")


def _form(count: int) -> str:
    if count % 10 == 1 and count % 100 != 11:
        return "bit"
    return "bita" if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14 else "bitova"


def _misdeclined(text: str) -> list[str]:
    plain = re.sub(r"<[^>]+>", "", text).replace(".", "")      # (a thousands point: 65.536)
    return [f"{number} {noun}" for number, noun in re.findall(r"(\d+) (bitova|bita|bit)\b", plain)
            if noun != _form(int(number))]


@pytest.fixture
def croatian():
    i18n.use("hr")
    yield
    i18n.use("en")


def test_the_slow_motions_verdict_reads_for_every_k(croatian):
    wrong = [_misdeclined(verdict_line("lookup", list(range(k)), [True] * k)) for k in range(1, 33)]
    assert [w for w in wrong if w] == []


def test_the_blocked_filters_bands_read_for_every_block_size(croatian):
    wrong = []
    bits = BLOCK_BITS[0]
    while bits <= BLOCK_BITS[1]:
        flt = make_filter("blocked", m=4 * bits, k=3, block_bits=bits)
        wrong += _misdeclined(describers.describer(flt).bands_text)
        bits *= 2
    assert wrong == []
