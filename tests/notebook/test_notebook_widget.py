"""The notebook widget's Python side, without a browser: messages in, the model's records and words out, synced
as traits (one update message per operation)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the notebook extra (anywidget) is not installed")

from bloomviz.explain.operations import KIND_WORDS, explain, hover_text  # noqa: E402
from bloomviz.notebook import BloomWidget  # noqa: E402
from bloomviz.notebook.view_state import MAX_CELLS  # noqa: E402
from bloomviz.theory.units import rate_text  # noqa: E402
from bloomviz.workbench.model import Workbench  # noqa: E402


def message(widget, **content) -> None:
    """What the browser's model.send(content) delivers to the kernel."""
    widget._handle_custom_msg(content, [])


@pytest.fixture
def widget():
    return BloomWidget(m=64, k=3, probes=2000)


@pytest.fixture
def sent(widget, monkeypatch):
    out = []
    monkeypatch.setattr(widget.comm, "send", lambda data=None, metadata=None, buffers=None: out.append(data))
    return out


def test_insert_lights_the_k_positions_in_the_windows_words(widget, sent):
    message(widget, op="insert", item="ana@acme.com")
    rec = widget.workbench.last_record
    assert widget.n == 1 and widget.verdict == "inserted" == str(rec.verdict)
    assert [cell for cell, _, _ in widget.lit] == list(rec.positions)
    assert [kind for _, kind, _ in widget.lit] == list(rec.kinds)
    assert [words for _, _, words in widget.lit] == [KIND_WORDS[k] for k in rec.kinds]
    expl = explain(rec, widget.workbench.state)
    assert (widget.headline, widget.verdict_text) == ("INSERTED", expl.verdict_text)
    assert all(widget.cells[p] == 1 for p in rec.positions) and sum(widget.cells) == len(set(rec.positions))
    # one update message for the whole operation, carrying the lit cells and the grid
    updates = [d for d in sent if d and d.get("method") == "update"]
    assert len(updates) == 1
    assert updates[0]["state"]["lit"] == widget.lit and updates[0]["state"]["cells"] == widget.cells


def test_a_false_positive_names_its_culprits_and_the_rate_follows(widget):
    for i in range(40):
        message(widget, op="insert", item=f"member{i}")
    for i in itertools.count():
        message(widget, op="lookup", item=f"stranger{i}")
        if widget.verdict == "false positive":
            break
    rec = widget.workbench.last_record
    assert widget.headline == "FALSE POSITIVE"
    assert widget.verdict_text == explain(rec, widget.workbench.state).verdict_text
    assert [c["bit"] for c in widget.culprits] == list(rec.culprits)
    assert all(c["items"] and set(c["items"]) <= {f"member{i}" for i in range(40)} for c in widget.culprits)
    assert {kind for _, kind, _ in widget.lit} == {"culprit"}
    nums = widget.workbench.numbers()
    assert widget.rates["exact"] == nums.fp_exact and widget.rates["measured"] == nums.fp_measured
    assert f"{nums.fp_count:,} of 2,000 non-members pass" in widget.rate_line
    assert f"{nums.bits_set:,} bits set" in widget.fill_line
    assert widget.plot[-1][0] == 40 and len(widget.plot) == 40
    assert widget.plot_line.startswith("the rate against n = 0 … 40: measured (blue) and exact (grey, dashed)")


def test_a_true_negative(widget):
    message(widget, op="insert", item="ana")
    for i in itertools.count():
        if f"z{i}" not in widget.workbench.filter:
            break
    message(widget, op="lookup", item=f"z{i}")
    assert widget.verdict == "true negative" and "definitely not in the set" in widget.verdict_text
    assert "zero" in {kind for _, kind, _ in widget.lit}


@pytest.mark.parametrize("content, words", [
    ({"op": "insert", "item": ""}, "the item is empty"),
    ({"op": "insert", "item": 5}, "the item must be text, got int"),
    ({"op": "explode"}, "unknown operation 'explode'"),
    ({"op": "configure", "m": "0", "k": "3"}, "m (bits) must be"),
    ({"op": "configure", "m": "64", "k": "many"}, "k"),
])
def test_a_refusal_changes_nothing_and_says_why(widget, content, words):
    message(widget, op="insert", item="ana")
    before = (widget.workbench.filter.m, len(widget.workbench.filter), list(widget.cells))
    message(widget, **content)
    assert words in widget.error
    assert (widget.workbench.filter.m, len(widget.workbench.filter), list(widget.cells)) == before
    message(widget, op="lookup", item="ana")
    assert widget.error == ""   # the next accepted operation clears it


