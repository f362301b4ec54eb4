"""The window's model without Qt: operations return records, one event per operation, jobs stepped by hand.

None of these tests needs ``qtbot``; the first checks in a fresh interpreter that importing the model and
its words loads no Qt at all.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import mmh3
import pytest

from bloomviz.explain.operations import explain, hover_text
from bloomviz.hashing import schemes
from bloomviz.workbench.model import Events, Workbench
from bloomviz.workbench.records import Operation
from bloomviz.vocabulary import Verdict


def test_the_model_and_its_words_load_no_qt():
    code = ("import sys, bloomviz.workbench.model, bloomviz.explain.operations, bloomviz.explain.variants\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'))\n"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


class Recorder:
    """Every event the model emits, in order, as (name, args)."""

    def __init__(self, wb: Workbench):
        self.seen: list[tuple[str, tuple]] = []
        for name in Events.NAMES:
            getattr(wb.events, name).connect(lambda *args, _n=name: self.seen.append((_n, args)))

    def names(self) -> list[str]:
        return [name for name, _ in self.seen]


@pytest.fixture
def wb():
    model = Workbench(probes=500)
    assert model.configure(64, 3)
    return model


def test_one_insert_is_one_event_carrying_a_frozen_record(wb):
    rec = Recorder(wb)
    ins = wb.insert("apple")
    assert rec.names() == ["operated"]
    (record,) = rec.seen[0][1]
    assert isinstance(record, Operation) and record.op == "insert" and record.verdict == Verdict.INSERTED
    assert record.positions == tuple(ins.positions) and len(record.kinds) == 3
    assert set(record.changed.tolist()) == {p for p, new in zip(ins.positions, ins.newly_set) if new}
    assert record.history is wb.history[-1] and record.numbers.n == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.op = "lookup"


def test_lookups_are_classified_against_the_truth_and_culprits_named(wb):
    assert wb.configure(16, 2)
    inserted = [f"item{i}" for i in range(6)]
    for x in inserted:
        wb.insert(x)
    flt = wb.filter
    fp_item = next(c for c in (f"probe-{i}" for i in range(100_000)) if c in flt)
    absent = next(c for c in (f"other-{i}" for i in range(100_000)) if c not in flt)
    assert wb.lookup("item3") and wb.last_record.verdict == Verdict.TRUE_POSITIVE
    wb.lookup(absent)
    assert wb.last_record.verdict == Verdict.TRUE_NEGATIVE and "zero" in wb.last_record.kinds
    wb.lookup(fp_item)
    record = wb.last_record
    assert record.verdict == Verdict.FALSE_POSITIVE and "culprit" in record.kinds
    for position, (names, total) in record.culprits.items():
        assert total >= 1 and all(position in flt.positions(x) for x in names)
    words = explain(record, wb.state)
    assert words.headline == "FALSE POSITIVE" and fp_item in words.verdict_text
    assert wb.status()["false_positives"] == 1 and wb.status()["lookups"] == 3


def test_a_refusal_changes_nothing_and_says_why(wb):
    wb.insert("kept")
    before = (len(wb.history), wb.filter.bits_set, len(wb.series))
    rec = Recorder(wb)
    assert wb.insert("") is None
    assert rec.names() == ["error"] and "empty" in rec.seen[0][1][0]
    assert (len(wb.history), wb.filter.bits_set, len(wb.series)) == before


def test_a_job_is_stepped_by_whoever_owns_the_clock(wb):
    rec = Recorder(wb)
    items = [f"word{i}" for i in range(5_000)]
    assert wb.insert_many(items, label="words") and wb.busy
    steps = 0
    while wb.step_job():
        steps += 1
    assert not wb.busy and steps >= 1
    assert len(wb.filter) == 5_000 and wb.items == items
    names = rec.names()
    assert names[0] == "busy_changed" and names[-1] == "job_finished"
    assert rec.seen[-1][1] == (5_000, 5_000, False)
    assert wb.series.column("n")[-1] == 5_000


def test_an_atomic_job_that_fails_puts_everything_back(wb):
    wb.insert("before")
    state = (len(wb.filter), wb.filter.bits_set, len(wb.history), len(wb.series))
    sent = [0]

    def source(count):
        if sent[0] >= 1_000:
            raise OSError("the disk went away")
        sent[0] += count
        return [f"x{sent[0]}-{i}" for i in range(count)]

    rec = Recorder(wb)
    assert wb.run_job(source, 10_000, label="lines", atomic=True)
    wb.run_to_end()
    assert (len(wb.filter), wb.filter.bits_set, len(wb.history), len(wb.series)) == state
    assert any(name == "error" and "disk went away" in args[0] for name, args in rec.seen)
    assert rec.seen[-1] == ("job_finished", (rec.seen[-1][1][0], 10_000, True))


def test_a_snapshot_brings_back_a_replaced_filter_exactly(wb):
    for i in range(20):
        wb.insert(f"mine{i}")
    wb.lookup("nothing-here")
    snap = wb.snapshot()
    history, bits = list(wb.history), wb.filter.bits.copy()
    wb.configure(1024, 5)
    wb.insert("someone else's")
    wb.restore(snap)
    assert wb.history == history and wb.filter.bits == bits and wb.items == [f"mine{i}" for i in range(20)]
    assert wb.is_member("mine7") and not wb.is_member("someone else's")


def test_the_hover_names_the_items_that_set_a_bit(wb):
    ins = wb.insert("pear")
    p = ins.positions[0]
    text = hover_text(wb.state, p, int(wb.cell_values([p])[0]))
    assert text.startswith(f"bit {p:,} = 1") and "pear" in text


def test_one_insert_hashes_its_item_once(wb, monkeypatch):
    """The filter, the truth and the explanation all ask for the item's hash; MurmurHash runs once."""
    calls = []
    real = mmh3.hash_bytes
    monkeypatch.setattr(schemes.mmh3, "hash_bytes", lambda *a: calls.append(a) or real(*a))
    schemes._murmur_halves_kept.cache_clear()
    wb.insert("hashed once")
    explain(wb.last_record, wb.state)      # the explain panel's arithmetic, from the same hashing
    wb.lookup("hashed once")
    explain(wb.last_record, wb.state)
    assert [args[0] for args in calls] == [b"hashed once"]


