"""Undo of a typed insert by its inverse: the filter takes back its own insert (``take_back``) instead of the
undo step holding a copy of it. After insert + undo the whole state is the one before: bits or counters, the
truth (items, rows of positions, counts), the measured rate, the plot's rows, the history and what undo
would take back next; per variant, with a repeated item and with saturated counters. A variant that cannot
take its insert back (the scalable filter) keeps the copy, and is put back as exactly."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters import capabilities
from bloomviz.workbench.model import Workbench

VARIANTS = {"standard": dict(m=256, k=3), "counting": dict(m=256, k=3, counter_bits=4),
            "partitioned": dict(m=256, k=4), "blocked": dict(m=1024, k=3),
            "scalable": dict(initial_capacity=10, p=0.01)}
SERIES = ("n", "fp_measured", "fill", "n_estimated", "fp_exact", "fp_low", "fp_high")


def _bench(variant: str, **params) -> Workbench:
    wb = Workbench(probes=500)
    assert wb.configure(variant=variant, **params)
    return wb


def full_state(wb: Workbench) -> dict:
    s = wb.state
    truth = s.truth
    nums = wb.numbers()
    return {
        "cells": capabilities.grid_values(wb.filter).copy(),
        "counts": (len(wb.filter), wb.filter.bits_set, wb.filter.m),
        "items": list(wb.items),
        "rows": truth.rows.view().copy() if truth.rows is not None else None,
        "keys": dict(truth.keys) if truth.keys is not None else None,
        "removed": dict(truth.removed),
        "measured": (s.measure.fp_count, s.measure.pipeline.n, nums.fp_measured, nums.fill, nums.n_estimated),
        "series": {c: wb.series.column(c).copy() for c in SERIES},
        "history": [(e.index, e.op, e.label, e.verdict, e.n, e.fp_measured, e.fill) for e in wb.history],
        "undo_what": wb.undo_what,
        "probes": list(wb.probes),
    }


def assert_same(after: dict, before: dict) -> None:
    assert after.keys() == before.keys()
    for key, want in before.items():
        got = after[key]
        if key == "rows" and want is not None:
            assert np.array_equal(got, want), key
        elif key == "cells":
            assert np.array_equal(got, want), key
        elif key == "series":
            for c in SERIES:
                assert np.array_equal(got[c], want[c], equal_nan=True), c
        else:
            assert got == want, key


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_insert_then_undo_puts_the_whole_state_back(variant):
    wb = _bench(variant, **VARIANTS[variant])
    for i in range(8):
        wb.insert(f"item {i}")
    wb.lookup("item 3")
    # a new item, then a repeated one (its bits already set: nothing newly set to clear), each undone
    for item in ("a new one", "item 5"):
        before = full_state(wb)
        assert wb.insert(item) is not None
        assert wb.undo_what == ("insert", item)
        assert wb.undo()
        assert_same(full_state(wb), before)
    # several in a row, undone newest first, back to the state before all of them
    before = full_state(wb)
    for item in ("x", "y", "x", "item 1"):
        wb.insert(item)
    for _ in range(4):
        assert wb.undo()
    assert_same(full_state(wb), before)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "scalable"])
def test_a_variant_that_takes_back_its_insert_keeps_no_copy_of_the_filter(variant, monkeypatch):
    wb = _bench(variant, **VARIANTS[variant])
    wb.insert("first")
    before = full_state(wb)

    def no_copy(self):
        raise AssertionError("the filter was copied for an insert's undo step")

    monkeypatch.setattr(type(wb.filter), "copy", no_copy)
    assert wb.insert("second") is not None
    assert wb.undo()
    monkeypatch.undo()
    assert_same(full_state(wb), before)


def test_saturated_counters_stay_where_the_insert_left_them_alone():
    # 2-bit counters saturate at 3: the fourth insert of one item raises none of its counters, the third
    # raises them to 3; undoing each lowers exactly the counters that insert raised
    wb = _bench("counting", m=64, k=3, counter_bits=2)
    wb.insert("other")
    states = [full_state(wb)]
    for _ in range(5):
        assert wb.insert("same") is not None
        states.append(full_state(wb))
    top = wb.filter.max_counter
    assert top == 3 and all(wb.filter.counter(p) == top for p in wb.filter.positions("same"))
    for want in reversed(states[:-1]):
        assert wb.undo()
        assert_same(full_state(wb), want)


def test_one_bit_counters_saturate_at_once_and_undo_is_still_exact():
    wb = _bench("counting", m=32, k=4, counter_bits=1)
    states = [full_state(wb)]
    for item in ("a", "b", "a", "c", "b"):   # at m = 32 and k = 4, shared and saturated cells are the rule
        wb.insert(item)
        states.append(full_state(wb))
    for want in reversed(states[:-1]):
        assert wb.undo()
        assert_same(full_state(wb), want)


def test_undo_of_an_insert_after_a_removal_and_a_job_goes_back_in_order():
    wb = _bench("counting", m=128, k=3, counter_bits=4)
    for i in range(5):
        wb.insert(f"i{i}")
    states = [full_state(wb)]
    wb.remove("i2")                 # a removal keeps a copy
    states.append(full_state(wb))
    wb.insert_many([f"j{i}" for i in range(40)])
    wb.run_to_end()                 # one step for the whole job
    states.append(full_state(wb))
    wb.insert("typed")              # taken back by the filter
    for want in reversed(states):
        assert wb.undo()
        assert_same(full_state(wb), want)


def test_an_insert_taken_back_from_the_copy_a_later_removal_put_back():
    # undoing the removal puts back its copy of the filter (a new object); the insert before it is then taken
    # back from that copy
    wb = _bench("counting", m=128, k=3, counter_bits=4)
    wb.insert("kept")
    before = full_state(wb)
    wb.insert("gone")
    wb.remove("gone")
    assert wb.undo() and wb.undo_what == ("insert", "gone") and wb.undo()
    assert_same(full_state(wb), before)
