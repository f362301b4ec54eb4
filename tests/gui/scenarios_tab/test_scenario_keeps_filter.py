"""A scenario never replaces the user's filter unasked, and its Cancel puts the filter back exactly (issue 13, 2).

Before: Alt+1…5, the Scenarios menu and a Start card replaced the filter without a word, and Cancel said "the
filter was put back as it was" while the user's 500 items were gone.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.measure.series import Series
from bloomviz.items.encoding import to_bytes
from bloomviz.gui.files import file_dialogs
from bloomviz.gui.scenarios_tab import controller as scenarios
from bloomviz.gui.files import session_io
from window_helpers import FakeDialogs


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py), its File menu and scenarios answered by the test."""
    window.dialogs = FakeDialogs()
    window.file_actions = session_io.install(window, window.dialogs)
    window.scenarios = scenarios.install(window, ask=lambda title, question: True)
    yield window
    window.dialogs.unsaved_answer = file_dialogs.DISCARD


def state(w):
    wb = w.wb
    wb.flush()          # the views as the next turn of the event loop draws them
    return {"params": (wb.variant, wb.filter.m, wb.filter.k, wb.filter.scheme, wb.capacity),
            "bits": wb.grid_values().tobytes(), "n": len(wb.filter),
            "items": list(wb.items), "history": list(wb.history), "lookups": wb.status()["lookups"],
            "series": {c: wb.series.column(c).copy() for c in Series.COLUMNS},
            "fp": wb.numbers().fp_count, "picture": w.grid.picture.copy(),
            "rows": w.history_panel.model().rowCount()}


def assert_same(a, b):
    for key in ("params", "bits", "n", "items", "history", "lookups", "fp", "rows"):
        assert a[key] == b[key], key
    for c in Series.COLUMNS:
        assert np.array_equal(a["series"][c], b["series"][c], equal_nan=True), c
    assert np.array_equal(a["picture"], b["picture"])


def fill_users_filter(w, count=500):
    w.wb.insert_batch([f"mine-{i}" for i in range(count)])
    w.wb.insert("typed")
    w.wb.lookup("absent")


def test_cancelling_a_chunked_scenario_puts_the_users_filter_back_exactly(window, qtbot):
    fill_users_filter(window)
    before = state(window)
    window.dialogs.unsaved_answer = file_dialogs.DISCARD
    failures = []
    window.scenarios.runner.failed.connect(lambda key, message: failures.append(message))
    assert window.scenarios.run("urls")
    assert window.wb.busy and len(window.wb.filter) != before["n"]
    started = len(window.wb.filter)
    qtbot.waitUntil(lambda: len(window.wb.filter) > started)    # a chunk more run from the event loop
    window.cancel_work()
    assert failures and "put back" in failures[-1] and "501" in failures[-1]
    assert_same(state(window), before)
    # the truth came back too: every one of the user's items is a member, and a lookup says so
    assert all(window.wb.is_member(x) for x in ("mine-0", "mine-499", "typed"))
    window.wb.lookup("mine-7")
    assert window.wb.last_explanation.verdict == "true positive"


@pytest.mark.parametrize("how", ["menu", "start card"])
def test_a_scenario_asks_before_replacing_unsaved_items_and_cancel_changes_nothing(window, qtbot, how):
    fill_users_filter(window, 50)
    before = state(window)
    window.dialogs.unsaved_answer = file_dialogs.CANCEL
    if how == "menu":
        window.scenarios.actions["contacts"].trigger()
    else:
        window.show_tab("start")
        qtbot.mouseClick(window.scenarios.start_page.run_buttons["contacts"], QtCore.Qt.MouseButton.LeftButton)
    assert len(window.dialogs.asked) == 1 and "scenario" in window.dialogs.asked[0]
    assert_same(state(window), before)
    window.dialogs.unsaved_answer = file_dialogs.DISCARD
    with qtbot.waitSignal(window.scenarios.runner.finished, timeout=30_000):
        window.scenarios.actions["contacts"].trigger()
    assert len(window.dialogs.asked) == 2
    assert len(window.wb.filter) == 32


def test_alt_shortcut_runs_through_the_same_question(window, qtbot):
    fill_users_filter(window, 10)
    window.dialogs.unsaved_answer = file_dialogs.CANCEL
    before = state(window)
    act = window.scenarios.actions["spell"]
    assert act.shortcut().toString() == "Alt+1"
    act.trigger()
    assert window.dialogs.asked
    assert_same(state(window), before)


def test_a_fresh_window_runs_a_scenario_without_asking(window, qtbot):
    with qtbot.waitSignal(window.scenarios.runner.finished, timeout=30_000):
        window.scenarios.run("contacts")
    assert window.dialogs.asked == []
    assert {to_bytes(x) for x in window.wb.items}
