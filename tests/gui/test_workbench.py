"""The workbench: every operation through the one Qt-facing model, checked against brute force."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest

from bloomviz.filters.rows import scheme_of
from bloomviz.filters import bitstore

from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import describe, random_items
from bloomviz.workbench.limits import MAX_ITEM_BYTES, MAX_M
from bloomviz.workbench.limits import design_params
from bloomviz.vocabulary import Verdict
from bloomviz.gui.workbench import QtWorkbench


@pytest.fixture
def wb(qtbot):
    bench = QtWorkbench(probes=2_000)
    yield bench
    bench.cancel()


def snapshot(wb: QtWorkbench):
    return (wb.filter.bits.copy() if hasattr(wb.filter, "bits") else None, len(wb.filter), len(wb.items),
            len(wb.series), len(wb.history), wb.filter.m, wb.filter.k, wb.filter.scheme)


def brute_fp(wb: QtWorkbench) -> int:
    """False positives among the probes, by testing each one's k bits directly."""
    flt = wb.filter
    return sum(all(flt.bits[p] for p in flt.positions(x)) for x in wb.probes)


def assert_consistent(wb: QtWorkbench) -> None:
    n = len(wb.filter)
    assert len(wb.items) == n
    assert len(wb.series) == n
    assert sum(e.count for e in wb.history if e.op != "lookup") == n
    if n:
        assert wb.series.column("n")[-1] == n
        rebuilt = BloomFilter(wb.filter.m, wb.filter.k, wb.filter.scheme)
        rebuilt.update(wb.items)
        assert rebuilt.bits == wb.filter.bits
        fp = brute_fp(wb)
        assert wb.tracker.fp_count == fp
        assert wb.series.column("fp_measured")[-1] == pytest.approx(fp / len(wb.probes))


def test_insert_sets_the_items_bits_and_reports_new_and_old(wb, qtbot):
    wb.configure(64, 3)
    with qtbot.waitSignal(wb.operated) as blocker:
        ins = wb.insert("cat")
    positions = wb.filter.positions("cat")
    assert ins.positions == positions
    rec = blocker.args[0]    # the one signal carries what the views draw: cells, marks, the history row
    assert rec.highlight == positions and rec.history is wb.history[-1]
    assert sorted(rec.changed.tolist()) == sorted(set(positions))
    values = wb.grid_values()
    assert all(values[p] == 1 for p in positions)
    assert int(values.sum()) == len(set(positions))
    entry = wb.history[-1]
    assert (entry.op, entry.verdict, entry.n, entry.positions) == ("insert", Verdict.INSERTED, 1, positions)
    assert wb.last_explanation.kinds == tuple("new" if f else "old" for f in ins.newly_set)
    # a second insert of the same item changes no bit
    with qtbot.assertNotEmitted(wb.error):
        wb.insert("cat")
    assert wb.last_explanation.kinds == ("old",) * 3
    assert "inserted before" in wb.last_explanation.verdict_text
    assert_consistent(wb)


def test_lookup_verdicts_true_positive_and_true_negative(wb):
    wb.configure(1000, 4)
    wb.insert("apple")
    look = wb.lookup("apple")
    assert look.maybe_present and wb.history[-1].verdict == Verdict.TRUE_POSITIVE
    assert "probably in the set" in wb.last_explanation.verdict_text
    # find a non-member that the filter rejects: one of its bits is 0
    for cand in (f"x{i}" for i in range(1000)):
        zeros = [p for p in wb.filter.positions(cand) if not wb.filter.bits[p]]
        if zeros:
            break
    wb.lookup(cand)
    expl = wb.last_explanation
    assert expl.verdict == Verdict.TRUE_NEGATIVE
    assert "definitely not in the set" in expl.verdict_text
    assert f"bit {zeros[0]:,} is 0" in expl.verdict_text
    assert {p for p, k in zip(expl.positions, expl.kinds) if k == "zero"} == set(zeros)
    last = wb.history[-1]
    assert (last.lookups, last.true_positives, last.true_negatives, last.false_positives) == (2, 1, 1, 0)


def find_false_positive(wb: QtWorkbench, inserted: list[str]) -> str:
    flt = wb.filter
    for cand in (f"probe-{i}" for i in range(100_000)):
        if cand not in inserted and all(flt.bits[p] for p in flt.positions(cand)):
            return cand
    raise AssertionError("no false positive found")