def test_undo_takes_back_operations_and_replacements_in_order(wb):
    wb.insert("one")
    after_one = (wb.filter.bits.copy(), list(wb.history), len(wb.series))
    wb.insert("two")
    wb.lookup("three")
    assert wb.undo_what == ("lookup", "three")
    assert wb.undo() and wb.undo_what == ("insert", "two")
    assert wb.undo()
    assert (wb.filter.bits, wb.history, len(wb.series)) == after_one
    assert wb.is_member("one") and not wb.is_member("two")
    wb.configure(128, 4)                      # a new filter: undo brings the old one back, whole
    wb.insert("on the new filter")
    assert wb.undo() and wb.filter.m == 128 and len(wb.filter) == 0
    assert wb.undo() and wb.filter.m == 64 and wb.items == ["one"]
    assert wb.undo() and len(wb.filter) == 0


def test_undo_of_a_job_takes_it_back_whole_and_a_refusal_leaves_nothing_to_undo(wb):
    wb.insert("first")
    wb.insert_many([f"w{i}" for i in range(3_000)])
    wb.run_to_end()
    assert wb.insert("") is None              # refused: nothing changed, nothing to undo for it
    assert wb.undo_what[0] == "insert batch"
    assert wb.undo() and wb.items == ["first"]


def test_undo_on_a_growing_filter_takes_items_back_from_the_truth():
    wb = Workbench(probes=200)
    assert wb.configure(variant="scalable", initial_capacity=50, p=0.01)
    for i in range(120):                   # past the first stage
        wb.insert(f"s{i}")
    wb.insert("s3")                        # inserted twice: still a member after one undo
    assert wb.undo() and wb.is_member("s3") and len(wb.filter) == 120
    assert wb.undo() and not wb.is_member("s119") and wb.is_member("s118")


