"""A user's lesson file refused for its size (``lessons/budget.py``: an action's or the lesson's estimated work, its
filter's memory, a growing filter's bits) as a Croatian window says it: Croatian words with Croatian marks, the
action's and the variant's names as the file wrote them; the command line keeps its English. The same for a
malformed predict block (``lessons/predict.py``)."""

from __future__ import annotations

import re

import pytest

from bloomviz import i18n
from bloomviz.formats.reasons import render
from bloomviz.lessons import LessonError, check, parse_text
from bloomviz.lessons.budget import Budget, BudgetError
from bloomviz.lessons.actions import REGISTRY
from test_croatian_no_english import english_marks, english_words, in_both

FILE_WORDS = set(REGISTRY) | {"counting", "scalable", "step"}      # the file's own words, in any language
PREDICT_WORDS = {"ask", "choice", "after", "no", "maybe", "verdict", "bits-set", "new-bits", "measured-rate",
                 "exact-rate", "KIND", "ITEM", "CONDITION", "LABEL"}


def lesson(*lines: str) -> str:
    return "# T\n\n## S\n\nWords.\n\n```bloomviz\n" + "\n".join(lines) + "\n```\n"


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


@pytest.mark.parametrize("lines, english", [
    (("filter m=100000 k=3", "insert-random 20", "ensemble filters=100000 n=40"), "one lesson action may take"),
    (("filter m=268435456 k=4 variant=counting counter_bits=8",), "bytes of memory"),
    (("filter variant=scalable capacity=268435456 p=1e-9",), "first stage alone"),
    (("filter variant=scalable capacity=1000 p=1e-12", "insert-random 2000000"), "grow the scalable filter"),
])
def test_a_lesson_refused_for_its_size_is_croatian(lines, english):
    with pytest.raises(LessonError) as caught:
        check(parse_text(lesson(*lines), "moja-lekcija.md"))
    error = caught.value
    assert english in str(error)
    croatian, said_in_english = in_both(error.said)
    assert said_in_english == str(error)                 # the command line's words are unchanged
    assert croatian.startswith("moja-lekcija.md:") and croatian != said_in_english
    words = re.sub(r"[\w-]+", lambda m: "" if m.group(0) in FILE_WORDS else m.group(0), croatian)
    assert not english_words(words), croatian
    assert not re.search(r"\b(of|would|more|than|takes|items|work|bytes)\b", words), croatian
    assert not english_marks(croatian, said_in_english), croatian


def test_the_whole_lessons_budget_is_said_with_croatian_marks():
    budget = Budget()
    budget.charge(1.75, "x")
    with pytest.raises(BudgetError) as caught:
        budget.charge(1.9, "y")
    reason = caught.value.args[0]
    assert "after 1.8 s spent" in reason and "over the 3.5 s a whole lesson" in reason
    croatian, english = in_both(lambda: render(reason, i18n.tr, i18n.number, i18n.marks))
    assert english == reason and "1,8 s" in croatian and "3,5 s" in croatian
    assert not english_words(croatian) and not english_marks(croatian, english), croatian


@pytest.mark.parametrize("block", [
    "predict", "predict wobble two", "predict verdict a b", "predict bits-set before x", "predict exact-rate now",
    "predict bits-set\nask one?\nask two?", "predict bits-set\nask", "predict bits-set\nchoice 3",
    "predict bits-set\nchoice 5..2 Empty\nchoice 3 Three", "predict verdict a\nchoice yes Yes\nchoice no No",
    "predict exact-rate\nchoice 3 Three\nchoice <1% Low", "predict bits-set\nchoice 3 A\nchoice 3 B",
    "predict bits-set\nchoice 3 Three", "predict new-bits a"])
def test_a_malformed_predict_block_is_refused_in_croatian(block):
    with pytest.raises(LessonError) as caught:
        parse_text(lesson("filter m=64 k=3", "insert a", block), "moja-lekcija.md")
    croatian, english = in_both(caught.value.said)
    assert english == str(caught.value) and "predict: " in english
    assert croatian.startswith("moja-lekcija.md:") and croatian != english
    # the file's own words: action and kind names, what the author wrote ('wobble', "Three"), the syntax's keywords
    words = re.sub(r"[\w-]+", lambda m: "" if m.group(0) in FILE_WORDS | PREDICT_WORDS else m.group(0),
                   re.sub(r"'[^']*'", "", croatian))
    assert not english_words(words), croatian
    assert not re.search(r"\b(takes|needs|more|than|got|write|second|choices|given|twice|empty)\b", words), croatian