def test_false_positive_on_a_tiny_filter_names_its_culprits(wb):
    assert wb.configure(16, 2)
    inserted = [f"item{i}" for i in range(6)]
    for x in inserted:
        wb.insert(x)
    fp_item = find_false_positive(wb, inserted)
    look = wb.lookup(fp_item)
    assert look.maybe_present
    expl = wb.last_explanation
    assert expl.verdict == Verdict.FALSE_POSITIVE
    assert expl.headline == "FALSE POSITIVE"   # the headline is a field of its own: no view parses the text
    assert expl.verdict_text.startswith("“probe-0” was never inserted")
    assert "never inserted, yet all k = 2 bits are set" in expl.verdict_text
    flt = wb.filter
    for p in set(flt.positions(fp_item)):
        truth = [x for x in inserted if p in flt.positions(x)]
        items, total = expl.culprits[p]
        assert items == truth and total == len(truth)
        assert f"bit {p:,} by “{truth[0]}”" in expl.verdict_text
    assert wb.history[-1].false_positives == 1


def test_items_at_bit_and_hover_text_list_twenty_and_count_the_rest(wb):
    wb.configure(8, 1)
    items = [f"w{i}" for i in range(300)]
    wb.insert_batch(items)
    flt = wb.filter
    for bit in range(8):
        truth = [x for x in items if flt.positions(x)[0] == bit]
        got, total = wb.items_at_bit(bit)
        assert total == len(truth)
        assert got == truth[:20]
        text = wb.hover_text(bit)
        assert text.startswith(f"bit {bit} = {1 if truth else 0}")
        if len(truth) > 20:
            assert f"(+{len(truth) - 20} more)" in text
            assert ", ".join(truth[:20]) in text
    # duplicates are named once
    wb.insert("w0")
    bit = flt.positions("w0")[0]
    names, _ = wb.items_at_bit(bit, limit=1000)
    assert names.count("w0") == 1


def test_insert_batch_matches_the_core_and_the_tracker_matches_brute_force(wb):
    wb.configure(5000, 5)
    items = random_items(3000, seed=11, prefix="b")
    assert wb.insert_batch(items[:1000]) == 1000
    wb.insert("single")
    assert wb.insert_batch(items[1000:]) == 2000
    assert_consistent(wb)
    # the series has one row per insert and its fp column is non-decreasing (bits only ever get set)
    fp = wb.series.column("fp_measured")
    assert np.all(np.diff(fp) >= 0)


def test_bits_changed_reports_exactly_the_cells_that_changed(wb, qtbot):
    wb.configure(2000, 4)
    wb.insert_batch([f"a{i}" for i in range(200)])
    wb.flush()                  # (the waitSignal below is this batch's, not the one before)
    before = wb.grid_values().copy()
    with qtbot.waitSignal(wb.operated) as blocker:
        wb.insert_batch([f"b{i}" for i in range(200)])
    after = wb.grid_values()
    assert sorted(blocker.args[0].changed.tolist()) == np.flatnonzero(before != after).tolist()


@pytest.mark.parametrize("bad, needle", [
    ("", "empty"),
    ("x" * (10 * 1024 * 1024), "over the limit"),
    (12345, "must be str or bytes"),
])
def test_bad_items_are_refused_and_change_nothing(wb, qtbot, bad, needle):
    wb.insert("keep")
    before = snapshot(wb)
    for op in (wb.insert, wb.lookup):
        with qtbot.waitSignal(wb.error) as blocker:
            assert op(bad) is None
        assert needle in blocker.args[0]
        assert snapshot(wb) == before


def test_item_at_the_size_limit_is_accepted_one_byte_more_is_not(wb):
    assert wb.insert("y" * MAX_ITEM_BYTES) is not None
    assert wb.insert("y" * (MAX_ITEM_BYTES + 1)) is None


def test_a_batch_with_one_bad_item_is_refused_whole(wb, qtbot):
    before = snapshot(wb)
    with qtbot.waitSignal(wb.error) as blocker:
        assert wb.insert_batch(["ok", "also ok", ""]) == 0
    assert "item 3" in blocker.args[0]
    assert snapshot(wb) == before


