"""Generated runs through the window's model: the same filter, plot, truth and answers as the same items typed
as strings, with the items kept as runs (no string per item) and read back by index."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.measure.streams import DrawnItems
from bloomviz.workbench.truth import ItemLog
from bloomviz.workbench.model import Workbench
from bloomviz.vocabulary import Verdict

M, K, N = 20_000, 5, 10_000


def _pair(scheme: str = "murmur3-km", variant: str = "standard"):
    """Two models on the same filter: one fed runs, one fed the runs' strings, in the same chunks."""
    gen = GeneratedItems(2 ** 63 - 1, seed=3, prefix="i")
    runs, texts = Workbench(probes=2_000), Workbench(probes=2_000)
    for wb in (runs, texts):
        assert wb.configure(M, K, scheme=scheme, variant=variant)
    for start, stop in ((0, 1), (1, 4_000), (4_000, 4_000), (4_000, N)):
        run = GeneratedRun(gen, start, stop)
        assert runs.insert_batch(run) == len(run) == texts.insert_batch(run.texts())
    return gen, runs, texts


def _same_state(a: Workbench, b: Workbench) -> None:
    if hasattr(a.filter, "bits"):
        assert a.filter.bits == b.filter.bits
    else:
        np.testing.assert_array_equal(a.grid_values(), b.grid_values())
    assert len(a.filter) == len(b.filter)
    assert a.state.measure.fp_count == b.state.measure.fp_count
    for column in a.series.COLUMNS:
        np.testing.assert_array_equal(a.series.column(column), b.series.column(column))
    np.testing.assert_array_equal(a.state.truth.rows.view(), b.state.truth.rows.view())
    assert a.items == b.items and len(a.items) == len(b.items)


@pytest.mark.parametrize("scheme", ["murmur3-km", "murmur3-mix", "murmur3-seeded"])
def test_a_run_inserts_exactly_what_its_strings_insert(scheme):
    gen, runs, texts = _pair(scheme)
    _same_state(runs, texts)
    assert runs.state.truth.items.typed_count == 0 and len(runs.state.truth.items.runs()) == 1   # one run, no strings
    assert texts.state.truth.items.typed_count == N


def test_truth_of_a_run_answers_as_for_strings():
    gen, runs, texts = _pair()
    inside = [gen[0], gen[1], gen[3_999], gen[N - 1]]
    outside = [gen[N], gen[N + 50], "p" + gen[0][1:], "stranger"]
    for item in inside:
        assert runs.is_member(item) and texts.is_member(item)
    for item in outside:
        assert not runs.is_member(item) and not texts.is_member(item)
    for bit in (0, 17, 4_321, M - 1, *[int(p) for p in runs.filter.positions(gen[42])]):
        assert runs.items_at_bit(bit, limit=1_000) == texts.items_at_bit(bit, limit=1_000)
    assert gen[42] in runs.items_at_bit(int(runs.filter.positions(gen[42])[0]), limit=1_000)[0]
    # lookups: a member, a non-member, and false positives with their culprits, classified the same
    verdicts = {}
    for item in inside + outside + GeneratedItems(400, seed=11, prefix="q").texts(0, 400):
        a, b = runs.lookup(item), texts.lookup(item)
        assert (a.maybe_present, runs.last_record.verdict) == (b.maybe_present, texts.last_record.verdict)
        assert runs.last_record.culprits == texts.last_record.culprits
        verdicts[runs.last_record.verdict] = verdicts.get(runs.last_record.verdict, 0) + 1
    assert verdicts.get(Verdict.TRUE_POSITIVE) == 4
    assert verdicts.get(Verdict.TRUE_NEGATIVE) and verdicts.get(Verdict.FALSE_POSITIVE)


def test_typed_items_between_runs_and_undo_of_a_run():
    gen = GeneratedItems(2 ** 63 - 1, seed=5, prefix="i")
    wb = Workbench(probes=500)
    wb.configure(M, K)
    wb.insert("apple")
    assert wb.insert_batch(GeneratedRun(gen, 0, 300)) == 300
    wb.insert("pear")
    assert wb.insert_batch(GeneratedRun(gen, 300, 600)) == 300
    assert wb.items == ["apple", *gen.texts(0, 300), "pear", *gen.texts(300, 600)]
    assert wb.is_member("pear") and wb.is_member(gen[450]) and not wb.is_member(gen[600])
    bits = wb.filter.bits.copy()
    wb.insert_batch(GeneratedRun(gen, 600, 900))
    assert wb.undo() and wb.filter.bits == bits and len(wb.items) == 602
    assert not wb.is_member(gen[700]) and wb.is_member(gen[599])


