"""A scalable filter whose next stage cannot be allocated (MemoryError from its bits) is left as it was: its
stage list, offsets and specs agree, and its m, count and bits are unchanged (they used to be appended before the
bits were allocated, so a failed stage left an offset and a spec without a stage)."""

from __future__ import annotations

import pytest

from bloomviz.filters import scalable
from bloomviz.filters.scalable import ScalableBloomFilter


def _state(flt):
    return (flt.m, len(flt), flt.bits_set, len(flt.stages), tuple(flt.stages.offsets), flt._state_payload())


@pytest.mark.parametrize("how", ["add", "update"])
def test_a_stage_that_cannot_be_allocated_changes_nothing(monkeypatch, how):
    flt = ScalableBloomFilter(initial_capacity=20, p=0.05)
    flt.update([f"w{i}" for i in range(20)])           # the first stage is full: the next insert opens one
    before = _state(flt)
    made = []
    real = scalable.BloomFilter

    def second_fails(m, k, scheme):
        if made:
            raise MemoryError()
        made.append(m)
        return real(m, k, scheme=scheme)

    monkeypatch.setattr(scalable, "BloomFilter", second_fails)
    with pytest.raises(MemoryError):
        if how == "add":
            made.append("the add opens one stage")   # so its only allocation fails
            flt.add("one more")
        else:
            flt.update([f"x{i}" for i in range(200)])    # two stages: the second allocation fails
    monkeypatch.undo()
    assert _state(flt) == before
    flt.add("one more")                                   # and it still grows afterwards
    assert len(flt.stages) == 2 and len(flt) == 21


def test_an_insert_into_a_new_stage_that_fails_drops_the_stage(monkeypatch):
    flt = ScalableBloomFilter(initial_capacity=20, p=0.05)
    flt.update([f"w{i}" for i in range(20)])
    before = _state(flt)

    def failing_add(self, item):
        raise RuntimeError("injected")

    monkeypatch.setattr(scalable.BloomFilter, "add", failing_add)
    with pytest.raises(RuntimeError):
        flt.add("one more")
    monkeypatch.undo()
    assert _state(flt) == before
