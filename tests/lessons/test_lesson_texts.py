"""The lessons' words are for a class (issue 26 item 7): no raw TeX, no remarks about reports or the sources'
excerpts, the math lesson asks the class something, and each step's narration follows the item its grid lights."""

from __future__ import annotations

import re

import pytest

from bloomviz import lessons

NOT_FOR_A_CLASS = (r"\^\{", r"\\frac", r"the report'?s?\b", r"excerpt we work from", r"\bbelow\b.*exact rate")


@pytest.mark.parametrize("name", lessons.builtin_lessons())
def test_no_author_or_tex_remarks(name):
    lesson = lessons.load_builtin(name)
    texts = [lesson.intro] + [part for step in lesson.steps for part in (step.narration, step.after_reveal)]
    for pattern in NOT_FOR_A_CLASS:
        hits = [t for t in texts if t and re.search(pattern, t)]
        assert not hits, f"{name}: {pattern!r} in {hits[0][:80]!r}"


def test_the_math_lesson_asks_the_class():
    lesson = lessons.load_builtin("3")
    assert any(action.name == "predict" for step in lesson.steps for action in step.actions)
