"""A student-sized start (issue 26): the window's first filter lets a newcomer make a false positive by hand
within a minute, auto-play inserts words, the typed item's k positions show while typing, the Find-a-false-
positive dialog keeps clear of the starred bits, closes on Esc and drops a stale message, and --demo N sizes
the filter for its N items."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.gui import app
from bloomviz.gui.filter_tab.find_fp import FindFalsePositiveDialog, FalsePositiveHunt, starred_points
from bloomviz.theory.rates import fp_exact
from bloomviz.vocabulary import Verdict

TYPED = "apple banana cherry grape lemon".split()
LOOKED_UP = ("dog cat horse mouse bird fish lion tiger bear wolf fox deer goat sheep cow pig duck frog snake "
             "owl").split()


pytestmark = pytest.mark.window(probes=500, parts=True, first_filter=True, size=(1280, 800))


def test_the_first_filter_makes_false_positives_likely_by_hand():
    m, k = app.FIRST_FILTER["m"], app.FIRST_FILTER["k"]
    assert fp_exact(m, k, 5) > 0.05                      # after five typed words: 1 lookup in 18
    at_capacity = fp_exact(m, k, app.FIRST_FILTER["capacity"])
    assert 1 - (1 - at_capacity) ** 20 > 0.95            # twenty lookups by hand at capacity: almost surely one


def test_a_student_types_five_words_and_finds_a_false_positive(window):
    wb, panel = window.wb, window.item_panel
    assert (wb.filter.m, wb.filter.k, wb.capacity) == (32, 3, 8)
    assert wb.undo_what is None                          # the first filter is the start, not an undo step
    for word in TYPED:
        panel.line.setText(word)
        panel.insert()
    verdicts = []
    for word in LOOKED_UP:
        panel.line.setText(word)
        panel.lookup()
        verdicts.append(wb.history[-1].verdict)
    assert Verdict.FALSE_POSITIVE in verdicts                    # twenty lookups by hand: "pig" passes
    panel.line.setText(LOOKED_UP[verdicts.index(Verdict.FALSE_POSITIVE)])
    panel.lookup()
    wb.flush()      # (shown in the next turn of the event loop)
    assert panel.verdict_text.startswith("FALSE POSITIVE")


def test_the_typed_items_positions_show_while_typing(window):
    panel = window.item_panel
    panel.line.setText("lemon")
    positions = window.wb.filter.positions("lemon")
    assert panel.hashes.text() == f"k = 3 positions: {', '.join(str(int(p)) for p in positions)}"
    panel.line.setText("")
    assert panel.hashes.text() == ""
    window.wb.configure(1000, 7)
    panel.line.setText("lemon")
    assert panel.hashes.text().startswith("k = 7 positions: ")


def test_auto_play_inserts_words_by_default(window, qtbot):
    assert window.autoplay.stream.source == "words"
    assert window.autoplay_panel.source_combo.currentData() == "words"
    window.autoplay.step()
    qtbot.waitUntil(lambda: len(window.wb.filter) == 1)
    assert str(window.wb.items[0]).isalpha()


def test_the_hunt_keeps_clear_of_the_stars_closes_on_esc_and_drops_a_stale_message(window, qtbot):
    for word in TYPED + ["mango", "peach", "plum"]:
        window.wb.insert(word)
    hunt = window.findChild(FalsePositiveHunt, "findFalsePositiveHunt")
    dialog = window.findChild(FindFalsePositiveDialog, "findFalsePositiveDialog")
    with qtbot.waitSignal(hunt.finished, timeout=10_000) as blocker:
        window.scenarios.start_page.find_button.click()
    assert blocker.args[0].outcome == "found" and str(blocker.args[0].item).isalpha()   # a word, not fp-…
    qtbot.waitUntil(lambda: len(starred_points(window.grid)) > 0)
    frame = dialog.frameGeometry()
    assert not any(frame.contains(p) for p in starred_points(window.grid))
    window.wb.flush()
    assert "has changed" not in dialog.label.text()      # the hunt's own lookup is not a change
    window.wb.insert("quince")
    window.wb.flush()           # (the dialog hears of it in the next turn of the event loop)
    assert "has changed since the last search" in dialog.label.text()
    qtbot.keyClick(dialog, QtCore.Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_demo_sizes_the_filter_for_its_items(window):
    window.demo(2000, fit=True)
    flt = window.wb.filter
    assert window.wb.capacity == 2000 and len(flt) == 2000
    assert flt.bits_set / flt.m < 0.6                    # a 1 % design is about half full at capacity
