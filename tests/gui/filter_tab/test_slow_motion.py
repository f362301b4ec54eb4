"""Slow motion: one hash at a time, the filter untouched until the last step, then the workbench's own op."""

from __future__ import annotations

import pytest

from bloomviz.hashing import schemes as hashing
from bloomviz.gui.filter_tab import slow_motion


@pytest.fixture
def window(window):
    slow_motion.install(window)
    return window


@pytest.mark.parametrize("variant, params", [("standard", {}), ("counting", {}), ("blocked", {"block_bits": 64}),
                                             ("partitioned", {})])
def test_an_insert_step_by_step_then_done(window, variant, params):
    wb = window.wb
    wb.configure(256, 4, variant=variant, **params)
    wb.insert_batch(["alpha", "beta", "gamma"])
    panel = window.slow_motion
    before = wb.filter.bits_set, len(wb.filter)
    assert panel.start("insert", "delta")
    k = wb.filter.k
    assert len(panel.steps) == k + 3          # bytes, the scheme's values, k positions, the verdict
    for i in range(k + 2):      # start showed the first step; the last next() performs the insert
        assert (wb.filter.bits_set, len(wb.filter)) == before    # nothing changes while it is shown
        panel.next()
    assert not panel.running and len(wb.filter) == before[1] + 1
    positions = list(wb.filter.positions("delta"))
    if variant == "standard":   # the scheme's arithmetic ends with each position
        for i, p in enumerate(positions):
            assert f"= {p:,}" in panel.steps[2 + i]


def test_a_lookup_shows_zero_bits_and_cancel_changes_nothing(window):
    wb = window.wb
    wb.configure(64, 3, scheme="murmur3-km")
    panel = window.slow_motion
    assert panel.start("lookup", "never")
    panel.next()
    panel.next()
    assert "0 — the item is definitely not in the set" in panel.narration.text()
    panel.cancel()
    assert not panel.running and "Cancelled" in panel.message.text() and len(wb.history) == 0


def test_a_bad_item_is_refused_with_a_message(window):
    assert not window.slow_motion.start("insert", "x" * 70_000)
    assert "Refused" in window.slow_motion.message.text() and not window.slow_motion.running


def test_every_scheme_can_be_shown(window):
    for scheme in hashing.SCHEMES:
        window.wb.configure(128, 3, scheme=scheme)
        assert window.slow_motion.start("lookup", "probe")
        window.slow_motion.cancel()


def test_a_new_filter_stops_slow_motion(window):
    window.wb.configure(64, 3)
    assert window.slow_motion.start("insert", "alpha")
    window.wb.configure(128, 3)
    assert not window.slow_motion.running and "replaced" in window.slow_motion.message.text()
    assert len(window.wb.filter) == 0


def test_the_steps_tell_the_bits_as_the_filter_holds_them_after_an_insert_of_this_turn(window):
    # the grid draws an operation's record in the next turn of the event loop; the steps told "0, to be set" for
    # bits the insert just before (its record not drawn yet) had set
    wb = window.wb
    wb.configure(256, 4)
    wb.insert("delta")
    panel = window.slow_motion
    assert panel.start("insert", "delta")
    told = " ".join(panel.steps)
    assert "already 1" in told and "0, to be set" not in told
    panel.cancel()


def test_several_lines_are_refused_saying_so_and_a_line_with_its_ending_is_that_line(window):
    wb, panel = window.wb, window.slow_motion
    window.item_panel.line.setText("one\ntwo")
    assert not panel.start("lookup") and not panel.running
    assert "the box holds 2 lines, and slow motion takes one item" in panel.message.text()
    assert panel.start("lookup", "delta\r\n")
    while panel.running:
        panel.next()
    assert wb.last_record.op == "lookup" and wb.last_record.item == "delta"
