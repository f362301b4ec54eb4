"""One visual language (issue 26): a lesson's insert is marked as the Filter tab marks one (orange square where a
bit was newly set, blue circle where it was already 1), a ``highlight`` by the bit's value (never the
false-positive star), a revealed phantom is named FALSE POSITIVE with the items that set its bits and its bits
starred, and the lesson grid carries the Filter tab's legend."""

from __future__ import annotations

import pytest



pytestmark = pytest.mark.window(probes=200, parts=True, size=(1280, 800))


@pytest.fixture
def view(window):
    """The Lesson tab of the shared window (tests/conftest.py), on the first built-in lesson."""
    window.lesson_view.load_builtin("1")
    return window.lesson_view


def _kinds(view):
    return view.grid.highlight_points()[2]


def test_an_insert_is_marked_as_on_the_filter_tab(view):
    view.go_to(2)                       # insert k1: three bits newly set, the step's last operation
    assert view.runner.reports[-1]["last"]["action"] == "insert"
    assert _kinds(view) == ["new", "new", "new"]
    view.go_to(3)                       # "No false negatives": a lookup finds k1's three bits 1
    assert set(_kinds(view)) == {"one"}
    assert "newly set" in view.legend.text() and "false positive" in view.legend.text()
    assert view.legend.isVisibleTo(view)


def test_pointing_at_bits_never_uses_the_false_positive_star(view):
    for number, step in enumerate(view.lesson.steps, start=1):
        view.go_to(number)
        shown = view.runner.reports[-1]["window"]
        if any(s.get("action") == "highlight" for s in shown):
            assert "culprit" not in _kinds(view), step.title


def test_a_revealed_phantom_is_named_false_positive_with_its_culprits(view):
    view.go_to(len(view.lesson.steps))          # "Is k1 in the set?"
    assert view.asking() and "FALSE POSITIVE" not in view.numbers.text()    # kept back until Reveal
    view.reveal()
    text = view.numbers.text()
    assert "FALSE POSITIVE" in text and "never inserted" in text
    assert all(name in text for name in ("k2", "k3", "k4"))
    assert set(_kinds(view)) == {"culprit"}


def test_counters_are_numbers_on_a_fixed_scale(view):
    view.load_builtin("6")
    tops = set()
    for number in range(1, len(view.lesson.steps) + 1):
        view.go_to(number)
        if view.grid.isVisibleTo(view):
            tops.add(view.grid.max_value)
    assert tops == {view.runner.state.filter.max_counter}       # 2^c − 1 at every step: one colour per value
    assert view.grid.labels_show_values()


def test_a_scalable_filters_stages_are_outlined_in_the_lesson(view):
    view.load_builtin("7")
    view.go_to(len(view.lesson.steps))
    stages = view.runner.state.filter.stages
    assert len(view.grid.bands()) == len(stages) > 1
    assert "stages" in view.legend.text()
