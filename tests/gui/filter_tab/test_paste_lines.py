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
