"""The root conftest's floor on pytest-qt's waits: a wait that may raise waits at least WAIT_FLOOR_MS, so that a
loaded CI machine does not fail a condition that comes late; a wait that asked not to raise keeps its timeout."""

from __future__ import annotations

from PySide6 import QtCore
from pytestqt.qtbot import QtBot

WAIT_FLOOR_MS = getattr(QtBot.waitUntil, "floor_ms", 0)     # set by the root conftest


def root_failed() -> bool:
    """True once a test in this process failed: then the root conftest lets waits keep their own timeouts."""
    return QtBot.waitSignal.__globals__.get("_a_test_failed", False)     # the floor's wrapper lives in the conftest


class _Emitter(QtCore.QObject):
    fired = QtCore.Signal()


def test_a_short_timeout_outlasts_a_late_condition(qtbot):
    assert WAIT_FLOOR_MS >= 20_000, "the root conftest no longer floors pytest-qt's waits"
    assert all(getattr(getattr(QtBot, name), "floor_ms", 0) == WAIT_FLOOR_MS
               for name in ("waitUntil", "waitSignal", "waitSignals", "waitExposed", "waitActive", "waitCallback"))
    done = []
    QtCore.QTimer.singleShot(300, lambda: done.append(1))
    qtbot.waitUntil(lambda: bool(done), timeout=50)       # 50 ms asked; the condition holds after 300 ms
    assert done == [1]
    emitter = _Emitter()
    with qtbot.waitSignal(emitter.fired, timeout=50):
        QtCore.QTimer.singleShot(300, emitter.fired.emit)


def test_a_wait_that_does_not_raise_keeps_its_timeout(qtbot):
    emitter = _Emitter()
    with qtbot.waitSignal(emitter.fired, timeout=100, raising=False) as blocker:
        pass                                             # never emitted
    assert not blocker.signal_triggered
    assert blocker.timeout == 100                        # it gave up at its own 100 ms, not the floor
    with qtbot.waitSignal(emitter.fired, timeout=100) as raising:
        QtCore.QTimer.singleShot(0, emitter.fired.emit)
    assert raising.timeout == WAIT_FLOOR_MS or root_failed()


def test_after_a_failure_in_the_process_waits_keep_their_own_timeouts(qtbot, monkeypatch):
    # A run that is already red must not wait the floor ~300 times over (hours) if something broke every window.
    emitter = _Emitter()
    monkeypatch.setitem(QtBot.waitSignal.__globals__, "_a_test_failed", True)
    with qtbot.waitSignal(emitter.fired, timeout=100) as raising:
        QtCore.QTimer.singleShot(0, emitter.fired.emit)
    assert raising.timeout == 100
