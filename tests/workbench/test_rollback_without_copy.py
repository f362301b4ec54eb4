"""A batch with no copy of the filter to go back to: a filter past the undo budget (a paste into an opened 2^32-bit
filter copied its 512 MiB first), a quiet replay, a job past the budget. What the batch is about to change is
logged instead (filters/rollback.py), and a failure part way puts the filter back exactly from the log; where
even the log is past the budget, the message says that the batch may be partly in the filter, and everything else
is put back. And a variant's own ``add`` is all or nothing when a Ctrl-C lands between two of its writes."""

from __future__ import annotations

import re

import numpy as np
import pytest
from bitarray import bitarray

from bloomviz.filters import rollback
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.measure import pipeline as pipeline_module
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.workbench import undo as undo_module
from bloomviz.workbench.model import Workbench
from model_state import differences, observable

# each large enough that a batch's log is far smaller than a copy of the filter (128 KiB of bits or counters)
BIG = {
    "standard": dict(m=1 << 20, k=3),
    "counting": dict(m=1 << 17, k=3, counter_bits=4),
    "partitioned": dict(m=(1 << 20) + 1, k=3),
    "blocked": dict(m=1 << 20, k=3),
    "scalable": dict(initial_capacity=100_000, p=0.01),
}
# eight times as large: an import of 9,000 lines (three chunks) logs less than a copy
LARGER = {"standard": dict(m=1 << 23, k=3), "counting": dict(m=1 << 20, k=3, counter_bits=4),
          "partitioned": dict(m=(1 << 23) + 1, k=3), "blocked": dict(m=1 << 23, k=3),
          "scalable": dict(initial_capacity=1_000_000, p=0.01)}
PARTS = ("filter", "counts", "truth", "series", "probes", "history")


def _bench(variant: str, designs: dict = BIG) -> Workbench:
    wb = Workbench(probes=64)
    assert wb.configure(variant=variant, **designs[variant])
    wb.insert_batch([f"before {i}" for i in range(300)])
    wb.insert("typed before")
    return wb


def _no_copies(monkeypatch, wb) -> None:
    """Any copy of the filter (or of a scalable filter's stage) fails the test."""
    def copied(self):
        raise AssertionError(f"the {self.variant} filter was copied")
    for cls in {type(wb.filter), BloomFilter}:
        monkeypatch.setattr(cls, "copy", copied)


def _past_the_budget(monkeypatch, wb) -> None:
    """The undo budget set just below the filter's size: as a 2^32-bit filter is past the real one."""
    budget = wb.filter.nbytes() - 1
    monkeypatch.setattr(undo_module, "BUDGET", budget)
    wb.undo_stack.budget = budget


