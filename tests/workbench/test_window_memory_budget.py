"""What the window keeps for one filter has a budget (issue 27 item 5): inserts that would take it past are
refused before anything changes, with a message that says what to do; below it nothing changes."""

from __future__ import annotations

import pytest

from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.theory import limits
from bloomviz.workbench.model import Workbench


@pytest.fixture
def wb():
    model = Workbench(probes=200)
    assert model.configure(1 << 20, 7)
    return model


def test_a_run_past_the_budget_is_refused_saying_what_to_do(wb, monkeypatch):
    errors = []
    wb.events.error.connect(errors.append)
    gen = GeneratedItems(2 ** 63 - 1, seed=3)
    assert wb.insert_batch(GeneratedRun(gen, 0, 50_000)) == 50_000
    monkeypatch.setattr(limits, "WINDOW_KEPT_BYTES", 8 << 20)      # a small budget, as a long class reaches it
    bits = wb.filter.bits_set
    assert wb.insert_batch(GeneratedRun(gen, 50_000, 1_050_000)) == 0
    assert wb.filter.bits_set == bits and len(wb.filter) == 50_000
    (message,) = errors
    assert "past its budget of 8.00 MiB" in message and "File → New session" in message \
        and "File → Save" in message and "bloomviz simulate" in message
    assert wb.insert_batch(GeneratedRun(gen, 50_000, 60_000)) == 10_000     # what fits still goes in


def test_typed_items_count_with_their_text(wb, monkeypatch):
    errors = []
    wb.events.error.connect(errors.append)
    monkeypatch.setattr(limits, "WINDOW_KEPT_BYTES", 1 << 20)
    assert wb.insert_batch([f"word {i}" for i in range(1000)]) == 1000
    assert wb.insert_batch(["x" * 60_000] * 20) == 0 and "budget" in errors[-1]
    assert wb.insert("one more") is not None
