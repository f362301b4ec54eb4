"""Workbench state handling: checkpoint and rollback, all-or-nothing jobs, filters installed from elsewhere."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest

from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import random_items
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.vocabulary import Verdict


@pytest.fixture
def wb(qtbot):
    bench = QtWorkbench(probes=1_000)
    yield bench
    bench.cancel()


def state(wb: QtWorkbench):
    return (wb.filter.bits.tobytes(), len(wb.filter), len(wb.items), len(wb.series), len(wb.history),
            wb.tracker.fp_count, wb.status()["lookups"], list(wb.series.column("fp_measured")))


def test_rollback_restores_filter_truth_measurement_plot_and_history(wb, qtbot):
    wb.insert_batch(random_items(150, seed=1))
    wb.lookup("absent")
    before = state(wb)
    cp = wb.checkpoint()
    wb.insert_batch(random_items(300, seed=2))
    wb.insert("late")
    wb.lookup("late")
    assert state(wb) != before
    with qtbot.waitSignal(wb.filterReset):
        wb.rollback(cp)
    assert state(wb) == before
    assert not wb.is_member("late")
    # the restored tracker agrees with a fresh measurement of the restored bits
    assert wb.tracker.fp_count == int(np.count_nonzero(wb.filter.contains_many(wb.probes)))


def test_a_cancelled_atomic_job_leaves_everything_as_before(wb, qtbot):
    wb.insert_batch(random_items(50, seed=3))
    before = state(wb)
    items = random_items(400_000, seed=4)
    pos = [0]

    def source(count):
        chunk = items[pos[0]: pos[0] + min(count, 1_000)]
        pos[0] += len(chunk)
        return chunk

    assert wb.run_job(source, len(items), "test items", atomic=True)
    qtbot.waitUntil(lambda: len(wb.filter) > 2_000, timeout=10_000)
    with qtbot.waitSignal(wb.jobFinished) as finished:
        wb.cancel()
    assert finished.args[2] is True
    assert state(wb) == before


def test_a_failing_source_ends_an_atomic_job_with_a_message_and_no_change(wb, qtbot):
    before = state(wb)
    calls = [0]

    def source(count):
        calls[0] += 1
        if calls[0] > 2:
            raise OSError("disk gone")
        return random_items(min(count, 500), seed=calls[0])

    errors = []
    wb.error.connect(errors.append)
    with qtbot.waitSignal(wb.jobFinished, timeout=10_000):
        wb.run_job(source, 10_000, "lines", atomic=True)
    assert any("disk gone" in e for e in errors)
    assert state(wb) == before


def test_a_failing_source_without_atomic_keeps_whole_chunks(wb, qtbot):
    calls = [0]

    def source(count):
        calls[0] += 1
        if calls[0] > 2:
            raise ValueError("line 9 is bad")
        return random_items(min(count, 500), seed=calls[0])

    with qtbot.waitSignal(wb.jobFinished, timeout=10_000):
        wb.run_job(source, 10_000, "lines")
    assert len(wb.filter) == len(wb.items) == len(wb.series) == 1_000


def test_installed_filter_without_items_cannot_call_a_positive_true_or_false(wb, qtbot):
    flt = BloomFilter(64, 3)
    flt.update(["a", "b", "c"])
    with qtbot.waitSignal(wb.filterReset):
        assert wb.install_filter(flt, note="loaded from test.bloom")
    assert wb.filter is flt and not wb.truth_known
    assert wb.last_explanation.verdict_text == "loaded from test.bloom"
    wb.lookup("a")
    assert wb.history[-1].verdict == Verdict.MAYBE_PRESENT


def test_installed_filter_with_items_classifies_lookups(wb):
    flt = BloomFilter(16, 2)
    members = random_items(40, seed=5)
    flt.update(members)
    assert wb.install_filter(flt, items=members)
    assert wb.truth_known and len(wb.items) == 40
    wb.lookup(members[0])
    assert wb.history[-1].verdict == Verdict.TRUE_POSITIVE
    outsider = next(x for x in random_items(500, seed=6) if x in flt and x not in members)
    wb.lookup(outsider)
    assert wb.history[-1].verdict == Verdict.FALSE_POSITIVE


def test_explain_note_reaches_the_explain_signal(wb, qtbot):
    with qtbot.waitSignal(wb.noted) as sig:
        wb.explain_note("Spell checker", "Every English word goes in.")
    expl = wb.explanation(sig.args[0])     # built when asked, from the note
    assert expl.op == "Spell checker" and "English" in expl.verdict_text
