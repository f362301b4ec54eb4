"""What a Croatian window shows from the lessons' computed numbers, the scenarios' stories, the engines' notes,
the variants' sentences and the history's batch rows: Croatian words with Croatian marks, no English sentence.

Each text is made as the window makes it (under ``i18n.use("hr")``) and compared with the same text made in
English: a fallback shows up as a shared run of English words, or as a number written the English way."""

from __future__ import annotations

import re

import pytest

from bloomviz import i18n, lessons
from bloomviz.lessons import step_numbers

# English words a Croatian sentence never holds (names such as Bloom, Kedmi, MurmurHash3 or git may stay)
ENGLISH = re.compile(r"\b(the|of|and|is|are|with|from|for|bits|items|filter|filters|rate|exact|measured|"
                     r"stage|counter|counters|random|each|lookups?|inserted|removed|set)\b")


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(text)


NUMBER = re.compile(r"\d+(?:[.,]\d+)+")


def english_marks(croatian: str, english: str) -> list[str]:
    """The English text's numbers with a mark (9,585,059; 0.0125) that the Croatian one does not write with
    Croatian marks (9.585.059; 0,0125)."""
    said = NUMBER.findall(croatian)
    return [n for n in NUMBER.findall(english) if n.translate({ord("."): ",", ord(","): "."}) not in said]


def in_both(make):
    """``make()`` in Croatian, then in English."""
    i18n.use("hr")
    try:
        croatian = make()
    finally:
        i18n.use("en")
    return croatian, make()


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


REPORTS = {}


def report(name: str, index: int) -> dict:
    if name not in REPORTS:
        REPORTS[name] = lessons.check(lessons.load_builtin(name, "en"))
    return REPORTS[name][index]


@pytest.mark.parametrize("name, index", [("04-choosing-m-and-k", 0), ("08-the-real-world", 2),
                                         ("08-the-real-world", 3), ("05-hashing-matters", 0),
                                         ("09-bloom-filters-in-the-wild", 3), ("09-bloom-filters-in-the-wild", 4)])
def test_a_lesson_steps_computed_numbers_are_croatian(name, index):
    croatian, english = in_both(lambda: "\n".join(step_numbers.computed_lines(report(name, index))))
    assert croatian and english and croatian != english
    assert not english_words(croatian), croatian
    assert NUMBER.findall(english) and not english_marks(croatian, english), croatian


def test_a_false_negative_and_a_stuck_counter_are_said_in_croatian():
    forced = report("06-deleting-with-counting-filters", 2)
    stuck = report("06-deleting-with-counting-filters", 3)
    croatian, english = in_both(lambda: [step_numbers.filter_line(r, True)[-1] for r in (forced, stuck)])
    assert "LAŽNO NEGATIVAN" in croatian[0] and "brojači 2, 3 na 0" in croatian[0] and "FALSE" in english[0]
    assert "zaglavljeni na najvišoj vrijednosti" in croatian[1] and "stuck at their top" in english[1]
    assert croatian[0].startswith("posljednje: predviđanje „A”")
    assert not any(english_words(text) for text in croatian), croatian