@pytest.mark.parametrize("m", ["1,000", "1e3", "1_000", "10^3"])
def test_the_browsers_numbers_are_read_as_everywhere(widget, m):
    message(widget, op="configure", m=m, k="3")
    assert (widget.m, widget.k, widget.error) == (1000, 3, "")


def test_configure_and_reset_from_the_browser(widget):
    message(widget, op="insert", item="ana")
    message(widget, op="configure", m="100", k="2")
    assert (widget.m, widget.k, widget.n, len(widget.cells)) == (100, 2, 0, 100)
    assert widget.lit == [] and widget.verdict == "" and "new empty filter" in widget.verdict_text
    message(widget, op="insert", item="bo")
    message(widget, op="reset")
    assert widget.n == 0 and sum(widget.cells) == 0


def test_the_widget_follows_a_model_it_was_given():
    wb = Workbench(probes=1000)
    wb.configure(128, 4)
    wb.insert("before")
    w = BloomWidget(wb)
    assert w.n == 1 and w.verdict == "inserted"
    wb.insert("after")   # an operation made on the model, not through the widget
    assert w.n == 2 and [c for c, _, _ in w.lit] == list(wb.last_record.positions)


def test_pointing_at_a_cell_gives_the_windows_hover_words(widget):
    message(widget, op="insert", item="ana@acme.com")
    bit = widget.workbench.last_record.positions[0]
    message(widget, op="cell", bit=bit)
    assert widget.cell_text == hover_text(widget.workbench.state, bit, 1)
    assert f"bit {bit:,} = 1" in widget.cell_text and "set by: ana@acme.com" in widget.cell_text
    for bad in (-1, 64, "3", True, None):
        message(widget, op="cell", bit=bad)
        assert widget.cell_text == ""
    message(widget, op="cell", bit=bit)
    message(widget, op="insert", item="bo")
    assert widget.cell_text == ""   # an operation changes the cells: the old words would be stale


def test_a_large_filter_is_drawn_in_bins():
    w = BloomWidget(m=10_000, k=3, probes=500)
    per = w.bits_per_cell
    assert per == 3 and len(w.cells) == -(-10_000 // per) <= MAX_CELLS
    w.insert("ana")
    rec = w.workbench.last_record
    assert [c for c, _, _ in w.lit] == [p // per for p in rec.positions]
    assert all(w.cells[p // per] > 0 for p in rec.positions)
    bits = w.workbench.grid_values()
    assert sum(1 for v in w.cells if v) == len({int(p) // per for p in np.flatnonzero(bits)})


def test_the_module_and_its_script():
    w = BloomWidget(m=16, k=2, probes=100)
    assert "export default" in str(w._esm) and "model.send" in str(w._esm)
    assert ".bv-grid" in str(w._css)
    code = ("import sys, bloomviz.notebook.widget as w; w.BloomWidget(m=16, k=2, probes=10).insert('a'); "
            "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"   # no Qt: the widget runs where there is no display


def test_the_rate_line_names_what_the_theory_is():
    wb = Workbench(probes=500)
    assert wb.configure(variant="counting", m=400, k=3)
    wb.insert_batch([f"i{j}" for j in range(60)])
    widget = BloomWidget(wb)
    assert "exact" in widget.rate_line and "counters give" not in widget.rate_line
    stranger = next(x for x in (f"s{i}" for i in range(100_000)) if x in wb.filter and not wb.is_member(x))
    assert wb.remove(stranger, force=True) is not None
    widget = BloomWidget(wb)
    nums = wb.numbers()
    assert "exact" not in widget.rate_line and "for n inserts, no removals" in widget.rate_line
    assert f"its counters give {rate_text(nums.fp_now)}" in widget.rate_line
    scalable = Workbench(probes=500)
    assert scalable.configure(variant="scalable", initial_capacity=50, p=0.01)
    scalable.insert_batch([f"i{j}" for j in range(200)])
    line = BloomWidget(scalable).rate_line
    assert f"exact {rate_text(scalable.numbers().fp_own)} for this filter's own layout" in line
