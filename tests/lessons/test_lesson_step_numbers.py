"""What the Lesson tab writes under the grid, without Qt: the numbers a step computed (design, formulas, an
ensemble, Kedmi's test) in words, the filter's line (with what a question hides left out), who set a phantom's
bits, and which steps are about other filters than the one on the grid."""

from __future__ import annotations

from bloomviz import lessons
from bloomviz.lessons import step_numbers


def _reports(name: str) -> list[dict]:
    return lessons.check(lessons.load_builtin(name))


def test_a_design_step_says_its_k_m_and_bound():
    (line,) = step_numbers.computed_lines(_reports("04-choosing-m-and-k")[0])
    assert line.startswith("Design for n = 1,000,000 at p = 1 %: k = 7, m = 9,585,059 bits, 9.59 bits per item")
    assert "log₂(1/p) is 6.64" in line


def test_brainflayers_rates_are_one_line_per_n_with_the_size_in_mib():
    lines = step_numbers.computed_lines(_reports("08-the-real-world")[3])
    assert lines[0] == "Formulas for m = 4,294,967,296 bits (512.00 MiB), k = 20:"
    assert lines[1].startswith("n = 440,000,000: Bloom's formula 0.06333") and len(lines) == 5


def test_an_ensemble_names_the_filters_it_drew_and_its_interval():
    (line,) = step_numbers.computed_lines(_reports("05-hashing-matters")[0])
    assert line.startswith("5,000 random filters of m = 64, k = 4 (murmur3-km), n = 12 each: mean measured rate")
    assert "95 % interval" in line


def test_kedmis_garbage_start_is_said_and_its_exact_rate_is_labelled_as_a_zeroed_starts():
    report = _reports("08-the-real-world")[2]
    (line,) = step_numbers.computed_lines(report)
    assert "169,851 bits (36 %) set before any key" in line and "212 of 10,000" in line
    parts = step_numbers.filter_line(report, standard_formulas=True)
    assert any(p.startswith("exact for a zeroed start") for p in parts)
    assert not any(p.startswith("Bloom's formula") for p in parts)


def test_a_phantom_names_who_set_its_bits_and_a_hidden_field_is_left_out():
    report = _reports("01-what-is-a-bloom-filter")[-1]
    parts = step_numbers.filter_line(report, standard_formulas=True)
    assert "its bits set by: 23 ← k4; 17 ← k3; 5 ← k2" in parts
    hidden = step_numbers.filter_line({**report, "last": None, "bits_set": None}, standard_formulas=True)
    assert not any(p.startswith(("last:", "its bits", "bits set")) for p in hidden)


def test_counters_are_listed_and_a_self_set_phantom_names_no_one():
    report = _reports("06-deleting-with-counting-filters")[-1]          # S stuck at 3, removed four times
    parts = step_numbers.filter_line(report, standard_formulas=True, counters={10: 3, 11: 3, 12: 3})
    assert "counters: [10] = 3, [11] = 3, [12] = 3" in parts
    assert not any(p.startswith("its bits set by") for p in parts)


def test_theory_steps_are_told_from_steps_that_change_the_filter():
    lesson = lessons.load_builtin("05-hashing-matters")
    assert [step_numbers.theory_only(s) for s in lesson.steps] == [True, True, True, False, True]
    lesson = lessons.load_builtin("03-the-math")
    assert [step_numbers.theory_only(s) for s in lesson.steps] == [False, True, True]
