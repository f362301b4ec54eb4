"""Many lines pasted into the item box: offered as one item per line, inserted as one job (progress, Cancel,
Undo as one step); a paste beyond the box points to File → Insert from file."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")


def test_a_thousand_pasted_lines_are_offered_and_inserted_as_items_undone_as_one_step(window, qtbot):
    panel, wb = window.item_panel, window.wb
    wb.insert("before")
    asked = []
    panel.confirm_lines = lambda question: asked.append(question) or True
    panel.line.setText("\n".join(f"l{i}" for i in range(1000)) + "\n\n")
    panel.insert()
    assert asked and "1,000 lines" in asked[0] and "Undo" in asked[0]
    qtbot.waitUntil(lambda: not wb.busy, timeout=30000)
    assert len(wb.filter) == 1001 and wb.is_member("l0") and wb.is_member("l999")
    assert not wb.is_member("\n".join(f"l{i}" for i in range(1000)))
    window.actions_["undo"].trigger()
    assert len(wb.filter) == 1 and wb.is_member("before") and not wb.is_member("l0")


def test_declining_inserts_nothing(window):
    panel, wb = window.item_panel, window.wb
    panel.confirm_lines = lambda question: False
    panel.line.setText("a\nb\nc")
    panel.insert()
    assert len(wb.filter) == 0 and panel.line.text() == "a\nb\nc" and "nothing was inserted" in panel.verdict_text


def test_a_paste_beyond_the_box_points_to_insert_from_file(window):
    panel, wb = window.item_panel, window.wb
    panel.confirm_lines = lambda question: pytest.fail("asked about a paste the box does not take")
    panel.line.setText("\n".join(f"line {i}" for i in range(200_000)))
    panel.insert()
    assert len(wb.filter) == 0 and "File → Insert from file" in panel.verdict_text


def test_a_line_copied_with_its_ending_is_that_line_for_insert_and_look_up(window):
    panel, wb = window.item_panel, window.wb
    panel.line.setText("alpha\r\n")
    panel.insert()
    assert wb.is_member("alpha") and not wb.is_member("alpha\r\n") and len(wb.filter) == 1
    panel.line.setText("alpha\n")
    panel.lookup()
    assert wb.last_record.op == "lookup" and wb.last_record.item == "alpha"


@pytest.mark.parametrize("action", ["lookup", "remove"])
def test_look_up_and_remove_refuse_several_lines_saying_so_instead_of_one_string_with_newlines(window, action):
    panel, wb = window.item_panel, window.wb
    wb.configure(256, 3, variant="counting")
    wb.insert_batch(["a", "b"])
    panel.confirm = lambda question: pytest.fail("asked about a removal it should not make")
    before = (len(wb.history), wb.filter.bits_set, len(wb.filter))
    panel.line.setText("a\nb\n")
    getattr(panel, action)()
    assert (len(wb.history), wb.filter.bits_set, len(wb.filter)) == before
    word = {"lookup": "Look up", "remove": "Remove"}[action]
    assert f"the box holds 2 lines, and {word} takes one item" in panel.verdict_text
    assert panel.line.text() == "a\nb\n"


def test_the_positions_shown_are_those_of_the_item_look_up_would_take(window):
    panel, wb = window.item_panel, window.wb
    panel.line.setText("alpha\r\n")
    shown = panel.hashes.toolTip()
    assert shown == "k = {} positions: {}".format(wb.filter.k, ", ".join(str(p) for p in wb.filter.positions("alpha")))
    panel.line.setText("alpha\nbeta")
    assert panel.hashes.text() == ""
