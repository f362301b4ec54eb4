"""A scalable filter's batch past the undo budget: its log holds only the items the newest stage has room for
(the rest open stages, dropped whole), so its size is bounded by that room, not by the whole batch; and where not
even that fits, the stages the batch opened and the insert counts still go back, as the message says ("some of
its bits, without its items"). The bound was the whole batch: a paste that opens a stage fell to "partly in the
filter" with the opened stages and a count of items the filter did not keep (5,001 where the truth held 2,001)."""

from __future__ import annotations

import pytest

from bloomviz.measure import pipeline as pipeline_module
from bloomviz.workbench import undo as undo_module
from bloomviz.workbench.model import Workbench
from model_state import differences, observable


def _failing_rows(monkeypatch) -> None:
    real = pipeline_module.MeasuredSeries.add

    def add(*args, **kwargs):
        real(*args, **kwargs)
        raise RuntimeError("injected")
    monkeypatch.setattr(pipeline_module.MeasuredSeries, "add", add)


def _bench(capacity: int, before: int, monkeypatch) -> tuple[Workbench, list]:
    wb = Workbench(probes=64)
    assert wb.configure(variant="scalable", initial_capacity=capacity, p=0.01)
    wb.insert_batch([f"before {i}" for i in range(before)])
    budget = wb.filter.nbytes() - 1          # no copy fits, as for an opened 2^32-bit filter
    monkeypatch.setattr(undo_module, "BUDGET", budget)
    wb.undo_stack.budget = budget
    said: list[str] = []
    wb.events.error.connect(said.append)
    return wb, said


def test_a_batch_that_opens_stages_logs_only_the_newest_stages_room_and_is_put_back_exactly(monkeypatch):
    wb, said = _bench(20_000, 19_900, monkeypatch)
    before = observable(wb)
    _failing_rows(monkeypatch)
    assert wb.insert_batch([f"pasted {i}" for i in range(20_000)]) == 0
    assert differences(before, observable(wb), fresh_kept=None) in ([], ["kept"])
    assert len(said) == 1 and "Nothing was changed" in said[0], said


def test_where_no_log_fits_the_opened_stages_and_counts_still_go_back(monkeypatch):
    wb, said = _bench(3_000, 2_001, monkeypatch)
    _failing_rows(monkeypatch)
    assert wb.insert_batch([f"pasted {i}" for i in range(3_000)]) == 0
    assert len(said) == 1 and "Part of it may be in the filter" in said[0], said
    assert len(wb.filter) == 2_001 and len(wb.filter._stages) == 1
    newest = wb.filter._stages[-1]
    assert newest._bits_set == newest._bits.count() and len(newest) == 2_001
