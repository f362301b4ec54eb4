"""A long session opens in steps with progress and Cancel, not frozen (issue 13, item 5).

Replaying a 20,000-operation session froze the window for 8.7 s. Above ``SYNC_OPERATIONS`` the replay is a
workbench step job; its result equals the replay at once, and a cancel leaves the window as it was.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest

from bloomviz.gui.files import session_io

from bloomviz.workbench import replay as session_replay
from window_helpers import FakeDialogs, new_window


@pytest.fixture
def make(qtbot, tmp_path):
    def build():
        w = new_window(qtbot, tmp_path, probes=200)
        w.dialogs = FakeDialogs(unsaved_answer="discard")
        w.file_actions = session_io.install(w, w.dialogs)
        return w
    return build


def view(w):
    wb = w.wb
    wb.flush()          # the views as the next turn of the event loop draws them
    return (wb.grid_values().tobytes(), len(wb.filter), list(wb.items),
            [(e.op, e.label, e.verdict, e.n, e.fp_measured) for e in wb.history], len(wb.series),
            wb.numbers().fp_count, w.history_panel.model().rowCount(), w.windowTitle())


@pytest.fixture
def long_session(make, tmp_path):
    w = make()
    w.wb.configure(2048, 3)
    count = session_replay.SYNC_OPERATIONS + 700
    w.wb.blockSignals(True)     # the views need not follow the making of the session
    for i in range(count):
        (w.wb.insert if i % 3 else w.wb.lookup)(f"op{i}")
    w.wb.blockSignals(False)
    path = str(tmp_path / "long.bloomviz")
    assert w.file_actions.write_session(path)
    return path, view(w)[:6], count


def test_a_long_session_replays_in_steps_to_the_same_state(make, long_session, qtbot):
    path, saved, count = long_session
    w = make()
    w.wb.insert("before")
    progress = []
    w.wb.progress.connect(lambda done, total: progress.append(done))
    with qtbot.waitSignal(w.wb.jobFinished, timeout=60_000) as blocker:
        assert w.file_actions.open_session_path(path, ask=False)
        assert w.wb.busy            # Open returned with the replay under way: the window is not frozen
    assert blocker.args == [count, count, False]
    assert len([d for d in progress if 0 < d < count]) >= 2
    assert view(w)[:6] == saved
    assert w.history_panel.model().rowCount() == count
    assert np.array_equal(w.grid.picture.reshape(-1)[:w.wb.filter.m], w.wb.grid_values())
    assert "long.bloomviz" in w.windowTitle() and not w.file_actions.modified


def test_cancelling_a_long_open_leaves_the_window_as_it_was(make, long_session, qtbot):
    path, _saved, count = long_session
    w = make()
    w.wb.configure(500, 2)
    for word in ("alpha", "beta", "gamma"):
        w.wb.insert(word)
    w.wb.lookup("delta")
    before = view(w)
    modified = w.file_actions.modified
    assert w.file_actions.open_session_path(path, ask=False)
    qtbot.waitUntil(lambda: 0 < len(w.wb.history) < count, timeout=30_000)
    w.cancel_work()
    assert not w.wb.busy
    assert view(w) == before and w.file_actions.modified == modified
    assert w.wb.is_member("gamma") and not w.wb.is_member("op1")


def test_one_long_generated_run_replays_in_steps_and_a_cancel_puts_the_window_back(make, qtbot, tmp_path):
    # one 'insert generated' line of 150,000 items (an auto-play's run): replayed at once it held the GUI thread
    # for seconds; counted in items it is a job, its run made in parts, and it ends in the same bits
    from bloomviz.files import session as sessions
    run = ("i", 7, 0, 150_000)
    s = sessions.Session(m=1 << 20, k=5, operations=[sessions.SavedOperation("insert", item="first"),
                                                     sessions.SavedOperation(sessions.GENERATED, run=run),
                                                     sessions.SavedOperation("insert", item="last")])
    path = str(tmp_path / "run.bloomviz")
    sessions.save(s, path)
    w = make()
    w.wb.insert("before")
    before = view(w)
    assert w.file_actions.open_session_path(path, ask=False)
    assert w.wb.busy
    qtbot.waitUntil(lambda: len(w.wb.history) >= 3, timeout=30_000)    # the run is under way in parts
    w.cancel_work()
    assert not w.wb.busy and view(w) == before
    with qtbot.waitSignal(w.wb.jobFinished, timeout=60_000) as blocker:
        assert w.file_actions.open_session_path(path, ask=False)
        assert w.wb.busy
    assert blocker.args == [150_002, 150_002, False] and len(w.wb.filter) == 150_002
    whole = make()
    whole.wb.configure(1 << 20, 5)
    session_replay.Stepper(whole.wb, s.operations).run_all()            # at once, the run in one insert
    assert np.array_equal(whole.wb.grid_values(), w.wb.grid_values())
    last_generated = sessions.SavedOperation(sessions.GENERATED, run=run).generated()[-1]
    assert w.wb.is_member("last") and w.wb.is_member(last_generated)
