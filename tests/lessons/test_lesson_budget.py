"""A lesson's work is bounded before it starts: each action's estimated cost, the sum over the lesson, the memory
of its filter, the size of its words; steps are kept as operations (Back replays), not as copies of the filter;
a refused or cancelled step leaves the lesson as it was."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from bloomviz.filters import bitstore
from bloomviz.lessons import LessonError, LessonRunner, check, parse_text


def lesson(*blocks: str, narration: str = "Words.") -> str:
    return "# T\n\n" + "".join(f"## S{i}\n\n{narration}\n\n```bloomviz\n{b}\n```\n\n" for i, b in enumerate(blocks))


def refused(text: str) -> LessonError:
    with pytest.raises(LessonError) as info:
        check(parse_text(text, "sent.md"))
    assert info.value.path == "sent.md" and info.value.line > 0
    return info.value


def test_five_insert_random_lines_at_2_28_are_refused_at_the_line_that_crosses_the_lesson_budget():
    text = lesson("filter m=268435456 k=7", *["insert-random 2000000"] * 5)
    error = refused(text)
    lines = [n for n, line in enumerate(text.splitlines(), start=1) if line == "insert-random 2000000"]
    assert error.line in lines[1:]        # the first fits; a later one is refused before it runs
    assert "estimated" in error.reason and "a whole lesson may take" in error.reason


def test_one_action_over_its_own_budget_is_refused_before_it_runs():
    error = refused(lesson("filter m=100000 k=3\ninsert-random 20\nensemble filters=100000 n=40"))
    assert error.line == 10 and "one lesson action may take" in error.reason and "m = 100,000 bits" in error.reason


def test_a_culprit_search_over_many_members_is_budgeted():
    words = " ".join(f"w{i}" for i in range(2000))
    error = refused(lesson(f"filter m=1000 k=3\ninsert {words}\nlookup {words}"))
    assert "lookup of 2,000 items" in error.reason


def test_a_counting_filter_too_large_for_memory_is_refused_before_a_counter_is_used():
    error = refused(lesson("filter m=268435456 k=4 variant=counting counter_bits=8"))
    assert "bytes of memory" in error.reason and "a lesson's filter may" in error.reason


def test_a_scalable_filters_giant_first_stage_is_refused_not_a_traceback():
    error = refused(lesson("filter variant=scalable capacity=268435456 p=1e-9"))
    assert "first stage alone" in error.reason


def test_a_scalable_filter_grown_past_the_lesson_bits_is_refused():
    error = refused(lesson("filter variant=scalable capacity=1000 p=1e-12\ninsert-random 2000000"))
    assert "grow the scalable filter" in error.reason


@pytest.mark.parametrize("narration, reason", [("x" * 5000, "a word of 5,000 characters"),
                                               ("word " * 5000, "more than the 20,000 one step may show")])
def test_words_a_screen_cannot_lay_out_are_refused_with_the_steps_line(narration, reason):
    with pytest.raises(LessonError) as info:
        parse_text(lesson("filter m=64 k=3", narration=narration), "sent.md")
    assert info.value.line == 3 and reason in info.value.reason


def test_steps_are_kept_as_operations_not_copies_of_the_filter():
    steps = 40
    runner = LessonRunner(parse_text(lesson("filter m=33554432 k=3", *[f"insert w{i}" for i in range(steps)])))
    tracemalloc.start()
    try:
        runner.run_all()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * (1 << 22), f"{peak:,} bytes traced for {steps + 1} steps of a 4 MiB filter"
    bits = bitstore.unpack(runner.state.filter.bits).copy()
    runner.back()
    runner.back()
    assert len(runner.state.filter) == steps - 2 and runner.state.named[-1] == f"w{steps - 3}"
    runner.next()
    runner.next()
    assert np.array_equal(bitstore.unpack(runner.state.filter.bits), bits)


def test_a_failed_or_cancelled_step_leaves_the_lesson_as_it_was():
    runner = LessonRunner(parse_text(lesson("filter m=64 k=3\ninsert a", "insert b\ninsert c\nexpect n=9")))
    runner.next()
    before = bitstore.unpack(runner.state.filter.bits).copy()
    with pytest.raises(LessonError):
        runner.next()
    assert runner.position == 1 and len(runner.state.filter) == 1
    assert np.array_equal(bitstore.unpack(runner.state.filter.bits), before)

    class Cancelled(Exception):
        pass

    def cancel(step, action):
        if action == 1:
            raise Cancelled
    with pytest.raises(Cancelled):
        runner.next(cancel)
    assert runner.position == 1 and runner.state.named == ["a"] and runner.budget.current == 0


def test_the_built_in_lessons_fit_their_budget_with_room():
    from bloomviz import lessons
    from bloomviz.lessons.budget import LESSON_SECONDS
    for name in lessons.builtin_lessons():
        runner = LessonRunner(lessons.load_builtin(name))
        runner.run_all()
        assert runner.budget.spent < 0.9 * LESSON_SECONDS, name
