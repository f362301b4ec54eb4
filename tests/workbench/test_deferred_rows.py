"""A generated run's rows of positions are made when a scan first reads them (workbench/position_rows.py): the
same rows an insert would have stored, membership answered without making them, undo cutting through them."""

import numpy as np

from bloomviz.filters.generated_positions import positions as generated_positions
from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.workbench.model import Workbench


def _play(wb: Workbench, source: GeneratedItems, start: int, stop: int, chunk: int = 700) -> None:
    for a in range(start, stop, chunk):
        assert wb.insert_batch(GeneratedRun(source, a, min(stop, a + chunk)))


def _deferred(wb: Workbench) -> int:
    return sum(len(run) for _, run in wb.state.truth.rows.rows_made()[1])


def test_deferred_rows_are_the_rows_an_insert_stores_and_membership_needs_none_of_them():
    source = GeneratedItems(10 ** 6, seed=7)
    wb = Workbench(probes=500)
    wb.configure(60_000, 5, capacity=10_000)
    wb.insert("typed first")
    _play(wb, source, 0, 3_000)
    wb.insert("typed between")
    _play(wb, source, 3_000, 5_000)
    assert _deferred(wb) == 5_000, "both runs wait, the chunks of each joined"
    assert wb.is_member(source[4_321]) and wb.is_member("typed between") and not wb.is_member(source[5_000])
    assert wb.lookup(source[17]).maybe_present
    assert _deferred(wb) == 5_000, "membership made no rows"
    flt = wb.filter
    expected = np.concatenate([np.array([flt.positions("typed first")]), generated_positions(flt, source, 0, 3_000),
                               np.array([flt.positions("typed between")]),
                               generated_positions(flt, source, 3_000, 5_000)])
    assert np.array_equal(wb.state.truth.rows.view(), expected) and _deferred(wb) == 0
    cell = int(expected[2_500, 3])
    names, _ = wb.items_at_bit(cell)
    assert source[2_499] in names


def test_undo_cuts_through_deferred_rows_and_culprits_stay_true():
    source = GeneratedItems(10 ** 6, seed=8)
    wb = Workbench(probes=500)
    wb.configure(4_000, 4, capacity=10_000)
    _play(wb, source, 0, 2_000, chunk=2_000)
    wb.insert("after")
    _play(wb, source, 2_000, 2_900, chunk=900)
    assert wb.undo() and wb.undo()                   # back to the first run alone, its rows still deferred
    truth = wb.state.truth
    assert len(truth.rows) == 2_000 and _deferred(wb) == 2_000 and not wb.is_member("after")
    _play(wb, source, 2_000, 2_300, chunk=300)       # the same generator goes on: one deferred run again
    assert [len(run) for _, run in truth.rows.rows_made()[1]] == [2_300]
    rows = truth.rows.view()
    assert np.array_equal(rows, generated_positions(wb.filter, source, 0, 2_300))
    cell = int(rows[1_000, 0])
    expected = {source[i] for i in np.flatnonzero((rows == cell).any(axis=1))}
    names, total = wb.items_at_bit(cell, limit=10 ** 6)
    assert set(names) == expected and total == len(expected)