def test_lone_surrogate_is_accepted_and_shown_escaped(wb):
    assert wb.insert("\ud800") is not None
    assert len(wb.filter) == 1
    assert wb.history[-1].label == "\\ud800"
    assert "\\ud800" in wb.last_explanation.verdict_text
    assert wb.last_explanation.data_hex == "ed a0 80"
    wb.lookup("\ud800")
    assert wb.history[-1].verdict == Verdict.TRUE_POSITIVE
    # a different lone surrogate is a different item
    assert wb.is_member("\ud800") and not wb.is_member("\udc00")


@pytest.mark.parametrize("m, k, scheme, needle", [
    (7, 3, "murmur3-km", "m (bits) must be between 8"),
    (MAX_M + 1, 3, "murmur3-km", "m (bits) must be between 8"),
    (100, 0, "murmur3-km", "k (hash functions) must be between 1 and 64"),
    (100, 65, "murmur3-km", "k (hash functions) must be between 1 and 64"),
    (100, 3, "no-such-scheme", "unknown hash scheme"),
    ("100", 3, "murmur3-km", "whole number"),
    (True, 3, "murmur3-km", "whole number"),
])
def test_bad_parameters_are_refused_and_change_nothing(wb, qtbot, m, k, scheme, needle):
    wb.insert("keep")
    flt = wb.filter
    before = snapshot(wb)
    with qtbot.waitSignal(wb.error) as blocker:
        assert wb.configure(m, k, scheme) is False
    assert needle in blocker.args[0]
    assert wb.filter is flt and snapshot(wb) == before


def test_configure_makes_a_new_empty_filter(wb, qtbot):
    wb.insert("a")
    with qtbot.waitSignal(wb.filterReset):
        assert wb.configure(4096, 3, "murmur3-seeded")
    flt = wb.filter
    assert (flt.m, flt.k, flt.scheme, len(flt)) == (4096, 3, "murmur3-seeded", 0)
    assert (len(wb.items), len(wb.series), len(wb.history)) == (0, 0, 0)
    assert not wb.is_member("a")


def test_design_uses_the_optimal_parameters_and_records_capacity(wb):
    from bloomviz.theory.rates import optimal_params
    m, k = wb.design(1000, 0.01)
    k_opt, m_opt = optimal_params(1000, 0.01)
    assert (m, k) == (m_opt, k_opt) == (wb.filter.m, wb.filter.k)
    assert wb.capacity == 1000
    with pytest.raises(ValueError, match="more than the window"):
        design_params(10_000_000, 1e-9)
    assert wb.design(0, 0.01) is None and wb.design(10, 1.5) is None
    assert wb.filter.m == m


def test_reset_empties_everything_but_keeps_the_parameters(wb):
    wb.configure(512, 3, "murmur-fnv")
    wb.insert_batch([f"r{i}" for i in range(100)])
    wb.lookup("r1")
    wb.reset()
    flt = wb.filter
    assert (flt.m, flt.k, flt.scheme, len(flt), flt.bits_set) == (512, 3, "murmur-fnv", 0, 0)
    assert (len(wb.items), len(wb.series), len(wb.history), wb.tracker.fp_count) == (0, 0, 0, 0)
    wb.insert("again")
    assert_consistent(wb)


def test_inserting_a_probe_redraws_the_probes(wb, qtbot):
    wb.configure(3000, 3)
    probe = wb.probes[0]
    with qtbot.waitSignal(wb.notice):
        wb.insert(probe)
    assert probe not in wb.probes
    wb.insert_batch(wb.probes[:5] + ["other"])
    assert not set(wb.items) & set(wb.probes)
    assert_consistent(wb)


def run_job_to_end(wb, qtbot, items, timeout=20_000):
    with qtbot.waitSignal(wb.jobFinished, timeout=timeout) as blocker:
        assert wb.insert_many(items)
    return blocker.args


def test_insert_many_runs_in_chunks_and_finishes(wb, qtbot):
    wb.configure(200_000, 5)
    items = random_items(60_000, seed=3, prefix="m")
    progress = []
    wb.progress.connect(lambda done, total: progress.append(done))
    busy = []
    wb.busyChanged.connect(busy.append)
    done, total, cancelled = run_job_to_end(wb, qtbot, items)
    assert (done, total, cancelled) == (60_000, 60_000, False)
    assert busy == [True, False]
    assert len(progress) > 2 and progress[-1] == 60_000 and progress == sorted(progress)
    assert_consistent(wb)


