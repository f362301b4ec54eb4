"""A generated run's rows of positions are made when a scan first reads them (workbench/truth.py, PositionRows): the
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


def test_rows_made_a_slice_at_a_time_answer_as_all_made_and_undo_mid_fill_cuts_the_rest():
    source = GeneratedItems(10 ** 6, seed=9)
    wb, twin = Workbench(probes=300), Workbench(probes=300)
    for bench in (wb, twin):
        bench.configure(6_000, 4, capacity=10_000)
        _play(bench, source, 0, 3_000, chunk=1_000)
        bench.insert("typed")
        _play(bench, source, 3_000, 4_000, chunk=1_000)
    expected = twin.state.truth.rows.view()
    rows = wb.state.truth.rows
    cells = [int(c) for c in expected[[5, 2_999, 3_500]].ravel()]
    assert rows.make_some(1_200) and rows.deferred_rows == 2_800, "a slice, part of the first run"
    assert rows.make_some(1_000) and rows.deferred_rows == 1_800, "the first run's rest, then the next"
    made, waiting = rows.rows_made()
    assert [(first, len(run)) for first, run in waiting] == [(2_200, 800), (3_001, 1_000)]
    assert np.array_equal(made[0][1][:2_200], expected[:2_200]), "the rows made are the insert's"
    assert wb.is_member(source[2_500]) and wb.is_member(source[100]) and not wb.is_member(source[4_000])
    assert rows.make_some(500) and rows.deferred_rows == 1_300
    assert wb.undo() and rows.deferred_rows == 300 and len(rows) == 3_001, "undo cut the waiting run"
    assert twin.undo()
    while rows.make_some(128):
        pass
    assert np.array_equal(rows.view(), twin.state.truth.rows.view())
    for cell in cells:
        assert wb.items_at_bit(cell, limit=10 ** 6) == twin.items_at_bit(cell, limit=10 ** 6)


def test_a_scan_mid_fill_makes_the_rest_and_answers_as_all_made():
    source = GeneratedItems(10 ** 6, seed=10)
    wb, twin = Workbench(probes=300), Workbench(probes=300)
    for bench in (wb, twin):
        bench.configure(5_000, 3, capacity=10_000)
        _play(bench, source, 0, 2_500, chunk=500)
    twin.state.truth.rows.view()
    assert wb.state.truth.rows.make_some(1_000) and _deferred(wb) == 1_500
    cell = int(twin.state.truth.rows.view()[2_400, 1])
    assert wb.items_at_bit(cell, limit=10 ** 6) == twin.items_at_bit(cell, limit=10 ** 6) and _deferred(wb) == 0


def test_a_long_run_keeps_its_rows_on_small_pages_and_makes_them_the_same():
    # 300,000 rows of k = 5 (6 MB): on a mapping of its own with small pages (small_pages.py), where the idle
    # turns making them write in order; the rows are those the insert used, typed ones kept around the run
    import mmap
    source = GeneratedItems(10 ** 6, seed=3)
    wb = Workbench(probes=200)
    wb.configure(2_000_000, 5, capacity=300_000)
    wb.insert("before")
    wb.state.truth.rows.reserve(300_001)
    _play(wb, source, 0, 300_000, chunk=50_000)
    rows = wb.state.truth.rows
    base = rows.rows_made()[0][0][1]      # the typed row: a view of the rows' one array
    while isinstance(base, np.ndarray):
        base = base.base
    assert not hasattr(mmap, "MADV_NOHUGEPAGE") or isinstance(getattr(base, "obj", base), mmap.mmap)
    while rows.make_some(1 << 13):
        pass
    flt = wb.filter
    assert np.array_equal(rows.view(), np.concatenate([np.array([flt.positions("before")]),
                                                       generated_positions(flt, source, 0, 300_000)]))