def test_a_job_of_runs_and_a_probe_prefixed_run():
    gen = GeneratedItems(2 ** 63 - 1, seed=1, prefix="i")
    pos = [0]

    def source(count):
        run = GeneratedRun(gen, pos[0], pos[0] + count)
        pos[0] = run.stop
        return run

    wb = Workbench(probes=1_000)
    wb.configure(M, K)
    assert wb.run_job(source, 7_000, "auto-play items")
    wb.run_to_end()
    assert len(wb.filter) == 7_000 and wb.items[-3:] == gen.texts(6_997, 7_000)
    assert len(wb.state.truth.items.runs()) == 1
    # items that look like probes go in as strings: the probes are then checked against them, as for typed items
    lookalikes = GeneratedItems(50, seed=2, prefix="p")
    assert wb.insert_batch(GeneratedRun(lookalikes, 0, 50)) == 50 and wb.state.truth.items.typed_count == 50


def test_a_run_into_a_filter_measured_otherwise_goes_in_as_strings():
    gen, runs, texts = _pair(variant="partitioned")
    _same_state(runs, texts)


def test_item_log_reads_as_the_list_it_stands_for():
    gen = GeneratedItems(10_000, seed=9, prefix="i")
    log, ref = ItemLog(), []
    for part in (["a", "b"], GeneratedRun(gen, 0, 50), GeneratedRun(gen, 50, 80), ["c"], [],
                 GeneratedRun(gen, 10, 20), ["d", "e"], GeneratedRun(gen, 20, 20)):
        log.extend(part)
        ref.extend(list(part))
    assert log == ref and list(log) == ref and len(log) == len(ref) == 95
    assert len(log.runs()) == 2 and log.typed_count == 5       # 0-50 and 50-80 became one run
    for index in (0, 1, 2, 51, 81, 82, 92, -1, -30):
        assert log[index] == ref[index]
    for sl in (slice(0, 3), slice(1, 90), slice(80, 95), slice(-40, None), slice(5, 5), slice(0, 95, 7)):
        assert log[sl] == ref[sl]
    picks = [94, 0, 60, 60, 3, 85, 81]
    assert log.take(picks) == [ref[i] for i in picks]
    for length in (94, 90, 82, 40, 2, 0):
        log.cut(length)
        assert log == ref[:length]
    with pytest.raises(IndexError):
        log[0]


def test_texts_at_any_indices():
    gen = GeneratedItems(1_000, seed=4, prefix="x")
    idx = [999, 0, 5, 5, 500]
    assert gen.texts_at(idx) == [gen.texts(i, i + 1)[0] for i in idx]
    drawn = DrawnItems(100, seed=4)
    assert drawn.texts_at([7, 3]) == [drawn.texts(7, 8)[0], drawn.texts(3, 4)[0]]
    with pytest.raises(IndexError):
        gen.texts_at([1_000])
    run = GeneratedRun(gen, 10, 20)
    assert run[::3] == gen.texts(10, 20)[::3] and run[-1] == gen[19] and list(run) == gen.texts(10, 20)


def test_cells_scanned_together_in_blocks_name_what_each_scan_names(monkeypatch):
    from bloomviz.workbench import culprits
    gen, runs, _ = _pair()
    t = runs.state.truth
    cells = [int(p) for p in runs.filter.positions(gen[7])] + [0, M - 1, -3, M + 5, 17]
    alone = {c: t.culprits.items_at_bit(c, limit=1_000) for c in cells}
    monkeypatch.setattr(culprits, "SCAN_BLOCK", 1_000)        # blocks that split rows
    assert t.culprits.items_at_bits(cells, limit=1_000) == alone
    assert all(gen[7] in alone[int(p)][0] for p in runs.filter.positions(gen[7]))
    empty = Workbench(probes=10)
    assert empty.state.truth.culprits.items_at_bits([1, 2]) == {1: ([], 0), 2: ([], 0)}


@pytest.mark.parametrize("m", [M, 9_585_059])
def test_an_auto_play_job_goes_by_hash_halves_with_the_same_curve(m, monkeypatch):
    """A job's chunks of generated items into a plain murmur3-mix filter: measured from the items' hash halves,
    no n x k array of positions made (the job lists no changed cells: the grid compares the bits), with the same
    filter, curve (one row per insert) and truth as the same items given as strings in one batch."""
    from bloomviz.workbench import operations
    gen, at = GeneratedItems(2 ** 63 - 1, seed=4, prefix="i"), [0]

    def source(count):
        run = GeneratedRun(gen, at[0], at[0] + min(count, 1_500))    # several chunks
        at[0] = run.stop
        return run

    job, texts = Workbench(probes=2_000), Workbench(probes=2_000)
    for wb in (job, texts):
        assert wb.configure(m, K, scheme="murmur3-mix", capacity=N)
    texts.insert_batch(gen.texts(0, N))

    def no_rows(*args):
        raise AssertionError("a job's run was hashed to an n x k array of positions")

    monkeypatch.setattr(operations, "generated_positions", no_rows)
    assert job.run_job(source, N, "auto-play items")
    job.run_to_end()
    _same_state(job, texts)
    assert len(job.series) == N and (job.state.measure.fp_count > 0 or m > M)     # (a curve that moved)
    assert len(job.state.truth.items.runs()) == 1 and job.state.truth.items.typed_count == 0