def _fails_after(monkeypatch, owner, name: str, exc: BaseException, on_call: int = 1) -> list:
    real, calls = getattr(owner, name), []

    def failing(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append(name)
        if len(calls) >= on_call:
            raise exc
        return out
    monkeypatch.setattr(owner, name, failing)
    return calls


@pytest.mark.parametrize("variant", list(BIG))
def test_a_batch_past_the_undo_budget_copies_nothing_and_is_undone_exactly(variant, monkeypatch):
    wb = _bench(variant)
    _past_the_budget(monkeypatch, wb)
    _no_copies(monkeypatch, wb)
    before = observable(wb)
    assert wb.insert_batch([f"pasted {i}" for i in range(2_000)]) == 2_000
    assert wb.undo_what == ("insert batch", 2_000)     # undoable again: its step is the log, not a copy
    assert wb.undo()
    assert [p for p in differences(before, observable(wb)) if p in PARTS] == []


@pytest.mark.parametrize("exc", [MemoryError(), RuntimeError("injected"), KeyboardInterrupt()])
@pytest.mark.parametrize("variant", list(BIG))
def test_a_batch_past_the_undo_budget_that_fails_part_way_is_put_back_exactly_without_a_copy(variant, exc,
                                                                                              monkeypatch):
    wb = _bench(variant)
    _past_the_budget(monkeypatch, wb)
    _no_copies(monkeypatch, wb)
    said: list[str] = []
    wb.events.error.connect(said.append)
    before = observable(wb)
    # after the filter took the batch's bits: the curve's rows fail
    fired = _fails_after(monkeypatch, pipeline_module.MeasuredSeries, "add", exc)
    if isinstance(exc, KeyboardInterrupt):
        with pytest.raises(KeyboardInterrupt):
            wb.insert_batch([f"pasted {i}" for i in range(2_000)])
    else:
        assert wb.insert_batch([f"pasted {i}" for i in range(2_000)]) == 0
    assert fired
    assert differences(before, observable(wb), fresh_kept=None) in ([], ["kept"])
    assert any("Nothing was changed" in text for text in said), said


@pytest.mark.parametrize("variant", ["standard", "counting", "scalable"])
def test_a_quiet_batch_keeps_a_log_not_a_copy_and_is_put_back(variant, monkeypatch):
    """A replay's batches keep no undo step; what they go back to is the log."""
    wb = _bench(variant)
    _past_the_budget(monkeypatch, wb)
    _no_copies(monkeypatch, wb)
    before = observable(wb)
    _fails_after(monkeypatch, FpTracker, "insert_batch", RuntimeError("injected"))
    _fails_after(monkeypatch, FpTracker, "insert_halves", RuntimeError("injected"))
    with wb.quiet():
        assert wb.insert_batch([f"replayed {i}" for i in range(500)]) == 0
    assert [p for p in differences(before, observable(wb)) if p in PARTS] == []


@pytest.mark.parametrize("variant", ["standard", "counting", "scalable"])
def test_where_not_even_a_log_fits_the_message_says_the_batch_may_be_partly_in_the_filter(variant, monkeypatch):
    wb = _bench(variant)
    monkeypatch.setattr(undo_module, "BUDGET", 0)       # neither a copy nor a log of any size fits
    wb.undo_stack.budget = 0
    said: list[str] = []
    wb.events.error.connect(said.append)
    before = observable(wb)
    _fails_after(monkeypatch, pipeline_module.MeasuredSeries, "add", MemoryError())
    assert wb.insert_batch([f"pasted {i}" for i in range(2_000)]) == 0
    # everything but the filter is put back, and the message does not say "Nothing was changed"
    assert [p for p in differences(before, observable(wb)) if p in PARTS and p != "filter"] == []
    assert len(said) == 1 and re.search(r"not enough memory to insert a batch of 2,000 items .*Part of it may be "
                                        r"in the filter", said[0]) and "Nothing was changed" not in said[0], said


def _auto_play(wb, total: int) -> None:
    at = [0]

    def source(count):
        run = GeneratedRun(GeneratedItems(total, seed=5), at[0], min(total, at[0] + count))
        at[0] = run.stop
        return run if len(run) else []
    assert wb.run_job(source, total, "auto-play items")
    wb.run_to_end()


@pytest.mark.parametrize("logs", ["the job's", "each chunk's alone"])
@pytest.mark.parametrize("exc", [RuntimeError("injected"), KeyboardInterrupt()])
@pytest.mark.parametrize("variant", ["standard", "counting", "blocked", "scalable"])
def test_a_job_past_the_budget_whose_chunk_fails_keeps_exactly_the_chunks_before_it(variant, exc, logs,
                                                                                       monkeypatch):
    """No copy to go back to (the filter is past the budget): the chunk that failed is put back alone from its
    log, and the job ends holding exactly the chunks before it (it used to say "may be partly in"), whether the
    job keeps its chunks' logs as its undo step or is too long for that (each chunk then logs alone)."""
    from bloomviz.workbench import jobs as jobs_module
    wb, reference = _bench(variant), _bench(variant)
    _past_the_budget(monkeypatch, wb)
    # a chunk's log, whatever its length (sized by time: up to 200,000 items), not a copy of this small filter
    monkeypatch.setattr(rollback, "log_bytes", lambda flt, n: 0)
    if logs != "the job's":
        for module in (undo_module, jobs_module):
            monkeypatch.setattr(module, "job_checkpoint", lambda s, n: None)
    said: list[str] = []
    wb.events.error.connect(said.append)
    wb.events.notice.connect(said.append)
    finished = []
    wb.events.job_finished.connect(lambda done, total, cancelled: finished.append(done))
    names = ("insert_batch", "insert_halves")
    fired: list = []
    for name in names:
        fired += [_fails_after(monkeypatch, FpTracker, name, exc, on_call=2)]
    if isinstance(exc, KeyboardInterrupt):
        with pytest.raises(KeyboardInterrupt):
            _auto_play(wb, 20_000)
    else:
        _auto_play(wb, 20_000)
    monkeypatch.undo()
    assert any(fired) and not wb.busy
    done = finished[0]
    assert 0 < done < 20_000
    # the reference took the same first ``done`` items as one batch: the same filter, truth, probes and counts
    assert reference.insert_batch(GeneratedRun(GeneratedItems(20_000, seed=5), 0, done)) == done
    after, expected = observable(wb), observable(reference)
    assert [p for p in ("filter", "truth", "probes") if after[p] != expected[p]] == []
    kept = rf"after {done:,} of 20,000 auto-play items; the filter, plot and history hold exactly those {done:,}"
    assert any(re.search(kept, t) for t in said), said
    assert not any("partly" in t for t in said), said


# --- Ctrl-C between two writes of a variant's own add ----------------------------------------------------------
class _TrapBits(bitarray):
    """Bits whose ``left``-th write raises KeyboardInterrupt (as a Ctrl-C handled between two writes)."""
    left = 0

    def __setitem__(self, key, value):
        type(self).left -= 1
        if type(self).left == 0:
            raise KeyboardInterrupt
        super().__setitem__(key, value)


class _TrapCounters(np.ndarray):
    left = 0

    def __setitem__(self, key, value):
        type(self).left -= 1
        if type(self).left == 0:
            raise KeyboardInterrupt
        super().__setitem__(key, value)


def _trapped(flt, writes: int):
    """``flt`` (or its newest stage) with writes trapped: the ``writes``-th write to its bits or counters
    raises."""
    target = flt.stages[-1] if flt.capabilities.staged else flt
    trap = _TrapBits(endian="little")
    trap.frombytes(target.bits.tobytes())
    del trap[len(target.bits):]
    target._bits = trap
    _TrapBits.left = _TrapCounters.left = writes
    if flt.capabilities.counting:
        target._cells.values = target._cells.values.view(_TrapCounters)
        _TrapBits.left = 10 ** 9            # the counters' writes are the ones counted
    return flt


SMALL = {"standard": dict(m=4096, k=7), "counting": dict(m=4096, k=7), "partitioned": dict(m=4096, k=7),
         "blocked": dict(m=4096, k=7), "scalable": dict(initial_capacity=10, p=0.001)}


@pytest.mark.parametrize("variant", list(SMALL))
def test_a_ctrl_c_between_two_writes_of_an_add_leaves_the_filter_as_it_was(variant):
    from bloomviz.filters.registry import make_filter
    for writes in range(1, 8):
        flt = make_filter(variant, **SMALL[variant])
        flt.update([f"earlier {i}" for i in range(5)])
        before = (len(flt), flt.bits_set, flt.m, bytes(np.asarray(_values(flt))))
        _trapped(flt, writes)
        with pytest.raises(KeyboardInterrupt):
            flt.add(f"interrupted at write {writes}")
        assert (len(flt), flt.bits_set, flt.m, bytes(np.asarray(_values(flt)))) == before, writes
        _TrapBits.left = _TrapCounters.left = 0
        flt.add("afterwards")                  # and it goes on
        assert "afterwards" in flt


def _values(flt):
    from bloomviz.filters import capabilities
    return capabilities.grid_values(flt)


@pytest.mark.parametrize("variant", ["standard", "counting", "scalable"])
def test_a_ctrl_c_between_two_writes_of_a_typed_insert_is_put_back_by_the_window_and_raised(variant):
    """The window keeps no copy for these typed inserts (the variant takes its own insert back): the add being
    all or nothing is what puts it back."""
    wb = Workbench(probes=64)
    assert wb.configure(variant=variant, **SMALL[variant])
    wb.insert_batch([f"earlier {i}" for i in range(8)])
    said: list[str] = []
    wb.events.error.connect(said.append)
    before = observable(wb)
    _trapped(wb.filter, 3)
    with pytest.raises(KeyboardInterrupt):
        wb.insert("typed and interrupted")
    _TrapBits.left = _TrapCounters.left = 0
    assert differences(before, observable(wb), fresh_kept=None) in ([], ["kept"])
    assert any("interrupted" in text for text in said), said


def test_a_typed_insert_that_opens_a_stage_copies_nothing_and_is_undone(monkeypatch):
    wb = Workbench(probes=64)
    assert wb.configure(variant="scalable", initial_capacity=20, p=0.01)
    wb.insert_batch([f"fill {i}" for i in range(20)])       # the first stage is full: the next insert opens one
    _no_copies(monkeypatch, wb)
    before = observable(wb)
    ins = wb.insert("opens the second stage")
    assert ins.new_stage and len(wb.filter.stages) == 2
    assert wb.undo()
    assert len(wb.filter.stages) == 1
    assert [p for p in differences(before, observable(wb)) if p in PARTS] == []


def _lines(total: int, bad_at: int | None = None):
    """An import's source: ``total`` lines, the one at ``bad_at`` empty (refused: the import is taken back)."""
    at = [0]

    def source(count):
        chunk = ["" if i == bad_at else f"line {i}" for i in range(at[0], min(total, at[0] + count))]
        at[0] += len(chunk)
        return chunk
    return source


@pytest.mark.parametrize("variant", list(BIG))
def test_an_import_into_a_big_filter_copies_nothing_and_is_all_or_nothing(variant, monkeypatch):
    """All or nothing through the logs of its chunks (an import into an opened 2^32-bit filter copied 512 MiB
    first): a bad line far in takes back every chunk before it exactly, as does a cancel; one that completes is
    undone as one step."""
    wb = _bench(variant, LARGER)
    _past_the_budget(monkeypatch, wb)
    _no_copies(monkeypatch, wb)
    before = observable(wb)
    for how in ("bad line", "cancel"):
        assert wb.run_job(_lines(9_000, 8_500 if how == "bad line" else None), 9_000, "lines of a file",
                          atomic=True)
        if how == "cancel":
            assert wb.step_job() and wb.step_job() and wb.step_job()     # (the first prepares the measurement)
            assert len(wb.filter) > len(before["truth"][0])              # chunks went in
            wb.cancel()
        else:
            wb.run_to_end()
        assert not wb.busy
        assert [p for p in differences(before, observable(wb)) if p in PARTS + ("undo",)] == [], how
    assert wb.run_job(_lines(9_000), 9_000, "lines of a file", atomic=True)
    wb.run_to_end()
    assert len(wb.filter) == len(before["truth"][0]) + 9_000 and wb.undo_what == ("insert batch", "lines of a file")
    assert wb.undo()
    assert [p for p in differences(before, observable(wb)) if p in PARTS] == []


@pytest.mark.parametrize("variant", ["standard", "counting", "scalable"])
def test_an_auto_play_into_a_filter_past_the_budget_is_undone_as_one_step_without_a_copy(variant, monkeypatch):
    wb = _bench(variant)
    _past_the_budget(monkeypatch, wb)
    _no_copies(monkeypatch, wb)
    before = observable(wb)
    _auto_play(wb, 2_000)
    assert len(wb.filter) == len(before["truth"][0]) + 2_000
    assert wb.undo_what == ("insert batch", "auto-play items")
    assert wb.undo()
    assert [p for p in differences(before, observable(wb)) if p in PARTS] == []


@pytest.mark.parametrize("exc", [None, MemoryError(), KeyboardInterrupt()])
def test_a_removal_keeps_its_counters_not_a_copy_and_is_undone_or_put_back(exc, monkeypatch):
    """A removal's step (and what a failure part way goes back to) is the counters at the item's positions: a
    removal that clears counters (their bits go off) comes back whole."""
    wb = Workbench(probes=64)
    assert wb.configure(variant="counting", **BIG["counting"])
    wb.insert_batch([f"before {i}" for i in range(300)])
    _no_copies(monkeypatch, wb)
    said: list[str] = []
    wb.events.error.connect(said.append)
    before, bits = observable(wb), wb.filter.bits.copy()
    if exc is None:
        rem = wb.remove("before 7")
        assert rem.cleared                       # bits went off (a sparse filter: the item's counters were 1)
        assert wb.undo_what == ("remove", "before 7") and wb.undo()
    else:
        # after the filter and the truth took the removal: the curve's row fails
        _fails_after(monkeypatch, wb.state.measure.pipeline, "add_rows", exc)
        if isinstance(exc, KeyboardInterrupt):
            with pytest.raises(KeyboardInterrupt):
                wb.remove("before 7")
        else:
            assert wb.remove("before 7") is None
        assert any(re.search(r"Stopped: .*remove “before 7”.*Nothing was changed", t) for t in said), said
    assert differences(before, observable(wb), fresh_kept=None) in ([], ["kept"])
    assert wb.filter.bits == bits and "before 7" in wb.filter      # its "counter > 0" bits too


@pytest.mark.parametrize("variant", ["standard", "counting", "scalable"])
def test_a_new_or_opened_filter_keeps_the_one_it_replaces_without_a_copy(variant, monkeypatch):
    """The filter replaced is never changed again: its undo step holds it as it is (only Clear, which empties it
    in place, copies it), and undo brings it back whole."""
    wb = _bench(variant)
    _no_copies(monkeypatch, wb)
    before = observable(wb)
    assert wb.configure(2_048, 3) and wb.undo_what == ("new filter", None)
    assert wb.undo()
    assert [p for p in differences(before, observable(wb)) if p in PARTS] == []
    assert wb.install_filter(BloomFilter(4_096, 4)) and wb.undo_what == ("open", None)
    assert wb.undo()
    assert [p for p in differences(before, observable(wb)) if p in PARTS] == []
    assert len(wb.filter) == 301 and "typed before" in wb.filter and wb.insert("and on") is not None


def test_clearing_a_filter_past_the_undo_budget_makes_no_copy_for_a_step_it_cannot_keep(monkeypatch):
    wb = _bench("standard")
    _past_the_budget(monkeypatch, wb)
    _no_copies(monkeypatch, wb)
    wb.reset()
    assert len(wb.filter) == 0 and wb.undo_what is None