def test_nothing_to_undo_is_said(wb):
    rec = Recorder(wb)
    while wb.undo():
        pass
    assert rec.seen[-1] == ("notice", ("Nothing to undo.",))


def test_undo_keeps_within_its_memory_budget():
    from types import SimpleNamespace

    from bloomviz.workbench.undo import UndoStack
    stack = UndoStack(depth=50, budget=10_000)
    checkpoint = SimpleNamespace(flt=SimpleNamespace(nbytes=lambda: 4_000))   # a 4,000-byte filter copy
    for i in range(10):
        stack.push(("insert", i), checkpoint)
    assert len(stack) == 2 and stack.label == ("insert", 9)
    stack.push(("insert", "huge"), SimpleNamespace(flt=SimpleNamespace(nbytes=lambda: 20_000)))
    assert len(stack) == 0     # a step too large to keep: nothing before it can be undone either


def test_restore_forgets_the_replaced_filters_undo_steps_even_with_a_full_stack(wb):
    for i in range(60):                       # more steps than the stack keeps: the oldest are dropped
        wb.insert(f"mine{i}")
    snap = wb.snapshot()
    wb.configure(256, 3)
    for i in range(3):
        wb.insert(f"scenario{i}")
    wb.restore(snap)                          # a scenario's Cancel
    assert wb.undo_what == ("insert", "mine59")
    assert wb.undo() and wb.items == [f"mine{i}" for i in range(59)] and wb.filter.m == 64


def test_undo_after_a_quiet_replacement_brings_back_the_filter_before_it(wb):
    wb.insert("pear")
    with wb.quiet():                          # a session's Open
        wb.configure(128, 4)
        wb.insert("from the session")
    assert wb.undo_what == ("new filter", None)
    assert wb.undo() and wb.filter.m == 64 and wb.items == ["pear"]


def test_a_restored_snapshot_measures_on_its_own_probes_and_seed(wb):
    wb.insert("kept")
    probes, seed = list(wb.probes), wb.probe_seed
    snap = wb.snapshot()
    wb.set_probe_count(300)                   # a cancelled Open changes these before its filter goes in
    wb.set_probe_seed(7)
    wb.configure(128, 4)
    wb.restore(snap)
    assert wb.probes == probes and wb.probe_seed == seed and len(wb.probes) == 500
    wb.configure(32, 2)                       # the next filter is drawn from the restored settings
    assert len(wb.probes) == 500


def test_a_removal_that_clears_no_counter_keeps_the_plots_n_right():
    wb = Workbench(probes=200)
    assert wb.configure(256, 3, variant="counting")
    wb.insert("a")
    wb.insert("a")
    assert wb.remove("a") is not None         # counters 2 -> 1: none reaches 0
    wb.insert_batch([f"b{i}" for i in range(5)])
    assert list(wb.series.column("n")[-5:]) == [2, 3, 4, 5, 6] and len(wb.filter) == 6


def test_undo_keeps_a_changed_probe_count(wb):
    wb.set_probe_count(1_000)
    wb.insert("x")
    wb.set_probe_count(300)
    assert wb.undo() and len(wb.probes) == 300 and not wb.is_member("x")


def test_a_job_that_made_nothing_leaves_nothing_to_undo(wb):
    wb.insert("before")
    assert wb.insert_many([f"w{i}" for i in range(100)], label="words")
    wb.cancel()                               # before its first chunk
    assert wb.undo_what == ("insert", "before")


def test_a_lookup_is_undone_without_copying_the_filter(wb):
    wb.insert("one")
    wb.lookup("two")
    assert wb.undo_stack._steps[-1].saved.flt is None
    assert wb.undo() and wb.status()["lookups"] == 0 and wb.is_member("one")
