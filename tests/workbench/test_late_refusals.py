"""A refusal that comes from the filter itself, after the window's own checks let an insert through (a growing
filter that cannot open its next stage): the probes the insert would have replaced, the running byte count
the checks raised, the undo steps, the truth and the plot's rows are all as they were, as the message says."""

from __future__ import annotations

import pytest

from bloomviz.workbench.model import Workbench
from bloomviz.workbench.undo import DEPTH
from model_state import differences, observable


class Said:
    def __init__(self, wb):
        self.errors, self.notices = [], []
        wb.events.error.connect(self.errors.append)
        wb.events.notice.connect(self.notices.append)


def full_first_stage(monkeypatch) -> Workbench:
    """A scalable filter whose first stage is full and whose next stage the filter refuses to open (the window's
    arithmetic, which agrees with the filter's on every stage that exists, is left to let it through)."""
    wb = Workbench(probes=100)
    assert wb.configure(variant="scalable", initial_capacity=20, p=0.01)
    for i in range(20):
        assert wb.insert(f"s{i}") is not None
    flt = wb.filter

    def refuse(inserts):
        raise ValueError("the scalable filter cannot add stage 1: injected")
    monkeypatch.setattr(flt, "_plan", refuse)
    return wb


def test_a_refused_single_insert_of_a_probe_leaves_the_probes_and_the_byte_count(monkeypatch):
    wb = full_first_stage(monkeypatch)
    said = Said(wb)
    before = observable(wb)
    assert before["kept"] is not None
    assert wb.insert(wb.probes[0]) is None
    assert differences(before, observable(wb)) == []
    assert said.errors == ["Refused: the scalable filter cannot add stage 1: injected. Nothing was changed."]
    assert said.notices == []       # no "the probes were redrawn": they were not


def test_a_refused_batch_with_a_probe_leaves_everything_and_keeps_a_full_undo_stack(monkeypatch):
    wb = full_first_stage(monkeypatch)
    assert len(wb.undo_stack) == 21     # the new filter, then 20 inserts
    wb.undo_stack.depth = 21      # full: the refused batch's step pushed out the oldest
    said = Said(wb)
    before = observable(wb)
    assert wb.insert_batch(["new", wb.probes[3]]) == 0
    assert differences(before, observable(wb)) == []
    assert said.errors[-1].startswith("Refused a batch of 2 items: the scalable filter cannot add stage 1")
    assert said.notices == []
    for _ in range(20):       # every earlier insert can still be undone, the first one too
        assert wb.undo()
    assert len(wb.filter) == 0 and wb.undo_what == ("new filter", None)


def test_a_refused_removal_on_a_full_undo_stack_keeps_its_oldest_step(monkeypatch):
    wb = Workbench(probes=50)
    assert wb.configure(256, 3, variant="counting", counter_bits=4)
    for i in range(DEPTH):
        wb.insert(f"c{i}")
    flt = wb.filter

    def refuse(data, force=False):
        raise ValueError("injected")
    monkeypatch.setattr(flt, "remove", refuse)
    said = Said(wb)
    before = observable(wb)
    assert wb.remove("c3") is None
    assert differences(before, observable(wb)) == []
    assert said.errors == ["Refused: injected. Nothing was changed."]


@pytest.mark.parametrize("last_stage_n", [1, 16383])
def test_a_scalable_filter_in_its_last_possible_stage_keeps_its_theory(last_stage_n):
    """Stage 14 of this filter would need k = 65: every n in stage 13 used to ask for stage 14's size when the
    plot's rows were computed, and a batch into stage 13 failed after the filter had taken it."""
    wb = Workbench(probes=20)
    assert wb.configure(variant="scalable", initial_capacity=2, p=1e-15, growth=2, tightening=0.5)
    n = 2 * (2 ** 13 - 1) + last_stage_n
    assert wb.insert_batch([f"x{i}" for i in range(n)]) == n
    assert len(wb.series) == n and len(wb.filter) == n
    fp = wb.filter.theory_fp(n)
    assert 0 < fp < 1e-15
