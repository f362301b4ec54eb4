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


def test_an_insert_that_fits_does_not_count_the_whole_state_again(wb, monkeypatch):
    from bloomviz.workbench import operations, state
    walks = []
    monkeypatch.setattr(operations, "nbytes", lambda s: walks.append(1) or state.nbytes(s))
    for i in range(50):
        assert wb.insert(f"word {i}") is not None
    assert wb.insert_batch([f"batch {i}" for i in range(100)]) == 100
    assert len(walks) == 1          # counted once, for the first insert; each later one added what it keeps
    assert wb.undo() and wb.insert("after undo") is not None
    assert len(walks) == 2          # a state cut back is counted again


def test_near_the_budget_the_count_is_exact_and_the_refusal_comes_where_it_fits_no_more(wb, monkeypatch):
    from bloomviz.workbench import limits as window_limits
    from bloomviz.workbench.state import nbytes
    errors = []
    wb.events.error.connect(errors.append)
    item_bytes = 1000
    monkeypatch.setattr(limits, "WINDOW_KEPT_BYTES", nbytes(wb.state) + 300 * item_bytes)
    more = (4 * wb.filter.k + window_limits.KEPT_PER_INSERT + item_bytes + window_limits.KEPT_PER_TYPED_ITEM
            + window_limits.KEPT_PER_OPERATION)
    inserted = 0
    while wb.insert(f"{inserted:0{item_bytes}d}") is not None:
        inserted += 1
        assert inserted < 1000
    kept = nbytes(wb.state)
    assert wb.state.kept == kept and kept + more > limits.WINDOW_KEPT_BYTES    # what was refused did not fit
    grown = more - item_bytes       # what the whole count holds of one typed insert (not its text's length)
    assert kept - grown + more <= limits.WINDOW_KEPT_BYTES          # and the insert before it did fit
    assert len(wb.filter) == inserted and "past its budget" in errors[-1]


def test_a_job_on_a_filter_past_the_undo_budget_makes_no_copy_to_throw_away(wb, monkeypatch):
    # a counting filter of 10^8 counters (100 MB) is past the undo budget (96 MiB): auto-play and every bulk
    # insert copied it whole for an undo step the stack then refused
    wb.insert("kept")
    wb.undo_stack.budget = wb.filter.nbytes() - 1

    def no_copy(self):
        raise AssertionError("the filter was copied for an undo step it cannot have")

    monkeypatch.setattr(type(wb.filter), "copy", no_copy)
    assert wb.insert_many([f"j{i}" for i in range(100)])
    wb.run_to_end()
    assert len(wb.filter) == 101 and len(wb.undo_stack) == 0     # nothing before it is undoable either
    assert not wb.undo()