def test_cancel_leaves_whole_chunks_consistently(wb, qtbot):
    wb.configure(500_000, 4)
    items = random_items(150_000, seed=5, prefix="c")
    seen = []

    def on_progress(done, total):
        seen.append(done)
        if len(seen) == 2:
            wb.cancel()

    wb.progress.connect(on_progress)
    with qtbot.waitSignal(wb.jobFinished, timeout=20_000) as blocker:
        wb.insert_many(items)
    done, total, cancelled = blocker.args
    assert cancelled and 0 < done < total
    assert len(wb.filter) == done and wb.items == items[:done]
    assert not wb.busy
    assert_consistent(wb)


def test_a_second_job_is_refused_while_one_runs(wb, qtbot):
    wb.configure(100_000, 3)
    assert wb.insert_many(random_items(50_000, seed=1))
    with qtbot.waitSignal(wb.error):
        assert not wb.insert_many(["x"])
    wb.cancel()
    assert not wb.busy


def test_status_reports_the_filter_and_the_measurement(wb):
    wb.configure(1000, 3)
    wb.insert_batch([f"s{i}" for i in range(300)])
    s = wb.status()
    assert (s["m"], s["k"], s["n"], s["scheme"]) == (1000, 3, 300, hashing.DEFAULT_SCHEME)
    assert s["fill"] == pytest.approx(wb.filter.bits_set / 1000)
    assert s["fp_measured"] == pytest.approx(brute_fp(wb) / len(wb.probes))
    nums = wb.numbers()
    assert nums.p_zero == pytest.approx((1 - 1 / 1000) ** (3 * 300))
    assert nums.fp_classic == pytest.approx((1 - (1 - 1 / 1000) ** 900) ** 3)
    assert nums.fp_exact == pytest.approx(theory.fp_exact(1000, 3, 300), rel=1e-9) and nums.fp_exact > nums.fp_classic
    assert nums.n_estimated == pytest.approx(-(1000 / 3) * np.log(1 - wb.filter.bits_set / 1000))
    assert nums.fp_low <= nums.fp_measured <= nums.fp_high


def test_explanation_carries_the_hash_values_and_the_bytes(wb):
    wb.configure(977, 3)
    wb.insert("héllo")
    expl = wb.last_explanation
    assert expl.data_hex == " ".join(f"{b:02x}" for b in "héllo".encode())
    assert expl.data_len == 6
    assert expl.hash_rows == tuple(scheme_of(wb.filter).explain("héllo".encode(), 977, 3))
    assert expl.numbers.n == 1


@pytest.mark.parametrize("variant, params", [
    ("counting", {"m": 256, "k": 3}),
    ("partitioned", {"m": 300, "k": 3}),
    ("blocked", {"m": 4096, "k": 4}),
    ("scalable", {"initial_capacity": 50, "p": 0.01}),
])
def test_variants_plug_in(wb, variant, params):
    assert wb.configure(variant=variant, **params), variant
    assert wb.variant == variant
    wb.insert("one")
    wb.insert_batch([f"v{i}" for i in range(120)])
    assert len(wb.filter) == 121 and len(wb.items) == 121
    assert wb.lookup("one").maybe_present
    assert wb.history[-1].verdict == Verdict.TRUE_POSITIVE
    values = wb.grid_values()
    assert values.shape == (wb.filter.m,) and values.max() <= wb.max_value()
    fp = int(np.count_nonzero(wb.filter.contains_many(wb.probes)))
    assert wb.status()["fp_measured"] == pytest.approx(fp / len(wb.probes))
    if variant == "counting":
        assert wb.max_value() == 15
        assert wb.hover_text(wb.filter.positions("one")[0]).startswith("counter")


def test_probe_count_is_settable_and_remeasures(wb, qtbot):
    wb.configure(2000, 4)
    wb.insert_batch([f"x{i}" for i in range(300)])
    assert wb.set_probe_count(5000) and len(wb.probes) == 5000
    assert wb.tracker.fp_count == brute_fp(wb)
    with qtbot.waitSignal(wb.error):
        assert not wb.set_probe_count(0)
    assert len(wb.probes) == 5000
    wb.insert("y")
    assert_consistent(wb)
