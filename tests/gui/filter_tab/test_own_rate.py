"""A filter the standard formulas do not describe shows its own rate: a scalable filter's Explain and lesson
report give the rate of its stages, not a standard filter's "with the same m and k" (it has no single m and k:
that number was 88× too small in lesson 7)."""

from __future__ import annotations

import math

from bloomviz import lessons
from bloomviz.explain.operations import explain
from bloomviz.items.encoding import random_items
from bloomviz.theory import rates as theory
from bloomviz.workbench.model import Workbench


def _scalable():
    wb = Workbench(probes=2_000)
    assert wb.configure(variant="scalable", initial_capacity=60, p=0.02, growth=2, tightening=0.8)
    wb.insert_batch(random_items(1_000, seed=3))
    wb.lookup("a stranger")
    return wb


def test_a_scalable_filters_numbers_are_its_own():
    wb = _scalable()
    nums = wb.numbers()
    flt = wb.filter
    assert nums.own_theory and not nums.single_mk
    assert nums.fp_own == flt.theory_fp() and nums.fp_own_now == flt.expected_fp
    # the standard formula with the total m and the last stage's k is far below: not this filter's rate
    assert theory.fp_exact(flt.m, flt.k, len(flt)) < nums.fp_own / 10
    assert wb.status()["fp_now"] == flt.expected_fp
    assert nums.fp_low <= nums.fp_own <= nums.fp_high


def test_the_explain_panel_shows_the_stages_rate_and_no_single_m_and_k(qtbot):
    from bloomviz.gui.filter_tab.explain_panel import explanation_html
    wb = _scalable()
    page = explanation_html(explain(wb.state.last, wb.state))
    assert "This filter's own rate" in page and "same m and k" not in page
    assert f"{wb.numbers().fp_own:.4g}" in page


def test_a_partitioned_filter_shows_its_own_rate_then_the_standard_one_for_comparison(qtbot):
    from bloomviz.gui.filter_tab.explain_panel import explanation_html
    wb = Workbench(probes=1_000)
    assert wb.configure(variant="partitioned", m=3000, k=4)
    wb.insert_batch(random_items(300, seed=1))
    wb.lookup("x")
    nums = wb.numbers()
    assert nums.own_theory and nums.single_mk and math.isclose(nums.fp_own_now, wb.filter.expected_fp)
    page = explanation_html(explain(wb.state.last, wb.state))
    assert page.index("This filter's own rate") < page.index("for comparison: a standard filter with the same m")


def test_lesson_7_reports_no_blooms_formula_for_the_scalable_filter():
    fixed, scalable = lessons.check(lessons.load_builtin("7"))
    assert scalable["variant"] == "scalable" and scalable["classic_rate"] is None
    assert fixed["classic_rate"] is not None
    assert scalable["exact_rate"] > 0.002


def test_a_counting_filter_after_a_forced_removal_shows_the_rate_its_counters_give(qtbot):
    from bloomviz.gui.filter_tab.explain_panel import explanation_html
    from bloomviz.gui.window.status import status_text
    wb = Workbench(probes=1_000)
    assert wb.configure(variant="counting", m=2000, k=3)
    items = random_items(200, seed=2)
    wb.insert_batch(items)
    wb.remove(items[0])   # a member's clean removal: the filter is again n fresh inserts
    assert not wb.numbers().after_removals and "theory" in status_text(wb.status())
    stranger = next(x for x in (f"s{i}" for i in range(100_000)) if x in wb.filter and not wb.is_member(x))
    assert wb.remove(stranger, force=True) is not None
    assert wb.numbers().after_removals
    page = explanation_html(explain(wb.state.last, wb.state))
    assert "the rate its counters give now" in page and "not this filter" in page
    assert "its counters give" in status_text(wb.status())
    wb.undo()
    assert not wb.numbers().after_removals
    report = lessons.check(lessons.load_builtin("6"))
    assert "counters_rate" not in report[1] and report[2]["counters_rate"] == (3 / 16) ** 3
